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


def test_exponential_at_a_tiny_eps_is_decided_not_attained():
    """Issue #25 item 4: `risk exponential --eps 1e-300 --outcomes 2` ended in a bare ValueError: the
    difference 1 - f - rho alpha, about -1e-306 at alpha = 1e-3, was read against a fixed threshold 1e-40.
    Reference: the logistic pair's power e^eps a/(1 + (e^eps - 1) a) (derive/mechanisms/exponential.py's
    docstring, written here again) minus e^eps a, in plain mpmath at 700 digits: negative at a = 1e-3, so
    the ratio stays below rho = e^eps and the supremum is not attained.  Mutation: at eps = 0 (1 - f = alpha
    = rho alpha) it is attained."""
    with mpmath.workdps(700):
        eps, a = mpmath.mpf(10) ** -300, mpmath.mpf("1e-3")
        diff = mpmath.exp(eps) * a / (1 + mpmath.expm1(eps) * a) - mpmath.exp(eps) * a
        assert -1e-305 < diff < -1e-307
    rec = derive.exponential("1e-300", 2)
    assert R.sup_attained(rec, R.rho(rec).value) is False
    flat = derive.exponential("0", 2)
    assert R.sup_attained(flat, R.rho(flat).value) is True


def test_cli_risk_exponential_at_a_tiny_eps_answers():
    from cli_runner import run
    d = run(("risk", "exponential", "--eps", "1e-300", "--outcomes", "2", "--json")).json()
    # rho = e^eps = 1 + 1e-300 and sup p_post = rho/(rho + 1) at prior 1/2: 1/2 + 2.5e-301, both print as such
    assert d["failure"] == "none" and d["posterior_sup_attained"] is False
    assert d["rho"] == "1.00000000000000" and d["posterior_sup"] == "0.500000000000000"
