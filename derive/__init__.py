"""dp-derive, SymPy layer: trade-off functions of differential privacy in closed form.

The names below are imported on first use (PEP 562): ``import derive.errors``
or reading the mechanism table does not load SymPy.
"""

from importlib import import_module

from .errors import DomainError, PrecisionExhausted

_LAZY = {
    "TradeOff": "tradeoff", "eps_prime": "tradeoff",
    "Phi": "special", "PhiInv": "special", "LogPhi": "special", "PhiInvExp": "special",
    "MECHANISMS": "mechanisms",
}

#: every module the lazy names may load (tests/test_layering.py reads this)
LAZY_IMPORTS = ("derive.tradeoff", "derive.special", "derive.mechanisms")


def _constructors() -> tuple[str, ...]:
    """The mechanism constructors (``derive.gaussian(...)``), one per row of the mechanism table."""
    from .mechanisms.table import TABLE
    return tuple(m.constructor.partition(":")[2] for m in TABLE)


__all__ = ["DomainError", "PrecisionExhausted", *_LAZY, *_constructors()]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    if name in _constructors():
        return getattr(import_module(".mechanisms", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
