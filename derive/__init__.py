"""dp-derive, SymPy layer: trade-off functions of differential privacy in closed form.

The names below are imported on first use (PEP 562): ``import derive.errors``
or reading the mechanism table does not load SymPy.
"""

from importlib import import_module

from .errors import DomainError, PrecisionExhausted

_LAZY = {
    "TradeOff": "tradeoff", "eps_prime": "tradeoff",
    "Phi": "special", "PhiInv": "special", "LogPhi": "special", "PhiInvExp": "special",
    "gaussian": "mechanisms", "classical_gaussian": "mechanisms", "laplace": "mechanisms",
    "approx_dp": "mechanisms", "randomized_response": "mechanisms", "uniform_sampling": "mechanisms",
    "noise": "mechanisms", "discrete_gaussian": "mechanisms", "MECHANISMS": "mechanisms",
}

#: every module the lazy names may load (tests/test_layering.py reads this)
LAZY_IMPORTS = ("derive.tradeoff", "derive.special", "derive.mechanisms")

__all__ = ["DomainError", "PrecisionExhausted", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
