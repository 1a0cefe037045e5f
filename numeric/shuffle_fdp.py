"""Two upper-bound routes for shuffled eps0-LDP reports (issue #26 item 1; seed 004 Sec. 4.3, Su 2025 v1).

1. The f-DP route of WSY+23 (Wang, Su, Ye, Shokri, Su, "Unified enhancement of privacy bounds for
   mixture mechanisms via f-differential privacy", NeurIPS 2023, arXiv 2310.19973), read as follows.
   The clone reduction (FMT22 "Hiding among the clones"; FMT23 "Stronger privacy amplification by
   shuffling") says the shuffled output on neighbouring datasets is a post-processing of the pair

       P = sum_c w_c P_c,  Q = sum_c w_c Q_c,  w = Bin(n - 1, r),
       P_c = Bin(c, 1/2) * Bern(p),  Q_c = Bin(c, 1/2) * Bern(q),  p = e^eps0 / (1 + e^eps0),

   (the two coordinates of the clone pair sum to c + 1, so the first one is the whole experiment), with
   the clone probability r = e^-eps0 (FMT22, "standard") or 2 / (e^eps0 + 1) (FMT23, "stronger").
   Eq. 4.1 of seed 004 (the WSY+23 mixture inequality) bounds T(P, Q) below at the points
   sum_c w_c alpha_c(t) by sum_c w_c T(P_c, Q_c)(alpha_c(t)).  Its (eps, delta) reading: the lower
   envelope g(alpha) = inf { sum_c w_c T_c(x_c) : sum_c w_c x_c = alpha } satisfies T(P, Q) >= g (split any
   test over the components), and the convex conjugate of an infimal convolution is the weighted sum of
   conjugates, so delta_g(eps) = sup_alpha (1 - g(alpha) - e^eps alpha) = sum_c w_c delta_c(eps), the
   supremum being attained at x_c = alpha_c(e^eps), i.e. exactly at the points of Eq. 4.1 with t = e^eps.
   So the route's profile is sum_c w_c H_{e^eps}(Q_c || P_c) (each component is symmetric under
   s -> c + 1 - s, so one direction suffices).  Side: an UPPER bound on delta(eps) of the shuffled
   mechanism (valid reduction + joint convexity), hence eps_wsy(delta) >= the mechanism's eps(delta).
   WSY+23's own closed form is not recovered here (the paper text was not available to this build); this
   is the route's exact value for the clone mixture, which their closed form can only bound from above.

2. Renyi DP of the exact shuffled binary-RR pair (numeric.shuffle_rr, k = 0, both directions), converted
   with the conversion of Balle et al. 2020 / Canonne-Kamath-Steinke 2020 (Prop. 12):
   eps = D_alpha + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1), minimised over a grid of
   alpha.  Side: an upper bound on that PAIR's eps(delta) (every alpha gives one), not on the mechanism's
   unless k = 0 is also the Renyi-worst pair.  FMT23's own RDP bound is not implemented.

Both routes are float computations (log space, windows covering all but e^-70 of the mass, the dropped
mass added to the WSY upper bound): ``certified`` is False for them.
"""

from __future__ import annotations

import math

import numpy as np

from .shuffle_rr import _delta, _eps0, _n, rr_noises

#: clone probability r(eps0) of the two reductions
CLONES = {
    "standard": lambda e0: math.exp(-e0),                 # FMT22 (FOCS 2021), Thm 3.1
    "stronger": lambda e0: 2.0 / (math.exp(e0) + 1.0),    # FMT23 (SODA 2023)
}


def _components(n: int, r: float, span: float = 12.0):
    """(c values, log weights, dropped mass) of C ~ Bin(n - 1, r) over mean +- span sd."""
    from scipy.stats import binom
    N = n - 1
    mean, sd = N * r, math.sqrt(N * r * (1 - r)) + 1
    c = np.arange(max(0, int(mean - span * sd)), min(N, int(mean + span * sd) + 1) + 1)
    lw = binom.logpmf(c, N, r)
    dropped = float(binom.cdf(c[0] - 1, N, r) + binom.sf(c[-1], N, r)) if c.size else 1.0
    return c, lw, dropped


