"""numeric.solvers.crossing: inside the bracket and within one tolerance of a sign change, whether the
accelerated method succeeds or the bisection fallback decides.  References are exact (pi/2, rational
jumps) or mpmath's own constants at higher precision."""

from __future__ import annotations

import mpmath
import pytest

from numeric.solvers import crossing


def test_smooth_root_to_the_working_precision():
    with mpmath.workdps(40):
        got = crossing(mpmath.cos, 1, 2, left_positive=True)
    with mpmath.workdps(60):
        assert abs(got - mpmath.pi / 2) < mpmath.mpf(10) ** -38


@pytest.mark.parametrize("jump", ["0.3", "0.7", "0.123456789"])
def test_a_jump_is_found_by_the_fallback(jump):
    """A step function (no root, only a sign change): the accelerated answer is rejected unless it sits at
    the jump, and bisection lands within the tolerance of it."""
    with mpmath.workdps(30):
        j = mpmath.mpf(jump)
        got = crossing(lambda x: mpmath.mpf(1) if x < j else mpmath.mpf(-1), 0, 1, left_positive=True)
        assert 0 <= got <= 1 and abs(got - j) < mpmath.mpf(2) ** (-mpmath.mp.prec + 6)


def test_the_answer_stays_in_the_bracket_when_the_method_wanders(monkeypatch):
    """A findroot that returns a point outside [a, b] (or raises) never escapes: the bisection decides."""
    import numeric.solvers as S
    monkeypatch.setattr(S.mpmath, "findroot", lambda *a, **k: mpmath.mpf(5))
    with mpmath.workdps(30):
        got = crossing(lambda x: x - mpmath.mpf("0.25"), 0, 1, left_positive=False)
        assert abs(got - mpmath.mpf("0.25")) < mpmath.mpf(10) ** -27
