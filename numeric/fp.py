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

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from derive.errors import DomainError
from derive.stabilize import log_space
from derive.symbols import alpha as ALPHA
from derive.symbols import log_alpha as LOG_ALPHA
from derive.tradeoff import TradeOff, eps_prime

from . import mp as _mp
from .bridge import compile_fp, fp_call
from .solvers import illinois

__all__ = ["evaluate", "tradeoff", "power", "log_tradeoff", "log_power", "profile_delta", "log_profile_delta",
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


def _run(record, expr, symbol, arr, mp_func, lo: float = 0.0, hi: float = 1.0, at_alpha_zero=None):
    """Evaluate the compiled float form; the values it cannot vouch for are recomputed by the mp path and
    rounded to float64: a NaN (exp(800) * 0), a value outside [lo, hi] (1 - e^710 alpha = -inf for
    Laplace(710)), and, when the evaluation overflowed anywhere, every value at an end of the range or
    non-finite (the logistic family's f at mu = 800 came out 0 for 3.7e-48).  Valid input never gives NaN,
    and an overflow costs time, never digits."""
    fn = compile_fp(expr, (symbol,))
    raw, overflowed = _watched(fn, arr)
    out = np.array(np.broadcast_to(raw, arr.shape), dtype=float)
    with np.errstate(invalid="ignore"):
        bad = np.isnan(out) | (out < lo) | (out > hi)
        if overflowed:
            bad |= ~np.isfinite(out) | (out == lo) | (out == hi)
    if np.any(bad):
        out[bad] = [_mp_value(record, mp_func, v, at_alpha_zero) for v in arr[bad]]
    return _result(out)


def _mp_value(record, mp_func, v, at_alpha_zero):
    """The mp path at the float ``v``'s exact binary value (a subnormal's repr is not it: 1e-320 is
    9.99988671826831e-321); log_alpha = -inf (alpha = 0) through ``at_alpha_zero``."""
    v = float(v)
    if np.isfinite(v):
        return float(mp_func(record, Fraction(v), 17))
    if at_alpha_zero is not None and v == -np.inf:
        return at_alpha_zero()
    return float(mp_func(record, repr(v), 17))


def _log_at_zero(mp_func, record):
    """log of ``mp_func(record, 0)`` as a float (-inf for 0): the log forms' value at log_alpha = -inf."""
    def at_zero():
        v = mp_func(record, "0", 17)
        return float(mpmath.log(v)) if v > 0 else -np.inf
    return at_zero


def _watched(fn, arr):
    """``fn(arr)`` with every floating-point warning silenced, and whether an overflow occurred."""
    seen = []
    old = np.seterrcall(lambda kind, flag: seen.append(kind))
    try:
        with np.errstate(all="ignore", over="call"):
            return fn(arr), bool(seen)
    finally:
        np.seterrcall(old)


def tradeoff(record: TradeOff, alpha):
    """beta = f(alpha) for float alpha (scalar or array)."""
    a = _array("alpha", alpha, 0.0, 1.0)
    return _unflushed(record, record.tradeoff, a, _run(record, _bound(record, record.tradeoff), ALPHA, a,
                                                        _mp.tradeoff), _mp.log_tradeoff)


def power(record: TradeOff, alpha):
    """1 - f(alpha) without subtraction."""
    a = _array("alpha", alpha, 0.0, 1.0)
    return _unflushed(record, record.power, a, _run(record, _bound(record, record.power), ALPHA, a, _mp.power),
                      _mp.log_power)


def _unflushed(record, expr, a, out, mp_log):
    """A 0 of the float form may be an intermediate underflow (Laplace(750) at alpha = 1e-300 is
    e^-750 / (4 alpha) = 4.75e-27, but e^-750 flushes to 0): such points are recomputed as
    exp(log form) (``derive.stabilize.log_space``); 0 stays only where the log form is -inf (a
    structural zero) or below the float range (< 5e-324, where 0 is the float answer)."""
    arr = np.array(out, dtype=float, ndmin=1)
    aa = np.broadcast_to(a, arr.shape)
    zero = (arr == 0) & (aa > 0)
    if not zero.any():
        return out
    with np.errstate(divide="ignore"):
        la = np.log(aa[zero])
    logv = np.asarray(_run(record, log_space(_bound(record, expr)), LOG_ALPHA, la, mp_log, -np.inf, 0.0), dtype=float)
    with np.errstate(under="ignore"):
        arr[zero] = np.exp(logv)
    return _result(arr.reshape(np.shape(out)))


def log_tradeoff(record: TradeOff, log_alpha):
    """log f(alpha) at alpha = exp(log_alpha), log_alpha <= 0."""
    l = _array("log_alpha", log_alpha, -np.inf, 0.0)
    return _run(record, log_space(_bound(record, record.tradeoff)), LOG_ALPHA, l, _mp.log_tradeoff, -np.inf, 0.0,
                _log_at_zero(_mp.tradeoff, record))


def log_power(record: TradeOff, log_alpha):
    """log(1 - f(alpha)) at alpha = exp(log_alpha), log_alpha <= 0."""
    l = _array("log_alpha", log_alpha, -np.inf, 0.0)
    return _run(record, log_space(_bound(record, record.power)), LOG_ALPHA, l, _mp.log_power, -np.inf, 0.0,
                _log_at_zero(_mp.power, record))


def profile_delta(record: TradeOff, eps):
    """delta(eps): the closed form in float64, else the mp path rounded to float.

    Any real eps: for eps < 0, delta(eps) = sup_alpha 1 - f(alpha) - e^eps alpha = 1 + f*(-e^eps) is
    still defined (and >= 1 - e^eps > 0), as on the mp path; the records' closed forms are stated for
    eps >= 0, so negative entries are the mp path's value (the supremum) rounded to float64."""
    e = _real_eps(eps)
    if record.profile is None:
        return _scalar_mp(_mp.profile_delta, record, e)
    fn = compile_fp(_bound(record, record.profile), (eps_prime,))
    with np.errstate(all="ignore"):
        out = np.array(np.broadcast_to(fp_call(fn, np.maximum(e, 0.0)), e.shape) + 0.0, dtype=float)
        # what the float form cannot vouch for (a NaN from e^eps overflowing beside a 0 above eps ~ 709,
        # a value outside [0, 1]) is the mp path's value rounded to float, as in ``_run``
        bad = (e >= 0) & (np.isnan(out) | (out < 0) | (out > 1))
    if np.any(bad):
        out[bad] = [_mp_value(record, _mp.profile_delta, v, None) for v in e[bad]]
    return _result(_negative_by_mp(record, e, out, _mp.profile_delta))


def _real_eps(eps):
    """eps as a float array of real numbers (+inf allowed: delta(inf) = 1 - f(0)); -inf and NaN refused."""
    e = _array("eps", eps, -np.inf, np.inf)
    if np.any(np.isneginf(e)):
        raise DomainError("eps", "-inf", "in (-inf, inf] (any real number, or inf)")
    return e


def _negative_by_mp(record: TradeOff, e, out, func, log=False):
    """``out`` with its entries at eps < 0 replaced by the mp path's (their log with ``log``)."""
    negative = e < 0
    if np.any(negative):
        values = np.asarray(_scalar_mp(func, record, np.atleast_1d(e[negative])), dtype=float)
        out[negative] = np.log(values) if log else values
    return out


def _scalar_mp(func, first, arr):
    """``func(first, value, 17)`` of the mp path for each float value, rounded to float64."""
    out = np.vectorize(lambda v: float(func(first, repr(float(v)), 17)))(arr)
    return _result(out)


def log_profile_delta(record: TradeOff, eps):
    """log delta(eps) in float64 from the closed-form profile written as log A + log1p(-B/A)
    (``derive.stabilize.log_of_difference``): finite far below the float range of delta."""
    e = _real_eps(eps)
    if record.profile is None:
        return _result(np.log(np.asarray(_scalar_mp(_mp.profile_delta, record, e), dtype=float)))
    out = np.array(np.broadcast_to(fp_call(_log_profile_fn(record), np.maximum(e, 0.0)), e.shape) + 0.0)
    return _result(_negative_by_mp(record, e, out, _mp.profile_delta, log=True))


def _log_profile_fn(record: TradeOff):
    key = (record.name, tuple(sorted((s.name, str(v)) for s, v in record.values.items())),
           sp.srepr(record.profile))
    fn = _LOG_PROFILE.get(key)
    if fn is None:
        from derive.stabilize import log_of_difference
        fn = compile_fp(log_of_difference(_bound(record, record.profile)), (eps_prime,))
        if len(_LOG_PROFILE) > 256:
            _LOG_PROFILE.clear()
        _LOG_PROFILE[key] = fn
    return fn


_LOG_PROFILE: dict = {}


def profile_eps(record: TradeOff, delta):
    """eps(delta) = inf{eps >= 0 : delta(eps) <= delta} in float64, vectorised.

    For a record with a closed-form profile: log delta(eps) (``log_profile_delta``, decreasing in
    eps) is bracketed by doubling and the root of log delta(eps) = log(delta) found by the Illinois
    variant of regula falsi, all in float arithmetic on whole arrays (no mp call).  The relative
    error against the mp path is measured in tests/test_numeric_fp.py.  Records without a closed
    form use the mp path (17 digits) rounded to float64."""
    d = _array("delta", delta, 0.0, 1.0)
    if record.profile is None:
        return _scalar_mp(_mp.profile_eps, record, d)
    fn = _log_profile_fn(record)

    def g(x, target):
        with np.errstate(all="ignore"):
            v = np.broadcast_to(fp_call(fn, x), x.shape) - target
            if np.iscomplexobj(v):                        # a log of a negative: no value, like a NaN
                v = np.where(np.imag(v) == 0, np.real(v), np.nan)
        return np.where(np.isnan(v), -np.inf, v)          # NaN: delta below float resolution there

    flat = np.atleast_1d(d).astype(float).ravel()
    with np.errstate(divide="ignore"):
        target = np.log(flat)
    out = np.full(flat.shape, np.nan)
    g0 = g(np.zeros_like(flat), target)
    out[g0 <= 0] = 0.0
    # delta(0) = TV distance not positive in float (G_mu with mu = 6.3e-297: Phi(mu/2) - Phi(-mu/2) cancels to
    # 0, and eps = 0 came out at delta = 1e-300, where the root is 2.04e-296): undecided here, recomputed by
    # the mp path (which guards that cancellation) and rounded to float64
    # (a delta at or above 1e-14 is decided: the O(1) terms' float error is far below it)
    with np.errstate(all="ignore"):
        d0 = np.broadcast_to(fp_call(fn, np.zeros_like(flat)), flat.shape)
    undecided = ~(np.real(d0) > -np.inf) & (flat > 0) & (flat < 1e-14)
    out[undecided] = np.nan
    todo = np.isnan(out) & ~undecided
    lo = np.zeros_like(flat)
    hi = np.ones_like(flat)
    ghi = g(hi, target)
    for _ in range(1100):                                 # doubling up to the float range
        grow = todo & (ghi > 0)
        if not grow.any():
            break
        lo[grow] = hi[grow]
        with np.errstate(over="ignore"):
            hi[grow] *= 2
        ghi[grow] = g(hi[grow], target[grow])
        over = grow & ~np.isfinite(hi)
        out[over] = np.inf
        todo &= ~over
    glo = g(lo, target)
    a, b, ga, gb = lo[todo], hi[todo], glo[todo], ghi[todo]
    out[todo] = illinois(g, a, b, ga, gb, target[todo], iterations=200)
    if undecided.any():
        out[undecided] = np.atleast_1d(_scalar_mp(_mp.profile_eps, record, flat[undecided]))
    return _result(out.reshape(np.shape(d)))


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
