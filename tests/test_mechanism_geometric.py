"""The geometric mechanism (derive/mechanisms/geometric.py), checked against the discrete Laplace laws.

Every reference here is computed from the two laws P = DLap(0), Q = DLap(1), P(k) = (1 - r)/(1 + r) r^|k|,
r = e^-eps, summed over the integers |k| <= K at 40 digits (the tail beyond K is below r^K, far under the
tolerance), by brute force: the Neyman-Pearson test of the sorted likelihood ratios, the hockey-stick sum,
the ROC polygon's area, the KL sum, and the binomial law of the composed loss.  None of them uses the
f_{eps,0} closed form of the record; SymPy derives the two masses the module's docstring states.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from cli_runner import run

EPSES = ("0.3", "1", "2.5")
DPS = 40


def _laws(eps: str):
    """[(k, P(k), Q(k))] for |k| <= K with e^{-eps K} < 1e-60."""
    e = mpmath.mpf(eps)
    r = mpmath.exp(-e)
    big = int(140 / e) + 2
    c = (1 - r) / (1 + r)
    return [(k, c * r ** abs(k), c * r ** abs(k - 1)) for k in range(-big, big + 2)]


def _np_beta(eps: str, alpha) -> mpmath.mpf:
    """inf of Q-acceptance over tests of P-level alpha: reject where Q/P is largest first (randomised)."""
    atoms = sorted(_laws(eps), key=lambda t: t[2] / t[1], reverse=True)
    spent, power = mpmath.mpf(0), mpmath.mpf(0)
    for _, p, q in atoms:
        if spent + p >= alpha:
            return 1 - power - q * (alpha - spent) / p
        spent, power = spent + p, power + q
    return mpmath.mpf(0)


def _hockey(eps: str, t) -> mpmath.mpf:
    """delta(t) = sum_k (Q(k) - e^t P(k))_+ (the profile of T(P, Q))."""
    et = mpmath.exp(mpmath.mpf(t))
    return mpmath.fsum(max(q - et * p, 0) for _, p, q in _laws(eps))


def _json(*args):
    return run(args + ("--json", "--digits", "20")).json()


def test_sympy_derives_the_two_masses_of_the_docstring():
    e, k = sp.symbols("e k", positive=True)
    r = sp.exp(-e)
    pmf = (1 - r) / (1 + r) * r ** k           # P(-k), k >= 0
    p_left = sp.summation(pmf, (k, 0, sp.oo))
    q_left = sp.summation(pmf, (k, 1, sp.oo))  # Q(k <= 0) = P(k <= -1)
    assert sp.simplify(p_left - 1 / (1 + r)) == 0
    assert sp.simplify(q_left - r / (1 + r)) == 0


@pytest.mark.parametrize("eps", EPSES)
@pytest.mark.parametrize("alpha", ("1e-12", "0.05", "0.3", "0.9"))
def test_tradeoff_is_the_neyman_pearson_test_of_the_laws(eps, alpha):
    out = _json("tradeoff", "geometric", "--eps", eps, "--alpha", alpha)
    with mpmath.workdps(DPS):
        ref = _np_beta(eps, mpmath.mpf(alpha))
        assert abs(mpmath.mpf(out["beta"]) - ref) <= mpmath.mpf(10) ** -18 * max(ref, 1e-30), (eps, alpha, ref)
        assert abs(mpmath.mpf(out["power"]) - (1 - ref)) <= mpmath.mpf(10) ** -18


@pytest.mark.parametrize("eps", EPSES)
@pytest.mark.parametrize("t", ("-1", "0", "0.2"))
def test_profile_is_the_hockey_stick_sum(eps, t):
    out = _json("profile", "geometric", "--eps", eps, "--at-eps", t)
    with mpmath.workdps(DPS):
        ref = _hockey(eps, t)
        assert abs(mpmath.mpf(out["delta"]) - ref) <= mpmath.mpf(10) ** -18 * max(ref, 1), (eps, t, ref)


def test_eps_of_delta_inverts_the_hockey_stick_sum():
    out = _json("profile", "geometric", "--eps", "1", "--at-delta", "0.01")
    with mpmath.workdps(DPS):
        root = mpmath.findroot(lambda t: _hockey("1", t) - mpmath.mpf("0.01"), (0, 1), solver="anderson")
        assert abs(mpmath.mpf(out["eps"]) - root) < mpmath.mpf(10) ** -18


def test_auc_is_the_area_of_the_roc_polygon():
    out = _json("auc", "geometric", "--eps", "1")
    with mpmath.workdps(DPS):
        atoms = sorted(_laws("1"), key=lambda t: t[2] / t[1], reverse=True)
        area, x, y = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
        for _, p, q in atoms:                          # trapezoids of (alpha, power)
            area += p * (y + y + q) / 2
            x, y = x + p, y + q
        area += (1 - x) * (y + 1) / 2
        assert abs(mpmath.mpf(out["auc"]) - area) < mpmath.mpf(10) ** -18


def test_risk_and_posterior_against_the_laws():
    out = _json("risk", "geometric", "--eps", "0.7")
    assert out["failure"] == "none" and Fraction(out["f0"]) == 1
    with mpmath.workdps(DPS):
        laws = _laws("0.7")
        top = max(q / p for _, p, q in laws)           # the largest likelihood ratio is rho
        assert abs(mpmath.mpf(out["rho"]) - top) < mpmath.mpf(10) ** -18
        post = _json("posterior", "geometric", "--eps", "0.7", "--alpha", "0.2", "--prior", "0.3")
        power = 1 - _np_beta("0.7", mpmath.mpf("0.2"))
        pi = mpmath.mpf("0.3")
        ref = pi * power / (pi * power + (1 - pi) * mpmath.mpf("0.2"))
        assert abs(mpmath.mpf(post["posterior"]) - ref) < mpmath.mpf(10) ** -18


def test_kl_functional_and_the_pure_link():
    out = _json("functional", "geometric", "--eps", "1", "--name", "kl")
    with mpmath.workdps(DPS):
        ref = mpmath.fsum(p * mpmath.log(p / q) for _, p, q in _laws("1"))
        assert abs(mpmath.mpf(out["value"]) - ref) < mpmath.mpf(10) ** -18
    link = _json("link", "geometric", "--eps", "1", "--to", "pure")
    assert abs(mpmath.mpf(link["eps"]) - 1) < mpmath.mpf(10) ** -18


def test_reference_catches_a_wrong_eps():
    """The brute-force references can fail: the trade-off function of eps = 1.01 is not eps = 1's."""
    out = _json("tradeoff", "geometric", "--eps", "1.01", "--alpha", "0.05")
    with mpmath.workdps(DPS):
        assert abs(mpmath.mpf(out["beta"]) - _np_beta("1", mpmath.mpf("0.05"))) > 1e-4
