"""numeric.pld_power: the engine's upper end of beta(alpha) (the power's lower end) in weakly private
compositions at small alpha.  The window's lower delta values were -inf at small eps there, and the lower end
of the power came out 0: beta_upper = 1 (above even the trivial 1 - alpha) for G_0.05 x 10 at alpha = 0.01 and
for 100 x Laplace(0.1) at alpha = 1e-5.

References: the Gaussian composition's trade-off function in closed form, beta(alpha) = Phi(Phi^-1(1 - alpha)
- mu) with mu = sqrt(k) mu_1 (Dong-Roth-Su 2022, Cor. 3.3), in mpmath at 40 digits; Poisson-subsampled
Gaussian steps at q = 1 are the same Gaussian pairs, given through the two-direction model."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numeric import pld, pld_power
from numeric import pld_mechanisms as M


def _beta_gdp(mu: mpmath.mpf, alpha: str):
    with mpmath.workdps(40):
        a = mpmath.mpf(alpha)
        return mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mu)


CASES = [  # (mechanism, count, mu of the composition, alpha); beta_upper was 1 before
    (M.gaussian("0.05"), 10, ("0.05", 10), "0.01"),
    (M.gaussian("0.05"), 10, ("0.05", 10), "1e-8"),
    (M.gaussian("0.1"), 100, ("0.1", 100), "1e-5"),
    (M.gaussian("0.01"), 1000, ("0.01", 1000), "1e-5"),
    (M.subsampled_gaussian("1", "20"), 10, ("0.05", 10), "1e-5"),      # q = 1: G_{1/20}, two directions
]


@pytest.mark.parametrize("mech, k, mu, alpha", CASES)
def test_beta_bracket_is_tight_where_it_was_vacuous(mech, k, mu, alpha):
    r = pld.compose([(mech, k)]).tradeoff(alpha)
    with mpmath.workdps(40):
        ref = _beta_gdp(mpmath.sqrt(mu[1]) * mpmath.mpf(mu[0]), alpha)
        assert r.beta_lower <= ref <= r.beta_upper
        # width within 0.2 % of the power 1 - beta (it was all of it: beta_upper 1)
        assert r.beta_upper - r.beta_lower <= 2e-3 * (1 - ref)
        assert r.beta_upper <= 1 - mpmath.mpf(alpha)


def test_mutation_without_the_monotone_bound_is_caught(monkeypatch):
    """The cells' monotone bound dropped (right_max giving nothing): the upper end is vacuous again."""
    monkeypatch.setattr(pld_power, "right_max", lambda vals: np.zeros(len(vals[0]) - 1))
    mech, k, mu, alpha = CASES[2]
    r = pld.compose([(mech, k)]).tradeoff(alpha)
    with mpmath.workdps(40):
        ref = _beta_gdp(mpmath.sqrt(mu[1]) * mpmath.mpf(mu[0]), alpha)
        assert not r.beta_upper - r.beta_lower <= 2e-3 * (1 - ref)


def test_mutation_monotone_bound_the_wrong_way_is_caught(monkeypatch):
    """The largest lower value of the whole window (also from smaller eps, where delta is larger) taken for
    every cell: not a lower bound on the cells right of it, and the bracket loses the closed form."""
    monkeypatch.setattr(pld_power, "right_max",
                        lambda vals: np.full(len(vals[0]) - 1, max(float(np.max(v)) for v in vals)))
    mech, k, mu, alpha = CASES[2]
    r = pld.compose([(mech, k)]).tradeoff(alpha)
    with mpmath.workdps(40):
        ref = _beta_gdp(mpmath.sqrt(mu[1]) * mpmath.mpf(mu[0]), alpha)
        assert not r.beta_lower <= ref <= r.beta_upper


def test_right_max_against_a_loop():
    rng = np.random.default_rng(7)
    vals = [rng.random(9), rng.random(9)]
    want = [max(max(v[j] for j in range(i + 1, 9)) for v in vals) for i in range(8)]
    assert np.array_equal(pld_power.right_max(vals), np.array(want))
