"""Extreme parameters are refused in one line (exit 2) instead of a traceback or a run past 60 s, and the
new range ends still answer (thirteenth session's probe).  Before: ``fscore --beta 1e-1000`` and
``--rho-p 1e-5000`` ended in tracebacks; ``tradeoff discrete-gaussian --sigma2 1e-999999``, ``ztest --n
1e999999``, ``functional --order 1e999999``, ``subsample --at-eps 1e999999`` and ``compose zcdp --rho
1e999999`` ran past 70 s."""

from __future__ import annotations

import pytest

from cli_runner import assert_usage_error, run

REFUSED = [
    (("fscore", "laplace", "--eps", "1", "--beta", "1e-1000"), "beta"),
    (("fscore", "laplace", "--eps", "1", "--beta", "1e999999"), "beta"),
    (("fscore", "laplace", "--eps", "1", "--beta", "1", "--rho-p", "1e-5000"), "rho_p"),
    (("fscore-inverse", "laplace", "--beta", "1e-999999", "--bound", "0.7"), "beta"),
    (("tradeoff", "discrete-gaussian", "--sigma2", "1e-999999", "--alpha", "0.1"), "sigma2"),
    (("ztest", "--n", "1e999999", "--sigma", "1", "--m", "0.1", "--alpha", "0.05", "--mu", "1"), "n"),
    (("ztest", "--n", "100", "--sigma", "1e-999999", "--m", "0.1", "--alpha", "0.05", "--mu", "1"), "sigma"),
    (("functional", "laplace", "--eps", "1", "--name", "renyi", "--order", "1e999999"), "order"),
    (("subsample", "gaussian", "--mu", "1", "--p", "0.1", "--at-eps", "1e999999"), "eps"),
    (("compose", "zcdp", "--rho", "1e999999", "--k", "10", "--delta", "1e-6"), "rho"),
]


@pytest.mark.parametrize("argv,name", REFUSED, ids=[" ".join(a[:2]) + " " + n for a, n in REFUSED])
def test_beyond_the_range_is_one_line_exit_2(argv, name):
    assert_usage_error(run(argv), name)


def test_the_new_range_ends_answer():
    """beta = 1e-500: F*_beta -> the precision's maximum e/(1 + e) = 0.731058578630005 as beta -> 0 (recall
    weighs nothing; Laplace eps = 1, by hand); rho = 1e308: eps(1e-6) of 10 releases at least 10 rho."""
    out = run(("fscore", "laplace", "--eps", "1", "--beta", "1e-500", "--json")).json()
    assert out["fscore"] == "0.731058578630005"
    z = run(("compose", "zcdp", "--rho", "1e308", "--k", "10", "--delta", "1e-6", "--json"))
    assert z.rc == 0 and float(z.json()["eps"]) >= 1e309
    assert run(("functional", "laplace", "--eps", "1", "--name", "renyi", "--order", "1e100")).rc == 0


@pytest.mark.parametrize("x", ["2.5", "-3"])
def test_cnd_past_the_end_of_the_support_is_refused_at_once(x):
    """approx-dp(1, 0.1): F(2.5) = 1 - f(F(1.5)) = 1 - f(0.9477) = 1 exactly (f = 0 past 1 - delta = 0.9), so the
    tail is a structural 0, which no precision verifies: it ran 73 s and exhausted 20000 digits (exit 3)."""
    line = assert_usage_error(run(("cnd", "approx-dp", "--eps", "1", "--delta", "0.1", "--x", x)), f"x={x}")
    assert "f vanishes" in line


def test_mutation_zero_tail_not_refused_is_caught(monkeypatch):
    """Without the tail check (SMALLEST_TAIL = 0: no tail is ever below it) the floating 0 goes to ``verified``,
    which escalates the precision and fails (capped here at 200 digits, so the former 73 s take a second)."""
    from numeric import cnd as C
    from numeric import precision as P
    monkeypatch.setattr(C, "SMALLEST_TAIL", C.mpmath.mpf(0))
    monkeypatch.setattr(P.verified, "__kwdefaults__", {"max_dps": 200})
    with pytest.raises(AssertionError):
        test_cnd_past_the_end_of_the_support_is_refused_at_once("2.5")


def test_select_rho_alpha0_prints_its_own_equation():
    """--target rho-alpha0 --value 2 printed "(eps = log(V/alpha_0))", the power target's form (V = R alpha0),
    which reads as log(2000); it is log(R) = log 2 (Laplace: rho_alpha0 = e^eps on its first piece, by hand)."""
    res = run(("select", "laplace", "--target", "rho-alpha0", "--value", "2", "--alpha0", "0.001"))
    assert res.rc == 0 and "log(R)" in res.out and "V" not in res.out
    out = run(("select", "gaussian", "--target", "rho-alpha0", "--value", "5", "--alpha0", "0.01", "--json")).json()
    assert "R*alpha_0" in out["solution"] and out["equation"].endswith(", R)")


def test_mutation_rho_alpha0_shown_as_power_is_caught(monkeypatch):
    from numeric import design as DS
    monkeypatch.setattr(DS, "RHO_ALPHA0", DS.sp.Symbol("V", positive=True) / DS.D.alpha0)
    with pytest.raises(AssertionError):
        test_select_rho_alpha0_prints_its_own_equation()


def test_non_ascii_digits_are_refused():
    """An Arabic-Indic digit three was read as 3 (Python's \\d matches every Unicode digit)."""
    assert_usage_error(run(("tradeoff", "laplace", "--eps", "\u0663", "--alpha", "0.1")), "eps=")


def test_max_relative_loss_range_matches_its_refusal():
    """0 was inside the stated range [0, 1) but refused later (reached only as mu -> inf); the range is (0, 1)."""
    line = assert_usage_error(run(("ztest", "--n", "100", "--sigma", "1", "--m", "0.1", "--alpha", "0.05",
                                   "--min-mu", "--max-relative-loss", "0")), "max_relative_loss=0")
    assert "(0, 1)" in line
