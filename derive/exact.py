"""Exact numbers in, and domain checks on them.

Every numeric input of dp-derive is taken exactly: the decimal string
``"1e-300"`` means 10^-300, not the nearest double.  Strings are parsed with a
strict decimal grammar (never ``eval`` nor ``sympify``); ``int``, ``Fraction``
and SymPy ``Rational`` are exact already; a ``float`` is read as the decimal it
prints as (``repr``), so ``0.1`` means 1/10.
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from .errors import DomainError

_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$", re.ASCII)     # ASCII digits only (Arabic-Indic 3 was read as 3)
#: decimal exponents beyond this are refused (10**10**6 would exhaust memory)
MAX_EXPONENT = 1_000_000
#: significant digits of a decimal's mantissa (Python's own limit on int(str), sys.get_int_max_str_digits())
MAX_DIGITS = 4300


def as_expr(value) -> sp.Basic:
    """A SymPy object from a SymPy object, a Python number or bool, never from a string:
    ``sympy.sympify(value, strict=True)``, which raises SympifyError for a string instead of parsing
    (and so evaluating) it.  The one way library code turns a value into an expression."""
    return sp.sympify(value, strict=True)


def rational(name: str, value) -> sp.Rational:
    """Return ``value`` as an exact SymPy Rational, or raise DomainError naming ``name``."""
    if isinstance(value, sp.Rational):
        return value
    if isinstance(value, bool):
        raise DomainError(name, value, "a number")
    if isinstance(value, numbers.Integral):       # int, and gmpy2's mpz (mpmath's mantissas under its gmpy2 backend)
        return sp.Integer(int(value))
    if isinstance(value, Fraction):                # int(): a Fraction built from an mpz mantissa keeps the mpz
        return sp.Rational(int(value.numerator), int(value.denominator))
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise DomainError(name, value, "a finite number")
        value = repr(value)
    if isinstance(value, sp.Basic):
        raise DomainError(name, value, "an exact number (decimal string, int or Rational)")
    if not isinstance(value, str):
        raise DomainError(name, value, "a number")
    text = value.strip()
    match = _DECIMAL.match(text)
    if not match:
        raise DomainError(name, value, "a finite decimal number such as 0.5 or 1e-300")
    if match.group(3):
        if len(match.group(3)) > 12:          # int() of a 5000-digit exponent is itself refused by Python
            raise DomainError(name, value, f"a decimal with exponent within +-{MAX_EXPONENT}")
        exponent = int(match.group(3)[1:])
        if abs(exponent) > MAX_EXPONENT:
            raise DomainError(name, value, f"a decimal with exponent within +-{MAX_EXPONENT}")
    if len(match.group(1).replace(".", "").lstrip("0")) > MAX_DIGITS:
        raise DomainError(name, value, f"a decimal of at most {MAX_DIGITS} significant digits (use an exponent: "
                                       "1e5000, not 1 followed by 5000 zeros)")
    return _decimal_rational(match)


@lru_cache(maxsize=64)
def _pow10(k: int) -> int:
    return 10 ** k


def _decimal_rational(match) -> sp.Rational:
    """mantissa * 10^exponent exactly, with cached powers of ten (10^100000 is costly)."""
    body = match.group(1)
    exponent = int(match.group(3)[1:]) if match.group(3) else 0
    whole, _, frac = body.partition(".")
    mantissa = int(((whole or "0") + frac).lstrip("0") or "0")
    exponent -= len(frac)
    if match.group(0).startswith("-"):
        mantissa = -mantissa
    if exponent >= 0:
        return sp.Integer(mantissa * _pow10(exponent))
    return sp.Rational(mantissa, _pow10(-exponent))


def check_range(name: str, value: sp.Rational, low=None, high=None, *,
                low_open=False, high_open=False, integer=False, tiny=None) -> sp.Rational:
    """Check ``low <= value <= high`` (bounds optional, open or closed), and, when ``tiny`` is given, that a
    nonzero value is at least ``tiny`` in magnitude (``derive.domains.MIN_MECHANISM_PARAM``)."""
    lo_ok = low is None or (value > low if low_open else value >= low)
    hi_ok = high is None or (value < high if high_open else value <= high)
    tiny_ok = tiny is None or value == 0 or abs(value) >= tiny
    if lo_ok and hi_ok and tiny_ok and not (integer and not value.is_integer):
        return value
    zero_ok = tiny is not None and low == 0 and not low_open
    if tiny is not None:
        low, low_open = tiny, False
    left = "(-inf" if low is None else ("(" if low_open else "[") + _show(sp.Rational(low))
    right = "inf)" if high is None else _show(sp.Rational(high)) + (")" if high_open else "]")
    valid = f"{'0 or ' if zero_ok else ''}in {left}, {right}"
    if integer:
        valid = "an integer " + valid
    raise DomainError(name, _show(value), valid)


def _show(value: sp.Rational) -> str:
    """A short decimal rendering (never str() of a 100000-digit integer)."""
    import mpmath

    from .errors import power_of_ten
    if value.q == 1 and power_of_ten(value.p):          # a cap: 1e308, not 1.0e+308
        return power_of_ten(value.p)
    if value.p == 1 and power_of_ten(value.q):          # a floor: 1e-1000
        return "1e-" + power_of_ten(value.q)[2:]
    if max(abs(value.p).bit_length(), value.q.bit_length()) > 120:
        with mpmath.workdps(20):        # mpf of a big int is binary (no int -> str): cheap at 10^1000000
            return mpmath.nstr(mpmath.mpf(value.p) / value.q, 6)
    if value.q == 1:
        return str(value.p)
    q, twos, fives = value.q, 0, 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    if q == 1 and max(twos, fives) <= 30:       # a finite decimal: print it as one (0.01, not 1/100)
        from decimal import Decimal
        text = format(Decimal(value.p) / Decimal(value.q), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return str(value)


def parse(name: str, value, low=None, high=None, **kw) -> sp.Rational:
    """``rational`` followed by ``check_range``; an error echoes the value as typed."""
    r = rational(name, value)
    try:
        return check_range(name, r, low, high, **kw)
    except DomainError as exc:
        if isinstance(value, str):      # as typed (DomainError shortens a long one)
            raise DomainError(name, value.strip(), exc.valid) from None
        raise
