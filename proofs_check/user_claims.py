"""Claims of your own: register a statement about a new mechanism from Python.

A statement is built from SymPy expressions (the toolkit's heads ``Phi``, ``PhiInv``,
``LogPhi``, ... from :mod:`derive.special`, the symbols of :mod:`derive.symbols` or your own),
never from strings: nothing here calls ``eval`` or ``sympify``.  The claim is registered in the
same registry as the built-in ones and checked the same way (``checker.run``, ``dp-derive check
--module yourpackage.claims``), with the same statuses.

* :func:`identity` -- ``lhs == rhs`` on a domain: PROVEN when SymPy simplifies ``lhs - rhs`` to 0,
  FAILED when SymPy decides it nonzero or a probe point shows it nonzero, otherwise CONFIRMED or
  FAILED numerically at verified precision on the sample points (the report says SymPy was
  undecided).
* :func:`inequality` -- ``lhs <= rhs`` for one variable on an interval (optionally in log10
  scale, for alpha down to 1e-300), other symbols fixed: grid plus adversarial search for the
  worst relative margin, FAILED below minus the verified error.
* :func:`tradeoff_axioms` -- a ``TradeOff`` record (for instance ``derive.noise(cdf=F)``) is a
  trade-off function: convex, non-increasing, ``f(alpha) <= 1 - alpha``, ``f(1) = 0``.

Example (README, "Your own claims")::

    from derive import symbols as sy
    from derive.special import Phi, PhiInv
    from proofs_check import user_claims as uc
    uc.inequality("MY-gdp-power", lhs=sy.alpha, rhs=Phi(PhiInv(sy.alpha) + 2),
                  variable=sy.alpha, interval=("1e-300", "0.999"), log_scale=True,
                  statement="the power of G_2 is at least alpha")

Write both sides in tail-safe form (a power, not 1 - f): a margin that cancels to 1e-269 costs
hundreds of digits at every point of the search.
"""

from __future__ import annotations

from typing import Iterable

import mpmath
import sympy as sp

from derive.errors import DomainError
from derive.exact import parse
from numeric.bridge import Exact, compile_mp, exact_of
from numeric.precision import as_mpf, verified

from .outcomes import agreement, proven_if
from .outcomes import inequality as sweep
from .registry import Claim, register
from .status import Outcome

DIGITS = 30
#: verified digits of an inequality's margin (its sign and size are what matter)
MARGIN_DIGITS = 12


def _exact_env(values: dict) -> dict:
    env = {}
    for s, v in values.items():
        if not isinstance(s, sp.Symbol):
            raise DomainError("values", repr(s), "SymPy Symbols as keys")
        env[s] = exact_of(parse(s.name, v) if isinstance(v, str) else sp.Rational(v))
    return env


def _value(fn, env, digits=DIGITS):
    v = verified(lambda: fn(env), digits)
    return as_mpf(v, digits + 20) if isinstance(v, Exact) else v


def identity(id: str, lhs: sp.Expr, rhs: sp.Expr, points: Iterable[dict], statement: str,
             papers=("user",), source: str = "user claim", latex: str | None = None) -> Claim:
    """Register ``lhs == rhs``; ``points`` are the sample points of its domain (``{Symbol: value}``,
    values as decimal strings or Rationals, taken exactly)."""
    points = [dict(p) for p in points]
    if not points:
        raise DomainError("points", "[]", "at least one point of the domain")
    f_lhs, f_rhs = compile_mp(lhs), compile_mp(rhs)

    def numeric() -> Outcome:
        def rows():
            for p in points:
                env = _exact_env(p)
                yield {str(k): str(v) for k, v in p.items()}, _value(f_lhs, env), _value(f_rhs, env)
        return agreement(rows(), mpmath.mpf(10) ** -(DIGITS - 3),
                         f"lhs and rhs at {len(points)} points, {DIGITS} verified digits each")

    probes = [{s: (parse(s.name, v) if isinstance(v, str) else sp.Rational(v)) for s, v in p.items()}
              for p in points]

    def check() -> Outcome:
        return proven_if({"lhs - rhs": sp.simplify(lhs - rhs)}, "sympy.simplify(lhs - rhs) == 0",
                         fallback=numeric, probes=probes)
    return register(Claim(id, tuple(papers), source, "identity", statement, check,
                          latex or f"{sp.latex(lhs)} = {sp.latex(rhs)}"))


