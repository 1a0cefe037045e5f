"""Statements of the seed papers made in words, checked: errata found by the tool.

Each claim here is of kind ``"statement"``: it quotes (or paraphrases closely) a statement of a
paper, with the paper and a precise locator.  A false statement is REFUTED through
:func:`~proofs_check.outcomes.refutation`: ``counterexample()`` computes, through the toolkit's
public path (``derive`` records and ``numeric.mp``/``risk``/``design``/``semantics``/``attack``/
``auc``/``composition``), the inputs and values that contradict the paper's words, compared with
a margin far above the verified error; ``corrected()`` checks the corrected statement, and the
toolkit values the counter-example rests on, against independent forms (plain mpmath written from
the definitions in ``grid``'s references or here, quadrature of the densities, brute force).
Statements that hold are registered too (CONFIRMED), so the list says both.

``dp-derive reproduce --errata`` lists the REFUTED rows (``proofs_check.errata``).  Line numbers
are lines of the seed text files (``../shared/seeds``).
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import mpmath

import derive
from derive import symbols as sy
from derive import two_sided as TS
from derive.special import Phi, PhiInv
from numeric import attack as NA
from numeric import auc as NAUC
from numeric import composition as NC
from numeric import design as ND
from numeric import mp
from numeric import risk as NR
from numeric import semantics as NS

from .grid import brute_max, laplace_cdf, laplace_sf, normal_cdf, normal_isf, normal_sf
from .outcomes import agreement, minimise, refutation
from .registry import claim
from .status import CONFIRMED, FAILED, PROVEN, Outcome

DF = "de Fondeville (2026), arXiv:2603.12753v1"
LXM = "Liu, He, Chanyaswad, Wang, Mittal (2019), PoPETs"
KZ = "Kazan et al. (2025)"
MHA = "Matthews, Harel, Aseltine (2010)"
SU = "Su (2025), A statistical viewpoint on differential privacy"

#: digits asked of the toolkit, and the relative tolerance of every comparison with it
DIG = 15
TOL = mpmath.mpf("1e-12")
#: working precision of the independent references
WDPS = 50


# ------------------------------------------------------------------------------ helpers


def _mpf(x):
    with mpmath.workdps(WDPS):
        return mpmath.mpf(x) if not isinstance(x, mpmath.mpf) else +x


def _dec(x, digits: int = 40) -> str:
    """An mpf as an exact decimal string of ``digits`` significant digits (a toolkit input)."""
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(mpmath.mpf(x), digits, min_fixed=-5, max_fixed=5)


def _gt(a, b, tol=TOL) -> bool:
    """a > b by more than the relative tolerance, decided at 60 digits."""
    with mpmath.workdps(60):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        return a - b > tol * max(abs(a), abs(b))


def _s(x, n: int = 12) -> str:
    return mpmath.nstr(x, n) if x is not None else "None"


def _all(*parts, detail: str = "") -> Outcome:
    """Run the zero-argument checks in order; the first that is not PROVEN/CONFIRMED is the
    outcome, else CONFIRMED with the points summed and the margin/worst point of the last one."""
    points, last, details = 0, None, []
    for part in parts:
        out = part()
        if out.status not in (PROVEN, CONFIRMED):
            return out
        points += out.points
        last = out
        details.append(out.detail)
    return Outcome(CONFIRMED, margin=last.margin, worst_at=last.worst_at, points=points,
                   method=last.method, detail=(detail + ": " if detail else "") + "; ".join(details))


def _sweep(cases, lo: float, hi: float, detail: str, point_name: str = "alpha", grid_points=(),
           grid: int = 13, iterations: int = 14) -> Outcome:
    """``margin(point) >= 0`` (relative slack) on ``grid_points`` and by an adversarial search over
    ``log10 point`` in [lo, hi] (a short grid then golden section, outcomes.minimise)."""
    worst, where, points = None, None, 0

    def fail(at, value):
        return Outcome(FAILED, detail=detail, worst_at=at, method="numeric, grid + adversarial search",
                       counterexample={**at, "margin": mpmath.nstr(value, 5)})
    for label, margin in cases:
        for text in grid_points:
            value = margin(text)
            points += 1
            if value < -TOL:
                return fail({"case": label, point_name: text}, value)
            if worst is None or value < worst:
                worst, where = value, {"case": label, point_name: text}
        value, t, n = minimise(lambda t: margin(_dec(mpmath.power(10, mpmath.mpf(t)), 17)), lo, hi,
                               grid=grid, starts=1, iterations=iterations)
        points += n
        at = {"case": label, point_name: _dec(mpmath.power(10, mpmath.mpf(t)), 17)}
        if value < -TOL:
            return fail(at, value)
        if worst is None or value < worst:
            worst, where = value, at
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), worst_at=where, points=points, detail=detail,
                   method="numeric, grid + adversarial search")


# independent references (plain mpmath, from the definitions of the distributions)

def _gauss_power(mu, a):
    """1 - G_mu(a) = P(N(mu,1) > z_{1-a})."""
    with mpmath.workdps(WDPS):
        return normal_sf(normal_isf(_mpf(a)) - _mpf(mu))


def _gauss_tradeoff(mu, a):
    with mpmath.workdps(WDPS):
        return normal_cdf(normal_isf(_mpf(a)) - _mpf(mu))


def _laplace_threshold(a):
    """t with P(Lap(0,1) > t) = a."""
    a = _mpf(a)
    return -mpmath.log(2 * a) if a <= mpmath.mpf(1) / 2 else mpmath.log(2 * (1 - a))


def _laplace_power(eps, a):
    """1 - f(a) of Laplace noise of scale 1 and shift eps: P(Lap(eps, 1) > t(a))."""
    with mpmath.workdps(WDPS):
        return laplace_sf(_laplace_threshold(a), loc=_mpf(eps))


def _laplace_tradeoff(eps, a):
    with mpmath.workdps(WDPS):
        return laplace_cdf(_laplace_threshold(a), loc=_mpf(eps))


def _f_eps_delta(eps, delta, a):
    """f_{eps,delta}(a) = max{0, 1 - delta - e^eps a, e^-eps (1 - delta - a)}."""
    with mpmath.workdps(WDPS):
        e, d, a = _mpf(eps), _mpf(delta), _mpf(a)
        return max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))


def _gdp_delta(mu, eps):
    """Tight delta(eps) of N(0,1) vs N(mu,1): the integral of (q - e^eps p)_+ by quadrature."""
    with mpmath.workdps(30):
        mu, eps = _mpf(mu), _mpf(eps)
        kink = eps / mu + mu / 2          # q = e^eps p at y = eps/mu + mu/2

        def h(y):
            return mpmath.npdf(y, mu, 1) - mpmath.exp(eps) * mpmath.npdf(y, 0, 1)
        return mpmath.quad(h, [kink, kink + 10, kink + 40, mpmath.inf])


def _gdp_delta_closed(mu, eps):
    """The same delta(eps) from the Gaussian CDF: P_Q(L > eps) - e^eps P_P(L > eps)."""
    with mpmath.workdps(WDPS):
        mu, eps = _mpf(mu), _mpf(eps)
        return normal_sf(eps / mu - mu / 2) - mpmath.exp(eps) * normal_sf(eps / mu + mu / 2)


def _rows_ok(rows, detail):
    return lambda: agreement(rows() if callable(rows) else rows, TOL, detail)


# =================================================================================== seed 000

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
    return refutation("(eps, delta)-DP ... guarantees that (1) holds with probability at least 1 - delta",
                      "(eps, delta)-DP bounds P[M(D') in E] <= e^eps P[M(D) in E] + delta for every event E "
                      "(the sup over E of the difference is delta(eps), attained at E = {L > eps}); it does "
                      "not make (1) hold with probability 1 - delta: G_1 has P[L <= 1] = 0.6915 < 0.8731",
                      counterexample, corrected,
                      "privacy loss L = log(q/p)(Y), Y ~ N(1,1); P[L > 1] through mp.power of G_1 at the level "
                      "of the event {L > 1}; delta(1) through mp.profile_delta; both against the Gaussian law")


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
                     r["posterior_sup"], e / (1 + e)),
                    ({"what": "Gaussian mu = 1, prior 1/2, alpha = 1e-100: 1 - p_post vs Bayes alpha/(alpha + 1 - f)"},
                     tiny["one_minus_posterior"], a0 / (a0 + pw)),
                    ({"what": "URS(1, 5): f(0) vs 1 - (1 - e^-1)/5"}, mp.tradeoff(urs, "0", DIG),
                     1 - (1 - mpmath.exp(-1)) / 5)]
        out = agreement(rows, TOL, "with p_prior in (0, 1) the three classes of Theorem 1 are non-empty: "
                                   "Laplace sup p_post < 1 (no failure), Gaussian p_post < 1 for alpha > 0 "
                                   "(graceful), URS f(0) < 1 (catastrophic)")
        classes = (NR.classify(lap)["failure"], NR.classify(urs)["failure"])
        if out.status is CONFIRMED and classes != ("none", "catastrophic"):
            return Outcome(FAILED, detail=f"classes {classes}, expected none and catastrophic")
        return out

    def counterexample():
        pw_lap = mp.power(lap, a, DIG)      # 1 - f(1/2) > 0
        pw_urs = mp.power(urs, a, DIG)
        if not (pw_lap > 0 and pw_urs > 0):
            return None
        with mpmath.workdps(60):
            # Bayes' rule at the two ends of the closed interval, exactly:
            post_pi1 = pw_lap / (0 * mpmath.mpf(a) + pw_lap)              # pi = 1
            post_pi0 = (0 * pw_urs) / (1 * mpmath.mpf(a) + 0 * pw_urs)   # pi = 0
        if not (post_pi1 == 1 and post_pi0 == 0):
            return None
        near = NR.posterior(lap, "0.999999999999999999999999999999", a)["one_minus_posterior"]
        return {"Laplace eps = 1 (toolkit class: none), alpha = 0.5": f"1 - f = {_s(pw_lap)}; p_post at "
                f"p_prior = 1 is exactly 1 (and 1 - p_post = {_s(near, 3)} at p_prior = 1 - 1e-30), so 'p_post < 1 "
                "for all p_prior in [0;1]' fails for every mechanism",
                "URS mu = 1, n = 5 (toolkit class: catastrophic)": f"at p_prior = 0, p_post(alpha) = 0 for "
                "every alpha > 0, so 'sup_alpha p_post = 1 for all p_prior in [0;1]' fails for every mechanism"}
    return refutation("a mechanism fails if for all p_prior in [0;1], sup_alpha p_post = 1; fails gracefully "
                      "if for all alpha and p_prior in [0;1], p_post < 1",
                      "quantify over p_prior in (0, 1): then Theorem 1's classes are non-empty (Laplace: "
                      "sup p_post = pi e^eps/(1 - pi + pi e^eps) = 0.7311 at pi = 1/2; Gaussian: p_post < 1, "
                      "sup 1 not attained; URS: f(0) < 1, sup 1 attained)",
                      counterexample, corrected,
                      "posterior from Bayes' rule with 1 - f from mp.power; classes from numeric.risk.classify")


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
        rows.append(({"what": "Laplace eps = 1: rho (numeric.risk) vs e"}, NR.risk(lap)["rho"], mpmath.e))
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
        rho = NR.classify(g)["rho"].value
        grows = all(ratios[i + 1] > 1000 * ratios[i] for i in range(len(ratios) - 1))
        with mpmath.workdps(400):
            tiny = abs((_mpf(points[-1]) - mp.power(g, points[-1], DIG)) / (1 - _mpf(points[-1])))
        if not (grows and str(rho) == "oo" and tiny < mpmath.mpf("1e-250")):
            return None
        out["Gaussian mu = 1"] = ("f(alpha)/(1 - rho alpha) -> 1 for rho = 1 (indeed any rho), so the printed "
                                  "condition holds, while rho = lim (1 - f)/alpha = oo (numeric.risk.classify): "
                                  "(6) fails")
        return out
    return refutation("(6) holds true when there exists rho >= 1 such that f_mu(alpha) ~ 1 - rho alpha",
                      "(6) holds iff 1 - f(alpha) ~ rho alpha as alpha -> 0, rho = lim (1 - f)/alpha = "
                      "-f'(0+) in [1, oo) (e = 2.71828 for Laplace(1); oo for the Gaussian)",
                      counterexample, corrected,
                      "1 - f of G_1 through mp.power at alpha = 1e-20, 1e-100, 1e-300; rho through numeric.risk")


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
    return refutation("the trade-off function f_mu is lower bounded by 1 - alpha",
                      "f(alpha) <= 1 - alpha for every trade-off function, i.e. 1 - f(alpha) >= alpha "
                      "(what the argument needs)", counterexample, corrected,
                      "f through mp.tradeoff/mp.power of G_1 and Laplace(1)")


@claim("DF-Errata-Cor2-proof-direction", ("000",), DF + ", Appendix A, proof of Corollary 2, line 540", "statement",
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
    return refutation("the trade-off function of an eps-DP mechanism is upper bounded by (3) with delta = 0 ... "
                      "f(alpha) <= 1 - e^eps alpha, which yields (1 - f(alpha))/alpha <= e^eps",
                      "eps-DP gives the lower bound f >= f_{eps,0} >= 1 - e^eps alpha for all alpha, hence "
                      "(1 - f)/alpha <= e^eps and rho <= e^eps (the conclusion of Corollary 2 holds; equality for "
                      "Laplace)", counterexample, corrected,
                      "Laplace(1) and f_{1,0} through mp.tradeoff; the corrected bound swept over alpha down to 1e-300")


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
    return refutation("for any alpha < (e^eps - e^-eps)/(1 - e^eps)",
                      "the linear piece of f_{eps,0} is active for alpha <= 1/(1 + e^eps) (0.475, 0.269, 0.0759 at "
                      "eps = 0.1, 1, 2.5); the argument needs no threshold (f >= f_{eps,0} >= 1 - e^eps alpha "
                      "for all alpha)", counterexample, corrected,
                      "the printed threshold evaluated by numeric.mp; f_{eps,0} by mp.tradeoff of derive.approx_dp")


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
    return refutation("f_mu(alpha) = F{F^-1(alpha) - mu}",
                      "f_mu(alpha) = F{F^-1(1 - alpha) - mu} (as in the appendix, line 528): G_1(0.9) = 0.011258",
                      counterexample, corrected,
                      "printed form evaluated by numeric.mp; the record's form and mp.tradeoff against the normal law")


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
            fit = ND.ztest_min_mu(n, _SIG, _M, "0.01", max_relative_loss="0.01", digits=DIG)["mu"]
            asp = ND.ztest_min_mu(n, _SIG, _M, "0.05", max_relative_beta_increase="0.01", digits=DIG)["mu"]
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
        # the printed values are the fit rounded (7.9, 0.048) or truncated (0.28)
        for n, p in zip(ns, printed):
            fit = Decimal(mpmath.nstr(state[n][0], 20))
            q = Decimal(p)
            exp_ = Decimal(1).scaleb(q.as_tuple().exponent)
            if fit.quantize(exp_, ROUND_HALF_EVEN) != q and fit.quantize(exp_, ROUND_DOWN) != q:
                return Outcome(FAILED, detail=f"n = {n}: the fit {fit} neither rounds nor truncates to {p}")
        return out

    def counterexample():
        asp = [state[n][1] for n in ns]
        if not all(_gt(a, 2 * _mpf(p)) for a, p in zip(asp, printed)):
            return None
        return {f"n = {n}": f"criterion as printed: mu_min = {_s(a, 10)} (printed {p})"
                for n, a, p in zip(ns, asp, printed)} | {
            "trend": "increasing in n, the printed values decrease",
            "n = 100 under the power criterion": f"{_s(state[100][0], 10)}: 0.28 is this value truncated"}
    return refutation("type II error beta at alpha = 0.05 does not increase by more than 1% ... mu_min = 7.9, "
                      "0.28, 0.048 for n = 15, 100, 500",
                      "power (1 - beta) at alpha = 0.01 does not decrease by more than 1%: mu_min = 7.910, 0.2860, "
                      "0.04819 (rounded 7.9, 0.29, 0.048)", counterexample, corrected,
                      "numeric.design.ztest_min_mu (sigma = 0.25, m = 0.2, Delta_q = 1/n) against the closed form")


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
            got = ND.ztest_min_mu(n, _SIG, _M, "0.05", min_power="0.8", digits=DIG)["mu"]
            rows.append(({"n": n, "what": "smallest mu with power >= 0.8 at alpha = 0.05"}, got,
                         _z_mu_for_power(n, "0.05", "0.8")))
            rows.append(({"n": n, "what": "power at that mu (numeric.design.ztest)"},
                         ND.ztest(n, _SIG, _M, "0.05", _dec(got, 20), digits=DIG)["power"], mpmath.mpf("0.8")))
        return agreement(rows, 1e-9, "numeric.design.ztest_min_mu(min_power = 0.8) against the closed form "
                                     "mu* = Delta_q / sqrt((m/(z_(1-alpha) + z_0.8))^2 - sigma^2/n); power 0.8 at mu* "
                                     "(mu* passed to 20 digits)")

    def counterexample():
        out = {}
        for n in ns:
            pw = ND.ztest(n, _SIG, _M, "0.05", "0.000001", digits=DIG)["power"]
            if not _gt(mpmath.mpf("0.2"), pw):
                return None
            out[f"n = {n}, mu = 1e-6"] = f"power {_s(pw, 12)}, beta = {_s(1 - pw, 12)} >= 0.8"
        out["consequence"] = "beta_mu >= 0.8 holds for every mu below these (the power decreases as mu -> 0)"
        return out
    return refutation("mu chosen as the smallest value that ensures a test power of at least 0.8, i.e., "
                      "beta_mu(alpha) >= 0.8",
                      "power >= 0.8 is beta_mu(alpha) <= 0.2; the smallest such mu at alpha = 0.05 is 1.3891, "
                      "0.13080, 0.025108 for n = 15, 100, 500", counterexample, corrected,
                      "numeric.design.ztest and ztest_min_mu (sigma = 0.25, m = 0.2, Delta_q = 1/n)")


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
            rows.append(({"n": n, "mu": mu, "what": "power"}, z["power"], _z_power(n, "0.01", mu)))
            rows.append(({"n": n, "mu": mu, "what": "unprotected power"}, z["power_unprotected"], _z_power(n, "0.01")))
            losses[(n, mu)] = z["relative_loss"]
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
        if not z["relative_loss"] > mpmath.mpf("0.1"):
            return None
        return {"n": "15", "mu": "1", "alpha0": "0.01", "m": "0.2", "power": _s(z["power"], 12),
                "unprotected power": _s(z["power_unprotected"], 12), "relative loss": _s(z["relative_loss"], 6)}
    return refutation("statistical power remains virtually unaffected for privacy parameters mu >= 1, across all "
                      "sample sizes",
                      "the relative power loss at m = 0.2 is <= 1% for mu >= 10 at n = 15 (0.775 vs 0.780) and for "
                      "mu >= 1 at n >= 100", counterexample, corrected,
                      "numeric.design.ztest (sigma = 0.25, alpha0 = 0.01, Delta_q = 1/n)")


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
             NR.posterior(urs, "0.5", "0")["posterior"], mpmath.mpf(1))]
    out = agreement(rows, TOL, "URS(mu = 0.1, n = 5)")
    if out.status is CONFIRMED:
        cls = NR.classify(urs)["failure"]
        auc = NAUC.auc(urs, DIG)
        if cls != "catastrophic" or not auc < mpmath.mpf("0.52"):
            return Outcome(FAILED, detail=f"class {cls}, AUC {auc}")
        out.detail += f"; class {cls}, AUC {_s(auc, 10)} within 0.02 of the diagonal's 0.5"
    return out


# =================================================================================== seed 001


@claim("LXM-Errata-PD-lambda-branch2", ("001",), LXM + ", Section 4.1.5, lines 880-884", "statement",
       "'Combining Eq. 6 and Eq. 8, lambda = e^-eps/(4 alpha^2) if alpha in [0, 0.5], or e^-eps/(4(1 - alpha)^2) "
       "if alpha in (0.5, 1]': the second branch is inverted; Eq. 6's threshold in Eq. 8 gives "
       "4(1 - alpha)^2 e^-eps",
       latex=r"\lambda=e^{\varepsilon(2\theta-1)},\ \theta=\tfrac{\log 2(1-\alpha)}{\varepsilon}\Rightarrow"
             r"\lambda=4(1-\alpha)^2e^{-\varepsilon}\ (\alpha>\tfrac12)")
def _lxm_lambda():
    eps, lap = "1", derive.laplace("1")
    state = {}

    def corrected():
        rows = []
        with mpmath.workdps(WDPS):
            e = _mpf(eps)
            for a in ("0.6", "0.75", "0.9"):
                th = NA.pr(lap, a, DIG)["threshold"]
                state[a] = th
                rows.append(({"alpha": a, "what": "Eq. 6 threshold (numeric.attack.pr) vs log(2(1 - alpha))/eps"},
                             th, mpmath.log(2 * (1 - _mpf(a))) / e))
                rows.append(({"alpha": a, "what": "Eq. 8 lambda at that threshold vs 4(1 - alpha)^2 e^-eps"},
                             mpmath.exp(e * (2 * th - 1)), 4 * (1 - _mpf(a)) ** 2 * mpmath.exp(-e)))
                rows.append(({"alpha": a, "what": "P_FA at the threshold vs alpha"},
                             laplace_sf(th, 0, 1 / e), _mpf(a)))
            a = "0.3"
            th = NA.pr(lap, a, DIG)["threshold"]
            rows.append(({"alpha": a, "what": "first branch e^-eps/(4 alpha^2) vs the likelihood ratio at theta"},
                         mpmath.exp(-e) / (4 * _mpf(a) ** 2), mpmath.exp(-e * abs(th - 1)) / mpmath.exp(-e * abs(th))))
        return agreement(rows, TOL, "Laplace(eps = 1), Q(D') = 0, Q(D) = 1: thresholds of numeric.attack.pr "
                                    "against the Laplace tail; Eq. 8 at them; the first branch is the true LR")

    def counterexample():
        out = {}
        with mpmath.workdps(WDPS):
            e = _mpf(eps)
            for a in ("0.75", "0.9"):
                lam = mpmath.exp(e * (2 * state[a] - 1))
                printed = mpmath.exp(-e) / (4 * (1 - _mpf(a)) ** 2)
                if not _gt(printed, 10 * lam):
                    return None
                out[f"alpha = {a}"] = f"Eq. 6 in Eq. 8: {_s(lam, 15)}; printed: {_s(printed, 15)}"
            out["range"] = "the printed 9.197 at alpha = 0.9 exceeds e^eps = 2.718, outside [e^-eps, e^eps]"
        return out
    return refutation("lambda = e^-eps/(4 alpha^2) if alpha in [0, 0.5], or e^-eps/(4(1 - alpha)^2) if alpha in (0.5, 1]",
                      "for alpha in (0.5, 1] Eq. 6 in Eq. 8 gives lambda = 4(1 - alpha)^2 e^-eps (0.09197 at eps = 1, "
                      "alpha = 0.75); the first branch is right", counterexample, corrected,
                      "thresholds through numeric.attack.pr of Laplace(1)")


_PLATEAU_CELLS = (("0.5", "0.55", "0.22"), ("0.8", "0.62", "0.49"), ("1.5", "0.76", "1.17"), ("2", "0.83", "1.61"))
_TRUNC_CELLS = (("0.5", "0.67", "0.82"), ("1", "0.67", "0.71"), ("1", "0.83", "2.12"), ("1.5", "0.9", "2.99"),
                ("1.5", "0.95", "4.41"))


def _f_beta_brute(eps, beta):
    """max over theta of F_beta of the Laplace attack (Q(D') = 0, Q(D) = 1, scale 1/eps), from
    precision = RSR/(RSR + GSR) and recall = RSR with GSR the Laplace tail above theta; the
    supremum includes theta -> -oo (the plateau (1 + beta^2)/(2 + beta^2))."""
    with mpmath.workdps(30):
        e, b2 = _mpf(eps), _mpf(beta) ** 2

        def fb(th):
            rsr, gsr = laplace_sf(th, 1, 1 / e), laplace_sf(th, 0, 1 / e)
            prec = rsr / (rsr + gsr)
            return (1 + b2) * prec * rsr / (b2 * prec + rsr)
        _, best = brute_max(fb, -40 / e, 1 + 40 / e, grid=400, smooth=True)
        return max(best, (1 + b2) / (2 + b2))


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
                             NA.fscore_optimum(derive.laplace("0.01"), beta, DIG)["fscore"], (1 + b2) / (2 + b2)))
            rows.append(({"beta": beta, "eps": pr, "what": "F*_beta at the printed eps vs brute force over theta"},
                         NA.fscore_optimum(derive.laplace(pr), beta, DIG)["fscore"], _f_beta_brute(pr, beta)))
        out = agreement(rows, 1e-9, "F*_beta of Laplace through numeric.attack.fscore_optimum against the plateau "
                                    "and a brute-force maximum over the threshold (F* is non-decreasing in eps, "
                                    "so its minimum is the plateau)")
        if out.status is CONFIRMED:
            for beta, _, pr in _PLATEAU_CELLS:
                tp = Decimal(mpmath.nstr(mpmath.log(1 + _mpf(beta) ** 2), 20))
                if tp.quantize(Decimal("0.01"), ROUND_HALF_EVEN) != Decimal(pr) and \
                        tp.quantize(Decimal("0.01"), ROUND_DOWN) != Decimal(pr):
                    return Outcome(FAILED, detail=f"beta = {beta}: log(1 + beta^2) = {tp} is not the printed {pr}")
            out.detail += "; each printed value is log(1 + beta^2) to two decimals"
        return out

    def counterexample():
        out = {}
        for beta, f, pr in _PLATEAU_CELLS:
            inv = NA.fscore_inverse(beta, f, digits=DIG)
            fs = NA.fscore_optimum(derive.laplace(pr), beta, DIG)["fscore"]
            if inv["eps"] is not None or not _gt(fs, _mpf(f)):
                return None
            out[f"beta = {beta}, F = {f}"] = f"printed {pr}; F*_beta({pr}) = {_s(fs, 10)} > {f}; no eps qualifies"
        return out
    return refutation("Table 1 cells (beta, F) = (0.5, 0.55): 0.22, (0.8, 0.62): 0.49, (1.5, 0.76): 1.17, "
                      "(2, 0.83): 1.61",
                      "these cells should be empty: F is below the plateau (1 + beta^2)/(2 + beta^2) (0.5556, "
                      "0.6212, 0.7647, 0.8333) that F*_beta never goes under; the printed numbers are the turning "
                      "points log(1 + beta^2)", counterexample, corrected,
                      "numeric.attack.fscore_inverse and fscore_optimum (Laplace, Eq. 12)")


@claim("LXM-Errata-Table1-truncated", ("001",), LXM + ", Table 1, lines 772-786", "statement",
       "five cells of Table 1 are truncated, not rounded, to two decimals: 0.82, 0.71, 2.12, 2.99, 4.41 for "
       "0.8258, 0.7157, 2.1283, 2.9969, 4.4158",
       latex=r"\varepsilon_{\max}=0.8258,0.7157,2.1283,2.9969,4.4158")
def _lxm_truncated():
    state = {}

    def corrected():
        rows = []
        for beta, f, pr in _TRUNC_CELLS:
            eps = NA.fscore_inverse(beta, f, digits=DIG)["eps"]
            state[(beta, f)] = eps
            rows.append(({"beta": beta, "F": f, "what": "F*_beta at the inverse (brute force over theta) vs F"},
                         _f_beta_brute(_dec(eps, 20), beta), _mpf(f)))
        return agreement(rows, 1e-9, "the eps of numeric.attack.fscore_inverse gives back F under a brute-force "
                                     "maximum of F_beta over the threshold")

    def counterexample():
        out = {}
        for beta, f, pr in _TRUNC_CELLS:
            eps = state[(beta, f)]
            d = Decimal(mpmath.nstr(eps, 20))
            if not (d.quantize(Decimal("0.01"), ROUND_DOWN) == Decimal(pr)
                    and d - Decimal(pr) > Decimal("0.005") * (1 + Decimal("1e-9"))):
                return None
            out[f"beta = {beta}, F = {f}"] = (f"eps_max = {_s(eps, 10)}, rounds to "
                                             f"{d.quantize(Decimal('0.01'), ROUND_HALF_EVEN)}, printed {pr}")
        return out
    return refutation("Table 1 cells (0.5, 0.67): 0.82, (1, 0.67): 0.71, (1, 0.83): 2.12, (1.5, 0.9): 2.99, "
                      "(1.5, 0.95): 4.41",
                      "rounded to two decimals: 0.83, 0.72, 2.13, 3.00, 4.42", counterexample, corrected,
                      "numeric.attack.fscore_inverse (closed-form inverse of Eq. 12)")


@claim("LXM-Errata-GaussSigma-range", ("001",), LXM + ", Section 4.3, lines 953-961", "statement",
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
    return refutation("Gaussian noise with sigma = sqrt(2 log(1.25/delta)) Delta Q/eps gives (eps, delta)-DP "
                      "(no range of eps stated; Fig. 4 varies eps)",
                      "the calibration is (eps, delta)-DP for eps < 1 (Dwork-Roth); for larger eps use the analytic "
                      "Gaussian mechanism", counterexample, corrected,
                      "mp.profile_delta of derive.classical_gaussian")


# =================================================================================== seed 002

#: eps' of Example 1.1 (stripped): the toolkit's 0.1, and the smallest eps whose e^-eps prints 0.90
_EX11 = ("0.1", "0.0998203353")


def _ex11_rows(kind):
    rows = []
    for e in _EX11:
        s = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG)
        with mpmath.workdps(WDPS):
            ee = mpmath.exp(_mpf(e))
            ref = {"posterior_upper": ee / (1 + ee), "posterior_lower": 1 / (1 + ee), "ratio_upper": ee,
                   "difference_bound": mpmath.tanh(_mpf(e) / 4), "worst_case_prior": 1 / (1 + mpmath.sqrt(ee))}
        for k in kind:
            rows.append(({"eps": e, "what": f"{k} (numeric.semantics) vs closed form"}, s[k], ref[k]))
    return rows


def _rr_posterior(eps, prior):
    """Posterior after the 'no' report of randomized response (eps) on a prior: through the RR
    record's Neyman-Pearson posterior at a level on its linear piece (alpha = 0.4 < 1/(1 + e^eps))."""
    return NR.posterior(derive.randomized_response(eps), prior, "0.4", DIG)["posterior"]


def _rr_reference(eps, prior):
    with mpmath.workdps(WDPS):
        q = mpmath.exp(_mpf(eps)) / (1 + mpmath.exp(_mpf(eps)))     # P(report truthfully)
        p = _mpf(prior)
        return p * q / (p * q + (1 - p) * (1 - q))


@claim("KZ-Errata-Ex1.1-posterior-48-52", ("002",), KZ + ", Example 1.1, lines 23 and 152", "statement",
       "'If the release had satisfied pure eps-DP ... the probability ... will be between 48% and 52%': the "
       "guaranteed interval is [47.50%, 52.50%] and randomized response attains its ends (eps = 0.1 or any eps "
       "consistent with the printed 0.90)",
       latex=r"\left[\frac1{1+e^{\varepsilon}},\frac{e^{\varepsilon}}{1+e^{\varepsilon}}\right]=[0.4750,0.5250]")
def _kz_posterior():
    def corrected():
        rows = _ex11_rows(("posterior_upper", "posterior_lower"))
        rows += [({"eps": e, "what": "randomized response, prior 1/2 (numeric.risk.posterior) vs Bayes"},
                  _rr_posterior(e, "0.5"), _rr_reference(e, "0.5")) for e in _EX11]
        return agreement(rows, TOL, "bounds of numeric.semantics and the RR posterior against Bayes' rule")

    def counterexample():
        out = {}
        for e in _EX11:
            s = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG)
            rr = _rr_posterior(e, "0.5")
            if not (_gt(s["posterior_upper"], mpmath.mpf("0.52")) and _gt(mpmath.mpf("0.48"), s["posterior_lower"])
                    and _gt(rr, mpmath.mpf("0.52"))):
                return None
            out[f"eps = {e}"] = (f"bounds [{_s(s['posterior_lower'], 10)}, {_s(s['posterior_upper'], 10)}]; "
                                 f"randomized response reaches posterior {_s(rr, 12)} > 0.52")
        return out
    return refutation("the probability ... will be between 48% and 52%",
                      "between 47.5% and 52.5% (47.502% to 52.498% at eps = 0.1), attained by randomized response",
                      counterexample, corrected, "numeric.semantics.semantics and numeric.risk.posterior of "
                      "derive.randomized_response")


@claim("KZ-Errata-Ex1.1-ratio-1.1", ("002",), KZ + ", Example 1.1, line 153", "statement",
       "'with 99% probability, the manager's initial probability can increase by at most a factor of 1.1': the "
       "bound is e^eps = 1.105 (>= 1.10497 for every eps consistent with the printed 0.90), and randomized "
       "response exceeds 1.1 (1.10505 at prior 0.001)",
       latex=r"\sup p_{\rm post}/p=e^{\varepsilon}=1.1052>1.1")
def _kz_ratio():
    def corrected():
        rows = _ex11_rows(("ratio_upper",))
        rows += [({"eps": "0.1", "prior": p, "what": "randomized response posterior (numeric.risk) vs Bayes"},
                  _rr_posterior("0.1", p), _rr_reference("0.1", p)) for p in ("0.01", "0.001")]
        return agreement(rows, TOL, "e^eps of numeric.semantics and the RR posterior against Bayes' rule")

    def counterexample():
        out = {}
        for e in _EX11:
            r = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG)["ratio_upper"]
            if not _gt(r, mpmath.mpf("1.1"), mpmath.mpf("1e-4")):
                return None
            out[f"eps = {e}: bound e^eps"] = _s(r, 12)
        rr = _rr_posterior("0.1", "0.001") / mpmath.mpf("0.001")
        if not _gt(rr, mpmath.mpf("1.1"), mpmath.mpf("1e-4")):
            return None
        out["randomized response eps = 0.1, prior 0.001: posterior/prior"] = _s(rr, 12)
        return out
    return refutation("the manager's initial probability can increase by at most a factor of 1.1",
                      "by at most a factor of e^eps ~ 1.105 (1.1051709 at eps = 0.1), approached by randomized "
                      "response as the prior -> 0", counterexample, corrected,
                      "numeric.semantics ratio_upper; numeric.risk.posterior of randomized response")


