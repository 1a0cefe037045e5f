"""Two upper-bound routes for shuffled eps0-LDP reports (issue #26 item 1; seed 004 Sec. 4.3, Su 2025 v1).

1. The f-DP route of WSY+23 (Wang, Su, Ye, Shokri, Su, "Unified enhancement of privacy bounds for
   mixture mechanisms via f-differential privacy", NeurIPS 2023, arXiv 2310.19973), read as follows.
   The clone reduction (FMT22 "Hiding among the clones"; FMT23 "Stronger privacy amplification by
   shuffling") says the shuffled output on neighbouring datasets is a post-processing of the pair

       P = sum_c w_c P_c,  Q = sum_c w_c Q_c,  w = Bin(n - 1, r),
       P_c = Bin(c, 1/2) * Bern(q),  Q_c = Bin(c, 1/2) * Bern(p),  p = e^eps0 / (1 + e^eps0) = 1 - q,

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

   Two identities place the route (checked in tests/test_shuffle_rr.py).  (i) In the clone pair the
   component c is observed (the two coordinates sum to c + 1), so the components have disjoint supports
   and Eq. 4.1 holds with equality: this route equals the exact hockey-stick divergence of the clone pair
   itself, i.e. the "numerical" clone bound.  (ii) For binary RR the stronger clone decomposition is
   exact, R(x) = (p - q) [x] + 2q Unif{0, 1}, and with c hidden the mixture sum_c w_c P_c is the exact
   k = 0 shuffled pair (Bin(Bin(n - 1, 2q), 1/2) = Bin(n - 1, q)): so the gap between this route and
   numeric.shuffle_rr is exactly the information "which users are clones".

2. Renyi DP of the exact shuffled binary-RR pair (numeric.shuffle_rr, k = 0, both directions), converted
   with the conversion of Balle et al. 2020 / Canonne-Kamath-Steinke 2020 (Prop. 12):
   eps = D_alpha + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1), minimised over a grid of
   alpha.  Side: an upper bound on that PAIR's eps(delta) (every alpha gives one), not on the mechanism's
   unless k = 0 is also the Renyi-worst pair.  FMT23's own RDP bound is not implemented.

Both routes are float computations (log space, windows covering all but about e^-40 of the mass, the
dropped weight added to the WSY upper bound): ``certified`` is False for them, except
``wsy_eps(..., certify=True)``, whose eps_upper is moved to a point where ``wsy_delta_certified`` (arb,
every component through numeric.shuffle_rr's certified bracket) proves the route's delta <= delta.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .shuffle_rr import _delta, _eps0, _n, rr_noises

#: clone probability r(eps0) of the two reductions
CLONES = {
    "standard": lambda e0: math.exp(-e0),                 # FMT22 (FOCS 2021), Thm 3.1
    "stronger": lambda e0: 2.0 / (math.exp(e0) + 1.0),    # FMT23 (SODA 2023)
}


def _components(n: int, r: float, span: float = 9.0):
    """(c values, log weights, dropped mass) of C ~ Bin(n - 1, r) over mean +- span sd."""
    from scipy.stats import binom
    N = n - 1
    mean, sd = N * r, math.sqrt(N * r * (1 - r)) + 1
    c = np.arange(max(0, int(mean - span * sd)), min(N, int(mean + span * sd) + 1) + 1)
    lw = binom.logpmf(c, N, r)
    dropped = float(binom.cdf(c[0] - 1, N, r) + binom.sf(c[-1], N, r)) if c.size else 1.0
    return c, lw, dropped


class CloneTable:
    """log Bin(c, 1/2)(s - 1) and log Bin(c, 1/2)(s) for the components c carrying the mixture's mass
    (mean +- 9 sd of C; the weight left out, below 1e-17, is added to the route's delta), on the counts s within 7 sqrt(c) + 20 of (c + 1)/2, i.e. 14 sd of Bin(c, 1/2)
    and more: what lies outside is below e^-98 of the peak, so the route's delta is exact to that (and
    no term of a delta above 1e-40 is lost).  Built once per (n, eps0, reduction); float."""

    def __init__(self, n: int, eps0: float, reduction: str):
        from scipy.special import gammaln
        self.cs, self.lw, self.dropped = _components(n, CLONES[reduction](eps0))
        half = int(7 * math.sqrt(self.cs[-1] + 1)) + 20
        cc = self.cs[:, None]
        self.s = (cc + 1) // 2 - half + np.arange(2 * half + 2)[None, :]       # the counts
        j = self.s - 1                                                        # B(s - 1)
        ok_prev, ok_cur = (j >= 0) & (j <= cc), (self.s >= 0) & (self.s <= cc)
        head = gammaln(cc + 1) - cc * math.log(2)

        def logb(x, ok):
            xx = np.clip(x, 0, cc)
            return np.where(ok, head - gammaln(xx + 1) - gammaln(cc - xx + 1), -np.inf)
        self.lprev, self.lcur = logb(j, ok_prev), logb(self.s, ok_cur)
        self.live = (self.s >= 0) & (self.s <= cc + 1)
        self.eps0 = eps0


def wsy_delta_table(tab: CloneTable, eps: float) -> float:
    """sum_c w_c H_{e^eps}(Q_c || P_c) + the dropped weight (the Eq. 4.1 route's delta, an upper bound).
    Q_c(s) - g P_c(s) = cst (B(s - 1) - u B(s)), cst = p - g q, u = (g p - q)/cst, B = Bin(c, 1/2)."""
    p = math.exp(tab.eps0) / (1 + math.exp(tab.eps0))
    q, g = 1 - p, math.exp(eps)
    cst = p - g * q
    if cst <= 0:
        return 0.0
    u = (g * p - q) / cst
    with np.errstate(over="ignore", invalid="ignore"):
        terms = np.where(tab.live, np.exp(tab.lprev) - u * np.exp(tab.lcur), 0.0)
    per_c = cst * np.sum(np.maximum(terms, 0.0), axis=1)
    return float(np.sum(np.exp(tab.lw) * per_c) + tab.dropped)


def wsy_delta(n: int, eps0: float, eps: float, reduction: str = "stronger") -> float:
    return wsy_delta_table(CloneTable(n, eps0, reduction), eps)


def clone_renyi(tab: CloneTable, alpha: float) -> float:
    """D_alpha(Q || P) of the clone mixture pair (= D_alpha(P || Q) by the symmetry s -> c + 1 - s):
    (1/(alpha - 1)) log sum_c w_c sum_s Q_c(s)^alpha P_c(s)^(1 - alpha) (float, log space)."""
    if not hasattr(tab, "lpq"):
        p = math.exp(tab.eps0) / (1 + math.exp(tab.eps0))
        lp = np.logaddexp(math.log1p(-p) + tab.lprev, math.log(p) + tab.lcur)     # P_c = B * Bern(q)
        lq = np.logaddexp(math.log(p) + tab.lprev, math.log1p(-p) + tab.lcur)     # Q_c = B * Bern(p)
        ok = tab.live & np.isfinite(lp)
        lw = np.broadcast_to(tab.lw[:, None], lp.shape)[ok]
        tab.lpq = (lw + lp[ok], lq[ok] - lp[ok])          # log(w_c P_c(s)), log(Q_c(s)/P_c(s))
    base, llr = tab.lpq
    return _lse(base, llr, alpha) / (alpha - 1)


def _lse(base, llr, alpha: float) -> float:
    """log sum exp(base + alpha llr) (one buffer, max-shifted)."""
    v = llr * alpha
    v += base
    top = float(v.max())
    v -= top
    np.exp(v, out=v)
    return top + math.log(float(v.sum()))


def _solve(delta_of, eps0: float, delta: float) -> float:
    """eps with delta_of(eps) = delta (decreasing in eps) on [0, eps0]: Brent's method on
    log delta_of(eps) - log delta to a relative tolerance of 1e-11 (delta_of(eps0) = 0 is moved in)."""
    from .solvers import brent_root
    if delta_of(0.0) <= delta:
        return 0.0
    hi = eps0
    while delta_of(hi) <= 0.0:
        hi *= 0.999
    if delta_of(hi) > delta:
        return eps0
    ld = math.log(delta)
    return brent_root(lambda e: math.log(delta_of(e)) - ld, 0.0, hi, xtol=1e-14, rtol=1e-11)


def wsy_eps(n, eps0, delta, reduction: str = "stronger", certify: bool = False) -> dict:
    """eps(delta) of the Eq. 4.1 (WSY+23) route over the clone mixture: an upper bound on the shuffled
    mechanism's eps(delta) (float; see the module docstring).  With ``certify`` the float root is moved up
    (by 1e-9 relative, then 4x steps) to a point whose delta is proved <= delta (``wsy_delta_certified``):
    eps_upper is then certified for the route, hence for the mechanism (given the FMT reduction)."""
    n_, e0, d = _n(n), float(_eps0(eps0)), float(_delta(delta))
    if reduction not in CLONES:
        from derive.errors import DomainError
        raise DomainError("reduction", reduction, f"one of {', '.join(CLONES)}")
    tab = CloneTable(n_, e0, reduction)
    e = _solve(lambda x: wsy_delta_table(tab, x), e0, d)
    out = {"route": f"WSY+23 Eq. 4.1 over the {reduction} clone mixture", "n": n_, "eps0": str(eps0),
           "delta": str(delta), "eps": e, "eps_upper": e, "eps_lower": None, "certified": False,
           "reason": "float route (log-space sums over windows; see numeric/shuffle_fdp.py)",
           "side": "upper bound on the shuffled mechanism's eps(delta)"}
    if certify:
        up = _certify_upper(n_, _eps0(eps0), _delta(delta), reduction, e, tab)
        if up is not None:
            out.update({"eps": up, "eps_upper": up, "certified": True, "reason": None})
    return out


def wsy_delta_certified(n: int, eps0: Fraction, eps: Fraction, reduction: str, tab=None) -> float:
    """A certified upper bound on the route's delta(eps): sum over the window of components of
    w_c (arb) times the certified upper end of H(Q_c || P_c) (numeric.shuffle_rr.delta_bracket_arb with
    the noise Bin(c, 1/2)), plus the weight outside the window, 1 - sum_window w_c, evaluated in arb
    (the weights sum to 1 exactly, and arb's radius covers the cancellation).  Each w_c is enclosed by
    lgamma; every component's bracket is proved in shuffle_rr's docstring."""
    import flint

    from .shuffle_rr import (
        _PREC,
        Noise,
        _arb,
        _binom_at,
        _p,
        _q,
        _up,
        delta_bracket_arb,
    )

    def _half(x):                      # 1/2 in the caller's arithmetic (float locator or exact arb)
        return x * 0 + 0.5
    tab = CloneTable(n, float(eps0), reduction) if tab is None else tab
    with flint.ctx.workprec(_PREC):
        x = _arb(eps0).exp()
        r = 2 / (x + 1) if reduction == "stronger" else 1 / x
        total, mass = flint.arb(0), flint.arb(0)
        for c in tab.cs.tolist():
            w = _binom_at(n - 1, c, r, flint)
            mass += w
            noise = Noise(c, 0, _half, _half, _q, _p)
            total += w * flint.arb(delta_bracket_arb(noise, eps0, eps)[1])
        return _up(total + (1 - mass))


def _certify_upper(n, eps0: Fraction, delta: Fraction, reduction: str, est: float, tab):
    """The smallest of est (1 + 10^-9 4^j), j = 0..5, whose certified delta is <= delta, or None."""
    for j in range(6):
        e = min(est * (1 + 1e-9 * 4 ** j), float(eps0))
        if wsy_delta_certified(n, eps0, Fraction(e), reduction, tab) <= delta:
            return e
    return None


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


def _pair_logs(n: int, eps0: float):
    """[(log P, log Q)] of the exact k = 0 pair in both directions (the mirror is the reverse order)."""
    x = math.exp(eps0)
    out = []
    for noise in rr_noises(n, 0):
        lp, lq = _log_pair(noise, x)
        ok = np.isfinite(lp) & np.isfinite(lq)
        out.append((lp[ok], lq[ok]))
    return out


def renyi(n: int, eps0: float, alpha: float, logs=None) -> float:
    """max of D_alpha(Q || P), D_alpha(P || Q) for the exact k = 0 pair (float, log space)."""
    from scipy.special import logsumexp
    logs = _pair_logs(n, eps0) if logs is None else logs
    return max(float(logsumexp(alpha * lq + (1 - alpha) * lp)) / (alpha - 1) for lp, lq in logs)


def _converted(div, delta: float, alpha: float) -> float:
    """eps from an (alpha, D_alpha) RDP point: Balle et al. 2020 Thm 21 / CKS20 Prop. 12."""
    return div + math.log1p(-1 / alpha) - (math.log(delta) + math.log(alpha)) / (alpha - 1)


def _best_alpha(eps_of, lo: float = -3.0, hi: float = 3.0):
    """min over alpha = 1 + 10^x of eps_of(alpha): a grid of 31 points in x, then golden-section search
    (``numeric.solvers.golden_max``) between the neighbours of the best grid point (every alpha gives a
    valid bound, so the search only has to be good, not exact)."""
    from .solvers import golden_max
    xs = np.linspace(lo, hi, 31)
    vals = [eps_of(1 + 10 ** x) for x in xs]
    i = int(np.argmin(vals))
    a, b = float(xs[max(i - 1, 0)]), float(xs[min(i + 1, len(xs) - 1)])
    x, neg = golden_max(lambda t: -eps_of(1 + 10 ** t), a, b, rel_tol=1e-5)
    return (-neg, 1 + 10 ** x) if -neg < vals[i] else (vals[i], 1 + 10 ** float(xs[i]))


def rdp_eps(n, eps0, delta, pair: str = "stronger") -> dict:
    """The Renyi route: D_alpha of ``pair`` ("stronger" / "standard" clone mixture: an upper bound on the
    shuffled mechanism's eps(delta); "exact": the k = 0 binary-RR pair, an upper bound on that pair's
    eps(delta) only), converted to (eps, delta) and minimised over alpha; capped at eps0."""
    n_, e0, d = _n(n), float(_eps0(eps0)), float(_delta(delta))
    gap = math.tanh(e0 / 2)                     # p - q
    # the terms Q^alpha P^(1 - alpha) peak about alpha (p - q) counts from the centre: alpha is capped so
    # that the peak stays well inside the window of counts summed (half of it)
    if pair == "exact":
        logs = _pair_logs(n_, e0)
        sd = math.sqrt((n_ - 1) * (1 - gap * gap) / 4) + 1

        def div(a):
            return renyi(n_, e0, a, logs)
        side = "upper bound on the k = 0 pair's eps(delta)"
        cap = 30 * sd / gap
    elif pair in CLONES:
        tab = CloneTable(n_, e0, pair)

        def div(a):
            return clone_renyi(tab, a)
        side = "upper bound on the shuffled mechanism's eps(delta)"
        cap = (7 * math.sqrt(tab.cs[0] + 1) + 20) / (2 * gap)
    else:
        from derive.errors import DomainError
        raise DomainError("pair", pair, "one of exact, " + ", ".join(CLONES))
    best, alpha = _best_alpha(lambda a: _converted(div(a), d, a), hi=math.log10(max(min(1e3, cap) - 1, 1e-2)))
    return {"route": f"Renyi DP of the {pair} pair, Balle et al. 2020 / CKS20 conversion", "n": n_,
            "eps0": str(eps0), "delta": str(delta), "eps": min(max(best, 0.0), e0),
            "eps_upper": min(max(best, 0.0), e0), "alpha": alpha, "eps_lower": None, "certified": False,
            "reason": "float route (log-space sums over windows, alpha from a grid and golden section)", "side": side + " (capped at eps0, the local guarantee)"}
