"""Issue #25's lattice and heterogeneous-spec targets, measured through the command line.

Run from the repository root: ``python bench/lattice_targets.py [--skip-specs]``.  Each row runs one
``dp-derive compose fdp ... --json`` in a child process (``python -m`` of the installed entry point with
this checkout first on PYTHONPATH) and prints wall and child CPU seconds (``resource.getrusage``), the
route (``method``) and the relative bracket width (upper - lower) / upper of the printed ends.  The
heterogeneous specs are generated here: N distinct Laplace steps with eps = 0.01 + 10^-4 i (i < N),
and 10^4 distinct steps cycling Laplace(0.001 + 10^-5 i), G_mu(0.001 + 10^-5 i) and G_mu(0.5 + 10^-5 i)
Poisson-subsampled at p = 0.01.  The machine is shared: read the load column with the seconds.
Prints a markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench._common import loadavg  # noqa: E402

RR_ROWS = [
    ("RR(0.01) x 1000001, alpha 0.1", ["randomized-response", "--eps", "0.01", "--k", "1000001", "--alpha", "0.1"]),
    ("RR(0.01) x 10^6, at-delta 1e-5", ["randomized-response", "--eps", "0.01", "--k", "1000000", "--at-delta", "1e-5"]),
    ("RR(0.01) x 10^7, at-delta 1e-5", ["randomized-response", "--eps", "0.01", "--k", "10000000", "--at-delta", "1e-5"]),
    ("RR(0.01) x 10^7, at-eps 1000", ["randomized-response", "--eps", "0.01", "--k", "10000000", "--at-eps", "1000"]),
    ("RR(0.01) x 10^7, alpha 0.1", ["randomized-response", "--eps", "0.01", "--k", "10000000", "--alpha", "0.1"]),
    ("RR(0.01) x 1000001, alpha 0.1, numeric",
     ["randomized-response", "--eps", "0.01", "--k", "1000001", "--alpha", "0.1", "--method", "numeric"]),
    ("RR(0.01) x 10^6, at-delta 1e-5, numeric",
     ["randomized-response", "--eps", "0.01", "--k", "1000000", "--at-delta", "1e-5", "--method", "numeric"]),
    ("RR(0.01) x 10^7, at-delta 1e-5, numeric",
     ["randomized-response", "--eps", "0.01", "--k", "10000000", "--at-delta", "1e-5", "--method", "numeric"]),
    ("RR(0.01) x 10^6, at-eps 1, numeric",
     ["randomized-response", "--eps", "0.01", "--k", "1000000", "--at-eps", "1", "--method", "numeric"]),
    ("RR(0.01) x 10^7, at-eps 1, numeric",
     ["randomized-response", "--eps", "0.01", "--k", "10000000", "--at-eps", "1", "--method", "numeric"]),
    ("RR(0.1) x 100, alpha 0.1, numeric",
     ["randomized-response", "--eps", "0.1", "--k", "100", "--alpha", "0.1", "--method", "numeric"]),
    ("Laplace(0.1) x 500, at-eps 1, auto", ["laplace", "--eps", "0.1", "--k", "500", "--at-eps", "1"]),
    ("Laplace(0.1) x 500, at-eps 1, numeric", ["laplace", "--eps", "0.1", "--k", "500", "--at-eps", "1",
                                               "--method", "numeric"]),
]


def _dec(q: Fraction, places: int) -> str:
    """The decimal text of q, exact when q has at most ``places`` decimals (as here)."""
    n = q * 10**places
    assert n.denominator == 1
    return f"{n.numerator // 10**places}.{n.numerator % 10**places:0{places}d}"


def _spec_laplace(n: int) -> dict:
    return {"mechanisms": [{"mechanism": "laplace", "eps": _dec(Fraction(1, 100) + Fraction(i, 10**4), 4),
                            "count": 1} for i in range(n)]}


def _spec_mixed(n: int) -> dict:
    rows = []
    for i in range(n):
        small = _dec(Fraction(1, 1000) + Fraction(i, 10**5), 5)
        rows.append([{"mechanism": "laplace", "eps": small, "count": 1},
                     {"mechanism": "gaussian", "mu": small, "count": 1},
                     {"mechanism": "gaussian", "mu": _dec(Fraction(1, 2) + Fraction(i, 10**5), 5), "p": "0.01",
                      "count": 1}][i % 3])
    return {"mechanisms": rows}


def run(args: list[str], timeout: float) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-c", "from proofs_check.cli import main; import sys; sys.exit(main())",
                            "compose", "fdp", *args, "--json", "--quiet"], env=env, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall": time.perf_counter() - t0, "error": f"timeout {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        return {"wall": wall, "cpu": cpu, "error": p.stderr.strip().splitlines()[-1][:80]}
    return {"wall": wall, "cpu": cpu, **json.loads(p.stdout)}


def width(out: dict) -> str:
    """(upper - lower) / upper of the first printed bracket (beta, delta or eps)."""
    for key in ("beta", "delta", "eps"):
        if f"{key}_lower" in out and f"{key}_upper" in out:
            lo, hi = float(out[f"{key}_lower"]), float(out[f"{key}_upper"])
            if lo == hi:
                return "0 (verified digits)"
            return f"{(hi - lo) / hi:.2g}" if hi > 0 else "inf"
    return "-"


def row(name: str, out: dict) -> str:
    cpu = f"{out['cpu']:.1f}" if "cpu" in out else "-"
    if "error" in out:
        return f"| {name} | {out['wall']:.1f} | {cpu} | - | {out['error']} |"
    return f"| {name} | {out['wall']:.1f} | {cpu} | {out.get('method')} | {width(out)} |"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--skip-specs", action="store_true", help="only the single-mechanism rows")
    ap.add_argument("--timeout", type=float, default=900.0)
    a = ap.parse_args(argv)
    print(f"load average at start: {loadavg()}\n")
    print("| case | wall s | CPU s | method | relative width |\n|---|---|---|---|---|")
    for name, args in RR_ROWS:
        print(row(name, run(args, a.timeout)), flush=True)
    if a.skip_specs:
        return
    with tempfile.TemporaryDirectory() as d:
        for name, spec in (("spec: 1000 distinct Laplace, at-eps 1", _spec_laplace(1000)),
                           ("spec: 10^4 distinct Laplace/Gaussian/subsampled Gaussian, at-eps 1", _spec_mixed(10**4))):
            path = Path(d) / "spec.json"
            path.write_text(json.dumps(spec))
            print(row(name, run(["--spec", str(path), "--at-eps", "1"], a.timeout)), flush=True)
    print(f"\nload average at end: {loadavg()}")


if __name__ == "__main__":
    main()
