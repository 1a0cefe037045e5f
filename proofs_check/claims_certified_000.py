"""Certified (arb ball) checks of seed 000's inequality claims, for ``dp-derive check --certified``.

Seed 000: de Fondeville (2026), arXiv:2603.12753v1.  Certified here:

* DRS-Prop2.2 (one claim per group of ``proofs_check.grid.GROUPS``): the trade-off axioms, Dong, Roth,
  Su (2022) Prop. 2.2; de Fondeville (2026) Def. 2 (the claim belongs to seeds 000 and 004);
* DF-Cor2: (1 - f(alpha))/alpha <= e^eps for the pure eps-DP records, de Fondeville (2026) Corollary 2;
* DF-rho-a0: r(alpha) <= r(alpha0) on [alpha0, 1], r = (1 - f)/alpha, de Fondeville (2026) Section 4.

The claims are registered by ``claims_foundation`` (DRS-Prop2.2, DF-Cor2) and ``claims_disclosure``
(DF-rho-a0).  Method, statuses and what is assumed: ``proofs_check.certified_common``.
"""

from __future__ import annotations

import sympy as sp

from . import certified as C

# the modules that register the claims certified here (attach_certify needs them registered)
from . import claims_disclosure, claims_foundation  # noqa: F401
from .certified_common import (
    CELL_BUDGET,
    METHOD,
    A,
    _cell_failure,
    _Failure,
    _finish,
    _interval_text,
    _Tally,
)
from .grid import ALPHA_GRID, GROUPS, mechanism_cases
from .registry import attach_certify
from .status import FAILED, Outcome

#: extra alpha symbols for statements about two or three points (chords)
A0, A1, A2, A3 = sp.symbols("alpha_0 alpha_1 alpha_2 alpha_3", positive=True)

_GRID = [(text, sp.Rational(text)) for text in ALPHA_GRID]


# ------------------------------------------------------------------ DRS-Prop2.2
def _forms(rec):
    return rec.bind(rec.tradeoff), rec.bind(rec.power)


def _small_power(P, a: sp.Rational) -> bool:
    """Whether power(a) < 1/2 (then differences of power are free of cancellation; otherwise
    differences of f are).  Only chooses a form: any choice is rigorous."""
    ball = C._enclose(P, {A: a}, 64)
    return ball is None or bool(ball < 0.5)


def _chord(F, P, x: sp.Rational, y: sp.Rational, sx, sy_):
    """The chord slope (power(y) - power(x))/(y - x) = (f(x) - f(y))/(y - x), x < y, in the form
    free of cancellation, as an expression of the point symbols sx, sy_."""
    if _small_power(P, y):
        return (P.xreplace({A: sy_}) - P.xreplace({A: sx})) / (y - x)
    return (F.xreplace({A: sx}) - F.xreplace({A: sy_})) / (y - x)


def certify_axioms(cases) -> Outcome:
    """Certified DRS-Prop2.2 for ``(label, record)`` cases.

    Pointwise at the 23 alphas of ``ALPHA_GRID`` (exact rationals, 0 .. 1e-1000 .. 1):
    f(1) = 0 (exactly), 0 <= f, f <= 1 (as power >= 0), f(alpha) <= 1 - alpha (as
    power(alpha)/alpha - 1 >= 0, relative; power(0) >= 0 at alpha = 0), the two forms' balls
    overlap (f + power - 1 not certainly nonzero); non-increasing on each pair of consecutive
    points; convex as non-decreasing chord slopes of f on each triple of consecutive points.
    Whole cells: f(alpha) <= 1 - alpha on [1e-1000, 1].
    """
    tally = _Tally("f(alpha) <= 1 - alpha")
    lines = []
    try:
        for label, rec in cases:
            F, P = _forms(rec)
            for text, a in _GRID:
                where = {"case": label, "alpha": text}
                env = {A: a}
                if not C.overlap(F + P - 1, env):
                    raise _Failure(Outcome(FAILED, certified=True, method=METHOD, worst_at=where,
                                           detail="the record's tradeoff and power are not complements "
                                                  "(f + power - 1 certainly nonzero)",
                                           counterexample={**where, "statement": "f + power = 1"}))
                if a == 1:
                    v = C.certify_zero(F, env)
                    tally.take("f(1) = 0", v, where, "")
                tally.take("0 <= f", C.certify_nonneg(F, env), where, "")
                tally.take("f <= 1", C.certify_nonneg(P, env), where, "")
                main = P if a == 0 else P / A - 1
                tally.take("f(alpha) <= 1 - alpha", C.certify_nonneg(main, env), where,
                           "slack (1 - f(alpha))/alpha - 1 (power(0) at alpha = 0)")
            for (t1, x), (t2, y) in zip(_GRID, _GRID[1:]):
                slack = _chord(F, P, x, y, A1, A2) * (y - x)
                tally.take("f non-increasing", C.certify_nonneg(slack, {A1: x, A2: y}),
                           {"case": label, "alpha": f"{t1} .. {t2}"}, "")
            for (t1, x), (t2, y), (t3, z) in zip(_GRID, _GRID[1:], _GRID[2:]):
                slack = _chord(F, P, x, y, A1, A2) - _chord(F, P, y, z, A2, A3)
                tally.take("f convex (chord slopes)", C.certify_nonneg(slack, {A1: x, A2: y, A3: z}),
                           {"case": label, "alpha": f"{t1}, {t2}, {t3}"}, "")
            positive = [a for _, a in _GRID if a > 0]
            rep = C.certify_cells(P / A - 1, A, list(zip(positive, positive[1:])), budget=CELL_BUDGET)
            if rep.failed:
                raise _Failure(_cell_failure(rep, label, "f(alpha) <= 1 - alpha"))
            text, info = _interval_text(rep, ALPHA_GRID[1], ALPHA_GRID[-1])
            lines.append((label, text, info))
    except _Failure as stop:
        return stop.outcome
    intervals = {label: info for label, _, info in lines}
    whole = [label for label, _, info in lines if not info["uncovered"]]
    detail = ("certified with arb balls at the 23 exact alphas of the grid (0, 1e-1000 .. 1): f(1) = 0 "
              "exactly, 0 <= f <= 1, f(alpha) <= 1 - alpha, non-increasing (consecutive points), convex "
              "(chord slopes of consecutive triples) -- these pointwise; f(alpha) <= 1 - alpha also over "
              "whole intervals: " + "; ".join(f"{label}: {text}" for label, text, _ in lines)
              + f"; {tally.exact} decisions exact (equalities); margin = certified lower bound of "
                "(1 - f(alpha))/alpha - 1")
    out = tally.outcome(detail, intervals)
    out.extra["whole_interval_cases"] = whole
    return out