@claim("KZ-Errata-Ex1.1-difference-2pct", ("002",), KZ + ", Example 1.1, lines 153-154", "statement",
       "'can increase or decrease by at most 2% in absolute terms ... no matter what the manager's probability "
       "was initially': the bound is tanh(eps/4) = 2.4995% (>= 2.4950% for every admissible eps), attained by "
       "randomized response at the worst-case prior 1/(1 + e^{eps/2}) = 0.4875",
       latex=r"\sup_p\,(U(p)-p)=\tanh(\varepsilon/4)=0.024995>0.02")
def _kz_difference():
    def corrected():
        rows = _ex11_rows(("difference_bound", "worst_case_prior"))
        with mpmath.workdps(30):
            ee = mpmath.exp(mpmath.mpf("0.1"))

            def gain(p):
                return 1 / (1 + (1 - p) / (p * ee)) - p
            _, best = brute_max(gain, mpmath.mpf("0.001"), mpmath.mpf("0.999"), grid=200, smooth=True)
        rows.append(({"eps": "0.1", "what": "tanh(eps/4) (numeric.semantics) vs brute-force max_p of U(p) - p"},
                     NS.semantics("0.1", "0", "0.01", prior="0.5", digits=DIG)["difference_bound"], best))
        return agreement(rows, 1e-10, "difference bound and worst prior of numeric.semantics against tanh(eps/4), "
                                      "1/(1 + e^(eps/2)) and a brute-force maximum")

    def counterexample():
        out = {}
        for e in _EX11:
            s = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG)
            if not _gt(s["difference_bound"], mpmath.mpf("0.02"), mpmath.mpf("0.01")):
                return None
            out[f"eps = {e}: bound tanh(eps/4)"] = _s(s["difference_bound"], 12)
        pstar = _dec(NS.semantics("0.1", "0", "0.01", prior="0.5", digits=DIG)["worst_case_prior"], 20)
        gain = _rr_posterior("0.1", pstar) - _mpf(pstar)
        if not _gt(gain, mpmath.mpf("0.02"), mpmath.mpf("0.01")):
            return None
        out[f"randomized response eps = 0.1, prior {pstar[:12]}"] = f"posterior - prior = {_s(gain, 12)}"
        return out
    return refutation("can increase or decrease by at most 2% in absolute terms",
                      "by at most tanh(eps/4) = 2.4995 percentage points at eps = 0.1 (2.5%), attained at the prior "
                      "0.4875", counterexample, corrected,
                      "numeric.semantics difference_bound and worst_case_prior; numeric.risk.posterior of randomized "
                      "response")


