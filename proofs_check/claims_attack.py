"""Claims of seed 001 (Liu, He, Chanyaswad, Wang, Mittal 2019) and the AUC closed forms.

Ids from ``../shared/catalog/001.md`` (LXM-*) and ``000-003.md`` (DF-AUC).
Statements whose text was lost in the extraction and that need notions this
toolkit does not model (Thm 4, Thm 7, Props 1-2) are registered as
INCONCLUSIVE with the reason, not left out.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import mpmath
import sympy as sp

import derive
from derive import attack as A
from derive import auc as DAUC
from derive import symbols as sy
from derive.mechanisms import facts as K
from numeric import attack as N
from numeric import auc as NA
from numeric import mp
from numeric.inputs import alpha_exact
from numeric.solvers import bisect

from .claims_foundation import combine
from .grid import brute_max, laplace_cdf, laplace_sf, normal_cdf, normal_isf, normal_sf
from .outcomes import agreement, inequality, minimise, proven_if, symbolic_zero
from .registry import claim
from .status import CONFIRMED, FAILED, INCONCLUSIVE, Outcome

SOURCE = "Liu, He, Chanyaswad, Wang, Mittal (2019) PoPETs 2019(3)"


#: points of the (eps, beta, w) domain where an undecided SymPy difference is evaluated
_PROBES = [{sy.eps: sp.Rational(e), A.beta: sp.Rational(b), A.w: sp.Rational(w), A.bound: sp.Rational(f)}
           for e, b, w, f in (("1/10", "1/100", "1", "9/10"), ("1", "1", "1/2", "4/5"),
                              ("5", "3", "1", "99/100"), ("30", "100", "1/3", "999/1000"))]


def _laplace_fscore_brute(eps, beta, w):
    """max over the threshold theta of F_beta of the test 'o > theta' on Lap(0, 1/eps) vs
    Lap(1, 1/eps), from the two laws themselves (plain mpmath): alpha = P(Lap(0,b) > theta),
    R = P(Lap(1,b) > theta), F = (1 + beta^2) R/(R + w alpha + beta^2), 1 - F = (w alpha + beta^2
    (1 - R))/(R + w alpha + beta^2); the three segments of theta are searched separately and the
    limit theta -> -inf (alpha = R = 1) is a candidate.  Returns (F, 1 - F, plateau?)."""
    b = 1 / eps
    one = 1 + beta**2

    def parts(t):
        al, rr = laplace_sf(t, 0, b), laplace_sf(t, 1, b)
        den = rr + w * al + beta**2
        return one * rr / den, (w * al + beta**2 * laplace_cdf(t, 1, b)) / den
    best_t, best = None, None
    for lo, hi in ((-40 * b, 0), (0, 1), (1, 1 + 40 * b)):
        t, v = brute_max(lambda t: parts(t)[0], lo, hi, grid=24)
        if best is None or v > best:
            best_t, best = t, v
    endpoint = one / (one + w)
    if endpoint >= best:
        return endpoint, w / (one + w), True
    return best, parts(best_t)[1], False


def _fscore_rows(cases, digits=25):
    """(context, toolkit, brute force) rows of F*_beta and 1 - F*_beta for Laplace cases."""
    for eps, beta, w in cases:
        out = N.fscore_optimum(derive.laplace(eps), beta, digits, weight=w)
        with mpmath.workdps(50):
            f, g, plateau = _laplace_fscore_brute(mpmath.mpf(eps), mpmath.mpf(beta), mpmath.mpf(sp.Rational(w).p) / sp.Rational(w).q)
        ctx = {"eps": eps, "beta": beta, "w": w}
        if (out.branch == "plateau") != plateau:
            # the branch is decided by exact comparisons on both sides: a disagreement is a counter-example
            yield {**ctx, "quantity": "branch (1 = plateau)"}, int(out.branch == "plateau"), int(plateau)
        yield {**ctx, "quantity": "fscore"}, out.fscore, f
        yield {**ctx, "quantity": "one_minus_fscore"}, out.one_minus_fscore, g


_EQ24_CASES = [("0.000001", "0.01", "1"), ("0.000001", "100", "1/2"), ("0.69", "1", "1"), ("0.7", "1", "1"),
               ("1", "1", "1/2"), ("5", "0.01", "1"), ("5", "1", "1"), ("30", "100", "1/2")]


@claim("LXM-Eq24", ("001",), SOURCE + ", Eq. 24 and Eq. 12 (w = 1), App. 10.3 / 10.5", "identity",
       "max over the threshold of F_beta for the Laplace mechanism with weight w is Eq. 24, "
       "with the turning point eps = log(1 + beta^2/w)",
       latex=r"F^*_\beta = \begin{cases}\frac{1+\beta^2}{1+\beta^2+w} & \varepsilon < \log(1+\beta^2/w)\\ "
             r"\frac{(1+\beta^2)(s-1)}{(1+\beta^2)s-1+\beta^2} & \text{otherwise}\end{cases},\ "
             r"s=\sqrt{1+4\beta^2e^{\varepsilon}/w}")
def _eq24():
    d = A.laplace_fscore_optimum()
    printed = A.printed_eq24()
    # the endpoint value is F_beta of the record's own power at alpha = 1 (not a typed literal)
    at_one = A.fscore(derive.laplace()).subs(sy.alpha, 1)
    checks = {"tau": sp.simplify(d["tau"] - sp.log(1 + A.beta**2 / A.w)),
              "interior": sp.simplify(d["interior"] - printed.args[1][0]),
              "endpoint": sp.simplify(sp.piecewise_fold(at_one) - printed.args[0][0]),
              "argmax": sp.simplify(d["alpha_star"] - A.printed_alpha_star()),
              "printed turning point": sp.simplify(A.turning_point() - sp.log(1 + A.beta**2 / A.w))}
    symbolic = proven_if(checks, "SymPy: dF/dalpha = 0 on the middle Laplace piece gives alpha* = "
                                 "beta^2/(w(s-1)) (LXM-Eq12-argmax); alpha* = 1/2 gives tau = log(1 + beta^2/w); "
                                 "F(alpha*) and F(1) of the record's power simplify to the two printed branches",
                         probes=_PROBES)
    numeric = agreement(_fscore_rows(_EQ24_CASES), mpmath.mpf(10) ** -22,
                        "numeric.attack.fscore_optimum(laplace(eps), beta, weight=w) at 25 digits vs a brute-force "
                        "maximisation over the threshold of F_beta built from the two Laplace laws (plain mpmath, "
                        "50 digits), (eps, beta, w) in " + ", ".join(f"({e}, {b}, {w})" for e, b, w in _EQ24_CASES)
                        + "; both branches (tau = 0.693 for beta = w = 1)")
    return combine(symbolic, [numeric])


@claim("LXM-Eq12-alt", ("001",), SOURCE + ", App. 10.3", "identity",
       "App. 10.3's form of F*_beta equals Eq. 12",
       latex=r"\frac{(1+\beta^2)(1+4\beta^2e^{\varepsilon}-s)}{(1+\beta^2)(1+4\beta^2e^{\varepsilon})-(1-\beta^2)s} = "
             r"\frac{(1+\beta^2)(s-1)}{(1+\beta^2)s-1+\beta^2},\ s=\sqrt{1+4\beta^2e^{\varepsilon}}")
def _eq12_alt():
    e, b = sy.eps, A.beta
    s = sp.sqrt(1 + 4 * b**2 * sp.exp(e))
    alt = (1 + b**2) * (1 + 4 * b**2 * sp.exp(e) - s) / ((1 + b**2) * (1 + 4 * b**2 * sp.exp(e)) - (1 - b**2) * s)
    eq12 = A.printed_eq24().args[1][0].subs(A.w, 1)
    return symbolic_zero(alt - eq12, "sympy.simplify(App. 10.3 form - Eq. 12 of derive.attack) == 0",
                         probes=_PROBES)


@claim("LXM-Eq12-inv", ("001",), SOURCE + ", Table 1 (catalog LXM-Eq12-inv)", "identity",
       "the largest eps with F*_beta <= F is log(w (s_F^2 - 1)/(4 beta^2)) for F in "
       "[(1+beta^2)/(1+beta^2+w), 1)",
       latex=r"\varepsilon_{\max}(F) = \log\frac{w(s_F^2-1)}{4\beta^2},\ "
             r"s_F=\frac{1+\beta^2-F(1-\beta^2)}{(1+\beta^2)(1-F)}")
def _eq12_inv():
    derived = A.derive_inverse()
    symbolic = symbolic_zero(sp.exp(derived) - sp.exp(A.printed_inverse()),
                             "SymPy solves the interior branch = F for s, then eps; exp of both forms "
                             "simplify to equal", probes=_PROBES)

    # the evaluator users call (numeric.attack.fscore_inverse) against the brute-force optimum:
    # at the returned eps, max over the threshold of F_beta from the Laplace laws equals the bound
    def rows():
        for beta, bound, w in (("1", "0.7", "1"), ("1", "0.99", "1"), ("0.5", "0.9", "1"),
                               ("2", "0.9999", "1"), ("1", "0.8", "1/2")):
            eps = N.fscore_inverse(beta, bound, weight=w, digits=30).eps
            with mpmath.workdps(50):
                wv = mpmath.mpf(sp.Rational(w).p) / sp.Rational(w).q
                f, _, _ = _laplace_fscore_brute(mpmath.mpf(eps), mpmath.mpf(beta), wv)
                ref = mpmath.mpf(bound)
            yield {"beta": beta, "F": bound, "w": w, "eps": mpmath.nstr(eps, 12)}, f, ref
    numeric = agreement(rows(), mpmath.mpf(10) ** -20,
                        "F*_beta (brute force over the threshold, Laplace laws) at eps = fscore_inverse(beta, F) "
                        "equals F")
    return combine(symbolic, [numeric])


@claim("LXM-Eq12", ("001",), SOURCE + ", Eq. 12", "identity",
       "Eq. 12 equals a brute-force maximisation of F_beta over the attack's level")
def _eq12_brute():
    def rows():
        for eps, beta in (("0.000001", "0.01"), ("0.000001", "100"), ("0.1", "1"), ("1", "0.01"),
                          ("1", "100"), ("5", "1"), ("30", "0.01"), ("30", "100")):
            rec = derive.laplace(eps)
            closed = N.fscore_optimum(rec, beta, 20)
            # the record without its Laplace identity takes the generic (numerical) route
            generic = {k: v for k, v in rec.facts.items() if k != K.LAPLACE_EPS}
            brute = N.fscore_optimum(dataclasses.replace(rec, name="laplace (generic)", facts=generic), beta, 20)
            for quantity in ("fscore", "one_minus_fscore"):
                yield ({"eps": eps, "beta": beta, "quantity": quantity}, getattr(brute, quantity),
                       getattr(closed, quantity))
    return agreement(rows(), mpmath.mpf(10) ** -15,
                     "F* and 1 - F* from the closed form vs golden-section maximisation over "
                     "log alpha, 20 digits, (eps, beta) in {(1e-6, 0.01), (1e-6, 100), (0.1, 1), (1, 0.01), (1, 100), "
                     "(5, 1), (30, 0.01), (30, 100)} (both branches of Eq. 24; LXM-Eq24 checks the "
                     "evaluator against an independent brute force)")


def _exact_of_mpf(x):
    """The exact binary value of an mpf as a Fraction (an exact input for numeric.mp)."""
    x = mpmath.mpf(x)
    man, exp = x.man_exp                      # man_exp drops the sign
    return (-1 if x < 0 else 1) * Fraction(int(man)) * Fraction(2) ** int(exp)


@claim("LXM-Thm2", ("001",), SOURCE + ", Theorem 2 and Corollary 1 (catalog LXM-Thm2, LXM-Cor1)",
       "inequality", "the NP test has the largest precision at every recall (also with a prior weight w)",
       latex=r"\mathrm{prec}_{\mathrm{NP}}(r) \ge \mathrm{prec}_\phi(r) \text{ for every test } \phi "
             r"\text{ with recall } r")
def _thm2():
    # alternative tests: two-sided |o - 1/2| > t on the Laplace release (Lap(0,b) vs Lap(1,b)), their
    # level and recall from the Laplace laws (plain mpmath); the NP precision at the same recall r from
    # the toolkit: level f(1 - r) = mp.tradeoff(laplace(eps), 1 - r) (f symmetric), 1 - r exact
    def case(eps, wv):
        rec = derive.laplace(eps)
        b = 1 / mpmath.mpf(eps)

        def margin(t_text):
            with mpmath.workdps(40):
                t, half = mpmath.mpf(t_text), mpmath.mpf(1) / 2
                a = laplace_sf(half + t, 0, b) + laplace_cdf(half - t, 0, b)
                r = laplace_sf(half + t, 1, b) + laplace_cdf(half - t, 1, b)
                alt = r / (r + wv * a)
                r_exact = _exact_of_mpf(r)
            a_np = mp.tradeoff(rec, 1 - r_exact, 30)
            with mpmath.workdps(40):
                r = mpmath.mpf(r_exact.numerator) / r_exact.denominator
                np_prec = r / (r + wv * a_np)
                return (np_prec - alt) / np_prec
        return f"eps={eps}, w={wv}", margin
    cases = [case("0.5", mpmath.mpf(1)), case("2", mpmath.mpf(1) / 2)]
    return inequality(cases, mpmath.mpf(10) ** -25,
                      "relative slack (prec_NP - prec_two-sided)/prec_NP at the two-sided test's own recall, "
                      "t on a grid 0.25..3.75 and an adversarial search over log10 t in [-3, 2] (recall down "
                      "to ~1e-87); eps in {0.5, 2}, w in {1, 1/2}",
                      lo=-3.0, hi=2.0, grid_points=tuple(str(k / 4) for k in range(1, 16)), point_name="t")


@claim("LXM-Thm3", ("001",), SOURCE + ", Theorem 3 / Eq. 6 and Theorem 6", "identity",
       "the thresholds theta(alpha) of Eq. 6 (Laplace) and Thm 6 (Gaussian) have false-alarm rate alpha",
       latex=r"\Pr\bigl(\mathcal M(D') > \theta(\alpha)\bigr) = \alpha")
def _thm3():
    def lap_sf(theta):              # Lap(0, 1/eps) noise, eps = 1, theta in units of Delta Q
        return mpmath.exp(-theta) / 2 if theta >= 0 else 1 - mpmath.exp(theta) / 2

    def gauss_sf(theta):            # N(0, sigma^2), sigma = sqrt(2 ln(1.25/delta))/eps, eps = 0.5, delta = 1e-5
        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf("1e-5"))) / mpmath.mpf("0.5")
        return mpmath.erfc(theta / sigma / mpmath.sqrt(2)) / 2

    def rows():
        for rec, noise_sf in ((derive.laplace("1"), lap_sf), (derive.classical_gaussian("0.5", "1e-5"), gauss_sf)):
            for a in ("1e-300", "0.001", "0.3", "0.5", "0.7", "0.999"):
                theta = N.pr(rec, a, 30).threshold
                with mpmath.workdps(60):
                    gsr = noise_sf(theta)
                yield {"mechanism": rec.name, "alpha": a}, gsr, alpha_exact(a)
    return agreement(rows(), mpmath.mpf(10) ** -25,
                     "P(noise > theta(alpha)) recomputed from the noise CDF equals alpha (30 digits)")


def _gauss_stationary_root(d, beta2):
    """t solving Phibar(t - d) = e^{t d - d^2/2} (Phibar(t) + beta^2) (plain mpmath, bisection on the
    log of both sides; LHS/RHS falls from +inf to 0, so the root is bracketed)."""
    g = lambda t: mpmath.log(normal_sf(t - d)) - (t * d - d * d / 2) - mpmath.log(normal_sf(t) + beta2)  # noqa: E731
    lo, hi = bisect(lambda t: g(t) > 0, mpmath.mpf(-60), d + 60, steps=mpmath.mp.prec + 20)
    return (lo + hi) / 2


def _gauss_f(t, d, beta2):
    """(F_beta, 1 - F_beta) of the test 'standardised release > t', w = 1, from the normal laws."""
    rr, al = normal_sf(t - d), normal_sf(t)
    den = rr + al + beta2
    return (1 + beta2) * rr / den, (al + beta2 * normal_cdf(t - d)) / den


@claim("LXM-Eq15-stat", ("001",), SOURCE + ", Eq. 15 (catalog LXM-Eq15-stat)", "identity",
       "the Gaussian F*_beta maximiser solves Phibar(t - d) = e^{t d - d^2/2}(Phibar(t) + beta^2)",
       latex=r"\bar\Phi(t^*-d) = e^{t^*d-d^2/2}\bigl(\bar\Phi(t^*)+\beta^2\bigr),\quad "
             r"t^* = \arg\max_t F_\beta(t)")
def _eq15():
    # (1) the paper's statement, independently of the toolkit: the root of the stationarity equation
    # (own bisection) gives the same F_beta as a brute-force maximisation over the threshold, both
    # from the normal laws in plain mpmath; d up to 80 puts the optimal level near 1e-350
    def statement_rows():
        for dv in ("0.1", "5", "80"):
            for bv in ("0.01", "1", "100"):
                with mpmath.workdps(40):
                    d, b2 = mpmath.mpf(dv), mpmath.mpf(bv) ** 2
                    t_root = _gauss_stationary_root(d, b2)
                    at_root = _gauss_f(t_root, d, b2)
                    # each quantity optimised on its own scale: 1 - F near 1e-300 is located by
                    # minimising it directly, not through F (flat to 1e-50 around its maximum)
                    _, f_max = brute_max(lambda t: _gauss_f(t, d, b2)[0], -40, d + 40, grid=24, smooth=True)
                    _, g_min = brute_max(lambda t: -_gauss_f(t, d, b2)[1], -40, d + 40, grid=24, smooth=True)
                    at_brute = (f_max, -g_min)
                    level = mpmath.nstr(normal_sf(t_root), 3)
                for k, q in enumerate(("fscore", "one_minus_fscore")):
                    yield {"d": dv, "beta": bv, "alpha*": level, "quantity": q}, at_root[k], at_brute[k]
    paper = agreement(statement_rows(), mpmath.mpf(10) ** -25,
                      "F_beta and 1 - F_beta at the root of Eq. 15 vs the brute-force maximum over the threshold "
                      "(normal laws, 40 digits), d in {0.1, 5, 80} x beta in {0.01, 1, 100}")

    # (2) the evaluator users call: numeric.attack.fscore_optimum on gaussian(mu) (d = mu) against the
    # root; few points: the evaluator costs ~0.5 s a call (and minutes at mu = 40, reported)
    results = []
    for mu, bv in (("0.5", "0.1"), ("1", "1")):
        out = N.fscore_optimum(derive.gaussian(mu), bv, 12)
        with mpmath.workdps(50):
            d, b2 = mpmath.mpf(mu), mpmath.mpf(bv) ** 2
            t_root = _gauss_stationary_root(d, b2)
            f, g = _gauss_f(t_root, d, b2)
            theta = t_root / d        # threshold in units of Delta Q (sigma = 1/mu)
        results.append(({"mu": mu, "beta": bv}, out, f, g, theta))
    toolkit = agreement(((({**c, "quantity": q}), getattr(o, q), ref) for c, o, f, g, _ in results
                         for q, ref in (("fscore", f), ("one_minus_fscore", g))), mpmath.mpf(10) ** -10,
                        "numeric.attack.fscore_optimum(gaussian(mu), beta) at 12 digits vs F_beta at the root of "
                        "Eq. 15 (mu, beta) in {(0.5, 0.1), (1, 1)}")
    # the threshold sits at a maximum: fscore_optimum verifies it to half the digits
    threshold = agreement([({**c, "quantity": "threshold"}, o.threshold, theta)
                           for c, o, _, _, theta in results], mpmath.mpf(10) ** -5,
                          "its threshold vs root/d to 1e-5 (verified to half the digits)")
    return combine(None, [paper, toolkit, threshold])


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


def _discrete_auc(pairs):
    """Area under the optimal ROC of two discrete laws [(P(x), Q(x))], outcomes ranked by the
    likelihood ratio Q/P (Neyman-Pearson), trapezoids between the ROC vertices (plain mpmath)."""
    ranked = sorted(pairs, key=lambda pq: mpmath.inf if pq[0] == 0 else pq[1] / pq[0], reverse=True)
    area, fpr, tpr = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    for p, q in ranked:
        area += p * (2 * tpr + q) / 2
        fpr, tpr = fpr + p, tpr + q
    return area


def _continuous_auc(cdf0, pdf1, cuts):
    """P(X1 > X0) = int F0(y) p1(y) dy for independent X0 ~ F0, X1 ~ p1 (tanh-sinh quadrature)."""
    return mpmath.quad(lambda y: cdf0(y) * pdf1(y), [-mpmath.inf, *cuts, mpmath.inf])


# The AUC of the optimal test from each mechanism's two output laws (called at 45 digits), one reference
# per law.  Location families: AUC = P(X1 > X0) (likelihood ratio increasing in the release), by quadrature
# (Laplace, logistic) or from the law of X1 - X0 (normal).  Discrete mechanisms: their canonical laws, ranked
# by likelihood ratio: f_{eps,delta} is the trade-off of P = (delta, (1-delta)e^eps/(1+e^eps),
# (1-delta)/(1+e^eps), 0) against Q = P reversed (randomized response: delta = 0); uniform sampling (catalog
# DF-Ex3) outputs a constant with probability e^-mu, else a uniform record: with replacement the target (Q)
# or its replacement (P) has probability p = (1 - e^-mu)/n; add-remove: the target has probability p under
# Q, 0 under P.

def _ref_normal_shift(mu):
    """P(X1 > X0) = P(X1 - X0 > 0) with X1 - X0 ~ N(mu, 2) (difference of independent normals)."""
    return normal_sf(-mu / mpmath.sqrt(2))


def _ref_gaussian(mu):
    return _ref_normal_shift(mpmath.mpf(mu))


def _ref_classical_gaussian(eps, delta):
    return _ref_normal_shift(mpmath.mpf(eps) / mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf(delta))))


def _ref_laplace(eps):
    e = mpmath.mpf(eps)
    return _continuous_auc(laplace_cdf, lambda y: mpmath.exp(-abs(y - e)) / 2, [0, e])


def _ref_logistic(m):
    m = mpmath.mpf(m)
    return _continuous_auc(lambda y: 1 / (1 + mpmath.exp(-y)),
                           lambda y: mpmath.exp(-(y - m)) / (1 + mpmath.exp(-(y - m))) ** 2, [0, m])


def _ref_eps_delta(eps, delta="0"):
    e, dl = mpmath.mpf(eps), mpmath.mpf(delta)
    hi, lo = (1 - dl) * mpmath.exp(e) / (1 + mpmath.exp(e)), (1 - dl) / (1 + mpmath.exp(e))
    return _discrete_auc([(dl, 0), (hi, lo), (lo, hi), (0, dl)])


def _urs_masses(mu, n):
    c = mpmath.exp(-mpmath.mpf(mu))
    return c, -mpmath.expm1(-mpmath.mpf(mu)) / n


def _ref_urs_replacement(mu, n):
    c, p = _urs_masses(mu, n)
    return _discrete_auc([(0, p), (p, 0), (c, c), (1 - c - p, 1 - c - p)])


def _ref_urs_add_remove(mu, n):
    c, p = _urs_masses(mu, n)
    return _discrete_auc([(0, p), (c, c), (1 - c, 1 - c - p)])


#: (record builder, its arguments, the reference AUC from the output laws, the reference's arguments)
_AUC_SWEEP = (
    *[(derive.gaussian, (m,), _ref_gaussian, (m,)) for m in ("0", "1", "30")],
    *[(derive.laplace, (e,), _ref_laplace, (e,)) for e in ("0", "1", "30")],
    *[(derive.approx_dp, a, _ref_eps_delta, a) for a in (("1", "1e-5"), ("0.5", "0"), ("3", "0.1"))],
    *[(derive.randomized_response, (e,), _ref_eps_delta, (e,)) for e in ("0.5", "2", "20")],
    *[(derive.uniform_sampling, (m, n), _ref_urs_replacement, (m, n)) for m, n in (("1", 5), ("2.5", 1), ("0.1", 5))],
    *[(derive.uniform_sampling, (m, n, "add-remove"), _ref_urs_add_remove, (m, n))
      for m, n in (("1", 5), ("2.5", 2), ("0.1", 5))],
    (derive.classical_gaussian, ("0.5", "1e-5"), _ref_classical_gaussian, ("0.5", "1e-5")),
    (derive.noise, ("logistic", "2"), _ref_logistic, ("2",)),
)


@claim("DF-AUC", ("000", "003"), "catalog DF-AUC (de Fondeville 2026; Matthews et al. 2010 Def. 4)",
       "identity", "SymPy's integral 1 - int_0^1 f equals the printed AUC closed forms "
                   "(Laplace, f_{eps,delta}, randomized response, URS)",
       latex=r"\mathrm{AUC}(f) = 1-\int_0^1 f(\alpha)\,d\alpha;\ "
             r"\mathrm{AUC}_{\mathrm{Lap}} = 1-\tfrac{e^{-\varepsilon}(2+\varepsilon)}{4},\ "
             r"\mathrm{AUC}_{f_{\varepsilon,\delta}} = 1-\tfrac{(1-\delta)^2}{1+e^{\varepsilon}},\ "
             r"\mathrm{AUC}_{G_\mu} = \Phi(\mu/\sqrt2)")
def _auc_symbolic():
    # SymPy: the integral of each symbolic record's trade-off equals the printed closed form
    probes = [{sy.eps: sp.Rational(e), sy.delta: sp.Rational(d), sy.mu: sp.Rational(m), sy.n: k}
              for e, d, m, k in (("1/2", "1/1000", "1", 5), ("3", "1/10", "5/2", 2))]
    checks = {rec.name: sp.simplify(DAUC.derive_auc(rec) - DAUC.printed_auc(rec))
              for rec in (derive.laplace(), derive.approx_dp(), derive.randomized_response(),
                          derive.uniform_sampling())}
    symbolic = proven_if(checks, "piecewise integration by SymPy equals the printed form for Laplace, "
                                 "f_{eps,delta}, randomized response, URS", probes=probes)

    # the evaluator users call (numeric.auc.auc) against the AUC of the optimal test computed from
    # the mechanisms' output laws (P(X1 > X0) by quadrature, or ranked discrete laws)
    def rows():
        for make, args, reference, ref_args in _AUC_SWEEP:
            rec = make(*args)
            with mpmath.workdps(45):
                ref = reference(*ref_args)
            yield {"case": str(rec)}, NA.auc(rec, 30), ref
    numeric = agreement(rows(), mpmath.mpf(10) ** -27,
                        "numeric.auc.auc (30 digits) vs the AUC from the two output laws of each mechanism "
                        f"(45 digits), {len(_AUC_SWEEP)} cases: Gaussian mu in {{0, 1, 30}}, Laplace eps in {{0, 1, 30}}, "
                        "f_{eps,delta}, randomized response, URS (both neighbourhoods), classical Gaussian, logistic")
    return combine(symbolic, [numeric])


@claim("DF-AUC:quadrature", ("000", "003"), "catalog DF-AUC", "identity",
       "every AUC closed form (Gaussian Phi(mu/sqrt2) included) equals tanh-sinh quadrature of 1 - f",
       latex=r"\mathrm{AUC}(f) = 1-\int_0^1 f(\alpha)\,d\alpha")
def _auc_numeric():
    rows = (({"case": str(rec)}, NA.auc(rec, 30), NA.auc_quadrature(rec, 30)) for rec in AUC_CASES)
    return agreement(rows, mpmath.mpf(10) ** -28,
                     "closed form vs quadrature (reference), 30 digits each: " + ", ".join(str(r) for r in AUC_CASES))


# ------------------------------------------------------------------ seed 003
from derive import two_sided as TWO  # noqa: E402
from numeric import two_sided as TS  # noqa: E402

MHA = "Matthews, Harel, Aseltine (2010)"
_SHIFTS = ("0", "0.000001", "0.01", "1", "5", "40")
_LEVELS = ("1e-300", "1e-5", "0.3", "0.9", "0.9999999999")


def _power_rows(expr, symbol, power_ref):
    """(context, toolkit, reference) of a two-sided power curve at exact (alpha, shift) points:
    the toolkit's expression evaluated by numeric.mp.evaluate, the reference from the laws."""
    for shift in _SHIFTS[1:]:
        for a in _LEVELS:
            value = mp.evaluate(expr, {sy.alpha: a, symbol: shift}, 30)
            with mpmath.workdps(60):
                ref = power_ref(mpmath.mpf(a), mpmath.mpf(shift))
            yield {"shift": shift, "alpha": a, "quantity": "power"}, value, ref


