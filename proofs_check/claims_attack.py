"""Claims of seed 001 (Liu, He, Chanyaswad, Wang, Mittal 2019) and the AUC closed forms.

Ids from ``../shared/catalog/001.md`` (LXM-*) and ``000-003.md`` (DF-AUC).
Statements whose text was lost in the extraction and that need notions this
toolkit does not model (Thm 4, Thm 7, Props 1-2) are registered as
INCONCLUSIVE with the reason, not left out.
"""

from __future__ import annotations

import dataclasses

import mpmath
import sympy as sp

import derive
from derive import attack as A
from derive import symbols as sy
from derive.auc import derive_auc, printed_auc
from numeric import attack as N
from numeric import mp
from numeric.auc import auc, auc_quadrature
from numeric.inputs import alpha_exact

from .registry import claim
from .outcomes import agreement
from .status import CONFIRMED, FAILED, INCONCLUSIVE, PROVEN, Outcome

SOURCE = "Liu, He, Chanyaswad, Wang, Mittal (2019) PoPETs 2019(3)"


@claim("LXM-Eq24", ("001",), SOURCE + ", Eq. 24 and Eq. 12 (w = 1), App. 10.3 / 10.5", "identity",
       "max over the threshold of F_beta for the Laplace mechanism with weight w is Eq. 24, "
       "with the turning point eps = log(1 + beta^2/w)")
def _eq24():
    d = A.laplace_fscore_optimum()
    printed = A.printed_eq24()
    ok_tau = sp.simplify(d["tau"] - sp.log(1 + A.beta**2 / A.w)) == 0
    ok_int = sp.simplify(d["interior"] - printed.args[1][0]) == 0
    ok_end = sp.simplify(d["endpoint"] - printed.args[0][0]) == 0
    ok_arg = sp.simplify(d["alpha_star"] - A.printed_alpha_star()) == 0
    if ok_tau and ok_int and ok_end and ok_arg:
        return Outcome(PROVEN, margin="0",
                       detail="SymPy: dF/dalpha = 0 on the middle Laplace piece gives alpha* = "
                              f"{d['alpha_star']}; alpha* = 1/2 gives tau = log(1 + beta^2/w); "
                              "alpha* equals beta^2/(w(s-1)) (LXM-Eq12-argmax); F(alpha*) and F(1) simplify to the two printed branches. On the third "
                              "piece F' has the sign of e^-eps (beta^2 + w) - w, so F increases to "
                              "alpha = 1 exactly when eps < tau")
    return Outcome(INCONCLUSIVE, detail=f"tau {ok_tau}, interior {ok_int}, endpoint {ok_end}, argmax {ok_arg}")


@claim("LXM-Eq12-alt", ("001",), SOURCE + ", App. 10.3", "identity",
       "App. 10.3's form of F*_beta equals Eq. 12")
def _eq12_alt():
    e, b = sy.eps, A.beta
    s = sp.sqrt(1 + 4 * b**2 * sp.exp(e))
    alt = (1 + b**2) * (1 + 4 * b**2 * sp.exp(e) - s) / ((1 + b**2) * (1 + 4 * b**2 * sp.exp(e)) - (1 - b**2) * s)
    eq12 = A.printed_eq24().args[1][0].subs(A.w, 1)
    diff = sp.simplify(alt - eq12)
    return Outcome(PROVEN, margin="0", detail="sympy.simplify(alt - Eq. 12) == 0") if diff == 0 \
        else Outcome(INCONCLUSIVE, detail=f"SymPy left {diff}")


@claim("LXM-Eq12-inv", ("001",), SOURCE + ", Table 1 (catalog LXM-Eq12-inv)", "identity",
       "the largest eps with F*_beta <= F is log(w (s_F^2 - 1)/(4 beta^2)) for F in "
       "[(1+beta^2)/(1+beta^2+w), 1)")
def _eq12_inv():
    derived = A.derive_inverse()
    diff = sp.simplify(sp.exp(derived) - sp.exp(A.printed_inverse()))
    return Outcome(PROVEN, margin="0", detail="SymPy solves the interior branch = F for s, then eps; "
                                              "exp of both forms simplify to equal") if diff == 0 \
        else Outcome(INCONCLUSIVE, detail=f"SymPy left {diff}")


