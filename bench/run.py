"""Run every benchmark of bench/ and write BENCHMARKS.md at the repository root.

Usage (from the repository root):  python bench/run.py

Parts: (a) fp path (bench/fp_path.py), (b) mp path (bench/mp_path.py),
(c) proof-check wall time (bench/check_time.py), (d) optimal composition
(bench/composition.py), (e) CLI start-up and one-call curves (bench/cli_speed.py).  A part that raises is
reported as an error in BENCHMARKS.md; the runner itself does not crash.
"""

from __future__ import annotations

import datetime
import time
import traceback

import _common
import check_time
import cli_speed
import composition
import fp_path
import mp_path
from _common import machine_info, pass_fail

COMMAND = "python bench/run.py"
OUTPUT = _common.REPO / "BENCHMARKS.md"
PARTS = (("(a) fp path", fp_path), ("(b) mp path", mp_path), ("(c) proof check", check_time),
         ("(d) composition", composition), ("(e) command line", cli_speed))


def _summary(name, res):
    rows = []
    if res is None:
        return rows
    if name.startswith("(a)"):
        for r in res["timing"]:
            if r["pass"] is not None:
                rows.append((name, f"{r['name']}: ratio to baseline <= {fp_path.RATIO_TARGET}",
                             f"{r['ratio']:.2f}", pass_fail(r["pass"])))
        for r in res["accuracy"]:
            rows.append((name, f"{r['name']}: max rel err <= {fp_path.ERR_TARGET:.0e}",
                         f"{r['max_rel_err']:.2e}", pass_fail(r["pass"])))
    elif name.startswith("(b)"):
        for t in res["targets"]:
            rows.append((name, t["name"], t["value"], pass_fail(t["pass"])))
    elif name.startswith("(e)"):
        for r in res["rows"]:
            rows.append((name, f"{r['name']}: <= {r['target']} s", f"{r['seconds']:.3f} s", pass_fail(r["pass"])))
    elif name.startswith("(d)"):
        for r in res["rows"]:
            if r["pass"] is not None:
                rows.append((name, f"optimal eps, k = {r['k']}, eps0 = {r['eps0']}, delta = {r['delta']}: "
                             f"<= {composition.TARGET:.0f} s", f"{r['seconds']:.3f} s", pass_fail(r["pass"])))
    else:
        value = "not available" if res["seconds"] is None else f"{res['seconds']:.2f} s"
        rows.append((name, f"check wall time <= {check_time.TARGET:.0f} s", value,
                     "not available" if res["pass"] is None else pass_fail(res["pass"])))
        if res.get("serial"):
            se = res["serial"]
            rows.append((name, "check --jobs 1 (serial, no target)",
                         "not available" if se["seconds"] is None else f"{se['seconds']:.2f} s", "-"))
        if res.get("certified"):
            ratio = res["certified_ratio"]
            rows.append((name, f"check --certified <= {check_time.CERTIFIED_RATIO:.0f}x default",
                         "not available" if ratio is None else f"{ratio:.2f}x",
                         "not available" if res["pass_certified"] is None else pass_fail(res["pass_certified"])))
    return rows


def _kept_blocks() -> list[str]:
    """Sections maintained by hand (between <!-- BEGIN x --> and <!-- END x -->) survive a run."""
    import re
    if not OUTPUT.exists():
        return []
    return re.findall(r"<!-- BEGIN .*? -->.*?<!-- END .*? -->\n?", OUTPUT.read_text(), flags=re.S)


def main() -> None:
    started = datetime.datetime.now().astimezone()
    t0 = time.perf_counter()
    info = machine_info()
    sections, summary = [], []
    for name, module in PARTS:
        print(f"=== {name}", flush=True)
        t_part = time.perf_counter()
        try:
            res = module.run()
            text = module.markdown(res)
        except Exception:  # keep going: report the failure in the file
            res = None
            text = (f"## {name}\n\nERROR: the benchmark raised:\n\n```\n"
                    f"{traceback.format_exc()}```\n")
            summary.append((name, "benchmark ran", "raised an exception", "ERROR"))
            print(traceback.format_exc(), flush=True)
        elapsed = time.perf_counter() - t_part
        sections.append(text + f"\n_{name} took {elapsed:.1f} s._\n")
        summary.extend(_summary(name, res))
    total = time.perf_counter() - t0
    end_load = _common.loadavg()
    info = {k2: v2 for k, v in info.items()
            for k2, v2 in ([(k, v), ("load average (1/5/15 min) at end", end_load)]
                           if k.startswith("load average") else [(k, v)])}

    lines = ["# dp-derive benchmarks", "",
             f"Produced by `{COMMAND}` (run from the repository root) on "
             f"{started.strftime('%Y-%m-%d %H:%M %Z')}; total run time {total:.1f} s. "
             "This file is overwritten by each run.", "",
             "## Machine", "", "| item | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in info.items()]
    lines += ["", "Timings are wall-clock (`time.perf_counter`) in one process; on a shared "
              "machine they vary from run to run (see the min/max columns).", "",
              "## Summary of targets", "", "| part | target | value | result |", "|---|---|---|---|"]
    lines += [f"| {p} | {t} | {v} | {r} |" for p, t, v, r in summary]
    lines.append("")
    kept = _kept_blocks()
    OUTPUT.write_text("\n".join(lines) + "\n" + "\n".join(sections) + ("\n" + "\n".join(kept) if kept else ""))
    print(f"wrote {OUTPUT} ({total:.1f} s)")


if __name__ == "__main__":
    main()
