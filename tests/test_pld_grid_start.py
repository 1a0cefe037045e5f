"""An eps(delta) query's grid of delta bounds starts at eps = 0 (``numeric.pld_fft.grid_bounds``' ``start``).

References are independent of the engine: the exact delta(eps) of the composed Gaussian pair G_mu in closed
form (``test_accountants.gdp_delta``, mpmath at 40 digits) and eps(delta) from it by bisection.  The mutation
test breaks the index offset the query reads the shortened grid with, and the exact eps then falls outside.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from numeric import pld  # noqa: E402
from numeric.pld_fft import grid_bounds  # noqa: E402
from numeric.pld_mechanisms import gaussian  # noqa: E402
from test_accountants import gdp_delta, solve_eps  # noqa: E402

MU1, STEPS = "0.5", 3                      # 3 x G_0.5 = G_{sqrt(3)/2}
MU = mpmath.sqrt(mpmath.mpf(3)) / 2
DELTA = Fraction(1, 10 ** 6)


def _exact_eps():
    return solve_eps(lambda e: gdp_delta(MU, e), mpmath.mpf(DELTA.numerator) / DELTA.denominator)


def _check(r):
    """The bracket contains the exact eps and is narrower than 1e-3 relative (the query answers within 7e-6)."""
    assert r.certified
    ref = _exact_eps()
    assert r.eps_lower <= ref <= r.eps_upper, (r.eps_lower, ref, r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) < 1e-3 * float(ref)


def test_eps_query_grid_starts_at_zero_and_contains_the_exact_eps():
    comp = pld.compose([(gaussian(MU1), STEPS)])
    _check(comp.eps(DELTA))
    entries = [got for sub in [comp, *comp._subs.values()] for got in sub._cache.values()]
    starts = [cu.g_start for cu, *_ in entries]
    # the window of this query reaches below eps = 0, so the shortened grid is what answered
    assert any(s > 0 for s in starts)
    for cu, gu, cl, gl in entries:
        assert cu.g_start == max(0, -cu.W0) and cu.g_start + len(gu) == cu.n_points
        assert cl is None or (cl.g_start == cu.g_start and len(gl) == len(gu))


def test_shortened_grid_bounds_contain_the_exact_delta():
    """Every value of the shortened grid lies on its side of the exact delta(eps) at its grid point, and agrees
    with the full grid's value there up to the smaller rounding bound of the shorter recursion."""
    from numeric.pld_fft import compose_fft
    comp = pld.compose([(gaussian(MU1), STEPS)])
    ups, los, _ = comp._measures(0, 0.0, True, None)
    hf = float(comp.h)
    cu = compose_fft(ups, comp.h, 1.0, None)
    cl = compose_fft(los, comp.h, 1.0, None, window=(cu.W0, cu.n_points))
    start = max(0, -cu.W0)
    assert start > 0
    full_up, short_up = grid_bounds(cu, "upper")[0], grid_bounds(cu, "upper", start)[0]
    full_lo, short_lo = grid_bounds(cl, "lower")[1], grid_bounds(cl, "lower", start)[1]
    assert len(short_up) == len(full_up) - start == len(short_lo)
    with np.errstate(invalid="ignore"):
        assert np.all(short_up <= full_up[start:] + 1e-12)
        assert np.allclose(short_up, full_up[start:], rtol=0, atol=1e-6)
    fin = np.isfinite(full_lo[start:])
    assert np.allclose(short_lo[fin], full_lo[start:][fin], rtol=0, atol=1e-6)
    # the exact delta (without the +inf term: G_mu has none) at every 997th grid point at or above 0
    for i in range(0, len(short_up), 997):
        eps = (cu.W0 + start + i) * hf
        if eps > 8:
            break
        exact = float(mpmath.log(gdp_delta(MU, eps)))
        assert short_lo[i] <= exact <= short_up[i], (eps, short_lo[i], exact, short_up[i])


def test_mutation_offset_ignored_moves_eps_out(monkeypatch):
    """Break the offset: the grid made from index 0 of the window while the query reads it from g_start (64
    loss units further up).  The check fails: the bracket comes out [0, 118.6] around the exact 4.1518."""
    orig = pld.grid_bounds
    monkeypatch.setattr(pld, "grid_bounds", lambda comp, which="both", start=0: orig(comp, which))
    comp = pld.compose([(gaussian(MU1), STEPS)])
    with pytest.raises(AssertionError):
        _check(comp.eps(DELTA))
