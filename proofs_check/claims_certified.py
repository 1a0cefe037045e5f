"""Certified (arb ball) checks of the inequality claims, for ``dp-derive check --certified``.

Each function here is attached with :func:`~proofs_check.registry.attach_certify` to a claim
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
"""

from __future__ import annotations

import mpmath
import sympy as sp

from derive import symbols as sy

from . import certified as C
# the modules that register the claims certified here (attach_certify needs them registered)
from . import claims_attack, claims_disclosure, claims_foundation, claims_semantics  # noqa: F401
from .grid import ALPHA_GRID, GROUPS, mechanism_cases
from .registry import attach_certify
from .status import CONFIRMED, FAILED, INCONCLUSIVE, Outcome

METHOD = "certified (arb balls)"
A = sy.alpha
#: extra alpha symbols for statements about two or three points (chords)
A0, A1, A2, A3 = sp.symbols("alpha_0 alpha_1 alpha_2 alpha_3", positive=True)
#: bisections allowed per case for the whole-cell certification (beyond the initial cells)
CELL_BUDGET = 120

_GRID = [(text, sp.Rational(text)) for text in ALPHA_GRID]


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


def _sweep(tally, lines, statement: str, slack, symbol, points, where: dict, label: str, budget: int,
           cells=None, detail: str = "relative slack", name: str | None = None) -> None:
    """Certify ``slack >= 0`` at ``points`` ((shown text, exact value) pairs of ``symbol``) and over the
    cells between consecutive points (or ``cells``); a failure raises _Failure, the interval coverage
    goes to ``lines`` under ``label``."""
    for text, value in points:
        tally.take(statement, C.certify_nonneg(slack, {symbol: value}), {**where, name or str(symbol): text}, detail)
    values = [v for _, v in points]
    rep = C.certify_cells(slack, symbol, cells if cells is not None else list(zip(values, values[1:])),
                          budget=budget)
    if rep.failed:
        raise _Failure(_cell_failure(rep, label, statement))
    ends = cells if cells is not None else [(values[0], values[-1])]
    text, info = _interval_text(rep, C.fmt(ends[0][0], 6), C.fmt(ends[-1][1], 6))
    lines.append((label, text, info))


# ------------------------------------------------------------------ KZ-T2.5, KZ-T3.9:gaussian
def _gauss_tail_expr(mu, e):
    """P(|Z| > e) for the Gaussian mechanism's privacy loss: ``claims_semantics.gauss_tail_expr`` (one
    source; the mutation tests replace it here)."""
    return claims_semantics.gauss_tail_expr(mu, e)


#: (mu, eps grid) of the certified KZ-T2.5 and (mu, eps, c) of KZ-T3.9:gaussian (the ordinary checks' points)
T25_MUS = ("0.25", "1", "3")
T25_EPS = ("0", "0.1", "1", "5", "20")
T39_CASES = [(mu, e) for mu in ("0.5", "1", "2") for e in ("0.1", "0.5", "1", "3")]
T39_C = ("0.01", "1", "9", "999")
#: bisections per mu for the whole-interval certification of KZ-T2.5 (the tails need narrow cells:
#: a ball cannot hold [Phi(a), Phi(b)] with a sign once Phi(b)/Phi(a) exceeds ~2^30)
T25_BUDGET = 3000
T39_BUDGET = 200


def certify_t25() -> Outcome:
    """Certified KZ-T2.5: delta_DP(eps) <= P(|Z| > eps) for the Gaussian mechanism.

    Slack 1 - delta(eps)/P(|Z| > eps), delta the record's own closed-form profile
    (``derive.gaussian(mu).profile``), the tail in Phi: pointwise at the eps grid and over whole cells
    of [0, 20] (arb enclosures over each cell, bisected within the budget)."""
    import derive
    from derive.tradeoff import eps_prime
    tally = _Tally("delta_DP <= P(|Z| > eps)")
    lines = []
    try:
        for mu_t in T25_MUS:
            rec = derive.gaussian(mu_t)
            mu = sp.Rational(mu_t)
            tail = _gauss_tail_expr(mu, eps_prime)
            # (tail - delta)/tail: resolved, the shared term Phi(mu/2 - eps/mu) cancels exactly (SymPy)
            slack = (tail - rec.bind(rec.profile)) / tail
            _sweep(tally, lines, "delta_DP <= P(|Z| > eps)", slack, eps_prime,
                   [(e, sp.Rational(e)) for e in T25_EPS], {"mu": mu_t}, f"mu = {mu_t} (eps)", T25_BUDGET,
                   detail="relative slack 1 - delta_DP/P(|Z| > eps)", name="eps")
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines,
                   "delta_DP(eps) <= P(|Z| > eps) certified with arb balls on the record's closed-form profile, "
                   f"mu in {{{', '.join(T25_MUS)}}}, pointwise at eps in {{{', '.join(T25_EPS)}}} and over whole "
                   "intervals of eps: ", "; margin = certified lower bound of 1 - delta_DP/P(|Z| > eps)")


