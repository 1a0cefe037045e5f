"""Trade-off records of many parameter values from one symbolic record (issue #25: heterogeneous specs).

A spec of 1000 distinct Laplace steps built 1000 SymPy records through ``Mechanism.build``; each build
re-derives the same Piecewise forms (their canonicalisation is most of 5 ms a record), and the
``compose fdp`` routes asked for each record up to four times through a 256-entry cache, 20 of 28 s of
the whole command.  For the constructors listed in ``REBINDABLE`` every form of the record is written in
the parameter *symbol* and the value only enters the record's ``values`` mapping (``laplace``: ``e, values =
bind(sy.eps, eps, "eps")`` and every form is built from ``e``, the symbol; ``gaussian`` the same with
``sy.mu``).  For them the record of a value is the symbolic record (built once) with ``values`` replaced by
``{symbol: parse_in(key, text, name)}``, exactly what ``_params.bind`` puts there: the same dataclass,
field for field (tests/test_rebind.py compares the two records with ``==`` for several values, and fails
when a constructor starts to depend on the value).  Values ``inf`` (the no-privacy limit record) and any
option take the ordinary ``Mechanism.build``.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ..domains import parse_in
from .table import BY_NAME, is_infinite

#: table names whose records are their symbolic record with the values bound (see the module docstring)
REBINDABLE = frozenset({"laplace", "gaussian"})


@lru_cache(maxsize=64)             # one per table row
def _template(name: str):
    return BY_NAME[name].build(None)


def build(name: str, values: dict):
    """The record of table row ``name`` at the parameter texts ``values`` (as ``Mechanism.build``)."""
    mechanism = BY_NAME[name]
    if name not in REBINDABLE or mechanism.options or any(is_infinite(values[n]) for n in mechanism.param_names):
        return mechanism.build(values)
    template = _template(name)
    bound = {symbol: parse_in(key, values[pname], pname)
             for symbol, (pname, key) in zip(template.parameters, mechanism.params)}
    return dataclasses.replace(template, values=bound)
