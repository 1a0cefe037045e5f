"""Mutation tests for the claims of seeds 000 and 002 (proofs_check.claims_disclosure, claims_semantics,
claims_semantics_corollaries).

Each test breaks one piece of the code a claim checks (a formula in ``derive``, an evaluator in
``numeric``, a record constructor) with ``monkeypatch`` and asserts that the claim then reports
FAILED through ``proofs_check.checker.run`` -- not INCONCLUSIVE, not CONFIRMED.  Patches go on the
module object the claim reads at call time (``derive.gaussian``, ``numeric.mp.power``,
``derive.semantics.upper``...), never on a name bound at import in the claim module.  The SymPy
limits of ``derive.risk`` and the roots of ``derive.design`` are memoised: those caches are emptied
around each test so that a mutated record is derived afresh.
"""

from __future__ import annotations

import dataclasses

import mpmath
import pytest
import sympy as sp

import derive
from derive import composition as C
from derive import design as D
from derive import risk as R
from derive import semantics as S
from derive import symbols as sy
from derive.special import Phi, PhiInv
from mutations import assert_failed, mutated_record, scaled, status  # noqa: F401
from numeric import mp
from numeric import risk as NR
from proofs_check.discovery import all_claims

all_claims()


@pytest.fixture(autouse=True)
def _fresh_caches():
    R._CACHE.clear()
    D._ROOTS.clear()
    yield
    R._CACHE.clear()
    D._ROOTS.clear()


# ------------------------------------------------------------------ seed 000

def test_df_def6_catches_a_wrong_posterior(monkeypatch):
    from proofs_check import claims_disclosure as CD
    # a sign flip in the denominator of p_post (the claim reads derive.posterior.posterior through its
    # module-level import, so the name is patched on the claim module)
    monkeypatch.setattr(CD, "posterior", lambda rec: CD.prior * rec.power / (CD.prior_c * sy.alpha - CD.prior * rec.power))
    assert_failed("DF-Def6")


def test_df_thm2_catches_a_power_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(mp, "power", scaled(mp.power, "1.000000000001"))
    assert_failed("DF-Thm2")


def test_df_table1_catches_a_wrong_failure_class(monkeypatch):
    orig = R.failure_class
    monkeypatch.setattr(R, "failure_class", lambda below, rho: R.GRACEFUL if orig(below, rho) == R.NONE else orig(below, rho))
    assert_failed("DF-Table1")


def test_df_rho_a0_catches_a_ratio_increasing_in_alpha(monkeypatch):
    orig = mp.power

    def bent(rec, alpha, digits=15):
        with mpmath.workdps(60):
            return orig(rec, alpha, digits) * (1 + mpmath.mpf(alpha) * mpmath.mpf("1e-6"))
    monkeypatch.setattr(mp, "power", bent)
    assert_failed("DF-rho-a0")


def test_df_post_sup_catches_a_sup_off_by_1e_12(monkeypatch):
    orig = NR.risk

    def risk(*args, **kw):
        out = orig(*args, **kw)
        with mpmath.workdps(60):
            return dataclasses.replace(out, one_minus_posterior_sup=out.one_minus_posterior_sup
                                       * mpmath.mpf("1.000000000001"))
    monkeypatch.setattr(NR, "risk", risk)
    assert_failed("DF-post-sup")


def test_df_cor1_catches_a_wrong_rho_of_a_noise_record(monkeypatch):
    orig = D.rho_of_parameter
    monkeypatch.setattr(D, "rho_of_parameter", lambda rec: R.Limit(2 * orig(rec).value, "mutated"))
    assert_failed("DF-Cor1")


def test_df_fig4_gaussian_catches_a_shifted_power(monkeypatch):
    monkeypatch.setattr(derive, "gaussian", mutated_record(derive.gaussian, {sy.mu: sy.mu * sp.Rational(1001, 1000)}))
    assert_failed("DF-Fig4:gaussian")


