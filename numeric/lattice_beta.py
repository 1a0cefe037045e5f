"""beta(alpha) of a composition that is one lattice law, read from the law itself (issue #25: RR(0.01) x 1000001
on the engine had beta(0.1) in [0, 1.2e-9] around the exact 1.4e-18).

The engine reads beta = 1 - power from its delta bounds, so its width is absolute.  When the composition is a
single measure whose masses are pointwise bounds of the true atoms (``numeric.lattice_power``'s k-fold law,
or one atomic step: ``StepMeasure.tails`` is set), beta has a form of non-negative terms.  With P-masses p_j
at the losses l_1 < l_2 < ... (grid points) and q_j = p_j e^{-l_j}:

    beta(alpha) = sup_{s > 0} [G(s) - s alpha],   G(s) = E_P[min(1, s e^{-L})] = sum_j min(p_j, s q_j)

(``numeric.pld``'s duality: 1 - D(s) = G(s) for a law of total mass 1, the +inf atom giving min(1, 0) = 0).
G is concave and piecewise linear with kinks at s_j = p_j / q_j; at the kink t its value minus s alpha is

    V_t = P_{<=t} + s_t (Q_{>t} - alpha),

so beta = max(0, max_t V_t), and the maximum is where the slope Q_{>t} - alpha changes sign.

Bounds.  G increases with every p_j and q_j.  Lower end: the lower measure's masses (below the true ones; the
tails beyond the table dropped) and q_j rounded down give a function below G at every s, so its value minus
s alpha at any s is a lower end; it is taken at the grid points around the sign change.  Upper end: the upper
masses, plus the table's left tail as a constant (mass at smaller losses contributes at most its mass) and its
right tail added to the last atom (it lies at larger losses, where min(1, s e^{-l}) is smaller), and q_j
rounded up give a function G_up above G.  G_up - s alpha is concave, so its supremum lies in [s_a, s_b] once
its left slope at s_a is proved >= 0 and its right slope at s_b <= 0 (``_slope_sum``), at a kink inside or at
an end; those points are evaluated termwise.  Float error: each evaluation sum_j min(p_j, s q_j) is bounded
termwise (a product within 2u plus the smallest subnormal, a sum of n non-negative terms within 2 (n + 2) u;
``_g``); e^{-l_j} is numpy's (assumption A1 of ``numeric.pld``) at the float l_j = k_j float(h), whose
relative error 2 u |l_j| is in the slack of ``_q``; a kink is read at its float value, within 4u of the exact
one, and the value moved by at most 4u s times the steepest slope there (``_steep``); the terms are combined in
mpmath at 256 bits with outward slack (``_combine``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from .pld_discretise import U
from .pld_fft import A1


def _q(p, l, sign: int):
    """q_j = p_j e^{-l_j} rounded up (+1: plus the smallest subnormal, for products that underflow) or down (-1)."""
    slack = A1 + 4 * U * (1 + np.abs(l))
    with np.errstate(under="ignore", over="ignore"):
        q = p * np.exp(-l) * (1 + sign * slack)
    return q + TINY if sign > 0 else np.maximum(q - TINY, 0.0)


#: the smallest positive float64 (the absolute error of a product that lands in the subnormal range)
TINY = 5e-324


def _g(p, q, s: float, sign: int) -> float:
    """sum_j min(p_j, s q_j) of float arrays at the float s, rounded up (+1) or down (-1): every product and the
    sum of n non-negative terms within their relative error (a product u plus TINY, and the rounding of the
    factor itself: (1 - u)^2 (1 + 4u) > 1 > (1 + u)^2 (1 - 2u); the sum 2 n u)."""
    with np.errstate(under="ignore", over="ignore"):
        sq = s * q
    sq = sq * (1 + 4 * U) + TINY if sign > 0 else np.maximum(sq * (1 - 2 * U) - TINY, 0.0)
    tot = float(np.sum(np.minimum(p, sq)))
    return tot * (1 + 2 * (len(p) + 2) * U) + len(p) * TINY if sign > 0 else tot * (1 - 2 * (len(p) + 2) * U)


def _slope_sum(p, q, s: float, side: int) -> Fraction:
    """A bound of the Q-mass of the atoms whose kink p/q lies above s, as an exact Fraction: side +1 an upper
    bound (every atom whose kink may lie above s: the right derivative of G at s is this minus alpha), side -1
    a lower bound (the atoms whose kink surely lies at or above s: the left derivative)."""
    with np.errstate(under="ignore", over="ignore"):
        sq = s * q
    if side > 0:
        tot = float(np.sum(q[p >= sq * (1 - 8 * U)]))
        return Fraction(tot) * (1 + Fraction(2 * (len(q) + 2), 2 ** 53)) + len(q) * Fraction(TINY)
    tot = float(np.sum(q[p >= sq * (1 + 8 * U) + TINY]))
    return Fraction(tot) * (1 - Fraction(2 * (len(q) + 2), 2 ** 53))


def _steep(p, q, s: float, alpha: float) -> float:
    """An upper bound of |slope| of G - s alpha on [s (1 - 8u), s (1 + 8u)]: by concavity between the right
    slope at the left end (at most the Q-mass of kinks above it, minus alpha) and the left slope at the right
    end (at least -alpha)."""
    return max(float(_slope_sum(p, q, s * (1 - 16 * U), +1)), alpha) * (1 + 8 * U)


def _combine(terms, sign: int):
    """sum of (coefficient, float) terms in mpmath at 256 bits, moved outward by 2^-240 of the terms' sizes."""
    with mpmath.workprec(256):
        vals = [mpmath.mpf(c.numerator) / c.denominator * mpmath.mpf(x) if isinstance(c, Fraction) else c * mpmath.mpf(x)
                for c, x in terms]
        tot = mpmath.fsum(vals)
        return tot + sign * mpmath.fsum(abs(v) for v in vals) * mpmath.mpf(2) ** -240


