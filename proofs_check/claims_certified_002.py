"""Certified (arb ball) checks of seed 002's inequality claims, for ``dp-derive check --certified``.

Seed 002: Kazan, Sharma, Zhang, Jiang, Yan (2025), arXiv:2507.09699v1.  Certified here:

* KZ-T2.5 (Theorem 2.5 and Cor. 3.10(1)-3.12(1)): delta_DP(eps) <= P(|Z| > eps) for the Gaussian mechanism;
* KZ-T3.9:gaussian (Theorem 3.9 and Cor. 3.10(2)-3.12(2)): P(|Z| > eps') <= delta';
* KZ-EXA.1 (Appendix Example A.1): at most one randomized-response output moves the posterior by more
  than tau(eps);
* KZ-T2.8 (Theorem 2.8, Dwork-Rothblum-Vadhan 2010; Kairouz-Oh-Viswanath 2015): the optimal composition
  eps is at most the basic and the advanced one;
* KZ-T2.7 (Theorem 2.7, Bun-Steinke 2016 and Canonne-Kamath-Steinke 2020): zCDP to DP conversions,
  eps_BS >= eps_CKS >= the exact eps of the Gaussian mechanism.

All five claims are registered by ``claims_semantics``.  Method, statuses and what is assumed:
``proofs_check.certified_common``.
"""

from __future__ import annotations

import heapq

import mpmath
import sympy as sp

from derive import symbols as sy
from numeric.solvers import bisect

from . import certified as C

# the module that registers the claims certified here (attach_certify needs them registered)
from . import claims_semantics
from .certified_common import (
    CELL_BUDGET,
    DECISION_CAP,
    METHOD,
    _cell_failure,
    _Failure,
    _finish,
    _interval_text,
    _Tally,
)
from .registry import attach_certify
from .status import FAILED, INCONCLUSIVE, Outcome


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


# ------------------------------------------------------------------ KZ-T2.7
#: (rho, mu = sqrt(2 rho)) of the ordinary check, and the deltas: its grid and two tail deltas
T27_CASES = (("0.005", "0.1"), ("0.125", "0.5"), ("0.5", "1"), ("2", "2"), ("8", "4"))
T27_DELTAS = ("1e-3", "1e-6", "1e-12", "1e-100", "1e-300")
#: bisections of the middle a-cells per (rho, delta) and of the refutation cells of the profile
T27_BUDGET = 600
T27_REFUTE_BUDGET = 300
#: relative width of the certified upper bracket of the exact eps (only its upper end is used)
T27_BRACKET = sp.Rational(1, 10**12)
#: precision cap (bits) of the tail and bracket decisions (they are far from 0 or decided early)
T27_CAP = DECISION_CAP
#: for the margin only: each tail cut is moved out (halved / doubled) up to T27_EXTRA_CUTS more times while
#: its certified bound is below T27_TAIL_TARGET (relative), and the worst middle cell is bisected T27_REFINE times
T27_EXTRA_CUTS = 4
T27_TAIL_TARGET = sp.Rational(1, 20)
T27_REFINE = 120

#: t = a - 1 (the cells are in t, so that the bisection is in log10 t far from the optimum), L = log(1/delta)
_T = sp.Symbol("t_order", positive=True)
_L = sp.Symbol("L_logdelta", positive=True)
_X1, _X2 = sp.symbols("X_log1m X_loga")


def _t27_expressions():
    """(CKS objective in the Renyi order, Bun-Steinke eps): the toolkit's own ``derive.composition``
    expressions, read at call time (the mutation tests replace them)."""
    from derive import composition as DC
    return DC.cks_objective, DC.bun_steinke_eps


def _t27_profile(mu_t: str):
    """delta(eps) of the Gaussian mechanism G_mu: the record's own closed-form profile (in eps_prime)."""
    import derive
    rec = derive.gaussian(mu_t)
    return rec.bind(rec.profile)


