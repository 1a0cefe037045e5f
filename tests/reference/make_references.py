#!/usr/bin/env python3
"""Standalone generator for tests/reference/values.py.

Computes high-precision reference values for the trade-off-function toolkit
using ONLY plain mpmath / sympy with naive formulas at very high working
precision (or independent algorithms).  It deliberately does not import the
project.  Regenerate with:

    python tests/reference/make_references.py

(run from the repository root; writes tests/reference/values.py next to this
script).
"""
import fractions
import os
import time

import mpmath
import sympy

SIG = 40  # significant digits stored

ONE_MINUS_1E30 = "0.999999999999999999999999999999"  # 1 - 1e-30 (30 nines)


def s(v):
    """40-significant-digit decimal string of an mpf."""
    return mpmath.nstr(v, SIG)


def exact(dec):
    """Exact rational of a decimal string."""
    return fractions.Fraction(dec)


def mpf_exact(dec):
    """mpf of a decimal string at the *current* working precision."""
    q = exact(dec)
    return mpmath.mpf(q.numerator) / q.denominator


def log10_inv(dec):
    """Rough log10(1/min(x, 1-x)) of a decimal in (0,1], for precision sizing."""
    q = exact(dec)
    m = min(q, 1 - q) if q < 1 else q
    if m <= 0:
        return 0.0
    # digits of denominator/numerator, exact-ish without float underflow
    return max(0.0, len(str(m.denominator)) - len(str(m.numerator)) + 1.0)


def rel_agree_digits(a, b):
    """Number of agreeing significant digits (relative), inf if equal."""
    if a == b:
        return mpmath.inf
    d = abs(a - b) / max(abs(a), abs(b))
    return -mpmath.log10(d)


def check(name, a, b, digits):
    ag = rel_agree_digits(a, b)
    ok = ag >= digits
    msg = "%-60s agree to %s digits (need %d)" % (
        name, "all" if ag == mpmath.inf else "%.1f" % float(ag), digits)
    print(("PASS " if ok else "FAIL ") + msg, flush=True)
    if not ok:
        raise AssertionError(msg)
    return float(ag) if ag != mpmath.inf else float("inf")


CHECK_LOG = []


def record(line):
    CHECK_LOG.append(line)


# ---------------------------------------------------------------------------
# 1. Gaussian trade-off  G_mu(alpha) = Phi(Phi^{-1}(1-alpha) - mu)
# ---------------------------------------------------------------------------
G_MUS = ["0.5", "1", "5"]
G_ALPHAS = ["1e-20", "1e-300", "1e-1000", "1e-100000", "0.05", "0.5",
            ONE_MINUS_1E30]


def gaussian_method_A(alpha_s, mus):
    """Naive: z = sqrt(2) erfinv(1 - 2 alpha); beta = ncdf(z - mu);
    power = 1 - beta, all at dps = 80 + 1.1*log10(1/min(alpha,1-alpha))."""
    dps = int(80 + 1.1 * log10_inv(alpha_s)) + 1
    out = {}
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha_s)  # decimal string parsed at working precision
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a)
        for mu_s in mus:
            mu = mpmath.mpf(mu_s)
            beta = mpmath.ncdf(z - mu)
            power = 1 - beta
            out[mu_s] = (+beta, +power)
    return out, dps


