"""Failure class and relative disclosure risk of a trade-off record.

de Fondeville (2026), arXiv:2603.12753v1, catalog ids:

* DF-Thm1: for a prior in (0, 1), the posterior after a positive test reaches 1
  (at alpha = 0) iff f(0) < 1 (catastrophic failure);
* DF-Def7, DF-Thm2: rho = sup_alpha (1 - f(alpha))/alpha, finite iff the limit
  at alpha -> 0+ is finite.  Since 1 - f is concave with 1 - f(0) >= 0,
  (1 - f(alpha))/alpha is non-increasing (catalog DF-rho-a0), so
  rho = lim_{alpha->0+} (1 - f(alpha))/alpha: infinite when f(0) < 1, and the
  right derivative -f'(0+) when f(0) = 1 (L'Hopital);
* DF-Table1: f(0) = 1 and rho < inf: no failure; f(0) = 1 and rho = inf:
  graceful; f(0) < 1: catastrophic;
* DF-Def6 with the monotonicity above: sup_alpha p_post(alpha) is the limit at
  alpha -> 0+, pi rho / (pi rho + 1 - pi) (1 when rho = inf);
* DF-rho-a0: rho_alpha0 = sup over [alpha0, 1] = (1 - f(alpha0))/alpha0.

Limits are taken by SymPy: ``sympy.limit`` where it succeeds; otherwise the
piece of a Piecewise/Max that is active as alpha -> 0+ is selected, and a
normal quantile PhiInv(g(alpha)) with g(0) in {0, 1} is replaced by -t or +t,
t -> +oo (the change of variable alpha = Phi(-t) of DF-Cor1), after which
``sympy.limit`` in t decides.  Continuity of f on [0, 1] (Dong, Roth, Su 2022,
Prop. 2.2) makes f(0) the value at 0 when the expression evaluates there.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .bounded import Bounded
from .posterior import prior, prior_c
from .special import PhiInv
from .symbols import alpha
from .tradeoff import TradeOff

NONE, GRACEFUL, CATASTROPHIC = "none", "graceful", "catastrophic"

_t = sp.Symbol("t", positive=True)


@dataclass(frozen=True)
class Limit:
    """A limit at alpha -> 0+ and how SymPy obtained it."""

    value: sp.Expr
    method: str


def _usable(v) -> bool:
    if v is None or v.has(sp.nan, sp.zoo, sp.Limit, sp.AccumBounds):
        return False
    return not v.has(alpha)


def _sympy_limit(expr):
    try:
        v = sp.limit(expr, alpha, 0, "+")
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None
    return v if _usable(v) else None


def _active_piece(expr):
    """The argument of a Piecewise whose condition holds for alpha in (0, a), some a > 0."""
    for piece, cond in expr.args:
        at0 = cond.subs(alpha, 0)
        if at0 is sp.true:
            return piece
        if at0 is sp.false:
            # alpha > 0 (or a condition that is first true just above 0) is the only way a
            # false condition at 0 can still hold on (0, a): test a point just above 0
            if cond.subs(alpha, sp.Rational(1, 10**60)) is sp.true and \
                    cond.subs(alpha, sp.Rational(1, 10**61)) is sp.true:
                return piece
            continue
        return None     # undecided (symbolic parameters): give up on this route
    return None


def _quantile_substitution(expr):
    """PhiInv(g(alpha)) -> -t (g(0) = 0) or +t (g(0) = 1); None when none occurs."""
    found = []

    def repl(e):
        g0 = sp.simplify(e.args[0].subs(alpha, 0))
        if g0 == 0:
            found.append(e)
            return -_t
        if g0 == 1:
            found.append(e)
            return _t
        return e
    out = expr.replace(lambda e: isinstance(e, PhiInv), repl)
    if not found or out.has(alpha):
        return None
    out, back = _constants_as_symbols(out)
    out = sp.powsimp(sp.expand(sp.simplify(out)), combine="exp")
    try:
        v = sp.limit(out, _t, sp.oo)
    except (NotImplementedError, TypeError, ValueError):
        return None
    if not _usable(v):
        return None
    v = v.xreplace(back)
    return v if _usable(v) else None


#: a Rational whose numerator or denominator has more bits than this is a constant to name (10^-300 has 997)
_BIG_RATIONAL_BITS = 64


def _constants_as_symbols(expr):
    """``expr`` with each maximal constant subexpression (free of t) named by a Dummy that carries its sign,
    and the map back.

    simplify/expand work on the constants' structure as well as on t's: for the classical Gaussian the
    derivative of 1 - f at alpha = Phi(-t) is exp(t^2/2) exp(-(c - t)^2/2) with c = eps/sqrt(2 log(25/2)),
    and with eps = 1e-3 or 1e-300 simplify spent 40 s and more rewriting the logarithm against the rational
    (issue #25 item 4).  With c a positive symbol the same simplify takes milliseconds and sympy.limit in t
    keeps to what the sign of c decides (it raises where the result would depend on more, e.g. on the
    sign of c1 - c2, and the caller then falls back).  A constant whose sign cannot be certified
    (``sign_of``) is left in place; one that is certainly 0 becomes 0.  Small rationals (the 1/2 of
    t^2/2, exponents) stay: they are the structure simplify needs.
    """
    names: dict = {}

    def visit(e):
        if e.is_Rational:
            if max(abs(e.p).bit_length(), e.q.bit_length()) <= _BIG_RATIONAL_BITS:
                return e
            return _name(e)
        if e.is_number and not e.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
            return _name(e)
        if not e.args:
            return e
        return e.func(*[visit(a) for a in e.args])

    def _name(e):
        if e in names:
            return names[e]
        sign = sign_of(e)
        if sign is None:
            names[e] = e
        elif sign == 0:
            names[e] = sp.S.Zero
        else:
            names[e] = sp.Dummy("c", positive=sign > 0, negative=sign < 0)
        return names[e]

    out = visit(expr)
    return out, {d: e for e, d in names.items() if isinstance(d, sp.Dummy)}


def _decide_heaviside(value: sp.Expr) -> sp.Expr:
    """Heaviside(g(theta)) -> 1 or 0 when g has one sign for every theta in the symbol's domain."""
    def decide(h):
        g = h.args[0]
        syms = list(g.free_symbols)
        if len(syms) != 1:
            return h
        s = syms[0]
        domain = sp.Interval.open(0, sp.oo) if s.is_positive else sp.Interval(0, sp.oo) \
            if s.is_nonnegative else sp.S.Reals
        if sp.solveset(g > 0, s, domain) == domain:
            return sp.S.One
        if sp.solveset(g < 0, s, domain) == domain:
            return sp.S.Zero
        return h
    return value.replace(lambda e: isinstance(e, sp.Heaviside), decide)


def limit_at_zero(expr: sp.Expr) -> Limit:
    """lim_{alpha -> 0+} expr, or raise NotImplementedError when SymPy cannot decide."""
    structured = isinstance(expr, (sp.Piecewise, sp.Max, sp.Min))
    if not structured and expr.has(PhiInv):
        # sympy.limit does not know PhiInv's behaviour at 0 and fails slowly (~0.2 s a call):
        # go straight to the substitution alpha = Phi(-t)
        v = _quantile_substitution(expr)
        if v is not None:
            return Limit(v, "quantile substitution alpha = Phi(-t), sympy.limit in t -> oo")
    v = None if structured else _sympy_limit(expr)
    if v is not None:
        return Limit(v, "sympy.limit")
    if isinstance(expr, sp.Piecewise):
        piece = _active_piece(expr)
        if piece is not None:
            inner = limit_at_zero(piece)
            return Limit(inner.value, "active piece near 0, " + inner.method)
    if isinstance(expr, (sp.Max, sp.Min)):
        parts = [limit_at_zero(a) for a in expr.args]
        op = sp.Max if isinstance(expr, sp.Max) else sp.Min
        return Limit(op(*[p.value for p in parts]),
                     f"{op.__name__} of the limits ({'; '.join(sorted({p.method for p in parts}))})")
    v = _quantile_substitution(expr)
    if v is not None:
        return Limit(v, "quantile substitution alpha = Phi(-t), sympy.limit in t -> oo")
    at0 = expr.subs(alpha, 0)
    if _usable(at0):
        at0 = sp.simplify(_decide_heaviside(at0))
        if at0.is_finite:
            return Limit(at0, "continuity: the expression evaluates at alpha = 0")
    raise NotImplementedError(f"SymPy cannot take lim alpha->0+ of {expr}")


_CACHE = Bounded(1024)


def _cached(kind: str, record: TradeOff, compute):
    """SymPy limits are slow (up to seconds): one computation per record and quantity."""
    key = (kind, record.name, record.tradeoff, record.power, tuple(sorted(record.values.items(), key=str)))
    return _CACHE.memo(key, compute)


def f_at_zero(record: TradeOff) -> Limit:
    """f(0) exactly (DF-Thm1): a limit, equal to the value by continuity of f."""
    if "f0" in record.facts:
        return Limit(*record.facts["f0"])
    return _cached("f0", record, lambda: limit_at_zero(record.f))


def is_below_one(value: sp.Expr) -> bool:
    """Decide value < 1 for an exact f(0) (SymPy evaluates numerically with error control)."""
    if isinstance(value, sp.Max):
        return all(is_below_one(a) for a in value.args)
    if isinstance(value, sp.Min):
        return any(is_below_one(a) for a in value.args)
    decided = sign_of(sp.simplify(value) - 1)
    if decided is None:
        raise NotImplementedError(f"cannot decide whether f(0) = {value} is below 1")
    return decided < 0


def sign_of(value: sp.Expr) -> int | None:
    """The sign (-1, 0, 1) of an exact real number, or None when it cannot be decided.

    SymPy's relational ``<`` gives up on differences such as exp(-10^-300) - 1
    (its default evaluation precision cannot separate them from 0); here the
    number is evaluated with ``evalf(strict=True)``, which raises rather than
    return a value whose leading digit is not certain, at a rising precision
    budget (maxn up to 20000 bits).
    """
    if value.is_zero:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if not value.is_number:
        return None
    for maxn in (100, 1000, 20000):
        try:
            v = value.evalf(15, strict=True, maxn=maxn)
        except Exception:  # noqa: BLE001 - sympy.core.evalf.PrecisionExhausted and friends: try harder
            continue
        if v.is_Number and v != 0:
            return 1 if v > 0 else -1
    return None


def _by_sign(sign: int):
    """A sort key for exact numbers and +-oo, comparing with ``sign_of`` (for max/min below)."""
    import functools

    def cmp(a, b):
        d = sign_of(sp.simplify(sign * (a[1] - b[1]))) if not (a[1].has(sp.oo) or b[1].has(sp.oo)) else \
            (1 if sign * a[1] > sign * b[1] else (-1 if sign * a[1] < sign * b[1] else 0))
        if d is None:
            raise NotImplementedError(f"cannot order {a[1]} and {b[1]}")
        return d
    return functools.cmp_to_key(cmp)


def rho(record: TradeOff) -> Limit:
    """rho = sup (1 - f)/alpha = lim_{alpha->0+} (1 - f(alpha))/alpha (DF-Thm2)."""
    return _cached("rho", record, lambda: _rho(record))


def _rho(record: TradeOff) -> Limit:
    if "rho" in record.facts:
        return Limit(*record.facts["rho"])
    f0 = f_at_zero(record)
    if is_below_one(f0.value):
        return Limit(sp.oo, f"f(0) = {f0.value} < 1, so (1 - f(alpha))/alpha >= (1 - f(0))/alpha -> oo")
    power, how = active_near_zero(record.one_minus_f)
    direct = _sympy_limit(power / alpha)
    if direct is not None:
        return Limit(direct, how + "sympy.limit of (1 - f(alpha))/alpha")
    slope = limit_at_zero(sp.diff(power, alpha))
    return Limit(slope.value, how + "f(0) = 1: L'Hopital, the limit of d(1 - f)/dalpha; " + slope.method)


def active_near_zero(expr: sp.Expr) -> tuple[sp.Expr, str]:
    """The smooth branch of a Piecewise/Max/Min that equals ``expr`` on some (0, a), and how it was found.

    Max/Min: the argument with the extreme limit at 0; a tie is broken by the
    limit of the derivative (the branch that stays extreme just above 0).
    """
    if isinstance(expr, sp.Piecewise):
        piece = _active_piece(expr)
        if piece is None:
            return expr, ""
        inner, how = active_near_zero(piece)
        return inner, "active piece near 0; " + how
    if isinstance(expr, (sp.Max, sp.Min)):
        sign = 1 if isinstance(expr, sp.Max) else -1
        keyed = []
        for a in expr.args:
            v = limit_at_zero(a).value
            keyed.append((a, v))
        best = max(keyed, key=_by_sign(sign)) if all(v.is_number for _, v in keyed) else None
        if best is None:
            return expr, ""
        tied = [a for a, v in keyed if sign_of(sp.simplify(v - best[1])) == 0]
        if len(tied) > 1:
            slopes = [(a, limit_at_zero(sp.diff(a, alpha)).value) for a in tied]
            if not all(d.is_number or d in (sp.oo, -sp.oo) for _, d in slopes):
                return expr, ""
            tied = [max(slopes, key=lambda ad: sign * ad[1])[0]]
        inner, how = active_near_zero(tied[0])
        return inner, f"{type(expr).__name__}: the extreme branch near 0; " + how
    return expr, ""


def failure_class(f0_below_one: bool, rho_value: sp.Expr) -> str:
    """DF-Table1."""
    if f0_below_one:
        return CATASTROPHIC
    return GRACEFUL if rho_value is sp.oo else NONE


def rho_alpha0(record: TradeOff) -> sp.Expr:
    """(1 - f(alpha))/alpha, to be taken at alpha = alpha0 (DF-rho-a0)."""
    return record.power / alpha


def sup_attained(record: TradeOff, rho_value: sp.Expr) -> bool:
    """Whether sup_alpha p_post = pi rho/(pi rho + 1 - pi) (finite rho) is attained at some alpha > 0.

    p_post increases with (1 - f(alpha))/alpha, which is non-increasing with supremum rho as
    alpha -> 0+ (DF-Thm2), so the supremum is attained iff (1 - f(alpha))/alpha = rho on some
    (0, a): iff the branch of 1 - f active near 0 is rho alpha (Laplace, f_{eps,0} and randomized
    response on their linear stretch; not logistic noise, whose ratio is below rho for every
    alpha > 0).  Decided by SymPy on the active branch; a branch that cannot be isolated raises.
    """
    from .special import to_erf
    branch, _ = active_near_zero(record.one_minus_f)
    if branch.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs, sp.Heaviside, sp.sign):
        # a nested piece could be linear only below the probe points used next: do not guess
        raise ValueError(f"{record.name}: the branch of 1 - f active near 0 could not be isolated")
    diff = sp.simplify(to_erf(branch - rho_value * alpha))
    if diff == 0:
        return True
    # not identically 0: a point of (0, 1e-3] where the difference is certainly nonzero decides it.  The
    # sign is certified by evalf(strict=True) (sign_of), not read off a fixed absolute threshold: for the
    # exponential mechanism at eps = 1e-300 the difference is -alpha^2 e^eps expm1(eps)/(1 + expm1(eps) alpha),
    # about -1e-306 at alpha = 1e-3, nonzero but below any threshold fixed in advance (issue #25 item 4)
    for a in (sp.Rational(1, 10**3), sp.Rational(1, 10**6)):
        if sign_of(diff.subs(alpha, a)) in (1, -1):
            return False
    raise ValueError(f"{record.name}: SymPy could not decide whether 1 - f = rho alpha near 0 ({diff})")


def posterior_sup(rho_value: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(sup p_post, 1 - sup p_post) for a finite rho: pi rho/(pi rho + 1 - pi) and its complement."""
    den = prior * rho_value + prior_c
    return prior * rho_value / den, prior_c / den
