"""The claim registry: every theorem, identity and printed number we check.

A :class:`Claim` has an id from ``../shared/catalog`` (never reused, never
renamed: dp_accounting's ``dp_event`` convention), the seed papers it belongs
to, a source locator, a kind and a ``check`` callable.  A check returns an
:class:`Outcome` whose status is one of

* ``PROVEN``        established symbolically by SymPy;
* ``CONFIRMED``     checked numerically at verified precision on a stated grid;
* ``FAILED``        a counterexample was found (it is reported);
* ``INCONCLUSIVE``  neither (for example SymPy could not decide).

Proven and confirmed are never merged: a claim is proven only when SymPy
closed it, whatever the numbers say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

PROVEN, CONFIRMED, FAILED, INCONCLUSIVE = "PROVEN", "CONFIRMED", "FAILED", "INCONCLUSIVE"
STATUSES = (PROVEN, CONFIRMED, FAILED, INCONCLUSIVE)
KINDS = ("identity", "inequality", "iff", "limit", "value")


@dataclass
class Outcome:
    status: str
    margin: str | None = None
    points: int = 0
    detail: str = ""
    counterexample: dict | None = None


@dataclass(frozen=True)
class Claim:
    id: str
    papers: tuple[str, ...]
    source: str
    kind: str
    statement: str
    check: Callable[[], Outcome] = field(compare=False)


def proven_if(checks: dict, detail: str) -> Outcome:
    """PROVEN when every SymPy check closed (0 or True), else INCONCLUSIVE naming what was left."""
    left = {k: v for k, v in checks.items() if not (v is True or (v is not False and v == 0))}
    if not left:
        return Outcome(PROVEN, margin="0", detail=detail)
    return Outcome(INCONCLUSIVE, detail=f"SymPy did not close: {left}")


def agreement(rows, tolerance, detail: str, extra_points: int = 0) -> Outcome:
    """CONFIRMED when every ``(context, value, reference)`` row agrees within ``tolerance``.

    The error is relative (|value - reference| / |reference|; absolute when the
    reference is 0), computed at 60 digits; Exact values are accepted.  The first
    row beyond the tolerance gives FAILED with its context and both values as the
    counterexample; otherwise the margin is the worst error and points the rows.
    """
    import mpmath

    from numeric.precision import as_mpf

    worst, points = mpmath.mpf(0), extra_points
    for context, value, reference in rows:
        with mpmath.workdps(60):
            v, r = as_mpf(value, 60), as_mpf(reference, 60)
            err = abs(v - r) / abs(r) if r != 0 else abs(v)
        points += 1
        if err > tolerance:
            return Outcome(FAILED, detail=detail,
                           counterexample={**context, "value": str(v), "reference": str(r)})
        worst = max(worst, err)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points, detail=detail)


_REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    if claim.id in _REGISTRY:
        raise ValueError(f"claim id {claim.id} registered twice")
    if claim.kind not in KINDS:
        raise ValueError(f"claim {claim.id}: unknown kind {claim.kind}")
    _REGISTRY[claim.id] = claim
    return claim


def claim(id: str, papers, source: str, kind: str, statement: str):
    """Decorator form of ``register`` for a zero-argument check function."""
    def wrap(fn):
        register(Claim(id, tuple(papers), source, kind, statement, fn))
        return fn
    return wrap


def all_claims() -> list[Claim]:
    from . import (claims_attack, claims_disclosure, claims_foundation,  # noqa: F401  (register on import)
                   claims_semantics)
    return list(_REGISTRY.values())
