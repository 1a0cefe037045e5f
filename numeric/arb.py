"""Rigorous enclosures of dp-derive expressions in arb balls (certified mode, groundwork).

``enclose(expr, env, prec_bits)`` walks a SymPy expression built by the toolkit
and returns a ``flint.arb`` ball ``[m - r, m + r]`` that contains the exact
real value of the expression at the exact inputs in ``env``.  Nothing is
approximated without a bound: every number is either

* *exact*: a rational kept as ``numeric.bridge.Exact`` (integers, Rationals,
  the inputs, and sums, products and integer powers of these), so that
  ``1 - alpha`` at ``alpha = 1 - 10^-30`` is ``10^-30`` exactly; or
* a *ball* computed by arb (FLINT), or
* an exact infinity (``PhiInv(0) = -inf``), which only a few operations accept.

Why the result is rigorous
--------------------------
arb implements interval (midpoint-radius) arithmetic: each operation and each
special function (``exp``, ``log``, ``log1p``, ``expm1``, ``erf``, ``erfc``,
``sqrt``, ``tanh``, ...) returns a ball containing the image of every point of
its input balls, with the rounding errors and the truncation errors of its
series folded into the radius (Johansson 2017, "Arb: efficient
arbitrary-precision midpoint-radius interval arithmetic", IEEE TC 66(8)).  By
induction over the expression tree the final ball contains the exact value.
An exact rational becomes a ball only once, by a correctly rounded division
of two exact integers.

The inverse heads are certified here by monotonicity (python-flint >= 0.6 is
all that is assumed; its newer ``erfinv``/``erfcinv`` are not relied on):

* ``PhiInv(p)``: mpmath's tail-aware kernel (``numeric.kernels.ndtri``, at 96
  bits) gives a start, refined by Newton steps on arb midpoints to an
  approximation ``x0`` at the working precision (the approximation is trusted
  for nothing).  Two *exact* points ``lo < x0 < hi`` are then checked with arb
  to satisfy ``Phi(lo) < p < Phi(hi)`` for every point of the ball of ``p``.
  Because ``Phi`` is continuous and strictly increasing, ``PhiInv(p)`` lies in
  ``(lo, hi)``: only the arb comparisons matter.  If a comparison is undecided
  the bracket is widened (doubling).  A ball ``p > 1/2`` is handled as
  ``-PhiInv(1 - p)``, an exact ``p > 1/2`` with ``1 - p`` exact.
* ``PhiInvExp(y)`` likewise with ``LogPhi(lo) < y < LogPhi(hi)``.
* ``erfinv(y) = PhiInv((1 + y)/2) / sqrt(2)``.

``Phi(x) = erfc(-x/sqrt 2)/2`` uses arb's ``erfc``, so both tails are
relative-accurate (the lower tail is ``erfc`` of a large positive argument,
never ``1 - erf``).  ``LogPhi(x)`` is ``log(erfc(-x/sqrt 2)/2)`` for ``x < 0``
and ``log1p(-erfc(x/sqrt 2)/2)`` for ``x >= 0``; the two are the same real
function, so the choice affects the width only, never the validity.

``Piecewise`` uses three-valued conditions: a relation between balls is true
or false only when it holds for every point of both balls.  The branches that
can be selected (those up to and including the first certainly true one,
skipping the certainly false ones) are all enclosed and the union of their
balls is returned, so a ball straddling a breakpoint gets both sides.
``Max``/``Min`` use arb's ``max``/``min``, which are monotone in each argument.

Accuracy contract (not a guarantee, unlike containment): at ``prec_bits``
bits the relative radius is about ``2^-prec_bits`` times the condition number
of the expression; for the trade-off records at alpha down to 10^-300 and
``prec_bits = 200`` it is below 1e-55 (measured: worst 2.1e-56, classical
Gaussian power at alpha = 1e-30).  Precision is set with ``flint.ctx.workprec``
(restored on exit; flint's context is process-global, so not thread-safe) and
``mpmath.workprec``; nothing global is assigned.

python-flint is an optional dependency (the ``certified`` extra); it is
imported on first use and a missing installation raises ``ImportError``.

References
----------
F. Johansson (2017), Arb, IEEE Transactions on Computers 66(8), 1281-1292.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import mpmath
import sympy as sp
from sympy.codegen.cfunctions import log1p

from derive.errors import DomainError, PrecisionExhausted
from derive.exact import as_expr
from derive.special import LogPhi, Phi, PhiInv, PhiInvExp, expm1
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from . import kernels
from . import sympy_walk as walk
from .bridge import HALF, ONE, ZERO, Exact, exact_of
from .inputs import alpha_exact, bound_env, env_of
from .sympy_walk import RATIONAL, SYMBOL

__all__ = ["enclose", "enclose_record", "certify_le", "escalate", "certify_le_exprs",
           "Decision", "UnsupportedExpression", "SUPPORTED_HEADS", "QUANTITIES",
           "DEFAULT_PREC_BITS", "MAX_PREC_BITS"]

DEFAULT_PREC_BITS = 128
#: the precision cap of ``escalate`` (bits)
MAX_PREC_BITS = 8192
#: quantities of ``enclose_record``
QUANTITIES = ("tradeoff", "power")
#: precision (bits) of the mpmath kernel value that starts the Newton refinement of an inverse
_APPROX_BITS = 96
#: how many times the bracket of an inverse may be doubled before giving up
_MAX_WIDENINGS = 96
#: largest |exponent| of an exact rational power kept exact
_MAX_EXACT_POWER = 1024

#: every SymPy head ``enclose`` accepts (the error message for any other lists these)
SUPPORTED_HEADS = (
    "Symbol (bound in env)", "Integer", "Rational", "E", "pi", "oo", "-oo", "true", "false",
    "Add", "Mul", "Pow", "exp", "log", "log1p", "expm1", "Abs", "Max", "Min", "Piecewise",
    "Lt", "Le", "Gt", "Ge", "Eq", "Ne", "And", "Or", "Not",
    "erf", "erfc", "erfinv", "tanh", "atanh", "sinh", "cosh",
    "Phi", "PhiInv", "LogPhi", "PhiInvExp",
)


class UnsupportedExpression(TypeError):
    """``enclose`` met a SymPy head (or a Float) it has no rigorous kernel for."""

    def __init__(self, expr):
        self.expr = expr
        head = type(expr).__name__
        why = ("Floats are not exact: use Rational" if isinstance(expr, sp.Float)
               else f"no rigorous arb kernel for the head {head}")
        super().__init__(f"{why} (in {expr}); supported heads: {', '.join(SUPPORTED_HEADS)}")


def _flint():
    """python-flint, imported on first use."""
    try:
        import flint
    except ImportError as exc:
        raise ImportError(
            "numeric.arb (certified mode) needs python-flint >= 0.6, which is not installed: "
            "install the optional extra 'certified' (pip install 'dp-derive[certified]') "
            "or pip install 'python-flint>=0.6'") from exc
    return flint


# ---------------------------------------------------------------- values
class _Infinity:
    """An exact +inf or -inf (a limit value such as PhiInv(0)); never a ball."""

    __slots__ = ("sign",)

    def __init__(self, sign: int):
        self.sign = sign

    def __neg__(self):
        return _Infinity(-self.sign)

    def __repr__(self):
        return "+inf" if self.sign > 0 else "-inf"


POS_INF, NEG_INF = _Infinity(1), _Infinity(-1)
#: 1/2 as a float (a dyadic: exact in every arb comparison)
_HALF_FLOAT = 0.5


def _is_exact(v) -> bool:
    return isinstance(v, Exact)


def _is_inf(v) -> bool:
    return isinstance(v, _Infinity)


class _Walker:
    """Evaluates one expression at one environment and one precision (inside ``workprec``)."""

    def __init__(self, flint, env: dict, prec: int):
        self.flint = flint
        self.arb = flint.arb
        self.env = env
        self.prec = prec

    # ------------------------------------------------------------ conversions
    def ball(self, v):
        """An Exact or a ball as a ball (the only rounding of an exact value: one division)."""
        if isinstance(v, Exact):
            num = self.arb(self.flint.fmpz(v.p))
            return num if v.q == 1 else num / self.arb(self.flint.fmpz(v.q))
        if isinstance(v, _Infinity):
            raise ArithmeticError(f"an infinite intermediate value ({v}) cannot enter this operation")
        return v

    def point(self, x):
        """The mpf ``x`` as an exact arb point (no rounding: mantissa and exponent are copied).

        mpmath stores the sign apart (``_mpf_ = (sign, man, exp, bc)``; ``man_exp`` is unsigned).
        """
        sign, man, exp, _ = x._mpf_
        if not man and exp:
            raise ArithmeticError(f"not a finite number: {x}")
        out = self.arb((-int(man) if sign else int(man), int(exp)))
        assert out.is_exact()
        return out

    def mid_mpf(self, b):
        """The midpoint of a ball as an mpf, rounded to mpmath's working precision."""
        man, exp = b.mid().man_exp()
        return mpmath.mpf((int(man), int(exp)))

    # ------------------------------------------------------------ three-valued order
    def compare(self, a, b):
        """-1, 0 or 1 when the order of a and b is decided for every point of their balls,
        ``"le"``/``"ge"`` when only a non-strict order is decided, else None."""
        if _is_exact(a) and _is_exact(b):
            return a.cmp(b)
        if _is_inf(a) or _is_inf(b):
            sa = a.sign if _is_inf(a) else 0
            sb = b.sign if _is_inf(b) else 0
            return (sa > sb) - (sa < sb)
        x, y = self.ball(a), self.ball(b)
        if x < y:
            return -1
        if x > y:
            return 1
        if x.is_exact() and y.is_exact() and x == y:
            return 0
        if x <= y:
            return "le"
        if x >= y:
            return "ge"
        return None

    def truth(self, cond):
        """Three-valued (Kleene) truth of a condition (its handler in ``_CONDITIONS``)."""
        handler = _CONDITIONS[type(cond)]
        if handler is None:
            raise UnsupportedExpression(cond)
        return handler(self, cond)

    def union(self, values):
        if len(values) == 1:
            return values[0]
        out = self.ball(values[0])
        for v in values[1:]:
            out = out.union(self.ball(v))
        return out

    # ------------------------------------------------------------ the walk
    def value(self, expr):
        """Exact, ball or infinity containing ``expr``: shared leaf step, then ``_NODES`` or ``_UNARY``."""
        kind = walk.leaf(expr, UnsupportedExpression)
        if kind is None:
            node = _NODES[type(expr)]
            if node is not None:
                return node(self, expr)
            unary = _UNARY[type(expr)]
            if unary is not None and len(expr.args) == 1:
                return unary(self, self.value(expr.args[0]))
        elif kind is SYMBOL:
            try:
                return self.env[expr]
            except KeyError:
                raise KeyError(f"the symbol {expr} has no value in env") from None
        elif kind is RATIONAL:
            return exact_of(expr)
        elif type(expr) in _CONSTANTS:     # true/false are conditions only
            return _CONSTANTS[type(expr)](self.arb)
        raise UnsupportedExpression(expr)

    def piecewise(self, expr):
        selectable = []
        for branch_value, cond in expr.args:
            t = self.truth(cond)
            if t is False:
                continue
            selectable.append(self.value(branch_value))
            if t is True:
                break
        else:
            if not selectable:
                raise DomainError("Piecewise", expr, "an expression one of whose conditions holds")
            # every remaining condition undecided and none certainly true: the value may be
            # undefined; the enclosure still covers every branch that could be selected
        return self.union(selectable)

    def add(self, vals):
        exact, balls, infs = ZERO, [], set()
        for v in vals:
            if _is_exact(v):
                exact = exact + v
            elif _is_inf(v):
                infs.add(v.sign)
            else:
                balls.append(v)
        if infs:
            if len(infs) == 2:
                raise ArithmeticError("inf - inf in a sum")
            for b in balls:
                if not b.is_finite():
                    raise ArithmeticError("inf plus an unbounded ball")
            return POS_INF if 1 in infs else NEG_INF
        if not balls:
            return exact
        total = balls[0]
        for b in balls[1:]:
            total = total + b
        return total + self.ball(exact) if exact.p else total

    def sign(self, v):
        """Sign of v if decided (1, -1, 0), else None."""
        if _is_exact(v):
            return v.sign()
        if _is_inf(v):
            return v.sign
        c = self.compare(v, ZERO)
        return c if c in (-1, 0, 1) else None

    def mul(self, vals):
        exact, balls, infs = ONE, [], []
        for v in vals:
            if _is_exact(v):
                exact = exact * v
            elif _is_inf(v):
                infs.append(v)
            else:
                balls.append(v)
        if infs:
            s = exact.sign()
            for v in infs:
                s *= v.sign
            for b in balls:
                sb = self.sign(b)
                if not sb:
                    raise ArithmeticError("inf times a factor of undecided sign (or zero)")
                s *= sb
            if s == 0:
                raise ArithmeticError("0 * inf in a product")
            return POS_INF if s > 0 else NEG_INF
        if not balls:
            return exact
        if exact.p == 0:
            # 0 times any finite real is 0 (a ball only encloses a finite real)
            return ZERO
        total = balls[0]
        for b in balls[1:]:
            total = total * b
        return total if exact.cmp(ONE) == 0 else total * self.ball(exact)

    def pow(self, base, ex):
        if _is_exact(ex) and ex.q == 1:
            e = ex.p
            if _is_exact(base) and abs(e) <= _MAX_EXACT_POWER:
                if base.p == 0 and e < 0:
                    raise DomainError("base", 0, "nonzero under a negative power")
                b, k = (base, e) if e >= 0 else (base.inv(), -e)
                return Exact(b.p ** k, b.q ** k)
            if _is_inf(base):
                if e == 0:
                    return ONE
                if e < 0:
                    return ZERO
                return POS_INF if base.sign > 0 or e % 2 == 0 else NEG_INF
            if e == 0:
                return ONE
            return self.ball(base) ** e
        if _is_inf(base) or _is_inf(ex):
            if _is_inf(base) and base.sign > 0 and self.sign(ex) in (1, -1):
                return POS_INF if self.sign(ex) > 0 else ZERO
            raise ArithmeticError(f"power with an infinite operand ({base} ** {ex})")
        if self.sign(base) == -1:
            raise DomainError("base", base, "nonnegative under a non-integer power")
        if _is_exact(ex) and ex.cmp(HALF) == 0:
            return self.ball(base).sqrt()
        if _is_exact(ex) and ex.cmp(-HALF) == 0:
            return self.ball(base).rsqrt()
        return self.ball(base) ** self.ball(ex)

    def extremum(self, vals, is_max: bool):
        want = 1 if is_max else -1
        # a candidate that beats (or ties) every other one for all points keeps its exactness
        for i, v in enumerate(vals):
            if all(self.compare(v, w) in ((want, 0, "ge") if is_max else (want, 0, "le"))
                   for j, w in enumerate(vals) if j != i):
                return v
        finite = [v for v in vals if not _is_inf(v)]
        if any(_is_inf(v) and v.sign == want for v in vals):
            return POS_INF if is_max else NEG_INF
        out = self.ball(finite[0])
        for v in finite[1:]:
            out = out.max(self.ball(v)) if is_max else out.min(self.ball(v))
        return out

    # ------------------------------------------------------------ elementary functions
    def exp(self, v):
        if _is_exact(v) and v.p == 0:
            return ONE
        if _is_inf(v):
            return POS_INF if v.sign > 0 else ZERO
        return self.ball(v).exp()

    def log(self, v):
        if _is_exact(v):
            if v.cmp(ONE) == 0:
                return ZERO
            if v.p == 0:
                return NEG_INF
            if v.sign() < 0:
                raise DomainError("log argument", v.to_rational(), "nonnegative")
        if _is_inf(v):
            if v.sign > 0:
                return POS_INF
            raise DomainError("log argument", "-inf", "nonnegative")
        return self.ball(v).log()

    def abs_(self, v):
        if _is_exact(v):
            return Exact(abs(v.p), v.q)
        if _is_inf(v):
            return POS_INF
        return abs(v)

    # ------------------------------------------------------------ normal distribution
    def _sqrt_half(self):
        return self.arb(2).rsqrt()

    def _wide(self, x) -> bool:
        """A ball whose radius is more than rounding (a cell of ``proofs_check.certified``)."""
        return bool(x.rad() > abs(x.mid()) * self.arb(2) ** (-(self.prec // 2)) + self.arb(2) ** (-self.prec))

    def phi_ball(self, x):
        """Phi on a ball: erfc(-x/sqrt2)/2, valid for every real x, small side by erfc.  On a wide
        ball, the hull of the enclosures at its two ends (Phi is increasing, so Phi([a, b]) =
        [Phi(a), Phi(b)]): arb's erfc of a wide ball loses the sign of a small tail."""
        if self._wide(x):
            return self.phi_ball(x.lower()).union(self.phi_ball(x.upper()))
        return (-x * self._sqrt_half()).erfc() / 2

    def log_phi_ball(self, x):
        """log Phi on a ball (two expressions of the same real function; see module doc); on a wide
        ball the hull of its ends (log Phi is increasing)."""
        if self._wide(x):
            return self.log_phi_ball(x.lower()).union(self.log_phi_ball(x.upper()))
        if x >= 0:
            return (-((x * self._sqrt_half()).erfc() / 2)).log1p()
        return ((-x * self._sqrt_half()).erfc() / 2).log()

    def phi(self, v):
        if _is_inf(v):
            return ONE if v.sign > 0 else ZERO
        if _is_exact(v) and v.p == 0:
            return HALF
        return self.phi_ball(self.ball(v))

    def log_phi(self, v):
        if _is_inf(v):
            if v.sign > 0:
                return ZERO
            return NEG_INF
        return self.log_phi_ball(self.ball(v))

    def approximate_log_phi_inverse(self, y, x0):
        """An exact point near the solution x of LogPhi(x) = y (y a ball), trusted for nothing.

        ``x0`` is mpmath's tail-aware kernel value at ``_APPROX_BITS`` bits; Newton steps on
        ``LogPhi(x) - y`` (derivative phi/Phi), evaluated with arb at the working precision
        on midpoints only, double its number of correct bits until ``prec`` is reached.
        Only ``certify_inverse`` turns this point into an enclosure.
        """
        if not mpmath.isfinite(x0):
            raise PrecisionExhausted(f"no finite approximation of the inverse ({x0})")
        x = self.point(x0)
        y = self.arb(y.mid())
        log_sqrt_2pi = (2 * self.arb.pi()).log() / 2
        bits = _APPROX_BITS - 8
        while bits < self.prec + 8:
            lphi = self.log_phi_ball(x)
            step = (lphi - y) * (lphi + x * x / 2 + log_sqrt_2pi).exp()
            if not step.is_finite():
                break
            x = (x - step).mid()
            bits *= 2
        return x

    def certify_inverse(self, forward: Callable, slope: Callable, target, center):
        """A ball containing forward^{-1}(t) for every t in the ball ``target``.

        ``forward`` (ball -> ball) encloses a continuous strictly increasing function,
        ``center`` is an approximation of the inverse (an exact arb point) and
        ``slope(center)`` approximates the derivative there (used only to size the first
        bracket).  Two exact points lo < center < hi are accepted only when arb proves
        forward(lo) < t < forward(hi) for every t in ``target`` (``<`` of arb balls holds
        for all points).  Then, by monotonicity and continuity, the inverse of every t
        lies in (lo, hi), and the returned ball (arb's union of the two points) contains
        [lo, hi].  The half-width starts at the larger of ~2^-(prec-8) relative and twice
        the target's radius over the slope, and doubles while a comparison is undecided.
        """
        one = self.arb(1)
        r = (abs(center).max(one) * self.arb(2) ** -(self.prec - 8)).upper()
        if target.rad() > 0:
            d = slope(center)
            if d.is_finite() and d > 0:
                r = r.max((2 * target.rad() / d.mid()).upper())
        for _ in range(_MAX_WIDENINGS):
            lo = (center - r).lower()
            hi = (center + r).upper()
            if forward(lo) < target and forward(hi) > target:
                return lo.union(hi)
            r = r * 2
        raise PrecisionExhausted(
            f"could not certify an inverse at {self.prec} bits (target {target})")

    def _log_density(self, x):
        """log phi(x) = -x^2/2 - log sqrt(2 pi) (a ball)."""
        return -(x * x) / 2 - (2 * self.arb.pi()).log() / 2

    def phi_slope(self, x):
        """Phi'(x) = phi(x)."""
        return self._log_density(x).exp()

    def log_phi_slope(self, x):
        """(log Phi)'(x) = phi(x)/Phi(x)."""
        return (self._log_density(x) - self.log_phi_ball(x)).exp()

    def phi_inv(self, v):
        if _is_inf(v):
            raise DomainError("PhiInv argument", v, "in [0, 1]")
        if _is_exact(v):
            if v.sign() < 0 or v.cmp(ONE) > 0:
                raise DomainError("PhiInv argument", v.to_rational(), "in [0, 1]")
            if v.p == 0:
                return NEG_INF
            if v.cmp(ONE) == 0:
                return POS_INF
            c = v.cmp(HALF)
            if c == 0:
                return ZERO
            if c > 0:
                # upper half by symmetry, with the complement 1 - p exact
                return -self.phi_inv(ONE + (-v))
        p = self.ball(v)
        if not (p > 0 and p < 1):
            if p <= 0 or p >= 1:
                raise DomainError("PhiInv argument", p, "in [0, 1]")
            raise PrecisionExhausted(f"PhiInv argument {p} not separated from 0 and 1")
        if p > _HALF_FLOAT:
            # upper half by symmetry: the kernel then sees 1 - p, which does not round to 0
            return -self.phi_inv(1 - p)
        with mpmath.workprec(_APPROX_BITS):
            x0 = kernels.ndtri(self.mid_mpf(p))
        center = self.approximate_log_phi_inverse(p.log(), x0)
        return self.certify_inverse(self.phi_ball, self.phi_slope, p, center)

    def phi_inv_exp(self, v):
        if _is_inf(v):
            if v.sign < 0:
                return NEG_INF
            raise DomainError("PhiInvExp argument", v, "in [-inf, 0]")
        if _is_exact(v):
            if v.sign() > 0:
                raise DomainError("PhiInvExp argument", v.to_rational(), "in [-inf, 0]")
            if v.p == 0:
                return POS_INF
        y = self.ball(v)
        if not y < 0:
            if y > 0:
                raise DomainError("PhiInvExp argument", y, "in [-inf, 0]")
            raise PrecisionExhausted(f"PhiInvExp argument {y} not separated from 0")
        with mpmath.workprec(_APPROX_BITS):
            x0 = kernels.ndtri_exp(self.mid_mpf(y))
        center = self.approximate_log_phi_inverse(y, x0)
        return self.certify_inverse(self.log_phi_ball, self.log_phi_slope, y, center)

    def erfinv(self, v):
        # erfinv(y) = PhiInv((1 + y)/2)/sqrt(2); exact y keeps (1 + y)/2 exact
        if _is_exact(v):
            p = (ONE + v) * HALF
        else:
            p = (self.ball(v) + 1) / 2
        x = self.phi_inv(p)
        if _is_exact(x) or _is_inf(x):
            return x
        return x * self._sqrt_half()

    def ball_method(self, name, zero_at_zero=False):
        def kernel(v):
            if zero_at_zero and _is_exact(v) and v.p == 0:
                return ZERO
            if _is_inf(v):
                raise ArithmeticError(f"{name} of an infinite value is not supported")
            return getattr(self.ball(v), name)()
        return kernel


#: one-argument heads: ``(walker, value of the argument) -> value``, found through the MRO
_UNARY = walk.Dispatch("arb unary", {
    sp.exp: _Walker.exp,
    sp.log: _Walker.log,
    sp.Abs: _Walker.abs_,
    Phi: _Walker.phi,
    LogPhi: _Walker.log_phi,
    PhiInv: _Walker.phi_inv,
    PhiInvExp: _Walker.phi_inv_exp,
    sp.erfinv: _Walker.erfinv,
    log1p: lambda w, v: w.ball_method("log1p", True)(v),
    expm1: lambda w, v: w.ball_method("expm1", True)(v),
    sp.erf: lambda w, v: (ONE if v.sign > 0 else -ONE) if _is_inf(v) else w.ball_method("erf", True)(v),
    sp.erfc: lambda w, v: (ZERO if v.sign > 0 else Exact(2)) if _is_inf(v) else w.ball_method("erfc")(v),
    sp.tanh: lambda w, v: w.ball_method("tanh", True)(v),
    sp.atanh: lambda w, v: w.ball_method("atanh", True)(v),
    sp.sinh: lambda w, v: w.ball_method("sinh", True)(v),
    sp.cosh: lambda w, v: ONE if _is_exact(v) and v.p == 0 else w.ball_method("cosh")(v),
})

#: the named constants a value may be (true/false are conditions only), by class (each is a singleton)
_CONSTANTS = {type(sp.S.Infinity): lambda arb: POS_INF, type(sp.S.NegativeInfinity): lambda arb: NEG_INF,
              type(sp.E): lambda arb: arb.const_e(), type(sp.pi): lambda arb: arb.pi()}

#: SymPy class -> ``(walker, expr) -> value`` (Exact, ball or infinity), found through the MRO
_NODES = walk.Dispatch("arb")
_NODES.register(sp.Piecewise)(_Walker.piecewise)
_NODES.register(sp.Add)(lambda w, e: w.add([w.value(a) for a in e.args]))
_NODES.register(sp.Mul)(lambda w, e: w.mul([w.value(a) for a in e.args]))
_NODES.register(sp.Pow)(lambda w, e: w.pow(w.value(e.base), w.value(e.exp)))
_NODES.register(sp.Max, sp.Min)(lambda w, e: w.extremum([w.value(a) for a in e.args], isinstance(e, sp.Max)))


def _relation(table):
    """The truth of a relation from ``_Walker.compare`` of its sides (-1, 0, 1, "le", "ge"; None: undecided)."""
    return lambda w, c: table.get(w.compare(w.value(c.lhs), w.value(c.rhs)))


#: SymPy class -> ``(walker, cond) -> True | False | None``: Kleene truth (decided for every point of the balls)
_CONDITIONS = walk.Dispatch("arb conditions")
_CONDITIONS.register(type(sp.true))(lambda w, c: True)
_CONDITIONS.register(type(sp.false))(lambda w, c: False)
_CONDITIONS.register(sp.And)(lambda w, c: _kleene([w.truth(a) for a in c.args], False, True))
_CONDITIONS.register(sp.Or)(lambda w, c: _kleene([w.truth(a) for a in c.args], True, False))
_CONDITIONS.register(sp.Not)(lambda w, c: {True: False, False: True, None: None}[w.truth(c.args[0])])
_CONDITIONS.register(sp.StrictLessThan)(_relation({-1: True, 0: False, 1: False, "ge": False}))
_CONDITIONS.register(sp.LessThan)(_relation({-1: True, 0: True, 1: False, "le": True}))
_CONDITIONS.register(sp.StrictGreaterThan)(_relation({1: True, 0: False, -1: False, "le": False}))
_CONDITIONS.register(sp.GreaterThan)(_relation({1: True, 0: True, -1: False, "ge": True}))
_CONDITIONS.register(sp.Equality)(_relation({0: True, -1: False, 1: False}))
_CONDITIONS.register(sp.Unequality)(_relation({0: False, -1: True, 1: True}))


def _kleene(vals, decisive, otherwise):
    """And (decisive False) or Or (decisive True) of three-valued truths."""
    return decisive if decisive in vals else (None if None in vals else otherwise)


# ---------------------------------------------------------------- public API
def _env_values(env: dict, flint) -> dict:
    """Symbols -> Exact (numbers taken exactly, through ``numeric.inputs.env_of``) or arb."""
    out, numbers = {}, {}
    for s, v in env.items():
        if isinstance(v, (Exact, flint.arb)):
            out[s] = v
        else:
            numbers[s] = v
    out.update(env_of(numbers))
    return out


def _as_ball(walker, v):
    if _is_inf(v):
        return walker.arb.pos_inf() if v.sign > 0 else walker.arb.neg_inf()
    out = walker.ball(v)
    if not out.is_finite():
        # true (finite) value, useless ball: an argument was not separated from the
        # boundary of a domain (a power of a ball straddling 0, log near 0, ...)
        raise PrecisionExhausted(f"the enclosure is not finite at {walker.prec} bits: {out}")
    return out


def enclose(expr: sp.Expr, env: dict, prec_bits: int = DEFAULT_PREC_BITS):
    r"""A ``flint.arb`` ball containing the exact value of ``expr`` at ``env``.

    Parameters
    ----------
    expr : sympy.Expr
        An expression of the toolkit (heads in ``SUPPORTED_HEADS``).  Floats are
        refused (they are not exact).
    env : dict
        ``{Symbol: value}``; values are exact numbers (SymPy Rational, int,
        Fraction, decimal string: parsed exactly by ``numeric.inputs.env_of``),
        ``numeric.bridge.Exact``, or ``flint.arb`` balls (uncertain inputs: the
        result then encloses the value at every point of those balls).
    prec_bits : int
        Working precision of arb (bits).

    Returns
    -------
    flint.arb
        An exact result (a rational, e.g. f(1) = 0) is returned as the ball of
        that rational at ``prec_bits``; an exact infinity as ``arb.pos_inf()`` or
        ``arb.neg_inf()``.

    Raises
    ------
    UnsupportedExpression
        For a head outside ``SUPPORTED_HEADS`` (the message lists them).
    DomainError
        For an argument outside a head's domain (proved so by the balls).
    PrecisionExhausted
        When an inverse (PhiInv, PhiInvExp, erfinv) could not be certified, an
        argument could not be separated from its domain's boundary, or the final
        ball is not finite, at this precision (``escalate`` retries higher).
    ImportError
        When python-flint (the ``certified`` extra) is not installed.

    Notes
    -----
    Containment is guaranteed (see the module docstring: arb's ball arithmetic,
    and monotonicity for the inverses).  The radius is not guaranteed; with
    tail-safe expressions it is a small multiple of ``2^-prec_bits`` relative.
    """
    flint = _flint()
    with flint.ctx.workprec(int(prec_bits)):
        walker = _Walker(flint, _env_values(env, flint), int(prec_bits))
        return _as_ball(walker, walker.value(as_expr(expr)))


def _record_expr(record: TradeOff, quantity: str) -> sp.Expr:
    if quantity not in QUANTITIES:
        raise DomainError("quantity", quantity, "one of " + ", ".join(QUANTITIES))
    return record.tradeoff if quantity == "tradeoff" else record.power


def enclose_record(record: TradeOff, quantity: str, alpha, prec_bits: int = DEFAULT_PREC_BITS):
    """A ball containing f(alpha) ("tradeoff") or 1 - f(alpha) ("power") of a bound record.

    ``alpha`` is taken exactly (decimal string, int, Fraction or Rational, in
    [0, 1]) by ``numeric.inputs.alpha_exact``; the record's parameters by
    ``numeric.inputs.bound_env`` (the same inputs as ``numeric.mp``).  The
    record's stable expression (``record.tradeoff`` / ``record.power``) is
    enclosed by ``enclose``; rigour as there.
    """
    expr = _record_expr(record, quantity)
    env = bound_env(record)
    env[ALPHA] = alpha_exact(alpha)
    return enclose(expr, env, prec_bits)


def certify_le(lhs, rhs):
    """Decide ``lhs <= rhs`` from two enclosures.

    Returns True when every point of ``lhs`` is <= every point of ``rhs``
    (upper(lhs) <= lower(rhs), so the exact values satisfy lhs <= rhs), False
    when every point of ``lhs`` is > every point of ``rhs`` (lower(lhs) >
    upper(rhs): lhs > rhs is proved), and None otherwise (the balls overlap, or
    one is NaN).  An equality of two values that are not both exact dyadic points
    is never decided: escalating the precision cannot separate equal values.

    ``lhs`` and ``rhs`` are ``flint.arb`` balls (used as they are), or anything
    ``flint.arb()`` takes (ints, dyadic floats, decimal strings: arb rounds
    those to a ball at the current flint precision, which is still rigorous).
    """
    flint = _flint()
    a = lhs if isinstance(lhs, flint.arb) else flint.arb(lhs)
    b = rhs if isinstance(rhs, flint.arb) else flint.arb(rhs)
    if a.is_nan() or b.is_nan():
        return None
    if a <= b:
        return True
    if a > b:
        return False
    return None


@dataclass(frozen=True)
class Decision:
    """Outcome of ``escalate``: the decision (None when undecided at the cap) and the
    precision (bits) of the last attempt."""

    result: bool | None
    prec_bits: int


def escalate(decide: Callable[[int], bool | None], prec_bits: int = 64,
             max_prec_bits: int = MAX_PREC_BITS) -> Decision:
    """Call ``decide(prec)`` at prec_bits, 2 prec_bits, ... up to ``max_prec_bits``
    until it returns True or False.

    ``decide`` returns True, False or None (undecided); a ``PrecisionExhausted``
    raised inside counts as undecided.  Returns a ``Decision``; its result is None
    when no precision up to the cap decided (e.g. an exact equality).
    """
    prec = int(prec_bits)
    while True:
        try:
            result = decide(prec)
        except PrecisionExhausted:
            result = None
        if result is not None or prec >= max_prec_bits:
            return Decision(result, prec)
        prec = min(2 * prec, int(max_prec_bits))


def certify_le_exprs(lhs: sp.Expr, rhs: sp.Expr, env: dict, prec_bits: int = 64,
                     max_prec_bits: int = MAX_PREC_BITS) -> Decision:
    """``certify_le(enclose(lhs), enclose(rhs))`` with precision doubled until decided."""
    return escalate(lambda prec: certify_le(enclose(lhs, env, prec), enclose(rhs, env, prec)),
                    prec_bits, max_prec_bits)
