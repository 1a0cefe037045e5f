"""Issue #25 ("Tracebacks or hangs"): each input ends within seconds with a correct answer or one line
naming the parameter, its value and the valid range (exit 2)."""

from __future__ import annotations

import time

import pytest

from cli_runner import assert_usage_error, run

#: seconds any of these may take in-process (they took 20 s to > 120 s, or raised, before)
BOUND = 20


def timed(*args):
    start = time.monotonic()
    res = run(args)
    assert time.monotonic() - start < BOUND, f"{args}: {time.monotonic() - start:.0f} s"
    return res


# item 1: eps(delta) of G_mu for a huge mu (a proved asymptotic bracket; > 90 s, or an ArithmeticError)
@pytest.mark.parametrize("mu, eps", [("1e150", "5.00000000000000e+299"), ("1e200", "5.00000000000000e+399"),
                                     ("1e5", "5000426488.07941")])
def test_profile_eps_of_huge_mu(mu, eps):
    d = timed("profile", "gaussian", "--mu", mu, "--at-delta", "1e-5", "--json").json()
    assert d["eps"] == eps


def test_profile_eps_of_moderate_mu_unchanged():
    d = timed("profile", "gaussian", "--mu", "1e5", "--at-delta", "1e-5", "--digits", "30", "--json").json()
    # mu^2/2 + mu z, z = PhiInv(1 - 1e-5) = 4.26489..., minus the e^eps Phi(-t - mu) correction ~ 1e-5 mu
    assert d["eps"].startswith("5000426488.079")


# item 2: eps(delta) past 2^1000 (closed forms) or past 2^17 (the numerical supremum, which used to
# answer eps = 230259 for any larger eps, silently)
@pytest.mark.parametrize("argv", [
    ("profile", "laplace", "--eps", "1e302", "--at-delta", "1e-5"),
    ("profile", "randomized-response", "--eps", "1e302", "--at-delta", "1e-5"),
    ("profile", "noise", "--family", "logistic", "--mu", "3e5", "--at-delta", "1e-5"),
    ("profile", "noise", "--family", "gaussian", "--mu", "1e3", "--at-delta", "1e-5"),
    ("profile", "noise", "--family", "laplace", "--mu", "1e302", "--at-delta", "1e-5"),
])
def test_profile_eps_beyond_the_search(argv):
    assert_usage_error(timed(*argv), "delta=1e-5", "eps(delta) <= 2^")


def test_approx_dp_with_huge_eps_still_answers_inf():
    d = timed("profile", "approx-dp", "--eps", "1e302", "--delta", "0.1", "--at-delta", "1e-5", "--json").json()
    assert d["eps"] == "inf"


# item 3: the CLT of steps whose loss variance cancels away
@pytest.mark.parametrize("mu", ["1e308", "1e100", "1e20"])
def test_clt_huge_mu_refused(mu):
    assert_usage_error(timed("clt", "gaussian", "--mu", mu, "--k", "10", "--alpha", "0.1"), "mu=", "kappa2 - kl^2")


# item 4: the CND's CDF far in the tail
@pytest.mark.parametrize("x", ["40", "10000", "-10000"])
def test_cnd_far_tail_refused(x):
    assert_usage_error(timed("cnd", "gaussian", "--mu", "1", "--x", x), f"x={x}", "1 - F(|x|) >= 1.0e-60")


def test_cnd_tail_within_the_bound_answers():
    d = timed("cnd", "gaussian", "--mu", "1", "--x", "15", "--json").json()
    assert d["survival"] == "3.67096619931275e-51"


# item 5: the seed of --sample
@pytest.mark.parametrize("seed", ["-1", "1.5", "1e300"])
def test_cnd_bad_seed(seed):
    assert_usage_error(run(("cnd", "laplace", "--eps", "1", "--sample", "3", "--seed", seed)),
                       f"seed={seed}", "[0, 1.0e+38]")


def test_cnd_seed_is_an_int_in_json():
    assert run(("cnd", "laplace", "--eps", "1", "--sample", "3", "--seed", "3", "--json")).json()["seed"] == 3


# item 6: --spec not UTF-8
@pytest.mark.parametrize("command", [("compose", "fdp"), ("clt",)])
def test_spec_not_utf8(tmp_path, command):
    spec = tmp_path / "bad.json"
    spec.write_bytes(b'\xff\xfe{"mechanisms": []}')
    assert_usage_error(run((*command, "--spec", str(spec), "--alpha", "0.1")), "spec=", "UTF-8")


# item 7: files of plot and figures
pytest.importorskip("matplotlib")


@pytest.mark.parametrize("extra, words", [
    (("--out", "g.png", "--data", "missing/x.csv"), ("data=missing/x.csv", "existing directory")),
    (("--out", "g.png", "--data", "adir"), ("data=adir", "not a folder")),
    (("--out", "g.png", "--data", "/sys/x.csv"), ("data=/sys/x.csv",)),
    (("--out", "d.png"), ("out=d.png", "not a folder")),
    (("--out", "missing/g.png"), ("out=missing/g.png", "existing directory")),
    (("--out", "/sys/g.png"), ("out=/sys/g.png",)),
])
def test_plot_files(tmp_path, monkeypatch, extra, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "d.png").mkdir()
    assert_usage_error(run(("plot", "tradeoff", "gaussian", "--mu", "1", *extra)), *words)


def test_plot_unwritable_by_permissions(tmp_path, monkeypatch):
    import os
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert_usage_error(run(("plot", "tradeoff", "gaussian", "--mu", "1", "--out", "g.png")),
                       "out=g.png", "writable directory")


def test_figures_unwritable():
    assert_usage_error(run(("figures", "--paper", "001", "--out", "/sys/figs")), "out=/sys/figs")


def test_profile_eps_of_huge_classical_gaussian_through_the_gdp_capability():
    """classical-gaussian is G_mu too (the ``gdp_mu`` fact), so it gets the same bracket: eps(delta) = mu^2/2 +
    mu z_{1-delta} + O(1/mu) with mu = eps/sqrt(2 ln(1.25/delta)); the reference is that expansion in plain
    mpmath at 40 digits (mu z / (mu^2/2) ~ 1e-149 below the printed digits)."""
    import mpmath
    d = timed("profile", "classical-gaussian", "--eps", "1e150", "--delta", "1e-5", "--at-delta", "1e-5",
              "--json").json()
    with mpmath.workdps(40):
        mu = mpmath.mpf(10) ** 150 / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / mpmath.mpf("1e-5")))
        ref = mu * mu / 2 + mu * (-mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("1e-5") - 1))
        assert abs(mpmath.mpf(d["eps"]) / ref - 1) < mpmath.mpf("1e-14")
