"""Composition of pure DP and zCDP-to-DP conversion (seed 002, Thm 2.7, 2.8): ``numeric.composition``.

Reference provenance (all computed in this file):

* basic k eps0; advanced eps0 sqrt(2 k log(1/delta)) + k eps0 (e^eps0 - 1) (Dwork, Rothblum,
  Vadhan), evaluated by hand at 60 digits;
* optimal (Murtagh-Vadhan form of Kairouz-Oh-Viswanath): brute force with exact binomials
  (``math.comb``) at 60 digits,
  delta(eps_g) = sum_{l=0}^{k} C(k,l) max(0, e^{(k-l)eps0} - e^{eps_g + l eps0})/(1+e^{eps0})^k,
  and bisection on eps_g for a given delta; the KOV Thm 3.3 grid formula
  delta_i = sum_{l<i} C(k,l)(e^{(k-l)eps0} - e^{(k-2i+l)eps0})/(1+e^{eps0})^k at eps_g = (k-2i)eps0;
  for k = 10^4 the same sum in log space with log-gamma binomials at 50 digits;
* zCDP: Bun-Steinke R + 2 sqrt(R log(1/delta)), R = k rho; CKS inf_{a>1} a R + (log(1/delta) +
  (a-1) log(1-1/a) - log a)/(a-1) by our own grid scan + golden-section search over
  log(a-1) at 50 digits; the exact eps of the Gaussian mechanism with mu = sqrt(2R) at delta
  (bisection on the GDP profile Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)), which every
  valid conversion must be at least.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

import mpmath
import pytest

from derive.errors import DomainError
from exact_refs import DIGITS, close, q, val
from numeric import composition as NC


# ------------------------------------------------------------------ optimal composition, brute force
def delta_brute(eps0, k, eg):
    """Murtagh-Vadhan delta(eps_g) with exact binomials (call inside workdps)."""
    a, g = q(eps0), mpmath.mpf(eg)
    total = mpmath.mpf(0)
    for l in range(k + 1):
        term = mpmath.exp((k - l) * a) - mpmath.exp(g + l * a)
        if term > 0:
            total += math.comb(k, l) * term
    return total / (1 + mpmath.exp(a)) ** k


def kov_grid(eps0, k, i):
    """Kairouz-Oh-Viswanath Thm 3.3, delta at eps_g = (k - 2i) eps0 (call inside workdps)."""
    a = q(eps0)
    s = sum((math.comb(k, l) * (mpmath.exp((k - l) * a) - mpmath.exp((k - 2 * i + l) * a)) for l in range(i)),
            mpmath.mpf(0))
    return s / (1 + mpmath.exp(a)) ** k


def eps_brute(eps0, k, delta):
    """Smallest eps_g >= 0 with delta(eps_g) <= delta: bisection (delta(.) decreases) at 60 digits."""
    d = q(delta)
    if delta_brute(eps0, k, 0) <= d:
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), k * q(eps0)
    for _ in range(165):                      # width k eps0 / 2^165 < 1e-47
        mid = (lo + hi) / 2
        if delta_brute(eps0, k, mid) > d:
            lo = mid
        else:
            hi = mid
    return hi


OPTIMAL_CASES = [(k, e, d) for k in (1, 2, 10) for e, d in (("0.1", "1e-5"), ("1", "0.01"), ("0.5", "1e-3"))] + [
    (50, "0.1", "1e-5"),
    (50, "1", "0.01"),
    (2, "0.01", "0.5"),        # delta(0) <= delta: eps = 0
    (3, "0.5", "0.3"),         # odd k, crossing in the cell next to 0
    (50, "0.01", "1e-10"),
    (10, "2", "1e-300"),       # only the l = 0 cell: eps = 20 + log(1 - 1e-300 (1 + e^2)^10 / e^20)
]


@pytest.mark.parametrize("k, eps0, delta", OPTIMAL_CASES)
def test_optimal_eps_by_brute_force(k, eps0, delta):
    out = NC.compose_pure(eps0, str(k), delta, "optimal", DIGITS)
    with mpmath.workdps(60):
        ref = eps_brute(eps0, k, delta)
        close(out.eps, ref, what="optimal eps")
        close(out.delta, q(delta), what="delta echoed")
        # and directly: the reported eps meets delta (to the digits returned)
        got = val(out.eps)
        if got > 0 and q(delta) > mpmath.mpf("1e-20"):   # (at 1e-300, eps = 20 - 1e-290 prints as 20)
            close(delta_brute(eps0, k, got), q(delta), mpmath.mpf("1e-15") * (1 + k * q(eps0)), "delta(eps)")
        eps_opt = NC.optimal_eps(eps0, str(k), delta, DIGITS)
        close(eps_opt, ref, what="optimal_eps()")


@pytest.mark.parametrize("k, eps0, eg", [(1, "1", "0"), (1, "1", "0.5"), (2, "0.5", "0.25"), (10, "0.1", "0.35"),
                                         (10, "0.1", "0"), (50, "0.1", "2.3"), (50, "1", "49.5"), (3, "0.5", "0")])
def test_optimal_delta_by_brute_force(k, eps0, eg):
    got = NC.optimal_delta(eps0, str(k), eg, DIGITS)
    with mpmath.workdps(60):
        close(got, delta_brute(eps0, k, q(eg)), what="delta(eps_g)")


@pytest.mark.parametrize("k, eps0, eg", [(10, "0.1", "1"), (10, "0.1", "1.5"), (5, "2", "10")])
def test_optimal_delta_is_zero_beyond_k_eps0(k, eps0, eg):
    assert val(NC.optimal_delta(eps0, str(k), eg, DIGITS)) == 0


def _decimal(f: Fraction) -> str:
    """A terminating fraction as an exact decimal string."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        s = str(decimal.Decimal(f.numerator) / decimal.Decimal(f.denominator))
    assert Fraction(s) == f
    return s


