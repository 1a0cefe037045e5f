"""Root finders and 1-D maximisers with a guaranteed bracket, written once (issue #24 item 3): every
root or extremum loop of derive/, numeric/ and proofs_check/ is one of these (tests/test_no_root_loops.py
keeps new hand-written ones out).

* ``crossing``           sign change of an mp function: Anderson-Bjorck, checked, bisection fallback
* ``bisect``             bisection on a monotone predicate (mpf, float, Fraction, Rational, int)
* ``bisect_array``       the same on numpy float arrays, elementwise
* ``illinois_bracket``   Illinois regula falsi on a decreasing function, bracket kept (dpsgd calibration)
* ``newton``             plain Newton from a good start (e.g. the normal quantile)
* ``newton_in_bracket``  safeguarded Newton inside a guaranteed bracket
* ``brent_root``         scipy.optimize.brentq / toms748 for a scalar float root, bracket checked
* ``illinois``           vectorised float64 Illinois regula falsi (numeric.fp's profile inverse)
* ``golden_max``         golden-section maximisation of a unimodal function

Each function's docstring states its tolerance and its bracket guarantee.

``crossing(g, a, b, left_positive)`` returns the point where ``g`` changes sign in [a, b] at the working
precision of mpmath (the caller's ``workdps``): the Anderson-Bjorck bracketing method
(``mpmath.findroot(solver="anderson")``), whose iterates stay inside the bracket and which needs about
8 evaluations where bisection needs ``prec``; its answer is accepted only if it lies in [a, b] and ``g``
changes sign within 2^-(prec - 4) (relative) of it, else plain bisection to the same width decides.  So the
result is always within the bracket and within one tolerance of a sign change of ``g``, whatever the
accelerated method does.
"""

from __future__ import annotations

import mpmath


def crossing(g, a, b, left_positive: bool):
    """The sign change of ``g`` in [a, b]; ``g(a) > 0`` iff ``left_positive`` (the caller's bracket)."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 4) * max(1, abs(a), abs(b))

    def left(x):
        return (g(x) > 0) == left_positive
    try:
        root = mpmath.findroot(g, (a, b), solver="anderson", maxsteps=200)
        if a <= root <= b and left(root - tol) != left(root + tol):
            return root
    except (ValueError, ZeroDivisionError):
        pass
    while b - a > tol:
        m = (a + b) / 2
        if left(m):
            a = m
        else:
            b = m
    return (a + b) / 2


# ----------------------------------------------------------------------------------------------
# bisection on a predicate


def midpoint(lo, hi):
    """(lo + hi) / 2: the arithmetic midpoint (mpf, float, Fraction or SymPy Rational alike)."""
    return (lo + hi) / 2


def geometric_midpoint(lo, hi):
    """sqrt(lo hi) for 0 < lo < hi (mpf): bisection in log x without taking logs."""
    return mpmath.sqrt(lo * hi)


def integer_midpoint(lo, hi):
    """(lo + hi) // 2: bisection over the integers."""
    return (lo + hi) // 2


def bisect(pred, lo, hi, *, steps=None, stop=None, mid=midpoint, strict=False):
    """Bisection on a monotone predicate: returns the final bracket ``(lo, hi)``.

    The bracket guarantee: ``pred`` is true at ``lo`` and false at ``hi`` (the caller's bracket;
    not re-evaluated), each step evaluates ``pred(m)`` once at ``m = mid(lo, hi)`` and moves
    ``lo = m`` when it is true, else ``hi = m``, so the invariant holds for the returned bracket
    with whatever arithmetic the ends carry (mpf, float, Fraction, SymPy Rational, int).

    The tolerance is the caller's, stated by ``stop`` and ``steps``: before each step the search
    ends when ``stop(lo, hi)`` is true (e.g. ``hi - lo <= tol * hi``); at most ``steps`` steps are
    taken (``None``: no limit, then ``stop`` is required).  With ``strict`` it also ends when
    ``m`` is not strictly inside (lo, hi) (the ends are adjacent numbers: no finer bracket exists).
    ``mid`` is ``midpoint`` (arithmetic), ``geometric_midpoint`` or ``integer_midpoint`` (then
    ``stop=lambda lo, hi: hi - lo <= 1`` gives adjacent integers), or the caller's own rule.
    """
    if steps is None and stop is None:
        raise ValueError("bisect: give steps, stop, or both")
    k = 0
    while steps is None or k < steps:
        if stop is not None and stop(lo, hi):
            break
        m = mid(lo, hi)
        if strict and not lo < m < hi:
            break
        if pred(m):
            lo = m
        else:
            hi = m
        k += 1
    return lo, hi


