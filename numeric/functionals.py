"""Functionals and link functions of a trade-off record, to verified digits.

Su (2025) seed 004, catalog 004 Sec. 1.1 (link functions: pure eps, (eps, delta), Renyi, zCDP, KL,
TV) and Sec. 3 (kl, kappa2, kappa3, kappabar3 of Dong, Roth, Su 2022 Sec. 3).  The definitions and
the derivation of log|f'| piece by piece are in ``derive.functionals``; this module evaluates them:

* ``method="sympy"``: the closed form SymPy integrates (Gaussian family, Laplace, f_{eps,0},
  randomized response, uniform sampling), evaluated with ``numeric.bridge.compile_mp`` and
  verified at two precisions (``numeric.precision.verified``);
* ``method="quadrature"``: tanh-sinh quadrature (``mpmath.quad``) of the same integrand of
  log|f'| over each piece, split where |.| or (.)_+ has its kink (found by bisection: log|f'| is
  non-increasing, f being convex), at the working precision, verified the same way; the Gaussian
  family is integrated in z = PhiInv(alpha) with the weight phi(z);
* ``method="auto"`` (default): SymPy where it applies, else quadrature.

Links: ``pure_eps`` (slopes at the ends), ``approx_eps`` (eps at delta: ``numeric.profile.eps_at``,
reused), ``renyi`` (order lambda > 1), ``zcdp`` (sup over lambda of D_lambda/lambda: closed form when
D_lambda/lambda does not depend on lambda, as for G_mu, else maximised numerically, the limit
lambda -> 1+ being kl), ``functional(record, "kl" | "tv" | ...)``.

A functional that is +inf (f = 0 on [x0, 1], so f' = 0 on a set of positive measure) raises
``derive.functionals.DivergentFunctional`` (a DomainError) with the reason; pure eps and eps(delta)
may be inf (they are reported as inf).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive import functionals as dfun
from derive.domains import parse_in
from derive.errors import DomainError
from derive.functionals import ORDER, DivergentFunctional
from derive.tradeoff import TradeOff

from .bridge import Exact, compile_mp, exact_of, to_mpf
from .display import ResultDisplay
from .inputs import bound_env
from .precision import verified
from .solvers import bisect, golden_max

NAMES = dfun.FUNCTIONALS
METHODS = ("auto", "sympy", "quadrature")
LINKS = ("pure", "approx", "renyi", "zcdp", "kl", "tv")


@dataclass(frozen=True)
class Value(ResultDisplay):
    """A verified number (mpf, Exact, or mpf inf) with how it was obtained."""

    value: object
    method: str                 # "sympy" | "quadrature" | "profile"
    expr: sp.Expr | None = None  # the closed form, in the record's symbols (and lambda), when derived
    note: str = ""

    @property
    def latex(self) -> str | None:
        return None if self.expr is None else sp.latex(self.expr)


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise DomainError("method", method, "one of " + ", ".join(METHODS))
    return method


def _order(order):
    if order is None:
        raise DomainError("order", "unset", "a Renyi order lambda " + _order_range())
    return parse_in("order", order, "order")


def _order_range() -> str:
    from derive.domains import DOMAINS
    return DOMAINS["order"].describe()


def _env(record: TradeOff, law: dfun.SlopeLaw | None = None) -> dict:
    env = bound_env(record)
    if law is not None:
        for dummy, expr in law.back.items():
            env[dummy] = compile_mp(expr)(dict(env))
    return env


def _evaluate(expr: sp.Expr, record: TradeOff, digits: int, extra: dict | None = None):
    """A closed form at the record's values (and ``extra``), verified; exact when SymPy says so."""
    bound = expr.xreplace(dict(record.values)).xreplace({k: v for k, v in (extra or {}).items()})
    if bound.is_Rational:
        return exact_of(bound)
    if bound is sp.oo:
        return mpmath.mpf("inf")
    fn = compile_mp(expr)
    env = bound_env(record)
    env.update({k: exact_of(v) for k, v in (extra or {}).items()})
    return verified(lambda: fn(env), digits)


# ------------------------------------------------------------------------ functionals --------

