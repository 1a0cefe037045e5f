"""Issue #25's heterogeneous-spec rows, this checkout against another one, in the same run.

``python bench/laplace_specs.py --before /path/to/other/checkout [--mixed N] [--timeout S]``: the spec of
1000 distinct Laplace steps (eps = 0.01 + 10^-4 i, ``bench.lattice_targets._spec_laplace``) and a mixed spec
of N distinct Laplace / Gaussian / subsampled Gaussian steps (``_spec_mixed``), each run by
``compose fdp --spec FILE --at-eps 1 --json`` in a child process of each checkout, alternately (before,
after), with child CPU seconds (``resource.getrusage``), peak resident memory of the child and the printed
bracket.  The machine is shared: the load average is printed before and after every row.
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
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench._common import loadavg  # noqa: E402
from bench.lattice_targets import _spec_laplace, _spec_mixed  # noqa: E402

_CHILD = ("import resource, sys\nfrom proofs_check.cli import main\ncode = main()\n"
          "sys.stderr.write('MAXRSS %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\nsys.exit(code)")


def run(checkout: Path, spec: Path, timeout: float) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-c", _CHILD, "compose", "fdp", "--spec", str(spec), "--at-eps", "1",
                            "--json", "--quiet"], env=env, capture_output=True, text=True, timeout=timeout,
                           cwd=str(checkout))
    except subprocess.TimeoutExpired:
        return {"wall": time.perf_counter() - t0, "error": f"timeout {timeout:.0f} s"}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = {"wall": time.perf_counter() - t0,
           "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}
    rss = [ln for ln in p.stderr.splitlines() if ln.startswith("MAXRSS ")]
    if rss:
        out["rss_mb"] = int(rss[-1].split()[1]) / 1024
    if p.returncode != 0:
        out["error"] = (p.stderr.strip().splitlines() or ["?"])[-1][:80]
        return out
    return {**out, **json.loads(p.stdout)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--before", required=True, help="the other checkout (e.g. the main branch)")
    ap.add_argument("--mixed", type=int, default=1000, help="steps of the mixed spec (0: skip it)")
    ap.add_argument("--timeout", type=float, default=900.0)
    a = ap.parse_args(argv)
    print("| spec | checkout | load before | wall s | CPU s | peak MB | delta_lower | delta_upper |\n"
          "|---|---|---|---|---|---|---|---|")
    rows = [("1000 distinct Laplace", _spec_laplace(1000))]
    if a.mixed:
        rows.append((f"{a.mixed} mixed Laplace/Gaussian/subsampled Gaussian", _spec_mixed(a.mixed)))
    with tempfile.TemporaryDirectory() as d:
        for name, spec in rows:
            path = Path(d) / "spec.json"
            path.write_text(json.dumps(spec))
            for label, checkout in (("before", Path(a.before)), ("after", REPO)):
                load = loadavg()
                r = run(checkout, path, a.timeout)
                rss = f"{r['rss_mb']:.0f}" if "rss_mb" in r else "-"
                cpu = f"{r['cpu']:.1f}" if "cpu" in r else "-"
                ends = (r.get("delta_lower", "-"), r.get("delta_upper", r.get("error", "-")))
                print(f"| {name} | {label} | {load} | {r['wall']:.1f} | {cpu} | {rss} | {ends[0]} | {ends[1]} |",
                      flush=True)
    print(f"\nload average at end: {loadavg()}")


if __name__ == "__main__":
    main()
