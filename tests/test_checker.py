"""The claim registry and the checker, in-process (proofs_check.registry, proofs_check.checker).

What is shown here:
* the registry's invariants (unique ids, known kinds, seed papers 000 to 004) and that it
  refuses a duplicate id or an unknown kind, without leaving anything in the global registry;
* that the checker can fail: the axiom routine of claim DRS-Prop2.2
  (``claims_foundation._axioms``), the complement routine and the profile routine, run on
  hand-built records that violate their statements, return FAILED with a counterexample;
* that ``checker.run`` turns ``PrecisionExhausted`` into INCONCLUSIVE and that its summary
  counts its rows; that ``dp-derive check`` exits 1 when a claim FAILED.

Reference provenance: the false statements are constructed by hand (comments say why each
is false); nothing here compares numbers against a computed reference.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy as sp

import derive
from derive import symbols as sy
from derive.errors import PrecisionExhausted
from derive.tradeoff import eps_prime
from proofs_check import checker, registry
from proofs_check import claims_foundation as cf
from proofs_check.registry import (CONFIRMED, FAILED, INCONCLUSIVE, KINDS, PROVEN, STATUSES, Claim,
                                   Outcome)

PAPERS = {"000", "001", "002", "003", "004"}
ROW_KEYS = {"id", "papers", "source", "kind", "statement", "status", "margin", "points", "seconds",
            "detail", "counterexample"}
A = sy.alpha


def fake_record(f, power, name="fake") -> derive.TradeOff:
    """A TradeOff built by hand (no parameters): f(alpha) and its stored complement."""
    return derive.TradeOff(name=name, parameters=(), tradeoff=f, power=power, paper=f, domain={},
                           citation="hand-built for tests/test_checker.py")


def fake_claim(id_, check, papers=("000",), kind="inequality") -> Claim:
    return Claim(id_, tuple(papers), "tests/test_checker.py", kind, f"test claim {id_}", check)


@pytest.fixture
def private_registry(monkeypatch):
    """A copy of the global registry for the test; the global one is untouched afterwards."""
    registry.all_claims()  # import claims_foundation first, so its claims land in the real registry
    original = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_REGISTRY", dict(original))
    yield registry._REGISTRY
    monkeypatch.undo()
    assert registry._REGISTRY == original


# ---------------------------------------------------------------- registry invariants
def test_claim_ids_unique_and_match_registry_keys():
    claims = registry.all_claims()
    ids = [c.id for c in claims]
    assert ids and len(set(ids)) == len(ids)
    assert ids == list(registry._REGISTRY)
    assert all(registry._REGISTRY[c.id] is c for c in claims)
    # calling again does not re-register (claims_foundation is imported once)
    assert [c.id for c in registry.all_claims()] == ids


def test_claim_kinds_papers_and_fields():
    for c in registry.all_claims():
        assert c.kind in KINDS, c.id
        assert c.papers and set(c.papers) <= PAPERS, (c.id, c.papers)
        assert isinstance(c.papers, tuple)
        assert c.source and c.statement, c.id
        assert callable(c.check), c.id


def test_select_filters_by_paper_and_id():
    claims = checker.select()
    assert [c.id for c in claims] == [c.id for c in registry.all_claims()]
    seen = set()
    for p in sorted(PAPERS):
        chosen = checker.select(paper=p)
        assert all(p in c.papers for c in chosen)
        assert [c.id for c in chosen] == [c.id for c in claims if p in c.papers]
        seen |= {c.id for c in chosen}
    assert seen == {c.id for c in claims}  # every claim belongs to some paper
    assert [c.id for c in checker.select(claim_id="DF-G")] == ["DF-G"]
    assert checker.select(claim_id="NOPE") == []
    assert checker.select(paper="001", claim_id="DF-G") == []  # DF-G is in 000 and 004 only


def test_registry_rejects_a_duplicate_id(private_registry):
    existing = next(iter(private_registry))
    before = dict(private_registry)
    with pytest.raises(ValueError, match="twice"):
        registry.register(fake_claim(existing, lambda: Outcome(PROVEN)))
    with pytest.raises(ValueError, match="twice"):
        registry.claim(existing, ("000",), "src", "identity", "dup")(lambda: Outcome(PROVEN))
    assert private_registry == before  # the original claim is kept, nothing was added


def test_registry_rejects_an_unknown_kind(private_registry):
    with pytest.raises(ValueError, match="kind"):
        registry.register(fake_claim("TEST-bad-kind", lambda: Outcome(PROVEN), kind="theorem"))
    assert "TEST-bad-kind" not in private_registry


def test_registering_in_the_private_copy_does_not_leak(monkeypatch):
    registry.all_claims()
    original = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_REGISTRY", dict(original))
    registry.register(fake_claim("TEST-leak", lambda: Outcome(PROVEN)))
    assert "TEST-leak" in registry._REGISTRY
    monkeypatch.undo()
    assert "TEST-leak" not in registry._REGISTRY
    assert registry._REGISTRY == original


# ---------------------------------------------------------------- the checker can fail
def test_axioms_fail_on_a_concave_function():
    # f = 1 - alpha^2: f(1) = 0 and non-increasing, but concave (its chord slopes -alpha decrease)
    out = cf._axioms([("concave", fake_record(1 - A**2, A**2))])
    assert out.status == FAILED
    assert "convex" in out.detail
    assert out.counterexample and out.counterexample["case"] == "concave"
    assert out.counterexample["alpha"] in cf.ALPHA_GRID


def test_axioms_fail_on_a_piecewise_kink_the_wrong_way():
    # f = 1/2 - alpha/10 on [0, 1/2), 9/10 (1 - alpha) after: continuous (0.45 at 1/2), f(1) = 0,
    # decreasing, f <= 1 - alpha everywhere, but the slope drops from -1/10 to -9/10: not convex
    half = sp.Rational(1, 2)
    f = sp.Piecewise((half - A / 10, A < half), (sp.Rational(9, 10) * (1 - A), True))
    p = sp.Piecewise((half + A / 10, A < half), (1 - sp.Rational(9, 10) * (1 - A), True))
    out = cf._axioms([("kink", fake_record(f, p))])
    assert out.status == FAILED
    assert out.counterexample["alpha"] == "0.5"
    assert "slope_left" in out.counterexample and "slope_right" in out.counterexample


def test_axioms_fail_when_f_of_1_is_not_0():
    out = cf._axioms([("identity", fake_record(A, 1 - A))])  # f = alpha: f(1) = 1
    assert out.status == FAILED and out.counterexample["alpha"] == "1"


def test_axioms_fail_when_f_increases():
    # f = 4 alpha (1 - alpha): f(0) = 0 < f(1/2) = 1, f(1) = 0
    out = cf._axioms([("bump", fake_record(4 * A * (1 - A), 1 - 4 * A * (1 - A)))])
    assert out.status == FAILED and out.detail == "f increases"


def test_axioms_confirm_a_valid_convex_function():
    # control: f = (1 - alpha)^2 is convex, non-increasing, <= 1 - alpha, f(1) = 0
    out = cf._axioms([("square", fake_record((1 - A) ** 2, 1 - (1 - A) ** 2))])
    assert out.status == CONFIRMED and out.counterexample is None
    assert out.points == len(cf.ALPHA_GRID)


def test_axioms_diagnose_f_above_one_correctly():
    # f = 2 (1 - alpha) is strictly decreasing with f(0) = 2 > 1. Regression (fixed in 51f212d): the
    # difference was divided by the signed power (negative here), which reported 'f increases'
    out = cf._axioms([("double", fake_record(2 * (1 - A), 2 * A - 1))])
    assert out.status == FAILED
    assert out.detail != "f increases"
    assert out.counterexample["alpha"] == "0"


def test_complement_fails_when_power_is_not_1_minus_f():
    # stored power alpha/2 but f = 1 - alpha
    out = cf._complement([("half", fake_record(1 - A, A / 2))], None)
    assert out.status == FAILED
    assert out.counterexample["case"] == "half"


def test_profile_check_fails_on_a_wrong_closed_form():
    # laplace(1) with a wrong profile 1 - e^{(eps' - eps)/3} (the true exponent divides by 2)
    rec = derive.laplace(1)
    wrong = sp.Piecewise((1 - sp.exp((eps_prime - sy.eps) / 3), eps_prime < sy.eps), (sp.S.Zero, True))
    bad = dataclasses.replace(rec, profile=wrong)
    out = cf._profile_numeric([("laplace(eps=1), wrong profile", bad, ("0.5",))])
    assert out.status == FAILED
    assert out.counterexample["eps"] == "0.5"
    # control: the record's own profile is confirmed by the same routine
    assert cf._profile_numeric([("laplace(eps=1)", rec, ("0.5",))]).status == CONFIRMED


# ---------------------------------------------------------------- checker.run
def _raise_precision():
    raise PrecisionExhausted("two evaluations never agreed (test)")


def _claims_of_every_status():
    return [
        fake_claim("TEST-proven", lambda: Outcome(PROVEN, margin="0"), kind="identity"),
        fake_claim("TEST-confirmed", lambda: Outcome(CONFIRMED, margin="1e-40", points=3)),
        fake_claim("TEST-failed", lambda: cf._axioms([("concave", fake_record(1 - A**2, A**2))])),
        fake_claim("TEST-precision", _raise_precision, papers=("001", "003")),
        checker.select(claim_id="DF-G")[0],
    ]


def test_run_turns_precision_exhausted_into_inconclusive():
    result = checker.run([fake_claim("TEST-precision", _raise_precision)])
    (row,) = result["claims"]
    assert row["status"] == INCONCLUSIVE
    assert "precision exhausted" in row["detail"]
    assert row["counterexample"] is None
    assert result["summary"][INCONCLUSIVE] == 1 and result["summary"]["total"] == 1


def test_run_rows_and_summary():
    claims = _claims_of_every_status()
    result = checker.run(claims)
    rows, summary = result["claims"], result["summary"]
    assert [r["id"] for r in rows] == [c.id for c in claims]  # order kept
    for r, c in zip(rows, claims):
        assert set(r) == ROW_KEYS
        assert r["papers"] == list(c.papers) and r["kind"] == c.kind
        assert isinstance(r["seconds"], float) and r["seconds"] >= 0
    assert [r["status"] for r in rows] == [PROVEN, CONFIRMED, FAILED, INCONCLUSIVE, PROVEN]
    failed = rows[2]
    assert failed["counterexample"] and failed["counterexample"]["case"] == "concave"
    for s in STATUSES:
        assert summary[s] == sum(r["status"] == s for r in rows)
    assert summary["total"] == len(rows) == 5
    assert summary["seconds"] >= 0
    json.dumps(result)  # the CLI prints it as JSON


def test_run_of_nothing():
    assert checker.run([])["summary"] == {PROVEN: 0, CONFIRMED: 0, FAILED: 0, INCONCLUSIVE: 0,
                                          "total": 0, "seconds": 0.0}


def test_run_survives_a_crashing_check():
    def crash():
        raise RuntimeError("bug in a check")
    # regression (fixed in 51f212d): run() caught only PrecisionExhausted, so one broken check
    # aborted `dp-derive check` with a traceback and lost every other row
    result = checker.run([fake_claim("TEST-crash", crash), checker.select(claim_id="DF-G")[0]])
    assert [r["id"] for r in result["claims"]] == ["TEST-crash", "DF-G"]
    assert result["claims"][0]["status"] in (FAILED, INCONCLUSIVE)  # never PROVEN or CONFIRMED
    assert "RuntimeError" in result["claims"][0]["detail"]
    assert result["claims"][1]["status"] == PROVEN


# ---------------------------------------------------------------- check command with a false claim
def test_check_command_exits_1_on_a_failed_claim(private_registry, capsys):
    from proofs_check.cli import main
    registry.register(fake_claim("TEST-false", lambda: cf._axioms([("concave", fake_record(1 - A**2, A**2))])))
    assert main(["check", "--claim", "TEST-false", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (row,) = out["claims"]
    assert row["status"] == FAILED and row["counterexample"]["case"] == "concave"
    assert out["summary"][FAILED] == 1
    # text form prints the counterexample line
    assert main(["check", "--claim", "TEST-false"]) == 1
    text = capsys.readouterr().out
    assert "FAILED" in text and "counterexample:" in text
    assert "1 failed" in text


def test_complement_claim_catches_a_power_wrong_only_in_the_tail():
    # a power that is right above alpha = 1e-20 but halved below: |f + power - 1| < 1e-20 everywhere,
    # so only the relative check of the small side against the naive printed form can see it
    import dataclasses

    import sympy as sp

    import derive
    from derive import symbols as sy
    g = derive.gaussian("1")
    wrong = sp.Piecewise((g.power / 2, sy.alpha < sp.Rational(1, 10**20)), (g.power, True))
    fake = dataclasses.replace(g, power=wrong)
    out = cf._complement([("gaussian with a halved tail power", fake)], None)
    assert out.status == FAILED
    assert out.counterexample["alpha"] in ("1e-300", "1e-30")
