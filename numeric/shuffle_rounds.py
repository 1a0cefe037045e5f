"""R shuffled rounds composed: the clone pair as a step of the certified PLD engine (issue #26 item 1).

The engine (numeric/pld.py) needs of a step only the tails of its privacy loss L = log dP/dQ,
S_P(l) = P(l < L < inf) and S_Q(l) = Q(l < L < inf), as arb balls at rational knots l (its upper and
lower measures and their proofs are built from these; see numeric/pld.py "Why the bracket is proved").
This module supplies them for the clone pair of numeric/shuffle_clones.py, exactly in the same way as
the hockey stick there: with the mirror x -> c + 1 - x (P(c, x) = Q(c, c + 1 - x)),

    S_P(l) = sum_c w_c sum_{y < (c+1) theta_l} Q_c(y) = sum_c w_c [F_c(T) - (1 - a) b_c(T)],
    S_Q(l) = sum_c w_c sum_{y < (c+1) theta_l} P_c(y) = sum_c w_c [F_c(T) - a b_c(T)],

T = ceil((c + 1) theta_l) - 1, theta_l = (E - e^l)/((E - 1)(1 + e^l)) in (0, 1) for |l| < eps0 (the loss
lives in [-eps0, eps0]: S = 1 below, 0 from eps0 on).  The strict inequality y < (c + 1) theta_l is
L > l, so an atom lying exactly at l is excluded, as the engine's S requires.

Exact ties.  L(c, x) = log((E (c + 1 - x) + x)/(E x + c + 1 - x)) with E = e^eps0 transcendental
(eps0 rational, Lindemann); e^l for rational l equals E^{l/eps0}, and a rational function of the
transcendental E equals E^{u/v} only when u/v is an integer, so a rational knot l in (-eps0, eps0)
holds an atom only at l = 0 (x = (c + 1)/2, theta = 1/2 exactly) or at l = -eps0 (theta = 1).  Those
two thetas are taken as exact rationals; every other knot has no atom, and a ball of (c + 1) theta that
does not decide T (which would take 2^-180 closeness) is answered by the union of the three prefixes
T - 1, T, T + 1 (so the enclosure stays valid).

Truncation as in numeric/shuffle_clones.py: the slices outside [c_lo, c_hi] carry at most the
Chernoff bound ``tail`` of mass, so each S lies in [S_window.lower, S_window.upper + tail].

Two implementations.  ``ShuffleClonePair`` below is the Arb one: each S(l) is one walk over the window
of C (~ 2 sqrt(2 L) standard deviations), one walk per knot of the engine, so it is slow (n = 100, R = 2:
~3-8 s a query; n = 1000, R = 10: 81 s).  It is kept as the independent reference of the tests.
``compose_rounds`` uses numeric/shuffle_blocks.py instead: the same sums for all knots at once in float64
with proved error bounds, and for large n two coarser clone pairs that sandwich this one (n = 10^7 in a
few seconds).  The float ``log_cell_float`` of ``ShuffleClonePair`` (knot placement only, trusted for
nothing) enumerates the pair's atoms with numpy on the central part of each slice.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from numeric import shuffle_clones as SC
from numeric.pld_mechanisms import LossModel, Mechanism

PREC_BITS = 128
#: the largest n ``compose_rounds`` accepts (as one round's routes; the float bounds of
#: numeric/shuffle_blocks.py need c + 1 < 2^53, far above)
MAX_N = 10 ** 8


def _tails_walk(n, q, qbar, a, abar, theta, theta_f, c_lo, c_hi):
    """(sum w (F - abar b), sum w (F - a b)) over c_lo <= c <= c_hi, walking c downward."""
    flint = SC._flint()
    arb = flint.arb
    ratio_w = qbar / q
    c = c_hi
    T = SC._threshold(c, theta_f)
    w, b, F = SC._start(n, q, qbar, c, T)
    sp, sq = _slice_tails(c, T, b, F, a, abar, theta, arb)
    SP, SQ = w * sp, w * sq
    while c > c_lo:
        T_new = SC._threshold(c - 1, theta_f)
        if T_new not in (T, T - 1):
            raise AssertionError(f"threshold moved from {T} to {T_new} at c = {c}")
        w = w * ratio_w * c / (n - c)
        b_same = b * (2 * (c - T)) / c                  # b_{c-1}(T)
        if T_new == T:
            F, b = F + b_same / 2, b_same
        else:                                           # F_{c-1}(T - 1), b_{c-1}(T - 1) = b_c(T) 2T/c
            F, b = F + (-b_same) / 2, b * (2 * T) / c
        c, T = c - 1, T_new
        sp, sq = _slice_tails(c, T, b, F, a, abar, theta, arb)
        SP, SQ = SP + w * sp, SQ + w * sq
    return SP, SQ


def _slice_tails(c, T, b, F, a, abar, theta, arb):
    """The slice's two prefix sums at T, or their union over T - 1, T, T + 1 when T is not decided."""
    sp, sq = F - abar * b, F - a * b
    y = (c + 1) * theta
    if y > T and y <= T + 1:
        return sp, sq
    for bx, Fx in ((b * T / (c - T + 1), F - b) if T >= 1 else (arb(0), arb(0)),
                   (b * (c - T) / (T + 1), F + b * (c - T) / (T + 1)) if T + 1 <= c else (arb(0), F)):
        sp, sq = sp.union(Fx - abar * bx), sq.union(Fx - a * bx)
    return sp, sq


