"""Privacy amplification by shuffling: the clone reductions' dominating pairs, certified (issue #26 item 1).

n users each apply an eps0-LDP randomizer and a shuffler permutes the n reports.  The clone
reductions of Feldman, McMillan and Talwar bound every such protocol by one *finite* pair (P, Q):

    C ~ Bin(n - 1, q),   A ~ Bin(C, 1/2),   Delta ~ Bern(a),   a = e^eps0 / (1 + e^eps0),
    P = (A + Delta, C - A + 1 - Delta),      Q = (A + 1 - Delta, C - A + Delta),

and the shuffled output is (eps, delta)-DP with delta = max(H_{e^eps}(P||Q), H_{e^eps}(Q||P))
(the hockey-stick divergence, H_t(P||Q) = sum (P - t Q)_+).  The two reductions differ in q only
(``REDUCTIONS``):

* ``standard-clone``: q = e^{-eps0}.  FMT21 = V. Feldman, A. McMillan, K. Talwar, "Hiding among the
  clones: a simple and nearly optimal analysis of privacy amplification by shuffling", FOCS 2021,
  arXiv 2012.12803 (v1-v4): Theorem 3.2 / Lemma 3.3 (the reduction to the pair above; the numerical
  method of their Sec. 5 evaluates exactly this pair).
* ``stronger-clone``: q = 2/(e^eps0 + 1): every other user is a clone of user 1's report on x_1^0 with
  probability 1/(e^eps0 + 1) and of its report on x_1^1 with the same probability.  FMT23 = the same
  authors, "Stronger privacy amplification by shuffling for Renyi and approximate differential
  privacy", SODA 2023, arXiv 2208.04591: Sec. 3, Lemma 3.5 and Theorem 3.2.  The arXiv version's
  errata (v3 and later) restrict Theorem 3.2 to a class of local randomizers (those admitting the
  decomposition of the corrected Lemma 3.5; randomized response, for instance); the pair itself is
  unchanged.  This module computes the pair's divergence exactly as stated; whether a given randomizer
  is in the class is the caller's claim.  (The paper text was not available offline here; the pair is
  transcribed from the statement as we recall it and should be checked against Sec. 3 of v3.  Two
  implementations by third parties use the same pair: the fork yixuanLL/HPS of Apple's
  computeamplification.py (commit 4279089, ``p = 2/(math.exp(eps0)+1) #stronger FV23`` beside the FMT21
  ``p = math.exp(-eps0)``, the mixing weight e^eps0/(e^eps0 + 1) unchanged) and the "strongerclone"
  branch of wangsw/PrivacyAmplification (commit 34ca048).  That corroborates the transcription; it
  does not replace the check against the paper.  tests/test_shuffle_peer_pairs.py holds the numbers.)

Closed form of the likelihood ratio
-----------------------------------
Both coordinates of P sum to C + 1, so an atom is (c, x) with x = first coordinate in {0..c+1}.
With b_c(x) = binom(c, x) 2^-c (zero outside 0..c), w_c = Bin(n-1, q)(c) and E = e^eps0:

    P(c, x) = w_c [a b_c(x - 1) + (1 - a) b_c(x)],   Q(c, x) = w_c [a b_c(x) + (1 - a) b_c(x - 1)].

(``P(c, x) = Q(c, c + 1 - x)``: Q is the image of P under the bijection x -> c + 1 - x, so
H_t(P||Q) = H_t(Q||P): the two directions are equal and "the max" is either.  We evaluate
H_t(Q||P) below; the brute-force tests compute both.)  Since b_c(x - 1)/b_c(x) = x/(c + 1 - x),

    Q/P (c, x) = (E (c + 1 - x) + x) / (E x + c + 1 - x),

which is decreasing in x for E > 1 (numerator decreasing, denominator increasing).  Hence
{Q > t P} is, for each c, a prefix x < y_c of the atoms: solving the linear inequality,

    Q/P > t  <=>  x < (c + 1) theta,    theta = (E - t) / ((E - 1)(1 + t)),

with theta in (0, 1/2] for 0 <= eps < eps0.  For eps >= eps0 the ratio is at most E (at x = 0)
everywhere, so delta(eps) = 0; for eps < eps0 the atoms x = 0 have ratio E > t and delta > 0.

Sums by binomial tails, not a double loop
-----------------------------------------
With F_c(T) = P(Bin(c, 1/2) <= T), the partial hockey stick of the c-th slice over the prefix {0..T}
is, since sum_{x<=T} b_c(x - 1) = F_c(T - 1) = F_c(T) - b_c(T),

    G_c(T) = sum_{x<=T} (Q - t P)(c, x) / w_c = (a t + a - 1) b_c(T) - (t - 1) F_c(T),

and the slice's divergence is h_c = max_T G_c(T) = G_c(T*_c), T*_c = ceil((c + 1) theta) - 1 (every
prefix gives a lower bound, the prefix of positive terms the maximum).  As c decreases by one, T*
stays or drops by one (theta <= 1/2 < 1), and F, b follow exactly by

    b_{c-1}(T) = b_c(T) 2 (c - T)/c,   F_{c-1}(T) = F_c(T) + b_{c-1}(T)/2   (Pascal's rule),
    F_{c-1}(T - 1) = F_c(T) - b_{c-1}(T)/2,   b_{c-1}(T - 1) = b_{c-1}(T) T/(c - T),
    w_{c-1} = w_c c (1 - q) / ((n - c) q).

The walk goes *downward* in c: the tail F grows along it (it is ~ exp(-c I(theta))), so the absolute
error of each step is carried, never amplified relative to the value (an upward walk subtracts
b/2 from a value of the same size at every step and is unstable).  The walk starts at c_hi from arb's
regularised incomplete beta F = I_{1/2}(c - T, T + 1) and b, w from ``lgamma``; O(c_hi - c_lo) arb
operations in all, ~ 2 sqrt(2 L) standard deviations of C.

Why the bracket is certified
----------------------------
* Every number is an arb ball (F. Johansson, "Arb", IEEE TC 66(8), 2017): the inputs eps0, eps are
  exact rationals, E, t, q, a balls; each operation's rounding is in the radius; so the ball of
  S = sum_{c_lo <= c <= c_hi} w_c h_c contains the exact finite sum.
* T*_c is taken from a float: T = ceil((c + 1) theta_f) - 1 with theta_f the double nearest the ball's
  midpoint, so (c + 1) theta_f is within 1e-7 of the exact (c + 1) theta for c <= 1e8 and T*_c is one
  of T - 1, T, T + 1 (and T*_c >= 0, as theta > 0).  When the ball of (c + 1) theta does not certainly
  lie in (T, T + 1], the slice uses max(G(T - 1), G(T), G(T + 1)) (arb's max; G(T - 1) only for
  T >= 1), which contains h_c because T*_c is one of the three and every G(T') <= h_c.
* Truncation: the slices c < c_lo and c > c_hi carry mass at most the Chernoff bounds
  exp(-(n - 1) KL(k/(n - 1) || q)) at k = c_lo - 1 and k = c_hi + 1 (Hoeffding 1963, Thm. 1; evaluated
  in arb), and each slice's divergence is at most 1; the dropped part of delta is in [0, tail], so
  delta in [S.lower, S.upper + tail].
* eps(delta) uses that delta(eps) is non-increasing in eps: if delta_upper(e_hi) <= delta and
  delta_lower(e_lo) > delta then the exact eps(delta) = inf{eps >= 0: delta(eps) <= delta} lies in
  (e_lo, e_hi].  A float64 run of the same walk (``delta_float``) only proposes e_lo, e_hi; it is
  trusted for nothing (where it misleads, a bisection on the certified delta itself takes over).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

PREC_BITS = 192


@dataclass(frozen=True)
class Reduction:
    """One clone reduction: the clone probability q and 1 - q (each formed without cancellation) as
    functions of eps0, in arb (``pair``) and in float (``pair_float``: the model only)."""

    name: str
    pair: Callable
    pair_float: Callable
    citation: str


REDUCTIONS = {r.name: r for r in (
    # q = e^-eps0, 1 - q = -expm1(-eps0)
    Reduction("standard-clone", lambda x0: ((-x0).exp(), -((-x0).expm1())),
              lambda x0: (math.exp(-x0), -math.expm1(-x0)),
              "Feldman, McMillan, Talwar (FOCS 2021), arXiv 2012.12803, Thm 3.2"),
    # q = 2/(e^eps0 + 1), 1 - q = (e^eps0 - 1)/(e^eps0 + 1) = tanh(eps0/2)
    Reduction("stronger-clone", lambda x0: (2 / (x0.exp() + 1), (x0 / 2).tanh()),
              lambda x0: (2 / (math.exp(x0) + 1), math.tanh(x0 / 2)),
              "Feldman, McMillan, Talwar (SODA 2023), arXiv 2208.04591, Lemma 3.5 / Thm 3.2"),
)}


def reduction(name: str) -> Reduction:
    from derive.errors import DomainError
    if name not in REDUCTIONS:
        raise DomainError("reduction", name, "one of " + ", ".join(REDUCTIONS))
    return REDUCTIONS[name]


def mixing_weight(E):
    """(a, 1 - a), a = e^eps0/(1 + e^eps0) the probability that user 1's Delta is 1 (the tests mutate this);
    1 - a = 1/(1 + E) is formed directly, not by a subtraction."""
    return E / (1 + E), 1 / (1 + E)


@dataclass(frozen=True)
class DeltaBracket:
    lower: Fraction
    upper: Fraction
    tail: Fraction           # certified bound on the truncated mass (already in ``upper``)
    c_range: tuple[int, int]
    seconds: float


@dataclass(frozen=True)
class EpsBracket:
    lower: Fraction
    upper: Fraction
    certified: bool
    evaluations: int
    seconds: float
    reason: str = ""


def float_loss(eps0: float, c, x):
    """The pair's privacy loss at outcome (c, x), y = c + 1 - x, in float64 (knot placement only):
    log((E x + y)/(E y + x)) = log1p((E - 1)(x - y)/(E y + x)), E = e^eps0 (no cancellation at a tiny eps0),
    exactly -eps0 at x = 0 and eps0 at y = 0.  Arrays or scalars."""
    import numpy as np
    x = np.asarray(x, dtype=np.float64)
    y = c + 1 - x
    em1 = math.expm1(eps0)
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = np.log1p(em1 * (x - y) / ((em1 + 1) * y + x))
    return np.where(x == 0, -eps0, np.where(y == 0, eps0, inner))


def _flint():
    import flint
    return flint


def _point(x) -> Fraction:
    """An exact arb point (a midpoint or a radius) as a Fraction."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def _ends(x) -> tuple[Fraction, Fraction]:
    """The ball [m - r, m + r] as exact Fractions (no rounding: m and r are binary floats)."""
    m, r = _point(x.mid()), _point(x.rad())
    return m - r, m + r


