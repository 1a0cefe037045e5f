"""SU-DPSGD-CLT-uniform: the CLT limit of C_p(G_{1/sigma})^{(x)T} for fixed-size batches, CONFIRMED; the
seed's own formula was lost in the extraction, so the claim records the paper's statement as unverifiable
(it was an erratum until the fidelity rules of proofs_check.verdicts: the seed text holds no mu to quote).

References independent of the claim's own forms: kl(C_p(G_m))/p^2 at p = 1e-7 by a plain sum over a
fine z grid (trapezoid, numpy float64, not mpmath.quad), and the claim's status when the code it
relies on is broken (mutations)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from flips import flips  # noqa: E402
from proofs_check import claims_errata_004_subsampling as E  # noqa: E402
from proofs_check.registry import registered  # noqa: E402
from proofs_check.status import CONFIRMED, FAILED, REFUTED  # noqa: E402


def _claim():
    return next(c for c in registered() if c.id == "SU-DPSGD-CLT-uniform")


@pytest.fixture(scope="module")
def unmutated():
    """The claim's outcome with nothing patched (computed once, 7 s: the certified engine at T = 625), so that
    the mutation tests assert the verdict they flip without paying for it again."""
    return _claim().check()


def test_the_hull_limit_by_a_plain_sum():
    # m = 1/1.1; the integrand (e^{m z - m^2/2} - 1)^2 phi(z) on [m/2, 40], trapezoid on 4e5 points
    m = 1 / 1.1
    z = np.linspace(m / 2, 40, 400001)
    g = (np.expm1(m * z - m * m / 2)) ** 2 * np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    c_sum = float(np.sum((g[1:] + g[:-1]) / 2 * np.diff(z)))
    c_form = float(E.hull_kl_limit_printed().subs(E._M, E.sp.Rational(10, 11)).evalf(20))
    assert abs(c_sum - c_form) < 1e-8
    assert abs(c_form - (math.exp(m * m) - 1) / 2) > 0.4        # 1.0618 vs the paper's 0.6425


def test_claim_is_confirmed_and_the_paper_unverifiable(unmutated):
    out = unmutated
    assert out.status is CONFIRMED and out.status is not REFUTED
    assert out.extra["paper"] == "unverifiable" and "lines 135-137" in out.extra["where"]
    lo, hi = (float(x) for x in out.worst_at["certified eps of C_p(G_1/sigma)^T"].strip("[]").split(","))
    assert lo > 3.0 and hi < 3.1


@flips("SU-DPSGD-CLT-uniform")
@pytest.mark.slow
def test_mutation_engine_composes_poisson_instead(monkeypatch, unmutated):
    """Composing the Poisson pair where fixed-size batches were asked gives eps ~ 2.3, far from G_mu':
    the claim must fail."""
    assert unmutated.status is CONFIRMED
    from numeric import pld_mechanisms as M
    from numeric import pld_subsampled as S
    monkeypatch.setattr(S, "uniform_subsampled_gaussian", M.subsampled_gaussian)
    assert _claim().check().status is FAILED


@flips("SU-DPSGD-CLT-uniform")
def test_mutation_wrong_closed_form_fails(monkeypatch, unmutated):
    assert unmutated.status is CONFIRMED
    orig = E.hull_kl_limit_printed
    monkeypatch.setattr(E, "hull_kl_limit_printed", lambda: orig() * (1 + E.sp.Rational(1, 1000)))
    assert _claim().check().status is FAILED
