"""Float64 evaluation over NumPy arrays (the ``fp`` path), same names as ``numeric.mp``.

The record's stable SymPy expressions are compiled once per record by
``sympy.lambdify`` with ``scipy.special`` kernels for the heads (ndtr, ndtri,
log_ndtr, ndtri_exp).  Because the expressions never subtract nearly equal
numbers, beta and 1 - beta are both relative-accurate (about 1e-13 for the
Gaussian and Laplace records) for alpha in [1e-300, 1].  Below the float range
use ``log_power``/``log_tradeoff`` with ``log_alpha``: they evaluate
``derive.stabilize.log_space`` forms (``LogPhi``, ``PhiInvExp``), finite for any
log_alpha representable in float64.  Parameters are the record's exact values
rounded once to float64.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from derive.errors import DomainError
from derive.stabilize import log_space
from derive.symbols import alpha as ALPHA, log_alpha as LOG_ALPHA
from derive.tradeoff import TradeOff, eps_prime

from . import mp as _mp
from .bridge import compile_fp, fp_call

__all__ = ["evaluate", "tradeoff", "power", "log_tradeoff", "log_power", "profile_delta",
           "profile_eps", "conjugate", "inverse", "symmetrized", "tradeoff_from_profile"]


def _array(name, value, low, high):
    arr = np.asarray(value, dtype=float)
    bad = ~((arr >= low) & (arr <= high))
    if np.any(bad):
        first = arr[bad].flat[0] if arr.ndim else float(arr)
        raise DomainError(name, first, f"in [{low}, {high}]")
    return arr


def _bound(record: TradeOff, expr: sp.Expr) -> sp.Expr:
    missing = [s.name for s in record.parameters if s not in record.values]
    if missing:
        raise DomainError(missing[0], "unset", "a number (the record is symbolic)")
    return record.bind(expr)


def _result(arr):
    return float(arr) if np.ndim(arr) == 0 else arr


def evaluate(expr: sp.Expr, values: dict):
    """``expr`` at float ``values`` ({Symbol: float or array})."""
    symbols = tuple(values)
    fn = compile_fp(expr, symbols)
    return _result(fp_call(fn, *[np.asarray(values[s], dtype=float) for s in symbols]))


def _run(record, expr, symbol, arr, mp_func):
    """Evaluate the compiled float form; any NaN (an overflow such as exp(800) * 0)
    is recomputed by the mp path and rounded to float64: valid input never gives NaN."""
    fn = compile_fp(expr, (symbol,))
    out = np.array(np.broadcast_to(fp_call(fn, arr), arr.shape), dtype=float)
    bad = np.isnan(out)
    if np.any(bad):
        out[bad] = [float(mp_func(record, repr(float(v)), 17)) for v in arr[bad]]
    return _result(out)


def tradeoff(record: TradeOff, alpha):
    """beta = f(alpha) for float alpha (scalar or array)."""
    a = _array("alpha", alpha, 0.0, 1.0)
    return _run(record, _bound(record, record.tradeoff), ALPHA, a, _mp.tradeoff)


def power(record: TradeOff, alpha):
    """1 - f(alpha) without subtraction."""
    a = _array("alpha", alpha, 0.0, 1.0)
    return _run(record, _bound(record, record.power), ALPHA, a, _mp.power)


def log_tradeoff(record: TradeOff, log_alpha):
    """log f(alpha) at alpha = exp(log_alpha), log_alpha <= 0."""
    l = _array("log_alpha", log_alpha, -np.inf, 0.0)
    return _run(record, log_space(_bound(record, record.tradeoff)), LOG_ALPHA, l, _mp.log_tradeoff)


def log_power(record: TradeOff, log_alpha):
    """log(1 - f(alpha)) at alpha = exp(log_alpha), log_alpha <= 0."""
    l = _array("log_alpha", log_alpha, -np.inf, 0.0)
    return _run(record, log_space(_bound(record, record.power)), LOG_ALPHA, l, _mp.log_power)


def profile_delta(record: TradeOff, eps):
    """delta(eps): the closed form in float64, else the mp path rounded to float."""
    e = _array("eps", eps, 0.0, np.inf)
    if record.profile is not None:
        fn = compile_fp(_bound(record, record.profile), (eps_prime,))
        return _result(np.broadcast_to(fp_call(fn, e), e.shape) + 0.0)
    return _scalar_mp(_mp.profile_delta, record, e)


def _scalar_mp(func, first, arr):
    """``func(first, value, 17)`` of the mp path for each float value, rounded to float64."""
    out = np.vectorize(lambda v: float(func(first, repr(float(v)), 17)))(arr)
    return _result(out)


def profile_eps(record: TradeOff, delta):
    """eps(delta) via the mp path (17 digits) rounded to float64."""
    return _scalar_mp(_mp.profile_eps, record, _array("delta", delta, 0.0, 1.0))


def conjugate(record: TradeOff, y):
    """f*(y) via the mp path rounded to float64."""
    return _scalar_mp(_mp.conjugate, record, np.asarray(y, dtype=float))


def inverse(record: TradeOff, alpha):
    """f^{-1}(alpha): f itself for symmetric records, else the mp path."""
    if record.symmetric:
        return tradeoff(record, alpha)
    return _scalar_mp(_mp.inverse, record, _array("alpha", alpha, 0.0, 1.0))


def symmetrized(record: TradeOff, alpha):
    """max{f, f^{-1}}(alpha)."""
    return np.maximum(tradeoff(record, alpha), inverse(record, alpha))


def tradeoff_from_profile(delta_of_eps: sp.Expr, alpha):
    """sup_eps f_{eps, delta(eps)}(alpha) via the mp path rounded to float64."""
    a = _array("alpha", alpha, 0.0, 1.0)
    return _scalar_mp(_mp.tradeoff_from_profile, delta_of_eps, a)
