"""Canonical noise distributions (issue #12 item 4; seed 004 Sec. 3.2, catalog 004 AV23).

References, independent of numeric/cnd.py:
* f_{eps,0} (randomized response): its CND is the Tulap(0, b = e^-eps, q = 0) law, whose CDF has the
  closed form F(x) = b^{-[x]} (b + (x - [x] + 1/2)(1 - b)) / (1 + b) for x <= 0 ([x] the nearest
  integer) and 1 - F(-x) above (Awan and Slavkovic 2018, Def. 4.1), evaluated here in mpmath;
* G_mu: the recursion written out by hand with plain mpmath (ncdf and the normal quantile through
  erfinv), not through the toolkit's records;
* the defining property T(N, N + 1)(alpha) = F(F^{-1}(1 - alpha) - 1) = f(alpha) (AV23), f from the
  plain GDP formula;
* the sampler: a Kolmogorov-Smirnov test against the float CDF.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import derive
from derive.errors import DomainError
from numeric import cnd


def _tulap_cdf(x, eps):
    b = mpmath.exp(-eps)
    if x > 0:
        return 1 - _tulap_cdf(-x, eps)
    n = mpmath.nint(x)
    return b ** (-n) * (b + (x - n + mpmath.mpf(1) / 2) * (1 - b)) / (1 + b)


@pytest.mark.parametrize("eps", ["0.5", "1", "3"])
@pytest.mark.parametrize("x", ["-4.3", "-2.3", "-0.7", "0", "0.4", "1.5", "2.9"])
def test_randomized_response_cnd_is_tulap(eps, x):
    got = cnd.cdf(derive.randomized_response(eps), x, 25)
    with mpmath.workdps(40):
        ref = _tulap_cdf(mpmath.mpf(x), mpmath.mpf(eps))
        assert abs(got.cdf / ref - 1) < mpmath.mpf("1e-23")
        assert abs(got.survival / (1 - ref) - 1) < mpmath.mpf("1e-23")


def _gdp(a, mu):
    """G_mu(a) = Phi(Phi^{-1}(1 - a) - mu), Phi^{-1}(p) = sqrt(2) erfinv(2p - 1)."""
    return mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu)


def test_gaussian_cnd_by_hand():
    mu = mpmath.mpf(1)
    with mpmath.workdps(40):
        c = mpmath.ncdf(-mu / 2)                                   # the fixed point of G_mu
        s02 = mpmath.mpf(1) / 2 - (1 - 2 * c) * mpmath.mpf("0.2")  # S(0.2), linear piece
        s12 = _gdp(1 - s02, mu)                                    # S(1.2) = f(1 - S(0.2))
        s22 = _gdp(1 - s12, mu)                                    # S(2.2)
    g = derive.gaussian("1")
    assert abs(cnd.fixed_point(g, 25) / c - 1) < mpmath.mpf("1e-23")
    for x, ref in (("0.2", s02), ("1.2", s12), ("2.2", s22)):
        got = cnd.cdf(g, x, 25)
        assert abs(got.survival / ref - 1) < mpmath.mpf("1e-23"), x
        assert abs(cnd.cdf(g, "-" + x, 25).cdf / ref - 1) < mpmath.mpf("1e-23"), x   # symmetry


@pytest.mark.parametrize("alpha", ["0.001", "0.05", "0.3", "0.7"])
def test_defining_property(alpha):
    """T(N, N + 1)(alpha) = F(F^{-1}(1 - alpha) - 1) equals G_1(alpha)."""
    g = derive.gaussian("1")
    q = cnd.quantile(g, str(1 - mpmath.mpf(alpha)), 30)
    with mpmath.workdps(40):
        x = mpmath.nstr(q - 1, 35)
        ref = _gdp(mpmath.mpf(alpha), 1)
    assert abs(cnd.cdf(g, x, 25).cdf / ref - 1) < mpmath.mpf("1e-20")


def test_quantile_inverts_the_cdf():
    g = derive.laplace("0.7")
    for u in ("0.001", "0.2", "0.5", "0.93", "0.99999"):
        q = cnd.quantile(g, u, 30)
        back = cnd.cdf(g, mpmath.nstr(q, 35), 25).cdf
        assert abs(back / mpmath.mpf(u) - 1) < mpmath.mpf("1e-22"), u


def test_sampler_fits_its_cdf():
    from scipy import stats
    g = derive.gaussian("0.8")
    draws = cnd.sample(g, 20000, seed=7)
    assert stats.kstest(draws, lambda x: cnd.cdf_fp(g, x)).pvalue > 1e-3
    assert abs(np.median(draws)) < 0.05


def test_bad_input():
    with pytest.raises(DomainError):
        cnd.cdf(derive.uniform_sampling("1", "5", "add-remove"), "0")     # not symmetric
    with pytest.raises(DomainError):
        cnd.sample(derive.gaussian("1"), 10 ** 9)
    with pytest.raises(DomainError):
        cnd.quantile(derive.gaussian("1"), "1")
    with pytest.raises(DomainError):
        cnd.fixed_point(derive.gaussian("0"))                                   # f = Id: trivial


@pytest.mark.parametrize("mu", ["20", "60"])
def test_tiny_fixed_point_has_full_relative_precision(mu):
    # c = Phi(-mu/2) (catalog 004): 7.6e-24 at mu = 20, 9.8e-199 at mu = 60
    with mpmath.workdps(40):
        ref = mpmath.ncdf(-mpmath.mpf(mu) / 2)
    assert abs(cnd.fixed_point(derive.gaussian(mu), 25) / ref - 1) < mpmath.mpf("1e-23")
