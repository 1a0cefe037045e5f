"""Outcome helpers shared by the claims: exact SymPy decisions, numeric agreement, inequality
sweeps with an adversarial search for the worst margin, and paper refutations.

Every helper can return FAILED: a SymPy check that is decided false, a row beyond the
tolerance, a margin below minus the verified error.  None of them turns an undecided or
false check into a pass.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

import mpmath
import sympy as sp

from numeric.solvers import golden_max

from .status import CONFIRMED, FAILED, INCONCLUSIVE, PROVEN, REFUTED, Outcome

# ---------------------------------------------------------------------------- SymPy decisions


def _probe(expr, probes):
    """The first probe point where ``expr`` (a difference that should be 0, or a relation that
    should hold) is definitely violated, evaluated at 50 digits; None if none is.

    The toolkit's heads (Phi, PhiInv, ...) are rewritten to erf/erfinv first, so that SymPy's
    ``N`` can evaluate them.
    """
    from derive.special import to_erf
    if probes:
        try:
            expr = to_erf(expr)
        except Exception:  # noqa: BLE001 - a head without an erf form: probe the expression as is
            pass
    for point in probes or ():
        try:
            value = expr.xreplace({k: sp.nsimplify(v) if not isinstance(v, sp.Basic) else v
                                   for k, v in point.items()})
            if isinstance(value, sp.Expr):
                num = sp.N(value, 50)
                if num.is_real is False:
                    continue
                if num.is_Number and abs(num) > sp.Float("1e-30", 50) * max(1, abs(num)):
                    return point, num
            elif value is sp.false:
                return point, value
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
            continue
    return None


def decide(value, probes=None):
    """True (the check closed), False (decided false) or None (undecided).

    ``value`` is what a symbolic check produced: a bool, a SymPy Boolean, or an expression that
    should simplify to 0.  A nonzero number, ``False``/``sympy.false`` and an expression SymPy
    knows to be nonzero are False.  An expression left with free symbols is False only when it
    is definitely nonzero at one of the claim's own ``probes`` (points of the claim's domain),
    else undecided.  Returns ``(verdict, witness)``.
    """
    if value is True or value is sp.true:
        return True, None
    if value is False or value is sp.false or value is None:
        return (False if value is not None else None), None
    if isinstance(value, (int, float)):
        return (value == 0), None
    if isinstance(value, sp.Expr):
        if value == 0:
            return True, None
        if value.is_zero is False or (value.is_Number and value != 0):
            return False, None
        hit = _probe(value, probes)
        return (False, hit) if hit else (None, None)
    if isinstance(value, sp.logic.boolalg.Boolean):
        hit = _probe(value, probes)
        return (False, hit) if hit else (None, None)
    return None, None


def proven_if(checks: dict, detail: str, fallback: Callable[[], Outcome] | None = None,
              probes=None) -> Outcome:
    """PROVEN when every SymPy check closed; FAILED when one is decided false; otherwise the
    numeric ``fallback`` (its outcome says that SymPy could not decide), or INCONCLUSIVE."""
    left = {}
    for name, value in checks.items():
        verdict, witness = decide(value, probes)
        if verdict is False:
            ce = {"check": name, "value": str(value)}
            if witness:
                ce.update(at={str(k): str(v) for k, v in witness[0].items()}, evaluates_to=str(witness[1]))
            return Outcome(FAILED, detail=f"SymPy decided check '{name}' false; {detail}",
                           counterexample=ce, method="sympy")
        if verdict is None:
            left[name] = value
    if not left:
        return Outcome(PROVEN, margin="0", detail=detail, method="sympy")
    why = "SymPy could not decide " + ", ".join(f"{k} (left {v})" for k, v in left.items())
    if fallback is None:
        return Outcome(INCONCLUSIVE, detail=why, method="sympy")
    out = fallback()
    out.detail = f"{why}; numeric fallback: {out.detail}"
    out.method = f"numeric (SymPy undecided): {out.method}"
    return out


def symbolic_zero(difference, detail: str, fallback=None, probes=None) -> Outcome:
    """``proven_if`` for one difference that should simplify to 0 (``sympy.simplify`` applied)."""
    return proven_if({"difference": sp.simplify(difference)}, detail, fallback, probes)


# ---------------------------------------------------------------------------- numeric agreement


def relative_error(value, reference):
    """|value - reference| / |reference| at 60 digits (absolute when the reference is 0)."""
    from numeric.precision import as_mpf
    with mpmath.workdps(60):
        v, r = as_mpf(value, 60), as_mpf(reference, 60)
        return (abs(v - r) / abs(r) if r != 0 else abs(v)), v, r


def agreement(rows: Iterable, tolerance, detail: str, extra_points: int = 0,
              method: str = "numeric") -> Outcome:
    """CONFIRMED when every ``(context, value, reference)`` row agrees within ``tolerance``;
    INCONCLUSIVE when there is no row (nothing was compared).

    The error is relative (absolute when the reference is 0), computed at 60 digits.  The first
    row beyond the tolerance gives FAILED with its context and both values; otherwise the margin
    is the worst error, ``worst_at`` its context and ``points`` the number of rows.
    """
    worst, worst_at, points, seen = mpmath.mpf(0), None, extra_points, 0
    for context, value, reference in rows:
        seen += 1
        err, v, r = relative_error(value, reference)
        points += 1
        if not err <= tolerance:   # also catches NaN
            return Outcome(FAILED, detail=detail, method=method, worst_at=context,
                           counterexample={**context, "value": str(v), "reference": str(r),
                                           "error": mpmath.nstr(err, 3)})
        if worst_at is None or err > worst:
            worst, worst_at = err, context
    if not seen:
        return Outcome(INCONCLUSIVE, detail=f"no rows to compare: {detail}", method=method)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points, detail=detail,
                   worst_at=worst_at, method=method)


# ---------------------------------------------------------------------------- inequality sweeps

def minimise(margin: Callable[[float], "mpmath.mpf"], lo: float, hi: float, grid: int = 41,
             starts: int = 3, iterations: int = 30):
    """Adversarial search for the smallest ``margin(t)`` on ``[lo, hi]``.

    An evenly spaced grid of ``grid`` points, then a golden-section descent inside the bracket
    of each of the ``starts`` worst grid points.  Returns ``(worst, t_worst, evaluations)``.
    This is a search, not a proof: it finds the worst margin of a unimodal dip exactly and
    otherwise a grid-resolution upper bound on the minimum.
    """
    seen = {}

    def m(t):
        if t not in seen:
            seen[t] = margin(t)
        return seen[t]

    ts = [lo + (hi - lo) * i / (grid - 1) for i in range(grid)]
    for t in ts:
        m(t)
    order = sorted(range(grid), key=lambda i: seen[ts[i]])[:starts]
    for i in order:
        a, b = ts[max(i - 1, 0)], ts[min(i + 1, grid - 1)]
        golden_max(lambda t: -m(t), float(a), float(b), iterations, rel_tol=0.0)   # fills ``seen``
    t_worst = min(seen, key=lambda t: seen[t])
    return seen[t_worst], t_worst, len(seen)


def log_alpha(t: float) -> str:
    """alpha = 10^t as an exact decimal string of 17 significant digits (taken exactly)."""
    return mpmath.nstr(mpmath.power(10, mpmath.mpf(t)), 17, min_fixed=1, max_fixed=0)


def inequality(cases, tolerance, detail: str, lo: float = -300.0, hi: float = math.log10(0.999),
               grid_points: Iterable[str] = (), method: str = "numeric, grid + adversarial search",
               point_name: str = "alpha", search: dict | bool | None = None) -> Outcome:
    """An inequality ``margin >= 0`` checked per case on a grid and by an adversarial search.

    ``cases`` is a list of ``(label, margin)`` where ``margin(point)`` takes an exact decimal
    string (alpha) and returns the slack (negative where the inequality fails; relative slack is
    best).  Each case is evaluated at ``grid_points`` and minimised over ``log10 alpha`` in
    ``[lo, hi]``.  FAILED when a margin is below ``-tolerance`` (the verified error of the
    evaluation); the outcome reports the worst margin and where it occurs.  ``search`` passes
    ``grid``, ``starts``, ``iterations`` to :func:`minimise` (fewer for expensive margins);
    ``search=False`` checks the grid only (the caller searches elsewhere).
    """
    worst, worst_at, points = None, None, 0
    for label, margin in cases:
        for text in grid_points:
            value = margin(text)
            points += 1
            if value < -tolerance:
                return Outcome(FAILED, detail=detail, method=method, worst_at={"case": label, point_name: text},
                               counterexample={"case": label, point_name: text, "margin": mpmath.nstr(value, 5)})
            if worst is None or value < worst:
                worst, worst_at = value, {"case": label, point_name: text}
        if search is False:
            continue
        value, t, n = minimise(lambda t: margin(log_alpha(t)), lo, hi, **(search or {}))
        points += n
        where = {"case": label, point_name: log_alpha(t)}
        if value < -tolerance:
            return Outcome(FAILED, detail=detail, method=method, worst_at=where,
                           counterexample={**where, "margin": mpmath.nstr(value, 5)})
        if worst is None or value < worst:
            worst, worst_at = value, where
    if worst is None:
        return Outcome(INCONCLUSIVE, detail=f"no point evaluated: {detail}", method=method)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), worst_at=worst_at, points=points,
                   detail=detail, method=method)


# ---------------------------------------------------------------------------- paper refutations


#: the kinds of erratum (``reproduce --errata --format md`` groups by them)
ERRATUM_KINDS = ("formula", "number", "statement", "cross-reference", "notation")


def refutation(paper_says: str, holds_instead: str, counterexample: Callable[[], dict | None],
               corrected: Callable[[], Outcome], detail: str = "", *, kind: str,
               printed: tuple[str, ...] = ()) -> Outcome:
    """REFUTED when the paper's statement has a verified counter-example *and* the corrected
    statement holds; CONFIRMED (the paper is right after all) when no counter-example is found
    and the corrected statement holds; FAILED when the corrected statement fails.

    ``counterexample()`` returns the inputs and computed values that contradict the paper's
    statement (or None); ``corrected()`` checks ``holds_instead`` and returns its Outcome.
    ``kind`` is one of :data:`ERRATUM_KINDS`; an erratum of kind ``"number"`` names in ``printed``
    the ``dp-derive reproduce`` entries of the numbers it is about (they must say ``differs``:
    the rule of :mod:`proofs_check.rounding`, checked by tests/test_errata.py).
    """
    if kind not in ERRATUM_KINDS:
        raise ValueError(f"erratum kind {kind!r}: one of {', '.join(ERRATUM_KINDS)}")
    if kind == "number" and not printed:
        raise ValueError("an erratum about a number names the reproduce entries of the printed numbers")
    fixed = corrected()
    if fixed.status not in (PROVEN, CONFIRMED):
        fixed.detail = f"the corrected statement '{holds_instead}' did not hold: {fixed.detail}"
        return fixed
    witness = counterexample()
    if witness is None:
        return Outcome(CONFIRMED, margin=fixed.margin, points=fixed.points, method=fixed.method,
                       detail=f"no counter-example to the paper's statement was found; {detail}")
    return Outcome(REFUTED, points=fixed.points + 1, method=fixed.method, margin=fixed.margin,
                   counterexample=witness, worst_at=fixed.worst_at,
                   detail=detail or fixed.detail,
                   refutation={"paper_says": paper_says, "holds_instead": holds_instead, "kind": kind,
                               "printed": list(printed), "evidence": witness, "corrected_check": fixed.detail})