@claim("LXM-Eq12", ("001",), SOURCE + ", Eq. 12", "identity",
       "Eq. 12 equals a brute-force maximisation of F_beta over the attack's level")
def _eq12_brute():
    def rows():
        for eps in ("0.000001", "0.1", "1", "5", "30"):
            for beta in ("0.01", "1", "100"):
                rec = derive.laplace(eps)
                closed = N.fscore_optimum(rec, beta, 20)
                brute = N.fscore_optimum(dataclasses.replace(rec, name="laplace (generic)"), beta, 20)
                for quantity in ("fscore", "one_minus_fscore"):
                    yield {"eps": eps, "beta": beta, "quantity": quantity}, brute[quantity], closed[quantity]
    return agreement(rows(), mpmath.mpf(10) ** -15,
                     "F* and 1 - F* from the closed form vs golden-section maximisation over "
                     "log alpha, 20 digits, eps in {1e-6, 0.1, 1, 5, 30} x beta in {0.01, 1, 100}")


@claim("LXM-Thm2", ("001",), SOURCE + ", Theorem 2 and Corollary 1 (catalog LXM-Thm2, LXM-Cor1)",
       "inequality", "the NP test has the largest precision at every recall (also with a prior weight w)")
def _thm2():
    # alternative tests: two-sided |o - 1/2| > t on the Laplace release (Lap(0,b) vs Lap(1,b))
    worst, points = None, 0
    with mpmath.workdps(40):
        for eps in ("0.5", "2"):
            rec = derive.laplace(eps)
            b = 1 / mpmath.mpf(eps)

            def upper(x, loc):    # P(Lap(loc, b) > x)
                z = (x - loc) / b
                return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2
            for wv in (1, mpmath.mpf(1) / 2):
                for t in (mpmath.mpf(k) / 4 for k in range(1, 16)):
                    a = upper(mpmath.mpf(1) / 2 + t, 0) + (1 - upper(mpmath.mpf(1) / 2 - t, 0))
                    r = upper(mpmath.mpf(1) / 2 + t, 1) + (1 - upper(mpmath.mpf(1) / 2 - t, 1))
                    alt = r / (r + wv * a)
                    # NP at the same recall r: level f^{-1}(1 - r) = f(1 - r) (f symmetric)
                    a_np = mp.tradeoff(rec, sp.Rational(str(mpmath.nstr(1 - r, 35))), 30)
                    np_prec = r / (r + wv * a_np)
                    points += 1
                    slack = np_prec - alt
                    if slack < -mpmath.mpf(10) ** -25:
                        return Outcome(FAILED, counterexample={"eps": eps, "t": str(t), "w": str(wv)})
                    worst = slack if worst is None else min(worst, slack)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="two-sided tests |o - 1/2| > t (t = 0.25..3.75) never beat the NP precision "
                          "at their own recall; eps in {0.5, 2}, w in {1, 1/2}")


@claim("LXM-Thm3", ("001",), SOURCE + ", Theorem 3 / Eq. 6 and Theorem 6", "identity",
       "the thresholds theta(alpha) of Eq. 6 (Laplace) and Thm 6 (Gaussian) have false-alarm rate alpha")
def _thm3():
    def rows():
        for rec in (derive.laplace("1"), derive.classical_gaussian("0.5", "1e-5")):
            for a in ("1e-300", "0.001", "0.3", "0.5", "0.7", "0.999"):
                theta = N.pr(rec, a, 30)["threshold"]
                with mpmath.workdps(60):
                    if rec.name == "laplace":
                        gsr = mpmath.exp(-theta) / 2 if theta >= 0 else 1 - mpmath.exp(theta) / 2
                    else:
                        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf("1e-5"))) / mpmath.mpf("0.5")
                        gsr = mpmath.erfc(theta / sigma / mpmath.sqrt(2)) / 2
                yield {"mechanism": rec.name, "alpha": a}, gsr, alpha_exact(a)
    return agreement(rows(), mpmath.mpf(10) ** -25,
                     "P(noise > theta(alpha)) recomputed from the noise CDF equals alpha (30 digits)")


