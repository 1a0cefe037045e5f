"""Exact inputs of the evaluators: parse, check the range, convert to ``Exact``."""

from __future__ import annotations

import sympy as sp

from derive.domains import parse_in
from derive.errors import DomainError
from derive.exact import rational
from derive.tradeoff import TradeOff

from .bridge import Exact, exact_of


def alpha_exact(alpha) -> Exact:
    """alpha in [0, 1], exactly."""
    return exact_of(parse_in("alpha", alpha))


def log_alpha_exact(log_alpha) -> Exact:
    """log(alpha) in (-inf, 0], exactly."""
    return exact_of(parse_in("log_alpha", log_alpha))


def bound_env(record: TradeOff) -> dict:
    """The record's parameter values as an evaluation environment."""
    missing = [s.name for s in record.parameters if s not in record.values]
    if missing:
        raise DomainError(missing[0], "unset", "a number (the record is symbolic)")
    return {s: exact_of(v) for s, v in record.values.items()}


def env_of(values: dict) -> dict:
    """{Symbol: number} -> {Symbol: Exact}, every number taken exactly."""
    return {s: exact_of(rational(s.name, v)) for s, v in values.items()}


def as_rational(value) -> sp.Rational:
    return value.to_rational() if isinstance(value, Exact) else sp.Rational(value)
