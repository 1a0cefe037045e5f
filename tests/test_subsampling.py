"""C_p(f), privacy amplification by subsampling (numeric/subsampling.py, ``dp-derive subsample``).

References, independent of the code under test:
* the Poisson-subsampled Gaussian pair integrated directly: M = (1-p) N(0,1) + p N(mu,1) against
  B = N(0,1); the likelihood ratio M/B = 1 - p + p e^{mu x - mu^2/2} is monotone, so the hockey
  stick of each direction is a difference of normal tails at the crossing point (mpmath, 40 digits);
* the conjugate definition delta(eps) = sup_x 1 - C(x) - e^eps x by a dense grid plus golden-section
  refinement of the code's own C(x) (checks the profile route against the trade-off route);
* randomized response below its fixed point: C_p(f)(alpha) = 1 - (p e^eps + 1 - p) alpha by hand;
* p = 1 gives the record itself; C_p(f) is symmetric (C(C(x)) = x);
* the certified engine (numeric/pld.py) brackets the single-step Gaussian value.
"""

from __future__ import annotations

import json

import mpmath
import pytest

import derive
from cli_runner import assert_usage_error, run
from numeric import subsampling as S


def _poisson_gaussian_delta(mu, p, eps):
    with mpmath.workdps(40):
        mu, p, E = mpmath.mpf(mu), mpmath.mpf(p), mpmath.exp(mpmath.mpf(eps))
        # remove: (M - E B)_+ on x > x0, M/B = E at x0
        x0 = (mpmath.log((E - (1 - p)) / p) + mu**2 / 2) / mu
        remove = (1 - p) * mpmath.ncdf(-x0) + p * mpmath.ncdf(mu - x0) - E * mpmath.ncdf(-x0)
        add = mpmath.mpf(0)
        if 1 / E > 1 - p:                          # add: (B - E M)_+ on x < x1
            x1 = (mpmath.log((1 / E - (1 - p)) / p) + mu**2 / 2) / mu
            add = mpmath.ncdf(x1) - E * ((1 - p) * mpmath.ncdf(x1) + p * mpmath.ncdf(x1 - mu))
        return max(remove, add)


@pytest.mark.parametrize("mu,p", [("1", "0.1"), ("2", "0.5"), ("0.5", "0.01")])
@pytest.mark.parametrize("eps", ["0", "0.05", "0.5", "2"])
def test_delta_is_the_poisson_pair_integrated(mu, p, eps):
    got = S.delta(derive.gaussian(mu), p, eps, 25).value
    ref = _poisson_gaussian_delta(mu, p, eps)
    assert abs(got - ref) <= mpmath.mpf(10) ** -24 * ref


@pytest.mark.slow
def test_profile_and_tradeoff_agree_by_conjugacy():
    """delta(eps) = sup_x 1 - C(x) - e^eps x, the sup found by brute force on the code's C."""
    for rec, p in ((derive.gaussian("1"), "0.2"), (derive.laplace("1.5"), "0.3")):
        s = S.Subsampled(rec, p)
        for eps in ("0.1", "0.7"):
            with mpmath.workdps(30):
                E = mpmath.exp(mpmath.mpf(eps))

                def h(x):
                    return 1 - s.tradeoff(x)[0] - E * x
                xs = [mpmath.mpf(i) / 400 for i in range(401)]
                i = max(range(401), key=lambda j: h(xs[j]))
                lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, 400)]
                g = (mpmath.sqrt(5) - 1) / 2
                for _ in range(120):
                    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
                    if h(a) < h(b):
                        lo = a
                    else:
                        hi = b
                sup = h((lo + hi) / 2)
            got = S.delta(rec, p, eps, 20).value
            assert abs(got - sup) <= mpmath.mpf(10) ** -15 * sup


def test_randomized_response_below_the_fixed_point():
    got = S.tradeoff(derive.randomized_response("2"), "0.01", "1e-300", 20)
    with mpmath.workdps(40):
        ref = (mpmath.mpf("0.01") * mpmath.exp(2) + mpmath.mpf("0.99")) * mpmath.mpf("1e-300")
    assert abs(got.complement - ref) <= mpmath.mpf(10) ** -19 * ref


