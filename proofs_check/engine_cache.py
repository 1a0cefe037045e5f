"""One engine run per process for ``reproduce`` (test-suite timing): the certified engine runs behind
``reproduce --paper 004`` (census levels, the Bu-Dong-Long-Su training runs) take tens of seconds, and one
process (a test session, ``check`` followed by ``reproduce``) may ask for the same run more than once.

``call(fn, *args)`` returns ``fn(*args)``, computed once per (fn, args, deps): the functions cached are pure
functions of exact inputs (decimal strings, level names).  The function object itself and ``deps`` (the
module-level callables it reads) are part of the key, so a test that monkeypatches any of them gets a fresh
computation, never a result cached from the unpatched code.  Results are shared: callers only read them.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=256)
def _call(fn, args: tuple, deps: tuple):
    return fn(*args)


def call(fn, *args, deps: tuple = ()):
    """``fn(*args)``, cached on (fn, args, deps); every argument must be hashable (strings, ints)."""
    return _call(fn, tuple(args), tuple(deps))


def clear() -> None:
    _call.cache_clear()