def _dg_sigma2(record: TradeOff):
    """sigma2 (an exact value) when the record is the discrete Gaussian pair (its fact ``DG_SIGMA2``),
    whose trade-off function is a numerically evaluated head: its functionals are sums over the integers
    (``numeric.discrete_gaussian.functional``), not integrals of a SymPy slope.  None otherwise."""
    from derive.mechanisms import facts as K
    if K.DG_SIGMA2 not in record.facts:
        return None
    value = record.fact(K.DG_SIGMA2)
    if not value.is_number:
        raise DomainError("sigma2", "unset", "a bound value (the functionals of the discrete Gaussian are sums)")
    return exact_of(value)


def _dg_value(record: TradeOff, name: str, lam, digits: int, method: str) -> Value:
    from . import discrete_gaussian as dg
    if method not in ("auto",):
        raise DomainError("method", method, "auto for the discrete Gaussian (its functionals are sums over "
                                            "the integers, method 'sum')")
    s2 = _dg_sigma2(record)
    if name == "mu3":
        # E_P0[(l - E l)^3] with l - E l = z/sigma2 (E_P0 Z = 0, the pmf being even): an odd function
        # against an even pmf, the terms cancel pair by pair; a sum would only return rounding noise
        return Value(exact_of(sp.S.Zero), "symmetry", sp.S.Zero,
                     "the centred loss z/sigma2 is odd and the pmf of N_Z(0, sigma2) even: the terms cancel in pairs")
    value = verified(lambda: dg.functional(name, to_mpf(s2), lam), digits)
    return Value(value, "sum", None, "sum over the integers of the discrete Gaussian pair, verified at two precisions")


def functional(record: TradeOff, name: str, *, order=None, digits: int = 15, method: str = "auto") -> Value:
    """kl, kappa2, kappa3, kappabar3, tv or renyi (with ``order``) of the record."""
    _check_method(method)
    if name not in NAMES:
        raise DomainError("name", name, "one of " + ", ".join(NAMES))
    lam = _order(order) if name == "renyi" else None
    if name != "renyi" and order is not None:
        raise DomainError("order", order, "given only with the functional renyi")
    if _dg_sigma2(record) is not None:
        return _dg_value(record, name, lam, digits, method)
    reason = dfun.divergence(record, name)
    if reason is not None:
        raise DivergentFunctional(name, record, reason)
    if method in ("auto", "sympy"):
        try:
            expr = dfun.closed_form(record, name)
        except ValueError as exc:
            if method == "sympy":
                raise DomainError("method", "sympy", f"a route SymPy can integrate: {exc}") from None
        else:
            extra = {ORDER: lam} if lam is not None else None
            try:
                value = _evaluate(expr, record, digits, extra)
            except TypeError:          # a function without an mpmath kernel in the closed form
                if method == "sympy":
                    raise
            else:
                return Value(value, "sympy", expr)
    return Value(_quadrature(record, name, lam, digits), "quadrature")


def renyi(record: TradeOff, order, digits: int = 15, method: str = "auto") -> Value:
    """D_lambda(f) = 1/(lambda - 1) log int_0^1 |f'|^(1 - lambda), lambda > 1."""
    return functional(record, "renyi", order=order, digits=digits, method=method)


def _kink(G, c, a, b):
    """x in (a, b) where the non-increasing G crosses -c (G(x) + c changes sign), or None."""
    def s(x):
        return G(x) + c
    lo, hi = a, b
    if mpmath.isinf(lo):
        lo = min(mpmath.mpf(-1), hi - 1) if not mpmath.isinf(hi) else mpmath.mpf(-1)
        while s(lo) <= 0 and lo > -2 ** 40:
            lo *= 2
    if mpmath.isinf(hi):
        hi = max(mpmath.mpf(1), lo + 1)
        while s(hi) >= 0 and hi < 2 ** 40:
            hi *= 2
    if not s(lo) > 0 or not s(hi) < 0:
        return None
    lo, hi = bisect(lambda x: s(x) > 0, lo, hi, steps=mpmath.mp.prec + 20, strict=True)
    return (lo + hi) / 2


