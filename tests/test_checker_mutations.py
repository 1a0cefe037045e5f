"""Mutation tests for the claims of proofs_check.claims_foundation and proofs_check.claims_attack.

For every claim family of these two modules, one piece of the code the claim checks is broken
with ``monkeypatch`` -- a formula in ``derive`` (a record constructor, a printed form), an
evaluator in ``numeric`` -- and the claim, run through ``proofs_check.checker.run``, must report
FAILED: not INCONCLUSIVE, not CONFIRMED, not ERROR.  The mutations are small (a relative 1e-12
or 1e-9 on a value, a shift of 1e-6 in a parameter, one flipped sign), so a claim that only
restates its own definition, or compares a value with itself, would let them through.

Patches go on the module object the claim reads when it runs (``derive.gaussian``,
``numeric.mp.power``, ``numeric.auc.auc``, ``derive.attack.printed_eq24``...): the claim modules
call ``derive.<constructor>`` and ``numeric.<module>.<function>`` through the module, and the
records of proofs_check.grid are built when a check runs.  Mutated expressions are new SymPy
objects, so the compile caches of numeric.bridge and the AUC cache of derive.auc see them afresh.

Controls: the cheap claims are run unmutated first in the same test (PROVEN or CONFIRMED); the
others are covered unmutated by the full check of tests/test_cli.py (no FAILED, no ERROR).
"""

from __future__ import annotations

import dataclasses
import importlib

import mpmath
import pytest
import sympy as sp

import derive
from derive import attack as DA
from derive import auc as DAUC
from derive import symbols as sy
from derive import two_sided as TWO
from derive.special import Phi, PhiInv
from derive.tradeoff import eps_prime
from mutations import (  # noqa: F401
    assert_failed,
    assert_passes,
    run,
    scaled,
    shifted,
    substituted,
    with_record,
)
from numeric import attack as NATT
from numeric import auc as NAUC
from numeric import mp
from numeric import two_sided as NTS
from proofs_check import claims_foundation as CF
from proofs_check import cli
from proofs_check.discovery import all_claims

all_claims()

#: the module (``derive.mechanisms.laplace`` the attribute is the constructor, which shadows it)
LAP = importlib.import_module("derive.mechanisms.laplace")

# ------------------------------------------------------------------ DRS-Prop2.2 (axioms)
def test_axioms_catch_a_concave_bump(monkeypatch):
    assert_passes("DRS-Prop2.2:randomized-response")
    bump = sy.alpha * (1 - sy.alpha) / 10   # f + bump: concave on the linear pieces, above 1 - alpha near 0
    monkeypatch.setattr(derive, "randomized_response",
                        with_record(derive.randomized_response, tradeoff=lambda r: r.tradeoff + bump,
                                    power=lambda r: r.power - bump))
    assert_failed("DRS-Prop2.2:randomized-response")


# ------------------------------------------------------------------ DD-complement
def test_complement_catches_a_shift_of_mu_in_the_gaussian_power(monkeypatch):
    # the example: mu shifted by 1e-6 in the power only; SymPy cannot simplify the sum to 1,
    # and the probes evaluate the difference at points of the domain
    assert_passes("DD-complement:gaussian")
    monkeypatch.setattr(derive, "gaussian", substituted(derive.gaussian, sy.mu, sy.mu + sp.Rational(1, 10**6),
                                                        fields=("power",)))
    assert_failed("DD-complement:gaussian")


def test_complement_catches_a_relative_1e_12_in_the_laplace_power(monkeypatch):
    assert_passes("DD-complement:laplace")
    factor = 1 + sp.Rational(1, 10**12)
    monkeypatch.setattr(derive, "laplace", with_record(derive.laplace, power=lambda r: r.power * factor))
    assert_failed("DD-complement:laplace")


# ------------------------------------------------------------------ DF-G and the paper forms
def test_df_g_catches_a_wrong_printed_form(monkeypatch):
    assert_passes("DF-G")
    monkeypatch.setattr(derive, "gaussian", with_record(
        derive.gaussian, paper=lambda r: Phi(PhiInv(1 - sy.alpha) - sy.mu * (1 + sp.Rational(1, 1000)))))
    assert_failed("DF-G")


def test_df_g_values_catch_the_evaluator_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(mp, "tradeoff", scaled(mp.tradeoff, "1.000000000001"))
    assert_failed("DF-G:values")


def test_df_g_values_catch_a_shift_of_mu_in_the_power(monkeypatch):
    monkeypatch.setattr(derive, "gaussian", substituted(derive.gaussian, sy.mu, sy.mu + sp.Rational(1, 10**6),
                                                        fields=("power",)))
    assert_failed("DF-G:values")


def test_logistic_paper_form_catches_a_shifted_stable_form(monkeypatch):
    assert_passes("DF-Eq-tradeoff:logistic")
    monkeypatch.setattr(derive, "noise", substituted(derive.noise, sy.mu, sy.mu * (1 + sp.Rational(1, 10**6))))
    assert_failed("DF-Eq-tradeoff:logistic")