@claim("KZ-Errata-Ex4.1-month-worst-case", ("002",), KZ + ", Example 4.1, line 165", "statement",
       "'worst-case increases of 31% to 69%, 19% to 81%, and 1% to 99%' for differences 38%, 67%, 98%: by "
       "Lemma 3.4 the worst case goes from p* to 1 - p*, so 19% to 81% is a difference of 62%, not 67%; the "
       "one-month worst case is 16.4% to 83.6%",
       latex=r"1-2p^*=\tau:\ 0.81-0.19=0.62\ne0.67;\ p^*_{30}=0.1638")
def _kz_month():
    state = {}

    def corrected():
        e30 = NS.zcdp_eps_prime("0.3", "0.01", digits=DIG)["eps_prime"]
        s = NS.semantics(_dec(e30, 30), "0", "0.01", prior="0.5", digits=DIG)
        state.update(e30=e30, s=s)
        with mpmath.workdps(30):
            rho, dp = mpmath.mpf("0.3"), mpmath.mpf("0.01")

            def neg_eps_prime(log_d):       # Bun-Steinke conversion, then Thm 3.9 at delta'
                d = mpmath.exp(log_d)
                e = rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / d))
                return -(e + mpmath.log(1 + d * (1 + mpmath.exp(-e)) / (dp - d)))
            _, best = brute_max(neg_eps_prime, mpmath.log(dp) - 60, mpmath.log(dp) - mpmath.mpf("1e-6"),
                                grid=300, smooth=True)
            ref = -best
            pstar = 1 / (1 + mpmath.exp(ref / 2))
        rows = [({"what": "eps'_30 (numeric.semantics.zcdp_eps_prime) vs minimum over delta (brute force)"}, e30, ref),
                ({"what": "worst-case prior p* vs 1/(1 + e^(eps'/2))"}, s["worst_case_prior"], pstar),
                ({"what": "difference tau vs 1 - 2 p* (Lemma 3.4)"}, s["difference_bound"], 1 - 2 * pstar)]
        return agreement(rows, 1e-9, "rho = 0.3 (0.01 per day, 30 days), delta' = 0.01")

    def counterexample():
        s = state["s"]
        with mpmath.workdps(WDPS):
            printed_gap = mpmath.mpf("0.81") - mpmath.mpf("0.19")
        # the paper's own difference (67%) against its own endpoints; and the computed worst prior
        if not (abs(printed_gap - mpmath.mpf("0.67")) > mpmath.mpf("0.04")
                and abs(s["worst_case_prior"] - mpmath.mpf("0.19")) > mpmath.mpf("0.02")):
            return None
        return {"printed endpoints": "19% to 81%: difference 62%", "printed difference": "67%",
                "eps'_30": _s(state["e30"], 12), "computed worst-case prior": _s(s["worst_case_prior"], 10),
                "posterior at it": _s(1 - s["worst_case_prior"], 10), "tau": _s(s["difference_bound"], 10)}
    return refutation("This corresponds to worst-case increases of ... 19% to 81% (difference 67%)",
                      "16% to 84% (p* = 0.1638, difference 0.6724 = 1 - 2p*)", counterexample, corrected,
                      "numeric.semantics.zcdp_eps_prime and semantics (rho = 0.01 per day inferred)")


