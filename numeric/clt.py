"""The privacy central limit theorem, its Berry-Esseen band and the first-order Edgeworth
approximation of a composition (issue #12 item 2; seed 004 Sec. 3.3, catalog 004 Sec. 3).

For symmetric trade-off functions f_1, ..., f_n (each given as a record and a count), with the
functionals of ``numeric.functionals`` (kl, kappa2, kappabar3, mu3; catalog 004 Sec. 3):

* CLT (Dong-Roth-Su, Thm 3.4 as the seed states it): f_1 (x) ... (x) f_n ~ G_mu with
  mu = 2 sum kl / sqrt(sum kappa2).
* Berry-Esseen (DRS Thm 3.5): with mu_BE = 2 ||kl||_1 / sqrt(||kappa2||_1 - ||kl||_2^2) and
  gamma = 0.56 ||kappabar3||_1 / (||kappa2||_1 - ||kl||_2^2)^(3/2),
  G_mu_BE(alpha + gamma) - gamma <= f_1 (x) ... (x) f_n (alpha) <= G_mu_BE(alpha - gamma) + gamma
  for alpha in [gamma, 1 - gamma]; outside that range the band is the trivial [0, 1 - alpha] side.
  The constant 0.56 is the catalog's recollection ("to verify"); the band is reported as the
  theorem states it, and the tests check that it contains every exact value we can compute.
* Edgeworth (Wang et al. 2022, Prop. 3.2; catalog WGZ22-Prop3.2): with X = log dQ/dP under P
  (mean -kl, variance kappa2 - kl^2, third cumulant mu3 per step; cumulants add over steps) and
  Y = log dQ/dP under Q (for symmetric f, Y has the law of -X), the first-order Edgeworth CDF
  F(x) ~ Phi(z) - K3 / (6 s^3) (z^2 - 1) phi(z), z = (x - K1) / s, gives
  delta(eps) = 1 - F_Y(eps) - e^eps (1 - F_X(eps)) and the Neyman-Pearson curve
  beta(alpha) = F_Y(t) at the t with 1 - F_X(t) = alpha.  Each 1 - F is formed as Phi(-z) + ...
  (no 1 - F subtraction).  It is an approximation with no error bound (the seed: O(1/n) for
  i.i.d. steps), reported as such.

Values are computed at ``digits + 10`` working digits from functionals verified to ``digits + 10``
digits; the CLI prints ``digits``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from derive.errors import DomainError

from . import functionals as F
from .display import ResultDisplay
from .precision import as_mpf

#: the Berry-Esseen constant as catalog 004 recalls it (an exact decimal, rounded at the working precision)
BERRY_ESSEEN_C = (56, 100)


@dataclass(frozen=True)
class CltResult(ResultDisplay):
    kl: object               # sums over the steps (counts included)
    kappa2: object
    kappabar3: object
    kl_sq: object            # sum of kl^2
    mu3: object
    mu: object               # CLT
    mu_berry_esseen: object
    gamma: object
    digits: int


def _value(record, name, digits):
    """A functional of a step: a trade-off record, or a subsampled step
    (``numeric.functionals_subsampled.SubsampledStep``, which computes its own)."""
    own = getattr(record, "functional_value", None)
    if own is not None:
        return as_mpf(own(name, digits), digits + 10)
    return as_mpf(F.functional(record, name, digits=digits).value, digits + 10)


#: the largest kappa2/(kappa2 - kl^2) of a step: the variance of its privacy loss is a difference that
#: loses log10 of this many of the digits + 10 verified digits of kl and kappa2 (1e8: 8 of them)
MAX_CANCELLATION = 10 ** 8


def _check_resolved(record, kl, kappa2):
    """DomainError for a step whose privacy-loss variance kappa2 - kl^2 is lost to cancellation (G_mu with
    mu > ~2e4: kl = mu^2/2, kappa2 = mu^2 + mu^4/4; at mu = 1e20 it vanished and the step was called
    deterministic, at mu = 1e100 the quadrature ran 18 s into PrecisionExhausted).  A step with a small kl
    (a genuinely deterministic loss, or none) passes: the sum's check below speaks for it."""
    if not kl * kl > MAX_CANCELLATION:
        return
    if kappa2 - kl * kl > kappa2 / MAX_CANCELLATION:
        return
    if len(record.parameters) == 1:
        name, value = str(record.parameters[0]), mpmath.nstr(mpmath.mpf(record.values[record.parameters[0]]), 6)
    else:
        name, value = "mechanisms", str(record)
    raise DomainError(name, value, "one at which the step's privacy-loss variance kappa2 - kl^2 "
                      f"is at least kappa2/{MAX_CANCELLATION:.0e} (here kl = {mpmath.nstr(kl, 3)}: the step is almost "
                      "perfectly distinguishing and its variance is lost to cancellation, as for gaussian with mu "
                      "above 2e4)")


