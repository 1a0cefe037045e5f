"""The certified ends of the power 1 - beta(alpha) read from the engine's delta bounds on the grid
(``numeric.pld.Composition.tradeoff``; the argument is ``numeric.pld``'s docstring, "power = inf_eps
[delta(eps) + e^eps alpha]"): ``exp_up`` / ``exp_down`` (a float log value to an mpmath bound) and
``power_lower`` (the lower end from the certified lower values)."""

from __future__ import annotations

import math

import mpmath
import numpy as np


def exp_up(x):
    """A float log value x as an mpmath number >= e^x (the float log carries the relative slack A1)."""
    with mpmath.workprec(80):
        return mpmath.exp(mpmath.mpf(float(x)) + 1e-12 * (1 + abs(float(x))))


def exp_down(x):
    """An mpmath number <= e^x (0 for x = -inf)."""
    if not np.isfinite(x):
        return mpmath.mpf(0)
    with mpmath.workprec(80):
        return mpmath.exp(mpmath.mpf(float(x)) - 1e-12 * (1 + abs(float(x))))


def power_lower(los, idx, la: float, hf: float):
    """A lower end of inf_eps [max_d delta_d(eps) + e^eps alpha] from the directions' certified lower log
    delta values ``los`` at the grid indices ``idx`` (grid step hf, la = log alpha): the smallest over the
    cells of max_d line_d(t) + t alpha, the lines through the lower values (linear in t = e^eps).

    On a cell the max of the (one or two) lines is convex, so its minimum is at an end or, for two
    lines whose slopes have opposite signs, at their crossing; there it is bounded below by the
    constant combination w line_0 + (1 - w) line_1 (w in [0, 1] chosen to cancel the slopes), taken
    as the smaller of its values at the cell's two ends, so a rounded w still gives a lower bound
    (the max of two numbers is >= any convex combination of them).  Each cell keeps the larger of that
    and the monotone bound (below); the result is the smallest cell's.  Every float operation there
    combines non-negative numbers (relative error a few ulp) or is numpy's exp (A1); the final
    margin 1e-11 covers both."""
    # work relative to a reference scale to stay in float range
    L_ = np.max(los, axis=0)
    l = idx * hf
    ref = float(np.min(np.logaddexp(L_, la + l)))
    vals = [np.exp(np.clip(x - ref, -745, 700)) for x in los]
    # alpha t at the grid points, scaled (clipped: a smaller value only lowers the lower bound)
    alpha_t = np.exp(np.clip(la + l - ref, -745, 700))
    V = [v + alpha_t for v in vals]       # lines at grid points
    Vm = np.max(V, axis=0)
    if len(Vm) < 2:
        return exp_down(ref + math.log(max(float(np.min(Vm)), 1e-300)) - 1e-11)
    cell = np.minimum(Vm[:-1], Vm[1:])    # a cell's lines at its ends
    if len(V) == 2:
        a0, a1 = V[0][:-1], V[0][1:]
        b0, b1 = V[1][:-1], V[1][1:]
        da, db = a0 - b0, a1 - b1
        sa, sb = a1 - a0, b1 - b0
        # the crossing cells (and those where the order is within rounding of changing), slopes opposite
        near = 1e-12 * np.maximum(np.maximum(a0, a1), np.maximum(b0, b1))
        cross = ((da * db < 0) | (np.minimum(np.abs(da), np.abs(db)) <= near)) & (sa * sb < 0)
        if cross.any():
            w = np.abs(sb[cross]) / (np.abs(sa[cross]) + np.abs(sb[cross]))
            w = np.clip(w, 0.0, 1.0)
            at0 = w * a0[cross] + (1 - w) * b0[cross]
            at1 = w * a1[cross] + (1 - w) * b1[cross]
            cell[cross] = np.minimum(cell[cross], np.minimum(at0, at1))
    # monotonicity: a cell's power >= the largest lower value from its right end on + alpha t at its left
    # end (a window whose lower values were -inf at small eps gave power >= 0: beta_upper 1 for 100 x
    # Laplace(0.1) at alpha = 1e-5)
    cell = np.maximum(cell, right_max(vals) + alpha_t[:-1])
    return exp_down(ref + math.log(max(float(np.min(cell)), 1e-300)) - 1e-11)


def right_max(vals):
    """For each cell i (between grid points i and i + 1): max over directions d of max_{j > i} vals_d[j].
    delta_d decreases in eps, so delta_d(eps) >= vals_d[j] at every eps below grid point j: on cell i,
    max_d delta_d >= this value."""
    return np.max([np.maximum.accumulate(v[::-1])[::-1][1:] for v in vals], axis=0)