@claim("KZ-Errata-Fig3-sublinear", ("002",), KZ + ", Fig. 3 caption, line 157", "statement",
       "'The eps for basic composition increases linearly, while the eps for the other two increase "
       "sub-linearly': advanced composition eps0 sqrt(2k log(1/delta)) + k eps0 (e^eps0 - 1) grows linearly, "
       "eps(k)/k -> eps0 (e^eps0 - 1) > 0 (0.010517 at eps0 = 0.1)",
       latex=r"\frac{\varepsilon_{\rm adv}(k)}{k}\to\varepsilon_0(e^{\varepsilon_0}-1)=0.010517")
def _kz_fig3():
    e0, d = "0.1", "1e-5"
    ks = (10, 10**4, 10**6)

    def ref(k):
        with mpmath.workdps(WDPS):
            e = _mpf(e0)
            return e * mpmath.sqrt(2 * k * mpmath.log(1 / _mpf(d))) + k * e * mpmath.expm1(e)

    def corrected():
        rows = [({"k": k, "what": "advanced composition (numeric.composition.compose_pure) vs its formula"},
                 NC.compose_pure(e0, k, d, "advanced", DIG)["eps"], ref(k)) for k in ks]
        out = agreement(rows, TOL, "advanced composition against eps0 sqrt(2k log(1/delta)) + k eps0 (e^eps0 - 1)")
        if out.status is CONFIRMED:
            big = NC.compose_pure(e0, 10**4, d, "advanced", DIG)["eps"]
            if not big < 10**4 * _mpf(e0):
                return Outcome(FAILED, detail="advanced composition not below basic at k = 1e4")
            out.detail += "; below basic k eps0 at k = 1e4 (slower growth, concave in k)"
        return out

    def counterexample():
        with mpmath.workdps(WDPS):
            slope = _mpf(e0) * mpmath.expm1(_mpf(e0))
        out = {}
        for k in ks:
            r = NC.compose_pure(e0, k, d, "advanced", DIG)["eps"] / k
            if not _gt(r, slope, mpmath.mpf("1e-3")):
                return None
            out[f"k = {k}: eps(k)/k"] = _s(r, 10)
        out["limit eps0 (e^eps0 - 1)"] = _s(slope, 10)
        out["eps0, delta"] = "0.1, 1e-5 (Fig. 3's eps0 is stripped; any eps0 > 0 gives a positive slope)"
        return out
    return refutation("the eps for the other two [advanced, optimal composition] increase sub-linearly",
                      "advanced composition grows more slowly than basic (concave in k) but ultimately linearly, "
                      "eps(k)/k -> eps0 (e^eps0 - 1) = 0.010517 at eps0 = 0.1",
                      counterexample, corrected, "numeric.composition.compose_pure(method = 'advanced')")


