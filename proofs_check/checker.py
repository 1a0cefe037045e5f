"""Run claims and collect their outcomes (id, status, margin, points, seconds)."""

from __future__ import annotations

import time

from derive.errors import PrecisionExhausted

from .registry import INCONCLUSIVE, STATUSES, Claim, Outcome, all_claims


def select(paper: str | None = None, claim_id: str | None = None) -> list[Claim]:
    claims = all_claims()
    if paper is not None:
        claims = [c for c in claims if paper in c.papers]
    if claim_id is not None:
        claims = [c for c in claims if c.id == claim_id]
    return claims


def run(claims: list[Claim]) -> dict:
    rows = []
    start = time.perf_counter()
    for c in claims:
        t0 = time.perf_counter()
        try:
            out = c.check()
        except PrecisionExhausted as exc:
            out = Outcome(INCONCLUSIVE, detail=f"precision exhausted: {exc}")
        except Exception as exc:  # a broken check must not hide the other rows
            out = Outcome(INCONCLUSIVE, detail=f"the check raised {type(exc).__name__}: {exc}")
        rows.append({
            "id": c.id, "papers": list(c.papers), "source": c.source, "kind": c.kind,
            "statement": c.statement, "status": out.status, "margin": out.margin,
            "points": out.points, "seconds": round(time.perf_counter() - t0, 3),
            "detail": out.detail, "counterexample": out.counterexample,
        })
    summary = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    summary["total"] = len(rows)
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return {"claims": rows, "summary": summary}