@pytest.mark.parametrize("k, eps0", [(10, "0.1"), (7, "0.5"), (50, "0.02")])
def test_kov_grid_points(k, eps0):
    """At eps_g = (k - 2i) eps0 the Murtagh-Vadhan delta is KOV's delta_i; optimal_eps inverts it."""
    e0 = Fraction(eps0)
    for i in range(1, (k + 1) // 2 + 1):
        eg = (k - 2 * i) * e0
        if eg < 0:
            break
        eg_dec = _decimal(eg)
        with mpmath.workdps(60):
            kov = kov_grid(eps0, k, i)
            assert abs(kov - delta_brute(eps0, k, q(eg_dec))) <= kov * mpmath.mpf("1e-50")  # references agree
            close(NC.optimal_delta(eps0, str(k), eg_dec, DIGITS), kov, what=f"KOV delta_{i}")
            kov_str = mpmath.nstr(kov, 55)
        if eg > 0:
            with mpmath.workdps(60):
                close(NC.optimal_eps(eps0, str(k), kov_str, DIGITS), q(eg_dec), mpmath.mpf("1e-17"),
                      f"optimal_eps(delta_{i})")


@pytest.mark.parametrize("k, eps0, delta", [(10, "0.1", "1e-5"), (100, "0.1", "1e-5"), (1000, "0.01", "1e-6"),
                                            (5, "1", "1e-3"), (1000, "0.01", "1e-300")])
def test_basic_advanced_and_optimal_is_the_smallest(k, eps0, delta):
    res = {m: NC.compose_pure(eps0, str(k), delta, m, DIGITS) for m in NC.METHODS}
    with mpmath.workdps(60):
        e0, d = q(eps0), q(delta)
        basic = k * e0
        adv = e0 * mpmath.sqrt(2 * k * mpmath.log(1 / d)) + k * e0 * mpmath.expm1(e0)
        close(res["basic"].eps, basic, what="basic")
        assert val(res["basic"].delta) == 0
        close(res["advanced"].eps, adv, what="advanced")
        close(res["advanced"].delta, d, what="advanced delta")
        assert (res["advanced"].note is not None) == (adv > basic)
        assert val(res["optimal"].eps) <= min(basic, adv)


# ------------------------------------------------------------------ k = 10^4, log-space exact sum
_LOG_WEIGHTS = {}


def _log_weights(eps0, k):
    """[(l, (k - 2l) eps0, log of C(k,l) e^{(k-l) eps0}/(1+e^eps0)^k)] with log C(k,l) by log-gamma
    (computed once per (eps0, k, precision): the expensive part of the sum)."""
    key = (eps0, k, mpmath.mp.prec)
    if key not in _LOG_WEIGHTS:
        a = q(eps0)
        lk = mpmath.loggamma(k + 1)
        norm = k * mpmath.log1p(mpmath.exp(a))
        out = []
        for l in range(k + 1):
            z = (k - 2 * l) * a
            if z <= 0:
                break
            logc = lk - mpmath.loggamma(l + 1) - mpmath.loggamma(k - l + 1)
            out.append((z, logc + (k - l) * a - norm))
        _LOG_WEIGHTS[key] = out
    return _LOG_WEIGHTS[key]


def delta_logspace(eps0, k, eg):
    """delta(eps_g) for large k: sum over (k - 2l) eps0 > eps_g of
    exp(log C(k,l) + (k-l) eps0 - k log(1+e^eps0)) (1 - e^{eps_g - (k-2l) eps0}) (call inside workdps(50))."""
    g = mpmath.mpf(eg)
    total = mpmath.mpf(0)
    for z, logw in _log_weights(eps0, k):
        if z <= g:
            break
        total += mpmath.exp(logw) * -mpmath.expm1(g - z)
    return total


def test_optimal_k_ten_thousand_log_space():
    k, eps0, delta = 10_000, "0.01", "1e-5"
    out = NC.compose_pure(eps0, str(k), delta, "optimal", DIGITS)
    with mpmath.workdps(50):
        eps = val(out.eps)
        assert 0 < eps < k * q(eps0)
        got = delta_logspace(eps0, k, eps)
        # d log(delta)/d eps_g is O(1) here, so 20 digits of eps give delta to ~1e-18 relative
        close(got, q(delta), mpmath.mpf("1e-15"), "delta(eps_opt) at k = 1e4")
        # and the library's delta at a fixed eps_g
        close(NC.optimal_delta(eps0, str(k), "4", DIGITS), delta_logspace(eps0, k, 4), what="delta(4) at k = 1e4")


# ------------------------------------------------------------------ zCDP -> DP
def cks_objective(R, d, a):
    return a * R + (mpmath.log(1 / d) + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)


def cks_min(R, d):
    """inf over a > 1, parametrised a = 1 + e^s: coarse grid on s, then golden section (50 digits)."""
    f = lambda s: cks_objective(R, d, 1 + mpmath.exp(s))  # noqa: E731
    grid = [mpmath.mpf(j) / 4 for j in range(-160, 161)]      # s in [-40, 40]
    vals = [f(s) for s in grid]
    j = min(range(len(vals)), key=vals.__getitem__)
    assert 0 < j < len(grid) - 1, "minimum at the edge of the scanned range"
    lo, hi = grid[j - 1], grid[j + 1]
    g = (mpmath.sqrt(5) - 1) / 2
    c, e = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fe = f(c), f(e)
    for _ in range(250):
        if fc < fe:
            hi, e, fe = e, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, e, fe
            e = lo + g * (hi - lo)
            fe = f(e)
    return f((lo + hi) / 2)


def gdp_eps(mu, d):
    """Exact eps of mu-GDP at delta: bisection on Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta."""
    prof = lambda e: mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)  # noqa: E731
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    while prof(hi) > d:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if prof(mid) > d:
            lo = mid
        else:
            hi = mid
    return hi


