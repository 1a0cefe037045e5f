"""Helpers of the mutation suites (tests/test_checker_mutations*.py): run one claim, require it
FAILED, and wrap evaluators or record constructors so that they return something slightly wrong."""

from __future__ import annotations

import dataclasses

import mpmath

from proofs_check import checker, registry

PASSING = ("PROVEN", "CONFIRMED")


def run(claim_id: str) -> dict:
    return checker.run([registry._REGISTRY[claim_id]], timeout=60)["claims"][0]


#: claims already seen to pass on the unpatched code in this run (see assert_passes)
_PASSED: set[str] = set()


def assert_passes(claim_id: str):
    """The claim passes on the *unpatched* code (the baseline of a mutation test: call it before patching).
    The claims are deterministic, so the verdict is kept for the run: a second mutation test of the same
    claim does not pay for the baseline again (issue #25: the default run's budget)."""
    if claim_id in _PASSED:
        return
    row = run(claim_id)
    assert row["status"] in PASSING, (claim_id, row["status"], row["reason"][:300])
    _PASSED.add(claim_id)


def assert_failed(claim_id: str, seconds: float = 30):
    row = run(claim_id)
    assert row["status"] == "FAILED", (claim_id, row["status"], row["reason"][:300])
    assert row["seconds"] < seconds, (claim_id, row["seconds"])
    return row


def scaled(fn, factor):
    """An evaluator returning its (mpf) value times ``factor``, computed at 60 digits."""
    def wrapped(*args, **kw):
        value = fn(*args, **kw)
        with mpmath.workdps(60):
            return value * mpmath.mpf(factor)
    return wrapped


def shifted(fn, delta):
    def wrapped(*args, **kw):
        value = fn(*args, **kw)
        with mpmath.workdps(60):
            return value + mpmath.mpf(delta)
    return wrapped


def field_scaled(fn, field: str, factor):
    """A function returning a dataclass result whose ``field`` (an mpf) is multiplied by ``factor``."""
    def wrapped(*args, **kw):
        out = fn(*args, **kw)
        with mpmath.workdps(60):
            return dataclasses.replace(out, **{field: getattr(out, field) * mpmath.mpf(factor)})
    return wrapped


def with_record(constructor, **changes):
    """A constructor whose records get ``changes(record)`` ({field: function of the record})."""
    def make(*args, **kw):
        rec = constructor(*args, **kw)
        return dataclasses.replace(rec, **{k: fn(rec) for k, fn in changes.items()})
    return make


def substituted(constructor, old, new, fields=("tradeoff", "power")):
    """A constructor whose ``fields`` have the subexpression ``old`` replaced by ``new``."""
    return with_record(constructor, **{f: (lambda rec, f=f: getattr(rec, f).subs(old, new)) for f in fields})




def status(claim_id: str):
    """(status, row) of one claim run alone."""
    row = run(claim_id)
    return row["status"], row


def mutated_record(constructor, substitution):
    """A constructor whose power and trade-off have ``substitution`` ({symbol: expression}) applied."""
    return with_record(constructor, **{f: (lambda rec, f=f: getattr(rec, f).subs(substitution))
                                       for f in ("tradeoff", "power")})


def quadrature_off_by_1e_12(monkeypatch):
    """numeric.functionals' quadrature route returning its value times 1 + 1e-12."""
    from numeric import functionals as F
    orig = F._quadrature
    monkeypatch.setattr(F, "_quadrature", lambda r, n, lam, d: orig(r, n, lam, d) * (1 + mpmath.mpf(10) ** -12))
