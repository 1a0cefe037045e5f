"""The discrete Gaussian mechanism (derive/mechanisms/discrete_gaussian.py, numeric/discrete_gaussian.py;
issue #12 item 5).

References, independent of the module's sums:
* the normaliser as Jacobi's theta function theta_3(0, e^{-1/(2 s2)}) (mpmath.jtheta);
* brute force over the integers |z| <= 60 (the rest is below 1e-300 of the mass for s2 <= 4) at 50
  digits: the Neyman-Pearson test by sorting the likelihood ratios and filling the rejection region,
  delta(eps) = sum_z (P(z) - e^eps Q(z))_+, AUC = sum_{z, z'} P(z) Q(z') [z > z'] + [z = z'] / 2;
* the catalog's printed profile Pr[X > eps s2 - 1/2] - e^eps Pr[X > eps s2 + 1/2] (a different formula).
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from cli_runner import assert_usage_error, run
from numeric import auc as NAUC
from numeric import discrete_gaussian as DG
from numeric import mp

R = 60


def _laws(s2):
    s2 = mpmath.mpf(s2)
    zn = mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * s2)))
    zs = list(range(-R, R + 2))
    P = {z: mpmath.exp(-(z - 1) ** 2 / (2 * s2)) / zn for z in zs}
    Q = {z: mpmath.exp(-z ** 2 / (2 * s2)) / zn for z in zs}
    return zs, P, Q


def _brute_beta(s2, alpha):
    with mpmath.workdps(50):
        zs, P, Q = _laws(s2)
        a = mpmath.mpf(alpha)
        used = power = mpmath.mpf(0)
        for z in sorted(zs, reverse=True):          # the likelihood ratio increases with z
            if used + Q[z] <= a:
                used, power = used + Q[z], power + P[z]
            else:
                power += P[z] * (a - used) / Q[z]
                break
        return 1 - power


def _brute_delta(s2, eps):
    with mpmath.workdps(50):
        zs, P, Q = _laws(s2)
        t = mpmath.exp(mpmath.mpf(eps))
        return mpmath.fsum(max(P[z] - t * Q[z], 0) for z in zs)


@pytest.mark.parametrize("s2", ["0.25", "1", "4"])
def test_normaliser_is_a_theta_function(s2):
    with mpmath.workdps(40):
        ref = mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * mpmath.mpf(s2))))
        assert abs(DG.normaliser(mpmath.mpf(s2)) - ref) <= mpmath.mpf(10) ** -38 * ref


@pytest.mark.parametrize("s2", ["0.25", "1", "4"])
@pytest.mark.parametrize("alpha", ["1e-30", "0.01", "0.3", "0.8"])
def test_tradeoff_is_the_neyman_pearson_test(s2, alpha):
    rec = derive.discrete_gaussian(s2)
    got = mp.tradeoff(rec, alpha, 25)
    ref = _brute_beta(s2, alpha)
    assert abs(got - ref) <= mpmath.mpf(10) ** -24 * ref
    pw = mp.power(rec, alpha, 25)
    with mpmath.workdps(50):
        assert abs(pw - (1 - ref)) <= mpmath.mpf(10) ** -24 * pw


@pytest.mark.parametrize("s2", ["0.25", "1", "4"])
@pytest.mark.parametrize("eps", ["0", "0.5", "2", "5"])
def test_profile_by_brute_force_and_the_printed_form(s2, eps):
    rec = derive.discrete_gaussian(s2)
    got = mp.profile_delta(rec, eps, 25)
    ref = _brute_delta(s2, eps)
    assert abs(got - ref) <= mpmath.mpf(10) ** -24 * ref
    with mpmath.workdps(40):
        printed = DG.printed_profile(mpmath.mpf(eps), mpmath.mpf(s2))
        assert abs(printed - ref) <= mpmath.mpf(10) ** -30 * ref


def test_eps_of_delta_inverts_the_profile():
    rec = derive.discrete_gaussian("1")
    e = mp.profile_eps(rec, "1e-5", 20)
    back = _brute_delta("1", mpmath.nstr(e, 25))
    assert abs(back - mpmath.mpf("1e-5")) <= mpmath.mpf(10) ** -17


def test_auc_by_double_sum():
    got = NAUC.auc(derive.discrete_gaussian("1"), 20)
    with mpmath.workdps(40):
        zs, P, Q = _laws("1")
        ref = mpmath.fsum(P[z] * Q[y] * (1 if z > y else mpmath.mpf(1) / 2 if z == y else 0)
                          for z in zs for y in zs)
    assert abs(got - ref) <= mpmath.mpf(10) ** -19 * ref


def test_large_variance_is_close_to_gdp():
    """s2 = 1e4: N_Z(0, s2) vs N_Z(1, s2) is within 1e-6 of G_{1/sigma} = G_0.01 (a sanity check of scale,
    not a reference: the discrete law differs)."""
    got = mp.tradeoff(derive.discrete_gaussian("1e4"), "0.05", 15)
    ref = mp.tradeoff(derive.gaussian("0.01"), "0.05", 15)
    assert abs(got - ref) < 1e-6


def test_mutation_wrong_normaliser_is_caught(monkeypatch):
    orig = DG.normaliser
    monkeypatch.setattr(DG, "normaliser", lambda s2: orig(s2) * (1 + mpmath.mpf(10) ** -12))
    got = mp.tradeoff(derive.discrete_gaussian("1"), "0.3", 20)
    assert abs(got - _brute_beta("1", "0.3")) > mpmath.mpf(10) ** -14


def test_cli():
    out = run(("risk", "discrete-gaussian", "--sigma2", "1", "--json")).json()
    assert out["failure"] == "graceful" and out["rho"] == "inf"
    out = run(("profile", "discrete-gaussian", "--sigma2", "1", "--at-eps", "0.5", "--json", "--digits", "20")).json()
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(out["delta"]) - _brute_delta("1", "0.5")) <= mpmath.mpf(10) ** -19
    assert_usage_error(run(("tradeoff", "discrete-gaussian", "--sigma2", "0", "--alpha", "0.1")), "sigma2=0")
    assert_usage_error(run(("tradeoff", "discrete-gaussian", "--sigma2", "2e4", "--alpha", "0.1")), "sigma2=2e4")


def test_subsampled_discrete_gaussian_profile_against_the_mixture_over_the_integers():
    """C_p(f) of the discrete Gaussian (numeric.subsampling on the record's numeric heads) against the
    Poisson-subsampled pair summed over the integers: the larger of
    sum_z (P(z) - e^eps Q(z))_+ and sum_z (Q(z) - e^eps P(z))_+ with P = p N_Z(1) + (1 - p) N_Z(0),
    Q = N_Z(0) (40 digits, |z| <= 80 for sigma2 = 2: the rest is below e^-1600)."""
    import mpmath

    from numeric import subsampling as SS
    rec = derive.discrete_gaussian("2")
    with mpmath.workdps(40):
        s2, p = mpmath.mpf(2), mpmath.mpf("0.1")
        zs = range(-80, 82)
        w = {z: mpmath.exp(-mpmath.mpf(z) ** 2 / (2 * s2)) for z in range(-81, 82)}
        zn = mpmath.fsum(w[z] for z in zs)
        for eps in ("0.05", "0.5", "2"):
            e = mpmath.exp(mpmath.mpf(eps))
            P = {z: (p * w[z - 1] + (1 - p) * w[z]) / zn for z in zs}
            Q = {z: w[z] / zn for z in zs}
            ref = max(mpmath.fsum(max(0, P[z] - e * Q[z]) for z in zs),
                      mpmath.fsum(max(0, Q[z] - e * P[z]) for z in zs))
            got = SS.delta(rec, "0.1", eps, 20).value
            assert abs(got - ref) <= mpmath.mpf(10) ** -19 * ref, (eps, got, ref)
