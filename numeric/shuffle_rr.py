"""Shuffled binary randomized response, exactly (issue #26 item 1; seed 004 Sec. 4.3, Su 2025 v1).

The mechanism
-------------
n users each hold a bit x_i and report it through binary randomized response with local parameter eps0:
the true bit with probability p = e^eps0 / (1 + e^eps0), the flipped bit with q = 1 - p.  A shuffler
permutes the n reports; the permuted list of bits carries exactly the count S of ones (every ordering of
the same multiset is equally likely), so the output is S in {0, ..., n}.

Neighbouring datasets and the pair
----------------------------------
Let D = (0, x_2, ..., x_n) and D' = (1, x_2, ..., x_n), and let k be the number of ones among the n - 1
others (N = n - 1).  Only k matters (the count is symmetric in the users), and the others' reports sum to

    B_k = Bin(N - k, q) + Bin(k, p)                (independent),

so S ~ P_k = B_k * Bern(q) under D and S ~ Q_k = B_k * Bern(p) under D'.  Flipping every bit maps the
pair for k to the pair for N - k with the roles of D and D' exchanged (S -> n - S), so
H_g(P_k || Q_k) = H_g(Q_{N-k} || P_{N-k}) for the hockey-stick divergence H_g(A || B) = sum (A - g B)^+,
and the mechanism's privacy profile is delta*(eps) = max_k H_{e^eps}(Q_k || P_k).

Which k is worst: we do NOT have a proof that one k is worst, and it is not a single extreme.  The
brute force over all 2^(n-1) datasets (tests/test_shuffle_rr.py) and a float scan of every k
(``scan_all_k``) for n <= 200, eps0 in [0.5, 1], 40 values of eps each, put the maximum over k at or near
the extremes (min(k, N - k) <= 9; the gain over k = 0 up to 24% of delta at n <= 20, under 1% at n = 200);
at n = 1000, eps0 in {0.5, 0.7, 1}, eps where delta = 1e-6, the maximiser was k in {N, N - 1, 0} (gain
<= 0.23%), and at n = 10^4, delta = 1e-6, eps0 = 0.5..1.0 the certified eps(delta) over k <= 11 equals the
one over k <= 3 (which moves from k = 0 by up to 3e-5 relative, at eps0 = 0.6).  So the maximum is not
always at k = 0: e.g. n = 10, eps0 = 0.5, eps = 0.2 gives delta = 0.01099 at k = 1 against 0.00991 at
k = 0 (a lattice effect: where e^eps falls among the attainable likelihood ratios).  Hence what this module returns is, for each requested set of k's, the exact
max_k H of those pairs, which is a LOWER bound on delta*(eps) (any neighbouring pair is), and so its
eps(delta) is a lower bound on the mechanism's epsilon: every valid upper bound (clone reductions,
WSY+23, RDP conversions) must lie above it.  It equals delta*(eps) when the scanned set contains the
maximiser; ``scan_all_k`` (float, n <= 3000) finds the maximiser for smaller n.  Pairs are computed for
min(k, N - k) <= MAX_SMALL_SIDE (the small binomial of B_k is convolved term by term).

The exact sum (why the bracket is safe)
---------------------------------------
Write B for B_k, g = e^eps, c = p - g q.  With B(-1) = B(N + 1) = 0,

    Q(s) - g P(s) = c B(s - 1) - (g p - q) B(s) = c (B(s - 1) - u B(s)),   u = (g p - q) / c.

If c <= 0 both coefficients are <= 0 (g p - q > 0 as g >= 1 > q/p), so Q <= g P and delta = 0.
Otherwise B is a Poisson-binomial law, hence log-concave (a convolution of log-concave sequences), so
B(s - 1)/B(s) increases in s and {s : Q(s) > g P(s)} = {s >= s*} is an interval of counts (the monotone
likelihood ratio).  ``delta_bracket_arb`` evaluates every term in arb (python-flint): the binomial pmf at the
first index by lgamma, the next ones by the exact ratio (N - j)/(j + 1) * theta/(1 - theta), all as balls;
it adds only positive parts (lower end max(0, lo), upper end max(0, hi)), starts at an index s_a whose
predecessor term is certified <= 0 (so by monotonicity every earlier term is <= 0), and stops at J with
the remainder bounded by sum_{s > J} (Q - g P)^+ <= c P(B >= J) <= c P(X >= J - m) <= c X(J - m) / (1 - rho),
X the large binomial, m the small one's size, rho = X(J - m + 1)/X(J - m) < 1 (the ratios decrease past
the mode, so the tail is below a geometric series).  The lower end drops the remainder, the upper end
adds it.  So [delta_lower, delta_upper] contains the exact value; eps(delta) is bracketed by certifying
delta_upper(eps_hi) <= delta < delta_lower(eps_lo) at two exact binary points, so the exact
eps(delta) = inf{eps : delta(eps) <= delta} lies in (eps_lo, eps_hi].

The float path (``delta_float``, used to locate the root and s*) is scipy's binomial logpmf in log space
and is trusted for nothing but the starting points.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from derive.errors import DomainError
from derive.exact import rational

#: largest n accepted (the window of counts that carries mass is O(sqrt(n)); 10^8 keeps a run in seconds)
MAX_N = 10 ** 8
#: largest min(k, N - k) accepted (the pmf of B_k is a convolution with a Bin(min(k, N-k)) law)
MAX_SMALL_SIDE = 64
#: the eps(delta) bracket is widened from this relative half-width until both ends certify
_HALF_WIDTH = 2.0e-10
_PREC = 192
#: log2 of a remainder below every float (the smallest subnormal is 2^-1074): the stop rule of ``_sum_terms``
_BELOW_FLOATS_LOG2 = -1100


# ----------------------------------------------------------------------------- inputs

def _eps0(eps0):
    e = rational("eps0", eps0)
    if not 0 < e <= 20:
        raise DomainError("eps0", eps0, "a number in (0, 20]")
    return Fraction(int(e.p), int(e.q))


def _n(n):
    r = rational("n", n)
    if r.q != 1 or not 2 <= r <= MAX_N:
        raise DomainError("n", n, f"an integer in [2, {MAX_N}]")
    return int(r)


def _delta(delta):
    d = rational("delta", delta)
    if not 0 < d < 1:
        raise DomainError("delta", delta, "a number in (0, 1)")
    return Fraction(int(d.p), int(d.q))


def _eps(eps):
    e = rational("eps", eps)
    if e < 0:
        raise DomainError("eps", eps, "a number >= 0")
    return Fraction(int(e.p), int(e.q))


def _ones(ones, n):
    r = rational("ones", ones)
    if r.q != 1 or not 0 <= r <= n - 1:
        raise DomainError("ones", ones, f"an integer in [0, n - 1 = {n - 1}]")
    k = int(r)
    if min(k, n - 1 - k) > MAX_SMALL_SIDE:
        raise DomainError("ones", ones, f"within {MAX_SMALL_SIDE} of 0 or of n - 1 (the computed pairs)")
    return k


# ----------------------------------------------------------------------------- the noise law

class Noise:
    """B = Bin(M, theta) + Bin(m, phi), m small; the pair is Q = B * Bern(hi) against P = B * Bern(lo).

    ``theta``, ``phi``, ``lo``, ``hi`` are given as functions of x = e^eps0 so that the same description
    serves the float and the arb evaluations."""

    def __init__(self, M, m, theta, phi, lo, hi):
        self.M, self.m = M, m
        self.theta, self.phi, self.lo, self.hi = theta, phi, lo, hi

    def top(self):
        return self.M + self.m


def _p(x):
    return x / (1 + x)


def _q(x):
    return 1 / (1 + x)


def rr_noises(n: int, k: int):
    """The two directions of the pair with k ones among the others, as upper-tail problems:
    H(Q_k || P_k) and H(P_k || Q_k) = H(Q_{N-k} || P_{N-k})."""
    N = n - 1
    out = []
    for ones in (k, N - k):
        zeros = N - ones
        if zeros >= ones:          # the large binomial is the zeros' reports Bin(zeros, q)
            out.append(Noise(zeros, ones, _q, _p, _q, _p))
        else:
            out.append(Noise(ones, zeros, _p, _q, _q, _p))
    return out


# ----------------------------------------------------------------------------- float path

def _log_noise(noise: Noise, x: float, s0: int, s1: int):
    """log B(s) for s in [s0, s1] (float; -inf outside the support)."""
    from scipy.stats import binom
    M, m = noise.M, noise.m
    th, ph = noise.theta(x), noise.phi(x)
    js = np.arange(s0 - m, s1 + 1)
    lx = binom.logpmf(js, M, th)
    if m == 0:
        return lx
    ly = binom.logpmf(np.arange(m + 1), m, ph)
    top = np.max(lx)
    if not np.isfinite(top):
        return np.full(s1 - s0 + 1, -np.inf)
    conv = np.convolve(np.exp(lx - top), np.exp(ly))[m:m + s1 - s0 + 1]
    with np.errstate(divide="ignore"):
        return np.log(conv) + top


def _window(noise: Noise, x: float):
    th, ph = noise.theta(x), noise.phi(x)
    mean = noise.M * th + noise.m * ph
    sd = math.sqrt(noise.M * th * (1 - th) + noise.m * ph * (1 - ph)) + 1
    return mean, sd


def delta_float(noise: Noise, x: float, g: float) -> float:
    """sum_s (Q(s) - g P(s))^+ in float (a locator, not a bound)."""
    lo, hi = noise.lo(x), noise.hi(x)
    c = hi - g * lo
    if c <= 0:
        return 0.0
    u = (g * (1 - lo) - (1 - hi)) / c
    mean, sd = _window(noise, x)
    # u >= 1 (g >= 1), so a positive term has B(s - 1) > B(s): s is past the mode, >= mean - 1 - m; past
    # mean + 40 sd the mass is below e^-700 of the total
    s0 = max(0, int(mean - 2 * sd) - noise.m - 2)
    s1 = min(noise.top() + 1, int(mean + 40 * sd) + noise.m + 60)
    lb = _log_noise(noise, x, s0 - 1, s1)          # B(s0 - 1) .. B(s1)
    prev, cur = lb[:-1], lb[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        # B(s-1) - u B(s) > 0  <=>  log B(s-1) - log B(s) > log u
        pos = (prev - cur > math.log(u)) | (np.isneginf(cur) & np.isfinite(prev))
        terms = np.where(pos, np.exp(prev) - u * np.exp(cur), 0.0)
    return float(c * np.sum(np.where(pos, terms, 0.0)))


def first_positive(noise: Noise, x: float, g: float) -> int:
    """The float estimate of s* (first count with Q > g P)."""
    lo, hi = noise.lo(x), noise.hi(x)
    c = hi - g * lo
    mean, sd = _window(noise, x)
    if not c > 0:       # eps0 below float resolution (x = 1.0: eps0 = 1e-20 divided by zero): the middle, which
        return max(0, int(mean) - noise.m - 2)      # the arb check of ``delta_bracket_arb`` then moves down
    u = (g * (1 - lo) - (1 - hi)) / c
    s0 = max(0, int(mean - 2 * sd) - noise.m - 2)
    s1 = noise.top() + 1
    hi_s = min(s1, s0 + int(45 * sd) + noise.m + 80)

    def positive(a, b):
        lb = _log_noise(noise, x, a - 1, b)
        with np.errstate(invalid="ignore"):
            return (lb[:-1] - lb[1:] > math.log(u)) | (np.isneginf(lb[1:]) & np.isfinite(lb[:-1]))
    idx = np.nonzero(positive(s0, hi_s))[0]
    if idx.size:
        return s0 + int(idx[0])
    # past the bulk: B is log-concave, so B(s - 1)/B(s) rises with s and "positive" is monotone; bisect
    # (a scan in chunks of the bulk's width took 7.7e4 chunks a call at eps0 = 20, n = 10^7, where no
    # count below the top is positive)
    from .solvers import bisect, integer_midpoint
    _, hi = bisect(lambda s: not positive(s, s)[0], hi_s, s1, mid=integer_midpoint, stop=lambda a, b: b - a <= 1)
    return hi


# ----------------------------------------------------------------------------- arb path

def _arb(v):
    import flint
    if isinstance(v, Fraction):
        return flint.arb(flint.fmpq(v.numerator, v.denominator))
    return flint.arb(v)


def _binom_at(M, j, th, flint):
    """Bin(M, th)(j) as an arb ball (0 outside [0, M])."""
    if j < 0 or j > M:
        return flint.arb(0)
    lg = (flint.arb(M + 1).lgamma() - flint.arb(j + 1).lgamma() - flint.arb(M - j + 1).lgamma())
    return (lg + j * th.log() + (M - j) * (1 - th).log()).exp()


class _XWalk:
    """X(j) = Bin(M, th)(j) for increasing j, each from the previous by the exact ratio."""

    def __init__(self, M, th, j0, flint):
        self.M, self.th, self.flint = M, th, flint
        self.odds = th / (1 - th)
        self.j = j0
        self.vals = {j0: _binom_at(M, j0, th, flint)}

    def at(self, j):
        if j < 0 or j > self.M:
            return self.flint.arb(0)
        while self.j < j:
            v = self.vals[self.j]
            if self.j >= 0:
                v = v * (self.M - self.j) / (self.j + 1) * self.odds
            else:
                v = _binom_at(self.M, self.j + 1, self.th, self.flint)
            self.j += 1
            self.vals[self.j] = v
        return self.vals[j]


def _terms(noise, xa, g, s_a, flint):
    """(c, u, B(.) evaluator) in arb."""
    lo, hi = noise.lo(xa), noise.hi(xa)
    c = hi - g * lo
    th, ph = noise.theta(xa), noise.phi(xa)
    m = noise.m
    ys = [_binom_at(m, y, ph, flint) for y in range(m + 1)]
    walk = _XWalk(noise.M, th, s_a - 2 - m, flint)

    def B(s):
        if s < 0 or s > noise.top():
            return flint.arb(0)
        return sum((ys[y] * walk.at(s - y) for y in range(m + 1) if 0 <= s - y <= noise.M), flint.arb(0))
    return c, lo, hi, (walk.at if m == 0 else B), walk, th


def _prec_for(*values: Fraction) -> int:
    """_PREC plus the bits below 1 of the smallest positive value: e^eps0 = 1 + eps0 must stay resolved (at
    eps0 = 1e-300 and 192 bits the first coefficient hi - g lo was not certified positive, and delta(0) came
    out [0, 1.0e-300] against 1.23e-301)."""
    small = [v for v in values if v > 0]
    return _PREC + max([0] + [v.denominator.bit_length() - v.numerator.bit_length() + 2 for v in small])


def delta_bracket_arb(noise: Noise, eps0: Fraction, eps: Fraction, prec: int | None = None):
    """Certified [lower, upper] of sum_s (Q(s) - e^eps P(s))^+ (floats rounded outward)."""
    import flint
    with flint.ctx.workprec(prec or _prec_for(Fraction(eps0), Fraction(eps))):
        xa = _arb(eps0).exp()
        g = _arb(eps).exp()
        c0 = noise.hi(xa) - g * noise.lo(xa)
        if not c0 > 0:
            return 0.0, max(0.0, _up(c0))
        xf, gf = float(xa.mid()), float(g.mid())
        s_a = max(0, first_positive(noise, xf, gf) - 2)
        for _ in range(64):
            c, lo, hi, B, walk, th = _terms(noise, xa, g, s_a, flint)
            u = (g * (1 - lo) - (1 - hi)) / c
            if s_a == 0 or (B(s_a - 2) - u * B(s_a - 1)).upper() <= 0:
                break
            s_a = max(0, s_a - 2 * (s_a - first_positive(noise, xf, gf)) - 8)
        else:
            raise ArithmeticError("could not certify the start of the positive terms")
        return _sum_terms(noise, c, u, B, walk, th, s_a, flint)


def _down(ball) -> float:
    """A float <= every point of the ball (the nearest-rounded endpoint, stepped down)."""
    return max(0.0, math.nextafter(float(ball.lower()), -math.inf))


def _up(ball) -> float:
    return math.nextafter(float(ball.upper()), math.inf)


def _sum_terms(noise, c, u, B, walk, th, s_a, flint):
    lower, upper = flint.arb(0), flint.arb(0)
    M, m, top = noise.M, noise.m, noise.top()
    odds = th / (1 - th)
    s = s_a
    bprev, bcur = B(s_a - 1), B(s_a)
    while True:
        t = c * (bprev - u * bcur)
        lo_t, hi_t = t.lower(), t.upper()
        if lo_t > 0:
            lower += lo_t
        if hi_t > 0:
            upper += hi_t
        if s >= top + 1:
            return _down(lower), _up(upper)
        j = s - m                                     # remainder over s' > s: c P(X >= j)
        if 0 <= j <= M:
            rho = odds * (M - j) / (j + 1)
            if rho.upper() < 1:
                rest = c * walk.at(j) / (1 - rho)
                # stop when the rest is negligible beside the sum, or below every float (then the upper
                # end is the same float either way): with no positive term yet (lower = 0) the former rule
                # (which asked lower > 0) walked every count to the top, 10^8 terms at eps0 = 20, n = 10^8
                if (lower > 0 and rest < lower * flint.arb(2) ** -48) or rest.upper() < flint.arb(2) ** _BELOW_FLOATS_LOG2:
                    return _down(lower), _up(upper + rest)
        s += 1
        bprev, bcur = bcur, B(s)


# ----------------------------------------------------------------------------- public

def _profile_float(noises, x, g):
    return max(delta_float(nz, x, g) for nz in noises)


def eps_float(noises, eps0: float, delta: float) -> float:
    """eps(delta) of max over ``noises`` (a locator): Brent's method on log delta(eps) - log delta over
    [0, eps0) (delta(eps) is continuous and decreasing, 0 at eps0)."""
    from .solvers import brent_root
    x = math.exp(eps0)

    def f(e):
        d = _profile_float(noises, x, math.exp(e))
        return (math.log(d) if d > 0 else -800.0) - math.log(delta)
    if f(0.0) <= 0:
        return 0.0
    hi = eps0 * (1 - 1e-9)
    if f(hi) > 0:
        return hi
    return brent_root(f, 0.0, hi, xtol=1e-15, rtol=1e-13)


def _newton_arb(noises, eps0: Fraction, delta: Fraction, est: float) -> float:
    """One Newton step on log delta(eps) with the arb midpoint at ``est`` and the float slope: the float
    locator is off by the float pmf's error (~1e-9 relative at n = 10^7); this brings it to ~1e-12."""
    x = math.exp(float(eps0))
    h = est * 1e-6
    d1 = _profile_float(noises, x, math.exp(est + h))
    d0 = _profile_float(noises, x, math.exp(est - h))
    if not (d0 > 0 and d1 > 0):
        return est
    slope = (math.log(d1) - math.log(d0)) / (2 * h)
    mid = max(sum(delta_bracket_arb(nz, eps0, Fraction(est))) / 2 for nz in noises)
    if not (mid > 0 and slope < 0):
        return est
    return est - (math.log(mid) - math.log(float(delta))) / slope


