"""Exact composed privacy-loss laws on a lattice (issue #25 item 2, "lattice losses exactly").

A step with trade-off function f_{eps,delta} (randomized response and the geometric mechanism: delta = 0;
approx-dp: the 4-point pair of Kairouz-Oh-Viswanath) has privacy loss L = +eps or -eps with probability
1 - delta and L = +inf (under P; -inf under Q) with probability delta.  With a = 1/(1 + e^eps) the P-law
of the finite part is -eps w.p. a, +eps w.p. b = 1 - a; the Q-law swaps a and b (Q(l) = P(l) e^{-l}).

* **One eps** (``BinomialLaw``): k steps of the same eps (their deltas may differ) have
  L = (k - 2I) eps with probability keep = prod (1 - delta_j), I ~ Bin(k, a) under P and Bin(k, b) under Q,
  and L = +inf otherwise (probability lost = 1 - keep, formed as -expm1(sum log1p(-delta_j)), never by
  subtraction).  Every query is a sum of binomial terms over an index range, summed from the term
  nearest the mode outwards and stopped where the terms, log-concave in i and so falling at least
  geometrically with the current ratio r < 1, leave a remainder term r / (1 - r) below 2^-(prec + 10) of
  the sum (``_binom_sum``): O(sqrt(k)) terms, so k = 10^7 takes about a second.  The index of a
  query (the atom where delta(eps) crosses the target, the atom where Q(L >= l) crosses alpha) is
  guessed in float64 (scipy) and then *decided* by the exact sums: the guess only orders the probes of
  an integer bisection (``numeric.solvers.bisect`` with a guided midpoint), whose bracket invariant
  is checked with exact values; a wrong guess costs time, never correctness.
* **Several eps** (``ConvolvedLaw``): components (eps_j, k_j, keep_j) with different eps; every eps_j is
  an integer multiple m_j of g = gcd(eps_j) (rationals always share such a lattice), and the finite loss
  is g times an integer.  The P-law on that integer lattice is the convolution of the components'
  binomial laws, each cut where its terms fall below 2^-(prec + 30) of its mode (both tails bound by
  the same geometric argument, so the dropped mass is below the working precision; a query whose answer
  lies beyond the table's ends, which would read 0 there, raises DomainError instead); the cost is the
  product of the components' kept supports (``convolved_size``), and the route is offered only below
  ``MAX_CONVOLVED``.

Everything is computed at the ambient mpmath precision and returned through ``numeric.precision.
verified`` by ``numeric.compose_exact`` (the value at two rising precisions must agree to the asked
digits), as the other exact routes are.
"""

from __future__ import annotations

import bisect as _bisect
import math
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np

from .solvers import bisect, integer_midpoint

#: the largest convolved lattice (product of the components' kept supports) the several-eps route
#: builds: ~1 s of mpmath work at 2 * 10^5
MAX_CONVOLVED = 200_000


def _adjacent(lo, hi):
    return hi - lo <= 1


def _guided(guess):
    """An integer midpoint rule for ``solvers.bisect`` that probes ``guess`` and its neighbours first
    (while they lie strictly inside the bracket), then halves: a good float guess closes the bracket in
    two or three exact evaluations."""
    tried = set()

    def mid(lo, hi):
        for c in (guess, guess + 1, guess - 1, guess + 2):
            if lo < c < hi and c not in tried:
                tried.add(c)
                return c
        return integer_midpoint(lo, hi)
    return mid


def _fixed(v, bits: int) -> int:
    """floor(v 2^bits) of an mpf (a fixed-point integer)."""
    return int(mpmath.floor(mpmath.ldexp(v, bits)))


def _log_term(k, i, lx, ly):
    """log of C(k, i) x^i y^(k-i) from log x, log y (log-gamma at the working precision)."""
    return mpmath.loggamma(k + 1) - mpmath.loggamma(i + 1) - mpmath.loggamma(k - i + 1) + i * lx + (k - i) * ly


