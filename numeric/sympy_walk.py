"""The one SymPy-tree walk shared by the evaluators (``numeric.bridge``: mpmath closures;
``numeric.arb``: arb balls).

Both walk a toolkit expression the same way:

1. the *leaf step*, ``leaf(expr)``: a symbol, an exact rational or a named constant (oo, -oo, E, pi,
   true, false) is classified here, once for both evaluators; a Float is refused (it is not exact);
2. otherwise the handler registered for the node's class in the evaluator's own ``Dispatch`` table,
   found through ``type(expr).__mro__`` (the nearest registered class wins, cached per type), the way
   SymPy's printers find ``_print_<Class>``;
3. otherwise the evaluator's own fallback (a record head's kernel, or its "unsupported" error).

Only the dispatch lives here: what a handler computes (exact rationals, mpf, balls) is the
evaluator's business.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

__all__ = ["Dispatch", "FloatRefused", "leaf", "LEAVES", "SYMBOL", "RATIONAL", "CONSTANT"]

#: leaf kinds returned by ``leaf``
SYMBOL, RATIONAL, CONSTANT = "symbol", "rational", "constant"
_FLOAT = "float"


class FloatRefused(TypeError):
    """A Float leaf: not exact, so neither evaluator takes it (use a Rational)."""

    def __init__(self, expr):
        self.expr = expr
        super().__init__("Floats are not exact: use Rational (found %s)" % expr)


class Dispatch(dict):
    """A table SymPy class -> handler, looked up through the class's MRO (nearest registered class).

    ``table`` (optional) is an initial ``{class: handler}``; ``register(*classes)`` is a decorator (it
    returns the handler unchanged).  ``dispatch[cls]`` (or ``lookup(cls)``) is the handler of ``cls`` or
    of its nearest registered base class, or None.  The dict itself is the per-type cache of these
    answers (``__missing__`` walks the MRO once per type: a cached lookup is one C-level dict access);
    it is cleared when it reaches ``maxsize`` types and on every registration.
    """

    def __init__(self, name: str, table: dict | None = None, maxsize: int = 1024):
        super().__init__()
        self.name = name
        self.maxsize = maxsize
        self._table: dict[type, object] = dict(table or {})

    def register(self, *classes) -> Callable:
        def add(handler):
            for cls in classes:
                self._table[cls] = handler
            self.clear()
            return handler
        return add

    def __missing__(self, cls: type):
        found = next((self._table[c] for c in cls.__mro__ if c in self._table), None)
        if len(self) >= self.maxsize:
            self.clear()
        self[cls] = found
        return found

    def lookup(self, cls: type):
        return self[cls]

    def handles(self, cls: type) -> bool:
        return self[cls] is not None

    def __repr__(self):
        return f"Dispatch({self.name!r}, {len(self._table)} classes)"


#: the leaf kinds, by SymPy class (Integer, Half, One, ... are Rationals; the constants are singletons)
LEAVES = Dispatch("leaves")
LEAVES.register(sp.Symbol)(SYMBOL)
LEAVES.register(sp.Rational)(RATIONAL)
LEAVES.register(type(sp.S.Infinity), type(sp.S.NegativeInfinity), type(sp.E), type(sp.pi),
                type(sp.true), type(sp.false))(CONSTANT)
LEAVES.register(sp.Float)(_FLOAT)


def leaf(expr: sp.Basic, refused: Callable[[sp.Basic], Exception] = FloatRefused):
    """``SYMBOL``, ``RATIONAL`` or ``CONSTANT`` for a leaf both evaluators take, None for any other
    node; raises ``refused(expr)`` for a Float (``FloatRefused`` unless the evaluator has its own error)."""
    kind = LEAVES[type(expr)]
    if kind is _FLOAT:
        raise refused(expr)
    return kind
