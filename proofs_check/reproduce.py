"""Printed numbers of the seed papers, recomputed: ``dp-derive reproduce``.

Each entry is a value claim: id, printed value, computed value, status (``reproduced`` to the
printed digits, ``differs``, or ``unverifiable`` when the paper does not give what the
computation needs) and a note.  The per-paper modules are named in :mod:`proofs_check.papers`.
"""

from __future__ import annotations

from .papers import PAPERS
from .rounding import rounds_to  # noqa: F401  (kept for callers of the old location)

REPRODUCE_STATUSES = ("reproduced", "differs", "unverifiable")


def reproduce(paper: str | None = None) -> dict:
    papers = [PAPERS[paper]] if paper else list(PAPERS.values())
    out = [{"paper": p.id, "title": p.title, "entries": p.reproduce_entries(), "note": p.note}
           for p in papers]
    entries = [e for block in out for e in block["entries"]]
    summary = {s: sum(e["status"] == s for e in entries) for s in REPRODUCE_STATUSES}
    summary["total"] = len(entries)
    return {"papers": out, "summary": summary}