def wsy_delta(n: int, eps0: float, eps: float, reduction: str = "stronger") -> float:
    """sum_c w_c H_{e^eps}(Q_c || P_c) + dropped weight (the Eq. 4.1 route's delta, an upper bound)."""
    from scipy.special import gammaln
    p = math.exp(eps0) / (1 + math.exp(eps0))
    q, g = 1 - p, math.exp(eps)
    cst = p - g * q
    if cst <= 0:
        return 0.0
    u = (g * p - q) / cst                 # Q_c(s) - g P_c(s) = cst (B(s-1) - u B(s)), B = Bin(c, 1/2)
    cs, lw, dropped = _components(n, CLONES[reduction](eps0))
    # B(s-1)/B(s) = s/(c - s + 1) > u  <=>  s > u (c + 1)/(1 + u)
    start = np.floor(u * (cs + 1) / (1 + u)).astype(np.int64) + 1
    # past s* the terms fall like a Gaussian of sd sqrt(c)/2: 8 sqrt(c) counts leave below e^-120 of them
    width = int(8 * math.sqrt(cs[-1] + 1)) + 40
    s = start[:, None] + np.arange(width)[None, :]
    cc = cs[:, None]
    head = gammaln(cc + 1) - cc * math.log(2)

    def logb(j):
        ok = (j >= 0) & (j <= cc)
        jj = np.clip(j, 0, cc)
        return np.where(ok, head - gammaln(jj + 1) - gammaln(cc - jj + 1), -np.inf)
    lprev, lcur = logb(s - 1), logb(s)
    live = s <= cc + 1
    terms = np.where(live, np.exp(lprev) - u * np.exp(lcur), 0.0)
    per_c = cst * np.sum(np.maximum(terms, 0.0), axis=1)
    return float(np.sum(np.exp(lw) * per_c) + dropped)


def _solve(delta_of, eps0: float, delta: float) -> float:
    """eps with delta_of(eps) = delta (decreasing in eps) on [0, eps0]: Brent's method on
    log delta_of(eps) - log delta to a relative tolerance of 1e-11 (delta_of(eps0) = 0 is moved in)."""
    from scipy.optimize import brentq
    if delta_of(0.0) <= delta:
        return 0.0
    hi = eps0
    while delta_of(hi) <= 0.0:
        hi *= 0.999
    if delta_of(hi) > delta:
        return eps0
    ld = math.log(delta)
    return brentq(lambda e: math.log(delta_of(e)) - ld, 0.0, hi, xtol=1e-14, rtol=1e-11)


def wsy_eps(n, eps0, delta, reduction: str = "stronger") -> dict:
    """eps(delta) of the Eq. 4.1 (WSY+23) route over the clone mixture: an upper bound on the shuffled
    mechanism's eps(delta) (float; see the module docstring)."""
    n_, e0, d = _n(n), float(_eps0(eps0)), float(_delta(delta))
    if reduction not in CLONES:
        from derive.errors import DomainError
        raise DomainError("reduction", reduction, f"one of {', '.join(CLONES)}")
    e = _solve(lambda x: wsy_delta(n_, e0, x, reduction), e0, d)
    return {"route": f"WSY+23 Eq. 4.1 over the {reduction} clone mixture", "n": n_, "eps0": str(eps0),
            "delta": str(delta), "eps_upper": e, "eps_lower": None, "certified": False,
            "side": "upper bound on the shuffled mechanism's eps(delta)"}


def _log_pair(noise, x: float):
    """log P(s), log Q(s) of the pair B * Bern(lo), B * Bern(hi) over the counts carrying mass."""
    from .shuffle_rr import _log_noise, _window
    mean, sd = _window(noise, x)
    s0 = max(0, int(mean - 60 * sd))
    s1 = min(noise.top() + 1, int(mean + 60 * sd) + noise.m + 1)
    lb = _log_noise(noise, x, s0 - 1, s1)
    prev, cur = lb[:-1], lb[1:]
    lo, hi = noise.lo(x), noise.hi(x)
    lp = np.logaddexp(math.log(lo) + prev, math.log1p(-lo) + cur)
    lq = np.logaddexp(math.log(hi) + prev, math.log1p(-hi) + cur)
    return lp, lq


def renyi(n: int, eps0: float, alpha: float) -> float:
    """max of D_alpha(Q || P), D_alpha(P || Q) for the exact k = 0 pair (float, log space)."""
    from scipy.special import logsumexp
    x = math.exp(eps0)
    out = 0.0
    for noise in rr_noises(n, 0):
        lp, lq = _log_pair(noise, x)
        ok = np.isfinite(lp) & np.isfinite(lq)
        out = max(out, float(logsumexp(alpha * lq[ok] + (1 - alpha) * lp[ok])) / (alpha - 1))
    return out


def rdp_eps(n, eps0, delta, alphas=None) -> dict:
    """min over alpha of the converted Renyi bound of the exact k = 0 pair (upper bound for that pair)."""
    n_, e0, d = _n(n), float(_eps0(eps0)), float(_delta(delta))
    alphas = np.concatenate([1 + np.logspace(-3, 3, 241)]) if alphas is None else np.asarray(alphas)
    best, arg = e0, None
    for a in alphas:
        e = renyi(n_, e0, float(a)) + math.log1p(-1 / a) - (math.log(d) + math.log(a)) / (a - 1)
        if e < best:
            best, arg = e, float(a)
    return {"route": "Renyi DP of the exact k = 0 pair, Balle et al. 2020 / CKS20 conversion",
            "n": n_, "eps0": str(eps0), "delta": str(delta), "eps_upper": max(best, 0.0), "alpha": arg,
            "eps_lower": None, "certified": False,
            "side": "upper bound on the k = 0 pair's eps(delta) (capped at eps0, the local guarantee)"}
