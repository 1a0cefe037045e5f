"""eps(delta) of a composition with a bounded loss is never above the largest composed loss (the twelfth
session's probe: 3 x RR(1) at delta = 1e-15 answered eps_upper = 3.769, 3 x RR(20) at 1e-300 gave 3360,
RR(1) x 3 + Laplace(0.5) x 2 at 1e-20 gave 4.00695 against the bound 4).

Reference: 3 x RR(1) has loss 3 with P-mass a^3, a = e/(1 + e), and smaller losses <= 1, so for eps in
[1, 3) delta(eps) = a^3 (1 - e^(eps - 3)), solved for delta = 1e-15 in mpmath at 50 digits."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from numeric import pld_results as PR
from numeric.pld import compose
from numeric.pld_mechanisms import Gaussian, Laplace, Mechanism, PureDP


def _mech(model):
    return Mechanism(model.name, [model], True)


def _truth_rr3(delta):
    with mpmath.workdps(50):
        a = mpmath.e / (1 + mpmath.e)
        return 3 + mpmath.log(1 - mpmath.mpf(delta) / a ** 3)


def test_three_rr_at_a_tiny_delta_is_capped_and_holds_the_truth():
    r = compose([(_mech(PureDP(Fraction(1))), 3)]).eps(Fraction(1, 10 ** 15))
    truth = _truth_rr3("1e-15")
    assert r.certified and r.eps_lower <= truth <= r.eps_upper
    assert r.eps_upper <= 3 * (1 + mpmath.mpf(2) ** -50)


def test_mixed_bounded_spec_is_capped():
    r = compose([(_mech(PureDP(Fraction(1))), 3), (_mech(Laplace(Fraction(1, 2))), 2)]).eps(Fraction(1, 10 ** 20))
    assert r.eps_upper <= 4 * (1 + mpmath.mpf(2) ** -38)
    assert r.eps_lower <= r.eps_upper


def test_no_cap_for_unbounded_or_infinite_mass():
    assert PR.loss_cap([(_mech(Gaussian(Fraction(1))), 2)]) is None
    assert PR.loss_cap([(_mech(PureDP(Fraction(1), Fraction(1, 1000))), 2)]) is None
    assert PR.loss_cap([(_mech(PureDP(Fraction(1))), 3)]) == 3


def test_mutation_without_the_cap_is_caught(monkeypatch):
    monkeypatch.setattr(PR, "loss_cap", lambda entries: None)
    r = compose([(_mech(PureDP(Fraction(1))), 3)]).eps(Fraction(1, 10 ** 15))
    # uncapped: 3.769 with the 3rd power of the step's spectrum, 3.449 with its 3-fold law (lattice_power)
    assert r.eps_upper > 3 * (1 + mpmath.mpf(2) ** -50)