def test_urs_add_remove_catches_a_wrong_second_piece(monkeypatch):
    assert_passes("DF-URS:add-remove")

    def wrong(rec):
        (p1, c1), (p2, c2) = rec.tradeoff.args
        return sp.Piecewise((p1, c1), (p2 * (1 + sp.Rational(1, 10**9)), c2))
    monkeypatch.setattr(derive, "uniform_sampling", with_record(derive.uniform_sampling, tradeoff=wrong))
    assert_failed("DF-URS:add-remove")


# ------------------------------------------------------------------ DF-Lap
def test_df_lap_catches_a_sign_change_in_the_laplace_closed_form(monkeypatch):
    assert_passes("DF-Lap")
    original = LAP.laplace_pieces

    def flipped(e):
        tradeoff, power = original(e)
        # e^-eps (1 - alpha) -> e^+eps (1 - alpha) on the third piece of f
        (p1, c1), (p2, c2), (p3, c3) = tradeoff.args
        return sp.Piecewise((p1, c1), (p2, c2), (p3.subs(sp.exp(-e), sp.exp(e)), c3)), power
    monkeypatch.setattr(LAP, "laplace_pieces", flipped)
    assert_failed("DF-Lap")


# ------------------------------------------------------------------ DRS-Cor2.13 and the profiles
def test_cor_2_13_catches_a_wrong_record_profile(monkeypatch):
    assert_passes("DRS-Cor2.13")
    wrong = sp.Piecewise((sp.S.Zero, sp.Eq(sy.mu, 0)),
                         (Phi(-eps_prime / sy.mu + sy.mu / 2 + sp.Rational(1, 10**9))
                          - sp.exp(eps_prime) * Phi(-eps_prime / sy.mu - sy.mu / 2), True))
    monkeypatch.setattr(derive, "gaussian", with_record(derive.gaussian, profile=lambda r: wrong))
    assert_failed("DRS-Cor2.13")


def test_cor_2_13_catches_profile_delta_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(mp, "profile_delta", scaled(mp.profile_delta, "1.000000000001"))
    assert_failed("DRS-Cor2.13")


def test_profile_claims_catch_a_wrong_laplace_profile(monkeypatch):
    wrong = sp.Piecewise((1 - sp.exp((eps_prime - sy.eps) / 3), eps_prime < sy.eps), (sp.S.Zero, True))
    monkeypatch.setattr(derive, "laplace", with_record(derive.laplace, profile=lambda r: wrong))
    assert_failed("DD-profile:pure-and-approx")


def test_dual_primal_catches_the_conversion_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(mp, "tradeoff_from_profile", scaled(mp.tradeoff_from_profile, "1.000000000001"))
    assert_failed("DRS-dual-primal:gaussian")


# ------------------------------------------------------------------ DF-Thm1, DF-Cor2
def test_theorem1_catches_a_posterior_that_reaches_1_at_alpha_1(monkeypatch):
    original = CF.one_minus_posterior
    # the claim module binds one_minus_posterior at import: the name is patched there
    monkeypatch.setattr(CF, "one_minus_posterior", lambda rec: original(rec) * (1 - sy.alpha))
    assert_failed("DF-Thm1")


def test_corollary2_catches_power_off_by_1e_12(monkeypatch):
    # Laplace attains (1 - f(alpha))/alpha = e^eps for small alpha: a relative 1e-12 above breaks it
    assert_passes("DF-Cor2")
    monkeypatch.setattr(mp, "power", scaled(mp.power, "1.000000000001"))
    assert_failed("DF-Cor2")


# ------------------------------------------------------------------ LXM-Eq24 / Eq12 family
def _fscore_scaled(fn, factor):
    def wrapped(*args, **kw):
        out = fn(*args, **kw)
        with mpmath.workdps(60):
            return dataclasses.replace(out, fscore=out.fscore * mpmath.mpf(factor))
    return wrapped


def test_eq24_catches_fscore_optimum_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(NATT, "fscore_optimum", _fscore_scaled(NATT.fscore_optimum, "1.000000000001"))
    assert_failed("LXM-Eq24")


@pytest.mark.slow
def test_eq24_and_eq12_alt_catch_a_sign_change_in_the_printed_form(monkeypatch):
    assert_passes("LXM-Eq12-alt")
    original = DA.printed_eq24

    def wrong():
        (p1, c1), (p2, c2) = original().args
        s = DA._s()
        return sp.Piecewise((p1, c1), ((1 + DA.beta**2) * (s - 1) / ((1 + DA.beta**2) * s - 1 - DA.beta**2), c2))
    monkeypatch.setattr(DA, "printed_eq24", wrong)
    assert_failed("LXM-Eq12-alt")
    assert_failed("LXM-Eq24")


def test_eq12_inverse_catches_a_shifted_printed_inverse(monkeypatch):
    original = DA.printed_inverse
    monkeypatch.setattr(DA, "printed_inverse", lambda: original() + sp.Rational(1, 10**9))
    assert_failed("LXM-Eq12-inv")


