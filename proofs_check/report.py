"""Reports of ``dp-derive check`` and ``dp-derive reproduce``: text, JSON, Markdown, LaTeX.

``render_check(result, fmt)`` and ``render_reproduce(result, fmt)`` take the objects returned by
``checker.run`` and ``reproduce.reproduce`` (``render_errata`` the errata list) and return the
report as one string.
"""

from __future__ import annotations

import json

FORMATS = ("text", "md", "latex", "json")


def render_check(result: dict, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(result)
    if fmt == "text":
        lines = []
        for r in result["claims"]:
            margin = f"margin {r['margin']}" if r["margin"] is not None else ""
            status = r["status"] + ("*" if r.get("certified") else "")
            lines.append(f"{status:<12} {r['id']:<45} {margin:<18} {r['points']:>5} pts {r['seconds']:>7.2f} s")
            if r["status"] in ("FAILED", "ERROR", "INCONCLUSIVE", "REFUTED"):
                lines.append(f"    {r['reason']}")
            if r["counterexample"]:
                lines.append(f"    counterexample: {r['counterexample']}")
        s = result["summary"]
        lines.append(f"{s['total']} claims: {s['PROVEN']} proven, {s['CONFIRMED']} confirmed, "
                     f"{s['FAILED']} failed, {s['REFUTED']} refuted, {s['INCONCLUSIVE']} inconclusive, "
                     f"{s['ERROR']} error in {s['seconds']:.1f} s")
        return "\n".join(lines)
    raise ValueError(f"format={fmt}: not yet available")


def render_reproduce(result: dict, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(result)
    if fmt == "text":
        lines = []
        for block in result["papers"]:
            lines.append(f"[{block['paper']}] {block['title']}: {block['note']}")
            for e in block["entries"]:
                lines.append(f"    {e['id']}: printed {e['printed']}, computed {e['computed']}, {e['status']}")
        return "\n".join(lines)
    raise ValueError(f"format={fmt}: not yet available")


def render_errata(errata: list[dict], fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps({"errata": errata})
    if fmt == "text":
        lines = []
        for e in errata:
            lines.append(f"[{e['paper']}] {e['where']} ({e['claim']})")
            lines.append(f"    the paper says: {e['paper_says']}")
            lines.append(f"    what holds:     {e['holds_instead']}")
            lines.append(f"    evidence:       {e['evidence']}")
        lines.append(f"{len(errata)} errata")
        return "\n".join(lines)
    raise ValueError(f"format={fmt}: not yet available")
