"""``pld_discretise._knots``' width cap follows the tilted mass (``TILT_CAP_SLACK``, ``_tilt_cap``).

Reference: the DP-SGD eps of ``bench/dpsgd_reference.py`` (Laplace inversion through the saddle point, numpy and
scipy only, no dp-derive code), recomputed here.  The knot counts are those the former cap gave (33102 for the
add direction at its tilt 1328) against what the rule gives; the mutations put the former rules back and the
counts fail."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from numeric import dpsgd
from numeric import pld_discretise as PD
from tests.dpsgd_windows import saddle_point_reference

CELL = ("0.001", "2", 100, "1e-10")        # the add direction's tilt is lam = 1328 there; remove decides eps
H = Fraction(1, 2 ** 18)


def _add_model():
    comp = dpsgd._composition(Fraction(CELL[0]), Fraction(CELL[1]), CELL[2])
    return comp._models(1)[0][0]


def _counts():
    m = _add_model()
    return len(PD._knots(m, H, 1328.0, 1e-14, None)), len(PD._knots(m, H, 0.0, 1e-14, None))


def test_the_bracket_stays_and_contains_the_reference():
    q, s, T, d = CELL
    eps, err = saddle_point_reference(float(q), float(s), T, float(d))
    assert err < 1e-8                 # 5.0e-9 (its own estimate) against a bracket 3.7e-7 wide
    r = dpsgd._composition(Fraction(q), Fraction(s), T).eps(d)
    assert r.certified and r.eps_lower <= eps - err and eps + err <= r.eps_upper
    assert (r.eps_upper - r.eps_lower) / r.eps_upper <= 1e-4          # measured 1.1e-5 with the rule and without


def test_negligible_tilted_mass_gets_wide_cells():
    tilted, untilted = _counts()
    assert tilted < 2000            # 1155 (33102 with the cap 1/(2 lam) everywhere)
    assert untilted < 1300          # 1151 (1162 before; 1539 with the cap not rounded to a power of two)


def test_tilt_cap_values():
    lam, tol = 100.0, 1e-14
    rel = np.array([0.0, -10.0, math.log(tol) - PD.TILT_CAP_SLACK, -200.0, -2000.0])
    cap = PD._tilt_cap(tol, rel, lam)
    assert cap[0] == cap[1] == cap[2] == 0.5 / lam            # not negligible: the former cap
    # rho e^{lam w} <= tol e^-SLACK wherever the cap grew (the bound the docstring states)
    grown = cap > 0.5 / lam
    assert grown[3] and grown[4]
    assert np.all(rel[grown] + lam * cap[grown] <= math.log(tol) - PD.TILT_CAP_SLACK)
    assert np.all(np.log2(cap * 2 * lam) == np.round(np.log2(cap * 2 * lam)))    # powers of two


def test_mutation_former_cap_everywhere(monkeypatch):
    monkeypatch.setattr(PD, "TILT_CAP_SLACK", 1e9)            # the cap never grows: 1/(2 lam) everywhere
    with pytest.raises(AssertionError):
        test_negligible_tilted_mass_gets_wide_cells()


def test_mutation_cap_not_rounded(monkeypatch):
    def smooth(tol, rel, lam):
        return np.maximum(0.5, math.log(tol) - PD.TILT_CAP_SLACK - rel) / max(lam, 1.0)
    monkeypatch.setattr(PD, "_tilt_cap", smooth)
    with pytest.raises(AssertionError):
        test_negligible_tilted_mass_gets_wide_cells()


def test_mutation_cap_grown_right_of_the_peaks(monkeypatch):
    """The cap grown on both sides of the peaks: the untilted measure's far right tail (where a larger tilt raises
    the mass) gets wide cells, and the bump onset read from it falls from 32 to 5.7, below its analytic range
    (``tests/test_pld_bump.py``)."""
    from tests.test_pld_bump import test_onset_below_the_analytic_one
    test_onset_below_the_analytic_one()
    monkeypatch.setattr(PD, "_left_of_peaks", lambda centers, rel0, rel1, lrel: lrel)
    with pytest.raises(AssertionError):
        test_onset_below_the_analytic_one()