class ShuffleClonePair(LossModel):
    """The clone pair of ``reduction`` as a step of the certified engine (symmetric: L under P ~ -L under Q)."""

    def __init__(self, reduction: str, eps0, n: int):
        SC.reduction(reduction)
        self.reduction, self.eps0, self.n = reduction, Fraction(eps0), int(n)
        self.name = f"shuffle({reduction}, eps0={eps0}, n={n})"
        self.lo, self.hi = -float(self.eps0), float(self.eps0)
        self._float_table = None

    def _tails(self, l, la):
        flint = SC._flint()
        arb, fmpq = flint.arb, flint.fmpq
        e0 = self.eps0
        if l >= e0:
            return arb(0), arb(0)
        if l < -e0:
            return arb(1), arb(1)
        prec = PREC_BITS + max(0, -math.floor(math.log2(float(e0))))
        with flint.ctx.workprec(prec):
            x0 = arb(fmpq(e0.numerator, e0.denominator))
            E = x0.exp()
            q, qbar = SC.REDUCTIONS[self.reduction].pair(x0)
            a, abar = SC.mixing_weight(E)
            if l == 0 or l == -e0:                      # the two knots that can hold atoms: exact theta
                theta = arb(fmpq(1, 2)) if l == 0 else arb(1)
            else:
                x = arb(fmpq(l.numerator, l.denominator))
                t = x.exp()
                theta = t * (x0 - x).expm1() / (x0.expm1() * (1 + t))
            theta_f = float(theta.mid())
            qf = float(q.mid())
            c_lo, c_hi = SC.window(self.n, qf, float(qbar.mid()), 60.0)
            SP, SQ = _tails_walk(self.n, q, qbar, a, abar, theta, theta_f, c_lo, c_hi)
            tail = SC._tail_bound(self.n, q, qbar, c_lo, c_hi) if self.n > 1 else arb(0)
            drop = arb(0).union(tail)                   # the dropped slices' share: in [0, tail]
            return SP + drop, SQ + drop

    # ---- float side (knot placement only) ----
    def _table(self):
        """Sorted float losses of the central atoms with their P-masses (numpy)."""
        if self._float_table is None:
            e0 = float(self.eps0)
            E = math.exp(e0)
            q, qbar = SC.REDUCTIONS[self.reduction].pair_float(e0)
            a, abar = E / (1 + E), 1 / (1 + E)
            from scipy.special import gammaln
            c_lo, c_hi = SC.window(self.n, q, qbar, 40.0)
            Ls, Ps = [], []
            for c in range(c_lo, c_hi + 1):
                half = 12 * math.sqrt(c + 1) / 2 + 2
                x = np.arange(max(0, math.floor((c + 1) / 2 - half)), min(c + 1, math.ceil((c + 1) / 2 + half)) + 1)
                lw = (gammaln(self.n) - gammaln(c + 1) - gammaln(self.n - c) + c * math.log(q)
                      + (self.n - 1 - c) * math.log(qbar))
                lb = gammaln(c + 1) - gammaln(x + 1) - gammaln(np.maximum(c - x, 0) + 1) - c * math.log(2)
                lb1 = gammaln(c + 1) - gammaln(np.maximum(x, 1)) - gammaln(c - x + 2) - c * math.log(2)
                bx = np.where(x <= c, np.exp(lb), 0.0)
                bx1 = np.where(x >= 1, np.exp(lb1), 0.0)
                P = math.exp(lw) * (a * bx1 + abar * bx)
                L = SC.float_loss(e0, c, x)
                Ls.append(L)
                Ps.append(P)
            L, P = np.concatenate(Ls), np.concatenate(Ps)
            order = np.argsort(L)
            self._float_table = (L[order], np.cumsum(P[order][::-1])[::-1])
        return self._float_table

    def _float_sp(self, l):
        L, tail = self._table()
        idx = np.searchsorted(L, np.asarray(l, dtype=float), side="right")
        out = np.zeros(np.shape(idx))
        inside = idx < len(L)
        out[inside] = tail[idx[inside]]
        return out

    def rough_range(self, lam):
        from numeric.shuffle_blocks import below
        return below(self.lo), self.hi


