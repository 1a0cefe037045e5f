"""Numerical kernels of the special heads: mpmath (any precision) and float64.

mpmath kernels run at the caller's working precision (``mpmath.mp.prec``, set
locally with ``workprec``) and are relative-accurate in both tails:

* ``ncdf(x)``      the small side by ``erfc``, never ``1 - big``;
* ``log_ncdf(x)``  ``log(erfc(-x/sqrt2)/2)`` for x < 0, ``log1p(-erfc(x/sqrt2)/2)`` else;
* ``ndtri(p)``     Newton on ``log Phi(x) - log p`` from a float64 start
  (``scipy.special.ndtri``, or ``ndtri_exp(log p)`` below the float range),
  for p <= 1/2; the upper half by symmetry;
* ``ndtri_exp(y)`` the same Newton iteration with ``log p = y`` given.

Float kernels are those of ``scipy.special`` (ndtr, ndtri, log_ndtr, ndtri_exp).

References
----------
Catalog 000-003, section 0, notes 1-2 (Newton on log Phibar from the right);
mpmath ``ncdf`` (erfc for the small side).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import mpmath

from .solvers import newton


def _log_sqrt_2pi():
    return mpmath.log(2 * mpmath.pi) / 2


#: above this argument erfc is summed from its asymptotic series (mpmath.erfc raises OverflowError
#: near 1.3e154: it converts int(z)**2 to a float)
_ERFC_ASYMPTOTIC = mpmath.mpf(10) ** 20


def _erfc_series(z):
    """The factor S with erfc(z) = e^{-z^2} S / (z sqrt(pi)), z >= 1e20.

    S = sum_k (-1)^k (2k-1)!! / (2 z^2)^k.  The series is asymptotic; its terms
    decrease while 2k - 1 < 2 z^2 (every term we use: |ratio| <= (2k-1)/(2z^2) <= 1e-30)
    and alternate, so the error of a partial sum is below the first omitted term
    (erfc's asymptotic expansion has this enveloping property for real z > 0;
    Abramowitz & Stegun 7.1.24).  We stop when a term is below 2^-(prec + 10).
    """
    tol = mpmath.ldexp(1, -(mpmath.mp.prec + 10))
    w = 1 / (2 * z * z)
    total, term, k = mpmath.mpf(1), mpmath.mpf(1), 1
    while abs(term) > tol:
        term = -term * (2 * k - 1) * w
        total += term
        k += 1
    return total


def _erfc(z):
    """erfc(z), also for z beyond mpmath's range (z > 0 large: asymptotic series).

    Like mpmath's own functions, the argument is taken as exact: z^2 and e^{-z^2}
    are formed with 2 log2(z) extra bits (z^2 ~ 1e600 needs its 600 integer
    digits before the exponential), so the result is correctly rounded at the
    caller's precision.
    """
    if z < _ERFC_ASYMPTOTIC:
        return mpmath.erfc(z)
    prec = mpmath.mp.prec
    with mpmath.workprec(prec + 2 * mpmath.mag(z) + 20):
        head = mpmath.exp(-z * z)
    return +(head * _erfc_series(z) / (z * mpmath.sqrt(mpmath.pi)))


def _log_erfc(z):
    """log erfc(z) without forming erfc (z >= 1e20: -z^2 - log(z sqrt(pi)) + log S)."""
    if z < _ERFC_ASYMPTOTIC:
        return mpmath.log(mpmath.erfc(z))
    with mpmath.workprec(mpmath.mp.prec + 20):
        return +(-z * z - mpmath.log(z) - mpmath.log(mpmath.pi) / 2 + mpmath.log(_erfc_series(z)))


def ncdf(x):
    """Phi(x) at the working precision."""
    if mpmath.isinf(x):
        return mpmath.mpf(1) if x > 0 else mpmath.mpf(0)
    if x < 0:
        return _erfc(-x / mpmath.sqrt(2)) / 2
    return 1 - _erfc(x / mpmath.sqrt(2)) / 2


def log_ncdf(x):
    """log Phi(x) at the working precision."""
    if mpmath.isinf(x):
        return mpmath.mpf(0) if x > 0 else mpmath.mpf("-inf")
    if x < 0:
        return _log_erfc(-x / mpmath.sqrt(2)) - mpmath.log(2)
    return mpmath.log1p(-_erfc(x / mpmath.sqrt(2)) / 2)


def _newton_quantile(log_p, x0):
    """Solve log Phi(x) = log_p (log_p <= log 1/2) by Newton from x0."""
    prec = mpmath.mp.prec
    c = _log_sqrt_2pi()

    def step(x):
        # h(x) = log Phi(x) - log p,  h'(x) = phi(x)/Phi(x)
        lphi = log_ncdf(x)
        return (lphi - log_p) * mpmath.exp(lphi + x * x / 2 + c)
    # quadratic convergence: once a step is below sqrt(tol), one more step (the polish) reaches tol
    try:
        return newton(step, mpmath.mpf(x0), mpmath.ldexp(1, -(prec - 4) // 2), steps=200, polish=True)
    except ArithmeticError:
        raise ArithmeticError("ndtri: Newton iteration did not converge") from None


def _float_start(log_p):
    """A float start for Newton on log Phi(x) = log_p (only its closeness matters: Newton corrects it).

    The standard library's NormalDist quantile where p is a normal float; below, the first terms of
    the asymptotic inversion of log Phi(x) ~ -x^2/2 - log(-x sqrt(2 pi)):
    x ~ -sqrt(t - log(t) - log(2 pi)), t = -2 log_p.  (No numpy or scipy: the mp path loads neither.)"""
    lp = float(log_p)
    if lp > -700:
        return NormalDist().inv_cdf(math.exp(lp)) if lp < 0 else 0.0
    t = -2.0 * lp
    return -math.sqrt(t - math.log(t) - math.log(2 * math.pi))


def ndtri_lower(p):
    """PhiInv(p) for 0 < p <= 1/2 (a mpf), relative-accurate for tiny p."""
    if p == mpmath.mpf(0.5):
        return mpmath.mpf(0)
    log_p = mpmath.log(p)
    return _newton_quantile(log_p, _float_start(log_p))


def ndtri(p):
    """PhiInv(p) for a mpf p in [0, 1]; the upper half via 1 - p (exact in mpf)."""
    if p <= 0:
        if p == 0:
            return mpmath.mpf("-inf")
        raise ValueError("PhiInv argument below 0")
    if p >= 1:
        if p == 1:
            return mpmath.mpf("inf")
        raise ValueError("PhiInv argument above 1")
    if p > 0.5:
        return -ndtri_lower(1 - p)
    return ndtri_lower(p)


def ndtri_exp(y):
    """PhiInv(exp(y)) for y <= 0."""
    if y > 0:
        raise ValueError("PhiInvExp argument above 0")
    if y == 0:
        return mpmath.mpf("inf")
    if mpmath.isinf(y):
        return mpmath.mpf("-inf")
    if y > -mpmath.log(2):
        # upper half: p = e^y > 1/2, 1 - p = -expm1(y) without cancellation
        return -ndtri_lower(-mpmath.expm1(y))
    return _newton_quantile(y, _float_start(y))


# ------------------------------------------------------------------ naive
def naive_ncdf(x):
    """Phi(x) = (1 + erf(x/sqrt2))/2, the textbook form (for baselines only)."""
    return (1 + mpmath.erf(x / mpmath.sqrt(2))) / 2


def naive_ndtri(p):
    """PhiInv(p) = sqrt2 erfinv(2p - 1), the textbook form (for baselines only)."""
    return mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)


# ------------------------------------------------------------------ tables
#: SymPy head name -> mpmath kernel (tail-safe)
MP = {"Phi": ncdf, "PhiInv": ndtri, "LogPhi": log_ncdf, "PhiInvExp": ndtri_exp}
#: SymPy head name -> mpmath kernel (textbook forms; independent baselines)
MP_NAIVE = {"Phi": naive_ncdf, "PhiInv": naive_ndtri,
            "LogPhi": lambda x: mpmath.log(naive_ncdf(x)),
            "PhiInvExp": lambda y: naive_ndtri(mpmath.exp(y))}


def _fmax(*args):
    import numpy as np
    out = args[0]
    for a in args[1:]:
        out = np.maximum(out, a)
    return out


def _fmin(*args):
    import numpy as np
    out = args[0]
    for a in args[1:]:
        out = np.minimum(out, a)
    return out


@lru_cache(maxsize=1)
def fp_table() -> dict:
    """SymPy head name -> float64 kernel (scipy.special); loaded on first use, so that the mp path
    (and the command line's start-up) does not pay for importing numpy and scipy."""
    import numpy as np
    import scipy.special as sc
    table = {"Phi": sc.ndtr, "PhiInv": sc.ndtri, "LogPhi": sc.log_ndtr, "PhiInvExp": sc.ndtri_exp,
             "expm1": np.expm1, "log1p": np.log1p, "_fmax": _fmax, "_fmin": _fmin}
    table.update(_record_heads_fp())
    return table


def _record_heads_fp() -> dict:
    """Heads whose values come from an mp kernel (the discrete Gaussian): in float64 each element is
    the kernel's value at 20 digits, rounded (correct, not fast; the element count is the cost)."""
    import mpmath
    import numpy as np

    from derive.mechanisms.discrete_gaussian import HEADS

    from . import discrete_gaussian

    def make(fn):
        def one(a, s):
            with mpmath.workdps(20):
                return float(fn(mpmath.mpf(float(a)), mpmath.mpf(float(s))))
        return np.vectorize(one, otypes=[float])
    return {h.__name__: make(discrete_gaussian.KERNELS[h.kernel]) for h in HEADS}
