"""Verdict-flip mutation tests for the statement claims that had none (issue #23 rule: every
statement claim has one).

Each test asserts the claim's current verdict, then breaks one thing with ``monkeypatch``: either
the toolkit code the claim relies on (the claim must then say FAILED: its corrected check or the
agreement with the independent references no longer holds), or the paper's side (a printed form or
a printed setting, so that the paper's statement would hold: REFUTED becomes CONFIRMED).  The
patch targets are the attributes the claim modules look up at call time (``numeric.mp.power`` for
``from numeric import mp``; a name imported into a claim module is patched in that module).

Every flip test in the suite is tagged ``@flips(claim id, ...)`` (tests/flips.py), and
tests/test_flip_coverage.py checks that each statement claim has one; the flips of the other
statement claims are in tests/test_errata.py, tests/test_errata_referee.py,
tests/test_fidelity_claims.py and tests/test_errata_dpsgd_clt.py.

Not covered here: a paper-side flip of KZ-S2.1-PDP (the claim has no REFUTED branch, and its own
FAILED branch 'P[|L| > 1] <= delta(1)' cannot be reached while the three values agree with the
Gaussian law; tests/test_errata.py::test_mutation_confirmed_statement_can_fail covers its FAILED flip).
"""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

import derive
import numeric.auc
import numeric.design
import numeric.mp
import numeric.risk
import numeric.two_sided
from derive import symbols as sy
from derive import two_sided as TS
from flips import flips
from proofs_check import checker
from proofs_check import claims_errata_000 as E0
from proofs_check.grid import normal_sf

#: the module (``derive.mechanisms.gaussian`` as an attribute is the function of that name)
GAUSSIAN_MODULE = importlib.import_module("derive.mechanisms.gaussian")


def _status(claim_id: str) -> str:
    (c,) = checker.select(claim_id=claim_id)
    return checker.evaluate(c, timeout=60)["status"]


def _off(fn, factor="1e-9"):
    """``fn`` with its (mpf) result multiplied by 1 + factor."""
    def wrapped(*a, **k):
        return fn(*a, **k) * (1 + mpmath.mpf(factor))
    return wrapped


# ------------------------------------------------------------------ seed 000 (de Fondeville)


@flips("DF-Errata-approxDP-probabilistic")
def test_flip_df_approx_dp_probabilistic_profile_first_term_only(monkeypatch):
    """DF-Errata-approxDP-probabilistic: a hockey-stick divergence that forgets its second term
    (delta(eps) = P_Q[L > eps] instead of P_Q[L > eps] - e^eps P_P[L > eps]) makes delta(1) equal to
    P[L > 1], so 'the pure-DP inequality holds with probability 1 - delta' would no longer have a
    counter-example; the profile then disagrees with the quadrature of (q - e^eps p)_+ and the
    claim must say FAILED, not REFUTED (and never CONFIRMED)."""
    assert _status("DF-Errata-approxDP-probabilistic") == "REFUTED"

    def first_term_only(record, eps, digits=15):
        with mpmath.workdps(digits + 10):
            mu, e = mpmath.mpf(str(record.values[sy.mu])), mpmath.mpf(eps)
            return normal_sf(e / mu - mu / 2)
    monkeypatch.setattr(numeric.mp, "profile_delta", first_term_only)
    assert _status("DF-Errata-approxDP-probabilistic") == "FAILED"


@flips("DF-Errata-Thm2-asymptotic")
def test_flip_df_thm2_asymptotic_power_by_cancellation(monkeypatch):
    """DF-Errata-Thm2-asymptotic: the refutation rests on 1 - f(alpha) of G_1 down to alpha = 1e-300.
    A power computed as 1 - mp.tradeoff (catastrophic cancellation at 15 digits) loses every tail below
    about 1e-16 (the Laplace (1 - f)/alpha at 1e-100 comes out 0 instead of e): the corrected check
    against e and the normal tail must fail (FAILED)."""
    assert _status("DF-Errata-Thm2-asymptotic") == "REFUTED"
    tradeoff = numeric.mp.tradeoff
    monkeypatch.setattr(numeric.mp, "power", lambda record, alpha, digits=15: 1 - tradeoff(record, alpha, digits))
    assert _status("DF-Errata-Thm2-asymptotic") == "FAILED"