# ------------------------------------------------------------------ LXM-Thm2 / LXM-Thm3
def test_thm2_catches_a_worse_np_test(monkeypatch):
    # the NP level at a given recall inflated by 1%: the two-sided tests then beat it at small t
    assert_passes("LXM-Thm2")
    monkeypatch.setattr(mp, "tradeoff", scaled(mp.tradeoff, "1.01"))
    assert_failed("LXM-Thm2")


def test_thm3_catches_a_threshold_off_by_1e_20(monkeypatch):
    assert_passes("LXM-Thm3")
    original = NATT.pr

    def wrong(*args, **kw):
        out = original(*args, **kw)
        with mpmath.workdps(60):
            return dataclasses.replace(out, threshold=out.threshold * (1 + mpmath.mpf(10) ** -20))
    monkeypatch.setattr(NATT, "pr", wrong)
    assert_failed("LXM-Thm3")


# ------------------------------------------------------------------ LXM-Eq15-stat
def test_eq15_catches_the_gaussian_optimum_off_by_1e_9(monkeypatch):
    monkeypatch.setattr(NATT, "fscore_optimum", _fscore_scaled(NATT.fscore_optimum, "1.000000001"))
    assert_failed("LXM-Eq15-stat")


# ------------------------------------------------------------------ DF-AUC family
def test_auc_catches_the_evaluator_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(NAUC, "auc", shifted(NAUC.auc, "1e-12"))
    assert_failed("DF-AUC")
    assert_failed("DF-AUC:quadrature")


def test_auc_catches_a_wrong_printed_closed_form(monkeypatch):
    original = DAUC.printed_auc

    def wrong(record):
        expr = original(record)
        return expr + sy.eps / 10**6 if record.name == "laplace" else expr
    monkeypatch.setattr(DAUC, "printed_auc", wrong)
    assert_failed("DF-AUC")


# ------------------------------------------------------------------ MHA family
def test_mha_a_catches_the_laplace_auc_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(NTS, "auc_exact_laplace", shifted(NTS.auc_exact_laplace, "1e-12"))
    assert_failed("MHA-(a)")


def test_mha_a_catches_a_wrong_power_curve(monkeypatch):
    original = TWO.laplace_power
    monkeypatch.setattr(TWO, "laplace_power", lambda: original().subs(sp.cosh(TWO.r), sp.cosh(TWO.r) * (1 + sp.Rational(1, 10**9))))
    assert_failed("MHA-(a)")


def test_mha_b_catches_a_shifted_normal_power(monkeypatch):
    assert_passes("MHA-(b)")
    original = TWO.normal_power
    monkeypatch.setattr(TWO, "normal_power", lambda: original().subs(TWO.d, TWO.d + sp.Rational(1, 10**9)))
    assert_failed("MHA-(b)")


def test_mha_b_catches_the_normal_auc_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(NTS, "auc_exact_normal", shifted(NTS.auc_exact_normal, "1e-12"))
    assert_failed("MHA-(b)")


@pytest.mark.slow
def test_mha_c_catches_a_wrong_closed_form(monkeypatch):
    """The stated closed form with 25 r for 24 r: SymPy's derivation disagrees (FAILED); the evaluator, which
    reads the stated form, then also leaves the quadrature of the difference law."""
    assert_passes("MHA-(c)")
    r = TWO.r
    monkeypatch.setattr(TWO, "laplace_difference_auc_printed",
                        lambda: 1 - (r**3 + 9 * r**2 + 25 * r + 24) * sp.exp(-r) / 48)
    assert_failed("MHA-(c)")


def test_mha_c_catches_the_difference_auc_off_by_1e_12(monkeypatch):
    monkeypatch.setattr(NTS, "auc_exact_laplace_difference", shifted(NTS.auc_exact_laplace_difference, "1e-12"))
    assert_failed("MHA-(c)")


def test_mha_def5_catches_an_auc_below_one_half(monkeypatch):
    monkeypatch.setattr(NTS, "auc_exact_laplace", shifted(NTS.auc_exact_laplace, "-1e-12"))
    assert_failed("MHA-Def5")


# ------------------------------------------------------------------ LXM-PRcurve
def test_pr_curve_catches_a_wrong_level(monkeypatch):
    assert_passes("LXM-PRcurve")
    original = DA.pr_curve
    # precision off by a relative 1e-9 at every recall
    wrong = lambda record: original(record) * (1 + sp.Rational(1, 10**9))  # noqa: E731
    monkeypatch.setattr(DA, "pr_curve", wrong)
    assert_failed("LXM-PRcurve")


# ------------------------------------------------------------------ a raising claim is ERROR, exit 1
def test_a_raising_evaluator_is_error_and_check_exits_1(monkeypatch, capsys):
    def boom(*args, **kw):
        raise RuntimeError("the AUC evaluator broke (test)")
    monkeypatch.setattr(NAUC, "auc", boom)
    row = run("DF-AUC:quadrature")
    assert row["status"] == "ERROR" and "RuntimeError" in row["reason"] and "broke" in row["reason"]
    assert cli.main(["check", "--claim", "DF-AUC:quadrature"]) == 1
    assert "ERROR" in capsys.readouterr().out
