"""Seed 000 (de Fondeville 2026, arXiv:2603.12753v1): words that disagree with the formula or the test
beside them (issue #23's referee check of 'at most' / 'at least' and of what a test's level means).

* Section 3.3, lines 297-299: "the relative disclosure risk bound for confidence level at most alpha_0" is
  defined as a supremum over alpha in [alpha_0; 1], i.e. for levels *at least* alpha_0.  The paper calls
  alpha the confidence level (Fig. 5's caption, line 350: "a Z-test at a confidence level alpha_0 = 0.01";
  line 301: "standard choices for alpha ... are 0.05 or 0.01").  Over levels at most alpha_0 the Gaussian
  mechanism's ratio (1 - G_mu(alpha))/alpha is unbounded (its rho is infinite, line 295), which is why
  the bound restricts alpha from below.
* Section 3.3, line 301: "standard choices for alpha ... are 0.05 or 0.01, targeting rejection rates of
  95% or 99%": a level-alpha test rejects a true null with probability alpha (5% or 1%); 95% and 99% are
  the probabilities of *not* rejecting it (the confidence levels 1 - alpha).
"""

from __future__ import annotations

import mpmath

import derive
from numeric import design as ND
from numeric import mp

from .errata_common import DF, WDPS, _gauss_tradeoff, _mpf, _s
from .grid import normal_isf, normal_sf
from .outcomes import agreement, refutation
from .registry import claim
from .status import FAILED, Outcome

#: the Gaussian mechanism and level of the evidence (mu = 1, alpha_0 = 0.01, Fig. 5's level)
MU, ALPHA0 = "1", "0.01"
#: levels below alpha_0 where 'at most alpha_0' would take the supremum
BELOW = ("1e-3", "1e-10", "1e-100")


def _ratio(alpha: str):
    """(1 - G_mu(alpha))/alpha from the toolkit's Gaussian record (numeric.mp.power)."""
    with mpmath.workdps(WDPS):
        return mp.power(derive.gaussian(MU), alpha, 30) / _mpf(alpha)


@claim("DF-Errata-rho-alpha0-at-most", ("000",), DF + ", Section 3.3, lines 297-299", "statement",
       "'the relative disclosure risk bound for confidence level at most alpha_0' is defined as the supremum over "
       "alpha in [alpha_0; 1], i.e. over levels at least alpha_0; over levels at most alpha_0 the Gaussian's "
       "ratio (1 - G_mu(alpha))/alpha is unbounded (mu = 1: 9.236 at alpha_0 = 0.01, 1.1e9 at alpha = 1e-100)")
def _df_rho_alpha0_words():
    def counterexample():
        at = {a: _ratio(a) for a in (ALPHA0,) + BELOW}
        rising = all(at[b] > at[a] for a, b in zip((ALPHA0,) + BELOW, BELOW))
        if not rising or not at[BELOW[-1]] > 10 ** 6 * at[ALPHA0]:
            return None
        return {"(1 - G_1(alpha))/alpha": {a: _s(v, 6) for a, v in at.items()},
                "levels at most alpha_0": "the ratio grows without bound as alpha -> 0 (Gaussian: rho = inf, line 295)",
                "the formula (line 299)": "sup over alpha in [alpha_0; 1]: levels at least alpha_0"}

    def corrected():
        # the sup over [alpha_0, 1] is attained at alpha_0 (1 - f concave, 1 - f(0) = 0): grid against the
        # closed form Phi(mu - z_{1 - alpha_0})/alpha_0 in plain mpmath
        grid = ("0.01", "0.02", "0.05", "0.1", "0.3", "0.6", "0.99")
        with mpmath.workdps(WDPS):
            closed = (1 - _gauss_tradeoff(MU, ALPHA0)) / _mpf(ALPHA0)
            ref = normal_sf(normal_isf(_mpf(ALPHA0)) - _mpf(MU)) / _mpf(ALPHA0)
        worst = max(_ratio(a) for a in grid)
        if worst > closed * (1 + mpmath.mpf(10) ** -20):
            return Outcome(FAILED, detail=f"the ratio exceeds its value at alpha_0 on [alpha_0, 1]: {_s(worst)}")
        return agreement([({"mu": MU, "alpha_0": ALPHA0, "what": "sup over [alpha_0, 1] (grid max, attained at "
                                                                    "alpha_0) vs Phi(mu - z_{1-alpha_0})/alpha_0"},
                           worst, ref)], mpmath.mpf(10) ** -20,
                         "rho_alpha0 for levels at least alpha_0 is finite: numeric.mp on derive.gaussian against the "
                         "closed form")
    return refutation("Accordingly, we define the relative disclosure risk bound for confidence level at most "
                      "α0\\alpha_{0} as: ... ρα0=supα[α0;1]1fμ(α)α.",
                      "for confidence level at least alpha_0 (alpha in [alpha_0; 1]), where rho_alpha0 = "
                      "(1 - f(alpha_0))/alpha_0 is finite (Gaussian mu = 1, alpha_0 = 0.01: 9.2362)",
                      counterexample, corrected, "numeric.mp.power of derive.gaussian against plain mpmath",
                      kind="statement")


#: the levels line 301 names, and the rates it says they target
LEVELS, RATES = ("0.05", "0.01"), ("0.95", "0.99")
#: what the corrected sentence says the levels target: the probabilities of not rejecting a true null
CONFIDENCE = ("0.95", "0.99")
#: the mean difference standing for 'no effect' (numeric.design.ztest takes m > 0)
NO_EFFECT = "1e-30"