def certify_t39_gaussian() -> Outcome:
    """Certified KZ-T3.9:gaussian: P(|Z| > eps') <= delta' at delta = delta_DP(eps), delta' = delta (1 + c).

    eps' is the toolkit's own expression (``derive.semantics.eps_prime``) with delta the record's
    closed-form profile at eps: the slack 1 - P(|Z| > eps')/delta' is enclosed as one expression,
    pointwise at the ordinary check's (mu, eps, c) and over whole cells of c in [0.01, 999]."""
    import derive
    from derive import semantics as S
    from derive.tradeoff import eps_prime
    c = sp.Symbol("c", positive=True)
    tally = _Tally("P(|Z| > eps') <= delta'")
    lines = []
    try:
        for mu_t, e_t in T39_CASES:
            rec = derive.gaussian(mu_t)
            e = sp.Rational(e_t)
            d = rec.bind(rec.profile).xreplace({eps_prime: e})
            dp = d * (1 + c)
            ep = S.eps_prime().xreplace({sy.eps: e, sy.delta: d, S.delta_p: dp})
            slack = 1 - _gauss_tail_expr(sp.Rational(mu_t), ep) / dp
            _sweep(tally, lines, "P(|Z| > eps') <= delta'", slack, c, [(x, sp.Rational(x)) for x in T39_C],
                   {"mu": mu_t, "eps": e_t}, f"mu = {mu_t}, eps = {e_t} (c)", T39_BUDGET,
                   detail="relative slack 1 - P(|Z| > eps')/delta'")
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines,
                   "P(|Z| > eps') <= delta' = delta (1 + c) certified with arb balls (eps' from derive.semantics, "
                   "delta from the record's profile), pointwise at c in {0.01, 1, 9, 999} and over whole "
                   "intervals of c: ", "; margin = certified lower bound of 1 - P(|Z| > eps')/delta'")


attach_certify("KZ-T2.5")(certify_t25)
attach_certify("KZ-T3.9:gaussian")(certify_t39_gaussian)


# ------------------------------------------------------------------ MHA-Def5
#: shifts of the pointwise certification (the ordinary check's grid)
MHA_SHIFTS = ("0", "0.000001", "0.01", "1", "5", "40")