@claim("MHA-(a)", ("003",), MHA + ", Eq. 1 test; catalog MHA-(a)", "identity",
       "the two-sided Laplace test with shift r has AUC 1 - (1 + r) e^-r / 2",
       latex=r"\int_0^1 \mathrm{power}_r(\alpha)\,d\alpha = 1-\tfrac{(1+r)e^{-r}}{2}")
def _mha_a():
    symbolic = symbolic_zero((TWO.derive_laplace_auc() - TWO.laplace_auc_printed()).rewrite(sp.exp),
                             "SymPy integrates both pieces of derive.two_sided.laplace_power",
                             probes=[{TWO.r: sp.Rational(x)} for x in ("1/10", "2", "7")])
    # the power curve: |Y| > log(1/alpha) with Y ~ Lap(r, 1), from the Laplace law itself
    power = agreement(_power_rows(TWO.laplace_power(), TWO.r,
                                  lambda a, r: laplace_sf(-mpmath.log(a), r) + laplace_cdf(mpmath.log(a), r)),
                      mpmath.mpf(10) ** -27, "laplace_power (numeric.mp.evaluate) vs P(|Lap(r,1)| > log 1/alpha)")

    # the evaluator users call (numeric.two_sided.auc_exact_laplace) vs P(|Y1| > |Y0|), Y0 ~ Lap(0,1),
    # Y1 ~ Lap(r,1) independent: int P(|Y0| < |y|) p1(y) dy (the AUC of the test on |Y|)
    def rows():
        for shift in _SHIFTS:
            with mpmath.workdps(45):
                r = mpmath.mpf(shift)
                ref = mpmath.quad(lambda y: -mpmath.expm1(-abs(y)) * mpmath.exp(-abs(y - r)) / 2,
                                  [-mpmath.inf, 0, r, mpmath.inf] if r > 0 else [-mpmath.inf, 0, mpmath.inf])
            yield {"shift": shift, "quantity": "auc"}, TS.auc_exact_laplace(shift, 30), ref
    auc = agreement(rows(), mpmath.mpf(10) ** -27,
                    "auc_exact_laplace vs P(|Y1| > |Y0|) by quadrature of the Laplace laws, r in " + ", ".join(_SHIFTS))
    return combine(symbolic, [power, auc])


