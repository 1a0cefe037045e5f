"""Printed numbers against computed ones: rounding to a printed number's decimals (a leaf module)."""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import mpmath

__all__ = ["ROUND_DOWN", "ROUND_HALF_EVEN", "decimals", "rounded", "same", "rounds_to"]


def decimals(text: str) -> int:
    """Number of decimals printed in ``text`` ('0.28' -> 2, '58' -> 0)."""
    return len(text.split(".")[1]) if "." in text else 0


def rounded(value, places: int, mode) -> str:
    """``value`` (an mpf or anything mpmath.nstr takes) to ``places`` decimals with ``mode``."""
    q = Decimal(1).scaleb(-places)
    return str(Decimal(mpmath.nstr(value, 30)).quantize(q, rounding=mode))


def same(printed: str, value, mode) -> bool:
    """``value`` rounded with ``mode`` to the decimals of ``printed`` is ``printed``."""
    return Decimal(rounded(value, decimals(printed), mode)) == Decimal(printed)


def rounds_to(printed: str, value) -> bool:
    """``value`` rounded half-even to the decimals of ``printed`` is ``printed``."""
    return same(printed, value, ROUND_HALF_EVEN)
