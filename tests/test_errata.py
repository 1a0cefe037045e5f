"""Errata found by the tool (proofs_check.claims_errata_000 ... _004): the list, mutations that change a verdict,
and ``dp-derive reproduce --errata --json``.

(a) every expected erratum is REFUTED and listed with non-empty fields; the true statements are
CONFIRMED.  (b) For at least one erratum per paper, the toolkit function the claim calls is broken
with monkeypatch so that the paper's statement would hold (the claim must then say CONFIRMED) or the
corrected statement fails (FAILED): a refutation that cannot change is a defect.  (c) The CLI.
"""

from __future__ import annotations

import dataclasses
import io
import json
from contextlib import redirect_stdout

import mpmath
import pytest

import derive
import numeric.attack
import numeric.auc
import numeric.design
import numeric.mp
import numeric.semantics
from derive import two_sided
from proofs_check import checker
from proofs_check.errata import errata

EXPECTED_REFUTED = {
    "000": ["DF-Errata-approxDP-probabilistic", "DF-Errata-Def6-prior-range", "DF-Errata-Thm2-asymptotic",
            "DF-Errata-Thm2-proof-direction", "DF-Errata-Cor2-proof-direction", "DF-Errata-Cor2-threshold",
            "DF-Errata-Eq-tradeoff-printed", "DF-Errata-S5.2-criterion", "DF-Errata-S5.2-power-inequality",
            "DF-Errata-Fig5-mu>=1"],
    "001": ["LXM-Errata-PD-lambda-branch2", "LXM-Errata-Table1-plateau", "LXM-Errata-Table1-truncated",
            "LXM-Errata-GaussSigma-range"],
    "002": ["KZ-Errata-Ex1.1-posterior-48-52", "KZ-Errata-Ex1.1-ratio-1.1", "KZ-Errata-Ex1.1-difference-2pct",
            "KZ-Errata-Ex4.1-month-worst-case", "KZ-Errata-Fig3-sublinear"],
    "003": ["MHA-Errata-Gauss-calibration", "MHA-Errata-Table3-delta-range", "MHA-Errata-normal-power-sqrt2tau",
            "MHA-Errata-normal-less-than-Laplace", "MHA-Errata-Table2-vs-Table1-scale"],
    "004": ["SU-Errata-TV-not-inappropriate"],
}
EXPECTED_CONFIRMED = ["KZ-S2.1-PDP", "DF-Fig4-Laplace-stronger", "DF-URS-ROC", "MHA-ROC-cross", "SU-Thm5-tight"]


@pytest.fixture(scope="module")
def found():
    return errata()


def _status(claim_id: str) -> dict:
    (c,) = checker.select(claim_id=claim_id)
    return checker.evaluate(c, timeout=60)


# ------------------------------------------------------------------ (a) the list


def test_every_expected_erratum_is_listed_once_with_fields(found):
    rows, result = found
    by_id = {e["claim"]: e for e in rows}
    assert len(by_id) == len(rows), "one entry per claim"
    for paper, ids in EXPECTED_REFUTED.items():
        for cid in ids:
            assert cid in by_id, f"{cid} not REFUTED"
            e = by_id[cid]
            assert e["paper"] == paper
            for key in ("where", "paper_says", "holds_instead"):
                assert isinstance(e[key], str) and e[key].strip(), (cid, key)
            assert isinstance(e["evidence"], dict) and e["evidence"], cid
            assert all(isinstance(v, str) and v for v in e["evidence"].values()), cid
    statuses = {r["id"]: r["status"] for r in result["claims"]}
    assert not [i for i, s in statuses.items() if s in ("FAILED", "ERROR")]


def test_true_statements_are_confirmed(found):
    _, result = found
    statuses = {r["id"]: r["status"] for r in result["claims"]}
    for cid in EXPECTED_CONFIRMED:
        assert statuses[cid] == "CONFIRMED", (cid, statuses[cid])


def test_errata_run_within_budget(found):
    _, result = found
    mine = [r for r in result["claims"] if r["id"] in {i for ids in EXPECTED_REFUTED.values() for i in ids}
            | set(EXPECTED_CONFIRMED)]
    assert sum(r["seconds"] for r in mine) <= 8.0


