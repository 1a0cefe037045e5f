"""Seed 001 (Liu, He, Chanyaswad, Wang, Mittal (2019)): statements made in words, checked; errata found by the tool.

How these claims are built and what REFUTED means here: ``proofs_check.errata_common``.
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

import derive
from numeric import attack as NA
from numeric import mp

from .errata_common import (
    DIG,
    LXM,
    TOL,
    WDPS,
    _all,
    _dec,
    _gdp_delta,
    _gt,
    _laplace_threshold,
    _mpf,
    _s,
    _sweep,
    printed_numbers,
)
from .grid import brute_max, laplace_sf, normal_cdf, normal_isf
from .outcomes import agreement, refutation, symbolic_zero
from .registry import claim
from .rounding import reproduces
from .status import CONFIRMED, FAILED, Outcome


@claim("LXM-Errata-PD-lambda-branch2", ("001",), LXM + ", Section 4.1.5, lines 878-884", "statement",
       "'Combining Eq. 6 and Eq. 8, we know that lambda = e^-eps/(4 alpha^2) if alpha in [0, 0.5], or "
       "e^-eps/(4(1 - alpha)^2) if alpha in (0.5, 1]' (the extraction keeps the terms and the line layout, not "
       "the fraction bars): for alpha in (0.5, 1] the Neyman-Pearson threshold of the Laplace likelihood ratio "
       "is e^-eps, its minimum (theta < 0 there, where the ratio is constant and Eq. 8 does not apply); neither "
       "e^-eps/(4(1 - alpha)^2) nor 4(1 - alpha)^2 e^-eps is, and the paper's own range e^-eps <= lambda <= e^eps "
       "(lines 642-646) excludes the second always and the first for alpha > 1 - e^-eps/2; the first branch also "
       "holds only for alpha >= e^-eps/2 (e^eps below)",
       latex=r"\lambda(\alpha)=\begin{cases}e^{\varepsilon}&\alpha\le e^{-\varepsilon}/2\\"
             r"e^{-\varepsilon}/(4\alpha^2)&\alpha\in[e^{-\varepsilon}/2,\tfrac12]\\"
             r"e^{-\varepsilon}&\alpha\in(\tfrac12,1]\end{cases}")
def _lxm_lambda():
    eps, lap = "1", derive.laplace("1")

    def ratio(th, e):
        """dQ(D)/dQ(D') at theta: Laplace densities of mean 1 and 0, scale 1/eps."""
        return mpmath.exp(-e * abs(th - 1)) / mpmath.exp(-e * abs(th))

    def corrected():
        rows = []
        with mpmath.workdps(WDPS):
            e = _mpf(eps)
            for a, want in (("0.6", mpmath.exp(-e)), ("0.75", mpmath.exp(-e)), ("0.9", mpmath.exp(-e)),
                            ("0.3", mpmath.exp(-e) / (4 * _mpf("0.3") ** 2)),
                            ("0.2", mpmath.exp(-e) / (4 * _mpf("0.2") ** 2)), ("0.1", mpmath.exp(e))):
                th = NA.pr(lap, a, DIG).threshold
                rows.append(({"alpha": a, "what": "threshold (numeric.attack.pr) vs the Laplace tail quantile"},
                             th, _laplace_threshold(a) / e))
                rows.append(({"alpha": a, "what": "likelihood ratio at the threshold vs the three-piece lambda"},
                             ratio(th, e), want))
        return agreement(rows, TOL, "Laplace(eps = 1), Q(D') = 0, Q(D) = 1: thresholds of numeric.attack.pr "
                                    "against the Laplace tail; the likelihood ratio there from the two densities")

    def counterexample():
        out = {}
        with mpmath.workdps(WDPS):
            e = _mpf(eps)
            for a in ("0.75", "0.9"):
                th = NA.pr(lap, a, DIG).threshold
                lam = ratio(th, e)
                divided = mpmath.exp(-e) / (4 * (1 - _mpf(a)) ** 2)
                multiplied = 4 * (1 - _mpf(a)) ** 2 * mpmath.exp(-e)
                if not (_gt(divided, lam) and _gt(lam, multiplied)):
                    return None
                out[f"alpha = {a}"] = (f"threshold {_s(lam, 12)} (= e^-eps); read as e^-eps/(4(1 - alpha)^2): "
                                       f"{_s(divided, 12)}; read as 4(1 - alpha)^2 e^-eps: {_s(multiplied, 12)}")
            out["range"] = ("the paper's e^-eps <= lambda <= e^eps (lines 642-646): 4(1 - alpha)^2 e^-eps < e^-eps for "
                            "every alpha > 1/2; e^-eps/(4(1 - 0.9)^2) = 9.197 > e^eps = 2.718")
        return out
    return refutation("Combining Eq. 6 and Eq. 8, we know that ... = e\ufffd \ufffd ... 4\ufffd 2 if \ufffd 2 "
                      "[0; 0:5], or e\ufffd \ufffd ... 4(1 \ufffd \ufffd )2 if \ufffd 2 (0:5; 1].",
                      "lambda = e^-eps for alpha in (0.5, 1] (the minimum of the likelihood ratio; ties broken by the "
                      "output threshold of Eq. 6), e^-eps/(4 alpha^2) for alpha in [e^-eps/2, 0.5] and e^eps below; "
                      "at eps = 1, alpha = 0.75: 0.3679, not 1.4715 (e^-eps/(4(1 - alpha)^2)) or 0.0920 "
                      "(4(1 - alpha)^2 e^-eps)", counterexample, corrected,
                      "thresholds through numeric.attack.pr of Laplace(1), likelihood ratio from the densities",
                      kind="formula")


#: Table 1 as the extraction holds it (lines 774-784; beta, eps and the dashes are U+FFFD there)
_TABLE1_QUOTE_PLATEAU = ("F \ufffdscore 0.55 0.58 0.62 0.67 0.76 0.83 0.9 0.95 ... \ufffd = 0 :5 0.22 ... "
                         "\ufffd = 0 :8 \ufffd \ufffd 0.49 ... \ufffd = 1 :5 \ufffd \ufffd \ufffd \ufffd 1.17 ... "
                         "\ufffd = 2 \ufffd \ufffd \ufffd \ufffd \ufffd 1.61")
_TABLE1_QUOTE_TRUNCATED = ("F \ufffdscore 0.55 0.58 0.62 0.67 0.76 0.83 0.9 0.95 ... \ufffd = 0 :5 0.22 0.34 0.55 0.82 ... "
                           "\ufffd = 1 \ufffd \ufffd \ufffd 0.71 1.4 2.12 ... \ufffd = 1 :5 \ufffd \ufffd \ufffd "
                           "\ufffd 1.17 1.88 2.99 4.41")
_PLATEAU_CELLS = (("0.5", "0.55", "0.22"), ("0.8", "0.62", "0.49"), ("1.5", "0.76", "1.17"), ("2", "0.83", "1.61"))
_TRUNC_CELLS = (("0.5", "0.67", "0.82"), ("1", "0.67", "0.71"), ("1", "0.83", "2.12"), ("1.5", "0.9", "2.99"),
                ("1.5", "0.95", "4.41"))


def _f_beta_at(eps, beta, th, w=1):
    """F_beta of the Laplace attack that reports 'D' above theta (Q(D') = 0, Q(D) = 1, scale 1/eps), from
    precision = RSR/(RSR + w GSR) and recall = RSR with RSR, GSR the Laplace tails above theta; w = 1 - rho_p
    is the prior weight (App. 10.5), 1 without a prior: F_beta = (1 + beta^2) RSR/(beta^2 + RSR + w GSR)."""
    e, b2 = _mpf(eps), _mpf(beta) ** 2
    rsr, gsr = laplace_sf(th, 1, 1 / e), laplace_sf(th, 0, 1 / e)
    return (1 + b2) * rsr / (b2 + rsr + _mpf(w) * gsr)


def _f_beta_brute(eps, beta, w=1):
    """max over theta of F_beta (``_f_beta_at``); the supremum includes theta -> -oo (the plateau
    (1 + beta^2)/(1 + beta^2 + w))."""
    with mpmath.workdps(30):
        e, b2 = _mpf(eps), _mpf(beta) ** 2
        _, best = brute_max(lambda th: _f_beta_at(eps, beta, th, w), -40 / e, 1 + 40 / e, grid=400, smooth=True)
        return max(best, (1 + b2) / (1 + b2 + _mpf(w)))


@claim("LXM-Errata-Table1-plateau", ("001",), LXM + ", Table 1, lines 772-786", "statement",
       "Table 1 (largest eps with F*_beta <= F) prints a value in four cells where F is below the plateau "
       "(1 + beta^2)/(2 + beta^2) of F*_beta, so no eps qualifies; the printed value is the turning point "
       "log(1 + beta^2)",
       latex=r"F<\frac{1+\beta^2}{2+\beta^2}\le F^*_\beta(\varepsilon)\ \forall\varepsilon:\ (\beta,F)="
             r"(0.5,0.55),(0.8,0.62),(1.5,0.76),(2,0.83)")
def _lxm_plateau():
    def corrected():
        rows = []
        for beta, _, pr in _PLATEAU_CELLS:
            with mpmath.workdps(WDPS):
                b2 = _mpf(beta) ** 2
                rows.append(({"beta": beta, "what": "F*_beta at small eps (numeric.attack.fscore_optimum) vs "
                              "(1 + beta^2)/(2 + beta^2)"},
                             NA.fscore_optimum(derive.laplace("0.01"), beta, DIG).fscore, (1 + b2) / (2 + b2)))
            rows.append(({"beta": beta, "eps": pr, "what": "F*_beta at the printed eps vs brute force over theta"},
                         NA.fscore_optimum(derive.laplace(pr), beta, DIG).fscore, _f_beta_brute(pr, beta)))
        out = agreement(rows, 1e-9, "F*_beta of Laplace through numeric.attack.fscore_optimum against the plateau "
                                    "and a brute-force maximum over the threshold (F* is non-decreasing in eps, "
                                    "so its minimum is the plateau)")
        if out.status is CONFIRMED:
            for beta, _, pr in _PLATEAU_CELLS:
                tp = mpmath.log(1 + _mpf(beta) ** 2)
                if not reproduces(pr, tp):
                    return Outcome(FAILED, detail=f"beta = {beta}: log(1 + beta^2) = {_s(tp, 20)} is not the printed {pr}")
            out.detail += "; each printed value is log(1 + beta^2) to two decimals"
        return out

    def values():   # no eps qualifies (None): the printed cell differs whatever its digits
        return [(pr, NA.fscore_inverse(beta, f, digits=DIG).eps) for beta, f, pr in _PLATEAU_CELLS]
    return printed_numbers(_TABLE1_QUOTE_PLATEAU,
                           "these cells should be empty: F is below the plateau (1 + beta^2)/(2 + beta^2) (0.5556, "
                           "0.6212, 0.7647, 0.8333) that F*_beta never goes under; the printed numbers are the turning "
                           "points log(1 + beta^2)", tuple(f"LXM-Table1:beta={b}:F={f}" for b, f, _ in _PLATEAU_CELLS),
                           values, corrected, "numeric.attack.fscore_inverse and fscore_optimum (Laplace, Eq. 12)")


@claim("LXM-Errata-Table1-truncated", ("001",), LXM + ", Table 1, lines 774-784", "statement",
       "five cells of Table 1 print eps_max truncated to two decimals: 0.82, 0.71, 2.12, 2.99, 4.41 for "
       "0.8258, 0.7157, 2.1283, 2.9969, 4.4158.  Truncation keeps F*_beta at the printed eps at or below the bound, "
       "as the table's definition (the largest eps with F*_beta <= F) asks: reproduced, not an erratum",
       latex=r"\varepsilon_{\max}=0.8258,0.7157,2.1283,2.9969,4.4158")
def _lxm_truncated():
    state = {}

    def corrected():
        rows = []
        for beta, f, pr in _TRUNC_CELLS:
            eps = NA.fscore_inverse(beta, f, digits=DIG).eps
            state[(beta, f)] = eps
            rows.append(({"beta": beta, "F": f, "what": "F*_beta at the inverse (brute force over theta) vs F"},
                         _f_beta_brute(_dec(eps, 20), beta), _mpf(f)))
        return agreement(rows, 1e-9, "the eps of numeric.attack.fscore_inverse gives back F under a brute-force "
                                     "maximum of F_beta over the threshold")

    def values():
        return [(pr, state[(beta, f)]) for beta, f, pr in _TRUNC_CELLS]
    return printed_numbers(_TABLE1_QUOTE_TRUNCATED, "eps_max truncated to two decimals (0.8258, 0.7157, 2.1283, 2.9969, "
                           "4.4158): the printed cells", tuple(f"LXM-Table1:beta={b}:F={f}" for b, f, _ in _TRUNC_CELLS),
                           values, corrected, "numeric.attack.fscore_inverse (closed-form inverse of Eq. 12)")


@claim("LXM-Errata-GaussSigma-range", ("001",), LXM + ", Section 4.3, lines 951-961", "statement",
       "the classical calibration sigma = sqrt(2 log(1.25/delta)) Delta Q/eps is stated without eps < 1; it is "
       "not (eps, delta)-DP for large eps (delta = 1e-5, eps = 9: exact delta(9) = 1.359e-5)",
       latex=r"\sigma=\sqrt{2\log(1.25/\delta)}/\varepsilon:\ \delta(9)=1.359\cdot10^{-5}>10^{-5}")
def _lxm_gauss_range():
    delta = "1e-5"

    def mu_of(eps):
        with mpmath.workdps(WDPS):
            return _mpf(eps) / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / _mpf(delta)))

    def corrected():
        rows = [({"eps": e, "what": "delta(eps) of classical_gaussian(eps, 1e-5) vs quadrature of the Gaussian "
                  "hockey stick"}, mp.profile_delta(derive.classical_gaussian(e, delta), e, DIG), _gdp_delta(mu_of(e), e))
                for e in ("9", "0.5")]

        def margin(e):
            got = mp.profile_delta(derive.classical_gaussian(e, delta), e, DIG)
            with mpmath.workdps(60):
                return (_mpf(delta) - got) / _mpf(delta)
        return _all(lambda: agreement(rows, 1e-10, "toolkit profile against the Gaussian law"),
                    lambda: _sweep([("classical_gaussian(eps, 1e-5)", margin)], -3, math.log10(0.999),
                                   "delta(eps) <= 1e-5 for eps < 1, margin (1e-5 - delta(eps))/1e-5", point_name="eps",
                                   grid=7, iterations=6))

    def counterexample():
        got = mp.profile_delta(derive.classical_gaussian("9", delta), "9", DIG)
        if not _gt(got, _mpf(delta), mpmath.mpf("0.01")):
            return None
        return {"eps": "9", "delta": delta, "mu = eps/sqrt(2 log(1.25/delta))": _s(mu_of("9"), 10),
                "exact delta(9)": _s(got, 12)}
    return refutation('One of the most popular mecha- nisms to achieve (�; � )-DP is the Gaussian perturbation mechanism, where aGaussian noise with zero mean and standard variant � = ... 2 log(1:25=� )� Q=� is added to ... the query output [16, 18].',
                      "the calibration is (eps, delta)-DP for eps < 1 (Dwork-Roth); for larger eps use the analytic "
                      "Gaussian mechanism", counterexample, corrected,
                      "mp.profile_delta of derive.classical_gaussian", kind='statement')


