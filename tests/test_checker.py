"""The claim registry and the checker, in-process (proofs_check.registry, proofs_check.checker).

What is shown here:
* the registry's invariants (unique ids, known kinds, seed papers 000 to 004) and that it
  refuses a duplicate id or an unknown kind, without leaving anything in the global registry;
* that the checker can fail: the axiom routine of claim DRS-Prop2.2
  (``claims_foundation._axioms``), the complement routine and the profile routine, run on
  hand-built records that violate their statements, return FAILED with a counterexample;
* that ``checker.run`` turns an exception (``PrecisionExhausted`` included) into ERROR and a
  claim past its time limit into ERROR, in process and with ``jobs = 2``; that its summary counts
  its rows; that ``dp-derive check`` exits 1 on FAILED or ERROR and 0 on REFUTED.

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
from proofs_check import checker, discovery, registry
from proofs_check import claims_foundation as cf
from proofs_check.registry import KINDS, Claim
from proofs_check.status import (
    CONFIRMED,
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PROVEN,
    REFUTED,
    STATUSES,
    Outcome,
)

PAPERS = {"000", "001", "002", "003", "004"}
ROW_KEYS = {"id", "paper", "papers", "source", "kind", "statement", "latex", "status", "method",
            "certified", "margin", "worst_at", "points", "seconds", "reason", "detail", "counterexample",
            "refutation", "extra"}
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
    discovery.all_claims()  # import claims_foundation first, so its claims land in the real registry
    original = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_REGISTRY", dict(original))
    yield registry._REGISTRY
    monkeypatch.undo()
    assert registry._REGISTRY == original


# ---------------------------------------------------------------- registry invariants
def test_claim_ids_unique_and_match_registry_keys():
    claims = discovery.all_claims()
    ids = [c.id for c in claims]
    assert ids and len(set(ids)) == len(ids)
    assert ids == list(registry._REGISTRY)
    assert all(registry._REGISTRY[c.id] is c for c in claims)
    # calling again does not re-register (claims_foundation is imported once)
    assert [c.id for c in discovery.all_claims()] == ids


def test_claim_kinds_papers_and_fields():
    for c in discovery.all_claims():
        assert c.kind in KINDS, c.id
        # the toolkit's own checks (DD-*: its stable forms and derived profiles) belong to no paper
        assert (c.papers or c.id.startswith("DD-")) and set(c.papers) <= PAPERS, (c.id, c.papers)
        assert isinstance(c.papers, tuple)
        assert c.source and c.statement, c.id
        assert callable(c.check), c.id


def test_select_filters_by_paper_and_id():
    claims = checker.select()
    assert [c.id for c in claims] == [c.id for c in discovery.all_claims()]
    seen = set()
    for p in sorted(PAPERS):
        chosen = checker.select(paper=p)
        assert all(p in c.papers for c in chosen)
        assert [c.id for c in chosen] == [c.id for c in claims if p in c.papers]
        seen |= {c.id for c in chosen}
    # every claim belongs to some paper, except the toolkit's own DD-* checks, which belong to none
    assert seen == {c.id for c in claims if not c.id.startswith("DD-")}
    assert all(c.papers == () for c in claims if c.id.startswith("DD-"))
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
    discovery.all_claims()
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


def test_run_turns_precision_exhausted_into_error():
    result = checker.run([fake_claim("TEST-precision", _raise_precision)])
    (row,) = result["claims"]
    assert row["status"] == ERROR
    assert "PrecisionExhausted" in row["reason"]
    assert row["counterexample"] is None
    assert result["summary"][ERROR] == 1 and result["summary"]["total"] == 1
    assert checker.exit_code(result) == 1


def test_run_rows_and_summary():
    claims = _claims_of_every_status()
    result = checker.run(claims)
    rows, summary = result["claims"], result["summary"]
    assert [r["id"] for r in rows] == [c.id for c in claims]  # order kept
    for r, c in zip(rows, claims):
        assert set(r) == ROW_KEYS
        assert r["papers"] == list(c.papers) and r["kind"] == c.kind
        assert isinstance(r["seconds"], float) and r["seconds"] >= 0
    assert [r["status"] for r in rows] == [PROVEN, CONFIRMED, FAILED, ERROR, PROVEN]
    failed = rows[2]
    assert failed["counterexample"] and failed["counterexample"]["case"] == "concave"
    for s in STATUSES:
        assert summary[s] == sum(r["status"] == s for r in rows)
    assert summary["total"] == len(rows) == 5
    assert summary["seconds"] >= 0
    json.dumps(result)  # the CLI prints it as JSON


def test_run_of_nothing():
    assert checker.run([])["summary"] == {PROVEN: 0, CONFIRMED: 0, FAILED: 0, REFUTED: 0,
                                          INCONCLUSIVE: 0, ERROR: 0, "total": 0, "seconds": 0.0}


def test_run_survives_a_crashing_check():
    def crash():
        raise RuntimeError("bug in a check")
    # regression (fixed in 51f212d): run() caught only PrecisionExhausted, so one broken check
    # aborted `dp-derive check` with a traceback and lost every other row
    result = checker.run([fake_claim("TEST-crash", crash), checker.select(claim_id="DF-G")[0]])
    assert [r["id"] for r in result["claims"]] == ["TEST-crash", "DF-G"]
    assert result["claims"][0]["status"] == ERROR  # the exception is shown, and the run exits 1
    assert "RuntimeError: bug in a check" in result["claims"][0]["reason"]
    assert checker.exit_code(result) == 1
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


# ---------------------------------------------------------------- statuses, time limits, jobs
def _sleep_forever():
    import time
    while True:        # pure Python: interruptible between bytecodes
        time.sleep(0.01)


def _swallowing_loop():
    # a check that catches Exception must still be stopped by the time limit
    while True:
        try:
            sum(range(1000))
        except Exception:
            pass


def _refuted():
    return Outcome(REFUTED, detail="test", refutation={"paper_says": "x < 1", "holds_instead": "x <= 1",
                                                      "evidence": {"x": "1"}})


def test_time_limit_gives_error_and_the_run_goes_on():
    import time
    t0 = time.perf_counter()
    result = checker.run([fake_claim("TEST-slow", _sleep_forever), fake_claim("TEST-swallow", _swallowing_loop),
                          checker.select(claim_id="DF-G")[0]], timeout=0.3)
    assert time.perf_counter() - t0 < 5
    rows = result["claims"]
    assert [r["status"] for r in rows] == [ERROR, ERROR, PROVEN]
    assert "time limit of 0.3 s" in rows[0]["reason"] and "time limit" in rows[1]["reason"]
    assert checker.exit_code(result) == 1


def test_jobs_2_gives_the_same_rows_and_enforces_the_limit(private_registry):
    registry.register(fake_claim("TEST-slow", _sleep_forever))
    registry.register(fake_claim("TEST-crash2", lambda: 1 / 0))
    ids = ["TEST-slow", "TEST-crash2", "DF-G", "DF-Lap"]
    claims = [registry._REGISTRY[i] for i in ids]
    serial = checker.run(claims, timeout=1)
    parallel = checker.run(claims, jobs=2, timeout=1)
    strip = lambda rows: [(r["id"], r["status"], r["margin"], r["points"]) for r in rows]  # noqa: E731
    assert strip(serial["claims"]) == strip(parallel["claims"])
    assert [r["status"] for r in parallel["claims"]] == [ERROR, ERROR, PROVEN, CONFIRMED]
    assert "ZeroDivisionError" in parallel["claims"][1]["reason"]


def test_a_check_returning_something_else_is_an_error():
    (row,) = checker.run([fake_claim("TEST-none", lambda: None)])["claims"]
    assert row["status"] == ERROR and "not an Outcome" in row["reason"]


def test_refuted_exits_0_and_requires_its_record():
    result = checker.run([fake_claim("TEST-refuted", _refuted, kind="statement")])
    assert result["claims"][0]["status"] == REFUTED
    assert result["claims"][0]["refutation"]["holds_instead"] == "x <= 1"
    assert checker.exit_code(result) == 0
    with pytest.raises(ValueError, match="paper_says"):
        Outcome(REFUTED, refutation={"paper_says": "x"})


def test_check_command_exits_1_on_error_and_0_on_refuted(private_registry, capsys):
    from proofs_check.cli import main
    registry.register(fake_claim("TEST-crash3", lambda: [][1]))
    registry.register(fake_claim("TEST-refuted2", _refuted, kind="statement"))
    assert main(["check", "--claim", "TEST-crash3"]) == 1
    assert "IndexError" in capsys.readouterr().out
    assert main(["check", "--claim", "TEST-refuted2", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["claims"]
    assert row["status"] == REFUTED


@pytest.mark.parametrize("argv, needle", [
    (["check", "--claim", "NOPE"], "valid ids: AV-CND:property, BSA24:NoisyGD-convergent, BSA24:NoisyGD-s"),
    (["check", "--jobs", "0"], "jobs=0"),
    (["check", "--module", ""], "module=: give a module name"),
    (["check", "--claim-timeout", "-1"], "claim-timeout=-1"),
    (["check", "--claim-timeout", "nan"], "claim-timeout=nan"),
    (["check", "--jobs", "99999999999"], "jobs=99999999999: must be an integer in [1, 256]"),
    (["check", "--jobs", "2", "--jobs", "3"], "jobs=3: --jobs given twice"),
    (["check", "--paper", "000", "--paper", "001"], "paper=001: --paper given twice"),
    (["reproduce", "--format", "md", "--format", "latex"], "format=latex: --format given twice"),
    (["check", "--paper", "007"], "007"),
    (["check", "--claim", "DF-G", "--output", "/nonexistent-dir/report.md"], "output=/nonexistent-dir"),
    (["check", "--claim", "DF-G", "--json", "--format", "md"], "format=md"),
])
def test_check_bad_input_is_one_line_exit_2(argv, needle, capsys):
    from proofs_check.cli import main
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err


# ---------------------------------------------------------------- outcome helpers
def test_proven_if_fails_on_a_decided_mismatch_and_falls_back_when_undecided():
    from proofs_check.outcomes import proven_if
    x = sp.Symbol("x", positive=True)
    y = sp.Symbol("y", real=True)
    assert proven_if({"ok": sp.S.Zero, "also": True}, "d").status == PROVEN
    assert proven_if({"bad": sp.Rational(1, 10**6)}, "d").status == FAILED     # a nonzero number
    assert proven_if({"bad": False}, "d").status == FAILED
    assert proven_if({"bad": x * sp.exp(-x)}, "d").status == FAILED          # SymPy knows it is nonzero
    # an expression left over: undecided unless a probe of the claim's domain shows it nonzero
    undecided = proven_if({"left": sp.Function("g")(x)}, "d")
    assert undecided.status == INCONCLUSIVE and "could not decide" in undecided.detail
    left = y * sp.exp(-y) / 10**8                                             # zero only at y = 0
    assert proven_if({"left": left}, "d").status == INCONCLUSIVE
    wrong = proven_if({"left": left}, "d", probes=[{y: sp.Rational(1, 3)}])
    assert wrong.status == FAILED and wrong.counterexample["at"] == {"y": "1/3"}
    fb = proven_if({"left": sp.Function("g")(x)}, "d", fallback=lambda: Outcome(CONFIRMED, margin="1e-30"))
    assert fb.status == CONFIRMED and "numeric (SymPy undecided)" in fb.method


def test_inequality_search_finds_a_dip_between_grid_points():
    import mpmath

    from proofs_check.outcomes import inequality, log_alpha
    # margin(alpha) = (log10 alpha + 150.3)^2 - 0.01: negative only for log10 alpha in (-150.4, -150.2),
    # between the grid points of the 41-point grid on [-300, 0] (spacing 7.5) and off any listed point
    def margin(a):
        t = mpmath.log10(mpmath.mpf(a))
        return (t + mpmath.mpf("150.3")) ** 2 - mpmath.mpf("0.01")
    out = inequality([("dip", margin)], mpmath.mpf(10) ** -20, "test", lo=-300, hi=0,
                     grid_points=("1e-300", "1e-100", "0.5"))
    assert out.status == FAILED
    t = float(mpmath.log10(mpmath.mpf(out.counterexample["alpha"])))
    assert -150.4 < t < -150.2
    assert sp.Rational(log_alpha(-2)) == sp.Rational(1, 100)


def test_probes_evaluate_the_toolkit_heads():
    # regression: sympy.N cannot evaluate Phi/PhiInv, so a wrong Gaussian identity stayed undecided;
    # the probe rewrites the heads to erf first. Phi(-PhiInv(a)) = 1 - a exactly, so adding a^3/1000
    # makes the difference 0.000027 at a = 3/10.
    from derive.special import Phi, PhiInv
    from proofs_check.outcomes import proven_if
    wrong = proven_if({"d": Phi(-PhiInv(A)) - (1 - A) + A**3 / 1000}, "t", probes=[{A: sp.Rational(3, 10)}])
    assert wrong.status == FAILED
    right = proven_if({"d": Phi(-PhiInv(A)) - (1 - A)}, "t", probes=[{A: sp.Rational(3, 10)}])
    assert right.status == INCONCLUSIVE   # true but not closed by simplify: never FAILED


# ---------------------------------------------------------------- scheduling (issue #23: check <= 60 s)


def test_plan_groups_by_module_most_expensive_first(monkeypatch):
    """Every claim is in exactly one group, a group holds one module's claims, and the groups come in
    decreasing order of their summed costs (the LPT rule a local pool then follows)."""
    claims = checker.select()
    costs = {c.id: 1.0 for c in claims}
    heavy = [c for c in claims if c.check.__module__ == "proofs_check.claims_errata_002"]
    for c in heavy:
        costs[c.id] = 1000.0
    monkeypatch.setattr(checker, "_costs", lambda: costs)
    groups = checker.plan(claims)
    flat = sorted(i for g in groups for i in g)
    assert flat == list(range(len(claims)))
    for g in groups:
        assert len({claims[i].check.__module__ for i in g}) == 1
    assert [claims[i].id for i in groups[0]] == [c.id for c in heavy]
    weights = [sum(costs[claims[i].id] for i in g) for g in groups]
    assert weights == sorted(weights, reverse=True)


def test_the_costs_file_names_existing_claims():
    ids = {c.id for c in checker.select()}
    costs = checker._costs()
    assert costs, "proofs_check/claim_costs.json is missing or empty (python bench/claim_costs.py writes it)"
    assert set(costs) <= ids, f"stale ids in claim_costs.json: {sorted(set(costs) - ids)}"


def test_check_uses_the_available_cpus_by_default(monkeypatch):
    from proofs_check.cli import check as cli_check
    monkeypatch.setattr(cli_check.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert cli_check.default_jobs() == 3
    monkeypatch.setattr(cli_check.os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert cli_check.default_jobs() == 8
