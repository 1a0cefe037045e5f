"""A zero parameter is perfect privacy only when every loss-carrying parameter is 0.

Regression: ``compose fdp`` dropped every entry whose eps (approx-dp's first parameter) was 0 as the
identity Id, although f_{0,delta} with delta > 0 has a privacy loss of +inf with probability delta.
``approx-dp --eps 0 --delta 1e-7 --k 10000 --at-eps 0`` answered delta = 0, "perfect privacy",
certified (the truth is 9.995e-4); a spec with 2 x approx-dp(0, 0.1) + gaussian(0.1) answered the
bracket of G_0.1 alone, [0.039862, 0.039878], for the true 0.2223.  Once such an entry reached the
engine, its pair (a single finite atom L = 0) had a lower measure of finite mass 0 (a NaN crash), and
the engine's P(L = +inf) lost small masses to cancellation and rounding (three (0, 1e-12) steps: a
lower end above the exact value; three (0, 1e-30) steps: the mass cancelled to 0).

References, all computed here in mpmath at 50 digits, independently of the code under test:

* k copies of f_{0,delta}: each step's loss is +inf (under P) with probability delta and exactly 0
  otherwise, so the composed loss is 0 with probability (1 - delta)^k and +inf otherwise; that is the
  pair of f_{0,D} with D = 1 - (1 - delta)^k.  Hence delta(0) = D (written out below), eps(0) = inf
  (P(L = +inf) = D > 0, so delta(eps) >= D > 0 at every eps), and
  f(alpha) = max(0, 1 - D - alpha) (the formula of f_{eps,delta} at eps = 0).
* f_{0,D} x G_mu: the loss is +inf with probability D (the approx-dp steps), else the Gaussian loss,
  so delta(eps) = E_P[(1 - e^{eps - L})_+] = D + (1 - D) delta_G(eps), with delta_G(0) = 2 Phi(mu/2) - 1
  (G_mu's profile Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) at eps = 0).  Cross-checked in the
  test by a second route: the hockey stick sum_{i,j} int (p_ij phi(x - mu) - q_ij phi(x))_+ dx over the
  16 outcomes of the two explicit 4-point pairs (P = (d, (1-d)/2, (1-d)/2, 0), Q reversed), each
  integral from the crossing point x0 by normal tails (checked once against mpmath.quad: same 50 digits).
  For the trade-off: reject on the outcomes of Q-mass 0 (P-mass D) for free, spend alpha on the rest,
  which is G_mu scaled by 1 - D: f(alpha) = (1 - D) G_mu(alpha / (1 - D)) for alpha <= 1 - D, with
  G_mu(a) = Phi(Phi^{-1}(1 - a) - mu).
"""

from __future__ import annotations

import json

import mpmath
import pytest

from cli_runner import run

DPS = 50


def _lost(delta, k):
    """D = 1 - (1 - delta)^k, the probability that some step's loss is +inf."""
    with mpmath.workdps(DPS):
        return 1 - (1 - mpmath.mpf(delta)) ** k


def _inside(lower, upper, truth, rel=0):
    """lower <= truth <= upper, up to ``rel`` relative (the last printed digit of an exact route)."""
    with mpmath.workdps(DPS):
        lo, hi = mpmath.mpf(lower), mpmath.mpf(upper)
        slack = rel * abs(truth)
        return lo - slack <= truth <= hi + slack


def _cli(*args):
    return run(("compose", "fdp", *args, "--json")).json()


# the exact route prints 15 verified digits with lower = upper: it must agree with the truth there
EXACT_REL = mpmath.mpf("1e-14")


@pytest.mark.parametrize("k", [10000, 1])
@pytest.mark.parametrize("method", [None, "numeric"])
def test_approx_dp_eps0_delta_at_eps0(k, method):
    """approx-dp (eps 0, delta 1e-7), k copies, delta(0) = 1 - (1 - 1e-7)^k (9.995002165750e-4 at
    k = 10^4, 1e-7 at k = 1); the old code printed delta = 0, "perfect privacy", certified."""
    extra = ("--method", method) if method else ()
    out = _cli("approx-dp", "--eps", "0", "--delta", "1e-7", "--k", str(k), "--at-eps", "0", *extra)
    truth = _lost("1e-7", k)
    assert _inside(out["delta_lower"], out["delta_upper"], truth, 0 if method else EXACT_REL), (out, truth)
    assert out["certified"] is True and "note" not in out          # not the limit "f = Id"
    assert out["method"] == (method or "exact")


@pytest.mark.parametrize("method", [None, "numeric"])
def test_approx_dp_eps0_tradeoff(method):
    """f(0.5) of 10^4 copies of f_{0,1e-7} is max(0, 1 - D - 0.5) = (1 - 1e-7)^10000 - 0.5; the old
    code answered Id: beta = 0.5."""
    extra = ("--method", method) if method else ()
    out = _cli("approx-dp", "--eps", "0", "--delta", "1e-7", "--k", "10000", "--alpha", "0.5", *extra)
    with mpmath.workdps(DPS):
        truth = 1 - _lost("1e-7", 10000) - mpmath.mpf("0.5")
    assert _inside(out["beta_lower"], out["beta_upper"], truth, 0 if method else EXACT_REL), (out, truth)


