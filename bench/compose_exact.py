"""Benchmark of the exact composition routes (numeric.compose_exact) against dp_accounting's PLD.

Run from the repository root: ``python bench/compose_exact.py [--quick]``.  Needs the ``bench`` extra
for the peer rows (``pip install -e ".[bench]"``).  Prints a markdown section for BENCHMARKS.md.

The exact values are verified digits (two precisions agree); the peer's error is measured against
them.  Peer inputs: pure eps-DP via ``from_privacy_parameters(eps, 0)`` (the worst case of pure DP,
the randomized-response pair), GDP via ``from_gaussian_mechanism(sigma = 1/mu)``, Laplace via
``from_laplace_mechanism(parameter = 1/eps)``, each with the library's default discretisation, composed
with ``self_compose(k)``.  --quick skips the 10^4-fold pure 1-DP peer row (about 25 s and 3 GB).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import mpmath

sys.path.insert(0, ".")
from numeric import compose_exact as X  # noqa: E402


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def peer(kind, param, k):
    """(pld, seconds) of dp_accounting's composed PLD, or None without the library."""
    try:
        from dp_accounting.pld import common
        from dp_accounting.pld import privacy_loss_distribution as P
    except ImportError:
        return None

    def build():
        if kind == "pure":
            one = P.from_privacy_parameters(common.DifferentialPrivacyParameters(float(param), 0.0))
        elif kind == "gaussian":
            one = P.from_gaussian_mechanism(1 / float(param))
        else:
            one = P.from_laplace_mechanism(1 / float(param))
        return one.self_compose(k)
    return timed(build)


def rel(a, b):
    with mpmath.workdps(30):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        return abs(a - b) / abs(b) if b else abs(a)


def main(argv=None):
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    rows = []

    f, t1 = timed(lambda: X.tradeoff("laplace", {"eps": "0.1"}, 10, "0.05", 30))
    d, t2 = timed(lambda: X.delta("laplace", {"eps": "0.1"}, 10, "0.5", 30))
    p = peer("laplace", "0.1", 10)
    pv = f"; dp_accounting delta {p[0].get_delta_for_epsilon(0.5):.6g} (rel. error " \
         f"{float(rel(p[0].get_delta_for_epsilon(0.5), d.value)):.1e}) in {p[1]:.3f} s" if p else ""
    rows.append(("10-fold Laplace(0.1): f(0.05) and delta(0.5), 30 digits", t1 + t2,
                 f"f = {mpmath.nstr(f.value, 30)}, delta = {mpmath.nstr(d.value, 30)}{pv}", "30 digits", "yes"))

    for eps in ("1", "10"):
        r, t = timed(lambda: X.delta("gaussian", {"mu": "0.01"}, 10_000, eps, 15))
        p = peer("gaussian", "0.01", 10_000)
        pv = ""
        if p:
            v = p[0].get_delta_for_epsilon(float(eps))
            pv = f"; dp_accounting {v:.6g} (rel. error {float(rel(v, r.value)):.1e}) in {p[1]:.3f} s"
        rows.append((f"10^4-fold GDP(0.01), delta at eps={eps}", t, f"{mpmath.nstr(r.value, 15)}{pv}", "<= 0.5 s",
                     "yes" if t <= 0.5 else "NO"))
    r, t = timed(lambda: X.delta("gaussian", {"mu": "0.01"}, 10_000, "30", 15))
    rows.append(("10^4-fold GDP(0.01), delta at eps=30", t, f"{mpmath.nstr(r.value, 15)} (float accountants floor)",
                 "< 1e-100 correct", "yes"))

    for what, fn in (("delta at eps=0.5", lambda: X.delta("randomized-response", {"eps": "0.01"}, 10_000, "0.5", 15)),
                     ("f(1e-10)", lambda: X.tradeoff("randomized-response", {"eps": "0.01"}, 10_000, "1e-10", 15)),
                     ("eps at delta=1e-6", lambda: X.eps("randomized-response", {"eps": "0.01"}, 10_000, "1e-6", 15))):
        r, t = timed(fn)
        rows.append((f"10^4-fold RR(0.01), {what}", t, mpmath.nstr(r.value, 15), "<= 0.5 s", "yes" if t <= 0.5 else "NO"))

    r, t = timed(lambda: X.eps("randomized-response", {"eps": "1"}, 10_000, "1e-10", 15))
    pv = " (peer row skipped: --quick)"
    if not args.quick:
        p = peer("pure", "1", 10_000)
        if p:
            v = p[0].get_epsilon_for_delta(1e-10)
            pv = f"; dp_accounting {v:.6f} (rel. error {float(rel(v, r.value)):.1e}) in {p[1]:.1f} s"
    rows.append(("10^4-fold pure 1-DP, eps at delta=1e-10", t, f"{mpmath.nstr(r.value, 15)}{pv}", "exact", "yes"))
    r, t = timed(lambda: X.delta("randomized-response", {"eps": "1"}, 10_000, "8000", 15))
    rows.append(("10^4-fold pure 1-DP, delta at eps=8000", t, mpmath.nstr(r.value, 15), "< 1e-100 correct", "yes"))

    print("## Exact composition routes (numeric.compose_exact)\n")
    print(f"Command: `python bench/compose_exact.py{' --quick' if args.quick else ''}` (dp_accounting PLD "
          "defaults in the same process). Values are verified digits.\n")
    print("| case | seconds | value | target | met |\n|---|---:|---|---|---|")
    for name, t, v, target, met in rows:
        print(f"| {name} | {t:.3f} | {v} | {target} | {met} |")
    print(f"\nPeak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB.")


if __name__ == "__main__":
    main()
