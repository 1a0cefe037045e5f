"""The geometric mechanism (discrete Laplace) on an integer query of sensitivity 1.

A count q(D) is released as q(D) + Z with Pr[Z = k] = (1 - r)/(1 + r) r^|k|, r = e^-eps, on the
integers (Ghosh, Roughgarden, Sundararajan 2012; OpenDP's ``make_geometric`` / discrete Laplace).

Trade-off function (derived here; the test derives the two masses with SymPy's ``summation``): for
neighbours q(D') = q(D) + 1 the pair is P = DLap(0) against Q = DLap(1), whose likelihood ratio

    P(k)/Q(k) = r^(|k| - |k - 1|) = e^eps for k <= 0,   e^-eps for k >= 1,

takes two values.  With P(k <= 0) = 1/(1 + r) and Q(k <= 0) = r/(1 + r) the pair is a post-processing
of Bern(1/(1 + r)) against Bern(r/(1 + r)) and conversely (the indicator of k <= 0 is sufficient), so

    T(P, Q) = T(Bern(1/(1+r)), Bern(r/(1+r))) = f_{eps,0}

(Dong, Roth, Su 2022, Eq. 2.5 and section 2.4: randomized response).  The neighbour q(D') = q(D) - 1
gives the mirror pair, the same function (f_{eps,0} is symmetric).  So the geometric mechanism is
exactly eps-DP with equality, it shares every closed form of randomized response (declared by the
fact ``EPS_DELTA = (eps, 0)``), and its profile is

    delta(eps') = (e^eps - e^eps') / (1 + e^eps) for eps' < eps, 0 otherwise.
"""

from __future__ import annotations

import sympy as sp

from .. import symbols as sy
from ..tradeoff import TradeOff
from ._params import bind, described
from .approx_dp import _forms, eps_delta_facts

CITATION = ("Ghosh, Roughgarden, Sundararajan (2012) SIAM J. Comput. (the geometric mechanism); its "
            "trade-off function f_{eps,0} derived here (Dong, Roth, Su 2022, Eq. 2.5)")


def geometric(eps=None) -> TradeOff:
    """Trade-off record of the geometric mechanism with parameter eps >= 0 (sensitivity 1)."""
    e, values = bind(sy.eps, eps, "eps")
    tradeoff, power, profile = _forms(e, sp.S.Zero)
    return TradeOff(
        name="geometric", parameters=(sy.eps,), tradeoff=tradeoff, power=power, paper=tradeoff,
        domain=described(eps="eps"), citation=CITATION, values=values, profile=profile,
        profile_citation="derived here: the profile of f_{eps,0} (the pair's likelihood ratio is e^{+-eps})",
        symmetric=True, pure_eps=e, notes="sensitivity 1; P(k) proportional to e^{-eps |k|}",
        facts=eps_delta_facts(e, sp.S.Zero),
    )
