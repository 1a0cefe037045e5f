"""The window's Chernoff bound at every loss scale (numeric/pld_fft.py, ``_thetas``).

With the exponents capped at 1e5, a composition whose loss spread is tiny had the mass above its window
bounded by ~0.9: 100 shuffled rounds of n = 10^6 users at eps0 = 10^-6 answered eps(1e-6) in [0, inf],
uncertified.  References below are independent of the engine:
* the mass of a sum of k independent +-s signs above t, summed exactly from the binomial law (mpmath);
* the true eps of the shuffled rounds is 0: total variation is subadditive over products, so delta(0) of
  R rounds is at most R times the one-round delta(0), which ``numeric.shuffle_clones.delta_bracket``
  (the exact Arb walk over the clone count, not the engine) bounds by 4.0e-10; 100 x 4.0e-10 < 10^-6.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld_fft as PF
from numeric import shuffle_clones as SC
from numeric.shuffle_rounds import compose_rounds


def _signs_tail(k: int, j: int):
    """P(#plus - #minus >= j) for k fair signs, exactly (40 digits)."""
    with mpmath.workdps(40):
        return mpmath.fsum(mpmath.binomial(k, i) for i in range(k + 1) if 2 * i - k >= j) / mpmath.mpf(2) ** k


@pytest.mark.parametrize("s", [1.0, 1e-4, 1e-9])
def test_bound_holds_and_is_near_hoeffding_at_every_scale(s):
    k, j = 100, 40                                    # the threshold t = 40 s, 4 standard deviations
    part = (np.array([-s, s]), np.array([0.5, 0.5]), k)
    bound = PF.Chernoff([part]).log_mass_beyond(j * s * (1 - 1e-12), above=True)
    exact = float(mpmath.log(_signs_tail(k, j)))
    hoeffding = -(j * j) / (2 * k)                     # log of exp(-t^2 / (2 k s^2))
    assert bound >= exact                              # a bound on the mass above
    assert bound <= 0.95 * hoeffding                   # and as good as the best exponent, nearly


def test_tiny_spread_rounds_answer_zero():
    one = SC.delta_bracket("standard-clone", Fraction(1, 10 ** 6), 10 ** 6, Fraction(0))
    assert 100 * one.upper < Fraction(1, 10 ** 6)      # so the true eps(1e-6) of 100 rounds is 0
    r = compose_rounds("standard-clone", Fraction(1, 10 ** 6), 10 ** 6, 100, at_delta=Fraction(1, 10 ** 6))
    assert r.certified and r.lower == 0 and r.upper == 0


def test_mutation_capped_exponents_are_caught(monkeypatch):
    monkeypatch.setattr(PF, "_thetas", lambda parts: PF._THETAS)
    part = (np.array([-1e-9, 1e-9]), np.array([0.5, 0.5]), 100)
    assert PF.Chernoff([part]).log_mass_beyond(40e-9, above=True) > 0.95 * -8.0
    r = compose_rounds("standard-clone", Fraction(1, 10 ** 6), 10 ** 6, 100, at_delta=Fraction(1, 10 ** 6))
    assert not (r.certified and r.upper == 0)


def test_slack_scales_with_theta_l():
    """At theta l = 1e12 one ulp of the log-mgf is 1.2e-4: the rounding slack must exceed it (the former
    fixed slack of 1e-9 a step did not)."""
    part = (np.array([-1.0, 1.0]), np.array([0.5, 0.5]), 1)
    ch = PF.Chernoff([part])
    ch.thetas = np.array([1e12])
    (lm, err, _), = ch._log_mgfs(True)
    assert err[0] > 1e-5                               # the slack scales with theta l
    assert lm[0] == pytest.approx(1e12 - np.log(2), rel=1e-15)


def test_solve_without_a_left_neighbour_answers_the_first_point():
    """An upper eps whose window starts right of 0 with every bound below delta: the first point, not an
    interpolation with the window's last value (which, in a rising tail of error terms, fell one cell low)."""
    from numeric.pld import compose
    from numeric.pld_mechanisms import Mechanism, PureDP
    c = compose([(Mechanism("rr", [PureDP(Fraction(1))], True), 1)])
    h = c.h.numerator / mpmath.mpf(c.h.denominator)
    got = c._solve(np.array([-21.0, -20.0]), np.array([5, 6]), -10.0, upper=True)
    assert got == 5 * h
