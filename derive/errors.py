"""Errors shared by every layer of dp-derive.

``DomainError`` is raised for an input outside the domain of a formula: the
message names the parameter, the value received and the valid range, so that a
command-line user can correct the call without a traceback.
``PrecisionExhausted`` is raised when an arbitrary-precision evaluation could
not confirm the requested number of digits within the precision budget.
"""

from __future__ import annotations


class DomainError(ValueError):
    """An argument lies outside the domain of the formula it is passed to."""

    def __init__(self, parameter: str, value: object, valid: str):
        self.parameter = parameter
        self.value = value
        self.valid = valid
        super().__init__(f"{parameter}={value}: {parameter} must be {valid}")


class PrecisionExhausted(ArithmeticError):
    """Two evaluations at increasing precision never agreed to the requested digits."""
