"""Certified (arb ball) checks of seeds 001 and 003, for ``dp-derive check --certified``.

* LXM-Thm2 (seed 001: Liu, He, Chanyaswad, Wang, Mittal (2019) PoPETs 2019(3), Theorem 2): the
  Neyman-Pearson test's precision is at least the two-sided test's, on the Laplace release;
* MHA-Def5 (seed 003: Matthews, Harel, Aseltine (2010), Definitions 4 and 5): 1/2 <= AUC <= 1 for the
  closed-form AUCs (single Laplace release, normal release).

Both claims are registered by ``claims_attack``.  Method, statuses and what is assumed:
``proofs_check.certified_common``.
"""

from __future__ import annotations

import sympy as sp

from . import certified as C

# the module that registers the claims certified here (attach_certify needs them registered)
from . import claims_attack  # noqa: F401
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
from .registry import attach_certify
from .status import FAILED, Outcome

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