def _binom_sum(k, x, y, lo, hi, weight=None):
    """sum_{i=lo}^{hi} C(k, i) x^i y^(k-i) w(i) (x + y = 1), from the term nearest the mode outwards.

    ``weight`` is None (w = 1) or (i0, log_v0, e2): w(i) = 1 - v0 e^{-e2 (i0 - i)} for i <= i0, v0 <= 1 (the
    hockey-stick weight 1 - e^{eps - L_i}).  The terms are log-concave in i, so beyond the mode each ratio
    is smaller than the last: once the current ratio r is < 1 the rest of that side is at most
    term r / (1 - r), and the side stops when that is below 2^-(prec + 10) of the sum.

    The loop runs in fixed point (Python integers scaled by 2^F, F = prec + 64, terms relative to the
    first one, which is computed in mpmath at F + 32 bits): each step is one truncating product, an
    error of at most one unit, so n terms carry a relative error below n 2^-54 of the smallest term kept
    and far below 2^-prec of the sum.  Weights are built by non-negative additions only where they
    shrink towards 0 (downwards: w(i-1) = w(i) + u(i)(1 - e^{-e2}), u(i) = v0 e^{-e2 (i0 - i)}), so a weight
    near 0 keeps its relative accuracy."""
    if lo > hi:
        return mpmath.mpf(0)
    mode = int(math.floor((k + 1) * float(x)))
    start = min(max(mode, lo), hi)
    if abs(mpmath.log(x) - mpmath.log(y)) > 10**5:
        # the ratios x / y, y / x as fixed-point integers would have 2^(10^5)-scale sizes (eps = 1e300 ended in
        # an OverflowError): sum in mpmath instead, the same terms and stopping rule
        return _binom_sum_mp(k, x, y, lo, hi, weight, start, mode)
    F = mpmath.mp.prec + 64
    one = 1 << F
    with mpmath.workprec(F + 32):
        t0 = mpmath.exp(_log_term(k, start, mpmath.log(x), mpmath.log(y)))
        RU, RD = _fixed(x / y, F), _fixed(y / x, F)
        if weight is not None:
            i0, log_v0, e2 = weight
            U0 = _fixed(mpmath.exp(log_v0 - e2 * (i0 - start)), F)
            W0 = _fixed(-mpmath.expm1(log_v0 - e2 * (i0 - start)), F)
            Rdn, Rup, C1 = _fixed(mpmath.exp(-e2), F), _fixed(mpmath.exp(e2), F), _fixed(-mpmath.expm1(-e2), F)
    shift = mpmath.mp.prec + 10
    total = one if weight is None else W0
    T = one
    U = U0 if weight is not None else 0
    i = start
    while i < hi:                                # upwards (weights: w = 1 - u, u growing towards v0)
        r = (k - i) * RU // (i + 1)
        T = T * r >> F
        i += 1
        if weight is None:
            total += T
        else:
            U = U * Rup >> F
            total += T * max(one - U, 0) >> F
        if i > mode and r < one and T * r < (total >> shift) * (one - r):
            break
    T, U, W = one, (U0 if weight is not None else 0), (W0 if weight is not None else one)
    i = start
    while i > lo:                                # downwards (weights: non-negative additions)
        r = i * RD // (k - i + 1)
        T = T * r >> F
        i -= 1
        if weight is None:
            total += T
        else:
            W += U * C1 >> F
            U = U * Rdn >> F
            total += T * W >> F
        if i < mode and r < one and T * r < (total >> shift) * (one - r):
            break
    return t0 * mpmath.ldexp(mpmath.mpf(total), -F)