# =================================================================================== seed 003


@claim("MHA-Errata-Gauss-calibration", ("003",), MHA + ", Section 2.1, line 87", "statement",
       "'adding noise from a normal distribution with mean 0 and variance sigma^2 >= 2 ln(2/eps)(Delta f/eps)^2, "
       "(eps, delta)-indistinguishability can be achieved': delta is absent and for eps >= 2 the bound allows "
       "sigma -> 0 (eps = 2, sigma = 0.01: delta(2) = 1; eps = 1.9 at the bound: delta(1.9) = 0.9925)",
       latex=r"\sigma^2\ge2\ln(2/\varepsilon)(\Delta f/\varepsilon)^2:\ \varepsilon=1.9\Rightarrow\delta(1.9)=0.9925")
def _mha_calibration():
    with mpmath.workdps(WDPS):
        e = mpmath.mpf("1.9")
        mu19 = _dec(e / mpmath.sqrt(2 * mpmath.log(2 / e)), 30)    # Delta f / sigma at the printed bound

    def nissim_mu(eps, delta):
        with mpmath.workdps(WDPS):
            return _dec(_mpf(eps) / mpmath.sqrt(2 * mpmath.log(2 / _mpf(delta))), 30)

    def corrected():
        rows = [({"what": "delta(1.9) of G_mu at the printed bound (mp.profile_delta) vs quadrature"},
                 mp.profile_delta(derive.gaussian(mu19), "1.9", DIG), _gdp_delta(mu19, "1.9"))]
        rows.append(({"what": "delta(2) of G_100 vs the normal-tail closed form"},
                     mp.profile_delta(derive.gaussian("100"), "2", DIG), _gdp_delta_closed("100", "2")))
        pairs = (("0.1", "1e-5"), ("0.5", "1e-5"), ("0.9", "1e-5"), ("0.5", "0.01"), ("0.9", "0.1"))
        with mpmath.workdps(WDPS):
            slack = [(p, (_mpf(p[1]) - mp.profile_delta(derive.gaussian(nissim_mu(*p)), p[0], DIG)) / _mpf(p[1]))
                     for p in pairs]
        out = agreement(rows, 1e-10, "the toolkit's Gaussian profile against the Gaussian law")
        if out.status is not CONFIRMED:
            return out
        worst = min(slack, key=lambda t: t[1])
        if worst[1] < -TOL:
            return Outcome(FAILED, detail=f"sigma = sqrt(2 ln(2/delta))/eps fails at (eps, delta) = {worst[0]}")
        return Outcome(CONFIRMED, margin=mpmath.nstr(worst[1], 3), worst_at={"eps, delta": str(worst[0])},
                       points=out.points + len(pairs),
                       detail=out.detail + "; sigma = sqrt(2 ln(2/delta)) Delta f/eps gives delta(eps) <= delta at "
                                           "(eps, delta) = " + ", ".join(str(p) for p in pairs))

    def counterexample():
        d19 = mp.profile_delta(derive.gaussian(mu19), "1.9", DIG)
        d2 = mp.profile_delta(derive.gaussian("100"), "2", DIG)
        if not (d19 > mpmath.mpf("0.9") and d2 > mpmath.mpf("0.99")):
            return None
        with mpmath.workdps(WDPS):
            b4 = 2 * mpmath.log(2 / mpmath.mpf(4)) / 16
        return {"eps = 1.9, sigma^2 at the printed bound (Delta f = 1)": f"mu = {mu19[:12]}, delta(1.9) = {_s(d19, 12)}",
                "eps = 2, printed bound sigma^2 >= 0; sigma = 0.01": f"delta(2) = {_s(d2, 12)}",
                "eps = 4: printed bound": f"sigma^2 >= {_s(b4, 6)} (negative)"}
    return refutation("variance sigma^2 >= 2 ln(2/eps)(Delta f/eps)^2 achieves (eps, delta)-indistinguishability",
                      "sigma >= sqrt(2 ln(2/delta)) Delta f/eps (1.25/delta in Dwork-Roth), for eps < 1",
                      counterexample, corrected, "mp.profile_delta of derive.gaussian(Delta f/sigma)")


