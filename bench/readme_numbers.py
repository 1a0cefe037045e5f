"""The numbers README.md states about the code, computed from the code (issue #25, item 5).

Usage (from the repository root):  python bench/readme_numbers.py [--check]

README.md holds each such number inside a marked block, inline in its sentence:

    <!-- generated: NAME -->text with the numbers<!-- /generated -->

This script recomputes every block and rewrites README.md (``--check`` only reports the blocks that
differ, exit 1 if any).  The blocks are of three sorts:

* ``COUNTS``: counts read from the code (the claim registry, tests/expected_status.json -- which the
  full ``check`` run in tests/test_cli.py is compared with -- and the reproduce tables); cheap and
  machine-independent: tests/test_readme.py requires README's text to equal them.
* ``FROM_BENCHMARKS``: figures taken from BENCHMARKS.md (written by ``python bench/run.py``; the gmpy2
  section by bench/gmpy_backend.py), so README and BENCHMARKS.md cannot disagree; also compared
  exactly by the test.
* ``MEASURED``: timings (process CPU seconds, less sensitive than wall time to other load) taken on this
  machine when the script runs, beside the deterministic values of the same example, and the worked
  examples that take seconds to compute (the engine's brackets).  The default test run checks that each
  block has the script's form with a plausible time; the ``slow`` run, that its deterministic values are
  today's.

Usage: ``python bench/readme_numbers.py NAME ...`` rewrites only the named blocks.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

README = REPO / "README.md"
BENCHMARKS = REPO / "BENCHMARKS.md"
EXPECTED_STATUS = REPO / "tests" / "expected_status.json"
PAPER_IDS = ("000", "001", "002", "003", "004")

BLOCK_RE = re.compile(r"<!-- generated: ([a-z0-9-]+) -->(.*?)<!-- /generated -->", re.S)


# ------------------------------------------------------------------ counts
def _registry_and_table():
    from proofs_check import checker
    claims = checker.select()
    table = json.loads(EXPECTED_STATUS.read_text(encoding="utf-8"))["claims"]
    ids = [c.id for c in claims]
    missing, extra = sorted(set(ids) - set(table)), sorted(set(table) - set(ids))
    if missing or extra:
        raise SystemExit(f"tests/expected_status.json out of step with the registry: missing {missing}, "
                         f"not registered {extra}")
    return claims, table


def check_counts() -> dict:
    claims, table = _registry_and_table()
    n = collections.Counter(table[c.id]["status"] for c in claims)
    return {"claims": len(claims), "proven": n["PROVEN"], "confirmed": n["CONFIRMED"], "refuted": n["REFUTED"],
            "inconclusive": n["INCONCLUSIVE"]}


def errata_counts() -> dict:
    claims, table = _registry_and_table()
    refuted = [c for c in claims if table[c.id]["status"] == "REFUTED"]
    by_paper = collections.Counter(c.papers[0] for c in refuted)
    lost = sum(table[c.id].get("paper") == "unverifiable" for c in claims)
    return {"errata": len(refuted), **{f"p{p}": by_paper[p] for p in PAPER_IDS},
            "unverifiable": lost}


def table1_001() -> dict:
    from proofs_check.papers import PAPERS
    entries = [e for e in PAPERS["001"].reproduce_entries() if e["id"].startswith("LXM-Table1:")]
    return {"reproduced": sum(e["status"] == "reproduced" for e in entries), "cells": len(entries)}


# ------------------------------------------------------------------ from BENCHMARKS.md
def _benchmarks() -> str:
    return BENCHMARKS.read_text(encoding="utf-8")


def _pct(x: float) -> int:
    return round(100 * (x - 1))


def gmpy_speed() -> dict:
    """The speed-ups of the gmpy2 section of BENCHMARKS.md (15-30 digits, 1000 digits, serial check)."""
    text = _benchmarks()
    section = text[text.index("<!-- BEGIN gmpy2"):text.index("<!-- END gmpy2 -->")]
    low, high = [], []
    for row in re.findall(r"^\| (.+?) \| [\d.]+ \| [\d.]+ \| ([\d.]+) \|$", section, flags=re.M):
        digits = int(re.search(r"(\d+) digits", row[0]).group(1))
        (high if digits >= 1000 else low).append(float(row[1]))
    m = re.search(r"took ([\d.]+) s with gmpy2 against ([\d.]+) s with `MPMATH_NOGMPY=1`", " ".join(section.split()))
    saved = 1 - float(m.group(1)) / float(m.group(2))
    return {"low": _pct(min(low)), "high": _pct(max(low)), "x1000": round(max(high)), "check": round(100 * saved)}


def _ms(cell: str) -> float:
    value, unit = cell.split()[:2]
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def mp_speed() -> dict:
    """mp.power's median per value at 30 digits over alpha = 1e-20 ... 1e-100000 (BENCHMARKS.md, (b))."""
    rows = re.findall(r"^\| (1e-\d+) \| ([\d.]+ (?:us|ms|s)) \(", _benchmarks(), flags=re.M)
    times = [_ms(t) for _, t in rows]
    return {"fastest": f"{min(times):.1f}", "slowest": f"{max(times):.1f}",
            "alpha_low": rows[0][0], "alpha_high": rows[-1][0]}


