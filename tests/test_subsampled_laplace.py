"""The subsampled Laplace pairs of the engine (numeric/pld_mechanisms.SubsampledLaplace) against
independent routes.

References:
* one step: numeric.subsampling's C_p(f) of the Laplace record (root finding on the record's closed
  forms f, 1 - f and its privacy profile; no loss distribution involved).  One Poisson step composes
  both directions, whose profile is the larger of the two, which is C_p(f)'s profile; one uniform
  step is the symmetric pair of C_p(f) itself;
* q = 1: the Laplace mechanism itself, two steps against the exact spline route (compose_exact).
"""

from __future__ import annotations

import mpmath
import pytest

from derive.mechanisms import gaussian, laplace, uniform_sampling
from numeric import compose_exact as X
from numeric import pld
from numeric import pld_mechanisms as M
from numeric import pld_subsampled as PS
from numeric import subsampling as S
from numeric.precision import as_mpf

CASES = [("0.1", "1"), ("0.01", "2"), ("0.3", "0.2")]


def _holds(r, ex):
    """The bracket contains the reference and is narrow (1e-3 absolute: a broken pair can give a
    bracket that contains everything)."""
    return r.delta_lower <= ex <= r.delta_upper and r.delta_upper - r.delta_lower <= 1e-3


@pytest.mark.parametrize("sampling", ["poisson", "uniform"])
@pytest.mark.parametrize("q,eps", CASES)
def test_one_step_brackets_c_p(q, eps, sampling):
    comp = pld.compose([(PS.subsampled_step(laplace(eps), q, sampling), 1)])
    rec = laplace(eps)
    for at in ["-0.3", "0", "0.01", "0.05"]:
        ex = as_mpf(S.delta(rec, q, at, 20).value)
        r = comp.delta(at)
        assert _holds(r, ex), (at, r, ex)
    for a in ["1e-30", "0.01", "0.3"]:
        ex = as_mpf(S.tradeoff(rec, q, a, 20).complement)
        r = comp.tradeoff(a)
        assert r.power_lower <= ex <= r.power and r.power >= mpmath.mpf(a), (a, r, ex)


def test_rate_one_is_laplace_two_steps():
    comp = pld.compose([(PS.subsampled_step(laplace("0.5"), "1", "poisson"), 2)])
    for at in ["-0.2", "0", "0.4", "0.9"]:
        ex = as_mpf(X.delta("laplace", {"eps": "0.5"}, 2, at, 20).value)
        r = comp.delta(at)
        assert r.delta_lower <= ex <= r.delta_upper, (at, r, ex)


def test_support_ends_and_refusals():
    rm = M.SubsampledLaplace("0.1", "1", "remove")
    # L ranges over [log(1 + q (e^-1 - 1)), log(1 + q (e - 1))]
    assert abs(rm.lo - float(mpmath.log1p(0.1 * mpmath.expm1(-1)))) < 1e-15
    assert abs(rm.hi - float(mpmath.log1p(0.1 * mpmath.expm1(1)))) < 1e-15
    with pytest.raises(ValueError, match="no privacy-loss model"):
        PS.subsampled_step(uniform_sampling("1", "10"), "0.1", "poisson")
    with pytest.raises(ValueError):
        M.SubsampledLaplace("0", "1")


def _one_step_with_broken(monkeypatch, direction, change, q, eps, at):
    """(bracket, C_p(f) reference) of one Poisson step whose ``direction`` tails are changed by
    ``change(sp, sq) -> (sp, sq)``."""
    orig = M.SubsampledLaplace._tails

    def wrong(self, l, la):
        sp, sq = orig(self, l, la)
        return change(sp, sq) if self.direction == direction else (sp, sq)
    monkeypatch.setattr(M.SubsampledLaplace, "_tails", wrong)
    comp = pld.compose([(PS.subsampled_step(laplace(eps), q, "poisson"), 1)])
    return comp.delta(at), as_mpf(S.delta(laplace(eps), q, at, 20).value)


