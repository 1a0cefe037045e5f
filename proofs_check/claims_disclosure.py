"""Claims of seed 000 (de Fondeville 2026): posterior, failure class, relative risk, design.

Catalog ids from ``../shared/catalog/000-003.md`` (DF-*).  Theorem 1 and
Corollary 2 are in ``claims_foundation`` (DF-Thm1, DF-Cor2).
"""

from __future__ import annotations

import mpmath
import sympy as sp

import derive
from derive import design as D
from derive import risk as R
from derive import symbols as sy
from derive.posterior import one_minus_posterior, posterior, prior, prior_c
from derive.special import Phi, PhiInv, to_erf
from numeric import mp
from numeric import risk as NR
from numeric.inputs import alpha_exact

from .grid import ALPHA_GRID, DIGITS, mechanism_cases
from .registry import claim
from .outcomes import agreement, proven_if
from .status import CONFIRMED, FAILED, INCONCLUSIVE, PROVEN, Outcome

SOURCE = "de Fondeville (2026), arXiv:2603.12753v1"
TOL = mpmath.mpf(10) ** (-(DIGITS - 3))


def _above(a, b, tol) -> bool:
    """a > b (1 + tol), decided at 60 digits (never at the ambient 15)."""
    with mpmath.workdps(60):
        return a > b * (1 + tol)


@claim("DF-Def6", ("000",), SOURCE + ", Definitions 4 and 6", "identity",
       "Bayes' rule with P(T > phi | H1) = 1 - f(alpha) and P(T > phi | H0) = alpha gives p_post(alpha); "
       "p_post + (1 - p_post) = 1; p_post(1) = prior; sup over the prior of p_post/prior is (1 - f)/alpha")
def _def6():
    pw = sp.Symbol("power", positive=True)
    p = sp.Symbol("p", positive=True)
    bayes = pw * p / (pw * p + alpha_h0(p))
    rec = derive.gaussian()
    post = posterior(rec).subs({rec.power: pw}).xreplace({prior: p, prior_c: 1 - p})
    d1 = sp.simplify(bayes - post)
    d2 = sp.simplify((posterior(rec) + one_minus_posterior(rec)).xreplace({prior_c: 1 - prior}) - 1)
    at1 = [sp.simplify(r.bind(posterior(r)).subs(sy.alpha, 1).xreplace({prior_c: 1 - prior}) - prior)
           for r in (derive.gaussian(), derive.laplace(), derive.approx_dp(1, "1e-5"), derive.noise("logistic"),
                     derive.uniform_sampling(1, 5), derive.randomized_response(2))]
    ratio = sp.limit((post / p).subs(pw, pw), p, 0, "+")
    d4 = sp.simplify(ratio - pw / sy.alpha)
    ok = d1 == 0 and d2 == 0 and all(a == 0 for a in at1) and d4 == 0
    return _proven_ok(ok, "SymPy: Bayes(P(H1) = pi, P(T>phi|H1) = 1 - f, P(T>phi|H0) = alpha) - p_post = 0; "
                       "p_post + (1 - p_post) - 1 = 0; p_post(1) - pi = 0 for gaussian, laplace, logistic "
                       "(symbolic), f_{1,1e-5}, URS(1, 5), RR(2) (f(1) = 0); lim_{pi->0} p_post/pi = (1 - f)/alpha "
                       "(Definition 7: the sup over the prior is the limit pi -> 0)",
                   (d1, d2, at1, d4))


def _proven_ok(ok: bool, detail: str, left=None) -> Outcome:
    return proven_if({"all": True if ok else left}, detail)


def alpha_h0(p):
    """P(T > phi and H0) = alpha (1 - p): the level of the test times P(H0)."""
    return sy.alpha * (1 - p)


@claim("DF-Thm2", ("000",), SOURCE + ", Theorem 2 and Definition 7 (catalog DF-Thm2)", "limit",
       "rho = sup (1 - f(alpha))/alpha equals lim_{alpha->0+} (1 - f(alpha))/alpha; rho < inf iff that "
       "limit is finite; SymPy's limit agrees with (1 - f)/alpha at alpha = 1e-300 (finite rho) and the "
       "ratio grows without bound down to 1e-1000 (infinite rho)")
