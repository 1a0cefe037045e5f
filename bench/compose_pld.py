"""Benchmark of the certified PLD engine (numeric.pld) against dp_accounting's PLDAccountant.

Run from the repository root: ``python bench/compose_pld.py [--quick]``.  Needs the ``bench`` extra
(``pip install -e ".[bench]"``) for the peer rows; prints a markdown section for BENCHMARKS.md.
Exact references: GDP (closed form, mpmath), randomized response (binomial sum, mpmath).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from fractions import Fraction

import mpmath

sys.path.insert(0, ".")
from numeric import pld  # noqa: E402
from numeric import pld_mechanisms as M


def gdp_delta(m, eps):
    with mpmath.workdps(40):
        m, e = mpmath.mpf(m), mpmath.mpf(eps)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


def rr_delta(eps0, k, eps):
    with mpmath.workdps(40):
        a, e = mpmath.mpf(eps0), mpmath.mpf(eps)
        tot, norm = mpmath.mpf(0), (1 + mpmath.exp(a)) ** k
        for j in range(k + 1):
            z = (k - 2 * j) * a
            if z <= e:
                break
            tot += mpmath.binomial(k, j) * mpmath.exp((k - j) * a) / norm * (1 - mpmath.exp(e - z))
        return tot


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def peer_dpsgd():
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import pld_privacy_accountant
    except ImportError:
        return None

    def run():
        acc = pld_privacy_accountant.PLDAccountant()
        acc.compose(dp_event.PoissonSampledDpEvent(256 / 60000, dp_event.GaussianDpEvent(1.1)), 14062)
        return acc.get_epsilon(1e-5)
    return timed(run)


def peer_laplace():
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import pld_privacy_accountant
    except ImportError:
        return None

    def run():
        acc = pld_privacy_accountant.PLDAccountant()
        acc.compose(dp_event.LaplaceDpEvent(10.0), 100)        # scale 10 <=> eps = 0.1 per step
        return acc.get_epsilon(1e-6)
    return timed(run)


def main(argv=None):
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--quick", action="store_true", help="skip the DP-SGD row")
    args = ap.parse_args(argv)
    rows = []

    # 10^4-fold GDP (mu = 0.01 per step, composed mu = 1)
    c, tb = timed(lambda: pld.compose([(M.gaussian("0.01"), 10000)]))
    for eps in ["1", "10"]:
        r, t = timed(lambda: c.delta(eps))
        ex = gdp_delta(1, eps)
        rows.append((f"10^4-fold GDP(0.01), delta at eps={eps}", t + tb,
                     f"[{mpmath.nstr(r.delta_lower, 6)}, {mpmath.nstr(r.delta_upper, 6)}] exact {mpmath.nstr(ex, 6)}",
                     r.delta_lower <= ex <= r.delta_upper))
        tb = 0.0
    # 10^4-fold randomized response eps0 = 0.01
    c, tb = timed(lambda: pld.compose([(M.randomized_response("0.01"), 10000)]))
    for eps in ["0.5", "3"]:
        r, t = timed(lambda: c.delta(eps))
        ex = rr_delta("0.01", 10000, eps)
        rows.append((f"10^4-fold RR(0.01), delta at eps={eps}", t + tb,
                     f"[{mpmath.nstr(r.delta_lower, 6)}, {mpmath.nstr(r.delta_upper, 6)}] exact {mpmath.nstr(ex, 6)}",
                     r.delta_lower <= ex <= r.delta_upper))
        tb = 0.0
    # 10^4-fold pure 1-DP at delta = 1e-10, and a delta far below 1e-100
    c = pld.compose([(M.randomized_response("1"), 10000)])
    r, t = timed(lambda: c.eps("1e-10"))
    ok = rr_delta("1", 10000, r.eps_lower) > mpmath.mpf("1e-10") >= rr_delta("1", 10000, r.eps_upper)
    rows.append(("10^4-fold pure 1-DP, eps at delta=1e-10", t,
                 f"[{mpmath.nstr(r.eps_lower, 10)}, {mpmath.nstr(r.eps_upper, 10)}]", ok))
    r, t = timed(lambda: c.delta("8000"))
    ex = rr_delta("1", 10000, "8000")
    rows.append(("10^4-fold pure 1-DP, delta at eps=8000", t,
                 f"[{mpmath.nstr(r.delta_lower, 6)}, {mpmath.nstr(r.delta_upper, 6)}] exact {mpmath.nstr(ex, 6)}",
                 r.delta_lower <= ex <= r.delta_upper))
    # 100-fold Laplace(0.1), eps at delta = 1e-6
    c = pld.compose([(M.laplace("0.1"), 100)], h=Fraction(1, 10000))
    r, t = timed(lambda: c.eps("1e-6"))
    rel = float((r.eps_upper - r.eps_lower) / r.eps_upper)
    peer = peer_laplace()
    rows.append(("100-fold Laplace(0.1), eps at delta=1e-6", t,
                 f"[{mpmath.nstr(r.eps_lower, 10)}, {mpmath.nstr(r.eps_upper, 10)}] rel width {rel:.2e}"
                 + (f"; dp_accounting {peer[0]:.6f} in {peer[1]:.3f} s" if peer else ""), rel <= 1e-6))
    # the same question on the exact spline route (what `compose fdp laplace --k 100` answers): median
    # of 5 runs, each from a cold cache (the exact pieces rebuilt), against the peer's median of 5
    from numeric import compose_exact as X
    from numeric import compose_laplace as CL

    def cold():
        CL.spline.cache_clear()
        return X.eps("laplace", {"eps": "0.1"}, 100, "1e-6", 15).value
    runs = [timed(cold) for _ in range(5)]
    t = sorted(s for _, s in runs)[2]
    ex = runs[0][0]
    peers = [peer_laplace() for _ in range(5)] if peer else []
    tp = sorted(s for _, s in peers)[2] if peers else None
    rows.append(("100-fold Laplace(0.1), eps at delta=1e-6, exact route", t,
                 f"eps = {mpmath.nstr(ex, 15)} (15 verified digits, width 0)"
                 + (f"; dp_accounting median {tp:.4f} s, ratio {t / tp:.2f}" if tp else ""),
                 tp is None or t <= tp))
    if not args.quick:
        # DP-SGD through the user-facing call (a fresh composition each run) against the peer's
        # PLDAccountant with its defaults; 5 interleaved runs each after one warm-up call of each,
        # medians compared (the warm-up pays both sides' one-time imports and caches)
        from numeric import dpsgd

        def ours():
            return dpsgd.account("60000", "256", "1.1", steps="14062", at_delta="1e-5")
        r, t_cold = timed(ours)
        peer = peer_dpsgd()
        mine, theirs = [], []
        for _ in range(5):
            mine.append(timed(ours)[1])
            if peer:
                theirs.append(peer_dpsgd()[1])
        t = sorted(mine)[2]
        tp = sorted(theirs)[2] if theirs else None
        w = float(r.eps_upper - r.eps_lower)
        rows.append(("DP-SGD q=256/60000 sigma=1.1 T=14062, eps at delta=1e-5 (median of 5; first call "
                     f"{t_cold:.3f} s)", t,
                     f"[{mpmath.nstr(r.eps_lower, 8)}, {mpmath.nstr(r.eps_upper, 8)}] width {w:.2e}"
                     + (f"; dp_accounting {peer[0]:.6f}, median {tp:.3f} s, ratio {t / tp:.2f}" if peer else ""),
                     w <= 2e-4 and (tp is None or t <= tp)))
    print("| case | seconds | bracket | target met |")
    print("|---|---:|---|---|")
    for name, t, txt, ok in rows:
        print(f"| {name} | {t:.3f} | {txt} | {'yes' if ok else 'NO'} |")
    print(f"\npeak RSS {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