def _binom_sum_mp(k, x, y, lo, hi, weight, start, mode):
    """``_binom_sum`` in mpmath for extreme ratios x / y: each term C(k, i) x^i y^(k-i) w(i) from log-gamma at
    the working precision plus 20 bits, from ``start`` outwards, each side stopped by the same log-concave
    tail bound term r / (1 - r) < 2^-(prec + 10) of the sum (with r = x / y or y / x so large or small that
    one or two terms decide)."""
    shift = mpmath.mpf(2) ** -(mpmath.mp.prec + 10)
    with mpmath.workprec(mpmath.mp.prec + 20):
        lx, ly = mpmath.log(x), mpmath.log(y)

        def term(i):
            t = mpmath.exp(_log_term(k, i, lx, ly))
            if weight is not None:
                i0, log_v0, e2 = weight
                t *= max(-mpmath.expm1(log_v0 - e2 * (i0 - i)), mpmath.mpf(0))
            return t
        total = term(start)
        for step, end in ((1, hi), (-1, lo)):
            i = start
            while i != end:
                i += step
                total += term(i)
                r = mpmath.exp((lx - ly) * step) * ((k - i) / mpmath.mpf(i + 1) if step > 0
                                                   else i / mpmath.mpf(k - i + 1))
                if (i - mode) * step > 0 and r < 1 and term(i) * r < shift * total * (1 - r):
                    break
        return +total


def _keep_lost(deltas_counts):
    """(prod (1 - delta)^count, its complement) at the working precision, the complement by expm1."""
    s = mpmath.mpf(0)
    for d, c in deltas_counts:
        d = mpmath.mpf(d.numerator) / d.denominator if isinstance(d, Fraction) else mpmath.mpf(d)
        if d >= 1:
            return mpmath.mpf(0), mpmath.mpf(1)
        s += c * mpmath.log1p(-d)
    return mpmath.exp(s), -mpmath.expm1(s)


def _float_logpmf(k, p, idx):
    """float64 log C(k, i) p^i (1-p)^(k-i) at the integer array ``idx`` (a guess only)."""
    from scipy.special import gammaln
    idx = np.asarray(idx, dtype=float)
    return (gammaln(k + 1.0) - gammaln(idx + 1) - gammaln(k - idx + 1) + idx * math.log(p)
            + (k - idx) * math.log1p(-p))


