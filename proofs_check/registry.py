"""The claim registry: every theorem, identity and printed number we check.

A :class:`Claim` has an id from ``../shared/catalog`` (never reused, never renamed:
dp_accounting's ``dp_event`` convention), the seed papers it belongs to, a source locator, a
kind, a plain-text statement (and optionally its LaTeX) and a ``check`` callable returning an
:class:`~proofs_check.status.Outcome`.  Statuses are in :mod:`proofs_check.status`, the
outcome helpers in :mod:`proofs_check.outcomes`, discovery of the built-in claim modules in
:mod:`proofs_check.discovery`: this module imports none of the claim modules.

Users register claims of their own with :func:`register` or :func:`claim` (see README,
"Your own claims").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .status import (  # noqa: F401
    CONFIRMED,
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PROVEN,
    REFUTED,
    STATUSES,
    Outcome,
    Status,
)

KINDS = ("identity", "inequality", "iff", "limit", "value", "statement")


@dataclass(frozen=True)
class Claim:
    id: str
    papers: tuple[str, ...]
    source: str
    kind: str
    statement: str
    check: Callable[[], Outcome] = field(compare=False)
    latex: str | None = field(default=None, compare=False)
    #: optional rigorous (interval) version of the check, used by ``check --certified``
    certify: Callable[[], Outcome] | None = field(default=None, compare=False)


_REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    if claim.id in _REGISTRY:
        raise ValueError(f"claim id {claim.id} registered twice")
    if claim.kind not in KINDS:
        raise ValueError(f"claim {claim.id}: unknown kind {claim.kind} (one of {', '.join(KINDS)})")
    if not callable(claim.check):
        raise ValueError(f"claim {claim.id}: check must be callable")
    _REGISTRY[claim.id] = claim
    return claim


def claim(id: str, papers, source: str, kind: str, statement: str, latex: str | None = None):
    """Decorator form of ``register`` for a zero-argument check function."""
    def wrap(fn):
        register(Claim(id, tuple(papers), source, kind, statement, fn, latex))
        return fn
    return wrap


def attach_certify(claim_id: str):
    """Decorator: attach a rigorous (interval) check to an already registered claim."""
    import dataclasses

    def wrap(fn):
        _REGISTRY[claim_id] = dataclasses.replace(_REGISTRY[claim_id], certify=fn)
        return fn
    return wrap


def registered() -> list[Claim]:
    """The claims registered so far (no discovery: see ``discovery.all_claims``)."""
    return list(_REGISTRY.values())