ZCDP = [("0.01", "10", "1e-5"), ("0.5", "4", "1e-300"), ("1e-10", "1", "1e-300"), ("100", "10", "0.5"),
        ("0.005", "1000", "1e-10")]


@pytest.mark.parametrize("rho, k, delta", ZCDP)
def test_zcdp_conversions(rho, k, delta):
    bs = NC.zcdp_to_dp(rho, k, delta, "bun-steinke", DIGITS)
    cks = NC.zcdp_to_dp(rho, k, delta, "cks", DIGITS)
    with mpmath.workdps(50):
        R, d = q(rho) * int(k), q(delta)
        bs_ref = R + 2 * mpmath.sqrt(R * mpmath.log(1 / d))
        close(bs.eps, bs_ref, what="Bun-Steinke")
        close(cks.eps, cks_min(R, d), mpmath.mpf("1e-17"), "CKS infimum")
        close(cks.bun_steinke, bs_ref, what="Bun-Steinke beside CKS")
        close(cks.rho_total, R, what="k rho")
        assert val(cks.eps) <= val(bs.eps)
    with mpmath.workdps(80):
        # validity: the Gaussian mechanism with mu = sqrt(2R) is R-zCDP, and its exact eps at
        # delta is a lower bound for any correct conversion
        exact = gdp_eps(mpmath.sqrt(2 * R), d)
        assert val(cks.eps) >= exact


@pytest.mark.parametrize("rho, k, delta", [("1e-20", "1", "0.1"), ("1", "1", "0.999")])
def test_cks_eps_is_never_negative(rho, k, delta):
    out = NC.zcdp_to_dp(rho, k, delta, "cks", DIGITS)
    with mpmath.workdps(80):
        R, d = q(rho) * int(k), q(delta)
        exact = gdp_eps(mpmath.sqrt(2 * R), d)     # ~0: delta(0) = 2 Phi(mu/2) - 1 <= delta already
        assert exact < mpmath.mpf("1e-50")
        # delta(0) <= delta already, so the exact eps is 0 (the bisection leaves a residual ~1e-60):
        # the conversion must give exactly 0, neither negative nor a rounding residue
        assert 2 * mpmath.ncdf(mpmath.sqrt(2 * R) / 2) - 1 <= d
        assert val(out.eps) == 0


