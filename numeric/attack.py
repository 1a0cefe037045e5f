"""Precision, recall and the optimal F_beta of the NP membership attack, to verified digits.

Formulas come from ``derive.attack`` (one SymPy expression each).  The optimum
over the attack's level alpha is the printed closed form for the Laplace
mechanism (proved equal to SymPy's own derivation by claim LXM-Eq12), and a
numerical maximisation otherwise (golden-section search in log alpha plus the
endpoint alpha = 1; the stationarity condition of LXM-Eq15-stat has a unique
root, so the search is on a unimodal function).  1 - F is always evaluated from
its own cancellation-free expression.

Results are frozen dataclasses (``numeric.display.ResultDisplay``): ``PrResult``,
``FscoreOptimum``, ``FscoreInverse``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive import attack as A
from derive import symbols as sy
from derive.exact import as_expr, parse
from derive.mechanisms import facts as K
from derive.tradeoff import TradeOff

from .bridge import ONE, Exact, compile_mp, exact_of, to_mpf
from .display import ResultDisplay
from .inputs import alpha_exact, bound_env
from .precision import as_mpf, evaluate_env, verified, verified_mpf
from .profile import LOG_ALPHA_LOW
from .solvers import golden_max, newton_in_bracket


@dataclass(frozen=True)
class PrResult(ResultDisplay):
    """Precision, 1 - precision, recall and threshold (None: undefined) of the NP attack at one level;
    ``note`` says which limits were taken."""
    precision: object
    one_minus_precision: object
    recall: object
    threshold: object
    digits: int = 15
    note: str | None = None


@dataclass(frozen=True)
class FscoreOptimum(ResultDisplay):
    """max over alpha of F_beta: the maximum, its complement, the maximising level and threshold, whether it is
    interior, on the plateau or at the endpoint alpha = 1 (``branch``), and how it was found (``method``);
    ``one_minus_alpha`` is 1 - alpha* without subtraction where the route gives it (G_mu), else None."""
    fscore: object
    one_minus_fscore: object
    alpha: object
    threshold: object
    branch: str
    method: str
    digits: int = 15
    one_minus_alpha: object = None


@dataclass(frozen=True)
class FscoreInverse(ResultDisplay):
    """The largest eps with F*_beta(eps) <= bound (None, with the ``reason``, when there is none)."""
    eps: object
    reason: str | None
    digits: int = 15


def _env(record, beta=None, weight=None):
    env = bound_env(record)
    if beta is not None:
        env[A.beta] = exact_of(parse("beta", beta, 0, low_open=True))
    env[A.w] = exact_of(sp.Rational(weight if weight is not None else 1))
    return env


def _stored(record: TradeOff, key: str):
    """The record's fact ``key`` as an expression in its parameters (unbound), or None."""
    entry = record.facts.get(key)
    return None if entry is None else entry[0]


def threshold_expr(record: TradeOff) -> sp.Expr:
    """theta(alpha) in units of Delta Q above Q(D') for the record's noise: the Laplace pair of ``K.LAPLACE_EPS``
    (scale 1/eps), G_mu of ``K.GDP_MU`` (sigma = 1/mu); None for any other record."""
    eps = _stored(record, K.LAPLACE_EPS)
    if eps is not None:
        return A.laplace_threshold(eps)
    mu = _stored(record, K.GDP_MU)
    if mu is not None:
        return A.gaussian_threshold(1 / mu)
    return None


def _noiseless(record: TradeOff) -> bool:
    """Whether the record is the Laplace pair or G_mu with the parameter 0 (f = Id: every threshold gives
    the same test)."""
    value = record.fact(K.LAPLACE_EPS)
    if value is None:
        value = record.fact(K.GDP_MU)
    return value is not None and value == 0


