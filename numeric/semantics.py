"""Bayesian semantics of (eps, delta)-DP to verified digits (seed 002).

Every quantity is one SymPy expression of ``derive.semantics`` with eps' of
Theorem 3.9 substituted symbolically, evaluated at exact inputs: delta' - delta
is exact, so delta = 10^-300 next to delta' = 0.05 loses nothing, and the prior
and its complement are exact inputs of their own.

Results are frozen dataclasses (``numeric.display.ResultDisplay``): ``SemanticsResult``,
``ZcdpEpsPrime``, ``ReleasesUntil``, ``ReleaseBounds``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive import semantics as S
from derive.domains import parse_in
from derive.errors import DomainError
from derive.symbols import delta as DELTA
from derive.symbols import eps as EPS

from .bridge import exact_of
from .display import ResultDisplay
from .precision import evaluate_env
from .risk import DEFAULT_PRIOR, prior_env
from .solvers import bisect, integer_midpoint


@dataclass(frozen=True)
class SemanticsResult(ResultDisplay):
    """eps' (Thm 3.9) and the bounds that hold with probability >= 1 - delta' (``probability``)."""
    eps_prime: object
    probability: object
    posterior_lower: object
    posterior_upper: object
    one_minus_posterior_lower: object
    one_minus_posterior_upper: object
    ratio_lower: object
    ratio_upper: object
    ratio_lower_at_prior: object
    ratio_upper_at_prior: object
    difference_bound: object
    difference_lower_at_prior: object
    difference_upper_at_prior: object
    worst_case_prior: object
    worst_case_prior_down: object
    digits: int = 15


@dataclass(frozen=True)
class ZcdpEpsPrime(ResultDisplay):
    """The smallest eps' of rho-zCDP at delta' (``digits`` verified) and the conversion's delta that gives it
    (the minimiser, located by golden-section search: not a verified number)."""
    eps_prime: object
    delta: object
    digits: int = 15


@dataclass(frozen=True)
class ReleasesUntil(ResultDisplay):
    """The first k whose bound exceeds the threshold, the bound there and at k - 1 (None when k = 1)."""
    k: int
    bound_at_k: object
    bound_before: object
    digits: int = 20


@dataclass(frozen=True)
class ReleaseBounds(ResultDisplay):
    """U(p, eps'_k) and tau(eps'_k), one entry per k of the ``ks`` asked for (in that order)."""
    posterior_upper: tuple
    difference_bound: tuple
    digits: int = 15


def inputs(eps, delta, delta_prime) -> dict:
    """Exact eps >= 0, delta in [0, 1), delta' in (delta, 1] (Theorem 3.9)."""
    e = parse_in("eps", eps)
    d = parse_in("delta", delta)
    dp = parse_in("delta_prime", delta_prime)
    if not dp > d:
        raise DomainError("delta_prime", str(delta_prime).strip(),
                          f"in (delta, 1] with delta = {str(delta).strip()} (Theorem 3.9 needs delta' > delta)")
    return {EPS: exact_of(e), DELTA: exact_of(d), S.delta_p: exact_of(dp)}


def semantics(eps, delta, delta_prime, prior=None, digits: int = 15) -> SemanticsResult:
    """eps' and the bounds on posterior, ratio and difference that hold w.p. >= 1 - delta'."""
    env = inputs(eps, delta, delta_prime)
    env.update(prior_env(DEFAULT_PRIOR if prior is None else prior))
    ep = S.eps_prime()

    def at(expr):
        return evaluate_env(expr, env, digits)

    lo_ratio, hi_ratio = S.ratio_bounds_at_prior(ep)
    return SemanticsResult(
        eps_prime=at(ep),
        probability=at(1 - S.delta_p),
        posterior_lower=at(S.lower(ep)), posterior_upper=at(S.upper(ep)),
        one_minus_posterior_lower=at(S.one_minus_lower(ep)),
        one_minus_posterior_upper=at(S.one_minus_upper(ep)),
        ratio_lower=at(sp.exp(-ep)), ratio_upper=at(sp.exp(ep)),
        ratio_lower_at_prior=at(lo_ratio), ratio_upper_at_prior=at(hi_ratio),
        difference_bound=at(S.tau(ep)),
        difference_lower_at_prior=at(S.difference_at_prior(-ep)),
        difference_upper_at_prior=at(S.difference_at_prior(ep)),
        worst_case_prior=at(S.worst_case_prior(ep)),
        worst_case_prior_down=at(S.worst_case_prior_c(ep)),
        digits=digits)


