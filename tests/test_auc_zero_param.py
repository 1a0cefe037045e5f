"""AUC at a zero privacy-loss parameter: the logistic pair's closed form is 0/0 at mu = 0 (`auc noise --family
logistic --mu 0` raised "no mpmath kernel for NaN", found by the long fuzz run).  Reference: with no privacy
loss f(alpha) = 1 - alpha, so AUC = 1 - int_0^1 (1 - alpha) d alpha = 1/2 exactly."""

from __future__ import annotations

import pytest

from cli_runner import run


@pytest.mark.parametrize("argv", [
    ("auc", "noise", "--family", "logistic", "--mu", "0"),
    ("auc", "exponential", "--eps", "0", "--outcomes", "3"),
    ("auc", "gaussian", "--mu", "0"),
])
def test_auc_is_one_half_without_privacy_loss(argv):
    res = run((*argv, "--json"))
    assert res.rc == 0, res.err
    assert res.json()["auc"].startswith("0.50000000000000")
