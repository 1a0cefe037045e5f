"""Uniform Random Sampling (URS), de Fondeville (2026) arXiv:2603.12753v1, Example 3.

With probability e^{-mu} the mechanism outputs a constant; otherwise one record
of the n drawn uniformly, so each record is released with probability
p = (1 - e^{-mu})/n, written ``-expm1(-mu)/n`` to stay exact for small mu.

Replacement neighbours (default; catalog DF-URS (a)): the two output laws share
all mass but one atom of mass p each, so

    f(alpha) = max{0, 1 - p - alpha},   1 - f(alpha) = min{1, p + alpha},

which is f_{0,p}; f(0) = 1 - p < 1 (catastrophic failure for every mu > 0).

Add/remove neighbours, membership direction of Eq. (5) (catalog DF-URS (b)):

    f(alpha) = 1 - p - alpha                                   for alpha <= e^{-mu},
               1 - p - e^{-mu} - (n-1)/n (alpha - e^{-mu})     otherwise (printed),

and the second piece equals (n-1)(1 - alpha)/n, the stable form used here.
"""

from __future__ import annotations

import sympy as sp

from derive.special import expm1

from .. import symbols as sy
from ..errors import DomainError
from ..tradeoff import TradeOff
from . import facts as K
from ._params import bind, described

CITATION = "de Fondeville (2026) arXiv:2603.12753v1, Example 3 (catalog DF-URS)"
NEIGHBOURS = ("replacement", "add-remove")


def release_probability(m, n_):
    """p = (1 - e^{-mu})/n, the probability that a given record is released."""
    return -expm1(-m) / n_


def uniform_sampling(mu=None, n=None, neighbours: str = "replacement") -> TradeOff:
    """URS trade-off function, mu >= 0, n >= 1 an integer."""
    if neighbours not in NEIGHBOURS:
        raise DomainError("neighbours", neighbours, "one of " + ", ".join(NEIGHBOURS))
    m, vm = bind(sy.mu, mu, "mu")
    k, vn = bind(sy.n, n, "n_sample")
    a = sy.alpha
    p = release_probability(m, k)
    if neighbours == "replacement":
        tradeoff = sp.Max(0, 1 - p - a)
        power = sp.Min(1, p + a)
        # f_{0,p}: sup_alpha min(1, p + alpha) - e^eps' alpha is attained at alpha = 0
        profile = p
        symmetric = True
        printed = tradeoff
        pieces = sp.Tuple(sp.Tuple(1 - p - a, 0, 1 - p))
        facts = {K.AUC_PRINTED: K.fact(1 - (1 - p) ** 2 / 2, "catalog DF-AUC (uniform sampling, replacement)")}
    else:
        c = sp.exp(-m)
        printed = sp.Piecewise((1 - p - a, a <= c), (1 - p - c - (k - 1) / k * (a - c), True))
        # second piece simplified by hand: 1 - p - c - (n-1)/n (alpha - c) = (n-1)(1 - alpha)/n,
        # exact at alpha = 1 (claim DF-URS:add-remove proves the two forms equal)
        tradeoff = sp.Piecewise((1 - p - a, a <= c), ((k - 1) * (1 - a) / k, True))
        power = sp.Piecewise((p + a, a <= c), ((1 + (k - 1) * a) / k, True))
        profile = None
        symmetric = False
        pieces = sp.Tuple(*(sp.Tuple(expr, lo, hi) for (expr, _), lo, hi in
                            zip(tradeoff.args, (0, sp.exp(-m)), (sp.exp(-m), 1))))
        facts = {}
    facts[K.AUC_PIECES] = K.fact(pieces, "the linear pieces of the trade-off function")
    return TradeOff(
        name="uniform-sampling", parameters=(sy.mu, sy.n), tradeoff=tradeoff, power=power,
        paper=printed, domain=described(mu="mu", n="n_sample"),
        citation=CITATION + f", {neighbours} neighbours", values={**vm, **vn},
        profile=profile, profile_citation="derived here: f_{0,p} has delta(eps') = p for all eps'",
        symmetric=symmetric, pure_eps=None, notes=f"neighbours={neighbours}", facts=facts,
    )
