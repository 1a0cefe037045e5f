"""eps(delta) of the clone pairs, fast: a vectorised float model picks two points, one Arb walk certifies
both (issue #26 item 1, speed against the FMT21 numerical method).

Notation and proofs are those of numeric/shuffle_clones.py (FMT21 = Feldman, McMillan, Talwar, FOCS 2021,
arXiv 2012.12803 v4, Thm 3.2; FMT23 = the same authors, SODA 2023, arXiv 2208.04591, Lemma 3.5): the pair's
delta(eps) = sum_c w_c h_c with w_c = Bin(n - 1, q)(c), h_c = k1 b_c(T_c) - k2 F_c(T_c), T_c = ceil((c + 1)
theta) - 1, b_c / F_c the pmf / cdf of Bin(c, 1/2), k1 = (e^{eps0 + eps} - 1)/(1 + e^eps0), k2 = e^eps - 1.

What is new here, and why each piece is only a *choice* or is certified
------------------------------------------------------------------------
1. The float model (``FloatModel``): the same sum in float64 over the whole window of C at once (numpy).
   w_c and b_c(T_c) from one log-pmf at c_hi each (Arb's log-gamma, rounded) and a cumulative sum of the
   log ratios of the walk, F along the downward walk as one cumulative sum: F_{c-1}(T_{c-1}) =
   F_c(T_c) + b_{c-1}(T_c)/2 if T stays, - b_{c-1}(T_c)/2 if T drops by one (Pascal's rule; see
   shuffle_clones), started from a float sum of the terms b_c(x), x <= T, at c_hi (no scipy: its import alone
   costs a second).  Illinois regula falsi on log(model/delta) gives
   the model's root r.  Nothing certified rests on it: it only chooses e_lo = r (1 - w), e_hi = r (1 + w).
2. One Arb walk (``_walk_pair``) evaluates the certified delta at e_lo and e_hi together: w_c, b_c, F_c
   depend on the threshold sequence T_c only, and (c + 1)|theta_lo - theta_hi| < 1/2 on the whole window
   (checked), so the T_c of e_hi's float theta is within one of both points' exact T*_c, which is what
   shuffle_clones._slice needs (it takes the max over T - 1, T, T + 1 when the ball of (c + 1) theta does
   not fix T).  Each point's sum is an Arb ball containing its exact windowed sum, as in
   shuffle_clones._walk.
3. The start F_{c_hi}(T) = sum_{x <= T} b_c(x) is summed in Arb downward from x = T instead of Arb's
   incomplete beta (4-30 ms a call): successive ratios b_c(x - 1)/b_c(x) = x/(c + 1 - x) =: r_x decrease
   as x decreases and are < 1 for x <= T < (c + 1)/2, so after the last added term b_c(x) the rest is in
   [0, b_c(x) r_x/(1 - r_x)] (a geometric series); that interval is added as a ball once it is below
   2^-80 of the sum.  When a Gaussian estimate says more than ``MAX_TERMS`` terms would be needed, Arb's
   ``beta_lower`` at 64 bits is used (a ball as well).  (Either way the ball contains F; the 2^-80 only
   decides how wide it is.)
4. Truncation of C to [c_lo, c_hi]: the Chernoff ``tail`` of shuffle_clones._tail_bound, so
   delta(e) in [S(e).lower, S(e).upper + tail].  Then delta(e_lo) > delta and delta(e_hi) <= delta, both
   certain, put eps(delta) in (e_lo, e_hi] because delta(eps) is non-increasing.  If either check fails
   (the model misled, or the tail is not negligible), ``try_eps_bracket`` returns None and ``eps_bracket``
   falls back to shuffle_clones' general search (which also handles eps(delta) = 0).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from numeric import shuffle_clones as SC

#: the most terms the start's downward sum may take before Arb's incomplete beta is used instead
MAX_TERMS = 4000


class FloatModel:
    """delta(eps) of a clone pair in float64, vectorised over the window of C (a model: see the module
    docstring, item 1).  ``delta(eps, scale)`` returns delta * 2^scale."""

    def __init__(self, name: str, eps0: float, n: int, log_inv_tail: float):
        self.eps0, self.n = eps0, n
        q, qbar = SC.REDUCTIONS[name].pair_float(eps0)
        self.c_lo, self.c_hi = SC.window(n, q, qbar, log_inv_tail)
        c = np.arange(self.c_hi, self.c_lo - 1, -1, dtype=float)            # downward, as the walk
        self.c = c
        # log w_c: one anchor at c_hi (Arb), then the ratios w_{c-1}/w_c = c (1 - q)/((n - c) q), summed
        lw0 = _log_binom_pmf(self.c_hi, n - 1, eps0, name)
        steps = np.log(c[:-1] / (n - c[:-1])) + math.log(qbar / q)
        self.w = np.exp(lw0 + np.concatenate(([0.0], np.cumsum(steps))))

    def delta(self, eps: float, scale: int = 0) -> float:
        return self.delta_slope(eps, scale)[0]

    def delta_slope(self, eps: float, scale: int = 0) -> tuple[float, float]:
        """(delta(eps), d delta / d eps) * 2^scale; the slope at the maximising prefixes T_c (envelope)."""
        e0, c = self.eps0, self.c
        if eps >= e0:
            return 0.0, 0.0
        t, E = math.exp(eps), math.exp(e0)
        k1, k2 = math.expm1(e0 + eps) / (1 + E), math.expm1(eps)
        theta = t * math.expm1(e0 - eps) / (math.expm1(e0) * (1 + t))
        T = np.ceil((c + 1) * theta) - 1
        lb0 = _log_binom_pmf(int(T[0]), int(c[0]), None, None)
        F0 = _float_cdf(int(c[0]), int(T[0]), lb0)
        b = np.array([math.exp(lb0)])
        if len(c) > 1:
            drops = T[:-1] - T[1:]                  # 0 (T stays) or 1 (T drops) along the downward walk
            if not np.all((drops == 0) | (drops == 1)) or T[-1] < 0:
                return math.nan, math.nan
            # b along the walk by its ratios (log space, one cumulative sum): b_{c-1}(T_c) = b_c(T_c) 2(c - T)/c,
            # and b_{c-1}(T_c - 1) = b_{c-1}(T_c) T_c/(c - T_c) where T drops
            cc, TT = c[:-1], T[:-1]
            step = np.log(2 * (cc - TT) / cc) + np.where(drops == 1, np.log(np.maximum(TT, 1) / (cc - TT)), 0.0)
            b = np.exp(lb0 + np.concatenate(([0.0], np.cumsum(step))))
            b_new = b[:-1] * 2 * (cc - TT) / cc                                  # b_{c-1}(T_c)
            inc = np.where(drops == 0, b_new, -b_new) / 2
            F = F0 + np.concatenate(([0.0], np.cumsum(inc)))
        else:
            F = np.array([F0])
        G = k1 * b - k2 * F
        on = G > 0
        wb, wF = math.ldexp(float(np.dot(self.w[on], b[on])), scale), math.ldexp(float(np.dot(self.w[on], F[on])), scale)
        return k1 * wb - k2 * wF, (E * t / (1 + E)) * wb - t * wF

    def root(self, delta: float, iterations: int = 60) -> float:
        """eps with model delta(eps) = delta: Newton on log delta inside the bracket [0, eps0]
        (numeric.solvers.newton_in_bracket; bisection wherever Newton leaves it).  nan when it fails."""
        from numeric.solvers import newton_in_bracket
        scale = -math.frexp(delta)[1]
        log_target = math.log(math.ldexp(delta, scale))
        bad = []

        def probe(x):
            d, s = self.delta_slope(x, scale)
            if not (math.isfinite(d) and math.isfinite(s)):
                bad.append(x)
                return False, lambda: None
            g = math.log(d) - log_target if d > 0 else -math.inf
            return g > 0, (lambda: g * d / s if d > 0 and s < 0 else None)
        x = newton_in_bracket(probe, 0.0, self.eps0, 1e-13, iterations)
        return math.nan if bad else x


def _log_binom_pmf(k: int, N: int, eps0: float | None, name: str | None) -> float:
    """log Bin(N, q)(k) (q of the reduction at eps0), or log Bin(N, 1/2)(k) when ``name`` is None: Arb's
    log-gamma at 128 bits rounded to a float (the float model's anchors; float lgamma differences lose
    ~1e-9 relative at N ~ 1e7)."""
    flint = SC._flint()
    arb = flint.arb
    if not 0 <= k <= N:
        return -math.inf
    with flint.ctx.workprec(128):
        if name is None:
            lp = lpb = -arb(2).log()
        else:
            q, qbar = SC.REDUCTIONS[name].pair(arb(eps0))
            lp, lpb = q.log(), qbar.log()
        v = arb(N + 1).lgamma() - arb(k + 1).lgamma() - arb(N - k + 1).lgamma() + k * lp + (N - k) * lpb
        return float(v.mid())


def _float_cdf(c: int, T: int, lb: float) -> float:
    """P(Bin(c, 1/2) <= T) in float from log b_c(T) = lb: the terms b_c(x), x = T, T - 1, ..., by their
    ratios x/(c + 1 - x) (one cumulative sum of logs), over a Gaussian estimate of the terms that matter."""
    if T < 0:
        return 0.0
    if T >= c:
        return 1.0
    sd = math.sqrt(c) / 2
    z = (c / 2 - T) / sd
    K = min(T + 1, int((math.sqrt(z * z + 90) - z) * sd) + 20)
    x = np.arange(T, T - K, -1, dtype=float)
    logs = np.concatenate(([0.0], np.cumsum(np.log(x[:-1] / (c + 1 - x[:-1])))))
    return float(np.exp(lb + logs).sum())


def _start_F(c: int, T: int, b, arb):
    """F_c(T) = P(Bin(c, 1/2) <= T) as an Arb ball, given the ball b = b_c(T) (module docstring, item 3)."""
    if T < 0:
        return arb(0)
    if T >= c:
        return arb(1)
    sd = math.sqrt(c) / 2                          # Gaussian estimate of the terms needed for 2^-80
    z_T = (c / 2 - T) / sd
    if (math.sqrt(z_T * z_T + 2 * 80 * math.log(2)) - z_T) * sd > MAX_TERMS:
        with SC._flint().ctx.workprec(64):
            return arb("0.5").beta_lower(c - T, T + 1, regularized=1)
    total, term, x = b, b, T
    eps_rel = arb(2) ** -80
    for _ in range(MAX_TERMS):
        if x == 0:
            return total
        r = arb(x) / (c + 1 - x)
        rest = term * r / (1 - r)                   # bounds every term below x (ratios decrease)
        if rest < eps_rel * total:
            return total + arb(0).union(rest)
        term = term * r
        total += term
        x -= 1
    rest = term * (arb(x) / (c + 1 - x)) / (1 - arb(x) / (c + 1 - x))
    return total + arb(0).union(rest)


def _walk_pair(n, q, qbar, points, c_lo, c_hi, theta_f):
    """[sum_{c_lo <= c <= c_hi} w_c h_c(e) for e in points] (Arb balls), one downward walk; ``points`` =
    [(k1, k2, theta)], T_c from the float ``theta_f`` (within one of every point's T*_c: checked by the
    caller)."""
    flint = SC._flint()
    arb = flint.arb
    ratio_w = qbar / q
    c = c_hi
    T = SC._threshold(c, theta_f)
    w = (arb(n).lgamma() - arb(c + 1).lgamma() - arb(n - c).lgamma() + c * q.log()
         + (n - 1 - c) * qbar.log()).exp()
    if 0 <= T < c:
        b = (arb(c + 1).lgamma() - arb(T + 1).lgamma() - arb(c - T + 1).lgamma() - c * arb(2).log()).exp()
    else:
        b = arb(2) ** (-c) if T == c else arb(0)
    F = _start_F(c, T, b, arb)
    totals = [w * SC._slice(c, T, b, F, k1, k2, th, arb) for k1, k2, th in points]
    while c > c_lo:
        b_new = b * (2 * (c - T)) / c
        w = w * ratio_w * c / (n - c)
        T_new = SC._threshold(c - 1, theta_f)
        if T_new not in (T, T - 1):
            raise AssertionError(f"threshold moved from {T} to {T_new} at c = {c}")
        stays = T_new == T
        F = F + (b_new if stays else -b_new) / 2
        b = b_new if stays else b_new * T / (c - T)
        c, T = c - 1, T_new
        for i, (k1, k2, th) in enumerate(points):
            totals[i] += w * SC._slice(c, T, b, F, k1, k2, th, arb)
    return totals


def _point_params(x0, E, e: Fraction, flint):
    arb, fmpq = flint.arb, flint.fmpq
    x = arb(fmpq(e.numerator, e.denominator))
    t = x.exp()
    a, abar = SC.mixing_weight(E)
    return a * t - abar, x.expm1(), t * (x0 - x).expm1() / (x0.expm1() * (1 + t))


def certify_pair(name: str, eps0: Fraction, n: int, e_lo: Fraction, e_hi: Fraction, log_inv_tail: float,
                 prec_bits: int = SC.PREC_BITS):
    """(delta bracket at e_lo, delta bracket at e_hi) as exact Fraction pairs, from one Arb walk; None when
    the two points' thresholds may differ by more than one somewhere on the window."""
    flint = SC._flint()
    arb, fmpq = flint.arb, flint.fmpq
    prec_bits += max(0, -math.floor(math.log2(float(eps0))))
    with flint.ctx.workprec(prec_bits):
        x0 = arb(fmpq(eps0.numerator, eps0.denominator))
        E = x0.exp()
        q, qbar = SC.REDUCTIONS[name].pair(x0)
        lo_p, hi_p = _point_params(x0, E, e_lo, flint), _point_params(x0, E, e_hi, flint)
        th_lo, th_hi = float(lo_p[2].mid()), float(hi_p[2].mid())
        c_lo, c_hi = SC.window(n, float(q.mid()), float(qbar.mid()), log_inv_tail)
        if (c_hi + 1) * abs(th_lo - th_hi) >= 0.5:
            return None
        S_lo, S_hi = _walk_pair(n, q, qbar, [lo_p, hi_p], c_lo, c_hi, th_hi)
        tail = SC._tail_bound(n, q, qbar, c_lo, c_hi) if n > 1 else arb(0)
        return ((max(Fraction(0), SC._ends(S_lo)[0]), SC._ends(S_lo + tail)[1]),
                (max(Fraction(0), SC._ends(S_hi)[0]), SC._ends(S_hi + tail)[1]))


