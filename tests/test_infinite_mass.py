"""eps(delta) = +inf exactly when delta is below the composed mass at L = +inf (the twelfth session's probe:
3 x (1, 1e-3)-DP at delta = 1e-300 on the engine answered [514, inf], "not certified"; the truth is inf).

Reference: each (eps, delta) step puts P-mass delta at L = +inf, so k steps put 1 - (1 - delta)^k there, an
exact Fraction (3 steps of 1e-3: 0.002997001); delta(eps) tends to that mass as eps -> inf and exceeds it for
every finite eps, so eps(d) = inf for d below it and finite above it."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from numeric import pld_results as PR
from numeric.pld import compose
from numeric.pld_mechanisms import Gaussian, Mechanism, PureDP

MASS = 1 - (1 - Fraction(1, 1000)) ** 3          # 2997001/10^9, exact


def _mech(model):
    return Mechanism(model.name, [model], True)


def _three():
    return compose([(_mech(PureDP(Fraction(1), Fraction(1, 1000))), 3)])


@pytest.mark.parametrize("delta", [Fraction(1, 10 ** 300), Fraction(1, 1000), MASS * (1 - Fraction(1, 10 ** 12))])
def test_below_the_infinite_mass_eps_is_infinite(delta):
    r = _three().eps(delta)
    assert r.certified and r.eps_lower == r.eps_upper == mpmath.inf


def test_above_the_infinite_mass_eps_is_finite():
    """d = 3e-3, just above 0.002997001: finite, and at most the loss cap's 3 + (the finite part) is small."""
    r = _three().eps(Fraction(3, 1000))
    assert r.certified and 0 < r.eps_lower <= r.eps_upper < 10


def test_mixed_spec_with_a_gaussian():
    """2 x (0.5, 1e-4) + G_1: mass 1 - (1 - 1e-4)^2 = 1.9999e-4; delta = 1e-4 is below it."""
    spec = [(_mech(PureDP(Fraction(1, 2), Fraction(1, 10 ** 4))), 2), (_mech(Gaussian(Fraction(1))), 1)]
    r = compose(spec).eps(Fraction(1, 10 ** 4))
    assert r.certified and r.eps_lower == mpmath.inf
    assert PR.infinite_eps(spec, Fraction(2, 10 ** 4)) is None        # 2e-4 > 1.9999e-4


def test_mutation_one_step_mass_is_caught(monkeypatch):
    """Using one step's mass (1e-3) instead of the composed one leaves delta = 2.99e-3 without the answer inf."""
    orig = PR.infinite_eps

    def one_step(entries, delta):
        return orig([(mech, 1) for mech, _ in entries], delta)
    monkeypatch.setattr(PR, "infinite_eps", one_step)
    import numeric.pld as P
    monkeypatch.setattr(P, "infinite_eps", one_step)
    r = _three().eps(Fraction(299, 10 ** 5))
    assert not (r.certified and r.eps_lower == mpmath.inf)
