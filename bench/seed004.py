"""Benchmark of the seed 004 targets (issue #12): functionals by quadrature at 30 digits, the privacy
CLT report at 30 digits on the issue's two cases, the canonical-noise sampler.

Run from the repository root: ``python bench/seed004.py``.  Prints a markdown section for
BENCHMARKS.md (kept between its BEGIN/END markers by hand).  Times are wall seconds of one call in
a fresh process (the first call pays SymPy's derivation of the slope law; a second call is shown
beside it).  No peer here: the peers do not compute these functionals or the Berry-Esseen band.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time

sys.path.insert(0, ".")

import derive  # noqa: E402
from numeric import cnd  # noqa: E402
from numeric import functionals as F
from proofs_check.cli import main  # noqa: E402


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def functional_rows():
    cases = [("noise logistic mu=1", lambda: derive.noise("logistic", "1"), "kl", None),
             ("noise logistic mu=1", lambda: derive.noise("logistic", "1"), "kappabar3", None),
             ("noise logistic mu=1", lambda: derive.noise("logistic", "1"), "renyi", "2"),
             ("gaussian mu=1 (quadrature)", lambda: derive.gaussian("1"), "kappa2", None),
             ("laplace eps=1 (quadrature)", lambda: derive.laplace("1"), "kappabar3", None),
             ("noise laplace mu=1", lambda: derive.noise("laplace", "1"), "kappa3", None)]
    out = []
    for label, make, name, order in cases:
        rec = make()
        v1, t1 = timed(lambda: F.functional(rec, name, order=order, digits=30, method="quadrature"))
        _, t2 = timed(lambda: F.functional(rec, name, order=order, digits=30, method="quadrature"))
        import mpmath
        with mpmath.workdps(40):
            v = v1.value
            shown = mpmath.nstr(mpmath.mpf(v.p) / v.q if hasattr(v, "q") else v, 30)
        out.append((label, name + (f" (order {order})" if order else ""), shown, t1, t2))
    return out


def clt_rows():
    cases = [["clt", "laplace", "--eps", "0.1", "--k", "10", "--at-eps", "0.5"],
             ["clt", "laplace", "--eps", "0.1", "--k", "10", "--alpha", "0.1"],
             ["clt", "randomized-response", "--eps", "0.1", "--k", "100", "--alpha", "0.1"],
             ["clt", "randomized-response", "--eps", "0.1", "--k", "100", "--at-eps", "1"]]
    out = []
    for argv in cases:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            _, t = timed(lambda: main(argv + ["--digits", "30", "--json"]))
        d = json.loads(buf.getvalue())
        out.append((" ".join(argv[1:]), d, t))
    return out


def cnd_rows():
    out = []
    for label, rec in (("G_1", derive.gaussian("1")), ("f_{1,0}", derive.randomized_response("1"))):
        cnd.sample(rec, 1000, seed=1)
        xs, t = timed(lambda: cnd.sample(rec, 10**6, seed=1))
        out.append((label, len(xs), t))
    return out


def main_() -> None:
    print("## Seed 004: functionals, privacy CLT, canonical noise (bench/seed004.py)\n")
    print("Command: `python bench/seed004.py`.\n")
    print("| record | functional | value (30 digits) | first call | second call | target <= 2 s |")
    print("|---|---|---|---|---|---|")
    for label, name, value, t1, t2 in functional_rows():
        print(f"| {label} | {name} | {value} | {t1:.2f} s | {t2:.2f} s | {'PASS' if t2 <= 2 else 'FAIL'} |")
    print("\n| clt query (--digits 30; 12 shown) | mu | CLT value | exact | error_clt | seconds |")
    print("|---|---|---|---|---|---|")
    import mpmath

    def short(x, n=12):
        return "-" if x is None else mpmath.nstr(mpmath.mpf(x), n)
    for q, d, t in clt_rows():
        approx = d.get("beta", d.get("delta"))
        print(f"| {q} | {short(d['mu'])} | {short(approx)} | {short(d.get('exact', d.get('bracket_lower')))} | "
              f"{short(d.get('error_clt'), 6)} | {t:.2f} |")
    print("\n| CND sampler (float path) | samples | seconds | target <= 2 s |")
    print("|---|---|---|---|")
    for label, n, t in cnd_rows():
        print(f"| {label} | {n} | {t:.3f} | {'PASS' if t <= 2 else 'FAIL'} |")


if __name__ == "__main__":
    main_()