@claim("MHA-(b)", ("003",), MHA + ", Eq. 2 and the printed power; catalog MHA-(b)", "identity",
       "the two-sided normal test with shift d has AUC Phi(d/sqrt2)^2 + Phi(-d/sqrt2)^2",
       latex=r"\int_0^1 \mathrm{power}_d(\alpha)\,d\alpha = \Phi(d/\sqrt2)^2+\Phi(-d/\sqrt2)^2")
def _mha_b():
    # the power curve: |A| > z with P(|N(0,1)| > z) = alpha (own quantile), A ~ N(d, 1)
    def power_ref(a, d):
        z = normal_isf(a / 2)
        return normal_sf(z - d) + normal_cdf(-z - d)
    power = agreement(_power_rows(TWO.normal_power(), TWO.d, power_ref), mpmath.mpf(10) ** -27,
                      "normal_power (numeric.mp.evaluate) vs P(|N(d,1)| > Phibar^-1(alpha/2))")

    # the evaluator users call (auc_exact_normal) vs P(|Y1| > |Y0|), Y0 ~ N(0,1), Y1 ~ N(d,1)
    def rows():
        for shift in _SHIFTS:
            with mpmath.workdps(45):
                d = mpmath.mpf(shift)
                ref = mpmath.quad(lambda y: mpmath.erf(abs(y) / mpmath.sqrt(2)) * mpmath.npdf(y, d),
                                  [-mpmath.inf, 0, d, mpmath.inf] if d > 0 else [-mpmath.inf, 0, mpmath.inf])
            yield {"shift": shift, "quantity": "auc"}, TS.auc_exact_normal(shift, 30), ref
    auc = agreement(rows(), mpmath.mpf(10) ** -27,
                    "auc_exact_normal vs P(|Y1| > |Y0|) by quadrature of the normal laws, d in " + ", ".join(_SHIFTS))
    return combine(None, [power, auc])