@claim("LXM-Errata-App10.3-minimum-F", ("001",), LXM + ", Appendix 10.3, lines 1795-1806", "statement",
       "'The corresponding minimum value for F-score can be computed as ...' (the proof of Eq. 12, second "
       "interval): the stationary point theta* of f = (GSR + beta^2)/RSR minimises f and so MAXIMISES "
       "F = (1 + beta^2)/(1 + f); the printed value is the maximum F-score, and the infimum of F over theta is 0")
def _lxm_min_f():
    cases = (("2", "1"), ("3", "2"), ("4", "0.5"))

    def corrected():
        rows = [({"eps": e, "beta": b, "what": "F*_beta (numeric.attack.fscore_optimum) vs brute-force max over theta"},
                 NA.fscore_optimum(derive.laplace(e), b, DIG).fscore, _f_beta_brute(e, b)) for e, b in cases]
        return agreement(rows, 1e-9, "the value at the stationary point is the maximum of F_beta over the threshold")

    def counterexample():
        out = {}
        with mpmath.workdps(30):
            for e, b in cases:
                opt = NA.fscore_optimum(derive.laplace(e), b, DIG)
                th = mpmath.mpf(opt.threshold)
                near = [_f_beta_at(e, b, th + d) for d in (mpmath.mpf("-0.3"), mpmath.mpf("0.3"))]
                far = _f_beta_at(e, b, th + 40 / _mpf(e))
                if not (all(_gt(opt.fscore, v) for v in near) and _gt(opt.fscore, far)):
                    return None
                out[f"eps = {e}, beta = {b}"] = (f"F(theta* = {_s(th, 8)}) = {_s(opt.fscore, 10)}; F(theta* -+ 0.3) = "
                                                 f"{_s(near[0], 6)}, {_s(near[1], 6)}; F(theta* + 40/eps) = {_s(far, 3)}")
        return out
    return refutation("Q(D 0). The corresponding minimum value for F\ufffdscore ... can be computed as (1+ "
                      "\ufffd 2 )(1+4 \ufffd 2 e\ufffd \ufffd",
                      "the corresponding maximum value of the F-score (the stationary point minimises f = (GSR + "
                      "beta^2)/RSR, hence maximises F = (1 + beta^2)/(1 + f)); it is Eq. 12's F*_beta",
                      counterexample, corrected, "numeric.attack.fscore_optimum and F_beta from the Laplace tails",
                      kind="statement")


