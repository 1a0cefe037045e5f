"""NoisySGD (stochastic batches) and the projected (bounded-domain) convex case of Bok, Su and Altschuler
(BSA24, "Shifted Interpolation for Differential Privacy", ICML 2024, arXiv:2403.00278 v2): the authors' CLT
approximation of their last-iterate bound, NOT the bound itself.

What could and could not be read (issue #26 item 2).  The theorem statements for NoisySGD and for the
constrained case (BSA24 v2 Sec. 4 and Appendix C) were not retrievable here: the page store holds only the
first chunk (abstract, table of contents) of https://arxiv.org/html/2403.00278v2 and of the ICML text
extraction, whatever the query.  What is public and was read are the authors' scripts
(github.com/jinhobok/shifted_interpolation_dp: ``gdp.py`` functions ``gdp_clt_sc`` / ``gdp_clt_proj`` and
``plot_nsgd_fdp.py``, the numerics of BSA24 v2 Figure 10 per the repository README).  They do not evaluate
the theorem: each approximates the composed subsampled part by Dong-Roth-Su's CLT and minimises over the
intermediate time ``tau`` of the shifted-interpolation argument.  This module computes exactly that
approximation, in exact/multiprecision arithmetic, and labels it so.  It is not a certified bound and can be
below the true bound (the CLT understates subsampled compositions, issue #26 item 4).  The exact bound would
compose ``C_p(G)`` steps on the engine (``numeric.subsampling``/``numeric.pld``); doing that requires the
theorem's exact statement, which is not transcribed here (no bound is invented).

Conventions (as ``numeric.noisy_gd``): ``x_{t+1} = x_t - eta (g_t + sigma Z_t)``, ``g_t`` the average gradient
of a batch of ``b`` of ``n`` records, ``p = b/n``, losses L-Lipschitz, M-smooth, m-strongly convex,
``c = max(|1 - eta m|, |1 - eta M|)``, one step's Gaussian mechanism ``mu_s = 2L/(b sigma)`` (the scripts'
``mu_clt = 2 * mu`` with their ``mu = L/(b sigma)``), ``t`` steps, ``nu = t - tau``.

* CLT of ``k`` steps of ``C_p(G_mu)`` (Dong-Roth-Su 2022, Cor. 5.4, symmetrised subsampling):
  ``mu_CLT^2 = 2 p^2 k (e^{mu^2} Phi(3mu/2) + 3 Phi(-mu/2) - 2)``.
* Strongly convex (``gdp_clt_sc``, the finite-``t`` form): ``min over nu in [0, t-1]`` of
  ``mu_CLT(p, nu + 1, mu_s)^2 + 2 (mu_s (c^{nu+1} - c^t)/(1 - c))^2``; the convex unconstrained case is its
  ``c -> 1`` limit, ``(c^{nu+1} - c^t)/(1 - c) -> t - nu - 1``.  At ``nu = t - 1`` the value is the CLT of all
  ``t`` steps (the composition), so the approximation never exceeds the composition's CLT.
* Projected onto a convex set of diameter ``D`` (``gdp_clt_proj`` with ``D = 1``): ``min over nu in [1, t]``
  of ``(1 + lam) (D/(eta sigma))^2 / nu + mu_CLT(p, nu, sqrt(1 + 1/lam) mu_s)^2``.  The scripts fix
  ``D = 1``; ``D`` enters as ``D/(eta sigma)`` because that is the only way a term equal to ``1/(eta sigma)``
  at ``D = 1`` stays invariant under rescaling the parameter space (``x -> s x`` maps
  ``(D, L, eta, sigma) -> (s D, L/s, s^2 eta, sigma/s)`` and leaves ``L/(b sigma)`` unchanged) -- an argument,
  not a reading of the theorem.  ``lam`` is the split of the two terms: ``gdp.py`` uses ``lam = 1``
  (factors 2 and sqrt 2), Figure 10's script ``lam = 9`` (factors 10 and sqrt(10/9)); the default here is 9.

Arithmetic: inputs exact Rationals; ``e^{mu^2} Phi(3mu/2) + 3 Phi(-mu/2) - 2`` cancels like ``mu^2/2`` for small
``mu``, so it is evaluated with ``2 log10(1/mu)`` extra digits; ``1 - c`` is exact; the integer minimiser is
located on a float grid (the objective is convex in ``nu``) and the neighbours are re-evaluated in mpmath.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive.domains import MAX_MECHANISM_PARAM, parse_in
from derive.errors import DomainError

from .noisy_gd import contraction, eps_of_mu, step_mu

SPLIT_FIGURE10 = sp.Integer(9)
MAX_STEPS = 10 ** 7
KIND = "clt-approximation"
NOTE = ("BSA24's own CLT approximation of the last-iterate NoisySGD bound (authors' Figure 10 scripts), not a "
        "certified bound; the theorem statement was not readable here")


def _mp(x):
    return mpmath.mpf(x.p) / x.q if isinstance(x, sp.Rational) else mpmath.mpf(x)


def clt_factor(mu):
    """e^{mu^2} Phi(3mu/2) + 3 Phi(-mu/2) - 2 (>= 0), with extra digits for the cancellation at small mu."""
    m = _mp(mu)
    if m == 0:
        return mpmath.mpf(0)
    extra = 10 + max(0, int(-2 * mpmath.log10(m)))
    with mpmath.workdps(mpmath.mp.dps + extra):
        m = _mp(mu)
        v = mpmath.exp(m**2) * mpmath.ncdf(3 * m / 2) + 3 * mpmath.ncdf(-m / 2) - 2
    return +v


def mu_clt_subsampled(p, steps, mu):
    """Dong-Roth-Su 2022 Cor. 5.4: mu of the CLT for ``steps`` compositions of C_p(G_mu),
    sqrt(2) p sqrt(steps) sqrt(e^{mu^2} Phi(3mu/2) + 3 Phi(-mu/2) - 2)."""
    return mpmath.sqrt(2 * steps * clt_factor(mu)) * _mp(p)


def _shift_weight(c, nu: int, t: int):
    """(c^{nu+1} - c^t)/(1 - c) = sum_{k=nu+1}^{t-1} c^k, with its c = 1 limit t - nu - 1."""
    if c == 1:
        return mpmath.mpf(t - nu - 1)
    if c == 0:
        return mpmath.mpf(0)
    return _mp(c) ** (nu + 1) * -mpmath.expm1((t - nu - 1) * mpmath.log1p(-_mp(1 - c))) / _mp(1 - c)


def _sq_unconstrained(p, mu_s, c, t: int, nu: int):
    return mu_clt_subsampled(p, nu + 1, mu_s) ** 2 + 2 * (_mp(mu_s) * _shift_weight(c, nu, t)) ** 2


def _sq_projected(p, mu_s, t: int, nu: int, ratio, lam):
    inner = mpmath.sqrt(1 + 1 / _mp(lam)) * _mp(mu_s)
    return (1 + _mp(lam)) * _mp(ratio) ** 2 / nu + mu_clt_subsampled(p, nu, inner) ** 2


def _convex_argmin(g, lo: int, hi: int) -> int:
    """An integer minimiser of a convex g on [lo, hi]: the last nu whose step g(nu) - g(nu - 1) is negative,
    by integer bisection (numeric.solvers), O(log(hi - lo)) float evaluations, no array of length t."""
    from .solvers import bisect, integer_midpoint
    if lo == hi:
        return lo
    a, _ = bisect(lambda nu: g(nu) < g(nu - 1), lo, hi + 1, stop=lambda x, y: y - x <= 1, mid=integer_midpoint)
    return a


def _best(sq, lo: int, hi: int, guess: int):
    """min of sq(nu) over integers near the float minimiser ``guess`` (sq is convex in nu): (value, nu)."""
    cands = range(max(lo, guess - 2), min(hi, guess + 2) + 1)
    return min(((sq(nu), nu) for nu in cands), key=lambda vn: vn[0])


def mu_unconstrained(p, mu_s, c, t: int):
    """(mu, tau) of the strongly convex (c < 1) or convex (c = 1) CLT approximation, minimised over tau."""
    K = 2 * clt_factor(mu_s) * _mp(p) ** 2
    ms, cf, gap = _mp(mu_s), _mp(c), _mp(1 - c)

    def g(nu):      # mpf at the working precision: no overflow for any sigma (floats overflow at 1e308)
        w = t - nu - 1 if c == 1 else (cf ** (nu + 1) - cf ** t) / gap
        return K * (nu + 1) + 2 * (ms * w) ** 2
    guess = _convex_argmin(g, 0, t - 1)
    val, nu = _best(lambda k: _sq_unconstrained(p, mu_s, c, t, k), 0, t - 1, guess)
    return mpmath.sqrt(val), t - nu


def mu_projected(p, mu_s, t: int, ratio, lam=SPLIT_FIGURE10):
    """(mu, tau) of the projected convex CLT approximation; ``ratio`` = D/(eta sigma)."""
    K = 2 * clt_factor(mpmath.sqrt(1 + 1 / _mp(lam)) * _mp(mu_s)) * _mp(p) ** 2
    a = (1 + _mp(lam)) * _mp(ratio) ** 2
    guess = int(mpmath.floor(mpmath.sqrt(a / K))) if K > 0 else t     # minimiser of a/nu + K nu
    guess = min(max(guess, 1), t)
    val, nu = _best(lambda k: _sq_projected(p, mu_s, t, k, ratio, lam), 1, t, guess)
    return mpmath.sqrt(val), t - nu


@dataclass(frozen=True)
class NoisySgdResult:
    """The CLT approximation of the last iterate (``mu_last``, at ``tau``) and of all iterates."""
    setting: str
    c: sp.Rational
    mu_step: sp.Rational
    p: sp.Rational
    steps: int
    tau: int
    mu_last: object
    mu_composition: object
    diameter: object = None
    split: object = None
    eps_last: object = None
    eps_composition: object = None
    delta: object = None
    kind: str = KIND
    certified: bool = False
    note: str = NOTE


def _steps(n: int, b: int, epochs, steps) -> int:
    if (epochs is None) == (steps is None):
        raise DomainError("epochs", str(epochs), "given, or --steps, but not both")
    if steps is not None:
        return int(parse_in("count", steps, "steps"))
    e = int(parse_in("epochs_whole", epochs, "epochs"))
    if n % b:
        raise DomainError("b", str(b), f"a divisor of n = {n} when --epochs is given (T = E n/b); or give --steps")
    return e * (n // b)


def account(setting: str, *, L, M, m, eta, sigma, n, b, epochs=None, steps=None, diameter=None,
            split=None, at_delta=None, digits: int = 15) -> NoisySgdResult:
    """The CLT approximation for NoisySGD (decimal strings or numbers, taken exactly)."""
    L_, M_, eta_, sigma_ = (parse_in(k, v, name) for k, v, name in
                            (("lipschitz", L, "L"), ("smoothness", M, "M"), ("step_size", eta, "eta"),
                             ("sigma", sigma, "sigma")))
    m_ = parse_in("strong_convexity", m, "m")
    if (setting == "strongly-convex") != (m_ > 0):
        raise DomainError("m", str(m), "> 0 for --setting strongly-convex, 0 for --setting convex")
    if diameter is not None and setting != "convex":
        raise DomainError("diameter", str(diameter), "given only with --setting convex (the projected case)")
    n_, b_ = int(parse_in("n", n)), int(parse_in("batch", b, "b"))
    if b_ > n_:
        raise DomainError("b", str(b), f"an integer in [1, n = {n_}]")
    t = _steps(n_, b_, epochs, steps)
    if t > MAX_STEPS:
        raise DomainError("epochs", str(epochs), f"few enough that T = E n/b is at most {MAX_STEPS}; here T = {t}")
    c, mu_s, p = contraction(eta_, m_, M_), step_mu(L_, b_, sigma_), sp.Rational(b_, n_)
    D = None if diameter is None else parse_in("diameter", diameter, "diameter")
    lam = None if D is None else (SPLIT_FIGURE10 if split is None else parse_in("young_split", split, "split"))
    with mpmath.workdps(digits + 25):
        if D is None:
            last, tau = mu_unconstrained(p, mu_s, c, t)
        else:
            last, tau = mu_projected(p, mu_s, t, D / (eta_ * sigma_), lam)
        comp = mu_clt_subsampled(p, t, mu_s)
        out = dict(setting=setting, c=c, mu_step=mu_s, p=p, steps=t, tau=tau, mu_last=last, mu_composition=comp,
                   diameter=D, split=lam)
        if at_delta is not None:
            parse_in("delta_positive", at_delta, "at_delta")
            if max(last, comp) > MAX_MECHANISM_PARAM:
                raise DomainError("sigma", str(sigma), f"large enough that every GDP parameter is at most 1e308 (the "
                                  f"Gaussian record's range); here mu = {mpmath.nstr(max(last, comp), 5)}")
            out.update(delta=at_delta, eps_last=eps_of_mu(last, str(at_delta), digits),
                       eps_composition=eps_of_mu(comp, str(at_delta), digits))
        return NoisySgdResult(**out)


__all__ = ["clt_factor", "mu_clt_subsampled", "mu_unconstrained", "mu_projected", "account", "NoisySgdResult",
           "SPLIT_FIGURE10", "KIND"]