# --------------------------------------------------------- section 4.2, Example 4.1
def zcdp_eps_prime(rho_total, delta_prime, conversion: str = "bun-steinke", digits: int = 15) -> ZcdpEpsPrime:
    """eps' (Thm 3.9) of rho-zCDP at delta', with the conversion's delta chosen to make eps' smallest.

    rho-zCDP is (eps_c(delta), delta)-DP for every delta in (0, delta') (Thm 2.7 via
    ``derive.composition``), hence (eps'(eps_c(delta), delta, delta'), delta')-PDP for
    each; the best is the minimum over delta, found by golden-section search in
    log delta (eps' is unimodal there: it tends to oo at both ends).  This is the
    reading under which seed 002's Example 4.1 reproduces (catalog KZ-P3, notes of
    ``reproduce --paper 002``).
    """
    from derive import composition as C

    from .bridge import compile_mp
    from .composition import CONVERSIONS, _cks
    from .precision import verified_mpf
    from .solvers import golden_max
    if conversion not in CONVERSIONS:
        raise DomainError("conversion", conversion, "one of " + ", ".join(CONVERSIONS))
    r = parse_in("rho_positive", rho_total, "rho")
    dp = parse_in("delta_prime_open", delta_prime, "delta_prime")
    ep = compile_mp(S.eps_prime())
    bs = compile_mp(C.bun_steinke_eps)
    found = {}

    def eps_c(delta_mpf):
        if conversion == "bun-steinke":
            return bs({C.rho: exact_of(r), DELTA: delta_mpf})
        return _cks(exact_of(r), delta_mpf)()

    def compute():
        top = mpmath.log(mpmath.mpf(dp.p) / dp.q)

        def h(log_d):
            d = mpmath.exp(log_d)
            return -ep({EPS: eps_c(d), DELTA: d, S.delta_p: exact_of(dp)})
        # searched in v = log log(delta'/delta) over [-700, 16]: the minimiser sits near log(delta'/delta) =
        # log(1/rho)/2 for a tiny rho (1155 at rho = 1e-1000; at most ~1.2e6 for a decimal rho) and at ~1e-15
        # for rho = 1e30, both outside the former fixed range [log delta' - 700, log delta' - 1e-12], where the
        # search returned an end point that every precision agreed on
        # (the lower end is where log(delta'/delta) is still resolved next to log delta' at this precision: it
        # moves with the precision, so a minimiser below it shows as a disagreement of ``verified``)
        low = mpmath.log(abs(top) + 1) - (mpmath.mp.prec - 10) * mpmath.log(2)
        v, best = golden_max(lambda v: h(top - mpmath.exp(v)), low, mpmath.mpf(16))
        found["delta"] = mpmath.exp(top - mpmath.exp(v))
        return -best
    value = verified_mpf(compute, digits)
    return ZcdpEpsPrime(eps_prime=value, delta=found["delta"], digits=digits)


def releases_until(rho, delta_prime, threshold, bound: str = "posterior", prior=None,
                   conversion: str = "bun-steinke", max_releases: int = 100_000) -> ReleasesUntil:
    """The first number k of rho-zCDP releases whose bound at probability 1 - delta' exceeds ``threshold``.

    ``bound``: "posterior" (U(p, eps'_k), Thm 3.2/Cor. 3.10) or "difference"
    (tau(eps'_k), Cor. 3.12); eps'_k from ``zcdp_eps_prime(k rho, ...)`` (Thm 2.9:
    k releases are k rho-zCDP).  Both bounds increase with k, so the first
    crossing is found by doubling then bisection on k.
    """
    if bound not in ("posterior", "difference"):
        raise DomainError("bound", bound, "posterior or difference")
    r = parse_in("rho_positive", rho, "rho")
    t = parse_in("threshold", threshold)
    env = prior_env(DEFAULT_PRIOR if prior is None else prior)
    expr = S.upper(EPS) if bound == "posterior" else S.tau(EPS)

    def value(k):
        ep = zcdp_eps_prime(r * k, delta_prime, conversion, 20).eps_prime
        return evaluate_env(expr, {**env, EPS: ep}, 20)

    def above(k):
        return value(k) > mpmath.mpf(t.p) / t.q
    lo, hi = 0, 1
    while not above(hi):
        lo, hi = hi, 2 * hi
        if hi > max_releases:
            raise DomainError("threshold", threshold, f"a level reached within {max_releases} releases")
    lo, hi = bisect(lambda k: not above(k), lo, hi, stop=lambda lo, hi: hi - lo <= 1, mid=integer_midpoint)
    return ReleasesUntil(k=hi, bound_at_k=value(hi), bound_before=value(hi - 1) if hi > 1 else None, digits=20)


def bounds_over_releases(rho, delta_prime, ks, prior=None, conversion: str = "bun-steinke",
                         digits: int = 15) -> ReleaseBounds:
    """For each k of ``ks``: the upper bound U(p, eps'_k) on the posterior and the bound tau(eps'_k) on the
    posterior-to-prior difference that hold with probability >= 1 - delta' after k rho-zCDP releases
    (eps'_k from ``zcdp_eps_prime(k rho, ...)``, as in ``releases_until``; seed 002 Sec. 4.2, Fig. 5)."""
    r = parse_in("rho_positive", rho, "rho")
    env = prior_env(DEFAULT_PRIOR if prior is None else prior)
    upper, tau = [], []
    for k in ks:
        ep = zcdp_eps_prime(r * int(k), delta_prime, conversion, digits + 5).eps_prime
        upper.append(evaluate_env(S.upper(EPS), {**env, EPS: ep}, digits))
        tau.append(evaluate_env(S.tau(EPS), {EPS: ep}, digits))
    return ReleaseBounds(posterior_upper=tuple(upper), difference_bound=tuple(tau), digits=digits)