# ------------------------------------------------------------ Appendix 10.5.1: F-score with a prior rho_p
#: rho_p = 0.5 (no record or temporal correlation): the prior weight w = 1 - rho_p (derive.attack.prior_weight)
_RHO_P, _W = "0.5", "0.5"


def _f_prior(eps, beta, th, w=_W, digits=DIG):
    """f = (w GSR + beta^2)/RSR at threshold theta, w = 1 - rho_p (App. 10.5.1's objective, F = (1 + beta^2)/(1 + f);
    w = 1 is App. 10.3's): GSR from the Laplace tail of Q(D') = 0 (plain mpmath), RSR through the toolkit as the
    power of the Neyman-Pearson test of Laplace(eps) at level GSR, to ``digits`` digits."""
    with mpmath.workdps(WDPS):
        gsr = laplace_sf(mpmath.mpf(th), 0, 1 / _mpf(eps))
    rsr = mp.power(derive.laplace(eps), _dec(gsr, 45), digits)
    with mpmath.workdps(WDPS):
        return (_mpf(w) * gsr + _mpf(beta) ** 2) / rsr, gsr, rsr


def _rsr_row(eps, th):
    """An agreement row: RSR at theta through the toolkit (``_f_prior``) against the Laplace tail of Q(D) = 1."""
    with mpmath.workdps(WDPS):
        ref = laplace_sf(mpmath.mpf(th), 1, 1 / _mpf(eps))
    return ({"eps": eps, "theta": th, "what": "RSR (mp.power at level GSR) vs the Laplace tail"},
            _f_prior(eps, "1", th)[2], ref)


