"""Verified digits: evaluate twice at rising precision until the results agree.

``verified(compute, digits)`` runs ``compute()`` at ``digits + guard`` decimal
digits and again at a higher precision; it returns the second result when the
two agree to ``digits + 2`` significant digits and round to the same
``digits``-digit string.  Otherwise the precision doubles, up to ``max_dps``,
after which ``PrecisionExhausted`` is raised.  An exact result (``Exact``) is
returned at once.  A floating zero is never accepted (it could be a
cancellation), nor a NaN.  Precision is always local (``mpmath.workdps``).
"""

from __future__ import annotations

import mpmath

from derive.errors import PrecisionExhausted

from .bridge import Exact, compile_mp

GUARD = 10
#: a result's mantissa is cut to this many bits (about 1000 digits) on the way out, unless more digits
#: were asked for: the extra digits of the working precision are kept for callers that difference
#: values, but not a 20000-digit mantissa
MAX_BITS_OUT = 3400
MAX_DPS = 20000
#: a division by zero still there at this working precision is an exact one (it is then raised)
ZERO_DIVISION_DPS = 1000


def _agree(a, b, digits: int) -> bool:
    if isinstance(a, Exact) or isinstance(b, Exact):
        return False
    if mpmath.isnan(a) or mpmath.isnan(b):
        return False
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    if a == 0 or b == 0:
        return False
    if abs(a - b) > abs(b) * mpmath.mpf(10) ** (-(digits + 2)):
        return False
    return _nstr(a, digits) == _nstr(b, digits)


def _nstr(x, digits: int, **kw) -> str:
    """mpmath.nstr of ``x`` rounded first to digits + 10 digits: nstr converts the whole mantissa
    to a decimal integer, and a mantissa of more than 4300 digits (a value computed at high working
    precision) exceeds Python's integer-to-string limit."""
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(+x, digits, **kw)


def check_digits(digits) -> int:
    """``digits`` as an int in DOMAINS["digits"], else DomainError naming it."""
    from derive.domains import DOMAINS
    from derive.errors import DomainError
    d = DOMAINS["digits"]
    if isinstance(digits, bool) or not isinstance(digits, int) or not d.low <= digits <= d.high:
        raise DomainError("digits", digits, d.describe())
    return digits


class _ZeroDivision:
    """compute() divided by zero at this precision."""


def _attempt(compute, dps):
    """compute() at ``dps`` digits; a division by an intermediate that rounded to 0 (e.g. 1 + 1e-600 - 1
    at 25 digits) is a failure of this precision, not of the formula: the next precision is tried.
    A division by zero that persists up to ZERO_DIVISION_DPS digits is taken as exact (0/0 at
    alpha = 0, say) and raised."""
    with mpmath.workdps(dps):
        try:
            return compute()
        except ZeroDivisionError:
            return _ZeroDivision


def verified(compute, digits: int, *, max_dps: int = MAX_DPS):
    """Return ``compute()`` with ``digits`` significant digits confirmed.

    ``compute`` takes no argument and evaluates at the ambient precision.
    ``digits`` must be an integer in the domain table's range (``digits = 0`` would
    "verify" nothing).
    """
    check_digits(digits)
    dps = digits + GUARD
    first = _attempt(compute, dps)
    if isinstance(first, Exact):
        return first
    dps = dps + max(GUARD, dps // 2)
    while True:
        second = _attempt(compute, dps)
        if second is _ZeroDivision:
            if dps >= ZERO_DIVISION_DPS:
                raise ZeroDivisionError(f"division by zero up to {dps} digits of working precision "
                                        "(an exact 0 divisor, such as 0/0 at alpha = 0)")
            first, dps = second, min(2 * dps, max_dps)
            continue
        if isinstance(second, Exact):
            return second
        if first is not _ZeroDivision and _agree(first, second, digits):
            return second
        if dps >= max_dps:
            raise PrecisionExhausted(
                f"no agreement to {digits} digits up to {max_dps} decimal digits of working precision")
        first, dps = second, min(2 * dps, max_dps)


def verified_mpf(compute, digits: int):
    """``verified`` returned as an mpf rounded at digits + 10 (an exact result too): the working
    precision's long mantissa is not carried out (str() of it fails beyond 4300 digits)."""
    value = as_mpf(verified(compute, digits), digits + 10)
    if isinstance(value, mpmath.mpf) and value._mpf_[3] > MAX_BITS_OUT:
        with mpmath.workprec(max(MAX_BITS_OUT, int((digits + 10) * 3.33))):
            return +value
    return value


def evaluate_env(expr, env: dict, digits: int):
    """``expr`` at an environment of Exact/mpf values, to ``digits`` verified digits."""
    fn = compile_mp(expr)
    return verified_mpf(lambda: fn(env), digits)


def as_mpf(value, dps: int = 50):
    """An Exact or mpf as mpf (exact values rounded at ``dps`` digits)."""
    if isinstance(value, Exact):
        with mpmath.workdps(dps):
            return value.mpf()
    return value


def format_number(value, digits: int) -> str:
    """A decimal string with ``digits`` significant digits; "inf"/"-inf"; exact "0"."""
    if isinstance(value, Exact):
        if value.p == 0:
            return "0"
        value = as_mpf(value, digits + 10)
    if mpmath.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    return _nstr(value, digits, strip_zeros=False, min_fixed=-4, max_fixed=digits)


def format_outward(value, digits: int, up: bool) -> str:
    """``format_number`` of one end of a certified bracket, rounded outward (up for an upper end, down for a
    lower one), so that the printed bracket still contains the computed one (rounding to nearest printed
    the lower end 9.9999999999999982e-8 of a bracket around the exact 1 - (1 - 1e-7) as 1.00000000000000e-7)."""
    text = format_number(value, digits)
    if text in ("0", "inf", "-inf"):
        return text
    with mpmath.workdps(digits + 30):
        # an mpf end is compared as it is: rounded to digits + 30, the exact lower end 1 - 1.2e-307 of a beta was
        # 1.0, and printed as 1.00000000000000 above the value it bounds
        x = value if isinstance(value, mpmath.mpf) else mpmath.mpf(value)
        printed = mpmath.mpf(text)
        if (printed >= x) if up else (printed <= x):
            return text
        unit = mpmath.mpf(10) ** (int(mpmath.floor(mpmath.log10(x if x > 0 else -x))) - digits + 1)
        return format_number(x + unit if up else x - unit, digits)