def _quadrature(record: TradeOff, name: str, lam, digits: int):
    """The functional by tanh-sinh quadrature of its integrand of log|f'|, verified."""
    law = dfun.slope_law(record)
    var = law.var
    parts = [(p.flat, None if p.flat else compile_mp(dfun.quadrature_form(p.g)), compile_mp(p.lo), compile_mp(p.hi))
             for p in law.pieces]
    gaussian_weight = var == dfun.sy.z
    lam_e = exact_of(lam) if lam is not None else None

    def compute():
        env = _env(record, law)

        def ends(lo, hi):
            return to_mpf(lo(env)), to_mpf(hi(env))

        def integral(h, c=None):
            """sum over the non-flat pieces of int h(g) w, split where g = -c."""
            total = mpmath.mpf(0)
            for flat, g, lo, hi in parts:
                if flat:
                    continue
                a, b = ends(lo, hi)

                def G(x, g=g):
                    env[var] = x
                    return to_mpf(g(env))
                nodes = [a, b]
                if c is not None:
                    x = _kink(G, c, a, b)
                    if x is not None:
                        nodes.insert(1, x)
                if gaussian_weight and a < 0 < b and 0 not in nodes:
                    nodes = sorted(nodes + [mpmath.mpf(0)])
                if gaussian_weight:
                    nodes = _peak_nodes(nodes, lambda x: mpmath.log(abs(h(G(x)))))
                    total += mpmath.quad(lambda x: h(G(x)) * mpmath.npdf(x), nodes)
                else:
                    total += mpmath.quad(lambda x: h(G(x)), nodes)
            return total

        if name == "kl":
            return -integral(lambda g: g)
        if name == "kappa2":
            return integral(lambda g: g * g)
        if name == "kappa3":
            return integral(lambda g: abs(g) ** 3, 0)
        if name == "kappabar3":
            kl = -integral(lambda g: g)
            return integral(lambda g: abs(g + kl) ** 3, kl)
        if name == "mu3":
            kl = -integral(lambda g: g)
            return integral(lambda g: (g + kl) ** 3)
        if name == "tv":
            flat = mpmath.fsum(b - a for f_, _, lo, hi in parts if f_ for a, b in [ends(lo, hi)])
            return flat + integral(lambda g: max(mpmath.mpf(0), -mpmath.expm1(g)), 0)
        t = to_mpf(lam_e) - 1                    # renyi
        return mpmath.log(integral(lambda g: mpmath.exp(-t * g))) / t
    # a value that is exactly 0 (mu3 of a Gaussian) never shows agreeing digits: stop at a working
    # precision quadrature still reaches in seconds (PrecisionExhausted, exit 3) instead of doubling on
    return verified(compute, digits, max_dps=max(4 * digits, digits + 80))


# ----------------------------------------------------------------------------- links ---------

def pure_eps(record: TradeOff, digits: int = 15) -> Value:
    """eps of pure DP: max{log(-f'(0+)), -log(-f'(1-))}; inf (with the reason) when f(0) < 1 or a slope
    at an end is infinite or 0."""
    if _dg_sigma2(record) is not None:
        return Value(mpmath.mpf("inf"), "sympy", sp.oo, "the privacy loss (2z - 1)/(2 sigma2) of the discrete "
                                                       "Gaussian is unbounded in z: no pure eps")
    expr, reason = dfun.pure_eps_form(record)
    if expr is sp.oo:
        return Value(mpmath.mpf("inf"), "sympy", sp.oo, reason)
    return Value(_evaluate(expr, record, digits), "sympy", expr)


def approx_eps(record: TradeOff, delta, digits: int = 15) -> Value:
    """eps(delta) = inf{eps >= 0: 1 + f*(-e^eps) <= delta} (numeric.profile.eps_at, reused)."""
    from . import mp
    value = mp.profile_eps(record, delta, digits)
    how = "closed-form profile" if record.profile is not None else "numerical supremum 1 + f*(-e^eps)"
    return Value(value, "profile", None, f"root of 1 + f*(-e^eps) = delta ({how})")


def kl(record: TradeOff, digits: int = 15, method: str = "auto") -> Value:
    return functional(record, "kl", digits=digits, method=method)


def tv(record: TradeOff, digits: int = 15, method: str = "auto") -> Value:
    return functional(record, "tv", digits=digits, method=method)


