"""proofs_check/engine_cache.py: one engine run per process for ``reproduce``, and a monkeypatched engine
is never answered from the cache (so the mutation tests of reproduce_* still see their mutation)."""

from __future__ import annotations

import mpmath

from numeric import census as C
from numeric import dpsgd
from proofs_check import engine_cache
from proofs_check import reproduce_bdls as RB
from proofs_check import reproduce_census as RC


def test_same_call_runs_once_and_new_args_run_again():
    calls = []

    def f(x):
        calls.append(x)
        return [x]
    engine_cache.clear()
    a, b = engine_cache.call(f, "1"), engine_cache.call(f, "1")
    assert a is b and calls == ["1"]
    engine_cache.call(f, "2")
    assert calls == ["1", "2"]


class _R:
    def __init__(self, v):
        self.eps_lower = self.eps_upper = mpmath.mpf(v)
        self.certified = True


def test_monkeypatched_account_is_not_answered_from_the_cache(monkeypatch):
    """Two different stubs of dpsgd.account in turn: the second must be called, not the first's result reused
    (mutation: dropping ``deps`` from the key makes the second call return 1)."""
    engine_cache.clear()
    monkeypatch.setattr(dpsgd, "account", lambda *a, **k: _R(1))
    assert RB._run("1.3", 3516).startswith("[1.0,")
    monkeypatch.setattr(dpsgd, "account", lambda *a, **k: _R(2))
    assert RB._run("1.3", 3516).startswith("[2.0,")


def test_monkeypatched_census_engine_is_not_answered_from_the_cache(monkeypatch):
    engine_cache.clear()
    monkeypatch.setattr(C, "certified_eps", lambda level=C.ALL, query_set=None, delta=C.DELTA: _R(3))
    assert RC._certified(C.ALL).eps_upper == 3
    monkeypatch.setattr(C, "compose", lambda qs: None)       # a dependency changed: recomputed
    monkeypatch.setattr(C, "certified_eps", lambda level=C.ALL, query_set=None, delta=C.DELTA: _R(4))
    assert RC._certified(C.ALL).eps_upper == 4


def test_mutation_key_without_deps_is_caught(monkeypatch):
    """The check above fails when the key forgets ``deps`` (the cache answering a patched engine)."""
    real = engine_cache.call
    monkeypatch.setattr(engine_cache, "call", lambda fn, *args, deps=(): real(fn, *args))
    engine_cache.clear()
    monkeypatch.setattr(dpsgd, "account", lambda *a, **k: _R(1))
    first = RB._run("1.3", 3516)
    monkeypatch.setattr(dpsgd, "account", lambda *a, **k: _R(2))
    assert RB._run("1.3", 3516) == first        # stale: the mutation is visible
    engine_cache.clear()