def test_evidence_numbers_match_independent_values(found):
    """Spot checks of the evidence against values computed here in plain mpmath."""
    rows, _ = found
    by_id = {e["claim"]: e for e in rows}
    with mpmath.workdps(30):
        # G_1: delta(1) = Phibar(1/2) - e Phibar(3/2); P[L > 1] = Phibar(1/2)
        sf = lambda x: mpmath.erfc(x / mpmath.sqrt(2)) / 2  # noqa: E731
        ev = by_id["DF-Errata-approxDP-probabilistic"]["evidence"]
        assert abs(mpmath.mpf(ev["delta(1)"]) - (sf(0.5) - mpmath.e * sf(1.5))) < 1e-15
        assert abs(mpmath.mpf(ev["P[L > 1] (pure-DP inequality (1) violated)"]) - sf(0.5)) < 1e-15
        # randomized response, eps = 0.1, prior 0.001: posterior/prior = q/(0.001 q + 0.999 (1 - q))
        q = mpmath.exp(0.1) / (1 + mpmath.exp(0.1))
        ev = by_id["KZ-Errata-Ex1.1-ratio-1.1"]["evidence"]
        got = mpmath.mpf(ev["randomized response eps = 0.1, prior 0.001: posterior/prior"])
        assert abs(got - q / (mpmath.mpf("0.001") * q + mpmath.mpf("0.999") * (1 - q))) < 1e-10


# ------------------------------------------------------------------ (b) mutations


def test_mutation_000_corrected_bound_broken_is_failed(monkeypatch):
    """DF-Errata-Thm2-proof-direction: a trade-off evaluator that returns max(f, 1 - alpha) makes
    the paper's 'f >= 1 - alpha' true at the counter-example, and the check must not stay REFUTED:
    the evaluator no longer agrees with the normal law (FAILED)."""
    assert _status("DF-Errata-Thm2-proof-direction")["status"] == "REFUTED"
    orig = numeric.mp.tradeoff

    def lifted(record, alpha, digits=15):
        return max(orig(record, alpha, digits), 1 - mpmath.mpf(alpha))
    monkeypatch.setattr(numeric.mp, "tradeoff", lifted)
    assert _status("DF-Errata-Thm2-proof-direction")["status"] == "FAILED"


def test_mutation_000_printed_threshold_positive_is_confirmed(monkeypatch):
    """DF-Errata-Cor2-threshold: if the printed threshold evaluated positive, the paper would be
    right and the corrected statement (checked through mp.tradeoff) still holds: CONFIRMED."""
    assert _status("DF-Errata-Cor2-threshold")["status"] == "REFUTED"
    monkeypatch.setattr(numeric.mp, "evaluate", lambda expr, values, digits=15: mpmath.mpf("0.3"))
    assert _status("DF-Errata-Cor2-threshold")["status"] == "CONFIRMED"


def test_mutation_000_design_evaluator_off_is_failed(monkeypatch):
    """DF-Errata-S5.2-power-inequality: ztest_min_mu off by 1e-6 relative fails the closed form."""
    orig = numeric.design.ztest_min_mu

    def off(*a, **k):
        out = orig(*a, **k)
        return dataclasses.replace(out, mu=out.mu * (1 + mpmath.mpf("1e-6")))
    monkeypatch.setattr(numeric.design, "ztest_min_mu", off)
    assert _status("DF-Errata-S5.2-power-inequality")["status"] == "FAILED"


def test_mutation_001_inverse_finds_eps_is_confirmed(monkeypatch):
    """LXM-Errata-Table1-plateau: if fscore_inverse returned the printed turning point for the
    plateau cells, the table would be right; the plateau itself still checks: CONFIRMED."""
    assert _status("LXM-Errata-Table1-plateau")["status"] == "REFUTED"

    def inverse(beta, bound, weight=None, digits=15):
        return numeric.attack.FscoreInverse(eps=mpmath.log(1 + mpmath.mpf(beta) ** 2), reason=None, digits=digits)
    monkeypatch.setattr(numeric.attack, "fscore_inverse", inverse)
    assert _status("LXM-Errata-Table1-plateau")["status"] == "CONFIRMED"


def test_mutation_001_threshold_wrong_is_failed(monkeypatch):
    """LXM-Errata-PD-lambda-branch2: a threshold of the printed branch's form fails the Laplace tail."""
    orig = numeric.attack.pr

    def pr(record, alpha, digits=15, weight=None):
        out = orig(record, alpha, digits, weight)
        a = mpmath.mpf(alpha)
        if a > 0.5:   # the theta for which Eq. 8 would give the printed e^-eps/(4(1 - a)^2)
            out = dataclasses.replace(out, threshold=(1 - mpmath.log(4 * (1 - a) ** 2)) / 2 - mpmath.mpf("0.5"))
        return out
    monkeypatch.setattr(numeric.attack, "pr", pr)
    assert _status("LXM-Errata-PD-lambda-branch2")["status"] == "FAILED"


