"""The exponential mechanism (derive/mechanisms/exponential.py), checked against its output laws.

References, none of which uses the record's closed form:
- the laws themselves: P(o) proportional to exp(eps u(D, o)/2) for utility vectors u(D), u(D') with
  |u(D, o) - u(D', o)| <= 1, and the Neyman-Pearson test of the sorted likelihood ratios (brute force);
- the lower envelope over the family u(D) = (x, 0, ..., 0), u(D') = (x - 1, 1, ..., 1), minimised over x
  by a grid refined three times (the docstring's step 2: the envelope is attained);
- random neighbouring utility pairs, M = 2..6, which must all lie above the record (step 1);
- SymPy: the stationary point of 1 - f - e^t alpha gives the printed middle piece of the profile;
- mpmath quadrature of f for the AUC, and a dense grid maximum for the profile.
"""

from __future__ import annotations

import functools
import random

import mpmath
import pytest
import sympy as sp

from cli_runner import run

DPS = 40


def _laws(eps, u, v):
    e = mpmath.mpf(eps)
    wp = [mpmath.exp(e * x / 2) for x in u]
    wq = [mpmath.exp(e * x / 2) for x in v]
    return [p / mpmath.fsum(wp) for p in wp], [q / mpmath.fsum(wq) for q in wq]


def _np_beta(P, Q, alpha):
    atoms = sorted(zip(P, Q), key=lambda t: t[1] / t[0], reverse=True)
    spent, power = mpmath.mpf(0), mpmath.mpf(0)
    for p, q in atoms:
        if spent + p >= alpha:
            return 1 - power - q * (alpha - spent) / p
        spent, power = spent + p, power + q
    return mpmath.mpf(0)


def _family_beta(eps, m, x, alpha):
    u = [mpmath.mpf(x)] + [mpmath.mpf(0)] * (m - 1)
    v = [mpmath.mpf(x) - 1] + [mpmath.mpf(1)] * (m - 1)
    return _np_beta(*_laws(eps, u, v), alpha)


def _envelope(eps, m, alpha):
    """min over x of the family's beta(alpha): a grid on [-80, 80], refined ten times around its best
    (beta is V-shaped in x at its minimum, so the error is the final spacing, ~1e-15, times the slope)."""
    lo, hi = mpmath.mpf(-80), mpmath.mpf(80)
    for _ in range(10):
        xs = [lo + (hi - lo) * i / 100 for i in range(101)]
        vals = [_family_beta(eps, m, x, alpha) for x in xs]
        i = min(range(len(vals)), key=vals.__getitem__)
        lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, 100)]
    return vals[i]


def _json(*args):
    return run(args + ("--json", "--digits", "20")).json()


@functools.lru_cache(maxsize=None)
def _beta(eps, outcomes, alpha):
    return _json("tradeoff", "exponential", "--eps", eps, "--outcomes", outcomes, "--alpha", alpha)["beta"]


@pytest.mark.parametrize("eps", ("0.5", "2"))
@pytest.mark.parametrize("outcomes", ("2", "7"))
@pytest.mark.parametrize("alpha", ("0.01", "0.3", "0.8"))
def test_tradeoff_is_the_lower_envelope_of_the_neighbouring_pairs(eps, outcomes, alpha):
    out = _json("tradeoff", "exponential", "--eps", eps, "--outcomes", outcomes, "--alpha", alpha)
    with mpmath.workdps(DPS):
        env = _envelope(eps, int(outcomes), mpmath.mpf(alpha))
        got = mpmath.mpf(out["beta"])
        assert env >= got - mpmath.mpf(10) ** -19            # below every pair (step 1), to the 20 digits printed
        assert env - got < mpmath.mpf(10) ** -12, (eps, outcomes, alpha, env, got)   # and attained (step 2)


