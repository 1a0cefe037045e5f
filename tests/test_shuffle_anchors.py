"""Tighter float tails of the clone block pairs (numeric/shuffle_blocks.py) and the rounds' grid rule
(numeric/shuffle_rounds._grid), issue #26 item 1 (``shuffle --rounds`` at large n).

* The pmf walk restarts from an exact (Arb) anchor every ``ANCHOR_STEP`` values and the prefix sums are
  summed in blocks, so the tails' radii are gamma_{~2000} instead of gamma_{2K}, gamma_N (2.7e-11 and
  5.3e-11 at c = 10^8, the radii of S that ten thousand rounds of a tiny loss magnified).  Reference:
  exact binomials, ``math.comb(c, x) / 2^c`` in Fractions, at every x and every prefix of a window that
  holds many anchors (ANCHOR_STEP set to 16).
* Ten thousand rounds of n = 10^8, eps0 = 0.01: the grid h <= sd/8 with ``query_grid``'s tolerance.  Its
  bracket must lie inside the bracket of the former rule (h <= sd/4, tolerance 1e-7/R), a certified
  bracket computed live by the same engine on other knots (both contain the truth, so they must overlap;
  the new one, built on finer knots, is inside), and be within 1 % where the former was 46 % wide.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from numeric import shuffle_blocks as SB
from numeric import shuffle_rounds as SR


def _exact_window(c: int, x_lo: int, x_hi: int):
    pmf = [F(math.comb(c, x), 2 ** c) for x in range(c + 1)]
    below = sum(pmf[:x_lo], F(0))
    cums, acc = [], F(0)
    for x in range(x_lo, x_hi + 1):
        acc += pmf[x]
        cums.append(acc)
    return pmf[x_lo:x_hi + 1], cums, below


def _encloses(sl) -> bool:
    """Every b(x) in [f_lo b_hat, f_hi b_hat] and every window prefix in [s_lo cum, s_hi cum]."""
    pmf, cums, _ = _exact_window(sl.c, sl.x_lo, sl.x_hi)
    for k, (p, s) in enumerate(zip(pmf, cums)):
        if not (F(sl.f_lo) * F(float(sl.b[k])) <= p <= F(sl.f_hi) * F(float(sl.b[k]))):
            return False
        if not (F(sl.s_lo) * F(float(sl.cum[k])) <= s <= F(sl.s_hi) * F(float(sl.cum[k]))):
            return False
    return True


@pytest.fixture
def short_anchors(monkeypatch):
    monkeypatch.setattr(SB, "ANCHOR_STEP", 16)


def test_anchored_slices_enclose_exact_binomials(short_anchors):
    for c in (1, 2, 33, 1001, 4000):
        sl = SB.make_slice(c)
        assert sl.x_hi - sl.x_lo + 1 == len(sl.b)
        assert _encloses(sl), c


def test_the_bounds_are_tight():
    """The factors are gamma_{~2000}-sized at c = 10^8, not gamma_{2K} (K = 1.2e5): 2.7e-11 before."""
    sl = SB.make_slice(99_004_983)
    assert sl.f_hi / sl.f_lo - 1 < 1e-12 and sl.s_hi / sl.s_lo - 1 < 2e-12


def test_mutation_walk_off_by_1e9_is_caught(short_anchors, monkeypatch):
    orig = SB._anchored_walk
    monkeypatch.setattr(SB, "_anchored_walk", lambda *a: (orig(*a)[0] * (1 + 1e-9),) + orig(*a)[1:])
    assert not _encloses(SB.make_slice(1001))


def test_mutation_prefix_sums_off_by_1e9_is_caught(short_anchors, monkeypatch):
    orig = SB._prefix_sums
    monkeypatch.setattr(SB, "_prefix_sums", lambda b: (orig(b)[0] * (1 - 1e-9), orig(b)[1]))
    assert not _encloses(SB.make_slice(1001))


def test_mutation_prefix_off_by_one_is_caught(short_anchors, monkeypatch):
    """Each prefix reported one value short (the sum up to x - 1 as F(x)) must be caught."""
    orig = SB._prefix_sums
    monkeypatch.setattr(SB, "_prefix_sums", lambda b: (np.concatenate(([0.0], orig(b)[0][:-1])), orig(b)[1]))
    assert not _encloses(SB.make_slice(4000))


def _tiny_rounds():
    return SR.compose_rounds("standard-clone", F(1, 100), 10 ** 8, 10 ** 4, at_delta=F(1, 10 ** 6))


def _former_rule(monkeypatch):
    """The rule before this change: the grid twice as coarse (h <= sd/4) and the engine's default tolerance."""
    orig = SR._grid

    def former(model, rounds, at_delta=None):
        h, _ = orig(model, rounds, at_delta)
        return (None if h is None else 2 * h), None
    monkeypatch.setattr(SR, "_grid", former)


def test_many_rounds_of_a_tiny_loss_within_one_percent(monkeypatch):
    new = _tiny_rounds()
    _former_rule(monkeypatch)
    old = _tiny_rounds()
    assert new.certified and old.certified
    assert old.lower <= new.lower <= new.upper <= old.upper
    assert new.upper - new.lower <= F(1, 100) * new.upper


def test_mutation_former_grid_rule_is_wide(monkeypatch):
    _former_rule(monkeypatch)
    old = _tiny_rounds()
    assert old.upper - old.lower > F(1, 100) * old.upper
