"""Constructors of trade-off records, one module per mechanism family.

Every constructor takes its parameters as exact numbers (decimal strings,
ints, Fractions or Rationals) or leaves them symbolic when omitted.  Which
mechanisms exist, their parameters and domains, is the table in ``table.py``.

The constructors are imported on first use (PEP 562), so that reading the
table (``dp-derive --help``) does not load SymPy.
"""

import sys
import types

from .table import BY_NAME, NAMES, TABLE

#: constructor function -> its table row (``Mechanism.factory`` imports the module on first use; the
#: modules it may load are ``table.LAZY_IMPORTS``)
_CONSTRUCTORS = {m.constructor.partition(":")[2]: m for m in TABLE}
#: the submodules named like the constructor they define
_SHADOWED = {m.constructor.partition(":")[0] for m in TABLE} & set(_CONSTRUCTORS)

__all__ = [*_CONSTRUCTORS, "MECHANISMS", "TABLE", "BY_NAME", "NAMES"]


class _Package(types.ModuleType):
    """Keeps ``derive.mechanisms.gaussian`` the constructor once the submodule of that name loads.

    Importing a submodule binds it as an attribute of its package; several submodules share their
    name with the constructor they define, and the public name is the constructor (as an eager
    ``from .gaussian import gaussian`` would leave it).  The submodules stay reachable through
    ``sys.modules`` / ``importlib.import_module``.
    """

    def __setattr__(self, name, value):
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name in _CONSTRUCTORS:
        return _CONSTRUCTORS[name].factory()
    if name == "MECHANISMS":
        #: command-line name -> constructor
        return {m.name: m.factory() for m in TABLE}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
