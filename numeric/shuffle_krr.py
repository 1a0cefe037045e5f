"""Shuffled k-ary randomized response, one neighbouring pair computed exactly (issue #26 item 1;
seed 004 Sec. 4.3, Su 2025 v1).

k-RR with local parameter eps0 reports the true value w.p. p = e^eps0 / (e^eps0 + k - 1) and each of the
k - 1 other values w.p. q = 1 / (e^eps0 + k - 1).  Shuffling n reports releases their histogram h.

The pair computed here.  User 1 holds v1 under D and v2 under D'; the n - 1 others all hold v1.  Under D
all n users hold v1, so h ~ Mult(n; pi) with pi_1 = p and pi_j = q (j != 1).  Under D', conditioning on
user 1's report y and using Mult(n - 1; pi)(h - e_y) = Mult(n; pi)(h) h_y / (n pi_y),

    P_D'(h) / P_D(h) = (1/n) sum_y pi'_y h_y / pi_y = (h_1 q/p + h_2 p/q + (n - h_1 - h_2)) / n =: L(h_1, h_2),

pi' the law of user 1's report under D'.  The likelihood ratio depends on h only through (h_1, h_2), which
is therefore sufficient for the pair; under D, (h_1, h_2, n - h_1 - h_2) ~ Mult(n; p, q, 1 - p - q).  So

    H_g(Q || P) = E_P[(L - g)^+],   H_g(P || Q) = E_P[(1 - g L)^+]

(P = law under D, Q = under D').  Swapping the labels v1 <-> v2 maps the pair "others all hold v2" onto
this one with D and D' exchanged, so the maximum of the two directions covers both pairs.

A second pair: the others all hold a third value v3 (``KrrPairOutside``, k >= 3).  Brute force over
every dataset at tiny n (tests/test_shuffle_rr.py) finds the worst dataset with the others OUTSIDE
{v1, v2}: all at v3 for k = 3, spread over v3, ..., vk for k >= 4 (e.g. n = 5, k = 4: two at v3, two at v4),
which is not computed here.  Which dataset is worst is NOT proved (for k = 2 this is the binary case,
where no single composition is always worst: numeric.shuffle_rr).  Any pair lower-bounds the mechanism's delta(eps), so the eps(delta)
here is a LOWER bound on the shuffled k-RR's epsilon; the test file brute-forces every dataset at tiny n.

Computation (float, not certified): the sums run over each count within 9 standard deviations of its mean
(the multinomial mass left out is below about e^-40, so a delta above ~1e-15 is unaffected at float
precision), log pmf from scipy's gammaln.  Limits: the 2-D grids have about (18 sd)^2 cells, n <= 10^5
(MAX_N; about 10 s at k = 3); the 3-D grid of the v3 pair at k >= 4 has (18 sd)^3 cells, n <= 600
(MAX_N_3D; a few seconds).
"""

from __future__ import annotations

import math

import numpy as np

from derive.errors import DomainError
from derive.exact import rational

from .shuffle_rr import _delta, _eps, _eps0, _n

#: largest n for the 2-D sum (the grid grows like n)
MAX_N = 10 ** 5
MAX_K = 10 ** 6


def _k(k):
    r = rational("k", k)
    if r.q != 1 or not 3 <= r <= MAX_K:
        raise DomainError("k", k, f"an integer in [3, {MAX_K}] (k = 2 is binary-rr)")
    return int(r)


class KrrPair:
    """The (h_1, h_2) grid with log P and L for n users, k values, local eps0 (floats)."""

    def __init__(self, n: int, k: int, eps0: float, span: float = 9.0):
        from scipy.special import gammaln
        x = math.exp(eps0)
        p, q = x / (x + k - 1), 1 / (x + k - 1)
        r = 1.0 - p - q
        s1, s2 = math.sqrt(n * p * (1 - p)) + 1, math.sqrt(n * q * (1 - q)) + 1
        h1 = np.arange(max(0, int(n * p - span * s1)), min(n, int(n * p + span * s1) + 1) + 1)[:, None]
        h2 = np.arange(max(0, int(n * q - span * s2)), min(n, int(n * q + span * s2) + 1) + 1)[None, :]
        rest = n - h1 - h2
        ok = rest >= 0
        rr = np.where(ok, rest, 0)
        lp = (gammaln(n + 1) - gammaln(h1 + 1) - gammaln(h2 + 1) - gammaln(rr + 1)
              + h1 * math.log(p) + h2 * math.log(q) + rr * math.log(r))
        self.P = np.exp(np.where(ok, lp, -np.inf))
        self.L = (h1 * (q / p) + h2 * (p / q) + rr) / n
        self.n, self.k, self.eps0 = n, k, eps0

    def delta(self, eps: float) -> float:
        """max of H_{e^eps}(Q || P) and H_{e^eps}(P || Q)."""
        g = math.exp(eps)
        up = float(np.sum(self.P * np.maximum(self.L - g, 0.0)))
        down = float(np.sum(self.P * np.maximum(1.0 - g * self.L, 0.0)))
        return max(up, down)


