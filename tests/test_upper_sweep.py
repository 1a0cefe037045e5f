"""Upper step masses below the float range go to +inf, and no knots are placed where a cell's mass is
below it (issue #25: ``numeric.pld_discretise._upper_swept`` and ``KNOT_FLOOR``).

An exact mass far below 2^-1022 used to round up to a subnormal (>= 5e-324) on every tail knot of a
Poisson-subsampled Gaussian step; tilted by e^{lam l} (lam = 61.6 at q = 0.001, sigma = 5, T = 100) those
floor values outweighed the true tilted law and the query's window grew to 2^24 points.  A large tilt
(lam = 681) also asked for 1.9e5 knots out to l ~ 20 on masses of e^-9000.

References: the domination check sums D(s) = sum m_i (1 - s e^{-l_i})_+ + m_inf over both measures with
mpmath at 60 digits (a direct sum, not the engine's recursion); the eps references are
bench/dpsgd_reference.py's Laplace inversion through the saddle point (numpy/scipy, no dp-derive code),
run 2026-11-28 for the issue-25 grid (BENCHMARKS.md, "DP-SGD grid against dp_accounting").
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import dpsgd, pld, pld_discretise
from numeric.pld_discretise import SMALLEST_NORMAL, _upper_swept
from tests.dpsgd_windows import eps_and_windows, no_truncation

#: eps at delta = 1e-5 of q = 0.001, sigma = 5, T = 100 (max over both directions), reference error ~1e-15
REF_Q001_S5_T100 = 0.004554064769
#: eps at delta = 1e-10 of q = 0.001, sigma = 5, T = 10^4
REF_Q001_S5_T1E4 = 0.1104714111


def _D(knots, mass, inf_mass, h, s):
    """D(s) of a step measure, directly, at 60 digits."""
    with mpmath.workdps(60):
        tot = mpmath.mpf(inf_mass)
        for k, m in zip(knots.tolist(), mass.tolist()):
            if m:
                tot += mpmath.mpf(m) * max(0, 1 - s * mpmath.exp(-mpmath.mpf(k) * h))
        return tot


def test_sweep_moves_only_subnormal_masses_and_dominates():
    knots = np.array([-3, 0, 2, 5, 9, 12], dtype=np.int64)
    mass = np.array([0.25, 1e-320, 0.5, 3e-310, 2e-300, 5e-324])
    got = _upper_swept(knots, mass.copy(), 0.125, "")
    pos = got.mass[got.mass > 0]
    assert pos.min() >= SMALLEST_NORMAL
    assert list(got.knots) == [-3, 0, 2, 5, 9]             # the trailing knot (mass moved) dropped
    assert got.mass.tolist() == [0.25, 0.0, 0.5, 0.0, 2e-300]
    assert got.inf_mass >= 0.125 + 1e-320 + 3e-310 + 5e-324
    h = mpmath.mpf("0.5")
    for s in (0, "0.3", 1, 2, 7, 50, 400, "1e6"):
        s = mpmath.mpf(s)
        assert _D(got.knots, got.mass, got.inf_mass, h, s) >= _D(knots, mass, 0.125, h, s)


def _cell_windows(monkeypatch, q, sigma, T, delta):
    return eps_and_windows(monkeypatch, q, sigma, T, delta)


def _uncapped(monkeypatch):
    """The tilt left where the saddle point puts it (lam = 61.6 in the q = 0.001, sigma = 5, T = 100 cell), past
    the bump onset that ``numeric.pld_bump`` now caps it at: the sweep and the floor act on that tilt's
    measures."""
    monkeypatch.setattr(pld, "bump_tilt", lambda K, cap, target, mode, margin=None: cap)
    no_truncation(monkeypatch)


def test_small_rate_cell_keeps_reference_on_a_small_window(monkeypatch):
    _uncapped(monkeypatch)
    r, sizes = _cell_windows(monkeypatch, "0.001", 5, 100, "1e-5")
    assert r.certified
    assert float(r.eps_lower) <= REF_Q001_S5_T100 <= float(r.eps_upper)
    assert (float(r.eps_upper) - float(r.eps_lower)) / REF_Q001_S5_T100 < 2e-4     # 5e-3 before
    assert max(sizes) <= 1 << 20                                                  # 2^24 before


def test_large_tilt_cell_keeps_reference(monkeypatch):
    r, sizes = _cell_windows(monkeypatch, "0.001", 5, 10_000, "1e-10")
    assert float(r.eps_lower) <= REF_Q001_S5_T1E4 <= float(r.eps_upper)
    assert (float(r.eps_upper) - float(r.eps_lower)) / REF_Q001_S5_T1E4 < 2e-4
    assert max(sizes) <= 1 << 20


def test_mutation_without_sweep_the_window_grows(monkeypatch):
    """Keeping the subnormal floor values in the upper measure (the former code) brings back the
    2^24-point window at q = 0.001, sigma = 5, T = 100."""
    def keep_all(knots, out, inf_mass, note):
        return pld_discretise.StepMeasure(np.asarray(knots, dtype=np.int64), out, inf_mass, "upper", note)
    monkeypatch.setattr(pld_discretise, "KNOT_FLOOR", -math.inf)
    monkeypatch.setattr(pld_discretise, "_upper_swept", keep_all)
    _uncapped(monkeypatch)
    _, sizes = _cell_windows(monkeypatch, "0.001", 5, 100, "1e-5")
    assert max(sizes) > 1 << 20


def test_mutation_knot_floor_bounds_the_knots(monkeypatch):
    """At the large tilt of q = 0.001, sigma = 5, T = 100, delta = 1e-10 (lam ~ 685) the floor keeps the
    step's knots in the thousands; without it (KNOT_FLOOR = -inf) there are over 10^5."""
    counts = []
    orig = pld_discretise._knots

    def spy(*a, **k):
        r = orig(*a, **k)
        counts.append(len(r))
        return r
    monkeypatch.setattr(pld_discretise, "_knots", spy)
    no_truncation(monkeypatch)
    dpsgd._composition(Fraction(1, 1000), Fraction(5), 100).eps("1e-10")
    assert max(counts) < 30_000
    counts.clear()
    monkeypatch.setattr(pld_discretise, "KNOT_FLOOR", -math.inf)
    dpsgd._composition(Fraction(1, 1000), Fraction(5), 100).eps("1e-10")
    assert max(counts) > 100_000


@pytest.mark.parametrize("lam", [0.0, 61.55, 681.4])
def test_no_subnormal_upper_masses(lam):
    """Every upper mass of the step is 0 or a normal float, whatever the tilt its knots were placed for."""
    comp = dpsgd._composition(Fraction(1, 1000), Fraction(5), 100)
    for d in comp.directions:
        (model, _), = comp._models(d)
        up, _ = pld_discretise.discretise(model, Fraction(1, 2 ** 18), lam)
        pos = up.mass[up.mass > 0]
        assert pos.min() >= SMALLEST_NORMAL
        assert up.mass[-1] > 0                      # no zero-mass knots left at the top