#: at most this many digits are added to the steps' functionals to resolve kappa2 - kl^2 (``clt``)
MAX_EXTRA_DIGITS = 120


def _sums(entries, d: int):
    """(kl, kappa2, kappabar3, sum of kl^2, mu3) of the composition, each step's functionals to d digits."""
    kl = k2 = kb3 = kl2 = m3 = mpmath.mpf(0)
    for record, count in entries:
        if not (record.symmetric or getattr(record, "poisson_direction", False)):
            raise DomainError("mechanism", record.name, "a symmetric trade-off function (the privacy CLT "
                                                        "of Dong-Roth-Su is stated for symmetric f)")
        c = int(count)
        a = _value(record, "kl", d)
        b = _value(record, "kappa2", d)
        _check_resolved(record, a, b)
        kl += c * a
        kl2 += c * a * a
        k2 += c * b
        kb3 += c * _value(record, "kappabar3", d)
        m3 += c * _value(record, "mu3", d)
    return kl, k2, kb3, kl2, m3


def clt(entries, digits: int = 15) -> CltResult:
    """entries: [(TradeOff record, count)] of symmetric trade-off functions; a subsampled step
    (``numeric.functionals_subsampled.SubsampledStep``) may be one Poisson direction f_p or f_p^{-1}, not
    symmetric: the theorems are then applied as an approximation (proofs_check/cli/clt_subsampled.py)."""
    if not entries:
        raise DomainError("mechanisms", "[]", "a non-empty list of (record, count)")
    # var = kappa2 - kl^2 loses log10(kappa2/var) of the d verified digits of its terms: the terms are
    # recomputed with that many more digits (a Poisson-subsampled G_30 at p = 1e-6 has var/kappa2 = 3e-41:
    # mu_berry_esseen and gamma came out with no correct digit at --digits 25)
    extra = 0
    while True:
        d = digits + 10 + extra
        with mpmath.workdps(d + 10):
            kl, k2, kb3, kl2, m3 = _sums(entries, d)
            var = k2 - kl2                     # sum of the per-step variances of the privacy loss
            lost = int(mpmath.ceil(mpmath.log10(k2 / var))) if var > 0 and k2 > 0 else None
        if extra >= MAX_EXTRA_DIGITS or (lost is not None and lost <= extra + 8) or not kl > 0:
            break
        extra = min(lost + 2 if lost is not None else extra + d, MAX_EXTRA_DIGITS)
    with mpmath.workdps(d + 10):
        if not var > 0 or (lost is not None and lost > extra + 8):
            if not kl > 0:
                raise DomainError("mechanisms", "identity", "a composition with a non-degenerate privacy loss "
                                                            "(every step here is Id: f(alpha) = 1 - alpha)")
            raise DomainError("mechanisms", "deterministic loss", "a composition whose privacy loss varies: here "
                              "kappa2 - kl^2 vanishes at the working precision (the loss is a constant up to "
                              "e^-(large)), so the CLT has nothing to approximate")
        mu = 2 * kl / mpmath.sqrt(k2)
        mu_be = 2 * kl / mpmath.sqrt(var)
        gamma = mpmath.mpf(BERRY_ESSEEN_C[0]) / BERRY_ESSEEN_C[1] * kb3 / var ** mpmath.mpf(1.5)
        return CltResult(+kl, +k2, +kb3, +kl2, +m3, +mu, +mu_be, +gamma, digits)


# --------------------------------------------------------------------------------------------
# G_mu and the band


def _gaussian(mu):
    import derive
    return derive.gaussian(mpmath.nstr(mu, mpmath.mp.dps, strip_zeros=False, min_fixed=-mpmath.inf,
                                       max_fixed=mpmath.inf))