def _thm2():
    points, worst, lines = 0, mpmath.mpf(0), []
    for label, rec in mechanism_cases():
        lim = R.rho(rec)
        finite = lim.value is not sp.oo
        ratios = []
        for a in ALPHA_GRID[1:]:
            with mpmath.workdps(DIGITS + 10):
                ratios.append(mp.power(rec, a, DIGITS) / alpha_exact(a).mpf())
            points += 1
        # non-increasing in alpha (the grid is increasing from index 0)
        for i in range(len(ratios) - 1):
            if _above(ratios[i + 1], ratios[i], TOL):
                return Outcome(FAILED, counterexample={"case": label, "alpha": ALPHA_GRID[i + 2],
                                                       "ratio": str(ratios[i + 1]), "before": str(ratios[i])})
        if finite:
            rho = mp.evaluate(lim.value, {}, DIGITS)
            with mpmath.workdps(DIGITS + 10):
                err = abs(ratios[1] - rho) / rho
            if err > TOL or any(_above(r, rho, TOL) for r in ratios):
                return Outcome(FAILED, counterexample={"case": label, "rho": str(rho), "ratio_1e-300": str(ratios[1])})
            worst = max(worst, err)
        elif not ratios[0] > 2 * ratios[1]:
            return Outcome(FAILED, counterexample={"case": label, "rho": "oo", "ratio_1e-1000": str(ratios[0])})
        lines.append(f"{label}: rho = {lim.value}")
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="(1 - f)/alpha non-increasing on the grid 1e-1000..1; " + "; ".join(lines))


@claim("DF-Table1", ("000",), SOURCE + ", Table 1 and Theorems 1-2 (catalog DF-Table1)", "identity",
       "Laplace: f(0) = 1, rho = e^eps < inf, no failure; Gaussian: f(0) = 1, rho = inf, graceful; "
       "URS: f(0) = 1 - (1 - e^-mu)/n < 1, catastrophic (f(0) and rho by SymPy limits)")
def _table1():
    rows = []
    for name, rec, want in (("laplace(eps=1)", derive.laplace(1), R.NONE),
                            ("laplace(eps=2.5)", derive.laplace("2.5"), R.NONE),
                            ("gaussian(mu=1)", derive.gaussian(1), R.GRACEFUL),
                            ("gaussian(mu=0.1)", derive.gaussian("0.1"), R.GRACEFUL),
                            ("uniform-sampling(mu=1, n=5)", derive.uniform_sampling(1, 5), R.CATASTROPHIC),
                            ("uniform-sampling(mu=2.5, n=100)", derive.uniform_sampling("2.5", 100), R.CATASTROPHIC)):
        cls = NR.classify(rec)
        if cls["failure"] != want:
            return Outcome(FAILED, counterexample={"case": name, "failure": cls["failure"], "paper": want})
        rows.append(f"{name}: f(0) = {cls['f0'].value}, rho = {cls['rho'].value} -> {cls['failure']}")
    lap = D.rho_of_parameter(derive.laplace()).value
    urs = R.f_at_zero(derive.uniform_sampling()).value
    printed = 1 - (1 - sp.exp(-sy.mu)) / sy.n
    urs_ok = any(sp.simplify((a - printed).rewrite(sp.exp)) == 0
                 for a in (urs.args if isinstance(urs, sp.Max) else (urs,)))
    if sp.simplify(lap - sp.exp(sy.eps)) != 0 or not urs_ok:
        return Outcome(INCONCLUSIVE, detail=f"symbolic: laplace rho {lap}, URS f(0) {urs}")
    return Outcome(PROVEN, margin="0", detail="SymPy limits (derive.risk): rho(laplace) = exp(eps) for every "
                   "eps > 0, URS f(0) = 1 - (1 - e^-mu)/n; " + "; ".join(rows))


