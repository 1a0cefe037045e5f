"""Precision/recall, optimal F_beta, its inverse and the AUC (issue #4).

References are computed here, independently of derive/numeric: a brute-force
maximisation of F_beta over the output threshold theta written directly from
the noise tails of seed 001 (GSR, RSR of catalog LXM-PFA / LXM-RSR, Eq. 14), in
plain mpmath at 40-60 digits, and tanh-sinh quadrature of naive trade-off
formulas for the AUC.
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from derive.attack import prior_weight
from derive.errors import DomainError
from numeric import attack
from numeric.auc import auc


def _lap_upper(x, loc, eps):
    z = (x - loc) * eps
    return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2


def _brute_fscore(rsr, gsr, beta, w=1, lo=-80, hi=80):
    """max over theta of (1+b^2) RSR / (RSR + w GSR + b^2): grid scan then golden section."""
    b2 = mpmath.mpf(beta) ** 2

    def F(t):
        r = rsr(t)
        return (1 + b2) * r / (r + w * gsr(t) + b2)
    grid = [lo + (hi - lo) * mpmath.mpf(k) / 4000 for k in range(4001)]
    k = max(range(len(grid)), key=lambda i: F(grid[i]))
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, 4000)]
    g = (mpmath.sqrt(5) - 1) / 2
    for _ in range(250):
        c, d = b - g * (b - a), a + g * (b - a)
        if F(c) >= F(d):
            b = d
        else:
            a = c
    # the limit theta -> -inf (RSR = GSR = 1) is the supremum on the plateau branch
    return max(F((a + b) / 2), F(grid[0]), (1 + b2) / (1 + w + b2))


@pytest.mark.parametrize("eps,beta", [("2", "1"), ("1", "0.5"), ("5", "2"), ("0.3", "3")])
def test_laplace_fscore_against_brute_force(eps, beta):
    with mpmath.workdps(50):
        e = mpmath.mpf(eps)
        ref = _brute_fscore(lambda t: _lap_upper(t, 1, e), lambda t: _lap_upper(t, 0, e), beta)
        got = attack.fscore_optimum(derive.laplace(eps), beta, 25)
        assert abs(got.fscore - ref) <= mpmath.mpf(10) ** -22 * ref
        assert abs(got.one_minus_fscore - (1 - ref)) <= mpmath.mpf(10) ** -20 * (1 - ref)


def test_laplace_plateau_branch():
    # eps < log(1 + beta^2): the supremum is at theta -> -inf (recall 1, precision 1/2): F* = (1+b^2)/(2+b^2)
    got = attack.fscore_optimum(derive.laplace("0.1"), "1", 20)
    assert got.branch == "plateau"
    with mpmath.workdps(40):
        assert abs(got.fscore - mpmath.mpf(2) / 3) < mpmath.mpf(10) ** -19
    assert got.threshold == mpmath.mpf("-inf")


def test_one_minus_fscore_tiny_at_large_eps():
    # eps = 50, beta = 1: 1 - F* = 6.94e-12 (catalog probe LXM-probe-1mF-e50-b1); reference: brute force
    # maximisation at 60 digits, where 1 - F keeps ~48 digits after the subtraction
    with mpmath.workdps(60):
        e = mpmath.mpf(50)
        ref = _brute_fscore(lambda t: _lap_upper(t, 1, e), lambda t: _lap_upper(t, 0, e), "1", lo=-2, hi=3)
        got = attack.fscore_optimum(derive.laplace("50"), "1", 20)
        assert abs(got.one_minus_fscore - (1 - ref)) <= mpmath.mpf(10) ** -18 * (1 - ref)
        assert mpmath.nstr(got.one_minus_fscore, 3) == "6.94e-12"


def test_gaussian_fscore_against_brute_force():
    # Eq. 14/15 of seed 001 with sigma = sqrt(2 ln(1.25/delta))/eps, Q(D') = 0, Q(D) = 1
    with mpmath.workdps(50):
        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / mpmath.mpf("1e-5"))) / mpmath.mpf(2)
        sf = lambda x: mpmath.erfc(x / mpmath.sqrt(2)) / 2
        ref = _brute_fscore(lambda t: sf((t - 1) / sigma), lambda t: sf(t / sigma), "1", lo=-30, hi=30)
        got = attack.fscore_optimum(derive.classical_gaussian("2", "1e-5"), "1", 15)
        assert abs(got.fscore - ref) <= mpmath.mpf(10) ** -13 * ref


def test_prior_weight_changes_the_plateau():
    # w = (2 - rho_p) - 1 = 0.5: plateau (1 + b^2)/(1 + b^2 + w) = 2/2.5 (Eq. 24)
    w = prior_weight("0.5")
    got = attack.fscore_optimum(derive.laplace("0.2"), "1", 20, weight=w)
    with mpmath.workdps(40):
        assert abs(got.fscore - mpmath.mpf("0.8")) < mpmath.mpf(10) ** -19


@pytest.mark.parametrize("rho", [("-0.1", "0", "0"), ("1.1", "0", "0"), ("0", "1", "0"),
                                 ("0", "0", "1"), ("0", "0.6", "0"), ("1", "0", "0")])
def test_prior_weight_domain(rho):
    # (2 - rho_p)(1 - rho_c)(1 - rho_t) must exceed 1; each coefficient in its own range
    with pytest.raises(DomainError):
        prior_weight(*rho)


def test_bad_beta():
    for b in ("0", "-1", "nan"):
        with pytest.raises(DomainError, match="beta"):
            attack.fscore_optimum(derive.laplace("1"), b, 15)


@pytest.mark.parametrize("bound", ["0.67", "0.76", "0.9", "0.999"])
def test_fscore_inverse_round_trip(bound):
    # F*(eps_max(F)) = F, with F* from the brute force above (independent of the closed forms)
    eps = attack.fscore_inverse("1", bound, digits=30).eps
    with mpmath.workdps(50):
        ref = _brute_fscore(lambda t: _lap_upper(t, 1, eps), lambda t: _lap_upper(t, 0, eps), "1",
                            lo=-5, hi=6)
        assert abs(ref - mpmath.mpf(bound)) < mpmath.mpf(10) ** -20


def test_fscore_inverse_no_eps_and_bad_bounds():
    out = attack.fscore_inverse("1", "0.6")
    assert out.eps is None and "plateau" in out.reason
    for bad in ("0", "1", "1.5", "-0.2"):
        with pytest.raises(DomainError, match="bound"):
            attack.fscore_inverse("1", bad)


def test_precision_recall_at_alpha():
    # Laplace eps = 1, alpha = 0.01: theta = -log(2 alpha)/eps; recall = RSR(theta), precision = R/(R + alpha)
    with mpmath.workdps(50):
        e, a = mpmath.mpf(1), mpmath.mpf("0.01")
        theta = -mpmath.log(2 * a) / e
        r = _lap_upper(theta, 1, e)
        got = attack.pr(derive.laplace("1"), "0.01", 25)
        assert abs(got.threshold - theta) < mpmath.mpf(10) ** -23
        assert abs(got.recall - r) < mpmath.mpf(10) ** -23 * r
        assert abs(got.precision - r / (r + a)) < mpmath.mpf(10) ** -23
        assert abs(got.one_minus_precision - a / (r + a)) < mpmath.mpf(10) ** -23


NAIVE_F = {
    # naive trade-off formulas written here, integrated by mpmath.quad (tanh-sinh) at 40 digits
    "gaussian": (derive.gaussian("1"), lambda a: mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - 1), []),
    "laplace": (derive.laplace("1"), lambda a: 1 - mpmath.e * a if a < mpmath.exp(-1) / 2 else
                (mpmath.exp(-1) / (4 * a) if a <= 0.5 else mpmath.exp(-1) * (1 - a)), [mpmath.exp(-1) / 2, 0.5]),
    "logistic": (derive.noise("logistic", "1"), lambda a: (1 - a) / (1 - a + mpmath.e * a), []),
    "urs": (derive.uniform_sampling("1", "5"), lambda a: max(0, 1 - (1 - mpmath.exp(-1)) / 5 - a),
            [1 - (1 - mpmath.exp(-1)) / 5]),
}


@pytest.mark.parametrize("name", sorted(NAIVE_F))
def test_auc_against_quadrature(name):
    record, f, cuts = NAIVE_F[name]
    with mpmath.workdps(40):
        ref = 1 - mpmath.quad(f, [0] + [mpmath.mpf(c) for c in cuts] + [1])
        got = auc(record, 30)
        assert abs(got - ref) < mpmath.mpf(10) ** -29


def test_auc_urs_catalog_value():
    # catalog DF-AUC: URS with n = 5, mu = 1 has AUC 0.6184 (four digits printed)
    assert mpmath.nstr(auc(derive.uniform_sampling("1", "5"), 15), 4) == "0.6184"


def test_likelihood_ratios_are_monotone_so_thresholding_is_np():
    # Lambda(o) non-decreasing in o (Laplace: e^-eps below 0, e^eps above 1) and increasing (Gaussian)
    import sympy as sp

    from derive import attack as A
    lap = sp.lambdify(A.o, A.laplace_likelihood_ratio(sp.Integer(2)), "mpmath")
    gau = sp.lambdify(A.o, A.gaussian_likelihood_ratio(sp.Rational(3, 2)), "mpmath")
    grid = [mpmath.mpf(k) / 8 for k in range(-24, 33)]
    assert all(lap(a) <= lap(b) for a, b in zip(grid, grid[1:]))
    assert all(gau(a) < gau(b) for a, b in zip(grid, grid[1:]))
    assert lap(mpmath.mpf(-3)) == mpmath.exp(-2) and lap(mpmath.mpf(4)) == mpmath.exp(2)


def test_pr_curve_of_the_laplace_record():
    # catalog LXM-PRcurve middle piece: g(r) = e^-eps/(4(1 - r)) for 1/2 <= r <= 1 - e^-eps/2; eps = 2, r = 0.7
    import sympy as sp

    from derive import attack as A
    expr = A.pr_curve(derive.laplace("2")).subs({A.w: 1, A.recall: sp.Rational(7, 10)})
    with mpmath.workdps(30):
        g = mpmath.exp(-2) / (4 * mpmath.mpf("0.3"))
        assert abs(mpmath.mpf(sp.N(expr, 30)) - mpmath.mpf("0.7") / (mpmath.mpf("0.7") + g)) < 1e-25