def illinois_bracket(g, lo, hi, g_lo, g_hi, *, stop, point, mid):
    """Illinois regula falsi on a decreasing function: returns the final bracket ``(lo, hi)``.

    The bracket guarantee, as for ``bisect``: ``g(lo) > 0 >= g(hi)`` on entry (the caller's values
    ``g_lo``, ``g_hi``, not re-evaluated), and every step evaluates ``g`` once at a point strictly
    inside and replaces the end of the same sign, so the invariant holds for the returned bracket.
    The point is ``point(lo, hi, t)`` at the secant fraction t = g_lo / (g_lo - g_hi) in (0, 1)
    (the caller's coordinates, e.g. geometric interpolation in log sigma); where the values are not
    finite, or the point is not strictly inside, it is ``mid(lo, hi)``.  An end kept twice in a row
    has its value halved (Illinois), so both ends close in: superlinear where ``g`` is smooth,
    where plain regula falsi keeps moving one end only.  The search ends when ``stop(lo, hi)``.
    """
    import math
    kept = 0                # +1: lo was replaced last, -1: hi was
    while not stop(lo, hi):
        c = None
        if math.isfinite(g_lo) and math.isfinite(g_hi) and g_lo > g_hi:
            c = point(lo, hi, g_lo / (g_lo - g_hi))
        if c is None or not lo < c < hi:
            c = mid(lo, hi)
            if not lo < c < hi:
                break
        gc = g(c)
        if gc > 0:
            lo, g_lo = c, gc
            if kept == 1:
                g_hi /= 2
            kept = 1
        else:
            hi, g_hi = c, gc
            if kept == -1:
                g_lo /= 2
            kept = -1
    return lo, hi


def bisect_array(pred, lo, hi, steps: int):
    """Vectorised bisection (numpy float arrays): ``steps`` halvings of every bracket at once.

    ``pred(m)`` returns a boolean array, true where the crossing is right of ``m``; each step sets
    ``lo = m`` there and ``hi = m`` elsewhere, so every element keeps the caller's bracket
    (``pred(lo)`` true, ``pred(hi)`` false); after ``steps`` steps the width is the initial width
    times 2^-steps (60 steps on [0, 1]: below float64's resolution).  Returns (lo, hi)."""
    import numpy as np
    for _ in range(steps):
        m = (lo + hi) / 2
        right = pred(m)
        lo, hi = np.where(right, m, lo), np.where(right, hi, m)
    return lo, hi


# ----------------------------------------------------------------------------------------------
# Newton


def newton(step, x, tol, *, steps=200, polish=True, strict=True):
    """Newton's method from ``x``: ``x -= step(x)`` until ``|step| <= tol * max(|x|, 1)``.

    ``step(x)`` is the Newton step f(x)/f'(x) (any form of it the caller prefers).  The tolerance:
    the loop stops at the first step below ``tol`` (relative, absolute below 1); with ``polish``
    one more step follows, which quadratic convergence makes of order ``tol^2`` (so ``tol`` ~ the
    square root of the working precision suffices).  No bracket: the caller's start must be in the
    basin of quadratic convergence (use ``newton_in_bracket`` otherwise).  After ``steps`` steps
    without convergence: ArithmeticError if ``strict``, else the last iterate."""
    for _ in range(steps):
        s = step(x)
        x -= s
        if abs(s) <= tol * max(abs(x), 1):
            if polish:
                x -= step(x)
            return x
    if strict:
        raise ArithmeticError("newton: the iteration did not converge")
    return x


def newton_in_bracket(probe, lo, hi, tol, steps):
    """Safeguarded Newton inside a guaranteed bracket [lo, hi] (mpf), for a root of a decreasing
    (or increasing) function: returns a point within ``tol * hi`` of the root, never outside [lo, hi].

    ``probe(x)`` returns ``(right, step)``: ``right`` is true when the root lies right of ``x`` (then
    ``lo = x``, else ``hi = x``: the bracket stays guaranteed), ``step`` a callable giving the Newton
    step (or None where there is none).  The iteration starts at the midpoint; a Newton iterate that is
    not strictly inside the updated bracket is replaced by the midpoint (bisection), so the bracket at
    least halves every other step.  Stops and returns ``hi`` once ``hi - lo <= tol * max(|lo|, |hi|)`` (a
    bracket of either sign), or returns
    the Newton iterate once its step is below ``tol * |x|``; after ``steps`` steps, ``hi``."""
    x = (lo + hi) / 2
    for _ in range(steps):
        right, step_fn = probe(x)
        if right:
            lo = x
        else:
            hi = x
        if hi - lo <= tol * max(abs(lo), abs(hi)):
            return hi
        step = step_fn()
        if step is not None and abs(step) <= tol * abs(x):
            # converged (an exact root gives step 0; x is an end of the bracket, and x - step stays within
            # tol of it: clamped into the bracket)
            return min(max(x - step, lo), hi)
        nxt = x - step if step is not None else None
        if nxt is None or not lo < nxt < hi:
            nxt = (lo + hi) / 2
        x = nxt
    return hi


# ----------------------------------------------------------------------------------------------
# float roots


