"""numeric.pld_grid.estimate_law: the float stand-in for a step's untilted measure that places an eps(delta) query's
first tilt and its grid (issue #25: 1000 distinct Laplace steps, eps(1e-6)).

References: the cumulant generating function of a Laplace step's privacy loss, log E_P[e^{lam L}] =
log int p^{1 + lam} q^{-lam} dx with p = Lap(1, 1/eps), q = Lap(0, 1/eps) (the densities, not the loss model), by
mpmath quadrature split at the kinks 0 and 1; and the Gaussian step's closed form lam (lam + 1) mu^2 / 2."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import dpsgd, pld
from numeric import pld_grid as G
from numeric import pld_mechanisms as M


def _law_cgf(meas, h, lam):
    l = meas.knots * float(h)
    return float(np.log(np.sum(meas.mass * np.exp(lam * l))))


def _laplace_cgf(eps, lam):
    with mpmath.workdps(30):
        e, a = mpmath.mpf(eps), mpmath.mpf(lam)
        p = lambda x: e / 2 * mpmath.exp(-e * abs(x - 1))       # noqa: E731
        q = lambda x: e / 2 * mpmath.exp(-e * abs(x))           # noqa: E731
        f = lambda x: p(x) ** (1 + a) * q(x) ** (-a)            # noqa: E731
        return float(mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, 1, mpmath.inf])))


@pytest.mark.parametrize("eps", ["0.01", "0.3", "2"])
@pytest.mark.parametrize("lam", [0.5, 3.0, 20.0])
def test_laplace_law_matches_the_cgf(eps, lam):
    model = M.laplace(eps).directions[0]
    h = Fraction(1, 10 ** 4) * Fraction(eps)
    law = G.estimate_law(model, h)
    assert law is not None
    ref = _laplace_cgf(eps, lam)
    assert abs(_law_cgf(law, h, lam) - ref) <= 1e-3 * max(1.0, abs(ref))


def test_gaussian_law_matches_the_closed_form():
    model = M.gaussian("0.7").directions[0]
    h = Fraction(1, 2 ** 12)
    law = G.estimate_law(model, h)
    for lam in (0.5, 4.0):
        ref = lam * (lam + 1) * 0.49 / 2
        assert abs(_law_cgf(law, h, lam) - ref) <= 1e-3 * max(1.0, ref)


def test_a_weakly_subsampled_step_is_left_to_the_certified_measure():
    """q = 0.01, sigma = 1: the loss's spread (~0.013) is under two coarse cells of its range (~36 wide)."""
    model = M.subsampled_gaussian("0.01", "1").directions[0]
    assert G.estimate_law(model, Fraction(1, 2 ** 14)) is None
    comp = dpsgd._composition(Fraction("0.01"), Fraction(1), 10)
    assert comp._estimate_ups(0) is comp._measures(0, 0.0, lower=False)[0]


def test_mutation_unpadded_law_loses_the_lower_atom(monkeypatch):
    """Without the padding cell the atom at -eps (P-mass e^-eps / 2) falls outside every cell."""
    orig = G._coarse_law
    monkeypatch.setattr(G, "_coarse_law", lambda model, pad=False: orig(model, False))
    model = M.laplace("0.3").directions[0]
    h = Fraction(3, 10 ** 5)
    law = G.estimate_law(model, h)
    assert not abs(_law_cgf(law, h, 0.5) - _laplace_cgf("0.3", 0.5)) <= 1e-3


def test_the_query_bracket_holds_the_exact_eps_with_either_estimate(monkeypatch):
    """The estimate only places the tilt: 30 x Laplace(0.2) gives a certified eps(1e-6) bracket around the exact
    route's value (numeric.compose_exact.LaplaceLaw, the spline of the composed law: another method), with the
    float laws and with the certified untilted measures in their place."""
    import sympy as sp

    from numeric import compose_exact as X
    with mpmath.workdps(30):
        ref = X.LaplaceLaw(sp.Rational("0.2"), 30).eps(mpmath.mpf("1e-6"))
    with_float = pld.compose([(M.laplace("0.2"), 30)]).eps("1e-6")
    monkeypatch.setattr(pld.Composition, "_estimate_ups", lambda self, d, trunc=None: self._measures(d, 0.0, False, trunc)[0])
    with_cert = pld.compose([(M.laplace("0.2"), 30)]).eps("1e-6")
    for r in (with_float, with_cert):
        assert r.certified and r.eps_lower <= ref <= r.eps_upper
        assert r.eps_upper - r.eps_lower <= 1e-4 * ref