def _t27_form(obj):
    """The coefficients (c_r, c_L, c_1, c_2), rationals, with
    obj = c_r rho a + c_L L/(a - 1) + c_1 log(1 - 1/a) + c_2 log(a)/(a - 1), L = log(1/delta), decided by SymPy:
    log(1/delta), log(1 - 1/a) and log(a) are replaced by free symbols, the coefficients read off as
    derivatives, and the difference of the two sides must simplify to 0 as an identity in the free symbols
    (so it holds at every value they take).  None when obj is not of this form (the CKS objective is,
    with (1, 1, 1, -1))."""
    from derive import composition as DC
    a, rho = DC.order, DC.rho
    e = obj.xreplace({sp.log(1 / sy.delta): _L, sp.log(1 - 1 / a): _X1, sp.log(a): _X2})
    if e.has(sy.delta) or e.has(sp.log):
        return None
    coef = [sp.simplify(sp.diff(e, rho) / a), sp.simplify(sp.diff(e, _L) * (a - 1)),
            sp.simplify(sp.diff(e, _X1)), sp.simplify(sp.diff(e, _X2) * (a - 1))]
    if not all(c.is_Rational for c in coef):
        return None
    c_r, c_l, c_1, c_2 = coef
    form = c_r * rho * a + c_l * _L / (a - 1) + c_1 * _X1 + c_2 * _X2 / (a - 1)
    return tuple(coef) if sp.simplify(e - form) == 0 else None


def _t27_tail_bounds(coef, rho, L, t_lo, t_hi):
    """Lower bounds of the objective on the two tails, from the form of ``_t27_form`` (t = a - 1):

    ``(B_lo, cond, B_hi)``: obj(1 + t) >= B_lo for every t in (0, t_lo] provided cond >= 0, and
    obj(1 + t) >= B_hi for every t >= t_hi; None for a bound the form does not give (c_L <= 0 near a = 1,
    c_r <= 0 at infinity).  The argument is in ``certify_t27``'s docstring."""
    c_r, c_l, c_1, c_2 = coef
    b_lo = cond = b_hi = None
    if c_l > 0:
        b_lo = ((c_r * rho if c_r >= 0 else c_r * rho * (1 + t_lo))
                + c_l * L / t_lo + c_1 * sp.log(t_lo)
                + (-c_1 * sp.log(1 + t_lo) if c_1 >= 0 else 0)
                + (c_2 * sp.log(1 + t_lo) / t_lo if c_2 >= 0 else c_2))
        cond = c_l * L - c_1 * t_lo if c_1 > 0 else sp.Integer(0)
    if c_r > 0:
        b_hi = (c_r * rho * (1 + t_hi)
                + (0 if c_l >= 0 else c_l * L / t_hi)
                + (c_1 * sp.log(t_hi / (1 + t_hi)) if c_1 >= 0 else 0)
                + (0 if c_2 >= 0 else c_2 * sp.log(1 + t_hi) / t_hi))
    return b_lo, cond, b_hi


def _pow2(x) -> sp.Rational:
    """The power of 2 nearest to the positive float x (a choice of cut, trusted for nothing)."""
    k = int(mpmath.nint(mpmath.log(mpmath.mpf(x), 2)))
    return sp.Integer(2) ** k if k >= 0 else sp.Rational(1, 2 ** (-k))


class _T27Result:
    """What ``_t27_lower`` established: ``status`` "proved" (obj(a) >= threshold for every a > 1, with
    ``lower`` a certified lower bound of min(obj/threshold - 1) over the tails and cells), "below" (obj <
    threshold on the whole cell ``cell`` of t), or "undecided" (``reason``)."""

    def __init__(self, status, lower=None, cell=None, reason="", verdicts=(), cells=0, enclosures=0,
                 cuts=None):
        self.status, self.lower, self.cell, self.reason = status, lower, cell, reason
        self.verdicts, self.cells, self.enclosures, self.cuts = list(verdicts), cells, enclosures, cuts


