"""Composition of pure DP and conversion of zCDP to (eps, delta)-DP (seed 002, section 2).

Kazan et al. (2025), arXiv:2507.09699v1, Theorems 2.7 and 2.8 (catalog KZ-T2.8,
KZ-D2.6, KZ-TA.2), which cite:

* basic composition: k eps0-DP mechanisms compose to (k eps0, 0)-DP;
* advanced (Dwork, Rothblum, Vadhan 2010): for any delta~ > 0,
  (eps0 sqrt(2 k log(1/delta~)) + k eps0 (e^{eps0} - 1), delta~)-DP;
* optimal (Kairouz, Oh, Viswanath 2015, Thm 3.3; its interpolation to every
  eps_g by Murtagh and Vadhan 2016): the k-fold composition of eps0-DP is
  (eps_g, delta_opt(eps_g))-DP with
  delta_opt(eps_g) = sum_l C(k, l) max(0, e^{(k-l) eps0} - e^{eps_g + l eps0}) / (1 + e^{eps0})^k,
  which is E[max(0, 1 - e^{eps_g - Z})] for the privacy loss Z = (k - 2 B) eps0,
  B ~ Binomial(k, 1/(1 + e^{eps0})), of k randomized responses (catalog KZ-TA.2);
* zCDP: rho-zCDP implies (rho + 2 sqrt(rho log(1/delta)), delta)-DP (Bun and
  Steinke 2016, the seed's Theorem 2.7), and the tighter conversion of Canonne,
  Kamath, Steinke (2020, Prop. 12/Cor. 13):
  eps = inf_{a > 1} a rho + (log(1/delta) + (a - 1) log(1 - 1/a) - log a)/(a - 1).
"""

from __future__ import annotations

import sympy as sp

from derive.special import expm1

from .symbols import delta

#: per-mechanism pure DP parameter, number of mechanisms, composed eps
eps0 = sp.Symbol("epsilon_0", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
eps_g = sp.Symbol("epsilon_g", nonnegative=True)
ell = sp.Symbol("ell", integer=True, nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
#: zCDP parameter and the Renyi order of the CKS conversion
rho = sp.Symbol("rho", positive=True)
order = sp.Symbol("a", positive=True)

basic_eps = k * eps0
advanced_eps = eps0 * sp.sqrt(2 * k * sp.log(1 / delta)) + k * eps0 * expm1(eps0)

#: Murtagh-Vadhan delta(eps_g) of the k-fold eps0-DP composition (delta0 = 0)
optimal_delta = sp.Sum(sp.binomial(k, ell) * sp.Max(0, sp.exp((k - ell) * eps0) - sp.exp(eps_g + ell * eps0)),
                       (ell, 0, k)) / (1 + sp.exp(eps0))**k

#: Kairouz-Oh-Viswanath Thm 3.3 at the grid point eps_g = (k - 2 i) eps0 (delta0 = 0)
kov_grid_delta = sp.Sum(sp.binomial(k, ell) * (sp.exp((k - ell) * eps0) - sp.exp((k - 2 * i + ell) * eps0)),
                        (ell, 0, i - 1)) / (1 + sp.exp(eps0))**k

bun_steinke_eps = rho + 2 * sp.sqrt(rho * sp.log(1 / delta))

#: the CKS objective in the Renyi order a > 1; its infimum is the conversion
cks_objective = order * rho + (sp.log(1 / delta) + (order - 1) * sp.log(1 - 1 / order) - sp.log(order)) / (order - 1)
cks_stationarity = sp.diff(cks_objective, order)
