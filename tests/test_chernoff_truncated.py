"""The window's Chernoff bound with truncated losses (numeric/pld_fft.py, ``Chernoff._truncated``).

A step whose tilted law has a far atom (the bump of a tilted Poisson-subsampled Gaussian) spoils every
plain Chernoff exponent large enough for a point a few standard deviations out.  The truncated bound adds
the mass of "some step lands beyond a_j" to the Chernoff bound of the laws truncated at a_j.

References are exact sums written here, not the engine: the k-fold law of a part with two bulk points
+-1/128 and one far atom at 4 is a binomial mixture, summed in mpmath at 50 digits from the float masses
as given (each float taken exactly).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from numeric import pld_fft as PF

K = 100
P_FAR = math.exp(-30)
S = 1 / 128


def _part(sign: int):
    l = np.array([-S, S, 4.0]) * sign
    x = np.array([0.5 * (1 - P_FAR), 0.5 * (1 - P_FAR), P_FAR])
    order = np.argsort(l)
    return l[order], x[order], K


def _exact_log_mass_beyond(t: float):
    """log mass{sum of K steps > t} (mirror: < -t): the far atom at 4 carries any sum with one of them past t
    (the bulk of the other steps is at least -99/128), and with none the bulk needs #plus - #minus > 128 t."""
    with mpmath.workdps(50):
        xb, xf = mpmath.mpf(0.5 * (1 - P_FAR)), mpmath.mpf(P_FAR)
        none = (2 * xb) ** K
        bulk = mpmath.fsum(mpmath.binomial(K, i) * xb ** K for i in range(K + 1) if (2 * i - K) * mpmath.mpf(S) > t)
        some = (2 * xb + xf) ** K - none
        return float(mpmath.log(bulk + some))


@pytest.mark.parametrize("above", [True, False])
def test_heavy_tail_bound_holds_and_is_tight(above):
    t = 0.7
    ch = PF.Chernoff([_part(1 if above else -1)])
    bound = ch.log_mass_beyond(t if above else -t, above=above)
    exact = _exact_log_mass_beyond(t)                  # about log(100 e^-30) = -25.4
    assert bound >= exact
    assert bound <= exact + 0.05


def test_plain_bound_is_weak_there(monkeypatch):
    """Without truncation the same point is bounded only by about e^-1.5: the far atom dominates every exponent."""
    monkeypatch.setattr(PF, "TRUNCATION_LEVELS", ())
    bound = PF.Chernoff([_part(1)]).log_mass_beyond(0.7, above=True)
    assert bound > -10


def test_zero_masses_leave_no_union_term():
    """A lower measure's zero masses: the tail beyond the cut may be exactly 0 (no log of 0)."""
    l = np.array([-S, S, 2.0, 4.0])
    x = np.array([0.5, 0.5, 0.0, 0.0])
    bound = PF.Chernoff([(l, x, K)]).log_mass_beyond(0.7, above=True)
    with mpmath.workdps(50):
        exact = mpmath.log(mpmath.fsum(mpmath.binomial(K, i) for i in range(K + 1) if (2 * i - K) * S > 0.7)
                           / mpmath.mpf(2) ** K)
    assert exact <= bound <= 0.9 * exact           # the bulk's own Chernoff bound, valid and near Hoeffding


def test_mutation_union_term_dropped_is_caught(monkeypatch):
    """The truncated Chernoff term alone (the far atom's steps never counted) falls below the exact mass:
    the union term is what makes the bound valid."""
    real = PF.Chernoff._truncated

    def no_union(self, above, level):
        lms, _ = real(self, above, level)
        return lms, -math.inf

    monkeypatch.setattr(PF.Chernoff, "_truncated", no_union)
    bound = PF.Chernoff([_part(1)]).log_mass_beyond(0.7, above=True)
    assert bound < _exact_log_mass_beyond(0.7)
