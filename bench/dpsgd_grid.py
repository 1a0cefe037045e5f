"""The DP-SGD grid of issue #25: the certified engine against dp_accounting's PLDAccountant, cell by cell.

Run from the repository root (the peer needs the ``bench`` extra, ``pip install -e ".[bench]"``)::

    python bench/dpsgd_grid.py --out /tmp/grid.json [--T 100,10000] [--reference REF.json] [--markdown]

Each cell is a Poisson-subsampled Gaussian step (rate q, noise multiplier sigma) composed T times, asked
for eps at delta.  Both tools run in this one process, one after the other for every cell, and each is
timed in CPU seconds (``time.process_time``: the machine's other load counts less than in wall time).
Ours is ``numeric.dpsgd``'s composition, built afresh for the cell (so its time includes the step's
discretisation, as a user's call does); the peer's is ``PLDAccountant()`` with its defaults.  The first
cell is preceded by one untimed warm-up call of each tool (imports, caches).

``--reference`` reads an independent reference (``bench/dpsgd_reference.py --grid``: Laplace inversion
at the saddle point, no dp-derive code) and reports whether each certified bracket contains it.  The
output JSON is written after every cell and a rerun skips the cells already in it (resumable).
``--markdown`` prints the summary table for BENCHMARKS.md from the JSON (no computing).
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QS = ["0.001", "0.004", "0.01", "0.1"]
SIGMAS = ["0.6", "0.8", "1.1", "2", "5"]
TS = [100, 10_000, 100_000, 1_000_000]
DELTAS = ["1e-5", "1e-10"]


def key(q, s, T, d) -> str:
    return f"{q}|{s}|{T}|{d}"


def ours(q: str, s: str, T: int, d: str):
    from numeric import dpsgd
    c0 = time.process_time()
    try:
        r = dpsgd._composition(Fraction(q), Fraction(s), T).eps(d)
        out = dict(lo=float(r.eps_lower), hi=float(r.eps_upper), certified=bool(r.certified), reason=r.reason)
    except Exception as err:          # a refusal is a result of the grid, recorded with its message
        out = dict(lo=None, hi=None, certified=False, reason=f"{type(err).__name__}: {err}"[:200])
    out["cpu"] = time.process_time() - c0
    return out


def peer(q: str, s: str, T: int, d: str):
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import pld_privacy_accountant
    except ImportError:
        return None
    c0 = time.process_time()
    acc = pld_privacy_accountant.PLDAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(float(Fraction(q)), dp_event.GaussianDpEvent(float(s))), T)
    e = float(acc.get_epsilon(float(d)))
    return dict(eps=e, cpu=time.process_time() - c0)


def run(args):
    path = Path(args.out)
    done = json.loads(path.read_text()) if path.exists() else {}
    cells = list(itertools.product(args.q, args.sigma, args.T, args.delta))
    warmed = False
    for q, s, T, d in cells:
        k = key(q, s, T, d)
        if k in done:
            continue
        if not warmed:
            ours("0.01", "1", 10, "1e-5")
            peer("0.01", "1", 10, "1e-5")
            warmed = True
        a = ours(q, s, T, d)
        b = peer(q, s, T, d)
        row = dict(q=q, sigma=s, T=T, delta=d, ours=a, peer=b, rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        done[k] = row
        path.write_text(json.dumps(done, indent=1))
        ratio = a["cpu"] / b["cpu"] if b else float("nan")
        rw = (a["hi"] - a["lo"]) / a["hi"] if a["hi"] else float("nan")
        print(f"{k}: ours [{a['lo']}, {a['hi']}] rel width {rw:.2e} {a['cpu']:.2f} s; "
              f"peer {b and b['eps']} {b and round(b['cpu'], 3)} s; ratio {ratio:.2f}", flush=True)


def load_reference(path):
    """The reference JSON indexed by (q, sigma, T, delta) as numbers (its keys spell them its own way)."""
    if not path:
        return {}
    out = {}
    for v in json.loads(Path(path).read_text()).values():
        if isinstance(v, dict) and "q" in v:
            out[(float(v["q"]), float(v["sigma"]), int(v["T"]), float(v["delta"]))] = v
    return out


def ref_of(ref, row):
    return ref.get((float(Fraction(row["q"])), float(row["sigma"]), int(row["T"]), float(row["delta"])))


def contains(row, ref):
    """True / False when the reference (eps, err) lies inside / outside the certified bracket (None when
    either is missing); a reference whose error bar straddles an end counts as inside."""
    a = row["ours"]
    if ref is None or a["lo"] is None:
        return None
    e, err = ref.get("eps"), ref.get("err", 0.0) or 0.0
    if e is None:
        return None
    return a["lo"] - err <= e <= a["hi"] + err


def markdown(args):
    rows = json.loads(Path(args.out).read_text())
    ref = load_reference(args.reference)
    answered = [r for r in rows.values() if r["ours"]["lo"] is not None]
    refused = [r for r in rows.values() if r["ours"]["lo"] is None]
    ratios = [r["ours"]["cpu"] / r["peer"]["cpu"] for r in answered if r.get("peer")]
    widths = [(r["ours"]["hi"] - r["ours"]["lo"]) / r["ours"]["hi"] for r in answered if r["ours"]["hi"] > 0]
    inside = [contains(r, ref_of(ref, r)) for r in answered]
    print(f"cells: {len(rows)}, answered {len(answered)}, refused {len(refused)}")
    if ratios:
        qs = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(f"CPU ratio ours/dp_accounting: median {statistics.median(ratios):.2f}, quartiles {qs[0]:.2f} "
              f"and {qs[2]:.2f}, worst {max(ratios):.1f}; cells at or below 1: {sum(x <= 1 for x in ratios)}, "
              f"above 2: {sum(x > 2 for x in ratios)}")
    if widths:
        print(f"relative width: median {statistics.median(widths):.2e}, worst {max(widths):.2e}; "
              f"cells <= 1e-4: {sum(w <= 1e-4 for w in widths)} of {len(widths)}")
    known = [x for x in inside if x is not None]
    print(f"reference inside the bracket: {sum(known)} of {len(known)} cells with a reference")
    # dp_accounting's get_epsilon is meant as an upper bound: below the reference it understates eps
    low = []
    for r in rows.values():
        rf, b = ref_of(ref, r), r.get("peer")
        if rf is not None and b is not None and rf.get("eps") is not None and b["eps"] < rf["eps"] - (rf.get("err") or 0.0):
            low.append(f"q = {r['q']}, sigma = {r['sigma']}, T = {r['T']}, delta = {r['delta']}: "
                       f"{b['eps']:.8g} < {rf['eps']:.8g}")
    print(f"dp_accounting's eps below the reference (it understates eps) in {len(low)} cells"
          + ("".join(f"\n  {x}" for x in low) if low else ""))
    print()
    print("| q | sigma | T | delta | certified eps bracket | rel. width | ours CPU s | dp_accounting eps | its CPU s | ratio | reference |")
    print("|---|---|---:|---|---|---:|---:|---:|---:|---:|---|")
    for r in rows.values():
        a, b = r["ours"], r.get("peer")
        rf = ref_of(ref, r)
        if a["lo"] is None:
            br, rw = f"refused: {a['reason'][:60]}", ""
        else:
            br = f"[{a['lo']:.8g}, {a['hi']:.8g}]"
            rw = f"{(a['hi'] - a['lo']) / a['hi']:.1e}" if a["hi"] > 0 else ""
        rt = f"{a['cpu'] / b['cpu']:.2f}" if b else ""
        c = contains(r, rf)
        rtxt = "" if rf is None or rf.get("eps") is None else (
            f"{rf['eps']:.10g}" + ("" if c is None else f" ({'inside' if c else 'OUTSIDE'})"))
        print(f"| {r['q']} | {r['sigma']} | {r['T']} | {r['delta']} | {br} | {rw} | {a['cpu']:.2f} | "
              f"{'' if not b else format(b['eps'], '.8g')} | {'' if not b else format(b['cpu'], '.3f')} | {rt} | {rtxt} |")


def grid_parser(doc: str, ts, reference_required: bool) -> argparse.ArgumentParser:
    """The command line of a grid script: --out, the grid's axes (comma lists), --reference, --markdown."""
    ap = argparse.ArgumentParser(allow_abbrev=False, description=doc.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="JSON file of the results (resumable)")
    ap.add_argument("--q", type=lambda v: v.split(","), default=QS)
    ap.add_argument("--sigma", type=lambda v: v.split(","), default=SIGMAS)
    ap.add_argument("--T", type=lambda v: [int(x) for x in v.split(",")], default=ts)
    ap.add_argument("--delta", type=lambda v: v.split(","), default=DELTAS)
    ap.add_argument("--reference", required=reference_required, help="JSON of bench/dpsgd_reference.py --grid")
    ap.add_argument("--markdown", action="store_true", help="print the table from --out and stop")
    return ap


def main(argv=None):
    args = grid_parser(__doc__, TS, False).parse_args(argv)
    if args.markdown:
        markdown(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