def test_p_one_is_the_record_and_the_result_is_symmetric():
    from numeric import mp
    g = derive.gaussian("1.3")
    for a in ("1e-50", "0.2", "0.7"):
        assert abs(S.tradeoff(g, "1", a, 20).value - mp.tradeoff(g, a, 20)) <= mpmath.mpf(10) ** -19
    s = S.Subsampled(derive.gaussian("2"), "0.3")
    with mpmath.workdps(30):
        for x in ("0.01", "0.2", "0.5", "0.8"):
            y = s.tradeoff(mpmath.mpf(x))[0]
            assert abs(s.tradeoff(y)[0] - mpmath.mpf(x)) <= mpmath.mpf(10) ** -25


def test_engine_brackets_the_single_step():
    from numeric import pld
    from numeric import pld_mechanisms as M
    comp = pld.compose([(M.subsampled_gaussian("0.1", "1"), 1)])
    for a in ("1e-10", "0.1", "0.6"):
        ex = S.tradeoff(derive.gaussian("1"), "0.1", a, 20)
        r = comp.tradeoff(a)
        assert r.power_lower <= ex.complement <= r.power
    for e in ("0", "1"):
        ex = S.delta(derive.gaussian("1"), "0.1", e, 20).value
        r = comp.delta(e)
        assert r.delta_lower <= ex <= r.delta_upper


def test_mutation_wrong_amplified_eps_is_caught(monkeypatch):
    orig = S.Subsampled.delta_f
    monkeypatch.setattr(S.Subsampled, "delta_f", lambda self, e: orig(self, e * (1 + mpmath.mpf(10) ** -9)))
    got = S.delta(derive.gaussian("1"), "0.1", "0.5", 20).value
    ref = _poisson_gaussian_delta("1", "0.1", "0.5")
    assert abs(got - ref) > mpmath.mpf(10) ** -12 * ref


# ------------------------------------------------------------------ CLI


def test_cli_fields_single_step():
    out = json.loads(run(("subsample", "gaussian", "--mu", "1", "--p", "0.1", "--at-eps", "0.5", "--json",
                          "--digits", "20")).out)
    assert out["method"] == "exact" and out["certified"] is True and out["sampling"] == "poisson"
    assert out["delta"] == out["delta_lower"] == out["delta_upper"]
    ref = _poisson_gaussian_delta("1", "0.1", "0.5")
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(out["delta"]) - ref) <= mpmath.mpf(10) ** -19 * ref


def test_cli_composed_gaussian_bracket():
    out = json.loads(run(("subsample", "gaussian", "--mu", "1", "--p", "0.1", "--k", "3", "--at-eps", "1",
                          "--json")).out)
    assert out["method"] == "numeric" and out["k"] == 3
    assert float(out["delta_lower"]) <= float(out["delta_upper"]) == float(out["delta"])


@pytest.mark.parametrize("args,words", [
    ("gaussian --mu 1 --p 0 --alpha 0.1", ["p=0", "(0, 1]"]),
    ("classical-gaussian --eps 1 --delta 1e-5 --p 0.1 --k 5 --alpha 0.1", ["k=5", "gaussian or laplace"]),
    ("gaussian --mu 1 --p 0.1 --k 5 --sampling fixed --alpha 0.1", ["sampling", "uniform"]),
    ("uniform-sampling --mu 1 --n 5 --p 0.1 --alpha 0.1", ["uniform-sampling"]),
    # parameters the engine cannot take: tracebacks (ZeroDivisionError, OverflowError) before the
    # engine's largest-parameter rule
    ("gaussian --mu 1e300 --p 0.5 --k 2 --at-delta 1e-5", ["mu=1e300", "<= 100"]),
    ("laplace --eps 1e6 --p 0.5 --k 2 --at-delta 1e-5", ["eps=1e6", "<= 100"]),
    ("gaussian --mu 1e-9 --p 0.5 --k 2 --at-delta 1e-5", ["mu=1e-9", ">= 1e-8"]),
])
def test_cli_bad_input(args, words):
    assert_usage_error(run(("subsample", *args.split())), *words)


def test_no_privacy_limit_is_f_0_p():
    """mu = inf: f = 0, and C_p(0) = max(0, 1 - p - alpha) = f_{0,p} (the hull of (1-p)(1-alpha) and its
    inverse), by hand."""
    out = json.loads(run(("subsample", "gaussian", "--mu", "inf", "--p", "0.01", "--alpha", "0.05", "--json")).out)
    assert out["beta"] == "0.940000000000000" and out["power"] == "0.0600000000000000"
    out = json.loads(run(("subsample", "laplace", "--eps", "inf", "--p", "0.01", "--at-eps", "3", "--json")).out)
    assert out["delta"] == "0.0100000000000000"
