"""Parameter handling shared by the constructors."""

from __future__ import annotations

import sympy as sp

from ..domains import DOMAINS, parse_in


def bind(symbol: sp.Symbol, value, key: str, name: str | None = None):
    """Return (expression to use, {symbol: value} or {}) for a parameter.

    ``value is None`` keeps the parameter symbolic; otherwise it is parsed
    exactly and checked against ``DOMAINS[key]`` under ``name`` (the command-line
    name; by default the symbol's).
    """
    if value is None:
        return symbol, {}
    return symbol, {symbol: parse_in(key, value, name or _name(symbol))}


def described(**keys: str) -> dict:
    """{parameter: valid range} for a record's ``domain`` field, from the domain table."""
    return {name: DOMAINS[key].describe() for name, key in keys.items()}


def _name(symbol: sp.Symbol) -> str:
    return {"epsilon": "eps"}.get(symbol.name, symbol.name)