@flips("DF-Errata-Cor2-proof-direction")
def test_flip_df_cor2_direction_fe0_taken_as_laplace(monkeypatch):
    """DF-Errata-Cor2-proof-direction: if f_{eps,0} were the Laplace trade-off (the usual confusion
    of 'eps-DP' with 'the Laplace mechanism'), the paper's 'f <= f_{eps,0}' would hold for Laplace(1)
    at alpha = 0.3 (equality) and the counter-example would disappear; the corrected check compares
    f_{1,0}(0.3) with max{0, 1 - e a, e^-1 (1 - a)} and must fail (FAILED)."""
    assert _status("DF-Errata-Cor2-proof-direction") == "REFUTED"
    laplace = derive.laplace
    monkeypatch.setattr(derive, "approx_dp", lambda eps=None, delta=None: laplace(eps))
    assert _status("DF-Errata-Cor2-proof-direction") == "FAILED"


@flips("DF-Errata-Eq-tradeoff-printed")
def test_flip_df_eq_tradeoff_printed_as_appendix_form_is_confirmed(monkeypatch):
    """DF-Errata-Eq-tradeoff-printed (paper side): the claim builds the printed formula
    F{F^-1(alpha) - mu} from the module's PhiInv.  With PhiInv(x) read as PhiInv(1 - x) the 'printed'
    formula is the appendix's F{F^-1(1 - alpha) - mu}, a trade-off function (G_1(0.9) = 0.011 < 0.1),
    while the record and mp.tradeoff are untouched: no counter-example, CONFIRMED."""
    assert _status("DF-Errata-Eq-tradeoff-printed") == "REFUTED"
    phi_inv = E0.PhiInv
    monkeypatch.setattr(E0, "PhiInv", lambda x: phi_inv(1 - x))
    assert _status("DF-Errata-Eq-tradeoff-printed") == "CONFIRMED"


@flips("DF-Errata-S5.2-criterion")
def test_flip_df_s52_criterion_beta_read_as_power_loss(monkeypatch):
    """DF-Errata-S5.2-criterion: a ztest_min_mu that reads the printed criterion (relative increase of
    the type II error beta <= 1%) as a relative power loss <= 1% (the two criteria merged, gap L p0
    instead of B (1 - p0)) returns a mu_min that disagrees with the closed form of the beta
    criterion: FAILED."""
    assert _status("DF-Errata-S5.2-criterion") == "REFUTED"
    orig = numeric.design.ztest_min_mu

    def merged(n, sigma, m, alpha, max_relative_loss=None, min_power=None, delta_q=None, digits=15,
               max_relative_beta_increase=None):
        if max_relative_beta_increase is not None:
            max_relative_loss, max_relative_beta_increase = max_relative_beta_increase, None
        return orig(n, sigma, m, alpha, max_relative_loss=max_relative_loss, min_power=min_power, delta_q=delta_q,
                    digits=digits, max_relative_beta_increase=max_relative_beta_increase)
    monkeypatch.setattr(numeric.design, "ztest_min_mu", merged)
    assert _status("DF-Errata-S5.2-criterion") == "FAILED"


@flips("DF-Errata-Fig5-mu>=1")
def test_flip_df_fig5_larger_effect_is_confirmed(monkeypatch):
    """DF-Errata-Fig5-mu>=1 (paper side): the erratum rests on Fig. 5's effect size m = 0.2 (power 0.432
    against 0.780 at n = 15, mu = 1).  Had the figure used m = 0.5, the power at mu = 1 would be
    virtually unaffected for every n (relative loss about 1e-3 at n = 15), the statement would be true
    and the corrected statement (loss <= 1% at (15, 10), (100, 1), (500, 1)) still holds: CONFIRMED."""
    assert _status("DF-Errata-Fig5-mu>=1") == "REFUTED"
    monkeypatch.setattr(E0, "_M", "0.5")
    assert _status("DF-Errata-Fig5-mu>=1") == "CONFIRMED"


