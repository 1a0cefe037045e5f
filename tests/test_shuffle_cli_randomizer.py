"""``dp-derive shuffle --randomizer``: the exact shuffled pairs wired into the shuffle command (issue #26 item
1), a lower bound beside the reductions' upper bounds.

Reference (independent of numeric.shuffle_rr): the count of ones of n binary-RR reports, built here as an
exact convolution in mpmath at 50 digits: k of the other n - 1 users hold 1 (each reports 1 w.p. p =
e^eps0/(1 + e^eps0)), the rest 0 (1 w.p. 1 - p), the changed user 0 under D and 1 under D'; delta(eps) is
max over k in 0..3 and both directions of sum (P - e^eps Q)_+."""

from __future__ import annotations

import json

import mpmath
import pytest

from cli_runner import assert_usage_error, run


def _count_law(n_zero, n_one, p):
    law = [mpmath.mpf(1)]
    for prob in [1 - p] * n_zero + [p] * n_one:
        new = [mpmath.mpf(0)] * (len(law) + 1)
        for i, w in enumerate(law):
            new[i] += w * (1 - prob)
            new[i + 1] += w * prob
        law = new
    return law


def _delta_ref(n, eps0, eps):
    with mpmath.workdps(50):
        e0, E = mpmath.mpf(eps0), mpmath.exp(mpmath.mpf(eps))
        p = mpmath.exp(e0) / (1 + mpmath.exp(e0))
        best = mpmath.mpf(0)
        for k in range(4):
            P = _count_law(n - 1 - k + 1, k, p)          # changed user holds 0
            Q = _count_law(n - 1 - k, k + 1, p)          # changed user holds 1
            for a, b in ((P, Q), (Q, P)):
                best = max(best, mpmath.fsum(max(x - E * y, 0) for x, y in zip(a, b)))
        return best


@pytest.mark.parametrize("n, eps", [(8, "0.3"), (30, "0.5")])
def test_binary_rr_delta_bracket_contains_the_convolution(n, eps):
    res = run(["shuffle", "--randomizer", "binary-rr", "--eps0", "1", "--n", str(n), "--at-eps", eps, "--json"])
    assert res.rc == 0, res.err
    d = json.loads(res.out)
    ref = _delta_ref(n, "1", eps)
    assert mpmath.mpf(d["delta_lower"]) <= ref <= mpmath.mpf(d["delta_upper"])
    assert d["certified"] is True and d["side"] == "lower bound" and d["delta"] == d["delta_lower"]


def test_binary_rr_lies_below_the_reductions():
    """The exact pair's eps is a lower bound, each clone reduction an upper bound: lower <= upper."""
    args = ["--eps0", "1", "--n", "10000", "--at-delta", "1e-6", "--json"]
    low = json.loads(run(["shuffle", "--randomizer", "binary-rr", *args]).out)
    for red in ("stronger-clone", "standard-clone"):
        up = json.loads(run(["shuffle", "--reduction", red, *args]).out)
        assert mpmath.mpf(low["eps_upper"]) < mpmath.mpf(up["eps_lower"]), red


@pytest.mark.parametrize("argv, name", [
    (["--randomizer", "k-rr", "--eps0", "1", "--n", "100", "--at-delta", "1e-6"], "k="),
    (["--reduction", "standard-clone", "--k", "3", "--eps0", "1", "--n", "100", "--at-delta", "1e-6"], "k="),
    (["--randomizer", "binary-rr", "--rounds", "2", "--eps0", "1", "--n", "100", "--at-delta", "1e-6"], "rounds="),
    (["--randomizer", "binary-rr", "--reduction", "standard-clone", "--eps0", "1", "--n", "10",
      "--at-delta", "1e-6"], "reduction"),
    # an uncertifiable bracket was an ArithmeticError traceback
    (["--randomizer", "binary-rr", "--eps0", "1", "--n", "10", "--at-delta", "1e-300"], "at_delta="),
    # the flag's name, not "eps" (thirteenth session's probe)
    (["--reduction", "standard-clone", "--eps0", "1", "--n", "10", "--at-eps", "-1"], "at_eps=-1"),
])
def test_bad_combinations_are_one_line_errors(argv, name):
    assert_usage_error(run(["shuffle", *argv]), name)


def test_k_rr_answers_in_float_and_says_so():
    d = json.loads(run(["shuffle", "--randomizer", "k-rr", "--k", "3", "--eps0", "1", "--n", "200",
                        "--at-delta", "1e-6", "--json"]).out)
    assert d["certified"] is False and d["eps_upper"] is None and float(d["eps_lower"]) > 0 and d["k"] == 3