@claim("DF-Errata-rejection-rates", ("000",), DF + ", Section 3.3, line 301", "statement",
       "'standard choices for alpha ... are 0.05 or 0.01, targeting rejection rates of 95% or 99%': a level-alpha "
       "test rejects a true null with probability alpha (5% or 1%); 95% and 99% are the probabilities of not "
       "rejecting it (1 - alpha, the confidence levels)")
def _df_rejection_rates():
    def size(alpha):
        """The Z-test's rejection rate with no effect, from numeric.design.ztest (its m must be positive:
        m = 1e-30 moves the rate by about 1e-29)."""
        return _mpf(ND.ztest("100", "0.25", NO_EFFECT, alpha, "1", digits=20).power)

    def counterexample():
        bad = {}
        for a, r in zip(LEVELS, RATES):
            got = size(a)
            if abs(got - _mpf(r)) > mpmath.mpf("0.01"):
                bad[f"alpha = {a}"] = f"rejection rate under H0 {_s(got, 8)}, not {r}"
        return bad or None

    def corrected():
        rows = []
        with mpmath.workdps(WDPS):
            for a, r in zip(LEVELS, CONFIDENCE):
                miss = _mpf(ND.ztest("100", "0.25", NO_EFFECT, a, "1", digits=20).one_minus_power)
                rows.append(({"alpha": a, "what": "P(not reject | H0) vs 1 - alpha"}, miss, 1 - _mpf(a)))
                rows.append(({"alpha": a, "what": "P(reject | H0) vs P(Z > z_{1-alpha}) in plain mpmath"}, size(a),
                             normal_sf(normal_isf(_mpf(a)))))
                if abs(1 - _mpf(a) - _mpf(r)) > mpmath.mpf(10) ** -30:
                    return Outcome(FAILED, detail=f"1 - {a} is not {r}")
        return agreement(rows, mpmath.mpf(10) ** -18, "numeric.design.ztest at m = 1e-30 (no effect) against the "
                                                     "normal law")
    return refutation("In practice, standard choices for α\\alpha in hypothesis testing are 0.050.05 or 0.010.01, "
                      "targeting rejection rates of 95%95\\% or 99%99\\%",
                      "targeting confidence levels (probabilities of not rejecting a true null) of 95% or 99%, i.e. "
                      "rejection rates under the null of 5% or 1%", counterexample, corrected,
                      "numeric.design.ztest with no effect against the normal law", kind="statement")


#: the symbols Example 3 (lines 100-106) defines, and the probability symbols in scope at line 224
#: (Definition 3 on: the prior and the posterior); tests/test_errata_referee.py checks both against the seed
EXAMPLE3_SYMBOLS = ("D", "n", "mu", "c", "x_i")
P_SYMBOLS_IN_SCOPE = ("p_prior", "p_post", "p_posterior")
#: the URS case of the evidence (mu = 1, n = 10) and the prior a reader could take 'p' for
URS_CASE, PRIOR = ("1", 10), "0.5"


@claim("DF-Errata-URS-p-over-n", ("000",), DF + ", Section 3.3, line 224", "statement",
       "'the Uniform Random Sampling Mechanism discussed in Example 3 where with probability p/n, a dataset record "
       "is disclosed': Example 3 defines no p; its records are disclosed with probability (1 - e^{-mu})/n each, and "
       "the only p's in scope (p_prior, p_posterior) do not give it (mu = 1, n = 10, p_prior = 1/2: 0.05 against "
       "0.0632)")
def _df_urs_p():
    mu, n = URS_CASE

    def release():
        """1 - f(0) of the toolkit's URS record (add/remove neighbours): the mass of the target's atom."""
        return mp.power(derive.uniform_sampling(mu, n, "add-remove"), "0", 30)

    def counterexample():
        if "p" in EXAMPLE3_SYMBOLS:
            return None
        with mpmath.workdps(WDPS):
            as_prior = _mpf(PRIOR) / n
            got = release()
        if abs(as_prior - got) < mpmath.mpf(10) ** -20:
            return None
        return {"Example 3 (lines 100-106) defines": ", ".join(EXAMPLE3_SYMBOLS) + " (no p)",
                "p's in scope at line 224": ", ".join(P_SYMBOLS_IN_SCOPE),
                f"mu = {mu}, n = {n}": f"disclosure probability of a record {_s(got, 8)}; p_prior/n with p_prior = "
                                       f"{PRIOR}: {_s(as_prior, 8)}"}

    def corrected():
        with mpmath.workdps(WDPS):
            rows = [({"mu": mu, "n": n, "what": "1 - f(0) of derive.uniform_sampling vs (1 - e^-mu)/n in plain "
                                                "mpmath"}, release(), -mpmath.expm1(-_mpf(mu)) / n)]
        return agreement(rows, mpmath.mpf(10) ** -25, "the record's disclosure probability from the URS record "
                                                       "against Example 3's definition")
    return refutation("A canonical example is the Uniform Random Sampling Mechanism discussed in Example 3 where "
                      "with probability p/np/n, a dataset record is disclosed.",
                      "with probability (1 - e^{-mu})/n (Example 3, line 104), a dataset record is disclosed",
                      counterexample, corrected, "numeric.mp.power of derive.uniform_sampling against Example 3's "
                      "definition", kind="notation")
