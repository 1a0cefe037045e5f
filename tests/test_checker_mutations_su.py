"""Mutation tests for proofs_check.claims_su (seed 004: subsampling, CND, fixed point, discrete
Gaussian, Prop. 3.2): each breaks the code a claim checks and requires FAILED."""

from __future__ import annotations

import mpmath
import pytest

from mutations import assert_failed, assert_passes
from numeric import cnd
from numeric import compose_exact as X
from numeric import discrete_gaussian as DG
from numeric import subsampling as S
from proofs_check.discovery import all_claims

all_claims()


@pytest.mark.slow
def test_cp_hull_catches_a_wrong_fixed_point(monkeypatch):
    assert_passes("DRS-Thm4.2:Cp-hull")
    orig = S.Subsampled.fixed_point
    monkeypatch.setattr(S.Subsampled, "fixed_point", lambda self: orig(self) * (1 + mpmath.mpf(10) ** -3))
    assert_failed("DRS-Thm4.2:Cp-hull")


def test_cp_symmetric_catches_a_scaled_curve(monkeypatch):
    orig = S.Subsampled.tradeoff
    monkeypatch.setattr(S.Subsampled, "tradeoff",
                        lambda self, x: tuple(v * (1 + mpmath.mpf(10) ** -9) for v in orig(self, x)))
    assert_failed("DRS-Thm4.2:Cp-symmetric")


def test_cp_poisson_pair_catches_a_wrong_amplification(monkeypatch):
    assert_passes("DRS-Thm4.2:Cp-poisson-pair")
    orig = S.Subsampled.delta_f
    monkeypatch.setattr(S.Subsampled, "delta_f", lambda self, e: orig(self, e * (1 + mpmath.mpf(10) ** -9)))
    assert_failed("DRS-Thm4.2:Cp-poisson-pair")


def test_cnd_and_fixed_point_catch_a_shifted_fixed_point(monkeypatch):
    assert_passes("SU-fixed-point")
    orig = cnd._F.fixed_point
    monkeypatch.setattr(cnd._F, "fixed_point", lambda self: orig(self) * (1 + mpmath.mpf(10) ** -9))
    assert_failed("SU-fixed-point")
    assert_failed("AV-CND:property")


def test_dg_profile_catches_a_wrong_normaliser(monkeypatch):
    assert_passes("CKS20:DG-profile")
    orig = DG.normaliser
    monkeypatch.setattr(DG, "normaliser", lambda s2: orig(s2) * (1 + mpmath.mpf(10) ** -15))
    assert_failed("CKS20:DG-profile")


def test_prop32_catches_swapped_step_probabilities(monkeypatch):
    assert_passes("WGZ22-Prop3.2")
    orig = X.BinomialLaw.__init__

    def swapped(self, *a):
        orig(self, *a)
        self.a, self.b = self.b, self.a
    monkeypatch.setattr(X.BinomialLaw, "__init__", swapped)
    assert_failed("WGZ22-Prop3.2")


def test_eq41_catches_a_mixture_tradeoff_off_by_1e_9(monkeypatch):
    from numeric import mixtures as MX
    orig = MX.Mixture.tradeoff
    monkeypatch.setattr(MX.Mixture, "tradeoff", lambda self, a: orig(self, a) * (1 - mpmath.mpf(10) ** -9))
    assert_failed("SU-Eq4.1")
