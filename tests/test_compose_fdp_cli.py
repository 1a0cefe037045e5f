"""`dp-derive compose fdp` (issue #9 interface) on the certified engine.

References: the GDP composition G_{mu sqrt(k)} (Dong-Roth-Su Cor. 3.3) with its closed-form profile
delta(eps) = Phi(-eps/m + m/2) - e^eps Phi(-eps/m - m/2), evaluated here in mpmath; the limits
f = Id (parameter 0) and f = 0 (parameter inf); pure composition at delta = 0 (k eps).
"""

from __future__ import annotations

import json

import mpmath
import pytest

from cli_runner import assert_usage_error, run


def _gdp_delta(m, eps):
    with mpmath.workdps(40):
        m, eps = mpmath.mpf(m), mpmath.mpf(eps)
        return mpmath.ncdf(-eps / m + m / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / m - m / 2)


def test_gdp_bracket_contains_the_exact_delta():
    out = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "4", "--at-eps", "1", "--json",
               "--method", "numeric")).json()
    ref = _gdp_delta(1, 1)                        # G_0.5 composed 4 times is G_1
    assert mpmath.mpf(out["delta_lower"]) <= ref <= mpmath.mpf(out["delta_upper"])
    assert out["delta"] == out["delta_upper"] and out["method"] == "numeric" and out["certified"] is True


def test_gdp_eps_bracket_and_power():
    out = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "4", "--at-delta", "1e-6", "--json",
               "--method", "numeric")).json()
    lo, hi = mpmath.mpf(out["eps_lower"]), mpmath.mpf(out["eps_upper"])
    assert _gdp_delta(1, lo) >= mpmath.mpf("1e-6") * (1 - mpmath.mpf("1e-12")) >= _gdp_delta(1, hi) * (1 - mpmath.mpf("1e-9"))
    t = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "4", "--alpha", "0.01", "--json",
             "--method", "numeric")).json()
    with mpmath.workdps(30):
        exact = mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf("0.01")) - 1)   # G_1(0.01)
    assert mpmath.mpf(t["beta_lower"]) <= exact <= mpmath.mpf(t["beta_upper"])
    assert mpmath.mpf(t["power"]) >= mpmath.mpf("0.01")


def test_spec_file(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanisms": [{"mechanism": "gaussian", "mu": "0.6", "count": 1},
                                               {"mechanism": "gaussian", "mu": "0.8", "count": 1}]}))
    out = run(("compose", "fdp", "--spec", str(spec), "--at-eps", "0.5", "--json", "--method", "numeric")).json()
    ref = _gdp_delta(1, "0.5")                    # sqrt(0.36 + 0.64) = 1
    assert mpmath.mpf(out["delta_lower"]) <= ref <= mpmath.mpf(out["delta_upper"])
    assert out["spec"] == str(spec)
    # the default (auto) takes the exact GDP route: G_0.6 x G_0.8 = G_1
    ex = run(("compose", "fdp", "--spec", str(spec), "--at-eps", "0.5", "--json", "--digits", "25")).json()
    assert ex["method"] == "exact" and ex["mu_exact"] == "1" and ex["latex"] == "G_{1}"
    assert ex["delta"] == ex["delta_lower"] == ex["delta_upper"]
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(ex["delta"]) - _gdp_delta(1, "0.5")) <= mpmath.mpf(10) ** -24 * _gdp_delta(1, "0.5")


def test_exact_routes_from_the_cli():
    """auto picks the exact route; lower = upper = value; power = 1 - beta (to the digits shown).
    Reference: 10-fold randomized response (pure 0.5-DP) at alpha below the top atom's Q-mass
    (1 + e^0.5)^-10: the best test randomises on the all-ones outcome, power = e^5 alpha."""
    out = run(("compose", "fdp", "randomized-response", "--eps", "0.5", "--k", "10", "--alpha", "1e-300",
               "--json", "--digits", "20")).json()
    assert out["method"] == "exact" and out["route"] == "binomial" and out["certified"] is True
    with mpmath.workdps(40):
        ref = mpmath.exp(5) * mpmath.mpf("1e-300")
        assert abs(mpmath.mpf(out["power"]) - ref) <= mpmath.mpf(10) ** -19 * ref
    assert out["beta"] == out["beta_lower"] == out["beta_upper"]
    num = run(("compose", "fdp", "randomized-response", "--eps", "0.5", "--k", "10", "--alpha", "1e-300",
               "--json", "--method", "numeric")).json()
    assert num["method"] == "numeric" and mpmath.mpf(num["power"]) >= mpmath.mpf(out["power"])


@pytest.mark.parametrize("args, field, value", [
    ("gaussian --mu 0 --k 5 --alpha 0.3", "beta", "0.7"),
    ("laplace --eps inf --k 5 --at-eps 2", "delta", "1"),
    ("laplace --eps 0.1 --k 10 --at-delta 0", "eps", "1"),
    ("gaussian --mu 1 --k 10 --at-delta 0", "eps", "inf"),
])
def test_limits_are_exact(args, field, value):
    out = run(("compose", "fdp", *args.split(), "--json")).json()
    assert out[field] == value and out[f"{field}_lower"] == value and out["method"] == "exact"


@pytest.mark.parametrize("args, words", [
    ("laplace --eps 0.1 --at-eps 1", ["k"]),
    ("--at-eps 1", ["mechanism"]),
    ("laplace --eps 1e-300 --k 2 --at-eps 1 --method numeric", ["eps=1e-300"]),
    ("laplace --eps 0.1 --k 1000 --at-eps 1 --method exact", ["method=exact", "k <= 500"]),
    ("noise --family logistic --mu 1 --k 2 --at-eps 1", ["mechanism=noise"]),
    ("--spec /nonexistent.json --at-eps 1", ["spec=/nonexistent.json"]),
    ("laplace --eps 0.1 --k 0 --at-eps 1", ["k=0"]),
    # the engine's largest-parameter rule (mu = 1e6 raised ValueError, 1e100 OverflowError; Laplace at
    # eps = 1e300 fell to the engine and answered the useless bracket [0, 1])
    ("gaussian --mu 1e6 --k 3 --at-delta 1e-5 --method numeric", ["mu=1e6", "<= 100"]),
    ("gaussian --mu 1e100 --k 3 --at-delta 1e-5 --method numeric", ["mu=1e100", "<= 100"]),
    ("laplace --eps 1e300 --k 3 --at-eps 1", ["eps=1e300", "<= 100"]),
])
def test_bad_input(args, words):
    assert_usage_error(run(("compose", "fdp", *args.split())), *words)


def test_engine_delta_never_above_one():
    """Three Laplace(100) steps at eps = 1: delta is within 1.5e-9 of 1, and the engine's float slack
    used to carry the upper end to 1.0000000015; delta <= 1 for every pair, so it is capped there."""
    out = json.loads(run(("compose", "fdp", "laplace", "--eps", "100", "--k", "3", "--at-eps", "1",
                          "--method", "numeric", "--json")).out)
    assert float(out["delta_upper"]) <= 1.0 and float(out["delta_lower"]) > 0.999999
