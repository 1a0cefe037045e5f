"""An eps(delta) query's grid resolves one step's loss (``pld_grid.STEP_CELLS``), and a query's knot tails are
computed once per grid (``pld_discretise.step_states``' memos, ``Composition._tails_memo``).

References: the DP-SGD eps of ``bench/dpsgd_reference.py`` (Laplace inversion through the saddle point, numpy
and scipy only, no dp-derive code; its own error estimate is below 1e-11), recomputed here; the memoised step
measures are compared with ``pld_discretise.discretise`` on a fresh pair, which computes every knot's tails
itself (the route without memos)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from numeric import dpsgd, pld
from numeric import pld_discretise as PD
from numeric import pld_grid as G
from numeric import pld_mechanisms as M
from numeric.pld_discretise import discretise
from tests.dpsgd_windows import saddle_point_reference
from tests.test_pld_lazy_lower import _same

# q = 0.001, sigma = 0.6, T = 100, delta = 1e-5: 1.4e-4 wide on the model's grid 2^-11 (s_1 / h = 6.6)
CELL = ("0.001", "0.6", 100, "1e-5")


def _reference(q, s, T, delta) -> float:
    eps, err = saddle_point_reference(float(q), float(s), T, float(delta))
    assert err < 1e-9
    return eps


def _query(q, s, T, d):
    comp = dpsgd._composition(Fraction(q), Fraction(s), T)
    return comp, comp.eps(d)


@pytest.fixture(scope="module")
def reference():
    return _reference(*CELL)


def test_a_weakly_subsampled_step_gets_its_cells_and_the_bracket_its_width(reference):
    comp, r = _query(*CELL)
    h, _ = G.query_grid(comp, math.log(1e-5), Fraction(1, 10 ** 5))
    assert math.sqrt(comp._step_var) >= G.STEP_CELLS * float(h)
    assert r.certified and r.eps_lower <= reference <= r.eps_upper
    assert (r.eps_upper - r.eps_lower) / r.eps_upper <= 1e-4       # measured 5.3e-5 (1.4e-4 without the rule)


def test_mutation_without_the_step_cells_the_bracket_is_wide(monkeypatch, reference):
    monkeypatch.setattr(G, "STEP_CELLS", 0)
    _, r = _query(*CELL)
    assert r.eps_lower <= reference <= r.eps_upper                  # still certified: only width moves
    assert (r.eps_upper - r.eps_lower) / r.eps_upper > 1e-4


def _tilts_on_one_grid(comp):
    """Step measures of direction 0 at two tilts on the composition's grid, as a query makes them."""
    a, b = comp._bucket(2.0), comp._bucket(9.0)
    comp._measures(0, a)
    return comp._measures(0, b), b


def test_memoised_tails_give_the_measures_a_fresh_pair_gives(monkeypatch):
    comp = pld.compose([(M.subsampled_gaussian("0.01", "1.1"), 50)], h=Fraction(1, 2 ** 12))
    (model, _), = comp._models(0)
    calls = []
    fast = type(model).tails_arb

    def counted(self, la, l=None):
        calls.append(l)
        return fast(self, la, l)
    monkeypatch.setattr(type(model), "tails_arb", counted)
    (ups, los, _), b = _tilts_on_one_grid(comp)
    monkeypatch.setattr(type(model), "tails_arb", fast)
    ju, jl = discretise(model, comp.h, b, tol=comp.tol)
    assert _same(ups[0][0], ju) and _same(los[0][0], jl)
    memo = comp._tails_memo()[id(model)]
    assert len(calls) == len(memo) == len(set(calls))              # each knot's tails once
    ja, _ = discretise(model, comp.h, comp._bucket(2.0), tol=comp.tol)
    assert len(calls) < len(ja.knots) + len(ju.knots)               # the two tilts shared knots
    assert set(ju.knots.tolist()) | set(ja.knots.tolist()) <= set(memo)