def _kl_float(x: float, q: float, qbar: float) -> float:
    def term(u, v):
        return 0.0 if u == 0 else u * math.log(u / v)
    return term(x, q) + term(1 - x, qbar)


def window(n: int, q: float, qbar: float, log_inv_tail: float) -> tuple[int, int]:
    """[c_lo, c_hi] outside which Bin(n - 1, q)'s Chernoff bound is below e^-log_inv_tail (floats: a choice,
    not a claim; the bound actually used is recomputed in arb by ``_tail_bound``)."""
    N = n - 1
    if N == 0:
        return 0, 0
    mean = N * q

    def far(k):
        return N * _kl_float(k / N, q, qbar) >= log_inv_tail
    from numeric.solvers import bisect, integer_midpoint

    def adjacent(lo_k, hi_k):
        return hi_k - lo_k <= 1
    hi = N
    if far(N):                                    # not far at floor(mean), far at N
        hi = bisect(lambda k: not far(k), math.floor(mean), N, stop=adjacent, mid=integer_midpoint)[1]
    lo = 0
    if far(0):                                    # far at 0, not far at ceil(mean)
        lo = bisect(far, 0, math.ceil(mean), stop=adjacent, mid=integer_midpoint)[0]
    return lo, hi


def _tail_bound(n: int, q, qbar, c_lo: int, c_hi: int):
    """A ball whose upper end bounds P(C < c_lo) + P(C > c_hi), C ~ Bin(n - 1, q) (Chernoff-Hoeffding)."""
    flint = _flint()
    arb, fmpq = flint.arb, flint.fmpq
    N = n - 1
    total = arb(0)

    def chernoff(k):
        x = fmpq(k, N)
        kl = arb(0)
        if k > 0:
            kl += arb(x) * (arb(x) / q).log()
        if k < N:
            kl += arb(1 - x) * (arb(1 - x) / qbar).log()
        return (-N * kl).exp()
    if c_hi < N:
        k = c_hi + 1
        total += chernoff(k) if arb(fmpq(k, N)) > q else arb(1)
    if c_lo > 0:
        k = c_lo - 1
        total += chernoff(k) if arb(fmpq(k, N)) < q else arb(1)
    return total