def gaussian_method_B(alpha_s, mus, dps=60, steps=400):
    """Bisection for the alpha-quantile x of N(0,1) on
    log(erfc(-x/sqrt2)/2) - log(alpha) (for alpha <= 1/2), or on
    log(erfc(x/sqrt2)/2) - log(1-alpha) with 1-alpha taken exactly (alpha > 1/2).
    Then power = Phi(x + mu) = erfc(-(x+mu)/sqrt2)/2,
         beta  = Phi(-x - mu) = erfc((x+mu)/sqrt2)/2."""
    q = exact(alpha_s)
    out = {}
    with mpmath.workdps(dps):
        r2 = mpmath.sqrt(2)
        if q <= fractions.Fraction(1, 2):
            target = mpf_exact(alpha_s)
            sign = 1  # Phi(x) = alpha
        else:
            c = 1 - q
            target = mpmath.mpf(c.numerator) / c.denominator
            sign = -1  # Phi(-x) = 1 - alpha
        logt = mpmath.log(target)
        L = mpmath.sqrt(2 * mpmath.log(1 / target)) if target < 1 else mpmath.mpf(0)
        # y = sign * x solves Phi(y) = target, Phi(y) increasing in y
        lo, hi = -L - 4, -L + 4
        h = lambda y: mpmath.log(mpmath.erfc(-y / r2) / 2) - logt
        assert h(lo) < 0 < h(hi), "bad bracket"
        for _ in range(steps):
            mid = (lo + hi) / 2
            if h(mid) < 0:
                lo = mid
            else:
                hi = mid
        x = sign * (lo + hi) / 2
        for mu_s in mus:
            mu = mpmath.mpf(mu_s)
            power = mpmath.erfc(-(x + mu) / r2) / 2
            beta = mpmath.erfc((x + mu) / r2) / 2
            out[mu_s] = (+beta, +power)
    return out


def gaussian_table():
    table = {}
    for alpha_s in G_ALPHAS:
        t0 = time.time()
        B = gaussian_method_B(alpha_s, G_MUS)
        tB = time.time() - t0
        if alpha_s == "1e-100000":
            A, dps = None, None
            # extra cross-checks for the point method A cannot reach:
            # (i) the same bisection at dps 90 / 500 steps (precision stability),
            # (ii) a different root finder: mpmath.findroot (secant) at dps 80 on
            #      log Phi(x) - log(alpha), started from the crude -sqrt(2 ln(1/alpha)).
            B90 = gaussian_method_B(alpha_s, G_MUS, dps=90, steps=500)
            with mpmath.workdps(80):
                la = -100000 * mpmath.log(10)
                x0 = -mpmath.sqrt(-2 * la)
                x = mpmath.findroot(lambda x: mpmath.log(mpmath.erfc(-x / mpmath.sqrt(2)) / 2) - la,
                                    (x0, x0 + mpmath.mpf(1) / 10), solver="secant")
                FR = {m: (mpmath.erfc((x + mpmath.mpf(m)) / mpmath.sqrt(2)) / 2,
                          mpmath.erfc(-(x + mpmath.mpf(m)) / mpmath.sqrt(2)) / 2) for m in G_MUS}
            for mu_s in G_MUS:
                with mpmath.workdps(60):
                    d1 = check("gaussian mu=%s alpha=1e-100000 power B(dps60) vs B(dps90)" % mu_s,
                               B[mu_s][1], B90[mu_s][1], 45)
                    d2 = check("gaussian mu=%s alpha=1e-100000 power B vs findroot(dps80)" % mu_s,
                               B[mu_s][1], FR[mu_s][1], 45)
                    d3 = check("gaussian mu=%s alpha=1e-100000 beta  B vs findroot(dps80)" % mu_s,
                               B[mu_s][0], FR[mu_s][0], 45)
                record("GAUSSIAN (%s, 1e-100000): bisection dps 60 vs bisection dps 90: power %.0f digits; "
                       "vs secant findroot dps 80: power %.0f, beta %.0f digits"
                       % (mu_s, min(d1, 60), min(d2, 60), min(d3, 60)))
        else:
            t0 = time.time()
            A, dps = gaussian_method_A(alpha_s, G_MUS)
        tA = time.time() - t0
        print("gaussian alpha=%s: method A %.2fs (dps %s), method B %.2fs"
              % (alpha_s, tA if A else 0.0, dps, tB), flush=True)
        for mu_s in G_MUS:
            if A is not None:
                bA, pA = A[mu_s]
                bB, pB = B[mu_s]
                with mpmath.workdps(60):
                    d1 = check("gaussian mu=%s alpha=%s beta  A vs B" % (mu_s, alpha_s), bA, bB, 35)
                    d2 = check("gaussian mu=%s alpha=%s power A vs B" % (mu_s, alpha_s), pA, pB, 35)
                beta, power = bA, pA
                record("GAUSSIAN (%s, %s): method A (dps %d) vs method B (bisection, dps 60): "
                       "beta %s digits, power %s digits" % (mu_s, alpha_s, dps,
                                                           "%.0f" % min(d1, 60), "%.0f" % min(d2, 60)))
            else:
                beta, power = B[mu_s]
                pass  # cross-checks recorded above
            table[(mu_s, alpha_s)] = {"beta": s(beta), "power": s(power)}
    # published check values
    def chk_prefix(key, prefix):
        got = table[key]["power"]
        ok = got.startswith(prefix.split("e")[0]) and got.endswith("e" + prefix.split("e")[1])
        print(("PASS " if ok else "FAIL ") + "published power %s: %s vs %s" % (key, got, prefix), flush=True)
        assert ok
        record("published check %s power starts with %s: PASS" % (key, prefix))
    chk_prefix(("5", "1e-300"), "1.2048e-225")
    chk_prefix(("1", "1e-1000"), "1.6914e-971")
    with mpmath.workdps(60):
        d = check("published mu=1 alpha=1e-300 power (30 digits)",
                  mpmath.mpf(table[("1", "1e-300")]["power"]),
                  mpmath.mpf("7.65717206478308680944708952631e-285"), 29)
    record("published check ('1','1e-300') power = 7.65717206478308680944708952631e-285: "
           "agrees to %.1f digits (the published value has 30)" % d)
    return table


