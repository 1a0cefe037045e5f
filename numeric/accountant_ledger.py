"""The accountants' ledger: DpEvent leaves (``numeric.dp_events``) and the certified brackets of their
composition (``numeric.pld``), as floats rounded outward (issue #27).

An upper end is rounded up to the next float when float() rounded it down, a lower end down
(``_float_up`` / ``_float_down``), so the float bracket still contains the engine's bracket.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from . import dp_events as E


@dataclass(frozen=True)
class Bracket:
    """lower <= value <= upper (floats, rounded outward); ``certified`` and ``reason`` from the engine."""
    lower: float
    upper: float
    certified: bool = True
    reason: str = ""


def _float_up(x) -> float:
    f = float(x)
    return f if f >= x else math.nextafter(f, math.inf)


def _float_down(x) -> float:
    f = float(x)
    return f if f <= x else math.nextafter(f, -math.inf)


def _decimal(value, name: str) -> str:
    """A query (delta or eps) as decimal text: a float by its repr, else its str; a DomainError if not a number."""
    from derive.errors import DomainError
    if isinstance(value, bool):
        raise DomainError(name, value, "a number")
    text = repr(float(value)) if isinstance(value, float) else str(value).strip()
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise DomainError(name, value, "a finite number") from None
    return text


class Ledger:
    """A multiset of engine leaves (``numeric.dp_events``) and the engine's compositions of it (cached)."""

    def __init__(self):
        self.leaves = Counter()
        self._comps = None

    def add(self, ledger: Counter, count: int = 1):
        for leaf, c in ledger.items():
            self.leaves[leaf] += c * count
        self._comps = None

    def compositions(self):
        """(lower model, upper model): one Composition twice unless an enclosed parameter is present."""
        if self._comps is None:
            from . import pld
            upper = pld.compose(E.components(self.leaves, 1))
            lower = pld.compose(E.components(self.leaves, 0)) if E.two_models(self.leaves) else upper
            self._comps = (lower, upper)
        return self._comps

    def empty(self) -> bool:
        return not any(c > 0 for c in self.leaves.values())

    def eps_bracket(self, delta) -> Bracket:
        text = _decimal(delta, "delta")
        d = Fraction(text)
        if not 0 < d <= 1:
            from derive.errors import DomainError
            raise DomainError("delta", delta, "in (0, 1]")
        if self.empty() or d == 1:
            return Bracket(0.0, 0.0)
        if E.no_privacy(self.leaves):
            return Bracket(math.inf, math.inf, True, "a non-private event (noise 0) is in the ledger")
        lower, upper = self.compositions()
        hi = upper.eps(text)
        lo = lower.eps(text) if lower is not upper else hi
        return Bracket(_float_down(lo.eps_lower), _float_up(hi.eps_upper), bool(lo.certified and hi.certified),
                       hi.reason or lo.reason)

    def delta_bracket(self, eps) -> Bracket:
        text = _decimal(eps, "eps")
        if Fraction(text) < 0:
            from derive.errors import DomainError
            raise DomainError("eps", eps, ">= 0")
        if self.empty():
            return Bracket(0.0, 0.0)
        if E.no_privacy(self.leaves):
            return Bracket(1.0, 1.0, True, "a non-private event (noise 0) is in the ledger")
        lower, upper = self.compositions()
        hi = upper.delta(text)
        lo = lower.delta(text) if lower is not upper else hi
        return Bracket(_float_down(lo.delta_lower), min(1.0, _float_up(hi.delta_upper)),
                       bool(lo.certified and hi.certified), hi.reason or lo.reason)


def _safe_end(bracket: Bracket) -> float:
    if not bracket.certified:
        import warnings
        warnings.warn(f"the engine's bracket is not certified: {bracket.reason}", stacklevel=3)
    return bracket.upper