def _dec(x) -> str:
    """An mpf as a decimal string that ``numeric.mp`` takes exactly (all working digits); a string or
    an int passes unchanged (a user's decimal stays exact)."""
    if isinstance(x, (str, int)):
        return str(x)
    return mpmath.nstr(x, mpmath.mp.dps, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


def gdp_beta(mu, alpha, digits: int):
    """G_mu(alpha) by the toolkit's Gaussian record (numeric.mp.tradeoff)."""
    from . import mp
    return as_mpf(mp.tradeoff(_gaussian(mu), _dec(alpha), digits), digits + 10)


def gdp_power(mu, alpha, digits: int):
    """1 - G_mu(alpha), without the subtraction (numeric.mp.power): the CLT's power, whose difference from the
    exact power is the error of beta where beta is within 10^-digits of 1 (``clt --alpha 1e-300``)."""
    from . import mp
    return as_mpf(mp.power(_gaussian(mu), _dec(alpha), digits), digits + 10)


def band(res: CltResult, alpha):
    """(lower, upper) of the Berry-Esseen band at alpha (trivial sides outside [gamma, 1 - gamma])."""
    a, g, m = mpmath.mpf(alpha), res.gamma, res.mu_berry_esseen
    lower, upper = mpmath.mpf(0), 1 - a
    if g <= a <= 1 - g:
        lower = max(lower, gdp_beta(m, a + g, res.digits) - g)
        upper = min(upper, gdp_beta(m, a - g, res.digits) + g)
    return lower, upper


# --------------------------------------------------------------------------------------------
# Edgeworth


def _cumulants(res: CltResult):
    return -res.kl, res.kappa2 - res.kl_sq, res.mu3


def _survival_x(res, x):
    """1 - F_X(x) (first-order Edgeworth), as Phi(-z) + skew term."""
    k1, k2, k3 = _cumulants(res)
    s = mpmath.sqrt(k2)
    z = (x - k1) / s
    return mpmath.ncdf(-z) + k3 / (6 * s**3) * (z * z - 1) * mpmath.npdf(z)


def _cdf_y(res, y):
    """F_Y(y), Y with the law of -X."""
    k1, k2, k3 = _cumulants(res)
    s = mpmath.sqrt(k2)
    z = (y + k1) / s
    return mpmath.ncdf(z) + k3 / (6 * s**3) * (z * z - 1) * mpmath.npdf(z)


def _survival_y(res, y):
    k1, k2, k3 = _cumulants(res)
    s = mpmath.sqrt(k2)
    z = (y + k1) / s
    return mpmath.ncdf(-z) - k3 / (6 * s**3) * (z * z - 1) * mpmath.npdf(z)


def edgeworth_delta(res: CltResult, eps):
    """delta(eps) = (1 - F_Y(eps)) - e^eps (1 - F_X(eps)), Edgeworth CDFs (WGZ22 Prop. 3.2)."""
    e = mpmath.mpf(eps)
    return _survival_y(res, e) - mpmath.exp(e) * _survival_x(res, e)


def edgeworth_beta(res: CltResult, alpha):
    """beta at alpha of the Neyman-Pearson test on the Edgeworth laws: F_Y(t) with 1 - F_X(t) = alpha;
    None when the approximate survival function does not cross alpha monotonically in the window."""
    a = mpmath.mpf(alpha)
    k1, k2, _ = _cumulants(res)
    s = mpmath.sqrt(k2)
    lo, hi = k1 - 12 * s, k1 + 40 * s
    if not (_survival_x(res, lo) > a > _survival_x(res, hi)):
        return None
    from .compose_exact import _solve_decreasing
    t = _solve_decreasing(lambda t: _survival_x(res, t), a, lo, hi)
    return _cdf_y(res, t)


def edgeworth_eps(res: CltResult, delta):
    """The eps >= 0 where the Edgeworth delta(eps) falls to delta (None if not bracketed)."""
    d = mpmath.mpf(delta)
    k1, k2, _ = _cumulants(res)
    hi = abs(k1) + 60 * mpmath.sqrt(k2) + 1
    if edgeworth_delta(res, 0) <= d:
        return mpmath.mpf(0)
    if not edgeworth_delta(res, hi) < d:
        return None
    from .compose_exact import _solve_decreasing
    return _solve_decreasing(lambda e: edgeworth_delta(res, e), d, mpmath.mpf(0), hi)


def gdp_delta(mu, eps, digits: int):
    """delta(eps) of G_mu by the toolkit's Gaussian record (numeric.mp.profile_delta)."""
    from . import mp
    return as_mpf(mp.profile_delta(_gaussian(mu), _dec(eps), digits), digits + 10)


def gdp_eps(mu, delta, digits: int):
    """eps(delta) of G_mu by the toolkit's Gaussian record (numeric.mp.profile_eps)."""
    from . import mp
    return as_mpf(mp.profile_eps(_gaussian(mu), _dec(delta), digits), digits + 10)


__all__ = ["CltResult", "clt", "band", "gdp_beta", "gdp_delta", "gdp_eps", "edgeworth_delta", "edgeworth_beta",
           "edgeworth_eps", "BERRY_ESSEEN_C"]