@claim("DF-rho-a0", ("000",), SOURCE + ", Section 4 (catalog DF-rho-a0)", "identity",
       "sup over alpha in [alpha0, 1] of (1 - f(alpha))/alpha is attained at alpha0, for every mechanism "
       "(brute force over 60 log-spaced alphas in [alpha0, 1])")
def _rho_a0():
    points = 0
    for label, rec in mechanism_cases():
        for a0 in ("1e-3", "0.01", "0.3"):
            with mpmath.workdps(DIGITS + 10):
                at0 = mp.power(rec, a0, 20) / alpha_exact(a0).mpf()
                lo = mpmath.log10(mpmath.mpf(a0))
                for j in range(1, 61):
                    a = mpmath.nstr(mpmath.power(10, lo * (1 - mpmath.mpf(j) / 60)), 25)
                    if mpmath.mpf(a) > 1:
                        continue
                    v = mp.power(rec, a, 20) / mpmath.mpf(a)
                    points += 1
                    if v > at0 * (1 + mpmath.mpf(10) ** -18):
                        return Outcome(FAILED, counterexample={"case": label, "alpha0": a0, "alpha": a,
                                                               "ratio": str(v), "at_alpha0": str(at0)})
    return Outcome(CONFIRMED, margin="0", points=points,
                   detail="no alpha in (alpha0, 1] beats alpha0, for alpha0 in {1e-3, 0.01, 0.3} and every case")


@claim("DF-post-sup", ("000",), SOURCE + ", Definition 6 and Table 1 (catalog DF-Def6)", "identity",
       "sup_alpha p_post = pi rho/(pi rho + 1 - pi) for finite rho (not attained), 1 otherwise "
       "(attained iff f(0) < 1): p_post on the grid never exceeds it and reaches it at alpha = 1e-300")
def _post_sup():
    rows, points = [], 0
    for label, rec in mechanism_cases():
        for p in ("1e-15", "0.5", "0.999999999999999"):
            r = NR.risk(rec, "0.5", p, 20)
            down = r["one_minus_posterior_sup"]
            for a in ALPHA_GRID[1:]:
                got = NR.posterior(rec, p, a, 20)
                points += 1
                if not got["one_minus_posterior"] > 0 or \
                        (r["failure"] == R.NONE and _above(down, got["one_minus_posterior"], TOL)):
                    return Outcome(FAILED, counterexample={"case": label, "prior": p, "alpha": a,
                                                           "1-p_post": str(got["one_minus_posterior"]),
                                                           "1-sup": str(down)})
            if r["failure"] == R.NONE:
                near = NR.posterior(rec, p, "1e-300", 20)["one_minus_posterior"]
                rows.append(({"case": label, "prior": p}, near, down))
            elif r["posterior_sup_attained"] != (r["failure"] == R.CATASTROPHIC) or \
                    r["posterior_sup_attained"] != (mp.tradeoff(rec, "0", 20) < 1):
                return Outcome(FAILED, counterexample={"case": label, "prior": p, "failure": r["failure"],
                                                       "attained": r["posterior_sup_attained"]})
    return agreement(rows, mpmath.mpf(10) ** -18,
                     "1 - p_post(1e-300) equals 1 - sup (finite rho); otherwise the sup 1 is attained "
                     "iff f(0) < 1 (numerically) iff the class is catastrophic; priors 1e-15, 0.5, 1 - 1e-15",
                     extra_points=points)


@claim("DF-Cor1", ("000",), SOURCE + ", Corollary 1 (catalog DF-Cor1)", "limit",
       "for log-concave location noise rho = lim_{t->oo} Fbar(t - mu)/Fbar(t): e^mu for Laplace and "
       "logistic noise, oo for Gaussian noise; equal to the limit of (1 - f)/alpha")