def _start(n, q, qbar, c, T):
    """w_c, b_c(T), F_c(T) as arb balls (lgamma and the regularised incomplete beta)."""
    arb = _flint().arb
    w = (arb(n).lgamma() - arb(c + 1).lgamma() - arb(n - c).lgamma() + c * q.log()
         + (n - 1 - c) * qbar.log()).exp()
    if T < 0:
        return w, arb(0), arb(0)
    if T >= c:
        return w, (arb(2) ** (-c) if T == c else arb(0)), arb(1)
    b = (arb(c + 1).lgamma() - arb(T + 1).lgamma() - arb(c - T + 1).lgamma() - c * arb(2).log()).exp()
    F = arb("0.5").beta_lower(c - T, T + 1, regularized=1)
    return w, b, F


def _threshold(c: int, theta_f: float) -> int:
    return math.ceil((c + 1) * theta_f) - 1


def _slice(c, T, b, F, k1, k2, theta, arb):
    """h_c: G_c(T), or max(G(T-1), G(T), G(T+1)) when the ball of (c + 1) theta does not fix T* = T."""
    G = k1 * b - k2 * F
    y = (c + 1) * theta
    if y > T and y <= T + 1:
        return G
    # neighbours: b_c(T-1) = b T/(c-T+1), F_c(T-1) = F - b; b_c(T+1) = b (c-T)/(T+1), F_c(T+1) = F + b_c(T+1)
    cands = [G]
    if T >= 1:
        bm = b * T / (c - T + 1)
        cands.append(k1 * bm - k2 * (F - b))
    if T + 1 <= c + 1:
        bp = b * (c - T) / (T + 1)
        cands.append(k1 * bp - k2 * (F + bp))
    out = cands[0]
    for g in cands[1:]:
        out = out.max(g)
    return out


