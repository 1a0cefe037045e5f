"""The zero-noise limit: a mechanism whose privacy parameter is infinite.

For the Gaussian mechanism (mu -> inf), Laplace, randomized response, (eps, delta)-DP
and the classical Gaussian mechanism (eps -> inf), and the noise families
(mu -> inf), the trade-off function tends to 0 at every alpha in (0, 1]: the
two output distributions become mutually singular and a test of level alpha has
power 1.  (For G_mu: Phi(-PhiInv(alpha) - mu) -> 0; for f_{eps,delta}:
max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)) -> 0 for alpha > 0.)
The pointwise limit keeps f(0) = 1 - delta; its closure as a trade-off function
(trade-off functions are continuous, Dong, Roth, Su 2022, Prop. 2.2) is f = 0,
the trade-off function of a mechanism with no privacy at all.  Its profile is
delta(eps) = sup_alpha 1 - 0 - e^eps alpha = 1 for every eps, so eps(delta) = inf
for every delta < 1; the AUC is 1; f(0) = 0 < 1, a catastrophic failure in the
sense of seed 000 (Definition 4).

The uniform-sampling mechanism is not in this list: with add-remove neighbours
its limit is (n - 1)(1 - alpha)/n, not 0 (the record may be absent from the
sample), so an infinite mu is refused there.
"""

from __future__ import annotations

import sympy as sp

from ..tradeoff import TradeOff
from . import facts as K

CITATION = ("zero-noise limit of the mechanism (derived here; trade-off functions as in Dong, Roth, "
            "Su 2022, Def. 2.1 and Prop. 2.2)")


def no_privacy(mechanism: str, label: str) -> TradeOff:
    """f = 0 on [0, 1]: the record of ``mechanism`` with an infinite privacy parameter.

    The record is named ``no-privacy`` and declares the fact ``NO_PRIVACY`` (the
    evaluators ask for it; none of the mechanism's closed forms applies); it has no free parameters (its
    formulas do not depend on them); ``str`` shows the mechanism and the values
    as given: ``no-privacy(laplace: eps=inf)``."""
    return TradeOff(
        name="no-privacy", parameters=(), tradeoff=sp.S.Zero, power=sp.S.One, paper=sp.S.Zero,
        domain={}, citation=CITATION, values={}, profile=sp.S.One, label=f"{mechanism}: {label}",
        profile_citation="delta(eps) = sup_alpha 1 - e^eps alpha = 1 (alpha -> 0+)",
        symmetric=True, pure_eps=sp.oo,
        notes="infinite privacy parameter: no noise, no privacy (f = 0, power 1 at every level)",
        facts={K.NO_PRIVACY: K.fact(True, "an infinite privacy parameter: f = 0")})
