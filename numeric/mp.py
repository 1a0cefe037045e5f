"""Arbitrary-precision evaluation with verified digits (the ``mp`` path).

Every function takes exact inputs (decimal strings, ints, Fractions,
Rationals), evaluates the record's one SymPy expression through
``numeric.bridge.compile_mp`` and returns an ``mpmath.mpf`` whose first
``digits`` significant digits are confirmed by ``numeric.precision.verified``
(or raises ``PrecisionExhausted``).  Exact results (f(1) = 0, alpha = 0) are
returned exactly.  ``numeric.fp`` has the same public names.

Accuracy contract: for every alpha in [10^-100000, 1] and every parameter in
its domain, ``digits`` correct significant digits (relative), checked by
re-evaluation; for alpha in the float range the cost does not grow with
log(1/alpha) because the kernels are tail-aware.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from derive.stabilize import log_space
from derive.symbols import alpha as ALPHA
from derive.symbols import log_alpha as LOG_ALPHA
from derive.tradeoff import TradeOff

from . import profile as _profile
from .inputs import alpha_exact, bound_env, env_of, log_alpha_exact
from .precision import evaluate_env, format_number, verified_mpf

__all__ = ["evaluate", "tradeoff", "power", "log_tradeoff", "log_power", "profile_delta",
           "profile_eps", "conjugate", "inverse", "symmetrized", "tradeoff_from_profile",
           "format_number"]


def evaluate(expr: sp.Expr, values: dict, digits: int = 15):
    """``expr`` at exact ``values`` ({Symbol: number}) to ``digits`` verified digits."""
    return evaluate_env(expr, env_of(values), digits)


def _at(expr, record, symbol, exact_value, digits):
    """``expr`` of a bound record at one exact argument, verified."""
    env = bound_env(record)
    env[symbol] = exact_value
    return evaluate_env(expr, env, digits)


def _at_alpha(expr, record, alpha, digits):
    return _at(expr, record, ALPHA, alpha_exact(alpha), digits)


def tradeoff(record: TradeOff, alpha, digits: int = 15):
    """beta = f(alpha)."""
    return _at_alpha(record.tradeoff, record, alpha, digits)


def power(record: TradeOff, alpha, digits: int = 15):
    """1 - f(alpha), computed without subtraction."""
    return _at_alpha(record.power, record, alpha, digits)


def _at_log_alpha(expr, record, log_alpha, digits):
    """``log expr`` at alpha = exp(log_alpha); at log_alpha = 0 (alpha = 1) from ``expr(1)`` itself: the log
    form's value there is often an exact 0 (log power(1) = log 1), which no precision can verify relatively."""
    la = log_alpha_exact(log_alpha)
    if la.p == 0:
        v = _at_alpha(expr, record, 1, digits)
        if not v > 0:
            return mpmath.mpf("-inf")
        with mpmath.workdps(digits + 10):
            return mpmath.log(v)
    return _at(log_space(expr), record, LOG_ALPHA, la, digits)


def log_tradeoff(record: TradeOff, log_alpha, digits: int = 15):
    """log f(alpha) at alpha = exp(log_alpha)."""
    return _at_log_alpha(record.tradeoff, record, log_alpha, digits)


def log_power(record: TradeOff, log_alpha, digits: int = 15):
    """log(1 - f(alpha)) at alpha = exp(log_alpha)."""
    return _at_log_alpha(record.power, record, log_alpha, digits)


def profile_delta(record: TradeOff, eps, digits: int = 15):
    """delta(eps) = 1 + f*(-e^eps), closed form where the record has one."""
    return verified_mpf(_profile.delta_at(record, eps), digits)


def profile_eps(record: TradeOff, delta, digits: int = 15):
    """eps(delta) = inf{eps >= 0 : delta(eps) <= delta}; inf when none."""
    return verified_mpf(_profile.eps_at(record, delta, digits), digits)


def conjugate(record: TradeOff, y, digits: int = 15):
    """f*(y) = sup_{x in [0,1]} (x y - f(x))."""
    return verified_mpf(_profile.conjugate_at(record, y), digits)


def inverse(record: TradeOff, alpha, digits: int = 15):
    """f^{-1}(alpha) = inf{t in [0,1] : f(t) <= alpha}."""
    return verified_mpf(_profile.inverse_at(record, alpha, digits), digits)


def symmetrized(record: TradeOff, alpha, digits: int = 15):
    """max{f, f^{-1}}(alpha): the trade-off of a mechanism under symmetric neighbours."""
    return verified_mpf(_profile.symmetrized_at(record, alpha, digits), digits)


def tradeoff_from_profile(delta_of_eps, alpha, digits: int = 15):
    """f(alpha) = sup_eps f_{eps, delta(eps)}(alpha) for a profile (SymPy expr in eps')."""
    return verified_mpf(_profile.from_profile_at(delta_of_eps, alpha, digits), digits)
