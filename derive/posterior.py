"""Posterior probability of membership after a positive test.

de Fondeville (2026), arXiv:2603.12753v1, Definition 6 (catalog DF-Def6): with
prior pi = P(H1) and the optimal test at level alpha,

.. math::

    p_{post}(\\alpha) = \\frac{\\pi\\{1-f(\\alpha)\\}}{(1-\\pi)\\alpha + \\pi\\{1-f(\\alpha)\\}},
    \\qquad
    1 - p_{post}(\\alpha) = \\frac{(1-\\pi)\\alpha}{(1-\\pi)\\alpha + \\pi\\{1-f(\\alpha)\\}}.

Both are written with the record's cancellation-free power 1 - f, and the
complement of the posterior is its own expression (never ``1 - p_post``).
"""

from __future__ import annotations

import sympy as sp

from .symbols import alpha
from .tradeoff import TradeOff

#: prior probability of membership, in (0, 1)
prior = sp.Symbol("pi", positive=True)
#: 1 - prior, a symbol of its own so that a prior near 1 keeps its digits
prior_c = sp.Symbol("bar_pi", positive=True)


def posterior_of(pw: sp.Expr) -> sp.Expr:
    """p_post(alpha) for a test of power ``pw`` at level alpha, in terms of ``prior`` and ``prior_c``."""
    return prior * pw / (prior_c * alpha + prior * pw)


def one_minus_posterior_of(pw: sp.Expr) -> sp.Expr:
    """1 - p_post(alpha) for a test of power ``pw``, without subtraction."""
    return prior_c * alpha / (prior_c * alpha + prior * pw)


def posterior(record: TradeOff) -> sp.Expr:
    """p_post(alpha) in terms of ``prior`` and ``prior_c`` (= 1 - prior)."""
    return posterior_of(record.power)


def one_minus_posterior(record: TradeOff) -> sp.Expr:
    """1 - p_post(alpha), without subtraction."""
    return one_minus_posterior_of(record.power)
