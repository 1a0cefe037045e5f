"""Measure the seconds each claim of ``dp-derive check`` takes and write proofs_check/claim_costs.json.

The checker uses the file only to order its work (``proofs_check.checker.plan``: one task per claim
module, the most expensive first); a stale or missing file changes how long a run takes, never what
it finds.  Each claim runs in a fresh interpreter's registry order, in one process (``jobs = 1``), so a
claim's seconds are what it costs after the claims before it in its module warmed the shared caches.

Run: ``python bench/claim_costs.py`` (about two minutes).
"""

from __future__ import annotations

import json
import platform
import time

from proofs_check import checker
from proofs_check.discovery import all_claims


def main() -> None:
    start = time.perf_counter()
    rows = checker.run(all_claims(), jobs=1)["claims"]
    seconds = {r["id"]: r["seconds"] for r in rows}
    out = {"about": "seconds per claim of one serial `dp-derive check` run, written by bench/claim_costs.py; "
                    "used only to order the checker's work (proofs_check.checker.plan)",
           "machine": f"{platform.machine()} {platform.python_version()}",
           "total": round(time.perf_counter() - start, 1), "seconds": seconds}
    checker.COSTS_FILE.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(seconds)} claims, {out['total']} s -> {checker.COSTS_FILE}")


if __name__ == "__main__":
    main()