@claim("LXM-Errata-App10.5.1-third-interval", ("001",), LXM + ", Appendix 10.5.1, line 2235", "statement",
       "the third interval of App. 10.5.1 is printed as [Q(D'), +inf); the f written for it, (0.5 (1 - rho_p) "
       "e^{-eps (theta - Q(D'))} + beta^2)/(0.5 e^{-eps (theta - Q(D))}), is f only for theta >= Q(D): the interval "
       "is [Q(D), +inf) (as in App. 10.3); at theta = Q(D') = 0 its 'RSR' 0.5 e^eps exceeds 1")
def _lxm_third_interval():
    eps, beta = "1", "1"

    def printed(th):
        with mpmath.workdps(WDPS):
            e, t = _mpf(eps), mpmath.mpf(th)
            rsr = mpmath.exp(-e * (t - 1)) / 2
            return ((1 - _mpf(_RHO_P)) * mpmath.exp(-e * t) / 2 + _mpf(beta) ** 2) / rsr, rsr

    def corrected():
        rows = []
        for th in ("1", "2", "0", "0.5"):
            f = _f_prior(eps, beta, th)[0]
            rows.append(_rsr_row(eps, th))
            if mpmath.mpf(th) >= 1:
                rows.append(({"theta": th, "what": "printed f on [Q(D), inf) vs f"}, printed(th)[0], f))
        return agreement(rows, TOL, "rho_p = 0.5, eps = 1, beta = 1, Q(D') = 0, Q(D) = 1")

    def counterexample():
        out = {}
        for th in ("0", "0.5"):
            f, _, _ = _f_prior(eps, beta, th)
            pf, prsr = printed(th)
            if not _gt(pf, f) and not _gt(f, pf):
                return None
            out[f"theta = {th} (in [Q(D'), Q(D)))"] = f"f = {_s(f, 8)}; printed form {_s(pf, 8)} (its RSR {_s(prsr, 6)})"
        return out
    return refutation("3) For the third interval of [Q(D 0); + 1 , we have f =",
                      "the third interval is [Q(D), +inf), where the printed f holds (theta = 1, 2: equal to f); on "
                      "[Q(D'), Q(D)) it does not (theta = 0: f = 1.5317, printed 0.9197)", counterexample, corrected,
                      "mp.power of derive.laplace(1) at the level GSR(theta), rho_p = 0.5", kind="formula")