def inequality(id: str, lhs: sp.Expr, rhs: sp.Expr, variable: sp.Symbol, interval: tuple,
               statement: str, values: dict | None = None, log_scale: bool = False,
               papers=("user",), source: str = "user claim", latex: str | None = None) -> Claim:
    """Register ``lhs <= rhs`` for ``variable`` in ``interval`` (decimal strings; with
    ``log_scale`` the search runs over log10 of the variable), other symbols fixed by ``values``.

    The margin is ``(rhs - lhs) / max(|rhs|, tiny)``, relative so that a failure at 1e-300 is seen.
    """
    lo, hi = (parse(variable.name, v) if isinstance(v, str) else sp.Rational(v) for v in interval)
    if not lo < hi:
        raise DomainError("interval", f"({lo}, {hi})", "lo < hi")
    if log_scale and lo <= 0:
        raise DomainError("interval", str(lo), "> 0 with log_scale")
    base = _exact_env(values or {})
    diff = compile_mp(rhs - lhs)
    scale = compile_mp(rhs)

    def margin(text: str):
        env = {**base, variable: exact_of(sp.Rational(text))}
        d = _value(diff, env, MARGIN_DIGITS)
        s = abs(_value(scale, env, MARGIN_DIGITS))
        with mpmath.workdps(MARGIN_DIGITS + 10):
            return d / s if s != 0 else d

    def point(t: float) -> str:
        return mpmath.nstr(mpmath.power(10, t) if log_scale else mpmath.mpf(t), 17)

    def check() -> Outcome:
        with mpmath.workdps(30):
            a, b = mpmath.mpf(lo.p) / lo.q, mpmath.mpf(hi.p) / hi.q
            t_lo, t_hi = (float(mpmath.log10(a)), float(mpmath.log10(b))) if log_scale else (float(a), float(b))
        # the searched parameter is t; margin_t maps it to the variable's value (exact decimal)
        cases = [(statement, margin)]
        grid = [str(lo), str(hi)]
        if log_scale:
            return sweep(cases, mpmath.mpf(10) ** -(MARGIN_DIGITS - 2), f"{statement}: grid + adversarial search "
                         f"over log10 {variable.name} in [{t_lo:.4g}, {t_hi:.4g}]", lo=t_lo, hi=t_hi,
                         grid_points=grid, point_name=variable.name)
        from .outcomes import minimise
        worst, t, n = minimise(lambda t: margin(point(t)), t_lo, t_hi)
        for g in grid:
            m = margin(g)
            if m < worst:
                worst, t = m, float(sp.Rational(g))
        where = {variable.name: point(t)}
        if worst < -mpmath.mpf(10) ** -(MARGIN_DIGITS - 2):
            from .status import FAILED
            return Outcome(FAILED, detail=statement, worst_at=where,
                           counterexample={**where, "margin": mpmath.nstr(worst, 5)})
        from .status import CONFIRMED
        return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), worst_at=where, points=n + 2,
                       detail=f"{statement}: grid + adversarial search over {variable.name} in [{lo}, {hi}]",
                       method="numeric, grid + adversarial search")
    return register(Claim(id, tuple(papers), source, "inequality", statement, check,
                          latex or f"{sp.latex(lhs)} \\le {sp.latex(rhs)}"))


def tradeoff_axioms(id: str, record, statement: str | None = None, papers=("user",),
                    source: str = "user claim") -> Claim:
    """Register: ``record`` (a bound TradeOff) is a trade-off function (the DRS-Prop2.2 check)."""
    from .claims_foundation import _axioms
    text = statement or f"{record.name} is a trade-off function (convex, non-increasing, f <= 1 - alpha, f(1) = 0)"
    return register(Claim(id, tuple(papers), source, "inequality", text,
                          lambda: _axioms([(record.name, record)])))
