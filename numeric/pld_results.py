"""The records a certified composition answers with (numeric.pld): delta(eps), eps(delta) and a point of the
trade-off curve, each with its certified bracket, whether it is certified, the time and the reason if not."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from .display import ResultDisplay


@dataclass(frozen=True)
class DeltaResult(ResultDisplay):
    eps: object
    delta: object
    delta_lower: object
    delta_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class EpsResult(ResultDisplay):
    delta: object
    eps: object
    eps_lower: object
    eps_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class TradeoffResult(ResultDisplay):
    alpha: object
    beta: object
    beta_lower: object
    beta_upper: object
    power: object
    power_upper: object = None
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""
    #: certified lower end of the power 1 - f(alpha) (kept apart: 1 - beta_upper loses it near 1)
    power_lower: object = None


def _top(model):
    """The largest finite loss: the largest atom, exactly, for a step that is only its atoms (randomized
    response), else the float ``hi`` with a relative margin of 2^-40 (far above its rounding)."""
    from fractions import Fraction
    if getattr(model, "atomic", False) and model.atoms:
        return max(Fraction(a.value) for a in model.atoms)
    hi = Fraction(float(model.hi))
    return hi + abs(hi) * Fraction(1, 2 ** 40)


def loss_cap(entries):
    """A proved upper end of eps(delta) for every delta > 0, or None: when every step of every direction
    has no mass at L = +inf and a finite largest loss ``hi``, the composed loss is at most
    sum k_j hi_j, so delta(eps) = 0 there and eps(delta) <= that sum.  (The engine's tilted windows
    answered 3 x RR(1) at delta = 1e-15 with eps_upper = 3.77 and 3 x RR(20) at 1e-300 with 3360.)  ``hi``
    is a float end of the support (numeric.pld_mechanisms.LossModel), see ``_top``."""
    from fractions import Fraction
    total = Fraction(0)
    for mech, k in entries:
        for model in mech.directions:
            hi = float(getattr(model, "hi", float("inf")))
            if not hi < float("inf") or model.p_inf() != 0:
                return None
        total += k * max(_top(m) for m in mech.directions)
    return max(total, Fraction(0))


def capped(r: EpsResult, entries) -> EpsResult:
    """``r`` with its upper end lowered to ``loss_cap`` where that is smaller (rounded up to mpf)."""
    import dataclasses

    import mpmath
    cap = loss_cap(entries)
    if cap is None:
        return r
    with mpmath.workprec(80):
        c = mpmath.mpf(cap.numerator) / cap.denominator
        c = c + abs(c) * mpmath.mpf(2) ** -60
    if not r.eps_upper > c:
        return r
    return dataclasses.replace(r, eps=c, eps_upper=c, eps_lower=min(r.eps_lower, c))


def infinite_eps(entries, delta):
    """eps(delta) = +inf, certified, when some direction's composed mass at L = +inf is above delta, else None.

    Why: delta(eps) = P(L = +inf) + E[(1 - e^(eps - L))_+ ; L finite] >= P(L = +inf) for every eps, so no
    finite eps reaches a delta below that mass.  The composed mass is 1 - prod_j (1 - m_j)^k_j (a step at
    +inf puts the sum there; the steps are independent), bounded below here from each step's Arb ball
    ``p_inf`` (its lower end, exact for approx-dp) in 80-bit arithmetic with a relative 2^-60 taken off, and
    compared with delta rounded up.  (The engine's tilted windows answered 3 x (1, 1e-3)-DP at delta =
    1e-300 with [514, inf], "not certified"; the truth is inf.)"""
    import math
    from fractions import Fraction

    import mpmath
    try:
        dl = Fraction(delta) if not isinstance(delta, Fraction) else delta
    except (TypeError, ValueError):
        return None                  # (the engine's own parser names the input)
    if not 0 < dl < 1:
        return None
    width = max(len(mech.directions) for mech, _ in entries)
    with mpmath.workprec(80):
        d_up = mpmath.mpf(dl.numerator) / dl.denominator * (1 + mpmath.mpf(2) ** -70)
        for d in range(width):
            s = mpmath.mpf(0)
            for mech, k in entries:
                ball = mech.directions[min(d, len(mech.directions) - 1)].p_inf()
                m = mpmath.mpf(max(math.nextafter(float(ball.lower()), -math.inf), 0.0))
                if m > 0:
                    s += k * mpmath.log1p(-min(m, mpmath.mpf(1)))
            mass = -mpmath.expm1(s) * (1 - mpmath.mpf(2) ** -60)
            if mass > d_up:
                inf = mpmath.inf
                return EpsResult(delta=dl, eps=inf, eps_lower=inf, eps_upper=inf,
                                 reason=f"the mass at L = +inf is above delta (at least {mpmath.nstr(mass, 6)})")
    return None


#: an eps(delta) bracket wider than this (relative) is asked again with a finer knot tolerance (``refine_width``)
REFINE_RTOL = 1e-4
#: the finer knot tolerance's factor
REFINE_TOL = 1e-2


def intersect(a: EpsResult, b: EpsResult) -> EpsResult:
    """The intersection of two certified eps brackets of one query: each holds the true eps, so both ends do.  Two
    disjoint brackets cannot both hold it: that is a defect, raised rather than answered (an empty bracket would
    have been printed as a certified point)."""
    lo, hi = max(a.eps_lower, b.eps_lower), min(a.eps_upper, b.eps_upper)
    if lo > hi:
        raise ArithmeticError(f"two certified brackets of one query are disjoint: [{a.eps_lower}, {a.eps_upper}] "
                              f"and [{b.eps_lower}, {b.eps_upper}] at delta = {b.delta}")
    return dataclasses.replace(b, eps=hi, eps_lower=lo, eps_upper=hi,
                               reason="; ".join(x for x in dict.fromkeys((a.reason, b.reason)) if x))


def refine_width(r: EpsResult, again) -> EpsResult:
    """``r`` (a certified bracket on a query-adapted grid) or, when it is wider than REFINE_RTOL, its
    intersection with ``again()``: the same query at a knot tolerance REFINE_TOL times finer (or, ``finer_grid``,
    on half the grid step).  On the DP-SGD
    grid (issue #25) the cells left above 1e-4 at T = 100 and small q were mostly knot-limited: a 100x finer
    tolerance brought 0.001 / 5 / 100 / 1e-5 from 2.2e-4 to 2.5e-5 and 0.004 / 2 / 100 / 1e-5 from 1.2e-4 to
    1.3e-5 (BENCHMARKS.md, sixteenth session).  Only width and time move."""
    hi, lo = r.eps_upper, r.eps_lower
    if not (r.certified and 0 < hi < mpmath.inf) or hi - lo <= REFINE_RTOL * hi or 2 * lo <= hi:
        return r                    # (a lower end below half the upper one is not the knots' doing)
    r2 = again()
    if r2 is None or not r2.certified:
        return r
    return intersect(r, r2)


#: largest FFT window (points) of an eps(delta) query's second look on half the grid step (``finer_grid``): the window
#: doubles with it, and a T = 10^6 DP-SGD query on 2^23 points peaked near 750 MB (BENCHMARKS.md)
FINER_GRID_WINDOW = 1 << 23


def finer_grid(comp, sub, dl):
    """The eps(delta) query of ``comp`` again on half the grid step of its query composition ``sub`` and the finer knot
    tolerance of the second look before it (q = 0.004, sigma = 1.1, T = 100, delta = 1e-5 on 2^-13: 1.9e-4 wide at
    the query's tolerance, 7.9e-5 at the finer one), or None where that run's window would pass FINER_GRID_WINDOW
    points: the last second look of ``numeric.pld.Composition._eps``, for a bracket the query grid left wider than
    REFINE_RTOL (the grid's error model aims at ``Composition.QUERY_RTOL``, and its estimate of the discretisation
    error is rough: on the 160 DP-SGD cells its widths ranged over 20x).  Only width and time move: the brackets of
    both runs are certified, and ``refine_width`` intersects them."""
    from .pld_grid import _window_points
    if 2 * _window_points(sub) > FINER_GRID_WINDOW:
        return None
    return comp._try(comp._sub(sub.h / 2, sub.tol * REFINE_TOL).eps, dl)


#: the points below eps_upper (relative 2^-k) at which ``lower_by_delta`` asks delta's lower end: the lowest
#: first (if delta's lower end does not pass delta there, nearer points are not tried), then from the top
LOWER_STEPS = (5, 14, 11, 8)


def lower_by_delta(r: EpsResult, delta_at, delta) -> EpsResult:
    """``r`` with its lower end raised by delta(eps) queries when it is below half the upper end: if delta's
    certified lower end at e = eps_upper (1 - 2^-k) exceeds ``delta``, then delta(e) > delta and the true eps
    is above e (delta(eps) decreases), so e is a certified lower end; the largest such e of LOWER_STEPS is
    taken (each later point is tried only if the first, lowest one passed).  An eps(delta) query reads its lower end
    from the lower composition on the upper one's window; where that composition's own window misses the
    query's region (q = 0.001, sigma = 0.3, T = 100, delta = 1e-5: eps in [0, 11.0406]) its lower end was 0,
    while delta's lower end at 11 is 1.0382e-5 > 1e-5.  Each try is a delta query (0.3-1.5 s on the DP-SGD grid),
    so a bracket merely wider than REFINE_RTOL is left to ``refine_width``."""
    hi, lo = r.eps_upper, r.eps_lower
    if not (r.certified and 0 < hi < mpmath.inf) or 2 * lo > hi or delta < Fraction(1, 10 ** 280):
        return r                    # (delta's lower ends below ~1e-290 are not read: numeric.pld_fft.TINY_NORMAL)
    top = Fraction(float(hi)) if float(hi) <= hi else Fraction(float(hi)) * (1 - Fraction(1, 2 ** 52))
    with mpmath.workprec(200):
        dm = mpmath.mpf(delta.numerator) / delta.denominator         # delta a Fraction: rounded up, so > is strict
        dm = dm * (1 + mpmath.mpf(2) ** -190)
    best = None
    for i, k in enumerate(LOWER_STEPS):
        e = top * (1 - Fraction(1, 2 ** k))
        if mpmath.mpf(e.numerator) / e.denominator <= lo:
            break
        d = delta_at(e)
        if d is not None and d.certified and d.delta_lower > dm:
            best = e
            if i > 0:
                break
        elif i == 0:
            break                   # not even the lowest point: the others are nearer eps_upper
    if best is None:
        return r
    return dataclasses.replace(r, eps_lower=mpmath.mpf(best.numerator) / best.denominator)