def _t27_lower(obj_t, coef, rho, L, threshold, budget: int = T27_BUDGET) -> _T27Result:
    """Certify obj(1 + t) >= threshold for every t > 0: tails by the bounds of ``_t27_tail_bounds`` (cuts
    t_lo, t_hi powers of 2, chosen by trying, each decided by arb), the middle [t_lo, t_hi] by arb
    enclosures of the objective over whole cells (octaves first, then bisected, breadth first)."""
    if coef is None:
        return _T27Result("undecided", reason="the objective is not of the form c_r rho a + c_L L/(a-1) + "
                                               "c_1 log(1 - 1/a) + c_2 log(a)/(a-1) (SymPy), so no tail bound")
    t_bs = mpmath.sqrt(mpmath.mpf(float(L.evalf(30))) / mpmath.mpf(rho.p) * rho.q)
    verdicts = []
    # a -> 1+: halve t_lo from near the Bun-Steinke order until the tail bound is proved (then up to
    # T27_EXTRA_CUTS more times while the bound is below T27_TAIL_TARGET: for the margin only)
    t_lo, best, extra = _pow2(t_bs / 2), None, T27_EXTRA_CUTS
    for _ in range(400):
        b_lo, cond, _ = _t27_tail_bounds(coef, rho, L, t_lo, t_lo)
        if b_lo is None:
            return _T27Result("undecided", reason="the form gives no bound near a = 1 (c_L <= 0)")
        v_c = C.certify_nonneg(cond, {}, cap=T27_CAP)
        v = C.certify_nonneg(b_lo / threshold - 1, {}, cap=T27_CAP) if v_c.holds else None
        if v is not None and v.holds:
            best = (t_lo, v_c, v)
            if extra == 0 or v.lower >= T27_TAIL_TARGET:
                break
            extra -= 1
        elif best is not None:
            break
        t_lo /= 2
    if best is None:
        return _T27Result("undecided", reason="no cut t_lo >= 2^-400 proves the bound near a = 1")
    t_lo, v_c, v = best
    verdicts += [("tail a -> 1: condition", v_c, {"t_lo": C.fmt(t_lo, 6)}),
                 ("tail a -> 1", v, {"t_lo": C.fmt(t_lo, 6)})]
    # a -> oo: double t_hi from near the Bun-Steinke order likewise
    t_hi, best, extra = max(_pow2(2 * t_bs), 2 * t_lo), None, T27_EXTRA_CUTS
    for _ in range(400):
        _, _, b_hi = _t27_tail_bounds(coef, rho, L, t_lo, t_hi)
        if b_hi is None:
            return _T27Result("undecided", reason="the form gives no bound as a -> oo (c_r <= 0)")
        v = C.certify_nonneg(b_hi / threshold - 1, {}, cap=T27_CAP)
        if v.holds:
            best = (t_hi, v)
            if extra == 0 or v.lower >= T27_TAIL_TARGET:
                break
            extra -= 1
        elif best is not None:
            break
        t_hi *= 2
    if best is None:
        return _T27Result("undecided", reason="no cut t_hi <= 2^400 proves the bound as a -> oo")
    t_hi, v = best
    verdicts.append(("tail a -> oo", v, {"t_hi": C.fmt(t_hi, 6)}))
    lower = min(verdicts[1][1].lower, verdicts[2][1].lower)
    # the middle: whole cells of t in [t_lo, t_hi], octaves first
    slack = obj_t / threshold - 1
    todo, c = [], t_lo
    while c < t_hi:
        todo.append((c, 2 * c))
        c *= 2
    done, enclosures, splits = [], 0, 0
    while todo:
        a, b = todo.pop(0)
        ball = C._enclose(slack, {_T: (a, b)}, C.CELL_BITS)
        enclosures += 1
        if ball is not None and not ball.is_nan():
            if ball >= 0:
                done.append((C._mpf(ball.lower()), a, b))
                continue
            if ball < 0:
                return _T27Result("below", cell=(a, b), verdicts=verdicts, enclosures=enclosures)
        if splits >= budget:
            return _T27Result("undecided", cell=(a, b), verdicts=verdicts, enclosures=enclosures,
                              reason=f"the cell t = a - 1 in [{C.fmt(a, 8)}, {C.fmt(b, 8)}] is undecided after "
                                     f"{budget} bisections")
        m = C._split(a, b)
        splits += 1
        todo += [(a, m), (m, b)]
    # proved; the margin: the cell of smallest lower bound is bisected T27_REFINE times (a sub-cell keeps
    # the larger of its own and its parent's lower bound: both are valid on it)
    heap = list(done)
    heapq.heapify(heap)
    for _ in range(T27_REFINE):
        low, a, b = heapq.heappop(heap)
        m = C._split(a, b)
        for lo_, hi_ in ((a, m), (m, b)):
            ball = C._enclose(slack, {_T: (lo_, hi_)}, C.CELL_BITS)
            enclosures += 1
            own = C._mpf(ball.lower()) if ball is not None and not ball.is_nan() else low
            heapq.heappush(heap, (max(low, own), lo_, hi_))
    lower = min(lower, heap[0][0])
    return _T27Result("proved", lower=lower, verdicts=verdicts, cells=len(heap), enclosures=enclosures,
                      cuts=(t_lo, t_hi))