@claim("MHA-(c)", ("003",), MHA + ", Eq. 1 with two Laplace releases (Section 4.1); catalog MHA-(c); the closed "
       "form derived here", "identity",
       "the two-sided test on the difference of two Laplace releases with shift r has AUC "
       "1 - (r^3 + 9 r^2 + 24 r + 24) e^-r / 48",
       latex=r"\int_0^\infty \mathrm{power}_r(c)\,\tfrac{(1+c)e^{-c}}{2}\,dc = 1-\tfrac{(r^3+9r^2+24r+24)e^{-r}}{48}")
def _mha_c():
    symbolic = symbolic_zero((TWO.derive_laplace_difference_auc() - TWO.laplace_difference_auc_printed()).rewrite(sp.exp),
                             "SymPy integrates power(c) |d alpha/dc| of derive.two_sided on [0, r] and (r, inf)",
                             probes=[{TWO.r: sp.Rational(x)} for x in ("1/10", "2", "7")])

    # the evaluator users call vs P(|Y1| > |Y0|) with Y0 = eta - eta' (density (1 + |y|) e^-|y| / 4) and
    # Y1 = r + an independent copy: int P(|Y0| < |y|) p(y - r) dy, P(|Y0| < t) = 1 - (1 + t/2) e^-t
    def rows():
        for shift in _SHIFTS:
            with mpmath.workdps(36):
                r = mpmath.mpf(shift)

                def inside(t):
                    return -mpmath.expm1(-t) - t * mpmath.exp(-t) / 2
                ref = mpmath.quad(lambda y: inside(abs(y)) * (1 + abs(y - r)) * mpmath.exp(-abs(y - r)) / 4,
                                  [-mpmath.inf, 0, r, mpmath.inf] if r > 0 else [-mpmath.inf, 0, mpmath.inf])
            yield {"shift": shift, "quantity": "auc"}, TS.auc_exact_laplace_difference(shift, 30), ref
    auc = agreement(rows(), mpmath.mpf(10) ** -27, "auc_exact_laplace_difference vs P(|Y1| > |Y0|) by quadrature of "
                                                  "the difference law, r in " + ", ".join(_SHIFTS))
    return combine(symbolic, [auc])


