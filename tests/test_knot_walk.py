"""numeric.pld_discretise._walk (the knot walk by runs of one coarse cell) makes the same knots as the walk
knot by knot that it replaced (issue #25, 1000 distinct Laplace steps): the reference below is that walk."""

import math
from fractions import Fraction

import numpy as np
import pytest

from numeric import pld_discretise as D
from numeric import pld_mechanisms as M


def _walk_by_knot(ia, ib, gap, nxt, A0, Hc, hf):
    # reference: the former loop of numeric.pld_discretise._knots, one Python step per knot
    M_ = len(gap)
    knots, i = [], ia

    def cell_of(j):
        return min(max(int((j * hf - A0) / Hc), 0), M_ - 1)
    while i < ib:
        knots.append(i)
        c = cell_of(i)
        g = int(gap[c])
        if g > 1 and nxt[c] < M_:
            j_next = math.floor((A0 + nxt[c] * Hc) / hf)
            if i + g > j_next:
                g = max(1, j_next - i)
        i += g
    return knots


def _random_case(rng):
    M_ = int(rng.choice([1, 2, 5, 64, 4096]))
    hf = float(2.0 ** -int(rng.integers(3, 30)))
    A0 = float(rng.normal() * 3)
    Hc = float(abs(rng.normal()) * 20 / M_) + hf * float(rng.choice([0.3, 1, 7]))
    gap = rng.integers(1, int(rng.choice([2, 8, 1000, 2 ** 20])), size=M_).astype(np.int64)
    gap[rng.random(M_) < 0.2] = 2 ** 24
    ia = math.floor(A0 / hf) - int(rng.integers(0, 50))
    ib = math.ceil((A0 + M_ * Hc) / hf) + int(rng.integers(0, 50))
    if ib - ia > 300_000:                      # keep the reference walk affordable
        return None
    return ia, ib, gap, D.NextSmaller(gap), A0, Hc, hf


def test_walk_equals_knot_by_knot_random():
    rng = np.random.default_rng(2511)
    done = 0
    while done < 300:
        case = _random_case(rng)
        if case is None:
            continue
        assert D._walk(*case) == _walk_by_knot(*case), case[4:]
        done += 1


@pytest.mark.parametrize("mech, lam", [(M.laplace("0.0137"), 0.0), (M.laplace("0.5"), 3.0),
                                       (M.gaussian("0.7"), 2.0), (M.subsampled_gaussian("0.01", "0.8"), 40.0)])
def test_knots_of_models_unchanged(monkeypatch, mech, lam):
    # reference: _knots with the knot-by-knot walk swapped in
    model = mech.directions[0]
    h = Fraction(1, 2 ** 14)
    got = D._knots(model, h, lam, 1e-12)
    monkeypatch.setattr(D, "_walk", _walk_by_knot)
    want = D._knots(model, h, lam, 1e-12)
    assert np.array_equal(got, want)
    assert len(got) > 20


def test_mutation_walk_ignores_denser_cell():
    """Mutation: a walk that jumps past the next denser cell (no j_next cap) must differ."""
    gap = np.array([3, 40, 5, 2, 9, 40, 1, 7], dtype=np.int64)
    case = (0, 400, gap, D.NextSmaller(gap), 0.0, 50 * 0.5, 0.5)
    assert D._walk(*case) == _walk_by_knot(*case)
    never = type("Never", (), {"__getitem__": lambda self, c: len(gap)})()
    assert D._walk(*case[:3], never, *case[4:]) != _walk_by_knot(*case)
