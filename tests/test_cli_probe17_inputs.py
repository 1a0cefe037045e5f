"""Inputs from the seventeenth session's probe that ended in tracebacks (issue #25 "every input answered"):
shuffle at a delta below the float range, and an output path that passes os.access but cannot be opened."""

from __future__ import annotations

import os

import pytest

from cli_runner import assert_usage_error, run


@pytest.mark.parametrize("how", [("--reduction", "standard-clone"), ("--reduction", "stronger-clone"),
                                 ("--randomizer", "binary-rr"), ("--randomizer", "k-rr", "--k", "3")])
@pytest.mark.parametrize("delta", ["1e-400", "5e-324"])
def test_shuffle_refuses_a_delta_below_its_range(how, delta):
    assert_usage_error(run(("shuffle", *how, "--eps0", "1", "--n", "1000", "--at-delta", delta)), "at_delta")


def test_shuffle_answers_at_the_smallest_delta():
    out = run(("shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "1000", "--at-delta", "1e-300",
               "--json", "--quiet")).json()
    assert out["certified"] is True and float(out["eps_upper"]) <= 1.0         # eps0 bounds every shuffled eps


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_sweep_output_that_cannot_be_opened(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("n,batch,target_eps,epochs,delta\n60000,256,1,1,1e-5\n")
    assert_usage_error(run(("dpsgd", "--sweep", str(rows), "--out", "/proc/x.csv")), "out")


@pytest.mark.parametrize("p", ["1e-300", "9.99e-7"])
def test_clt_refuses_a_rate_below_its_range(p):
    """p = 1e-300 printed kl = 1.8e-300 (the truth is ~1e-600) and p = 1e-10 ran past 70 s."""
    line = assert_usage_error(run(("clt", "gaussian", "--mu", "1", "--p", p, "--k", "10", "--at-delta", "1e-5")), "p=")
    assert "at least 1e-6" in line


def test_clt_error_at_a_tiny_alpha_is_the_powers_difference():
    """clt RR(0.1) x 100 at alpha = 1e-300: both betas are 1 - ~1e-285, and their difference (5.9e-37, rounding
    noise) was printed with the verdict "claims more privacy".  The error is p_exact - p_CLT, p_exact ~ 2e-296 (the
    exact route's power) and p_CLT = Phi(mu + Phi^-1(1e-300)) from the printed CLT mu (mpmath, 40 digits)."""
    import mpmath
    out = run(("clt", "randomized-response", "--eps", "0.1", "--k", "100", "--alpha", "1e-300", "--json",
               "--quiet")).json()
    with mpmath.workdps(40):
        mu = mpmath.mpf(out["mu"])
        z = mpmath.findroot(lambda x: mpmath.log(mpmath.ncdf(x)) - mpmath.log(mpmath.mpf("1e-300")), -37)
        p_clt = mpmath.ncdf(mu + z)
    err = mpmath.mpf(out["error_clt"])
    assert err < 0 and abs(err + p_clt) <= 1e-6 * p_clt
    assert out["underestimates"] is False


def test_mutation_power_by_subtraction_is_caught(monkeypatch):
    """The CLT power formed as 1 - beta again: the error is noise and the verdict flips."""
    import mpmath

    from numeric import clt as C
    monkeypatch.setattr(C, "gdp_power", lambda mu, alpha, digits: 1 - C.gdp_beta(mu, alpha, digits))
    out = run(("clt", "randomized-response", "--eps", "0.1", "--k", "100", "--alpha", "1e-300", "--json",
               "--quiet")).json()
    assert not (mpmath.mpf(out["error_clt"]) < -1e-290)


@pytest.mark.parametrize("args,flag", [
    (("profile", "laplace", "--eps", "100", "--at-delta", "0.99999999999999999999"), "at_delta"),
    (("tradeoff", "gaussian", "--mu", "1", "--alpha", "0.9999999999999999999"), "alpha"),
    (("profile", "gaussian", "--mu", "1e308", "--at-delta", "1e-10"), "at_delta")])
def test_fp_path_refuses_where_float64_changes_the_answer(args, flag):
    """eps = 0 against 7.8966 (delta rounded to 1), beta = 0 for an alpha rounded to 1, eps = inf against 5.0e+615."""
    assert_usage_error(run((*args, "--path", "fp")), flag, "--path mp")


def test_fp_path_at_delta_zero():
    """G_1's loss is unbounded, so eps(0) = inf (the float search printed 721664.03); Laplace(1)'s is eps = 1."""
    out = run(("profile", "gaussian", "--mu", "1", "--at-delta", "0", "--path", "fp", "--json", "--quiet")).json()
    assert out["eps"] == "inf"
    out = run(("profile", "laplace", "--eps", "1", "--at-delta", "0", "--path", "fp", "--json", "--quiet")).json()
    assert float(out["eps"]) == 1.0


@pytest.mark.parametrize("flag", [("--quantile", "0.5"), ("--x", "1")])
def test_cnd_refuses_digits_it_cannot_reach_in_seconds(flag):
    """--digits 1000 ran past 70 s (--quantile 0.5) and 90 s (--x 1)."""
    line = assert_usage_error(run(("cnd", "gaussian", "--mu", "1", *flag, "--digits", "1000")), "digits")
    assert "at most 200" in line


def test_dpsgd_calibration_at_the_search_floor_says_so():
    """--target-eps 1e308 printed "sigma = 0.3 (smallest meeting eps <= 1e308)": 0.3 is only the search's floor."""
    res = run(("dpsgd", "--n", "60000", "--batch", "256", "--epochs", "1", "--target-eps", "1e308", "--at-delta",
               "1e-5", "--quiet"))
    assert res.rc == 0 and "smallest sigma searched" in res.out and "smallest meeting" not in res.out


def test_dpsgd_no_clt_gap_against_an_open_bracket():
    """At delta = 1e-400 the bracket is [88.99, inf], not certified: "understates the certified eps by inf" is gone."""
    res = run(("dpsgd", "--n", "60000", "--batch", "256", "--sigma", "1", "--epochs", "1", "--at-delta", "1e-400",
               "--quiet"))
    assert res.rc == 0 and "by inf" not in res.out and "not certified" in res.out


def test_unknown_flag_is_named_before_the_required_group():
    """--alph was reported as "one of the arguments --alpha --alpha-grid is required"."""
    line = assert_usage_error(run(("tradeoff", "gaussian", "--mu", "1", "--alph", "0.05")), "--alph")
    assert "is not an argument of this command" in line and "did you mean --alpha?" in line


def test_discrete_gaussian_engine_range_names_sigma2():
    """sigma2 = 1e-1000 was refused as "eps=1000...0 (1001 digits): the engine needs a parameter <= 100"."""
    line = assert_usage_error(run(("compose", "fdp", "discrete-gaussian", "--sigma2", "1e-1000", "--k", "3",
                                   "--at-delta", "0.1")), "sigma2=1e-1000")
    assert "eps=" not in line


def test_negative_range_end_is_short():
    line = assert_usage_error(run(("profile", "gaussian", "--mu", "1", "--at-eps", "inf")), "eps=inf")
    assert "[-1e308, 1e308]" in line
