"""The discrete Gaussian mechanism, evaluated at the working precision (issue #12 item 5; seed 004
Sec. 4.4, Canonne-Kamath-Steinke 2020; catalog 004 "SU Sec. 4.4 census").

The pair is Q = N_Z(0, s2) and P = N_Z(1, s2) on the integers, P(z) proportional to
w(z - 1), Q(z) to w(z), w(z) = exp(-z^2 / (2 s2)), with the common normaliser
Zn = sum_z w(z) (a theta function; the shift by one integer does not change it).  The privacy loss
L(z) = log P(z)/Q(z) = (2z - 1)/(2 s2) increases with z, so the Neyman-Pearson test rejects for
large z, with randomisation at one integer.  Everything reduces to the tail

    G(z) = Q(Z >= z) = sum_{j >= z} w(j) / Zn          (z >= 1: a sum of decreasing terms;
    G(z) = 1 - G(1 - z) for z <= 0, by the symmetry w(j) = w(-j); the subtracted part is < 1/2)

* trade-off: for alpha in (0, 1) the integer t with G(t + 1) <= alpha < G(t), gamma =
  (alpha - G(t + 1)) / Q(t); beta = P(Z < t) + (1 - gamma) P(t) with P(Z < t) = G(2 - t), and the
  power P(Z > t) + gamma P(t) = G(t) + gamma w(t - 1)/Zn (no subtraction);
* profile: delta(eps) = sum over z with L(z) > eps of P(z)(1 - e^{eps - L(z)}), a sum of positive
  terms from z0 = floor(eps s2 + 1/2) + 1 (the catalog's printed form
  Pr[X > eps s2 - 1/2] - e^eps Pr[X > eps s2 + 1/2], X ~ N_Z(0, s2), is the same quantity and is the
  independent reference in the tests); its derivative is -e^eps G(z0).

The kernels take mpf arguments and work at the ambient mpmath precision; ``numeric.bridge`` calls
them for the heads of ``derive.mechanisms.discrete_gaussian`` (``numeric.precision.verified`` then
confirms the digits by a second precision).  Sums stop when the next term is below 2^-(prec + 10)
of the total and the remaining terms (decreasing faster than geometrically) are bounded by it.
"""

from __future__ import annotations

import math

import mpmath

#: largest s2 accepted (tail sums have about sqrt(s2) * 10 terms)
MAX_SIGMA2 = 10**4


def _w(z, s2):
    return mpmath.exp(-mpmath.mpf(z) ** 2 / (2 * s2))


def _sum_from(z, s2, shift=0):
    """sum_{j >= z} w(j - shift) for z - shift >= 0 (decreasing terms)."""
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    total = mpmath.mpf(0)
    j = z
    while True:
        t = _w(j - shift, s2)
        total += t
        # ratio of successive terms w(j+1)/w(j) = exp(-(2j+1)/(2 s2)) < 1: geometric bound on the rest
        r = mpmath.exp(-(2 * (j - shift) + 1) / (2 * s2))
        if t * r / (1 - r) <= tiny * total or t == 0:
            return total
        j += 1


def normaliser(s2):
    """Zn = sum_z exp(-z^2/(2 s2)) = 1 + 2 sum_{z >= 1} w(z)."""
    return 1 + 2 * _sum_from(1, s2)


def _G(z, s2, zn):
    """Q(Z >= z) for an integer z."""
    if z >= 1:
        return _sum_from(z, s2) / zn
    return 1 - _sum_from(1 - z, s2) / zn


def _start(alpha, s2) -> int:
    """A float guess of the integer t with G(t + 1) <= alpha < G(t)."""
    a = float(alpha)
    s = math.sqrt(float(s2))
    if a <= 0 or not math.isfinite(a):
        la = float(mpmath.log(alpha)) if alpha > 0 else -1e6
        return int(math.sqrt(max(-2 * la, 0.0)) * s)
    from statistics import NormalDist
    a = min(max(a, 1e-300), 1 - 1e-16)
    return int(round(-NormalDist().inv_cdf(a) * s))


