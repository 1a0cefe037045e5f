"""(a) fp path: float64 throughput and accuracy of numeric.fp.tradeoff / numeric.fp.power.

10^6 log-spaced alpha in [1e-300, 1] for gaussian(1) and laplace(1).  Each
function is timed as the median of 5 runs after a warm-up call (which compiles
the lambdified expression); the five rounds are interleaved over all functions
so that drift affects all of them alike.  The ratio is to the scipy.special
baseline ``ndtr(ndtri(alpha) + 1.0)`` timed in the same process the same way
(the same baseline is used for the Laplace record).

Accuracy: max relative error of fp beta and 1 - beta against numeric.mp
(digits=20) on 300 evenly spaced indices of the grid (endpoints 1e-300 and 1
included); each float alpha is passed to the mp path exactly (as a Fraction).

Run alone: ``python bench/fp_path.py``.
"""

from __future__ import annotations

import statistics
import time
from fractions import Fraction

import _common  # noqa: F401  (puts the repo on sys.path)
import mpmath
import numpy as np
import scipy.special as sc
from _common import fmt_time, pass_fail, timed

import derive
import numeric.fp as fp
import numeric.mp as mp

N = 10 ** 6
REPEATS = 5
SUBSAMPLE = 300
MP_DIGITS = 20
RATIO_TARGET = 1.5
ERR_TARGET = 1e-12


def _rel_err(approx: float, exact) -> mpmath.mpf:
    with mpmath.workdps(40):
        a = mpmath.mpf(approx)
        e = mpmath.mpf(exact)
        if e == 0:
            return mpmath.mpf(0) if a == 0 else mpmath.inf
        return abs(a - e) / abs(e)


def run(verbose: bool = True) -> dict:
    alpha = np.logspace(-300, 0, N)
    mu = 1.0
    records = {"gaussian(1)": derive.gaussian(1), "laplace(1)": derive.laplace(1)}

    funcs = {"baseline ndtr(ndtri(a)+1)": lambda: sc.ndtr(sc.ndtri(alpha) + mu)}
    for name, rec in records.items():
        funcs[f"{name} fp.tradeoff"] = (lambda r: lambda: fp.tradeoff(r, alpha))(rec)
        funcs[f"{name} fp.power"] = (lambda r: lambda: fp.power(r, alpha))(rec)

    warmup = {}
    for name, fn in funcs.items():          # warm-up: compiles the lambdified forms
        t0 = time.perf_counter()
        fn()
        warmup[name] = time.perf_counter() - t0
    samples = {name: [] for name in funcs}
    cpu = {name: [] for name in funcs}
    for _ in range(REPEATS):                # interleaved rounds
        for name, fn in funcs.items():
            w, c = timed(fn)
            samples[name].append(w)
            cpu[name].append(c)
    med = {name: statistics.median(ts) for name, ts in samples.items()}
    med_cpu = {name: statistics.median(ts) for name, ts in cpu.items()}
    base = med["baseline ndtr(ndtri(a)+1)"]
    base_cpu = med_cpu["baseline ndtr(ndtri(a)+1)"]

    timing = []
    for name in funcs:
        ratio = med[name] / base
        is_base = name.startswith("baseline")
        timing.append({
            "name": name, "warmup": warmup[name], "median": med[name],
            "min": min(samples[name]), "max": max(samples[name]),
            "per_value_ns": med[name] / N * 1e9, "ratio": ratio,
            "cpu_median": med_cpu[name], "cpu_ratio": med_cpu[name] / base_cpu,
            "pass": None if is_base else ratio <= RATIO_TARGET,
        })
        if verbose:
            print(f"[a] {name:32s} median {fmt_time(med[name]):>10s}  ratio {ratio:5.2f}  "
                  f"(CPU-time ratio {med_cpu[name] / base_cpu:5.2f})  "
                  f"{'' if is_base else pass_fail(ratio <= RATIO_TARGET)}")

    idx = np.unique(np.linspace(0, N - 1, SUBSAMPLE).round().astype(np.int64))
    sub = alpha[idx]
    accuracy = []
    t_acc = time.perf_counter()
    for name, rec in records.items():
        for kind, fpf, mpf in (("beta", fp.tradeoff, mp.tradeoff), ("power", fp.power, mp.power)):
            vals = fpf(rec, sub)
            worst, worst_alpha = mpmath.mpf(-1), None
            for a, v in zip(sub, vals):
                ref = mpf(rec, Fraction(float(a)), MP_DIGITS)
                err = _rel_err(float(v), ref)
                if err > worst:
                    worst, worst_alpha = err, float(a)
            ok = worst <= ERR_TARGET
            accuracy.append({"name": f"{name} {kind}", "max_rel_err": float(worst),
                             "at_alpha": worst_alpha, "pass": ok})
            if verbose:
                print(f"[a] {name} {kind:5s} max rel err {float(worst):.3e} at alpha={worst_alpha:.3e}  "
                      f"{pass_fail(ok)}")
    return {
        "n": N, "repeats": REPEATS, "subsample": int(len(idx)),
        "sub_first": float(sub[0]), "sub_last": float(sub[-1]),
        "timing": timing, "accuracy": accuracy, "accuracy_seconds": time.perf_counter() - t_acc,
    }


def markdown(res: dict) -> str:
    out = ["## (a) fp path: float64 over 10^6 alpha", "",
           f"`alpha = np.logspace(-300, 0, 10**6)`; median of {res['repeats']} runs after a warm-up "
           "call (the warm-up compiles the lambdified form); the runs are interleaved over all rows. "
           "Ratio = median / median of the scipy.special baseline `ndtr(ndtri(alpha) + 1.0)` "
           "timed in the same process the same way (the same baseline is used for the Laplace rows). "
           f"Target: ratio <= {RATIO_TARGET} (judged on the wall-clock medians). The CPU-time "
           "columns (`time.process_time`, same runs) are a cross-check that is less sensitive to "
           "other processes competing for the cores.", "",
           "| function | warm-up | median | min | max | ns / value | ratio to baseline | target "
           "| CPU median | CPU ratio |",
           "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in res["timing"]:
        out.append(f"| {r['name']} | {fmt_time(r['warmup'])} | {fmt_time(r['median'])} | "
                   f"{fmt_time(r['min'])} | {fmt_time(r['max'])} | {r['per_value_ns']:.1f} | "
                   f"{r['ratio']:.2f} | {pass_fail(r['pass'])} | {fmt_time(r['cpu_median'])} | "
                   f"{r['cpu_ratio']:.2f} |")
    out += ["", f"Accuracy against `numeric.mp` (digits={MP_DIGITS}) on {res['subsample']} evenly "
            f"spaced indices of the grid (alpha from {res['sub_first']:.0e} to {res['sub_last']:g}, "
            "each float alpha passed exactly as a Fraction). "
            f"Target: max relative error <= {ERR_TARGET:.0e}. "
            f"(mp reference computed in {res['accuracy_seconds']:.1f} s.)", "",
            "| quantity | max relative error | at alpha | target |", "|---|---:|---:|---|"]
    for r in res["accuracy"]:
        out.append(f"| {r['name']} | {r['max_rel_err']:.3e} | {r['at_alpha']:.3e} | "
                   f"{pass_fail(r['pass'])} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(run()))