def certify_mha_def5() -> Outcome:
    """Certified MHA-Def5 for the two closed-form AUCs (single Laplace release, normal release).

    Whole interval [0, oo), by a monotonicity argument whose ingredients are decided exactly:
    (i) AUC(0) = 1/2 (SymPy, exact); (ii) AUC'(s) equals a product of non-negative factors
    (Laplace: r e^-r / 2; normal: e^(-d^2/4) erf(d/2) / sqrt(pi), erf being odd and increasing) --
    the identity with SymPy's derivative of the toolkit's expression is decided by simplification
    (Phi rewritten as erf); so AUC is non-decreasing and AUC >= 1/2 everywhere; (iii) 1 - AUC is a
    product of positive factors ((1 + r) e^-r / 2; 2 Phi(x) Phi(-x) with x = d/sqrt 2), decided the
    same way, so AUC < 1.  Pointwise, both slacks AUC - 1/2 and 1 - AUC are also enclosed by arb at
    the grid shifts.  The difference-of-two-Laplace AUC (a quadrature, no closed form) is not
    certified here (the report says so)."""
    from derive import two_sided as T
    from derive.special import Phi, to_erf
    tally = _Tally("1/2 <= AUC <= 1")
    laws = {"single Laplace": (T.laplace_auc_printed(), T.r, T.r * sp.exp(-T.r) / 2,
                               (1 + T.r) * sp.exp(-T.r) / 2),
            "normal": (T.normal_auc_printed(), T.d, sp.exp(-T.d ** 2 / 4) * sp.erf(T.d / 2) / sp.sqrt(sp.pi),
                       2 * Phi(T.d / sp.sqrt(2)) * Phi(-T.d / sp.sqrt(2)))}
    lines = []
    try:
        for label, (auc, s, deriv, gap) in laws.items():
            at0 = sp.simplify(to_erf(auc.xreplace({s: 0})))
            d_ok = sp.simplify(to_erf(sp.diff(auc, s) - deriv)) == 0
            g_ok = sp.simplify(to_erf(1 - auc - gap)) == 0
            if at0 != sp.Rational(1, 2) or not d_ok or not g_ok:
                raise _Failure(Outcome(FAILED, certified=True, method=METHOD,
                                       detail=f"{label}: the monotonicity argument does not hold as stated "
                                              f"(AUC(0) = {at0}, derivative identity {d_ok}, gap identity {g_ok})",
                                       counterexample={"case": label}))
            for text in MHA_SHIFTS:
                v = sp.Rational(text)
                for name, slack in (("AUC >= 1/2", auc - sp.Rational(1, 2)), ("AUC <= 1", 1 - auc)):
                    tally.take(name if name == "AUC <= 1" else "1/2 <= AUC <= 1", C.certify_nonneg(slack, {s: v}),
                               {"case": label, "shift": text}, name)
            lines.append((label, "whole interval [0, oo) (AUC(0) = 1/2 exactly, AUC' >= 0 and 1 - AUC > 0 as "
                                 "products of non-negative factors, the identities decided by SymPy)",
                          {"range": ["0", "oo"], "uncovered": [], "argument": "monotonicity"}))
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines, "1/2 <= AUC <= 1 for the closed-form AUCs: ",
                   "; pointwise arb enclosures at shifts " + ", ".join(MHA_SHIFTS) + "; the difference-of-two-"
                   "Laplace AUC (quadrature) is not certified; margin = certified lower bound of AUC - 1/2 at the "
                   "grid (0 at shift 0, exactly)")


attach_certify("MHA-Def5")(certify_mha_def5)


# ------------------------------------------------------------------ LXM-Thm2
LXM_T = tuple(sp.Rational(k, 4) for k in range(1, 16))       # the ordinary check's grid of t


def _two_sided_laws(t, b):
    """(level, recall) of |o - 1/2| > t for o ~ Lap(0, b) (null) and Lap(1, b), on t <= 1/2 and on
    t >= 1/2 (closed forms of the Laplace tails; the two agree at t = 1/2)."""
    half = sp.Rational(1, 2)
    low = (sp.exp(-(half + t) / b) / 2 + 1 - sp.exp(-(half - t) / b) / 2,
           1 - sp.exp((t - half) / b) / 2 + sp.exp(-(half + t) / b) / 2)
    high = (sp.exp(-(half + t) / b) / 2 + sp.exp(-(t - half) / b) / 2,) * 2     # symmetric about 1/2: r = a
    return low, high