def brent_root(f, a: float, b: float, *, xtol: float = 2e-12, rtol: float = 8.881784197001252e-16,
               method: str = "brentq", maxiter: int = 200) -> float:
    """A root of the float function ``f`` in [a, b] by ``scipy.optimize.brentq`` (or ``toms748``).

    The bracket guarantee: ``f(a)`` and ``f(b)`` must have opposite signs (checked: ValueError
    otherwise; an end where f is 0 is returned as it is), and the result lies in [a, b].  The
    tolerance is scipy's: ``|x - x*| <= xtol + rtol |x*|`` for the true sign change x* in [a, b]
    (rtol defaults to 4 float64 ulps, scipy's floor)."""
    from scipy import optimize
    fa, fb = f(a), f(b)
    if fa == 0:
        return float(a)
    if fb == 0:
        return float(b)
    if (fa > 0) == (fb > 0):
        raise ValueError(f"brent_root: f({a}) = {fa} and f({b}) = {fb} do not bracket a root")
    solver = {"brentq": optimize.brentq, "toms748": optimize.toms748}[method]
    return float(solver(f, a, b, xtol=xtol, rtol=rtol, maxiter=maxiter))


def illinois(g, a, b, ga, gb, t, iterations: int = 200):
    """Vectorised Illinois regula falsi in float64 over whole arrays (numeric.fp's profile inverse).

    Solves ``g(x, t) = 0`` elementwise for ``g`` decreasing in x, inside the guaranteed brackets
    ``a < b`` with ``ga = g(a, t) > 0 >= gb = g(b, t)`` (arrays of one shape).  Each step takes the
    secant point of the bracket (the midpoint where the values are not finite or equal, or where the
    secant point is not strictly inside), evaluates it, and replaces the end of the same sign; an end
    kept twice in a row has its value halved (Illinois), so convergence is superlinear also where g is
    convex.  The bracket is kept: ``g(b) <= 0`` always.  Ends when every width is at most
    4 float64 ulps of |b| (or 1e-300), or after ``iterations`` steps; returns ``b`` (the end at or past
    the root: ``g(b, t) <= 0``)."""
    import numpy as np
    side = np.zeros(a.shape)
    for _ in range(iterations):
        width = b - a
        if not (width > 4 * np.finfo(float).eps * np.maximum(np.abs(b), 1e-300)).any():
            break
        finite = np.isfinite(ga) & np.isfinite(gb) & (ga != gb)
        with np.errstate(all="ignore"):
            x = np.where(finite, b - gb * (b - a) / (gb - ga), (a + b) / 2)
        bad = ~((x > a) & (x < b))
        x = np.where(bad, (a + b) / 2, x)
        gx = g(x, t)
        right = gx <= 0                                   # the root is left of x: x becomes b
        # Illinois: halve the stale end's value when the same end is kept twice
        ga = np.where(right & (side == 1), ga / 2, ga)
        gb = np.where(~right & (side == -1), gb / 2, gb)
        a, ga = np.where(right, a, x), np.where(right, ga, gx)
        b, gb = np.where(right, x, b), np.where(right, gx, gb)
        side = np.where(right, 1, -1)
    return b


# ----------------------------------------------------------------------------------------------
# 1-D maximisation

#: 1 - 1/phi = (3 - sqrt 5)/2, the golden-section fraction
GOLDEN = (3 - mpmath.sqrt(5)) / 2


def golden_max(h, lo, hi, iterations=None, *, rel_tol=None):
    """Maximise a unimodal ``h`` on [lo, hi] by golden-section search: returns (argmax, max).

    mpf arithmetic at the working precision, or float64 when ``lo`` and ``hi`` are both floats.

    The bracket guarantee: the interior points c < d stay in [lo, hi], and for a unimodal h the
    maximiser stays in the current [a, b].  The tolerance: the search ends when
    ``b - a <= rel_tol * max(1, |a|, |b|)``, ``rel_tol`` defaulting to 2^-(prec/2 + 8) (the argmax to
    about half the working precision, which puts the value within the working precision for a smooth
    maximum), or after ``iterations`` steps (default 4 prec + 200, never reached by that tolerance).
    The returned pair is the better of the two interior points (c on a tie); the caller compares
    with the ends if the maximum can sit there."""
    prec = mpmath.mp.prec
    if isinstance(lo, float) and isinstance(hi, float):     # float arithmetic throughout
        g, a, b = float(GOLDEN), lo, hi
        prec = 53
    else:
        g, a, b = mpmath.mpf(GOLDEN), mpmath.mpf(lo), mpmath.mpf(hi)
    c, d = a + g * (b - a), b - g * (b - a)
    hc, hd = h(c), h(d)
    if rel_tol is not None:
        tol = rel_tol
    else:
        tol = 2.0 ** -(prec // 2 + 8) if isinstance(a, float) else mpmath.ldexp(1, -(prec // 2 + 8))
    for _ in range(iterations or 4 * prec + 200):
        if b - a <= tol * max(1, abs(a), abs(b)):
            break
        if hc >= hd:
            b, d, hd = d, c, hc
            c = a + g * (b - a)
            hc = h(c)
        else:
            a, c, hc = c, d, hd
            d = b - g * (b - a)
            hd = h(d)
    return (c, hc) if hc >= hd else (d, hd)