def test_df_fig4_laplace_catches_a_wrong_root(monkeypatch):
    # (a mutated Laplace record sends SymPy's solve past the time limit: the roots are patched instead)
    orig = D.power_roots
    monkeypatch.setattr(D, "power_roots", lambda rec: [(r + sp.Rational(1, 100), c) for r, c in orig(rec)])
    assert_failed("DF-Fig4:laplace")


@pytest.mark.slow
def test_df_eq9_catches_a_wrong_ztest_power(monkeypatch):
    monkeypatch.setattr(D, "ztest_power", Phi(D.m / D.sigma_n + PhiInv(sy.alpha) + sp.Rational(1, 100)))
    assert_failed("DF-Eq9")


# ------------------------------------------------------------------ seed 002

def test_kz_t31_catches_a_sign_flip_in_the_posterior(monkeypatch):
    orig = S.posterior_of_loss
    monkeypatch.setattr(S, "posterior_of_loss", lambda member, value=S.loss: orig(not member, value))
    assert_failed("KZ-T3.1")


def test_kz_t32_t33_s44_c36_catch_a_wrong_upper_bound(monkeypatch):
    from derive.posterior import prior, prior_c
    monkeypatch.setattr(S, "upper", lambda e=sy.eps: prior * sp.exp(e) / (prior * sp.exp(e) + prior_c * sp.Rational(101, 100)))
    for cid in ("KZ-T3.2", "KZ-T3.3", "KZ-S4.4", "KZ-C3.6"):
        assert_failed(cid)


def test_kz_l34_and_c38_catch_a_wrong_tau(monkeypatch):
    monkeypatch.setattr(S, "tau", lambda e=sy.eps: sp.tanh(e / 4) * (1 + sp.Rational(1, 10**10)))
    assert_failed("KZ-L3.4")
    assert_failed("KZ-C3.8")


def test_kz_t35_and_exa1_catch_a_wrong_eps_tilde(monkeypatch):
    orig = S.eps_tilde
    monkeypatch.setattr(S, "eps_tilde", lambda e=sy.eps: orig(e) * (1 + sp.Rational(1, 10**9)))
    assert_failed("KZ-T3.5")
    assert_failed("KZ-EXA.1")


def test_kz_exa1_catches_eps_tilde_below_eps(monkeypatch):
    monkeypatch.setattr(S, "eps_tilde", lambda e=sy.eps: e * sp.Rational(99, 100))
    assert_failed("KZ-EXA.1")


@pytest.mark.slow
def test_kz_t39_and_corollaries_catch_a_wrong_eps_prime(monkeypatch):
    from sympy.codegen.cfunctions import log1p
    monkeypatch.setattr(S, "eps_prime", lambda e=sy.eps, d=sy.delta, dp=S.delta_p:
                        e + log1p(d * (1 + sp.exp(-e)) / (dp - d)) * (1 - sp.Rational(1, 10**9)))
    for cid in ("KZ-T3.9", "KZ-C3.10", "KZ-C3.11", "KZ-C3.12"):
        assert_failed(cid)


def test_kz_t39_gaussian_catches_eps_prime_without_the_delta_term(monkeypatch):
    monkeypatch.setattr(S, "eps_prime", lambda e=sy.eps, d=sy.delta, dp=S.delta_p: e + 0 * d * dp)
    assert_failed("KZ-T3.9:gaussian")


def test_kz_c37_catches_a_rho_off_by_1e_12(monkeypatch):
    orig = NR.risk

    def risk(*args, **kw):
        out = orig(*args, **kw)
        with mpmath.workdps(60):
            return dataclasses.replace(out, rho=out.rho * mpmath.mpf("1.000000000001"))
    monkeypatch.setattr(NR, "risk", risk)
    assert_failed("KZ-C3.7")


def test_kz_p42_catches_a_wrong_printed_tau(monkeypatch):
    monkeypatch.setattr(S, "tau_printed", lambda e=sy.eps: (sp.exp(e / 2) - 1) / (sp.exp(e / 2) + 2))
    assert_failed("KZ-P4.2")


