"""Seed 000 (de Fondeville 2026, arXiv:2603.12753v1): the errata found by issue #23's referee checks of
words, notation and parameter domains (the formula and number errata are in claims_errata_000.py).

* Section 3.3, lines 297-299: "the relative disclosure risk bound for confidence level at most alpha_0" is
  defined as a supremum over alpha in [alpha_0; 1], i.e. for levels *at least* alpha_0.  The paper calls
  alpha the confidence level (Fig. 5's caption, line 350: "a Z-test at a confidence level alpha_0 = 0.01";
  line 301: "standard choices for alpha ... are 0.05 or 0.01").  Over levels at most alpha_0 the Gaussian
  mechanism's ratio (1 - G_mu(alpha))/alpha is unbounded (its rho is infinite, line 295), which is why
  the bound restricts alpha from below.
* Section 3.3, line 301: "standard choices for alpha ... are 0.05 or 0.01, targeting rejection rates of
  95% or 99%": a level-alpha test rejects a true null with probability alpha (5% or 1%); 95% and 99% are
  the probabilities of *not* rejecting it (the confidence levels 1 - alpha).
* Section 3.3, line 224: "with probability p/n, a dataset record is disclosed" names a p Example 3 does
  not define (its records are disclosed with probability (1 - e^-mu)/n each).
* Example 2 against Eq. (7) and Section 4: N's second argument is a scale in one place and a variance in
  the others.
* Section 5.1, line 414: the maximum relative risk R is said to range over R > 0; rho >= 1 always.
"""

from __future__ import annotations

import mpmath

import derive
from numeric import design as ND
from numeric import mp
from numeric import risk as NR

from .errata_common import (
    DF,
    DIG,
    TOL,
    WDPS,
    _dec,
    _gauss_power,
    _gauss_tradeoff,
    _gt,
    _mpf,
    _s,
)
from .grid import normal_cdf, normal_isf, normal_sf
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
            ref = _gauss_power(MU, ALPHA0) / _mpf(ALPHA0)      # P(N(mu, 1) > z_{1 - alpha_0}) / alpha_0
        worst = max(_ratio(a) for a in grid)
        if worst > ref * (1 + mpmath.mpf(10) ** -20):
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


# ------------------------------------------------------------ Example 2 vs Eq. (7): what N's second argument is
#: Example 2's noise as printed (lines 96-98): N{0, sup|q(D) - q(D')|/mu}, second argument Delta/mu (a function of
#: the sensitivity Delta and mu; a flip in tests/test_errata_referee.py prints Delta^2/mu^2 instead)
def _EX2_SECOND_ARG(delta, mu):
    return delta / mu


@claim("DF-Errata-N-notation", ("000",), DF + ", Example 2 and Sections 4-5, lines 96-98, 320-322 and 338",
       "statement",
       "Example 2 writes the Gaussian mechanism as q(D) + N{0, sup|q(D) - q(D')|/mu} and says N's argument is the "
       "scale (line 98), while Eq. (7) (X_i ~ m_i + N(0, sigma^2), sigma the standard deviation) and Section 4 "
       "(Q(D) = N(mbar, sigma^2/n + Delta q^2/mu^2)) use the second argument as the variance.  Read in Eq. (7)'s "
       "notation, Example 2 adds noise of variance Delta/mu, which is sqrt(Delta mu)-GDP, not mu-GDP (Delta = 1/15, "
       "mu = 1: 0.258-GDP, G(0.05) = 0.9172 against G_1(0.05) = 0.7405); Section 4's Delta q^2/mu^2 is the variance "
       "of the scale reading.  In Eq. (7)'s notation Example 2's noise is N(0, Delta^2/mu^2)",
       latex=r"N\{0,\Delta/\mu\}\ \text{(scale)}\ \ne\ N(0,\Delta/\mu)\ \text{(variance)};\ "
             r"N(0,\Delta^2/\mu^2)\Rightarrow G_\mu")
