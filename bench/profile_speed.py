"""eps(delta) of the Gaussian mechanism: dp-derive's float path (numeric.fp.profile_eps), its mp path
(numeric.mp.profile_eps, 30 verified digits) and dp_accounting's analytic Gaussian
(``gaussian_mechanism.get_epsilon_gaussian``), timed in the same process (issue #11 item 3).

Run from the repository root: ``python bench/profile_speed.py``.  Prints a markdown block.  Times are
medians over repeated scalar calls; errors are relative to mp.profile_eps at 40 digits.
"""

from __future__ import annotations

import statistics
import sys
import time

sys.path.insert(0, ".")
import derive  # noqa: E402
from numeric import fp, mp  # noqa: E402


def median_time(fn, n):
    fn()
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main():
    try:
        from dp_accounting import gaussian_mechanism as G
    except ImportError:
        G = None
    rows = []
    for mu, delta in (("1", "1e-5"), ("0.5", "1e-10"), ("2", "1e-6")):
        rec = derive.gaussian(mu)
        ref = mp.profile_eps(rec, delta, 40)
        t_fp = median_time(lambda: fp.profile_eps(rec, float(delta)), 200)
        v_fp = fp.profile_eps(rec, float(delta))
        t_mp = median_time(lambda: mp.profile_eps(rec, delta, 30), 20)
        row = [f"mu={mu}, delta={delta}", t_fp * 1e3, float(abs(v_fp - ref) / ref), t_mp * 1e3]
        if G is not None:
            t_pe = median_time(lambda: G.get_epsilon_gaussian(1 / float(mu), float(delta)), 200)
            v_pe = G.get_epsilon_gaussian(1 / float(mu), float(delta))
            row += [t_pe * 1e3, float(abs(v_pe - ref) / ref), t_fp / t_pe]
        rows.append(row)
    print("## eps(delta) of the Gaussian: float path, mp path, dp_accounting\n")
    print("Command: `python bench/profile_speed.py` (medians of scalar calls, same process; errors "
          "relative to 40 digits).\n")
    print("| case | fp ms | fp rel. error | mp 30 digits ms | dp_accounting ms | its rel. error | fp / dp_accounting "
          "(target <= 1.2) | mp target <= 10 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        extra = (f"{r[4]:.3f} | {r[5]:.1e} | {r[6]:.2f} {'PASS' if r[6] <= 1.2 else 'FAIL'}" if len(r) > 4
                 else "n/a | n/a | n/a")
        print(f"| {r[0]} | {r[1]:.3f} | {r[2]:.1e} | {r[3]:.1f} | {extra} | {'PASS' if r[3] <= 10 else 'FAIL'} |")


if __name__ == "__main__":
    main()
