"""pr at the edges (issue #11: ZeroDivisionError at eps = 0 and alpha = 0) and F_beta at beta = 1e-300.

References (seed 001 definitions, evaluated here by hand): precision = R/(R + w alpha) with
R = 1 - f(alpha).  Laplace(eps) has R = e^eps alpha for alpha <= e^-eps/2, so precision is
e^eps/(e^eps + w) there, also in the limit alpha -> 0+; eps = 0 has R = alpha, precision 1/(1 + w);
the Gaussian has R/alpha -> inf, precision -> 1.  As beta -> 0, F_beta -> precision, whose maximum
for Laplace(eps) is e^eps/(e^eps + 1) (w = 1).
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from numeric import attack


@pytest.mark.parametrize("eps", ["0.5", "1", "3"])
def test_laplace_precision_at_alpha_zero(eps):
    out = attack.pr(derive.laplace(eps), "0", 20)
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(eps))
        assert abs(out.precision - e / (e + 1)) < mpmath.mpf("1e-18")
    assert mpmath.isinf(out.threshold) and "alpha = 0" in out.note
    # the limit agrees with a small positive alpha on the plateau (alpha <= e^-eps/2)
    near = attack.pr(derive.laplace(eps), "1e-30", 20).precision
    assert abs(near - out.precision) < mpmath.mpf("1e-18")


def test_no_noise_parameter_zero():
    for rec in (derive.laplace("0"), derive.classical_gaussian("0", "1e-5")):
        out = attack.pr(rec, "0.1", 20)
        assert abs(out.precision - mpmath.mpf("0.5")) < mpmath.mpf("1e-18")       # 1/(1 + w), w = 1
        assert out.threshold is None and "eps = 0" in out.note


def test_gaussian_precision_tends_to_one():
    out = attack.pr(derive.classical_gaussian("1", "1e-5"), "0", 20)
    assert out.precision == 1 and out.one_minus_precision == 0


def test_fscore_at_tiny_beta_is_the_best_precision():
    out = attack.fscore_optimum(derive.laplace("1"), "1e-300", 20)
    with mpmath.workdps(30):
        e = +mpmath.e
        assert abs(out.fscore - e / (e + 1)) < mpmath.mpf("1e-18")


def _plain_fscore_argmax(mu, start):
    """argmax of F_1(alpha) = 2 R / (R + alpha + 1), R = Phi(Phi^{-1}(alpha) + mu), written here with
    mpmath's erfinv, maximised by findroot on mpmath.diff at 60 digits (a different method from the
    code's bisection on its first-order condition in t)."""
    with mpmath.workdps(60):
        def F(a):
            R = mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) + mu)
            return 2 * R / (R + a + 1)
        a = mpmath.findroot(lambda x: mpmath.diff(F, x), start)
        return a, F(a)


def test_gaussian_fscore_optimum_to_30_digits():
    """issue #11 item 4: threshold and alpha* carried ~15 correct digits (golden section)."""
    mu = mpmath.mpf(1)
    out = attack.fscore_optimum(derive.gaussian("1"), "1", 30)
    a, f = _plain_fscore_argmax(mu, mpmath.mpf("0.7"))
    with mpmath.workdps(60):
        assert abs(out.alpha / a - 1) < mpmath.mpf("1e-28")
        assert abs(out.fscore / f - 1) < mpmath.mpf("1e-29")
        theta = -mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) / mu        # -PhiInv(alpha*)/mu
        assert abs(out.threshold / theta - 1) < mpmath.mpf("1e-27")


def test_classical_gaussian_interior_maximum():
    """issue #11: eps = 0.1, delta = 1e-10 was reported at alpha = 1 (threshold -inf); the maximum is
    interior with threshold ~ -3222.495.  Reference: the same first-order condition solved by mpmath
    findroot (secant) in t at 80 digits, written here from R = Phi(mu - t), A = Phi(-t):
    mu t - mu^2/2 = log(Phi(mu - t) / (Phi(-t) + 1)) (w = beta = 1)."""
    with mpmath.workdps(80):
        mu = mpmath.mpf("0.1") / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / mpmath.mpf("1e-10")))
        t = mpmath.findroot(lambda t: mu * t - mu ** 2 / 2 - mpmath.log(mpmath.ncdf(mu - t) / (mpmath.ncdf(-t) + 1)),
                            mpmath.mpf(-47))
        theta = t / mu
    out = attack.fscore_optimum(derive.classical_gaussian("0.1", "1e-10"), "1", 20)
    assert out.branch == "interior"
    assert abs(out.threshold / theta - 1) < mpmath.mpf("1e-18")
    assert abs(out.threshold + mpmath.mpf("3222.495")) < mpmath.mpf("0.001")


@pytest.mark.parametrize("beta,rho_p", [("1", "0"), ("2", "0.5"), ("0.3", "0.9")])
def test_fscore_of_a_noiseless_gaussian_is_the_endpoint_in_seconds(beta, rho_p):
    """classical-gaussian at eps = 0 is G_0 = Id (issue #25: it did not answer in 100 s).  With R = alpha,
    F_beta = (1 + b^2) alpha / ((1 + w) alpha + b^2) increases to alpha = 1: F* = (1 + b^2)/(1 + w + b^2),
    w = 1 - rho_p here (rho_c = rho_t = 0); Laplace at eps = 0 (the same Id, by Eq. 24's plateau) agrees."""
    import time
    from fractions import Fraction

    from cli_runner import run
    t0 = time.perf_counter()
    out = run(("fscore", "classical-gaussian", "--eps", "0", "--delta", "1e-5", "--beta", beta, "--rho-p", rho_p,
               "--json", "--digits", "20")).json()
    assert time.perf_counter() - t0 < 10
    b2, w = Fraction(beta) ** 2, 1 - Fraction(rho_p)
    ref = (1 + b2) / (1 + w + b2)
    assert abs(Fraction(out["fscore"]) - ref) < Fraction(1, 10 ** 19) and out["branch"] == "endpoint"
    lap = run(("fscore", "laplace", "--eps", "0", "--beta", beta, "--rho-p", rho_p, "--json", "--digits", "20")).json()
    assert lap["fscore"] == out["fscore"]
