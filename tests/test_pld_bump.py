"""The tilt capped below the far bump of tilted Poisson-subsampled Gaussian steps (numeric/pld_bump.py).

Any tilt gives certified bounds; the cap moves width and time.  What is checked:
* the onset lies below the bump's analytic onset 2 sigma^2 log(1/q) (the bump's weight
  e^{lam^2/(2 sigma^2) + lam log q} against the bulk's, worked out in the module docstring), and the cap is
  taken where the bulk decides eps and dropped where one large step does;
* the certified bracket contains the reference of bench/dpsgd_reference.py (saddle-point Laplace inversion of
  the exact per-step cumulant generating function, no engine code; values recorded in BENCHMARKS.md,
  "DP-SGD grid at equal accuracy"), and the cap is what makes it narrow (mutation: cap removed);
* ``bulk_eps`` of an exactly Gaussian composition against the closed form of G_mu's eps(delta)
  (Dong, Roth and Su, Corollary 2.13), solved in mpmath.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from numeric import dpsgd, pld
from numeric import pld_bump as B

REF_Q001_S2_T100_D5 = 0.01462940309       # bench/dpsgd_reference.py (BENCHMARKS.md reference column)
REF_Q001_S11_T100_D10 = 0.2324064432


def _default_cgf(q, sigma, T):
    comp = dpsgd._composition(Fraction(q), Fraction(sigma), T)
    ups, _, _ = comp._measures(0, 0.0, lower=False)
    return comp, comp._measure_cgf(ups)


def test_onset_below_the_analytic_one():
    _, K = _default_cgf("0.001", 2, 100)
    lam_b = B.onset(K, 1e6)
    analytic = 2 * 2 ** 2 * math.log(1000)             # 55.3
    assert 0.4 * analytic < lam_b < analytic


def test_cap_kept_where_the_bulk_decides_and_dropped_where_one_step_does():
    _, K = _default_cgf("0.001", 2, 100)
    assert B.bump_tilt(K, 1e6, math.log(1e-5), "delta") < 60
    _, K = _default_cgf("0.001", "1.1", 100)
    assert B.bump_tilt(K, 1e6, math.log(1e-10), "delta") == 1e6


def test_bracket_contains_reference_and_is_narrow():
    r = dpsgd._composition(Fraction(1, 1000), Fraction(2), 100).eps(Fraction(1, 10 ** 5))
    lo, hi = float(r.eps_lower), float(r.eps_upper)
    assert r.certified and lo <= REF_Q001_S2_T100_D5 <= hi
    assert (hi - lo) / hi <= 1e-4


def test_bracket_where_one_step_decides():
    r = dpsgd._composition(Fraction(1, 1000), Fraction(11, 10), 100).eps(Fraction(1, 10 ** 10))
    assert r.certified and float(r.eps_lower) <= REF_Q001_S11_T100_D10 <= float(r.eps_upper)


def test_mutation_cap_removed_is_caught(monkeypatch):
    """Without the cap the same query lands past the onset: its bracket is 30x wider (7.8e-4)."""
    monkeypatch.setattr(pld, "bump_tilt", lambda K, cap, target, mode: cap)
    r = dpsgd._composition(Fraction(1, 1000), Fraction(2), 100).eps(Fraction(1, 10 ** 5))
    lo, hi = float(r.eps_lower), float(r.eps_upper)
    assert lo <= REF_Q001_S2_T100_D5 <= hi             # still valid: the tilt moves width only
    assert (hi - lo) / hi > 1e-4


@pytest.mark.parametrize("mu,delta", [(1.0, 1e-10), (0.5, 1e-6), (2.0, 1e-12)])
def test_bulk_eps_of_a_gaussian_composition(mu, delta):
    """K(lam) = lam mu^2 / 2 + lam^2 mu^2 / 2 is G_mu's privacy-loss CGF; its saddle-point eps against the
    exact eps solving Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta."""
    v = mu * mu

    def K(lam):
        return lam * v / 2 + lam * lam * v / 2, v / 2 + lam * v, v

    got = B.bulk_eps(K, 0.5, math.log(delta))
    with mpmath.workdps(30):
        f = lambda e: mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2) - delta
        exact = float(mpmath.findroot(f, (0.0, 40.0), solver="bisect"))
    assert abs(got - exact) <= 0.05 * exact
