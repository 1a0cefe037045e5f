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
from derive.mechanisms import facts as K
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from .bridge import Exact, compile_mp
from .compose_exact import _mp, _solve_decreasing
from .display import ResultDisplay
from .inputs import bound_env
from .precision import check_digits, verified, verified_mpf
from .solvers import bisect, geometric_midpoint

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
        if record.fact(K.NO_PRIVACY):
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
        source); 1/2 when f = Id (p f + (1 - p) Id is then Id as well).  Cached per working
        precision (a curve asks at every point)."""
        cache = self.__dict__.setdefault("_fixed", {})
        key = mpmath.mp.prec
        if key not in cache:
            cache[key] = self._fixed_point()
        return cache[key]

    def _fixed_point(self):
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

    def auc(self):
        """1 - int_0^1 C_p(f), from the base f on [0, x*] only.

        Derived here: C = C_p(f) is symmetric (C^{-1} = C) with fixed point c = (x* + f_p(x*))/2 (the
        middle of the slope -1 segment), so the region under C is symmetric about the diagonal and
        int_0^1 C = 2 int_0^c C - c^2.  On [0, x*] C = f_p = p f + (1 - p) Id, on [x*, c] the segment
        x* + f_p(x*) - x; integrating gives
            int_0^1 C = 2 int_0^{x*} f_p - x* f_p(x*) + (f_p(x*) - x*)(x* + f_p(x*))/2,
            int_0^{x*} f_p = p int_0^{x*} f + (1 - p)(x* - x*^2/2),
        with int_0^{x*} f by tanh-sinh quadrature between the record's breakpoints.  The area is at
        most 1/2, so 1 - area does not cancel."""
        from .auc import quadrature_nodes
        p = _mp(self.p_exact)
        q = 1 - p
        xs = self.fixed_point()
        fpx = p * self.f(xs) + q * (1 - xs)
        int_f = mpmath.quad(self.f, quadrature_nodes(self.record, 0, xs)) if xs > 0 else mpmath.mpf(0)
        int_fp = p * int_f + q * (xs - xs * xs / 2)
        return 1 - (2 * int_fp - xs * fpx + (fpx - xs) * (xs + fpx) / 2)

    def classification(self):
        """f(0), rho and the failure class of C_p(f) from the base record's (numeric.risk.classify):
        C_p(f) = f_p on [0, x*], so C(0) = p f(0) + 1 - p and (1 - C(alpha))/alpha =
        p (1 - f(alpha))/alpha + 1 - p, whose limit is rho_C = p rho_f + 1 - p (inf when rho_f is)."""
        from derive import risk as R

        from .risk import Classification, classify
        base = classify(self.record)
        p = self.p_exact
        f0 = p * base.f0.value + 1 - p
        rho = sp.oo if base.rho.value is sp.oo else p * base.rho.value + 1 - p
        how = "C_p(f) = f_p near 0: p (value of f) + 1 - p, "
        return Classification(f0=R.Limit(f0, how + base.f0.method), rho=R.Limit(rho, how + base.rho.method),
                              failure=R.failure_class(R.is_below_one(f0), rho))

    def eps(self, d):
        """inf{eps >= 0 : delta(eps) <= d}; inf when none (delta(eps) > d for all eps)."""
        zero = mpmath.mpf(0)
        if self.delta(zero) <= d:
            return zero
        if d == 0:
            # delta(eps) = 0 exactly from the largest privacy loss on, log rho (rho = p rho_f + 1 - p, the
            # classification's closed form): inf for an unbounded loss.  (The search below stopped where the
            # profile's difference cancelled to 0 and escalated the precision: --at-delta 0 ran past 100 s.)
            rho = self.classification().rho.value
            return mpmath.inf if rho is sp.oo else mpmath.log(_num(compile_mp(rho)({})))
        # a bracket [lo, hi] by squaring hi (2, 4, 16, ..., up to 2^4096, above every finite answer: parameters
        # are at most 1e308, and eps grows at most like mu^2/2 ~ 2^2047), narrowed to hi <= 2 lo by bisection
        # in log eps, then solved.  (A doubling search capped at 2^40 answered inf, "verified" at both
        # precisions, for subsample gaussian --mu 1e7 --p 0.5 at 1e-5, where eps = 5.00000410747948e13.)
        above = lambda e: self.delta(e) > d            # noqa: E731
        lo, hi = zero, mpmath.mpf(2)
        while above(hi):
            if hi > mpmath.ldexp(1, 4096):
                return mpmath.inf                      # delta stays above d: mass at L = +inf
            lo, hi = hi, hi * hi
        if lo > 0:
            lo, hi = bisect(above, lo, hi, mid=geometric_midpoint, stop=lambda a, b: b <= 2 * a)
        return _solve_decreasing(self.delta, d, lo, hi)


def _num(v):
    if isinstance(v, Exact):
        return mpmath.mpf(v.p) / v.q
    return v


def subsampled(record: TradeOff, p) -> Subsampled:
    return Subsampled(record, p)


#: a floating 0 is taken as exact when it is still 0 at ZERO_CHECK[0] x the working digits + ZERO_CHECK[1]
ZERO_CHECK = (8, 800)
#: the same for a point of the trade-off curve, whose zeros are its ends (C(1) = 0, and the power at 0 for
#: f(0) = 1): at 8x + 800 digits the fixed point's bisection made `subsample gaussian --alpha 0` take 19 s
ZERO_CHECK_CURVE = (2, 20)


def _exact_or(compute, check=None):
    """compute(), or Exact(0) when it is 0 here and still 0 at 8x the working digits + 800 (enough to resolve
    any cancellation of a profile at eps <= 1e308: it costs about 2 log10(eps/mu) digits).  A floating zero is
    not accepted by ``verified`` (it may be a cancellation); calling every 0 exact let one through:
    ``subsample gaussian --mu 1 --p 0.1 --at-eps 1e100`` printed delta = 0 as verified, where delta is
    ~10^(-2.2e199) and Phi(a) - e^eps Phi(a - mu) cancels to 0 below ~220 digits.  A 0 that the higher
    precision resolves is returned as the float 0, so ``verified`` goes on to higher precisions."""
    v = compute()
    if v != 0:
        return v
    factor, extra = check or ZERO_CHECK
    with mpmath.workdps(factor * mpmath.mp.dps + extra):
        w = compute()
    return Exact(0) if w == 0 else v


def tradeoff(record: TradeOff, p, alpha, digits: int = 15) -> SubsampledValue:
    """C_p(f)(alpha) and its power 1 - C_p(f)(alpha), verified."""
    check_digits(digits)
    a = parse_in("alpha", alpha, "alpha")
    s = Subsampled(record, p)
    beta = verified(lambda: _exact_or(lambda: s.tradeoff(_mp(a))[0], ZERO_CHECK_CURVE), digits)
    power = verified(lambda: _exact_or(lambda: s.tradeoff(_mp(a))[1], ZERO_CHECK_CURVE), digits)
    return SubsampledValue(beta, power)


def delta(record: TradeOff, p, eps, digits: int = 15) -> SubsampledValue:
    check_digits(digits)
    e = parse_in("at_eps", eps, "eps")
    s = Subsampled(record, p)
    return SubsampledValue(verified(lambda: _exact_or(lambda: s.delta(_mp(e))), digits))


def eps(record: TradeOff, p, delta_, digits: int = 15) -> SubsampledValue:
    check_digits(digits)
    d = parse_in("at_delta", delta_, "delta")
    s = Subsampled(record, p)
    return SubsampledValue(verified(lambda: _exact_or(lambda: s.eps(_mp(d))), digits))


def auc(record: TradeOff, p, digits: int = 15):
    """AUC = 1 - int C_p(f) to ``digits`` verified digits (``Subsampled.auc``)."""
    check_digits(digits)
    s = Subsampled(record, p)
    return verified_mpf(s.auc, digits)


_PW = sp.Symbol("power_of_the_test", positive=True)


def _posterior_at(s: "Subsampled", env: dict, a, digits: int):
    """(p_post, 1 - p_post) of C_p(f) at the level a (> 0), from its power (one compiled source:
    derive.posterior.posterior_of)."""
    from derive.posterior import one_minus_posterior_of, posterior_of
    up, down = compile_mp(posterior_of(_PW)), compile_mp(one_minus_posterior_of(_PW))

    def at(fn):
        def compute():
            return fn({**env, ALPHA: _mp(a), _PW: s.tradeoff(_mp(a))[1]})
        return verified(compute, digits)
    return at(up), at(down)


def posterior(record: TradeOff, p, prior_value, alpha, digits: int = 15):
    """p_post(alpha) and 1 - p_post(alpha) of C_p(f) (seed 000 DF-Def6 with the power of C_p(f));
    alpha = 0 is the limit alpha -> 0+ (numeric.risk.posterior's reading)."""
    from .inputs import alpha_exact
    from .risk import PosteriorResult, _record_env, _sup
    check_digits(digits)
    a = alpha_exact(alpha)
    s = Subsampled(record, p)
    env = _record_env(s.record, prior_value, a)
    if a.p == 0:
        up, down, _ = _sup(record, s.classification(), env, digits)
        return PosteriorResult(posterior=up, one_minus_posterior=down, digits=digits, at_zero="limit alpha -> 0+")
    up, down = _posterior_at(s, env, sp.Rational(a.p, a.q), digits)
    return PosteriorResult(posterior=up, one_minus_posterior=down, digits=digits)


def risk(record: TradeOff, p, alpha0=None, prior_value=None, digits: int = 15):
    """The disclosure-risk report of seed 000 (numeric.risk.RiskResult) for C_p(f)."""
    from .bridge import exact_of
    from .precision import evaluate_env
    from .risk import DEFAULT_ALPHA0, DEFAULT_PRIOR, RiskResult, _record_env, _sup
    check_digits(digits)
    a0 = parse_in("alpha0", DEFAULT_ALPHA0 if alpha0 is None else alpha0)
    s = Subsampled(record, p)
    cls = s.classification()
    env = _record_env(s.record, DEFAULT_PRIOR if prior_value is None else prior_value, exact_of(a0))
    up, down, attained = _sup(record, cls, env, digits)
    power = verified(lambda: _exact_or(lambda: s.tradeoff(_mp(a0))[1], ZERO_CHECK_CURVE), digits)
    rho_a0 = verified(lambda: s.tradeoff(_mp(a0))[1] / _mp(a0), digits)
    post, post_c = _posterior_at(s, env, a0, digits)
    return RiskResult(
        f0=evaluate_env(cls.f0.value, env, digits), f0_expr=cls.f0.value, f0_method=cls.f0.method,
        failure=cls.failure,
        rho=evaluate_env(cls.rho.value, env, digits), rho_expr=cls.rho.value, rho_method=cls.rho.method,
        rho_alpha0=rho_a0, power_alpha0=power, posterior_alpha0=post, one_minus_posterior_alpha0=post_c,
        posterior_sup=up, one_minus_posterior_sup=down, posterior_sup_attained=attained, digits=digits)


def risk_latex(record: TradeOff, p):
    """LaTeX of f(0), rho and sup p_post of C_p(f) (numeric.risk.RiskLatex)."""
    from derive import risk as R
    from derive.posterior import prior_c

    from .risk import RiskLatex
    cls = Subsampled(record, p).classification()
    sup = sp.Integer(1) if cls.failure != R.NONE else R.posterior_sup(cls.rho.value)[0]
    return RiskLatex(f0=sp.latex(cls.f0.value), rho=sp.latex(cls.rho.value),
                     posterior_sup=sp.latex(sup, symbol_names={prior_c: r"\bar{\pi}"}))


__all__ = ["Subsampled", "subsampled", "tradeoff", "delta", "eps", "auc", "risk", "risk_latex", "posterior",
           "SAMPLINGS", "sp"]