def pr(record: TradeOff, alpha, digits: int = 15, weight=None) -> PrResult:
    """precision, 1 - precision, recall and threshold of the NP attack at level alpha.

    Limits, answered with a ``note``: at alpha = 0 with 1 - f(0) = 0, precision R/(R + w alpha) is
    0/0 and its limit alpha -> 0+ is rho/(rho + w), rho = lim (1 - f(alpha))/alpha (seed 000's
    relative risk, derive.risk.rho: e^eps for Laplace, inf for the Gaussian, so precision 1), and
    the threshold tends to +inf.  With no noise parameter (eps = 0, a perfectly private mechanism)
    every threshold gives the same test: the threshold is None.
    """
    env = _env(record, weight=weight)
    a = alpha_exact(alpha)
    env[sy.alpha] = a
    notes = []
    recall = evaluate_env(record.power, env, digits)
    if a.p == 0 and recall == 0:
        from derive import risk as R
        rho = R.rho(record).value
        w = env[A.w].to_rational()
        if rho is sp.oo:
            prec, miss = mpmath.mpf(1), mpmath.mpf(0)      # exactly: rho = inf
        else:
            prec = evaluate_env(rho / (rho + w), {}, digits)
            miss = evaluate_env(w / (rho + w), {}, digits)
        notes.append("alpha = 0: precision is the limit alpha -> 0+, rho/(rho + w) with rho = " + str(rho).replace("oo", "inf"))
    else:
        prec = evaluate_env(A.precision(record), env, digits)
        miss = evaluate_env(A.one_minus_precision(record), env, digits)
    theta = threshold_expr(record)
    noiseless = _noiseless(record)
    if theta is None or noiseless:
        threshold = None
        if noiseless:
            notes.append("eps = 0: no privacy loss, every threshold gives the same test (threshold undefined)")
    elif a.p == 0:
        threshold = mpmath.mpf("inf")
        notes.append("alpha = 0: the threshold tends to +inf")
    else:
        threshold = evaluate_env(theta, env, digits)
    return PrResult(precision=prec, one_minus_precision=miss, recall=recall, threshold=threshold, digits=digits,
                    note="; ".join(notes) if notes else None)


def fscore_optimum(record: TradeOff, beta, digits: int = 15, weight=None) -> FscoreOptimum:
    """max over alpha of F_beta: fscore, one_minus_fscore, alpha, threshold, branch."""
    env = _env(record, beta, weight)
    if K.LAPLACE_EPS in record.facts:
        return _laplace_optimum(record, env, digits)
    if _is_identity(record):
        return _identity_optimum(env, digits)
    if K.GDP_MU in record.facts:
        return _gaussian_optimum(record, env, digits)
    return _numeric_optimum(record, env, digits)


def _is_identity(record) -> bool:
    """Whether an identity fact says f = 1 - alpha: G_0, f_{0,0}, the logistic pair at shift 0."""
    for key in (K.GDP_MU, K.LOGISTIC_SHIFT, K.EPS_DELTA):
        value = record.fact(key)
        if value is not None:
            values = value if isinstance(value, sp.Tuple) else (value,)
            return all(v.is_number and v == 0 for v in values)
    return False


def _identity_optimum(env, digits):
    """F_beta of f = 1 - alpha: R = alpha, so F = (1 + b^2) alpha / ((1 + w) alpha + b^2) increases in alpha
    and its maximum is at alpha = 1: (1 + b^2)/(1 + w + b^2), complement w/(1 + w + b^2) (no search: the
    golden section over log alpha would evaluate PhiInv down to alpha = e^-LOG_ALPHA_LOW for nothing)."""
    b2, w = A.beta ** 2, A.w
    fscore = evaluate_env((1 + b2) / (1 + w + b2), env, digits)
    one_minus = evaluate_env(w / (1 + w + b2), env, digits)
    # alpha = 1 rejects every outcome: the threshold -inf, as on the Laplace plateau
    return FscoreOptimum(fscore=fscore, one_minus_fscore=one_minus, alpha=mpmath.mpf(1), threshold=mpmath.mpf("-inf"),
                         branch="endpoint", method="exact: f = 1 - alpha (no privacy loss), F_beta increases to "
                         "alpha = 1", digits=digits, one_minus_alpha=mpmath.mpf(0))


def _mu_of(record):
    """mu of G_mu (``K.GDP_MU``) as a SymPy number (the classical mechanism's mu = eps / sqrt(2 ln(1.25/delta)))."""
    return record.fact(K.GDP_MU)