@flips("DF-Fig4-Laplace-stronger")
def test_flip_df_fig4_laplace_calibrated_to_gaussian_variance(monkeypatch):
    """DF-Fig4-Laplace-stronger (CONFIRMED): a Laplace record calibrated to the Gaussian's variance
    (eps = sqrt2 mu instead of eps = mu) is the stronger attack at alpha0 = 0.1 for mu near 1 (the ROC
    curves cross at alpha = 0.088): the sweep of power(Gaussian) - power(Laplace) over mu in [0.01, 10]
    finds a negative margin (about -0.2 at mu = 1.42, alpha0 = 0.1) and must fail (FAILED); were the
    sweep to pass, the agreement with the Laplace law at eps = mu would fail instead."""
    assert _status("DF-Fig4-Laplace-stronger") == "CONFIRMED"
    laplace = derive.laplace

    def variance_matched(eps=None):
        with mpmath.workdps(40):
            return laplace(mpmath.nstr(mpmath.sqrt(2) * mpmath.mpf(eps), 30))
    monkeypatch.setattr(derive, "laplace", variance_matched)
    assert _status("DF-Fig4-Laplace-stronger") == "FAILED"


@flips("DF-URS-ROC")
def test_flip_df_urs_roc_failure_class_branches_swapped(monkeypatch):
    """DF-URS-ROC (CONFIRMED): a failure classification with its branches swapped (f(0) < 1 called
    'graceful', rho = oo 'catastrophic') classes URS(0.1, 5) as graceful although f(0) = 1 - p < 1;
    the AUC, f(0) and posterior rows still agree, the class check must fail (FAILED)."""
    assert _status("DF-URS-ROC") == "CONFIRMED"
    R = numeric.risk.R       # derive.risk, as numeric.risk.classify looks it up

    def swapped(f0_below_one, rho_value):
        if f0_below_one:
            return R.GRACEFUL
        return R.CATASTROPHIC if rho_value is sp.oo else R.NONE
    monkeypatch.setattr(R, "failure_class", swapped)
    assert _status("DF-URS-ROC") == "FAILED"


# ------------------------------------------------------------------ seed 001 (Liu et al.)


@flips("LXM-Errata-GaussSigma-range")
def test_flip_lxm_gauss_sigma_calibration_constant(monkeypatch):
    """LXM-Errata-GaussSigma-range: classical_gaussian calibrated with ln(1/delta) instead of
    ln(1.25/delta) (the constant 1.25 dropped) gives a smaller sigma than the paper's; its delta(eps)
    disagrees with the quadrature at mu = eps/sqrt(2 ln(1.25/delta)) and the claim must say FAILED."""
    assert _status("LXM-Errata-GaussSigma-range") == "REFUTED"
    monkeypatch.setattr(GAUSSIAN_MODULE, "classical_mu",
                        lambda eps_expr, delta_expr: eps_expr / sp.sqrt(2 * sp.log(1 / delta_expr)))
    assert _status("LXM-Errata-GaussSigma-range") == "FAILED"


# ------------------------------------------------------------------ seed 003 (Matthews et al.)


@flips("MHA-Errata-Gauss-calibration")
def test_flip_mha_gauss_calibration_profile_off(monkeypatch):
    """MHA-Errata-Gauss-calibration: the refutation (delta(1.9) = 0.9925 at the printed bound) is
    computed by mp.profile_delta of the Gaussian record; a profile off by a relative 1e-9 (ten times
    the claim's tolerance 1e-10) disagrees with the quadrature of the hockey stick: FAILED."""
    assert _status("MHA-Errata-Gauss-calibration") == "REFUTED"
    monkeypatch.setattr(numeric.mp, "profile_delta", _off(numeric.mp.profile_delta))
    assert _status("MHA-Errata-Gauss-calibration") == "FAILED"


@flips("MHA-Errata-Table3-delta-range")
def test_flip_mha_table3_auc_off(monkeypatch):
    """MHA-Errata-Table3-delta-range: the 'delta >= 1 is vacuous' half rests on the AUC of a release of
    the record (URS mu = 80, n = 1), 1 - e^-160/2.  An AUC lowered by a relative 1e-9 disagrees with
    1 - (1 - p)^2/2 (tolerance 1e-10): FAILED.  (Dropping the 1/2 of the triangle is not a usable
    mutation here: it changes this AUC by 1e-70 only.)"""
    assert _status("MHA-Errata-Table3-delta-range") == "REFUTED"
    monkeypatch.setattr(numeric.auc, "auc", _off(numeric.auc.auc, "-1e-9"))
    assert _status("MHA-Errata-Table3-delta-range") == "FAILED"