def _certified_eps(noises, eps0: Fraction, delta: Fraction, est: float):
    """(eps_lo, eps_hi) with delta_upper(eps_hi) <= delta < delta_lower(eps_lo), all in arb."""
    if est == 0.0:
        up = max(delta_bracket_arb(nz, eps0, Fraction(0))[1] for nz in noises)
        if up <= delta:
            return 0.0, 0.0
        est = 1e-12
    else:
        est = _newton_arb(noises, eps0, delta, est)
    w = _HALF_WIDTH
    for _ in range(40):
        e_hi = min(est * (1 + w), float(eps0))
        e_lo = max(est * (1 - w), 0.0)
        ok_hi = max(delta_bracket_arb(nz, eps0, Fraction(e_hi))[1] for nz in noises) <= delta
        ok_lo = e_lo == 0.0 or max(delta_bracket_arb(nz, eps0, Fraction(e_lo))[0] for nz in noises) > delta
        if ok_hi and ok_lo:
            return _narrow(noises, eps0, delta, e_lo, e_hi)
        w *= 4
    raise ArithmeticError("eps(delta) bracket did not certify")


def _narrow(noises, eps0, delta, e_lo, e_hi, rel=1e-9):
    """Bisect a certified bracket in arb until its relative width is <= rel (``numeric.solvers.bisect``);
    a midpoint where neither side certifies ends the search with the last certified ends."""
    from .solvers import bisect
    state = {"hi": e_hi, "undecided": False}

    def certified_above(mid):                  # True: delta_lower(mid) > delta, mid is a new lower end
        brackets = [delta_bracket_arb(nz, eps0, Fraction(mid)) for nz in noises]
        if max(b[0] for b in brackets) > delta:
            return True
        if max(b[1] for b in brackets) <= delta:
            state["hi"] = min(state["hi"], mid)
        else:
            state["undecided"] = True
        return False
    lo, _ = bisect(certified_above, e_lo, e_hi,
                   stop=lambda a, b: state["undecided"] or state["hi"] - a <= rel * state["hi"], steps=60)
    return lo, state["hi"]


