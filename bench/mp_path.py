"""(b) mp path at 30 digits for gaussian(1) against the naive mpmath evaluation.

For alpha = 1e-20, 1e-300, 1e-1000, 1e-100000 (exact decimal strings):

* median time per value of numeric.mp.power(record, alpha, 30) and of
  numeric.mp.tradeoff(record, alpha, 30) over 15 calls (after one warm-up call);
* the naive printed form power = 1 - Phi(Phi^{-1}(1 - alpha) - mu) written
  directly with mpmath:  a = 1/10^k;  z = sqrt(2) erfinv(1 - 2a);
  power = 1 - ncdf(z - mu), inside mpmath.workdps(dps);
* the smallest dps of the ladder 40, k+10, k+20, ... at which the naive value
  has the same 30 significant digits (mpmath.nstr(., 30)) as the mp path;
* the naive time at that dps (median of 3) and the ratio naive / mp;
* a check of the mp digits against the naive form at that dps + 40.

alpha = 1e-100000 would need dps > 100000 for the naive form; it is not run, and
its cost is only *estimated* by a power law fitted to the 1e-300 and 1e-1000
naive timings.  A cProfile summary of mp.power at 1e-100000 and 1e-20 shows
where the time goes.

Run alone: ``python bench/mp_path.py``.
"""

from __future__ import annotations

import cProfile
import io
import math
import pstats
import re
import statistics
import time

import _common  # noqa: F401
import mpmath
from _common import fmt_time, median_time, pass_fail, sample_times

import derive
import numeric.mp as mp
from derive.exact import rational

MU = 1
DIGITS = 30
EXPONENTS = (20, 300, 1000, 100000)
MP_REPEATS = 15
NAIVE_REPEATS = 3
NAIVE_LIMIT = 100000        # exponents >= this are not run naively
LADDER_STEP, LADDER_MAX = 10, 300
TIME_TARGET = 2e-3          # seconds per value
SPEEDUP_TARGET, SPEEDUP_AT = 500, 1000


def naive_power(k: int, dps: int, mu=MU):
    """1 - Phi(sqrt2 erfinv(1 - 2 alpha) - mu) at alpha = 10^-k, all at dps digits."""
    with mpmath.workdps(dps):
        a = mpmath.mpf(1) / mpmath.mpf(10) ** k
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a)
        return +(1 - mpmath.ncdf(z - mu))


def _ratio(r):
    if r is None:
        return "-"
    return f"{r:.1f}x" if r < 10 else f"{r:.0f}x"


def _s(v, digits=DIGITS):
    return mpmath.nstr(v, digits, strip_zeros=False)


def _ladder(k):
    return sorted({40} | {k + c for c in range(LADDER_STEP, LADDER_MAX + 1, LADDER_STEP) if k + c > 40})


def _profile(record, alpha: str, calls: int, top: int = 8) -> str:
    mp.power(record, alpha, DIGITS)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        mp.power(record, alpha, DIGITS)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats("tottime").print_stats(top)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    head = next(ln.strip() for ln in lines if "function calls" in ln)
    body = [re.sub(r"/\S*/lib/python3\.\d+/(site-packages/)?", "",
                   ln.replace(str(_common.REPO) + "/", "")) for ln in lines[start:]]
    return f"{calls} calls of mp.power(gaussian(1), \"{alpha}\", {DIGITS}): {head}\n" + "\n".join(body)