def _cor1():
    t = sp.Symbol("t", positive=True)
    mu_ = sp.Symbol("mu", positive=True)
    fbar = {"laplace": sp.exp(-t) / 2, "logistic": 1 / (1 + sp.exp(t)),
            "gaussian": sp.erfc(t / sp.sqrt(2)) / 2}
    want = {"laplace": sp.exp(mu_), "logistic": sp.exp(mu_), "gaussian": sp.oo}
    lines = []
    for fam, fb in fbar.items():
        lim = sp.limit(fb.subs(t, t - mu_) / fb, t, sp.oo)
        if lim.has(sp.Limit):   # both tails -> 0: L'Hopital, the ratio of the densities
            lim = sp.limit(sp.diff(fb.subs(t, t - mu_), t) / sp.diff(fb, t), t, sp.oo)
        via_f = D.rho_of_parameter(derive.noise(fam)).value
        via_f = via_f.xreplace({sy.mu: mu_}) if via_f is not sp.oo else via_f
        if sp.simplify(lim - want[fam]) != 0 if lim is not sp.oo else want[fam] is not sp.oo:
            return Outcome(INCONCLUSIVE, detail=f"{fam}: limit {lim}")
        if (via_f is sp.oo) != (lim is sp.oo) or (lim is not sp.oo and sp.simplify(via_f - lim) != 0):
            return Outcome(FAILED, counterexample={"family": fam, "tail ratio": str(lim), "rho": str(via_f)})
        lines.append(f"{fam}: {lim}")
    return Outcome(PROVEN, margin="0", detail="sympy.limit of the tail ratio (the upper tail for t >= mu), "
                   "and derive.risk.rho of the noise record: " + "; ".join(lines))


def _reflect(expr):
    """PhiInv(1 - y) -> -PhiInv(y): the symmetry of the normal quantile (Phi(-x) = 1 - Phi(x))."""
    def flip(e):
        arg = e.args[0]
        rest = sp.expand(1 - arg)
        if rest.could_extract_minus_sign():
            return e
        return -PhiInv(rest) if sp.count_ops(rest) < sp.count_ops(arg) or arg.is_Add else e
    return expr.replace(lambda e: isinstance(e, PhiInv) and sp.expand(e.args[0]).is_Add, flip)


@claim("DF-Fig4:gaussian", ("000",), SOURCE + ", Section 5.1 and Fig. 4 (catalog DF-rho-a0, DF-Fig4)", "identity",
       "Gaussian: 1 - f(alpha0) = V iff mu = PhiInv(V) - PhiInv(alpha0) = z_{1-alpha0} + z_{1-beta0}; "
       "rho_alpha0 = R iff mu = PhiBarInv(alpha0) + PhiInv(R alpha0)")
def _fig4_gauss():
    roots = D.power_roots(derive.gaussian())
    if len(roots) != 1:
        return Outcome(INCONCLUSIVE, detail=f"roots {roots}")
    root = roots[0][0]
    back = derive.gaussian().power.subs(sy.alpha, D.alpha0).subs(sy.mu, root)
    R_ = sp.Symbol("R", positive=True)
    printed_power = PhiInv(1 - D.alpha0) + PhiInv(D.target)      # z_{1-alpha0} + z_{1-beta0}, beta0 = 1 - V
    printed_rho = PhiInv(1 - D.alpha0) + PhiInv(R_ * D.alpha0)
    d1 = sp.simplify(to_erf(back) - D.target)
    d2 = sp.simplify(_reflect(root - printed_power))
    d3 = sp.simplify(_reflect(root.subs(D.target, R_ * D.alpha0) - printed_rho))
    return _proven_ok(d1 == 0 and d2 == 0 and d3 == 0,
                   f"SymPy root {root}; substituted back the power is V; equal to the catalog's two forms "
                   "(PhiInv(1 - x) = -PhiInv(x))", (d1, d2, d3))


@claim("DF-Fig4:laplace", ("000",), SOURCE + ", Fig. 4 (catalog DF-Fig4, three cases)", "identity",
       "Laplace: f(alpha0) = beta0 iff eps = ln((1-beta0)/alpha0) (beta0 > 1/2), -ln(4 alpha0 beta0) "
       "(beta0 <= 1/2, alpha0 <= 1/2), ln((1-alpha0)/beta0) (alpha0 > 1/2)")
