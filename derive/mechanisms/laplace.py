"""The Laplace mechanism: trade-off of Lap(0,1) against Lap(eps,1).

Three-piece closed form (catalog DF-Lap; Dong, Roth, Su 2022, appendix lemma
cited by de Fondeville 2026, arXiv:2603.12753v1, as "Lemma A.6"):

.. math::

    f_\\varepsilon(\\alpha) = \\begin{cases}
        1 - e^{\\varepsilon}\\alpha & \\alpha < e^{-\\varepsilon}/2 \\\\
        e^{-\\varepsilon}/(4\\alpha) & e^{-\\varepsilon}/2 \\le \\alpha \\le 1/2 \\\\
        e^{-\\varepsilon}(1-\\alpha) & \\alpha > 1/2
    \\end{cases}

Every piece of f and of 1 - f is at least 1/2 where it is used or is a product
of positive factors, so neither form cancels.  The claim ``DF-Lap`` derives
the same function with SymPy from the definition F(F^{-1}(1-alpha) - eps).

Privacy profile (derived: stationary point of ``1 - f(alpha) - e^eps' alpha``
on the middle piece, alpha* = e^{-(eps + eps')/2}/2):

    delta(eps') = 1 - e^{(eps' - eps)/2} for eps' < eps, 0 otherwise.
"""

from __future__ import annotations

import sympy as sp

from .. import symbols as sy
from ..tradeoff import TradeOff, eps_prime
from . import facts as K
from ._params import bind, described

CITATION = ("Dong, Roth, Su (2022) JRSS-B, appendix (Laplace trade-off); de Fondeville (2026) "
            "arXiv:2603.12753v1, Example 1 and 'Lemma A.6' (catalog DF-Lap)")

#: standard Laplace CDF and quantile (for the definition form)
LAPLACE_CDF = sp.Piecewise((sp.exp(sy.x) / 2, sy.x < 0), (1 - sp.exp(-sy.x) / 2, True))
LAPLACE_QUANTILE = sp.Piecewise((sp.log(2 * sy.p), sy.p < sp.S.Half), (-sp.log(2 - 2 * sy.p), True))


def laplace_pieces(e):
    """(tradeoff, power) of the three-piece form for parameter expression ``e``."""
    a = sy.alpha
    lower, upper = sp.exp(-e) / 2, sp.S.Half
    tradeoff = sp.Piecewise(
        (1 - sp.exp(e) * a, a < lower),
        (sp.exp(-e) / (4 * a), a <= upper),
        (sp.exp(-e) * (1 - a), True),
    )
    power = sp.Piecewise(
        (sp.exp(e) * a, a < lower),
        (1 - sp.exp(-e) / (4 * a), a <= upper),
        (1 - sp.exp(-e) * (1 - a), True),
    )
    return tradeoff, power


def laplace_profile(e):
    """delta(eps') of the Laplace pair (the stationary point on the middle piece)."""
    return sp.Piecewise((1 - sp.exp((eps_prime - e) / 2), eps_prime < e), (sp.S.Zero, True))


def laplace(eps=None) -> TradeOff:
    """Trade-off function of the eps-DP Laplace mechanism, eps >= 0."""
    e, values = bind(sy.eps, eps, "eps")
    tradeoff, power = laplace_pieces(e)
    profile = laplace_profile(e)
    return TradeOff(
        name="laplace", parameters=(sy.eps,), tradeoff=tradeoff, power=power, paper=tradeoff,
        domain=described(eps="eps"), citation=CITATION, values=values, profile=profile,
        profile_citation="derived here (stationary point on the middle piece)",
        symmetric=True, pure_eps=e, facts=laplace_facts(e, tradeoff),
    )


def laplace_facts(e, tradeoff) -> dict:
    """The Laplace identity, the catalog's AUC (DF-AUC) and the three pieces SymPy integrates."""
    (p1, _), (p2, _), (p3, _) = tradeoff.args
    kink = sp.exp(-e) / 2
    return {K.LAPLACE_EPS: K.fact(e, "the trade-off function is T(Lap(0, 1), Lap(eps, 1))"),
            K.AUC_PRINTED: K.fact(1 - sp.exp(-e) * (2 + e) / 4, "catalog DF-AUC (Laplace)"),
            K.AUC_PIECES: K.fact(sp.Tuple(sp.Tuple(p1, 0, kink), sp.Tuple(p2, kink, sp.S.Half),
                                          sp.Tuple(p3, sp.S.Half, 1)), "the three pieces of DF-Lap")}
