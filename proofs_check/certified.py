"""``check --certified``: rigorous (arb ball) decisions of inequalities, at points and on cells.

The claims of ``claims_certified_000`` ... ``_004`` reduce every inequality to "a slack expression is >= 0"
(or "= 0"), a SymPy expression of the toolkit's own record expressions (``record.tradeoff``,
``record.power``) in one or more alpha symbols, and ask this module to decide it either at an
exact point (every symbol bound to a Rational) or on a *cell* (one symbol ranging over a closed
interval [a, b] with exact rational ends, the others at exact points).

How a verdict is reached, and why it is rigorous
------------------------------------------------
1. **Branch resolution.**  Every ``Piecewise``, ``Min`` and ``Max`` whose selection is the same
   for every point of the environment is replaced by the selected branch.  A condition
   ``l < r`` (``<=``, ``>``, ``>=``, ``==``) is decided from the arb enclosure of ``l - r``
   (``numeric.arb.enclose``): true only when every point of the ball satisfies it, so the
   replacement is valid at every point of the environment.  An exact difference (a rational, such
   as ``alpha - 1/2`` at alpha = 1/2) is an exact arb point, so ties at exact breakpoints are
   decided exactly.  A ``Min`` is replaced by an argument that is certainly <= every other one.
   Selections that are not certain are left in place.
2. **Exact arithmetic.**  The identity ``Phi(PhiInv(x)) = x`` (Phi is a bijection of the real
   line onto (0, 1), and the limits give 0 and 1) is applied.  When no Piecewise/Min/Max is left,
   the exact point values are substituted and SymPy's automatic (exact, rational and algebraic)
   simplification runs: a result that is the number 0 is an *exact equality* (the inequality holds
   with slack 0), a rational gives an exact sign.  On a cell the expression is not substituted; an
   expression that SymPy reduces to 0 identically (e.g. ``alpha e^eps / (alpha e^eps) - 1`` on the
   linear regime of the Laplace trade-off) is an equality on the whole cell.  This is how the
   equality cases (alpha = 0, alpha = 1, mu = 0, the Laplace ratio e^eps at small alpha) are
   decided: exactly, never as overlapping balls.
3. **Ball arithmetic.**  Otherwise the slack is enclosed by ``numeric.arb.enclose`` (Arb's
   midpoint-radius arithmetic: the ball contains the exact value at every point of the input
   balls; the inverses by certified brackets): ``lower >= 0`` proves the inequality at every point
   of the environment, ``upper < 0`` proves it false at every point.  At points the precision is
   doubled from ``START_BITS`` up to ``POINT_CAP_BITS``; undecided after that is INCONCLUSIVE.
   On a cell the width comes from the cell, not the precision: the cell is bisected instead (in
   log10 alpha when its ends differ by more than a factor 4), within a budget of enclosures.

What is assumed
---------------
The correctness of python-flint/Arb (containment of every ball operation), of SymPy's exact
rational arithmetic and automatic simplification, and that the record's two stored forms agree
(``power = 1 - tradeoff``, which is the claim DD-complement's own check; the certified claims
use whichever form is free of cancellation at a point, and certify at every grid point that the
two balls overlap, so that a record whose forms disagree is caught).  Nothing is assumed about
monotonicity or convexity of the records: the whole-cell verdicts come from enclosures over the
cell.  The one monotonicity used is that of PhiInv (strictly increasing, a property of the normal
law): on a cell [a, b], PhiInv(alpha) is enclosed by the hull of the point enclosures of
PhiInv(a) and PhiInv(b).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import mpmath
import sympy as sp

from .usage import UsageError

#: first precision (bits) of a point decision, and the cap of its doubling
START_BITS = 128
POINT_CAP_BITS = 2048
#: precision (bits) of cell enclosures (a cell's width, not rounding, limits them)
CELL_BITS = 128
#: a cell [a, b] is first cut into pieces with b/a <= 2^MAX_RATIO_BITS: the radius of an arb ball
#: carries ~30 bits, so the ball of a wider [a, b] would reach 0
MAX_RATIO_BITS = 24


def require() -> None:
    """Raise a usage error naming the extra when python-flint is not installed."""
    try:
        import flint  # noqa: F401
    except ImportError:
        raise UsageError("certified: --certified needs python-flint "
                         "(pip install -e \".[certified]\")") from None


def _arb():
    from numeric import arb
    return arb


# ------------------------------------------------------------------ environments
def cell_ball(a: sp.Rational, b: sp.Rational, prec: int = CELL_BITS):
    """An arb ball containing the whole closed interval [a, b] (a <= b exact rationals)."""
    import flint
    with flint.ctx.workprec(prec):
        lo = flint.arb(flint.fmpz(int(a.p))) / flint.arb(flint.fmpz(int(a.q)))
        hi = flint.arb(flint.fmpz(int(b.p))) / flint.arb(flint.fmpz(int(b.q)))
        return lo.union(hi)


def _arb_env(env: dict, prec: int) -> dict:
    """Points stay exact Rationals (arb balls are passed as they are); cells ``(a, b)`` become balls (``certify_cells`` keeps
    b/a <= 2^MAX_RATIO_BITS so that the ball of a cell with a > 0 stays positive)."""
    return {s: (cell_ball(v[0], v[1], prec) if isinstance(v, tuple) else v) for s, v in env.items()}


def _enclose(expr, env: dict, prec: int):
    """The enclosure of ``expr`` on ``env``, or None when arb cannot give a finite ball."""
    from derive.errors import DomainError, PrecisionExhausted
    arb = _arb()
    try:
        return arb.enclose(expr, _arb_env(env, prec), prec)
    except (PrecisionExhausted, ArithmeticError, DomainError, ZeroDivisionError, ValueError):
        return None


# ------------------------------------------------------------------ step 1: branch resolution
def _truth(cond, env: dict, prec: int):
    """Certified truth of a condition on every point of ``env`` (True, False or None)."""
    if cond is sp.true or cond is True:
        return True
    if cond is sp.false or cond is False:
        return False
    if isinstance(cond, sp.And):
        vals = [_truth(c, env, prec) for c in cond.args]
        return False if False in vals else (None if None in vals else True)
    if isinstance(cond, sp.Or):
        vals = [_truth(c, env, prec) for c in cond.args]
        return True if True in vals else (None if None in vals else False)
    if isinstance(cond, sp.Not):
        v = _truth(cond.args[0], env, prec)
        return None if v is None else not v
    if not isinstance(cond, sp.core.relational.Relational):
        return None
    d = _enclose(cond.lhs - cond.rhs, env, prec)
    if d is None:
        return None
    op = cond.rel_op
    if op == "<":
        return True if d < 0 else (False if d >= 0 else None)
    if op == "<=":
        return True if d <= 0 else (False if d > 0 else None)
    if op == ">":
        return True if d > 0 else (False if d <= 0 else None)
    if op == ">=":
        return True if d >= 0 else (False if d < 0 else None)
    if op == "==":
        if d.is_exact() and d == 0:
            return True
        return False if (d > 0 or d < 0) else None
    if op == "!=":
        if d.is_exact() and d == 0:
            return False
        return True if (d > 0 or d < 0) else None
    return None


def resolve(expr, env: dict, prec: int = START_BITS):
    """``expr`` with every Piecewise/Min/Max whose selection is certain on ``env`` replaced by the
    selected branch (see the module docstring, step 1)."""
    if not expr.has(sp.Piecewise, sp.Min, sp.Max):
        return expr
    if isinstance(expr, sp.Piecewise):
        for value, cond in expr.args:
            t = _truth(cond, env, prec)
            if t is True:
                return resolve(value, env, prec)
            if t is None:
                return expr.func(*[(resolve(v, env, prec), c) for v, c in expr.args])
        return expr
    args = [resolve(a, env, prec) for a in expr.args]
    if isinstance(expr, (sp.Min, sp.Max)):
        want_le = isinstance(expr, sp.Min)
        for i, a in enumerate(args):
            ok = True
            for j, b in enumerate(args):
                if i == j:
                    continue
                d = _enclose(a - b, env, prec)
                if d is None or not (d <= 0 if want_le else d >= 0):
                    ok = False
                    break
            if ok:
                return a
        return sp.Min(*args, evaluate=False) if want_le else sp.Max(*args, evaluate=False)
    return expr.func(*args)


def exact_rewrite(expr):
    """The exact identities Phi(PhiInv(x)) = x and Phi(-PhiInv(x)) = 1 - x (symmetry of the
    normal law) applied everywhere in ``expr``."""
    from derive.special import Phi, PhiInv

    def inner(e):
        if not isinstance(e, Phi):
            return None
        arg = e.args[0]
        if isinstance(arg, PhiInv):
            return arg.args[0]
        if isinstance(-arg, PhiInv):
            return 1 - (-arg).args[0]
        return None
    return expr.replace(lambda e: inner(e) is not None, inner)


@lru_cache(maxsize=512)
def _factored(expr):
    """``expr`` put over one denominator and factored (exact algebra; used on cells, where
    alpha > 0 and no factor cancelled by ``factor`` vanishes for the records of the toolkit),
    so that the enclosure sees (1 - alpha)(...) instead of a difference of near-equal balls."""
    if expr.has(sp.Piecewise, sp.Min, sp.Max):
        return expr
    try:
        return sp.factor(sp.together(exact_rewrite(expr)))
    except Exception:  # noqa: BLE001 - factoring is an optimisation only
        return expr


def _exact(expr, env: dict):
    """The exact value (a SymPy Rational) of a resolved expression on ``env``, or None.

    Points are substituted; a cell symbol is left free, so only an expression that SymPy reduces
    to a constant rational identically (typically 0) gets an exact value on a cell.
    """
    if expr.has(sp.Piecewise, sp.Min, sp.Max):
        return None          # SymPy would decide the selection by floating-point evaluation
    points = {s: v for s, v in env.items() if isinstance(v, sp.Rational)}
    value = exact_rewrite(expr).xreplace(points)
    return value if value.is_Rational else None


# ------------------------------------------------------------------ verdicts
@dataclass
class Verdict:
    """A certified decision of ``slack >= 0`` (or ``= 0``) on one environment.

    ``holds`` is True (proved), False (proved false: ``upper`` < 0 on every point) or None
    (undecided at the cap); ``lower`` a certified lower bound of the slack (an mpf; exactly 0 for
    an exact equality), ``how`` "exact" or "arb N bits".
    """

    holds: bool | None
    lower: object = None
    upper: object = None
    how: str = ""


def _mpf(x):
    """An exact arb point (``ball.lower()``/``upper()``) as an mpf (no rounding)."""
    man, exp = x.mid().man_exp()
    return mpmath.mpf((int(man), int(exp)))


def _from_ball(ball, holds, prec) -> Verdict:
    return Verdict(holds, _mpf(ball.lower()), _mpf(ball.upper()), f"arb {prec} bits")


def certify_nonneg(slack, env: dict, start: int = START_BITS, cap: int = POINT_CAP_BITS) -> Verdict:
    """Decide ``slack >= 0`` at the exact point ``env`` (see the module docstring)."""
    undecided = None
    prec = start
    resolved = slack
    first = True
    while True:
        # arb at this precision on the (progressively better resolved) expression
        if first or resolved.has(sp.Piecewise, sp.Min, sp.Max):
            resolved = resolve(slack, env, prec)
        if first:
            first = False
            value = _exact(resolved, env)
            if value is not None:
                with mpmath.workdps(40):
                    v = mpmath.mpf(value.p) / value.q
                return Verdict(bool(value >= 0), v, v, "exact")
        ball = _enclose(resolved, env, prec)
        if ball is not None and not ball.is_nan():
            if ball >= 0:
                return _from_ball(ball, True, prec)
            if ball < 0:
                return _from_ball(ball, False, prec)
            undecided = ball
        if prec >= cap:
            out = Verdict(None, how=f"arb {prec} bits")
            if undecided is not None:
                out.lower, out.upper = _mpf(undecided.lower()), _mpf(undecided.upper())
            return out
        prec = min(2 * prec, cap)


def certify_zero(expr, env: dict, start: int = START_BITS, cap: int = POINT_CAP_BITS) -> Verdict:
    """Decide ``expr = 0`` at the exact point ``env``: exactly (step 2), or from an arb ball that
    is the exact point 0 (the only ball that proves an equality); False when the ball excludes 0."""
    resolved = resolve(expr, env, start)
    value = _exact(resolved, env)
    if value is not None:
        return Verdict(value == 0, mpmath.mpf(value.p) / value.q, mpmath.mpf(value.p) / value.q, "exact")
    prec = start
    while True:
        ball = _enclose(resolved, env, prec)
        if ball is not None:
            if ball.is_exact() and ball == 0:
                return Verdict(True, mpmath.mpf(0), mpmath.mpf(0), f"arb {prec} bits (exact point 0)")
            if ball > 0 or ball < 0:
                return _from_ball(ball, False, prec)
        if prec >= cap:
            return Verdict(None, how=f"arb {prec} bits")
        prec = min(2 * prec, cap)


def overlap(expr, env: dict, prec: int = START_BITS) -> bool:
    """False only when the enclosure of ``expr`` at the point certainly excludes 0 (used to catch a
    record whose two forms disagree; True is no proof of equality)."""
    ball = _enclose(expr, env, prec)
    return ball is None or not (ball > 0 or ball < 0)


# ------------------------------------------------------------------ whole cells
def _split(a: sp.Rational, b: sp.Rational) -> sp.Rational:
    """A rational strictly inside (a, b): the arithmetic midpoint, or a power of 10 (or a
    geometric-mean approximation) when b/a > 4, so that bisection works in log10 alpha."""
    if a > 0 and b / a > 4:
        la, lb = mpmath.log10(mpmath.mpf(a.p) / a.q), mpmath.log10(mpmath.mpf(b.p) / b.q)
        mid = (la + lb) / 2
        k = int(mpmath.floor(mid))
        c = sp.Rational(10) ** k if k >= 0 else sp.Rational(1, 10 ** (-k))
        # a power of 10 when one lies strictly inside, else (a + b)/2
        if a < c < b:
            return c
    return (a + b) / 2


@dataclass
class CellReport:
    """Which parts of [lo, hi] a slack was certified >= 0 on, as a whole."""

    certified: list = field(default_factory=list)     # (a, b, how)
    uncovered: list = field(default_factory=list)     # (a, b) left to the pointwise checks
    failed: tuple | None = None                        # (a, b, upper) where slack < 0 on the whole cell
    enclosures: int = 0

    def merged_uncovered(self):
        out = []
        for a, b in sorted(self.uncovered):
            if out and out[-1][1] >= a:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return out


def _numerator(expr, env, prec):
    """The numerator of ``expr`` when its denominator is certainly positive on ``env`` (the sign,
    which is all a cell verdict uses, is then the numerator's), else ``expr``.  Ball products
    overestimate (mid-radius arithmetic), so dividing a wide ball by a wide ball can lose a sign
    that the numerator alone keeps."""
    num, den = sp.fraction(expr)
    if den == 1:
        return expr
    d = _enclose(den, env, prec)
    return num if d is not None and d > 0 else expr


#: the symbol that stands for PhiInv(alpha) on a cell
_Z = sp.Symbol("z_PhiInv")


def _monotone_inverse(expr, symbol, a, b, env, prec):
    """Replace PhiInv(symbol) by a symbol bound to the ball hull of [PhiInv(a), PhiInv(b)].

    PhiInv is strictly increasing, so PhiInv([a, b]) = [PhiInv(a), PhiInv(b)], contained in the
    hull of the two point enclosures (certified brackets, ``numeric.arb``); this is much tighter
    than ``enclose`` of PhiInv on the ball of the whole cell.  At a = 0 (PhiInv = -inf) nothing
    is replaced.
    """
    from derive.special import PhiInv
    target = PhiInv(symbol)
    if a <= 0 or b >= 1 or not expr.has(target):
        return expr, env
    lo = _enclose(target, {symbol: a}, prec)
    hi = _enclose(target, {symbol: b}, prec)
    if lo is None or hi is None:
        return expr, env
    return expr.xreplace({target: _Z}), {**env, _Z: lo.union(hi)}


def certify_cells(slack, symbol, cells, points: dict | None = None, budget: int = 100,
                  prec: int = CELL_BITS) -> CellReport:
    """Certify ``slack >= 0`` for every ``symbol`` in each cell ``(a, b)`` of ``cells``.

    Each cell is resolved (step 1 on the whole cell), tried exactly (an identically zero slack),
    then enclosed over the cell; a cell that is neither proved nor disproved is bisected (breadth
    first) while the ``budget`` of bisections lasts; what is left is reported uncovered.  ``points`` binds the other
    symbols to exact values.
    """
    rep = CellReport()
    todo = []
    for a, b in cells:                  # wide cells first cut into pieces of at most 2^MAX_RATIO_BITS
        while a > 0 and b / a > sp.Integer(2) ** MAX_RATIO_BITS:
            c = a * sp.Integer(2) ** MAX_RATIO_BITS
            todo.append((a, c))
            a = c
        todo.append((a, b))
    points = dict(points or {})
    splits = 0
    while todo:
        a, b = todo.pop(0)
        env = {**points, symbol: (a, b)}
        bits = prec
        resolved = resolve(slack, env, bits)
        rep.enclosures += 1
        value = _exact(resolved, env)
        if value is not None and value >= 0:
            rep.certified.append((a, b, "exact"))
            continue
        expr, env = _monotone_inverse(_numerator(_factored(resolved), env, bits), symbol, a, b, env, bits)
        ball = _enclose(expr, env, bits)
        if ball is not None and not ball.is_nan():
            if ball >= 0:
                rep.certified.append((a, b, "arb"))
                continue
            if ball < 0:
                rep.failed = (a, b, _mpf(ball.upper()))
                return rep
        if splits >= budget:
            rep.uncovered.append((a, b))
            continue
        c = _split(a, b)
        splits += 1
        todo += [(a, c), (c, b)]        # breadth first: the budget is spread over all cells
    return rep


def fmt(x, digits: int = 4) -> str:
    """A number (mpf, Rational, str) as a short decimal string."""
    if x is None:
        return "None"
    if isinstance(x, sp.Rational):
        x = mpmath.mpf(x.p) / x.q
    return mpmath.nstr(mpmath.mpf(x), digits)
