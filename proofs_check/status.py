"""Statuses and outcomes of a claim check (a leaf module: imports nothing of the project).

A check returns an :class:`Outcome`; its :class:`Status` says exactly what was established:

* ``PROVEN``        SymPy decided the statement exactly (equality or inequality);
* ``CONFIRMED``     checked numerically at verified precision on the stated domain (the report
                    gives the points, the worst margin and where it occurs);
* ``FAILED``        a definite counter-example: SymPy decides the statement is false, or a point
                    where it fails by more than the verified error.  A FAILED claim is a defect of
                    this toolkit (or of a check), and ``dp-derive check`` exits 1;
* ``REFUTED``       a statement *of a paper* that is false: the outcome records the paper's words,
                    the counter-example and the corrected statement (which was itself checked).
                    This is an expected result for an erratum and exits 0;
* ``INCONCLUSIVE``  undecided, with the reason;
* ``ERROR``         the claim's code raised or ran past its time limit; the exception is shown,
                    and ``dp-derive check`` exits 1.

``PROVEN`` and ``CONFIRMED`` are never merged.  ``certified`` on an outcome says that a
CONFIRMED inequality was evaluated with rigorous interval enclosures (``--certified``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Status(str, Enum):
    PROVEN = "PROVEN"
    CONFIRMED = "CONFIRMED"
    FAILED = "FAILED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


PROVEN, CONFIRMED, FAILED = Status.PROVEN, Status.CONFIRMED, Status.FAILED
REFUTED, INCONCLUSIVE, ERROR = Status.REFUTED, Status.INCONCLUSIVE, Status.ERROR
STATUSES = tuple(Status)
#: statuses that make ``dp-derive check`` exit 1
BLOCKING = frozenset({FAILED, ERROR})

#: default method recorded when a check does not name one
DEFAULT_METHOD = {PROVEN: "sympy", CONFIRMED: "numeric", FAILED: "numeric", REFUTED: "numeric",
                  INCONCLUSIVE: "none", ERROR: "none"}


@dataclass
class Outcome:
    """What one check established.

    ``margin`` is the worst slack found (relative where the claim says so), ``worst_at`` the
    point where it occurs, ``points`` the number of evaluations, ``detail`` the reason / method
    description, ``counterexample`` the inputs and values of a failure, ``refutation`` (REFUTED
    only) ``{"paper_says", "holds_instead", "evidence"}``.
    """

    status: Status
    margin: str | None = None
    points: int = 0
    detail: str = ""
    counterexample: dict | None = None
    worst_at: dict | str | None = None
    method: str | None = None
    refutation: dict | None = None
    certified: bool = False
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        self.status = Status(self.status)
        if self.status is REFUTED and not (self.refutation and {"paper_says", "holds_instead", "evidence"}
                                           <= set(self.refutation)):
            raise ValueError("a REFUTED outcome records paper_says, holds_instead and evidence")
        if self.method is None:
            self.method = DEFAULT_METHOD[self.status]