def _df_n_notation():
    n, sd_data, m, level = 15, "0.25", "0.2", "0.05"
    levels = ("0.05", "0.01", "0.3")

    def laws_tradeoff(shift, sd, a):
        """The Neyman-Pearson trade-off of N(0, sd^2) against N(shift, sd^2) from the two normal laws: the test
        rejecting above t = sd z_{1-a} has level a, its type II error is P(N(shift, sd^2) <= t)."""
        with mpmath.workdps(WDPS):
            t = _mpf(sd) * normal_isf(_mpf(a))
            return normal_cdf((t - _mpf(shift)) / _mpf(sd))

    def reading_as_variance():
        """(noise sd, GDP parameter) of Example 2's printed argument read as a variance (Eq. (7)'s notation)."""
        with mpmath.workdps(WDPS):
            delta, mu = mpmath.mpf(1) / n, mpmath.mpf(1)
            sd = mpmath.sqrt(_EX2_SECOND_ARG(delta, mu))
            return sd, delta / sd

    def corrected():
        with mpmath.workdps(WDPS):
            delta, mu = mpmath.mpf(1) / n, mpmath.mpf(1)
            sd = mpmath.sqrt(delta ** 2 / mu ** 2)          # N(0, Delta^2/mu^2) in (mean, variance) notation
        g = derive.gaussian(_dec(delta / sd, 30))
        rows = []
        for a in levels:
            got = mp.tradeoff(g, a, DIG)
            rows.append(({"alpha": a, "what": "trade-off of N(0, Delta^2/mu^2) noise (mp.tradeoff of derive.gaussian"
                          "(Delta/sd)) vs Phi(Phi^-1(1 - alpha) - mu), mu = 1"}, got, _gauss_tradeoff("1", a)))
            rows.append(({"alpha": a, "what": "the same vs the NP test of N(0, sd^2) against N(1/15, sd^2)"},
                         got, laws_tradeoff(delta, sd, a)))
        sd_b, mu_b = reading_as_variance()
        rows.append(({"alpha": level, "what": "G at Example 2 read as a variance (mp.tradeoff) vs the two normal laws"},
                     mp.tradeoff(derive.gaussian(_dec(mu_b, 30)), level, DIG), laws_tradeoff(delta, sd_b, level)))
        z = ND.ztest(n, sd_data, m, level, "1", digits=DIG)
        with mpmath.workdps(WDPS):
            want = mpmath.sqrt(_mpf(sd_data) ** 2 / n + delta ** 2 / mu ** 2)
        rows.append(({"what": "Section 4's sigma_n (numeric.design.ztest, n = 15, sigma = 0.25, mu = 1) vs "
                      "sqrt(sigma^2/n + Delta q^2/mu^2)"}, z.sigma_n, want))
        return agreement(rows, TOL, "Delta = 1/15 (the mean of 15 values in [0, 1]), mu = 1: N(0, Delta^2/mu^2) noise "
                                    "has sd Delta/mu and is mu-GDP")

    def counterexample():
        sd_b, mu_b = reading_as_variance()
        with mpmath.workdps(WDPS):
            delta, mu = mpmath.mpf(1) / n, mpmath.mpf(1)
            if not (_gt(mu, mu_b) or _gt(mu_b, mu)):
                return None
            g_b = mp.tradeoff(derive.gaussian(_dec(mu_b, 30)), level, DIG)
            g_mu = mp.tradeoff(derive.gaussian("1"), level, DIG)
            if not (_gt(g_b, g_mu) or _gt(g_mu, g_b)):
                return None
            z = ND.ztest(n, sd_data, m, level, "1", digits=DIG)
            sec4 = z.sigma_n ** 2 - _mpf(sd_data) ** 2 / n     # the DP part of Section 4's variance
            return {"Example 2 read in Eq. (7)'s notation": (f"N(0, Delta/mu) with Delta = 1/15, mu = 1: noise sd "
                                                             f"{_s(sd_b, 6)}, {_s(mu_b, 6)}-GDP, not {_s(mu, 3)}-GDP"),
                    f"G({level})": f"{_s(g_b, 6)} read as a variance; {_s(g_mu, 6)} for mu-GDP (sd Delta/mu = "
                                   f"{_s(delta / mu, 6)})",
                    "Section 4's DP variance (numeric.design.ztest)": (
                        f"Delta q^2/mu^2 = {_s(sec4, 6)}: the square of the scale reading (Delta/mu)^2 = "
                        f"{_s((delta / mu) ** 2, 6)}, not the variance reading Delta/mu = "
                        f"{_s(_EX2_SECOND_ARG(delta, mu), 6)}")}
    return refutation(r"Q(D)=q(D)+N\left\{0,\frac{\sup_{D,D^{\prime}}|q(D)-q(D^{\prime})|}{\mu}\right\} ... "
                      r"where N(σ)N(\sigma) denotes a Gaussian random variable with zero mean 0 and scale σ\sigma. ... "
                      r"X_{i}\sim m_{i}+N(0,\sigma^{2}) ... σ>0\sigma>0 denotes the standard deviation ... "
                      r"Q(D)=q(D)+N=N\left(\bar{m},\frac{\sigma^{2}}{n}+\frac{\Delta q^{2}}{\mu^{2}}\right)",
                      "one notation: in Eq. (7)'s (mean, variance) notation Example 2's noise is N(0, Delta^2/mu^2) "
                      "(sd Delta/mu, mu-GDP: G_1(0.05) = 0.7405 at Delta = 1/15), which is Section 4's Delta q^2/mu^2; "
                      "or Eq. (7) and Section 4 written with the scale", counterexample, corrected,
                      "mp.tradeoff of derive.gaussian and numeric.design.ztest (Delta = 1/15, mu = 1)", kind="notation")


# ------------------------------------------------------------ Section 5.1: the range of the maximum relative risk R
#: the range of R printed in Section 5.1 (line 414): R > 0 (a flip in tests/test_errata_referee.py prints R > 1)
_R_PRINTED_LOWER = 0


