"""Seed 000 (de Fondeville (2026)): statements made in words, checked; errata found by the tool.

How these claims are built and what REFUTED means here: ``proofs_check.errata_common``.
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

import derive
from derive import symbols as sy
from derive.posterior import posterior, prior, prior_c
from derive.special import Phi, PhiInv
from numeric import auc as NAUC
from numeric import design as ND
from numeric import mp
from numeric import risk as NR

from .errata_common import (
    DF,
    DIG,
    KZ,
    TOL,
    WDPS,
    _all,
    _dec,
    _f_eps_delta,
    _gauss_power,
    _gauss_tradeoff,
    _gdp_delta,
    _gdp_delta_closed,
    _gt,
    _laplace_power,
    _laplace_tradeoff,
    _mpf,
    _s,
    _sweep,
)
from .grid import normal_cdf, normal_isf, normal_sf
from .outcomes import agreement, refutation
from .registry import claim
from .rounding import reproduces
from .status import CONFIRMED, FAILED, Outcome

_G1 = ("1", "1")   # mu = 1, eps = 1


def _privacy_loss_event(mu: str, eps: str):
    """P[L > eps] and P[L < -eps] for the privacy loss L = log(q/p)(Y), Y ~ N(mu, 1), through the
    Gaussian record: {L > eps} = {Y > eps/mu + mu/2} is the rejection region of the NP test of
    level alpha = P_0(Y > eps/mu + mu/2), so P[L > eps] = 1 - f(alpha); {L < -eps} =
    {Y < -eps/mu + mu/2} is its acceptance region at level P_0(Y > -eps/mu + mu/2), so
    P[L < -eps] = f(that level).  The levels are passed as 40-digit decimals."""
    g = derive.gaussian(mu)
    with mpmath.workdps(WDPS):
        m, e = _mpf(mu), _mpf(eps)
        a_hi = _dec(normal_sf(e / m + m / 2))
        a_lo = _dec(normal_sf(-e / m + m / 2))
    return g, a_hi, a_lo, mp.power(g, a_hi, DIG), mp.tradeoff(g, a_lo, DIG)


def _privacy_loss_rows(mu, eps):
    g, a_hi, a_lo, up, down = _privacy_loss_event(mu, eps)
    delta = mp.profile_delta(g, eps, DIG)
    with mpmath.workdps(WDPS):
        m, e = _mpf(mu), _mpf(eps)
        rows = [({"what": f"delta({eps}) of G_{mu} (mp.profile_delta) vs quadrature of (q - e^eps p)_+"},
                 delta, _gdp_delta(mu, eps)),
                ({"what": f"P[L > {eps}] (mp.power at alpha = {a_hi[:12]}...) vs P(N(mu^2/2, mu^2) > eps)"},
                 up, normal_sf((e - m * m / 2) / m)),
                ({"what": f"P[L < -{eps}] (mp.tradeoff at alpha = {a_lo[:12]}...) vs P(N(mu^2/2, mu^2) < -eps)"},
                 down, normal_cdf((-e - m * m / 2) / m))]
    return delta, up, down, rows


@claim("DF-Errata-approxDP-probabilistic", ("000",), DF + ", Section 2.2, line 114", "statement",
       "'(eps, delta)-DP guarantees that (1) holds with probability at least 1 - delta': false; for the "
       "Gaussian mechanism mu = 1, exactly (1, delta(1))-DP, the output event where (1) holds pointwise "
       "(privacy loss L <= 1) has probability P[L <= 1] < 1 - delta(1)",
       latex=r"G_1\ \text{is}\ (1,\delta(1))\text{-DP but}\ P[L>1]=0.3085>\delta(1)=0.1269;\ "
             r"\text{what holds: } P(M(D')\in E)\le e^{\varepsilon}P(M(D)\in E)+\delta\ \forall E")
def _df_approx_probabilistic():
    mu, eps = _G1
    state = {}

    def corrected():
        delta, up, down, rows = _privacy_loss_rows(mu, eps)
        state.update(delta=delta, up=up)
        with mpmath.workdps(WDPS):
            m, e = _mpf(mu), _mpf(eps)
            rows.append(({"what": "delta(1) = P_Q[L > 1] - e P_P[L > 1] (the event {L > eps} attains the "
                                  "sup over events of P_Q(E) - e^eps P_P(E))"},
                         delta, _gdp_delta_closed(m, e)))
        return agreement(rows, TOL, "the toolkit's delta(1), P[L > 1] and P[L < -1] of G_1 agree with the "
                                    "Gaussian law (quadrature of the hockey stick, normal tails)")

    def counterexample():
        delta, up = state["delta"], state["up"]
        if not _gt(up, delta):
            return None
        return {"mechanism": "Gaussian, mu = 1 (tight: (1, delta(1))-DP)", "delta(1)": _s(delta, 18),
                "P[L > 1] (pure-DP inequality (1) violated)": _s(up, 18),
                "P[L <= 1]": _s(1 - up, 18), "1 - delta(1)": _s(1 - delta, 18)}
    return refutation('(\\epsilon,\\delta)-DP or approximate DP. The latter guarantees that (1) holds with probability at least ... 1-\\delta',
                      "(eps, delta)-DP bounds P[M(D') in E] <= e^eps P[M(D) in E] + delta for every event E "
                      "(the sup over E of the difference is delta(eps), attained at E = {L > eps}); it does "
                      "not make (1) hold with probability 1 - delta: G_1 has P[L <= 1] = 0.6915 < 0.8731",
                      counterexample, corrected,
                      "privacy loss L = log(q/p)(Y), Y ~ N(1,1); P[L > 1] through mp.power of G_1 at the level "
                      "of the event {L > 1}; delta(1) through mp.profile_delta; both against the Gaussian law", kind='statement')


@claim("KZ-S2.1-PDP", ("002",), KZ + ", Section 2.1, lines 37 and 40", "statement",
       "approximate DP is not 'pure DP with probability 1 - delta': an (eps, delta)-DP mechanism need not be "
       "(eps, delta)-probabilistically DP (Gaussian mu = 1: delta(1) = 0.1269 but P[|L| > 1] = 0.3753)",
       latex=r"\delta_{G_1}(1)=0.1269<P[|L|>1]=0.3753")
def _kz_pdp():
    mu, eps = _G1
    delta, up, down, rows = _privacy_loss_rows(mu, eps)
    out = agreement(rows, TOL, "delta(1), P[L > 1], P[L < -1] of G_1 against the Gaussian law")
    if out.status is not CONFIRMED:
        return out
    with mpmath.workdps(60):
        margin = (up + down - delta) / delta
    if not margin > TOL:
        return Outcome(FAILED, detail="P[|L| > 1] does not exceed delta(1)", counterexample={
            "delta(1)": _s(delta, 18), "P[|L| > 1]": _s(up + down, 18)})
    return Outcome(CONFIRMED, margin=mpmath.nstr(margin, 6), points=out.points, worst_at={"mu": mu, "eps": eps},
                   detail=f"G_1 is (1, {_s(delta, 12)})-DP while the PDP violation mass P[|L| > 1] = "
                          f"{_s(up + down, 12)}; margin = (P[|L| > 1] - delta)/delta; {out.detail}")


@claim("DF-Errata-Def6-prior-range", ("000",), DF + ", Definition 6, lines 214-222", "statement",
       "Definition 6 quantifies over p_prior in the closed interval [0, 1]: 'fails if for all p_prior in "
       "[0;1], sup_alpha p_post = 1', 'fails gracefully if for all alpha and p_prior in [0;1], p_post < 1'; "
       "at p_prior = 0 every posterior is 0 and at p_prior = 1 it is 1, so neither class has a member",
       latex=r"p_{\rm post}\big|_{\pi=0}=0,\ p_{\rm post}\big|_{\pi=1}=1;\ \text{Theorem 1 needs }\pi\in(0,1)")
def _df_def6_range():
    lap, urs, a = derive.laplace("1"), derive.uniform_sampling("1", "5"), "0.5"

    def corrected():
        r = NR.risk(lap, alpha0="0.01", prior_value="0.5")
        g1 = derive.gaussian("1")
        tiny = NR.posterior(g1, "0.5", "1e-100")
        with mpmath.workdps(WDPS):
            e = mpmath.e
            pw = _gauss_power("1", "1e-100")
            a0 = mpmath.mpf("1e-100")
            rows = [({"what": "Laplace eps = 1, prior 1/2: sup_alpha p_post (numeric.risk) vs pi e/(1 - pi + pi e)"},
                     r.posterior_sup, e / (1 + e)),
                    ({"what": "Gaussian mu = 1, prior 1/2, alpha = 1e-100: 1 - p_post vs Bayes alpha/(alpha + 1 - f)"},
                     tiny.one_minus_posterior, a0 / (a0 + pw)),
                    ({"what": "URS(1, 5): f(0) vs 1 - (1 - e^-1)/5"}, mp.tradeoff(urs, "0", DIG),
                     1 - (1 - mpmath.exp(-1)) / 5)]
        out = agreement(rows, TOL, "with p_prior in (0, 1) the three classes of Theorem 1 are non-empty: "
                                   "Laplace sup p_post < 1 (no failure), Gaussian p_post < 1 for alpha > 0 "
                                   "(graceful), URS f(0) < 1 (catastrophic)")
        classes = (NR.classify(lap).failure, NR.classify(urs).failure)
        if out.status is CONFIRMED and classes != ("none", "catastrophic"):
            return Outcome(FAILED, detail=f"classes {classes}, expected none and catastrophic")
        return out

    def counterexample():
        pw_lap = mp.power(lap, a, DIG)      # 1 - f(1/2) > 0
        pw_urs = mp.power(urs, a, DIG)
        if not (pw_lap > 0 and pw_urs > 0):
            return None
        # the toolkit's p_post (derive.posterior, Bayes' rule in prior and prior_c = 1 - prior) at the two
        # ends of the closed interval, exactly (SymPy): 1 at prior = 1, 0 at prior = 0
        half = sp.Rational(1, 2)
        post_pi1 = sp.simplify(posterior(lap).xreplace({prior: 1, prior_c: 0}).subs(sy.alpha, half))
        post_pi0 = sp.simplify(posterior(urs).xreplace({prior: 0, prior_c: 1}).subs(sy.alpha, half))
        if not (post_pi1 == 1 and post_pi0 == 0):
            return None
        near = NR.posterior(lap, "0.999999999999999999999999999999", a).one_minus_posterior
        return {"Laplace eps = 1 (toolkit class: none), alpha = 0.5": f"1 - f = {_s(pw_lap)}; p_post at "
                f"p_prior = 1 is exactly 1 (and 1 - p_post = {_s(near, 3)} at p_prior = 1 - 1e-30), so 'p_post < 1 "
                "for all p_prior in [0;1]' fails for every mechanism",
                "URS mu = 1, n = 5 (toolkit class: catastrophic)": "at p_prior = 0, p_post(alpha) = 0 for "
                "every alpha > 0, so 'sup_alpha p_post = 1 for all p_prior in [0;1]' fails for every mechanism"}
    return refutation('is said to fail if for all ... p_{prior}\\in[0;1] ... \\sup_{\\alpha}p_{\\text{posterior}}=\\sup_{\\alpha}\\frac ... =1. ... Moreover, if for all ... p_{\\text{prior}}\\in[0;1] ... p_{\\text{posterior}}<1, ... is said to fail gracefully',
                      "quantify over p_prior in (0, 1): then Theorem 1's classes are non-empty (Laplace: "
                      "sup p_post = pi e^eps/(1 - pi + pi e^eps) = 0.7311 at pi = 1/2; Gaussian: p_post < 1, "
                      "sup 1 not attained; URS: f(0) < 1, sup 1 attained)",
                      counterexample, corrected,
                      "posterior from Bayes' rule with 1 - f from mp.power; classes from numeric.risk.classify", kind='statement')


@claim("DF-Errata-Thm2-asymptotic", ("000",), DF + ", Theorem 2, line 272", "statement",
       "'(6) holds true when there exists rho >= 1 such that f_mu(alpha) ~ 1 - rho alpha' (asymptotic "
       "equivalence as alpha -> 0): every f with f(0) = 1 satisfies it, the Gaussian too, yet (6) fails "
       "there; the condition is 1 - f(alpha) ~ rho alpha",
       latex=r"G_1(\alpha)/(1-\alpha)\to1\ \text{but}\ (1-G_1(\alpha))/\alpha\to\infty;\ "
             r"(6)\iff 1-f(\alpha)\sim\rho\alpha")
def _df_thm2_asymptotic():
    g, lap = derive.gaussian("1"), derive.laplace("1")
    points = ("1e-20", "1e-100", "1e-300")

    def corrected():
        with mpmath.workdps(WDPS):
            e = mpmath.e
            rows = [({"what": f"Laplace eps = 1: (1 - f)/alpha at {a} (mp.power) vs e"},
                     mp.power(lap, a, DIG) / _mpf(a), e) for a in ("1e-5", "1e-100")]
            rows += [({"what": f"Gaussian mu = 1: 1 - f at {a} (mp.power) vs normal tail"},
                      mp.power(g, a, DIG), _gauss_power("1", a)) for a in points]
        rows.append(({"what": "Laplace eps = 1: rho (numeric.risk) vs e"}, NR.risk(lap).rho, mpmath.e))
        return agreement(rows, TOL, "rho = lim (1 - f)/alpha: e for Laplace(1) (finite, (6) holds); the "
                                    "Gaussian's 1 - f(alpha) checked against the normal tail down to 1e-300")

    def counterexample():
        out = {}
        ratios = []
        for a in points:
            pw = mp.power(g, a, DIG)
            with mpmath.workdps(400):
                al = mpmath.mpf(a)
                dev = abs((al - pw) / (1 - al))     # |f/(1 - alpha) - 1|, f = 1 - pw
            ratios.append(pw / _mpf(a))
            out[f"alpha = {a}"] = f"|f/(1 - alpha) - 1| = {_s(dev, 3)}, (1 - f)/alpha = {_s(ratios[-1], 8)}"
        rho = NR.classify(g).rho.value
        grows = all(ratios[i + 1] > 1000 * ratios[i] for i in range(len(ratios) - 1))
        with mpmath.workdps(400):
            tiny = abs((_mpf(points[-1]) - mp.power(g, points[-1], DIG)) / (1 - _mpf(points[-1])))
        if not (grows and str(rho) == "oo" and tiny < mpmath.mpf("1e-250")):
            return None
        out["Gaussian mu = 1"] = ("f(alpha)/(1 - rho alpha) -> 1 for rho = 1 (indeed any rho), so the printed "
                                  "condition holds, while rho = lim (1 - f)/alpha = oo (numeric.risk.classify): "
                                  "(6) fails")
        return out
    return refutation('(6) holds true when there exists ... \\rho\\geq 1 such that ... f_{\\mu}(\\alpha)\\sim 1-\\rho\\times\\alpha',
                      "(6) holds iff 1 - f(alpha) ~ rho alpha as alpha -> 0, rho = lim (1 - f)/alpha = "
                      "-f'(0+) in [1, oo) (e = 2.71828 for Laplace(1); oo for the Gaussian)",
                      counterexample, corrected,
                      "1 - f of G_1 through mp.power at alpha = 1e-20, 1e-100, 1e-300; rho through numeric.risk", kind='formula')


@claim("DF-Errata-Thm2-proof-direction", ("000",), DF + ", Appendix A, proof of Theorem 2, line 522", "statement",
       "'the trade-off function f_mu is lower bounded by 1 - alpha' is backwards: every trade-off function "
       "satisfies f(alpha) <= 1 - alpha (G_1(0.5) = 0.1587 < 0.5)",
       latex=r"f(\alpha)\le1-\alpha\ \ (G_1(0.5)=0.1587<0.5)")
def _df_thm2_direction():
    g, lap = derive.gaussian("1"), derive.laplace("1")

    def corrected():
        rows = [({"what": "G_1(0.5) (mp.tradeoff) vs Phi(-1)"}, mp.tradeoff(g, "0.5", DIG),
                 _gauss_tradeoff("1", "0.5"))]

        def case(rec):
            def margin(a):
                pw = mp.power(rec, a, DIG)
                with mpmath.workdps(60):
                    return (pw - _mpf(a)) / pw       # 1 - f >= alpha, relative
            return margin
        return _all(lambda: agreement(rows, TOL, "G_1(0.5) against the normal CDF"),
                    lambda: _sweep([("gaussian(mu=1)", case(g)), ("laplace(eps=1)", case(lap))], -300,
                                   math.log10(0.999), "f(alpha) <= 1 - alpha, margin (1 - f - alpha)/(1 - f)",
                                   grid_points=("0.5", "0.9")))

    def counterexample():
        f = mp.tradeoff(g, "0.5", DIG)
        if not _gt(mpmath.mpf("0.5"), f):
            return None
        return {"mechanism": "Gaussian, mu = 1", "alpha": "0.5", "f(alpha)": _s(f, 18), "1 - alpha": "0.5"}
    return refutation('the trade-off function ... f_{\\mu} is lower bounded by ... 1-\\alpha',
                      "f(alpha) <= 1 - alpha for every trade-off function, i.e. 1 - f(alpha) >= alpha "
                      "(what the argument needs)", counterexample, corrected,
                      "f through mp.tradeoff/mp.power of G_1 and Laplace(1)", kind='statement')


@claim("DF-Errata-Cor2-proof-direction", ("000",), DF + ", Appendix A, proof of Corollary 2, lines 540-542", "statement",
       "'the trade-off function of an eps-DP mechanism is upper bounded by (3) with delta = 0 ... f(alpha) <= "
       "1 - e^eps alpha, which yields (1 - f(alpha))/alpha <= e^eps': both inequalities are reversed; eps-DP "
       "gives f >= f_{eps,0} >= 1 - e^eps alpha, hence (1 - f)/alpha <= e^eps",
       latex=r"f\ge f_{\varepsilon,0}\ge1-e^{\varepsilon}\alpha\Rightarrow\frac{1-f(\alpha)}{\alpha}\le e^{\varepsilon}")
def _df_cor2_direction():
    lap, a = derive.laplace("1"), "0.3"

    def corrected():
        fdp = derive.approx_dp("1", "0")
        rows = [({"what": "Laplace eps = 1: f(0.3) (mp.tradeoff) vs F(F^-1(0.7) - 1)"}, mp.tradeoff(lap, a, DIG),
                 _laplace_tradeoff("1", a)),
                ({"what": "f_{1,0}(0.3) (mp.tradeoff of approx_dp(1, 0)) vs max{0, 1 - e a, e^-1 (1 - a)}"},
                 mp.tradeoff(fdp, a, DIG), _f_eps_delta("1", "0", a))]

        def case(eps):
            rec = derive.laplace(eps)
            with mpmath.workdps(WDPS):
                ee = mpmath.exp(_mpf(eps))

            def margin(x):
                pw = mp.power(rec, x, DIG)
                with mpmath.workdps(60):
                    return (ee * _mpf(x) - pw) / (ee * _mpf(x))     # (1 - f)/alpha <= e^eps
            return margin
        return _all(lambda: agreement(rows, TOL, "Laplace and f_{1,0} at 0.3 against their definitions"),
                    lambda: _sweep([(f"laplace(eps={e})", case(e)) for e in ("1", "0.5")], -300, math.log10(0.999),
                                   "(1 - f(alpha))/alpha <= e^eps for eps-DP Laplace, margin "
                                   "(e^eps alpha - (1 - f))/(e^eps alpha)", grid_points=("0.3",)))

    def counterexample():
        f = mp.tradeoff(lap, a, DIG)
        f10 = mp.tradeoff(derive.approx_dp("1", "0"), a, DIG)
        with mpmath.workdps(WDPS):
            lin = 1 - mpmath.e * _mpf(a)
        if not (_gt(f, f10) and _gt(f, lin)):
            return None
        return {"mechanism": "Laplace, eps = 1 (eps-DP)", "alpha": a, "f(alpha)": _s(f, 18),
                "f_{1,0}(alpha) ('upper bound')": _s(f10, 18), "1 - e alpha": _s(lin, 18),
                "(1 - f)/alpha": _s(mp.power(lap, a, DIG) / _mpf(a), 18)}
    return refutation('the trade-off ... f_{\\mu} function of an ... \\epsilon-DP mechanism ... is upper bounded by equation (3) with ... \\delta=0 ... f_{\\mu}(\\alpha)\\leq 1-e^{\\epsilon}\\alpha, which yields ... \\frac{1-f_{\\mu}(\\alpha)}{\\alpha}\\leq e^{\\epsilon}',
                      "eps-DP gives the lower bound f >= f_{eps,0} >= 1 - e^eps alpha for all alpha, hence "
                      "(1 - f)/alpha <= e^eps and rho <= e^eps (the conclusion of Corollary 2 holds; equality for "
                      "Laplace)", counterexample, corrected,
                      "Laplace(1) and f_{1,0} through mp.tradeoff; the corrected bound swept over alpha down to 1e-300", kind='statement')


@claim("DF-Errata-Cor2-threshold", ("000",), DF + ", Appendix A, proof of Corollary 2, line 540", "statement",
       "'for any alpha < (e^eps - e^-eps)/(1 - e^eps)': the printed threshold is negative for every eps > 0; "
       "the linear piece 1 - e^eps alpha of f_{eps,0} is active for alpha <= 1/(1 + e^eps)",
       latex=r"\frac{e^{\varepsilon}-e^{-\varepsilon}}{1-e^{\varepsilon}}<0;\ f_{\varepsilon,0}(\alpha)="
             r"1-e^{\varepsilon}\alpha\iff\alpha\le\frac1{1+e^{\varepsilon}}")
def _df_cor2_threshold():
    import sympy as sp
    e = sp.Symbol("epsilon", positive=True)
    printed = (sp.exp(e) - sp.exp(-e)) / (1 - sp.exp(e))
    epss = ("0.1", "1", "2.5")

    def corrected():
        rows = []
        for eps in ("0.1", "2.5"):
            rec = derive.approx_dp(eps, "0")
            with mpmath.workdps(WDPS):
                ee = mpmath.exp(_mpf(eps))
                kink = 1 / (1 + ee)
                below, above = _dec(kink * mpmath.mpf("0.99")), _dec(kink * mpmath.mpf("1.01"))
                rows.append(({"what": f"f_{{{eps},0}} just below 1/(1 + e^eps) vs 1 - e^eps alpha"},
                             mp.tradeoff(rec, below, DIG), 1 - ee * _mpf(below)))
                rows.append(({"what": f"f_{{{eps},0}} just above 1/(1 + e^eps) vs e^-eps (1 - alpha)"},
                             mp.tradeoff(rec, above, DIG), (1 - _mpf(above)) / ee))
        return agreement(rows, TOL, "f_{eps,0} (mp.tradeoff of approx_dp) follows 1 - e^eps alpha up to "
                                    "1/(1 + e^eps) and e^-eps (1 - alpha) after it")

    def counterexample():
        vals = {k: mp.evaluate(printed, {e: k}, DIG) for k in epss}
        if not all(v < 0 for v in vals.values()):
            return None
        return {f"eps = {k}: printed threshold": _s(v, 12) for k, v in vals.items()} | {
            "consequence": "no alpha in [0, 1] satisfies alpha < threshold"}
    return refutation('for any ... \\alpha<(e^{\\epsilon}-e^{-\\epsilon})/(1-e^{\\epsilon})',
                      "the linear piece of f_{eps,0} is active for alpha <= 1/(1 + e^eps) (0.475, 0.269, 0.0759 at "
                      "eps = 0.1, 1, 2.5); the argument needs no threshold (f >= f_{eps,0} >= 1 - e^eps alpha "
                      "for all alpha)", counterexample, corrected,
                      "the printed threshold evaluated by numeric.mp; f_{eps,0} by mp.tradeoff of derive.approx_dp", kind='formula')


@claim("DF-Errata-Eq-tradeoff-printed", ("000",), DF + ", Section 2.2, line 110", "statement",
       "the printed trade-off of log-concave noise f_mu(alpha) = F{F^-1(alpha) - mu} is not a trade-off "
       "function (Gaussian mu = 1: 0.6109 > 1 - alpha at alpha = 0.9); the appendix's F{F^-1(1 - alpha) - mu} is",
       latex=r"\Phi(\Phi^{-1}(0.9)-1)=0.6109>0.1;\ f_\mu(\alpha)=F\{F^{-1}(1-\alpha)-\mu\}")
def _df_eq_tradeoff():
    g = derive.gaussian("1")
    printed = Phi(PhiInv(sy.alpha) - sy.mu)
    alphas = ("0.9", "0.99")

    def corrected():
        rows = []
        for a in alphas:
            ref = _gauss_tradeoff("1", a)
            rows.append(({"what": f"record's printed (appendix) form at {a} vs Phi(z_(1-a) - 1)"},
                         mp.evaluate(g.paper, {sy.alpha: a, sy.mu: "1"}, DIG), ref))
            rows.append(({"what": f"mp.tradeoff at {a} vs Phi(z_(1-a) - 1)"}, mp.tradeoff(g, a, DIG), ref))
        out = agreement(rows, TOL, "F{F^-1(1 - alpha) - mu} of the record and mp.tradeoff against the normal law")
        if out.status is CONFIRMED and not all(mp.tradeoff(g, a, DIG) <= 1 - _mpf(a) for a in alphas):
            return Outcome(FAILED, detail="the corrected form exceeds 1 - alpha")
        return out

    def counterexample():
        vals = {a: mp.evaluate(printed, {sy.alpha: a, sy.mu: "1"}, DIG) for a in alphas}
        if not all(_gt(v, 1 - _mpf(a)) for a, v in vals.items()):
            return None
        return {f"alpha = {a}: F{{F^-1(alpha) - 1}}": f"{_s(v, 15)} > 1 - alpha = {_s(1 - _mpf(a), 3)}"
                for a, v in vals.items()} | {"mechanism": "Gaussian, mu = 1"}
    return refutation('f_{\\mu}(\\alpha)=F\\left\\{F^{-1}(\\alpha)-\\mu\\right\\}',
                      "f_mu(alpha) = F{F^-1(1 - alpha) - mu} (as in the appendix, line 528): G_1(0.9) = 0.011258",
                      counterexample, corrected,
                      "printed form evaluated by numeric.mp; the record's form and mp.tradeoff against the normal law", kind='formula')


# ---- section 5.2 and Figure 5: the one-sided Z-test model (sigma = 0.25, m = 0.2, Delta_q = 1/n)

_SIG, _M = "0.25", "0.2"


def _z_power(n, alpha, mu=None):
    """Power of the one-sided Z-test on the protected mean: P(N(m/s, 1) > z_{1-alpha}), s^2 = sigma^2/n
    + (Delta_q/mu)^2 with Delta_q = 1/n (unprotected when mu is None)."""
    with mpmath.workdps(WDPS):
        s2 = _mpf(_SIG) ** 2 / n + (0 if mu is None else (mpmath.mpf(1) / n / _mpf(mu)) ** 2)
        return normal_sf(normal_isf(_mpf(alpha)) - _mpf(_M) / mpmath.sqrt(s2))


def _z_mu_for_power(n, alpha, target):
    """The mu at which the power equals ``target`` (closed form from the power above)."""
    with mpmath.workdps(WDPS):
        shift = normal_isf(_mpf(alpha)) - normal_isf(_mpf(target))
        s = _mpf(_M) / shift
        return (mpmath.mpf(1) / n) / mpmath.sqrt(s * s - _mpf(_SIG) ** 2 / n)


@claim("DF-Errata-S5.2-criterion", ("000",), DF + ", Section 5.2, lines 442-446", "statement",
       "'type II error beta at alpha = 0.05 does not increase by more than 1% ... mu_min = 7.9, 0.28, 0.048 for "
       "n = 15, 100, 500': that criterion gives 17.73, 20.45, 21.66 (increasing in n); the printed values are "
       "those of a relative power loss <= 1% at alpha = 0.01 (7.910, 0.2860, 0.04819; 0.28 truncated)",
       latex=r"\mu_{\min}^{\beta,0.05}=17.73,20.45,21.66;\ \mu_{\min}^{\rm power,0.01}=7.910,0.2860,0.04819")
def _df_s52_criterion():
    ns, printed = (15, 100, 500), ("7.9", "0.28", "0.048")
    state = {}

    def corrected():
        rows = []
        for n in ns:
            fit = ND.ztest_min_mu(n, _SIG, _M, "0.01", max_relative_loss="0.01", digits=DIG).mu
            asp = ND.ztest_min_mu(n, _SIG, _M, "0.05", max_relative_beta_increase="0.01", digits=DIG).mu
            state[n] = (fit, asp)
            with mpmath.workdps(WDPS):
                p0 = _z_power(n, "0.01")
                b0 = normal_cdf(normal_isf(mpmath.mpf("0.05")) - _mpf(_M) * mpmath.sqrt(n) / _mpf(_SIG))
                # beta_mu = 1.01 beta_0, i.e. power = 1 - 1.01 beta_0; z of that power = -z(1.01 beta_0)
                shift = normal_isf(mpmath.mpf("0.05")) + normal_isf(mpmath.mpf("1.01") * b0)
                s = _mpf(_M) / shift
                asp_ref = (mpmath.mpf(1) / n) / mpmath.sqrt(s * s - _mpf(_SIG) ** 2 / n)
            rows.append(({"n": n, "criterion": "power loss <= 1% at alpha = 0.01"}, fit,
                         _z_mu_for_power(n, "0.01", mpmath.mpf("0.99") * p0)))
            rows.append(({"n": n, "criterion": "beta increase <= 1% at alpha = 0.05 (as printed)"}, asp, asp_ref))
        out = agreement(rows, TOL, "numeric.design.ztest_min_mu under both criteria against the closed form "
                                   "mu = Delta_q / sqrt((m/(z_alpha - z_target))^2 - sigma^2/n)")
        if out.status is not CONFIRMED:
            return out
        # the printed values are the fit rounded (7.9, 0.048) or truncated (0.28): the rule of rounding.py
        for n, p in zip(ns, printed):
            if not reproduces(p, state[n][0]):
                return Outcome(FAILED, detail=f"n = {n}: the fit {_s(state[n][0], 20)} neither rounds nor truncates "
                                              f"to {p}")
        return out

    def counterexample():
        asp = [state[n][1] for n in ns]
        if not all(_gt(a, 2 * _mpf(p)) for a, p in zip(asp, printed)):
            return None
        return {f"n = {n}": f"criterion as printed: mu_min = {_s(a, 10)} (printed {p})"
                for n, a, p in zip(ns, asp, printed)} | {
            "trend": "increasing in n, the printed values decrease",
            "n = 100 under the power criterion": f"{_s(state[100][0], 10)}: 0.28 is this value truncated"}
    return refutation('the type II error ... at level ... \\alpha=0.05 being a very common standard, does not increase by more than ... 1\\% ... \\mu_{\\min}=7.9,0.28,0.048 for ... n=15,100,500',
                      "power (1 - beta) at alpha = 0.01 does not decrease by more than 1%: mu_min = 7.910, 0.2860, "
                      "0.04819, which print as 7.9, 0.28 and 0.048 (rounded, truncated, rounded)", counterexample, corrected,
                      "numeric.design.ztest_min_mu (sigma = 0.25, m = 0.2, Delta_q = 1/n) against the closed form", kind='statement')


@claim("DF-Errata-S5.2-power-inequality", ("000",), DF + ", Section 5.2, line 446", "statement",
       "'mu chosen as the smallest value that ensures a test power of at least 0.8, i.e., beta_mu(alpha) >= 0.8': "
       "{mu : beta_mu >= 0.8} contains every small mu, so its smallest value is 0+; power >= 0.8 is "
       "beta_mu(alpha) <= 0.2, whose smallest mu is 1.389, 0.1308, 0.02511 for n = 15, 100, 500 (alpha = 0.05)",
       latex=r"\beta_{10^{-6}}(0.05)=0.95\ge0.8;\ \min\{\mu:\beta_\mu\le0.2\}=1.389,\,0.1308,\,0.02511")
def _df_s52_power():
    ns = (15, 100, 500)

    def corrected():
        rows = []
        for n in ns:
            got = ND.ztest_min_mu(n, _SIG, _M, "0.05", min_power="0.8", digits=DIG).mu
            rows.append(({"n": n, "what": "smallest mu with power >= 0.8 at alpha = 0.05"}, got,
                         _z_mu_for_power(n, "0.05", "0.8")))
            rows.append(({"n": n, "what": "power at that mu (numeric.design.ztest)"},
                         ND.ztest(n, _SIG, _M, "0.05", _dec(got, 20), digits=DIG).power, mpmath.mpf("0.8")))
        return agreement(rows, 1e-9, "numeric.design.ztest_min_mu(min_power = 0.8) against the closed form "
                                     "mu* = Delta_q / sqrt((m/(z_(1-alpha) + z_0.8))^2 - sigma^2/n); power 0.8 at mu* "
                                     "(mu* passed to 20 digits)")

    def counterexample():
        out = {}
        for n in ns:
            pw = ND.ztest(n, _SIG, _M, "0.05", "0.000001", digits=DIG).power
            if not _gt(mpmath.mpf("0.2"), pw):
                return None
            out[f"n = {n}, mu = 1e-6"] = f"power {_s(pw, 12)}, beta = {_s(1 - pw, 12)} >= 0.8"
        out["consequence"] = "beta_mu >= 0.8 holds for every mu below these (the power decreases as mu -> 0)"
        return out
    return refutation('can be chosen as the smallest value that ensures a test power of at least 0.8 ... \\beta_{\\mu}(\\alpha)\\geq 0.8',
                      "power >= 0.8 is beta_mu(alpha) <= 0.2; the smallest such mu at alpha = 0.05 is 1.3891, "
                      "0.13080, 0.025108 for n = 15, 100, 500", counterexample, corrected,
                      "numeric.design.ztest and ztest_min_mu (sigma = 0.25, m = 0.2, Delta_q = 1/n)", kind='formula')


@claim("DF-Errata-Fig5-mu>=1", ("000",), DF + ", Section 4, line 352 (Fig. 5)", "statement",
       "'statistical power remains virtually unaffected for privacy parameters mu >= 1, across all sample "
       "sizes': at n = 15, alpha0 = 0.01, m = 0.2, mu = 1 the power is 0.432 against 0.780 unprotected; the "
       "relative loss is <= 1% from mu = 10 at n = 15 and from mu = 1 at n >= 100",
       latex=r"n=15,\ \mu=1:\ 0.432\ \text{vs}\ 0.780")
def _df_fig5():
    cases = ((15, "1"), (15, "10"), (100, "1"), (500, "1"))

    def corrected():
        rows, losses = [], {}
        for n, mu in cases:
            z = ND.ztest(n, _SIG, _M, "0.01", mu, digits=DIG)
            rows.append(({"n": n, "mu": mu, "what": "power"}, z.power, _z_power(n, "0.01", mu)))
            rows.append(({"n": n, "mu": mu, "what": "unprotected power"}, z.power_unprotected, _z_power(n, "0.01")))
            losses[(n, mu)] = z.relative_loss
        out = agreement(rows, TOL, "numeric.design.ztest against P(N(m/s, 1) > z_0.99)")
        if out.status is CONFIRMED:
            bad = [k for k in ((15, "10"), (100, "1"), (500, "1")) if not losses[k] <= mpmath.mpf("0.01")]
            if bad:
                return Outcome(FAILED, detail=f"relative loss above 1% at {bad}")
            out.detail += "; relative power loss <= 1% at (n, mu) = (15, 10), (100, 1), (500, 1) (the power " \
                          "increases with mu, so also above)"
        return out

    def counterexample():
        z = ND.ztest(15, _SIG, _M, "0.01", "1", digits=DIG)
        if not z.relative_loss > mpmath.mpf("0.1"):
            return None
        return {"n": "15", "mu": "1", "alpha0": "0.01", "m": "0.2", "power": _s(z.power, 12),
                "unprotected power": _s(z.power_unprotected, 12), "relative loss": _s(z.relative_loss, 6)}
    return refutation('statistical power remains virtually unaffected for privacy parameters ... \\mu\\geq 1, across all sample sizes',
                      "the relative power loss at m = 0.2 is <= 1% for mu >= 10 at n = 15 (0.775 vs 0.780) and for "
                      "mu >= 1 at n >= 100", counterexample, corrected,
                      "numeric.design.ztest (sigma = 0.25, alpha0 = 0.01, Delta_q = 1/n)", kind='statement')


@claim("DF-Fig4-Laplace-stronger", ("000",), DF + ", Section 3.2.2, line 307 (Fig. 4)", "statement",
       "'the Laplace mechanism consistently provides stronger protection, even for relatively high values of "
       "mu': at the levels of Fig. 4 (alpha0 = 0.1, 0.01, 0.001, 1e-4) the best attack's power against Laplace "
       "(eps = mu) is below that against the Gaussian for every mu in [0.01, 10] (not at every alpha0: at "
       "alpha0 = 0.5, mu = 0.1 the order reverses)",
       latex=r"1-f_{{\rm Lap},\mu}(\alpha_0)<1-G_\mu(\alpha_0),\ \alpha_0\in\{10^{-1},\dots,10^{-4}\},\ "
             r"\mu\in[0.01,10]")
def _df_fig4_stronger():
    def case(a0):
        def margin(mu):
            gl, gg = mp.power(derive.laplace(mu), a0, DIG), mp.power(derive.gaussian(mu), a0, DIG)
            with mpmath.workdps(60):
                return (gg - gl) / gg
        return margin
    out = _sweep([(f"alpha0={a0}", case(a0)) for a0 in ("0.1", "0.01", "0.001", "0.0001")], -2, 1,
                 "power(Gaussian mu) - power(Laplace eps = mu) > 0 relative to the Gaussian power, over log10 mu "
                 "in [-2, 1]", point_name="mu", grid=9, iterations=10)
    if out.status is not CONFIRMED:
        return out
    at = out.worst_at
    mu, a0 = at["mu"], at["case"].split("=")[1]
    rows = [({"what": "Laplace power at the worst point vs the Laplace law"}, mp.power(derive.laplace(mu), a0, DIG),
             _laplace_power(mu, a0)),
            ({"what": "Gaussian power at the worst point vs the normal law"}, mp.power(derive.gaussian(mu), a0, DIG),
             _gauss_power(mu, a0))]
    check = agreement(rows, TOL, "")
    if check.status is not CONFIRMED:
        return check
    rev = (mp.power(derive.laplace("0.1"), "0.5", DIG), mp.power(derive.gaussian("0.1"), "0.5", DIG))
    out.detail += (f"; powers at the worst point agree with the Laplace and normal laws; outside the figure, "
                   f"alpha0 = 0.5, mu = 0.1: Laplace {_s(rev[0], 10)} vs Gaussian {_s(rev[1], 10)}")
    out.points += check.points + 2
    return out


@claim("DF-URS-ROC", ("000",), DF + ", lines 122 and 224 (Fig. 3, Example 3)", "statement",
       "uniform random sampling has a ROC close to the diagonal yet discloses records blatantly: n = 5, "
       "mu = 0.1 gives AUC 0.5189 while f(0) < 1 (catastrophic failure, posterior 1 at alpha -> 0)",
       latex=r"{\rm AUC}_{\rm URS}=1-\tfrac{(1-p)^2}{2}=0.5189,\ f(0)=1-p<1,\ p=\tfrac{1-e^{-\mu}}{n}")
def _df_urs_roc():
    urs = derive.uniform_sampling("0.1", "5")
    with mpmath.workdps(WDPS):
        p = (1 - mpmath.exp(mpmath.mpf("-0.1"))) / 5
        ref_auc = 1 - mpmath.quad(lambda x: max(mpmath.mpf(0), 1 - p - x), [0, 1 - p, 1])
    rows = [({"what": "AUC (numeric.auc) vs 1 - integral of max{0, 1 - p - x}"}, NAUC.auc(urs, DIG), ref_auc),
            ({"what": "f(0) (mp.tradeoff) vs 1 - p"}, mp.tradeoff(urs, "0", DIG), 1 - p),
            ({"what": "posterior at alpha -> 0, prior 1/2 (numeric.risk)"},
             NR.posterior(urs, "0.5", "0").posterior, mpmath.mpf(1))]
    out = agreement(rows, TOL, "URS(mu = 0.1, n = 5)")
    if out.status is CONFIRMED:
        cls = NR.classify(urs).failure
        auc = NAUC.auc(urs, DIG)
        if cls != "catastrophic" or not auc < mpmath.mpf("0.52"):
            return Outcome(FAILED, detail=f"class {cls}, AUC {auc}")
        out.detail += f"; class {cls}, AUC {_s(auc, 10)} within 0.02 of the diagonal's 0.5"
    return out


@claim("DF-Errata-Def2-tradeoff-inf-set", ("000",), DF + ", Section 2.2, line 78", "statement",
       "the trade-off function is printed as f_mu(alpha) = inf_{T,phi} {beta_T(alpha_phi) <= alpha}: the constraint "
       "sits on the type II error, and the test that always rejects (alpha_T = 1, beta_T = 0) meets it, so the "
       "printed infimum is 0 for every alpha and every mechanism; the trade-off function is inf {beta_T : alpha_T "
       "<= alpha} (G_1(0.05) = 0.74049)")
def _df_def2_inf_set():
    levels = ("0.05", "0.01")

    def corrected():
        rows = [({"alpha": a, "what": "G_1(alpha) (mp.tradeoff) vs Phi(z_{1-alpha} - 1)"},
                 mp.tradeoff(derive.gaussian("1"), a, DIG), _gauss_tradeoff("1", a)) for a in levels]
        return agreement(rows, TOL, "the trade-off function inf{beta_T : alpha_T <= alpha} of the Gaussian mechanism")

    def counterexample():
        # the printed set {beta_T <= alpha} contains the always-reject test, whose type II error is 0
        out = {"always-reject test": "alpha_T = 1, beta_T = 0 <= alpha: the printed infimum is 0 at every alpha"}
        for a in levels:
            f = mp.tradeoff(derive.gaussian("1"), a, DIG)
            if not _gt(f, mpmath.mpf(0)):
                return None
            out[f"G_1({a})"] = f"{_s(f, 10)} (the trade-off function), not 0"
        return out
    return refutation(r"f_{\mu}(\alpha)=\inf_{T,\phi}\{\beta_{T}(\alpha_{\phi})\leq\alpha\}",
                      "f_mu(alpha) = inf_{T,phi} {beta_T(phi) : alpha_T(phi) <= alpha} (the infimum of the type II "
                      "error over tests of level alpha); G_1(0.05) = 0.74049, G_1(0.01) = 0.90764",
                      counterexample, corrected, "mp.tradeoff of derive.gaussian(1)", kind="formula")


@claim("DF-Errata-Deltaq-data-dependent", ("000",), DF + ", Section 4, line 340", "statement",
       "Section 4 calibrates the Gaussian mechanism with Delta q = sup_{i,i'} |x_i - x_i'|/n, the observed range of "
       "the data over n: a data-dependent sensitivity, which gives no DP guarantee.  D = (0, 0, 0) has Delta q = 0, "
       "so its mean is released without noise, while its neighbour D' = (0, 0, 1) gets noise of sd 1/3 (mu = 1): the "
       "test 'output != 0' has type I error 0 and power 1, so T(M(D), M(D'))(0) = 0 where mu-GDP needs G_mu(0) = 1. "
       "The global sensitivity of the mean of [0, 1] data is 1/n")
def _df_deltaq():
    n = 3

    def corrected():
        # with the global Delta q = 1/n both datasets get noise sd Delta q/mu = 1/3 (mu = 1): a pair whose means
        # differ by d is G_{d/(1/3)}: (0,0,0) vs (0,0,1) is G_1, (0.4,0.5,0.6) vs (0.4,0.5,0) is G_0.6, both within G_1
        rows, worst = [], None
        for d, label in (("1", "(0,0,0) vs (0,0,1)"), ("0.6", "(0.4,0.5,0.6) vs (0.4,0.5,0)")):
            with mpmath.workdps(WDPS):
                mu_eff = (_mpf(d) / n) / (mpmath.mpf(1) / n)
            g = mp.tradeoff(derive.gaussian(_dec(mu_eff, 30)), "0.05", DIG)
            rows.append(({"pair": label, "what": f"G_{d}(0.05) (mp.tradeoff) vs Phi(z_0.95 - {d})"}, g,
                         _gauss_tradeoff(mu_eff, "0.05")))
            worst = g if worst is None else min(worst, g)
        out = agreement(rows, TOL, "with the global Delta q = 1/n every neighbour pair is G_mu' with mu' <= mu = 1")
        if out.status is CONFIRMED and not worst >= mp.tradeoff(derive.gaussian("1"), "0.05", DIG) * (1 - TOL):
            return Outcome(FAILED, detail="a pair under the global Delta q is below G_1 at alpha = 0.05")
        return out

    def counterexample():
        g0 = mp.tradeoff(derive.gaussian("1"), "0", DIG)        # G_1(0) = 1: what 1-GDP needs at alpha = 0
        if not g0 == 1:
            return None
        return {"D = (0, 0, 0)": "Delta q = 0: M(D) = 0 exactly (no noise)",
                "D' = (0, 0, 1)": "Delta q = 1/3: M(D') ~ N(1/3, (1/3)^2), P(M(D') = 0) = 0",
                "test 'output != 0'": "type I error 0, power 1: T(M(D), M(D'))(0) = 0",
                "G_1(0) (mp.tradeoff)": _s(g0, 6) + ": the mechanism is not 1-GDP (nor mu-GDP for any mu)"}
    return refutation(r"where ... \Delta q=\sup_{i,i^{\prime}\in[1,n]}|x_{i}-x_{i^{\prime}}|/n",
                      "the global sensitivity of the mean over the data domain, Delta q = (b - a)/n for x_i in [a, b] "
                      "(1/n for the [0, 1] data of Fig. 5; then every neighbour pair is G_mu' with mu' <= mu)",
                      counterexample, corrected, "mp.tradeoff of derive.gaussian", kind="formula")


@claim("DF-Errata-S5.2-variance-bound-not-conservative", ("000",), DF + ", Section 5.2, line 438", "statement",
       "'a variance of 0.25 for a Bernoulli-distributed binary variable is a known upper bound. Adopting a "
       "conservative, i.e., worst-case, estimate ensures that the conclusions remain valid even if the true variance "
       "is smaller': for Section 5.2's relative criterion (beta may grow by at most 1%) a smaller true variance makes "
       "the DP noise relatively larger, so mu chosen at the upper bound (sd 0.5) lets beta grow by about 20% when the "
       "true sd is 0.25; the worst case is the smallest plausible variance")
def _df_variance_bound():
    ns, m, a = (15, 100, 500), "0.2", "0.05"
    state = {}

    def miss_ref(n, sd, mu=None):
        """P(no rejection) of the one-sided Z-test on the mean (+ N(0, (1/(n mu))^2) when mu is given)."""
        with mpmath.workdps(WDPS):
            var = _mpf(sd) ** 2 / n + ((1 / (n * _mpf(mu))) ** 2 if mu is not None else 0)
            return normal_cdf(normal_isf(_mpf(a)) - _mpf(m) / mpmath.sqrt(var))

    def increase(z):
        return (z.one_minus_power - z.one_minus_power_unprotected) / z.one_minus_power_unprotected

    def corrected():
        rows = []
        for n in ns:
            mu_hi = ND.ztest_min_mu(n, "0.5", m, a, max_relative_beta_increase="0.01", digits=DIG).mu
            mu_lo = ND.ztest_min_mu(n, "0.25", m, a, max_relative_beta_increase="0.01", digits=DIG).mu
            z = ND.ztest(n, "0.25", m, a, _dec(mu_hi, 30), digits=DIG)
            state[n] = (mu_hi, mu_lo, increase(z))
            rows += [({"n": n, "what": "1 - power at true sd 0.25, mu chosen at sd 0.5 (numeric.design.ztest) vs "
                       "the normal law"}, z.one_minus_power, miss_ref(n, "0.25", _dec(mu_hi, 30))),
                     ({"n": n, "what": "1 - power of the unprotected test at sd 0.25 vs the normal law"},
                      z.one_minus_power_unprotected, miss_ref(n, "0.25"))]
        out = agreement(rows, TOL, "the Z-test's miss probabilities against the normal law")
        if out.status is not CONFIRMED:
            return out
        for n in ns:           # mu chosen at the smallest sd keeps the criterion at every larger sd
            z = ND.ztest(n, "0.5", m, a, _dec(state[n][1], 30), digits=DIG)
            if not (state[n][1] > state[n][0] and increase(z) <= mpmath.mpf("0.01")):
                return Outcome(FAILED, detail=f"n = {n}: mu_min at sd 0.25 does not cover sd 0.5")
        out.detail += "; mu_min at sd 0.25 exceeds mu_min at sd 0.5 and keeps beta's increase <= 1% at sd 0.5"
        return out

    def counterexample():
        if not all(state[n][2] > mpmath.mpf("0.1") for n in ns):
            return None
        return {f"n = {n}": f"mu chosen at sd 0.5: {_s(state[n][0], 6)}; at true sd 0.25 beta grows by "
                f"{_s(100 * state[n][2], 4)}% (criterion 1%); mu_min at sd 0.25: {_s(state[n][1], 6)}" for n in ns}
    return refutation("For instance, a variance of ... for a Bernoulli-distributed binary variable is a known upper "
                      "bound. Adopting a conservative, i.e., worst-case, estimate ensures that the conclusions remain "
                      "valid even if the true variance is smaller.",
                      "for the relative criterion of Section 5.2 the worst case is the smallest plausible variance: mu "
                      "chosen at sd 0.5 lets beta grow by 21.4%, 21.1%, 19.1% (n = 15, 100, 500) when the true sd is "
                      "0.25; mu chosen at sd 0.25 (17.7, 20.5, 21.7 against 3.9, 4.6, 5.2) also meets the criterion at the "
                      "upper bound sd 0.5",
                      counterexample, corrected, "numeric.design.ztest_min_mu and ztest (alpha = 0.05, m = 0.2, "
                      "Delta_q = 1/n)", kind="statement")


@claim("DF-Errata-Thm1-proof-pprior-gt-1", ("000",), DF + ", Appendix A, proof of Theorem 1, lines 508-510",
       "statement",
       "the proof of Theorem 1 concludes from (1 - p_prior) alpha_0 = 0 that 'alpha_0 = 0 as p_prior > 1': a prior "
       "is in [0, 1] (Definition 3), and the step needs 1 - p_prior != 0, i.e. p_prior < 1 (at p_prior = 1 every "
       "alpha_0 solves the equation)")
def _df_thm1_pprior():
    from derive.posterior import one_minus_posterior
    rec = derive.laplace("1")
    numerator = sp.numer(sp.together(one_minus_posterior(rec)))     # (1 - p_prior) alpha: p_post = 1 iff it is 0

    def corrected():
        a0 = sp.Symbol("alpha_0")            # no sign assumption: alpha_0 = 0 must be a solution
        at_half = sp.solve(numerator.xreplace({prior_c: sp.Rational(1, 2), prior: sp.Rational(1, 2), sy.alpha: a0}), a0)
        if at_half != [0]:
            return Outcome(FAILED, detail=f"1 - p_post = 0 at p_prior = 1/2 for alpha in {at_half}, expected [0]",
                           method="sympy")
        return Outcome(CONFIRMED, points=1, margin="0", method="sympy",
                       detail=f"the numerator of 1 - p_post (derive.posterior) is {numerator}; at p_prior = 1/2 it "
                              "vanishes only at alpha = 0")

    def counterexample():
        at_one = sp.simplify(numerator.xreplace({prior_c: 0, prior: 1}))
        if at_one != 0:
            return None
        return {"numerator of 1 - p_post": str(numerator),
                "p_prior = 1": "the numerator is 0 for every alpha_0: the step needs p_prior < 1",
                "p_prior > 1": "not a probability (Definition 3: p_prior in [0, 1]; Section 3.2: (0; 1))"}
    return refutation(r"which implies that ... \alpha_{0}=0 as ... p_{\text{prior}}>1",
                      "alpha_0 = 0 as p_prior < 1 (1 - p_prior > 0)", counterexample, corrected,
                      "SymPy on derive.posterior.one_minus_posterior", kind="statement")
