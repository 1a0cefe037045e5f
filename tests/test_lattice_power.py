"""numeric.lattice_power: a repeated lattice step enters the engine as its exact k-fold law (issue #25 item 2).

References are computed here without the engine: binomial sums in mpmath (term ratios from a
log-gamma start, 40 digits), a direct double sum for two lattice steps, and, for eps(delta), the exact
binomial route of numeric.lattice_law (mpmath sums and an integer bisection, another code path)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import compose_exact as X
from numeric import lattice_power, pld
from numeric import pld_mechanisms as M


def _binom_tail(k, p, jmin, dps=40):
    """sum_{j >= jmin} C(k, j) p^j (1 - p)^(k - j) at dps digits (ratio recursion from a log-gamma start,
    stopped when a term is 1e-60 of the sum past the mode)."""
    with mpmath.workdps(dps):
        p = mpmath.mpf(p)
        jmin = max(jmin, 0)
        if jmin > k:
            return mpmath.mpf(0)
        t = mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(jmin + 1) - mpmath.loggamma(k - jmin + 1)
                       + jmin * mpmath.log(p) + (k - jmin) * mpmath.log1p(-p))
        s, j, r = mpmath.mpf(0), jmin, p / (1 - p)
        while j <= k:
            s += t
            if j > k * p and t < s * mpmath.mpf(10) ** -60:
                break
            t *= (k - j) * r / (j + 1)
            j += 1
        return s


def rr_delta(eps0, k, eps, keep=1, dps=40):
    """delta(eps) of k x RR(eps0) (P-law of the loss eps0 (2J - k), J ~ Bin(k, b), Q with J ~ Bin(k, a)),
    times keep, plus 1 - keep (the (eps0, delta) pair's +inf mass, keep = (1 - delta)^k)."""
    with mpmath.workdps(dps):
        e0, e = mpmath.mpf(eps0), mpmath.mpf(eps)
        b = mpmath.exp(e0) / (1 + mpmath.exp(e0))
        jmin = int(mpmath.floor((e / e0 + k) / 2)) + 1
        while e0 * (2 * jmin - k) <= e:
            jmin += 1
        while jmin - 1 >= 0 and e0 * (2 * (jmin - 1) - k) > e:
            jmin -= 1
        d = _binom_tail(k, b, jmin, dps) - mpmath.exp(e) * _binom_tail(k, 1 - b, jmin, dps)
        return keep * d + (1 - keep)


def _inside(lo, ref, hi):
    with mpmath.workdps(40):
        return mpmath.mpf(lo) <= ref <= mpmath.mpf(hi)


def test_rr_million_steps_on_the_engine():
    """Issue #25 target: RR(0.01) x 10^6 on the engine, relative width <= 1e-6.  Before this route the
    k-th power of the spectrum gave delta(1) in [0.9999668, 1] and eps(1e-5) 8.9e-7 wide."""
    comp = pld.compose([(M.randomized_response("0.01"), 10 ** 6)])
    r = comp.delta("1")
    ref = rr_delta("0.01", 10 ** 6, 1)
    assert _inside(r.delta_lower, ref, r.delta_upper)
    assert (r.delta_upper - r.delta_lower) / ref <= 1e-6
    e = comp.eps("1e-5")
    ex = X.eps("randomized-response", {"eps": "0.01"}, 10 ** 6, "1e-5", 20).value
    assert e.certified and e.eps_lower <= ex <= e.eps_upper
    assert (e.eps_upper - e.eps_lower) / ex <= 1e-6


@pytest.mark.slow
def test_rr_ten_million_steps_on_the_engine():
    comp = pld.compose([(M.randomized_response("0.01"), 10 ** 7)])
    e = comp.eps("1e-5")
    ex = X.eps("randomized-response", {"eps": "0.01"}, 10 ** 7, "1e-5", 20).value
    assert e.eps_lower <= ex <= e.eps_upper and (e.eps_upper - e.eps_lower) / ex <= 1e-6
    r = comp.delta("600")
    ref = rr_delta("0.01", 10 ** 7, 600)
    assert _inside(r.delta_lower, ref, r.delta_upper) and (r.delta_upper - r.delta_lower) / ref <= 1e-6


@pytest.mark.parametrize("eps", ["0", "3", "12", "100"])
def test_approx_dp_kfold_with_its_inf_mass(eps):
    """200 x (0.5, 1e-3)-DP: the finite part is 200 x RR(0.5) kept with probability (1 - 1e-3)^200, the
    rest at +inf (eps = 100 = k eps0 is the top of the finite support: delta is the +inf mass)."""
    comp = pld.compose([(M.eps_delta("0.5", "0.001"), 200)])
    r = comp.delta(eps)
    with mpmath.workdps(40):
        keep = (1 - mpmath.mpf("0.001")) ** 200
    ref = rr_delta("0.5", 200, eps, keep=keep)
    assert _inside(r.delta_lower, ref, r.delta_upper)
    assert r.delta_upper - r.delta_lower <= 1e-8 * ref      # measured 2.3e-9 at eps = 0 (LOGSLACK 1e-9 a side)


def test_two_lattice_steps_against_a_double_sum():
    """RR(0.01) x 1000 + RR(0.02) x 500 (a spec of two lattice rows, each its k-fold law): delta(0.5)
    against the direct double sum over both binomial counts (mpmath, 30 digits; terms beyond 14 standard
    deviations of each count are below 1e-40 and dropped)."""
    comp = pld.compose([(M.randomized_response("0.01"), 1000), (M.randomized_response("0.02"), 500)])
    r = comp.delta("0.5")
    with mpmath.workdps(30):
        def law(e0, k):
            e0 = mpmath.mpf(e0)
            b = mpmath.exp(e0) / (1 + mpmath.exp(e0))
            lo, hi = max(0, int(k * b - 14 * math.sqrt(k) / 2)), min(k, int(k * b + 14 * math.sqrt(k) / 2))
            return [(j, e0 * (2 * j - k), mpmath.binomial(k, j) * b ** j * (1 - b) ** (k - j),
                     mpmath.binomial(k, j) * (1 - b) ** j * b ** (k - j)) for j in range(lo, hi + 1)]
        A, B = law("0.01", 1000), law("0.02", 500)
        t = mpmath.exp(mpmath.mpf("0.5"))
        ref = mpmath.fsum(pa * pb - t * qa * qb for _, la, pa, qa in A for _, lb, pb, qb in B
                          if la + lb > mpmath.mpf("0.5"))
    assert _inside(r.delta_lower, ref, r.delta_upper)
    assert r.delta_upper - r.delta_lower <= 1e-8 * ref      # measured 5.5e-9 (LOGSLACK and the FFT bound)


def test_binomial_masses_and_tail_bounds():
    """Every float mass within its stated relative error of the 40-digit binomial term, and the two tail
    bounds at least the true tails (k = 5000, RR(0.3)'s P-masses)."""
    from flint import ctx
    k = 5000
    with ctx.workprec(M.PREC):
        p1, p0 = (a.p_mass() for a in M.PureDP("0.3").atoms)
        j_lo, j_hi, masses, beta, left, right = lattice_power.binomial_masses(k, p0, p1)
    assert 0 < j_lo and j_hi < k and beta < 1e-12
    with mpmath.workdps(40):
        b = mpmath.exp(mpmath.mpf("0.3")) / (1 + mpmath.exp(mpmath.mpf("0.3")))
        for j in range(j_lo, j_hi + 1, 97):
            ex = mpmath.binomial(k, j) * b ** j * (1 - b) ** (k - j)
            assert abs(masses[j - j_lo] / ex - 1) <= beta, j
        right_ex = _binom_tail(k, b, j_hi + 1)
        left_ex = _binom_tail(k, 1 - b, k - j_lo + 1)      # J < j_lo  <=>  k - J > k - j_lo
        assert right_ex <= mpmath.mpf(float(right.upper())) * (1 + 1e-15)
        assert left_ex <= mpmath.mpf(float(left.upper())) * (1 + 1e-15)
        assert right_ex >= mpmath.mpf(float(right.upper())) / 10 and left_ex > 0


# ------------------------------------------------------------------ mutations: each must leave a bracket off


def _approx_dp_bracket():
    comp = pld.compose([(M.eps_delta("0.5", "0.001"), 200)])
    r = comp.delta("3")
    with mpmath.workdps(40):
        keep = (1 - mpmath.mpf("0.001")) ** 200
    return r, rr_delta("0.5", 200, "3", keep=keep)


def test_mutation_masses_shifted_by_one_index(monkeypatch):
    orig = lattice_power.binomial_masses

    def shifted(k, p0, p1):
        j_lo, j_hi, masses, beta, left, right = orig(k, p0, p1)
        return j_lo, j_hi, np.roll(masses, 1), beta, left, right
    monkeypatch.setattr(lattice_power, "binomial_masses", shifted)
    r, ref = _approx_dp_bracket()
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def test_mutation_ratio_inverted(monkeypatch):
    """rho = p0 / p1 instead of p1 / p0 inside the blocks (the anchors stay right)."""
    orig = lattice_power.binomial_masses
    monkeypatch.setattr(lattice_power, "BLOCK", 256)

    def swapped(k, p0, p1):
        got = orig(k, p0, p1)
        j_lo, j_hi, masses, beta, left, right = got
        js = np.arange(j_lo, j_hi + 1)
        t = (js - j_lo) % lattice_power.BLOCK
        # the same anchors, each block's product of ratios raised to the power -1 in rho
        rho = float((p1 / p0).mid())
        return j_lo, j_hi, masses * rho ** (-2.0 * t), beta, left, right
    monkeypatch.setattr(lattice_power, "binomial_masses", swapped)
    r, ref = _approx_dp_bracket()
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def test_mutation_inf_mass_of_k_minus_one_steps(monkeypatch):
    orig = lattice_power._inf_power
    monkeypatch.setattr(lattice_power, "_inf_power", lambda F, inf, k: orig(F, inf, k - 1))
    comp = pld.compose([(M.eps_delta("0.5", "0.001"), 200)])
    r = comp.delta("100")
    with mpmath.workdps(40):
        ref = 1 - (1 - mpmath.mpf("0.001")) ** 200
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def _beyond_the_table():
    """delta of 3000 x RR(0.5) at an eps just above the table's last atom (only the bounded tail beyond
    it and the +inf mass are left there), and the 40-digit reference."""
    comp = pld.compose([(M.randomized_response("0.5"), 3000)])
    up = comp._measures(0, 0.0)[0][0][0]
    top = int(up.knots[-1]) * comp.h
    e = top + comp.h / 2
    r = comp.delta(e)
    with mpmath.workdps(40):
        ref = rr_delta("0.5", 3000, mpmath.mpf(e.numerator) / e.denominator)
    return r, ref


def test_delta_beyond_the_table_holds_the_tail():
    r, ref = _beyond_the_table()
    assert ref > 0 and _inside(r.delta_lower, ref, r.delta_upper)


def test_mutation_right_tail_dropped_from_the_upper_measure(monkeypatch):
    orig = lattice_power.binomial_masses
    monkeypatch.setattr(lattice_power, "binomial_masses",
                        lambda k, p0, p1: orig(k, p0, p1)[:5] + (orig(k, p0, p1)[4] * 0,))
    r, ref = _beyond_the_table()
    assert not _inside(r.delta_lower, ref, r.delta_upper)


def _rr_plus_gaussian_delta(E, dps=30):
    """delta(E) of RR(0.1) x 10^5 + G_0.5: sum over the binomial count j of P(j) delta_G(E - l_j), delta_G(t) =
    Phi(-t/mu + mu/2) - e^t Phi(-t/mu - mu/2) (the G_mu hockey stick at any real t), mpmath; counts whose
    l_j < E - 15 are dropped (delta_G(15) at mu = 0.5 is below 1e-190)."""
    with mpmath.workdps(dps):
        k, e0, mu, E = 10 ** 5, mpmath.mpf("0.1"), mpmath.mpf("0.5"), mpmath.mpf(E)
        b = mpmath.exp(e0) / (1 + mpmath.exp(e0))
        lk = mpmath.loggamma(k + 1)
        s = mpmath.mpf(0)
        for j in range(int(k * b) - 3000, int(k * b) + 3001):
            t = E - e0 * (2 * j - k)
            if t > 15:
                continue
            w = mpmath.exp(lk - mpmath.loggamma(j + 1) - mpmath.loggamma(k - j + 1) + j * mpmath.log(b)
                           + (k - j) * mpmath.log1p(-b))
            s += w * (mpmath.ncdf(-t / mu + mu / 2) - mpmath.exp(t) * mpmath.ncdf(-t / mu - mu / 2))
        return s


def test_lattice_rows_do_not_set_the_grid_of_a_mixed_spec():
    """RR(0.1) x 10^5 + G_0.5: the grid's accuracy target counts the Gaussian step only (the RR rows are
    exact on any grid holding their atoms).  On h = 2.5e-5 (the target of 10^5 steps) beta(0.1) was
    refused ("needs 2^25 points") and eps(1e-5) was [633.16998, 633.45725]."""
    comp = pld.compose([(M.randomized_response("0.1"), 10 ** 5), (M.gaussian("0.5"), 1)])
    assert comp.h >= Fraction(1, 400)
    r = comp.delta("600")
    ref = _rr_plus_gaussian_delta("600")
    assert _inside(r.delta_lower, ref, r.delta_upper) and (r.delta_upper - r.delta_lower) / ref <= 1e-5
    t = comp.tradeoff("0.1")
    assert t.certified and t.beta_upper <= 1e-8


def test_mutation_lattice_rows_counted_in_the_grid_target_is_caught(monkeypatch):
    from numeric import pld_grid
    monkeypatch.setattr(pld_grid, "_accuracy_count", lambda entries, g: sum(k for _, k in entries))
    comp = pld.compose([(M.randomized_response("0.1"), 10 ** 5), (M.gaussian("0.5"), 1)])
    assert not comp.h >= Fraction(1, 400)


def test_a_delta_of_1e_300_stays_certified():
    """The table stops at FLOOR = 1e-306 and its right tail goes to +inf (about 20 FLOOR): a query at 1e-300
    stays certified and holds the exact route's value (with FLOOR = 1e-300, RR(0.01) x 10^7 answered
    [1663.97, 1e5], not certified)."""
    e = pld.compose([(M.randomized_response("0.01"), 10 ** 6)]).eps("1e-300")
    ex = X.eps("randomized-response", {"eps": "0.01"}, 10 ** 6, "1e-300", 20).value
    assert e.certified and e.eps_lower <= ex <= e.eps_upper and (e.eps_upper - e.eps_lower) / ex <= 1e-6


def test_mutation_floor_at_1e_290_is_caught(monkeypatch):
    monkeypatch.setattr(lattice_power, "FLOOR", 1e-290)
    e = pld.compose([(M.randomized_response("0.01"), 10 ** 6)]).eps("1e-300")
    assert not (e.certified and (e.eps_upper - e.eps_lower) / e.eps_upper <= 1e-6)