def _t27_upper_bracket(D, d):
    """An exact rational eps_U with delta_G(eps_U) <= d certified by arb, within a relative T27_BRACKET of
    the root: bisection on the certified sign of 1 - D(eps)/d (an undecided midpoint counts as "above
    d", so the invariant "D(hi) <= d certified" is kept).  None when no power of 2 up to 2^64 works."""
    from derive.tradeoff import eps_prime
    slack = 1 - D / d
    hi = sp.Integer(1)
    for _ in range(64):
        b = C._enclose(slack, {eps_prime: hi}, C.START_BITS)
        if b is not None and b >= 0:
            break
        hi *= 2
    else:
        return None
    def below(mid):                       # not certified D(mid) <= d: the root may be right of mid
        b = C._enclose(slack, {eps_prime: mid}, C.START_BITS)
        return not (b is not None and b >= 0)
    _, hi = bisect(below, sp.Integer(0), hi, stop=lambda lo, hi: not hi - lo > hi * T27_BRACKET)
    return hi


def _t27_refute(obj_t, D, d, cell):
    """A proof that inf_a obj < the exact eps from a cell where obj < eps_U: at the midpoint m of the cell,
    obj(1 + m) <= eps_F (the exact dyadic upper end of its arb ball, at least 0); D(eps_F) >= d (1 + 10^-30)
    > d (arb at the point) and -D'(eps) >= 0 on every cell of [0, eps_F] (arb over whole cells; D' is
    SymPy's derivative of D, put over one exponential by exact rewriting so that its ball keeps its sign),
    so D >= D(eps_F) > d on [0, eps_F] and the exact eps inf{eps >= 0 : D(eps) <= d} (the set is closed,
    D continuous) is > eps_F.  Returns (m, eps_F) or None.  (A direct enclosure of D over a cell is
    useless here: D is a difference of two nearly equal tails.)"""
    from derive.tradeoff import eps_prime
    m = (cell[0] + cell[1]) / 2
    ball = C._enclose(obj_t, {_T: m}, 256)
    if ball is None or ball.is_nan():
        return None
    man, exp = ball.upper().mid().man_exp()                 # the exact dyadic upper end of the ball
    e_f = max(sp.Integer(int(man)) * sp.Integer(2) ** int(exp), sp.Integer(0))
    if not C.certify_nonneg(D / d - 1 - sp.Rational(1, 10**30), {eps_prime: e_f}, cap=4 * T27_CAP).holds:
        return None
    if e_f == 0:
        return m, e_f
    slope = sp.simplify(sp.powsimp(sp.expand(sp.diff(D, eps_prime))))
    rep = C.certify_cells(-slope, eps_prime, [(sp.Integer(0), e_f)], budget=T27_REFUTE_BUDGET)
    return (m, e_f) if not rep.failed and not rep.uncovered else None


