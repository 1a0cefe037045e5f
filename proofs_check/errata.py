"""Errata found by the tool: the paper statements that the checker REFUTED.

Claims about a statement of a paper (in words or formulas) are registered with kind
``"statement"``; each returns REFUTED (with the paper's words, what holds instead, the kind of
erratum and the counter-example), CONFIRMED/PROVEN when the statement holds, or FAILED when the
corrected statement does not hold either.  One erratum per REFUTED claim.  The rules every erratum
follows are in :mod:`proofs_check.verdicts`.  Rows whose paper statement was lost in the
extraction (``extra["paper"] == "unverifiable"``) are listed apart: they are not errata.
"""

from __future__ import annotations


def erratum_row(r: dict) -> dict:
    """The erratum of one REFUTED result row of ``checker.run``."""
    ref = r["refutation"]
    return {"paper": r.get("paper"), "where": r.get("source"), "kind": ref.get("kind"),
            "paper_says": ref.get("paper_says"), "holds_instead": ref.get("holds_instead"), "claim": r["id"],
            "printed": ref.get("printed") or [], "evidence": ref.get("evidence")}


def unverifiable_row(r: dict) -> dict:
    """A statement of a paper the seed text lost: what was checked instead, with its status."""
    ex = r["extra"]
    return {"paper": r.get("paper"), "where": ex["where"], "missing": ex["missing"], "reading": ex["reading"],
            "claim": r["id"], "status": r["status"]}


def split(result: dict) -> tuple[list[dict], list[dict]]:
    """``(errata, unverifiable)`` of a ``checker.run`` result."""
    errata = [erratum_row(r) for r in result["claims"] if r["status"] == "REFUTED" and r.get("refutation")]
    lost = [unverifiable_row(r) for r in result["claims"]
            if isinstance(r.get("extra"), dict) and r["extra"].get("paper") == "unverifiable"]
    return errata, lost


def errata(paper: str | None = None, jobs: int = 1, timeout: float | None = None,
           progress: bool = False) -> tuple[list[dict], dict]:
    """``(errata, run_result)`` for the statement claims of ``paper`` (every paper when None);
    ``run_result["unverifiable"]`` lists the statements the extraction lost."""
    from .checker import DEFAULT_TIMEOUT, run, select
    claims = [c for c in select(paper) if c.kind == "statement"]
    result = run(claims, jobs=jobs, timeout=DEFAULT_TIMEOUT if timeout is None else timeout, progress=progress)
    found, lost = split(result)
    result["unverifiable"] = lost
    return found, result