@claim("MHA-Def5", ("003",), MHA + ", Definitions 4 and 5", "inequality",
       "risk (the AUC of the two-sided tests) lies in [0.5, 1], with 0.5 at zero shift",
       latex=r"\tfrac12 \le \mathrm{AUC}(r) \le 1,\quad \mathrm{AUC}(0)=\tfrac12")
def _mha_def5():
    tol = mpmath.mpf(10) ** -18

    def margin(fn):
        def m(shift):
            value = fn(shift)
            with mpmath.workdps(30):
                return min(value - mpmath.mpf(1) / 2, 1 - value)
        return m
    laplace_m, normal_m = margin(lambda x: TS.auc_exact_laplace(x, 20)), margin(lambda x: TS.auc_exact_normal(x, 20))
    difference_m = margin(lambda x: TS.auc_exact_laplace_difference(x, 12))
    # at zero shift every AUC is 1/2 (both margins 0 up to the verified error)
    at_zero = [(name, fn("0")) for name, fn in (("laplace", laplace_m), ("normal", normal_m),
                                                 ("difference", difference_m))]
    for name, value in at_zero:
        if abs(value) > tol:
            return Outcome(FAILED, detail="AUC at zero shift is not 1/2",
                           counterexample={"case": name, "shift": "0", "margin": mpmath.nstr(value, 5)})
    # closed forms: grid and adversarial search over log10 shift in [-300, log10 40]
    closed = inequality([("single Laplace", laplace_m), ("normal", normal_m)], tol,
                        "min(AUC - 1/2, 1 - AUC) of auc_exact_laplace / auc_exact_normal (20 digits)",
                        lo=-300.0, hi=1.6, grid_points=_SHIFTS, point_name="shift")
    if closed.status is not CONFIRMED:
        return closed
    # the difference of two Laplace releases is a quadrature (~0.5 s a point): a short search
    worst, t_worst, n = minimise(lambda t: difference_m(mpmath.nstr(mpmath.power(10, t), 17)), -6.0, 1.6,
                                 grid=5, starts=1, iterations=2)
    if worst < -tol:
        return Outcome(FAILED, detail="difference-of-Laplace AUC outside [1/2, 1]",
                       counterexample={"shift": mpmath.nstr(mpmath.power(10, t_worst), 17),
                                       "margin": mpmath.nstr(worst, 5)})
    closed.points += n + len(at_zero)
    closed.detail += (f"; difference of two Laplace releases (quadrature, 12 digits): worst margin "
                      f"{mpmath.nstr(worst, 3)} at shift {mpmath.nstr(mpmath.power(10, t_worst), 4)} over a "
                      f"search of {n} points in [1e-6, 40]; all three AUCs equal 1/2 at zero shift")
    return closed