def test_zcdp_default_conversion_is_cks():
    a = NC.zcdp_to_dp("0.01", "10", "1e-5")
    b = NC.zcdp_to_dp("0.01", "10", "1e-5", "cks")
    assert a.eps == b.eps


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("k", ["0", "-1", "1.5", "10000001"])
def test_k_outside_positive_integers(k):
    for call in (lambda: NC.compose_pure("1", k, "1e-5", "basic"),
                 lambda: NC.compose_pure("1", k, "1e-5", "optimal"),
                 lambda: NC.zcdp_to_dp("0.1", k, "1e-5", "cks"),
                 lambda: NC.optimal_delta("1", k, "1"),
                 lambda: NC.optimal_eps("1", k, "1e-5")):
        with pytest.raises(DomainError) as exc:
            call()
        assert exc.value.parameter == "k"


@pytest.mark.parametrize("call, param", [
    (lambda: NC.compose_pure("-1", "2", "1e-5", "basic"), "eps"),
    (lambda: NC.compose_pure("0", "2", "1e-5", "optimal"), "eps"),
    (lambda: NC.compose_pure("1", "2", "0", "advanced"), "delta"),
    (lambda: NC.compose_pure("1", "2", "1", "optimal"), "delta"),
    (lambda: NC.compose_pure("1", "2", "1e-5", "magic"), "method"),
    (lambda: NC.zcdp_to_dp("1", "2", "1e-5", "magic"), "conversion"),
    (lambda: NC.zcdp_to_dp("-1", "2", "1e-5", "bun-steinke"), "rho"),
    (lambda: NC.zcdp_to_dp("1", "2", "1", "cks"), "delta"),
    (lambda: NC.compose_pure("1", "2", None, "optimal"), "delta"),
    (lambda: NC.optimal_delta("1", "2", "-1"), "eps_g"),
])
def test_bad_input(call, param):
    with pytest.raises(DomainError) as exc:
        call()
    assert exc.value.parameter == param


@pytest.mark.parametrize("conversion", ["cks", "bun-steinke"])
def test_zcdp_limits_are_answered(conversion):
    # issue #11: rho = 0 is perfect privacy (eps = 0 at any delta: both conversions' objectives are
    # log(1/delta)-driven terms times rho -> 0); rho = inf and delta = 0 have no finite eps
    # (the Gaussian profile, which rho-zCDP contains for mu = sqrt(2 rho), is positive at every eps).
    zero = NC.zcdp_to_dp("0", "3", "1e-5", conversion)
    assert zero.eps.p == 0 and "perfect privacy" in zero.note
    assert mpmath.isinf(NC.zcdp_to_dp("inf", "1", "1e-5", conversion).eps)
    assert mpmath.isinf(NC.zcdp_to_dp("1", "1", "0", conversion).eps)


def test_zcdp_huge_rho_is_computed():
    # rho = 1e200 (was ZeroDivisionError): CKS <= Bun-Steinke = rho + 2 sqrt(rho log(1/delta)), and CKS >= rho
    # (a rho >= rho for a > 1 and the rest of the objective is >= -log(a)/(a-1) + log(1/delta)/(a-1) > 0 here),
    # so eps / rho - 1 lies in [0, 2 sqrt(log(1e5)/1e200)] = [0, 6.8e-100]: to 20 digits, eps = 1e200.
    out = NC.zcdp_to_dp("1e200", "1", "1e-5", "cks", 20)
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(out.eps) / mpmath.mpf("1e200") - 1) < mpmath.mpf("1e-19")
    # and at rho = 1e20 the second term is visible: eps = 1e20 + 2 sqrt(1e20 log 1e5) (1 + O(1e-10)) = 1e20 + 6.786e10
    mid = NC.zcdp_to_dp("1e20", "1", "1e-5", "cks", 20).eps
    with mpmath.workdps(40):
        second = (mpmath.mpf(mid) - mpmath.mpf("1e20")) / (2 * mpmath.sqrt(mpmath.mpf("1e20") * mpmath.log(10**5)))
        assert abs(second - 1) < mpmath.mpf("1e-8")


@pytest.mark.parametrize("method", ["basic", "optimal"])
def test_compose_pure_delta_zero_is_k_eps0(method):
    # delta_opt(eps_g) = E max(0, 1 - e^{eps_g - Z}) > 0 for eps_g < k eps0 (Z = k eps0 has positive mass),
    # so the smallest eps_g with delta 0 is k eps0 = 2.5 exactly (and basic is k eps0 by definition)
    out = NC.compose_pure("0.5", "5", "0", method, 20)
    assert mpmath.mpf(out.eps) == mpmath.mpf("2.5")
