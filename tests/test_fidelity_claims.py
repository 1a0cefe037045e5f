"""Claims reworked under issue #23 (fidelity): each can fail, and the verdict flips when the code or the
paper's form it checks is broken.  References are stated next to each test."""

from __future__ import annotations

import sympy as sp

from derive import risk as R
from derive import symbols as sy
from flips import flips
from proofs_check import checker


def _status(claim_id: str) -> str:
    (c,) = checker.select(claim_id=claim_id)
    return checker.evaluate(c, timeout=120)["status"]


@flips("DF-Table1")
def test_df_table1_selects_the_printed_branch_and_can_fail(monkeypatch):
    """DF-Table1 once accepted any argument of the Max in the URS f(0); now the branch must be the printed
    1 - (1 - e^-mu)/n AND be the one Max(0, .) selects.  A wrong branch (factor 2) is FAILED."""
    assert _status("DF-Table1") == "PROVEN"
    orig = R.f_at_zero

    def wrong(record):
        out = orig(record)
        if record.name.startswith("uniform-sampling") and out.value.free_symbols:
            return R.Limit(sp.Max(0, 1 - 2 * (1 - sp.exp(-sy.mu)) / sy.n), out.method)
        return out
    monkeypatch.setattr(R, "f_at_zero", wrong)
    assert _status("DF-Table1") == "FAILED"


@flips("DF-Errata-Def6-prior-range")
def test_def6_prior_range_flips_with_a_posterior_that_misses_the_ends(monkeypatch):
    """DF-Errata-Def6-prior-range: the counter-example is the toolkit's own p_post at prior 1 (= 1) and
    prior 0 (= 0), exactly.  A p_post whose null weight keeps prior/2 at prior 1 no longer reaches 1 there, so the
    paper's closed interval would not be refuted by it: REFUTED -> CONFIRMED."""
    from proofs_check import claims_errata_000 as E
    assert _status("DF-Errata-Def6-prior-range") == "REFUTED"
    orig = E.posterior
    monkeypatch.setattr(E, "posterior", lambda rec: orig(rec).xreplace({E.prior_c: E.prior_c + E.prior / 2}))
    assert _status("DF-Errata-Def6-prior-range") == "CONFIRMED"


def test_kov_closed_form_reference_is_not_the_toolkit():
    """KOV17:closed-form compares numeric.compose_exact's binomial law with the printed formula written in
    the claim module; compose_exact no longer carries a copy of that formula."""
    import numeric.compose_exact as X
    assert not hasattr(X, "kov_delta")
    assert _status("KOV17:closed-form") == "CONFIRMED"


def test_kz_t23_is_stated_as_instances():
    (c,) = checker.select(claim_id="KZ-T2.3")
    assert c.kind == "identity" and c.statement.startswith("instances of Theorem 2.3")


def test_toolkit_claims_belong_to_no_paper_and_each_paper_gets_a_summary_line():
    from proofs_check.report import per_paper_lines
    dd = [c for c in checker.select() if c.id.startswith("DD-")]
    assert dd and all(c.papers == () for c in dd)
    assert not [c for c in checker.select(paper="000") if c.id.startswith("DD-")]
    rows = [{"paper": "000", "status": "PROVEN"}, {"paper": "000", "status": "REFUTED"},
            {"paper": None, "status": "CONFIRMED"}, {"paper": "002", "status": "CONFIRMED"}]
    assert per_paper_lines(rows) == ["paper 000: 2 claims (1 proven, 1 refuted)", "paper 002: 1 claim (1 confirmed)",
                                     "toolkit: 1 claim (1 confirmed)"]