def fp_accuracy() -> dict:
    """The largest relative error of fp's Gaussian and Laplace beta and power (BENCHMARKS.md, (a))."""
    errs = [float(e) for e in re.findall(r"^\| (?:gaussian|laplace)\(1\) (?:beta|power) \| ([\d.e+-]+) \|",
                                          _benchmarks(), flags=re.M)]
    return {"max_err": f"{max(errs):.0e}".replace("e-0", "e-")}


# ------------------------------------------------------------------ measured
def laplace_compose_time() -> dict:
    from numeric import compose_exact
    compose_exact.eps("laplace", {"eps": "0.1"}, 3, "1e-6", 15)        # imports and kernels, not the k = 100 spline
    t0 = time.process_time()
    compose_exact.eps("laplace", {"eps": "0.1"}, 100, "1e-6", 15)
    return {"seconds": f"{time.process_time() - t0:.2f}"}


def _cli_json(command: str) -> dict:
    """The --json row of a dp-derive command, run in-process."""
    import contextlib
    import io
    import shlex

    from proofs_check.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main([*shlex.split(command), "--json", "--quiet"])
    if rc != 0:
        raise RuntimeError(f"dp-derive {command} exited {rc}")
    return json.loads(out.getvalue())


def _down(value: str, places: int) -> str:
    from decimal import ROUND_FLOOR, Decimal
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_FLOOR))


def _up(value: str, places: int) -> str:
    from decimal import ROUND_CEILING, Decimal
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_CEILING))


DPSGD_COMMAND = "dpsgd --n 60000 --batch 256 --sigma 1.1 --epochs 60 --at-delta 1e-5"
DG_COMMAND = "compose fdp discrete-gaussian --sigma2 1.37 --k 10"


def dpsgd_example() -> dict:
    """README's DP-SGD example: the certified bracket (rounded outwards to 5 decimals), the CPU time of the
    command run in-process (start-up apart), the CLT's eps."""
    _cli_json("dpsgd --n 600 --batch 60 --sigma 1.1 --steps 2 --at-delta 1e-5")     # imports, not the example
    t0 = time.process_time()
    r = _cli_json(DPSGD_COMMAND)
    seconds = time.process_time() - t0
    return {"lower": _down(r["eps_lower"], 5), "upper": _up(r["eps_upper"], 5),
            "clt": f"{float(r['eps_clt']):.4f}", "seconds": f"{seconds:.1f}"}


def discrete_gaussian_example() -> dict:
    """Ten discrete-Gaussian(1.37) queries on the engine: eps at delta = 1e-10 (bracket rounded outwards to
    4 decimals) and the attack power at alpha = 0.05 (1 - beta_lower, rounded up)."""
    e = _cli_json(DG_COMMAND + " --at-delta 1e-10")
    b = _cli_json(DG_COMMAND + " --alpha 0.05")
    from decimal import Decimal
    return {"lower": _down(e["eps_lower"], 4), "upper": _up(e["eps_upper"], 4),
            "power": _up(str(1 - Decimal(b["beta_lower"])), 4)}