def certify_lxm_thm2() -> Outcome:
    """Certified LXM-Thm2: at the recall r(t) of the two-sided test |o - 1/2| > t on the Laplace release,
    the Neyman-Pearson test's level f(1 - r) (the record's trade-off function, symmetric) is at most
    the two-sided test's level a(t); for every prior weight w > 0 this is prec_NP >= prec_two-sided
    (r/(r + w x) decreases in x).  Slack 1 - f(1 - r(t))/a(t) with r, a from the Laplace laws (closed
    forms, Piecewise at the kinks), pointwise at t = 1/4 .. 15/4 and over whole cells between."""
    import derive
    t = sp.Symbol("t", positive=True)
    tally = _Tally("prec_NP >= prec_two-sided")
    lines = []
    try:
        for eps_t in ("0.5", "2"):
            rec = derive.laplace(eps_t)
            b = 1 / sp.Rational(eps_t)
            F = rec.bind(rec.tradeoff)
            slacks = [1 - F.xreplace({A: 1 - recall}) / level for level, recall in _two_sided_laws(t, b)]
            half = sp.Rational(1, 2)
            for tv in LXM_T:
                slack = slacks[0] if tv <= half else slacks[1]
                tally.take("prec_NP >= prec_two-sided", C.certify_nonneg(slack, {t: tv}),
                           {"eps": eps_t, "t": C.fmt(tv, 6)}, "relative slack 1 - f(1 - r)/a")
            cells = list(zip(LXM_T, LXM_T[1:]))
            rep = C.certify_cells(slacks[0], t, [cl for cl in cells if cl[1] <= half], budget=CELL_BUDGET // 2)
            rep2 = C.certify_cells(slacks[1], t, [cl for cl in cells if cl[0] >= half], budget=CELL_BUDGET // 2)
            for r_ in (rep, rep2):
                if r_.failed:
                    raise _Failure(_cell_failure(r_, f"eps = {eps_t}", "prec_NP >= prec_two-sided"))
            rep.certified += rep2.certified
            rep.uncovered += rep2.uncovered
            rep.enclosures += rep2.enclosures
            text, info = _interval_text(rep, "1/4", "15/4")
            lines.append((f"eps = {eps_t} (t)", text, info))
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines, "f(1 - r(t)) <= a(t) (so prec_NP >= prec_two-sided for every w > 0) certified "
                   "with arb balls, eps in {0.5, 2}, pointwise at t = 1/4 .. 15/4 and over whole intervals: ",
                   "; margin = certified lower bound of 1 - f(1 - r)/a")


attach_certify("LXM-Thm2")(certify_lxm_thm2)


# ------------------------------------------------------------------ KZ-EXA.1
#: priors of the pointwise certification and the ends of the cells (p <= 1/2; p >= 1/2 by 1 - p)
EXA_P = tuple(sp.Rational(1, 10**k) for k in (300, 100, 30, 10, 3, 1)) + (sp.Rational(1, 2),)


def certify_kz_exa1() -> Outcome:
    """Certified KZ-EXA.1: for every prior, at most one of the two randomized-response outputs
    (privacy loss +-eps~) moves the posterior by more than tau(eps): slack
    (tau - min(|U(p, eps~) - p|, |L(p, eps~) - p|))/tau >= 0 with the toolkit's expressions
    (derive.semantics tau, eps_tilde, difference_at_prior), eps in {0.5, 1, 2}; on p <= 1/2 with
    1 - p written exactly as 1 - p, on p >= 1/2 in the variable q = 1 - p (p = 1 - q), so neither side
    subtracts in its tail; pointwise at p, q in {1e-300, 1e-100, 1e-30, 1e-10, 1e-3, 0.1, 1/2} and over
    whole cells between."""
    from derive import semantics as S
    from derive.posterior import prior, prior_c
    q = sp.Symbol("q", positive=True)
    tally = _Tally("at most one output breaks the bound")
    lines = []
    try:
        for e_t in ("0.5", "1", "2"):
            e = sp.Rational(e_t)
            et, tau = S.eps_tilde(e), S.tau(e)
            up, down = S.difference_at_prior(et), S.difference_at_prior(-et)
            slack = (tau - sp.Min(sp.Abs(up), sp.Abs(down))) / tau
            # at p = 1/2 the output +eps~ moves the posterior by tau exactly (the construction of eps~):
            # an equality, decided by SymPy (tanh(eps~/2) = 2 tau), never by overlapping balls
            half = sp.Rational(1, 2)
            at_half = sp.simplify((up - tau).xreplace({prior: half, prior_c: half}).rewrite(sp.exp))
            if at_half != 0:
                raise _Failure(Outcome(FAILED, certified=True, method=METHOD, worst_at={"eps": e_t, "p": "1/2"},
                                       detail="U(1/2, eps~) - 1/2 is not tau exactly",
                                       counterexample={"eps": e_t, "U - 1/2 - tau": str(at_half)}))
            statement = "at most one output breaks the bound"
            for side, sym, sub in (("p <= 1/2", prior, {prior_c: 1 - prior}), ("p >= 1/2", q, {prior: 1 - q, prior_c: q})):
                tally.take(statement, C.Verdict(True, mpmath.mpf(0), mpmath.mpf(0), "exact"),
                           {"eps": e_t, "side": side, str(sym): "1/2"}, "exact equality at p = 1/2")
                _sweep(tally, lines, statement, slack.xreplace(sub), sym, [(C.fmt(v, 6), v) for v in EXA_P[:-1]],
                       {"eps": e_t, "side": side}, f"eps = {e_t}, {side} ({sym})", CELL_BUDGET // 4,
                       cells=list(zip(EXA_P, EXA_P[1:])))
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, lines, "tau(eps) - min(|U - p|, |L - p|) >= 0 at eps~ certified with arb balls, "
                   "eps in {0.5, 1, 2}: ", "; margin = certified lower bound of the relative slack (0 at p = 1/2, "
                   "where U(1/2, eps~) - 1/2 = tau exactly)")


