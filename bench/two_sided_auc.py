"""The two-release Laplace AUC of seed 003 (numeric.two_sided.auc_exact_laplace_difference): the SymPy-derived
closed form against the route it replaced (tanh-sinh quadrature of power(c) |d alpha/dc| over the critical
value, verified at two precisions), on the grid of every shift seed 003's Tables 1-2 use, in one run.

Run: ``python bench/two_sided_auc.py`` (prints a Markdown table for BENCHMARKS.md).
"""

from __future__ import annotations

import time

import mpmath

from derive import two_sided as T
from derive.exact import rational
from numeric import two_sided as TS
from numeric.bridge import compile_mp, exact_of, to_mpf
from numeric.precision import verified_mpf

EPS = ("0.01", "0.1", "0.25", "0.5", "1.0", "2.0", "4.0", "8.0")
ROWS, COLS = ("0.01", "0.1", "0.5", "1", "5"), ("0.1", "0.5", "1.0", "5.0", "10.0")


def _grid() -> list[str]:
    with mpmath.workdps(30):
        shifts = [mpmath.nstr(mpmath.mpf(e) / mpmath.sqrt(2), 20) for e in EPS]
        shifts += [mpmath.nstr(mpmath.sqrt(2) * mpmath.mpf(r) / mpmath.sqrt(mpmath.mpf(c)), 20) for r in ROWS for c in COLS]
    return shifts


def _quadrature(shift, digits):
    """The replaced route, as it was: quadrature of the SymPy integrand at two precisions."""
    fn = compile_mp(T.laplace_difference_auc_integrand())

    def compute():
        rv = to_mpf(exact_of(rational("shift", shift)))
        return mpmath.quad(lambda cv: to_mpf(fn({T.c: cv, T.r: rv})), [0, rv, mpmath.inf] if rv > 0 else [0, mpmath.inf])
    return verified_mpf(compute, digits)


def main(digits: int = 15) -> None:
    grid = _grid()
    out = {}
    for name, fn in (("closed form (now)", TS.auc_exact_laplace_difference), ("quadrature (before)", _quadrature)):
        fn(grid[0], digits)                                  # warm-up (compiles the expression)
        t0 = time.perf_counter()
        values = [fn(s, digits) for s in grid]
        out[name] = (time.perf_counter() - t0, values)
    (tc, vc), (tq, vq) = out["closed form (now)"], out["quadrature (before)"]
    with mpmath.workdps(30):
        worst = max(abs(a - b) / b for a, b in zip(vc, vq))
    print(f"| route | {len(grid)} shifts, {digits} digits | per value |\n|---|---:|---:|")
    for name, (t, _) in out.items():
        print(f"| {name} | {t:.3f} s | {1000 * t / len(grid):.2f} ms |")
    print(f"\nRatio quadrature / closed form: {tq / tc:.0f}x; largest relative difference {mpmath.nstr(worst, 3)}.")


if __name__ == "__main__":
    main()
