"""The accountants of issue #27 against dp_accounting, prv_accountant and ``dp-derive dpsgd`` on standard DP-SGD settings.

Run from the repository root with the ``bench`` extra (dp-accounting, prv-accountant)::

    python bench/accountants.py [--repeat 3] [--markdown]

For each setting every tool answers eps at delta for T Poisson-subsampled Gaussian steps.  Times are CPU
seconds (``time.process_time``), the median of ``--repeat`` runs, each from a fresh object (a fresh
composition for ours: the step's discretisation is part of what a user's call pays), after one untimed
warm-up call per tool (imports, caches).  Tools:

* ``dp-derive dpsgd``: ``numeric.dpsgd.account`` (the CLI's call: the certified bracket and the CLT beside it);
* ``CertifiedAccountant``: ``numeric.accountants.CertifiedAccountant().compose(event).epsilon_bracket(delta)``;
* ``OpacusAccountant``: ``numeric.accountants.OpacusAccountant`` after ``history = [(sigma, q, T)]``;
* dp_accounting 0.6.0 ``PLDAccountant()`` (defaults: discretisation 1e-4, pessimistic) and ``RdpAccountant()``;
* prv_accountant 0.2.0 ``Accountant`` (eps_error 0.01, as Opacus's PRVAccountant default), its upper end.
  Opacus itself needs torch (not installed here): its RDP accountant evaluates the same RDP of the sampled
  Gaussian (Mironov et al. 2019) as dp_accounting's ``RdpAccountant`` with other orders, and its PRV
  accountant is a port of prv_accountant.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: (label, n, batch, sigma, steps, delta)
SETTINGS = [
    ("MNIST (Abadi et al. 2016): q = 256/60000, sigma = 1.1, 60 epochs", 60000, 256, "1.1", 14063, "1e-5"),
    ("q = 0.01, sigma = 1, T = 10^4", 100, 1, "1", 10000, "1e-5"),
    ("CIFAR-10 style: q = 512/50000, sigma = 1.5, 100 epochs", 50000, 512, "1.5", 9766, "1e-5"),
]


def timed(fn, repeat):
    fn()                                             # warm-up
    out, times = None, []
    for _ in range(repeat):
        c0 = time.process_time()
        out = fn()
        times.append(time.process_time() - c0)
    return out, statistics.median(times)


def tools(n, batch, sigma, steps, delta):
    import dp_accounting as dpa
    from prv_accountant import Accountant as PRV

    from numeric import dpsgd
    from numeric.accountants import CertifiedAccountant, OpacusAccountant
    q, s, d = batch / n, float(sigma), float(delta)
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)), steps)

    def cli():
        r = dpsgd.account(str(n), str(batch), sigma, steps=str(steps), at_delta=delta)
        return float(r.eps_lower), float(r.eps_upper)

    def certified():
        b = CertifiedAccountant().compose(event).epsilon_bracket(d)
        return b.lower, b.upper

    def opacus():
        acct = OpacusAccountant()
        acct.history = [(s, q, steps)]
        b = acct.get_epsilon_bracket(d)
        return b.lower, b.upper

    return {
        "dp-derive dpsgd": cli,
        "CertifiedAccountant": certified,
        "OpacusAccountant": opacus,
        "dp_accounting PLD": lambda: dpa.pld.PLDAccountant().compose(event).get_epsilon(d),
        "dp_accounting RDP": lambda: dpa.rdp.RdpAccountant().compose(event).get_epsilon(d),
        "prv_accountant": lambda: PRV(s, q, d, steps, eps_error=0.01).compute_epsilon(steps)[2],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="write the rows as JSON")
    args = ap.parse_args(argv)
    rows = []
    for label, n, batch, sigma, steps, delta in SETTINGS:
        for name, fn in tools(n, batch, sigma, steps, delta).items():
            value, cpu = timed(fn, args.repeat)
            rows.append({"setting": label, "tool": name, "eps": value, "cpu": cpu})
            print(json.dumps(rows[-1]), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))
    print("\n| setting | tool | eps at delta = 1e-5 | CPU s |\n|---|---|---|---|")
    for r in rows:
        eps = r["eps"]
        shown = f"[{eps[0]:.6f}, {eps[1]:.6f}]" if isinstance(eps, tuple) else f"{eps:.6f}"
        print(f"| {r['setting']} | {r['tool']} | {shown} | {r['cpu']:.2f} |")


if __name__ == "__main__":
    main()
