"""Shared helpers of the issue #3 tests: exact decimal inputs, comparisons at 80 digits, and the
reference trade-off formulas written here from the papers (never with the library).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

DIGITS = 20
TOL = mpmath.mpf("1e-18")  # 20 verified digits, compared with 2 digits of slack


def q(s) -> mpmath.mpf:
    """The decimal string s, exactly as a fraction, rounded once at the working precision."""
    f = Fraction(s)
    return mpmath.mpf(f.numerator) / f.denominator


def qc(s) -> mpmath.mpf:
    """1 - s, computed exactly as a fraction before rounding (priors near 1 keep their digits)."""
    f = 1 - Fraction(s)
    return mpmath.mpf(f.numerator) / f.denominator


def val(x) -> mpmath.mpf:
    """A library result (mpf, or its exact-rational ``Exact``) as an mpf at the working precision."""
    if type(x).__name__ == "Exact":
        return mpmath.mpf(x.p) / x.q
    return mpmath.mpf(x)


def close(got, ref, tol=TOL, what=""):
    """Relative agreement within ``tol`` at 80 digits; an exact 0 reference needs an exact 0."""
    with mpmath.workdps(80):
        g, r = val(got), mpmath.mpf(ref)
        if r == 0:
            assert g == 0, f"{what}: got {g}, expected exactly 0"
            return
        err = abs(g - r) / abs(r)
        assert err <= tol, f"{what}: got {mpmath.nstr(g, 25)}, ref {mpmath.nstr(r, 25)}, rel err {mpmath.nstr(err, 3)}"


def z_upper(a):
    """PhiBar^-1(a): Newton on log PhiBar (concave) from sqrt(-2 log a), monotone ."""
    a = mpmath.mpf(a)
    if a == mpmath.mpf(1) / 2:
        return mpmath.mpf(0)
    if a > mpmath.mpf(1) / 2:
        return -z_upper(1 - a)
    la = mpmath.log(a)
    z = mpmath.sqrt(-2 * la)
    for _ in range(1000):
        tail = mpmath.ncdf(-z)
        step = (mpmath.log(tail) - la) * tail / mpmath.npdf(z)
        z += step
        if abs(step) <= mpmath.mpf(10) ** (-mpmath.mp.dps + 8) * max(1, abs(z)):
            return z
    raise AssertionError("no convergence")


def gauss_power(mu, a):
    """1 - G_mu(a) = Phi(mu - PhiBar^-1(a)) (Dong, Roth, Su 2022)."""
    return mpmath.ncdf(mpmath.mpf(mu) - z_upper(a))

def laplace_power(eps, a):
    """1 - f(a) of the Laplace mechanism, piece by piece without forming 1 - f."""
    e, a = mpmath.mpf(eps), mpmath.mpf(a)
    if a < mpmath.exp(-e) / 2:
        return mpmath.exp(e) * a
    if a <= mpmath.mpf(1) / 2:
        return 1 - mpmath.exp(-e) / (4 * a)
    return 1 - mpmath.exp(-e) * (1 - a)
