"""numeric.pld.Composition.tradeoff at alpha = 0 and 1 (``compose fdp ... --alpha 0 --method numeric`` raised a
ValueError traceback).  References: f(1) = 0 for every trade-off function; f(0) = 1 - P(L = +inf) of the
composition, (1 - delta)^k for k steps of (eps, delta)-DP (each step at +inf with probability delta, independently),
and 1 for Gaussian and Laplace steps (no +inf mass); Fractions, exact."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from numeric import pld
from numeric import pld_mechanisms as M
from tests.cli_runner import run


@pytest.mark.parametrize("mech, k, at0", [(M.eps_delta("0.5", "0.01"), 30, Fraction(99, 100) ** 30),
                                          (M.subsampled_gaussian("0.1", "1"), 5, Fraction(1)),
                                          (M.laplace("0.1"), 100, Fraction(1))])
def test_ends_of_the_tradeoff_curve(mech, k, at0):
    comp = pld.compose([(mech, k)])
    r0, r1 = comp.tradeoff("0"), comp.tradeoff("1")
    with mpmath.workdps(40):
        at0 = mpmath.mpf(at0.numerator) / at0.denominator
        assert r0.beta_lower <= at0 <= r0.beta_upper and r0.beta_upper - r0.beta_lower <= 1e-12
    assert r1.beta_lower == r1.beta_upper == 0 and r1.power == 1


def test_mutation_power_at_zero_from_the_lower_masses_only_is_caught(monkeypatch):
    """Both ends of beta(0) read from the lower +inf mass: the bracket misses (1 - delta)^k from above."""
    orig = pld.Composition._beyond_support
    monkeypatch.setattr(pld.Composition, "_beyond_support", lambda self, d, e: (orig(self, d, e)[1] * 0, orig(self, d, e)[1]))
    r = pld.compose([(M.eps_delta("0.5", "0.01"), 30)]).tradeoff("0")
    with mpmath.workdps(40):
        assert not r.beta_lower <= mpmath.mpf(99) ** 30 / mpmath.mpf(100) ** 30 <= r.beta_upper


def test_cli_alpha_zero_on_the_engine():
    out = run(("compose", "fdp", "laplace", "--eps", "0.1", "--k", "100", "--alpha", "0", "--method", "numeric"))
    assert out.rc == 0 and "Traceback" not in out.err and "beta in [1" in out.out