def _fig4_laplace():
    b = sp.Symbol("beta_0", positive=True)
    roots = [r.subs(D.target, 1 - b) for r, _ in D.power_roots(derive.laplace())]
    b0 = b
    printed = [sp.log((1 - b0) / D.alpha0), -sp.log(4 * D.alpha0 * b0), sp.log((1 - D.alpha0) / b0)]
    if len(roots) != 3:
        return Outcome(INCONCLUSIVE, detail=f"roots {roots}")
    diffs = [sp.simplify(sp.exp(r) - sp.exp(p)) for r, p in zip(roots, printed)]   # exp is injective
    # the conditions, checked at exact points of each regime
    cases = [((sp.Rational(1, 100), sp.Rational(3, 10)), 0), ((sp.Rational(1, 10), sp.Rational(7, 10)), 1),
             ((sp.Rational(7, 10), sp.Rational(9, 10)), 2)]
    conds = D.power_roots(derive.laplace())
    picked = []
    for (a0, v), want in cases:
        ok = [bool(c.xreplace({D.alpha0: a0, D.target: v})) for _, c in conds]
        picked.append(ok.index(True) == want)
    return _proven_ok(all(d == 0 for d in diffs) and all(picked),
                   "SymPy solves each piece of 1 - f(alpha0) = V: the three roots equal the printed cases "
                   "and each one's validity condition selects it in its regime", (diffs, picked))


@claim("DF-Eq9", ("000",), SOURCE + ", Eqs. 7-9 (catalog DF-Eq7-Eq9)", "identity",
       "the one-sided level-alpha Z-test on Xbar + N(0, Delta_q^2/mu^2) has power "
       "PhiBar(z_{1-alpha} - m/sigma_n) with sigma_n^2 = sigma^2/n + Delta_q^2/mu^2; the unprotected power "
       "is its limit mu -> oo; the SymPy root for mu gives back the target power")
def _eq9():
    s = sp.Symbol("s", positive=True)
    x = sp.Symbol("x", real=True)
    thr = s * sp.Symbol("c", real=True)       # reject when Q > c sigma_n, c = z_{1-alpha}
    dens = sp.exp(-(x - D.m)**2 / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    pw = sp.integrate(dens, (x, thr, sp.oo))
    printed = 1 - Phi(sp.Symbol("c", real=True) - D.m / s)
    d1 = sp.simplify(to_erf(printed) - pw)
    ours = D.ztest_power.subs(D.sigma_n, s)
    ours = ours.subs(sp.sqrt(D.sigma**2 / sy.n + D.delta_q**2 / sy.mu**2), s)
    d2 = sp.simplify(to_erf(ours.subs(PhiInv(sy.alpha), -sp.Symbol("c", real=True))) - pw)
    root = [r for r, _ in D.ztest_mu_roots()]
    vals = {sy.n: 100, D.sigma: 1, D.m: sp.Rational(3, 10), sy.alpha: sp.Rational(1, 20), D.delta_q: sp.Rational(1, 100),
            D.target: sp.Rational(4, 5)}
    back = [mp.evaluate(D.ztest_power.subs(sy.mu, r).xreplace(vals), {}, 25) for r in root
            if mp.evaluate(r.xreplace(vals), {}, 20) > 0]
    with mpmath.workdps(40):
        ok_back = len(back) == 1 and abs(back[0] - mpmath.mpf(8) / 10) < mpmath.mpf(10) ** -22
    return _proven_ok(d1 == 0 and d2 == 0 and ok_back,
                   "SymPy integrates the N(m, sigma_n^2) density above z_{1-alpha} sigma_n: equal to "
                   "PhiBar(z_{1-alpha} - m/sigma_n) (erf form) and to derive.design.ztest_power; the positive "
                   "SymPy root for mu gives power 0.8 back to 22 digits at n=100, sigma=1, m=0.3, alpha=0.05",
                   (d1, d2, back))
