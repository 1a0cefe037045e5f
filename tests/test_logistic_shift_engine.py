"""The logistic pair of the composition engine (numeric.pld_mechanisms.LogisticShift) and the engine's
model of a record (``from_record``: asked of the record's identity fact, never of its name).

References (independent of the closed forms in the module):
* the tails S_P(l) = P(L > l), S_Q(l) = Q(L > l) of P = Logistic(0, 1), Q = Logistic(m, 1): mpmath
  quadrature (30 digits) of the two logistic densities over {x : L(x) > l}, the boundary found by a
  root finder on L(x) = log p(x)/q(x) itself;
* one step: delta(eps) = int (p - e^eps q)_+ by quadrature, and the closed form
  (e^{m/2} - e^{eps/2})^2/(e^m - 1) for -m <= eps <= m (derived: sup_alpha 1 - f(alpha) - e^eps alpha with
  f = (1 - alpha)/(1 + (e^m - 1) alpha), attained at 1 + (e^m - 1) alpha = e^{(m - eps)/2}), and f itself;
* two steps: delta(eps) = int int (p(x)p(y) - e^eps q(x)q(y))_+ dx dy by nested scipy quadrature (the
  inner integral over y up to its own boundary, found by brentq on L).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from derive.mechanisms.table import lookup
from numeric import pld
from numeric import pld_mechanisms as M
from numeric import pld_subsampled as PS


def _p(x, shift=0):
    """The Logistic(shift, 1) density."""
    z = x - shift
    return mpmath.exp(-abs(z)) / (1 + mpmath.exp(-abs(z))) ** 2


def _loss(x, m):
    return mpmath.log(_p(x)) - mpmath.log(_p(x, m))


def _boundary(l, m):
    """x with L(x) = l (L decreases from m to -m), by a bracketing root finder on L itself (at twice the
    working precision: L is flat in the tails)."""
    with mpmath.workdps(2 * mpmath.mp.dps):
        x = mpmath.findroot(lambda x: _loss(x, m) - l, (mpmath.mpf(-80), mpmath.mpf(80)), solver="pegasus",
                            maxsteps=1000, verify=False)
    return +x


def _quad_tails(l, m):
    x0 = _boundary(l, m)
    return (mpmath.quad(lambda x: _p(x), [-mpmath.inf, x0 - 5, x0]),
            mpmath.quad(lambda x: _p(x, m), [-mpmath.inf, x0 - 5, x0]))


@pytest.fixture
def arb_precision():
    import flint
    old, flint.ctx.prec = flint.ctx.prec, M.PREC
    yield
    flint.ctx.prec = old


@pytest.mark.parametrize("m", ["0.3", "2", "7"])
def test_tails_match_quadrature(m, arb_precision):
    model = M.LogisticShift(m)
    with mpmath.workdps(30):
        mf = mpmath.mpf(m)
        for frac in ("-0.999", "-0.5", "0", "0.25", "0.9", "0.9999"):
            l = Fraction(frac) * Fraction(m)
            sp, sq = model.tails(l)
            rp, rq = _quad_tails(mpmath.mpf(l.numerator) / l.denominator, mf)
            for ball, ref in ((sp, rp), (sq, rq)):
                mid, rad = mpmath.mpf(ball.mid().str(30, radius=False)), mpmath.mpf(ball.rad().str(5, radius=False))
                assert abs(mid - ref) <= rad + mpmath.mpf(10) ** -25 * ref, (m, frac, ball, ref)
            fl = model._float_sp(np.array([float(l)]))[0]
            assert abs(fl - float(rp)) <= 1e-12 * float(rp) + 1e-300, (m, frac, fl, rp)
        # the ends: everything at l <= -m, nothing at l >= m, no atoms
        assert [float(t.mid()) for t in model.tails(-Fraction(m))] == [1.0, 1.0]
        assert [float(t.mid()) for t in model.tails(Fraction(m))] == [0.0, 0.0]
        assert model.q_atom_at(Fraction(0)) == 0 and model.p_inf() == 0


def _delta_one_closed(e, m):
    if e >= m:
        return mpmath.mpf(0)
    if e <= -m:
        return 1 - mpmath.exp(e)
    return (mpmath.exp(m / 2) - mpmath.exp(e / 2)) ** 2 / mpmath.expm1(m)


def _delta_one_quad(e, m):
    """int (p - e^eps q)_+ dx, the positive part on x < boundary(eps) (where L > eps)."""
    if e >= m:
        return mpmath.mpf(0)
    if e <= -m:
        return 1 - mpmath.exp(e)
    x0 = _boundary(e, m)
    return mpmath.quad(lambda x: _p(x) - mpmath.exp(e) * _p(x, m), [-mpmath.inf, x0 - 5, x0])


@pytest.mark.parametrize("m", ["0.5", "3"])
def test_one_step_brackets_the_closed_form_and_quadrature(m):
    comp = pld.compose([(M.logistic_shift(m), 1)])
    with mpmath.workdps(30):
        mf = mpmath.mpf(m)
        for at in ("-0.4", "0", "0.1", "0.45", "2"):
            e = mpmath.mpf(at)
            closed, quad = _delta_one_closed(e, mf), _delta_one_quad(e, mf)
            assert abs(closed - quad) <= mpmath.mpf(10) ** -25, (at, closed, quad)
            r = comp.delta(at)
            assert r.certified and r.delta_lower <= closed <= r.delta_upper, (m, at, r, closed)
            assert r.delta_upper - r.delta_lower <= 1e-4     # (the Laplace pair: 1e-5 at eps 0.5)
        for alpha in ("1e-6", "0.1", "0.5", "0.9"):
            a = mpmath.mpf(alpha)
            f = (1 - a) / (1 + mpmath.expm1(mf) * a)
            r = comp.tradeoff(alpha)
            assert r.beta_lower <= f <= r.beta_upper, (m, alpha, r, f)


def _logpdf(z):
    return -abs(z) - 2 * math.log1p(math.exp(-abs(z)))


def _float_loss(x, m):
    return _logpdf(x) - _logpdf(x - m)


def _float_delta_one(t, m):
    """int (p(y) - e^t q(y))_+ dy by scipy quadrature up to the root of L(y) = t (brentq on L itself)."""
    from scipy.integrate import quad
    from scipy.optimize import brentq
    if t >= m:
        return 0.0
    if t <= -m:
        return -math.expm1(t)
    y0 = brentq(lambda y: _float_loss(y, m) - t, -60, 60, xtol=1e-15, rtol=1e-15)
    return quad(lambda y: math.exp(_logpdf(y)) - math.exp(t + _logpdf(y - m)), -math.inf, y0,
                epsabs=1e-15, epsrel=1e-13, limit=200)[0]


def test_two_steps_bracket_nested_quadrature():
    """delta(eps) of two steps = int int (p(x)p(y) - e^eps q(x)q(y))_+ dy dx, the inner integral over y
    (for fixed x: p(x) times int (p(y) - e^{eps - L(x)} q(y))_+ dy) and the outer one by scipy quadrature
    (float64, ~1e-12; the engine's bracket is ~1e-5 wide)."""
    from scipy.integrate import quad
    m = 1.5
    comp = pld.compose([(M.logistic_shift("1.5"), 2)])
    for at in ("-0.5", "0.3", "1.2", "2.9"):
        e = float(at)
        ref = quad(lambda x: math.exp(_logpdf(x)) * _float_delta_one(e - _float_loss(x, m), m), -math.inf,
                   math.inf, epsabs=1e-14, epsrel=1e-12, limit=200, points=None)[0]
        r = comp.delta(at)
        assert r.delta_lower - 1e-10 <= ref <= r.delta_upper + 1e-10, (at, r, ref)
        assert r.delta_upper - r.delta_lower <= 1e-4


def test_from_record_asks_the_identity_fact():
    """Each table record gets the model the CLI's old name table chose (and the model reads its
    parameter as typed); the logistic noise record gets the logistic pair; a record with no identity
    fact, or an irrational parameter, is refused in one line."""
    cases = [("gaussian", {"mu": "0.5"}, {}, M.Gaussian, "gaussian(mu=0.5)"),
             ("laplace", {"eps": "0.1"}, {}, M.Laplace, "laplace(eps=0.1)"),
             ("randomized-response", {"eps": "1"}, {}, M.PureDP, "pure(eps=1)"),
             ("approx-dp", {"eps": "1", "delta": "1e-6"}, {}, M.PureDP, "eps_delta(eps=1, delta=0.000001)"),
             ("approx-dp", {"eps": "1", "delta": "0"}, {}, M.PureDP, "pure(eps=1)"),
             ("discrete-gaussian", {"sigma2": "2"}, {}, M.DiscreteGaussian, "discrete_gaussian(sigma2=2)"),
             ("noise", {"mu": "0.7"}, {"family": "logistic"}, M.LogisticShift, "logistic_shift(m=0.7)"),
             ("noise", {"mu": "0.7"}, {"family": "gaussian"}, M.Gaussian, "gaussian(mu=0.7)"),
             ("noise", {"mu": "0.7"}, {"family": "laplace"}, M.Laplace, "laplace(eps=0.7)")]
    for name, params, options, cls, label in cases:
        mech = M.from_record(lookup(name).build(params, options))
        (model,) = mech.directions
        assert type(model) is cls and model.name == label, (name, model.name)
    assert M.from_record(lookup("approx-dp").build({"eps": "1", "delta": "1e-6"})).directions[0].delta == \
        Fraction(1, 10**6)
    # a long decimal keeps its exact value (the name then reads p/q)
    long = "0." + "1" * 40
    assert M.from_record(lookup("gaussian").build({"mu": long})).directions[0].mu == Fraction(long)
    sampled = lookup("uniform-sampling").build({"mu": "1", "n": "10"})
    assert M.from_record(sampled, strict=False) is None
    with pytest.raises(ValueError, match="no privacy-loss model"):
        M.from_record(sampled)
    with pytest.raises(ValueError, match="exact rational mu"):
        M.from_record(lookup("classical-gaussian").build({"eps": "1", "delta": "1e-5"}))
    with pytest.raises(ValueError, match="no privacy-loss model"):
        M.from_record(lookup("gaussian").build({"mu": "inf"}))


def test_subsampled_step_asks_the_fact():
    """The subsampled step of a G_mu record is the subsampled Gaussian with noise multiplier 1/mu, of a
    Laplace record the subsampled Laplace pair, whatever the record's name (noise family gaussian too)."""
    g = PS.subsampled_step(lookup("noise").build({"mu": "0.5"}, {"family": "gaussian"}), "0.1", "poisson")
    assert [d.name for d in g.directions] == ["subsampled_gaussian(q=0.1, sigma=2, remove)",
                                              "subsampled_gaussian(q=0.1, sigma=2, add)"]
    u = PS.subsampled_step(lookup("laplace").build({"eps": "0.5"}), "0.1", "uniform")
    assert u.name == "uniform_subsampled_laplace(p=0.1, eps=1/2)"
    with pytest.raises(ValueError, match="sampling must be"):
        PS.subsampled_step(lookup("laplace").build({"eps": "0.5"}), "0.1", "bernoulli")


def test_mutation_swapped_tails_are_caught(monkeypatch):
    """A Q-tail off by the factor 1 - (l/4)^2 (at most 6 % on [-2, 2], exact at l = 0): the one-step bracket
    no longer contains the closed form somewhere (the references are live)."""
    orig = M.LogisticShift._tails

    def wrong(self, l, la):
        sp, sq = orig(self, l, la)
        return sp, sq * (1 - (la / 4) ** 2)
    monkeypatch.setattr(M.LogisticShift, "_tails", wrong)
    comp = pld.compose([(M.logistic_shift("2"), 1)])
    with mpmath.workdps(30):
        misses = [at for at in ("-1", "0.5", "1.5")
                  if not comp.delta(at).delta_lower <= _delta_one_closed(mpmath.mpf(at), mpmath.mpf(2))
                  <= comp.delta(at).delta_upper]
    assert misses
