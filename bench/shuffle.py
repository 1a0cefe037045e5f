"""``dp-derive shuffle`` against the numerical method of Feldman-McMillan-Talwar 2021 (issue #26 item 1).

Run from the repository root::

    python bench/shuffle.py [--n 1000,10000,...] [--eps0 0.5,1,2] [--delta 1e-6] [--out FILE.json] [--markdown]

The peer: Apple's ``computeamplification`` (ml-shuffling-amplification, the code of FMT21 Sec. 5) is not
on PyPI (``pip download computeamplification``: "No matching distribution"), so ``fmt21_eps`` below is a
baseline written here from the method's description: for a candidate eps, the pair's delta(eps) is
bounded in float64 by covering the values c of C ~ Bin(n - 1, e^-eps0) in groups of ``step`` consecutive
values, each group's mass (scipy's binomial cdf) times the larger conditional hockey stick at the
group's two ends (the conditional divergence is monotone in c), stopping once the uncovered mass is
below the delta accumulated so far (it is then added); eps is found by a binary search with a fixed
number of halvings (``iterations``) of [0, eps_start], eps_start the closed-form bound of FMT21
Thm 3.1 where it applies, else eps0.  Two orders of the groups: outward from the mode of C ("mode", the
fair choice) and outward from n/2 ("half", the order of the published code's loop).  Ten halvings and
step = 100 are the published example's settings; 30 halvings with step = 1 (every c on its own) bring
the float answer near the pair's exact eps (run for n <= 1e5: over 8 min a cell at 1e6 on the shared box).

The "half" order is run for n <= 1e5 only (from n/2 it walks ~0.1 n values of c before the mass of C:
minutes a cell at 1e7).

Ours: ``numeric.shuffle_fast.eps_bracket`` (certified, relative width <= 1e-9: a vectorised float model
picks two points, one Arb walk certifies both; numeric.shuffle_clones' general search if that fails).  Both run in this one
process, one after the other for every cell, timed in CPU seconds (``time.process_time``; the machine is
shared) after one untimed warm-up call of each.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _slice_delta(c: int, eps: float, eps0: float) -> float:
    """float64 hockey stick of the c-th slice (the conditional pair given C = c), via scipy's cdf."""
    from scipy.stats import binom
    E, t = math.exp(eps0), math.exp(eps)
    a = E / (1 + E)
    theta = (E - t) / ((E - 1) * (1 + t))
    T = math.ceil((c + 1) * theta) - 1
    F, Fm = binom.cdf(T, c, 0.5), binom.cdf(T - 1, c, 0.5)
    return max(0.0, (a - t * (1 - a)) * F - (t * a - (1 - a)) * Fm)


def _groups(n: int, p: float, step: int, order: str):
    """Groups [lo, hi] of consecutive c in 0..n-1, alternately above and below the start point."""
    N = n - 1
    start = min(N, max(0, round(N * p))) if order == "mode" else N // 2
    up, down = start, start - 1
    while up <= N or down >= 0:
        if up <= N:
            yield up, min(N, up + step - 1)
            up += step
        if down >= 0:
            yield max(0, down - step + 1), down
            down -= step


def fmt21_delta_upper(n: int, eps0: float, eps: float, target: float, step: int, order: str) -> float:
    from scipy.stats import binom
    p = math.exp(-eps0)
    acc, covered = 0.0, 0.0
    for lo, hi in _groups(n, p, step, order):
        if acc > target:
            return acc                             # already above the target: the search only compares
        if 1 - covered < acc:
            return acc + (1 - covered)
        mass = binom.cdf(hi, n - 1, p) - binom.cdf(lo - 1, n - 1, p)
        acc += mass * max(_slice_delta(lo, eps, eps0), _slice_delta(hi, eps, eps0))
        covered += mass
    return acc


