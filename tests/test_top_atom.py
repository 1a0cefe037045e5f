"""The lower measure keeps an atom at the top of a step's support (``numeric.pld_discretise._left_tangent_holds``).

A Laplace step's loss has an atom at +eps (P-mass 1/2) and nothing above it.  The lower hull's top cut kept
the value 0 at that knot only when the right tangent at the knot below proved the cell, which needs
Delta = 0 exactly (D is linear on the cell); Arb balls never prove it, so the atom moved one knot down.  The
left tangent at the top knot (slope -Q(L >= eps), the Q-atom reported by numeric/laplace_tails.py) proves
the chord directly.

Reference: tests/laplace_reference.py's two lattice-rounded laws (every step exactly on 1/100000, numpy
FFT, no engine code), which bracket the true delta to ~1e-15.
"""

from __future__ import annotations

from fractions import Fraction

from numeric import pld
from numeric import pld_discretise as PD
from numeric import pld_mechanisms as M
from tests.laplace_reference import lattice_bracket

EPS = [Fraction(10 + 2 * i, 1000) for i in range(80)]      # 80 distinct Laplace steps, eps on 1/1000


def _first_run():
    return pld.compose([(M.laplace(str(e)), 1) for e in EPS])._delta_once("1")


def test_laplace_top_atom_kept_and_reference_inside():
    r = _first_run()
    lo, hi = lattice_bracket(EPS, Fraction(1), Fraction(1, 100000))
    assert r.delta_lower <= hi + 1e-14 and lo - 1e-14 <= r.delta_upper
    assert float((r.delta_upper - r.delta_lower) / r.delta_upper) < 6e-5        # 3.9e-4 before


def test_mutation_without_left_tangent_the_bracket_widens(monkeypatch):
    monkeypatch.setattr(PD, "_left_tangent_holds", lambda *a: False)
    r = _first_run()
    assert float((r.delta_upper - r.delta_lower) / r.delta_upper) > 3e-4
