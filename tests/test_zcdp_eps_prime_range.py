"""The PDP reading of rho-zCDP minimises eps'(eps_c(delta), delta, delta') over delta < delta'; the search over
log delta was cut to [log delta' - 700, log delta' - 1e-12], and the minimiser lies beyond either end for a
tiny or a huge rho (thirteenth session's audit): at rho = 1e-1000, delta' = 0.01 it sits at log(delta'/delta) =
1155.5 and the end value 1.97193530875195e-304 was returned as verified; at rho = 1e30 it sits at 2.1e-15.

References (the audit helper's, no dp-derive code): bisection at 120 digits on the sign of the exact derivative
of the objective in u = -log delta over [-log delta' + 1e-100, -log delta' + 1e6], the objective then evaluated
with log1p; where the minimiser lies inside the former range the two agree to 40 digits."""

from __future__ import annotations

import mpmath
import pytest

from numeric import semantics as SEM
from numeric import solvers as SOL


@pytest.mark.parametrize("rho,ref,digits", [
    ("1e-1000", "6.81503989215744e-499", 15),
    ("1e30", "1.00000000000000429193205257873e30", 30),
])
def test_minimiser_outside_the_former_range(rho, ref, digits):
    got = SEM.zcdp_eps_prime(rho, "0.01", digits=digits).eps_prime
    with mpmath.workdps(digits + 20):
        want = mpmath.mpf(ref)
        assert abs(got - want) <= want * mpmath.mpf(10) ** (1 - digits)


def test_mutation_range_capped_at_700_is_caught(monkeypatch):
    """log(delta'/delta) kept below 700 (the former lower end) by clamping the search's upper end."""
    orig = SOL.golden_max

    def capped(h, lo, hi, *args, **kw):
        return orig(h, lo, min(hi, mpmath.log(700)), *args, **kw)
    monkeypatch.setattr(SOL, "golden_max", capped)
    with pytest.raises(AssertionError):
        test_minimiser_outside_the_former_range("1e-1000", "6.81503989215744e-499", 15)