@dataclass(frozen=True)
class RoundsResult:
    lower: Fraction
    upper: Fraction | None       # None: not bounded (the engine's upper end is infinite)
    certified: bool
    seconds: float
    reason: str = ""
    blocks: int = 0              # blocks of the clone count (numeric/shuffle_blocks.py)
    block_width: int = 1         # 1: the block pairs are the clone pair itself


def compose_rounds(reduction: str, eps0, n: int, rounds: int, at_delta=None, at_eps=None,
                   blocks: int | None = None) -> RoundsResult:
    """R rounds of the clone pair through numeric.pld: eps(delta) or delta(eps), certified.

    The lower end is the engine's lower end for the optimistic block pair, the upper end the engine's
    upper end for the pessimistic one (numeric/shuffle_blocks.py: they sandwich the clone pair in the
    Blackwell order); with blocks of width 1 both are the clone pair and one composition is run.
    ``blocks`` caps the number of blocks (default numeric.shuffle_blocks.BLOCKS; the checker forces few)."""
    from derive.errors import DomainError
    from numeric.pld import compose
    from numeric.shuffle_blocks import BLOCKS, CloneBlockPair
    t0 = time.perf_counter()
    if n > MAX_N:
        raise DomainError("n", n, f"at most {MAX_N} with --rounds > 1")
    if at_delta is not None and (Fraction(at_delta) == 0 or Fraction(at_delta) >= 1):
        raise DomainError("delta", at_delta, "in (0, 1) with --rounds > 1")
    ends, certified, reasons = {}, True, []
    for side in ("upper", "lower"):
        model = CloneBlockPair(reduction, eps0, n, side, blocks or BLOCKS)
        h, tol = _grid(model, int(rounds), at_delta)
        comp = compose([(Mechanism(model.name, [model], True), int(rounds))], h=h, tol=tol)
        if at_delta is not None:
            r = comp.eps(Fraction(at_delta))
            lo, hi = r.eps_lower, r.eps_upper
        else:
            r = comp.delta(Fraction(at_eps))
            lo, hi = r.delta_lower, r.delta_upper
        certified = certified and bool(r.certified)
        if r.reason:
            reasons.append(r.reason)
        ends[side] = (lo, hi)
        nblocks, width = len(model.blk.lo), model.blk.hi[0] - model.blk.lo[0] + 1
        if model.exact:
            ends["lower"] = (lo, hi)
            break
        del model, comp
    upper = ends["upper"][1]
    return RoundsResult(_fraction(ends["lower"][0]), _fraction(upper) if mpmath.isfinite(upper) else None, certified,
                        time.perf_counter() - t0, "; ".join(reasons), nblocks, width)


def _grid(model, rounds: int, at_delta=None):
    """(h, tol): an explicit grid step and knot tolerance when the engine's default grid (set by the composed
    spread) is coarser than a round's loss standard deviation sd, else (None, None) (the engine's own, which
    an eps(delta) query then adapts: ``pld_grid.query_grid``).  Many rounds of a large n (n = 10^8,
    eps0 = 0.01, 10^4 rounds: sd 1e-6 against the default h = 7.6e-6) answered eps(1e-6) with "delta not
    reached in the window"; on h <= sd/4 with the default tolerance 1e-7/R they answered [1.34e-4, 2.49e-4].
    Here h <= sd/8 and the tolerance of ``query_grid``'s rule (at most 1e-4 delta and 1e-6 sd^2, floored at
    1e-16), which an explicit grid does not adapt: [1.9417e-4, 1.9586e-4] (BENCHMARKS.md, eleventh session).
    Accuracy only: every grid and tolerance gives a certified bracket."""
    from numeric.pld_grid import _float_loss_var, default_grid
    if getattr(model, "atomic", False):
        # n <= 2: the engine's own grid holds the atoms' lattice (exact measures); a binary grid does not
        # (n = 1, eps0 = 1e-6, 10^4 rounds: [1.831e-4, 1.942e-4] on h = 2^-23 against 1.9382990e-4)
        return None, None
    var = max(_float_loss_var(model), 0.0)
    sd = math.sqrt(var)
    h = default_grid([(Mechanism(model.name, [model], True), rounds)]).h
    if not (sd > 0 and float(h) > sd):
        return None, None
    tol = min(1e-7 / rounds, 1e-6 * var) if at_delta is None else min(1e-7 / rounds, 1e-4 * float(at_delta), 1e-6 * var)
    return Fraction(1, 2 ** math.ceil(-math.log2(sd / 8))), max(1e-16, tol)


def _fraction(v) -> Fraction:
    import mpmath
    if isinstance(v, Fraction):
        return v
    if isinstance(v, mpmath.mpf):
        man, exp = mpmath.mpf(v).man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    return Fraction(v)