def test_every_random_neighbouring_pair_lies_above_the_record():
    rng = random.Random(20261127)
    eps = "1.3"
    with mpmath.workdps(DPS):
        for _ in range(40):
            m = rng.randint(2, 6)
            u = [mpmath.mpf(rng.uniform(-3, 3)) for _ in range(m)]
            v = [x + mpmath.mpf(rng.uniform(-1, 1)) for x in u]
            P, Q = _laws(eps, u, v)
            for alpha in ("0.02", "0.2", "0.6"):
                f = _beta(eps, str(m), alpha)
                assert _np_beta(P, Q, mpmath.mpf(alpha)) >= mpmath.mpf(f) - mpmath.mpf(10) ** -18


def test_sympy_derives_the_middle_piece_of_the_profile():
    a, e, t = sp.symbols("alpha e t", positive=True)
    power = sp.exp(e) * a / (1 + (sp.exp(e) - 1) * a)
    gain = power - sp.exp(t) * a
    star = [s for s in sp.solve(sp.diff(gain, a), a) if sp.simplify(s.subs({e: 2, t: 1})) > 0]
    assert len(star) == 1
    printed = (sp.exp(e / 2) - sp.exp(t / 2)) ** 2 / (sp.exp(e) - 1)
    assert sp.simplify(gain.subs(a, star[0]) - printed) == 0


@pytest.mark.parametrize("t", ("-3", "-0.5", "0.4", "1.5"))
def test_profile_against_a_dense_grid_maximum(t):
    out = _json("profile", "exponential", "--eps", "1", "--outcomes", "4", "--at-eps", t)
    with mpmath.workdps(DPS):
        et, c = mpmath.exp(mpmath.mpf(t)), mpmath.expm1(1)
        def gain(a):
            return mpmath.e * a / (1 + c * a) - et * a
        best = max(gain(mpmath.mpf(i) / 20000) for i in range(20001))
        got = mpmath.mpf(out["delta"])
        assert got >= best - mpmath.mpf(10) ** -19 and got - best < 1e-8, (t, got, best)   # 20 digits printed


def test_auc_by_quadrature_and_the_functional_by_the_laws():
    out = _json("auc", "exponential", "--eps", "1.5", "--outcomes", "3")
    with mpmath.workdps(DPS):
        c = mpmath.expm1(mpmath.mpf("1.5"))
        ref = 1 - mpmath.quad(lambda a: (1 - a) / (1 + c * a), [0, 1])
        assert abs(mpmath.mpf(out["auc"]) - ref) < mpmath.mpf(10) ** -18


def test_reference_catches_a_wrong_eps():
    """The envelope reference can fail: eps = 2.05's trade-off function is not eps = 2's envelope."""
    out = _json("tradeoff", "exponential", "--eps", "2.05", "--outcomes", "3", "--alpha", "0.3")
    with mpmath.workdps(DPS):
        assert abs(mpmath.mpf(out["beta"]) - _envelope("2", 3, mpmath.mpf("0.3"))) > 1e-4


def _logistic_pair(m):
    """(p, q, log-likelihood ratio) of Logistic(0, 1) against Logistic(m, 1)."""
    def p(x):
        return mpmath.exp(-x) / (1 + mpmath.exp(-x)) ** 2

    def q(x):
        return p(x - m)
    return p, q, lambda x: mpmath.log(p(x) / q(x))


def test_kl_functional_zcdp_link_and_rho_against_the_laws():
    m = mpmath.mpf(1)
    with mpmath.workdps(DPS):
        p, q, loss = _logistic_pair(m)
        kl = mpmath.quad(lambda x: p(x) * loss(x), [-mpmath.inf, 0, m, mpmath.inf])
        out = _json("functional", "exponential", "--eps", "1", "--outcomes", "3", "--name", "kl")
        assert abs(mpmath.mpf(out["value"]) - kl) < mpmath.mpf(10) ** -18, (out["value"], kl)
        risk = _json("risk", "exponential", "--eps", "1", "--outcomes", "3")
        # rho = the supremum of the likelihood ratio q/p, approached as x -> +inf: e^m
        assert abs(mpmath.mpf(risk["rho"]) - mpmath.e) < mpmath.mpf(10) ** -18