@claim("LXM-PRcurve", ("001",), SOURCE + ", Eqs. 9-11, Fig. 3a (catalog LXM-PRcurve)", "identity",
       "the Laplace PR curve is prec(r) = r/(r + g(r)) with the catalog's three-piece g",
       latex=r"\mathrm{prec}(r) = \frac{r}{r+g(r)},\ g(r)=\begin{cases}1-e^{\varepsilon}(1-r) & r\ge 1-e^{-\varepsilon}/2\\ "
             r"\frac{e^{-\varepsilon}}{4(1-r)} & r\ge \tfrac12\\ e^{-\varepsilon}r & \text{otherwise}\end{cases}")
def _pr_curve():
    e = sy.eps
    r = A.recall
    g = sp.Piecewise((1 - sp.exp(e) * (1 - r), r >= 1 - sp.exp(-e) / 2),
                     (sp.exp(-e) / (4 * (1 - r)), r >= sp.S.Half), (sp.exp(-e) * r, True))
    printed = r / (r + g)
    ours = A.pr_curve(derive.laplace()).subs(A.w, 1)

    # references: the catalog's printed form (numeric.mp.evaluate), and the PR point of the NP test
    # from the Laplace laws: threshold theta with P(Lap(1, 1/eps) > theta) = r, alpha = P(Lap(0, 1/eps)
    # > theta), precision = r/(r + alpha)
    def from_laws(eps, rv):
        b = 1 / eps
        theta = 1 - b * mpmath.log(2 * rv) if rv <= mpmath.mpf(1) / 2 else 1 + b * mpmath.log(2 * (1 - rv))
        return rv / (rv + laplace_sf(theta, 0, b))

    def rows():
        for eps in ("0.5", "2", "20"):
            for rv in ("1e-300", "1e-30", "0.001", "0.2", "0.5", "0.7", "0.95", "0.999", "0.9999999999",
                       "0.999999999999999999999999999999"):
                value = mp.evaluate(ours, {e: eps, r: rv}, 25)
                with mpmath.workdps(80):
                    ref = from_laws(mpmath.mpf(eps), mpmath.mpf(rv))
                yield {"eps": eps, "recall": rv, "reference": "Laplace laws"}, value, ref
                yield ({"eps": eps, "recall": rv, "reference": "printed g"}, value,
                       mp.evaluate(printed, {e: eps, r: rv}, 25))
    return agreement(rows(), mpmath.mpf(10) ** -23,
                     "r/(r + f(1 - r)) from the Laplace record (derive.attack.pr_curve, 25 digits) vs the PR "
                     "point of the NP test from the Laplace laws and vs the catalog's printed g; eps in "
                     "{0.5, 2, 20}, recall from 1e-300 to 1 - 1e-30")
