"""Whether sup_alpha p_post is attained (issue #23: `risk laplace --eps 1` printed 'not attained').

For finite rho the supremum pi rho/(pi rho + 1 - pi) is attained iff 1 - f(alpha) = rho alpha on some
(0, a).  References: Bayes' rule written here with the Laplace law (1 - f(alpha) = e^eps alpha for alpha
<= e^-eps/2), and the logistic ratio (1 - f(alpha))/alpha < e^mu at every alpha > 0 computed from the
logistic CDF in plain mpmath.
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from derive import risk as R
from numeric import risk as NR
from proofs_check import checker


def test_laplace_sup_is_attained_on_the_linear_stretch():
    # eps = 1, prior 1/2, alpha = 0.1 <= e^-1/2: p_post = e alpha/(e alpha + alpha) = e/(1 + e), the sup
    rec = derive.laplace("1")
    r = NR.risk(rec, "0.01", "0.5", 20)
    at = NR.posterior(rec, "0.5", "0.1", 20).posterior
    with mpmath.workdps(40):
        want = mpmath.e / (1 + mpmath.e)
        assert abs(at - want) < mpmath.mpf(10) ** -19 and abs(r.posterior_sup - want) < mpmath.mpf(10) ** -19
    assert r.posterior_sup_attained is True


@pytest.mark.parametrize("rec, want", [
    (derive.randomized_response("2"), True), (derive.approx_dp("1", "0"), True), (derive.gaussian("0"), True),
    (derive.noise("logistic", "1"), False),
])
def test_attained_flag(rec, want):
    assert NR.risk(rec, "0.01", "0.5", 15).posterior_sup_attained is want


def test_logistic_ratio_stays_below_rho():
    # logistic noise, shift mu = 1: 1 - f(alpha) = F(F^-1... ) -> the power P(L + 1 > t), t = log((1 - a)/a)
    with mpmath.workdps(40):
        mu = mpmath.mpf(1)
        for a in ("1e-3", "1e-9"):
            a = mpmath.mpf(a)
            t = mpmath.log((1 - a) / a)
            power = 1 / (1 + mpmath.exp(t - mu))
            assert power / a < mpmath.e * (1 - mpmath.mpf(10) ** -12)
    assert R.sup_attained(derive.noise("logistic", "1"), R.rho(derive.noise("logistic", "1")).value) is False


def test_cli_risk_prints_attained():
    from cli_runner import run
    res = run(("risk", "laplace", "--eps", "1"))
    assert res.rc == 0 and "attained)" in res.out and "not attained" not in res.out


def test_mutation_never_attained_fails_the_claim(monkeypatch):
    monkeypatch.setattr(R, "sup_attained", lambda record, rho: False)
    (c,) = checker.select(claim_id="DF-post-sup")
    assert checker.evaluate(c, timeout=120)["status"] == "FAILED"
