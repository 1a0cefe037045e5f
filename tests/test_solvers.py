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


# ---------------------------------------------------------------------------------------------- the other primitives

from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402

from numeric.solvers import (  # noqa: E402
    bisect,
    bisect_array,
    brent_root,
    geometric_midpoint,
    golden_max,
    illinois,
    integer_midpoint,
    newton,
    newton_in_bracket,
)


def test_bisect_keeps_the_bracket_and_reaches_the_width():
    """sqrt(2) by a predicate only: the bracket always holds it (pred true at lo, false at hi)."""
    with mpmath.workdps(40):
        lo, hi = bisect(lambda x: x * x < 2, mpmath.mpf(1), mpmath.mpf(2), steps=200,
                        stop=lambda lo, hi: hi - lo <= mpmath.ldexp(1, -120))
        assert lo * lo < 2 < hi * hi and hi - lo <= mpmath.ldexp(1, -120)
        with mpmath.workdps(60):
            assert abs(lo - mpmath.sqrt(2)) < mpmath.mpf(10) ** -36


def test_bisect_exact_fractions_and_steps():
    """Exact arithmetic: 10 steps on [0, 1] for 1/3 leave the dyadic bracket [341/1024, 342/1024]."""
    lo, hi = bisect(lambda x: x < Fraction(1, 3), Fraction(0), Fraction(1), steps=10)
    assert (lo, hi) == (Fraction(341, 1024), Fraction(342, 1024))


def test_bisect_over_integers_finds_the_first_failing_index():
    lo, hi = bisect(lambda k: k * k <= 1000, 0, 10**6, stop=lambda lo, hi: hi - lo <= 1, mid=integer_midpoint)
    assert (lo, hi) == (31, 32)                     # 31^2 = 961 <= 1000 < 1024 = 32^2


def test_bisect_geometric_reaches_tiny_roots():
    """A crossing at 1e-500 from [1e-1000, 1]: the geometric midpoint needs ~11 steps to 2x, not 1600."""
    with mpmath.workdps(30):
        c = mpmath.mpf("1e-500")
        calls = []

        def pred(x):
            calls.append(x)
            return x < c
        lo, hi = bisect(pred, mpmath.mpf("1e-1000"), mpmath.mpf(1), stop=lambda lo, hi: not hi > 2 * lo,
                        mid=geometric_midpoint)
        assert lo < c <= hi <= 2 * lo and len(calls) < 20


def test_bisect_strict_stops_at_adjacent_numbers():
    """Floats: with ``strict`` the search ends when no float lies strictly between the ends."""
    lo, hi = bisect(lambda x: x < 0.1, 0.0, 1.0, steps=10_000, strict=True)
    assert lo < 0.1 <= hi and np.nextafter(lo, 1.0) == hi


def test_bisect_needs_a_stopping_rule():
    with pytest.raises(ValueError):
        bisect(lambda x: True, 0, 1)


def test_bisect_array_elementwise():
    targets = np.array([0.1, 0.5, 0.9, 0.25])
    lo, hi = bisect_array(lambda m: m < targets, np.zeros(4), np.ones(4), 60)
    assert np.all(lo < targets) and np.all(targets <= hi) and np.all(hi - lo <= np.spacing(hi))


def test_newton_quadratic_with_polish():
    """The cube root of 2 from 1 to 40 digits (reference: mpmath.cbrt at 60)."""
    with mpmath.workdps(40):
        x = newton(lambda x: (x ** 3 - 2) / (3 * x * x), mpmath.mpf(1), mpmath.ldexp(1, -70))
    with mpmath.workdps(60):
        assert abs(x - mpmath.cbrt(2)) < mpmath.mpf(10) ** -38


def test_newton_reports_non_convergence():
    step = lambda x: 1                                                            # noqa: E731
    with pytest.raises(ArithmeticError):
        newton(step, 0.0, 1e-10, steps=5)
    assert newton(step, 0.0, 1e-10, steps=5, strict=False) == -5.0


def test_newton_in_bracket_is_safeguarded():
    """exp(-x) = 1/3 on [0, 10]: root log 3.  A step function leaving the bracket is replaced by bisection."""
    with mpmath.workdps(40):
        t = mpmath.mpf(1) / 3
        tol = mpmath.ldexp(1, -mpmath.mp.prec + 6)

        def probe(x):
            d = mpmath.exp(-x)
            return d > t, lambda: (d - t) / -d                 # f = e^-x - t, f' = -e^-x
        x = newton_in_bracket(probe, mpmath.mpf(0), mpmath.mpf(10), tol, 300)
        assert abs(x - mpmath.log(3)) < mpmath.mpf(10) ** -35

        def wild(x):                                             # a Newton step that always jumps out
            return mpmath.exp(-x) > t, lambda: mpmath.mpf(10) ** 6
        x = newton_in_bracket(wild, mpmath.mpf(0), mpmath.mpf(10), tol, 300)
        assert abs(x - mpmath.log(3)) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("method", ["brentq", "toms748"])