class BinomialLaw:
    """L = (k - 2I) eps with probability keep, +inf (under P) / -inf (under Q) with probability lost;
    I ~ Bin(k, a) under P, Bin(k, b) under Q.  ``deltas``: [(delta, count)] of the steps (exact
    Fractions), or one delta for all k steps."""

    continuous = False

    def __init__(self, eps, delta, k: int):
        self.k = int(k)
        q = Fraction(str(eps))
        e = mpmath.mpf(q.numerator) / q.denominator
        self.e = e
        self.a = 1 / (1 + mpmath.exp(e))           # P-probability of a -eps step
        self.b = 1 / (1 + mpmath.exp(-e))          # = 1 - a
        pairs = delta if isinstance(delta, list) else [(Fraction(str(delta)), self.k)]
        self.keep, self.lost = _keep_lost(pairs)
        self._ef = float(e)

    # -- the pieces, in index form: atom i is L_i = (k - 2i) eps (decreasing in i)
    def _L(self, i):
        return (self.k - 2 * i) * self.e

    def _P(self, lo, hi, weight=None):
        """keep P(lo <= I <= hi) (weighted)."""
        lo, hi = max(lo, 0), min(hi, self.k)
        return self.keep * _binom_sum(self.k, self.a, self.b, lo, hi, weight)

    def _Q(self, lo, hi):
        lo, hi = max(lo, 0), min(hi, self.k)
        return self.keep * _binom_sum(self.k, self.b, self.a, lo, hi)

    def _pmf(self, i, under_q=False):
        return self.keep * self._pmf_finite(i, under_q)

    def _pmf_finite(self, i, under_q=False):
        """C(k, i) x^i y^(k-i): the term of the finite part's law before the factor keep."""
        if i < 0 or i > self.k:
            return mpmath.mpf(0)
        x, y = (self.b, self.a) if under_q else (self.a, self.b)
        return mpmath.exp(mpmath.loggamma(self.k + 1) - mpmath.loggamma(i + 1)
                                      - mpmath.loggamma(self.k - i + 1) + i * mpmath.log(x)
                                      + (self.k - i) * mpmath.log(y))

    def _above_index(self, t):
        """The largest i with L_i > t (L > t <=> I <= this); -1 when none."""
        v = (self.k - t / self.e) / 2                # L_i > t <=> i < v
        return int(mpmath.ceil(v)) - 1

    def p_inf(self):
        return self.lost

    q_minf = p_inf

    # -- delta(eps)
    def delta(self, eps):
        return self.lost + self.hockey_finite(eps)

    def hockey_finite(self, eps):
        """sum over atoms L_i > eps of P(L_i) (1 - e^{eps - L_i}): non-negative terms, no cancellation."""
        hi = min(self._above_index(eps), self.k)
        if hi < 0:
            return mpmath.mpf(0)
        # w(i) = 1 - e^{eps - L_i} = 1 - v0 e^{-2 eps (hi - i)}, v0 = e^{eps - L_hi} < 1
        return self._P(0, hi, (hi, eps - self._L(hi), 2 * self.e))

    def _delta_at_index(self, i):
        """delta at eps = L_i: the atoms j < i, weights 1 - e^{-2 eps (i - j)}."""
        return self.lost + self._P(0, i - 1, (i, mpmath.mpf(0), 2 * self.e))

    def _guess_delta_index(self, target: float, top: int) -> int:
        """Float guess of the largest i <= top with delta(L_i) <= target (delta(L_i) increases with i):
        delta(L_i) = keep (F_P(i) - e^{L_i} F_Q(i)) + lost with F the binomial CDFs below i (scipy's bdtr,
        in logs), located by a float bisection.  Only the probe order of the exact search depends on it."""
        from scipy.special import bdtr
        k, a, b, e = self.k, float(self.a), float(self.b), self._ef
        keep = max(float(self.keep), 1e-300)
        want = (target - float(self.lost)) / keep

        def small(i):
            with np.errstate(all="ignore"):
                fp, fq = float(bdtr(i - 1, k, a)), float(bdtr(i - 1, k, b))
            if not fp > 0:
                return True
            if not fq > 0:
                return fp <= want
            x = (k - 2 * i) * e + math.log(fq) - math.log(fp)
            return x < 0 and fp * -math.expm1(x) <= want
        lo, _ = bisect(small, 0, top + 1, stop=_adjacent, mid=integer_midpoint)
        return lo

    def eps(self, delta):
        """inf{eps >= 0: delta(eps) <= delta}; inf when delta < P(L = inf)."""
        lost = self.lost
        if delta < lost:
            return mpmath.inf
        k = self.k
        top = (k + 1) // 2 - 1                   # the largest i with L_i > 0 (-1: none)
        if delta == lost:
            return max(self._L(0), mpmath.mpf(0))
        zero = mpmath.mpf(0)
        if top < 0:
            return zero
        if self._delta_at_index(top) <= delta:
            # the answer is in [0, L_top]: on [0, L_top) the atoms above are i <= top
            if self.delta(zero) <= delta:
                return zero
            i = top
        else:
            # D(0) = lost <= delta < D(top): the i with D(i) <= delta < D(i + 1)
            g = self._guess_delta_index(float(delta), top)
            i, _ = bisect(lambda j: self._delta_at_index(j) <= delta, 0, top, stop=_adjacent,
                          mid=_guided(g))
        # on [L_{i+1}, L_i): delta(eps) = lost + A - e^eps B, A and B the P- and Q-masses of I <= i
        A, B = self._P(0, i), self._Q(0, i)
        return max(mpmath.log((lost + A - delta) / B), zero)

    # -- f(alpha)
    def tradeoff(self, alpha):
        """(beta, power) at type-I error alpha: the smallest i with Q(I <= i) >= alpha (Q(L >= L_i)),
        randomising at the atom L_i."""
        one = mpmath.mpf(1)
        if alpha == 0:
            return self._P(0, self.k), self.lost
        if alpha >= one - self.lost:
            return mpmath.mpf(0), one
        k = self.k
        qcdf = lambda i: self._Q(0, i)               # noqa: E731
        from scipy.special import bdtrik
        with np.errstate(all="ignore"):
            g = float(bdtrik(min(float(alpha) / max(float(self.keep), 1e-300), 1.0), k, float(self.b)))
        g = min(max(int(math.ceil(g)) if math.isfinite(g) else k // 2, 0), k)
        # predicate on i: Q(I <= i) < alpha (true at -1, false at k)
        lo, hi = bisect(lambda i: qcdf(i) < alpha, -1, k, stop=_adjacent, mid=_guided(g))
        i = hi
        above = qcdf(i - 1) if i > 0 else mpmath.mpf(0)
        pa, qa = self._pmf(i), self._pmf(i, under_q=True)
        gamma = (alpha - above) / qa if qa > 0 else mpmath.mpf(0)
        gamma = min(max(gamma, mpmath.mpf(0)), one)
        beta = self._P(i + 1, k) + (one - gamma) * pa
        power = self.lost + self._P(0, i - 1) + gamma * pa
        return beta, power


# ----------------------------------------------------------------------------------------------
# several eps: the convolution on the common lattice


def _gcd(values):
    g = Fraction(0)
    for v in values:
        g = Fraction(math.gcd(g.numerator * v.denominator, v.numerator * g.denominator), g.denominator * v.denominator)
    return g


def _kept_range(k: int, a: float, bits: int):
    """A float estimate of the index range of Bin(k, a) whose terms exceed 2^-bits of the mode's (the
    size estimate of ``convolved_size``; the build finds the exact cut itself)."""
    sd = math.sqrt(k * a * (1 - a))
    w = math.sqrt(2 * bits * math.log(2)) * sd + 3
    mode = k * a
    return max(0, int(mode - w)), min(k, int(mode + w) + 1)


def convolved_size(components, bits: int = 120) -> int:
    """Predicted number of term pairs of the several-eps build: the product of the kept supports."""
    n = 1
    for eps, k, _ in components:
        a = 1 / (1 + math.exp(float(eps)))
        lo, hi = _kept_range(k, a, bits)
        n *= hi - lo + 1
    return n


class ConvolvedLaw:
    """The composed law of components [(eps_j, k_j, [(delta, count), ...])] with different eps (each
    eps_j > 0 rational): finite loss g * n with n an integer, its P-masses a sorted table.

    The table is built in fixed point (each component's terms relative to its mode term, F = prec + 64
    bits, one truncation per product) and read through prefix and suffix sums of the P- and Q-masses made
    once at ``guard`` extra bits.  A query then costs O(log n): delta(e) = lost + P_j (1 - e^{e - L_j}) +
    [S_P(j+1) - e^e S_Q(j+1)] with j the first atom above e; every atom in the bracket has weight
    1 - e^{e - L_i} >= 1 - e^{-g}, so the subtraction cancels at most a factor 1 / (1 - e^{-g}) <= 2/g, which
    the guard bits (log2(2/g) + 20) absorb; the first atom's weight, which may be tiny, is an expm1."""

    continuous = False

    def __init__(self, components, under_q: bool = False):
        self.under_q = under_q
        eps = [Fraction(e) for e, _, _ in components]
        g = _gcd(eps)
        prec = mpmath.mp.prec
        guard = int(math.log2(2 / float(g))) + 20 if g < 1 else 20
        F = prec + 64
        one = 1 << F
        with mpmath.workprec(prec + guard):
            self.g = mpmath.mpf(g.numerator) / g.denominator
            table = {0: one}
            scale = mpmath.mpf(1)
            pairs = []
            cut_high = cut_low = False
            for e, k, deltas in components:
                m = int(Fraction(e) / g)
                law = BinomialLaw(Fraction(e), deltas, k)
                pairs += deltas
                # the P-terms of Bin(k, a) relative to the mode's, from the mode outwards, cut below
                # 2^-(prec + 30) of it (log-concave: the rest of a side is below term r / (1 - r)); a query
                # whose answer needs the dropped tails (beyond the table's ends) raises instead of reading 0
                x, y = (law.b, law.a) if under_q else (law.a, law.b)     # the table's law: Bin(k, x)
                mode = int(math.floor((k + 1) * float(x)))
                scale *= law._pmf_finite(mode, under_q)
                RU, RD = _fixed(x / y, F), _fixed(y / x, F)
                pm = {mode: one}
                cut = one >> (prec + 30)
                for up in (True, False):
                    i, t = mode, one
                    while 0 <= i + (1 if up else -1) <= k:
                        r = (k - i) * RU // (i + 1) if up else i * RD // (k - i + 1)
                        t = t * r >> F
                        i += 1 if up else -1
                        pm[i] = t
                        if r < one and t * r < cut * (one - r):
                            break
                cut_high = cut_high or min(pm) > 0           # index 0 is the largest loss of the component
                cut_low = cut_low or max(pm) < k
                new = {}
                for n0, p0 in table.items():
                    for i, p in pm.items():
                        n = n0 + m * (k - 2 * i)
                        new[n] = new.get(n, 0) + (p0 * p >> F)
                table = new
            self.keep, self.lost = _keep_lost(pairs)
            self.n = sorted(table)
            unit = self.keep * scale * mpmath.ldexp(mpmath.mpf(1), -F)
            self.L = [n * self.g for n in self.n]
            made = [table[n] * unit for n in self.n]
            # the other law: Q = P e^{-g n} (P = Q e^{g n}), the factor carried along the sorted n
            eg = mpmath.exp(self.g if under_q else -self.g)
            w, last, other = mpmath.exp((1 if under_q else -1) * self.n[0] * self.g), self.n[0], []
            for n, p in zip(self.n, made):
                w *= eg ** (n - last) if n - last > 1 else (eg if n > last else 1)
                last = n
                other.append(p * w)
            self.P, self.Q = (other, made) if under_q else (made, other)
            size = len(self.n)
            self._pre = [mpmath.mpf(0)] * (size + 1)          # sum of P below index j
            self._sufp = [mpmath.mpf(0)] * (size + 1)         # sum of P from index j on
            self._sufq = [mpmath.mpf(0)] * (size + 1)
            for j in range(size):
                self._pre[j + 1] = self._pre[j] + self.P[j]
            for j in range(size - 1, -1, -1):
                self._sufp[j] = self._sufp[j + 1] + self.P[j]
                self._sufq[j] = self._sufq[j + 1] + self.Q[j]
        self._guard = guard
        #: whether the table dropped terms above its largest / below its smallest loss (a query there raises)
        self._cut_high, self._cut_low = cut_high, cut_low
        self._top = sum(Fraction(e) * k for e, k, _ in components)

    def _beyond(self, where: str):
        from derive.errors import DomainError
        raise DomainError("query", where, "inside the exact lattice table (its terms below 2^-(prec + 30) of the "
                          "modes are not kept): use --method numeric")

    def p_inf(self):
        return self.lost

    q_minf = p_inf

    def _first_above(self, t):
        """Index of the first atom with L > t (exact on the integer lattice)."""
        return _bisect.bisect_right(self.n, int(mpmath.floor(t / self.g + mpmath.mpf(2) ** (-mpmath.mp.prec // 2))))

    def delta(self, eps):
        j = self._first_above(eps)
        if j >= len(self.n):
            if self._cut_high and eps < mpmath.mpf(self._top.numerator) / self._top.denominator:
                self._beyond(f"delta at eps = {mpmath.nstr(eps, 8)}, above the kept losses")
            return self.lost
        with mpmath.workprec(mpmath.mp.prec + self._guard):
            head = self.P[j] * -mpmath.expm1(eps - self.L[j])
            rest = self._sufp[j + 1] - mpmath.exp(eps) * self._sufq[j + 1]
            return self.lost + head + max(rest, mpmath.mpf(0))

    def eps(self, delta):
        if delta < self.lost:
            return mpmath.inf
        zero = mpmath.mpf(0)
        if delta == self.lost:
            return max(mpmath.mpf(self._top.numerator) / self._top.denominator, zero)
        first = _bisect.bisect_right(self.n, 0)          # the first atom above 0
        if first >= len(self.n) or self.delta(zero) <= delta:
            return zero
        # delta(L_j) for the positive atoms, decreasing in j; at the last it is lost <= delta
        hi = len(self.n) - 1
        if self.delta(self.L[first]) <= delta:
            j = first                      # the answer lies in (0, L_first]
        else:
            _, j = bisect(lambda x: self.delta(self.L[x]) > delta, first, hi, stop=_adjacent, mid=integer_midpoint)
        # on [L_{j-1}, L_j) (or [0, L_first)) the atoms above are those from j on
        with mpmath.workprec(mpmath.mp.prec + self._guard):
            A, B = self._sufp[j], self._sufq[j]
            return max(mpmath.log((self.lost + A - delta) / B), zero)

    def tradeoff(self, alpha):
        one = mpmath.mpf(1)
        if alpha == 0:
            return self._pre[-1], self.lost
        if alpha >= one - self.lost:
            return mpmath.mpf(0), one
        # Q(L >= L_j) = suffix sum from j: the largest j with it >= alpha (it decreases in j)
        j, _ = bisect(lambda x: self._sufq[x] >= alpha, 0, len(self.n), stop=_adjacent, mid=integer_midpoint)
        if j == 0 and self._cut_low:
            self._beyond(f"beta at alpha = {mpmath.nstr(alpha, 8)}, below the kept losses")
        above = self._sufq[j + 1]
        pa, qa = self.P[j], self.Q[j]
        gamma = min(max((alpha - above) / qa, mpmath.mpf(0)), one) if qa > 0 else mpmath.mpf(0)
        beta = self._pre[j] + (one - gamma) * pa
        if self.under_q:
            # the Q-table may drop the P-bulk above it: power = lost + keep - beta (beta is the small one here:
            # this table is asked only when the P-table cannot hold the boundary, far below the P-bulk)
            return beta, self.lost + (self.keep - beta)
        power = self.lost + self._sufp[j + 1] + gamma * pa
        return beta, power


@lru_cache(maxsize=4)
def _convolved_at(key, prec: int, under_q: bool = False) -> ConvolvedLaw:
    with mpmath.workprec(prec):
        return ConvolvedLaw([(e, k, list(ds)) for e, k, ds in key], under_q)


class _Convolved:
    """The several-eps law for ``compose_exact``: the table of the P-law answers every query; f(alpha), whose
    Neyman-Pearson boundary may sit in the Q-bulk below the P-table (large k eps^2), is asked of the table
    of the Q-law (Q-terms of Bin(k, b), P = Q e^L) when the P-table raises there."""

    def __init__(self, key):
        self.key = key

    def _table(self, under_q=False):
        return _convolved_at(self.key, mpmath.mp.prec, under_q)

    def delta(self, eps):
        return self._table().delta(eps)

    def eps(self, delta):
        return self._table().eps(delta)

    def tradeoff(self, alpha):
        from derive.errors import DomainError
        try:
            return self._table().tradeoff(alpha)
        except DomainError:
            return self._table(True).tradeoff(alpha)


def convolved(components) -> _Convolved:
    """The several-eps law of ``components``, its tables built once per working precision (a query's beta
    and power, and the two precisions of ``verified``, share them)."""
    return _Convolved(tuple((Fraction(e), int(k), tuple((Fraction(d), int(c)) for d, c in ds))
                            for e, k, ds in components))
