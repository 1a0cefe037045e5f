"""numeric.lattice_beta: beta(alpha) of a composition that is one lattice law, read from the law's masses
(issue #25: RR(0.01) x 1000001 on the engine gave beta(0.1) in [0, 1.2e-9] around 1.4e-18).

References, none from the code under test:
* one step: the trade-off functions in closed form, f(alpha) = max(0, 1 - delta - e^eps alpha,
  e^-eps (1 - delta - alpha)) (Dong-Roth-Su 2022, Prop. 2.5; delta = 0 for randomized response);
* k steps of randomized response: the Neyman-Pearson test of the binomial pair in mpmath at 40 digits
  (J ~ Bin(k, p) under P, Bin(k, 1 - p) under Q, p = e^eps / (1 + e^eps); beta = P(J < t) + P(J = t)(1 - g) with
  the threshold t and randomisation g that put Q-mass alpha above it), summed term by term from log-gammas;
* 10^7 steps: the exact route of ``numeric.lattice_law`` (Kairouz-Oh-Viswanath, 15 verified digits), a
  different computation (fixed-point binomial sums)."""

from __future__ import annotations

import functools
from fractions import Fraction

import mpmath
import pytest

from numeric import lattice_beta as LB
from numeric import pld, pld_power
from numeric import pld_mechanisms as M


def _closed(eps: str, delta: str, alpha: str):
    with mpmath.workdps(40):
        e, d, a = mpmath.mpf(eps), mpmath.mpf(delta), mpmath.mpf(alpha)
        return max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))


@pytest.mark.parametrize("alpha", ["0.01", "0.1", "0.5", "0.9"])
@pytest.mark.parametrize("eps, delta", [("1", "0"), ("0.3", "0"), ("1", "0.01")])
def test_one_step_against_the_closed_form(eps, delta, alpha):
    mech = M.randomized_response(eps) if delta == "0" else M.eps_delta(eps, delta)
    r = pld.compose([(mech, 1)]).tradeoff(alpha)
    ref = _closed(eps, delta, alpha)
    assert r.beta_lower <= ref <= r.beta_upper
    assert r.beta_upper - r.beta_lower <= 1e-10 * ref


@functools.lru_cache(maxsize=None)
def _rr_beta(eps: str, k: int, alpha: str):
    """Neyman-Pearson beta of k-fold randomized response, mpmath at 40 digits: Q's terms summed from 40 standard
    deviations above its mean down to the threshold, P's below it, by the ratio of consecutive binomial terms."""
    with mpmath.workdps(40):
        e, a = mpmath.mpf(eps), mpmath.mpf(alpha)
        p, p1 = 1 / (1 + mpmath.exp(-e)), 1 / (1 + mpmath.exp(e))     # p and 1 - p, neither by subtraction
        r = mpmath.exp(e)                                      # p / (1 - p): P(J = j) / Q(J = j) = r^(2j - k)

        def Q(j):
            return mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(k - j + 1)
                              + j * mpmath.log(p1) + (k - j) * mpmath.log(p))
        j = min(k, int(k * p1 + 40 * mpmath.sqrt(k * p * p1) + 40))
        q, above = Q(j), mpmath.mpf(0)
        while above + q <= a:                                  # Q's mass at or above j, down to the threshold
            above += q
            q *= j * r / (k - j + 1)                           # Q(j - 1) / Q(j) = j p / ((k - j + 1)(1 - p))
            j -= 1
        g = (a - above) / q                                    # the threshold atom taken with probability g
        pj = q * r ** (2 * j - k)
        below, term, i = mpmath.mpf(0), pj, j
        while i > 0:                                           # P below the threshold: a log-concave tail
            term *= i / ((k - i + 1) * r)                      # P(i - 1) / P(i) = i (1 - p) / ((k - i + 1) p)
            i -= 1
            below += term
            if term < below * mpmath.mpf(10) ** -45:
                break
        return below + pj * (1 - g)