# ---------------------------------------------------------------------------
# 2. Laplace trade-off  f(alpha) = F(F^{-1}(1-alpha) - eps)
# ---------------------------------------------------------------------------
L_EPS = ["0.1", "1", "2.5"]
L_ALPHAS = ["1e-20", "1e-300", "0.1", "0.3", "0.5", "0.7", ONE_MINUS_1E30]


def lap_cdf(x):
    return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2


def lap_quantile(p):
    return mpmath.log(2 * p) if p < mpmath.mpf(1) / 2 else -mpmath.log(2 - 2 * p)


def laplace_closed_form_sympy(eps_s, alpha_s):
    """Independent cross-check (piecewise closed form, exact sympy)."""
    e = sympy.Rational(exact(eps_s))
    a = sympy.Rational(exact(alpha_s))
    E = sympy.exp(-e)
    if (a - E / 2).evalf(60) < 0:
        f = 1 - sympy.exp(e) * a
    elif a <= sympy.Rational(1, 2):
        f = E / (4 * a)
    else:
        f = E * (1 - a)
    return f


def laplace_table():
    table = {}
    t0 = time.time()
    for alpha_s in L_ALPHAS:
        dps = int(80 + 1.1 * log10_inv(alpha_s)) + 1
        for eps_s in L_EPS:
            with mpmath.workdps(dps):
                a = mpmath.mpf(alpha_s)
                eps = mpmath.mpf(eps_s)
                p = 1 - a
                beta = lap_cdf(lap_quantile(p) - eps)
                power = 1 - beta
                beta, power = +beta, +power
            f = laplace_closed_form_sympy(eps_s, alpha_s)
            with mpmath.workdps(60):
                cb = mpmath.mpf(str(f.evalf(55, strict=True)))
                cp = mpmath.mpf(str((1 - f).evalf(55, strict=True)))
                d1 = check("laplace eps=%s alpha=%s beta  direct vs closed form" % (eps_s, alpha_s), beta, cb, 38)
                d2 = check("laplace eps=%s alpha=%s power direct vs closed form" % (eps_s, alpha_s), power, cp, 38)
            record("LAPLACE (%s, %s): direct F(F^-1(1-a)-eps) at dps %d vs exact piecewise closed "
                   "form (sympy): beta %.0f, power %.0f digits" % (eps_s, alpha_s, dps, min(d1, 55), min(d2, 55)))
            table[(eps_s, alpha_s)] = {"beta": s(beta), "power": s(power)}
    print("laplace: %.2fs" % (time.time() - t0), flush=True)
    return table


