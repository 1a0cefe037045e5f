"""The DP-SGD grid at equal accuracy: the certified engine against dp_accounting run fine enough to be as accurate.

Run from the repository root (needs the ``bench`` extra and a reference table)::

    python bench/dpsgd_equal_accuracy.py --out /tmp/eq.json --reference REF.json [--T 100,10000] [--markdown]

``bench/dpsgd_grid.py`` compares CPU times with dp_accounting's PLDAccountant at its default
``value_discretization_interval`` (1e-4).  In the cells where the engine is slowest against it, that default
answer is coarse: at q = 0.001, sigma = 5 it is 2 % above the truth.  Issue #25 also asks the engine for a
relative bracket width of 1e-4 in every cell, so this script asks what dp_accounting costs when it is
that accurate too.  For each cell it runs the engine (timed as in ``dpsgd_grid``), then PLDAccountant at the
intervals 1e-4 / 2^j, j = 0, 1, ..., MAX_HALVINGS, and stops at the first j whose eps lies within a relative
1e-4 of the independent reference (``bench/dpsgd_reference.py --grid``: Laplace inversion at the saddle
point, no dp-derive code).  The peer's time reported is that one run's CPU time (a user who knew the
right interval would pay only it), so the comparison favours the peer.  A cell where no interval reaches
1e-4 within MAX_HALVINGS, or where one run passes PEER_CPU_CAP seconds or runs out of the address space this
script allows (``--mem-gb``, default MEM_GB: at T = 10^5 a fine interval took all 24 GiB of the machine and
the kernel killed the run), is recorded as not reached.  The cap is on virtual memory (RLIMIT_AS), which a run
reserves beyond what it touches: at q = 0.1, T = 10^6 even the default interval, which the uncapped
``bench/dpsgd_grid.py`` runs in 30-43 s, passes 12 GiB of it.

Both tools run in this one process, one after the other in every cell (``time.process_time``).
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dpsgd_grid import grid_parser, load_reference, ours  # noqa: E402

MAX_HALVINGS = 7
PEER_CPU_CAP = 60.0
MEM_GB = 12
TARGET = 1e-4


def peer_at(q: str, s: str, T: int, d: str, interval: float):
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant
    c0 = time.process_time()
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=interval)
    acc.compose(dp_event.PoissonSampledDpEvent(float(Fraction(q)), dp_event.GaussianDpEvent(float(s))), T)
    e = float(acc.get_epsilon(float(d)))
    return e, time.process_time() - c0


def peer_equal(q, s, T, d, truth):
    """The first interval 1e-4 / 2^j whose answer is within TARGET of ``truth``: (interval, eps, cpu, tries)."""
    tries = []
    for j in range(MAX_HALVINGS + 1):
        iv = 1e-4 / 2 ** j
        c0 = time.process_time()
        try:
            e, cpu = peer_at(q, s, T, d, iv)
        except MemoryError:
            tries.append(dict(interval=iv, eps=None, cpu=time.process_time() - c0, rel=None, memory=True))
            break
        tries.append(dict(interval=iv, eps=e, cpu=cpu, rel=(e - truth) / truth))
        if abs(e - truth) <= TARGET * truth:
            return dict(reached=True, interval=iv, eps=e, cpu=cpu, tries=tries)
        if cpu > PEER_CPU_CAP:
            break
    return dict(reached=False, tries=tries)


def run(args):
    import resource
    cap = int(args.mem_gb * 2 ** 30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    ref = load_reference(args.reference)
    path = Path(args.out)
    done = json.loads(path.read_text()) if path.exists() else {}
    warmed = False
    for q, s, T, d in itertools.product(args.q, args.sigma, args.T, args.delta):
        k = f"{q}|{s}|{T}|{d}"
        rf = ref.get((float(Fraction(q)), float(s), int(T), float(d)))
        if k in done or rf is None:
            continue
        if not warmed:
            ours("0.01", "1", 10, "1e-5")
            peer_at("0.01", "1", 10, "1e-5", 1e-4)
            warmed = True
        a = ours(q, s, T, d)
        b = peer_equal(q, s, T, d, rf["eps"])
        done[k] = dict(q=q, sigma=s, T=T, delta=d, reference=rf["eps"], ours=a, peer=b)
        path.write_text(json.dumps(done, indent=1))
        pc = b["cpu"] if b["reached"] else None
        print(f"{k}: ours {a['cpu']:.2f} s width {(a['hi'] - a['lo']) / rf['eps']:.1e}; peer "
              f"{'%.3f s at %.2e' % (pc, b['interval']) if pc else 'not reached'}", flush=True)


def _rel_or_memory(t) -> str:
    return "out of memory" if t.get("memory") else f"{t['rel']:+.1e}"


def markdown(args):
    rows = list(json.loads(Path(args.out).read_text()).values())
    reached = [r for r in rows if r["peer"]["reached"]]
    ratios = [r["ours"]["cpu"] / r["peer"]["cpu"] for r in reached]
    # (a default run out of the address space has no answer: no default ratio, not within the target)
    answered = [r for r in rows if not r["peer"]["tries"][0].get("memory")]
    default = [r["ours"]["cpu"] / r["peer"]["tries"][0]["cpu"] for r in answered]
    print(f"cells: {len(rows)}; dp_accounting within {TARGET:g} of the reference at its default interval: "
          f"{sum(abs(r['peer']['tries'][0]['rel']) <= TARGET for r in answered)}, at some interval >= "
          f"{1e-4 / 2 ** MAX_HALVINGS:.2e}: {len(reached)}; its default run out of the address space: "
          f"{len(rows) - len(answered)}")
    for name, rs in (("against the default interval", default), ("at equal accuracy", ratios)):
        if rs:
            qs = statistics.quantiles(rs, n=4) if len(rs) > 1 else [rs[0]] * 3
            print(f"CPU ratio ours/dp_accounting {name}: median {statistics.median(rs):.2f}, quartiles "
                  f"{qs[0]:.2f} and {qs[2]:.2f}, worst {max(rs):.1f}; at or below 1: {sum(x <= 1 for x in rs)} "
                  f"of {len(rs)}, above 2: {sum(x > 2 for x in rs)}")
    print()
    print("| q | sigma | T | delta | reference | ours CPU s | ours rel. width | dp_acc. default: rel. error, CPU s "
          "| dp_acc. interval reaching 1e-4 | its CPU s | ratio |")
    print("|---|---|---:|---|---|---:|---:|---|---:|---:|---:|")
    for r in rows:
        a, b = r["ours"], r["peer"]
        t0 = b["tries"][0]
        w = (a["hi"] - a["lo"]) / r["reference"] if a["lo"] is not None else float("nan")
        tail = (f"{b['interval']:.2e} | {b['cpu']:.3f} | {a['cpu'] / b['cpu']:.2f}" if b["reached"]
                else f"not reached (finest {b['tries'][-1]['interval']:.2e}: {_rel_or_memory(b['tries'][-1])}) | | ")
        print(f"| {r['q']} | {r['sigma']} | {r['T']} | {r['delta']} | {r['reference']:.10g} | {a['cpu']:.2f} | "
              f"{w:.1e} | {_rel_or_memory(t0)}, {t0['cpu']:.3f} | {tail} |")


def main(argv=None):
    ap = grid_parser(__doc__, [100, 10_000], True)
    ap.add_argument("--mem-gb", type=float, default=MEM_GB, help="address space of this process (GiB)")
    args = ap.parse_args(argv)
    markdown(args) if args.markdown else run(args)


if __name__ == "__main__":
    main()