#: log(lambda - 1) range searched for the zCDP supremum
_U_LOW, _U_HIGH = -24, 24


def zcdp(record: TradeOff, digits: int = 15, method: str = "auto") -> Value:
    """rho = sup_{lambda > 1} D_lambda(f) / lambda.

    When SymPy's D_lambda / lambda is free of lambda (G_mu: mu^2/2) that is the closed form.  Otherwise
    D_lambda / lambda is maximised numerically over lambda = 1 + e^u, u in [-24, 24] (a grid, then
    golden section around the best point), and compared with its limit kl(f) as lambda -> 1+."""
    _check_method(method)
    if _dg_sigma2(record) is not None:
        return _dg_zcdp(record, digits, method)
    reason = dfun.divergence(record, "renyi")
    if reason is not None:
        raise DivergentFunctional("zcdp", record, reason)
    expr = None
    if method in ("auto", "sympy"):
        try:
            expr = dfun.closed_form(record, "renyi")
        except ValueError as exc:
            if method == "sympy":
                raise DomainError("method", "sympy", f"a route SymPy can integrate: {exc}") from None
    if expr is not None:
        ratio = sp.simplify(expr / ORDER)
        if ORDER not in ratio.free_symbols:
            return Value(_evaluate(ratio, record, digits), "sympy", ratio,
                         "D_lambda/lambda does not depend on lambda")
    kl_value = functional(record, "kl", digits=digits + 5, method=method)
    if expr is not None:
        fn = compile_mp(expr)

        def D(lam, env):
            env[ORDER] = lam
            return to_mpf(fn(env))
        inner = "closed-form"
    else:
        def D(lam, env):
            return _renyi_quadrature_at(record, lam)
        inner = "quadrature"

    endpoint = {"hit": False}

    def compute():
        env = _env(record)
        kl_mp = to_mpf(kl_value.value)

        def phi(u):
            lam = 1 + mpmath.exp(u)
            return D(lam, env) / lam
        grid = [mpmath.mpf(u) for u in range(_U_LOW, _U_HIGH + 1, 2)]
        values = [phi(u) for u in grid]
        k = max(range(len(grid)), key=lambda i: values[i])
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        best = _golden(phi, lo, hi)
        endpoint["hit"] = kl_mp >= best
        return kl_mp if endpoint["hit"] else best
    value = verified(compute, digits)
    if endpoint["hit"]:
        return Value(kl_value.value, "supremum", kl_value.expr,
                     f"sup of D_lambda/lambda ({inner}) is its limit kl(f) as lambda -> 1+ (found numerically)")
    return Value(value, "supremum", None, f"sup of D_lambda/lambda ({inner}) found numerically, lambda = 1 + e^u, "
                                          f"u in [{_U_LOW}, {_U_HIGH}]")


def _dg_zcdp(record: TradeOff, digits: int, method: str) -> Value:
    """rho of the discrete Gaussian: sup over lambda of D_lambda/lambda, with D_lambda summed.

    D_lambda/lambda = 1/(2 s2) + log(Z(1 - lambda)/Z(0)) / (lambda (lambda - 1)) where
    Z(c) = sum_z exp(-(z - c)^2/(2 s2)) <= Z(0) (Poisson summation writes Z(c) as a cosine series with
    positive coefficients, largest at c = 0), with equality at every integer lambda; so the supremum is
    attained at lambda = 2 (Canonne-Kamath-Steinke 2020: 1/(2 sigma^2)-zCDP).  The value returned is
    D_2/2 by the sums, compared with the limit kl (lambda -> 1+) and a grid of orders: the largest."""
    from . import discrete_gaussian as dg
    if method != "auto":
        raise DomainError("method", method, "auto for the discrete Gaussian (its functionals are sums)")
    s2 = _dg_sigma2(record)

    def compute():
        x = to_mpf(s2)
        cands = [dg.functional("renyi", x, 2) / 2, dg.functional("kl", x)]
        cands += [dg.functional("renyi", x, lam) / mpmath.mpf(lam) for lam in ("1.25", "1.5", "3", "4.5", "10")]
        return max(cands)
    value = verified(compute, digits)
    return Value(value, "sum", None, "sup of D_lambda/lambda, attained at lambda = 2 (every integer order): "
                                     "D_2/2 summed over the integers")