def test_a_sub_composition_on_another_grid_has_its_own_memo():
    comp = pld.compose([(M.subsampled_gaussian("0.01", "1.1"), 50)], h=Fraction(1, 2 ** 12))
    sub = comp._sub(comp.h / 2, comp.tol)
    assert sub._memos is comp._memos
    assert sub._tails_memo() is not comp._tails_memo()


def test_many_distinct_steps_keep_no_memo():
    entries = [(M.subsampled_gaussian(f"0.0{i + 1}", "1.1"), 1) for i in range(pld.Composition.MEMO_PAIRS + 1)]
    assert pld.compose(entries, h=Fraction(1, 2 ** 12))._tails_memo() is None


def test_batch_models_are_not_memoised():
    assert PD.memo_tails(M.subsampled_gaussian("0.01", "1.1").directions[0])
    assert not PD.memo_tails(M.laplace("0.1").directions[0])


def test_mutation_one_memo_for_every_grid_is_caught(monkeypatch):
    """The memo keyed by knot only (not by the grid h): the balls of h k on one grid read on another."""
    shared = {}
    monkeypatch.setattr(pld.Composition, "_tails_memo", lambda self: shared)
    comp = pld.compose([(M.subsampled_gaussian("0.01", "1.1"), 50)], h=Fraction(1, 2 ** 12))
    comp._measures(0, comp._bucket(2.0))
    sub = comp._sub(comp.h / 2, comp.tol)
    (ups, _, _), b = _tilts_on_one_grid(sub)
    (model, _), = sub._models(0)
    ju, _ = discretise(model, sub.h, b, tol=sub.tol)
    assert not _same(ups[0][0], ju)


def test_the_tilt_solver_finds_the_closed_form_tilt_in_few_evaluations():
    """'mean' mode on G_1 x 4 (= G_2): the composed loss is N(mu^2/2, mu^2) under P with mu = 2, so K'(lam) =
    mu^2/2 + lam mu^2 and K'(lam) = 6 at lam = 1 (closed form; the step measures carry a discretisation error
    of about h^2).  Regula falsi reaches the solver's 1e-7 in under 20 evaluations of K; bisection took 27 here (a mutation test: the bisection put back)."""
    lam, seen = _solve_g2()
    assert lam == pytest.approx(1.0, rel=1e-5)
    assert len(seen) < 20


def _solve_g2():
    comp = pld.compose([(M.gaussian("1"), 4)], h=Fraction(1, 2 ** 12))
    K = comp._measure_cgf(comp._measures(0, comp._bucket(1.0))[0])
    seen = []

    def counted(lam):
        seen.append(lam)
        return K(lam)
    return comp._solve_lam(counted, 6.0, "mean"), seen


def test_mutation_bisection_in_place_of_regula_falsi_is_noticed(monkeypatch):
    from numeric.solvers import bisect

    def by_bisection(g, lo, hi, g_lo, g_hi, *, stop, point, mid):
        return bisect(lambda x: g(x) > 0, lo, hi, steps=60, stop=stop)
    monkeypatch.setattr(pld, "illinois_bracket", by_bisection)
    lam, seen = _solve_g2()
    assert lam == pytest.approx(1.0, rel=1e-5) and len(seen) >= 20


def test_the_step_cells_rule_refines_at_most_4x(monkeypatch):
    """delta = 1e-280: eps = 75.69 is read far in the tail; the model's grid 2^-10 has s_1 / h = 1.3 and gave a
    2e-5 wide bracket, so the rule (which would take 2^-14) stops at 2^-12."""
    comp = dpsgd._composition(Fraction(1, 1000), Fraction(4, 5), 100)
    logd = -280 * math.log(10)
    h, _ = G.query_grid(comp, logd, Fraction(1, 10 ** 280))
    cells = G.STEP_CELLS
    monkeypatch.setattr(G, "STEP_CELLS", 0)
    h_model, _ = G.query_grid(comp, logd, Fraction(1, 10 ** 280))
    assert math.sqrt(comp._step_var) < cells * float(h_model) / 8            # the rule wants more than 4x
    assert h == h_model / 4