def test_mutation_add_direction_is_caught(monkeypatch):
    """The add direction with its P and Q tails exchanged: at eps = -0.3 (q = 0.3, eps = 2) the add
    direction is the larger one (0.361 against 0.259), and the bracket no longer contains C_p(f)."""
    r, ex = _one_step_with_broken(monkeypatch, "add", lambda sp, sq: (sq, sp), "0.3", "2", "-0.3")
    assert not _holds(r, ex)


def test_mutation_remove_mixture_weight_is_caught(monkeypatch):
    """The remove direction's mixture with half the weight on the shifted component: caught at eps = 0.05."""
    r, ex = _one_step_with_broken(monkeypatch, "remove", lambda sp, sq: ((sp + sq) / 2, sq), "0.1", "1", "0.05")
    assert not _holds(r, ex)


def test_cli_subsample_and_spec_compose_the_laplace_pair(tmp_path):
    """`subsample laplace --k` and a spec entry with p give the same bracket as the API; the API's
    one-step bracket is checked above against C_p(f)."""
    import json

    from tests.cli_runner import run
    api = pld.compose([(PS.subsampled_step(laplace("1"), "0.1", "uniform"), 3)]).eps("1e-6")
    got = run(("subsample", "laplace", "--eps", "1", "--p", "0.1", "--sampling", "uniform", "--k", "3",
               "--at-delta", "1e-6", "--json")).json()
    assert got["method"] == "numeric" and got["certified"] is True
    assert mpmath.mpf(got["eps_lower"]) <= api.eps_upper and api.eps_lower <= mpmath.mpf(got["eps_upper"])
    assert abs(mpmath.mpf(got["eps_upper"]) - api.eps_upper) <= 1e-12 * api.eps_upper
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps({"mechanisms": [{"mechanism": "laplace", "eps": "1", "p": "0.1",
                                                "sampling": "uniform", "count": 3}]}))
    via_spec = run(("compose", "fdp", "--spec", str(spec), "--at-delta", "1e-6", "--json")).json()
    assert via_spec["eps_upper"] == got["eps_upper"]
    bad = run(("compose", "fdp", "--spec", str(spec).replace("s.json", "t.json"), "--at-delta", "1e-6"))
    assert bad.rc == 2


@pytest.mark.slow
def test_cli_subsample_limits():
    """Parameter inf: f_{0, 1 - (1 - p)^k} exactly (by hand: delta = 1 - 0.9^3 = 0.271 at any eps >= 0,
    beta = 0.729 - alpha); a parameter below the engine's grid is refused in one line."""
    from tests.cli_runner import run
    for mech, flag in (("laplace", "--eps"), ("gaussian", "--mu")):
        got = run(("subsample", mech, flag, "inf", "--p", "0.1", "--k", "3", "--at-eps", "0.1", "--json")).json()
        assert got["method"] == "exact" and mpmath.mpf(got["delta"]) == mpmath.mpf("0.271")
        got = run(("subsample", mech, flag, "inf", "--p", "0.1", "--k", "3", "--alpha", "0.5", "--json")).json()
        assert abs(mpmath.mpf(got["beta"]) - mpmath.mpf("0.229")) < 1e-15
    # a large finite mu approaches it from the engine (bracket contains the limit's delta up to 1e-8)
    near = pld.compose([(PS.subsampled_step(gaussian("30"), "0.1", "poisson"), 3)]).delta("0.1")
    assert near.delta_lower <= mpmath.mpf("0.271") + 1e-8 and mpmath.mpf("0.271") <= near.delta_upper
    r = run(("subsample", "laplace", "--eps", "1e-300", "--p", "0.1", "--k", "3", "--at-eps", "0.1"))
    assert r.rc == 2 and "eps=1e-300" in r.err and "Traceback" not in r.err