def run(verbose: bool = True) -> dict:
    g = derive.gaussian(MU)
    rows = []
    for k in EXPONENTS:
        alpha = f"1e-{k}"
        s_pow, c_pow = sample_times(lambda: mp.power(g, alpha, DIGITS), MP_REPEATS)
        s_tr, c_tr = sample_times(lambda: mp.tradeoff(g, alpha, DIGITS), MP_REPEATS)
        t_pow, t_tr = statistics.median(s_pow), statistics.median(s_tr)
        p_val = mp.power(g, alpha, DIGITS)
        b_val = mp.tradeoff(g, alpha, DIGITS)
        row = {"k": k, "alpha": alpha, "mp_power": t_pow, "mp_tradeoff": t_tr,
               "mp_power_min": min(s_pow), "mp_tradeoff_min": min(s_tr),
               "mp_power_cpu": statistics.median(c_pow), "mp_tradeoff_cpu": statistics.median(c_tr),
               "power": _s(p_val), "beta": _s(b_val), "naive": None}
        if verbose:
            print(f"[b] alpha={alpha}: mp.power {fmt_time(t_pow)} (CPU {fmt_time(row['mp_power_cpu'])}), "
                  f"mp.tradeoff {fmt_time(t_tr)}, "
                  f"power={_s(p_val, 12)}")
        if k < NAIVE_LIMIT:
            target = _s(p_val)
            tried = []
            needed = None
            for dps in _ladder(k):
                t0 = time.perf_counter()
                v = naive_power(k, dps)
                dt = time.perf_counter() - t0
                ok = _s(v) == target
                tried.append((dps, ok, dt))
                if ok:
                    needed = dps
                    break
            if needed is None:
                row["naive"] = {"tried": tried, "needed": None}
            else:
                t_naive = median_time(lambda: naive_power(k, needed), NAIVE_REPEATS, warmup=False)
                check_dps = needed + 40
                ref = naive_power(k, check_dps)
                with mpmath.workdps(check_dps):
                    rel = abs(p_val - ref) / abs(ref)
                row["naive"] = {"tried": tried, "needed": needed, "time": t_naive,
                                "ratio": t_naive / t_pow, "check_dps": check_dps,
                                "check_match": _s(ref) == _s(p_val),
                                "check_rel_err": float(rel)}
            if verbose:
                nv = row["naive"]
                print(f"[b]   naive: ladder {[d for d, _, _ in tried]} -> dps {nv['needed']}, "
                      f"time {fmt_time(nv.get('time'))}, ratio {_ratio(nv.get('ratio'))}, "
                      f"30 digits vs naive@{nv.get('check_dps')}: {nv.get('check_match')} "
                      f"(rel err {nv.get('check_rel_err', float('nan')):.1e})")
        rows.append(row)

    # estimate of the naive cost at the exponents that are not run
    fit = [r for r in rows if r["naive"] and r["naive"].get("time") and r["k"] >= 300]
    estimate = None
    if len(fit) >= 2:
        (d1, t1), (d2, t2) = [(r["naive"]["needed"], r["naive"]["time"]) for r in fit[-2:]]
        p = math.log(t2 / t1) / math.log(d2 / d1)
        extra = fit[-1]["naive"]["needed"] - fit[-1]["k"]
        for r in rows:
            if r["naive"] is None:
                dps = r["k"] + extra
                est = t2 * (dps / d2) ** p
                estimate = {"k": r["k"], "dps": dps, "exponent": p, "seconds": est,
                            "from": (fit[-2]["alpha"], fit[-1]["alpha"])}
                r["estimate"] = estimate
                if verbose:
                    print(f"[b]   naive at {r['alpha']}: not run; ESTIMATE ~{est:.2g} s at dps ~{dps} "
                          f"(t ~ dps^{p:.2f})")

    targets = []
    for r in rows:
        targets.append({"name": f"mp.power median <= 2 ms at alpha={r['alpha']}",
                        "value": fmt_time(r["mp_power"]), "pass": r["mp_power"] <= TIME_TARGET})
    at = next(r for r in rows if r["k"] == SPEEDUP_AT)
    sp_ok = None if not (at["naive"] and at["naive"].get("ratio")) else at["naive"]["ratio"] >= SPEEDUP_TARGET
    targets.append({"name": f">= {SPEEDUP_TARGET}x faster than naive at alpha={at['alpha']}",
                    "value": _ratio(at['naive']['ratio']) if sp_ok is not None else "-",
                    "pass": sp_ok})
    for r in rows:
        nv = r["naive"]
        if nv and nv.get("needed"):
            targets.append({"name": f"mp 30 digits = naive (dps {nv['check_dps']}) at alpha={r['alpha']}",
                            "value": f"rel diff {nv['check_rel_err']:.1e}", "pass": nv["check_match"]})
    if verbose:
        for t in targets:
            print(f"[b] {t['name']}: {t['value']}  {pass_fail(t['pass'])}")

    profiles = [_profile(g, "1e-100000", 20), _profile(g, "1e-20", 50)]
    # the exact parse of the decimal string alone (derive.exact.rational -> Fraction)
    k_big = max(EXPONENTS)
    parse = {"alpha": f"1e-{k_big}",
             "rational": min(sample_times(lambda: rational("alpha", f"1e-{k_big}"), MP_REPEATS)[0]),
             "pow10": min(sample_times(lambda: 10 ** k_big, MP_REPEATS)[0]),
             "mp_power": next(r["mp_power_min"] for r in rows if r["k"] == k_big)}
    if verbose:
        print(f"[b] (min times) parse of \"{parse['alpha']}\" to an exact rational: {fmt_time(parse['rational'])} "
              f"(10**{k_big} alone: {fmt_time(parse['pow10'])}) of mp.power {fmt_time(parse['mp_power'])}")
    return {"rows": rows, "targets": targets, "estimate": estimate, "profiles": profiles,
            "parse": parse}