@claim("LXM-Errata-App10.5.1-monotone-interval", ("001",), LXM + ", Appendix 10.5.1, lines 2289-2290", "statement",
       "'Therefore, f increases monotonically for theta in (-inf, Q(D')]' (the conclusion of part 3): on "
       "(-inf, Q(D')] f increases only if eps < log(1 + beta^2/(1 - rho_p)) (log 3 = 1.0986 at rho_p = 0.5, "
       "beta = 1) and decreases otherwise (eps = 3); part 3's conclusion is that f increases on [Q(D), +inf)")
def _lxm_monotone():
    beta = "1"

    def values(eps, thetas):
        return [_f_prior(eps, beta, th)[0] for th in thetas]

    def corrected():
        rows = [_rsr_row(e, th) for e in ("1", "3") for th in ("-2", "1.5")]
        out = agreement(rows, TOL, "rho_p = 0.5, beta = 1, Q(D') = 0, Q(D) = 1")
        if out.status is not CONFIRMED:
            return out
        up_right = values("3", ("1", "1.5", "3"))
        up_left = values("1", ("-2", "-1", "-0.1"))
        if not (up_right[0] < up_right[1] < up_right[2] and up_left[0] < up_left[1] < up_left[2]):
            return Outcome(FAILED, detail=f"f not increasing on [1, oo) at eps = 3 ({up_right}) or on (-oo, 0] at "
                                          f"eps = 1 < log 3 ({up_left})")
        out.detail += "; f increases on [Q(D), oo) (eps = 3) and on (-oo, Q(D')] when eps = 1 < log 3"
        return out

    def counterexample():
        down = values("3", ("-2", "-1", "-0.1"))
        if not (down[0] > down[1] > down[2]):
            return None
        return {"eps = 3, rho_p = 0.5, beta = 1": f"f(-2), f(-1), f(-0.1) = {', '.join(_s(v, 8) for v in down)}: "
                "decreasing on (-inf, Q(D')]", "log(1 + beta^2/(1 - rho_p))": "1.0986 < eps = 3"}
    return refutation("Therefore, f increases monotonically for \ufffd 2 (\ufffd1 ; Q(D 0)]",
                      "f increases on [Q(D), +inf) (part 3); on (-inf, Q(D')] it increases only for eps < log(1 + "
                      "beta^2/(1 - rho_p)) (part 1)", counterexample, corrected,
                      "mp.power of derive.laplace at the level GSR(theta), rho_p = 0.5", kind="statement")


@claim("LXM-Errata-App10.5.1-Eq12-xref", ("001",), LXM + ", Appendix 10.5.1, lines 2290-2293", "statement",
       "'Combining the analysis for all the three intervals, we can achieve F-score as in Eq. 12': the analysis is "
       "of the prior version (rho_p > 0), whose maximum differs from Eq. 12's (rho_p = 0.5, eps = 2, beta = 1: "
       "0.871021 against 0.819095); App. 10.5.2 itself calls the result Eq. 18")
def _lxm_eq12_xref():
    eps, beta = "2", "1"

    def corrected():
        rows = [({"w": w, "what": "F*_beta with prior weight w (numeric.attack.fscore_optimum) vs brute force"},
                 NA.fscore_optimum(derive.laplace(eps), beta, DIG, weight=w).fscore, _f_beta_brute(eps, beta, w))
                for w in (_W, "1")]
        return agreement(rows, 1e-9, "eps = 2, beta = 1: F* with rho_p = 0.5 (w = 0.5) and without (w = 1, Eq. 12)")

    def counterexample():
        with_prior = NA.fscore_optimum(derive.laplace(eps), beta, DIG, weight=_W).fscore
        eq12 = NA.fscore_optimum(derive.laplace(eps), beta, DIG).fscore
        if not _gt(with_prior, eq12, mpmath.mpf("1e-3")):
            return None
        return {"rho_p = 0.5, eps = 2, beta = 1": f"max F of App. 10.5.1 = {_s(with_prior, 10)}; Eq. 12 = {_s(eq12, 10)}"}
    return refutation("Combining the analysis for all the three ... intervals, we can achieve F \ufffd ... \ufffdscore as "
                      "in Eq. 12.",
                      "the F-score with the prior (Eq. 18 of App. 10.5.2: e^eps replaced by e^eps/(1 - rho_p), plateau "
                      "(1 + beta^2)/(2 + beta^2 - rho_p)), not Eq. 12", counterexample, corrected,
                      "numeric.attack.fscore_optimum with weight = 1 - rho_p", kind="cross-reference")



# ------------------------------------------------------------ Appendix 10.4: the Gaussian density of Eq. (29)
_O, _QP = sp.symbols("o Q_prime", real=True)
_DQ, _EPS, _DEL, _C = sp.symbols("DeltaQ epsilon delta c", positive=True)
_LOG125 = sp.log(sp.Rational(5, 4) / _DEL)
#: the noise variance App. 10.4 prints (line 1872 and the six denominators of Eq. (29)/lambda): 2 log(1.25/delta) DQ/eps
_PRINTED_VAR = 2 * _LOG125 * _DQ / _EPS
#: Sec. 4.3's standard deviation (lines 955-959): sqrt(2 log(1.25/delta)) DQ/eps
_SIGMA = sp.sqrt(2 * _LOG125) * _DQ / _EPS


