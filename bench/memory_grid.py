"""Peak memory of `dp-derive dpsgd` at T = 10^6 over the issue-#25 grid (q x sigma x delta).

Run from the repository root::

    python bench/memory_grid.py [--steps 1000000] [--markdown]

Each cell is a fresh ``python -m proofs_check dpsgd ... --json`` process; its peak resident set size is read
from ``os.wait4`` (the kernel's ru_maxrss of that child alone), with its wall seconds and certified bracket.
The issue's target: at most 1 GB in every cell.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import print_markdown  # noqa: E402

#: (n, batch) giving q = 1e-3, 4e-3, 0.01, 0.1
QS = ((1000, 1), (1000, 4), (100, 1), (10, 1))
SIGMAS = ("0.6", "0.8", "1.1", "2", "5")
DELTAS = ("1e-5", "1e-10")


def run_cell(n: int, b: int, sigma: str, delta: str, steps: int):
    cmd = [sys.executable, "-m", "proofs_check", "dpsgd", "--n", str(n), "--batch", str(b), "--sigma", sigma,
           "--steps", str(steps), "--at-delta", delta, "--quiet", "--json"]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    d = json.loads(out) if p.returncode == 0 else {}
    return {"q": b / n, "sigma": sigma, "delta": delta, "rss_mb": usage.ru_maxrss / 1024,
            "seconds": time.perf_counter() - t, "eps_lower": d.get("eps_lower"), "eps_upper": d.get("eps_upper"),
            "rc": p.returncode}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--steps", type=int, default=10 ** 6)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    rows = [run_cell(n, b, s, d, a.steps) for n, b in QS for s in SIGMAS for d in DELTAS]
    for r in rows:
        print(json.dumps(r), flush=True)
    worst = max(r["rss_mb"] for r in rows)
    print(f"cells {len(rows)}, answered {sum(r['rc'] == 0 for r in rows)}, peak RSS max {worst:.0f} MB, "
          f"cells above 1024 MB: {sum(r['rss_mb'] > 1024 for r in rows)}")
    if a.markdown:
        print_markdown(["q", "sigma", "delta", "peak RSS MB", "wall s", "eps bracket"],
                       [[f"{r['q']:g}", r["sigma"], r["delta"], f"{r['rss_mb']:.0f}", f"{r['seconds']:.1f}",
                         f"[{r['eps_lower']}, {r['eps_upper']}]"] for r in rows])
    return 0 if worst <= 1024 and all(r["rc"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