@claim("MHA-Errata-Table3-delta-range", ("003",), MHA + ", Table 3 (lines 203-209) and line 227", "statement",
       "Table 3 gives 'risk values associated with ... eps and delta used in (eps, delta)-indistinguishability' "
       "for delta in {0.75, 1, 1.5}: for delta >= 1 every mechanism qualifies (a release with AUC 1 included), "
       "and the delta = 0.75 calibration is not (8, 0.75)-DP (delta(8) = 0.896)",
       latex=r"\delta\ge1:\ \text{vacuous};\ \mu=8/\sqrt{2\ln(2/0.75)}:\ \delta(8)=0.896>0.75")
def _mha_table3():
    with mpmath.workdps(WDPS):
        def mu(eps):
            return _dec(_mpf(eps) / mpmath.sqrt(2 * mpmath.log(2 / mpmath.mpf("0.75"))), 30)
    urs = derive.uniform_sampling("80", "1")   # outputs the one record with probability 1 - e^-80

    def corrected():
        rows = [({"what": "delta(8) of the delta = 0.75 calibration vs quadrature"},
                 mp.profile_delta(derive.gaussian(mu("8")), "8", DIG), _gdp_delta(mu("8"), "8"))]
        with mpmath.workdps(WDPS):
            p = -mpmath.expm1(-80)
            rows.append(({"what": "AUC of the near-exact release (numeric.auc) vs 1 - (1 - p)^2/2"},
                         NAUC.auc(urs, DIG), 1 - (1 - p) ** 2 / 2))
        out = agreement(rows, 1e-10, "delta(8) and the release's AUC against the laws")
        if out.status is not CONFIRMED:
            return out
        eps_ok = ("0.01", "0.25", "1", "2", "4")
        with mpmath.workdps(WDPS):
            slack = {e: (mpmath.mpf("0.75") - mp.profile_delta(derive.gaussian(mu(e)), e, DIG)) / mpmath.mpf("0.75")
                     for e in eps_ok}
        worst = min(slack, key=slack.get)
        if slack[worst] < -TOL:
            return Outcome(FAILED, detail=f"delta = 0.75 calibration not (eps, 0.75)-DP at eps = {worst}")
        return Outcome(CONFIRMED, margin=mpmath.nstr(slack[worst], 3), worst_at={"eps": worst},
                       points=out.points + len(eps_ok),
                       detail=out.detail + "; the delta = 0.75 calibration is (eps, 0.75)-DP at eps = "
                       + ", ".join(eps_ok))

    def counterexample():
        d8 = mp.profile_delta(derive.gaussian(mu("8")), "8", DIG)
        d_urs = mp.profile_delta(urs, "0.25", DIG)
        a = NAUC.auc(urs, DIG)
        if not (_gt(d8, mpmath.mpf("0.75"), mpmath.mpf("0.01")) and d_urs <= 1 and a > mpmath.mpf("0.999")):
            return None
        return {"delta = 0.75, eps = 8": f"mu = {mu('8')[:10]}, exact delta(8) = {_s(d8, 12)} > 0.75",
                "delta >= 1": f"a release of the record (URS mu = 80, n = 1) has delta(0.25) = {_s(d_urs, 6)} <= 1, so it "
                              f"is (0.25, 1)- and (0.25, 1.5)-indistinguishable, with AUC {_s(a, 12)} (Table 3: 0.5091 "
                              f"at (0.25, 1.5))"}
    return refutation("Table 3: risk values associated with (eps, delta)-indistinguishability for delta in "
                      "{0.75, 1, 1.5}, eps up to 8",
                      "Table 3 gives the AUC of the Gaussian calibration tau = sqrt(2 ln(2/delta)) Delta f/eps; the "
                      "(eps, delta) guarantee says nothing for delta >= 1 and fails for (8, 0.75); it holds for "
                      "(eps <= 4, 0.75)", counterexample, corrected,
                      "mp.profile_delta of derive.gaussian; numeric.auc of derive.uniform_sampling")