@claim("LXM-Eq15-stat", ("001",), SOURCE + ", Eq. 15 (catalog LXM-Eq15-stat)", "identity",
       "the Gaussian F*_beta maximiser solves Phibar(t - d) = e^{t d - d^2/2}(Phibar(t) + beta^2)")
def _eq15():
    def rows():
        for eps, delta in (("1", "1e-5"), ("3", "1e-5")):
            out = N.fscore_optimum(derive.classical_gaussian(eps, delta), "1", 20)
            with mpmath.workdps(40):
                sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf(delta))) / mpmath.mpf(eps)
                d, t = 1 / sigma, out["threshold"] / sigma
                lhs = mpmath.erfc((t - d) / mpmath.sqrt(2)) / 2
                rhs = mpmath.exp(t * d - d * d / 2) * (mpmath.erfc(t / mpmath.sqrt(2)) / 2 + 1)
            yield {"eps": eps, "delta": delta}, lhs, rhs
    return agreement(rows(), mpmath.mpf(10) ** -8,
                     "stationarity residual at the numerically found optimum (threshold verified "
                     "to 10 digits), beta = 1")


def _not_modelled(reason):
    return lambda: Outcome(INCONCLUSIVE, detail=reason)


claim("LXM-Thm4", ("001",), SOURCE + ", Theorem 4 (vector queries)", "identity",
      "PR-relation of the Laplace mechanism for vector queries")(_not_modelled(
          "the theorem's text was lost in the extraction (catalog: NOT RECOVERED); only scalar "
          "queries are modelled here"))
claim("LXM-Thm5", ("001",), SOURCE + ", Theorem 5 (bounded DP)", "identity",
      "bounded DP with binary records has the same PR-relation and F*_beta as unbounded DP")(_not_modelled(
          "reconstructed from prose only; in this toolkit both settings are the same record "
          "(shift Delta Q = 1), so no independent computation distinguishes them"))
claim("LXM-Thm7", ("001",), SOURCE + ", Theorem 7 and Propositions 1-2", "inequality",
      "eps_DP <= eps_DDP = eps_IP <= eps_BP; eps_DDP <= 2 eps_MP; eps_MIDP <= eps_MP")(_not_modelled(
          "needs the dependent, inferential, Bayesian, membership and mutual-information privacy "
          "notions, which the toolkit does not model; relation symbols were lost in the extraction"))


# ------------------------------------------------------------------ AUC
AUC_CASES = [derive.gaussian("1"), derive.laplace("1"), derive.approx_dp("1", "1e-5"),
             derive.randomized_response("2"), derive.uniform_sampling("1", "5"),
             derive.uniform_sampling("1", "5", "add-remove"), derive.classical_gaussian("0.5", "1e-5"),
             derive.noise("logistic", "1")]


@claim("DF-AUC", ("000", "003"), "catalog DF-AUC (de Fondeville 2026; Matthews et al. 2010 Def. 4)",
       "identity", "SymPy's integral 1 - int_0^1 f equals the printed AUC closed forms "
                   "(Laplace, f_{eps,delta}, randomized response, URS)")
def _auc_symbolic():
    names = []
    for rec in (derive.laplace(), derive.approx_dp(), derive.randomized_response(), derive.uniform_sampling()):
        diff = sp.simplify(derive_auc(rec) - printed_auc(rec))
        if diff != 0:
            return Outcome(INCONCLUSIVE, detail=f"{rec.name}: SymPy left {diff}")
        names.append(rec.name)
    return Outcome(PROVEN, margin="0", detail="piecewise integration by SymPy equals the printed form for "
                                              + ", ".join(names))


@claim("DF-AUC:quadrature", ("000", "003"), "catalog DF-AUC", "identity",
       "every AUC closed form (Gaussian Phi(mu/sqrt2) included) equals tanh-sinh quadrature of 1 - f")
def _auc_numeric():
    rows = (({"case": str(rec)}, auc(rec, 30), auc_quadrature(rec, 30)) for rec in AUC_CASES)
    return agreement(rows, mpmath.mpf(10) ** -28,
                     "closed form vs quadrature (reference), 30 digits each: " + ", ".join(str(r) for r in AUC_CASES))


