"""Parameter handling shared by the constructors."""

from __future__ import annotations

import sympy as sp

from ..exact import parse


def bind(symbol: sp.Symbol, value, **range_kw):
    """Return (expression to use, {symbol: value} or {}) for a parameter.

    ``value is None`` keeps the parameter symbolic; otherwise it is parsed
    exactly and range-checked under the symbol's name.
    """
    if value is None:
        return symbol, {}
    r = parse(_name(symbol), value, **range_kw)
    return symbol, {symbol: r}


def _name(symbol: sp.Symbol) -> str:
    return {"epsilon": "eps"}.get(symbol.name, symbol.name)
