"""numeric.pld_truncate: an eps(delta) query's step measures stop where a step's P-mass above is ~delta e^-TRUNC_MARGIN / K (1e-6 delta / K).

References, none from the engine:
* a subsampled Gaussian step's P-tail S_P(l) = (1 - q) Phi-bar(x/s) + q Phi-bar((x - 1)/s), x = s^2 log((e^l - 1 + q)/q) + 1/2
  (the loss is increasing in the noise x), in mpmath at 30 digits;
* bench/dpsgd_reference.py's eps (saddle-point Laplace inversion of the exact per-step cumulant generating function;
  BENCHMARKS.md's reference column) for the DP-SGD cell q = 0.001, sigma = 2, T = 100, delta = 1e-10, whose bracket was
  2.7e-4 wide at the session start: the FFT error floor of a tilt capped below the far bump.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from numeric import dpsgd, pld_discretise, pld_truncate
from numeric import pld_mechanisms as M

REF_Q001_S2_T100_D10 = 0.03275392122          # bench/dpsgd_reference.py (BENCHMARKS.md reference column)
REF_Q001_S11_T100_D10 = 0.2324064433          # the same, q = 0.001, sigma = 1.1, T = 100, delta = 1e-10


def _sp(q, s, l):
    with mpmath.workdps(30):
        q, s, l = mpmath.mpf(q), mpmath.mpf(s), mpmath.mpf(l)
        x = s * s * mpmath.log((mpmath.expm1(l) + q) / q) + mpmath.mpf(1) / 2
        return (1 - q) * mpmath.ncdf(-x / s) + q * mpmath.ncdf(-(x - 1) / s)


@pytest.mark.parametrize("q,s", [("0.001", "2"), ("0.01", "0.8"), ("0.1", "5")])
@pytest.mark.parametrize("log_mass", [-30.0, -80.0, -300.0])
def test_tail_point_leaves_at_most_the_mass(q, s, log_mass):
    model = M.subsampled_gaussian(q, s).directions[0]
    top = model.tail_point(log_mass)
    assert _sp(q, s, top) <= mpmath.exp(log_mass) * (1 + 1e-9)
    assert _sp(q, s, top) >= mpmath.exp(log_mass) * 1e-6 * float(q)       # not far beyond it either
    assert M.subsampled_gaussian(q, s).directions[1].tail_point(log_mass) is None     # add: bounded loss


def test_truncated_upper_measure_carries_the_tail_at_inf():
    model = M.subsampled_gaussian("0.001", "2").directions[0]
    h = Fraction(1, 2 ** 14)
    top = model.tail_point(-40.0)
    st = pld_discretise._step_state(model, h, 30.0, 1e-13, top)
    assert int(st[0][-1]) <= math.ceil(top / float(h))
    up = pld_discretise._step_measure(model, h, st, "upper")
    last = mpmath.mpf(int(up.knots[-1]) * h.numerator) / h.denominator
    assert up.inf_mass >= _sp("0.001", "2", last)                   # the mass above the last knot is at +inf


def test_truncation_query_rule():
    assert pld_truncate.query_trunc(math.log(1e-10), 100) == pytest.approx(math.log(1e-10) - math.log(100) - 6 * math.log(10))
    assert pld_truncate.query_trunc(-700.0, 100) is None


def test_dpsgd_cell_off_the_fft_floor():
    r = dpsgd._composition(Fraction(1, 1000), Fraction(2), 100).eps(Fraction(1, 10 ** 10))
    ref = REF_Q001_S2_T100_D10
    assert r.certified and float(r.eps_lower) <= ref * (1 + 1e-9) and ref * (1 - 1e-9) <= float(r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) <= 1e-4 * ref


def test_mutation_no_truncation_is_caught(monkeypatch):
    monkeypatch.setattr(pld_truncate, "truncation_top", lambda model, trunc: None)
    import numeric.pld as P
    monkeypatch.setattr(P, "truncation_top", lambda model, trunc: None)
    r = dpsgd._composition(Fraction(1, 1000), Fraction(2), 100).eps(Fraction(1, 10 ** 10))
    assert not float(r.eps_upper - r.eps_lower) <= 1e-4 * REF_Q001_S2_T100_D10


def _bump_cell():
    return dpsgd._composition(Fraction(1, 1000), Fraction(11, 10), 100).eps(Fraction(1, 10 ** 10))


def test_a_lower_last_knot_lifts_the_trough_off_the_fft_floor():
    """One large step decides this cell: eps lies between the tilted law's two modes (no hit, one hit), and the
    FFT's error bound there was 2.5e-4 of delta with the last knot at delta 1e-8 / K (``TRUNC_MARGIN``)."""
    r = _bump_cell()
    ref = REF_Q001_S11_T100_D10
    assert r.certified and float(r.eps_lower) <= ref * (1 + 1e-9) and ref * (1 - 1e-9) <= float(r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) <= 1e-4 * ref                  # measured 7.2e-5


def test_mutation_the_former_margin_is_wide(monkeypatch):
    monkeypatch.setattr(pld_truncate, "TRUNC_MARGIN", 8 * math.log(10))
    r = _bump_cell()
    assert float(r.eps_lower) <= REF_Q001_S11_T100_D10 <= float(r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) > 1e-4 * REF_Q001_S11_T100_D10    # measured 1.2e-4
