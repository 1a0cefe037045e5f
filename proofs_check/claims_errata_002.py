"""Seed 002 (Kazan et al. (2025)): statements made in words, checked; errata found by the tool.

How these claims are built and what REFUTED means here: ``proofs_check.errata_common``.
"""

from __future__ import annotations

import mpmath

import derive
from numeric import composition as NC
from numeric import risk as NR
from numeric import semantics as NS

from .errata_common import DIG, KZ, TOL, WDPS, _dec, _gt, _mpf, _s
from .grid import brute_max
from .outcomes import agreement, refutation
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome

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
            rows.append(({"eps": e, "what": f"{k} (numeric.semantics) vs closed form"}, getattr(s, k), ref[k]))
    return rows


def _rr_posterior(eps, prior):
    """Posterior after the 'no' report of randomized response (eps) on a prior: through the RR
    record's Neyman-Pearson posterior at a level on its linear piece (alpha = 0.4 < 1/(1 + e^eps))."""
    return NR.posterior(derive.randomized_response(eps), prior, "0.4", DIG).posterior


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
            if not (_gt(s.posterior_upper, mpmath.mpf("0.52")) and _gt(mpmath.mpf("0.48"), s.posterior_lower)
                    and _gt(rr, mpmath.mpf("0.52"))):
                return None
            out[f"eps = {e}"] = (f"bounds [{_s(s.posterior_lower, 10)}, {_s(s.posterior_upper, 10)}]; "
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
            r = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG).ratio_upper
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
                     NS.semantics("0.1", "0", "0.01", prior="0.5", digits=DIG).difference_bound, best))
        return agreement(rows, 1e-10, "difference bound and worst prior of numeric.semantics against tanh(eps/4), "
                                      "1/(1 + e^(eps/2)) and a brute-force maximum")

    def counterexample():
        out = {}
        for e in _EX11:
            s = NS.semantics(e, "0", "0.01", prior="0.5", digits=DIG)
            if not _gt(s.difference_bound, mpmath.mpf("0.02"), mpmath.mpf("0.01")):
                return None
            out[f"eps = {e}: bound tanh(eps/4)"] = _s(s.difference_bound, 12)
        pstar = _dec(NS.semantics("0.1", "0", "0.01", prior="0.5", digits=DIG).worst_case_prior, 20)
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
        e30 = NS.zcdp_eps_prime("0.3", "0.01", digits=DIG).eps_prime
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
                ({"what": "worst-case prior p* vs 1/(1 + e^(eps'/2))"}, s.worst_case_prior, pstar),
                ({"what": "difference tau vs 1 - 2 p* (Lemma 3.4)"}, s.difference_bound, 1 - 2 * pstar)]
        return agreement(rows, 1e-9, "rho = 0.3 (0.01 per day, 30 days), delta' = 0.01")

    def counterexample():
        s = state["s"]
        with mpmath.workdps(WDPS):
            printed_gap = mpmath.mpf("0.81") - mpmath.mpf("0.19")
        # the paper's own difference (67%) against its own endpoints; and the computed worst prior
        if not (abs(printed_gap - mpmath.mpf("0.67")) > mpmath.mpf("0.04")
                and abs(s.worst_case_prior - mpmath.mpf("0.19")) > mpmath.mpf("0.02")):
            return None
        return {"printed endpoints": "19% to 81%: difference 62%", "printed difference": "67%",
                "eps'_30": _s(state["e30"], 12), "computed worst-case prior": _s(s.worst_case_prior, 10),
                "posterior at it": _s(1 - s.worst_case_prior, 10), "tau": _s(s.difference_bound, 10)}
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
                 NC.compose_pure(e0, k, d, "advanced", DIG).eps, ref(k)) for k in ks]
        out = agreement(rows, TOL, "advanced composition against eps0 sqrt(2k log(1/delta)) + k eps0 (e^eps0 - 1)")
        if out.status is CONFIRMED:
            big = NC.compose_pure(e0, 10**4, d, "advanced", DIG).eps
            if not big < 10**4 * _mpf(e0):
                return Outcome(FAILED, detail="advanced composition not below basic at k = 1e4")
            out.detail += "; below basic k eps0 at k = 1e4 (slower growth, concave in k)"
        return out

    def counterexample():
        with mpmath.workdps(WDPS):
            slope = _mpf(e0) * mpmath.expm1(_mpf(e0))
        out = {}
        for k in ks:
            r = NC.compose_pure(e0, k, d, "advanced", DIG).eps / k
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