def _renyi_quadrature_at(record, lam):
    """D_lambda by quadrature at an mpf order (used inside the zCDP search, at the ambient precision)."""
    law = dfun.slope_law(record)
    var = law.var
    env = _env(record, law)
    t = lam - 1
    total = mpmath.mpf(0)
    for p in law.pieces:
        if p.flat:
            continue
        g, lo, hi = compile_mp(dfun.quadrature_form(p.g)), compile_mp(p.lo), compile_mp(p.hi)

        def G(x):
            env[var] = x
            return to_mpf(g(env))
        a, b = to_mpf(lo(env)), to_mpf(hi(env))
        if var == dfun.sy.z:
            nodes = _peak_nodes([a, mpmath.mpf(0), b], lambda x: -t * G(x))
            total += mpmath.quad(lambda x: mpmath.exp(-t * G(x)) * mpmath.npdf(x), nodes)
        else:
            total += mpmath.quad(lambda x: mpmath.exp(-t * G(x)), [a, b])
    return mpmath.log(total) / t


def _peak_nodes(nodes, log_h):
    """The quadrature nodes of a Gaussian-weighted integrand h(x) phi(x) on [nodes[0], nodes[-1]] with its peak
    and the points 12 to each side of it added (in the interval).  The peak is the maximiser of
    log_h(x) - x^2/2 by golden section on [-(2s + 20), 2s + 20] within the interval, s = |log_h(1) - log_h(-1)|/2
    (the slope of a linear log_h, whose peak is at its slope).  Tanh-sinh on [0, inf] does not see a peak far
    out: the Renyi divergence of G_1 of order 100 came out 50.0000000002749 and of order 10^5 49999.6008767642,
    the same at two precisions, so printed as verified (issue #25's probe).  The peak is only a node: a wrong
    one costs accuracy, which the two-precision check then catches or not, as before."""
    a, b = nodes[0], nodes[-1]
    try:
        s = abs(log_h(mpmath.mpf(1)) - log_h(mpmath.mpf(-1))) / 2
        reach = 2 * s + 20
        lo, hi = max(a, -reach), min(b, reach)
        if not lo < hi or not mpmath.isfinite(s):
            return nodes
        m, _ = golden_max(lambda x: log_h(x) - x * x / 2, lo, hi, rel_tol=1e-6)
    except (ValueError, ZeroDivisionError, ArithmeticError):
        return nodes
    extra = [x for x in (m - 12, m, m + 12) if a < x < b and x not in nodes]
    return sorted(nodes + extra)


def _golden(h, lo, hi):
    """max of a unimodal h on [lo, hi] by golden section (the value, to the working precision), the ends
    included."""
    _, best = golden_max(h, lo, hi)
    return max(best, h(lo), h(hi))


def link(record: TradeOff, to: str, *, at_delta=None, order=None, digits: int = 15, method: str = "auto") -> Value:
    """The link functional ``to`` (pure, approx, renyi, zcdp, kl, tv) of the record."""
    if to not in LINKS:
        raise DomainError("to", to, "one of " + ", ".join(LINKS))
    if to != "approx" and at_delta is not None:
        raise DomainError("at_delta", at_delta, "given only with --to approx")
    if to != "renyi" and order is not None:
        raise DomainError("order", order, "given only with --to renyi")
    if to == "pure":
        return pure_eps(record, digits)
    if to == "approx":
        if at_delta is None:
            raise DomainError("at_delta", "unset", "a delta in [0, 1] (--at-delta) for --to approx")
        parse_in("at_delta", at_delta, "delta")
        return approx_eps(record, at_delta, digits)
    if to == "renyi":
        return renyi(record, order, digits, method)
    if to == "zcdp":
        return zcdp(record, digits, method)
    return functional(record, to, digits=digits, method=method)


__all__ = ["NAMES", "METHODS", "LINKS", "Value", "functional", "renyi", "kl", "tv", "pure_eps", "approx_eps",
           "zcdp", "link", "Exact"]