# ---------------------------------------------------------------------------
# 3. Logistic shift family  f(alpha) = F(F^{-1}(1-alpha) - mu)
# ---------------------------------------------------------------------------
LG_MUS = ["0.5", "1"]
LG_ALPHAS = ["1e-20", "1e-300", "0.25", "0.9"]


def logistic_table():
    table = {}
    t0 = time.time()
    for alpha_s in LG_ALPHAS:
        dps = int(80 + 1.1 * log10_inv(alpha_s)) + 1
        for mu_s in LG_MUS:
            with mpmath.workdps(dps):
                a = mpmath.mpf(alpha_s)
                mu = mpmath.mpf(mu_s)
                p = 1 - a
                x = mpmath.log(p / (1 - p))  # F^{-1}(p)
                beta = 1 / (1 + mpmath.exp(-(x - mu)))
                power = 1 - beta
                beta, power = +beta, +power
            # independent exact cross-check: f = (1-a)/((1-a) + e^mu a)
            A = sympy.Rational(exact(alpha_s))
            M = sympy.Rational(exact(mu_s))
            f = (1 - A) / ((1 - A) + sympy.exp(M) * A)
            pw = sympy.exp(M) * A / ((1 - A) + sympy.exp(M) * A)
            with mpmath.workdps(60):
                cb = mpmath.mpf(str(f.evalf(55, strict=True)))
                cp = mpmath.mpf(str(pw.evalf(55, strict=True)))
                d1 = check("logistic mu=%s alpha=%s beta  direct vs closed form" % (mu_s, alpha_s), beta, cb, 38)
                d2 = check("logistic mu=%s alpha=%s power direct vs closed form" % (mu_s, alpha_s), power, cp, 38)
            record("LOGISTIC (%s, %s): direct at dps %d vs exact closed form (sympy): "
                   "beta %.0f, power %.0f digits" % (mu_s, alpha_s, dps, min(d1, 55), min(d2, 55)))
            table[(mu_s, alpha_s)] = {"beta": s(beta), "power": s(power)}
    print("logistic: %.2fs" % (time.time() - t0), flush=True)
    return table


# ---------------------------------------------------------------------------
# 4. (eps, delta)-DP trade-off, exact sympy
# ---------------------------------------------------------------------------
AD_PARAMS = [("1", "1e-5"), ("0.5", "0"), ("3", "1e-300")]
AD_ALPHAS = ["1e-300", "0.01", "0.2", "0.5", "0.99999"]


def sym_to_str(expr):
    """Exact sympy expression -> 40-digit decimal string (strict evalf)."""
    if expr == 0:
        return "0.0"
    v = expr.evalf(SIG, strict=True)
    with mpmath.workdps(60):
        return s(mpmath.mpf(str(v)))


def approx_dp_table():
    table = {}
    t0 = time.time()
    for eps_s, delta_s in AD_PARAMS:
        e = sympy.Rational(exact(eps_s))
        d = sympy.Rational(exact(delta_s))
        for alpha_s in AD_ALPHAS:
            a = sympy.Rational(exact(alpha_s))
            cands = [sympy.Integer(0), 1 - d - sympy.exp(e) * a, sympy.exp(-e) * (1 - d - a)]
            vals = [c.evalf(400) for c in cands]
            i = max(range(3), key=lambda k: vals[k])
            # make sure the choice of branch is unambiguous (or tied exactly)
            for k in range(3):
                if k != i:
                    gap = vals[i] - vals[k]
                    assert gap > 0 or sympy.simplify(cands[i] - cands[k]) == 0
            f = cands[i]
            power = sympy.expand(1 - f)
            table[(eps_s, delta_s, alpha_s)] = {"beta": sym_to_str(f), "power": sym_to_str(power)}
            record("APPROX_DP (%s, %s, %s): exact sympy, branch %d of [0, 1-d-e^eps a, e^-eps(1-d-a)]"
                   % (eps_s, delta_s, alpha_s, i))
    print("approx_dp: %.2fs" % (time.time() - t0), flush=True)
    return table