def markdown(res: dict) -> str:
    out = ["## (b) mp path at 30 digits: gaussian(1)", "",
           f"Median wall time per value over {MP_REPEATS} calls (after one warm-up call) of "
           f"`numeric.mp.power(gaussian(1), alpha, {DIGITS})` and `numeric.mp.tradeoff(...)`; alpha is "
           "the exact decimal string. Naive baseline (direct mpmath, the printed form): inside "
           "`mpmath.workdps(dps)`: `a = mpf(1)/mpf(10)**k; z = sqrt(2)*erfinv(1 - 2*a); "
           "power = 1 - ncdf(z - 1)`. `dps needed` is the first dps of the ladder 40, k+10, k+20, ... "
           "at which the naive value has the same 30 significant digits as the mp path; the naive time "
           f"is the median of {NAIVE_REPEATS} runs at that dps. Targets are judged on the wall-clock "
           "medians; the CPU-time median (`time.process_time`, same calls) is a cross-check less "
           "sensitive to other processes on the machine.", "",
           "| alpha | mp.power median (min) | mp.power CPU median | mp.tradeoff median (min) "
           "| power (30 digits, mp) | naive dps needed | naive time | naive / mp.power |",
           "|---|---:|---:|---:|---|---:|---:|---:|"]
    for r in res["rows"]:
        nv = r["naive"]
        if nv is None:
            est = r.get("estimate")
            naive_dps = "> 100000"
            naive_t = "not run: needs > 100000 digits"
            ratio = (f"ESTIMATE ~{est['seconds'] / r['mp_power']:.1g}x" if est else "-")
            if est:
                naive_t += f" (ESTIMATE ~{est['seconds']:.1g} s)"
        elif nv.get("needed") is None:
            naive_dps, naive_t, ratio = f"> {nv['tried'][-1][0]}", "-", "-"
        else:
            naive_dps, naive_t, ratio = str(nv["needed"]), fmt_time(nv["time"]), _ratio(nv["ratio"])
        out.append(f"| {r['alpha']} | {fmt_time(r['mp_power'])} ({fmt_time(r['mp_power_min'])}) | "
                   f"{fmt_time(r['mp_power_cpu'])} | "
                   f"{fmt_time(r['mp_tradeoff'])} ({fmt_time(r['mp_tradeoff_min'])}) | "
                   f"{r['power']} | {naive_dps} | {naive_t} | {ratio} |")
    out += ["", "beta = f(alpha) from mp.tradeoff (30 digits): " +
            "; ".join(f"{r['alpha']}: {r['beta']}" for r in res["rows"]), ""]
    out += ["Naive ladder (dps tried, same 30 digits?, time of that single run):", ""]
    for r in res["rows"]:
        nv = r["naive"]
        if nv:
            out.append(f"- {r['alpha']}: " + ", ".join(
                f"{d} ({'yes' if ok else 'no'}, {fmt_time(t)})" for d, ok, t in nv["tried"]))
        else:
            out.append(f"- {r['alpha']}: not run (needs > 100000 digits)")
    est = res["estimate"]
    if est:
        out += ["", f"ESTIMATE, not a measurement: the naive time at alpha=1e-{est['k']} was extrapolated "
                f"as t ~ dps^{est['exponent']:.2f} from the naive timings at alpha={est['from'][0]} and "
                f"{est['from'][1]}, at dps ~{est['dps']}: ~{est['seconds']:.1g} s "
                f"(~{est['seconds'] / 86400:.0f} days)."]
    out += ["", "| target | value | result |", "|---|---|---|"]
    for t in res["targets"]:
        out.append(f"| {t['name']} | {t['value']} | {pass_fail(t['pass'])} |")
    out += ["", "Where the time goes (cProfile, sorted by own time; paths shortened):", ""]
    for p in res["profiles"]:
        out += ["```", p, "```", ""]
    ps = res["parse"]
    out += [f"Parsing `\"{ps['alpha']}\"` alone with `derive.exact.rational` (which builds a "
            f"`fractions.Fraction`) takes {fmt_time(ps['rational'])}; the integer power "
            f"`10**{ps['alpha'][3:]}` alone takes {fmt_time(ps['pow10'])}; mp.power at that alpha takes "
            f"{fmt_time(ps['mp_power'])} (all: min of {MP_REPEATS} calls; mpmath backend: "
            f"{mpmath.libmp.BACKEND}).", ""]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(run()))
