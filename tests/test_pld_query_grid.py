"""The query-adapted grid of the certified engine (issue #25, item 1: ``Composition._for_query``).

An eps(delta) query on the default grid is answered on a grid chosen for it: coarser where eps is large
(the default's width there was far below what is asked, at many times the cost), with a knot tolerance
tied to delta.  Only accuracy and time depend on the choice, so the checks are: the grid really changes,
the bracket still contains the exact value, and it is still narrow.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import pytest

from numeric import pld
from numeric import pld_mechanisms as M


def gdp_eps(mu: str, delta: str) -> mpmath.mpf:
    """eps of G_mu at delta from the closed form delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
    (Dong, Roth, Su 2022, Cor. 2.13), solved at 40 digits with mpmath's secant method: independent of
    the engine."""
    with mpmath.workdps(40):
        m, d = mpmath.mpf(mu), mpmath.mpf(delta)

        def g(e):
            return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2) - d
        return mpmath.findroot(g, m * m / 2 + m * 4)


def test_large_eps_query_runs_on_a_coarser_grid_and_keeps_the_exact_value():
    # 400 Gaussian steps of mu = 0.5 compose to G_10 exactly: eps(1e-5) = 91.8169...
    c = pld.compose([(M.gaussian("0.5"), 400)])
    sub = c._for_query(math.log(1e-5), Fraction(1, 10**5))
    assert sub is not c and sub.h >= 4 * c.h            # the default 1/4096 is coarsened (to 1/512)
    r = c.eps("1e-5")
    exact = gdp_eps("10", "1e-5")
    assert r.certified and r.eps_lower <= exact <= r.eps_upper
    # QUERY_RTOL aims at 5e-5; the model is pessimistic here (measured 2.4e-5; 5.9e-6 when it aimed at 2e-5)
    assert (r.eps_upper - r.eps_lower) / r.eps_upper <= pld.Composition.QUERY_RTOL


def test_an_explicit_grid_is_never_adapted():
    c = pld.compose([(M.gaussian("0.5"), 400)], h=Fraction(1, 4096))
    assert c._for_query(math.log(1e-5), Fraction(1, 10**5)) is c


def test_the_knot_tolerance_follows_delta():
    # 10^4 steps: the default tolerance is 1e-7 / K = 1e-11; a query at delta takes 1e-4 delta, but never
    # below 1/100 of the default (a knot costs Arb work)
    c = pld.compose([(M.gaussian("0.01"), 10**4)])
    assert c.tol == pytest.approx(1e-11)
    assert c._for_query(math.log(1e-8), Fraction(1, 10**8)).tol == pytest.approx(1e-12)
    assert c._for_query(math.log(1e-12), Fraction(1, 10**12)).tol == pytest.approx(1e-13)


def test_mutation_a_too_coarse_grid_is_noticed(monkeypatch):
    # the width check above can fail: aiming the grid at 10 % instead of 2e-5 (then the cap, 1/10 of the
    # composed spread, decides) gives a bracket wider than 1e-5 (measured 2.4e-5)
    monkeypatch.setattr(pld.Composition, "QUERY_RTOL", 1e-1)
    c = pld.compose([(M.gaussian("0.5"), 400)])
    r = c.eps("1e-5")
    exact = gdp_eps("10", "1e-5")
    assert r.eps_lower <= exact <= r.eps_upper           # still certified: only accuracy depends on the grid
    assert (r.eps_upper - r.eps_lower) / r.eps_upper > 1e-5


def test_distinct_laplace_steps_get_every_atom_on_a_knot():
    # 20 Laplace steps eps = 0.0100, 0.0101, ..., 0.0119: the atoms +-eps_i share the divisor 1e-4, so the
    # default grid is 1e-4 (the old rule put only the smallest atom on the grid: h = 0.01 / 18).  Both
    # grids give certified brackets, so they must overlap; the common-divisor grid's is narrower.
    steps = [(M.laplace(f"0.01{i:02d}"), 1) for i in range(20)]
    c = pld.compose(steps)
    assert c.h == Fraction(1, 10**4)
    assert all((Fraction(f"0.01{i:02d}") / c.h).denominator == 1 for i in range(20))
    old = pld.compose(steps, h=Fraction(1, 1800))
    r, o = c.eps("1e-6"), old.eps("1e-6")
    assert r.eps_lower <= o.eps_upper and o.eps_lower <= r.eps_upper
    assert (r.eps_upper - r.eps_lower) < (o.eps_upper - o.eps_lower) / 2


def test_ten_laplace_steps_delta_bracket_stays_narrow():
    # 10 x Laplace(0.1), delta at eps = 0.5 on the engine against the exact spline route (numeric.compose_laplace,
    # a different algorithm: the privacy-loss law as exact rational pieces).  The bracket measured 5.2e-6 wide;
    # a knot placement with fewer coarse density cells (tried this session) widened it to 6.9e-5.  The
    # delta query now refines the default grid while it is cheap (pld_grid.delta_grid): issue #25's target,
    # width <= 1e-6 (measured 6.0e-7 in 0.2 s).
    from numeric import compose_exact as X
    exact = X.delta("laplace", {"eps": "0.1"}, 10, "0.5", 20).value
    r = pld.compose([(M.laplace("0.1"), 10)]).delta("0.5")
    assert r.delta_lower <= exact <= r.delta_upper
    assert r.delta_upper - r.delta_lower <= 1e-6


def test_delta_refinement_brackets_contain_the_exact_value_and_can_fail(monkeypatch):
    """Each refined run is certified and their brackets are intersected: the result still contains the exact
    spline value (numeric.compose_laplace, exact rational pieces) at three eps; a mutation that shifts
    the finer run's bracket (as a wrong grid would) is caught by the containment check."""
    from numeric import compose_exact as X
    for e in ("0.1", "0.3", "0.7"):
        exact = X.delta("laplace", {"eps": "0.1"}, 10, e, 20).value
        r = pld.compose([(M.laplace("0.1"), 10)]).delta(e)
        assert r.delta_lower <= exact <= r.delta_upper, e
    once = pld.Composition._delta_once

    def shifted(self, eps):
        res = once(self, eps)
        if self._explicit:          # only the refined runs (the default grid's is left alone)
            bump = (res.delta_upper - res.delta_lower) * 50 + mpmath.mpf("1e-6")
            return dataclasses.replace(res, delta_lower=res.delta_lower + bump, delta_upper=res.delta_upper + bump,
                                       delta=res.delta_upper + bump)
        return res
    monkeypatch.setattr(pld.Composition, "_delta_once", shifted)
    exact = X.delta("laplace", {"eps": "0.1"}, 10, "0.5", 20).value
    r = pld.compose([(M.laplace("0.1"), 10)]).delta("0.5")
    assert not r.delta_lower <= exact <= r.delta_upper


def test_delta_refinement_leaves_explicit_grids_alone():
    """An explicit h (or tol) is the user's choice: answered once, on that grid (the width is the
    default grid's 5.2e-6, as measured before the refinement)."""
    r = pld.compose([(M.laplace("0.1"), 10)], h=Fraction(1, 400)).delta("0.5")
    assert r.delta_upper - r.delta_lower > 4e-6
