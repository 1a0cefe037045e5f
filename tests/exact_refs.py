"""Shared helpers of the issue #3 tests: exact decimal inputs and comparisons at 80 digits.

Nothing here computes a reference value; each test file computes its own
independently of the library.
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