def tradeoff_power(alpha, s2):
    """(beta, power) at type-I error alpha (mpf)."""
    if alpha <= 0:
        return mpmath.mpf(1), mpmath.mpf(0)
    if alpha >= 1:
        return mpmath.mpf(0), mpmath.mpf(1)
    zn = normaliser(s2)
    t = _start(alpha, s2)
    for _ in range(10**6):
        if _G(t + 1, s2, zn) > alpha:
            t += 1
        elif _G(t, s2, zn) <= alpha:
            t -= 1
        else:
            break
    q_t = _w(t, s2) / zn
    gamma = (alpha - _G(t + 1, s2, zn)) / q_t
    p_t = _w(t - 1, s2) / zn
    beta = _G(2 - t, s2, zn) + (1 - gamma) * p_t
    power = _G(t, s2, zn) + gamma * p_t
    return beta, power


def tradeoff(alpha, s2):
    return tradeoff_power(alpha, s2)[0]


def power(alpha, s2):
    return tradeoff_power(alpha, s2)[1]


def _z0(eps, s2) -> int:
    return int(mpmath.floor(eps * s2 + mpmath.mpf(1) / 2)) + 1


def profile(eps, s2):
    """delta(eps) as a sum of positive terms (module docstring)."""
    zn = normaliser(s2)
    z0 = _z0(eps, s2)
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    total = mpmath.mpf(0)
    z = z0
    while True:
        loss = (2 * mpmath.mpf(z) - 1) / (2 * s2)
        t = _w(z - 1, s2) * -mpmath.expm1(eps - loss)
        total += t
        if z - 1 >= 0:
            r = mpmath.exp(-(2 * (z - 1) + 1) / (2 * s2))
            if (t * r / (1 - r) <= tiny * total) or t == 0 and total > 0:
                break
        z += 1
        if z - z0 > 10**7:                                  # pragma: no cover - guarded by MAX_SIGMA2
            raise ArithmeticError("discrete Gaussian profile: the sum did not converge")
    return total / zn


def profile_slope(eps, s2):
    """d delta / d eps = -e^eps Q(L > eps) = -e^eps G(z0)."""
    zn = normaliser(s2)
    return -mpmath.exp(eps) * _G(_z0(eps, s2), s2, zn)


def printed_profile(eps, s2):
    """The catalog's form Pr[X > eps s2 - 1/2] - e^eps Pr[X > eps s2 + 1/2], X ~ N_Z(0, s2) (for tests)."""
    zn = normaliser(s2)
    a = _G(int(mpmath.floor(eps * s2 - mpmath.mpf(1) / 2)) + 1, s2, zn)
    b = _G(int(mpmath.floor(eps * s2 + mpmath.mpf(1) / 2)) + 1, s2, zn)
    return a - mpmath.exp(eps) * b


def auc(s2):
    """AUC = P(Z1 > Z0) + P(Z1 = Z0)/2 for independent Z1 ~ N_Z(1, s2), Z0 ~ N_Z(0, s2) (the area under
    the Neyman-Pearson ROC of a pair with a monotone likelihood ratio), summed over z as
    sum_z Q(z) [G(z) + w(z - 1)/(2 Zn)] with G(z) = Q(Z >= z) = P(Z1 > z), from the top down."""
    zn = normaliser(s2)
    # the z where Q(z) G(z) matters: |z| up to M with w(M) below the precision
    m = int(mpmath.sqrt(2 * s2 * (mpmath.mp.prec + 20) * mpmath.log(2))) + 2
    total = mpmath.mpf(0)
    g = _G(m + 1, s2, zn)                      # Q(Z >= m + 1), tiny
    for z in range(m, -m - 2, -1):
        q = _w(z, s2) / zn
        g += q                                  # G(z) = G(z + 1) + Q(z)
        total += q * (g + _w(z - 1, s2) / (2 * zn))
    # the terms left out (z > m and z < -m - 1) are below 1.5 Q(|Z| > m) < 2^-(prec + 20): under the
    # working precision, which verified() confirms by a second, higher precision
    return total


# ------------------------------------------------------------------ functionals (sums) -------
#
# The functionals of seed 004 (catalog 004 Sec. 3, DRS Sec. 3.2) of f = T(P0, P1) are expectations
# under P0 of a function of the log-likelihood ratio l = log(p1/p0): with x the type-I error, |f'(x)|
# is the likelihood ratio at the point the Neyman-Pearson test has reached, so int_0^1 g(log|f'|) dx =
# E_P0[g(l)] (f is piecewise linear here: one piece per integer, of width P0(z)).  For the discrete
# Gaussian P0 = N_Z(0, s2), P1 = N_Z(1, s2) and l(z) = -(2z - 1)/(2 s2) (the symmetric pair read from
# P0 = N_Z(0) towards N_Z(1); the functionals are the same read either way, f being symmetric).
# TV and Renyi are sums of the same kind: TV = sum_z (p1 - p0)_+ and
# D_lambda = log(sum_z p0^lambda p1^(1 - lambda)) / (lambda - 1).