def try_eps_bracket(name: str, eps0: Fraction, n: int, delta: Fraction, rel_width: float,
                    prec_bits: int = SC.PREC_BITS):
    """(e_lo, e_hi) with eps(delta) in (e_lo, e_hi] certified and (e_hi - e_lo) <= rel_width e_hi, or None
    (then the caller's general search runs).  Two points, one walk (module docstring)."""
    if n < 2 or not 0 < delta < 1:
        return None
    L = SC._log_inv_tail(float(delta))
    model = FloatModel(name, float(eps0), n, L)
    root = model.root(float(delta))
    if not 0 < root < float(eps0) or not math.isfinite(root):
        return None
    w = Fraction(rel_width / 2.5)
    e_lo, e_hi = Fraction(root) * (1 - w), min(eps0, Fraction(root) * (1 + w))
    res = certify_pair(name, eps0, n, e_lo, e_hi, L, prec_bits)
    if res is None:
        return None
    (lo_lower, _), (_, hi_upper) = res
    if lo_lower > delta and hi_upper <= delta and e_hi - e_lo <= Fraction(rel_width) * e_hi:
        return e_lo, e_hi
    return None


def eps_bracket(name: str, eps0, n: int, delta, rel_width: float = 1e-9,
                prec_bits: int = SC.PREC_BITS) -> SC.EpsBracket:
    """Certified (lower, upper] of eps(delta) of the reduction's pair: ``try_eps_bracket`` (two points, one
    walk), else numeric.shuffle_clones.eps_bracket (its general search)."""
    t0 = time.perf_counter()
    eps0, delta = Fraction(eps0), Fraction(delta)
    SC.reduction(name)
    if eps0 > 0 and 0 < delta < 1:
        got = try_eps_bracket(name, eps0, n, delta, rel_width, prec_bits)
        if got is not None:
            return SC.EpsBracket(got[0], got[1], True, 2, time.perf_counter() - t0)
    return SC.eps_bracket(name, eps0, n, delta, rel_width, prec_bits)
