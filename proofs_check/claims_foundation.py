"""The foundation's claims: trade-off axioms, stable == printed forms, the GDP
profile, Theorem 1 and Corollary 2 of de Fondeville (2026).

Catalog ids (``../shared/catalog``) are used where the catalog has one; claims
that check this toolkit's own derivations carry the prefix ``DD-``.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

import mpmath
import sympy as sp

import derive
from derive import symbols as sy
from derive.mechanisms.laplace import LAPLACE_CDF, LAPLACE_QUANTILE
from derive.operations import derive_profile
from derive.posterior import one_minus_posterior, prior, prior_c
from derive.special import Phi, PhiInv, to_erf
from derive.tradeoff import eps_prime
from numeric import mp
from numeric.bridge import Exact, compile_mp, exact_of
from numeric.inputs import alpha_exact, bound_env
from numeric.precision import verified

from .grid import ALPHA_GRID, DIGITS, mechanism_cases
from .registry import claim
from .outcomes import agreement
from .status import CONFIRMED, FAILED, INCONCLUSIVE, PROVEN, Outcome

TOL = mpmath.mpf(10) ** (-(DIGITS - 3))


def _fmt(x) -> str:
    return mpmath.nstr(x, 3) if x is not None else None


def _groups():
    out = defaultdict(list)
    for label, rec in mechanism_cases():
        key = rec.name if rec.name != "uniform-sampling" else rec.name + ":" + rec.notes.split("=")[1]
        out[key].append((label, rec))
    return out


def _grid_values(rec):
    f = [mp.tradeoff(rec, a, DIGITS) for a in ALPHA_GRID]
    p = [mp.power(rec, a, DIGITS) for a in ALPHA_GRID]
    with mpmath.workdps(DIGITS + 20):
        al = [alpha_exact(a).mpf() for a in ALPHA_GRID]
    return al, f, p


# ------------------------------------------------------------------ axioms
def _axioms(cases) -> Outcome:
    worst, points = None, 0
    with mpmath.workdps(DIGITS + 20):
        for label, rec in cases:
            al, f, p = _grid_values(rec)
            points += len(al)
            if f[-1] != 0:
                return Outcome(FAILED, counterexample={"case": label, "alpha": "1", "f": str(f[-1])},
                               detail="f(1) != 0")
            for text, fa in zip(ALPHA_GRID, f):
                if fa < 0 or fa > 1:
                    return Outcome(FAILED, detail="f outside [0, 1]",
                                   counterexample={"case": label, "alpha": text, "f": str(fa)})
            slopes = []
            for i in range(len(al) - 1):
                # f_i - f_{i+1}, from the complement where f is near 1
                if p[i + 1] <= 0.5:
                    d, scale = p[i + 1] - p[i], abs(p[i + 1])
                else:
                    d, scale = f[i] - f[i + 1], abs(f[i])
                if scale == 0:
                    continue
                slack = d / scale
                if slack < -TOL:
                    return Outcome(FAILED, detail="f increases",
                                   counterexample={"case": label, "alpha": ALPHA_GRID[i + 1]})
                worst = slack if worst is None else min(worst, slack)
                # a chord is resolved when its difference exceeds the verified resolution
                if abs(slack) > TOL * 10:
                    slopes.append((i, -d / (al[i + 1] - al[i])))
            # chord slopes of a convex function are non-decreasing (unresolved chords skipped)
            for (i, s_left), (j, s_right) in zip(slopes, slopes[1:]):
                gap = (s_right - s_left) / max(abs(s_left), abs(s_right), 1)
                if gap < -TOL * 1000:
                    return Outcome(FAILED, detail="f not convex (chord slopes decrease)",
                                   counterexample={"case": label, "alpha": ALPHA_GRID[j],
                                                   "slope_left": _fmt(s_left),
                                                   "slope_right": _fmt(s_right)})
            for a, pa, text in zip(al, p, ALPHA_GRID):
                if a > 0:
                    slack = (pa - a) / a
                    if slack < -TOL:
                        return Outcome(FAILED, detail="f(alpha) > 1 - alpha",
                                       counterexample={"case": label, "alpha": text})
    return Outcome(CONFIRMED, margin=_fmt(max(worst, 0)), points=points,
                   detail=f"f(1) = 0, non-increasing, convex (slopes), f <= 1 - alpha on "
                          f"{len(ALPHA_GRID)} alphas in [0, 1] (down to 1e-1000) at {DIGITS} digits; "
                          f"cases: " + "; ".join(lbl for lbl, _ in cases))


for _key, _cases in _groups().items():
    claim(f"DRS-Prop2.2:{_key}", ("000", "004"),
          "Dong, Roth, Su (2022) Prop. 2.2; de Fondeville (2026) Def. 2 (catalog DF-Def2, DRS-Prop2.2)",
          "inequality",
          f"the {_key} trade-off function is convex, non-increasing, f(alpha) <= 1 - alpha, f(1) = 0")(
        (lambda cases: lambda: _axioms(cases))(_cases))


# -------------------------------------------------------------- complement
def _complement(cases, symbolic) -> Outcome:
    if symbolic is not None:
        diff = sp.simplify(to_erf(symbolic.tradeoff + symbolic.power) - 1)
        if diff == 0:
            return Outcome(PROVEN, margin="0", detail="f + (1 - f) simplifies to 1 (SymPy, erf rewrite)")
    worst, points = mpmath.mpf(0), 0
    with mpmath.workdps(DIGITS + 20):
        for label, rec in cases:
            _, f, p = _grid_values(rec)
            for a, fa, pa in zip(ALPHA_GRID, f, p):
                points += 1
                err = abs(fa + pa - 1)
                if err > mpmath.mpf(10) ** (-(DIGITS - 2)):
                    return Outcome(FAILED, counterexample={"case": label, "alpha": a,
                                                           "f+power-1": _fmt(err)})
                worst = max(worst, err)
    # relative accuracy in the tails: the small side against 1 - (the other side) of the naive
    # printed form, evaluated with textbook kernels at enough extra digits to absorb the subtraction
    rel_worst = mpmath.mpf(0)
    for label, rec in cases:
        naive = compile_mp(rec.bind(rec.paper), naive=True)
        for a, small in (("1e-300", "power"), ("1e-30", "power"), ("1e-5", "power"), ("0.9999999999", "tradeoff")):
            ours = getattr(mp, small)(rec, a, 25)
            r = sp.Rational(a)
            dps = 40 + int(1.2 * max(-mpmath.log10(mpmath.mpf(r.p) / r.q),
                                     -mpmath.log10(1 - mpmath.mpf(r.p) / r.q)))
            with mpmath.workdps(dps):
                env = bound_env(rec)
                env[sy.alpha] = exact_of(r)
                f_naive = naive(env)
                f_naive = f_naive.mpf() if isinstance(f_naive, Exact) else f_naive
                ref = 1 - f_naive if small == "power" else f_naive
                floor = mpmath.mpf(10) ** -(dps - 10)
                if abs(ref) < floor:
                    # the naive value is zero up to its own rounding: ours must be (exactly) zero too
                    err = mpmath.mpf(0) if ours == 0 else mpmath.mpf(1)
                else:
                    err = abs(ours - ref) / abs(ref)
            points += 1
            if err > mpmath.mpf(10) ** -23:
                return Outcome(FAILED, counterexample={"case": label, "alpha": a, small: str(ours),
                                                       "naive": str(ref)})
            rel_worst = max(rel_worst, err)
    return Outcome(CONFIRMED, margin=_fmt(worst), points=points,
                   detail=f"|f + power - 1| <= {_fmt(worst)} with both sides verified to {DIGITS} digits; "
                          f"relative error of the small side (power at alpha = 1e-300, 1e-30, 1e-5; f at "
                          f"1 - 1e-10) vs the naive printed form at extra precision <= {_fmt(rel_worst)}")


_SYMBOLIC = {"gaussian": derive.gaussian(), "classical-gaussian": derive.classical_gaussian(),
             "noise": derive.noise("logistic")}
for _key, _cases in _groups().items():
    claim(f"DD-complement:{_key}", ("000",), "dp-derive: power written without 1 - f",
          "identity", f"the stored power of {_key} equals 1 - f(alpha)")(
        (lambda cases, sym: lambda: _complement(cases, sym))(_cases, _SYMBOLIC.get(_key)))


# ------------------------------------------------------------ paper forms
@claim("DF-G", ("000", "004"), "de Fondeville (2026) Example 2; Dong, Roth, Su (2022) Eq. 2.2",
       "identity", "Phi(Phi^{-1}(1 - alpha) - mu) = Phi(-Phi^{-1}(alpha) - mu) (stable form)")
def _gaussian_paper_form():
    g = derive.gaussian()
    a = sy.alpha
    # lemma 1: Phi(-PhiInv(a)) = 1 - a (erf rewrite: erf odd, erf(erfinv(y)) = y)
    lemma1 = sp.simplify(to_erf(Phi(-PhiInv(a))) - (1 - a)) == 0
    # lemma 2: Phi is strictly increasing (its derivative is positive), hence injective,
    # so Phi(PhiInv(1 - a)) = 1 - a = Phi(-PhiInv(a)) gives PhiInv(1 - a) = -PhiInv(a)
    lemma2 = sp.diff(Phi(sy.x), sy.x).is_positive
    # with PhiInv(1 - a) = -PhiInv(a) substituted, the printed form is the stable one
    closed = g.paper.xreplace({PhiInv(1 - a): -PhiInv(a)}) == g.tradeoff
    if lemma1 and lemma2 and closed:
        return Outcome(PROVEN, margin="0",
                       detail="Phi(-PhiInv(a)) = 1 - a (SymPy, erf rewrite); Phi' > 0 (SymPy); "
                              "hence PhiInv(1 - a) = -PhiInv(a), which maps the printed form onto the stable one")
    return Outcome(INCONCLUSIVE, detail=f"lemma1={lemma1}, lemma2={lemma2}, substitution={closed}")


@claim("DF-URS:add-remove", ("000",), "catalog DF-URS (b)", "identity",
       "1 - p - e^-mu - (n-1)/n (alpha - e^-mu) = (n-1)(1 - alpha)/n (stable second piece)")
def _urs_add_remove_form():
    r = derive.uniform_sampling(neighbours="add-remove")
    pieces = [sp.simplify((u.args[1][0] - v.args[1][0]).rewrite(sp.exp)) for u, v in [(r.paper, r.tradeoff)]]
    first = sp.simplify(r.paper.args[0][0] - r.tradeoff.args[0][0])
    if pieces == [0] and first == 0 and r.paper.args[0][1] == r.tradeoff.args[0][1]:
        return Outcome(PROVEN, margin="0", detail="both pieces simplify to equal (SymPy), same breakpoint")
    return Outcome(INCONCLUSIVE, detail=f"differences {first}, {pieces}")


@claim("DF-Eq-tradeoff:logistic", ("000",),
       "de Fondeville (2026) appendix, log-concave families (catalog DF-Eq-tradeoff)", "identity",
       "F(F^{-1}(1 - alpha) - mu) = F(-F^{-1}(alpha) - mu) for the logistic F (stable form)")
def _logistic_paper_form():
    r = derive.noise("logistic")
    diff = sp.simplify(r.paper - r.tradeoff)
    if diff == 0:
        return Outcome(PROVEN, margin="0", detail="sympy.simplify(paper - stable) == 0")
    return Outcome(INCONCLUSIVE, detail=f"SymPy left {diff}")


@claim("DF-Lap", ("000", "004"), "catalog DF-Lap (Dong, Roth, Su appendix; seed 000 'Lemma A.6')",
       "identity", "the three-piece Laplace form equals F(F^{-1}(1 - alpha) - eps), F the Laplace CDF")
def _laplace_from_definition():
    e = sy.eps
    definition = LAPLACE_CDF.subs(sy.x, LAPLACE_QUANTILE.subs(sy.p, 1 - sy.alpha) - e)
    derived = sp.piecewise_fold(definition)
    fn = compile_mp(derived)

    def rows():
        for eps in ("0", "0.1", "1", "2.5", "10"):
            rec = derive.laplace(eps)
            for a in ALPHA_GRID:
                env = {sy.eps: exact_of(sp.Rational(eps)), sy.alpha: alpha_exact(a)}
                yield {"eps": eps, "alpha": a}, verified(lambda: fn(env), DIGITS), mp.tradeoff(rec, a, DIGITS)
    return agreement(rows(), mpmath.mpf(10) ** (-(DIGITS - 2)),
                     "SymPy composes F(F^{-1}(1-alpha)-eps) (piecewise_fold); equal to the closed "
                     f"form to {DIGITS} digits for eps in {{0, 0.1, 1, 2.5, 10}} on the alpha grid")


# ------------------------------------------------------------ GDP profile
def _gdp_printed():
    m, e = sy.mu, eps_prime
    return Phi(-e / m + m / 2) - sp.exp(e) * Phi(-e / m - m / 2)


@claim("DRS-Cor2.13", ("004",), "Dong, Roth, Su (2022) Cor. 2.13 (catalog DRS-Cor2.13)", "identity",
       "sup_alpha (1 - e^eps alpha - G_mu(alpha)) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), "
       "derived from the stationary point")
def _gdp_profile_symbolic():
    derived = derive_profile(derive.gaussian().power)
    if derived is None:
        return Outcome(INCONCLUSIVE, detail="SymPy found no unique stationary point")
    diff = sp.simplify(derived - _gdp_printed())
    # the stationary point is the maximum: power is concave (second derivative < 0)
    z = sy.z
    curvature = sp.simplify(sp.diff(derive.gaussian().power, sy.alpha, 2).subs(PhiInv(sy.alpha), z))
    concave = sp.simplify(curvature * sp.exp(z**2)).is_nonpositive
    if diff == 0 and concave:
        return Outcome(PROVEN, margin="0",
                       detail="power' = e^eps solved in z = PhiInv(alpha): z = -eps/mu - mu/2; "
                              "value simplifies to the printed form; power'' <= 0 (SymPy)")
    return Outcome(INCONCLUSIVE, detail=f"difference {diff}; concavity decided: {concave}")


def _profile_numeric(cases) -> Outcome:
    def rows():
        for label, rec, eps_list in cases:
            bare = dataclasses.replace(rec, profile=None)
            for eps in eps_list:
                yield {"case": label, "eps": eps}, mp.profile_delta(bare, eps, 20), mp.profile_delta(rec, eps, 20)
    return agreement(rows(), mpmath.mpf(10) ** -18,
                     "closed form (reference) vs numerical supremum of 1 - f(alpha) - e^eps alpha "
                     "(golden section in log alpha plus breakpoints), 20 digits each")


@claim("DRS-Prop2.12:gaussian", ("000", "004"), "Dong, Roth, Su (2022) Prop. 2.12 and Cor. 2.13",
       "identity", "delta(eps) = 1 + G_mu*(-e^eps) equals the closed form, numerically")
def _gdp_profile_numeric():
    cases = [(f"gaussian(mu={m})", derive.gaussian(m), ("0", "0.5", "1", "3", "10"))
             for m in ("0.5", "1", "2")]
    return _profile_numeric(cases)


@claim("DD-profile:pure-and-approx", ("000", "004"),
       "dp-derive: profiles of laplace, f_{eps,delta}, randomized response, URS (derived here)",
       "identity", "the derived closed-form profiles equal 1 + f*(-e^eps) computed numerically")
def _other_profiles():
    eps_list = ("0", "0.25", "1", "2", "4")
    cases = [("laplace(eps=1)", derive.laplace(1), eps_list),
             ("laplace(eps=3)", derive.laplace(3), eps_list),
             ("approx-dp(eps=1, delta=1e-5)", derive.approx_dp(1, "1e-5"), eps_list),
             ("randomized-response(eps=2)", derive.randomized_response(2), eps_list),
             ("uniform-sampling(mu=1, n=5)", derive.uniform_sampling(1, 5), eps_list)]
    return _profile_numeric(cases)


@claim("DRS-dual-primal:gaussian", ("004",),
       "Dong, Roth, Su (2022) Prop. 2.12 (dual to primal), catalog ref collection_sup_G1_alpha0.05",
       "identity", "G_mu(alpha) = sup_eps f_{eps, delta(eps)}(alpha)")
def _dual_primal():
    rec = derive.gaussian(1)
    profile = rec.bind(rec.profile)
    rows = (({"alpha": a}, mp.tradeoff_from_profile(profile, a, 20), mp.tradeoff(rec, a, 20))
            for a in ("1e-10", "0.05", "0.3", "0.7"))
    return agreement(rows, mpmath.mpf(10) ** -18, "mu = 1, alpha in {1e-10, 0.05, 0.3, 0.7}, 20 digits")


# ------------------------------------------------------- Theorem 1, Cor. 2
PRIORS = ("1e-15", "0.5", "0.999999999999999")


@claim("DF-Thm1", ("000",), "de Fondeville (2026) Theorem 1 (catalog DF-Thm1)", "iff",
       "for every prior in (0,1): the posterior reaches 1 (at alpha = 0) iff f(0) < 1")
def _theorem1():
    points, detail = 0, []
    for label, rec in mechanism_cases():
        f0 = mp.tradeoff(rec, "0", DIGITS)
        catastrophic_f = f0 < 1
        expr = rec.bind(one_minus_posterior(rec))
        fn = compile_mp(expr)
        for pi_text in PRIORS:
            pi = sp.Rational(pi_text)
            env = bound_env(rec)
            env.update({prior: exact_of(pi), prior_c: exact_of(1 - pi)})
            env[sy.alpha] = Exact(0)
            try:
                at0 = verified(lambda: fn(env), DIGITS)
                attained = isinstance(at0, Exact) and at0.p == 0
            except ZeroDivisionError:
                attained = False   # 0/0: f(0) = 1, the posterior is undefined at alpha = 0
            positive_elsewhere = True
            for a in ALPHA_GRID[1:]:
                env[sy.alpha] = alpha_exact(a)
                v = verified(lambda: fn(env), 10)
                points += 1
                if not (v > 0 if not isinstance(v, Exact) else v.p > 0):
                    positive_elsewhere = False
            if attained != catastrophic_f or not positive_elsewhere:
                return Outcome(FAILED, counterexample={"case": label, "prior": pi_text, "f0": str(f0),
                                                       "posterior_1_at_0": attained})
        detail.append(f"{label}: f(0) {'< 1' if catastrophic_f else '= 1'}")
    return Outcome(CONFIRMED, points=points, margin=None,
                   detail="1 - p_post(0) = 0 exactly iff f(0) < 1; 1 - p_post(alpha) > 0 on the grid "
                          f"alpha > 0 for priors {PRIORS}; " + "; ".join(detail))


@claim("DF-Cor2", ("000",), "de Fondeville (2026) Corollary 2 (catalog DF-Cor2)", "inequality",
       "every eps-DP mechanism has rho = sup (1 - f(alpha))/alpha <= e^eps")
def _corollary2():
    worst, points = None, 0
    cases = [(lbl, r) for lbl, r in mechanism_cases() if r.pure_eps is not None]
    for label, rec in cases:
        eps = rec.bind(rec.pure_eps)
        with mpmath.workdps(DIGITS + 20):
            bound = mpmath.exp(mpmath.mpf(eps.p) / eps.q)
            for a in ALPHA_GRID[1:]:
                pw = mp.power(rec, a, DIGITS)
                ratio = pw / alpha_exact(a).mpf()
                slack = (bound - ratio) / bound
                points += 1
                if slack < -TOL:
                    return Outcome(FAILED, counterexample={"case": label, "alpha": a,
                                                           "ratio": str(ratio), "e^eps": str(bound)})
                worst = slack if worst is None else min(worst, slack)
    return Outcome(CONFIRMED, margin=_fmt(max(worst, 0)), points=points,
                   detail="(1 - f(alpha))/alpha <= e^eps on the grid for: " + ", ".join(l for l, _ in cases)
                          + " (equality at small alpha is attained by Laplace and f_{eps,0})")
