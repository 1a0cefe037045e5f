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


def _binomial_composition(eps: str, k: int):
    """[(P-mass, Q-mass)] of the k-fold composed loss: j steps land in k <= 0 (loss +eps), k - j in k >= 1."""
    e = mpmath.mpf(eps)
    p = 1 / (1 + mpmath.exp(-e))           # P(k <= 0)
    q = 1 - p                              # Q(k <= 0) = r/(1 + r) = 1 - p
    return [(mpmath.binomial(k, j) * p ** j * q ** (k - j), mpmath.binomial(k, j) * q ** j * p ** (k - j))
            for j in range(k + 1)]


@pytest.mark.parametrize("method", ("auto", "numeric"))
def test_compose_fdp_against_the_binomial_law(method):
    """delta(eps') of 10 x geometric(0.7) = sum_j (Q_j - e^eps' P_j)_+ of the composed two-point losses;
    the exact route (auto) gives it to 20 digits, the engine's certified bracket contains it."""
    out = _json("compose", "fdp", "geometric", "--eps", "0.7", "--k", "10", "--at-eps", "1.5", "--method", method)
    with mpmath.workdps(DPS):
        et = mpmath.exp(mpmath.mpf("1.5"))
        ref = mpmath.fsum(max(qj - et * pj, 0) for pj, qj in _binomial_composition("0.7", 10))
        if method == "auto":               # the exact route: lower = upper = the value to 20 verified digits
            assert out["route"] == "binomial" and abs(mpmath.mpf(out["delta"]) - ref) < mpmath.mpf(10) ** -19 * ref
        else:                              # the engine: a certified bracket
            lo, hi = mpmath.mpf(out["delta_lower"]), mpmath.mpf(out["delta_upper"])
            assert lo <= ref <= hi, (lo, ref, hi)


def test_subsample_is_the_pure_dp_amplification():
    """C_p(f_{eps,0}) = f_{eps',0}, eps' = log(1 + p (e^eps - 1)) (Dong, Roth, Su 2022, section 4 on
    subsampling pure DP), written out here as the (eps', 0) polygon."""
    out = _json("subsample", "geometric", "--eps", "1", "--p", "0.1", "--alpha", "0.1")
    with mpmath.workdps(DPS):
        ep = mpmath.log(1 + mpmath.mpf("0.1") * mpmath.expm1(1))
        a = mpmath.mpf("0.1")
        ref = max(0, 1 - mpmath.exp(ep) * a, mpmath.exp(-ep) * (1 - a))
        assert abs(mpmath.mpf(out["beta"]) - ref) < mpmath.mpf(10) ** -19


def test_clt_exact_beta_and_the_berry_esseen_mu():
    """The exact beta of 100 x geometric(0.1) at alpha 0.1 is the NP test of the binomial law; the
    Berry-Esseen mu of a +-eps loss is 2 sqrt(k) sinh(eps/2) (mean eps tanh(eps/2), variance
    eps^2 / cosh^2(eps/2))."""
    out = _json("clt", "geometric", "--eps", "0.1", "--k", "100", "--alpha", "0.1")
    with mpmath.workdps(DPS):
        law = sorted(_binomial_composition("0.1", 100), key=lambda t: t[1] / t[0], reverse=True)
        alpha, spent, power = mpmath.mpf("0.1"), mpmath.mpf(0), mpmath.mpf(0)
        for pj, qj in law:
            if spent + pj >= alpha:
                beta = 1 - power - qj * (alpha - spent) / pj
                break
            spent, power = spent + pj, power + qj
        assert abs(mpmath.mpf(out["exact"]) - beta) < mpmath.mpf(10) ** -18, (out["exact"], beta)
        assert abs(mpmath.mpf(out["mu_berry_esseen"]) - 20 * mpmath.sinh(mpmath.mpf("0.05"))) < mpmath.mpf(10) ** -18


def test_plot_tradeoff_data_is_the_np_test(tmp_path):
    png = tmp_path / "g.png"
    res = run(("plot", "tradeoff", "geometric", "--eps", "1", "--out", str(png), "--points", "7"))
    assert res.rc == 0, res.err
    rows = (tmp_path / "g.csv").read_text().splitlines()[1:]
    assert len(rows) >= 7
    with mpmath.workdps(DPS):
        for row in rows:
            alpha, beta = row.split(",")[2:4]
            assert abs(mpmath.mpf(beta) - _np_beta("1", mpmath.mpf(alpha))) < 1e-12, row
