"""Printed numbers against computed ones: the one rule for a paper's printed number (a leaf module).

A printed number is *reproduced* when the computed value, rounded (half-even) **or** truncated
(towards zero) to the printed number of decimals, is the printed number; :func:`reading` says
which.  Anything else *differs*.  Rounding and truncation are both ordinary ways of printing a
number, so neither is an error of the paper: an erratum about a number needs a difference beyond
both readings (``proofs_check.verdicts``).  Every ``reproduce`` module and every erratum about a
number decides through :func:`verdict` here, so the two cannot disagree.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import mpmath

__all__ = ["ROUND_DOWN", "ROUND_HALF_EVEN", "decimals", "rounded", "same", "rounds_to", "reading",
           "reproduces", "verdict", "mark", "READINGS"]

#: the readings under which a printed number is reproduced
READINGS = ("rounded", "truncated", "rounded and truncated")


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
    """``value`` rounded half-even to the decimals of ``printed`` is ``printed`` (one reading only:
    use :func:`reproduces` for a verdict on a printed number)."""
    return same(printed, value, ROUND_HALF_EVEN)


def reading(printed: str, value) -> str | None:
    """How ``value`` prints as ``printed``: 'rounded', 'truncated', 'rounded and truncated', or None."""
    r, t = same(printed, value, ROUND_HALF_EVEN), same(printed, value, ROUND_DOWN)
    return READINGS[2] if r and t else READINGS[0] if r else READINGS[1] if t else None


def reproduces(printed: str, value) -> bool:
    """The printed number is ``value`` rounded or truncated to its decimals."""
    return reading(printed, value) is not None


def verdict(printed: str, value) -> tuple[str, str | None]:
    """``('reproduced', reading)`` or ``('differs', None)`` for a printed number; ``value`` None
    (nothing computed) differs."""
    if value is None:
        return "differs", None
    how = reading(printed, value)
    return ("reproduced", how) if how else ("differs", None)


def mark(entry: dict, printed: str, value) -> dict:
    """Set a reproduce entry's ``status`` (and ``reading`` when reproduced) from :func:`verdict`."""
    entry["status"], how = verdict(printed, value)
    entry.pop("reading", None)
    if how:
        entry["reading"] = how
    return entry