def _gaussian_optimum(record, env, digits):
    """F_beta's maximum for G_mu (mu > 0) from its first-order condition, to ``digits`` verified digits.

    With alpha = Phi(-t) (t = mu x threshold, the threshold in units of Delta Q), G_mu gives
    R = 1 - f = Phi(mu - t) and f = Phi(t - mu), so F_beta = (1 + b^2) R / (R + w Phi(-t) + b^2).
    Its t-derivative has the sign of -h(t), where

        h(t) = mu t - mu^2/2 - log(w Phi(mu - t)) + log(w Phi(-t) + b^2)

    (the log of phi(mu - t)/phi(t) is mu t - mu^2/2).  h runs from -inf (t -> -inf) to +inf, so F
    increases then decreases: the maximum is interior, at the root t* of h, found by safeguarded Newton
    inside a bracket kept by the sign of h (in log Phi: no cancellation, also when alpha* = 1 - 1e-488) and
    verified at two precisions like every mp result.  alpha = 1 is never the maximum for mu > 0.
    """
    from .kernels import log_ncdf, ncdf
    mu_expr = _mu_of(record)
    mu_fn = compile_mp(as_expr(mu_expr))
    b2 = env[A.beta].to_rational() ** 2
    w = env[A.w].to_rational()

    roots = {}

    def root():
        """(mu, b^2, w, t*) at the working precision, once per precision (every field reads it): safeguarded
        Newton on h inside a bracket kept by h's sign (numeric.solvers.newton_in_bracket), with
        h'(t) = mu + phi(mu - t)/Phi(mu - t) - w phi(-t)/(w Phi(-t) + b^2) (the first ratio in log space)."""
        if mpmath.mp.prec in roots:
            return roots[mpmath.mp.prec]
        mu = to_mpf(mu_fn({}))
        bb, ww = mpmath.mpf(b2.p) / b2.q, mpmath.mpf(w.p) / w.q
        log_root_2pi = mpmath.log(2 * mpmath.pi) / 2

        def h(t):
            return mu * t - mu * mu / 2 - mpmath.log(ww) - log_ncdf(mu - t) + mpmath.log(ww * ncdf(-t) + bb)

        def slope(t):
            mills = mpmath.exp(-(mu - t) ** 2 / 2 - log_root_2pi - log_ncdf(mu - t))
            return mu + mills - ww * mpmath.npdf(-t) / (ww * ncdf(-t) + bb)

        def probe(t):
            value = h(t)
            return value < 0, lambda: value / slope(t)
        # the bracket grows around t = mu/2, where mu t - mu^2/2 (the dominant part of h) vanishes: at
        # mu = 1e300 the root lies within 1/mu of it, and doubling out from [-1, 1] took ~1000 evaluations of
        # h (each an e^{-t^2/2} with a 2000-bit exponent: fscore classical-gaussian --eps 1e300 ran past 30 s)
        # (offsets, not ends, are doubled: centre - 1 rounds to centre at 1e300)
        centre = mu / 2
        down = up = mpmath.mpf(1)
        while h(centre - down) > 0:
            down *= 2
        while h(centre + up) < 0:
            up *= 2
        lo, hi = centre - down, centre + up
        # relative tolerance (the Newton step against |t|; the bracket halves at least every other step, so
        # 2 prec + 40 steps always reach it)
        t = newton_in_bracket(probe, lo, hi, mpmath.ldexp(1, -mpmath.mp.prec + 4), 2 * mpmath.mp.prec + 40)
        roots[mpmath.mp.prec] = (mu, bb, ww, t)
        return roots[mpmath.mp.prec]

    def field(which):
        def compute():
            mu, bb, ww, t = root()
            R, A_, f = ncdf(mu - t), ncdf(-t), ncdf(t - mu)
            den = R + ww * A_ + bb
            return {"t": t, "fscore": (1 + bb) * R / den, "one_minus": (ww * A_ + bb * f) / den,
                    "alpha": A_, "one_minus_alpha": ncdf(t), "threshold": t / mu}[which]
        return compute
    return FscoreOptimum(
        fscore=verified_mpf(field("fscore"), digits),
        one_minus_fscore=verified_mpf(field("one_minus"), digits),
        alpha=verified_mpf(field("alpha"), digits),
        one_minus_alpha=verified_mpf(field("one_minus_alpha"), digits),
        threshold=verified_mpf(field("threshold"), digits),
        branch="interior",
        method="first-order condition of F_beta in t = mu x threshold, safeguarded Newton in a bracket, verified "
               "at two precisions",
        digits=digits)


def _laplace_optimum(record, env, digits):
    e = record.fact(K.LAPLACE_EPS)
    tau = A.turning_point().xreplace({A.beta: env[A.beta].to_rational(), A.w: env[A.w].to_rational()})
    plateau = bool(e < tau)
    full = {**env}
    full[sy.eps] = exact_of(e)
    f_star = evaluate_env(A.printed_eq24(), full, digits)
    one_minus = evaluate_env(A.printed_eq24_complement(), full, digits)
    if plateau:
        alpha_star, theta = mpmath.mpf(1), mpmath.mpf("-inf")
    else:
        alpha_expr = A.printed_alpha_star()
        alpha_star = evaluate_env(alpha_expr, full, digits)
        theta = evaluate_env(A.laplace_threshold(sy.eps).subs(sy.alpha, alpha_expr), full, digits)
    return FscoreOptimum(fscore=f_star, one_minus_fscore=one_minus, alpha=alpha_star,
                         threshold=theta, branch="plateau" if plateau else "interior",
                         method="closed form (Eq. 24; derived by SymPy, claim LXM-Eq12)", digits=digits)


