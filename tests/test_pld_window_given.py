"""A lower composition read on the upper one's window (``pld_fft._window`` with a given window): its whole support
is covered only when that at most doubles the window (``pld_fft._cover_support``).

References: the window lengths follow from the test's own numbers (a step uniform on 1000 grid points, 100
steps: support 99900 points, +-8 sigma = 46188 points); the DP-SGD eps from ``bench/dpsgd_reference.py``
(saddle-point Laplace inversion, numpy and scipy only; BENCHMARKS.md's reference column)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from numeric import dpsgd
from numeric import pld_fft as F
from numeric.pld_discretise import StepMeasure

REF_Q001_S08_T100_D10 = 1.318387743          # bench/dpsgd_reference.py


def _uniform_window(window):
    n = 1000
    items = [(StepMeasure(np.arange(n, dtype=np.int64), np.full(n, 1.0 / n), 0.0, "lower", "test"), 100)]
    hf = 1e-3
    parts, _, mean, sig = F._tilted_parts(items, 0.0, hf)
    return F._window(items, parts, hf, mean, sig, None, window, None, -40.0, shrink=True)


def test_a_given_window_is_not_quadrupled_to_cover_the_support():
    W0, N, lo, hi = _uniform_window((40000, 1 << 15))
    assert (lo, hi) == (0, 99900)
    assert N == 1 << 16                                   # the own +-8 sigma range, widened: not the support
    assert W0 <= 40000 and 40000 + (1 << 15) <= W0 + N    # the given window is inside
    assert _uniform_window(None)[1] == 1 << 17            # without a window the support (2.2x the range) is covered


def test_mutation_covering_the_support_whatever_the_window(monkeypatch):
    monkeypatch.setattr(F, "_cover_support", lambda span, own, window: span <= max(4 * own, 1 << 16))
    assert _uniform_window((40000, 1 << 15))[1] == 1 << 17


def test_dpsgd_cell_whose_lower_window_grew_8x():
    r = dpsgd._composition(Fraction(1, 1000), Fraction(4, 5), 100).eps(Fraction(1, 10 ** 10))
    ref = REF_Q001_S08_T100_D10
    assert r.certified and float(r.eps_lower) <= ref * (1 + 1e-9) and ref * (1 - 1e-9) <= float(r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) <= 1e-5 * ref             # measured 2.5e-6
