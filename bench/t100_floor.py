"""Where the width of DP-SGD's eps bracket at T = 100 and q = 0.001 comes from (issue #25's width target).

``python bench/t100_floor.py``: q = 0.001, sigma = 1.1, T = 100, delta = 1e-10.  Prints the independent
reference eps (bench/dpsgd_reference.py, no dp-derive code), the certified eps bracket, then delta at the
reference eps on grids h and knot tolerances given explicitly, with the FFT error bound E_out and ||y||_2
of each composed window, and finally the bracket with the query's tilt scaled by 0.8 and 1.3.
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.dpsgd_reference import eps_reference  # noqa: E402
from numeric import pld, pld_fft  # noqa: E402
from numeric import pld_mechanisms as M  # noqa: E402

Q, S, T = Fraction(1, 1000), Fraction(11, 10), 100


def _step():
    return [(M.subsampled_gaussian(Q, S), T)]


def main() -> None:
    ref = eps_reference(float(Q), float(S), T, 1e-10)[0]
    print(f"reference eps = {ref!r}")
    r = pld.compose(_step()).eps("1e-10")
    print(f"certified eps in [{r.eps_lower}, {r.eps_upper}], relative width {float((r.eps_upper - r.eps_lower) / ref):.2e}")
    e = Fraction(ref).limit_denominator(10 ** 12)
    seen = []
    real = pld_fft.grid_bounds

    def spy(comp, *a, **k):
        out = real(comp, *a, **k)
        seen.append((comp.kind, comp.lam, len(comp.y), comp.E_out, float(np.sqrt(np.sum(comp.y * comp.y)))))
        return out
    pld.grid_bounds = spy
    print("| h | tol | delta bracket | relative width | CPU s | windows (kind, lam, N, E_out, ||y||_2) |")
    print("|---|---|---|---|---|---|")
    for hp, tol in ((12, 1e-14), (13, 1e-14), (14, 1e-16), (15, 1e-16), (12, 1e-18)):
        seen.clear()
        c0 = time.process_time()
        d = pld.compose(_step(), h=Fraction(1, 2 ** hp), tol=tol).delta(e)
        w = float((d.delta_upper - d.delta_lower) / 1e-10)
        wins = "; ".join(f"{k} {lam:.2f} 2^{int(math.log2(n))} {eo:.2g} {y2:.3g}" for k, lam, n, eo, y2 in seen)
        print(f"| 2^-{hp} | {tol:g} | [{float(d.delta_lower):.5g}, {float(d.delta_upper):.5g}] | {w:.2g} | "
              f"{time.process_time() - c0:.1f} | {wins} |", flush=True)
    pld.grid_bounds = real
    orig = pld.Composition._tilt_for
    for f in (0.8, 1.3):
        def scaled(self, d, target, mode, f=f):
            lam, eg, _ = orig(self, d, target, mode)
            return lam * f, eg, self._bucket(lam * f)
        pld.Composition._tilt_for = scaled
        try:
            d = pld.compose(_step(), h=Fraction(1, 2 ** 12), tol=1e-16).delta(e)
            print(f"tilt x {f}: delta in [{float(d.delta_lower):.5g}, {float(d.delta_upper):.5g}]")
        except Exception as exc:                     # the window refusal is the finding
            print(f"tilt x {f}: {type(exc).__name__}: {str(exc)[:100]}")
        finally:
            pld.Composition._tilt_for = orig


if __name__ == "__main__":
    main()