def _walk(n, q, qbar, k1, k2, theta, c_lo, c_hi, theta_f):
    """sum_{c_lo <= c <= c_hi} w_c h_c (an arb ball), walking c downward (see the module docstring);
    k1 = a t + a - 1 = a t - (1 - a), k2 = t - 1."""
    arb = _flint().arb
    ratio_w = qbar / q
    c = c_hi
    T = _threshold(c, theta_f)
    w, b, F = _start(n, q, qbar, c, T)
    total = w * _slice(c, T, b, F, k1, k2, theta, arb)
    while c > c_lo:
        # step c -> c - 1 at the current T (T <= c - 1 for c >= 1, see the docstring)
        b_new = b * (2 * (c - T)) / c
        w = w * ratio_w * c / (n - c)
        T_new = _threshold(c - 1, theta_f)
        if T_new not in (T, T - 1):
            raise AssertionError(f"threshold moved from {T} to {T_new} at c = {c}")
        stays = T_new == T
        F = F + (b_new if stays else -b_new) / 2       # Pascal: F_{c-1}(T) or F_{c-1}(T - 1)
        b = b_new if stays else b_new * T / (c - T)
        c, T = c - 1, T_new
        total += w * _slice(c, T, b, F, k1, k2, theta, arb)
    return total


def _as_fraction(value) -> Fraction:
    from derive.exact import as_fraction
    return as_fraction(value) if not isinstance(value, Fraction) else value


