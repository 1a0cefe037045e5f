"""Privacy amplification by subsampling: C_p(f) of a symmetric trade-off record (issue #9 item 4).

Dong, Roth, Su (2022) Thm 4.2 (seed 004 Sec. 4.1; catalog 004 "DRS-Sec4 subsampling"): if M is
f-DP, then M run on a uniformly sampled subset of m of the n records is C_p(f)-DP, p = m/n, with

    f_p = p f + (1 - p) Id,        C_p(f) = min{f_p, f_p^{-1}}**.

f_p is T(Q, p P + (1 - p) Q) (a test against the mixture), the "remove" direction of Poisson
subsampling with rate p; f_p^{-1} is the "add" direction.  For a symmetric f with fixed point
x* = f(x*) the hull is explicit (catalog 004):

    C_p(f)(x) = f_p(x)                on [0, x*],
                x* + f_p(x*) - x      on [x*, f_p(x*)],
                f_p^{-1}(x)           on [f_p(x*), 1].

Its privacy profile is the larger of the two directions' profiles (the conjugate of the hull of a
minimum is the maximum of the conjugates), each from the base record's profile delta_f:

    remove: p delta_f(eps1),                         e^{eps1} = 1 + (e^eps - 1)/p,
    add:    p e^{eps + eps2} delta_f(-eps2),         e^{eps2} = 1 + (e^{-eps} - 1)/p  (0 when e^{eps2} <= 0),

(the add form uses delta_f(-x) = 1 - e^{-x} + e^{-x} delta_f(x) for a symmetric f, which cancels
the 1 - e^eps exactly, so no subtraction is left).  For eps < 0 the symmetry of C_p(f) gives
delta(eps) = 1 - e^eps + e^eps delta(-eps).

Everything is evaluated at the working precision from the record's own compiled expressions
(``tradeoff``, ``power`` = 1 - f without subtraction, ``profile``) and returned with verified
digits (``numeric.precision.verified``).  The fixed point and f_p^{-1} are solved by bracketed
root finding.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive.domains import parse_in
from derive.errors import DomainError
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from .display import ResultDisplay
from .bridge import Exact, compile_mp
from .compose_exact import _mp, _solve_decreasing
from .inputs import bound_env
from .precision import check_digits, verified

SAMPLINGS = ("poisson", "uniform")


@dataclass(frozen=True)
class SubsampledValue(ResultDisplay):
    value: object
    complement: object = None


class Subsampled:
    """C_p(f) of a symmetric record, evaluated at the working precision."""

    def __init__(self, record: TradeOff, p):
        if not record.symmetric:
            raise DomainError("mechanism", record.name, "a symmetric trade-off function (C_p(f) is stated "
                              "for symmetric f)")
        self.record = record
        self.p_exact = parse_in("sampling_rate", p, "p")
        if record.name == "no-privacy":
            # C_p(0) = max(0, 1 - p - alpha) = f_{0,p}: the fixed point is 0, the hull is one segment
            from derive.mechanisms import approx_dp
            record, self.p_exact = approx_dp("0", self.p_exact), sp.Integer(1)
            self.record = record
        env = bound_env(record)
        self.env = env
        self._f = compile_mp(record.f)
        self._power = compile_mp(record.one_minus_f)
        self._profile = compile_mp(record.bind(record.profile)) if record.profile is not None else None

    # -- the base record
    def f(self, x):
        return _num(self._f({**self.env, ALPHA: x}))

    def power(self, x):
        return _num(self._power({**self.env, ALPHA: x}))

    def delta_f(self, e):
        from derive.tradeoff import eps_prime
        if self._profile is None:
            raise DomainError("mechanism", self.record.name, "a record with a closed-form privacy profile "
                              "(gaussian, laplace, randomized-response, approx-dp, classical-gaussian)")
        return _num(self._profile({**self.env, eps_prime: e}))

    # -- C_p(f)
    def fixed_point(self):
        """x* = f(x*), by the canonical-noise module's geometric-then-arithmetic bisection (one
        source); 1/2 when f = Id (p f + (1 - p) Id is then Id as well)."""
        from .cnd import _F
        half = mpmath.mpf(1) / 2
        if self.f(half) >= half:
            return half
        try:
            return _F(self.record).fixed_point()
        except DomainError:
            name, value = next(iter(self.record.params.items()), ("mechanism", self.record.name))
            from derive.exact import _show
            raise DomainError({"epsilon": "eps"}.get(name, name), _show(value) if hasattr(value, "p") else value,
                              "a value whose fixed point f(c) = c is above 1e-1000 (C_p(f) is built from it; "
                              "this one's is smaller)") from None

    def tradeoff(self, x):
        """(beta, power) of C_p(f) at x (mpf in [0, 1])."""
        p = _mp(self.p_exact)
        q = 1 - p                                   # exact rational complement of p
        xs = self.fixed_point()
        fpx = p * self.f(xs) + q * (1 - xs)
        if x <= xs:
            return p * self.f(x) + q * (1 - x), p * self.power(x) + q * x
        if x <= fpx:
            beta = xs + fpx - x
            return beta, 1 - beta
        # f_p^{-1}(x): the y in [0, x*] with p power(y) + (1 - p) y = 1 - x
        target = 1 - x
        if p * self.power(mpmath.mpf(0)) >= target:
            return mpmath.mpf(0), mpmath.mpf(1)
        y = _solve_decreasing(lambda t: -(p * self.power(t) + q * t), -target, mpmath.mpf(0), xs)
        return y, 1 - y

    def delta(self, e):
        """delta(eps) of C_p(f) (the larger of the two directions)."""
        if e < 0:
            return -mpmath.expm1(e) + mpmath.exp(e) * self.delta(-e)
        p = _mp(self.p_exact)
        e1 = mpmath.log1p(mpmath.expm1(e) / p)
        remove = p * self.delta_f(e1)
        z = 1 + mpmath.expm1(-e) / p               # e^{eps2}
        add = mpmath.mpf(0)
        if z > 0:
            add = p * mpmath.exp(e) * z * self.delta_f(-mpmath.log(z))
        return max(remove, add)

    def eps(self, d):
        """inf{eps >= 0 : delta(eps) <= d}; inf when none (delta(eps) > d for all eps)."""
        zero = mpmath.mpf(0)
        if self.delta(zero) <= d:
            return zero
        hi = mpmath.mpf(1)
        while self.delta(hi) > d:
            hi *= 2
            if hi > 2**40:
                return mpmath.inf
        return _solve_decreasing(self.delta, d, zero, hi)


def _num(v):
    if isinstance(v, Exact):
        return mpmath.mpf(v.p) / v.q
    return v


def subsampled(record: TradeOff, p) -> Subsampled:
    return Subsampled(record, p)


def _exact_or(v):
    return Exact(0) if v == 0 else v


def tradeoff(record: TradeOff, p, alpha, digits: int = 15) -> SubsampledValue:
    """C_p(f)(alpha) and its power 1 - C_p(f)(alpha), verified."""
    check_digits(digits)
    a = parse_in("alpha", alpha, "alpha")
    s = Subsampled(record, p)
    beta = verified(lambda: _exact_or(s.tradeoff(_mp(a))[0]), digits)
    power = verified(lambda: _exact_or(s.tradeoff(_mp(a))[1]), digits)
    return SubsampledValue(beta, power)


def delta(record: TradeOff, p, eps, digits: int = 15) -> SubsampledValue:
    check_digits(digits)
    e = parse_in("at_eps", eps, "eps")
    s = Subsampled(record, p)
    return SubsampledValue(verified(lambda: _exact_or(s.delta(_mp(e))), digits))


def eps(record: TradeOff, p, delta_, digits: int = 15) -> SubsampledValue:
    check_digits(digits)
    d = parse_in("at_delta", delta_, "delta")
    s = Subsampled(record, p)
    return SubsampledValue(verified(lambda: _exact_or(s.eps(_mp(d))), digits))


__all__ = ["Subsampled", "subsampled", "tradeoff", "delta", "eps", "SAMPLINGS", "sp"]