def _one_sided(term, start: int, step: int):
    """sum_{j >= 0} term(start + j step) for non-negative terms whose ratio of consecutive terms
    decreases along the direction (a Gaussian weight times |polynomial|, log-concave beyond the mode).
    Stops, two or more steps in, when the ratio r is < 1 and the remaining terms (at most the
    geometric series t r / (1 - r)) are below 2^-(prec + 10) of the total."""
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    total, prev, z = mpmath.mpf(0), None, start
    while True:
        t = term(z)
        total += t
        if t == 0 and abs(z - start) >= 2:
            return total
        if prev is not None and prev > 0 and abs(z - start) >= 2:
            r = t / prev
            if r < 1 and t * r / (1 - r) <= tiny * total:
                return total
        if abs(z - start) > 10**7:                           # pragma: no cover - guarded by MAX_SIGMA2
            raise ArithmeticError("discrete Gaussian functional: the sum did not converge")
        prev, z = t, z + step


def _whole_line(term, centre: int):
    """sum over all integers of a non-negative ``term`` unimodal around ``centre``."""
    return _one_sided(term, centre, 1) + _one_sided(term, centre - 1, -1)


def _loss(z, s2):
    """l(z) = log p1(z)/p0(z) = (2z - 1)/(2 s2) for P0 = N_Z(0, s2), P1 = N_Z(1, s2)."""
    return (2 * mpmath.mpf(z) - 1) / (2 * s2)


def functional(name: str, s2, order=None):
    """kl, kappa2, kappa3, kappabar3, mu3, tv or renyi (``order`` > 1) of the discrete Gaussian pair, as
    sums over the integers at the working precision.  No closed form is used here; the tests and the
    checker compare with kl = 1/(2 s2) (E_P0[Z] = 0), TV = 1/Zn (the sum telescopes) and
    D_lambda = lambda/(2 s2) + log(Z(1 - lambda)/Z(0))/(lambda - 1), Z(c) = sum_z exp(-(z - c)^2/(2 s2))."""
    zn = normaliser(s2)
    if name == "tv":
        # sum_{z >= 1} (w(z - 1) - w(z)) / Zn: positive terms, each computed as w(z-1)(1 - w(z)/w(z-1))
        return _one_sided(lambda z: -_w(z - 1, s2) * mpmath.expm1(-(2 * mpmath.mpf(z) - 1) / (2 * s2)),
                          1, 1) / zn
    if name == "renyi":
        lam = mpmath.mpf(order)
        # p0^lam p1^(1 - lam) Zn = exp(-(lam z^2 + (1 - lam)(z - 1)^2)/(2 s2)), peaked near z = 1 - lam
        s = _whole_line(lambda z: mpmath.exp(-(lam * mpmath.mpf(z) ** 2 + (1 - lam) * (mpmath.mpf(z) - 1) ** 2)
                                             / (2 * s2)), int(mpmath.nint(1 - lam)))
        return mpmath.log(s / zn) / (lam - 1)
    # E_P0[l] from its two signed halves (l > 0 for z >= 1, l < 0 for z <= 0)
    up = _one_sided(lambda z: _w(z, s2) * _loss(z, s2), 1, 1)
    down = _one_sided(lambda z: -_w(z, s2) * _loss(z, s2), 0, -1)
    mean = (up - down) / zn
    if name == "kl":
        return -mean
    power, centred, signed = {"kappa2": (2, False, False), "kappa3": (3, False, False),
                              "kappabar3": (3, True, False), "mu3": (3, True, True)}[name]
    shift = mean if centred else 0

    def g(z):
        return abs(_loss(z, s2) - shift) ** power * _w(z, s2)
    if signed:
        # l - E l = z / s2 changes sign between z = 0 and z = 1: the two halves separately
        return (_one_sided(g, 1, 1) - _one_sided(g, 0, -1)) / zn
    return _whole_line(g, 0) / zn

#: kernel name (the heads' ``kernel`` attribute) -> function of (mpf, mpf)
KERNELS = {"tradeoff": tradeoff, "power": power, "profile": profile, "profile_slope": profile_slope}
