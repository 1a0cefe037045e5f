"""Privacy-first and utility-first parameter choice to verified digits (seed 000).

The roots are SymPy's (``derive.design``); here the inputs are checked, the
root whose validity condition holds is picked with exact arithmetic, and it is
evaluated through ``numeric.precision.evaluate_env``.

Results are frozen dataclasses (``numeric.display.ResultDisplay``): ``SelectResult``,
``ZtestResult``, ``ZtestMinMu``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive import design as D
from derive.domains import parse_in
from derive.errors import DomainError
from derive.exact import as_expr, parse
from derive.symbols import alpha as ALPHA
from derive.symbols import mu as MU
from derive.symbols import n as N
from derive.tradeoff import TradeOff

from .bridge import Exact, exact_of
from .display import ResultDisplay
from .precision import evaluate_env

TARGETS = ("rho", "rho-alpha0", "power")
#: the value R of --target rho-alpha0 in the printed equation and solution
RHO_ALPHA0 = sp.Symbol("R", positive=True)


@dataclass(frozen=True)
class SelectResult(ResultDisplay):
    """The parameter's name ("eps", "mu", ...), its value, SymPy's root (``expr``) and the equation solved."""
    parameter: str
    value: object
    expr: object
    equation: object
    digits: int = 15


@dataclass(frozen=True)
class ZtestResult(ResultDisplay):
    """Power of the one-sided Z-test on the protected mean and on the unprotected one, their complements,
    the relative loss of power and the standard deviation sigma_n of the protected mean."""
    power: object
    power_unprotected: object
    one_minus_power: object
    one_minus_power_unprotected: object
    relative_loss: object
    sigma_n: object
    digits: int = 15


@dataclass(frozen=True)
class ZtestMinMu(ResultDisplay):
    """The smallest mu meeting the power target, the unprotected power and the target power; ``expr`` is
    SymPy's root for mu (None when every mu > 0 meets the target, which ``note`` then says)."""
    mu: object
    power_unprotected: object
    target_power: object
    digits: int = 15
    note: str | None = None
    expr: object = None


def _name(symbol: sp.Symbol) -> str:
    return "eps" if symbol.name == "epsilon" else symbol.name


def _pick(roots, subs: dict):
    """The first root whose condition is true at the exact values ``subs``."""
    for root, cond in roots:
        if as_expr(cond).xreplace(subs) is sp.true:
            return root
    return None


def select(record: TradeOff, target: str, value, alpha0=None, digits: int = 15) -> SelectResult:
    """The parameter for which rho, rho_alpha0 or the power at alpha0 takes ``value``."""
    if target not in TARGETS:
        raise DomainError("target", target, "one of " + ", ".join(TARGETS))
    sym = D.parameter(record)
    if target == "rho":
        r = parse("value", value, 1, None)
        rho = D.rho_of_parameter(record).value
        if rho is sp.oo:
            raise DomainError("target", "rho", f"a target {record.name} can meet: rho = inf for every "
                              f"{sym.name} > 0 (failure is graceful or catastrophic); "
                              "use --target rho-alpha0 or --target power")
        roots, subs = D.rho_roots(record), {D.target: r}
        equation = sp.Eq(rho, D.target)
    else:
        if alpha0 is None:
            raise DomainError("alpha0", "missing", f"a level in (0, 1) for --target {target}")
        a0 = parse_in("alpha0_open", alpha0, "alpha0")
        if target == "power":
            v = parse("value", value, a0, 1, high_open=True)
        else:
            r = parse("value", value, 1, 1 / a0, high_open=True)
            v = r * a0
        roots, subs = D.power_roots(record), {D.alpha0: a0, D.target: v}
        equation = sp.Eq(record.power.subs(ALPHA, D.alpha0), D.target)
    root = _pick(roots, subs)
    if root is None:
        raise DomainError("value", value, f"a value for which {equation} has a root with "
                          f"{sym.name} >= 0 (SymPy found none valid)")
    env = {s: exact_of(v) for s, v in subs.items()}
    if target != "rho" and subs[D.target] == subs[D.alpha0]:
        got = Exact(0)        # power alpha0 at level alpha0: no privacy loss, the parameter is 0 exactly
    else:
        got = evaluate_env(root, env, digits)
    shown = root
    if target == "rho-alpha0":
        # shown in the target's own terms, R = power/alpha0 (V = R alpha0 was printed as "log(V/alpha_0)"
        # for a value R = 2, which reads as log(2000))
        shown = root.subs(D.target, RHO_ALPHA0 * D.alpha0)
        equation = sp.Eq(record.power.subs(ALPHA, D.alpha0) / D.alpha0, RHO_ALPHA0)
    return SelectResult(parameter=_name(sym), value=got, expr=shown, equation=equation, digits=digits)