for _key in GROUPS:
    attach_certify(f"DRS-Prop2.2:{_key}")((lambda key: lambda: certify_axioms(mechanism_cases(key)))(_key))


# ------------------------------------------------------------------ DF-Cor2
def certify_ratio_bound(cases) -> Outcome:
    """Certified DF-Cor2: (1 - f(alpha))/alpha <= e^eps for the pure eps-DP records.

    Slack 1 - power(alpha)/(alpha e^eps) (relative), with eps the record's own ``pure_eps``:
    pointwise at the 22 alphas of the grid in (0, 1] (exactly 0 on the linear regime of Laplace,
    f_{eps,0} and randomized response: decided by exact arithmetic after the branch selection is
    certified), and over whole cells of [1e-1000, 1].
    """
    tally = _Tally("(1 - f)/alpha <= e^eps")
    lines, labels = [], []
    try:
        for label, rec in cases:
            if rec.pure_eps is None:
                continue
            labels.append(label)
            bound = sp.exp(rec.bind(rec.pure_eps))
            _, P = _forms(rec)
            slack = 1 - P / (A * bound)
            for text, a in _GRID[1:]:
                tally.take("(1 - f)/alpha <= e^eps", C.certify_nonneg(slack, {A: a}),
                           {"case": label, "alpha": text}, "relative slack 1 - (1 - f)/(alpha e^eps)")
            positive = [a for _, a in _GRID[1:]]
            rep = C.certify_cells(slack, A, list(zip(positive, positive[1:])), budget=CELL_BUDGET)
            if rep.failed:
                raise _Failure(_cell_failure(rep, label, "(1 - f)/alpha <= e^eps"))
            text, info = _interval_text(rep, ALPHA_GRID[1], ALPHA_GRID[-1])
            lines.append((label, text, info))
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines,
                   "(1 - f(alpha))/alpha <= e^eps certified with arb balls for the pure-DP cases "
                   + ", ".join(labels) + " at the 22 exact alphas 1e-1000 .. 1 (pointwise; equality e^eps "
                   "decided exactly where it holds) and over whole intervals: ",
                   "; margin = certified lower bound of 1 - (1 - f)/(alpha e^eps)")


attach_certify("DF-Cor2")(lambda: certify_ratio_bound(mechanism_cases()))


# ------------------------------------------------------------------ DF-rho-a0
#: the alpha0 of the ordinary check of DF-rho-a0
ALPHA0 = ("1e-300", "1e-3", "0.3")


def certify_rho_a0(cases, alpha0s=ALPHA0) -> Outcome:
    """Certified DF-rho-a0: r(alpha) <= r(alpha0) for alpha in [alpha0, 1], r = (1 - f)/alpha.

    Slack 1 - r(alpha)/r(alpha0) with r(alpha0) = power(alpha0)/alpha0 at the exact alpha0 (a
    second symbol): pointwise at alpha0 and every grid alpha above it, and over whole cells of
    [alpha0, 1].  Exactly 0 (decided exactly) where r is constant (linear regimes, mu = 0).
    """
    tally = _Tally("r(alpha) <= r(alpha0)")
    lines = []
    try:
        for label, rec in cases:
            _, P = _forms(rec)
            for t0 in alpha0s:
                a0 = sp.Rational(t0)
                slack = 1 - (P / A) / (P.xreplace({A: A0}) / A0)
                pts = [a0] + [a for _, a in _GRID if a > a0]
                for a in pts:
                    tally.take("r(alpha) <= r(alpha0)", C.certify_nonneg(slack, {A: a, A0: a0}),
                               {"case": label, "alpha0": t0, "alpha": C.fmt(a, 12)}, "")
                rep = C.certify_cells(slack, A, list(zip(pts, pts[1:])), points={A0: a0}, budget=CELL_BUDGET // 5)
                if rep.failed:
                    raise _Failure(_cell_failure(rep, f"{label}, alpha0 = {t0}", "r(alpha) <= r(alpha0)"))
                text, info = _interval_text(rep, t0, "1")
                lines.append((f"{label}, alpha0 = {t0}", text, info))
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines,
                   "r(alpha) <= r(alpha0), r = (1 - f)/alpha, certified with arb balls for every case of "
                   f"mechanism_cases and alpha0 in {{{', '.join(alpha0s)}}}: pointwise at alpha0 and the grid "
                   "alphas above it, and over whole intervals: ",
                   "; margin = certified lower bound of 1 - r(alpha)/r(alpha0)")


attach_certify("DF-rho-a0")(lambda: certify_rho_a0(mechanism_cases()))
