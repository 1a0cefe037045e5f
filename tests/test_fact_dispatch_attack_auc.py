"""The AUC, attack, CND and subsampling evaluators dispatch on the record's facts (derive.mechanisms.facts),
never on its name (issue #24).

* a record renamed (name and citation replaced) gets the same answers as the original: the closed forms
  follow ``K.AUC_PRINTED`` / ``K.AUC_PIECES`` / ``K.GDP_MU`` / ``K.LAPLACE_EPS`` / ``K.DG_SIGMA2`` /
  ``K.NO_PRIVACY``, whatever the record is called;
* records that declare the same identity as another mechanism are served by its route: the noise families
  laplace and gaussian get the Laplace and G_mu thresholds and F-score optima, equal (to the digits shown)
  to those of laplace(eps = mu) and gaussian(mu); the composed G_mu record gets the closed form
  Phi(mu/sqrt 2), equal to quadrature; G_0 is noiseless for ``pr`` (threshold undefined, as laplace(eps = 0)).
"""

from __future__ import annotations

import dataclasses

import mpmath
import pytest

import derive
from derive import auc as DAUC
from derive.errors import DomainError
from derive.mechanisms import facts as K
from derive.mechanisms.limits import no_privacy
from numeric import attack, cnd, subsampling, two_sided
from numeric import auc as NAUC
from numeric.compose_exact import gdp


def _renamed(record):
    return dataclasses.replace(record, name="renamed-mechanism", citation="somewhere")


_AUC_RECORDS = [
    lambda: derive.gaussian("1"), lambda: derive.laplace("1"), lambda: derive.approx_dp("1", "1e-5"),
    lambda: derive.randomized_response("2"), lambda: derive.classical_gaussian("0.5", "1e-5"),
    lambda: derive.uniform_sampling("1", 5), lambda: derive.uniform_sampling("1", 5, "add-remove"),
    lambda: derive.noise("logistic", "2"), lambda: derive.noise("gaussian", "1"),
]


@pytest.mark.parametrize("make", _AUC_RECORDS)
def test_auc_closed_forms_do_not_depend_on_the_name(make):
    rec = make()
    other = _renamed(rec)
    assert DAUC.printed_auc(other) == DAUC.printed_auc(rec)
    assert DAUC.auc_expr(other) == DAUC.auc_expr(rec)
    assert DAUC.auc_expr(rec) is not None
    assert NAUC.auc(other, 20) == NAUC.auc(rec, 20)


def test_auc_of_a_renamed_discrete_gaussian_is_the_privacy_loss_sum():
    rec = derive.discrete_gaussian("1")
    assert NAUC.auc(_renamed(rec), 15) == NAUC.auc(rec, 15)


def test_auc_of_the_composed_gaussian_is_the_closed_form():
    rec = gdp(["1", "1"])                       # G_sqrt2, declares K.GDP_MU = sqrt 2
    assert K.GDP_MU in rec.facts and DAUC.auc_expr(rec) is not None
    with mpmath.workdps(30):
        ref = mpmath.ncdf(1)                    # Phi(sqrt2 / sqrt2)
    assert abs(NAUC.auc(rec, 20) - ref) < mpmath.mpf("1e-19")
    assert abs(NAUC.auc_quadrature(rec, 20) - ref) < mpmath.mpf("1e-19")


@pytest.mark.parametrize("make", [lambda: derive.laplace("1"), lambda: derive.classical_gaussian("1", "1e-5"),
                                  lambda: derive.gaussian("1")])
def test_attack_does_not_depend_on_the_name(make):
    rec = make()
    other = _renamed(rec)
    assert attack.threshold_expr(other) == attack.threshold_expr(rec)
    assert attack.pr(other, "0.01", 20) == attack.pr(rec, "0.01", 20)
    assert attack.fscore_optimum(other, "1", 15) == attack.fscore_optimum(rec, "1", 15)


@pytest.mark.parametrize("family, twin", [("laplace", derive.laplace), ("gaussian", derive.gaussian)])
def test_noise_families_get_the_routes_of_their_identity(family, twin):
    rec, ref = derive.noise(family, "1.5"), twin("1.5")
    got, want = attack.fscore_optimum(rec, "1", 15), attack.fscore_optimum(ref, "1", 15)
    assert (got.fscore, got.alpha, got.threshold, got.method) == (want.fscore, want.alpha, want.threshold,
                                                                  want.method)
    assert attack.pr(rec, "0.1", 15).threshold == attack.pr(ref, "0.1", 15).threshold


@pytest.mark.parametrize("make", [lambda: derive.laplace("0"), lambda: derive.classical_gaussian("0", "1e-5"),
                                  lambda: derive.gaussian("0"), lambda: derive.noise("laplace", "0")])
def test_noiseless_records_have_no_threshold(make):
    out = attack.pr(make(), "0.1", 15)
    assert out.threshold is None and out.note.startswith("eps = 0: no privacy loss")


def test_no_privacy_is_read_from_the_fact():
    rec = _renamed(no_privacy("gaussian", "mu=inf"))
    with pytest.raises(DomainError, match="a mechanism with noise"):
        cnd.cdf(rec, "0.5", 15)
    s = subsampling.Subsampled(rec, "0.01")         # C_p(0) = f_{0,p}
    assert s.p_exact == 1 and s.record.name == "approx-dp"


def test_two_sided_noise_families_are_named_constants():
    assert two_sided.auc_riemann(two_sided.LAPLACE_NOISE, 1.0) == two_sided.auc_riemann("laplace", 1.0)
    assert two_sided.auc_riemann(two_sided.NORMAL_NOISE, 1.0) == two_sided.auc_riemann("normal", 1.0)