def binary_rr(n, eps0, delta, ones=(0,)) -> dict:
    """eps(delta) of the shuffled binary-RR pairs with k in ``ones`` ones among the n - 1 others,
    maximised over k and both directions: a certified bracket [eps_lower, eps_upper] of that exact value,
    which is a lower bound on the mechanism's epsilon (see the module docstring: the worst k is not proved).

    Su (2025) v1 Sec. 4.3; the mechanism of EFM+19 / FMT22 with the binary randomized response."""
    n_, e0, d = _n(n), _eps0(eps0), _delta(delta)
    ks = sorted({_ones(k, n_) for k in ones})
    noises = [nz for k in ks for nz in rr_noises(n_, k)]
    est = eps_float(noises, float(e0), float(d))
    lo, hi = _certified_eps(noises, e0, d, est)
    return {"mechanism": "shuffled binary randomized response", "n": n_, "eps0": str(eps0),
            "delta": str(delta), "ones": ks, "eps": hi, "eps_lower": lo, "eps_upper": hi, "certified": True,
            "side": "lower bound on the shuffled mechanism's eps(delta) (exact for these neighbouring pairs)",
            "method": "exact count pmf, arb terms over the likelihood-ratio interval, geometric tail bound"}


def binary_rr_delta(n, eps0, eps, ones=(0,)) -> dict:
    """Certified [delta_lower, delta_upper] of max over k in ``ones`` and both directions of
    H_{e^eps} of the shuffled binary-RR pair (a lower bound on the mechanism's delta(eps))."""
    n_, e0, e = _n(n), _eps0(eps0), _eps(eps)
    ks = sorted({_ones(k, n_) for k in ones})
    brackets = [delta_bracket_arb(nz, e0, e) for k in ks for nz in rr_noises(n_, k)]
    return {"n": n_, "eps0": str(eps0), "eps": str(eps), "ones": ks,
            "delta": max(b[1] for b in brackets), "delta_lower": max(b[0] for b in brackets),
            "delta_upper": max(b[1] for b in brackets),
            "certified": True}


def scan_all_k(n: int, eps0: float, eps: float):
    """Float H_{e^eps} max over both directions for every k = 0..n-1 (n <= 3000): evidence on which
    composition of the others is worst.  Returns the list indexed by k (not certified)."""
    from scipy.stats import binom
    if not 2 <= n <= 3000:
        raise DomainError("n", n, "an integer in [2, 3000] for the full scan")
    p = math.exp(eps0) / (1 + math.exp(eps0))
    q, N, g = 1 - p, n - 1, math.exp(eps)
    out = []
    for k in range(N + 1):
        b = np.convolve(binom.pmf(np.arange(k + 1), k, p), binom.pmf(np.arange(N - k + 1), N - k, q))
        P, Q = np.convolve(b, [p, q]), np.convolve(b, [q, p])
        out.append(max(np.maximum(Q - g * P, 0).sum(), np.maximum(P - g * Q, 0).sum()))
    return out
