"""Roots at a tiny target (delta = 1e-300) are solved to the printed digits (thirteenth session: mpmath's
Anderson-Bjorck stops once |g - target| < tol, absolute, so at delta = 1e-300 the first secant step was
returned, and ``subsample gaussian --mu 1 --p 0.1 --at-delta 1e-300`` printed 35.0850563823960 as "15 verified
digits"; the Edgeworth eps of ``clt gaussian --mu 1 --k 10`` at 1e-300 was 121.93911 for 121.93615).

References, mpmath at 60 digits, from closed forms solved on the log scale (no dp-derive code):
* Poisson-subsampled G_1 at p: remove pair P = (1 - p) N(0, 1) + p N(1, 1) against Q = N(0, 1), where
  P > e^eps Q beyond x* = 1/2 + log((e^eps - 1 + p)/p), so delta = (1 - p) Phi(-x*) + p Phi(1 - x*) -
  e^eps Phi(-x*); add pair (Q against P) below x_* = 1/2 + log((e^-eps - 1 + p)/p) when e^-eps > 1 - p;
* G_mu: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (Dong, Roth, Su, Cor. 2.13)."""

from __future__ import annotations

import mpmath
import pytest

import derive
from numeric import clt as CLT
from numeric import solvers as SOL
from numeric import subsampling as SS


def _subsampled_gaussian_eps(p: str, delta: str):
    with mpmath.workdps(60):
        p_, t = mpmath.mpf(p), mpmath.mpf(delta)

        def remove(e):
            x = mpmath.mpf(1) / 2 + mpmath.log((mpmath.expm1(e) + p_) / p_)
            return (1 - p_) * mpmath.ncdf(-x) + p_ * mpmath.ncdf(1 - x) - mpmath.exp(e) * mpmath.ncdf(-x)

        def add(e):
            if mpmath.exp(-e) <= 1 - p_:
                return mpmath.mpf(0)
            x = mpmath.mpf(1) / 2 + mpmath.log((mpmath.exp(-e) - 1 + p_) / p_)
            return mpmath.ncdf(x) - mpmath.exp(e) * ((1 - p_) * mpmath.ncdf(x) + p_ * mpmath.ncdf(x - 1))
        return mpmath.findroot(lambda e: mpmath.log(max(remove(e), add(e))) - mpmath.log(t), (30, 40),
                               solver="anderson")


def _gdp_eps(mu: str, delta: str):
    with mpmath.workdps(60):
        m, t = mpmath.sqrt(mpmath.mpf(mu)), mpmath.mpf(delta)           # mu given squared: G_sqrt(mu)
        d = lambda e: mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)   # noqa: E731
        return mpmath.findroot(lambda e: mpmath.log(d(e)) - mpmath.log(t), (100, 140), solver="anderson")


@pytest.mark.parametrize("digits", [15, 30])
def test_subsampled_gaussian_at_1e_300(digits):
    ref = _subsampled_gaussian_eps("0.1", "1e-300")          # 35.0839820652941598...
    got = SS.eps(derive.gaussian("1"), "0.1", "1e-300", digits).value
    assert abs(got - ref) <= mpmath.mpf(10) ** (1 - digits) * ref


def test_edgeworth_of_a_gaussian_is_exact_at_1e_300():
    """10 x G_1: the privacy loss is exactly normal, so the Edgeworth term vanishes and its eps is G_sqrt10's."""
    res = CLT.clt([(derive.gaussian("1"), 10)], 30)
    with mpmath.workdps(40):
        got = CLT.edgeworth_eps(res, "1e-300")
    ref = _gdp_eps("10", "1e-300")                           # 121.936147868949...
    assert abs(got - ref) <= mpmath.mpf(10) ** -25 * ref


def test_a_wrong_secant_root_is_caught_by_the_sign_check(monkeypatch):
    """A solver that returns its bracket's midpoint (a wrong root) is caught by the crossing check of
    ``numeric.solvers.crossing``, which ``compose_exact._solve_decreasing`` now goes through, and the bisection
    answers: the value is still right."""
    class Wrong:
        def __getattr__(self, name):
            return getattr(mpmath, name)

        @staticmethod
        def findroot(f, bracket, **kw):
            return (bracket[0] + bracket[1]) / 2
    monkeypatch.setattr(SOL, "mpmath", Wrong())
    test_subsampled_gaussian_at_1e_300(15)


# ---- answers above 2^40 (thirteenth session's audit) ------------------------------------------------------

def test_subsampled_eps_above_two_to_the_40():
    """C_{1/2}(G_mu) at mu = 1e7, delta = 1e-5 printed inf ("15 verified digits"): the search stopped at 2^40.
    Reference: for p = 1/2 and eps > log 2 only the remove pair counts, delta(eps) = p delta_G(eps1) with
    e^eps1 = 1 + (e^eps - 1)/p (the mixture's likelihood ratio), so eps = log(1 + p (e^eps1 - 1)), eps1 the
    G_mu profile's root at delta/p, solved by bisection at 60 digits: 50000041074794.85..."""
    with mpmath.workdps(60):
        mu, t = mpmath.mpf("1e7"), mpmath.mpf("2e-5")
        d = lambda e: mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)   # noqa: E731
        a, b = mpmath.mpf("4.9e13"), mpmath.mpf("5.1e13")      # d(a) > t > d(b); plain bisection, 200 halvings
        for _ in range(200):
            m = (a + b) / 2
            a, b = (m, b) if d(m) > t else (a, m)
        e1 = (a + b) / 2
        ref = e1 + mpmath.log(mpmath.mpf(1) / 2) + mpmath.log1p(-mpmath.exp(-e1))
    got = SS.eps(derive.gaussian("1e7"), "0.5", "1e-5", 20).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -18 * ref