def test_kz_t23_catches_a_wrong_laplace_record(monkeypatch):
    monkeypatch.setattr(derive, "laplace", mutated_record(derive.laplace, {sy.eps: sy.eps * sp.Rational(101, 100)}))
    assert_failed("KZ-T2.3")


def test_kz_t25_and_ta2_catch_a_wrong_profile(monkeypatch):
    monkeypatch.setattr(mp, "profile_delta", scaled(mp.profile_delta, 2))
    assert_failed("KZ-T2.5")
    monkeypatch.setattr(mp, "profile_delta", scaled(mp.profile_delta, "1.000000000001"))
    assert_failed("KZ-TA.2")


def test_kz_d26_catches_a_wrong_gaussian_record(monkeypatch):
    monkeypatch.setattr(derive, "gaussian", mutated_record(derive.gaussian, {sy.mu: sy.mu * sp.Rational(101, 100)}))
    assert_failed("KZ-D2.6")


def test_kz_d26_and_t27_catch_a_wrong_zcdp_constant(monkeypatch):
    monkeypatch.setattr(C, "bun_steinke_eps", C.rho + 3 * sp.sqrt(C.rho * sp.log(1 / sy.delta)))
    assert_failed("KZ-D2.6")
    obj = sp.Rational(9, 10) * C.order * C.rho + (sp.log(1 / sy.delta) + (C.order - 1) * sp.log(1 - 1 / C.order)
                                                   - sp.log(C.order)) / (C.order - 1)
    monkeypatch.setattr(C, "bun_steinke_eps", C.rho + 2 * sp.sqrt(C.rho * sp.log(1 / sy.delta)))
    monkeypatch.setattr(C, "cks_objective", obj)
    monkeypatch.setattr(C, "cks_stationarity", sp.diff(obj, C.order))
    assert_failed("KZ-T2.7")


def test_kz_t28_catches_a_wrong_kov_delta(monkeypatch):
    monkeypatch.setattr(C, "kov_grid_delta", C.kov_grid_delta * (1 + sp.Rational(1, 10**12)))
    assert_failed("KZ-T2.8")


def test_a_raising_evaluator_is_error_not_a_pass(monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("mutated evaluator")
    monkeypatch.setattr(NR, "posterior", boom)
    got, row = status("KZ-C3.6")
    assert got == "ERROR" and "mutated evaluator" in row["reason"]


def test_kz_t25_search_catches_a_fault_between_the_grid_points(monkeypatch):
    # the profile doubled only for 2 < eps < 3: no grid point (0, 0.1, 1, 5, 20) sees it, the search does
    orig = mp.profile_delta

    def wrong(record, eps, digits=15):
        value = orig(record, eps, digits)
        with mpmath.workdps(60):
            e = mpmath.mpf(str(eps))
            return value * 100 if 2 < e < 3 else value
    monkeypatch.setattr(mp, "profile_delta", wrong)
    row = assert_failed("KZ-T2.5")
    assert "eps" in str(row)


def test_certified_kz_t27_catches_a_wrong_cks_objective(monkeypatch):
    # the ordinary check's mutation above (0.9 rho a in the CKS objective), through the checker with
    # --certified: proved FAILED (an order a whose objective is below the exact Gaussian eps, certified)
    from proofs_check import checker, registry
    obj = sp.Rational(9, 10) * C.order * C.rho + (sp.log(1 / sy.delta) + (C.order - 1) * sp.log(1 - 1 / C.order)
                                                   - sp.log(C.order)) / (C.order - 1)
    monkeypatch.setattr(C, "cks_objective", obj)
    row = checker.run([registry._REGISTRY["KZ-T2.7"]], timeout=60, certified=True)["claims"][0]
    assert row["status"] == "FAILED" and row["certified"] is True, (row["status"], row["reason"][:300])
    assert row["counterexample"]["statement"] == "CKS >= exact"
