"""Shuffled rounds at large n: the clone pair bracketed by two coarser clone pairs (issue #26 item 1).

``numeric.shuffle_rounds`` hands the certified engine (numeric/pld.py) the clone pair of
numeric/shuffle_clones.py itself: each tail S_P(l) = P(l < L < inf) is an Arb walk over the clone
count C, one walk per knot, so n stops at 200.  This module answers every n up to 10^8 with two
changes: the pair is replaced by two pairs that sandwich it in the Blackwell order, and the tails
of those pairs are evaluated for all knots at once in float64 with a proved error bound.

The sandwich
------------
The pair (numeric/shuffle_clones.py): C ~ Bin(n - 1, q); given C = c the observation is (c, X)
with X ~ P_c = a Bin(c, 1/2) + (1 - a)(Bin(c, 1/2) + 1) under P and its mirror Q_c under Q.  Since
Bin(c + m, 1/2) = Bin(c, 1/2) + Bin(m, 1/2) (independent), P_{c+m} and Q_{c+m} are the images of
P_c and Q_c under the same channel "add an independent Bin(m, 1/2)".  Split {0, ..., n - 1} into
blocks B_j = [lo_j, hi_j] with exact weights W_j = P(C in B_j).  Define

    pessimistic pair: observe j ~ W, then X ~ P_{lo_j} (resp. Q_{lo_j}),
    optimistic pair:  observe j ~ W, then X ~ P_{hi_j} (resp. Q_{hi_j}).

The true pair is a post-processing of the pessimistic one (given (j, x): draw c from W restricted to
B_j, add Bin(c - lo_j, 1/2) to x, output (c, x')), and the optimistic pair is a post-processing of
the true one (given (c, x): find the block j of c, add Bin(hi_j - c, 1/2), output (j, x')).  The
same channel acts on both hypotheses, so by Blackwell's theorem (equivalently, the post-processing
property of trade-off functions: Dong, Roth, Su, "Gaussian differential privacy", JRSS-B 2022,
Lemma 2.9) delta_opt(eps) <= delta_true(eps) <= delta_pess(eps) for every eps; the R-fold products
keep the order (apply the channel coordinatewise), so the R-round composition of the true pair has
its eps(delta) and delta(eps) inside [engine lower end of the optimistic pair, engine upper end of
the pessimistic pair].  With blocks of width 1 the three pairs coincide and one composition serves.

Blocks: the window [c_lo, c_hi] of C (Chernoff tails below e^-LOG_TAIL_C, recomputed in Arb by
``numeric.shuffle_clones._tail_bound``) is cut into equal blocks, at most ``BLOCKS`` of them and at most
as many as keep the slices' float windows within ``SIZE_BUDGET`` values (n = 10^4: 2350 blocks of width 1,
the pair itself; n = 10^6: 1969 of width 12; n = 10^7: 317 of width 233); the two outer blocks
[0, c_lo - 1] and [c_hi + 1, n - 1] carry weights in [0, tail] and their tails are only bounded, by
[0, tail] (S lies in [0, 1]).  The truncations make every upper end at least ~1e-130 (e^-300), so deltas
far below that get a wide (still valid) bracket.

The tails of one clone pair, for all knots at once
--------------------------------------------------
By the mirror x -> c + 1 - x (numeric/shuffle_rounds.py), with b_c the Bin(c, 1/2) pmf, F_c its cdf,
T = ceil((c + 1) theta_l) - 1 and theta_l = (E - e^l)/((E - 1)(1 + e^l)) (E = e^eps0, l in
(-eps0, eps0)),

    S_P^c(l) = F_c(T - 1) + a b_c(T),     S_Q^c(l) = F_c(T - 1) + (1 - a) b_c(T),

sums of non-negative terms (no cancellation), each non-decreasing in T.  A knot's theta is an Arb
ball; T is bracketed by T_lo = ceil(y_lo) - 1 and T_hi = ceil(y_hi) - 1 with y_lo, y_hi floats
below and above (c + 1) theta (the float product widened by 2u), and monotonicity gives
S(T_lo) <= S <= S(T_hi).  l = 0 (theta = 1/2) and l = -eps0 (theta = 1) take theta exactly.

Why the float64 numbers are bounds (u = 2^-53, gamma_k = k u/(1 - k u); Higham, "Accuracy and
Stability of Numerical Algorithms", 2nd ed., Lemma 3.1 and Sec. 4.2):
* b_c at the mode m = floor(c/2) and at the anchors m +- j ANCHOR_STEP is an Arb ball (lgamma), converted
  to floats b_lo <= b <= b_hi around its midpoint; from each anchor the pmf walks away from the mode, for
  at most ANCHOR_STEP values, by b(x + 1) = b(x) (c - x)/(x + 1) and b(x - 1) = b(x) x/(c - x + 1), whose
  integer operands are exact in float64 (c < 2^53).  k steps make 2k correctly rounded operations plus
  the product with the anchor's midpoint, so b_hat = b (b_mid/b) (1 + theta), |theta| <= gamma_{2S+2}
  (S = ANCHOR_STEP).  One factor per slice, f_lo = min over its anchors of (b_lo/b_mid) times
  (1 - gamma_{2S+2}) and f_hi likewise, gives b in [f_lo b_hat, f_hi b_hat].  (A single walk from the
  mode, as before the eleventh session, had gamma_{2K} for the longest walk K: 2.7e-11 at c = 10^8,
  which ten thousand rounds of a tiny loss turned into a factor 1.9 of width.)
* The prefix sums (``_prefix_sums``): the window is cut into nb blocks of w ~ sqrt(N) values, each
  summed cumulatively, then the blocks' totals; a prefix is the sum of its block's partial sum (at most
  w - 1 additions of positive terms) and of the earlier blocks' computed totals (at most nb - 1 more),
  plus one addition: relative error at most gamma_{w + nb + 1} (Higham Sec. 4.2: any order of summation
  of positive terms), widened to 2 gamma to invert the factor.
* The window of X is [c/2 - k, c/2 + k] with k^2 = LOG_TAIL_X c / 2: each side outside carries at most
  exp(-2 k'^2/c) <= e^-LOG_TAIL_X (Hoeffding 1963, Thm. 1, k' the distance to the first value outside),
  bounded in Arb.  F_c(T - 1) is the window's prefix plus [0, tail below]; outside the window it is
  [0, tail below] or [window sum, 1].  b_c(T) outside the window is in [0, that side's tail].
* Every pmf value in the window is above 1e-290 (checked: the walk stops at e^-LOG_TAIL_X, and the
  mode is at least 1/(c + 1)), so no product or sum underflows and the relative bounds hold.
* The final sums over blocks: sum_j W_j S_j of positive terms, rounded products and sums, scaled by
  (1 -+ gamma_{J+3}); a few more roundings (a b, the one addition per block) are covered by the extra
  factor (1 -+ 4u).  The two outer blocks add [0, their weight bound] to the upper end only.
Nothing else is float: the weights W_j come from an Arb walk of Bin(n - 1, q)'s pmf, the ends of
the thetas and of a from Arb balls (outward converted).

Cost: one pass of O(window of X) float operations per block when the pair is built, then a gather per
batch of knots.  Measured (2 cores shared with another job): n = 10^7, R = 10, delta = 1e-6 in 4.3 s wall
and 0.48 GB peak; n = 100, R = 2 in 0.4 s against 2.6 s for the Arb walk per knot of
numeric/shuffle_rounds.py, with the same bracket to 9 digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from numeric import shuffle_clones as SC
from numeric.pld_discretise import _down, _up
from numeric.pld_mechanisms import LossModel

U = 2.0 ** -53
PREC_BITS = 128
#: Chernoff exponent of the window of C and Hoeffding exponent of the window of X (tails e^-300 ~ 5e-131;
#: the sum of both keeps every product of a weight and a pmf above the float64 normal range)
LOG_TAIL_C = 300.0
LOG_TAIL_X = 300.0
#: at most this many blocks of C (each costs one float pass over its window of X per batch of knots)
BLOCKS = 2500
#: ... and at most this many float64 values in their windows together (two arrays of them are kept)
SIZE_BUDGET = 15_000_000
#: ratio steps of the pmf walk between two exact (Arb) anchors: relative error gamma_{2 ANCHOR_STEP + 2}
#: instead of gamma_{2K} for a walk of K steps (K = 1.2e5 at c = 10^8: 2.7e-11, the tails' radii)
ANCHOR_STEP = 1024
#: knots per numpy pass (a pass holds a few (CHUNK x blocks) arrays)
CHUNK = 256
#: the block pair lists the float places of its atoms for knots when it has at most this many
HINT_ATOMS = 4096
#: slices kept by the float model that places knots
FLOAT_SLICES = 96
#: ... when the slices' windows hold more than this many values together (else all are kept)
FLOAT_SIZE = 2_000_000


def _gamma(k: int) -> float:
    """gamma_k = k u/(1 - k u), rounded up (Higham Lemma 3.1)."""
    return math.nextafter(k * U / (1 - k * U), math.inf) * (1 + 4 * U)


@dataclass
class _Slice:
    """One clone count c: its pmf window [x_lo, x_hi] as floats with the enclosure factors."""

    c: int
    x_lo: int
    x_hi: int
    b: np.ndarray          # b_hat(x) for x_lo <= x <= x_hi
    cum: np.ndarray        # cumulative sums of b_hat
    f_lo: float            # true b in [f_lo b_hat, f_hi b_hat]
    f_hi: float
    s_lo: float            # true partial sums in [s_lo cum, s_hi cum]
    s_hi: float
    t_below: float         # P(X < x_lo) <= t_below
    t_above: float         # P(X > x_hi) <= t_above


def _hoeffding(c: int, dist: float) -> float:
    """An upper bound on P(Bin(c, 1/2) - c/2 <= -dist) for dist > 0 (Arb, rounded up)."""
    from flint import arb
    if dist <= 0:
        return 1.0
    return _up((-(2 * arb(dist) ** 2) / c).exp())


def _anchored_walk(c: int, start: int, steps: int, up: bool, lgc):
    """(b_hat of the ``steps`` values walked from x = start, one way; the anchors' (lo, hi) factors): b(x) for
    x = start +- 1 ... start +- steps, each from the nearest anchor at or before it (x = start +- j ANCHOR_STEP,
    an Arb ball of the exact pmf) by at most ANCHOR_STEP ratio steps.  ``lgc``: the ball lgamma(c + 1) - c log 2."""
    from flint import arb
    if steps <= 0:
        return np.zeros(0), [], []
    nseg = -(-steps // ANCHOR_STEP)
    mids, los, his = [], [], []
    for j in range(nseg):
        xa = start + j * ANCHOR_STEP if up else start - j * ANCHOR_STEP
        ball = (lgc - arb(xa + 1).lgamma() - arb(c - xa + 1).lgamma()).exp()
        mid = float(ball.mid())
        mids.append(mid)
        los.append(_down(ball / mid))
        his.append(_up(ball / mid))
    x = np.arange(nseg * ANCHOR_STEP, dtype=np.float64)
    x = start + x if up else start - x
    ratio = (c - x) / (x + 1) if up else x / (c - x + 1)
    ratio[steps:] = 1.0                           # padding (never read)
    walked = np.cumprod(ratio.reshape(nseg, ANCHOR_STEP), axis=1) * np.array(mids)[:, None]
    return walked.ravel()[:steps], los, his


def _prefix_sums(b: np.ndarray):
    """(cumulative sums of b, k): blocks of ~sqrt(len) summed in place, then the blocks' totals; every
    prefix is then a sum of at most k - 1 rounded additions of positive terms (module docstring)."""
    n = len(b)
    width = max(64, math.isqrt(n) + 1)
    nb = -(-n // width)
    pad = np.zeros(nb * width)
    pad[:n] = b
    local = np.cumsum(pad.reshape(nb, width), axis=1)
    offsets = np.concatenate(([0.0], np.cumsum(local[:, -1])[:-1]))
    return (local + offsets[:, None]).ravel()[:n], width + nb + 1


def make_slice(c: int) -> _Slice:
    """The float window of Bin(c, 1/2) with its proved enclosure factors (module docstring)."""
    from flint import arb, ctx
    if c == 0:
        one = np.ones(1)
        return _Slice(0, 0, 0, one, one.copy(), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0)
    x_lo, x_hi = _window(c)
    m = c // 2
    with ctx.workprec(PREC_BITS):
        lgc = arb(c + 1).lgamma() - c * arb(2).log()
        up, lo_u, hi_u = _anchored_walk(c, m, x_hi - m, True, lgc)        # b(m + 1) ... b(x_hi)
        dn, lo_d, hi_d = _anchored_walk(c, m, m - x_lo, False, lgc)       # b(m - 1) ... b(x_lo)
        ball = (lgc - arb(m + 1).lgamma() - arb(c - m + 1).lgamma()).exp()
        mid = float(ball.mid())
        f_lo0 = min([_down(ball / mid)] + lo_u + lo_d)
        f_hi0 = max([_up(ball / mid)] + hi_u + hi_d)
    b = np.concatenate([dn[::-1], [mid], up])
    if not b.min() > 1e-290:
        raise AssertionError(f"pmf window of Bin({c}, 1/2) reaches the float64 subnormal range")
    g = _gamma(2 * ANCHOR_STEP + 2)
    f_lo, f_hi = f_lo0 * (1 - g) * (1 - 4 * U), f_hi0 * (1 + g) * (1 + 4 * U)
    cum, k = _prefix_sums(b)
    gs = 2 * _gamma(k)
    t_below = _hoeffding(c, c / 2 - (x_lo - 1)) if x_lo > 0 else 0.0
    t_above = _hoeffding(c, (x_hi + 1) - c / 2) if x_hi < c else 0.0
    return _Slice(c, x_lo, x_hi, b, cum, f_lo, f_hi, f_lo * (1 - gs) * (1 - 4 * U),
                  f_hi * (1 + gs) * (1 + 4 * U), t_below, t_above)


@dataclass
class _Flat:
    """All slices of a pair side by side (one row per slice), so that a batch of knots is one numpy pass."""

    c: np.ndarray
    x_lo: np.ndarray
    n_win: np.ndarray
    off: np.ndarray        # start of each slice's window in the flat arrays
    b: np.ndarray
    cum: np.ndarray
    f_lo: np.ndarray
    f_hi: np.ndarray
    s_lo: np.ndarray
    s_hi: np.ndarray
    t_below: np.ndarray
    t_above: np.ndarray


def _window(c: int) -> tuple[int, int]:
    """[x_lo, x_hi]: Bin(c, 1/2) outside it has Hoeffding mass below e^-LOG_TAIL_X on each side."""
    if c == 0:
        return 0, 0
    k = math.sqrt(LOG_TAIL_X * c / 2)
    return max(0, math.floor(c / 2 - k)), min(c, math.ceil(c / 2 + k))


def _flat(slices: list, sizes, b: np.ndarray, cum: np.ndarray) -> _Flat:
    def col(name, dtype=float):
        return np.array([getattr(s, name) for s in slices], dtype=dtype)
    n_win = np.asarray(sizes, dtype=np.int64)
    off = np.concatenate([[0], np.cumsum(n_win)[:-1]]).astype(np.int64)
    return _Flat(col("c", np.int64), col("x_lo", np.int64), n_win, off, b, cum, col("f_lo"), col("f_hi"),
                 col("s_lo"), col("s_hi"), col("t_below"), col("t_above"))


def flatten(slices: list) -> _Flat:
    """The windows of slices that kept their arrays, in two flat arrays (the float model's subsample)."""
    return _flat(slices, [s.x_hi - s.x_lo + 1 for s in slices], np.concatenate([s.b for s in slices]),
                 np.concatenate([s.cum for s in slices]))


def _build(reps: list):
    """The slices of the representatives and their flat arrays, filled one slice at a time (the peak
    memory is one copy of the windows); a subsample keeps its arrays for the float model."""
    sizes = [x_hi - x_lo + 1 for x_lo, x_hi in map(_window, reps)]
    step = max(1, -(-len(reps) // FLOAT_SLICES)) if sum(sizes) > FLOAT_SIZE else 1
    b, cum = np.empty(int(sum(sizes))), np.empty(int(sum(sizes)))
    slices, o = [], 0
    for j, (c, m) in enumerate(zip(reps, sizes)):
        sl = make_slice(c)
        b[o:o + m], cum[o:o + m] = sl.b, sl.cum
        o += m
        if j % step:
            sl.b = sl.cum = None
        slices.append(sl)
    return slices, _flat(slices, sizes, b, cum)


def parts(fl: _Flat, T: np.ndarray, end: str):
    """Floats bounding F_c(T - 1) and b_c(T) from below (``end="lo"``) or above (``"hi"``), for T of shape
    (knots, slices)."""
    lo_side = end == "lo"
    n_win = fl.n_win
    j = T - 1 - fl.x_lo                            # F(T - 1): prefix of the window up to T - 1
    pref = fl.cum[fl.off + np.clip(j, 0, n_win - 1)] * (fl.s_lo if lo_side else fl.s_hi)
    pref = np.where(j < 0, 0.0, pref)
    if not lo_side:
        pref = pref + fl.t_below + np.where(j >= n_win, fl.t_above, 0.0)
    i = T - fl.x_lo                                # b(T)
    bt = fl.b[fl.off + np.clip(i, 0, n_win - 1)] * (fl.f_lo if lo_side else fl.f_hi)
    inside = (i >= 0) & (i < n_win)
    bt = np.where(inside, bt, 0.0 if lo_side else np.where(i < 0, fl.t_below, fl.t_above))
    return pref, np.where((T < 0) | (T > fl.c), 0.0, bt)


def s_of(pref: np.ndarray, bt: np.ndarray, w: float, end: str) -> np.ndarray:
    """S^c(T) = F_c(T - 1) + w b_c(T) from the parts' bounds, with its three roundings covered; S is
    non-decreasing in T, so the lower end is taken at T_lo and the upper at T_hi (module docstring)."""
    out = pref + w * bt
    if end == "lo":
        return out * (1 - 4 * U)
    return np.minimum(out * (1 + 4 * U), 1.0)


# ----------------------------------------------------------------------------------------------
# the blocks of C and their weights


@dataclass
class _Blocks:
    lo: list               # block starts
    hi: list               # block ends
    w_lo: np.ndarray       # float enclosures of W_j = P(C in [lo_j, hi_j])
    w_hi: np.ndarray
    tail: float            # bound on P(C < c_lo) + P(C > c_hi) (the two outer blocks)


def blocks(reduction: str, eps0: Fraction, n: int, count: int = BLOCKS) -> _Blocks:
    """Equal blocks of the Chernoff window of C ~ Bin(n - 1, q) with their weights (an Arb walk of the pmf
    downward from c_hi, w_{c-1} = w_c c (1 - q)/((n - c) q); the outer blocks are only bounded)."""
    from flint import arb, ctx, fmpq
    red = SC.reduction(reduction)
    with ctx.workprec(PREC_BITS):
        x0 = arb(fmpq(eps0.numerator, eps0.denominator))
        q, qbar = red.pair(x0)
        qf, qbf = red.pair_float(float(eps0))
        c_lo, c_hi = SC.window(n, qf, qbf, LOG_TAIL_C)
        tail = _up(SC._tail_bound(n, q, qbar, c_lo, c_hi)) if n > 1 else 0.0
        win_x = 2 * math.sqrt(LOG_TAIL_X * max(c_hi, 1) / 2) + 2       # the widest slice's window of X
        count = max(1, min(count, int(SIZE_BUDGET // win_x)))
        width = max(1, -(-(c_hi - c_lo + 1) // count))
        starts = list(range(c_lo, c_hi + 1, width))
        ends = [min(s + width - 1, c_hi) for s in starts]
        w = (arb(n).lgamma() - arb(c_hi + 1).lgamma() - arb(n - c_hi).lgamma() + c_hi * q.log()
             + (n - 1 - c_hi) * qbar.log()).exp() if n > 1 else arb(1)
        ratio = qbar / q
        sums = [arb(0)] * len(starts)
        c = c_hi
        for j in range(len(starts) - 1, -1, -1):
            acc = arb(0)
            while c >= starts[j]:
                acc += w
                if c > 0:
                    w = w * ratio * c / (n - c)
                c -= 1
            sums[j] = acc
        w_lo = np.array([max(_down(s), 0.0) for s in sums])
        w_hi = np.array([_up(s) for s in sums])
    return _Blocks(starts, ends, w_lo, w_hi, tail)


def _mixing(eps0: Fraction):
    """Float enclosures of a = E/(1 + E) and 1 - a = 1/(1 + E), E = e^eps0 (Arb, outward)."""
    from flint import arb, ctx, fmpq
    with ctx.workprec(PREC_BITS):
        E = arb(fmpq(eps0.numerator, eps0.denominator)).exp()
        a, abar = SC.mixing_weight(E)
        return (_down(a), _up(a)), (_down(abar), _up(abar))


def theta_ends(eps0: Fraction, balls, knots_l) -> tuple[np.ndarray, np.ndarray]:
    """Float ends of theta_l = (E - e^l)/((E - 1)(1 + e^l)) for every knot l (exact at l = 0 and -eps0;
    0 and 0 for l >= eps0 and 2 and 2 for l < -eps0, which make T = -1 or T > c below)."""
    from flint import arb, ctx, fmpq
    lo, hi = np.empty(len(balls)), np.empty(len(balls))
    with ctx.workprec(PREC_BITS):
        x0 = arb(fmpq(eps0.numerator, eps0.denominator))
        em1 = x0.expm1()
        for i, (la, l) in enumerate(zip(balls, knots_l)):
            if l >= eps0:
                lo[i] = hi[i] = 0.0
            elif l < -eps0:
                lo[i] = hi[i] = 2.0
            elif l == 0 or l == -eps0:
                lo[i] = hi[i] = 0.5 if l == 0 else 1.0
            else:
                t = la.exp()
                th = t * (x0 - la).expm1() / (em1 * (1 + t))
                lo[i], hi[i] = _down(th), _up(th)
    return lo, hi


def thresholds(c: np.ndarray, th_lo: np.ndarray, th_hi: np.ndarray):
    """T_lo <= T* = ceil((c + 1) theta) - 1 <= T_hi, shape (knots, slices) (exact where theta is an exact
    float: 1/2 and 1, whose products with the integer c + 1 < 2^53 are exact)."""
    exact = (th_lo == th_hi)[:, None]
    c1 = (c + 1).astype(np.float64)[None, :]
    y_lo = c1 * th_lo[:, None]
    y_hi = c1 * th_hi[:, None]
    y_lo = np.where(exact, y_lo, y_lo * (1 - 2 * U))
    y_hi = np.where(exact, y_hi, y_hi * (1 + 2 * U))
    return np.ceil(y_lo).astype(np.int64) - 1, np.ceil(y_hi).astype(np.int64) - 1


# ----------------------------------------------------------------------------------------------
# the engine's step


def below(bottom: float) -> float:
    """A float a little below the lowest loss ``bottom`` (a rough range's lower end; knots only)."""
    return bottom - 1e-9 * (1 + abs(bottom))


def _lattice_atoms(reduction: str, eps0: Fraction, n: int) -> tuple:
    """The clone pair's atoms for n <= 2, where its loss lies on the lattice eps0 Z (so the engine
    composes it exactly: ``numeric.pld_discretise._lattice_measure``; its continuous hull lost the atoms,
    and 10^4 rounds at eps0 = 0.01 answered eps(1e-6) in [0, 99.5] at n = 1 and [0, 26.6] at n = 2).

    Atom (c, x), c in {0, .., n - 1}, x in {0, .., c + 1}, has P(c, x) = w_c [a b_c(x - 1) + (1 - a) b_c(x)]
    and loss log(P/Q) = log((E x + c + 1 - x)/(E (c + 1 - x) + x)) (numeric/shuffle_clones.py): -eps0 at
    x = 0, +eps0 at x = c + 1 and 0 at x = 1 = c.  Summed over c (w_0 = (1 - q)^{n-1}, w_1 = q at n = 2):

        P(L = eps0) = a sum_c w_c 2^-c,   P(L = -eps0) = (1 - a) sum_c w_c 2^-c,   P(L = 0) = w_1 / 2,

    and Q(L = l) = P(L = -l) (the mirror).  At n = 1 this is randomized response with parameter eps0."""
    from functools import lru_cache

    from numeric.pld_mechanisms import Atom, arb_of

    @lru_cache(maxsize=1)              # one evaluation for the six closed forms (the engine's precision is fixed)
    def masses():
        x0 = arb_of(eps0)
        q, qbar = SC.REDUCTIONS[reduction].pair(x0)
        a, abar = SC.mixing_weight(x0.exp())
        w = [arb_of(Fraction(1))] if n == 1 else [qbar, q]
        edge = sum(wc / 2 ** c for c, wc in enumerate(w))
        return a * edge, abar * edge, (q / 2 if n == 2 else None)

    atoms = [Atom(eps0, lambda: masses()[0], lambda: masses()[1]),
             Atom(-eps0, lambda: masses()[1], lambda: masses()[0])]
    if n == 2:
        atoms.append(Atom(Fraction(0), lambda: masses()[2], lambda: masses()[2]))
    return tuple(atoms)


class CloneBlockPair(LossModel):
    """The pessimistic (``side="upper"``) or optimistic (``side="lower"``) block pair of the clone
    reduction, as a step of numeric.pld (symmetric, like the clone pair: the mirror maps P to Q).
    Its tails at all knots come from ``tails_batch``; the atoms at l = 0 are not listed, which the
    engine allows (its lower measure then uses the right tangent at that knot: numeric/pld.py)."""

    def __init__(self, reduction: str, eps0, n: int, side: str, count: int = BLOCKS):
        self.reduction, self.eps0, self.n, self.side = reduction, Fraction(eps0), int(n), side
        self.blk = blocks(reduction, self.eps0, self.n, count)
        reps = self.blk.lo if side == "upper" else self.blk.hi
        self.slices, self.flat = _build(reps)
        self._float = self._hints = None
        (self.a_lo, self.a_hi), (self.ab_lo, self.ab_hi) = _mixing(self.eps0)
        self.exact = all(s == e for s, e in zip(self.blk.lo, self.blk.hi))
        self.name = f"shuffle({reduction}, eps0={eps0}, n={n}, {side} blocks)"
        self.lo, self.hi = -float(self.eps0), float(self.eps0)
        if self.n <= 2:
            self.atomic, self.atoms = True, _lattice_atoms(reduction, self.eps0, self.n)

    def tails_batch(self, h: Fraction, knots, balls):
        """(S_P, S_Q, Q-atoms) at every knot l = h k as Arb balls (module docstring)."""
        from flint import arb
        ls = [h * k for k in knots.tolist()]
        th_lo, th_hi = theta_ends(self.eps0, balls, ls)
        (sp_lo, sp_hi), (sq_lo, sq_hi) = self._sums(th_lo, th_hi)
        SP = [arb(float(a)).union(arb(float(b))) for a, b in zip(sp_lo, sp_hi)]
        SQ = [arb(float(a)).union(arb(float(b))) for a, b in zip(sq_lo, sq_hi)]
        QA = [arb(0)] * len(ls)
        if self.exact and self.eps0 in ls:
            QA[ls.index(self.eps0)] = arb(self._q_top_lower())
        return SP, SQ, QA

    def _q_top_lower(self) -> float:
        """A float <= Q(L = eps0), the Q-mass of the top atom (x = 0, t = 0) of the exact clone pair:
        Q_c(0) = P_c(c + 1) = (1 - a) 2^-c, so Q(L = eps0) >= (1 - a) sum_c w_c 2^-c over the window (the
        slices outside it only add).  Each w_lo[c] 2^-c is exact (a power of two; an underflow to a
        smaller value only lowers it), fsum rounds to nearest and the result is stepped down once, the
        product with the lower end of 1 - a too.  Reported as the knot's Q-atom (a lower bound is what the
        lower measure may use: ``pld_discretise._left_tangent_holds`` and ``_deficits``)."""
        terms = [math.ldexp(float(wc), -int(c)) for wc, c in zip(self.blk.w_lo, self.blk.lo)]
        total = math.nextafter(math.fsum(terms), 0.0) if terms else 0.0
        return max(math.nextafter(total * self.ab_lo, 0.0), 0.0)

    def _sums(self, th_lo, th_hi):
        """((S_P lower, S_P upper), (S_Q lower, S_Q upper)) as float arrays over the knots."""
        K = len(th_lo)
        acc = {key: np.zeros(K) for key in ("plo", "phi", "qlo", "qhi")}
        fl = self.flat
        for k in range(0, K, CHUNK):
            sl = slice(k, k + CHUNK)
            T_lo, T_hi = thresholds(fl.c, th_lo[sl], th_hi[sl])
            pref, bt = parts(fl, T_lo, "lo")
            acc["plo"][sl] = s_of(pref, bt, self.a_lo, "lo") @ self.blk.w_lo
            acc["qlo"][sl] = s_of(pref, bt, self.ab_lo, "lo") @ self.blk.w_lo
            pref, bt = parts(fl, T_hi, "hi")
            acc["phi"][sl] = s_of(pref, bt, self.a_hi, "hi") @ self.blk.w_hi
            acc["qhi"][sl] = s_of(pref, bt, self.ab_hi, "hi") @ self.blk.w_hi
        g = _gamma(len(self.slices) + 3)
        beyond = th_lo == 0.0                     # l >= eps0: S = 0 exactly
        out = []
        for lo, hi in ((acc["plo"], acc["phi"]), (acc["qlo"], acc["qhi"])):
            lo = lo * (1 - g) * (1 - 4 * U)
            hi = np.minimum(hi * (1 + g) * (1 + 4 * U) + self.blk.tail * (1 + 4 * U), 1.0)
            out.append((np.where(beyond, 0.0, lo), np.where(beyond, 0.0, hi)))
        return out

    # ---- float side (knot placement only, trusted for nothing) ----
    def atom_hints(self, a: float, b: float, hf: float = 0.0):
        """Float places in [a, b] of the pair's atoms (c, x), l = log1p((E - 1)(x - y)/(E y + x)), y = c + 1 - x,
        when there are at most HINT_ATOMS of them, else every grid cell (width ``hf``) of a support of at most
        HINT_ATOMS/4 cells, for ``pld_discretise._knots`` (accuracy only).  The knot
        walk stops only at denser coarse cells, so past the densest atom (l ~ 0) it stepped over the sparser
        positive atoms: n = 10, eps0 = 1e-6, 3 rounds had knots 0 and 35 h only there, a lower measure of all
        its mass at 0, and delta(1e-7) in [0, 2.54e-7] against 1.739e-7."""
        if self._hints is None:
            places, count = [], 0
            for sl in self.slices:
                x = np.arange(sl.x_lo, sl.x_hi + 2, dtype=np.float64)
                places.append(SC.float_loss(float(self.eps0), sl.c, x))
                count += len(x)
                if count > HINT_ATOMS:
                    places = None
                    break
            self._hints = np.unique(np.concatenate(places)) if places else None
        if self._hints is None:         # many atoms on a support of few cells: every cell's middle (n = 1000,
            lo, hi = max(a, self.lo), min(b, self.hi)       # eps0 = 1e-6: 70 cells; delta(1e-7) of 3 rounds
            cells = (hi - lo) / hf if hf else math.inf      # was [3.0e-11, 6.7e-9], now 0.3 % wide)
            return (np.arange(lo, hi, hf) + hf / 2).tolist() if 0 < cells <= HINT_ATOMS // 4 else []
        v = self._hints
        return v[(v >= a) & (v <= b)].tolist()


    def _float_sp(self, l):
        """S_P on a float grid from at most FLOAT_SLICES of the slices (their weights merged)."""
        l = np.atleast_1d(np.asarray(l, dtype=float))
        e0 = float(self.eps0)
        E, t = math.exp(e0), np.exp(np.clip(l, -e0, e0))
        th = t * np.expm1(e0 - np.clip(l, -e0, e0)) / (math.expm1(e0) * (1 + t))
        th = np.where(l >= e0, 0.0, np.where(l < -e0, 2.0, th))
        fl, W = self._float_model()
        tot = np.zeros(len(l))
        for k in range(0, len(l), CHUNK):
            T, _ = thresholds(fl.c, th[k:k + CHUNK], th[k:k + CHUNK])
            tot[k:k + CHUNK] = s_of(*parts(fl, T, "lo"), E / (1 + E), "lo") @ W
        return tot

    def _float_model(self):
        """The slices that kept their arrays (all, or every step-th: ``_build``), weights merged."""
        if self._float is None:
            W = 0.5 * (self.blk.w_lo + self.blk.w_hi)
            keep = [j for j, sl in enumerate(self.slices) if sl.b is not None]
            self._float = (flatten([self.slices[j] for j in keep]), np.add.reduceat(W, keep))
        return self._float

    def rough_range(self, lam):
        """Losses at the ends of the slices' windows (the mass beyond is below e^-LOG_TAIL_X), the lower
        end pushed below them: ``pld_discretise._knots`` reads masses of left-open coarse cells, and an
        atom at exactly the lower end (L = -eps0, x = 0: unlisted) fell outside the first one, got no
        knot and was moved up to the first knot (n = 3, eps0 = 0.01, 10^4 rounds: eps(1e-6) in [0, 10.5])."""
        ends = [float(SC.float_loss(float(self.eps0), sl.c, x)) for sl in self.slices for x in (sl.x_lo, sl.x_hi + 1)]
        return below(max(min(ends), self.lo)), min(max(ends), self.hi)
