"""The certified ends of the power 1 - beta(alpha) read from the engine's delta bounds on the grid
(the argument is ``numeric.pld``'s docstring, "power = inf_eps [delta(eps) + e^eps alpha]"): ``tradeoff``
(the query behind ``numeric.pld.Composition.tradeoff``), ``exp_up`` / ``exp_down`` (a float log value to an
mpmath bound) and ``power_lower`` (the lower end from the certified lower values)."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import numpy as np

from . import pld_mechanisms as M
from .lattice_beta import beta_bracket
from .pld_results import TradeoffResult


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


def tradeoff(comp, alpha) -> TradeoffResult:
    """beta(alpha) of the engine's composition ``comp`` (``numeric.pld.Composition.tradeoff``) as a certified
    bracket: power = inf_eps [max_d delta_d(eps) + e^eps alpha] read from the directions' delta bounds on the
    grid, its upper end at the best grid point, its lower end by ``power_lower``."""
    t0 = time.perf_counter()
    al = M.exact(alpha, "alpha")
    if not 0 <= al <= 1:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    if al in (0, 1):
        # f(1) = 0; f(0) = 1 - power with power = inf_eps max_d delta_d(eps) = max_d P_d(L = +inf), bracketed
        # by the +inf masses past every finite loss (``_beyond_support``; --alpha 0 raised a traceback)
        one = mpmath.mpf(1)
        ends = [comp._beyond_support(d, Fraction(10 ** 30)) for d in comp.directions] if al == 0 else [(one, one)]
        pu, pl = min(max(e[0] for e in ends), one), max(e[1] for e in ends)
        return TradeoffResult(alpha=al, beta=1 - pu, beta_lower=1 - pu, beta_upper=1 - pl, power=pu,
                              power_upper=pu, power_lower=pl, seconds=time.perf_counter() - t0)
    direct = beta_bracket(comp, al)         # one lattice law: beta from its masses, relative (numeric.lattice_beta)
    if direct is not None:
        bl, bu = direct
        with mpmath.workprec(80):
            return TradeoffResult(alpha=al, beta=bl, beta_lower=bl, beta_upper=bu, power=1 - bl, power_upper=1 - bl,
                                  power_lower=1 - bu, seconds=time.perf_counter() - t0)
    la = float(mpmath.log(mpmath.mpf(al.numerator) / al.denominator))
    notes = []
    per = []
    lo_i, hi_i = None, None
    tops = []
    for d in comp.directions:
        lam, eg, bucket = comp._tilt_for(d, la, "alpha")
        cu, cl, gu, gl, nt = comp._composed(d, lam, eg, bucket)
        notes += nt
        # the pessimistic measure's largest finite loss: above it its delta is its +inf mass
        ups_d, _, _ = comp._measures(d, bucket, lower=False)
        tops.append((sum(k * int(m.knots[-1]) for m, k in ups_d) * comp.h, cu.log_inf))
        per.append((d, lam, eg, bucket))
        a, b = cu.W0, cu.W0 + len(gu)
        lo_i = a if lo_i is None else max(lo_i, a)
        hi_i = b if hi_i is None else min(hi_i, b)
    if lo_i is None or hi_i <= lo_i:
        lo_i = min(p[2] for p in per)
    idx = np.arange(lo_i, hi_i)
    hf = comp._hf()
    ups, los = [], []
    for d, lam, eg, bucket in per:
        up, lo, _ = comp._dir_bounds(d, lam, idx, eg, bucket)
        ups.append(up)
        los.append(lo)
    U_ = np.max(ups, axis=0)
    l = idx * hf
    tal = la + l                   # log(e^eps alpha)
    objU = np.logaddexp(U_, tal)
    j = int(np.argmin(objU))
    # power upper: value at the best grid point (any eps gives an upper bound), certified form
    pu = exp_up(objU[j])
    # at eps = the largest finite loss of every pessimistic measure, delta_upper is the +inf
    # mass: power <= P(+inf) + e^top alpha (tight when alpha sits in the top atom)
    top = max(t for t, _ in tops)
    log_inf = max(li for _, li in tops)
    with mpmath.workprec(80):
        cand = mpmath.exp(mpmath.mpf(top.numerator) / top.denominator) * (mpmath.mpf(al.numerator) / al.denominator)
        if np.isfinite(log_inf):
            cand += exp_up(log_inf)
        cand *= 1 + mpmath.mpf(2) ** -60
    pu = min(pu, cand)
    # power lower: exact minimum over cells of max over directions of the lines through the
    # lower end-point values (module docstring); lines are linear in t = e^eps
    pl = power_lower(los, idx, la, hf)
    # outside the common window: below it delta >= every lower value in it (delta decreases in eps; the
    # value at its first point alone was -inf in weakly private compositions, and the power's lower end
    # 0), above it e^eps alpha; and power >= alpha for every pair (the test that ignores the data)
    bottom = max(float(np.max(x)) for x in los)
    pl = min(pl, exp_down(bottom), exp_down(la + idx[-1] * hf))
    pu, pl, beta_lower, beta_upper = _with_alpha(pu, pl, al)
    return TradeoffResult(alpha=al, beta=beta_lower, beta_lower=beta_lower, beta_upper=beta_upper,
                          power=pu, power_upper=pu, certified=True,
                          seconds=time.perf_counter() - t0, reason="; ".join(notes), power_lower=pl)


def _with_alpha(pu, pl, al: Fraction):
    """(power upper, power lower, beta lower, beta upper) from the power's ends and the exact alpha: power <= 1, and
    power >= alpha (the test that ignores the data) with alpha rounded down, beta <= 1 - alpha from the exact 1 - alpha
    rounded up.  (alpha rounded to nearest was 1.0 at alpha = 1 - 10^-20: power_lower 1, and beta in [0, 0] excluded
    1.9e-46 for G_0.5 x 100; issue #25's seventeenth-session probe.)"""
    one = mpmath.mpf(1)
    a_down = float(al)
    if Fraction(a_down) > al:
        a_down = math.nextafter(a_down, 0.0)
    pu = min(pu, one)
    pl = min(max(pl, mpmath.mpf(a_down)), one)
    # 1 - p exactly (no rounding of either end: 1 - pu rounded to nearest could pass the true beta, and the two
    # ends rounded at different precisions crossed, beta_lower > beta_upper by 1e-17 at G_0.1, alpha = 1e-14)
    beta_lower = max(mpmath.fsub(one, pu, exact=True), mpmath.mpf(0))
    with mpmath.workprec(64):
        cap = mpmath.mpf(al.denominator - al.numerator) / al.denominator * (1 + mpmath.mpf(2) ** -60)
    beta_upper = min(max(mpmath.fsub(one, pl, exact=True), mpmath.mpf(0)), cap)
    return pu, pl, beta_lower, beta_upper
