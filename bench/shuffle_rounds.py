"""``dp-derive shuffle --rounds R`` at growing n (issue #26 item 1; numeric/shuffle_blocks.py).

Run from the repository root::

    python bench/shuffle_rounds.py [--n 100,10000,1000000,10000000] [--rounds 2,10] [--eps0 1] [--markdown]
                                   [--checkout OTHER_CHECKOUT]

For each (n, R) at eps0 (default 1; standard clone) and delta = 1e-6: the certified eps bracket of
``numeric.shuffle_rounds.compose_rounds`` with its CPU seconds (``time.process_time``, after one untimed
warm-up), the blocks used, and the certified one-round eps of numeric/shuffle_fast.py beside it (R rounds
cost more than one round and at most R times it).  At n = 100 the Arb route of the same engine step
(``ShuffleClonePair``, one Arb walk per knot; the only route before) runs in the same process for the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import print_markdown  # noqa: E402


def _arb_route(n: int, rounds: int, delta: Fraction):
    from numeric.pld import compose
    from numeric.pld_mechanisms import Mechanism
    from numeric.shuffle_rounds import ShuffleClonePair
    m = ShuffleClonePair("standard-clone", Fraction(1), n)
    r = compose([(Mechanism(m.name, [m], True), rounds)]).eps(delta)
    return float(r.eps_lower), float(r.eps_upper)


def _cpu(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def main(argv=None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False)
    p.add_argument("--n", default="100,10000,1000000,10000000")
    p.add_argument("--rounds", default="2,10")
    p.add_argument("--eps0", default="1")
    p.add_argument("--checkout", default=None, help="import numeric from this checkout instead (before/after runs)")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args(argv)
    if a.checkout:
        sys.path.insert(0, str(Path(a.checkout).resolve()))
    from numeric.shuffle_fast import eps_bracket
    from numeric.shuffle_rounds import compose_rounds
    delta, eps0 = Fraction(1, 10 ** 6), Fraction(a.eps0)
    compose_rounds("standard-clone", Fraction(1), 100, 2, at_delta=delta)          # warm-up
    rows = []
    for n in map(int, a.n.split(",")):
        one = eps_bracket("standard-clone", eps0, n, delta)
        for R in map(int, a.rounds.split(",")):
            r, cpu = _cpu(lambda: compose_rounds("standard-clone", eps0, n, R, at_delta=delta))
            lo, hi = float(r.lower), float(r.upper)
            row = {"n": n, "R": R, "lo": lo, "hi": hi, "rel": (hi - lo) / hi, "cpu": cpu, "blocks": r.blocks,
                   "width": r.block_width, "one": float(one.upper), "ok": float(one.lower) < hi and lo <= R * float(one.upper)}
            if n <= 200 and eps0 == 1:
                (alo, ahi), acpu = _cpu(lambda: _arb_route(n, R, delta))
                row.update({"arb": f"[{alo:.9g}, {ahi:.9g}] {acpu:.2f} s ({acpu / cpu:.1f}x)"})
            rows.append(row)
            print(row, flush=True)
    if a.markdown:
        print_markdown(["n", "R", "eps bracket (certified)", "rel. width", "CPU s", "blocks x width",
                        "one round's eps", "Arb route"],
                       [[f"{r['n']:.0e}", r["R"], f"[{r['lo']:.9g}, {r['hi']:.9g}]", f"{r['rel']:.1e}",
                         f"{r['cpu']:.2f}", f"{r['blocks']} x {r['width']}", f"{r['one']:.9g}", r.get("arb", "")]
                        for r in rows])
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
