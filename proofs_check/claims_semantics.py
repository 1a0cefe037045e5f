"""Claims of seed 002 (Kazan et al. 2025): Bayesian semantics, composition, zCDP.

Catalog ids from ``../shared/catalog/002.md`` (KZ-*).  The seed's formulas were
stripped by the extraction, so each reconstructed formula is checked here
rather than assumed.  Numerical confirmations use the Gaussian mechanism with
shift mu, whose privacy loss given membership is Z ~ N(mu^2/2, mu^2) (and
-Z' ~ the same law given non-membership), so P(|Z| > x) is a sum of two
normal tails, and whose exact (eps, delta) curve is the GDP profile
(Dong, Roth, Su 2022, Cor. 2.13, claim DRS-Cor2.13).

Corollaries 3.6 to 3.12 (KZ-C3.6 ... KZ-C3.12) are in ``claims_semantics_corollaries``, discovered
right after this module.
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

import derive
from derive import composition as C
from derive import design as D
from derive import risk as R
from derive import semantics as S
from derive import symbols as sy
from derive.posterior import prior, prior_c
from derive.special import Phi
from numeric import composition as NC
from numeric import mp
from numeric.bridge import compile_mp

from .outcomes import agreement, inequality, proven_if
from .registry import claim
from .status import CONFIRMED, FAILED, PROVEN, Outcome

SOURCE = "Kazan, Sharma, Zhang, Jiang, Yan (2025), arXiv:2507.09699v1"
p = sp.Symbol("p", positive=True)


def _with_prior(expr):
    """Replace (pi, bar_pi) by (p, 1 - p) for symbolic proofs."""
    return expr.xreplace({prior: p, prior_c: 1 - p})


def _zero(expr) -> sp.Expr:
    return sp.simplify(expr)


#: points of the claims' domains where an undecided SymPy difference is evaluated (a definite nonzero
#: value there makes the claim FAILED rather than INCONCLUSIVE)
_PROBES = [{p: sp.Rational(1, 5), prior: sp.Rational(1, 5), prior_c: sp.Rational(4, 5), sy.eps: 1, sy.delta: sp.Rational(1, 100),
            S.delta_p: sp.Rational(1, 10), sp.Symbol("eps'", positive=True): 2, S.loss: sp.Rational(1, 3), S.c: 1,
            sp.Symbol("f1", positive=True): 2, sp.Symbol("f0", positive=True): 3, sp.Symbol("u", positive=True): sp.Rational(6, 5)},
           {p: sp.Rational(7, 10), prior: sp.Rational(7, 10), prior_c: sp.Rational(3, 10), sy.eps: sp.Rational(1, 2),
            sy.delta: sp.Rational(1, 10**6), S.delta_p: sp.Rational(1, 100), sp.Symbol("eps'", positive=True): 3,
            S.loss: -2, S.c: -1, sp.Symbol("f1", positive=True): 1, sp.Symbol("f0", positive=True): 5,
            sp.Symbol("u", positive=True): sp.Rational(11, 10)}]


# ------------------------------------------------------------------ Section 3
@claim("KZ-T3.1", ("002",), SOURCE + ", Theorem 3.1, Eq. 1-2", "identity",
       "the posterior p f1/(p f1 + (1-p) f0) equals 1/(1 + (1-p)/p e^{-L}) with L = log(f1/f0) "
       "given membership, and 1/(1 + (1-p)/p e^{L'}) with L' = log(f0/f1) otherwise; "
       "it is increasing in L")
def _t31():
    f1, f0 = sp.symbols("f1 f0", positive=True)
    bayes = p * f1 / (p * f1 + (1 - p) * f0)
    member = _with_prior(S.posterior_of_loss(True, sp.log(f1 / f0)))
    other = _with_prior(S.posterior_of_loss(False, sp.log(f0 / f1)))
    slope = sp.simplify(sp.diff(_with_prior(S.posterior_of_loss(True)), S.loss))
    return proven_if({"member": _zero(bayes - member), "non-member": _zero(bayes - other),
                    "increasing": slope.is_positive if slope.is_positive is not None else
                    sp.simplify(slope - p * (1 - p) * sp.exp(S.loss) / (p * sp.exp(S.loss) + 1 - p)**2)},
                   "SymPy: both forms equal Bayes' rule; dP/dL = p(1-p)e^L/(p e^L + 1 - p)^2 > 0", probes=_PROBES)


@claim("KZ-T3.2", ("002",), SOURCE + ", Theorem 3.2, Eq. 3 (and Cor. 3.6)", "iff",
       "P(L(p,eps) <= P_i <= U(p,eps)) = P(|Z| <= eps): the posterior of Thm 3.1 equals U at Z = eps and "
       "L at Z = -eps, so the posterior bound is the PDP event; U(1/2, eps) = 1/(1 + e^-eps)")
def _t32():
    post = S.posterior_of_loss(True)
    return proven_if({"U": _zero(post.subs(S.loss, sy.eps) - S.upper()),
                    "L": _zero(post.subs(S.loss, -sy.eps) - S.lower()),
                    "U(1/2)": _zero(_with_prior(S.upper()).subs(p, sp.Rational(1, 2)) - 1 / (1 + sp.exp(-sy.eps))),
                    "1-U": _zero(_with_prior(S.upper() + S.one_minus_upper()) - 1),
                    "1-L": _zero(_with_prior(S.lower() + S.one_minus_lower()) - 1)},
                   "SymPy: P(Z = eps) = U(p, eps), P(Z = -eps) = L(p, eps) with P increasing in Z (KZ-T3.1); "
                   "the complements 1 - U and 1 - L are exact", probes=_PROBES)


@claim("KZ-T3.3", ("002",), SOURCE + ", Theorem 3.3, Eq. 4-5 (and Cor. 3.7)", "limit",
       "sup_p U(p,eps)/p = e^eps and inf_p L(p,eps)/p = e^-eps (both as p -> 0; U/p is decreasing in p), "
       "so the ratio bound [e^-eps, e^eps] is prior-free")
def _t33():
    up = _with_prior(S.upper()) / p
    lo = _with_prior(S.lower()) / p
    dup = sp.simplify(sp.diff(up, p))
    return proven_if({"sup": _zero(sp.limit(up, p, 0, "+") - sp.exp(sy.eps)),
                    "inf": _zero(sp.limit(lo, p, 0, "+") - sp.exp(-sy.eps)),
                    "monotone": _zero(dup + sp.exp(sy.eps) * (sp.exp(sy.eps) - 1) /
                                      (p * sp.exp(sy.eps) + 1 - p)**2)},
                   "SymPy limits at p -> 0; d(U/p)/dp = -e^eps (e^eps - 1)/(p e^eps + 1 - p)^2 <= 0", probes=_PROBES)


@claim("KZ-L3.4", ("002",), SOURCE + ", Lemma 3.4, Eq. 6", "identity",
       "h_c(p) = U(p, c) - p is stationary at p* = 1/(1 + e^{c/2}) with h_c(p*) = tanh(c/4) "
       "= (e^{c/2} - 1)/(e^{c/2} + 1), a maximum for c > 0 (minimum for c < 0); 1 - U(p*, c) = p*")
def _l34():
    c = S.c
    h = _with_prior(S.upper(c)) - p
    crit = sp.solve(sp.diff(h, p), p)
    star = S.worst_case_prior(c)
    hit = [r for r in crit if sp.simplify(r - star) == 0]
    second = sp.simplify(sp.diff(h, p, 2).subs(p, star))
    # sign of h'' at p*: -(e^{c/2} + 1)^3 sinh(c/2)/(2 e^{c/2}) ... checked by substitution
    sign_pos = sp.simplify(second.subs(c, 1)).evalf() < 0
    sign_neg = sp.simplify(second.subs(c, -1)).evalf() > 0
    return proven_if({"root": len(hit) == 1,
                    "value": _zero((h.subs(p, star) - S.tau(c)).rewrite(sp.exp)),
                    "printed tau": _zero((S.tau(c) - S.tau_printed(c)).rewrite(sp.exp)),
                    "complement": _zero(_with_prior(S.one_minus_upper(c)).subs(p, star) - star),
                    "second": bool(sign_pos and sign_neg)},
                   f"SymPy: dh/dp = 0 at {star}; h(p*) - tanh(c/4) = 0; h''(p*) = {second} "
                   "(negative at c = 1, positive at c = -1, and its sign is that of -c)", probes=_PROBES)


@claim("KZ-T3.5", ("002",), SOURCE + ", Theorem 3.5 and Cor. 3.8, 3.12(1)", "identity",
       "(1) |U - p| and |L - p| are at most tau(eps) for every prior; (2) a difference bound tau(eps) at "
       "p = 1/2 confines Z to [-eps~, eps~] with eps~ = log((1 + 2 tau)/(1 - 2 tau)) "
       "= log((3 e^{eps/2} - 1)/(3 - e^{eps/2})) >= eps, and at the worst-case priors to Z <= eps")
def _t35():
    z = sp.Symbol("z", real=True)
    u = sp.Symbol("u", positive=True)          # u = e^{eps/4}: every quantity is rational in u
    to_u = {sy.eps: 4 * sp.log(u)}
    t = sp.simplify(S.tau().subs(to_u).rewrite(sp.exp))
    half = _with_prior(S.posterior_of_loss(True, z)).subs(p, sp.Rational(1, 2))
    sol = sp.solve(sp.Eq(sp.exp(-z), sp.solve(sp.Eq(half.subs(sp.exp(-z), sp.Symbol("w", positive=True)),
                                                   sp.Rational(1, 2) + t), sp.Symbol("w", positive=True))[0]), z)
    tilde = sp.simplify(sp.exp(S.eps_tilde().subs(to_u).rewrite(sp.exp)))
    printed = sp.simplify(sp.exp(S.eps_tilde_printed().subs(to_u)))
    star = S.worst_case_prior().subs(to_u)
    w = sp.Symbol("w", positive=True)            # w = e^z
    at_star = _with_prior(S.posterior_of_loss(True, sp.log(w))).subs(p, star)
    one_sided = sp.solve(sp.Eq(sp.simplify(at_star - star), t), w)
    e_lo = [sp.Rational(k, 10) for k in range(1, 21)]          # eps in (0, 2] < 2 log 3
    gaps = [mp.evaluate(S.eps_tilde() - sy.eps, {sy.eps: e}, 20) for e in e_lo]
    return proven_if({"(2) p = 1/2": any(_zero(sp.exp(sv.subs(to_u)) - tilde) == 0 for sv in sol),
                    "printed": _zero(tilde - printed),
                    "one-sided": any(_zero(r - u**4) == 0 for r in one_sided),
                    "eps~ >= eps": all(g > 0 for g in gaps)},
                   "SymPy, in u = e^{eps/4}: U(1/2, z) = 1/2 + tau(eps) iff e^z = e^{eps~} (= the printed closed "
                   "form (3u^2 - 1)/(3 - u^2)); U(p*, z) - p* = tau(eps) iff e^z = u^4 = e^eps; (1) is KZ-L3.4 "
                   "(max_p (U - p) = tau); eps~ - eps > 0 at eps = 0.1, ..., 2 (20 points, verified digits)", probes=_PROBES)


def _prior_pair(text: str, upper_half: bool):
    """(p, 1 - p) as exact Rationals: p = text (a decimal <= 1/2), or 1 - p = text for the upper half."""
    small = sp.Rational(text)
    return (1 - small, small) if upper_half else (small, 1 - small)


def _exa1_margin(e_txt: str, upper_half: bool):
    """The EXA.1 slack at prior p: max over the two randomized-response outputs (privacy loss +-eps~,
    from the toolkit's eps_tilde) of (tau(eps) - |P - p|)/tau(eps), with P - p the toolkit's
    cancellation-free difference_at_prior.  >= 0 means at most one output breaks the bound."""
    et = mpmath.nstr(mp.evaluate(S.eps_tilde(), {sy.eps: e_txt}, 40), 40)     # exact decimal input
    t = mp.evaluate(S.tau(), {sy.eps: e_txt}, 30)
    up, down = S.difference_at_prior(S.loss), S.difference_at_prior(-S.loss)

    def margin(text):
        pr, prc = _prior_pair(text, upper_half)
        env = {prior: pr, prior_c: prc, S.loss: et}
        u, d = mp.evaluate(up, env, 25), mp.evaluate(down, env, 25)
        with mpmath.workdps(40):      # abs() rounds to the working precision: inside
            return (t - min(abs(u), abs(d))) / t
    return margin


@claim("KZ-EXA.1", ("002",), SOURCE + ", Appendix Example A.1 (reconstruction in catalog KZ-EXA.1)", "inequality",
       "a difference bound w.p. 1 - delta does not give (eps, delta)-PDP: eps~-randomized response run with "
       "probability gamma = delta (1 + e^-eps~) meets |Delta| <= tau(eps) w.p. >= 1 - delta for every prior "
       "(its two outputs have probabilities delta and delta e^-eps~ and at most one of them breaks the bound), "
       "but P(|Z| > eps) = gamma > delta since eps~ > eps",
       latex=r"\forall p\in(0,1):\ \Pr[|P_i-p|\le\tau(\varepsilon)]\ge 1-\delta\quad\text{but}\quad"
             r"\Pr[|Z|>\varepsilon]=\delta(1+e^{-\tilde\varepsilon})>\delta,\ \tilde\varepsilon>\varepsilon")
def _exa1():
    cases = []
    gaps = []
    for e_txt in ("0.5", "1", "2"):
        cases.append((f"eps={e_txt}, p <= 1/2", _exa1_margin(e_txt, False)))
        cases.append((f"eps={e_txt}, p >= 1/2", _exa1_margin(e_txt, True)))
        # eps~ > eps: the outputs have |Z| = eps~ > eps, so P(|Z| > eps) = gamma = delta (1 + e^-eps~) > delta
        et = mp.evaluate(S.eps_tilde(), {sy.eps: e_txt}, 30)
        with mpmath.workdps(40):
            gaps.append(({"eps": e_txt}, (et - mpmath.mpf(e_txt)) / mpmath.mpf(e_txt)))
    for where, gap in gaps:
        if not gap > 0:
            return Outcome(FAILED, worst_at=where, counterexample={**where, "(eps~ - eps)/eps": mpmath.nstr(gap, 5)},
                           detail="eps~ <= eps: the randomized-response outputs would not break (eps, delta)-PDP")
    out = inequality(cases, mpmath.mpf(10) ** -20,
                     "priors p = 10^t and 1 - p = 10^t, t in [-300, log10 1/2] (grid + golden-section search): "
                     "max over the outputs Z = +-eps~ of (tau(eps) - |U(p, Z) - p|)/tau(eps) >= 0 "
                     "(derive.semantics eps_tilde, tau, difference_at_prior via numeric.mp); the worst margin, 0, "
                     "is at p = 1/2 where U(1/2, eps~) - 1/2 = tau(eps) exactly. Smallest (eps~ - eps)/eps = "
                     + mpmath.nstr(min(g for _, g in gaps), 3), lo=-300.0, hi=math.log10(0.5), point_name="prior",
                     grid_points=("0.5", "1e-1000"))
    return out


@claim("KZ-T3.9", ("002",), SOURCE + ", Theorem 3.9", "identity",
       "eps' = log((e^eps delta' + delta)/(delta' - delta)) = eps + log1p(delta (1 + e^-eps)/(delta' - delta)); "
       "delta (1 + e^-eps')/(1 - e^{eps - eps'}) at that eps' is delta'; the inverse in eps; eps' = eps when "
       "delta = 0 (Cor. 3.6-3.8: pure DP bounds hold with probability 1)")
def _t39():
    ep = S.eps_prime()
    ep_sym = sp.Symbol("eps'", positive=True)
    back = S.delta_prime_of(ep=ep_sym).subs(ep_sym, S.eps_prime_printed())
    inv = S.eps_from_eps_prime(ep=ep_sym).subs(ep_sym, S.eps_prime_printed())
    return proven_if({"log1p form": _zero(sp.exp(ep.rewrite(sp.log)) - sp.exp(S.eps_prime_printed())),
                    "delta'": _zero(back - S.delta_p),
                    "inverse": _zero(sp.exp(inv) - sp.exp(sy.eps)),
                    "pure": _zero(ep.subs(sy.delta, 0) - sy.eps)},
                   "SymPy: the boxed and log1p forms agree (exp of both), the delta'(eps') form returns delta', "
                   "the inverse in eps returns eps, and delta = 0 gives eps' = eps", probes=_PROBES)


_MU, _X = sp.symbols("mu_tail x_tail", positive=True)


def gauss_tail_expr(mu, x):
    """P(|Z| > x) for Z ~ N(mu^2/2, mu^2), the privacy loss of N(mu, 1) against N(0, 1), in Phi (written
    with the arguments of the Gaussian record's profile, so that a difference with it cancels exactly).
    The one source of this tail: the ordinary checks evaluate it, ``claims_certified_002`` encloses it."""
    return Phi(mu / 2 - x / mu) + Phi(-mu / 2 - x / mu)


_TAIL_FN = []


def _gauss_tail(mu, x):
    """``gauss_tail_expr`` at mpf mu, x (the compiled form, at the ambient precision)."""
    if not _TAIL_FN:
        _TAIL_FN.append(compile_mp(gauss_tail_expr(_MU, _X)))
    from numeric.bridge import to_mpf
    return to_mpf(_TAIL_FN[0]({_MU: mu, _X: x}))


def _gauss_delta(mu_text: str, e_text: str):
    """The exact (eps, delta)-DP curve of the Gaussian mechanism: the record's closed-form profile
    (one source, derived by SymPy in claim DRS-Cor2.13), at 35 verified digits."""
    return mp.profile_delta(derive.gaussian(mu_text), e_text, 35)


@claim("KZ-T3.9:gaussian", ("002",), SOURCE + ", Theorem 3.9 and Cor. 3.10(2)-3.12(2)", "inequality",
       "for the Gaussian mechanism at a point (eps, delta) of its exact DP curve and delta' = c delta, "
       "P(|Z| > eps') <= delta': the posterior, ratio and difference bounds at eps' hold w.p. >= 1 - delta'")
def _t39_gauss():
    def case(mu_t, e_t):
        with mpmath.workdps(40):
            d = _gauss_delta(mu_t, e_t)

        def margin(c_text):
            """Relative slack at delta' = delta (1 + c) (c = 10^t > 0: delta' > delta, capped below 1)."""
            with mpmath.workdps(40):
                dp = min(d * (1 + mpmath.mpf(c_text)), 1 - (1 - d) / 2)
                d_txt, dp_txt = mpmath.nstr(d, 35), mpmath.nstr(dp, 35)
            ep = mp.evaluate(S.eps_prime(), {sy.eps: e_t, sy.delta: d_txt, S.delta_p: dp_txt}, 30)
            with mpmath.workdps(40):
                return (mpmath.mpf(dp_txt) - _gauss_tail(mpmath.mpf(mu_t), ep)) / mpmath.mpf(dp_txt)
        return f"mu = {mu_t}, eps = {e_t}", margin
    cases = [case(mu, e) for mu in ("0.5", "1", "2") for e in ("0.1", "0.5", "1", "3")]
    return inequality(cases, mpmath.mpf(10) ** -25,
                      "mu in {0.5, 1, 2}, eps in {0.1, 0.5, 1, 3}, delta' = delta (1 + c): grid c in {0.01, 1, 9, 999} "
                      "and an adversarial search over log10 c in [-6, 3]; margin = smallest relative slack "
                      "(delta' - P(|Z| > eps'))/delta'. The posterior is monotone in Z (KZ-T3.1), so the posterior "
                      "bound holds exactly on |Z| <= eps', and the ratio and difference bounds contain it "
                      "(KZ-T3.3, KZ-L3.4)", lo=-6.0, hi=3.0, grid_points=("0.01", "1", "9", "999"), point_name="c",
                      search={"grid": 15, "starts": 1, "iterations": 15})


@claim("KZ-T2.5", ("002",), SOURCE + ", Theorem 2.5 and Cor. 3.10(1)-3.12(1)", "inequality",
       "(eps, delta)-PDP implies (eps, delta)-DP: for the Gaussian mechanism the exact DP delta(eps) is at most "
       "P(|Z| > eps)")
def _t25():
    def case(mu_t):
        def margin(e_t):
            with mpmath.workdps(40):
                dp_delta, pdp_delta = _gauss_delta(mu_t, e_t), _gauss_tail(mpmath.mpf(mu_t), mpmath.mpf(e_t))
                return (pdp_delta - dp_delta) / pdp_delta
        return f"mu = {mu_t}", margin
    return inequality([case(mu) for mu in ("0.25", "1", "3")], mpmath.mpf(10) ** -25,
                      "margin = (P(|Z| > eps) - delta_DP(eps)) / P(|Z| > eps) for mu in {0.25, 1, 3}: grid eps in "
                      "{0, 0.1, 1, 5, 20} and an adversarial search over log10 eps in [-4, log10 30]",
                      lo=-4.0, hi=math.log10(30), grid_points=("0", "0.1", "1", "5", "20"), point_name="eps",
                      search={"grid": 21, "starts": 2, "iterations": 20})


@claim("KZ-TA.2", ("002",), SOURCE + ", Appendix Theorem A.2 (Canonne, Kamath, Steinke 2020), Eq. 31-33",
       "identity",
       "delta(eps) = E[max(0, 1 - e^{eps - Z})] = P(Z > eps) - e^eps P(Z' < -eps): for the Gaussian "
       "mechanism both equal the GDP profile (quadrature, 30 digits); for k randomized responses the "
       "expectation equals the optimal-composition sum of Kairouz-Oh-Viswanath / Murtagh-Vadhan")
def _ta2():
    rows = []
    for mu_t in ("0.5", "1", "2"):
        for e_t in ("0", "0.5", "2"):
            with mpmath.workdps(40):
                mu, e = mpmath.mpf(mu_t), mpmath.mpf(e_t)
                m = mu * mu / 2
                dens = lambda z: mpmath.npdf(z, m, mu)   # noqa: E731
                expect = mpmath.quad(lambda z: dens(z) * -mpmath.expm1(e - z), [e, e + 10 * mu, mpmath.inf])
                split = mpmath.ncdf(-(e - m) / mu) - mpmath.exp(e) * mpmath.ncdf((-e - m) / mu)
                profile = _gauss_delta(mu_t, e_t)
            rows.append(({"mu": mu_t, "eps": e_t, "form": "expectation"}, expect, profile))
            rows.append(({"mu": mu_t, "eps": e_t, "form": "split"}, split, profile))
    for k_, e0, eg in ((5, "0.3", "0.5"), (12, "0.1", "0.25"), (40, "0.05", "0.6")):
        with mpmath.workdps(40):
            a, g = mpmath.mpf(e0), mpmath.mpf(eg)
            q = 1 / (1 + mpmath.exp(a))
            expect = mpmath.fsum(mpmath.binomial(k_, l) * q**l * (1 - q)**(k_ - l) *
                                 max(0, -mpmath.expm1(g - (k_ - 2 * l) * a)) for l in range(k_ + 1))
        rows.append(({"k": k_, "eps0": e0, "eps_g": eg}, NC.optimal_delta(e0, k_, eg, 30), expect))
    return agreement(rows, mpmath.mpf(10) ** -25, "Gaussian mu in {0.5, 1, 2}, eps in {0, 0.5, 2}; "
                     "k randomized responses (k, eps0, eps_g) in {(5, .3, .5), (12, .1, .25), (40, .05, .6)}")


# ------------------------------------------------------------------ Section 2
def _loss_range(record):
    """(sup, inf) of the likelihood ratio of a record: the slope d(1 - f)/d alpha of its power curve is the
    likelihood ratio at the Neyman-Pearson threshold, non-increasing since 1 - f is concave, so its sup is
    rho = the slope at 0+ (derive.risk.rho, DF-Thm2) and its inf the slope at 1-."""
    lr = sp.diff(record.power, sy.alpha)
    top = D.rho_of_parameter(record).value
    bottom = R.limit_at_zero(lr.subs(sy.alpha, 1 - sy.alpha)).value
    return top, bottom


@claim("KZ-T2.3", ("002",), SOURCE + ", Theorem 2.3", "identity",
       "instances of Theorem 2.3 (eps-DP iff |Z| <= eps almost surely; the theorem itself is stated, not derived "
       "here): from the records' own power curves, the privacy loss "
       "Z = log d(1 - f)/d alpha of the Laplace mechanism and of logistic noise (eps-DP with eps = the "
       "parameter) ranges exactly over [-eps, eps]; the Gaussian mechanism's is unbounded above (rho = oo) "
       "and it is eps-DP for no eps; approx-DP with delta > 0 has an atom Z = +oo (f(0) < 1)",
       latex=r"M\ \varepsilon\text{-DP}\iff\Pr\big[|Z|\le\varepsilon\big]=1,\qquad "
             r"Z=\log\frac{d(1-f)}{d\alpha}\in[\log(1-f)'(1^-),\ \log(1-f)'(0^+)]")
def _t23():
    checks, lines = {}, []
    for name, rec, param in (("laplace", derive.laplace(), sy.eps), ("logistic", derive.noise("logistic"), sy.mu)):
        top, bottom = _loss_range(rec)
        checks[f"{name}: sup Z = eps"] = _zero(sp.log(top) - param) if top is not sp.oo else sp.oo
        checks[f"{name}: inf Z = -eps"] = _zero(sp.log(bottom) + param)
        lines.append(f"{name}: Z in [log({bottom}), log({top})]")
    checks["laplace: record's pure eps is eps"] = _zero(derive.laplace().pure_eps - sy.eps)
    g_top = D.rho_of_parameter(derive.gaussian()).value
    checks["gaussian: sup Z = oo"] = g_top is sp.oo or g_top
    checks["gaussian: no pure eps"] = derive.gaussian().pure_eps is None
    f0 = R.f_at_zero(derive.approx_dp(1, sp.Rational(1, 10**5))).value
    checks["approx-dp(1, 1e-5): f(0) < 1 (atom at Z = oo)"] = bool(R.is_below_one(f0))
    return proven_if(checks, "SymPy: the slope of the record's power is the likelihood ratio at the optimal "
                     "threshold; its limits at 0+ (derive.risk.rho) and 1- give the range of Z: "
                     + "; ".join(lines) + f"; gaussian sup = {g_top}",
                     probes=[{sy.eps: 1, sy.mu: 1}, {sy.eps: sp.Rational(1, 3), sy.mu: 3}])


def _renyi_mgf(record, a, x):
    """The integrand of E_P[LR^a] = E_Q[e^{(a-1) Z}] from the record's power curve: LR(alpha) =
    d(1 - f)/d alpha, and alpha = Phi(x) (x ~ N(0, 1) under H0) turns int_0^1 LR(alpha)^a d alpha into
    int LR(Phi(x))^a phi(x) dx."""
    lr = sp.diff(record.power, sy.alpha).subs(sy.alpha, Phi(x))
    lr = sp.simplify(lr.rewrite(sp.erf))            # PhiInv(Phi(x)) = x through erf/erfinv
    lr = sp.powsimp(sp.expand(lr), combine="exp")
    return sp.powsimp(sp.expand(lr**a * sp.exp(-x**2 / 2)), combine="exp") / sp.sqrt(2 * sp.pi)


@claim("KZ-D2.6", ("002",), SOURCE + ", Definition 2.6 and Theorem 2.9", "identity",
       "the Gaussian mechanism with shift mu is rho-zCDP with rho = mu^2/2: from the record's power curve, "
       "E[e^{(a-1)Z}] = int_0^1 (d(1 - f)/d alpha)^a d alpha = e^{(a-1) a mu^2/2}; k releases compose to the "
       "Gaussian loss N(k mu^2/2, k mu^2), i.e. rho_total = k rho, which numeric.composition.zcdp_to_dp uses",
       latex=r"\mathbb{E}\big[e^{(a-1)Z}\big]=\int_0^1\Big(\tfrac{d(1-G_\mu)}{d\alpha}\Big)^{a}d\alpha"
             r"=e^{(a-1)a\mu^2/2},\quad \rho=\tfrac{\mu^2}{2},\quad \rho_{\text{total}}=k\rho")
def _d26():
    a, mu, x = sp.Symbol("a", positive=True), sy.mu, sp.Symbol("x", real=True)
    rec = derive.gaussian()
    mgf = sp.simplify(sp.integrate(_renyi_mgf(rec, a, x), (x, -sp.oo, sp.oo)))
    # rho's add: k Gaussian losses N(mu^2/2, mu^2) sum to N(k mu^2/2, k mu^2), the loss of G_{mu sqrt k};
    # its zCDP rho (mu sqrt k)^2/2 = k mu^2/2 is what zcdp_to_dp must use (Bun-Steinke eps, plain mpmath)
    rows = []
    for mu_t, k_, d_t in (("0.5", 3, "1e-6"), ("1", 10, "1e-3"), ("0.1", 1000, "1e-300")):
        got = NC.zcdp_to_dp(sp.Rational(mu_t) ** 2 / 2, k_, d_t, "bun-steinke", 25)
        with mpmath.workdps(50):
            r_tot = (mpmath.mpf(mu_t) * mpmath.sqrt(k_)) ** 2 / 2
            ref = r_tot + 2 * mpmath.sqrt(r_tot * mpmath.log(1 / mpmath.mpf(d_t)))
        rows.append(({"mu": mu_t, "k": k_, "delta": d_t}, got.eps, ref))
        rows.append(({"mu": mu_t, "k": k_, "quantity": "rho_total"}, got.rho_total, r_tot))

    def numeric():
        fn = compile_mp(sp.diff(rec.power, sy.alpha))
        worst = []
        for a_t, mu_t in (("2", "1"), ("1.5", "0.5")):
            with mpmath.workdps(40):
                av, mv = mpmath.mpf(a_t), mpmath.mpf(mu_t)
                val = mpmath.quad(lambda t: fn({sy.alpha: mpmath.ncdf(t), sy.mu: mv}) ** av * mpmath.npdf(t),
                                  [-mpmath.inf, 0, mpmath.inf])
                worst.append(({"a": a_t, "mu": mu_t}, val, mpmath.exp((av - 1) * av * mv**2 / 2)))
        return agreement(worst + rows, mpmath.mpf(10) ** -20, "quadrature of the record's likelihood ratio")
    sym = proven_if({"mgf": _zero(mgf - sp.exp((a - 1) * a * mu**2 / 2))},
                    "SymPy integrates (d(1 - f)/d alpha)^a of derive.gaussian()'s power over alpha = Phi(x): "
                    f"E[e^((a-1)Z)] = {mgf}", fallback=numeric,
                    probes=[{a: 2, mu: 1}, {a: sp.Rational(3, 2), mu: sp.Rational(1, 2)}])
    if sym.status is not PROVEN:
        return sym
    comp = agreement(rows, mpmath.mpf(10) ** -22,
                     "zcdp_to_dp(mu^2/2, k, delta, bun-steinke) = rho_k + 2 sqrt(rho_k log 1/delta), rho_k = "
                     "(mu sqrt k)^2/2 of the composed Gaussian loss")
    if comp.status is not CONFIRMED:
        return comp
    return Outcome(CONFIRMED, margin=comp.margin, worst_at=comp.worst_at, points=comp.points,
                   method="sympy (mgf) + numeric (composition)",
                   detail=sym.detail + "; " + comp.detail)


@claim("KZ-T2.7", ("002",), SOURCE + ", Theorem 2.7 (Bun-Steinke 2016) and Canonne-Kamath-Steinke 2020",
       "inequality",
       "rho-zCDP implies (eps, delta)-DP with eps = rho + 2 sqrt(rho log(1/delta)), and with the smaller CKS eps; "
       "both are at least the exact eps of the Gaussian mechanism with mu = sqrt(2 rho) at delta")
def _t27():
    # rho = mu^2/2 (KZ-D2.6): mu = 0.1, 0.5, 1, 2, 4 for rho = 0.005, 0.125, 0.5, 2, 8
    def case(r_t, mu_t):
        def margin(d_t):
            bs = NC.zcdp_to_dp(r_t, 1, d_t, "bun-steinke", 20).eps
            cks = NC.zcdp_to_dp(r_t, 1, d_t, "cks", 20).eps
            exact = mp.profile_eps(derive.gaussian(mu_t), d_t, 20)   # the exact eps at delta
            with mpmath.workdps(40):
                return min((cks - exact) / exact, (bs - cks) / cks)
        return f"rho = {r_t}", margin
    pairs = (("0.005", "0.1"), ("0.125", "0.5"), ("0.5", "1"), ("2", "2"), ("8", "4"))
    detail = ("margin = min((CKS - exact)/exact, (Bun-Steinke - CKS)/CKS): grid delta in {1e-3, 1e-6, 1e-12} for rho "
              "in {0.005, 0.125, 0.5, 2, 8}, and an adversarial search over log10 delta in [-300, -2] for the "
              "extremes rho = 0.005 and 8")
    grid = inequality([case(r, m) for r, m in pairs[1:4]], mpmath.mpf(10) ** -15, detail,
                      grid_points=("1e-3", "1e-6", "1e-12"), point_name="delta", search=False)
    if grid.status is not CONFIRMED:
        return grid
    out = inequality([case(r, m) for r, m in (pairs[0], pairs[4])], mpmath.mpf(10) ** -15, detail,
                     lo=-300.0, hi=-2.0, grid_points=("1e-3", "1e-6", "1e-12"), point_name="delta",
                     search={"grid": 7, "starts": 1, "iterations": 6})
    if out.status is CONFIRMED and mpmath.mpf(grid.margin) < mpmath.mpf(out.margin):
        out.margin, out.worst_at = grid.margin, grid.worst_at
    out.points += grid.points
    return out


@claim("KZ-T2.8", ("002",), SOURCE + ", Theorem 2.8 (Dwork-Rothblum-Vadhan 2010; Kairouz-Oh-Viswanath 2015)",
       "inequality",
       "the optimal composition eps of k eps0-DP mechanisms at delta is at most the basic k eps0 and the "
       "advanced eps0 sqrt(2k log(1/delta)) + k eps0 (e^eps0 - 1); at the KOV grid points eps_g = (k - 2i) eps0 "
       "the Murtagh-Vadhan delta equals Kairouz-Oh-Viswanath's delta_i")
def _t28():
    points = 0
    rows = []
    for k_, e0 in ((1, "0.5"), (10, "0.1"), (50, "0.2"), (1000, "0.01")):
        for d_t in ("1e-3", "1e-8"):
            opt = NC.compose_pure(e0, k_, d_t, "optimal", 20).eps
            basic = NC.compose_pure(e0, k_, d_t, "basic", 20).eps
            adv = NC.compose_pure(e0, k_, d_t, "advanced", 20).eps
            points += 1
            if opt > basic or opt > adv:
                return Outcome(FAILED, counterexample={"k": k_, "eps0": e0, "delta": d_t, "optimal": str(opt),
                                                       "basic": str(basic), "advanced": str(adv)})
    for k_, e0 in ((4, sp.Rational(3, 10)), (9, sp.Rational(1, 5))):
        for i_ in range(1, k_ // 2 + 1):
            kov = mp.evaluate(C.kov_grid_delta.subs({C.k: k_, C.i: i_}).doit(), {C.eps0: e0}, 25)
            mv = NC.optimal_delta(e0, k_, (k_ - 2 * i_) * e0, 25) if k_ - 2 * i_ > 0 else None
            if mv is None:
                continue
            rows.append(({"k": k_, "i": i_}, mv, kov))
    return agreement(rows, mpmath.mpf(10) ** -22, "optimal <= basic and <= advanced for (k, eps0) in "
                     "{(1, .5), (10, .1), (50, .2), (1000, .01)}, delta in {1e-3, 1e-8}; MV = KOV at every grid "
                     "point of (k, eps0) in {(4, 0.3), (9, 0.2)}", extra_points=points)


@claim("KZ-S4.4", ("002",), SOURCE + ", Section 4.4 and Figure 7", "identity",
       "the ratio P/p lies in [1/(p + (1-p)e^eps'), 1/(p + (1-p)e^-eps')] = [L/p, U/p]; at p = 1/2 it is "
       "[2/(1+e^eps'), 2/(1+e^-eps')]; as p -> 0 it tends to [e^-eps', e^eps']; U - p = p(1-p)(e^eps - 1)/"
       "(p e^eps + 1 - p)")
def _s44():
    lo, hi = (_with_prior(v) for v in S.ratio_bounds_at_prior())
    return proven_if({"lo": _zero(lo - _with_prior(S.lower()) / p), "hi": _zero(hi - _with_prior(S.upper()) / p),
                    "half": _zero(lo.subs(p, sp.Rational(1, 2)) - 2 / (1 + sp.exp(sy.eps))),
                    "p->0": _zero(sp.limit(hi, p, 0, "+") - sp.exp(sy.eps)),
                    "difference": _zero((_with_prior(S.difference_at_prior()) -
                                         (_with_prior(S.upper()) - p)).rewrite(sp.exp))},
                   "SymPy identities and the limit p -> 0", probes=_PROBES)


@claim("KZ-P4.2", ("002",), SOURCE + ", Example 4.2 (catalog KZ-P4.2)", "identity",
       "a maximum difference of 0.2 means tau(eps') = 0.2, i.e. eps' = 4 artanh(0.2) = 2 log(3/2)")
def _p42():
    sol = sp.solve(sp.Eq(S.tau_printed(), sp.Rational(1, 5)), sy.eps)
    return proven_if({"solve": any(_zero(s - 2 * sp.log(sp.Rational(3, 2))) == 0 for s in sol),
                    "artanh": _zero(sp.exp(4 * sp.atanh(sp.Rational(1, 5)).rewrite(sp.log)) - sp.Rational(9, 4))},
                   "SymPy solves (e^{eps/2} - 1)/(e^{eps/2} + 1) = 1/5: eps = 2 log(3/2) = 4 artanh(1/5)", probes=_PROBES)
