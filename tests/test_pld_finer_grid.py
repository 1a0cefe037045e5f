"""An eps(delta) query left wider than 1e-4 on its grid looks again on half the grid step
(``numeric.pld_results.finer_grid``), after the finer knot tolerance.

Reference: the DP-SGD eps of ``bench/dpsgd_reference.py`` (Laplace inversion through the saddle point, numpy and
scipy only, no dp-derive code), recomputed here.  The mutation switches the look off and the width check fails.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from numeric import dpsgd
from numeric import pld_results as R
from tests.dpsgd_windows import saddle_point_reference

# on its query grid 2^-12 this cell is 4.0e-4 wide, 3.1e-4 after the finer knot tolerance
CELL = ("0.004", "1.1", 100, "1e-5")


@pytest.fixture(scope="module")
def reference():
    q, s, T, d = CELL
    eps, err = saddle_point_reference(float(q), float(s), T, float(d))
    assert err < 1e-9
    return eps


def _check(reference):
    q, s, T, d = CELL
    r = dpsgd._composition(Fraction(q), Fraction(s), T).eps(d)
    assert r.certified and r.eps_lower <= reference <= r.eps_upper
    assert (r.eps_upper - r.eps_lower) / r.eps_upper <= 1e-4
    return r


def test_the_finer_grid_brings_the_bracket_within_1e4(monkeypatch, reference):
    calls = []
    orig = R.finer_grid

    def spy(comp, sub, dl):
        out = orig(comp, sub, dl)
        calls.append((sub.h, out))
        return out
    monkeypatch.setattr(R, "finer_grid", spy)
    _check(reference)
    assert len(calls) == 1 and calls[0][1] is not None and calls[0][0] == Fraction(1, 2 ** 12)


def test_mutation_no_finer_grid(monkeypatch, reference):
    monkeypatch.setattr(R, "finer_grid", lambda comp, sub, dl: None)
    with pytest.raises(AssertionError):
        _check(reference)


def test_the_finer_grid_stops_at_its_window(monkeypatch):
    """Past FINER_GRID_WINDOW points no second look is made (the window doubles with it)."""
    q, s, T, d = CELL
    comp = dpsgd._composition(Fraction(q), Fraction(s), T)
    comp.eps(d)
    sub = next(iter(comp._subs.values()))
    assert R.finer_grid(comp, sub, Fraction(d)) is not None
    monkeypatch.setattr(R, "FINER_GRID_WINDOW", 1)
    assert R.finer_grid(comp, sub, Fraction(d)) is None