def _sign_change(q, alpha: float) -> int:
    """The first index t whose float suffix sum Q_{>t} is at most alpha (the suffix sums decrease): where the slope
    of G - s alpha changes sign, an estimate only (the bounds are proved around it)."""
    suf = np.concatenate((np.cumsum(q[::-1])[::-1][1:], [0.0]))
    return min(int(np.searchsorted(-suf, -alpha)), len(q) - 1)


def _bracket(meas_up, meas_lo, h: Fraction, alpha: Fraction):
    import math
    hf = float(h)
    l = meas_up.knots.astype(float) * hf
    if len(l) < 1 or not np.array_equal(meas_up.knots, meas_lo.knots):
        return None
    left, right = meas_up.tails
    pu = meas_up.mass.copy()
    pu[-1] = (pu[-1] + right) * (1 + 4 * U)
    qu, pl = _q(pu, l, +1), meas_lo.mass
    ql = _q(pl, l, -1)
    fa = float(alpha)
    if not np.all(np.isfinite(qu)):
        return None
    n = len(l)
    # the kink where the slope Q(kinks above) - alpha changes sign (float estimate: suffix sums decrease)
    t0 = _sign_change(qu, fa)
    with np.errstate(over="ignore", divide="ignore"):
        kink = pu / qu
    # upper end: G_up - s alpha is concave, so its supremum lies between a point sa whose left slope is >= 0
    # (or s -> 0) and a point sb whose right slope is <= 0, at a kink or at sa, sb; the kinks in between are
    # evaluated at their float values: an exact kink is within 4u of one (or of sa, sb), which moves the value
    # by at most 4u s times the steepest slope within 8u of s (``_steep``), added
    w = 2
    while True:
        ta, tb = max(t0 - w, 0), min(t0 + w, n - 1)
        if l[tb] > 700 or l[ta] < -700:
            return None                    # (s beyond the float range: the engine answers)
        sa = 0.0 if ta == 0 else math.exp(l[ta]) * (1 - 1e-9)
        sb = math.exp(l[tb]) * (1 + 1e-9)
        if not math.isfinite(sb):
            return None
        if (sa == 0.0 or _slope_sum(pu, qu, sa, -1) >= alpha) and _slope_sum(pu, qu, sb, +1) <= alpha:
            break
        if ta == 0 and tb == n - 1:
            return None
        w *= 4
    pts = [x for x in kink[(kink >= sa) & (kink <= sb)].tolist() if x > 0] + [sb] + ([sa] if sa > 0 else [])
    if len(pts) > 256:
        return None                        # (each point costs a pass over the law: the engine answers)
    up = max([_combine([(1, left), (1, _g(pu, qu, x, +1)), (-alpha, x), (4 * U, x * _steep(pu, qu, x, fa))], +1)
              for x in pts] + [_combine([(1, left)], +1)])
    # lower end: the lower function minus s alpha at any s is below beta; the grid kinks around its sign change
    t1 = _sign_change(ql, fa)
    lo = mpmath.mpf(0)
    for t in range(max(t1 - 2, 0), min(t1 + 3, n)):
        x = math.exp(l[t]) if l[t] < 700 else math.inf
        if math.isfinite(x):
            lo = max(lo, _combine([(1, _g(pl, ql, x, -1)), (-alpha, x)], -1))
    return max(lo, mpmath.mpf(0)), min(up, mpmath.mpf(1))


def beta_bracket(comp, alpha: Fraction):
    """(beta_lower, beta_upper) of ``comp`` (a ``numeric.pld.Composition``) when it is one direction and one
    lattice law with pointwise mass bounds (module docstring), else None."""
    if len(comp.directions) != 1:
        return None
    ups, los, _ = comp._measures(0, 0.0)
    if len(ups) != 1 or ups[0][1] != 1 or los[0][1] != 1 or getattr(ups[0][0], "tails", None) is None:
        return None
    return _bracket(ups[0][0], los[0][0], comp.h, alpha)