def delta_bracket(name: str, eps0, n: int, eps, log_inv_tail: float | None = None,
                  prec_bits: int = PREC_BITS) -> DeltaBracket:
    """Certified [lower, upper] of delta(eps) of the reduction's pair (both directions: they are equal)."""
    t0 = time.perf_counter()
    red = reduction(name)
    eps0, eps = Fraction(eps0), Fraction(eps)
    if eps >= eps0:
        return DeltaBracket(Fraction(0), Fraction(0), Fraction(0), (0, n - 1), time.perf_counter() - t0)
    flint = _flint()
    arb, fmpq = flint.arb, flint.fmpq
    # a small eps0 makes k1 = a t - (1 - a) ~ (eps0 + eps)/2 a difference of two ~1/2 balls: add its bits
    prec_bits += max(0, -math.floor(math.log2(float(eps0))))
    with flint.ctx.workprec(prec_bits):
        x0, x = arb(fmpq(eps0.numerator, eps0.denominator)), arb(fmpq(eps.numerator, eps.denominator))
        E, t = x0.exp(), x.exp()
        q, qbar = red.pair(x0)
        a, abar = mixing_weight(E)
        k1, k2 = a * t - abar, x.expm1()
        theta = t * (x0 - x).expm1() / (x0.expm1() * (1 + t))      # = (E - t)/((E - 1)(1 + t)), no cancellation
        theta_f = float(theta.mid())
        log_inv_tail = 60.0 if log_inv_tail is None else log_inv_tail
        for _ in range(4):
            c_lo, c_hi = window(n, float(q.mid()), float(qbar.mid()), log_inv_tail)
            S = _walk(n, q, qbar, k1, k2, theta, c_lo, c_hi, theta_f)
            tail = _tail_bound(n, q, qbar, c_lo, c_hi) if n > 1 else arb(0)
            if not tail > 1e-13 * S:              # the truncation is negligible beside the sum: done
                break
            log_inv_tail = _log_inv_tail(float(S.mid())) + 5
        lower = max(Fraction(0), _ends(S)[0])
        upper = _ends(S + tail)[1]
        tail_f = _ends(tail)[1]
    return DeltaBracket(lower, upper, tail_f, (c_lo, c_hi), time.perf_counter() - t0)


def _walk_float(n, q, qbar, k1, k2, theta, c_lo, c_hi, logs2, scale: int = 0):
    """The walk of ``_walk`` in float64 on u = w_c F_c, v = w_c b_c (linear in (u, v), so one common binary
    exponent keeps them in range).  ``logs2`` = log2 of (w, b, F) at c_hi.  A model: nothing rests on it."""
    ratio_w = qbar / q
    lw, lb, lF = logs2
    e = math.floor(max(lw + lb, lw + lF))
    u, v = 2.0 ** (lw + lF - e), 2.0 ** (lw + lb - e)
    c, T = c_hi, _threshold(c_hi, theta)
    e += scale
    total = math.ldexp(max(k1 * v - k2 * u, 0.0), e)
    while c > c_lo:
        rw = ratio_w * c / (n - c)
        v_new = v * (2 * (c - T)) / c * rw
        T_new = _threshold(c - 1, theta)
        if T_new == T:
            u, v = u * rw + v_new / 2, v_new
        else:
            u, v = u * rw - v_new / 2, v_new * T / (c - T)
        c, T = c - 1, T_new
        total += math.ldexp(max(k1 * v - k2 * u, 0.0), e)
        if u > 2.0 ** 500:
            u, v, e = u * 2.0 ** -500, v * 2.0 ** -500, e + 500
    return total


def delta_float(name: str, eps0: float, n: int, eps: float, log_inv_tail: float = 60.0, scale: int = 0) -> float:
    """delta(eps) in float64 by the same downward walk (start values from arb at 64 bits): a fast *model*
    used only to propose where eps(delta) lies; nothing certified rests on it.  Returns delta * 2^scale."""
    if eps >= eps0:
        return 0.0
    flint = _flint()
    E, t = math.exp(eps0), math.exp(eps)
    q, qbar = REDUCTIONS[name].pair_float(eps0)
    k1, k2 = math.expm1(eps0 + eps) / (1 + E), math.expm1(eps)
    theta = t * math.expm1(eps0 - eps) / (math.expm1(eps0) * (1 + t))
    c_lo, c_hi = window(n, q, qbar, log_inv_tail)
    T = _threshold(c_hi, theta)
    with flint.ctx.workprec(64):
        w, b, F = _start(n, flint.arb(q), flint.arb(qbar), c_hi, T)
        logs2 = [float(x.log().mid()) / math.log(2) if x > 0 else -math.inf for x in (w, b, F)]
    if logs2[2] == -math.inf:
        return 0.0
    if logs2[1] == -math.inf:
        logs2[1] = logs2[2] - 2000                # b_c(T) = 0 only for T > c (never reached by the walk)
    return _walk_float(n, q, qbar, k1, k2, theta, c_lo, c_hi, logs2, scale)