def test_brent_root_float(method):
    import math
    # scipy's tolerance: |x - x*| <= xtol + rtol |x*|
    assert abs(brent_root(math.cos, 1.0, 2.0, method=method) - math.pi / 2) <= 2e-12 + 4 * 2.0 ** -52 * 1.6
    assert abs(brent_root(math.cos, 1.0, 2.0, method=method, xtol=1e-15) - math.pi / 2) <= 1e-15 + 1e-15
    assert brent_root(lambda x: x - 0.5, 0.5, 1.0, method=method) == 0.5       # a root at an end
    with pytest.raises(ValueError):
        brent_root(lambda x: x * x + 1, -1.0, 1.0, method=method)


def test_illinois_vectorised_roots():
    """log-profile style: g(x, t) = log(e^-x) - t = -x - t decreasing; and e^-x^2 - t (convex tail)."""
    t = np.log(np.array([0.5, 1e-3, 1e-100]))
    g = lambda x, t: -x * x - t                                                   # noqa: E731
    a, b = np.zeros(3), np.full(3, 32.0)
    got = illinois(g, a, b, g(a, t), g(b, t), t)
    assert np.allclose(got, np.sqrt(-t), rtol=4e-15, atol=0)
    assert np.all(g(got, t) <= 0)                               # the end at or past the root


def test_golden_max_mp_and_float():
    """max of sin on [0, 3]: argmax pi/2 to half the precision, value 1 to the working precision."""
    with mpmath.workdps(40):
        x, v = golden_max(mpmath.sin, 0, 3)
        assert abs(x - mpmath.pi / 2) < mpmath.mpf(10) ** -18 and abs(v - 1) < mpmath.mpf(10) ** -38
    import math
    x, v = golden_max(math.sin, 0.0, 3.0)
    assert isinstance(x, float) and abs(x - math.pi / 2) < 1e-7 and abs(v - 1) < 1e-15
    # an iteration budget ends the search early (a coarse bracket, still inside [lo, hi])
    x, _ = golden_max(math.sin, 0.0, 3.0, 5)
    assert 0 < x < 3 and abs(x - math.pi / 2) > 1e-3


# ----------------------------------------------------------------------------- illinois_bracket
def _geo(a, b, t):
    return a * (b / a) ** t


def test_illinois_bracket_keeps_the_bracket_and_beats_bisection():
    """g(s) = e^-s - e^-2: decreasing and far from linear in log s, root s* = 2 exactly.  The bracket
    invariant g(lo) > 0 >= g(hi) holds at the end, it is 1e-9 narrow, and Illinois needs far fewer
    evaluations than bisection's log2(log(1000/0.3) / 1e-9) ~ 33."""
    import math

    from numeric.solvers import illinois_bracket
    calls = []

    def g(s):
        calls.append(s)
        return math.exp(-s) - math.exp(-2)
    lo, hi = illinois_bracket(g, 0.3, 1000.0, g(0.3), g(1000.0), point=_geo, mid=lambda a, b: math.sqrt(a * b),
                              stop=lambda a, b: b / a - 1 < 1e-9)
    assert g(lo) > 0 >= g(hi) and hi / lo - 1 < 1e-9
    assert lo <= 2 <= hi
    assert len(calls) - 2 <= 20, len(calls)


def test_illinois_bracket_survives_infinite_values():
    """eps_upper = 0 gives g = -inf at the upper end: the midpoint is taken, the bracket still closes."""
    import math

    from numeric.solvers import illinois_bracket

    def g(s):
        return math.inf if s < 1 else (-math.inf if s > 3 else 2 - s)
    lo, hi = illinois_bracket(g, 0.5, 100.0, g(0.5), g(100.0), point=_geo, mid=lambda a, b: math.sqrt(a * b),
                              stop=lambda a, b: b / a - 1 < 1e-6)
    assert lo < 2 <= hi and hi / lo - 1 < 1e-6


def test_illinois_bracket_without_the_illinois_halving_stalls(monkeypatch):
    """Mutation: plain regula falsi (no halving of a stale end) on a convex g moves one end only and needs
    many more evaluations: the halving is what the evaluation count above depends on."""
    import math

    from numeric import solvers
    src = solvers.illinois_bracket

    def plain(g, lo, hi, g_lo, g_hi, *, stop, point, mid, limit=200):
        n = 0
        while not stop(lo, hi) and n < limit:
            c = point(lo, hi, g_lo / (g_lo - g_hi))
            c = c if lo < c < hi else mid(lo, hi)
            gc = g(c)
            n += 1
            if gc > 0:
                lo, g_lo = c, gc
            else:
                hi, g_hi = c, gc
        return n
    g = (lambda s: math.exp(-s) - math.exp(-2))
    n_plain = plain(g, 0.3, 1000.0, g(0.3), g(1000.0), point=_geo, mid=lambda a, b: math.sqrt(a * b),
                    stop=lambda a, b: b / a - 1 < 1e-9)
    calls = []
    src(lambda s: calls.append(s) or g(s), 0.3, 1000.0, g(0.3), g(1000.0), point=_geo,
        mid=lambda a, b: math.sqrt(a * b), stop=lambda a, b: b / a - 1 < 1e-9)
    assert n_plain > 2 * len(calls), (n_plain, len(calls))