def _ztest_env(n, sigma, m, alpha, delta_q=None) -> dict:
    nn = parse_in("n", n)
    dq = parse_in("delta_q", delta_q) if delta_q is not None else 1 / nn
    return {N: exact_of(nn), D.sigma: exact_of(parse_in("sigma", sigma)),
            D.m: exact_of(parse_in("m", m)),
            ALPHA: exact_of(parse_in("alpha_open", alpha, "alpha")),
            D.delta_q: exact_of(dq)}


def ztest(n, sigma, m, alpha, mu, delta_q=None, digits: int = 15) -> ZtestResult:
    """Power of the one-sided Z-test on the protected mean, and against the unprotected test."""
    env = _ztest_env(n, sigma, m, alpha, delta_q)
    env[MU] = exact_of(parse_in("mu_positive", mu, "mu"))
    return ZtestResult(power=evaluate_env(D.ztest_power, env, digits),
                       power_unprotected=evaluate_env(D.ztest_power_unprotected, env, digits),
                       one_minus_power=evaluate_env(D.ztest_miss, env, digits),
                       one_minus_power_unprotected=evaluate_env(D.ztest_miss_unprotected, env, digits),
                       relative_loss=evaluate_env(D.ztest_relative_loss, env, digits),
                       sigma_n=evaluate_env(D.sigma_n, env, digits), digits=digits)


def ztest_min_mu(n, sigma, m, alpha, max_relative_loss=None, min_power=None, delta_q=None,
                 digits: int = 15, max_relative_beta_increase=None) -> ZtestMinMu:
    """Smallest mu keeping the power >= (1 - L) x unprotected power, or >= a given power.

    ``max_relative_beta_increase`` B is seed 000's criterion as printed in
    section 5.2, |beta_mu - beta|/beta <= B on the type II error: the power must be
    at least p0 - B (1 - p0), with 1 - p0 = Phi(-(m sqrt(n)/sigma + PhiInv(alpha))).
    """
    env = _ztest_env(n, sigma, m, alpha, delta_q)
    p0 = D.ztest_power_unprotected
    given = [v is not None for v in (max_relative_loss, min_power, max_relative_beta_increase)]
    if sum(given) != 1:
        raise DomainError("max_relative_loss", "missing", "exactly one of max_relative_loss and min_power")
    if max_relative_beta_increase is not None:
        name, text = "max_relative_beta_increase", max_relative_beta_increase
        b = parse_in(name, text)
        gap = b * D.Phi(-p0.args[0])
    elif max_relative_loss is not None:
        name, text = "max_relative_loss", max_relative_loss
        loss = parse_in(name, text)
        gap = loss * p0
    else:
        name, text = "min_power", min_power
        goal = parse_in(name, text)
        gap = p0 - goal
    goal = p0 - gap
    unprotected = evaluate_env(p0, env, digits)
    level = env[ALPHA].mpf()
    goal_value = evaluate_env(goal, env, digits)
    if not (gap != 0 and evaluate_env(gap, env, digits) > 0):
        raise DomainError(name, text, f"a target below the unprotected power {mpmath.nstr(unprotected, digits)} "
                          "(reached only as mu -> inf)")
    if goal_value <= level:
        return ZtestMinMu(mu=sp.Integer(0), power_unprotected=unprotected, target_power=goal_value, digits=digits,
                          note="every mu > 0 keeps the power above the target (the power tends to alpha as mu -> 0)")
    for root, _ in D.ztest_mu_roots():
        expr = root.xreplace({D.target: goal})
        value = evaluate_env(expr, env, digits)
        if value > 0:
            return ZtestMinMu(mu=value, power_unprotected=unprotected, target_power=goal_value, digits=digits,
                              expr=root)
    raise DomainError(name, text, "a target SymPy's roots for mu can meet")
