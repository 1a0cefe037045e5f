"""Bayesian semantics of (eps, delta)-DP to verified digits (seed 002).

Every quantity is one SymPy expression of ``derive.semantics`` with eps' of
Theorem 3.9 substituted symbolically, evaluated at exact inputs: delta' - delta
is exact, so delta = 10^-300 next to delta' = 0.05 loses nothing, and the prior
and its complement are exact inputs of their own.
"""

from __future__ import annotations

import sympy as sp

from derive import semantics as S
from derive.errors import DomainError
from derive.exact import parse
from derive.symbols import delta as DELTA, eps as EPS

from .bridge import exact_of
from .precision import evaluate_env
from .risk import DEFAULT_PRIOR, prior_env


def inputs(eps, delta, delta_prime) -> dict:
    """Exact eps >= 0, delta in [0, 1), delta' in (delta, 1] (Theorem 3.9)."""
    e = parse("eps", eps, 0, None)
    d = parse("delta", delta, 0, 1, high_open=True)
    dp = parse("delta_prime", delta_prime, 0, 1, low_open=True)
    if not dp > d:
        raise DomainError("delta_prime", str(delta_prime).strip(),
                          f"in (delta, 1] with delta = {str(delta).strip()} (Theorem 3.9 needs delta' > delta)")
    return {EPS: exact_of(e), DELTA: exact_of(d), S.delta_p: exact_of(dp)}


def semantics(eps, delta, delta_prime, prior=None, digits: int = 15) -> dict:
    """eps' and the bounds on posterior, ratio and difference that hold w.p. >= 1 - delta'."""
    env = inputs(eps, delta, delta_prime)
    env.update(prior_env(DEFAULT_PRIOR if prior is None else prior))
    ep = S.eps_prime()

    def at(expr):
        return evaluate_env(expr, env, digits)

    lo_ratio, hi_ratio = S.ratio_bounds_at_prior(ep)
    return {
        "eps_prime": at(ep),
        "probability": at(1 - S.delta_p),
        "posterior_lower": at(S.lower(ep)), "posterior_upper": at(S.upper(ep)),
        "one_minus_posterior_lower": at(S.one_minus_lower(ep)),
        "one_minus_posterior_upper": at(S.one_minus_upper(ep)),
        "ratio_lower": at(sp.exp(-ep)), "ratio_upper": at(sp.exp(ep)),
        "ratio_lower_at_prior": at(lo_ratio), "ratio_upper_at_prior": at(hi_ratio),
        "difference_bound": at(S.tau(ep)),
        "difference_lower_at_prior": at(S.difference_at_prior(-ep)),
        "difference_upper_at_prior": at(S.difference_at_prior(ep)),
        "worst_case_prior": at(S.worst_case_prior(ep)),
        "worst_case_prior_down": at(S.worst_case_prior_c(ep)),
    }