# ---------------------------------------------------------------------------
# 5. GDP privacy profile (brute-force maximisation)
# ---------------------------------------------------------------------------
GDP_PARAMS = [("1", "0"), ("1", "1"), ("0.5", "2"), ("2", "1"), ("1", "10")]


def gdp_objective(t, mu, ee):
    """1 - e^eps alpha - G_mu(alpha) with alpha = ncdf(t), G computed naively
    via the quantile of 1 - alpha (erfinv), no symmetry shortcuts."""
    alpha = mpmath.ncdf(t)
    one_minus = 1 - alpha
    if one_minus >= 1:
        z = mpmath.inf
    else:
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * alpha)
    G = mpmath.ncdf(z - mu) if z != mpmath.inf else mpmath.mpf(1)
    return 1 - ee * alpha - G


def gdp_profile_table():
    table = {}
    t0 = time.time()
    SEARCH_DPS = 80
    FINAL_DPS = 120
    for mu_s, eps_s in GDP_PARAMS:
        t1 = time.time()
        with mpmath.workdps(SEARCH_DPS):
            mu = mpmath.mpf(mu_s)
            ee = mpmath.exp(mpmath.mpf(eps_s))
            g = lambda t: gdp_objective(t, mu, ee)
            # coarse grid scan over t in [-25, 10]
            grid = [mpmath.mpf(k) / 4 for k in range(-100, 41)]
            gv = [g(t) for t in grid]
            k = max(range(len(grid)), key=lambda j: gv[j])
            assert 0 < k < len(grid) - 1, "maximum at grid edge"
            lo, hi = grid[k - 1], grid[k + 1]
            # golden-section search
            invphi = (mpmath.sqrt(5) - 1) / 2
            c = hi - invphi * (hi - lo)
            d = lo + invphi * (hi - lo)
            fc, fd = g(c), g(d)
            n_it = 0
            while hi - lo > mpmath.mpf(10) ** (-(SEARCH_DPS // 2 + 5)) and n_it < 400:
                n_it += 1
                if fc > fd:
                    hi, d, fd = d, c, fc
                    c = hi - invphi * (hi - lo)
                    fc = g(c)
                else:
                    lo, c, fc = c, d, fd
                    d = lo + invphi * (hi - lo)
                    fd = g(d)
            tstar = (lo + hi) / 2
            width = hi - lo
        with mpmath.workdps(FINAL_DPS):
            mu = mpmath.mpf(mu_s)
            ee = mpmath.exp(mpmath.mpf(eps_s))
            tstar = mpmath.mpf(tstar)
            v = gdp_objective(tstar, mu, ee)
            # flatness probe: objective at t* +- (final bracket width)
            vp = gdp_objective(tstar + width, mu, ee)
            vm = gdp_objective(tstar - width, mu, ee)
            spread = max(abs(v - vp), abs(v - vm))
            trust = -mpmath.log10(spread / abs(v)) if spread else mpmath.mpf(FINAL_DPS)
            v = +v
        # closed form at dps 80
        with mpmath.workdps(80):
            mu = mpmath.mpf(mu_s)
            eps = mpmath.mpf(eps_s)
            cf = mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)
            dd = check("gdp profile mu=%s eps=%s brute force vs closed form" % (mu_s, eps_s), v, cf, 30)
        trusted = int(min(float(trust), dd, FINAL_DPS))
        print("  gdp (%s,%s): %d golden iterations, t*=%s, %.2fs, trusted digits ~%d"
              % (mu_s, eps_s, n_it, mpmath.nstr(tstar, 15), time.time() - t1, trusted), flush=True)
        assert trusted >= SIG, "brute force did not reach 40 digits"
        record("GDP_PROFILE (%s, %s): grid (step 1/4 on t in [-25,10]) + golden section over "
               "t = Phi^-1(alpha) at dps %d (%d iterations, t*=%s), objective re-evaluated at dps %d; "
               "flatness-probe digits %.0f; agrees with closed form (dps 80) to %.0f digits"
               % (mu_s, eps_s, SEARCH_DPS, n_it, mpmath.nstr(tstar, 12), FINAL_DPS,
                  min(float(trust), 99), min(dd, 99)))
        table[(mu_s, eps_s)] = s(v)
    print("gdp profile: %.2fs" % (time.time() - t0), flush=True)
    return table


# ---------------------------------------------------------------------------
# 6. Uniform random sampling, f(0) = 1 - (1 - exp(-mu))/n
# ---------------------------------------------------------------------------
URS_PARAMS = [("0.1", 1), ("1", 1), ("2.5", 1), ("1", 5)]
URS_CATALOG = {"0.1": "0.980967483607", "1": "0.873575888234", "2.5": "0.816416999725"}


def urs_f0(mu_s, n):
    M = sympy.Rational(exact(mu_s))
    return 1 - (1 - sympy.exp(-M)) / n


def urs_table():
    table = {}
    for mu_s, n in URS_PARAMS:
        table[(mu_s, n)] = sym_to_str(urs_f0(mu_s, n))
    # which n reproduces the catalog numbers?
    found = {}
    for mu_s, cat in URS_CATALOG.items():
        ns = []
        for n in range(1, 101):
            v = urs_f0(mu_s, n).evalf(30, strict=True)
            if abs(v - sympy.Float(cat, 30)) < sympy.Rational(1, 10**12):
                ns.append(n)
        found[mu_s] = ns
        print("URS catalog f(0)=%s for mu=%s reproduced by n in %s" % (cat, mu_s, ns), flush=True)
        record("URS catalog f(0)=%s (mu=%s) reproduced (to 12 decimals) by n in %s" % (cat, mu_s, ns))
        for n in ns:
            table[(mu_s, n)] = sym_to_str(urs_f0(mu_s, n))
    return table, found


# ---------------------------------------------------------------------------
def fmt_table(name, table, comment):
    lines = ["# " + c for c in comment.strip().splitlines()]
    lines.append("%s = {" % name)
    for k, v in table.items():
        lines.append("    %r: %r," % (k, v))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    T0 = time.time()
    timings = {}
    t = time.time(); G = gaussian_table(); timings["gaussian"] = time.time() - t
    t = time.time(); L = laplace_table(); timings["laplace"] = time.time() - t
    t = time.time(); LG = logistic_table(); timings["logistic"] = time.time() - t
    t = time.time(); AD = approx_dp_table(); timings["approx_dp"] = time.time() - t
    t = time.time(); GP = gdp_profile_table(); timings["gdp_profile"] = time.time() - t
    t = time.time(); U, found = urs_table(); timings["urs"] = time.time() - t
    total = time.time() - T0

    doc = '''"""High-precision reference values for the trade-off-function toolkit tests.

AUTO-GENERATED -- do not edit by hand.  Regenerate (from the repository root) with:

    python tests/reference/make_references.py

Generated with mpmath %(mpv)s and sympy %(spv)s by a standalone script that does
not import the project.  All inputs are exact decimal strings (keys); all values
are decimal strings with %(sig)d significant digits (mpmath.nstr(v, %(sig)d)), with
trailing zeros dropped.  All precision is set locally with mpmath.workdps(...).

GAUSSIAN[(mu, alpha)] = {"beta": G_mu(alpha), "power": 1 - G_mu(alpha)},
    G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu).
    Method A (all alpha except 1e-100000): naive formula at working precision
    dps = 80 + 1.1*log10(1/min(alpha, 1-alpha)):  z = sqrt(2)*erfinv(1 - 2*alpha),
    beta = ncdf(z - mu), power = 1 - beta (cancellation absorbed by the extra digits).
    Method B (all alpha; the only method for alpha = 1e-100000): 400-step bisection
    at dps 60 on log(erfc(-x/sqrt2)/2) - log(alpha) for the alpha-quantile x (for
    alpha > 1/2 the complementary equation Phi(-x) = 1 - alpha, with 1 - alpha exact);
    power = erfc(-(x+mu)/sqrt2)/2, beta = erfc((x+mu)/sqrt2)/2.
    Stored values are method A where available, else method B.  A and B agree to
    >= 35 significant digits (relative) for both beta and power at every point
    (asserted).  Published checks asserted: (5, 1e-300) power = 1.2048...e-225,
    (1, 1e-1000) power = 1.6914...e-971,
    (1, 1e-300) power = 7.65717206478308680944708952631e-285 (all 30 digits).

LAPLACE[(eps, alpha)] = {"beta", "power"}: direct F(F^{-1}(1 - alpha) - eps) with the
    standard Laplace CDF F and quantile, same precision rule as Gaussian method A,
    power = 1 - beta.  Cross-checked (>= 38 digits, asserted) against the exact
    piecewise closed form evaluated in sympy (1 - e^eps a | e^-eps/(4a) | e^-eps(1-a)).

LOGISTIC[(mu, alpha)] = {"beta", "power"}: direct F(F^{-1}(1 - alpha) - mu) with
    F(x) = 1/(1+exp(-x)), same precision rule.  Cross-checked (>= 38 digits, asserted)
    against the exact sympy form beta = (1-a)/((1-a) + e^mu a).

APPROX_DP[(eps, delta, alpha)] = {"beta", "power"}:
    f(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)} on exact
    sympy Rationals (exp as sympy.exp(Rational)); the maximising branch is chosen
    by a 400-digit comparison; power = 1 - f formed exactly; evalf(40, strict=True).

GDP_PROFILE[(mu, eps)] = delta(eps) = sup_alpha (1 - e^eps alpha - G_mu(alpha)):
    brute force, no closed form: grid scan (step 1/4, t in [-25, 10]) then
    golden-section search over t with alpha = ncdf(t), G_mu evaluated naively
    (erfinv of 1 - 2 alpha) at dps 80; the objective is re-evaluated at the
    located t* at dps 120.  Asserted agreement with the closed form
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (dps 80) to >= 30 digits,
    and at least 40 trusted digits (see the check log below).

URS_F0[(mu, n)] = f(0) = 1 - p, p = (1 - exp(-mu))/n, exact sympy, evalf(40, strict=True).
    The seed paper's catalog numbers 0.980967483607, 0.873575888234, 0.816416999725
    (mu = 0.1, 1, 2.5) are reproduced by n = %(urs_n)s; those (mu, n) keys are included.

Check log (from the generating run, total runtime %(total).1f s):
%(log)s
"""
''' % dict(mpv=mpmath.__version__, spv=sympy.__version__, sig=SIG, total=total,
           urs_n=", ".join("%s: %s" % (k, v) for k, v in found.items()),
           log="\n".join("    " + l for l in CHECK_LOG))

    body = [doc]
    body.append(fmt_table("GAUSSIAN", G, "keyed by (mu, alpha)"))
    body.append(fmt_table("LAPLACE", L, "keyed by (eps, alpha)"))
    body.append(fmt_table("LOGISTIC", LG, "keyed by (mu, alpha)"))
    body.append(fmt_table("APPROX_DP", AD, "keyed by (eps, delta, alpha)"))
    body.append(fmt_table("GDP_PROFILE", GP, "keyed by (mu, eps)"))
    body.append(fmt_table("URS_F0", U, "keyed by (mu, n)"))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "values.py")
    with open(out, "w") as fh:
        fh.write("\n\n".join(body))
    print("wrote %s; timings %s; total %.1fs" % (out, {k: round(v, 1) for k, v in timings.items()}, total))


if __name__ == "__main__":
    main()