@pytest.mark.parametrize("eps, k, alpha", [("0.01", 1000001, "0.1"), ("0.1", 1000, "0.3"), ("0.5", 50, "1e-6")])
def test_many_steps_against_the_binomial_test(eps, k, alpha):
    r = pld.compose([(M.randomized_response(eps), k)]).tradeoff(alpha)
    ref = _rr_beta(eps, k, alpha)
    assert r.beta_lower <= ref <= r.beta_upper
    assert r.beta_upper - r.beta_lower <= 1e-6 * ref


def test_ten_million_steps_against_the_exact_route():
    from numeric import lattice_law
    r = pld.compose([(M.randomized_response("0.01"), 10 ** 7)]).tradeoff("0.1")
    with mpmath.workdps(30):
        ref = lattice_law.BinomialLaw("0.01", 0, 10 ** 7).tradeoff(mpmath.mpf("0.1"))[0]
    assert r.beta_lower <= ref * (1 + mpmath.mpf("1e-14")) and ref * (1 - mpmath.mpf("1e-14")) <= r.beta_upper
    assert r.beta_upper - r.beta_lower <= 1e-6 * ref


def test_mutation_no_direct_route_is_caught(monkeypatch):
    """Without the direct route the engine answers absolutely: [0, 1.2e-9] around 1.4e-18."""
    monkeypatch.setattr(pld_power, "beta_bracket", lambda comp, alpha: None)
    r = pld.compose([(M.randomized_response("0.01"), 1000001)]).tradeoff("0.1")
    assert not r.beta_upper - r.beta_lower <= 1e-6 * _rr_beta("0.01", 1000001, "0.1")


def test_mutation_alpha_added_is_caught(monkeypatch):
    """The term s alpha added instead of subtracted."""
    orig = LB._combine
    monkeypatch.setattr(LB, "_combine", lambda terms, sign: orig([(-c if isinstance(c, Fraction) else c, x)
                                                                   for c, x in terms], sign))
    r = pld.compose([(M.randomized_response("0.3"), 1)]).tradeoff("0.1")
    assert not r.beta_lower <= _closed("0.3", "0", "0.1") <= r.beta_upper


def test_spec_of_two_lattice_rows_keeps_the_engine():
    """Two rows are not one law: beta_bracket declines (the FFT composition answers)."""
    comp = pld.compose([(M.randomized_response("0.01"), 100), (M.randomized_response("0.02"), 100)])
    assert LB.beta_bracket(comp, Fraction(1, 10)) is None


def test_losses_beyond_the_float_exponent_fall_back_to_the_engine():
    """RR(400) x 3: e^{l} overflows a float at the top kink; the engine answers instead (no OverflowError).  The
    truth, about 0.9 e^-1200, is below the float range: the bracket is [0, a float bound]."""
    r = pld.compose([(M.randomized_response("400"), 3)]).tradeoff("0.1")
    assert r.beta_lower <= _rr_beta("400", 3, "0.1") <= r.beta_upper


def test_a_single_atom_below_the_float_range():
    """(0, 1e-3)-DP x 10^6: the finite atom has mass 0.999^(10^6) ~ 1e-435, below the floats; it is bounded by
    FLOOR above and 0 below (numeric.lattice_power), where the k-th power gave delta(0) in [1e-3, 1].  Reference:
    delta(0) = 1 - 0.999^(10^6) and beta(0.1) = 0 (the atom's P-mass is below alpha), mpmath at 40 digits."""
    comp = pld.compose([(M.eps_delta("0", "1e-3"), 10 ** 6)])
    d = comp.delta("0")
    with mpmath.workdps(40):
        ref = 1 - mpmath.mpf("0.999") ** 10 ** 6
        assert d.delta_lower <= ref <= d.delta_upper and d.delta_lower >= 1 - 2e-15
    t = comp.tradeoff("0.1")
    assert t.beta_lower == 0 and t.beta_upper <= 1e-300


def test_mutation_single_atom_below_the_floor_refused_is_caught(monkeypatch):
    from numeric import lattice_power
    orig = lattice_power.kfold_measures
    monkeypatch.setattr(lattice_power, "kfold_measures",
                        lambda model, h, k: None if len(model.atoms) == 1 and k >= 10 ** 6 else orig(model, h, k))
    d = pld.compose([(M.eps_delta("0", "1e-3"), 10 ** 6)]).delta("0")
    assert not d.delta_lower >= 1 - 2e-15