def test_approx_dp_eps0_is_not_pure():
    """eps at delta = 0: P(L = +inf) = 1 - (1 - 1e-7)^10 > 0, so no finite eps has delta(eps) = 0;
    the old code answered eps = 0 (Id)."""
    out = _cli("approx-dp", "--eps", "0", "--delta", "1e-7", "--k", "10", "--at-delta", "0")
    assert out["eps"] == out["eps_lower"] == out["eps_upper"] == "inf"


def test_identity_still_dropped():
    """A guard for the fix (it passes on the old code too): approx-dp with eps = delta = 0 is Id,
    f_{0,0}(alpha) = 1 - alpha, delta(0) = 0 exactly."""
    out = _cli("approx-dp", "--eps", "0", "--delta", "0", "--k", "10", "--at-eps", "0")
    assert out["delta"] == out["delta_upper"] == "0" and out["method"] == "exact"


MU, D1, COUNT = "0.1", "0.1", 2


def _spec(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanisms": [
        {"mechanism": "approx-dp", "eps": "0", "delta": D1, "count": COUNT},
        {"mechanism": "gaussian", "mu": MU, "count": 1}]}))
    return str(spec)


def _spec_delta0():
    """delta(0) of f_{0,0.1} x f_{0,0.1} x G_0.1 by the mixture formula, cross-checked against the
    hockey stick of the explicit product pair (module docstring): 0.2223008654581633..."""
    with mpmath.workdps(DPS):
        mu, d = mpmath.mpf(MU), mpmath.mpf(D1)
        lost = _lost(D1, COUNT)
        formula = lost + (1 - lost) * (2 * mpmath.ncdf(mu / 2) - 1)
    with mpmath.workdps(30):
        mu, d = mpmath.mpf(MU), mpmath.mpf(D1)
        P1 = [d, (1 - d) / 2, (1 - d) / 2, mpmath.mpf(0)]
        Q1 = [mpmath.mpf(0), (1 - d) / 2, (1 - d) / 2, d]
        total = mpmath.mpf(0)
        for i in range(4):
            for j in range(4):
                p, q = P1[i] * P1[j], Q1[i] * Q1[j]
                if p == 0:
                    continue
                if q == 0:                      # an outcome Q never shows: its whole P-mass counts
                    total += p
                    continue
                x0 = mu / 2 + mpmath.log(q / p) / mu     # p phi(x - mu) >= q phi(x) iff x >= x0
                total += p * mpmath.ncdf(mu - x0) - q * mpmath.ncdf(-x0)
        assert abs(total - formula) < mpmath.mpf(10) ** -25
    return formula


@pytest.mark.parametrize("method", [None, "numeric"])
def test_spec_with_eps0_entries(tmp_path, method):
    """The spec 2 x approx-dp(0, 0.1) + gaussian(0.1) at eps = 0: 0.22230086546 (the old code gave the
    bracket of G_0.1 alone, [0.039862, 0.039878])."""
    extra = ("--method", method) if method else ()
    out = _cli("--spec", _spec(tmp_path), "--at-eps", "0", *extra)
    truth = _spec_delta0()
    assert out["method"] == "numeric" and out["certified"] is True
    assert _inside(out["delta_lower"], out["delta_upper"], truth), (out, truth)


def test_spec_with_eps0_entries_tradeoff(tmp_path):
    """f(0.3) of the same spec: (1 - D) G_0.1(0.3 / (1 - D)), D = 1 - 0.9^2 = 0.19 (module docstring);
    about 0.4790, where G_0.1 alone (the old answer) is about 0.6627."""
    out = _cli("--spec", _spec(tmp_path), "--alpha", "0.3")
    with mpmath.workdps(DPS):
        keep = 1 - _lost(D1, COUNT)
        a = mpmath.mpf("0.3") / keep
        truth = keep * mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mpmath.mpf(MU))
    assert _inside(out["beta_lower"], out["beta_upper"], truth), (out, truth)


@pytest.mark.parametrize("delta, k", [("1e-7", 1), ("1e-12", 3), ("1e-30", 3), ("0.3", 2)])
def test_engine_eps0_pair(delta, k):
    """The engine alone on k copies of the (0, delta) pair: delta(0) = 1 - (1 - delta)^k inside the
    bracket (the old engine divided by the lower measure's finite mass 0, a NaN; with only that
    mended, P(L = +inf) = tot - fin was rounded to nearest and cancelled: at (1e-12, 3) the lower end
    2.9999999999976e-12 lay above the exact 2.999999999997e-12)."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    r = pld.compose([(M.eps_delta("0", delta), k)]).delta("0")
    assert r.certified and _inside(r.delta_lower, r.delta_upper, _lost(delta, k)), (r, _lost(delta, k))


def test_identity_is_asked_of_the_mechanism_table():
    """Which steps are Id is a fact of the mechanism (derive.mechanisms.table), not of the CLI."""
    from derive.mechanisms.table import lookup
    assert lookup("approx-dp").is_identity({"eps": "0", "delta": "0"})
    assert not lookup("approx-dp").is_identity({"eps": "0", "delta": "1e-300"})
    assert lookup("approx-dp").finite_loss_is_zero({"eps": "0", "delta": "1e-7"})
    assert lookup("gaussian").is_identity({"mu": "0"}) and not lookup("gaussian").is_identity({"mu": "1e-300"})
    assert not lookup("discrete-gaussian").is_identity({"sigma2": "4"})