def _argmax(record, env):
    """compute() of the maximising alpha (mpf or Exact 1) of F_beta."""
    f_fn = compile_mp(A.fscore(record))

    def f_at(a):
        env[sy.alpha] = a
        return to_mpf(f_fn(env))

    def compute():
        u, m = golden_max(lambda u: f_at(mpmath.exp(u)), LOG_ALPHA_LOW, 0)
        a = mpmath.exp(u)
        # f(0) < 1 (an (eps, delta) record): F tends to a positive constant as alpha -> 0, flat in log alpha
        # at every precision over most of [LOG_ALPHA_LOW, 0], and the search above slid left on the ties
        # (approx_dp(1, 0.01): F = 2/3 at alpha = 1 reported, the maximum is 0.73375 at the kink alpha =
        # 0.266).  F is quasi-concave in alpha (R = 1 - f concave, so {F >= c} is an interval), so a second
        # golden section on alpha itself finds it; the better of the two is kept.
        if f_at(mpmath.exp(LOG_ALPHA_LOW)) > mpmath.ldexp(1, -64):
            a_lin, m_lin = golden_max(f_at, mpmath.mpf(0), mpmath.mpf(1))
            if m_lin > m:
                a, m = a_lin, m_lin
        # alpha = 1 only when it wins by more than the rounding of this precision; a near-tie is left
        # to the next precision of verified() (an endpoint decided at the first precision was final,
        # and hid interior maxima that exceed F(1) by 1e-20: classical-gaussian eps 0.1, delta 1e-10)
        if f_at(ONE) > m * (1 + mpmath.ldexp(1, -(mpmath.mp.prec - 20))):
            return ONE
        return a
    return compute


def _numeric_optimum(record, env, digits):
    find = _argmax(record, env)
    f_fn, g_fn = compile_mp(A.fscore(record)), compile_mp(A.one_minus_fscore(record))
    theta = threshold_expr(record)
    t_fn = compile_mp(theta) if theta is not None else None

    def at_argmax(fn):
        def compute():
            a = find()
            env[sy.alpha] = a
            return fn(env)
        return compute

    alpha_star = verified(find, max(digits // 2, 5))
    fscore = verified_mpf(at_argmax(f_fn), digits)
    one_minus = verified_mpf(at_argmax(g_fn), digits)
    threshold = verified_mpf(at_argmax(t_fn), max(digits // 2, 5)) if t_fn is not None else None
    at_one = isinstance(alpha_star, Exact) or abs(as_mpf(alpha_star, digits + 10) - 1) < mpmath.mpf(10) ** -(digits // 2)
    method = "numerical maximisation over alpha (golden section in log alpha)"
    if at_one:
        method += ("; alpha = 1 attains the maximum at the working precision (an interior "
                   "maximum, if any, exceeds it by less than the verified digits show)")
    return FscoreOptimum(fscore=fscore, one_minus_fscore=one_minus, alpha=as_mpf(alpha_star, digits + 10),
                         threshold=threshold, branch="endpoint" if at_one else "interior", method=method,
                         digits=digits)


def fscore_inverse(beta, bound, weight=None, digits: int = 15) -> FscoreInverse:
    """Largest eps with F*_beta(eps) <= bound for the Laplace mechanism (seed 001, Table 1)."""
    b = parse("beta", beta, 0, low_open=True)
    f = parse("bound", bound, 0, 1, low_open=True, high_open=True)
    wv = sp.Rational(weight if weight is not None else 1)
    floor = (1 + b**2) / (1 + b**2 + wv)
    if f < floor:
        return FscoreInverse(eps=None, reason=f"no eps: F*_beta >= (1+beta^2)/(1+beta^2+w) = "
                                              f"{mpmath.nstr(mpmath.mpf(floor.p) / floor.q, 6)} for every eps "
                                              f"(the plateau), above the bound {bound}", digits=digits)
    env = {A.beta: exact_of(b), A.bound: exact_of(f), A.w: exact_of(wv)}
    eps = evaluate_env(A.printed_inverse(), env, digits)
    return FscoreInverse(eps=eps, reason=None, digits=digits)
