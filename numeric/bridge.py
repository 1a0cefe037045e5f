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
from sympy.codegen.cfunctions import expm1, log1p

from derive.special import LogPhi, Phi, PhiInv, PhiInvExp

from . import kernels


class Exact:
    """An exact rational p/q (q > 0), kept unreduced: no gcd on huge integers."""

    __slots__ = ("p", "q")

    def __init__(self, p: int, q: int = 1):
        if q < 0:
            p, q = -p, -q
        self.p, self.q = p, q

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
        wp = mpmath.mp.prec + 10
        return mpmath.mpf(mpf_div(_int_mpf(self.p, wp), _int_mpf(self.q, wp),
                                  mpmath.mp.prec, round_nearest))

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
    """Compile one SymPy node into a closure ``(env) -> Exact | mpf``."""
    table = kernels.MP_NAIVE if naive else kernels.MP

    if isinstance(expr, sp.Symbol):
        name = expr
        return lambda env: env[name]
    if expr.is_Rational:
        value = exact_of(expr)
        if naive:
            return lambda env: value.mpf()
        return lambda env: value
    if expr is sp.S.Infinity:
        return lambda env: mpmath.mpf("inf")
    if expr is sp.S.NegativeInfinity:
        return lambda env: mpmath.mpf("-inf")
    if expr is sp.E:
        return lambda env: +mpmath.e
    if expr is sp.pi:
        return lambda env: +mpmath.pi
    if expr is sp.true:
        return lambda env: True
    if expr is sp.false:
        return lambda env: False
    if expr.is_Float:
        raise TypeError("Floats are not exact: use Rational (found %s)" % expr)

    if isinstance(expr, sp.Piecewise):
        pairs = [(_mp_node(v, naive), _mp_node(c, naive)) for v, c in expr.args]

        def piecewise(env):
            for value, cond in pairs:
                if cond(env):
                    return value(env)
            raise ValueError("no branch of a Piecewise applies")
        return piecewise

    kids = [_mp_node(a, naive) for a in expr.args]

    if expr.is_Add:
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
            total = mpmath.fsum(inexact)
            return total + exact.mpf() if exact.p else total
        return add
    if expr.is_Mul:
        def mul(env):
            vals = [k(env) for k in kids]
            exact, inexact = ONE, []
            for v in vals:
                if isinstance(v, Exact):
                    exact = exact * v
                else:
                    inexact.append(v)
            if not inexact:
                return exact
            if exact.p == 0 and not any(mpmath.isinf(v) for v in inexact):
                return ZERO
            return mpmath.fprod(inexact) * exact.mpf() if exact.cmp(ONE) else mpmath.fprod(inexact)
        return mul
    if expr.is_Pow:
        base, ex = kids
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
    if isinstance(expr, sp.exp):
        (k,) = kids

        def exp_(env):
            v = k(env)
            if isinstance(v, Exact) and v.p == 0:
                return ONE
            return mpmath.exp(to_mpf(v))
        return exp_
    if isinstance(expr, sp.log):
        (k,) = kids

        def log_(env):
            v = k(env)
            if isinstance(v, Exact) and v.cmp(ONE) == 0:
                return ZERO
            return mpmath.log(to_mpf(v))
        return log_
    if isinstance(expr, (expm1, log1p)):
        (k,) = kids
        f = mpmath.expm1 if isinstance(expr, expm1) else mpmath.log1p

        def zero_preserving(env):
            v = k(env)
            if isinstance(v, Exact) and v.p == 0:
                return ZERO
            return f(to_mpf(v))
        return zero_preserving
    if isinstance(expr, PhiInv):
        (k,) = kids
        kernel = table["PhiInv"]
        if naive:
            return lambda env: kernel(to_mpf(k(env)))
        return lambda env: _exact_phiinv(k(env), kernel)
    if isinstance(expr, Phi):
        (k,) = kids
        kernel = table["Phi"]

        def phi(env):
            v = k(env)
            if isinstance(v, Exact) and v.p == 0:
                return HALF
            v = to_mpf(v)
            if mpmath.isinf(v):
                return ONE if v > 0 else ZERO
            return kernel(v)
        return phi
    if isinstance(expr, (LogPhi, PhiInvExp)):
        (k,) = kids
        kernel = table[type(expr).__name__]
        return lambda env: kernel(to_mpf(k(env)))
    if isinstance(expr, (sp.Max, sp.Min)):
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
    if type(expr) in _RELATIONS:
        rel = _RELATIONS[type(expr)]
        lhs, rhs = kids
        return lambda env: rel(lhs(env), rhs(env))
    if isinstance(expr, sp.And):
        return lambda env: all(k(env) for k in kids)
    if isinstance(expr, sp.Or):
        return lambda env: any(k(env) for k in kids)
    if isinstance(expr, sp.Not):
        (k,) = kids
        return lambda env: not k(env)
    if isinstance(expr, sp.Abs):
        (k,) = kids

        def abs_(env):
            v = k(env)
            return Exact(abs(v.p), v.q) if isinstance(v, Exact) else abs(v)
        return abs_
    if type(expr) in _ELEMENTARY:
        (k,) = kids
        f = _ELEMENTARY[type(expr)]
        odd = type(expr) in _ODD

        def elementary(env):
            v = k(env)
            if odd and isinstance(v, Exact) and v.p == 0:
                return v                    # tanh(0) = 0 exactly, never a floating zero
            return f(to_mpf(v))
        return elementary
    kernel = _head_kernel(expr)
    if kernel is not None:
        head = type(expr)

        def record_head(env):
            vals = [k(env) for k in kids]
            if all(isinstance(v, Exact) for v in vals):
                exact = head(*[v.to_rational() for v in vals])    # the head's exact values (f(0) = 1, ...)
                if exact.is_Rational:
                    return Exact(int(exact.p), int(exact.q))
            return kernel(*[to_mpf(v) for v in vals])
        return record_head
    raise TypeError(f"no mpmath kernel for {type(expr).__name__} in {expr}")


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