@claim("MHA-Errata-normal-power-sqrt2tau", ("003",), MHA + ", Section 4.2, line 193", "statement",
       "the printed power 1 - Phi(Z_{alpha/2} - Delta f/sqrt(2 tau)) + Phi(-Z_{alpha/2} - Delta f/sqrt(2 tau)) "
       "is wrong unless tau = 1: X_R - X'_R ~ N(Delta f, 2 tau^2), so the shift is Delta f/(sqrt2 tau) "
       "(Delta f = 1, tau^2 = 0.1, alpha = 0.05: 0.2418 printed, 0.6088 true)",
       latex=r"d=\frac{\Delta f}{\sqrt2\,\tau},\ \text{not}\ \frac{\Delta f}{\sqrt{2\tau}}")
def _mha_power():
    def shifts(t2):
        with mpmath.workdps(WDPS):
            tau = mpmath.sqrt(_mpf(t2))
            return _dec(1 / mpmath.sqrt(2 * tau), 30), _dec(1 / (mpmath.sqrt(2) * tau), 30)

    def power(dv):
        return mp.evaluate(TS.normal_power(), {TS.d: dv, sy.alpha: "0.05"}, DIG)

    def quad_power(t2):
        """P(|D| > z sqrt2 tau) for D ~ N(1, 2 tau^2), by quadrature of the density."""
        with mpmath.workdps(30):
            sd = mpmath.sqrt(2 * _mpf(t2))
            c = normal_isf(mpmath.mpf("0.025")) * sd
            dens = lambda x: mpmath.npdf(x, 1, sd)  # noqa: E731
            return mpmath.quad(dens, [-mpmath.inf, -c]) + mpmath.quad(dens, [c, c + 1, mpmath.inf])

    def corrected():
        rows = [({"tau^2": t2, "what": "two-sided normal power (derive.two_sided) at Delta f/(sqrt2 tau) vs "
                  "quadrature of N(1, 2 tau^2) outside +-z sqrt2 tau"}, power(shifts(t2)[1]), quad_power(t2))
                for t2 in ("0.1", "5")]
        return agreement(rows, 1e-10, "power with the corrected shift against the law of X_R - X'_R")

    def counterexample():
        out = {}
        for t2 in ("0.1", "5"):
            pr, ok = shifts(t2)
            a, b = power(pr), power(ok)
            if not _gt(abs(a - b), 0.01 * b, 0):
                return None
            out[f"Delta f = 1, tau^2 = {t2}, alpha = 0.05"] = f"printed {_s(a, 12)}, true {_s(b, 12)}"
        return out
    return refutation("power = 1 - Phi(Z_{alpha/2} - Delta f/sqrt(2 tau)) + Phi(-Z_{alpha/2} - Delta f/sqrt(2 tau))",
                      "replace sqrt(2 tau) by sqrt2 tau: power 0.6088 at Delta f = 1, tau^2 = 0.1, alpha = 0.05",
                      counterexample, corrected, "derive.two_sided.normal_power evaluated by numeric.mp")


@claim("MHA-Errata-normal-less-than-Laplace", ("003",), MHA + ", Section 4.2, line 223", "statement",
       "'for the same values of Delta f and sigma^2 = tau^2, the value of risk when normal noise is added is less "
       "than the value when Laplace noise is added for every value in the table': for the optimal attacker the "
       "order reverses once Delta f/sd > 2.3715 (table cell Delta f = 1, variance 0.1: AUC 0.98733 normal vs "
       "0.98152 Laplace)",
       latex=r"\Phi(k/\sqrt2)>1-\tfrac{e^{-\sqrt2k}(2+\sqrt2k)}4\iff k>2.3715,\ k=\Delta f/{\rm sd}")
def _mha_order():
    def aucs(k):
        with mpmath.workdps(WDPS):
            kk = _mpf(k)
            g, l = _dec(kk, 30), _dec(mpmath.sqrt(2) * kk, 30)
        return NAUC.auc(derive.gaussian(g), DIG), NAUC.auc(derive.laplace(l), DIG)

    def refs(k):
        with mpmath.workdps(WDPS):
            kk = _mpf(k)
            e = mpmath.sqrt(2) * kk
            return normal_cdf(kk / mpmath.sqrt(2)), 1 - mpmath.exp(-e) * (2 + e) / 4

    with mpmath.workdps(WDPS):
        k_cell = _dec(mpmath.sqrt(10), 30)      # Delta f = 1, variance 0.1

    def corrected():
        rows = []
        for k in ("2", k_cell):
            (g, l), (rg, rl) = aucs(k), refs(k)
            rows += [({"k": k[:8], "what": "Gaussian AUC (numeric.auc) vs Phi(k/sqrt2)"}, g, rg),
                     ({"k": k[:8], "what": "Laplace AUC (numeric.auc) vs 1 - e^-e (2 + e)/4"}, l, rl)]
        with mpmath.workdps(30):
            e1 = mpmath.sqrt(2)
            quad_l = 1 - mpmath.quad(lambda a: _laplace_tradeoff(e1, a), [0, mpmath.exp(-e1) / 2, 0.5, 1])
        rows.append(({"k": "1", "what": "Laplace closed form vs quadrature of its trade-off"}, refs("1")[1], quad_l))
        out = agreement(rows, 1e-10, "optimal AUCs at equal variance against closed forms and quadrature")
        if out.status is not CONFIRMED:
            return out
        with mpmath.workdps(30):
            lo, hi = mpmath.mpf(2), mpmath.mpf(3)
            for _ in range(60):
                mid = (lo + hi) / 2
                rg, rl = refs(mid)
                lo, hi = (mid, hi) if rg < rl else (lo, mid)
        g2, l2 = aucs("2")
        if not g2 < l2:
            return Outcome(FAILED, detail="normal AUC not below Laplace at k = 2")
        out.detail += f"; crossing k* = {_s(lo, 12)} (bisection on the closed forms); at k = 2 normal < Laplace"
        return out

    def counterexample():
        g, l = aucs(k_cell)
        if not _gt(g, l, mpmath.mpf("1e-4")):
            return None
        return {"table cell": "Delta f = 1, variance 0.1 (k = Delta f/sd = 3.1623)",
                "AUC normal (optimal attacker)": _s(g, 15), "AUC Laplace (optimal attacker)": _s(l, 15)}
    return refutation("the value of risk when normal noise is added is less than the value when Laplace noise is "
                      "added for every value in the table",
                      "for the optimal attacker at equal variance, risk(normal) < risk(Laplace) iff Delta f/sd < "
                      "2.3715; above it (e.g. Delta f = 1, variance 0.1) the normal release is riskier",
                      counterexample, corrected, "numeric.auc.auc of derive.gaussian(k) and derive.laplace(sqrt2 k)")


_T2_ROW1 = (("0.1", "0.8276"), ("0.5", "0.6326"), ("1.0", "0.5796"), ("5.0", "0.5208"), ("10.0", "0.5113"))


def _riemann_laplace_reference(r, n: int = 1000):
    """(1/n) sum_{i=1..n} P(|A| > log(n/i)) for A ~ Laplace(r, 1): the right-endpoint sum of the
    power of the two-sided single-statistic test, from the Laplace law (plain mpmath)."""
    with mpmath.workdps(20):
        r = _mpf(r)
        total = mpmath.mpf(0)
        for i in range(1, n + 1):
            t = mpmath.log(mpmath.mpf(n) / i)
            total += laplace_sf(t, r) + laplace_cdf(-t, r)
        return total / n


@claim("MHA-Errata-Table2-vs-Table1-scale", ("003",), MHA + ", Tables 1-2 (lines 156-177), line 81, line 225",
       "statement",
       "Table 2's caption reads sigma^2 as the variance of the Laplace noise ('variance equal to 1', line 225), "
       "yet its Delta f = 1 row equals Table 1 at eps = Delta f/sigma (sigma the scale): e.g. (1, 1) = 0.5796 = "
       "Table 1 at eps = 1, while variance 1 means scale 1/sqrt2 and eps = sqrt2 (Table 1's reading gives 0.6326)",
       latex=r"\sigma^2=1\ \text{(variance)}\Rightarrow b=1/\sqrt2,\ \varepsilon=\sqrt2:\ 0.6326\ne0.5796")
