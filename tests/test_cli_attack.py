"""The issue #4 commands, run in-process through ``main(argv)`` (tests/cli_runner.py; a subprocess
would add only start-up time): pr, fscore, fscore-inverse, auc.

Reference values are computed here from the formulas of seed 001 / the catalog
with plain mpmath, not taken from the program's output.
"""

from __future__ import annotations

import json

import mpmath
import pytest

from cli_runner import run as _run


def run(*args):
    r = _run(tuple(args))
    return r.rc, r.out, r.err


def test_pr_json():
    rc, out, _ = run("pr", "laplace", "--eps", "1", "--alpha", "0.01", "--json")
    d = json.loads(out)
    assert rc == 0 and set(d) >= {"precision", "recall", "threshold", "one_minus_precision"}
    with mpmath.workdps(30):
        # recall = e^eps alpha (linear Laplace regime); precision = R/(R + alpha) = e/(e + 1)
        assert abs(mpmath.mpf(d["recall"]) - mpmath.e * mpmath.mpf("0.01")) < 1e-16
        assert abs(mpmath.mpf(d["precision"]) - mpmath.e / (mpmath.e + 1)) < 1e-15


def test_fscore_json_and_branch():
    rc, out, _ = run("fscore", "laplace", "--eps", "2", "--beta", "1", "--json")
    d = json.loads(out)
    assert rc == 0 and d["branch"] == "interior"
    with mpmath.workdps(40):
        # the printed Eq. 12 evaluated here by hand (s = sqrt(1 + 4 e^2), F = (s - 1)/s): this checks the
        # command's plumbing; the formula itself is checked against brute force in test_attack.py
        s = mpmath.sqrt(1 + 4 * mpmath.exp(2))
        assert abs(mpmath.mpf(d["fscore"]) - (s - 1) / s) < 1e-15
    rc, out, _ = run("fscore", "laplace", "--eps", "0.5", "--beta", "1", "--json")
    assert json.loads(out)["branch"] == "plateau"


def test_fscore_gaussian_and_correlations():
    rc, out, _ = run("fscore", "classical-gaussian", "--eps", "1", "--delta", "1e-5", "--beta", "1", "--json")
    assert rc == 0 and 0.66 < float(json.loads(out)["fscore"]) < 1
    rc, out, _ = run("fscore", "laplace", "--eps", "0.1", "--beta", "1", "--rho-p", "0.5", "--json")
    # plateau with w = 1/2: (1 + 1)/(1 + 1 + 1/2) = 0.8
    assert rc == 0 and json.loads(out)["fscore"].startswith("0.8000000")


def test_fscore_inverse_json():
    rc, out, _ = run("fscore-inverse", "laplace", "--beta", "1", "--bound", "0.6", "--json")
    d = json.loads(out)
    assert rc == 0 and d["eps"] is None and d["reason"]
    rc, out, _ = run("fscore-inverse", "laplace", "--beta", "1", "--bound", "0.67", "--json")
    with mpmath.workdps(30):
        # catalog LXM-Eq12-inv with w = 1, beta = 1: s_F = 2/(2(1 - F)), eps = log((s_F^2 - 1)/4)
        s = 1 / (1 - mpmath.mpf("0.67"))
        assert abs(mpmath.mpf(json.loads(out)["eps"]) - mpmath.log((s * s - 1) / 4)) < 1e-14


@pytest.mark.parametrize("args,param", [
    (("fscore", "laplace", "--eps", "1", "--beta", "0"), "beta"),
    (("fscore", "laplace", "--eps", "1", "--beta", "1", "--rho-c", "1"), "rho_c"),
    (("fscore", "laplace", "--eps", "1", "--beta", "1", "--rho-p", "0", "--rho-c", "0.7"), "rho_p"),
    (("fscore", "gaussian", "--mu", "1", "--beta", "1"), "mechanism"),
    (("fscore-inverse", "laplace", "--beta", "1", "--bound", "1"), "bound"),
    (("fscore-inverse", "laplace", "--beta", "1", "--bound", "0"), "bound"),
    (("fscore-inverse", "gaussian", "--beta", "1", "--bound", "0.7"), "mechanism"),
    (("pr", "laplace", "--eps", "1", "--alpha", "2"), "alpha"),
    (("auc", "laplace", "--eps", "-1"), "eps"),
])
def test_bad_input(args, param):
    rc, out, err = run(*args)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert param in err


def test_auc_every_mechanism():
    for args in (("gaussian", "--mu", "1"), ("laplace", "--eps", "1"), ("approx-dp", "--eps", "1", "--delta", "1e-5"),
                 ("uniform-sampling", "--mu", "1", "--n", "5"), ("randomized-response", "--eps", "1"),
                 ("classical-gaussian", "--eps", "1", "--delta", "1e-5"), ("noise", "--family", "logistic", "--mu", "1")):
        rc, out, _ = run("auc", *args, "--digits", "30", "--json")
        d = json.loads(out)
        assert rc == 0 and 0.5 <= float(d["auc"]) <= 1 and len(d["auc"].replace(".", "").lstrip("0")) == 30
    # Gaussian: Phi(1/sqrt 2), computed here with mpmath
    rc, out, _ = run("auc", "gaussian", "--mu", "1", "--digits", "30", "--json")
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(json.loads(out)["auc"]) - mpmath.ncdf(1 / mpmath.sqrt(2))) < mpmath.mpf(10) ** -29