def test_compose_fdp_two_steps_against_a_one_dimensional_integral():
    """delta_2(t) = E_P[delta_1(t - L(X))], with delta_1(s) one step's hockey stick E_P[(1 - e^{s - L})_+]
    written as the piecewise profile that test_sympy_derives_the_middle_piece_of_the_profile derives and
    test_profile_against_a_dense_grid_maximum checks (1 - e^s below -m, 0 above m); one quadrature."""
    m = mpmath.mpf("0.8")
    t = mpmath.mpf("0.5")

    def one(s):
        if s <= -m:
            return -mpmath.expm1(s)
        if s >= m:
            return mpmath.mpf(0)
        return (mpmath.exp(m / 2) - mpmath.exp(s / 2)) ** 2 / mpmath.expm1(m)
    with mpmath.workdps(30):
        p, _, loss = _logistic_pair(m)
        # the kinks of delta_1(t - L(x)) sit where L(x) = t -+ m; L decreases from m to -m
        ref = mpmath.quad(lambda x: p(x) * one(t - loss(x)), [-mpmath.inf, -5, 0, 5, mpmath.inf])
    out = run(("compose", "fdp", "exponential", "--eps", "0.8", "--outcomes", "6", "--k", "2", "--at-eps", "0.5",
               "--json")).json()
    assert out["certified"] is True
    assert mpmath.mpf(out["delta_lower"]) <= ref <= mpmath.mpf(out["delta_upper"]), (out, ref)
    assert mpmath.mpf(out["delta_upper"]) - mpmath.mpf(out["delta_lower"]) < 1e-3 * ref


def test_clt_and_plot(tmp_path):
    out = _json("clt", "exponential", "--eps", "0.1", "--outcomes", "5", "--k", "100", "--alpha", "0.1")
    assert mpmath.mpf(out["bracket_lower"]) <= mpmath.mpf(out["bracket_upper"])
    assert abs(mpmath.mpf(out["kl"]) - 100 * _kl_quad("0.1")) < mpmath.mpf(10) ** -16
    png = tmp_path / "e.png"
    res = run(("plot", "tradeoff", "exponential", "--eps", "2", "--outcomes", "3", "--out", str(png), "--points", "7"))
    assert res.rc == 0, res.err
    with mpmath.workdps(DPS):
        for row in (tmp_path / "e.csv").read_text().splitlines()[1:]:
            alpha, beta = row.rsplit(",", 3)[1:3]
            assert abs(mpmath.mpf(beta) - _envelope("2", 3, mpmath.mpf(alpha))) < 1e-12, row


def _kl_quad(eps):
    with mpmath.workdps(DPS):
        m = mpmath.mpf(eps)
        p, _, loss = _logistic_pair(m)
        return mpmath.quad(lambda x: p(x) * loss(x), [-mpmath.inf, 0, m, mpmath.inf])


@pytest.mark.slow
def test_zcdp_link_is_the_kl_limit():
    """sup over lambda of D_lambda/lambda is its limit kl as lambda -> 1+ (found numerically, ~10 s)."""
    link = _json("link", "exponential", "--eps", "1", "--outcomes", "3", "--to", "zcdp")
    assert abs(mpmath.mpf(link["rho"]) - _kl_quad("1")) < mpmath.mpf(10) ** -12


def test_posterior_and_the_pure_link():
    """The posterior after a successful attack at level alpha is pi (1 - f)/(pi (1 - f) + (1 - pi) alpha),
    with f the envelope of the neighbouring pairs; the pure-DP link is eps (the likelihood ratio's range)."""
    post = _json("posterior", "exponential", "--eps", "1", "--outcomes", "3", "--alpha", "0.1", "--prior", "0.3")
    with mpmath.workdps(DPS):
        power = 1 - _envelope("1", 3, mpmath.mpf("0.1"))
        pi, a = mpmath.mpf("0.3"), mpmath.mpf("0.1")
        ref = pi * power / (pi * power + (1 - pi) * a)
        assert abs(mpmath.mpf(post["posterior"]) - ref) < mpmath.mpf(10) ** -12
    link = _json("link", "exponential", "--eps", "1", "--outcomes", "3", "--to", "pure")
    assert abs(mpmath.mpf(link["eps"]) - 1) < mpmath.mpf(10) ** -18
