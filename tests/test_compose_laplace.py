"""The exact Laplace^(x)k route (numeric/compose_laplace.py) against independent references.

References:
* ``tests/laplace_irwin_hall.py``: a different decomposition (by the numbers of steps at +eps, -eps
  and in the middle, with Irwin-Hall sums of incomplete gamma functions), run at 60 digits where it
  is accurate (k eps <= 10);
* two steps at large eps: a 1-D quadrature of the one-step hockey stick written out from the
  densities (``_delta1``), and Q(L > 0) by a hand decomposition (below);
* the certified numeric engine's bracket (numeric/pld.py) for 100 steps.
Each mutation test breaks one ingredient of the spline and watches a reference catch it.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import numeric.compose_exact as X
from numeric import compose_laplace as CL
from tests.laplace_irwin_hall import IrwinHallLaplace
from tests.test_compose_exact import (
    _delta1,  # one Laplace step's hockey stick, from the densities
)

TAILS = ("q_above", "q_below", "p_above", "p_below")


def _compare(eps, k, fractions, dps=40, tol=mpmath.mpf(10) ** -32):
    bad = []
    with mpmath.workdps(60):
        ref = IrwinHallLaplace(sp.Rational(eps), k)
        top = mpmath.mpf(sp.Rational(eps) * k)
        points = [mpmath.mpf(f) * top for f in fractions]
        want = {(name, i): getattr(ref, name)(t) for name in TAILS for i, t in enumerate(points)}
        want.update({("hockey", i): ref.p_above(t) - mpmath.exp(t) * ref.q_above(t) for i, t in enumerate(points)})
    with mpmath.workdps(dps):
        law = X.LaplaceLaw(sp.Rational(eps), k)
        for (name, i), w in want.items():
            t = points[i]
            got = law.hockey_finite(t) if name == "hockey" else getattr(law, name)(t)
            if abs(got - w) > tol * abs(w):
                bad.append((name, float(t), got, w))
    return bad


FRACTIONS = ["-0.97", "-0.5", "-0.13", "0", "0.05", "0.3", "0.71", "0.999"]


@pytest.mark.parametrize("eps,k", [("0.7", 1), ("0.6", 2), ("0.3", 5), ("1", 7), ("0.1", 10),
                                   # k = 12: the longest Irwin-Hall reference (9 s under load); k = 10, the
                                   # default run's largest, goes through the same spline pieces and tails
                                   pytest.param("0.25", 12, marks=pytest.mark.slow)])
def test_spline_tails_equal_the_irwin_hall_route(eps, k):
    assert _compare(eps, k, FRACTIONS) == []


@pytest.mark.parametrize("at", ["-30", "0", "20", "60", "99"])
def test_two_steps_at_eps_50_by_quadrature(at):
    """delta_2(s) = E_P[delta_1(s - L_1)]; L_1 under P: atom +eps (1/2), atom -eps (e^{-eps}/2),
    density e^{(l - eps)/2}/4 on (-eps, eps).  A regime where the Irwin-Hall route cancels heavily."""
    with mpmath.workdps(50):
        eps, s = mpmath.mpf(50), mpmath.mpf(at)
        cuts = sorted({-eps, eps} | {min(max(s + c, -eps), eps) for c in (-eps, eps)})
        ref = (_delta1(eps, s - eps) / 2 + mpmath.exp(-eps) / 2 * _delta1(eps, s + eps)
               + mpmath.quad(lambda l: mpmath.exp((l - eps) / 2) / 4 * _delta1(eps, s - l), cuts))
    got = X.delta("laplace", {"eps": "50"}, 2, at, 25).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -24 * ref


def test_q_above_zero_at_eps_100_by_hand():
    """Q(L_1 + L_2 > 0) at eps = E = 100: the atom pair (+E, +E), the atom +E with a continuous step
    (both orders; the sum exceeds 0 always), and two continuous steps, whose sum s has the density
    (2E - |s|) e^{-E} e^{-s/2}/16 (a triangle, tilted).  (The Irwin-Hall route needs 60 digits of
    working precision here; at 30 it gives 1.86e-44.)"""
    with mpmath.workdps(50):
        E = mpmath.mpf(100)
        cont = -mpmath.expm1(-E) / 2                     # Q-mass of one step's continuous part
        ref = (mpmath.exp(-2 * E) / 4 + mpmath.exp(-E) * cont
               + mpmath.exp(-E) / 16 * mpmath.quad(lambda s: (2 * E - s) * mpmath.exp(-s / 2), [0, 1, 10, 2 * E]))
    with mpmath.workdps(30):
        got = X.LaplaceLaw(sp.Integer(100), 2).q_above(mpmath.mpf(0))
    assert abs(got - ref) <= mpmath.mpf(10) ** -28 * ref
    assert 9.3e-43 < got < 9.4e-43


def test_hundred_steps_inside_the_engine_bracket():
    """Issue #9 target case: 100 x Laplace(0.1), eps at delta = 1e-6, and f at a few alphas, inside
    the certified engine's brackets (an independent numeric route)."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    comp = pld.compose([(M.laplace("0.1"), 100)])
    e = X.eps("laplace", {"eps": "0.1"}, 100, "1e-6", 15).value
    r = comp.eps("1e-6")
    assert r.eps_lower <= e <= r.eps_upper
    for alpha in ["1e-300", "1e-12", "0.05", "0.5"]:
        ex = X.tradeoff("laplace", {"eps": "0.1"}, 100, alpha, 15)
        rb = comp.tradeoff(alpha)
        assert rb.power_lower <= ex.complement <= rb.power, alpha


