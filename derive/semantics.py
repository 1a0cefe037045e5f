"""Bayesian semantics of pure, approximate and probabilistic DP (seed 002).

Kazan, Sharma, Zhang, Jiang, Yan (2025), "Interpreting Differential Privacy
in Terms of Disclosure Risk", arXiv:2507.09699v1.  The seed's formulas were
stripped by the text extraction; ``../shared/catalog/002.md`` reconstructs
them and every one is a claim of the checker (``dp-derive check --paper 002``).

Prior p = P(I_i = 1) and its complement are two symbols (``prior``,
``prior_c``) so that priors near 0 and near 1 keep their digits; every bound
has its complement written separately.

* Thm 3.1 (catalog KZ-T3.1): P_i = 1/(1 + (1-p)/p e^{-L}) given I_i = 1, with L
  the privacy loss of M(D_{+i}) against M(D_{-i}) at the output;
  1/(1 + (1-p)/p e^{L'}) given I_i = 0;
* Thm 3.2/3.3, Cor. 3.6-3.7, 3.10-3.11: with probability >= 1 - delta the
  posterior is in [L(p, eps), U(p, eps)] and the ratio P/p in
  [e^{-eps}, e^{eps}] (prior-free), where U(p, eps) = p e^eps/(p e^eps + 1 - p)
  and L(p, eps) = U(p, -eps);
* Lemma 3.4: max_p (U(p, c) - p) = tanh(c/4) at p* = 1/(1 + e^{c/2});
* Thm 3.5, Cor. 3.8, 3.12: |P - p| <= tau(eps) = tanh(eps/4); the converse gives
  (eps, 2 delta) and (eps~, delta) with eps~ = log((1 + 2 tau)/(1 - 2 tau));
* Thm 3.9: (eps, delta)-DP implies (eps', delta')-PDP for delta' in (delta, 1],
  eps' = eps + log1p(delta (1 + e^{-eps})/(delta' - delta));
* section 4.4: the prior-specific ratio envelope and the worst-case priors.
"""

from __future__ import annotations

import sympy as sp
from sympy.codegen.cfunctions import log1p

from .posterior import prior, prior_c
from .symbols import delta, eps

#: delta' of Theorem 3.9 (the failure probability of the posterior bounds)
delta_p = sp.Symbol("delta'", positive=True)
#: a value of the privacy loss random variable
loss = sp.Symbol("L", real=True)
#: a generic real exponent (U(p, c) with c of either sign, Lemma 3.4)
c = sp.Symbol("c", real=True)


def upper(e=eps):
    """U(p, e) = p e^e / (p e^e + 1 - p), Thm 3.2."""
    return prior * sp.exp(e) / (prior * sp.exp(e) + prior_c)


def one_minus_upper(e=eps):
    """1 - U(p, e), without subtraction."""
    return prior_c / (prior * sp.exp(e) + prior_c)


def lower(e=eps):
    """L(p, e) = U(p, -e)."""
    return upper(-e)


def one_minus_lower(e=eps):
    return one_minus_upper(-e)


def tau(e=eps):
    """tau(e) = (e^{e/2} - 1)/(e^{e/2} + 1) = tanh(e/4), Lemma 3.4 / Thm 3.5."""
    return sp.tanh(e / 4)


def tau_printed(e=eps):
    """tau in the exponential form of the seed (catalog KZ-L3.4)."""
    return (sp.exp(e / 2) - 1) / (sp.exp(e / 2) + 1)


def worst_case_prior(e=eps):
    """argmax_p (U(p, e) - p) = 1/(1 + e^{e/2}) (Lemma 3.4); 1 - it is argmin_p (L(p, e) - p)."""
    return 1 / (1 + sp.exp(e / 2))


def worst_case_prior_c(e=eps):
    """1 - worst_case_prior = e^{e/2}/(1 + e^{e/2})."""
    return sp.exp(e / 2) / (1 + sp.exp(e / 2))


def eps_tilde(e=eps):
    """eps~ of Thm 3.5(2): log((1 + 2 tau)/(1 - 2 tau)), finite for e < 2 log 3."""
    t = tau(e)
    return sp.log((1 + 2 * t) / (1 - 2 * t))


def eps_tilde_printed(e=eps):
    """The same in closed exponential form (catalog KZ-T3.5): log((3 e^{e/2} - 1)/(3 - e^{e/2}))."""
    return sp.log((3 * sp.exp(e / 2) - 1) / (3 - sp.exp(e / 2)))


def eps_prime(e=eps, d=delta, dp=delta_p):
    """eps' of Thm 3.9, the log1p form (no cancellation when delta << delta')."""
    return e + log1p(d * (1 + sp.exp(-e)) / (dp - d))


def eps_prime_printed(e=eps, d=delta, dp=delta_p):
    """eps' = log((e^eps delta' + delta)/(delta' - delta)) (catalog KZ-T3.9, boxed form)."""
    return sp.log((sp.exp(e) * dp + d) / (dp - d))


def delta_prime_of(e=eps, d=delta, ep=sp.Symbol("eps'", positive=True)):
    """delta' as a function of eps' > eps: delta (1 + e^{-eps'})/(1 - e^{eps - eps'})."""
    return d * (1 + sp.exp(-ep)) / (1 - sp.exp(e - ep))


def eps_from_eps_prime(ep=sp.Symbol("eps'", positive=True), d=delta, dp=delta_p):
    """The inverse of Thm 3.9 in eps: log((e^{eps'}(delta' - delta) - delta)/delta')."""
    return sp.log((sp.exp(ep) * (dp - d) - d) / dp)


def posterior_of_loss(member: bool, value=loss):
    """Thm 3.1: the posterior as a function of the privacy loss."""
    sign = -1 if member else 1
    return 1 / (1 + prior_c / prior * sp.exp(sign * value))


def ratio_bounds_at_prior(e=eps):
    """(lower, upper) of P/p at prior p (section 4.4): [1/(p + (1-p)e^e), 1/(p + (1-p)e^{-e})]."""
    return 1 / (prior + prior_c * sp.exp(e)), 1 / (prior + prior_c * sp.exp(-e))


def difference_at_prior(e=eps):
    """U(p, e) - p = p (1 - p) expm1(e)/(p e^e + 1 - p), without subtraction (L(p, e) - p at -e)."""
    from derive.special import expm1
    return prior * prior_c * expm1(e) / (prior * sp.exp(e) + prior_c)