# ------------------------------------------------------------------ the blocks
#: name -> (template, values function, timing fields)
COUNTS = {
    "check-counts": ("`dp-derive check` runs {claims} claims: {proven} PROVEN, {confirmed} CONFIRMED, "
                     "{refuted} REFUTED (errata of the papers), {inconclusive} INCONCLUSIVE", check_counts, ()),
    "errata-counts": ("the {errata} errata found (000: {p000}, 001: {p001}, 002: {p002}, 003: {p003}, "
                      "004: {p004}) and the {unverifiable} unverifiable statements", errata_counts, ()),
    "table1-001": ("{reproduced} of {cells} cells reproduce as printed", table1_001, ()),
}
FROM_BENCHMARKS = {
    "gmpy-speed": ("{low}-{high} % faster at 15-30 digits, {x1000}x at 1000 digits, {check} % less "
                   "time on `dp-derive check --jobs 1`", gmpy_speed, ()),
    "mp-speed": ("about {fastest}-{slowest} ms per value at 30 digits for alpha from {alpha_low} to {alpha_high}",
                 mp_speed, ()),
    "fp-accuracy": ("measured max {max_err}", fp_accuracy, ()),
}
MEASURED = {
    "laplace-compose-time": ("in about {seconds} s of CPU time (measured by bench/readme_numbers.py)", laplace_compose_time,
                             ("seconds",)),
    "dpsgd-example": ("eps in [{lower}, {upper}] certified in about {seconds} s of CPU time (measured by "
                      "bench/readme_numbers.py), where the CLT says {clt}", dpsgd_example, ("seconds",)),
    "discrete-gaussian-example": ("are certified at eps in [{lower}, {upper}], and an attacker at alpha = 0.05 "
                                  "has power at most {power}", discrete_gaussian_example, ()),
}
BLOCKS = {**COUNTS, **FROM_BENCHMARKS, **MEASURED}


def render(name: str, values: dict | None = None) -> str:
    template, fn, _ = BLOCKS[name]
    return template.format(**(fn() if values is None else values))


def parse(name: str, text: str) -> dict | None:
    """The fields of block ``name`` as README shows them, or None when the text lacks the template's form."""
    template = BLOCKS[name][0]
    pattern, pos = "", 0
    for m in re.finditer(r"\{(\w+)\}", template):
        pattern += re.escape(template[pos:m.start()]) + rf"(?P<{m.group(1)}>[0-9.e-]+)"
        pos = m.end()
    pattern += re.escape(template[pos:])
    m = re.fullmatch(pattern, " ".join(text.split()))
    return m.groupdict() if m else None


def blocks(text: str) -> dict:
    """name -> text of every generated block of ``text`` (README.md)."""
    found = BLOCK_RE.findall(text)
    names = [n for n, _ in found]
    dup = sorted(n for n, c in collections.Counter(names).items() if c > 1)
    if dup:
        raise ValueError(f"generated blocks given twice: {dup}")
    return {n: " ".join(body.split()) for n, body in found}


def update(text: str, names=None) -> str:
    def sub(m):
        name = m.group(1)
        if name not in BLOCKS:
            raise ValueError(f"unknown generated block {name!r}")
        if names is not None and name not in names:
            return m.group(0)
        return f"<!-- generated: {name} -->{render(name)}<!-- /generated -->"
    return BLOCK_RE.sub(sub, text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--check", action="store_true",
                    help="report the blocks whose values (timings apart) differ, do not write")
    ap.add_argument("names", nargs="*", help="only these blocks (default: all)")
    args = ap.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    have = blocks(text)
    missing = sorted(set(BLOCKS) - set(have))
    if missing:
        print(f"README.md lacks the generated blocks {missing}", file=sys.stderr)
        return 1
    new = update(text, set(args.names) if args.names else None)
    if args.check:
        def fixed(name, body):                  # the block without its timings (they vary from run to run)
            values = parse(name, body)
            return None if values is None else {k: v for k, v in values.items() if k not in BLOCKS[name][2]}
        changed = [n for n, body in blocks(new).items() if fixed(n, body) != fixed(n, have[n])]
        for n in changed:
            print(f"{n}: README says {have[n]!r}, now {blocks(new)[n]!r}")
        return 1 if changed else 0
    README.write_text(new, encoding="utf-8")
    print("README.md: " + ", ".join(f"{n} = {b!r}" for n, b in blocks(new).items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