def _mha_table2_scale():
    from numeric import two_sided as NTS

    from .rounding import rounds_to

    def shift(v, variance: bool):
        """r = eps/sqrt2 of Table 1's reading, eps = Delta f/b, b = sqrt(v/2) (variance) or sqrt(v) (scale)."""
        b = math.sqrt(float(v) / 2) if variance else math.sqrt(float(v))
        return (1.0 / b) / math.sqrt(2)

    def corrected():
        rows = [({"r": r, "what": "numeric.two_sided.auc_riemann('laplace') vs the right-endpoint sum from the "
                  "Laplace law"}, mpmath.mpf(NTS.auc_riemann("laplace", r)), _riemann_laplace_reference(r))
                for r in (1 / math.sqrt(2), 1.0)]
        out = agreement(rows, 1e-9, "Table 1's reading (single two-sided Laplace statistic, shift eps/sqrt2, "
                                    "right-endpoint sum) against the Laplace law")
        if out.status is not CONFIRMED:
            return out
        t1 = NTS.auc_riemann("laplace", 1 / math.sqrt(2))
        bad = [v for v, printed in _T2_ROW1 if not rounds_to(printed, NTS.auc_riemann("laplace", shift(v, False)))]
        if not rounds_to("0.5796", t1) or bad:
            return Outcome(FAILED, detail=f"Table 1 at eps = 1: {t1}; row Delta f = 1 not reproduced with sigma "
                                          f"the scale at sigma^2 = {bad}")
        out.detail += "; Table 1 at eps = 1 and every cell of Table 2's Delta f = 1 row reproduced with sigma the scale"
        return out

    def counterexample():
        out = {}
        for v, printed in _T2_ROW1:
            got = NTS.auc_riemann("laplace", shift(v, True))
            if rounds_to(printed, got):
                continue
            out[f"Delta f = 1, sigma^2 = {v} (variance)"] = f"{got:.4f}, printed {printed}"
        if len(out) < 3:
            return None
        return out
    return refutation("sigma^2 is the variance of the Laplace noise (Table 2); Table 2 (Delta f = 1, sigma^2 = 1) = "
                      "0.5796 = Table 1 (eps = 1)",
                      "Table 2's sigma is the Laplace scale b (variance 2 b^2), or its Delta f rows are doubled: "
                      "its cells equal Table 1 at eps = Delta f/sigma; with sigma^2 the variance the (1, 1) cell "
                      "would be Table 1 at eps = sqrt2 (0.6326)", counterexample, corrected,
                      "numeric.two_sided.auc_riemann under the reading that reproduces Table 1 (the AUC of a "
                      "Laplace test depends on eps = Delta f/b only, and Table 1 increases in eps)")


@claim("MHA-ROC-cross", ("003",), MHA + ", lines 225-235 (Fig. 4)", "statement",
       "the ROC curves of the Laplace and normal releases (Delta f = 1, variance 1) cross, and for small alpha the "
       "Laplace release gives the attacker less power (optimal single-release tests: Laplace eps = sqrt2, "
       "Gaussian mu = 1; crossing at alpha = 0.0880)",
       latex=r"1-f_{{\rm Lap},\sqrt2}(\alpha)<1-G_1(\alpha)\ (\alpha<0.088),\ >\ (\alpha>0.088)")
def _mha_cross():
    with mpmath.workdps(WDPS):
        r2 = _dec(mpmath.sqrt(2), 30)
    lap, g = derive.laplace(r2), derive.gaussian("1")
    rows, signs = [], {}
    for a in ("0.01", "0.05", "0.3"):
        pl, pg = mp.power(lap, a, DIG), mp.power(g, a, DIG)
        rows += [({"alpha": a, "what": "Laplace power vs the Laplace law"}, pl, _laplace_power(r2, a)),
                 ({"alpha": a, "what": "Gaussian power vs the normal law"}, pg, _gauss_power("1", a))]
        signs[a] = pl - pg
    out = agreement(rows, TOL, "powers of the optimal tests")
    if out.status is not CONFIRMED:
        return out
    if not (signs["0.01"] < 0 and signs["0.05"] < 0 and signs["0.3"] > 0):
        return Outcome(FAILED, detail=f"no crossing: Laplace - Gaussian power = {signs}")
    out.detail += "; Laplace - Gaussian power: " + ", ".join(f"{k}: {_s(v, 6)}" for k, v in signs.items())
    return out


# =================================================================================== seed 004


@claim("SU-Errata-TV-not-inappropriate", ("004",), SU + ", Section 2.3, lines 44-45", "statement",
       "'the total variation distance ... is not inappropriate for a privacy definition' (offered as an example "
       "of an unsuitable link): releasing one uniformly random record of n = 100 has TV 0.01 yet discloses the "
       "differing record with probability 0.01 (posterior 1, f(0) = 0.99 < 1)",
       latex=r"{\rm TV}=\delta(0)=0.01,\ f(0)=0.99<1:\ \text{blatant disclosure}")
def _su_tv():
    urs = derive.uniform_sampling("80", "100")     # a record released with probability (1 - e^-80)/100

    def corrected():
        with mpmath.workdps(WDPS):
            p = -mpmath.expm1(-80) / 100
            # the two output laws (replacement neighbours): a constant w.p. e^-80, else one of the n records;
            # they differ only in the atom of the replaced record (mass p under each): TV = (p + p)/2
            law_d = [mpmath.exp(-80)] + [p] * 100 + [mpmath.mpf(0)]
            law_d2 = [mpmath.exp(-80)] + [p] * 99 + [mpmath.mpf(0), p]
            tv = sum(abs(x - y) for x, y in zip(law_d, law_d2)) / 2
        rows = [({"what": "TV = delta(0) (mp.profile_delta) vs half the L1 distance of the output laws"},
                 mp.profile_delta(urs, "0", DIG), tv),
                ({"what": "f(0) (mp.tradeoff) vs 1 - p"}, mp.tradeoff(urs, "0", DIG), 1 - p),
                ({"what": "posterior at alpha -> 0, prior 1/2 (numeric.risk)"},
                 NR.posterior(urs, "0.5", "0")["posterior"], mpmath.mpf(1))]
        return agreement(rows, TOL, "release of one uniformly random record, n = 100")

    def counterexample():
        tv = mp.profile_delta(urs, "0", DIG)
        f0 = mp.tradeoff(urs, "0", DIG)
        cls = NR.classify(urs)["failure"]
        if not (tv < mpmath.mpf("0.0101") and f0 < 1 - mpmath.mpf("0.009") and cls == "catastrophic"):
            return None
        return {"mechanism": "release one uniformly random record, n = 100 (URS mu = 80)",
                "TV(M(D), M(D'))": _s(tv, 10), "f(0)": _s(f0, 10), "failure class": cls,
                "disclosure": "with probability 0.01 the differing record itself is released: posterior 1"}
    return refutation("the total variation distance ... is not inappropriate for a privacy definition",
                      "the total variation distance is inappropriate for a privacy definition: TV = 0.01 allows "
                      "releasing a record outright with probability 0.01", counterexample, corrected,
                      "mp.profile_delta (TV = delta(0)), mp.tradeoff and numeric.risk of derive.uniform_sampling")


@claim("SU-Thm5-tight", ("004",), SU + ", Theorem 5, line 98", "statement",
       "f_{eps,delta} satisfies Eq. 2.4 with equality: 1 + f*(-e^eps) = delta",
       latex=r"1+f_{\varepsilon,\delta}^*(-e^{\varepsilon})=\delta")
def _su_thm5():
    rows = []
    for e, d in (("1", "1e-5"), ("0.5", "0.1"), ("2", "0.3")):
        got = mp.profile_delta(derive.approx_dp(e, d), e, DIG)
        with mpmath.workdps(WDPS):
            y = -mpmath.exp(_mpf(e))
            kinks = (mpmath.mpf(0), (1 - _mpf(d)) / (1 + mpmath.exp(_mpf(e))), 1 - _mpf(d), mpmath.mpf(1))
            conj = max(x * y - _f_eps_delta(e, d, x) for x in kinks)   # f* of a piecewise-linear convex f
        rows.append(({"eps": e, "delta": d, "what": "mp.profile_delta vs 1 + f*(-e^eps) over the kinks"}, got, 1 + conj))
        rows.append(({"eps": e, "delta": d, "what": "mp.profile_delta vs delta"}, got, _mpf(d)))
    return agreement(rows, TOL, "the conjugate of f_{eps,delta} computed from its kinks")