attach_certify("KZ-EXA.1")(certify_kz_exa1)


# ------------------------------------------------------------------ KZ-T2.8
#: (k, eps0) and delta of the ordinary check
T28_CASES = ((1, "0.5"), (10, "0.1"), (50, "0.2"), (1000, "0.01"))
T28_DELTAS = ("1e-3", "1e-8")


def _optimal_delta_terms(k: int, e0: sp.Rational, eps_g: sp.Expr) -> sp.Expr:
    """The toolkit's Murtagh-Vadhan sum (derive.composition.optimal_delta) at k, eps0 and eps_g with every
    Max resolved: the term l is e^{(k-l) eps0} - e^{eps_g + l eps0} when (k - 2l) eps0 > eps_g and 0 when
    (k - 2l) eps0 <= eps_g, the comparison decided exactly (rational eps_g) or by the arb enclosure of
    eps_g (irrational eps_g: never equal to a rational (k - 2l) eps0 here; an undecided comparison keeps
    its Max).  The summand is the one of derive.composition (taken from it, not retyped)."""
    from derive import composition as DC
    from numeric import arb as AR
    num, den = DC.optimal_delta.as_numer_denom()
    summand, (ell, _, _) = num.function, num.limits[0]
    mx = [m for m in summand.atoms(sp.Max)][0]
    inner = [a for a in mx.args if a != 0][0]
    active_form = summand.xreplace({mx: inner})          # the summand where its Max is the inner difference
    den = den.xreplace({DC.k: k, DC.eps0: e0})
    ball = None if eps_g.is_Rational else AR.enclose(eps_g, {}, 128)
    values = {DC.k: k, DC.eps0: e0, DC.eps_g: eps_g}
    terms = []
    for l in range(k + 1):
        edge = (k - 2 * l) * e0
        if eps_g.is_Rational:
            active = bool(edge > eps_g)
        elif ball < edge:
            active = True
        elif ball > edge:
            active = False
        else:
            active = None
        if active is False:
            break                                   # (k - 2l) eps0 decreases in l: every later term is 0
        form = active_form if active else summand
        terms.append(form.xreplace({**values, ell: l}))
    return sp.Add(*terms) / den


def certify_t28() -> Outcome:
    """Certified KZ-T2.8: the optimal composition eps at delta is at most the basic k eps0 and the advanced
    eps0 sqrt(2k log 1/delta) + k eps0 (e^eps0 - 1).  delta_opt is non-increasing in eps_g, so
    eps_opt(delta) <= X iff delta_opt(X) <= delta: the slack 1 - delta_opt(X)/delta is decided with arb
    on the toolkit's own sum (derive.composition.optimal_delta, every Max resolved with a certified
    sign) at X = basic (where every term is 0 exactly) and X = advanced, for the ordinary check's cases."""
    from derive import composition as DC
    tally = _Tally("optimal <= basic and <= advanced")
    try:
        for k_, e0_t in T28_CASES:
            e0 = sp.Rational(e0_t)
            for d_t in T28_DELTAS:
                d = sp.Rational(d_t)
                for name, X in (("basic", DC.basic_eps.xreplace({DC.k: k_, DC.eps0: e0})),
                                ("advanced", DC.advanced_eps.xreplace({DC.k: k_, DC.eps0: e0, sy.delta: d}))):
                    slack = 1 - _optimal_delta_terms(k_, e0, X) / d
                    tally.take("optimal <= basic and <= advanced", C.certify_nonneg(slack, {}),
                               {"k": k_, "eps0": e0_t, "delta": d_t, "vs": name}, "1 - delta_opt(X)/delta")
    except _Failure as stop:
        return stop.outcome
    return _finish(tally, [], "the inequality part: delta_opt(X) <= delta at X = basic and advanced eps, certified with arb balls on "
                   "the toolkit's Murtagh-Vadhan sum, (k, eps0) in {(1, 0.5), (10, 0.1), (50, 0.2), (1000, 0.01)}, "
                   "delta in {1e-3, 1e-8} (delta_opt non-increasing: eps_opt <= X); ",
                   "margin = certified lower bound of 1 - delta_opt(X)/delta")


attach_certify("KZ-T2.8")(certify_t28)