def test_mutation_002_semantics_bounds_inside_48_52_is_failed(monkeypatch):
    """KZ-Errata-Ex1.1-posterior-48-52: bounds squeezed inside [0.48, 0.52] make the paper's
    statement true, and they no longer agree with 1/(1 + e^-+eps): FAILED."""
    orig = numeric.semantics.semantics

    def squeezed(*a, **k):
        return dataclasses.replace(orig(*a, **k), posterior_upper=mpmath.mpf("0.5199"),
                                   posterior_lower=mpmath.mpf("0.4801"))
    monkeypatch.setattr(numeric.semantics, "semantics", squeezed)
    assert _status("KZ-Errata-Ex1.1-posterior-48-52")["status"] == "FAILED"


def test_mutation_002_zcdp_conversion_off_is_failed(monkeypatch):
    """KZ-Errata-Ex4.1-month-worst-case: an eps'_30 that gives the printed 19% worst prior
    (eps' = 2 log(81/19)) disagrees with the independent minimisation: FAILED."""
    def eps_prime(rho, dp, conversion="bun-steinke", digits=15):
        return numeric.semantics.ZcdpEpsPrime(eps_prime=2 * mpmath.log(mpmath.mpf(81) / 19),
                                              delta=mpmath.mpf("1e-6"), digits=digits)
    monkeypatch.setattr(numeric.semantics, "zcdp_eps_prime", eps_prime)
    assert _status("KZ-Errata-Ex4.1-month-worst-case")["status"] == "FAILED"


def test_mutation_003_normal_power_printed_shift_is_failed(monkeypatch):
    """MHA-Errata-normal-power-sqrt2tau: a power expression with the printed shift disagrees with the
    quadrature of the law of X_R - X'_R: FAILED."""
    import sympy as sp
    orig = two_sided.normal_power
    monkeypatch.setattr(two_sided, "normal_power", lambda: orig().subs(two_sided.d, two_sided.d * sp.Rational(11, 10)))
    assert _status("MHA-Errata-normal-power-sqrt2tau")["status"] == "FAILED"


def test_mutation_003_auc_order_reversed_is_failed(monkeypatch):
    """MHA-Errata-normal-less-than-Laplace: a Gaussian AUC lowered by 1% makes 'normal < Laplace'
    hold at the table cell; the AUC then fails its closed form: FAILED."""
    orig = numeric.auc.auc

    def lowered(record, digits=15):
        v = orig(record, digits)
        return v * mpmath.mpf("0.99") if record.name.startswith("gaussian") else v
    monkeypatch.setattr(numeric.auc, "auc", lowered)
    assert _status("MHA-Errata-normal-less-than-Laplace")["status"] == "FAILED"


def test_mutation_004_profile_off_is_failed(monkeypatch):
    """SU-Errata-TV-not-inappropriate: a profile (TV = delta(0)) off by 1e-9 fails the output laws."""
    assert _status("SU-Errata-TV-not-inappropriate")["status"] == "REFUTED"
    orig = numeric.mp.profile_delta
    monkeypatch.setattr(numeric.mp, "profile_delta",
                        lambda record, eps, digits=15: orig(record, eps, digits) * (1 + mpmath.mpf("1e-9")))
    assert _status("SU-Errata-TV-not-inappropriate")["status"] == "FAILED"


def test_mutation_confirmed_statement_can_fail(monkeypatch):
    """KZ-S2.1-PDP (a true statement): a Gaussian record whose power is the Laplace's breaks the
    agreement with the Gaussian law: FAILED."""
    monkeypatch.setattr(derive, "gaussian", lambda mu=None: derive.laplace(mu))
    assert _status("KZ-S2.1-PDP")["status"] == "FAILED"


# ------------------------------------------------------------------ (c) the CLI


def test_cli_reproduce_errata_json():
    from proofs_check.cli import main
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["reproduce", "--errata", "--json"])
    assert rc == 0
    data = json.loads(buf.getvalue())
    assert set(data) == {"errata"}
    ids = {e["claim"] for e in data["errata"]}
    assert {i for v in EXPECTED_REFUTED.values() for i in v} <= ids
    for e in data["errata"]:
        assert set(e) == {"paper", "where", "paper_says", "holds_instead", "claim", "evidence"}