# ------------------------------------------------------------------ seed 003
from derive import two_sided as TWO  # noqa: E402
from numeric import two_sided as TS  # noqa: E402

MHA = "Matthews, Harel, Aseltine (2010)"


@claim("MHA-(a)", ("003",), MHA + ", Eq. 1 test; catalog MHA-(a)", "identity",
       "the two-sided Laplace test with shift r has AUC 1 - (1 + r) e^-r / 2")
def _mha_a():
    diff = sp.simplify((TWO.derive_laplace_auc() - TWO.laplace_auc_printed()).rewrite(sp.exp))
    return Outcome(PROVEN, margin="0", detail="SymPy integrates both pieces of the power curve") if diff == 0 \
        else Outcome(INCONCLUSIVE, detail=f"SymPy left {diff}")


@claim("MHA-(b)", ("003",), MHA + ", Eq. 2 and the printed power; catalog MHA-(b)", "identity",
       "the two-sided normal test with shift d has AUC Phi(d/sqrt2)^2 + Phi(-d/sqrt2)^2")
def _mha_b():
    from numeric.bridge import compile_mp
    fn = compile_mp(TWO.normal_power())

    def rows():
        for dv in ("0.1", "1", "3"):
            with mpmath.workdps(35):
                quad = mpmath.quad(lambda a: fn({sy.alpha: a, TWO.d: mpmath.mpf(dv)}), [0, mpmath.mpf(1) / 2, 1])
            yield {"d": dv}, quad, TS.auc_exact_normal(dv, 20)
    return agreement(rows(), mpmath.mpf(10) ** -18,
                     "closed form vs tanh-sinh quadrature of the power curve, d in {0.1, 1, 3}")


@claim("MHA-Def5", ("003",), MHA + ", Definitions 4 and 5", "inequality",
       "risk (the AUC of the two-sided tests) lies in [0.5, 1], with 0.5 at zero shift")
def _mha_def5():
    points, low = 0, None
    for shift in ("0", "0.01", "1", "5", "40"):
        for value in (TS.auc_exact_laplace(shift, 20), TS.auc_exact_normal(shift, 20),
                      TS.auc_exact_laplace_difference(shift, 15)):
            points += 1
            if not (0.5 - 1e-15 <= value <= 1):
                return Outcome(FAILED, counterexample={"shift": shift, "auc": str(value)})
            low = value if low is None else min(low, value)
    return Outcome(CONFIRMED, margin=mpmath.nstr(low - mpmath.mpf("0.5"), 3), points=points,
                   detail="single-Laplace, normal and difference-of-Laplace AUCs at shifts 0 to 40")


@claim("LXM-PRcurve", ("001",), SOURCE + ", Eqs. 9-11, Fig. 3a (catalog LXM-PRcurve)", "identity",
       "the Laplace PR curve is prec(r) = r/(r + g(r)) with the catalog's three-piece g")
def _pr_curve():
    e = sy.eps
    r = A.recall
    g = sp.Piecewise((1 - sp.exp(e) * (1 - r), r >= 1 - sp.exp(-e) / 2),
                     (sp.exp(-e) / (4 * (1 - r)), r >= sp.S.Half), (sp.exp(-e) * r, True))
    printed = r / (r + g)
    ours = A.pr_curve(derive.laplace()).subs(A.w, 1)
    from numeric.bridge import compile_mp, exact_of
    from numeric.precision import verified
    f_printed, f_ours = compile_mp(printed), compile_mp(ours)

    def rows():
        for eps in ("0.5", "2"):
            for rv in ("0.001", "0.2", "0.5", "0.7", "0.95", "0.999"):
                env = {e: exact_of(sp.Rational(eps)), r: exact_of(sp.Rational(rv))}
                yield ({"eps": eps, "recall": rv}, verified(lambda: f_ours(env), 25),
                       verified(lambda: f_printed(env), 25))
    return agreement(rows(), mpmath.mpf(10) ** -23,
                     "r/(r + f(1 - r)) from the Laplace trade-off vs the catalog's closed form, 25 digits")
