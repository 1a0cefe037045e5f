"""DP-SGD accounting and calibration (numeric/dpsgd.py, ``dp-derive dpsgd``).

References, independent of the code under test:
* one step (T = 1) is the Poisson-subsampled Gaussian with mu = 1/sigma, p = q: its hockey stick is
  a difference of normal tails at the crossing point (``test_subsampling._poisson_gaussian_delta``,
  mpmath at 40 digits), and eps at delta is found from it by bisection here;
* the CLT mu is typed in from its formula q sqrt(T (e^{1/sigma^2} - 1)) with Python's Fraction for
  q and mpmath for the rest; its eps solves Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta
  by bisection (the GDP profile written out, not the toolkit's record);
* T = ceil(epochs n / batch) by integer arithmetic;
* dp_accounting's PLD accountant (a peer, present only with the ``bench`` extra) for T = 1000.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import pytest

from cli_runner import assert_usage_error, run
from derive.errors import DomainError
from numeric import dpsgd
from test_subsampling import _poisson_gaussian_delta


def _bisect_eps(delta_of, delta, lo=0.0, hi=20.0):
    with mpmath.workdps(40):
        lo, hi, d = mpmath.mpf(lo), mpmath.mpf(hi), mpmath.mpf(delta)
        for _ in range(120):
            mid = (lo + hi) / 2
            if delta_of(mid) > d:
                lo = mid
            else:
                hi = mid
        return lo


def test_steps_from_epochs_round_up():
    # 60 epochs of 60000 / 256: 3600000 / 256 = 14062.5 -> 14063 (the issue's 14062 rounds down;
    # pass --steps 14062 for that count)
    assert dpsgd.steps_of("60000", "256", epochs="60") == 14063
    assert dpsgd.steps_of("60000", "256", steps="14062") == 14062
    assert dpsgd.steps_of("1000", "10", epochs="1") == 100


@pytest.mark.parametrize("sigma", ["0.8", "1.1", "2"])  # containment for all three
@pytest.mark.slow
def test_one_step_bracket_contains_the_integrated_pair(sigma):
    q = Fraction(256, 60000)
    ref = _bisect_eps(lambda e: _poisson_gaussian_delta(1 / mpmath.mpf(sigma), mpmath.mpf(256) / 60000, e),
                      "1e-5")
    r = dpsgd.account("60000", "256", sigma, steps="1", at_delta="1e-5")
    assert r.q == q and r.steps == 1
    assert r.eps_lower <= ref <= r.eps_upper
    # one step of a weakly subsampled Gaussian is the engine's weak spot: the bracket is a few percent
    # wide (recorded in BENCHMARKS.md), but it must contain the value and say something at every sigma
    # (at sigma = 2 the grid used to be h = 1/256, wider than the step's loss spread, and eps_lower was
    # 0; the grid is now at most 1/10 of the composed loss's standard deviation)
    assert r.eps_lower > 0
    assert r.eps_upper - r.eps_lower < 0.1 * ref


def _one_step_delta_bracket_contains_the_integrated_pair():
    ref = _poisson_gaussian_delta(1 / mpmath.mpf("1.1"), mpmath.mpf(256) / 60000, "0.01")
    r = dpsgd.account("60000", "256", "1.1", steps="1", at_eps="0.01")
    assert r.delta_lower <= ref <= r.delta_upper


def test_one_step_delta_bracket_contains_the_integrated_pair(no_delta_refinement):
    """On the default grid only (conftest); the refined query (8.9 s, the same bracket on 2026-11-28) is the
    slow twin below."""
    _one_step_delta_bracket_contains_the_integrated_pair()


@pytest.mark.slow
def test_one_step_delta_bracket_contains_the_integrated_pair_refined():
    _one_step_delta_bracket_contains_the_integrated_pair()


@pytest.mark.slow
def test_clt_mu_and_eps_by_hand():
    r = dpsgd.account("60000", "256", "1.1", steps="1000", at_delta="1e-5")
    with mpmath.workdps(40):
        mu = mpmath.mpf(256) / 60000 * mpmath.sqrt(1000 * (mpmath.e ** (1 / mpmath.mpf("1.21")) - 1))

        def gdp_delta(e):
            return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
        eps_clt = _bisect_eps(gdp_delta, "1e-5")
    assert abs(r.mu_clt - mu) < 1e-25
    assert abs(r.eps_clt - eps_clt) < 1e-12 * eps_clt
    assert r.clt_gap == r.eps_clt - r.eps_upper
    # the CLT understates DP-SGD's loss here (the issue's point): below even the lower end
    assert r.eps_clt < r.eps_lower


def test_bracket_contains_dp_accounting():
    dpa = pytest.importorskip("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    ev = dpa.PoissonSampledDpEvent(256 / 60000, dpa.GaussianDpEvent(1.1))
    acc.compose(dpa.SelfComposedDpEvent(ev, 1000))
    peer = acc.get_epsilon(1e-5)
    r = dpsgd.account("60000", "256", "1.1", steps="1000", at_delta="1e-5")
    # the peer's value is itself pessimistic up to its discretisation: inside the bracket to 1e-4
    assert float(r.eps_lower) - 1e-4 <= peer <= float(r.eps_upper) + 1e-4
    # the default grid is h = 2^-12 here (8e-3 / sqrt(T), snapped): width 6.3e-4 at eps = 0.6
    assert float(r.eps_upper - r.eps_lower) < 1e-3


@pytest.mark.slow
def test_calibrated_sigma_meets_the_target_and_is_nearly_smallest():
    r = dpsgd.calibrate_sigma("1000", "100", "2", "1e-5", steps="20")
    assert r.eps_upper <= 2
    again = dpsgd.account("1000", "100", str(float(r.sigma)), steps="20", at_delta="1e-5")
    assert Fraction(str(float(r.sigma))) == r.sigma and again.eps_upper <= 2
    # 1 % less noise is already certainly above the target (the resolution is 0.1 %)
    less = dpsgd.account("1000", "100", f"{float(r.sigma) * 0.99:.6g}", steps="20", at_delta="1e-5")
    assert less.eps_lower > 2


def test_unreachable_target_names_the_reachable_eps():
    with pytest.raises(DomainError) as e:
        dpsgd.calibrate_sigma("100", "100", "1e-9", "1e-5", steps="100000")
    assert "target_eps" in str(e.value) and "sigma = 1000" in str(e.value)


@pytest.mark.slow
def test_max_epochs_is_the_boundary():
    n = dpsgd.max_epochs("60000", "600", "1", "1", "1e-5")
    assert n >= 1
    ok = dpsgd.account("60000", "600", "1", epochs=str(n), at_delta="1e-5")
    over = dpsgd.account("60000", "600", "1", epochs=str(n + 1), at_delta="1e-5")
    assert ok.eps_upper <= 1 < over.eps_upper


def test_cli_json_fields():
    out = json.loads(run(["dpsgd", "--n", "60000", "--batch", "256", "--sigma", "1.1", "--steps", "10",
                          "--at-delta", "1e-5", "--json"]).out)
    for key in ("steps", "q", "sigma", "eps", "eps_lower", "eps_upper", "mu_clt", "eps_clt", "clt_gap",
                "certified", "method"):
        assert key in out
    assert out["steps"] == 10 and out["eps"] == out["eps_upper"]
    assert float(out["eps_lower"]) <= float(out["eps_upper"])


@pytest.mark.parametrize("argv,name", [
    (["--sigma", "1.1", "--steps", "10", "--at-delta", "1e-5", "--sampling", "fixed"], "sampling"),
    (["--sigma", "1.1", "--steps", "10", "--at-delta", "1e-5", "--batch", "70000"], "batch"),
    (["--sigma", "0", "--steps", "10", "--at-delta", "1e-5"], "sigma"),
    (["--sigma", "1", "--target-eps", "1", "--steps", "10", "--at-delta", "1e-5"], "target_eps"),
    (["--target-eps", "1", "--steps", "10", "--at-eps", "1"], "at_delta"),
    (["--steps", "10", "--at-delta", "1e-5"], "sigma"),
    (["--sigma", "1", "--steps", "0", "--at-delta", "1e-5"], "steps"),
])
def test_bad_input_exit_2(argv, name):
    base = ["dpsgd", "--n", "60000"]
    if "--batch" not in argv:
        base += ["--batch", "256"]
    assert_usage_error(run(base + argv), name)


def test_api_refuses_an_unknown_sampling():
    with pytest.raises(DomainError) as e:
        dpsgd.account("100", "10", "1", steps="1", at_delta="1e-5", sampling="fixed")
    assert "sampling" in str(e.value) and "poisson or uniform" in str(e.value)
    assert math.isfinite(float(dpsgd.account("100", "10", "1", steps="1", at_delta="1e-5").eps))




def test_issue_case_bracket_is_narrow_and_agrees_across_grids():
    """The issue's DP-SGD case (q = 256/60000, sigma = 1.1, T = 14062, delta = 1e-5): the default
    grid's certified bracket is at most 2e-4 wide (issue #9's target), and a coarser grid's bracket
    (an independent discretisation: other knots, other measures) overlaps it, as two enclosures of
    one value must.  dp_accounting's pessimistic 2.381686 (BENCHMARKS.md) lies above both lower
    ends; the CLT's 2.3243 lies below them."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    r = dpsgd.account("60000", "256", "1.1", steps="14062", at_delta="1e-5")
    assert r.eps_upper - r.eps_lower <= 2e-4
    c = pld.compose([(M.subsampled_gaussian(Fraction(256, 60000), "1.1"), 14062)], h=Fraction(1, 5000))
    coarse = c.eps("1e-5")
    assert coarse.eps_upper - coarse.eps_lower > r.eps_upper - r.eps_lower
    assert max(r.eps_lower, coarse.eps_lower) <= min(r.eps_upper, coarse.eps_upper)
    assert r.eps_lower < 2.381686 and r.eps_clt < r.eps_lower
