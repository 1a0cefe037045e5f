"""Root finders with a guaranteed bracket, written once (issue #24 item 3; more callers move here over time).

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
