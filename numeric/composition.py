"""Composition of pure DP and zCDP-to-DP conversion to verified digits (seed 002, Thm 2.7, 2.8).

Formulas: ``derive.composition``.  The optimal composition is evaluated in
one pass over l = 0, 1, ...: with pmf_l = C(k, l) e^{(k-l) eps0}/(1 + e^{eps0})^k
(the Binomial(k, 1/(1 + e^{eps0})) weights), A_i = sum_{l<i} pmf_l and
B_i = sum_{l<i} pmf_l e^{-(k-2l) eps0}, the Murtagh-Vadhan delta is
delta_opt(eps_g) = A_i - e^{eps_g} B_i on the grid cell
(k-2i) eps0 <= eps_g <= (k-2i+2) eps0, whose left end is Kairouz-Oh-Viswanath's
delta_i.  So the smallest eps_g with delta_opt(eps_g) <= delta is
log((A_i - delta)/B_i) in the cell where delta_opt crosses delta: O(i) work,
k = 10^4 in well under a second (BENCHMARKS.md).  The pass is run at two
precisions by ``numeric.precision.verified``.

Results are frozen dataclasses (``numeric.display.ResultDisplay``): ``ComposePureResult``,
``ZcdpDpResult``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive import composition as C
from derive.domains import MAX_K as MAX_COMPOSITIONS
from derive.domains import parse_in
from derive.symbols import delta as DELTA

from .bridge import Exact, exact_of
from .display import ResultDisplay
from .precision import evaluate_env, verified_mpf

METHODS = ("basic", "advanced", "optimal")
CONVERSIONS = ("bun-steinke", "cks")
MAX_K = MAX_COMPOSITIONS     # the domain table's bound (k = 10^4 takes ~0.3 s; the pass is linear in k)


@dataclass(frozen=True)
class ComposePureResult(ResultDisplay):
    """(eps, delta) of a composition of pure DP; ``note`` explains a degenerate case."""
    eps: object
    delta: object
    digits: int = 15
    note: str | None = None


@dataclass(frozen=True)
class ZcdpDpResult(ResultDisplay):
    """eps of k rho-zCDP releases at delta, the total rho; ``bun_steinke`` is the Bun-Steinke eps next to the
    CKS one (None for --conversion bun-steinke and for the limits); ``note`` explains a limit."""
    eps: object
    rho_total: object
    digits: int = 15
    note: str | None = None
    bun_steinke: object = None


def _k(k) -> int:
    return int(parse_in("k", k))


def _loss_weights(a, k: int):
    """(l, pmf_l) for l = 0, 1, ..., k: pmf_l = C(k, l) e^{(k-l) a}/(1 + e^a)^k, the probability that
    the privacy loss of k randomized responses is (k - 2l) a (catalog KZ-TA.2)."""
    pmf = mpmath.exp(k * a - k * mpmath.log1p(mpmath.exp(a)))   # l = 0: (e^a/(1+e^a))^k
    down = mpmath.exp(-a)
    for l in range(k + 1):
        yield l, pmf
        pmf = pmf * (k - l) / (l + 1) * down


def optimal_delta(eps0, k, eps_g, digits: int = 15):
    """delta_opt(eps_g) of the k-fold composition of eps0-DP (direct sum over l)."""
    e0 = parse_in("eps_positive", eps0, "eps")
    kk = _k(k)
    eg = parse_in("eps_g", eps_g)

    def compute():
        a, g = mpmath.mpf(e0.p) / e0.q, mpmath.mpf(eg.p) / eg.q
        total = mpmath.mpf(0)
        for l, pmf in _loss_weights(a, kk):
            z = (kk - 2 * l) * a
            if z <= g:
                break
            total += pmf * -mpmath.expm1(g - z)
        return total
    if (kk * e0) <= eg:
        return Exact(0)
    return verified_mpf(compute, digits)


def optimal_eps(eps0, k, delta, digits: int = 15):
    """The smallest eps_g >= 0 with delta_opt(eps_g) <= delta (Murtagh-Vadhan, delta0 = 0)."""
    e0 = parse_in("eps_positive", eps0, "eps")
    kk = _k(k)
    d = parse_in("delta_positive", delta, "delta")

    def compute():
        a = mpmath.mpf(e0.p) / e0.q
        target = mpmath.mpf(d.p) / d.q
        weight = mpmath.exp(-kk * a)            # e^{-(k - 2l) eps0} at l = 0
        up2 = mpmath.exp(2 * a)
        A = B = mpmath.mpf(0)
        cell = mpmath.exp((kk - 2) * a)         # e^{(k - 2(l+1)) eps0}, the left end of cell i = l + 1
        down2 = mpmath.exp(-2 * a)
        for l, pmf in _loss_weights(a, kk):
            A += pmf
            B += pmf * weight
            if kk - 2 * (l + 1) <= 0:           # the cell reaches eps_g = 0
                at_zero = A - B
                return Exact(0) if at_zero < target else mpmath.log((A - target) / B)
            if A - cell * B >= target:
                return mpmath.log((A - target) / B)
            weight *= up2
            cell *= down2
        return Exact(0)
    return verified_mpf(compute, digits)


def compose_pure(eps0, k, delta=None, method: str = "optimal", digits: int = 15) -> ComposePureResult:
    """(eps, delta) of k eps0-DP mechanisms by basic, advanced or optimal composition.

    ``delta`` is not used by basic composition (which is pure) and may be omitted
    there; delta = 0 is allowed for basic and optimal (both give k eps0: the
    optimal delta(eps_g) is positive below k eps0) and refused for advanced, whose
    bound is infinite at delta = 0.
    """
    from derive.errors import DomainError
    if method not in METHODS:
        raise DomainError("method", method, "one of " + ", ".join(METHODS))
    e0 = parse_in("eps_positive", eps0, "eps")
    kk = _k(k)
    if delta is None:
        if method != "basic":
            raise DomainError("delta", "missing", f"a delta in (0, 1) for {method} composition")
        d = sp.Integer(0)
    else:
        d = parse_in("delta_positive" if method == "advanced" else "delta", delta, "delta")
    env = {C.eps0: exact_of(e0), C.k: exact_of(sp.Integer(kk)), DELTA: exact_of(d)}
    if method == "basic":
        return ComposePureResult(eps=evaluate_env(C.basic_eps, env, digits), delta=exact_of(sp.Integer(0)),
                                 digits=digits,
                                 note="basic composition of pure DP is pure: (k eps0, 0)-DP, delta not needed")
    if method == "advanced":
        eps = evaluate_env(C.advanced_eps, env, digits)
        basic = evaluate_env(C.basic_eps, env, digits)
        note = None
        if eps > basic:
            note = "advanced composition is worse than basic here (k eps0 = " + mpmath.nstr(basic, digits) + ")"
        return ComposePureResult(eps=eps, delta=exact_of(d), digits=digits, note=note)
    if d == 0:
        return ComposePureResult(eps=evaluate_env(C.basic_eps, env, digits), delta=exact_of(d), digits=digits,
                                 note="delta = 0: the optimal composition is k eps0 (delta_opt(eps_g) > 0 below it)")
    return ComposePureResult(eps=optimal_eps(e0, kk, d, digits), delta=exact_of(d), digits=digits)


def _cks(total_rho, d):
    """inf over a > 1 of the CKS objective: the sign change of its SymPy derivative (numeric.solvers).

    The search runs over s = log(a - 1): for a large rho the optimal order is
    1 + O(sqrt(log(1/delta)/rho)) (1 + 1e-100 at rho = 1e200), so each evaluation
    is made with log10(1/(a - 1)) extra digits, local to it; a - 1 is never lost
    to rounding.  ``total_rho`` and ``d`` are evaluation values (``Exact`` or mpf).
    """
    from .bridge import compile_mp
    from .solvers import crossing
    grad = compile_mp(C.cks_stationarity)
    obj = compile_mp(C.cks_objective)
    env = {C.rho: total_rho, DELTA: d}

    def at(fn, s):
        extra = int(max(0, -s) / 2.3) + 10
        with mpmath.workdps(mpmath.mp.dps + extra):
            env[C.order] = 1 + mpmath.exp(s)
            return +fn(env)

    def compute():
        lo = mpmath.mpf(-1)
        while at(grad, lo) >= 0:           # the derivative is negative left of the optimum
            lo = 2 * lo
        hi = mpmath.mpf(1)
        while at(grad, hi) <= 0:
            hi = 2 * hi
        # the derivative's sign change in [lo, hi] (numeric.solvers: ~8 evaluations, bisection fallback)
        best = at(obj, crossing(lambda s: at(grad, s), lo, hi, left_positive=False))
        return Exact(0) if best <= 0 else best     # (0, delta)-DP already: eps = 0, not negative
    return compute


def zcdp_to_dp(rho, k, delta, conversion: str = "cks", digits: int = 15) -> ZcdpDpResult:
    """eps of k-fold rho-zCDP (k rho-zCDP, Thm 2.9) at delta, Bun-Steinke or CKS (Thm 2.7).

    The limits are answered: rho = 0 (perfect privacy) gives eps = 0 at every
    delta; ``rho="inf"`` (no privacy) and delta = 0 (zCDP with rho > 0 implies no
    finite eps at delta = 0: the Gaussian profile is positive at every eps) give
    eps = inf.  Each limit says so in ``note``.
    """
    from derive.errors import DomainError
    if conversion not in CONVERSIONS:
        raise DomainError("conversion", conversion, "one of " + ", ".join(CONVERSIONS))
    kk = _k(k)
    d = parse_in("delta", delta)
    if isinstance(rho, str) and rho.strip().lower() in ("inf", "+inf", "infinity"):
        inf = mpmath.mpf("inf")
        return ZcdpDpResult(eps=inf, rho_total=inf, digits=digits, note="rho = inf: no privacy, eps = inf")
    r = parse_in("rho", rho)
    total = r * kk
    if total == 0:
        return ZcdpDpResult(eps=Exact(0), rho_total=Exact(0), digits=digits,
                            note="rho = 0: perfect privacy, eps = 0 at every delta")
    if d == 0:
        return ZcdpDpResult(eps=mpmath.mpf("inf"), rho_total=exact_of(total), digits=digits,
                            note="delta = 0: rho-zCDP with rho > 0 gives no finite eps at delta = 0")
    env = {C.rho: exact_of(total), DELTA: exact_of(d)}
    bs = evaluate_env(C.bun_steinke_eps, env, digits)
    if conversion == "bun-steinke":
        return ZcdpDpResult(eps=bs, rho_total=exact_of(total), digits=digits)
    return ZcdpDpResult(eps=verified_mpf(_cks(exact_of(total), exact_of(d)), digits), rho_total=exact_of(total),
                        digits=digits, bun_steinke=bs)
