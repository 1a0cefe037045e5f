"""Mutation tests for proofs_check.claims_composition (seed 004 composition claims).

Each test breaks one piece of the exact composition routes (numeric/compose_exact.py) or of the
engine (numeric/pld.py) slightly, and the claim that checks it must report FAILED."""

from __future__ import annotations

import mpmath
import pytest

from mutations import assert_failed, assert_passes
from numeric import compose_exact as X
from proofs_check.discovery import all_claims

all_claims()


def test_kov_closed_form_catches_swapped_step_probabilities(monkeypatch):
    assert_passes("KOV17:closed-form")
    orig = X.BinomialLaw.__init__

    def swapped(self, *a):
        orig(self, *a)
        self.a, self.b = self.b, self.a
    monkeypatch.setattr(X.BinomialLaw, "__init__", swapped)
    assert_failed("KOV17:closed-form")


def test_kov_closed_form_catches_a_wrong_printed_exponent(monkeypatch):
    def wrong(eps, delta, k, i):
        e = mpmath.mpf(eps)
        d = mpmath.mpf(delta)
        s = mpmath.fsum(mpmath.binomial(k, l) * (mpmath.exp((k - l) * e) - mpmath.exp((k - 2 * i - l) * e))
                        for l in range(i))                    # sign of l flipped
        return 1 - (1 - d) ** k * (1 - s / (1 + mpmath.exp(e)) ** k)
    from proofs_check import claims_composition as CC
    monkeypatch.setattr(CC, "kov_printed", wrong)
    assert_failed("KOV17:closed-form")


def test_kov_binomial_catches_no_randomisation(monkeypatch):
    assert_passes("KOV17:binomial")
    orig = X.BinomialLaw.tradeoff            # (numeric.lattice_law: its own index search, not _Law's)

    def unrandomised(self, alpha):          # the boundary atom accepted whole: beta too large
        b, p = orig(self, alpha)
        return b * (1 + mpmath.mpf(10) ** -12), p
    monkeypatch.setattr(X.BinomialLaw, "tradeoff", unrandomised)
    assert_failed("KOV17:binomial")


@pytest.mark.slow
def test_gdp_composition_catches_a_wrong_mu(monkeypatch):
    orig = X.gdp_mu
    monkeypatch.setattr(X, "gdp_mu", lambda mus: orig(mus) * (1 + X.sp.Rational(1, 10**9)))
    assert_failed("DRS-Cor3.3")


def test_laplace_composition_catches_a_wrong_atom(monkeypatch):
    """One atom mass off by 1e-15 (relative) in the spline route: the 22-digit quadrature agreement fails."""
    from numeric import compose_laplace as CL
    assert_passes("Laplace-composition")
    orig = CL._Balls.atom
    monkeypatch.setattr(CL._Balls, "atom", lambda self, J: tuple(v * (1 + CL._flint().arb(10) ** -15)
                                                                 for v in orig(self, J)))
    CL.spline.cache_clear()
    try:
        assert_failed("Laplace-composition")
    finally:
        monkeypatch.undo()
        CL.spline.cache_clear()

