"""Shared machinery of the certified (arb ball) checks, for ``dp-derive check --certified``.

The certified checks are in one module per seed paper:

* ``claims_certified_000`` -- seed 000, de Fondeville (2026): DRS-Prop2.2 (Dong, Roth, Su 2022, Prop. 2.2;
  also seed 004), DF-Cor2, DF-rho-a0;
* ``claims_certified_001_003`` -- seed 001, Liu, He, Chanyaswad, Wang, Mittal (2019): LXM-Thm2; seed 003,
  Matthews, Harel, Aseltine (2010): MHA-Def5;
* ``claims_certified_002`` -- seed 002, Kazan, Sharma, Zhang, Jiang, Yan (2025): KZ-T2.5, KZ-T3.9:gaussian,
  KZ-EXA.1, KZ-T2.8, KZ-T2.7;
* ``claims_certified_004`` -- seed 004, Su (2025): DRS-Thm3.5:band (Dong, Roth, Su 2022, Thm 3.5), SU-Eq4.1.

Each function there is attached with :func:`~proofs_check.registry.attach_certify` to a claim
registered by another module and replaces its ordinary check under ``--certified``.  Every
inequality is evaluated on the toolkit's own record expressions (``record.tradeoff`` and
``record.power`` of the records of ``proofs_check.grid.mechanism_cases``, built when the check
runs) and decided by :mod:`proofs_check.certified`, whose docstring gives the argument why a
verdict is rigorous: Arb's enclosure guarantee, branch selections certified by arb, exact SymPy
arithmetic for the equality cases (never two overlapping balls called equal).

Statuses: CONFIRMED with ``certified=True`` when every statement is proved at every point;
FAILED (``certified=True``) when one is proved false at a point (or on a whole cell), with the
point; INCONCLUSIVE when one stays undecided at the precision cap, with the point.

Between the points
------------------
The main inequality of each claim is also certified over *whole intervals*: the cells between
consecutive grid points are enclosed as balls (the enclosure contains the slack at every alpha
of the cell, so ``lower >= 0`` proves it on the whole cell; no monotonicity of the records is
assumed, only that of PhiInv, see ``proofs_check.certified``), bisected
in log10 alpha within a budget; cells where a selection or the slack is exactly 0 identically
(linear regimes, mu = 0) are decided exactly.  The outcome's detail and ``extra["intervals"]``
say which parts are covered and which are left to the pointwise checks (typically thin cells
next to alpha = 1, where every slack vanishes, and next to the kinks of piecewise records).
The other statements (monotonicity and convexity through chords, 0 <= f <= 1, f(1) = 0) are
certified pointwise at the grid points only; the report says so.

Assumed: see ``proofs_check.certified`` ("What is assumed"): Arb and SymPy's exact arithmetic
are correct, and the record's two forms satisfy power = 1 - tradeoff (claim DD-complement;
their balls are checked to overlap at every grid point).

This module holds what the checks share: the method label, the alpha symbol, the cell budget and
the precision cap of the point decisions, the failure carrier, the tally of certified lower bounds
and the texts of the interval coverage.
"""

from __future__ import annotations

from derive import symbols as sy

from . import certified as C
from .status import CONFIRMED, FAILED, INCONCLUSIVE, Outcome

METHOD = "certified (arb balls)"
A = sy.alpha
#: bisections allowed per case for the whole-cell certification (beyond the initial cells)
CELL_BUDGET = 120
#: precision cap (bits) of point decisions that are far from 0 or decided early (KZ-T2.7's tails and
#: bracket, the Berry-Esseen band's membership and piece tests)
DECISION_CAP = 512

class _Failure(Exception):
    """A certified FAILED or an INCONCLUSIVE point, carried out of the loops."""

    def __init__(self, outcome: Outcome):
        self.outcome = outcome


class _Tally:
    """Worst certified lower bound per statement, points, and the first non-proof."""

    def __init__(self, statement_main: str):
        self.main = statement_main
        self.points = 0
        self.worst: dict[str, tuple] = {}
        self.exact = 0

    def take(self, statement: str, verdict: C.Verdict, where: dict, detail: str):
        self.points += 1
        if verdict.how == "exact" or "exact point" in verdict.how:
            self.exact += 1
        if verdict.holds is False:
            raise _Failure(Outcome(FAILED, certified=True, method=METHOD, worst_at=where,
                                   detail=f"{statement} is false (proved by {verdict.how}); {detail}",
                                   counterexample={**where, "statement": statement,
                                                   "slack_upper_bound": C.fmt(verdict.upper, 6)}))
        if verdict.holds is None:
            raise _Failure(Outcome(INCONCLUSIVE, method=METHOD, worst_at=where, points=self.points,
                                   detail=f"{statement} undecided at {verdict.how} (the precision cap) "
                                          f"at {where}; {detail}"))
        old = self.worst.get(statement)
        if old is None or verdict.lower < old[0]:
            self.worst[statement] = (verdict.lower, where)

    def outcome(self, detail: str, intervals: dict) -> Outcome:
        lower, where = self.worst.get(self.main, (None, None))
        margins = {k: {"lower_bound": C.fmt(v[0]), "at": v[1]} for k, v in self.worst.items()}
        return Outcome(CONFIRMED, certified=True, method=METHOD, margin=C.fmt(lower), worst_at=where,
                       points=self.points, detail=detail,
                       extra={"intervals": intervals, "margins": margins, "exact_decisions": self.exact})


def _interval_text(rep: C.CellReport, lo: str, hi: str) -> tuple[str, dict]:
    gaps = rep.merged_uncovered()
    info = {"range": [lo, hi], "certified_cells": len(rep.certified), "enclosures": rep.enclosures,
            "exact_cells": sum(1 for *_, how in rep.certified if how == "exact"),
            "uncovered": [[C.fmt(a, 12), C.fmt(b, 12)] for a, b in gaps]}
    if not gaps:
        return f"whole interval [{lo}, {hi}]", info
    listed = ", ".join(f"[{C.fmt(a, 6)}, {C.fmt(b, 6)}] (width {C.fmt(b - a, 2)})" for a, b in gaps[:4])
    more = f" and {len(gaps) - 4} more" if len(gaps) > 4 else ""
    return (f"whole cells of [{lo}, {hi}] except {listed}{more} (pointwise only there)", info)


def _cell_failure(rep: C.CellReport, label: str, statement: str) -> Outcome:
    a, b, upper = rep.failed
    where = {"case": label, "alpha": f"[{C.fmt(a, 8)}, {C.fmt(b, 8)}]"}
    return Outcome(FAILED, certified=True, method=METHOD, worst_at=where,
                   detail=f"{statement} is false on the whole cell {where['alpha']} (arb enclosure over "
                          f"the cell, slack <= {C.fmt(upper)})",
                   counterexample={**where, "statement": statement, "slack_upper_bound": C.fmt(upper, 6)})


def _finish(tally, lines, head: str, tail: str) -> Outcome:
    """The CONFIRMED outcome of a certified sweep: ``lines`` are ``(label, interval text, info)``
    per case; the detail is ``head`` + the interval texts + ``tail``."""
    detail = head + "; ".join(f"{label}: {text}" for label, text, _ in lines) + tail
    out = tally.outcome(detail, {label: info for label, _, info in lines})
    out.extra["whole_interval_cases"] = [label for label, _, info in lines if not info["uncovered"]]
    return out
