"""Privacy-first (select) and utility-first (Z-test) parameter choice (seed 000): ``numeric.design``.

Reference provenance (all computed in this file):

* powers by hand: Gaussian 1 - G_mu(a) = Phi(mu - z_{1-a}), with the upper normal quantile
  z_{1-a} = PhiBar^-1(a) from our own Newton iteration on log PhiBar (``_z_upper``);
  Laplace 1 - f in three pieces; the logistic location family a/(a + (1-a) e^-mu);
* every selected parameter is plugged back into these powers (the equation it must
  solve), and compared with the closed forms: mu = z_{1-a0} + z_{1-b0} (Gaussian) and the
  three Laplace cases of the catalog, b0 = 1 - power:
  ln((1-b0)/a0) if b0 > 1/2; -ln(4 a0 b0) if b0 <= 1/2 and a0 <= 1/2; ln((1-a0)/b0) if a0 > 1/2;
* Z-test power PhiBar(z_{1-alpha} - m/sigma_n), sigma_n^2 = sigma^2/n + Delta_q^2/mu^2
  (Delta_q = 1/n by default), the unprotected power at mu -> inf, the relative loss;
  the smallest mu meeting a power goal by our own bisection on log mu.
Inputs are decimal strings read exactly (``Fraction``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

import derive
from conftest import call_with_timeout
from derive.errors import DomainError
from exact_refs import DIGITS, close, gauss_power, laplace_power, q, qc, val, z_upper
from numeric import design as ND


def gauss_beta(mu, a):                      # f(a) = G_mu(a) = PhiBar(mu - z_{1-a}), no 1 - power
    return mpmath.ncdf(z_upper(a) - mpmath.mpf(mu))




def laplace_beta(eps, a):
    e, a = mpmath.mpf(eps), mpmath.mpf(a)
    if a < mpmath.exp(-e) / 2:
        return 1 - mpmath.exp(e) * a
    if a <= mpmath.mpf(1) / 2:
        return mpmath.exp(-e) / (4 * a)
    return mpmath.exp(-e) * (1 - a)


def laplace_catalog(power, a0):
    """The three cases of the catalog (DF-Fig4), b0 = 1 - power, cases decided on exact fractions."""
    b0, a = 1 - Fraction(power), Fraction(a0)
    half = Fraction(1, 2)
    if b0 > half:
        r = (1 - b0) / a
    elif a <= half:
        r = 1 / (4 * a * b0)
    else:
        r = (1 - a) / b0
    return mpmath.log(mpmath.mpf(r.numerator) / r.denominator)


def logistic_power(mu, a):
    a = mpmath.mpf(a)
    return a / (a + (1 - a) * mpmath.exp(-mpmath.mpf(mu)))


GAUSS = derive.gaussian()
LAPLACE = derive.laplace()
LOGISTIC = derive.noise("logistic")
NINES_300 = "0." + "9" * 300        # 1 - 1e-300


# ------------------------------------------------------------------ select: Gaussian
@pytest.mark.parametrize("value, alpha0", [("0.5", "0.01"), ("0.2", "0.1"), ("0.9", "0.6"), ("0.99", "0.01"),
                                           ("0.3", "1e-1000"), (NINES_300, "0.01"), ("0.0100001", "0.01")])
def test_select_gaussian_power(value, alpha0):
    out = ND.select(GAUSS, "power", value, alpha0, DIGITS)
    assert out.parameter == "mu"
    with mpmath.workdps(80):
        mu = val(out.value)
        # closed form z_{1-a0} + z_{1-b0} with b0 = 1 - V
        close(mu, z_upper(q(alpha0)) + z_upper(qc(value)), what="mu = z_{1-a0} + z_{1-b0}")
        # plugged back: beta = f(a0) = 1 - V (compared on beta: relative accuracy when V is near 1)
        close(gauss_beta(mu, q(alpha0)), qc(value), mpmath.mpf("1e-15"), "f(alpha0) at the selected mu")
        close(gauss_power(mu, q(alpha0)), q(value), mpmath.mpf("1e-16"), "power at the selected mu")


@pytest.mark.parametrize("value, alpha0", [("5", "0.01"), ("50", "0.001"), ("1.5", "0.5"), ("1e10", "1e-300")])
def test_select_gaussian_rho_alpha0(value, alpha0):
    out = ND.select(GAUSS, "rho-alpha0", value, alpha0, DIGITS)
    assert out.parameter == "mu"
    with mpmath.workdps(80):
        mu = val(out.value)
        close(gauss_power(mu, q(alpha0)) / q(alpha0), q(value), mpmath.mpf("1e-16"), "(1 - f(a0))/a0")


def test_select_gaussian_rho_is_a_domain_error():
    # Gaussian rho = inf for every mu > 0 (graceful failure): no mu meets a finite rho
    with pytest.raises(DomainError) as exc:
        ND.select(GAUSS, "rho", "3")
    assert exc.value.parameter == "target"


def test_select_gaussian_power_equal_to_alpha0_gives_mu_zero():
    out = call_with_timeout(lambda: ND.select(GAUSS, "power", "0.01", "0.01", 15), 1.0)
    assert val(out.value) == 0


# ------------------------------------------------------------------ select: Laplace, three cases
LAPLACE_POWER = [
    ("0.2", "0.1"),            # b0 = 0.8 > 1/2: first piece, ln((1-b0)/a0)
    ("0.3", "1e-1000"),        # b0 > 1/2 at an extreme level
    ("0.5", "0.01"),           # b0 = 1/2: first and middle case agree
    ("0.99", "0.01"),          # b0 <= 1/2, a0 <= 1/2: -ln(4 a0 b0)
    ("0.75", "0.5"),           # a0 = 1/2 exactly (middle case)
    ("0.5", "1e-1000"),        # middle case, eps = 1000 ln 10 - ln 2
    ("0.9", "0.6"),            # a0 > 1/2: ln((1-a0)/b0)
    (NINES_300, "0.99"),       # a0 > 1/2, b0 = 1e-300
    ("0.01", "0.01"),          # power = alpha0: eps = 0
]


@pytest.mark.parametrize("value, alpha0", LAPLACE_POWER)
def test_select_laplace_power_three_cases(value, alpha0):
    out = ND.select(LAPLACE, "power", value, alpha0, DIGITS)
    assert out.parameter == "eps"
    with mpmath.workdps(80):
        eps = val(out.value)
        ref = laplace_catalog(value, alpha0)
        if ref == 0:
            assert eps == 0
            return
        close(eps, ref, what="catalog case")
        close(laplace_beta(eps, q(alpha0)), qc(value), mpmath.mpf("1e-15"), "f(alpha0) at the selected eps")
        close(laplace_power(eps, q(alpha0)), q(value), mpmath.mpf("1e-16"), "power at the selected eps")


@pytest.mark.parametrize("value, alpha0", [("5", "0.01"), ("99", "0.01"), ("1.2", "0.7")])
def test_select_laplace_rho_alpha0(value, alpha0):
    out = ND.select(LAPLACE, "rho-alpha0", value, alpha0, DIGITS)
    with mpmath.workdps(80):
        eps = val(out.value)
        close(laplace_power(eps, q(alpha0)) / q(alpha0), q(value), mpmath.mpf("1e-16"), "rho_alpha0")


@pytest.mark.parametrize("value", ["3", "1e300", "1.000001", "1"])
def test_select_laplace_rho(value):
    out = ND.select(LAPLACE, "rho", value, None, DIGITS)
    with mpmath.workdps(80):
        ref = mpmath.log(q(value))            # rho = e^eps (DF-Thm2)
        close(out.value, ref, what="eps = ln rho")


@pytest.mark.parametrize("target, value, alpha0", [("power", "0.5", "0.01"), ("power", "0.999", "0.3"),
                                                   ("rho", "3", None)])
def test_select_logistic(target, value, alpha0):
    out = ND.select(LOGISTIC, target, value, alpha0, DIGITS)
    assert out.parameter == "mu"
    with mpmath.workdps(80):
        mu = val(out.value)
        if target == "power":
            close(logistic_power(mu, q(alpha0)), q(value), mpmath.mpf("1e-16"), "logistic power")
        else:
            close(mpmath.exp(mu), q(value), mpmath.mpf("1e-18"), "logistic rho = e^mu")


@pytest.mark.parametrize("target, value, alpha0, param", [
    ("power", "0.001", "0.01", "value"),    # power below alpha0
    ("power", "1", "0.01", "value"),
    ("rho-alpha0", "100", "0.01", "value"),  # rho_alpha0 <= 1/alpha0
    ("rho-alpha0", "0.5", "0.01", "value"),
    ("rho", "0.5", None, "value"),
    ("power", "0.5", None, "alpha0"),
    ("power", "0.5", "0", "alpha0"),
    ("power", "0.5", "1", "alpha0"),
    ("power", "0.5", "-0.1", "alpha0"),
    ("bogus", "0.5", "0.1", "target"),
])
def test_select_bad_input(target, value, alpha0, param):
    with pytest.raises(DomainError) as exc:
        ND.select(LAPLACE, target, value, alpha0)
    assert exc.value.parameter == param


# ------------------------------------------------------------------ Z-test (utility first)
def ztest_ref(n, sigma, m, alpha, mu, delta_q=None):
    """(power, unprotected power, relative loss, sigma_n) by hand at the working precision."""
    n_, s, m_, a = q(n), q(sigma), q(m), q(alpha)
    dq = q(delta_q) if delta_q is not None else 1 / n_
    z = z_upper(a)
    muv = q(mu) if isinstance(mu, str) else mu
    sn = mpmath.sqrt(s**2 / n_ + dq**2 / muv**2) if mu is not None else None
    p0 = mpmath.ncdf(m_ * mpmath.sqrt(n_) / s - z)
    if sn is None:
        return None, p0, None, None
    p = mpmath.ncdf(m_ / sn - z)
    return p, p0, (p0 - p) / p0, sn


ZTESTS = [
    ("100", "1", "0.3", "0.05", "1", None),
    ("100", "1", "0.3", "0.05", "0.1", "0.02"),
    ("1000000", "2", "0.001", "0.05", "0.5", "0.000001"),   # relative loss ~4e-7
    ("100", "1", "0.3", "1e-300", "1", None),               # extreme level: power ~1e-254
    ("25", "3", "2", "0.5", "0.01", None),
]


@pytest.mark.parametrize("n, sigma, m, alpha, mu, delta_q", ZTESTS)
def test_ztest(n, sigma, m, alpha, mu, delta_q):
    out = ND.ztest(n, sigma, m, alpha, mu, delta_q, DIGITS)
    with mpmath.workdps(80):
        p, p0, loss, sn = ztest_ref(n, sigma, m, alpha, mu, delta_q)
        close(out.power, p, what="power")
        close(out.power_unprotected, p0, what="unprotected power")
        close(out.relative_loss, loss, what="relative loss")
        close(out.sigma_n, sn, what="sigma_n")


def _min_mu_bisection(n, sigma, m, alpha, goal, delta_q=None):
    """Smallest mu with power(mu) >= goal: bisection on log mu (power increases with mu)."""
    lo, hi = mpmath.log(mpmath.mpf("1e-12")), mpmath.log(mpmath.mpf("1e40"))
    assert ztest_ref(n, sigma, m, alpha, mpmath.exp(hi), delta_q)[0] >= goal
    for _ in range(220):
        mid = (lo + hi) / 2
        if ztest_ref(n, sigma, m, alpha, mpmath.exp(mid), delta_q)[0] >= goal:
            hi = mid
        else:
            lo = mid
    return mpmath.exp(hi)


@pytest.mark.parametrize("n, sigma, m, alpha, loss, power", [
    ("100", "1", "0.3", "0.05", "0.1", None),
    ("400", "2", "0.25", "0.01", None, "0.1"),
])
def test_ztest_min_mu_by_bisection(n, sigma, m, alpha, loss, power):
    out = ND.ztest_min_mu(n, sigma, m, alpha, max_relative_loss=loss, min_power=power, digits=DIGITS)
    with mpmath.workdps(60):
        p0 = ztest_ref(n, sigma, m, alpha, None)[1]
        goal = (1 - q(loss)) * p0 if loss is not None else q(power)
        close(out.target_power, goal, what="target power")
        close(out.power_unprotected, p0, what="unprotected power")
        ref = _min_mu_bisection(n, sigma, m, alpha, goal)
        close(out.mu, ref, mpmath.mpf("1e-16"), "smallest mu")


def test_ztest_min_mu_below_alpha_is_zero():
    # the power exceeds alpha for every mu > 0, so a goal <= alpha is met by any mu: 0
    out = ND.ztest_min_mu("100", "1", "0.3", "0.05", min_power="0.01")
    assert val(out.mu) == 0
    with mpmath.workdps(40):
        assert ztest_ref("100", "1", "0.3", "0.05", "1e-12")[0] >= q("0.01")


@pytest.mark.parametrize("kw, param", [({"max_relative_loss": "0"}, "max_relative_loss"),   # mu = inf only
                                       ({"max_relative_loss": "1"}, "max_relative_loss"),
                                       ({"min_power": "0.99"}, "min_power"),                # above p0 = 0.9123
                                       ({}, "max_relative_loss")])
def test_ztest_min_mu_unreachable_goal(kw, param):
    with pytest.raises(DomainError) as exc:
        ND.ztest_min_mu("100", "1", "0.3", "0.05", **kw)
    assert exc.value.parameter == param


@pytest.mark.parametrize("args, param", [(("0", "1", "1", "0.05", "1"), "n"), (("1.5", "1", "1", "0.05", "1"), "n"),
                                         (("10", "0", "1", "0.05", "1"), "sigma"),
                                         (("10", "1", "1", "0.05", "0"), "mu"),
                                         (("10", "1", "1", "1", "1"), "alpha"),
                                         (("10", "1", "1", "0", "1"), "alpha")])
def test_ztest_bad_input(args, param):
    with pytest.raises(DomainError) as exc:
        ND.ztest(*args)
    assert exc.value.parameter == param


@pytest.mark.parametrize("n, dps", [("1000", 60), ("1000000", 2300)])
def test_ztest_relative_loss_in_the_far_tail(n, dps):
    """issue #11: n = 10^6 (both powers within 1e-2103 of 1) was a traceback after 48 s.
    Reference: the plain ratio (Phi(A) - Phi(B))/Phi(A) evaluated with mpmath.ncdf at enough digits
    for the subtraction to be exact to 12 digits (2300 > 2104 + 12), not the complement form the code uses."""
    from numeric import design
    out = design.ztest(n, "1", "0.1", "0.05", "1", digits=15)
    with mpmath.workdps(60):        # A, B to 60 digits: Phi(-B) ~ e^{-B^2/2} moves by B dB, relative
        nn = mpmath.mpf(n)
        z = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf("0.05"))
        A = mpmath.mpf("0.1") / mpmath.sqrt(1 / nn) + z
        B = mpmath.mpf("0.1") / mpmath.sqrt(1 / nn + 1 / nn**2) + z
    with mpmath.workdps(dps):
        ref = (mpmath.ncdf(A) - mpmath.ncdf(B)) / mpmath.ncdf(A)
        assert abs(out.relative_loss / ref - 1) < mpmath.mpf("1e-12")
        assert abs(out.one_minus_power / mpmath.ncdf(-B) - 1) < mpmath.mpf("1e-12")