def _PRINTED_DENSITY(o, q, var):
    """Eq. (29)'s density as printed (lines 1889-1897): 1/sqrt(var) exp(-(o - q)^2/(2 var)), var = _PRINTED_VAR
    (the radical read over the whole denominator; a flip in tests/test_errata_referee.py prints the normal density)."""
    return 1 / sp.sqrt(var) * sp.exp(-(o - q) ** 2 / (2 * var))


def _normal_density(o, q, sigma):
    return sp.exp(-(o - q) ** 2 / (2 * sigma ** 2)) / (sp.sqrt(2 * sp.pi) * sigma)


def _log_lr(density):
    """log(density(o; Q(D))/density(o; Q(D'))) with Q(D) = Q(D') + DQ, simplified by SymPy."""
    return sp.simplify(sp.expand_log(sp.log(density(_O, _QP + _DQ)) - sp.log(density(_O, _QP)), force=True))


@claim("LXM-Errata-Gauss-variance", ("001",), LXM + ", Appendix 10.4, Eq. (29), lines 1871-1922 and 1957-1965; "
       "Section 4.3, lines 955-959", "statement",
       "App. 10.4 writes the Gaussian mechanism's noise as N(2 log(1.25/delta) DQ/eps) and its density (Eq. (29)) "
       "with prefactor 1/sqrt(2 log(1.25/delta) DQ/eps) and exponent -(o - Q(D))^2/(4 log(1.25/delta) DQ/eps), and "
       "the threshold lambda with the same denominator; Sec. 4.3's mechanism has sigma = sqrt(2 log(1.25/delta)) "
       "DQ/eps, so 2 sigma^2 = 4 log(1.25/delta) (DQ/eps)^2.  The printed density integrates to sqrt(2 pi), its "
       "log-likelihood ratio is DQ/eps times the correct one (slope 0.0213019 against 0.0106509 at DQ = 1, eps = 0.5, "
       "delta = 1e-5) and is not invariant under rescaling the query",
       latex=r"\frac{1}{\sqrt{2\pi}\sigma}e^{-\frac{(o-Q)^2}{2\sigma^2}},\ 2\sigma^2=4\log(1.25/\delta)"
             r"\frac{\Delta Q^2}{\varepsilon^2}\ne4\log(1.25/\delta)\frac{\Delta Q}{\varepsilon}")
