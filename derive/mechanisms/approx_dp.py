"""(eps, delta)-DP as a trade-off function, and randomized response.

.. math::

    f_{\\varepsilon,\\delta}(\\alpha) = \\max\\{0,\\ 1-\\delta-e^{\\varepsilon}\\alpha,\\
    e^{-\\varepsilon}(1-\\delta-\\alpha)\\}

(de Fondeville 2026, arXiv:2603.12753v1, Eq. 3; Dong, Roth, Su 2022, Eq. 2.5).
Its complement is written as a minimum, ``1 - max(a, b, c) = min(1-a, 1-b, 1-c)``,
so the power near alpha = 0 is ``delta + e^eps alpha`` without subtraction.

Privacy profile (derived: the supremum of ``1 - f(alpha) - e^eps' alpha`` is at
the kink alpha* = (1 - delta)/(1 + e^eps) for eps' < eps, at alpha = 0 otherwise):

    delta(eps') = delta + (1 - delta)(e^eps - e^eps')/(1 + e^eps)  for eps' < eps,
                  delta                                              otherwise.

Binary randomized response with parameter eps releases the true bit with
probability e^eps/(1 + e^eps); its trade-off function is that of
Bern(a) against Bern(1 - a), a = 1/(1 + e^eps), which is f_{eps,0}.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from .. import symbols as sy
from ..tradeoff import TradeOff, eps_prime
from . import facts as K
from ._params import bind, described

CITATION = ("de Fondeville (2026) arXiv:2603.12753v1, Eq. 3; Dong, Roth, Su (2022) "
            "JRSS-B, Eq. 2.5 (catalog DF-Eq3)")


@lru_cache(maxsize=64)
def _forms(e, d):
    """(trade-off, power, profile) in the parameter expressions e, d (SymPy objects, so the
    result is a pure function of them: memoised, building Max/Min/Piecewise is slow)."""
    a = sy.alpha
    tradeoff = sp.Max(0, 1 - d - sp.exp(e) * a, sp.exp(-e) * (1 - d - a))
    power = sp.Min(1, d + sp.exp(e) * a, 1 - sp.exp(-e) * (1 - d - a))
    profile = sp.Piecewise(
        (d + (1 - d) * (sp.exp(e) - sp.exp(eps_prime)) / (1 + sp.exp(e)), eps_prime < e),
        (d, True),
    )
    return tradeoff, power, profile


def approx_dp(eps=None, delta=None) -> TradeOff:
    """f_{eps,delta}, eps >= 0, 0 <= delta < 1."""
    e, ve = bind(sy.eps, eps, "eps")
    d, vd = bind(sy.delta, delta, "delta")
    tradeoff, power, profile = _forms(e, d)
    return TradeOff(
        name="approx-dp", parameters=(sy.eps, sy.delta), tradeoff=tradeoff, power=power,
        paper=tradeoff, domain=described(eps="eps", delta="delta"),
        citation=CITATION, values={**ve, **vd}, profile=profile,
        profile_citation="derived here (conjugate of f_{eps,delta} at its kink)",
        symmetric=True, pure_eps=e if vd.get(sy.delta) == 0 else None,
        facts=eps_delta_facts(e, d, 1 - (1 - d) ** 2 / (1 + sp.exp(e))),
    )


def randomized_response(eps=None) -> TradeOff:
    """Binary randomized response: f_{eps,0}, eps >= 0."""
    e, ve = bind(sy.eps, eps, "eps")
    tradeoff, power, profile = _forms(e, sp.S.Zero)
    return TradeOff(
        name="randomized-response", parameters=(sy.eps,), tradeoff=tradeoff, power=power,
        paper=tradeoff, domain=described(eps="eps"),
        citation="Dong, Roth, Su (2022) JRSS-B, section 2.4: T(Bern(a), Bern(1-a)) = f_{eps,0}, "
                 "a = 1/(1+e^eps) (catalog DRS-Eq f_{eps,delta})",
        values=ve, profile=profile,
        profile_citation="derived here (conjugate of f_{eps,0} at its kink)",
        symmetric=True, pure_eps=e, facts=eps_delta_facts(e, sp.S.Zero, 1 - 1 / (1 + sp.exp(e))),
    )


def eps_delta_facts(e, d, printed_auc=None) -> dict:
    """The f_{eps,delta} identity, its two linear pieces (kink at (1 - delta)/(1 + e^eps)) and, where
    the catalog prints one (DF-AUC), the AUC as printed."""
    a = sy.alpha
    kink = (1 - d) / (1 + sp.exp(e))
    out = {K.EPS_DELTA: K.fact(sp.Tuple(e, d), "the trade-off function is f_{eps,delta}"),
           K.AUC_PIECES: K.fact(sp.Tuple(sp.Tuple(1 - d - sp.exp(e) * a, 0, kink),
                                         sp.Tuple(sp.exp(-e) * (1 - d - a), kink, 1 - d)),
                                "the two linear pieces of f_{eps,delta}")}
    if printed_auc is not None:
        out[K.AUC_PRINTED] = K.fact(printed_auc, "catalog DF-AUC")
    return out