def fmt21_eps(n: int, eps0: float, delta: float, iterations: int = 10, step: int = 100, order: str = "mode"):
    start = eps0
    if eps0 <= math.log(n / (16 * math.log(2 / delta))):   # FMT21 Thm 3.1's regime: its closed form
        E = math.exp(eps0)
        start = min(eps0, math.log1p((E - 1) / (E + 1) * (8 * math.sqrt(E * math.log(4 / delta) / n) + 8 * E / n)))
    lo, hi = 0.0, start
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if fmt21_delta_upper(n, eps0, mid, delta, step, order) < delta:
            hi = mid
        else:
            lo = mid
    return hi


def _cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def run(ns, eps0s, delta: str, out: Path | None):
    from numeric.shuffle_fast import eps_bracket
    rows = json.loads(out.read_text()) if out and out.exists() else []
    done = {(r["n"], r["eps0"]) for r in rows}
    eps_bracket("standard-clone", Fraction(1), 1000, Fraction(delta))          # warm-ups, untimed
    fmt21_eps(1000, 1.0, float(delta))
    for n in ns:
        for e0 in eps0s:
            if (n, e0) in done:
                continue
            ours, t_ours = _cpu(lambda: eps_bracket("standard-clone", Fraction(e0), n, Fraction(delta)))
            strong, t_strong = _cpu(lambda: eps_bracket("stronger-clone", Fraction(e0), n, Fraction(delta)))
            row = {"n": n, "eps0": e0, "delta": delta, "ours_lower": float(ours.lower), "ours_upper": float(ours.upper),
                   "ours_width": float((ours.upper - ours.lower) / ours.upper), "ours_cpu": t_ours,
                   "ours_certified": ours.certified, "stronger_upper": float(strong.upper), "stronger_cpu": t_strong}
            for iters, order, step in ((10, "mode", 100), (30, "mode", 100), (10, "half", 100), (30, "mode", 1)):
                name = f"fmt21_{order}_{iters}" + ("_step1" if step == 1 else "")
                if (order == "half" or step == 1) and n > 10 ** 5:       # minutes a cell
                    row[name] = None
                    continue
                eps, t = _cpu(lambda: fmt21_eps(n, float(e0), float(delta), iters, step, order))
                row[name] = {"eps": eps, "cpu": t,
                                                 "rel_gap": (eps - float(ours.upper)) / float(ours.upper)}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if out:
                out.write_text(json.dumps(rows, indent=1))
    return rows


def markdown(rows) -> str:
    lines = ["| n | eps0 | eps (ours, certified) | rel. width | ours CPU s | FMT21 10 it. CPU s (ratio) | "
             "FMT21 30 it. CPU s (ratio) | FMT21 10 it. from n/2 CPU s (ratio) | FMT21 step 1, 30 it. CPU s (ratio) | "
             "eps rel. gap: 10 it. / step 1, 30 it. | stronger-clone eps (CPU s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def cell(k):
            b = r[k]
            if b is None:
                return "(not run)"
            return f"{b['cpu']:.3f} ({b['cpu'] / r['ours_cpu']:.2f})"
        lines.append(f"| {r['n']:.0e} | {r['eps0']} | [{r['ours_lower']:.10g}, {r['ours_upper']:.10g}] | "
                     f"{r['ours_width']:.1e} | {r['ours_cpu']:.3f} | {cell('fmt21_mode_10')} | {cell('fmt21_mode_30')} | "
                     f"{cell('fmt21_half_10')} | {cell('fmt21_mode_30_step1')} | {r['fmt21_mode_10']['rel_gap']:+.1e} / "
                     f"{r['fmt21_mode_30_step1']['rel_gap'] if r['fmt21_mode_30_step1'] else float('nan'):+.1e} | "
                     f"{r['stronger_upper']:.6g} ({r['stronger_cpu']:.3f}) |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--n", default="1000,10000,100000,1000000,10000000")
    ap.add_argument("--eps0", default="0.5,1,2")
    ap.add_argument("--delta", default="1e-6")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--markdown", action="store_true", help="print the table of --out (no computing)")
    a = ap.parse_args(argv)
    if a.markdown:
        print(markdown(json.loads(a.out.read_text())))
        return
    run([int(float(x)) for x in a.n.split(",")], a.eps0.split(","), a.delta, a.out)


if __name__ == "__main__":
    main()
