"""numeric.pld_envelope: a family with many distinct parameters bracketed by its parameters rounded
outward (issue #25, specs of 10^4 distinct steps).

References, computed without the envelope: distinct Laplace steps by tests/laplace_reference.exact_delta
(box splines, 60-digit mpmath); Poisson-subsampled Gaussian steps at q = 1, which are plain Gaussian pairs
G_{1/sigma}, whose composition is G_mu with mu^2 = sum 1/sigma_i^2 and
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong-Roth-Su 2022, Cor. 2.13 and 3.3), in mpmath."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from numeric import pld_envelope as E
from numeric import pld_mechanisms as M
from tests.laplace_reference import exact_delta


def _gdp_delta(mu2: Fraction, eps: str):
    with mpmath.workdps(40):
        mu = mpmath.sqrt(mpmath.mpf(mu2.numerator) / mu2.denominator)
        e = mpmath.mpf(eps)
        return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)


SIGMAS = [1 + Fraction(i, 8) for i in range(9)]          # 1, 9/8, ..., 2: range 1 over a budget of 2: g = 1/2
BUDGET = {M.Laplace: 2, M.SubsampledGaussian: 2, M.SubsampledLaplace: 2}


def _sg_entries():
    return [(M.subsampled_gaussian("1", s), 2) for s in SIGMAS]


def _inside(lo, ref, hi):
    with mpmath.workdps(40):
        return mpmath.mpf(lo) <= ref <= mpmath.mpf(hi)


def test_lists_round_outward_and_keep_counts():
    ups, los, notes = E.envelope_lists(_sg_entries(), BUDGET)
    su = {m.directions[0].sigma: k for m, k in ups}
    sl = {m.directions[0].sigma: k for m, k in los}
    assert sum(su.values()) == sum(sl.values()) == 18
    # g = 2^-1: sigma down to a multiple of 1/2 on the upper list, up on the lower
    assert su == {Fraction(1): 8, Fraction(3, 2): 8, Fraction(2): 2}
    assert sl == {Fraction(1): 2, Fraction(3, 2): 8, Fraction(2): 8}
    assert "9 distinct SubsampledGaussian steps" in notes[0] and "2^-1" in notes[0]


def test_under_budget_is_left_alone():
    ents = _sg_entries()
    assert not E.needs_envelope(ents)
    ups, los, notes = E.envelope_lists(ents)
    assert [m for m, _ in ups] == [m for m, _ in ents] == [m for m, _ in los] and notes == []


@pytest.mark.parametrize("eps", ["0.5", "3"])
def test_subsampled_gaussian_at_q1_brackets_the_gaussian_closed_form(eps):
    env = E.Envelope(_sg_entries(), BUDGET)
    r = env.delta(eps)
    ref = _gdp_delta(sum(Fraction(2) / (s * s) for s in SIGMAS), eps)
    assert r.certified and _inside(r.delta_lower, ref, r.delta_upper)
    assert "rounded outward" in r.reason
    # the rounding's width: the upper end is at least the closed form at the upper list's own mu^2 (sigma
    # rounded down to a multiple of 1/2)
    wide_hi = _gdp_delta(sum(Fraction(2) / (Fraction(int(2 * s), 2) ** 2) for s in SIGMAS), eps)
    assert r.delta_upper >= wide_hi * (1 - 1e-6)


def test_eps_and_tradeoff_take_each_end_from_its_list():
    env = E.Envelope(_sg_entries(), BUDGET)
    mu2 = sum(Fraction(2) / (s * s) for s in SIGMAS)
    e = env.eps("1e-6")
    with mpmath.workdps(40):
        mu = mpmath.sqrt(mpmath.mpf(mu2.numerator) / mu2.denominator)
        truth = mpmath.findroot(lambda x: _gdp_delta(mu2, x) - mpmath.mpf("1e-6"), 5)
        t = env.tradeoff("0.1")
        beta = mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf("0.1")) - mu)   # Phi(Phi^-1(1 - a) - mu)
    assert e.eps_lower <= truth <= e.eps_upper and e.eps == e.eps_upper
    assert t.beta_lower <= beta <= t.beta_upper and abs(t.power - (1 - t.beta_lower)) <= 1e-15


def test_distinct_laplace_steps_against_the_box_spline_reference():
    eps_list = [Fraction(1, 10), Fraction(13, 100), Fraction(17, 100), Fraction(1, 5)]
    env = E.Envelope([(M.laplace(e), 1) for e in eps_list], BUDGET)
    r = env.delta("0.2")
    ref = exact_delta(eps_list, Fraction(1, 5))
    assert _inside(r.delta_lower, ref, r.delta_upper)


def test_an_eps_rounded_to_zero_drops_the_step_from_the_lower_list():
    ents = [(M.laplace(e), 1) for e in ("0.01", "0.4", "0.9", "1.3")]
    ups, los, _ = E.envelope_lists(ents, BUDGET)      # range 1.29 over 2: g = 1
    assert [(m.directions[0].eps, k) for m, k in ups] == [(1, 3), (2, 1)]
    assert [(m.directions[0].eps, k) for m, k in los] == [(1, 1)]       # 0.01, 0.4, 0.9 floor to 0: dropped


def test_mutation_rounding_inward_is_caught(monkeypatch):
    """The upper list's sigma rounded up (towards more privacy) and the lower list's down: the bracket
    misses the closed form."""
    orig = E._round
    monkeypatch.setattr(E, "_round", lambda v, g, up: orig(v, g, not up))
    r = E.Envelope(_sg_entries(), BUDGET).delta("0.5")
    ref = _gdp_delta(sum(Fraction(2) / (s * s) for s in SIGMAS), "0.5")
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def test_mutation_ends_swapped_is_caught(monkeypatch):
    """Each end read from the wrong list (lower delta from the upper list, upper from the lower)."""
    env = E.Envelope(_sg_entries(), BUDGET)
    env.upper, env.lower = env.lower, env.upper
    r = env.delta("0.5")
    ref = _gdp_delta(sum(Fraction(2) / (s * s) for s in SIGMAS), "0.5")
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def _spec(tmp_path):
    import json
    rows = [{"mechanism": "gaussian", "mu": mu, "p": "1", "count": 2} for mu in ("1", "0.95", "0.9", "0.85", "0.8", "0.5")]
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"mechanisms": rows}))
    return str(path)


@pytest.mark.parametrize("budget, rounded", [(2, True), (24, False)])
def test_cli_spec_takes_the_envelope_past_the_budget(tmp_path, monkeypatch, budget, rounded):
    """compose fdp --spec: six distinct subsampled steps (p = 1: Gaussian pairs, closed form at mu^2 =
    2 (1 + 0.9025 + 0.81 + 0.7225 + 0.64 + 0.25)) over a budget of 2 are rounded (2 + 3 distinct steps) and say
    so; under the budget they are not."""
    from tests.cli_runner import run
    monkeypatch.setitem(E.BUDGET, M.SubsampledGaussian, budget)
    out = run(("compose", "fdp", "--spec", _spec(tmp_path), "--at-eps", "1", "--json")).json()
    ref = _gdp_delta(Fraction(865, 100), "1")
    assert out["certified"] and _inside(out["delta_lower"], ref, out["delta_upper"])
    assert ("rounded outward" in out.get("reason", "")) is rounded


def test_a_family_whose_rounding_saves_nothing_stays_as_it_is():
    """sigma in {1/1000, 1, 2, 3, 4}: g must be at most 1/1000 (rounding down never reaches 0), so no two
    values share a multiple of g and the family is composed unrounded."""
    sig = [Fraction(1, 1000), Fraction(1), Fraction(2), Fraction(3), Fraction(4)]
    ents = [(M.subsampled_gaussian("0.5", s), 1) for s in sig]
    ups, los, notes = E.envelope_lists(ents, BUDGET)
    assert [m for m, _ in ups] == [m for m, _ in ents] == [m for m, _ in los] and notes == []