class KrrPairOutside:
    """The pair "the n - 1 others all hold a third value v3" (k >= 3).  With F = Mult(n; pi), pi_3 = p and
    pi_j = q otherwise, the identity above gives P_D(h) = F(h) A / n and P_D'(h) = F(h) B / n with

        A = h_1 p/q + h_2 + R,   B = h_1 + h_2 p/q + R,   R = h_3 q/p + (n - h_1 - h_2 - h_3),

    so (h_1, h_2, h_3) is sufficient (for k = 3, h_3 = n - h_1 - h_2 and (h_1, h_2) is).  Swapping h_1 and
    h_2 exchanges P and Q, so one direction suffices.  Float; for k >= 4 the grid is 3-D (n <= MAX_N_3D)."""

    def __init__(self, n: int, k: int, eps0: float, span: float = 9.0):
        from scipy.special import gammaln
        x = math.exp(eps0)
        p, q = x / (x + k - 1), 1 / (x + k - 1)
        sq, sp_ = math.sqrt(n * q * (1 - q)) + 1, math.sqrt(n * p * (1 - p)) + 1

        def axis(mean, sd, shape):
            a = np.arange(max(0, int(mean - span * sd)), min(n, int(mean + span * sd) + 1) + 1)
            return a.reshape(shape)
        if k == 3:
            h1, h2 = axis(n * q, sq, (-1, 1)), axis(n * q, sq, (1, -1))
            h3 = n - h1 - h2
        else:
            h1, h2 = axis(n * q, sq, (-1, 1, 1)), axis(n * q, sq, (1, -1, 1))
            h3 = axis(n * p, sp_, (1, 1, -1))
        rest = n - h1 - h2 - h3
        ok = (rest >= 0) & (h3 >= 0)
        rr, h3c = np.where(ok, rest, 0), np.where(ok, h3, 0)
        lf = (gammaln(n + 1) - gammaln(h1 + 1) - gammaln(h2 + 1) - gammaln(h3c + 1) - gammaln(rr + 1)
              + (h1 + h2) * math.log(q) + h3c * math.log(p))
        if k > 3:
            lf = lf + rr * math.log((k - 3) * q)
        F = np.exp(np.where(ok, lf, -np.inf))
        R = h3c * (q / p) + rr
        self.P = F * (h1 * (p / q) + h2 + R) / n
        self.Q = F * (h1 + h2 * (p / q) + R) / n

    def delta(self, eps: float) -> float:
        return float(np.sum(np.maximum(self.Q - math.exp(eps) * self.P, 0.0)))


#: the 3-D grid of KrrPairOutside for k >= 4 holds about (24 sd)^3 cells
MAX_N_3D = 600

#: the pairs computed, by the value the others hold
PAIRS = {"v1": KrrPair, "v3": KrrPairOutside}


def _pairs(n: int, k: int, eps0: float, others):
    out = []
    for name in others:
        if name not in PAIRS:
            raise DomainError("others", name, "v1 (the changed user's value) or v3 (a third value)")
        if name == "v3" and k >= 4 and n > MAX_N_3D:
            raise DomainError("n", n, f"an integer in [2, {MAX_N_3D}] for the v3 pair at k >= 4")
        out.append(PAIRS[name](n, k, eps0))
    return out


def krr_delta(n, k, eps0, eps, others=("v1", "v3")) -> dict:
    """delta(eps) of the shuffled k-RR pair "others all hold the changed value" (float)."""
    n_, k_, e0, e = _n(n), _k(k), float(_eps0(eps0)), float(_eps(eps))
    if n_ > MAX_N:
        raise DomainError("n", n, f"an integer in [2, {MAX_N}] for k-rr")
    d = max(pair.delta(e) for pair in _pairs(n_, k_, e0, others))
    return {"mechanism": "shuffled k-ary randomized response", "n": n_, "k": k_, "eps0": str(eps0),
            "eps": str(eps), "delta": d, "delta_lower": d, "delta_upper": None, "certified": False,
            "others": list(others), "reason": "float sums over the reduced grid",
            "side": "lower bound on the shuffled mechanism's delta(eps) (one neighbouring pair, exact sum)"}


def krr_eps(n, k, eps0, delta, others=("v1", "v3")) -> dict:
    """eps(delta) of the same pair: a lower bound on the shuffled k-RR's epsilon (float)."""
    from .solvers import brent_root
    n_, k_, e0, d = _n(n), _k(k), float(_eps0(eps0)), float(_delta(delta))
    if n_ > MAX_N:
        raise DomainError("n", n, f"an integer in [2, {MAX_N}] for k-rr")
    pairs = _pairs(n_, k_, e0, others)
    ld = math.log(d)

    def f(e):
        v = max(pair.delta(e) for pair in pairs)
        return (math.log(v) if v > 0 else -800.0) - ld
    if f(0.0) <= 0:
        e = 0.0
    else:
        hi = e0 * (1 - 1e-9)
        e = hi if f(hi) > 0 else brent_root(f, 0.0, hi, xtol=1e-15, rtol=1e-11)
    return {"mechanism": "shuffled k-ary randomized response", "n": n_, "k": k_, "eps0": str(eps0),
            "delta": str(delta), "eps": e, "eps_lower": e, "eps_upper": None, "certified": False,
            "others": list(others), "reason": "float sums over the reduced grid",
            "side": "lower bound on the shuffled mechanism's eps(delta) (one neighbouring pair)"}
