"""Errata found by the tool: the paper statements that the checker REFUTED.

Claims about a statement of a paper (in words or formulas) are registered with kind
``"statement"``; each returns REFUTED (with the paper's words, what holds instead and the
counter-example), CONFIRMED/PROVEN when the statement holds, or FAILED when the corrected
statement does not hold either.  One erratum per REFUTED claim.
"""

from __future__ import annotations

from .checker import DEFAULT_TIMEOUT, run, select


def errata(paper: str | None = None, jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
           progress: bool = False) -> tuple[list[dict], dict]:
    """``(errata, run_result)`` for the statement claims of ``paper`` (every paper when None)."""
    claims = [c for c in select(paper) if c.kind == "statement"]
    result = run(claims, jobs=jobs, timeout=timeout, progress=progress)
    out = []
    for r in result["claims"]:
        if r["status"] != "REFUTED":
            continue
        ref = r["refutation"]
        out.append({"paper": r["paper"], "where": r["source"], "paper_says": ref["paper_says"],
                    "holds_instead": ref["holds_instead"], "claim": r["id"], "evidence": ref["evidence"]})
    return out, result