@flips("MHA-Errata-Table2-vs-Table1-scale")
def test_flip_mha_table2_left_endpoint_sum(monkeypatch):
    """MHA-Errata-Table2-vs-Table1-scale: auc_riemann as a left-endpoint sum (power(0) = 0 in place of
    power(1) = 1, i.e. 1/n = 0.001 less) is no longer Table 1's procedure; it disagrees with the
    right-endpoint sum written from the Laplace law (tolerance 1e-9): FAILED."""
    assert _status("MHA-Errata-Table2-vs-Table1-scale") == "REFUTED"
    orig = numeric.two_sided.auc_riemann
    monkeypatch.setattr(numeric.two_sided, "auc_riemann", lambda kind, shift, n=1000: orig(kind, shift, n) - 1 / n)
    assert _status("MHA-Errata-Table2-vs-Table1-scale") == "FAILED"


@flips("MHA-ROC-cross")
def test_flip_mha_roc_cross_power_off(monkeypatch):
    """MHA-ROC-cross (CONFIRMED): the crossing is read from mp.power of Laplace(sqrt2) and G_1; a power
    off by a relative 1e-9 disagrees with the Laplace and normal laws (tolerance 1e-12): FAILED."""
    assert _status("MHA-ROC-cross") == "CONFIRMED"
    monkeypatch.setattr(numeric.mp, "power", _off(numeric.mp.power))
    assert _status("MHA-ROC-cross") == "FAILED"


@flips("MHA-Errata-Eq2-statistic-not-standardised")
def test_flip_mha_eq2_printed_statistic_standardised_is_confirmed(monkeypatch):
    """MHA-Errata-Eq2-statistic-not-standardised (paper side): the size 0.1658 at alpha = 0.05 comes from
    Var(A) = 2 under H0 for the printed A = (X_R - X'_R)/tau.  Had Eq. 2 divided by sqrt2 tau (Var(A) = 1),
    |A| > Z_{alpha/2} would have size alpha exactly: no counter-example, and the corrected check (the
    standardised test's size from derive.two_sided.normal_power) is untouched: CONFIRMED."""
    from proofs_check import claims_errata_003 as E3
    assert _status("MHA-Errata-Eq2-statistic-not-standardised") == "REFUTED"
    monkeypatch.setattr(E3, "_EQ2_NULL_VARIANCE", 1)
    assert _status("MHA-Errata-Eq2-statistic-not-standardised") == "CONFIRMED"


@flips("MHA-Errata-Eq2-statistic-not-standardised")
def test_flip_mha_eq2_one_sided_critical_value_is_failed(monkeypatch):
    """MHA-Errata-Eq2-statistic-not-standardised (toolkit side): a two-sided normal power written with the
    one-sided critical value PhiInv(alpha) in place of PhiInv(alpha/2) has size 2 alpha at d = 0; the
    corrected check (size of the standardised test = alpha) must fail (FAILED)."""
    assert _status("MHA-Errata-Eq2-statistic-not-standardised") == "REFUTED"

    def one_sided_critical_value():
        z = TS.PhiInv(sy.alpha)
        return TS.Phi(TS.d + z) + TS.Phi(z - TS.d)
    monkeypatch.setattr(TS, "normal_power", one_sided_critical_value)
    assert _status("MHA-Errata-Eq2-statistic-not-standardised") == "FAILED"


# ------------------------------------------------------------------ seed 004 (Su)


@flips("SU-Thm5-tight")
def test_flip_su_thm5_profile_at_smaller_eps(monkeypatch):
    """SU-Thm5-tight (CONFIRMED): delta(eps) of f_{eps,delta} is delta exactly at eps and larger below
    it.  A profile evaluated at eps (1 - 1e-9) (an eps rounded down on input) returns a delta that is
    too large by about e^eps 1e-9 eps (1 - delta)/(1 + e^eps) (7.3e-10 at eps = 1, delta = 1e-5, a
    relative 7e-5): it no longer equals 1 + f*(-e^eps) = delta: FAILED."""
    assert _status("SU-Thm5-tight") == "CONFIRMED"
    orig = numeric.mp.profile_delta

    def rounded_down(record, eps, digits=15):
        with mpmath.workdps(40):
            return orig(record, mpmath.nstr(mpmath.mpf(eps) * (1 - mpmath.mpf("1e-9")), 30), digits)
    monkeypatch.setattr(numeric.mp, "profile_delta", rounded_down)
    assert _status("SU-Thm5-tight") == "FAILED"

