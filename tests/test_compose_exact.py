"""Exact composition routes (numeric/compose_exact.py; issue #9 item 2).

References, each independent of the route under test:
* brute force: the k-fold product of the 4-point (eps, delta) pair enumerated outcome by outcome
  (4^k outcomes, mpmath at 50 digits), Neyman-Pearson by sorting the likelihood ratios and filling
  the rejection region greedily, and delta(eps) = sum_x (P(x) - e^eps Q(x))_+;
* the printed Kairouz-Oh-Viswanath closed form (``proofs_check.claims_composition.kov_printed``, catalog 004)
  against the binomial law;
* one Laplace step: the seed's closed forms of the Laplace record (numeric.mp on
  derive.mechanisms.laplace); two steps: delta_2(eps) = E_P[delta_1(eps - L_1)], a 1-D quadrature of
  the one-step profile (the one-step tails are those of numeric/pld_mechanisms.py's docstring,
  written out again here) against the one-step law of L_1;
* GDP: Phi(Phi^{-1}(1 - alpha) - mu) with mu = sqrt(sum mu_i^2), mpmath's ncdf directly;
* the certified numeric engine (numeric/pld.py) must bracket every exact value.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest

from numeric import compose_exact as X

DPS = 50


def _pair(eps, delta):
    """The 4-point pair (P, Q) of f_{eps,delta} as lists (mpmath at the working precision)."""
    e = mpmath.mpf(eps)
    d = mpmath.mpf(delta)
    big = (1 - d) * mpmath.exp(e) / (1 + mpmath.exp(e))
    small = (1 - d) / (1 + mpmath.exp(e))
    return [d, big, small, mpmath.mpf(0)], [mpmath.mpf(0), small, big, d]


def _product(eps, delta, k):
    P1, Q1 = _pair(eps, delta)
    out = []
    for idx in itertools.product(range(4), repeat=k):
        p = mpmath.fprod(P1[i] for i in idx)
        q = mpmath.fprod(Q1[i] for i in idx)
        out.append((p, q))
    return out


def brute_tradeoff(eps, delta, k, alpha):
    """beta of the most powerful test at type-I error alpha under Q (reject where P/Q is largest)."""
    pts = _product(eps, delta, k)
    pts.sort(key=lambda pq: mpmath.inf if pq[1] == 0 else pq[0] / pq[1], reverse=True)
    a = mpmath.mpf(alpha)
    used, power = mpmath.mpf(0), mpmath.mpf(0)
    for p, q in pts:
        if used + q <= a:
            used += q
            power += p
        else:
            power += p * (a - used) / q
            break
    return 1 - power


def brute_delta(eps, delta, k, at):
    t = mpmath.exp(mpmath.mpf(at))
    return mpmath.fsum(max(p - t * q, 0) for p, q in _product(eps, delta, k))


@pytest.mark.parametrize("eps,delta,k", [("0.5", "0", 3), ("0.1", "1e-3", 4), ("2", "0", 5), ("1", "0.01", 3)])
@pytest.mark.parametrize("alpha", ["1e-30", "0.001", "0.05", "0.3", "0.7"])
def test_binomial_tradeoff_matches_brute_force(eps, delta, k, alpha):
    got = X.tradeoff("approx-dp", {"eps": eps, "delta": delta}, k, alpha, 25)
    with mpmath.workdps(DPS):
        ref = brute_tradeoff(eps, delta, k, alpha)
        assert abs(got.value - ref) <= mpmath.mpf(10) ** -24 * max(abs(ref), mpmath.mpf(10) ** -30)
        assert abs(got.complement - (1 - ref)) <= mpmath.mpf(10) ** -22


@pytest.mark.parametrize("eps,delta,k", [("0.5", "0", 3), ("0.1", "1e-3", 4), ("2", "0", 5)])
@pytest.mark.parametrize("at", ["-1", "0", "0.3", "1.5", "4"])
def test_binomial_delta_matches_brute_force(eps, delta, k, at):
    got = X.delta("approx-dp", {"eps": eps, "delta": delta}, k, at, 25).value
    with mpmath.workdps(DPS):
        ref = brute_delta(eps, delta, k, at)
        if ref == 0:
            assert got == 0 or getattr(got, "p", None) == 0
        else:
            assert abs(got - ref) <= mpmath.mpf(10) ** -23 * ref


@pytest.mark.parametrize("k,eps,delta", [(10, "0.5", "0"), (25, "0.1", "1e-6"), (7, "1.5", "0.001"), (100, "0.2", "0")])
def test_kov_closed_form_equals_binomial_law(k, eps, delta):
    """catalog 004 KOV17: delta(eps_i), eps_i = (k - 2i) eps, printed formula vs the law's hockey stick."""
    from derive.exact import rational
    from proofs_check.claims_composition import kov_printed
    with mpmath.workdps(60):
        law = X.BinomialLaw(rational("eps", eps), rational("delta", delta), k)
        for i in range(0, k // 2 + 1, max(1, k // 8)):
            at = (k - 2 * i) * mpmath.mpf(rational("eps", eps).p) / rational("eps", eps).q
            a, b = kov_printed(eps, delta, k, i), law.delta(at)
            assert abs(a - b) <= mpmath.mpf(10) ** -40 * max(abs(a), mpmath.mpf(10) ** -50)


def test_eps_inverts_delta():
    for name, p, k in [("randomized-response", {"eps": "0.5"}, 20), ("laplace", {"eps": "0.3"}, 5)]:
        for d in ["1e-3", "1e-8"]:
            e = X.eps(name, p, k, d, 20).value
            back = X.delta(name, p, k, mpmath.nstr(e, 30), 20).value
            with mpmath.workdps(30):
                assert abs(back - mpmath.mpf(d)) <= mpmath.mpf(10) ** -18 * mpmath.mpf(d)


# ------------------------------------------------------------------ Laplace


@pytest.mark.parametrize("alpha", ["1e-200", "0.01", "0.2", "0.45"])
def test_laplace_one_step_is_the_record(alpha):
    from derive.mechanisms import laplace
    from numeric import mp
    got = X.tradeoff("laplace", {"eps": "0.7"}, 1, alpha, 25)
    ref = mp.tradeoff(laplace("0.7"), alpha, 25)
    assert abs(got.value - ref) <= mpmath.mpf(10) ** -24 * ref
    dref = mp.profile_delta(laplace("0.7"), "0.2", 25)
    assert abs(X.delta("laplace", {"eps": "0.7"}, 1, "0.2", 25).value - dref) <= mpmath.mpf(10) ** -24 * dref


def _delta1(eps, s):
    """One Laplace(eps) step: delta(s) = P(L > s) - e^s Q(L > s), tails written out from the densities
    (P = Lap(eps, 1), Q = Lap(0, 1), L = clamp(2x - eps, -eps, eps))."""
    if s >= eps:
        return mpmath.mpf(0)
    if s < -eps:
        return 1 - mpmath.exp(s)
    sp_ = 1 - mpmath.exp((s - eps) / 2) / 2
    sq = mpmath.exp(-(s + eps) / 2) / 2
    return sp_ - mpmath.exp(s) * sq


@pytest.mark.parametrize("at", ["-0.5", "0.1", "0.6", "1.1"])
def test_laplace_two_steps_by_quadrature(at):
    with mpmath.workdps(40):
        eps = mpmath.mpf("0.6")
        e = mpmath.mpf(at)
        # L_1 under P: atom +eps (1/2), atom -eps (e^{-eps}/2), density e^{(l-eps)/2}/4 on (-eps, eps)
        ref = (_delta1(eps, e - eps) / 2 + mpmath.exp(-eps) / 2 * _delta1(eps, e + eps)
               + mpmath.quad(lambda l: mpmath.exp((l - eps) / 2) / 4 * _delta1(eps, e - l),
                             sorted({-eps, eps, min(max(e - eps, -eps), eps), min(max(e + eps, -eps), eps)})))
    got = X.delta("laplace", {"eps": "0.6"}, 2, at, 25).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -24 * ref


def test_laplace_ten_fold_targets():
    """Issue #9 target: 10-fold Laplace(0.1), f(0.05) and delta(0.5) to 30 digits (inside the
    certified engine's bracket; 30 digits are the verified() agreement of two precisions)."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    f = X.tradeoff("laplace", {"eps": "0.1"}, 10, "0.05", 30)
    d = X.delta("laplace", {"eps": "0.1"}, 10, "0.5", 30)
    comp = pld.compose([(M.laplace("0.1"), 10)])
    r, s = comp.tradeoff("0.05"), comp.delta("0.5")
    assert r.beta_lower <= f.value <= r.beta_upper
    assert s.delta_lower <= d.value <= s.delta_upper
    assert len(mpmath.nstr(f.value, 30, strip_zeros=False).lstrip("0.")) >= 30


# ------------------------------------------------------------------ GDP


def test_gdp_composition_is_one_gaussian():
    got = X.gdp_tradeoff([("0.3", 2), ("0.4", 1)], "1e-8", 30)
    with mpmath.workdps(60):
        mu = mpmath.sqrt(mpmath.mpf("0.34"))
        ref = mpmath.ncdf(-mu - mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf("1e-8") - 1))
    assert abs(got.value - ref) <= mpmath.mpf(10) ** -29 * ref
    assert str(X.gdp_mu([("0.3", 2), ("0.4", 1)])) == "sqrt(34)/10"   # 2 * 0.09 + 0.16 = 34/100


# ------------------------------------------------------------------ the engine brackets the exact values


CASES = [("laplace", {"eps": "0.1"}, 10, ("laplace", ("0.1",))),
         ("randomized-response", {"eps": "0.5"}, 10, ("randomized_response", ("0.5",))),
         ("approx-dp", {"eps": "0.5", "delta": "1e-6"}, 10, ("eps_delta", ("0.5", "1e-6"))),
         ("gaussian", {"mu": "0.5"}, 100, ("gaussian", ("0.5",)))]


@pytest.mark.parametrize("name,params,k,ctor", CASES)
@pytest.mark.slow
def test_engine_brackets_exact(name, params, k, ctor):
    from numeric import pld
    from numeric import pld_mechanisms as M
    comp = pld.compose([(getattr(M, ctor[0])(*ctor[1]), k)])
    for alpha in ["1e-300", "1e-100", "1e-10", "1e-3", "0.05", "0.5"]:
        ex = X.tradeoff(name, params, k, alpha, 20)
        r = comp.tradeoff(alpha)
        assert r.power_lower <= ex.complement <= r.power, (alpha, ex, r)
        assert r.power >= mpmath.mpf(alpha)
    for at in ["-1", "0", "0.5", "2"]:
        ex = X.delta(name, params, k, at, 20).value
        ex = mpmath.mpf(0) if not isinstance(ex, mpmath.mpf) else ex
        r = comp.delta(at)
        assert r.delta_lower <= ex <= r.delta_upper, (at, ex, r)
    for d in ["1e-3", "1e-10"]:
        ex = X.eps(name, params, k, d, 20).value
        r = comp.eps(d)
        assert r.eps_lower <= ex <= r.eps_upper, (d, ex, r)


# ------------------------------------------------------------------ mutations: the references can fail


def test_mutation_swapped_probabilities_is_caught(monkeypatch):
    orig = X.BinomialLaw.__init__

    def swapped(self, *a):
        orig(self, *a)
        self.a, self.b = self.b, self.a
    monkeypatch.setattr(X.BinomialLaw, "__init__", swapped)
    got = X.delta("approx-dp", {"eps": "0.5", "delta": "0"}, 3, "0.3", 20).value
    with mpmath.workdps(DPS):
        ref = brute_delta("0.5", "0", 3, "0.3")
    assert abs(got - ref) > mpmath.mpf(10) ** -5 * ref


def test_mutation_laplace_density_is_caught(monkeypatch):
    """Tilt the spline the wrong way (the P weights e^{2a(J-k)} become e^{2a(J-k+1)}): the two-step
    quadrature reference of test_laplace_two_steps_by_quadrature catches it."""
    from numeric import compose_laplace as CL
    orig = CL._Balls.weights
    monkeypatch.setattr(CL._Balls, "weights", lambda self, J: (orig(self, J)[0], orig(self, J + 1)[1]))
    CL.spline.cache_clear()
    try:
        got = X.delta("laplace", {"eps": "0.6"}, 2, "0.1", 15).value
    finally:
        monkeypatch.undo()
        CL.spline.cache_clear()
    with mpmath.workdps(30):
        eps = mpmath.mpf("0.6")
        e = mpmath.mpf("0.1")
        ref = (_delta1(eps, e - eps) / 2 + mpmath.exp(-eps) / 2 * _delta1(eps, e + eps)
               + mpmath.quad(lambda l: mpmath.exp((l - eps) / 2) / 4 * _delta1(eps, e - l), [-eps, e - eps, eps]))
    assert abs(got - ref) > mpmath.mpf(10) ** -6 * ref


def _steep_composition():
    """A composed measure with all its (tilted) mass on the top grid point and a steep tilt: lam = 50,
    h = 1, C = lam l_top, so delta(l_i) = 1 - e^{-(l_top - l_i)} exactly (by hand), while the tilted
    sums e^{-50 (top - i)} underflow float64 twenty points below the top."""
    import numpy as np

    from numeric import pld
    n = 64
    y = np.zeros(n)
    y[-1] = 1.0
    return pld.Composed(W0=0, y=y, E_out=0.0, C=50.0 * (n - 1), lam=50.0, h=1.0, log_above=-math.inf,
                        log_alias=-math.inf, log_inf=-math.inf, log_total=0.0, kind="upper", center=n - 1.0,
                        sigma=1.0), n


def test_engine_underflow_guard_keeps_the_upper_value_above_the_truth():
    from numeric import pld
    comp, n = _steep_composition()
    up, _ = pld.grid_bounds(comp)
    for i in range(n - 1):
        exact = -math.expm1(-(n - 1 - i))                 # 1 - e^{-(l_top - l_i)}, by hand
        assert up[i] >= math.log(exact) - 1e-12, i


def test_mutation_engine_underflow_guard_is_needed(monkeypatch):
    """Without the engine's guard against an underflowed tilted sum (numeric/pld_fft.py TINY_NORMAL) the
    upper value far below the tilt centre is -inf or NaN where the exact delta is ~1.  (It once let
    10 x Laplace(0.1) at alpha = 1e-10 be certified at power 1.2e-10 against the exact e * 1e-10; the
    engine's window now covers that composition's whole support, so the case is built directly.)"""
    from numeric import pld, pld_fft
    monkeypatch.setattr(pld_fft, "TINY_NORMAL", -1.0)
    comp, n = _steep_composition()
    up, _ = pld.grid_bounds(comp)
    assert not up[0] >= math.log(-math.expm1(-(n - 1)))       # NaN or below the truth