def test_subsampled_pure_dp_at_delta_zero_is_the_amplified_eps():
    """RR(1e13) subsampled at 1/2, delta = 0: log(1 + p(e^eps - 1)) = 1e13 + log(1/2) + log1p(e^-eps), exactly
    the amplification bound (tight for randomized response)."""
    with mpmath.workdps(60):
        ref = mpmath.mpf(10) ** 13 + mpmath.log(mpmath.mpf(1) / 2) + mpmath.log1p(mpmath.exp(-mpmath.mpf(10) ** 13))
    got = SS.eps(derive.randomized_response("1e13"), "0.5", "0", 20).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -18 * ref


def test_mutation_capped_search_is_caught(monkeypatch):
    """The former cap (inf once the search passes 2^40), put back by wrapping eps: the first test fails."""
    orig = SS.Subsampled.eps

    def capped(self, d):
        e = orig(self, d)
        return mpmath.inf if e > 2 ** 40 else e
    monkeypatch.setattr(SS.Subsampled, "eps", capped)
    with pytest.raises(AssertionError):
        test_subsampled_eps_above_two_to_the_40()


# ---- a zero from cancellation is not exact (thirteenth session's probe of extreme inputs) ----------------

def _subsampled_gaussian_delta_log10(eps: str, dps: int):
    """log10 of delta(eps) of C_{0.1}(G_1), remove pair p (Phi(1/2 - e1) - e^e1 Phi(-1/2 - e1)), e^e1 = 1 +
    (e^eps - 1)/p, at ``dps`` digits (the difference loses ~2 log10(eps) digits); the add pair is 0 there."""
    with mpmath.workdps(dps):
        e, p = mpmath.mpf(eps), mpmath.mpf("0.1")
        e1 = mpmath.log1p(mpmath.expm1(e) / p)
        return mpmath.log10(p * (mpmath.ncdf(mpmath.mpf(1) / 2 - e1) - mpmath.exp(e1) * mpmath.ncdf(-mpmath.mpf(1) / 2 - e1)))


def test_subsampled_delta_at_eps_1e100_is_not_zero():
    """It printed delta = 0 ("15 verified digits"): every floating 0 was taken as exact.  Reference at 600
    digits: 1.26455207076088e-21714724095162591382556...(200-digit exponent)."""
    from numeric.bridge import Exact
    got = SS.delta(derive.gaussian("1"), "0.1", "1e100", 15).value
    assert not isinstance(got, Exact) and got != 0
    ref = _subsampled_gaussian_delta_log10("1e100", 600)
    with mpmath.workdps(600):
        assert abs(mpmath.log10(got) - ref) < mpmath.mpf(10) ** -12


def test_an_exact_zero_stays_exact():
    """RR(1) subsampled at 0.1 has bounded loss log(1 + 0.1 (e - 1)) < 2, so delta(2) = 0 exactly."""
    from numeric.bridge import Exact
    v = SS.delta(derive.randomized_response("1"), "0.1", "2", 15).value
    assert isinstance(v, Exact) and v.p == 0


def test_mutation_every_zero_exact_is_caught(monkeypatch):
    """The zero re-checked at the same precision (no extra digits): every floating 0 is taken as exact again."""
    monkeypatch.setattr(SS, "ZERO_CHECK", (1, 0))
    with pytest.raises(AssertionError):
        test_subsampled_delta_at_eps_1e100_is_not_zero()


# ---- delta = 0: the largest privacy loss ---------------------------------------------------------------

def test_eps_at_delta_zero_is_the_largest_loss():
    """eps(0) = log(1 + p (e^eps - 1)) for RR(eps) (its loss is bounded; by hand: log(1 + 0.1 (e - 1))), and inf
    for G_1 (delta(eps) > 0 for every eps).  The Gaussian case ran past 100 s: the bracket search stopped where the
    profile cancelled to 0 and the precision escalated."""
    with mpmath.workdps(40):
        ref = mpmath.log(1 + mpmath.mpf("0.1") * (mpmath.e - 1))
    got = SS.eps(derive.randomized_response("1"), "0.1", "0", 20).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -19 * ref
    assert SS.eps(derive.gaussian("1"), "0.1", "0", 15).value == mpmath.inf


def test_mutation_every_loss_unbounded_is_caught(monkeypatch):
    import sympy as sp
    orig = SS.Subsampled.classification

    def unbounded(self):
        c = orig(self)
        return type(c)(f0=c.f0, rho=type(c.rho)(sp.oo, c.rho.method), failure=c.failure)
    monkeypatch.setattr(SS.Subsampled, "classification", unbounded)
    with pytest.raises(AssertionError):
        test_eps_at_delta_zero_is_the_largest_loss()
