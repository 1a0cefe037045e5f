"""The exponential mechanism over M >= 2 outcomes with a utility of sensitivity 1.

Outcome o is released with probability proportional to exp(eps u(D, o) / 2), where |u(D, o) - u(D', o)|
<= 1 for every o and neighbours D, D' (McSherry and Talwar 2007; the scores scaled by eps/2, so eps is
the mechanism's pure-DP guarantee).

**Its trade-off function** (derived here; no paper of the seeds states it) is that of the logistic pair,

    f_eps(alpha) = T(Logistic(0, 1), Logistic(eps, 1))(alpha) = (1 - alpha) / (1 + (e^eps - 1) alpha),

for every M >= 2.  The argument, in two steps:

1. *Every neighbouring pair is above f_eps.*  For fixed D, D' the privacy loss is
   L(o) = log P(o)/Q(o) = (eps/2)(u(D, o) - u(D', o)) + log(Z'/Z), so it lies in an interval
   [c, c + eps].  Such a pair is a post-processing of the binary pair P2 = Bern(a), Q2 = Bern(b) with
   a/b = e^(c + eps) and (1 - a)/(1 - b) = e^c (the two end values of the ratio): the kernels
   K1(o) proportional to P(o) - e^c Q(o) and K0(o) proportional to e^(c + eps) Q(o) - P(o) are
   non-negative, and a K1 + (1 - a) K0 = P, b K1 + (1 - b) K0 = Q.  So T(P, Q) >= T(P2, Q2)
   (Blackwell; Dong, Roth, Su 2022, Lemma 2.9).  T(P2, Q2) is the polygon through (0, 1), its vertex
   (1 - a, b) and (1, 0); eliminating c from the two ratios gives b = (1 - alpha)/(1 + (e^eps - 1) alpha)
   at alpha = 1 - a: the vertex lies on the curve f_eps.  The curve is convex with f_eps(0) = 1 and
   f_eps(1) = 0, so every such polygon (its chords) lies above it: T(P, Q) >= f_eps.
2. *The bound is attained at every alpha.*  Take u(D) = (x, 0, ..., 0) and u(D') = (x - 1, 1, ..., 1):
   the ratio P(o)/Q(o) is e^eps times larger on the first outcome than on the others, so the pair is
   the binary pair of step 1 on the events {first outcome} and {other outcomes}, and its vertex runs
   over the whole curve as x runs over the reals.  So inf over neighbouring pairs of T = f_eps at every
   alpha: no single pair is worst, a one-parameter family of pairs has f_eps as its lower envelope
   (tests/test_mechanism_exponential.py checks the envelope by brute force over x, and step 1 on
   random utility pairs).

Hence M does not change the trade-off function (it is a parameter of the mechanism the user runs, kept
for the record).  The power and the profile (derived here: the stationary point of
1 - f(alpha) - e^eps' alpha is alpha* = (e^((eps - eps')/2) - 1)/(e^eps - 1)):

    1 - f(alpha) = e^eps alpha / (1 + (e^eps - 1) alpha),
    delta(eps') = 1 - e^eps' (eps' <= -eps),  (e^(eps/2) - e^(eps'/2))^2/(e^eps - 1) (|eps'| < eps),
                  0 (eps' >= eps).
"""

from __future__ import annotations

import sympy as sp

from derive.special import expm1

from .. import symbols as sy
from ..tradeoff import TradeOff, eps_prime
from . import facts as K
from ._params import bind, described

CITATION = ("McSherry, Talwar (2007) FOCS (the exponential mechanism); its trade-off function, the "
            "logistic pair's (1 - alpha)/(1 + (e^eps - 1) alpha), derived here")
OUTCOMES = sp.Symbol("M", positive=True, integer=True)


def logistic_profile(m):
    """delta(eps') of the logistic pair with shift m (derived in the module docstring)."""
    t = eps_prime
    return sp.Piecewise((-expm1(t), t <= -m), (sp.S.Zero, t >= m),
                        ((sp.exp(m / 2) - sp.exp(t / 2)) ** 2 / expm1(m), True))


def exponential(eps=None, outcomes=None) -> TradeOff:
    """Trade-off record of the exponential mechanism: eps >= 0, outcomes = M >= 2 (f does not depend on M)."""
    e, ve = bind(sy.eps, eps, "eps")
    _, vm = bind(OUTCOMES, outcomes, "outcomes", "outcomes")
    a = sy.alpha
    tradeoff = (1 - a) / (1 + expm1(e) * a)
    power = sp.exp(e) * a / (1 + expm1(e) * a)
    profile = logistic_profile(e)
    return TradeOff(
        name="exponential", parameters=(sy.eps, OUTCOMES), tradeoff=tradeoff, power=power, paper=tradeoff,
        domain=described(eps="eps", outcomes="outcomes"), citation=CITATION, values={**ve, **vm},
        profile=profile, profile_citation="derived here (stationary point of 1 - f - e^eps' alpha)",
        symmetric=True, pure_eps=e, notes="utility sensitivity 1, scores scaled by eps/2; f does not depend on M",
        facts={K.LOGISTIC_SHIFT: K.fact(e, "the trade-off function is the logistic pair's with shift eps"),
               K.AUC_PIECES: K.fact(sp.Tuple(sp.Tuple(tradeoff, 0, 1)), "one piece on [0, 1]")},
    )
