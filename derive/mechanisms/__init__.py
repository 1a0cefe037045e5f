"""Constructors of trade-off records, one module per mechanism family.

Every constructor takes its parameters as exact numbers (decimal strings,
ints, Fractions or Rationals) or leaves them symbolic when omitted.  Which
mechanisms exist, their parameters and domains, is the table in ``table.py``.

The constructors are imported on first use (PEP 562), so that reading the
table (``dp-derive --help``) does not load SymPy.
"""

import sys
import types
from importlib import import_module

from .table import BY_NAME, NAMES, TABLE

_CONSTRUCTORS = {
    "gaussian": "gaussian", "classical_gaussian": "gaussian", "laplace": "laplace",
    "approx_dp": "approx_dp", "randomized_response": "approx_dp",
    "uniform_sampling": "uniform_sampling", "noise": "noise", "discrete_gaussian": "discrete_gaussian",
}

#: every module the lazy names may load (tests/test_layering.py reads this)
LAZY_IMPORTS = ("derive.mechanisms.gaussian", "derive.mechanisms.laplace", "derive.mechanisms.approx_dp",
                "derive.mechanisms.uniform_sampling", "derive.mechanisms.noise",
                "derive.mechanisms.discrete_gaussian")

__all__ = [*_CONSTRUCTORS, "MECHANISMS", "TABLE", "BY_NAME", "NAMES"]


class _Package(types.ModuleType):
    """Keeps ``derive.mechanisms.gaussian`` the constructor once the submodule of that name loads.

    Importing a submodule binds it as an attribute of its package; five
    submodules share their name with the constructor they define, and the
    public name is the constructor (as an eager ``from .gaussian import
    gaussian`` would leave it).  The submodules stay reachable through
    ``sys.modules`` / ``importlib.import_module``.
    """

    def __setattr__(self, name, value):
        if name in _CONSTRUCTORS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name in _CONSTRUCTORS:
        return getattr(import_module(f".{_CONSTRUCTORS[name]}", __name__), name)
    if name == "MECHANISMS":
        #: command-line name -> constructor
        return {m.name: m.factory() for m in TABLE}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
