"""A bounded memo table for module-level caches of SymPy derivations (issue #24: no unbounded cache).

``Bounded(maxsize)`` is a dict that keeps at most ``maxsize`` entries, evicting the least recently used;
``memo(key, compute)`` returns the stored value or computes and stores it.  Keys must be hashable (SymPy
expressions are).
"""

from __future__ import annotations

from collections import OrderedDict


class Bounded(OrderedDict):
    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def memo(self, key, compute):
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = compute()
        self[key] = value
        while len(self) > self.maxsize:
            self.popitem(last=False)
        return value