def _lxm_gauss_variance():
    """Not an extraction loss: this extraction keeps superscripts, in the same display ("( o\ufffd Q ( D )) 2",
    line 1895) and elsewhere ("4(1 \ufffd \ufffd )2", line 884), and would keep parentheses around DQ/eps; all six
    occurrences of the variance (the N(.) argument of line 1872 and the denominators of lines 1890/1897, 1902/1909,
    1918, 1934/1941 and 1963) read "log(1:25=\ufffd )\ufffd Q=\ufffd" with no square.  The extent of the radical in
    the prefactor is not visible; under either reading the exponent is not -(o - Q)^2/(2 sigma^2) for Sec. 4.3's
    sigma (its units are Q^2/Q).  The direction of the Neyman-Pearson test, and so Theorem 6's conclusion, is
    unaffected: the errata are the density, Lambda(o) and lambda."""
    at = {_DQ: 1, _EPS: sp.Rational(1, 2), _DEL: sp.Rational(1, 100000)}
    eps, delta = "0.5", "1e-5"
    holds = _EPS ** 2 * (2 * _O - (_QP + _DQ) - _QP) / (4 * _LOG125 * _DQ)

    def integral(density_expr):
        f = sp.lambdify(_O, density_expr.xreplace(at).xreplace({_QP: 0}), "mpmath")
        with mpmath.workdps(30):
            return mpmath.quad(f, [-mpmath.inf, -20, 0, 20, mpmath.inf])

    def corrected():
        correct = lambda o, q: _normal_density(o, q, _SIGMA)   # noqa: E731
        lr = _log_lr(correct)
        with mpmath.workdps(WDPS):
            sig = mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / _mpf(delta))) / _mpf(eps)
        rows = [({"what": "integral of the normal density with Sec. 4.3's sigma (mpmath quadrature), DQ = 1, "
                  "eps = 0.5, delta = 1e-5"}, integral(correct(_O, _QP)), 1)]
        for a in ("0.05", "0.3"):
            with mpmath.workdps(WDPS):
                ref = normal_cdf((sig * normal_isf(_mpf(a)) - 1) / sig)
            rows.append(({"alpha": a, "what": "trade-off of derive.classical_gaussian(0.5, 1e-5) (mp.tradeoff) vs the "
                          "NP test of N(0, sigma^2) against N(DQ, sigma^2), sigma of Sec. 4.3"},
                         mp.tradeoff(derive.classical_gaussian(eps, delta), a, DIG), ref))
        return _all(lambda: symbolic_zero(lr - holds, "log LR of N(Q(D), sigma^2) against N(Q(D'), sigma^2) = eps^2 "
                                                      "(2o - Q(D) - Q(D'))/(4 log(1.25/delta) DQ)"),
                    lambda: agreement(rows, TOL, "the normal density with sigma = sqrt(2 log(1.25/delta)) DQ/eps "
                                                 "integrates to 1 and is the toolkit's classical Gaussian mechanism"))

    def counterexample():
        printed = lambda o, q: _PRINTED_DENSITY(o, q, _PRINTED_VAR)   # noqa: E731
        correct = lambda o, q: _normal_density(o, q, _SIGMA)            # noqa: E731
        lr_p, lr_c = _log_lr(printed), _log_lr(correct)
        ratio = sp.simplify(lr_p / lr_c)
        mass = integral(printed(_O, _QP))
        if ratio == 1 and abs(mass - 1) <= TOL:
            return None
        scale = {_O: _C * _O, _QP: _C * _QP, _DQ: _C * _DQ}
        slope_p, slope_c = (sp.N(sp.diff(x, _O).xreplace(at), 15) for x in (lr_p, lr_c))
        var_p = _PRINTED_VAR.xreplace(at)
        g_p = mp.tradeoff(derive.gaussian(_dec(1 / mpmath.sqrt(mpmath.mpf(sp.N(var_p, 40))), 30)), "0.05", DIG)
        g_c = mp.tradeoff(derive.classical_gaussian(eps, delta), "0.05", DIG)
        return {"printed log LR / correct log LR (SymPy)": str(ratio),
                "integral of the printed density (mpmath quadrature)": f"{_s(mass, 12)} (sqrt(2 pi) = "
                                                                         f"{_s(mpmath.sqrt(2 * mpmath.pi), 12)})",
                "DQ = 1, eps = 0.5, delta = 1e-5": (f"variance {sp.N(var_p, 8)} printed, sigma^2 = "
                                                    f"{sp.N((_SIGMA ** 2).xreplace(at), 8)}; d log Lambda/do = "
                                                    f"{_s(slope_p, 8)} printed, {_s(slope_c, 8)} correct"),
                "rescaling o, Q, DQ by c (SymPy)": (f"printed log LR times {sp.simplify(lr_p.xreplace(scale) / lr_p)}, "
                                                    f"correct times {sp.simplify(lr_c.xreplace(scale) / lr_c)}"),
                "G(0.05) (mp.tradeoff)": f"{_s(g_p, 8)} with the printed variance; {_s(g_c, 8)} for Sec. 4.3's sigma"}
    return refutation("standard variant \ufffd = ... p 2 log(1:25=\ufffd )\ufffd Q=\ufffd is added to ... "
                      "o = A(D) = Q(D)+ N (2 log(1:25=\ufffd )\ufffd Q=\ufffd) ... 1p 2 log(1 :25=\ufffd )\ufffd Q=\ufffd "
                      "exp \ufffd \ufffd ( o\ufffd Q ( D )) 2 4 log(1 :25=\ufffd )\ufffd Q=\ufffd ... = exp \ufffd "
                      "\ufffd Q(2o \ufffd Q(D ) \ufffd Q(D 0)) 4 log(1:25=\ufffd )\ufffd Q=\ufffd ... as exp \ufffd "
                      "\ufffd Q(2 \ufffd \ufffd Q(D ) \ufffd Q(D 0)) 4 log(1 :25=\ufffd )\ufffd Q=\ufffd",
                      "the density 1/(sqrt(2 pi) sigma) exp(-(o - Q)^2/(2 sigma^2)) with sigma = sqrt(2 log(1.25/delta)) "
                      "DQ/eps (2 sigma^2 = 4 log(1.25/delta) DQ^2/eps^2), which integrates to 1; Lambda(o) = exp(eps^2 "
                      "(2o - Q(D) - Q(D'))/(4 log(1.25/delta) DQ)) and lambda the same with o -> theta",
                      counterexample, corrected, "SymPy on the printed and the normal densities, mpmath quadrature, "
                      "mp.tradeoff of derive.classical_gaussian", kind="formula")


# ------------------------------------------------- Appendices 10.3 and 10.5.1: the derivative at the interval ends
#: the interval ends theta = Q(D) = 1 and Q(D') = 0 (Delta Q = 1, scale 1/eps), the cases (eps, beta, w = 1 - rho_p):
#: w = 1 is App. 10.3 (no prior), w = 1/2 App. 10.5.1 (rho_p = 1/2)
_ENDS_CASES = (("2", "1", "1"), ("0.5", "2", "1"), ("2", "1", "0.5"), ("3", "0.5", "0.5"))
#: central-difference step and the digits asked of the toolkit for it (error ~ 1e-35/1e-15 + 1e-15 << TOL)
_STEP, _STEP_DIGITS = mpmath.mpf("1e-15"), 35


def _numerator(exp, e, b2, w, t):
    """Eq. 27's (Eq. 31's) numerator at theta = t (Q(D') = 0, Q(D) = 1, Delta Q = 1), with ``exp`` mpmath's or
    SymPy's: 0.5 w eps (e^-eps - e^(-eps t) + (beta^2/w) e^(eps (t - 1)))."""
    return w * e / 2 * (exp(-e) - exp(-e * t) + b2 / w * exp(e * (t - 1)))


def _printed_slope(eps, beta, w, end):
    """The values the appendices print for df/dtheta at the ends: the numerator at theta = Q(D) (lines 1764-1766,
    2166-2169: '0.5 eps/DeltaQ (e^-eps - e^-eps + beta^2)') and at Q(D') (lines 1767-1769, 2170-2174: '0.5 eps/DeltaQ
    ((1 + beta^2) e^-eps - 1)'), with 1 - rho_p = w in App. 10.5.1."""
    return _numerator(mpmath.exp, _mpf(eps), _mpf(beta) ** 2, _mpf(w), 1 if end == "Q(D)" else 0)


