"""delta(eps) answered again on finer grids with the next run's knots counted (numeric.pld_grid.delta_grid,
``_knots_at``), not guessed as 4 times the last run's (issue #25: a 1000-step mixed spec stayed 15 % wide).

These tests need a first run that is wide.  Since the lower measure keeps a Laplace step's top atom
(``pld_discretise._left_tangent_holds``; tests/test_top_atom.py) the 80-step spec's first run is 3.2e-5 wide,
so the module restores the former top cut (the atom one knot down, 3.9e-4 wide) to exercise the refinement."""

from __future__ import annotations

from fractions import Fraction

import pytest

from numeric import pld
from numeric import pld_discretise as PD
from numeric import pld_grid as G
from numeric import pld_mechanisms as M
from tests.laplace_reference import lattice_bracket

EPS = [Fraction(10 + 2 * i, 1000) for i in range(80)]      # 80 distinct Laplace steps, eps on the grid 1/1000


def _comp():
    return pld.compose([(M.laplace(str(e)), 1) for e in EPS])


@pytest.fixture(scope="module", autouse=True)
def _former_top_cut():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PD, "_left_tangent_holds", lambda *a: False)
        yield


@pytest.fixture(scope="module")
def first(_former_top_cut):
    c = _comp()
    r0 = c._delta_once("1")
    return c, r0


def test_counted_knots_refine_where_the_guess_refused(first):
    c, r0 = first
    w0 = float((r0.delta_upper - r0.delta_lower) / r0.delta_upper)
    k = c._knot_count()
    assert w0 > 3e-4
    assert G.delta_grid(c, r0, c.h, k, k) is None              # the 4x guess: over DELTA_KNOT_BUDGET
    assert G.delta_grid(c, r0, c.h, k, k, c) == c.h / 4        # counted: within three first runs
    r = _comp().delta("1")
    assert float((r.delta_upper - r.delta_lower) / r.delta_upper) < w0 / 10
    # reference: the two lattice-rounded laws of tests/laplace_reference.py (exact steps on 1/100000,
    # numpy FFT): it brackets the truth up to ~1e-15, so the certified bracket must meet it
    lo, hi = lattice_bracket(EPS, Fraction(1), Fraction(1, 100000))
    assert r.delta_lower <= hi + 1e-14 and lo - 1e-14 <= r.delta_upper
    assert r0.delta_lower <= r.delta_lower and r.delta_upper <= r0.delta_upper


def test_mutation_knot_count_too_high_stops_refinement(monkeypatch):
    """Mutation: a knot count 10^9 (as if every run were unaffordable): the bracket stays wide."""
    monkeypatch.setattr(G, "_knots_at", lambda comp, h: 10 ** 9)
    r = _comp().delta("1")
    assert float((r.delta_upper - r.delta_lower) / r.delta_upper) > 3e-4
