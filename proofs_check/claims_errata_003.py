"""Seed 003 (Matthews, Harel, Aseltine (2010)): statements made in words, checked; errata found by the tool.

How these claims are built and what REFUTED means here: ``proofs_check.errata_common``.
"""

from __future__ import annotations

import math

import mpmath

import derive
from derive import symbols as sy
from derive import two_sided as TS
from numeric import auc as NAUC
from numeric import mp

from .errata_common import (
    DIG,
    MHA,
    TOL,
    WDPS,
    _dec,
    _gauss_power,
    _gdp_delta,
    _gdp_delta_closed,
    _gt,
    _laplace_power,
    _laplace_tradeoff,
    _mpf,
    _s,
)
from .grid import laplace_cdf, laplace_sf, normal_cdf, normal_isf
from .outcomes import agreement, refutation
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome


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