def _model_root(name, eps0: float, n: int, delta: float, L: float) -> float:
    """eps with delta_float(eps) = delta: Illinois regula falsi on log(delta_float / delta) (numeric.solvers)."""
    import numpy as np

    from numeric.solvers import illinois

    scale = -math.frexp(delta)[1]                 # delta * 2^scale in [1/2, 1): no underflow near delta = 1e-300

    def g(x, _t):
        d = delta_float(name, eps0, n, float(x[0]), L, scale)
        return np.array([math.log(d / math.ldexp(delta, scale)) if d > 0 else -math.inf])
    a, b = np.array([0.0]), np.array([eps0])
    return float(illinois(g, a, b, g(a, None), np.array([-math.inf]), None, iterations=80)[0])


def _log_inv_tail(delta: float) -> float:
    """Truncate where the Chernoff tail is below 1e-13 delta (and below e^-60)."""
    return max(60.0, 13 * math.log(10) - math.log(max(delta, 1e-300)))     # (1e13/1e-300 would overflow)


def eps_bracket(name: str, eps0, n: int, delta, rel_width: float = 1e-9,
                prec_bits: int = PREC_BITS) -> EpsBracket:
    """Certified (lower, upper] of eps(delta) = inf{eps >= 0: delta(eps) <= delta} of the reduction's pair."""
    t0 = time.perf_counter()
    eps0, delta = Fraction(eps0), Fraction(delta)
    evals = 0

    def certified_delta(e):
        nonlocal evals
        evals += 1
        return delta_bracket(name, eps0, n, e, _log_inv_tail(float(delta)), prec_bits)

    def done(lo, hi, ok=True, reason=""):
        return EpsBracket(lo, hi, ok, evals, time.perf_counter() - t0, reason)
    if delta == 0:
        return done(eps0, eps0)                   # delta(eps) > 0 for every eps < eps0 (the atoms x = 0)
    at0 = certified_delta(Fraction(0))
    if at0.upper <= delta:
        return done(Fraction(0), Fraction(0))
    L = _log_inv_tail(float(delta))
    root = _model_root(name, float(eps0), n, float(delta), L)
    lo, hi = Fraction(0), eps0                    # certified ends so far: delta(lo) > delta, delta(hi) <= delta
    w = rel_width / 2.5
    for _ in range(6):
        e_hi = min(eps0, Fraction(root) * (1 + Fraction(w)))
        e_lo = Fraction(root) * (1 - Fraction(w))
        if e_hi < hi and certified_delta(e_hi).upper <= delta:
            hi = e_hi
        if e_lo > lo and certified_delta(e_lo).lower > delta:
            lo = e_lo
        if hi - lo <= rel_width * hi:
            return done(lo, hi)
        w *= 10
    return _bisect_certified(certified_delta, delta, lo, hi, rel_width, done)


def _bisect_certified(certified_delta, delta, lo, hi, rel_width, done):
    """Fallback when the float model misled (e.g. eps0 = 50, where its sum cancels): bisection on the
    certified delta itself.  ``lo`` keeps delta_lower(lo) > delta; a midpoint that is not certainly above
    becomes ``hi`` only once delta_upper(mid) <= delta is certain, else the search stops there."""
    from numeric.solvers import bisect

    def above(e):
        return certified_delta(e).lower > delta
    lo, hi_b = bisect(above, lo, hi, stop=lambda a, b: b - a <= rel_width * b / 2, steps=200)
    if hi_b < hi and certified_delta(hi_b).upper <= delta:
        hi = hi_b
    ok = hi - lo <= rel_width * hi
    return done(lo, hi, ok, "" if ok else f"relative width {float((hi - lo) / hi):.3g} > {rel_width:g}")
