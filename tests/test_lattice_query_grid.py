"""An eps(delta) query of steps whose atoms lie on one lattice g (Laplace) moves the grid to g / m
(numeric.pld_grid._on_lattice): before, such compositions never adapted (10^4 distinct Laplace steps
stayed on g / 13 with a 2^24-point window; 10 x Laplace(0.1) eps(1e-6) was 6.4e-6 wide).

Reference: the exact route for k copies of one Laplace step (numeric.compose_exact: the privacy-loss law
as a spline with exact rational pieces, verified digits), another code path than the engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from numeric import compose_exact as X
from numeric import pld, pld_grid
from numeric import pld_mechanisms as M


def _query():
    comp = pld.compose([(M.laplace("0.1"), 10)])
    sub = comp._for_query(-13.8, Fraction(1, 10 ** 6))
    return comp, sub, comp.eps("1e-6")


def test_query_grid_stays_on_the_atoms_lattice_and_narrows():
    comp, sub, r = _query()
    assert comp._lattice == Fraction(1, 10)
    assert (Fraction(1, 10) / sub.h).denominator == 1 and sub.h != comp.h
    ex = X.eps("laplace", {"eps": "0.1"}, 10, "1e-6", 20).value
    assert r.certified and r.eps_lower <= ex <= r.eps_upper
    assert (r.eps_upper - r.eps_lower) / ex <= 2e-6        # measured 6.1e-7 (6.4e-6 on the default grid)


def test_mutation_no_lattice_adaptation_is_caught(monkeypatch):
    monkeypatch.setattr(pld_grid, "_on_lattice", lambda comp, *a: comp.h)
    _, _, r = _query()
    ex = X.eps("laplace", {"eps": "0.1"}, 10, "1e-6", 20).value
    assert not (r.eps_upper - r.eps_lower) / ex <= 2e-6


@pytest.mark.parametrize("entries", [[(M.randomized_response("0.5"), 3)],
                                     [(M.laplace("0.5"), 2), (M.discrete_gaussian("2"), 1)]])
def test_no_lattice_where_atoms_are_all_lattice_steps_or_unlisted(entries):
    """Pure lattice steps keep their exact grid, and unlisted atoms (the discrete Gaussian) keep the default."""
    assert pld.compose(entries)._lattice is None
