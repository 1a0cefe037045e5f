"""Notebook display and plain dictionaries for the result dataclasses of ``numeric`` (issue #13 item 3).

``ResultDisplay`` is a mixin for frozen dataclasses of results: ``as_dict(digits)`` gives every field as
plain data (mpf values as decimal strings with ``digits`` significant digits, exact rationals as
``p/q``, infinities as ``"inf"``), and Jupyter shows the result as a two-column table
(``_repr_html_``) of the same strings, so a number is shown with the digits it was verified to (the
result's own ``digits`` field when it has one, 15 otherwise).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from fractions import Fraction
from html import escape

import mpmath
import sympy as sp


def _plain(v, digits: int):
    if isinstance(v, mpmath.mpf):
        if mpmath.isinf(v):
            return "inf" if v > 0 else "-inf"
        return mpmath.nstr(v, digits)
    if hasattr(v, "p") and hasattr(v, "q"):                  # an exact rational (Exact, SymPy Rational)
        return f"{v.p}/{v.q}" if v.q != 1 else str(v.p)
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}" if v.denominator != 1 else str(v.numerator)
    if isinstance(v, sp.Basic):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x, digits) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x, digits) for k, x in v.items()}
    if is_dataclass(v) and not isinstance(v, type):          # a nested record (derive.risk.Limit: value, method)
        return {f.name: _plain(getattr(v, f.name), digits) for f in fields(v)}
    return v


class ResultDisplay:
    """as_dict and _repr_html_ for a result dataclass (see the module docstring)."""

    def _digits(self) -> int:
        d = getattr(self, "digits", None)
        return d if isinstance(d, int) and d > 0 else 15

    def as_dict(self, digits: int | None = None) -> dict:
        n = digits or self._digits()
        return {f.name: _plain(getattr(self, f.name), n) for f in fields(self)}

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{escape(k)}</th><td style='text-align:left'>"
                       f"{escape(str(v))}</td></tr>" for k, v in self.as_dict().items())
        return f"<table><caption>{escape(type(self).__name__)}</caption>{rows}</table>"
