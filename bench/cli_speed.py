"""(e) the command line: start-up and whole curves in one call (issue #11 targets).

Measured as wall time of the real program (`python -m proofs_check ...` in a subprocess, the
median of 5 runs): `--help` (target <= 0.3 s), `tradeoff gaussian --mu 1 --alpha 0.1` (target
<= 0.6 s), a 200-point curve `--alpha-grid log:1e-300:0.5:200` on the fp path (target <= 1 s)
and on the mp path at 30 digits (target <= 2 s).  Baseline in the same run: `python -c pass`
(the interpreter alone), so the ratio column says what the program adds.

Run alone: ``python bench/cli_speed.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import _common
from _common import pass_fail

CASES = (
    ("--help", ["--help"], 0.3),
    ("tradeoff gaussian --mu 1 --alpha 0.1", ["tradeoff", "gaussian", "--mu", "1", "--alpha", "0.1"], 0.6),
    ("200-point curve, fp", ["tradeoff", "gaussian", "--mu", "1", "--alpha-grid", "log:1e-300:0.5:200",
                             "--path", "fp", "--format", "csv"], 1.0),
    ("200-point curve, mp, 30 digits", ["tradeoff", "gaussian", "--mu", "1", "--alpha-grid", "log:1e-300:0.5:200",
                                        "--digits", "30", "--format", "csv"], 2.0),
)
REPEATS = 5


def _wall(argv) -> float:
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        subprocess.run(argv, cwd=_common.REPO, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def run(verbose: bool = True) -> dict:
    base = _wall([sys.executable, "-c", "pass"])
    rows = []
    for name, args, target in CASES:
        t = _wall([sys.executable, "-m", "proofs_check", *args])
        rows.append({"name": name, "seconds": t, "target": target, "ratio": t / base, "pass": t <= target})
        if verbose:
            print(f"{name}: {t:.3f} s (target {target} s, {t / base:.1f}x the bare interpreter)", flush=True)
    return {"baseline": base, "rows": rows}


def markdown(res: dict) -> str:
    lines = ["## (e) command line: start-up and one-call curves", "",
             f"Median wall time of {REPEATS} runs of the real program; the bare interpreter "
             f"(`python -c pass`) takes {res['baseline']:.3f} s in the same run.", "",
             "| command | seconds | target | x interpreter | result |", "|---|---:|---:|---:|---|"]
    for r in res["rows"]:
        lines.append(f"| `{r['name']}` | {r['seconds']:.3f} | {r['target']} | {r['ratio']:.1f} | {pass_fail(r['pass'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(run()))
