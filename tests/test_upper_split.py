"""The upper measure's cell split with wide tails (``numeric.pld_discretise._upper_ctd``).

A cell's right mass r* = (p e^-l_i - q)/(e^-l_i - e^-l_{i+1}) divides by a tiny difference when the loss
is tiny: the clone pair at n = 10^8, eps0 = 0.01 has float tails with radii of 1e-10 on cells ~1e-7 wide,
and adding the balls r* and p - r* (each rounded up) gave an upper measure of total mass 1.075, so 10^4
rounds had a trivial upper delta and eps in [0, 0.00139].  The split now takes a float r >= r* (at most
p's upper end) and the left mass p - r.

References: the exact total finite mass of a pair is 1 (P(L = +inf) = 0 here); a Laplace pair's hockey
stick in closed form, D(s) = 1 - e^{(l - eps)/2} for s = e^l in [e^-eps, e^eps), 1 - s below, 0 above
(P = Lap(0, 1/eps), Q = Lap(1, 1/eps)), at 60 digits, against a direct sum over the measure's masses.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld_discretise as PD
from numeric import pld_mechanisms as M
from numeric.shuffle_blocks import BLOCKS, CloneBlockPair


@pytest.fixture
def wide_tails(monkeypatch):
    """The block pair's tails as wide as before the anchored pmf walk (one walk from the mode: radii ~1e-10
    at n = 10^8), the case the float split is for; with the anchors (radii ~5e-13) the Arb split alone stays
    near 1 here."""
    from numeric import shuffle_blocks as SB
    monkeypatch.setattr(SB, "ANCHOR_STEP", 2 ** 20)


def _clone_upper_total():
    model = CloneBlockPair("standard-clone", Fraction(1, 100), 10 ** 8, "upper", BLOCKS)
    up, _ = PD.discretise(model, Fraction(1, 2 ** 22), 0.0, tol=1e-11)
    return float(up.mass.sum()) + up.inf_mass


def test_wide_tails_keep_the_upper_total_near_one(wide_tails):
    assert 1 <= _clone_upper_total() < 1 + 1e-7          # 1.075 before


def test_mutation_former_split_inflates_the_total(wide_tails, monkeypatch):
    """Mutation: the float split never taken (the former code: both balls' upper ends)."""
    monkeypatch.setattr(PD, "UPPER_TOTAL_SLACK", float("inf"))
    assert _clone_upper_total() > 1.01


def _laplace_D(eps, s):
    l = mpmath.log(s)
    if l >= eps:
        return mpmath.mpf(0)
    if l < -eps:
        return 1 - s
    return 1 - mpmath.exp((l - eps) / 2)


def _dominates(up) -> bool:
    with mpmath.workdps(60):
        ls = [mpmath.mpf(int(k)) / 10 ** 4 for k in up.knots]
        ms = [mpmath.mpf(m) for m in up.mass.tolist()]
        for t in np.linspace(-0.06, 0.06, 121).tolist() + [0.04999, 0.05]:
            s = mpmath.exp(mpmath.mpf(t))
            approx = mpmath.mpf(up.inf_mass) + mpmath.fsum(m * max(0, 1 - s * mpmath.exp(-l)) for l, m in zip(ls, ms))
            if approx < _laplace_D(mpmath.mpf(1) / 20, s):
                return False
    return True


def _laplace_upper():
    up, _ = PD.discretise(M.Laplace(Fraction(1, 20)), Fraction(1, 10 ** 4), 3.0)
    return up


def test_laplace_upper_measure_dominates_closed_form():
    assert _dominates(_laplace_upper())


def test_mutation_mass_moved_one_knot_down_is_caught():
    """The check can fail: 1e-3 of every knot's mass moved one knot down (a lower loss) breaks domination."""
    up = _laplace_upper()
    moved = up.mass * 1e-3
    up.mass = up.mass - moved
    up.mass[:-1] += moved[1:]
    assert not _dominates(up)
