"""Mutation tests for proofs_check.claims_links and the (eps, delta) CLT claim: each breaks the code the
claim checks (a closed form, the quadrature, the discrete Gaussian sums, the GDP profile of the limit)
and requires FAILED."""

from __future__ import annotations

from dataclasses import replace

import mpmath
import pytest
import sympy as sp

from derive import functionals as D
from mutations import assert_failed, assert_passes, quadrature_off_by_1e_12
from numeric import clt as C
from numeric import discrete_gaussian as DG
from proofs_check.discovery import all_claims

all_claims()


def _renyi_closed_form_off_by_1e_12(monkeypatch):
    orig = D.closed_form

    def wrong(record, name):
        expr = orig(record, name)
        return expr * (1 + sp.Rational(1, 10**12)) if name == "renyi" else expr
    monkeypatch.setattr(D, "closed_form", wrong)


@pytest.mark.slow
def test_renyi_links_catch_a_wrong_closed_form(monkeypatch):
    for claim_id in ("Mironov-Renyi:laplace", "SU-link:rr-renyi"):
        assert_passes(claim_id)
    _renyi_closed_form_off_by_1e_12(monkeypatch)
    for claim_id in ("Mironov-Renyi:laplace", "SU-link:rr-renyi"):
        assert_failed(claim_id)


def test_laplace_kl_catches_a_wrong_closed_form(monkeypatch):
    assert_passes("SU-kl:laplace")
    orig = D.closed_form
    monkeypatch.setattr(D, "closed_form", lambda r, n: orig(r, n) + (sp.exp(-2 * list(r.parameters)[0]) / 10**10
                                                                     if n == "kl" else 0))
    assert_failed("SU-kl:laplace")


@pytest.mark.slow
def test_gdp_renyi_catches_a_wrong_quadrature(monkeypatch):
    assert_passes("SU-link:gdp-renyi")
    quadrature_off_by_1e_12(monkeypatch)
    assert_failed("SU-link:gdp-renyi")


def test_dg_functionals_catch_wrong_sums(monkeypatch):
    assert_passes("CKS20:DG-functionals")
    orig = DG.functional
    # the loss shifted by a hair: kl and rho move, TV does not
    monkeypatch.setattr(DG, "_loss", lambda z, s2: (2 * mpmath.mpf(z) - 1) / (2 * s2) * (1 + mpmath.mpf(10) ** -12))
    assert_failed("CKS20:DG-functionals")
    monkeypatch.undo()
    monkeypatch.setattr(DG, "functional", lambda name, s2, order=None: orig(name, s2, order) *
                        ((1 + mpmath.mpf(10) ** -12) if name == "tv" else 1))
    assert_failed("CKS20:DG-functionals")


def test_approx_clt_catches_a_wrong_limit(monkeypatch):
    assert_passes("DRS-Thm3.6:approx")
    orig = C.gdp_delta
    monkeypatch.setattr(C, "gdp_delta", lambda mu, eps, digits: orig(mu * (1 + mpmath.mpf("0.01")), eps, digits))
    assert_failed("DRS-Thm3.6:approx")


def test_laplace_clt_catches_a_wrong_mu(monkeypatch):
    assert_passes("DRS-Thm3.4:laplace")
    orig = C.clt

    def wrong(entries, digits=15):
        r = orig(entries, digits)
        return replace(r, mu=r.mu * (1 + mpmath.mpf(10) ** -15))
    monkeypatch.setattr(C, "clt", wrong)
    assert_failed("DRS-Thm3.4:laplace")


def test_edgeworth_lattice_catches_a_skew_term_dropped(monkeypatch):
    assert_passes("WGZ22-Edgeworth:lattice")
    # without its skewness correction the Edgeworth delta is the CLT delta: no longer the farther one
    monkeypatch.setattr(C, "edgeworth_delta", lambda r, e: C.gdp_delta(r.mu, e, 20))
    assert_failed("WGZ22-Edgeworth:lattice")
