"""Bayesian semantics of (eps, delta)-DP (seed 002, Kazan et al. 2025): ``numeric.semantics``.

Reference provenance (all computed in this file with plain mpmath, at 400 digits so that
delta = 1e-300 next to delta' = 0.05 is resolved):

* eps' = log((e^eps delta' + delta)/(delta' - delta)) (Thm 3.9, the boxed form);
* U(p, e) = p e^e/(p e^e + 1 - p), L(p, e) = U(p, -e); ratio bounds e^{-eps'}, e^{eps'} and
  at prior p: L/p = 1/(p + (1-p) e^{eps'}), U/p = 1/(p + (1-p) e^{-eps'});
  difference bound tanh(eps'/4) at the worst-case prior 1/(1 + e^{eps'/2}) (Lemma 3.4),
  also found by our own golden-section maximisation of U(p, eps') - p over p;
* Monte Carlo: the Gaussian mechanism with mu = 1 is (eps, delta(eps))-DP on its exact
  profile delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth, Su
  Cor. 2.13); outputs y ~ N(mu, 1) (member) and N(0, 1) (non-member), the posterior by
  Bayes from the two normal densities; the fraction of posteriors inside the library's
  [posterior_lower, posterior_upper] must be >= 1 - delta' - 5 SE, SE = sqrt(delta'(1 - delta')/N).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derive.errors import DomainError
from exact_refs import DIGITS, close, q, qc, val
from numeric import semantics as NS


def eps_prime(eps, delta, dp):
    e, d, dpr = q(eps), q(delta), q(dp)
    return mpmath.log((mpmath.exp(e) * dpr + d) / (dpr - d))


def U(p, e):
    return p * mpmath.exp(e) / (p * mpmath.exp(e) + 1 - p)


def reference(eps, delta, dp, prior):
    """Every field of semantics() by hand (call inside workdps(400))."""
    ep = eps_prime(eps, delta, dp)
    p, pc = q(prior), qc(prior)
    up, lo = U(p, ep), U(p, -ep)
    wc = 1 / (1 + mpmath.exp(ep / 2))
    return {
        "eps_prime": ep, "probability": qc(dp),
        "posterior_lower": lo, "posterior_upper": up,
        "one_minus_posterior_lower": 1 - lo, "one_minus_posterior_upper": 1 - up,
        "ratio_lower": mpmath.exp(-ep), "ratio_upper": mpmath.exp(ep),
        "ratio_lower_at_prior": 1 / (p + pc * mpmath.exp(ep)),
        "ratio_upper_at_prior": 1 / (p + pc * mpmath.exp(-ep)),
        "difference_bound": mpmath.tanh(ep / 4),
        "difference_lower_at_prior": lo - p, "difference_upper_at_prior": up - p,
        "worst_case_prior": wc, "worst_case_prior_down": 1 - wc,
    }


CASES = [
    ("1", "1e-5", "1e-3", None),
    ("1", "1e-300", "0.05", "1e-15"),
    ("2", "1e-10", "1e-6", "0.999999999999999"),
    ("0", "0.01", "0.05", "0.3"),
    ("0", "1e-300", "0.05", "0.5"),        # eps' = log1p(2e-300/(0.05 - 1e-300)) ~ 4e-299: relative digits
    ("0.5", "0.1", "1", "0.5"),            # delta' = 1: probability 0
    ("1", "0", "0.05", "0.2"),             # delta = 0: eps' = eps
    ("10", "1e-300", "2e-300", "0.5"),     # delta' - delta = 1e-300: eps' = 10 + log(2 + e^-10)
]


@pytest.mark.parametrize("eps, delta, dp, prior", CASES)
def test_every_field_against_hand_formulas(eps, delta, dp, prior):
    out = NS.semantics(eps, delta, dp, prior, DIGITS)
    with mpmath.workdps(400):
        ref = reference(eps, delta, dp, "0.5" if prior is None else prior)
        assert set(ref) <= set(out.as_dict())
        for key, r in ref.items():
            close(getattr(out, key), r, what=key)


def test_default_prior_is_one_half():
    a = NS.semantics("1", "1e-5", "1e-3", None, 15)
    b = NS.semantics("1", "1e-5", "1e-3", "0.5", 15)
    assert a == b


# ------------------------------------------------------------------ Lemma 3.4: worst-case prior
def _golden_max(fn, lo, hi, iters=200):
    g = (mpmath.sqrt(5) - 1) / 2
    a, b = mpmath.mpf(lo), mpmath.mpf(hi)
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = fn(c), fn(d)
    for _ in range(iters):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = fn(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = fn(d)
    x = (a + b) / 2
    return x, fn(x)


@pytest.mark.parametrize("eps, delta, dp", [("1", "1e-5", "1e-3"), ("3", "0.01", "0.2")])
def test_worst_case_prior_and_difference_bound(eps, delta, dp):
    with mpmath.workdps(60):
        ep = eps_prime(eps, delta, dp)
        pstar = 1 / (1 + mpmath.exp(ep / 2))
        # brute force: max_p U(p, eps') - p by golden section, independent of the tanh formula
        x, best = _golden_max(lambda p: U(p, ep) - p, mpmath.mpf("1e-9"), 1 - mpmath.mpf("1e-9"))
        assert abs(best - mpmath.tanh(ep / 4)) < mpmath.mpf("1e-40")
        assert abs(x - pstar) < mpmath.mpf("1e-15")
        pstar_str = mpmath.nstr(pstar, 50)
        down_str = mpmath.nstr(1 - pstar, 50)
    base = NS.semantics(eps, delta, dp, None, DIGITS)
    at_star = NS.semantics(eps, delta, dp, pstar_str, DIGITS)
    at_down = NS.semantics(eps, delta, dp, down_str, DIGITS)
    with mpmath.workdps(60):
        close(base.worst_case_prior, pstar, what="worst-case prior")
        close(base.worst_case_prior_down, 1 - pstar, what="downward worst-case prior")
        close(base.difference_bound, best, mpmath.mpf("1e-18"), "difference bound vs brute-force max")
        # U(p*, eps') - p* = tau(eps') (the maximum is flat: a 50-digit p* costs nothing)
        close(at_star.difference_upper_at_prior, at_star.difference_bound, what="U(p*) - p* = tau")
        close(at_down.difference_lower_at_prior, -val(at_down.difference_bound), what="L(1-p*) - (1-p*) = -tau")
        # the worst case is a maximum: other priors have a smaller difference
        for p in ("0.1", "0.5", "0.9"):
            d = NS.semantics(eps, delta, dp, p, DIGITS).difference_upper_at_prior
            assert val(d) < val(base.difference_bound)


# ------------------------------------------------------------------ Monte Carlo (Gaussian mechanism)
def gdp_delta(mu, eps):
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def test_monte_carlo_gaussian_mechanism_posterior_within_bounds():
    mu, eps, dp, prior = 1.0, "1", "0.3", "0.3"
    with mpmath.workdps(40):
        delta = gdp_delta(mpmath.mpf(1), mpmath.mpf(1))          # 0.1269...: (1, delta)-DP exactly
        delta_str = mpmath.nstr(delta + mpmath.mpf("1e-25"), 30)  # rounded up: still a valid delta
        assert q(delta_str) >= delta
    out = NS.semantics(eps, delta_str, dp, prior, 15)
    lo, hi = float(out.posterior_lower), float(out.posterior_upper)
    rng = np.random.default_rng(20250709)
    N = 200_000
    p = float(prior)
    se = (float(dp) * (1 - float(dp)) / N) ** 0.5
    for member in (True, False):
        y = rng.normal(mu if member else 0.0, 1.0, N)
        # Bayes with the N(mu, 1) and N(0, 1) densities: log-likelihood ratio mu y - mu^2/2
        llr = mu * y - mu * mu / 2
        post = 1.0 / (1.0 + (1 - p) / p * np.exp(-llr))
        inside = np.mean((post >= lo) & (post <= hi))
        assert inside >= 1 - float(dp) - 5 * se, (member, inside)
    # exact counterpart: P(|L| > eps') <= delta' for L ~ N(+-mu^2/2, mu^2) (own formula)
    with mpmath.workdps(40):
        ep = val(out.eps_prime)
        for m in (mpmath.mpf("0.5"), mpmath.mpf("-0.5")):
            outside = mpmath.ncdf(-ep - m) + mpmath.ncdf(m - ep)
            assert outside <= q(dp)


# ------------------------------------------------------------------ regressions (bugs found and fixed)
def test_pure_zero_dp_gives_zero_bounds():
    out = NS.semantics("0", "0", "0.05", "0.3", 15)
    assert val(out.eps_prime) == 0
    assert val(out.difference_bound) == 0
    with mpmath.workdps(30):
        close(out.posterior_upper, q("0.3"), mpmath.mpf("1e-14"))


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("eps, delta, dp, prior, param", [
    ("1", "1e-5", "1e-5", None, "delta_prime"),       # delta' = delta
    ("1", "1e-5", "1e-6", None, "delta_prime"),       # delta' < delta
    ("1", "1e-300", "1e-301", None, "delta_prime"),
    ("1", "0", "0", None, "delta_prime"),
    ("1", "1e-5", "1.5", None, "delta_prime"),
    ("1", "1", "1", None, "delta"),
    ("1", "-1e-5", "0.1", None, "delta"),
    ("-1", "1e-5", "1e-3", None, "eps"),
    ("1", "1e-5", "1e-3", "0", "prior"),
    ("1", "1e-5", "1e-3", "1", "prior"),
    ("1", "1e-5", "1e-3", "-0.1", "prior"),
    ("1", "1e-5", "1e-3", "1.5", "prior"),
])
def test_bad_input(eps, delta, dp, prior, param):
    with pytest.raises(DomainError) as exc:
        NS.semantics(eps, delta, dp, prior)
    assert exc.value.parameter == param


# ------------------------------------------------------------------ section 4.2: zCDP releases
def _bs_eps_prime_min(rho_total, delta_prime):
    """min over delta in (0, delta') of eps'(eps_BS(rho, delta), delta, delta'), by golden section in
    log delta at 50 digits, from the formulas: eps_BS = rho + 2 sqrt(rho log(1/delta)) (Bun-Steinke)
    and eps' = log((e^eps delta' + delta)/(delta' - delta)) (Kazan et al. Thm 3.9, boxed form)."""
    with mpmath.workdps(50):
        r, dp = mpmath.mpf(rho_total), mpmath.mpf(delta_prime)

        def h(t):
            d = mpmath.exp(t)
            e = r + 2 * mpmath.sqrt(r * -t)
            return mpmath.log((mpmath.exp(e) * dp + d) / (dp - d))
        lo, hi = mpmath.log(dp) - 700, mpmath.log(dp) - mpmath.mpf("1e-12")
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(400):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            if h(c) < h(d):
                hi = d
            else:
                lo = c
        return h((lo + hi) / 2)


@pytest.mark.parametrize("rho_total", ["0.07", "0.3", "2.02"])
def test_zcdp_eps_prime_is_the_minimum_over_the_conversion_delta(rho_total):
    got = NS.zcdp_eps_prime(rho_total, "0.01", "bun-steinke", 20).eps_prime
    close(got, _bs_eps_prime_min(rho_total, "0.01"), tol=mpmath.mpf("1e-15"), what=rho_total)


def test_releases_until_first_crossing():
    # seed 002 Example 4.1 reading: 0.01-zCDP per day; the first k with U(1/2, eps'_k) > 0.99,
    # checked on both sides with the independent minimisation above
    out = NS.releases_until("0.01", "0.01", "0.99", "posterior")
    k = out.k
    with mpmath.workdps(50):
        def upper(kk):
            return 1 / (1 + mpmath.exp(-_bs_eps_prime_min(mpmath.mpf("0.01") * kk, "0.01")))
        assert upper(k) > mpmath.mpf("0.99") >= upper(k - 1)
