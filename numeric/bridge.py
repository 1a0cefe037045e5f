"""From one SymPy expression to an mpmath evaluator and a float64 evaluator.

``compile_mp`` turns an expression into a tree of Python closures evaluated at
the caller's working precision.  Sub-expressions whose inputs are all exact
(Integers, Rationals, exact parameter values) stay exact, as unreduced
fractions: ``1 - alpha`` for alpha = 1 - 10^-30 is 10^-30 exactly, and
``PhiInv`` of an exact argument above 1/2 is evaluated as ``-PhiInv(1 - p)``
with ``1 - p`` exact.  Exact zeros and ones (f(1) = 0, alpha = 0) come out
exact, before any rounding.  ``Piecewise``, ``Max`` and ``Min`` evaluate only
what they select.  Only the tail-safe kernels of ``numeric.kernels`` are used,
unless ``naive=True`` (textbook kernels, no exact arithmetic: the baseline).

``compile_fp`` is ``sympy.lambdify`` over NumPy with the float kernels of
``scipy.special`` for the heads; ``Max``/``Min`` are mapped to elementwise
``maximum``/``minimum``.
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import Callable

import mpmath
import sympy as sp
from mpmath.libmp import from_man_exp, mpf_div, round_nearest
from sympy.codegen.cfunctions import log1p

from derive.special import LogPhi, Phi, PhiInv, PhiInvExp, expm1

from . import kernels
from . import sympy_walk as walk


class Exact:
    """An exact rational p/q (q > 0), kept unreduced: no gcd on huge integers."""

    __slots__ = ("p", "q", "_rounded")

    def __init__(self, p: int, q: int = 1):
        if q < 0:
            p, q = -p, -q
        self.p, self.q = p, q
        self._rounded = None        # (prec, mpf) of the last ``mpf()``: a constant leaf is rounded once per precision

    def __add__(self, o):
        return Exact(self.p * o.q + o.p * self.q, self.q * o.q)

    def __mul__(self, o):
        return Exact(self.p * o.p, self.q * o.q)

    def __neg__(self):
        return Exact(-self.p, self.q)

    def cmp(self, o) -> int:
        a, b = self.p * o.q, o.p * self.q
        return (a > b) - (a < b)

    def sign(self) -> int:
        return (self.p > 0) - (self.p < 0)

    def inv(self):
        if self.p == 0:
            raise ZeroDivisionError("division by an exact zero")
        return Exact(self.q, self.p)

    def mpf(self):
        """The nearest mpf at the working precision (two roundings, < 2 ulp)."""
        prec = mpmath.mp.prec
        if self._rounded is not None and self._rounded[0] == prec:
            return self._rounded[1]
        wp = prec + 10
        value = mpmath.mpf(mpf_div(_int_mpf(self.p, wp), _int_mpf(self.q, wp), prec, round_nearest))
        self._rounded = (prec, value)
        return value

    def to_rational(self) -> sp.Rational:
        return sp.Rational(self.p, self.q)

    def __repr__(self):
        return f"Exact({self.p}/{self.q})" if len(str(self.q)) < 30 else "Exact(...)"


HALF = Exact(1, 2)
ZERO = Exact(0)
ONE = Exact(1)


def _int_mpf(n: int, wp: int):
    """A big int as a raw mpf with wp bits, by truncation (cheap for 10^100000)."""
    if n == 0:
        return mpmath.mpf(0)._mpf_
    shift = abs(n).bit_length() - wp
    if shift > 0:
        return from_man_exp(n >> shift if n > 0 else -((-n) >> shift), shift)
    return from_man_exp(n, 0)


def to_mpf(v):
    return v.mpf() if isinstance(v, Exact) else v


def mpf_of(v, dps: int = 40):
    """An exact rational result (``Exact``, a SymPy Rational: anything with p and q) as an mpf of ``dps``
    digits, whatever the ambient precision; an mpf (or other number) unchanged."""
    if hasattr(v, "p") and hasattr(v, "q"):
        with mpmath.workdps(dps):
            return mpmath.mpf(int(v.p)) / int(v.q)
    return v


def exact_of(r: sp.Rational) -> Exact:
    return Exact(int(r.p), int(r.q))


# --------------------------------------------------------------------- mp
Node = Callable[[dict, bool], object]


def _pow_exact(base: Exact, e: int) -> Exact:
    if e >= 0:
        return Exact(base.p ** e, base.q ** e)
    return _pow_exact(base.inv(), -e)


def _relational(op):
    def cmp(a, b):
        if isinstance(a, Exact) and isinstance(b, Exact):
            return op(a.cmp(b), 0)
        return op(to_mpf(a), to_mpf(b))
    return cmp


_RELATIONS = {
    sp.StrictLessThan: _relational(operator.lt), sp.LessThan: _relational(operator.le),
    sp.StrictGreaterThan: _relational(operator.gt), sp.GreaterThan: _relational(operator.ge),
    sp.Equality: _relational(operator.eq), sp.Unequality: _relational(operator.ne),
}


def _exact_phiinv(v, kernel):
    if isinstance(v, Exact):
        c = v.cmp(HALF)
        if c == 0:
            return ZERO
        if v.sign() == 0:
            return mpmath.mpf("-inf")
        if v.cmp(ONE) == 0:
            return mpmath.mpf("inf")
        if v.sign() < 0 or v.cmp(ONE) > 0:
            raise ValueError("PhiInv argument outside [0, 1]")
        if c > 0:
            return -kernel((ONE + (-v)).mpf())
        return kernel(v.mpf())
    return kernel(v)


def _mp_node(expr: sp.Basic, naive: bool) -> Node:
    """Compile one SymPy node into a closure ``(env) -> Exact | mpf``.

    The walk of ``numeric.sympy_walk``: the shared leaf step (symbols, exact numbers, constants; a Float
    is refused), then the builder registered for the node's class or its nearest registered base class
    (``_BUILDERS``, filled by ``@_builds``), then a record head with its own kernel (``_head_kernel``)."""
    kind = walk.leaf(expr)
    if kind is not None:
        return _mp_leaf(kind, expr, naive)
    build = _BUILDERS[type(expr)]
    if build is not None:
        return build(expr, naive)
    kids = _kids(expr, naive)
    kernel = _head_kernel(expr)
    if kernel is not None:
        return _record_head(type(expr), kernel, kids)
    raise TypeError(f"no mpmath kernel for {type(expr).__name__} in {expr}")


#: the named constants (by class: each is a singleton), as values at the working precision
_CONSTANTS = {type(sp.S.Infinity): lambda: mpmath.mpf("inf"), type(sp.S.NegativeInfinity): lambda: mpmath.mpf("-inf"),
              type(sp.E): lambda: +mpmath.e, type(sp.pi): lambda: +mpmath.pi,
              type(sp.true): lambda: True, type(sp.false): lambda: False}


def _mp_leaf(kind: str, expr: sp.Basic, naive: bool) -> Node:
    """A closure for a leaf of ``walk.leaf``: a symbol, an exact number or a constant."""
    if kind is walk.SYMBOL:
        name = expr
        return lambda env: env[name]
    if kind is walk.RATIONAL:
        value = exact_of(expr)
        return (lambda env: value.mpf()) if naive else (lambda env: value)
    value = _CONSTANTS[type(expr)]
    return lambda env: value()


def _kids(expr: sp.Basic, naive: bool) -> list[Node]:
    return [_mp_node(a, naive) for a in expr.args]


#: SymPy class -> builder ``(expr, naive) -> Node``, found through the class's MRO
_BUILDERS = walk.Dispatch("mpmath")
_builds = _BUILDERS.register


def _kernels(naive: bool) -> dict:
    return kernels.MP_NAIVE if naive else kernels.MP


@_builds(sp.Piecewise)
def _piecewise(expr, naive):
    """Evaluates only the branch it selects."""
    pairs = [(_mp_node(v, naive), _mp_node(c, naive)) for v, c in expr.args]

    def piecewise(env):
        for value, cond in pairs:
            if cond(env):
                return value(env)
        raise ValueError("no branch of a Piecewise applies")
    return piecewise


@_builds(sp.Add)
def _add(expr, naive):
    kids = _kids(expr, naive)

    def add(env):
        exact, inexact = ZERO, []
        for k in kids:
            v = k(env)
            if isinstance(v, Exact):
                exact = exact + v
            else:
                inexact.append(v)
        if not inexact:
            return exact
        # one or two terms: the correctly rounded sum is what fsum would return, without its overhead
        total = +inexact[0] if len(inexact) == 1 else (inexact[0] + inexact[1] if len(inexact) == 2
                                                         else mpmath.fsum(inexact))
        return total + exact.mpf() if exact.p else total
    return add


@_builds(sp.Mul)
def _mul(expr, naive):
    kids = _kids(expr, naive)

    def mul(env):
        exact, inexact = ONE, []
        for v in [k(env) for k in kids]:
            if isinstance(v, Exact):
                exact = exact * v
            else:
                inexact.append(v)
        if not inexact:
            return exact
        if exact.p == 0 and not any(mpmath.isinf(v) for v in inexact):
            return ZERO
        # fprod rounds each partial product at the working precision: (+a) * b is the same for two factors
        prod = +inexact[0] if len(inexact) == 1 else ((+inexact[0]) * inexact[1] if len(inexact) == 2
                                                      else mpmath.fprod(inexact))
        return prod * exact.mpf() if exact.p != exact.q else prod
    return mul


@_builds(sp.Pow)
def _pow(expr, naive):
    base, ex = _kids(expr, naive)
    integer_exponent = expr.exp.is_Integer and abs(int(expr.exp)) <= 64
    e_int = int(expr.exp) if integer_exponent else None

    def power(env):
        b = base(env)
        if integer_exponent and isinstance(b, Exact):
            return _pow_exact(b, e_int)
        e = ex(env)
        if isinstance(e, Exact) and e.cmp(HALF) == 0:
            return mpmath.sqrt(to_mpf(b))
        return mpmath.power(to_mpf(b), to_mpf(e))
    return power


def _keeps(fn, at, exact_value):
    """A one-argument evaluator that returns ``exact_value`` exactly when its argument is the exact
    ``at`` (e^0 = 1, log 1 = 0, expm1(0) = log1p(0) = 0), ``fn`` of the argument otherwise."""
    def build(expr, naive):
        (k,) = _kids(expr, naive)

        def one(env):
            v = k(env)
            if isinstance(v, Exact) and v.cmp(at) == 0:
                return exact_value
            return fn(to_mpf(v))
        return one
    return build


_builds(sp.exp)(_keeps(mpmath.exp, ZERO, ONE))
_builds(sp.log)(_keeps(mpmath.log, ONE, ZERO))
_builds(expm1)(_keeps(mpmath.expm1, ZERO, ZERO))
_builds(log1p)(_keeps(mpmath.log1p, ZERO, ZERO))


@_builds(PhiInv)
def _phiinv(expr, naive):
    (k,) = _kids(expr, naive)
    kernel = _kernels(naive)["PhiInv"]
    if naive:
        return lambda env: kernel(to_mpf(k(env)))
    return lambda env: _exact_phiinv(k(env), kernel)


@_builds(Phi)
def _phi(expr, naive):
    (k,) = _kids(expr, naive)
    kernel = _kernels(naive)["Phi"]

    def phi(env):
        v = k(env)
        if isinstance(v, Exact) and v.p == 0:
            return HALF
        v = to_mpf(v)
        if mpmath.isinf(v):
            return ONE if v > 0 else ZERO
        return kernel(v)
    return phi


@_builds(LogPhi, PhiInvExp)
def _log_heads(expr, naive):
    (k,) = _kids(expr, naive)
    kernel = _kernels(naive)[type(expr).__name__]
    return lambda env: kernel(to_mpf(k(env)))


@_builds(sp.Max, sp.Min)
def _extremum(expr, naive):
    kids = _kids(expr, naive)
    pick = max if isinstance(expr, sp.Max) else min

    def extremum(env):
        vals = [k(env) for k in kids]
        if all(isinstance(v, Exact) for v in vals):
            best = vals[0]
            for v in vals[1:]:
                c = v.cmp(best)
                if (c > 0) if pick is max else (c < 0):
                    best = v
            return best
        # an exact candidate that wins keeps its exactness
        nums = [to_mpf(v) for v in vals]
        i = nums.index(pick(nums))
        return vals[i]
    return extremum


def _relation(op):
    def build(expr, naive):
        lhs, rhs = _kids(expr, naive)
        return lambda env: op(lhs(env), rhs(env))
    return build


for _cls, _op in _RELATIONS.items():
    _builds(_cls)(_relation(_op))


@_builds(sp.And, sp.Or)
def _junction(expr, naive):
    kids = _kids(expr, naive)
    every = isinstance(expr, sp.And)
    return (lambda env: all(k(env) for k in kids)) if every else (lambda env: any(k(env) for k in kids))


@_builds(sp.Not)
def _not(expr, naive):
    (k,) = _kids(expr, naive)
    return lambda env: not k(env)


@_builds(sp.Abs)
def _abs(expr, naive):
    (k,) = _kids(expr, naive)

    def abs_(env):
        v = k(env)
        return Exact(abs(v.p), v.q) if isinstance(v, Exact) else abs(v)
    return abs_


def _elementary(f, odd: bool):
    """A one-argument function evaluated by its mpmath namesake; an odd one (f(0) = 0) returns an exact
    0 at an exact 0 (tanh(0) = 0, never a floating zero)."""
    def build(expr, naive):
        (k,) = _kids(expr, naive)

        def elementary(env):
            v = k(env)
            if odd and isinstance(v, Exact) and v.p == 0:
                return v
            return f(to_mpf(v))
        return elementary
    return build


def _record_head(head, kernel, kids):
    def record_head(env):
        vals = [k(env) for k in kids]
        if all(isinstance(v, Exact) for v in vals):
            exact = head(*[v.to_rational() for v in vals])    # the head's exact values (f(0) = 1, ...)
            if exact.is_Rational:
                return Exact(int(exact.p), int(exact.q))
        return kernel(*[to_mpf(v) for v in vals])
    return record_head


def _head_kernel(expr):
    """The mpmath kernel of a record head computed outside SymPy (the discrete Gaussian's heads carry
    ``kernel``, a name in ``numeric.discrete_gaussian.KERNELS``), or None."""
    from derive.mechanisms.discrete_gaussian import HEADS
    if isinstance(expr, HEADS):
        from . import discrete_gaussian
        return discrete_gaussian.KERNELS[type(expr).kernel]
    return None


#: one-argument functions evaluated by their mpmath namesake (no exact shortcut)
_ELEMENTARY = {sp.erf: mpmath.erf, sp.erfc: mpmath.erfc, sp.erfinv: mpmath.erfinv,
               sp.tanh: mpmath.tanh, sp.atanh: mpmath.atanh, sp.cosh: mpmath.cosh,
               sp.sinh: mpmath.sinh}
#: the ones with f(0) = 0, returned exactly at an exact 0
_ODD = (sp.erf, sp.erfinv, sp.tanh, sp.atanh, sp.sinh)
for _cls, _fn in _ELEMENTARY.items():
    _builds(_cls)(_elementary(_fn, _cls in _ODD))


@lru_cache(maxsize=512)
def compile_mp(expr: sp.Basic, naive: bool = False):
    """A closure ``f(env)`` evaluating ``expr``; ``env`` maps Symbols to Exact or mpf."""
    node = _mp_node(expr, naive)
    if naive:
        return lambda env: node({k: to_mpf(v) for k, v in env.items()})
    return node


# --------------------------------------------------------------------- fp
_FMAX = sp.Function("_fmax")
_FMIN = sp.Function("_fmin")


def _fp_ready(expr: sp.Basic) -> sp.Basic:
    big = 2**53
    expr = expr.replace(lambda e: e.is_Rational and (abs(e.p) > big or e.q > big),
                        lambda e: sp.Float(e, 20))
    expr = expr.replace(lambda e: isinstance(e, sp.Max), lambda e: _FMAX(*e.args))
    return expr.replace(lambda e: isinstance(e, sp.Min), lambda e: _FMIN(*e.args))


@lru_cache(maxsize=512)
def compile_fp(expr: sp.Basic, args: tuple):
    """``lambdify(args, expr)`` over NumPy with scipy.special kernels for the heads."""
    return sp.lambdify(args, _fp_ready(expr), modules=[kernels.fp_table(), "numpy"])


def fp_call(fn, *values):
    import numpy as np
    with np.errstate(all="ignore"):
        return fn(*values)