def test_masses_add_to_one_and_atoms_sit_on_the_lattice():
    with mpmath.workdps(30):
        law = X.LaplaceLaw(sp.Rational("0.3"), 9)
        for t in ["-2.1", "-0.3", "0.9", "1.3", "2.7"]:
            t = mpmath.mpf(t)
            pa, qa = law.atom(t)
            assert abs(law.q_above(t) + law.q_below(t) + qa - 1) < mpmath.mpf(10) ** -28
            assert abs(law.p_above(t) + law.p_below(t) + pa - 1) < mpmath.mpf(10) ** -28
        # atom at 3 eps (J = 6 of 9): Q-mass C(9,6) 2^-9 e^{-6 eps}, by hand
        pa, qa = law.atom(mpmath.mpf("0.9"))
        assert abs(qa - mpmath.binomial(9, 6) / 512 * mpmath.exp(-mpmath.mpf("1.8"))) < mpmath.mpf(10) ** -28


def test_eps_zero_is_the_identity():
    assert X.eps("laplace", {"eps": "0"}, 5, "1e-9", 15).value.p == 0      # Exact(0)
    t = X.tradeoff("laplace", {"eps": "0"}, 5, "0.3", 15)
    assert abs(t.value - mpmath.mpf("0.7")) < 1e-15


# ------------------------------------------------------------------ mutations


def _spline_fresh():
    CL.spline.cache_clear()


def test_mutation_wrong_krawtchouk_sign_is_caught(monkeypatch):
    orig = CL.LaplaceSpline.__init__

    def wrong(self, e, k):
        orig(self, e, k)
        plus = self.flint.fmpz_poly([1, 1])
        self.kraw = [None] + [plus ** k for _ in range(k)]        # (1 + w)^k instead of (1+w)^{k-m}(1-w)^m
    monkeypatch.setattr(CL.LaplaceSpline, "__init__", wrong)
    _spline_fresh()
    try:
        assert _compare("0.3", 5, FRACTIONS) != []
    finally:
        monkeypatch.undo()
        _spline_fresh()


def test_mutation_unwidened_short_exponential_is_caught(monkeypatch):
    """A Taylor polynomial of e^{-+az} of degree 3 without the eta widening: wrong digits, caught.
    (With the widening the ball would stay wide and the precision loop would refuse instead.)"""
    def short(self, sign):
        f = self.s.flint
        coeffs, c = [], f.arb(1)
        for j in range(4):
            coeffs.append(c)
            c = c * sign * self.a / (j + 1)
        return f.arb_poly(coeffs), f.arb(1)
    monkeypatch.setattr(CL._Balls, "_exp_poly", short)
    _spline_fresh()
    try:
        assert _compare("1", 7, FRACTIONS) != []
    finally:
        monkeypatch.undo()
        _spline_fresh()


def test_mutation_mirror_is_caught(monkeypatch):
    monkeypatch.setattr(CL.Tails, "p_above", lambda self, t: self.q_above(-t))
    assert _compare("0.6", 2, FRACTIONS) != []


def test_tiny_eps_by_quadrature_and_scaling():
    """eps = 1e-30, two steps, delta(eps/10): the quadrature reference at 80 digits.  delta(eps/10)/eps
    has a limit as eps -> 0 (the loss scales with eps), so at eps = 1e-300, where the engine's grid
    cannot go (it refuses), the exact route's answer is 1e-270 times this one to 25 digits."""
    with mpmath.workdps(80):
        eps, s = mpmath.mpf("1e-30"), mpmath.mpf("1e-31")
        cuts = sorted({-eps, eps} | {min(max(s + c, -eps), eps) for c in (-eps, eps)})
        ref = (_delta1(eps, s - eps) / 2 + mpmath.exp(-eps) / 2 * _delta1(eps, s + eps)
               + mpmath.quad(lambda l: mpmath.exp((l - eps) / 2) / 4 * _delta1(eps, s - l), cuts))
    got = X.delta("laplace", {"eps": "1e-30"}, 2, "1e-31", 20).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -19 * ref
    tiny = X.delta("laplace", {"eps": "1e-300"}, 2, "1e-301", 20).value
    with mpmath.workdps(40):
        assert abs(tiny / (ref * mpmath.mpf(10) ** -270) - 1) < mpmath.mpf(10) ** -18