def _slope_closed_forms():
    """df/dtheta at the ends by SymPy, from f = (w GSR + beta^2)/RSR on [Q(D'), Q(D)] = [0, 1] with the Laplace
    tails written from the density (GSR = e^(-eps theta)/2, RSR = 1 - e^(eps (theta - 1))/2): the pair
    (at Q(D), at Q(D')) and the symbols (eps, beta, w)."""
    e, b, w, t = sp.symbols("epsilon beta w theta", positive=True)
    f = (w * sp.exp(-e * t) / 2 + b ** 2) / (1 - sp.exp(e * (t - 1)) / 2)
    d = sp.diff(f, t)
    return (sp.simplify(d.subs(t, 1)), sp.simplify(d.subs(t, 0))), (e, b, w)


def _toolkit_slope(eps, beta, w, th):
    """df/dtheta at theta through the toolkit (``_f_prior``: RSR = mp.power of derive.laplace), central difference."""
    with mpmath.workdps(WDPS):
        right, left = th + _STEP, th - _STEP
    up = _f_prior(eps, beta, right, w, _STEP_DIGITS)[0]
    down = _f_prior(eps, beta, left, w, _STEP_DIGITS)[0]
    with mpmath.workdps(WDPS):
        return (up - down) / (2 * _STEP)


@claim("LXM-Errata-App10.3-derivative-at-ends", ("001",), LXM + ", Appendix 10.3, lines 1764-1773, and Appendix "
       "10.5.1, lines 2166-2180", "statement",
       "'When theta = Q(D), we have df/dtheta = 0.5 eps/DeltaQ (e^-eps - e^-eps + beta^2) > 0. When theta = Q(D'), we "
       "have df/dtheta = 0.5 eps/DeltaQ ((1 + beta^2) e^-eps - 1)' (and the same with beta^2/(1 - rho_p) and a factor "
       "1 - rho_p in App. 10.5.1): these are the numerators of Eq. 27 (Eq. 31) only; its denominator "
       "(1 - 0.5 e^(eps (theta - Q(D))/DeltaQ))^2 is 1/4 at Q(D) and (1 - 0.5 e^-eps)^2 at Q(D'), so the slopes are 4 "
       "times and 1/(1 - 0.5 e^-eps)^2 times the printed values; their signs, all the proofs use, are as printed")
def _lxm_slope_ends():
    (at_d, at_d0), (e, b, w) = _slope_closed_forms()
    # the printed values in symbols, for the exact ratios
    printed_d, printed_d0 = (_numerator(sp.exp, e, b ** 2, w, t) for t in (1, 0))

    def corrected():
        ratios = {"at Q(D)": sp.simplify(at_d / printed_d - 4),
                  "at Q(D')": sp.simplify(at_d0 * (1 - sp.exp(-e) / 2) ** 2 / printed_d0 - 1)}
        if any(r != 0 for r in ratios.values()):
            return Outcome(FAILED, detail=f"SymPy's slope over the printed numerator minus the stated factor: {ratios}")
        rows = []
        for eps, beta, wt in _ENDS_CASES:
            sub = {e: sp.Rational(eps), b: sp.Rational(beta), w: sp.Rational(wt)}
            for end, th, form in (("Q(D)", 1, at_d), ("Q(D')", 0, at_d0)):
                rows.append(({"eps": eps, "beta": beta, "w": wt, "theta": end,
                              "what": "toolkit central difference vs SymPy's df/dtheta"},
                             _toolkit_slope(eps, beta, wt, mpmath.mpf(th)), form.xreplace(sub).evalf(40)))
        out = agreement(rows, mpmath.mpf("1e-11"), "SymPy (diff of f from the Laplace tails; the slope is 4 x and "
                                                   "1/(1 - e^-eps/2)^2 x the printed numerators, exactly) vs the "
                                                   "toolkit's f (mp.power) by central differences")
        return out

    def counterexample():
        out = {}
        for eps, beta, wt in _ENDS_CASES:
            for end, th in (("Q(D)", 1), ("Q(D')", 0)):
                slope = _toolkit_slope(eps, beta, wt, mpmath.mpf(th))
                with mpmath.workdps(WDPS):
                    printed = _printed_slope(eps, beta, wt, end)
                    if abs(slope - printed) <= TOL * abs(slope):
                        return None
                    out[f"eps = {eps}, beta = {beta}, 1 - rho_p = {wt}, theta = {end}"] = (
                        f"df/dtheta = {_s(slope, 12)}, printed {_s(printed, 12)} (ratio {_s(slope / printed, 10)})")
        return out
    return refutation("When \ufffd = Q(D), we have @f ... @\ufffd \ufffd = Q(D ) = 0:5\ufffd ... \ufffd Q (e\ufffd "
                      "\ufffd \ufffd ... e\ufffd \ufffd + \ufffd 2) > 0. When \ufffd = Q(D 0), we have ... @f ... "
                      "= Q(D 0) = 0:5\ufffd ... \ufffd Q ((1 + \ufffd 2)e\ufffd \ufffd \ufffd 1)",
                      "df/dtheta = 2 eps beta^2/DeltaQ at theta = Q(D) (the printed value over Eq. 27's denominator "
                      "1/4) and 0.5 eps/DeltaQ ((1 + beta^2) e^-eps - 1)/(1 - 0.5 e^-eps)^2 at Q(D') (likewise in "
                      "App. 10.5.1 with beta^2/(1 - rho_p) and the factor 1 - rho_p); the signs are as printed",
                      counterexample, corrected, "SymPy's derivative of Eq. 27's f and the toolkit's f by central "
                      "differences, Delta Q = 1", kind="formula")
