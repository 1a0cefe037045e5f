"""Gaussian differential privacy: G_mu and the classical Gaussian mechanism.

.. math::

    G_\\mu(\\alpha) = \\Phi(\\Phi^{-1}(1-\\alpha) - \\mu)

is the trade-off function of N(0,1) against N(mu,1) (printed form; Dong, Roth,
Su 2022, Eq. 2.2; de Fondeville 2026, arXiv:2603.12753v1, Example 2).  The
stable forms used for evaluation follow from Phi(-x) = 1 - Phi(x):

    f(alpha) = Phi(-PhiInv(alpha) - mu),   1 - f(alpha) = Phi(PhiInv(alpha) + mu).

The privacy profile (Dong, Roth, Su 2022, Cor. 2.13; catalog DRS-Cor2.13) is

    delta(eps') = Phi(-eps'/mu + mu/2) - e^eps' Phi(-eps'/mu - mu/2).

The classical Gaussian mechanism with sigma = sqrt(2 ln(1.25/delta)) Delta/eps
(Liu et al. 2019, PoPETs, section 4.3; Dwork and Roth 2014, Thm A.1) is G_mu
with mu = Delta/sigma = eps / sqrt(2 ln(1.25/delta)).
"""

from __future__ import annotations

import sympy as sp

from .. import symbols as sy
from ..special import Phi, PhiInv
from ..tradeoff import TradeOff, eps_prime
from . import facts as K
from ._params import bind, described

CITATION_G = ("Dong, Roth, Su (2022) JRSS-B, Eq. 2.2; de Fondeville (2026) "
              "arXiv:2603.12753v1, Example 2 (catalog DF-G)")
CITATION_PROFILE = "Dong, Roth, Su (2022) JRSS-B, Cor. 2.13 (catalog DRS-Cor2.13)"


def _gaussian_forms(m):
    a = sy.alpha
    tradeoff = Phi(-PhiInv(a) - m)
    power = Phi(PhiInv(a) + m)
    paper = Phi(PhiInv(1 - a) - m)
    return tradeoff, power, paper, gdp_profile(m)


def gdp_profile(m):
    """delta(eps') of G_m (DRS22 Cor. 2.13), 0 at m = 0."""
    return sp.Piecewise(
        (sp.S.Zero, sp.Eq(m, 0)),
        (Phi(-eps_prime / m + m / 2) - sp.exp(eps_prime) * Phi(-eps_prime / m - m / 2), True),
    )


def gaussian(mu=None) -> TradeOff:
    """mu-GDP trade-off function G_mu, mu >= 0 (symbolic when ``mu`` is None)."""
    m, values = bind(sy.mu, mu, "mu")
    tradeoff, power, paper, profile = _gaussian_forms(m)
    return TradeOff(
        name="gaussian", parameters=(sy.mu,), tradeoff=tradeoff, power=power, paper=paper,
        domain=described(mu="mu"), citation=CITATION_G, values=values,
        profile=profile, profile_citation=CITATION_PROFILE, symmetric=True, pure_eps=None,
        facts={**_gdp_fact(m), K.AUC_PRINTED: K.fact(Phi(m / sp.sqrt(2)), "catalog DF-AUC (Gaussian)")},
    )


def _gdp_fact(m) -> dict:
    """The capability ``gdp_mu``: the record is G_mu for this mu (an expression in its parameters); consumers
    that have a G_mu-specific route (numeric.profile's asymptotic eps(delta) bracket) ask for it instead of
    comparing mechanism names."""
    return {K.GDP_MU: K.fact(m, "the trade-off function is G_mu")}


def classical_mu(eps_expr, delta_expr):
    """mu = eps / sqrt(2 ln(1.25/delta)) of the classical Gaussian mechanism."""
    return eps_expr / sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta_expr))


def classical_gaussian(eps=None, delta=None) -> TradeOff:
    """Gaussian mechanism with the classical sigma: G_mu, mu = eps/sqrt(2 ln(1.25/delta)).

    eps >= 0 and 0 < delta < 1.  The (eps, delta)-DP guarantee of this sigma is
    proved for eps < 1 only (Dwork and Roth 2014, Thm A.1); the trade-off
    function G_mu itself is exact for every eps.
    """
    e, ve = bind(sy.eps, eps, "eps_classical")
    d, vd = bind(sy.delta, delta, "delta_positive")
    m = classical_mu(e, d)
    tradeoff, power, paper, profile = _gaussian_forms(m)
    return TradeOff(
        name="classical-gaussian", parameters=(sy.eps, sy.delta), tradeoff=tradeoff,
        power=power, paper=paper,
        domain=described(eps="eps_classical", delta="delta_positive"),
        citation="Liu, He, Chanyaswad, Wang, Mittal (2019) PoPETs, section 4.3 (sigma); " + CITATION_G,
        values={**ve, **vd}, profile=profile, profile_citation=CITATION_PROFILE,
        symmetric=True, pure_eps=None,
        notes="mu = eps / sqrt(2 ln(1.25/delta)); the (eps, delta) guarantee is proved for eps < 1.",
        facts=_gdp_fact(m),
    )