def certify_t27(cases=T27_CASES, deltas=T27_DELTAS) -> Outcome:
    """Certified KZ-T2.7: rho-zCDP gives (eps, delta)-DP with eps_BS = rho + 2 sqrt(rho log(1/delta)) >=
    eps_CKS = inf_{a > 1} obj(a) >= the exact eps of the Gaussian mechanism G_mu, mu = sqrt(2 rho).

    Certified means proved, for every (rho, delta) of ``cases`` x ``deltas`` (the ordinary check's rho and
    grid deltas, plus 1e-100 and 1e-300); for each, every order a > 1 is covered.  obj is the toolkit's
    ``derive.composition.cks_objective``, eps_BS its ``bun_steinke_eps``, the Gaussian profile the record's
    closed form ``derive.gaussian(mu).profile``; rho, mu, delta are exact rationals.  Write L = log(1/delta)
    > 0 and t = a - 1 > 0.

    (0) Form of the objective (SymPy, exact).  ``_t27_form`` decides the identity
        obj = c_r rho a + c_L L/(a-1) + c_1 log(1 - 1/a) + c_2 log(a)/(a-1)
    with rational coefficients (for the CKS objective (1, 1, 1, -1)), as an identity in free symbols
    standing for L, log(1 - 1/a), log a, so it holds at every a > 1, rho, delta.  The tail bounds of (b)
    use only this form; when it is not recognised the tails are not certified (INCONCLUSIVE).

    (a) eps_BS >= eps_CKS.  For any a0 > 1, eps_CKS = inf obj <= obj(a0); so obj(a_BS) <= eps_BS at the
    exact point a_BS = 1 + sqrt(L/rho) proves it.  The slack (eps_BS - obj(a_BS))/eps_BS is enclosed by arb
    at each (rho, delta) (``certified.certify_nonneg``, precision doubled up to the cap).  For the record, it
    holds at every (rho, delta): SymPy decides eps_BS = rho a_BS + L/(a_BS - 1) (the Bun-Steinke objective at
    a_BS), and obj(a) - (rho a + L/(a-1)) = log(1 - 1/a) - log(a)/(a-1) < 0 for a > 1 (0 < 1 - 1/a < 1,
    log a > 0); the report says so when both identities hold.  A negative slack at a_BS is *not* a
    refutation (another a could do better); the claim is proved FAILED only by (b)'s machinery with
    threshold eps_BS: obj(a) > eps_BS for every a > 1 (certified lower bound > 0).

    (b) eps_CKS >= eps_exact, eps_exact = inf{eps >= 0 : D(eps) <= delta}, D the Gaussian profile.
    1. An exact eps_U with D(eps_U) <= delta is certified by arb (``_t27_upper_bracket``: bisection on the
       certified sign, relative width 1e-12).  Then eps_exact <= eps_U by the definition of the infimum --
       no monotonicity of D is needed for this direction (D is in fact decreasing: dD/deps =
       -e^eps Phi(-eps/mu - mu/2), not used).
    2. It remains to prove obj(a) >= eps_U for every a > 1, on three pieces of t = a - 1:
       * t in (0, t_lo]: with the form (0), and t_lo a power of 2,
             c_r rho a >= c_r rho (c_r >= 0; else >= c_r rho (1 + t_lo)),
             c_L L/t + c_1 log t >= c_L L/t_lo + c_1 log t_lo: the function is decreasing on (0, t_lo]
                 (derivative (c_1 t - c_L L)/t^2 < 0 when c_1 <= 0 (c_L > 0 is required), or when
                 c_1 > 0 and t_lo <= c_L L/c_1: that condition c_L L - c_1 t_lo >= 0 is certified by arb),
             c_1 log(1 - 1/a) = c_1 (log t - log(1 + t)) and -log(1 + t) in [-log(1 + t_lo), 0),
             log(1 + t)/t in [log(1 + t_lo)/t_lo, 1) (log(1 + t) < t; log(1 + t)/t decreasing);
         the sum B_lo of these bounds (``_t27_tail_bounds``) is certified >= eps_U by arb.
       * t >= t_hi: c_r rho a >= c_r rho (1 + t_hi) (c_r > 0 required), L/t in (0, L/t_hi],
         log(t/(1 + t)) in [log(t_hi/(1 + t_hi)), 0) (increasing), log(1 + t)/t in (0, log(1 + t_hi)/t_hi]
         (decreasing: its derivative is (t/(1+t) - log(1+t))/t^2 < 0, since log(1+t) > t/(1+t)); the
         sum B_hi is certified >= eps_U by arb.
       * [t_lo, t_hi]: the relative slack obj(1 + t)/eps_U - 1 is enclosed by arb over whole cells (a ball
         containing the cell; Arb's containment gives a ball containing the slack at every t of the cell),
         octaves [2^k, 2^(k+1)] first, bisected breadth first within T27_BUDGET.  ``lower >= 0`` on every
         cell proves the middle; no monotonicity of obj is assumed there.
       Hence inf obj >= eps_U >= eps_exact (and eps_U > 0, so the toolkit's max(0, inf obj) is inf obj).  A
       cell left undecided makes the case INCONCLUSIVE.
    3. FAILED is proved, not inferred from eps_U: a cell with obj < eps_U on the whole cell gives, at its
       midpoint a_m, an exact eps_F >= max(obj(a_m), 0); D(eps_F) >= delta (1 + 1e-30) > delta is certified
       at the point and D' <= 0 on whole cells of [0, eps_F] (D' is SymPy's derivative of the profile), so
       D > delta on [0, eps_F], the closed set {D <= delta} lies above eps_F and
       eps_exact > eps_F >= max(0, obj(a_m)) >= the CKS eps (``_t27_refute``).  Otherwise INCONCLUSIVE.
    The margin is a certified lower bound of obj(a)/eps_U - 1 over every a > 1, hence of
    (eps_CKS - eps_exact)/eps_exact.  Assumed: Arb's containment and SymPy's exact simplification
    (see ``proofs_check.certified``); the elementary facts above (log x <= x - 1, log(1+t) > t/(1+t)).
    Not certified: deltas between the grid points (the ordinary check's adversarial search over log10 delta
    covers them numerically), and the toolkit's numeric CKS value (a bisection, ``numeric.composition``):
    what is proved is the statement about the infimum of the toolkit's objective.
    """
    from derive import composition as DC
    from derive.tradeoff import eps_prime
    obj, bs = _t27_expressions()
    coef = _t27_form(obj)
    whole_a = False
    if coef == (1, 1, 1, -1):
        a_bs = 1 + sp.sqrt(_L / DC.rho)
        bs_l = bs.xreplace({sp.log(1 / sy.delta): _L})
        whole_a = not bs_l.has(sy.delta) and sp.simplify(bs_l - (DC.rho * a_bs + _L / (a_bs - 1))) == 0
    tally = _Tally("CKS >= exact")
    lines = []
    main = "CKS >= exact"
    try:
        for r_t, mu_t in cases:
            rho, mu = sp.Rational(r_t), sp.Rational(mu_t)
            if mu ** 2 != 2 * rho:
                raise ValueError(f"mu = {mu_t} is not sqrt(2 rho) at rho = {r_t}")
            D = _t27_profile(mu_t)
            for d_t in deltas:
                d = sp.Rational(d_t)
                L = sp.log(1 / d)
                where = {"rho": r_t, "delta": d_t}
                env = {DC.rho: rho, sy.delta: d}
                obj_t = obj.xreplace({**env, DC.order: 1 + _T})
                bs_v = bs.xreplace(env)
                # (a) eps_BS >= obj(a_BS) >= eps_CKS
                a_bs = 1 + sp.sqrt(L / rho)
                v = C.certify_nonneg((bs_v - obj.xreplace({**env, DC.order: a_bs})) / bs_v, {})
                if v.holds is False:
                    res = _t27_lower(obj_t, coef, rho, L, bs_v)
                    if res.status == "proved" and res.lower > 0:
                        raise _Failure(Outcome(FAILED, certified=True, method=METHOD, worst_at=where,
                                               detail=f"BS >= CKS is false: the CKS objective exceeds eps_BS at every "
                                                      f"order a > 1 (certified lower bound of obj/eps_BS - 1: "
                                                      f"{C.fmt(res.lower)}), at rho = {r_t}, delta = {d_t}",
                                               counterexample={**where, "statement": "BS >= CKS",
                                                               "eps_BS": C.fmt(C._mpf(C._enclose(bs_v, {}, 128).mid()), 12),
                                                               "CKS_lower_bound_rel": C.fmt(res.lower, 6)}))
                    raise _Failure(Outcome(INCONCLUSIVE, method=METHOD, worst_at=where, points=tally.points,
                                           detail=f"obj(a_BS) > eps_BS at rho = {r_t}, delta = {d_t} (proved), and "
                                                  f"no proof that obj > eps_BS at every order ({res.status}"
                                                  f"{': ' + res.reason if res.reason else ''})"))
                tally.take("BS >= CKS", v, where, "relative slack (eps_BS - obj(a_BS))/eps_BS, a_BS = 1 + sqrt(L/rho)")
                # (b) eps_CKS >= eps_U >= eps_exact
                e_u = _t27_upper_bracket(D, d)
                if e_u is None:
                    raise _Failure(Outcome(INCONCLUSIVE, method=METHOD, worst_at=where, points=tally.points,
                                           detail=f"no eps <= 2^64 with delta_G(eps) <= delta certified at {where}"))
                tally.take("delta_G(eps_U) <= delta", C.certify_nonneg(1 - D / d, {eps_prime: e_u}), where,
                           "1 - delta_G(eps_U)/delta, eps_U the upper bracket of the exact eps")
                res = _t27_lower(obj_t, coef, rho, L, e_u)
                for name, verdict, at in res.verdicts:
                    tally.take(name, verdict, {**where, **at}, "tail bound of the CKS objective")
                if res.status == "below":
                    ref = _t27_refute(obj_t, D, d, res.cell)
                    if ref is None:
                        raise _Failure(Outcome(INCONCLUSIVE, method=METHOD, worst_at=where, points=tally.points,
                                               detail=f"obj < eps_U on a cell of a at {where}, but obj < exact eps is "
                                                      "not proved there"))
                    m, e_f = ref
                    raise _Failure(Outcome(FAILED, certified=True, method=METHOD, worst_at={**where, "a": C.fmt(1 + m, 12)},
                                           detail=f"CKS >= exact is false at rho = {r_t}, delta = {d_t}: the CKS "
                                                  f"objective at a = {C.fmt(1 + m, 12)} is <= {C.fmt(e_f, 12)}, and "
                                                  f"delta_G(eps) > delta on [0, {C.fmt(e_f, 12)}] (arb: at its end, and "
                                                  "delta_G' <= 0 over whole cells), so the exact eps exceeds it",
                                           counterexample={**where, "statement": main, "a": C.fmt(1 + m, 12),
                                                           "objective_upper_bound": C.fmt(e_f, 12)}))
                if res.status != "proved":
                    raise _Failure(Outcome(INCONCLUSIVE, method=METHOD, worst_at=where, points=tally.points,
                                           detail=f"CKS >= exact undecided at {where}: {res.reason}"))
                tally.take(main, C.Verdict(True, res.lower, None, f"arb {C.CELL_BITS} bits (cells) + tail bounds"),
                           where, "certified lower bound of obj(a)/eps_U - 1 over every a > 1")
                t_lo, t_hi = res.cuts
                lines.append((f"rho = {r_t}, delta = {d_t}",
                              (f"every a > 1 (a - 1 in (0, {C.fmt(t_lo, 4)}] and [{C.fmt(t_hi, 4)}, oo) by the "
                               f"tail bounds, between by {res.cells} whole cells)"),
                              {"range": ["1", "oo"], "uncovered": [],
                               "a_cuts": [C.fmt(1 + t_lo, 8), C.fmt(1 + t_hi, 8)],
                               "certified_cells": res.cells, "enclosures": res.enclosures,
                               "eps_U": C.fmt(e_u, 16)}))
    except _Failure as stop:
        return stop.outcome
    all_a = ("BS >= CKS also holds at every rho > 0, 0 < delta < 1 (SymPy: eps_BS is the Bun-Steinke objective at "
             "a_BS, and obj - (rho a + L/(a-1)) = log(1 - 1/a) - log(a)/(a-1) < 0); " if whole_a else "")
    return _finish(tally, lines,
                   "eps_BS >= obj(a_BS) >= eps_CKS = inf_{a>1} obj(a) >= eps_U >= exact Gaussian eps, certified with arb "
                   f"balls at rho in {{{', '.join(r for r, _ in cases)}}} (mu = sqrt(2 rho)) and delta in "
                   f"{{{', '.join(deltas)}}} (pointwise in delta), over every Renyi order a > 1: " ,
                   "; " + all_a + "margin = certified lower bound of obj(a)/eps_U - 1, hence of "
                   "(CKS - exact)/exact; deltas between the grid points are not certified")


attach_certify("KZ-T2.7")(certify_t27)
