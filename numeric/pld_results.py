"""The records a certified composition answers with (numeric.pld): delta(eps), eps(delta) and a point of the
trade-off curve, each with its certified bracket, whether it is certified, the time and the reason if not."""

from __future__ import annotations

from dataclasses import dataclass

from .display import ResultDisplay


@dataclass(frozen=True)
class DeltaResult(ResultDisplay):
    eps: object
    delta: object
    delta_lower: object
    delta_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class EpsResult(ResultDisplay):
    delta: object
    eps: object
    eps_lower: object
    eps_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class TradeoffResult(ResultDisplay):
    alpha: object
    beta: object
    beta_lower: object
    beta_upper: object
    power: object
    power_upper: object = None
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""
    #: certified lower end of the power 1 - f(alpha) (kept apart: 1 - beta_upper loses it near 1)
    power_lower: object = None
