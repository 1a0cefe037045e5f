"""Errors shared by every layer of dp-derive.

``DomainError`` is raised for an input outside the domain of a formula: the
message names the parameter, the value received and the valid range, so that a
command-line user can correct the call without a traceback.
``PrecisionExhausted`` is raised when an arbitrary-precision evaluation could
not confirm the requested number of digits within the precision budget.
"""

from __future__ import annotations

#: an echoed value longer than this is shortened (``shorten``): its head, "...", its tail and its length
MAX_SHOWN = 60
HEAD, TAIL = 40, 10


def shorten(value: object) -> str:
    """``str(value)``, or for a long one (a 4300-digit number) its first 40 and last 10 characters
    around "..." with the count of digits (or characters) left out of sight: an error message
    names the value the user typed without echoing thousands of characters of it (issue #25 item 4)."""
    text = str(value)
    if len(text) <= MAX_SHOWN:
        return text
    digits = sum(ch.isdigit() for ch in text)
    count = f"{digits} digits" if digits >= len(text) - 3 else f"{len(text)} characters"
    return f"{text[:HEAD]}...{text[-TAIL:]} ({count})"


def power_of_ten(n: int) -> str | None:
    """``"1e308"`` for n = 10^308 (a power of ten above 10^40: a domain's cap is quoted short, the smaller
    bounds such as 1000000 keep their digits), else None."""
    text = str(n) if 0 < n < 10 ** 1200 else ""     # the caps and floors (derive/domains.py) are within 10^+-1000
    if len(text) > 41 and text == "1" + "0" * (len(text) - 1):
        return f"1e{len(text) - 1}"
    return None


class DomainError(ValueError):
    """An argument lies outside the domain of the formula it is passed to.

    ``value`` is kept as given; the message shows it shortened (``shorten``) when it is long."""

    def __init__(self, parameter: str, value: object, valid: str):
        self.parameter = parameter
        self.value = value
        self.valid = valid
        super().__init__(f"{parameter}={shorten(value)}: {parameter} must be {valid}")


class PrecisionExhausted(ArithmeticError):
    """Two evaluations at increasing precision never agreed to the requested digits."""