@claim("DF-Errata-R-domain", ("000",), DF + ", Section 5.1, line 414", "statement",
       "'Maximum relative disclosure risk R > 0: Choose the privacy-loss parameter mu such that rho = R, or "
       "rho_alpha0 = R': every trade-off function has f(alpha) <= 1 - alpha, so rho >= 1 and rho_alpha0 = "
       "(1 - f(alpha0))/alpha0 is in [1, 1/alpha0], strictly above 1 for mu > 0.  For R <= 1 no mu > 0 exists "
       "(Laplace: rho = e^mu, so R = 0.5 needs mu = log 0.5 < 0; Gaussian at alpha0 = 0.01: rho_alpha0 ranges over "
       "(1, 100)); the range is R > 1 (and R < 1/alpha0 for rho_alpha0)",
       latex=r"\rho=e^{\mu}>1,\ \rho_{\alpha_0}=\Phi(\mu-z_{1-\alpha_0})/\alpha_0\in(1,1/\alpha_0)")
def _df_r_domain():
    a0 = "0.01"
    grid = ("1e-6", "0.1", "1", "2.5", "10", "40")
    grid_g = ("1e-6", "0.1", "1", "2.5", "5")      # 100 (1 - 8e-15) at mu = 10: 1/alpha0 to within the tolerance

    def rho_lap(mu):
        return NR.risk(derive.laplace(mu), alpha0=a0, digits=DIG).rho

    def rho_a0_gauss(mu):
        return NR.risk(derive.gaussian(mu), alpha0=a0, digits=DIG).rho_alpha0

    def corrected():
        with mpmath.workdps(WDPS):
            mu_g = normal_isf(_mpf(a0)) - normal_isf(2 * _mpf(a0))   # Phi(mu - z_{1-a0}) = R a0 at R = 2
            rows = [({"R": "2", "what": "Laplace: eps with rho = 2 (numeric.design.select) vs log 2"},
                     ND.select(derive.laplace(), "rho", "2", digits=DIG).value, mpmath.log(2)),
                    ({"R": "2", "alpha0": a0, "what": "Gaussian: mu with rho_alpha0 = 2 (numeric.design.select) vs "
                      "z_{1-alpha0} - z_{1-R alpha0}"},
                     ND.select(derive.gaussian(), "rho-alpha0", "2", alpha0=a0, digits=DIG).value, mu_g)]
            for mu in grid:
                rows.append(({"mu": mu, "what": "Laplace rho (numeric.risk.risk) vs e^mu"}, rho_lap(mu),
                             mpmath.exp(_mpf(mu))))
            for mu in grid_g:
                rows.append(({"mu": mu, "alpha0": a0, "what": "Gaussian rho_alpha0 (numeric.risk.risk) vs "
                              "Phi(mu - z_{1-alpha0})/alpha0"}, rho_a0_gauss(mu),
                             normal_cdf(_mpf(mu) - normal_isf(_mpf(a0))) / _mpf(a0)))
        return agreement(rows, TOL, "R = 2 is reached (Laplace mu = log 2, Gaussian mu = 0.2726 at alpha0 = 0.01); "
                                    "rho and rho_alpha0 over mu against their closed forms")

    def counterexample():
        targets = [r for r in ("0.5", "1") if mpmath.mpf(r) > _R_PRINTED_LOWER]
        if not targets:
            return None
        lap = [rho_lap(mu) for mu in grid]
        gau = [rho_a0_gauss(mu) for mu in grid_g]
        with mpmath.workdps(WDPS):
            if not all(_gt(v, 1) for v in lap + gau) or not all(_gt(1 / _mpf(a0), v) for v in gau):
                return None
            out = {f"R = {r} (in the printed range R > {_R_PRINTED_LOWER})":
                   f"Laplace needs mu = log R = {_s(mpmath.log(_mpf(r)), 6)} (not > 0); Gaussian needs "
                   f"mu = z_{{1-alpha0}} - z_{{1-R alpha0}} = {_s(normal_isf(_mpf(a0)) - normal_isf(_mpf(r) * _mpf(a0)), 6)}"
                   for r in targets}
        out["Laplace rho = e^mu (numeric.risk.risk)"] = ", ".join(f"{_s(v, 10)} (mu = {mu})" for mu, v in zip(grid, lap))
        out[f"Gaussian rho_alpha0 at alpha0 = {a0} (numeric.risk.risk)"] = ", ".join(
            f"{_s(v, 10)} (mu = {mu})" for mu, v in zip(grid_g, gau)) + ": in (1, 1/alpha0 = 100)"
        return out
    return refutation("Maximum relative disclosure risk R>0R>0: Choose the privacy-loss parameter μ\\mu such that "
                      "ρ=R\\rho=R, or ρα0=R\\rho_{\\alpha_{0}}=R",
                      "R > 1 (rho >= 1 and rho_alpha0 >= 1 for every trade-off function, strictly for mu > 0), and "
                      "1 < R < 1/alpha0 for the rho_alpha0 route; R = 2: Laplace mu = log 2 = 0.6931, Gaussian "
                      "mu = 0.2726 at alpha0 = 0.01", counterexample, corrected,
                      "numeric.risk.risk and numeric.design.select of derive.laplace and derive.gaussian",
                      kind="statement")
