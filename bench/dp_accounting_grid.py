"""dp_accounting's own values on the agreement grid of issue #27, stored as test data.

Run from the repository root (needs the ``test`` or ``bench`` extra, which installs dp_accounting)::

    python bench/dp_accounting_grid.py --out tests/data/dp_accounting_grid.json

For each cell of ``tests/test_accountants_dp.GRID`` (q in {1e-3, 4e-3, 0.01, 0.1} x sigma in {0.6, 0.8, 1.1,
2, 5} x T in {100, 10^4} x delta in {1e-5, 1e-10}; T Poisson-subsampled Gaussian steps, add-or-remove
neighbours) it records dp_accounting's optimistic and pessimistic PLD eps at its default discretisation 1e-4
(the finest practical at T = 10^4: 1e-5 takes minutes per cell), and for each heterogeneous tree of the test
file the PLDAccountant's eps with its defaults.  These are the peer's numbers, computed by the peer's code:
the slow agreement test compares our live certified brackets with them, and a default-run test recomputes
two cells with the installed dp_accounting to show the file is not stale.  The output is rewritten after
every cell; a rerun skips cells already in it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def cell_key(q, s, T, d) -> str:
    return f"{q!r}|{s!r}|{T}|{d!r}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "dp_accounting_grid.json"))
    args = ap.parse_args(argv)
    import dp_accounting as dpa

    import test_accountants_dp as T_
    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    from importlib.metadata import version
    data.update({"dp_accounting": version("dp-accounting"),
                 "discretisation": 1e-4, "command": "python bench/dp_accounting_grid.py --out " + args.out})
    cells = data.setdefault("cells", {})
    for q, s, T, d in T_.GRID:
        k = cell_key(q, s, T, d)
        if k in cells:
            continue
        c0 = time.process_time()
        opt, pes = T_.dp_accounting_pair(q, s, T, d)
        cells[k] = {"optimistic": opt, "pessimistic": pes, "cpu": round(time.process_time() - c0, 3)}
        data["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(k, cells[k], flush=True)
    trees = data.setdefault("heterogeneous", {})
    for name, tree in zip(T_.HETEROGENEOUS_IDS, T_.HETEROGENEOUS):
        if name not in trees:
            trees[name] = {"pld_default": dpa.pld.PLDAccountant().compose(tree).get_epsilon(1e-5)}
            out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(name, trees[name], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
