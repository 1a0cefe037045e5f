"""Failure class, relative disclosure risk and posterior (seed 000): ``numeric.risk``.

Reference provenance (everything below is computed in this file, never by the library):

* trade-off functions written out by hand from their closed forms (the catalog): Gaussian
  G_mu(a) = Phi(Phi^-1(1-a) - mu) (classical Gaussian: mu = eps/sqrt(2 log(1.25/delta))),
  Laplace (three pieces), URS replacement max(0, 1 - p - a) and add/remove (1 - p - a up to
  e^-mu, (n-1)(1-a)/n after it), f_{eps,delta}, randomized response = f_{eps,0}, and the
  logistic location family whose power is
  1 - F(F^-1(1-a) - mu) = a/(a + (1-a) e^-mu) (F the logistic CDF, solved by hand);
* the Gaussian upper quantile z = PhiBar^-1(a) by Newton's method on log PhiBar (own
  code, ``_z_upper``), so alpha = 1e-1000 is reached at 1100 digits without cancellation;
* the posterior p(1-f)/((1-p)a + p(1-f)) of DF-Def6 and its complement, rho as
  sup (1-f(a))/a (brute-force maximisation on a grid, and its limit in closed form:
  e^eps for Laplace, e^mu for the logistic family), posterior_sup = p rho/(p rho + 1 - p);
* the catalog value of the Gaussian power at alpha = 1e-1000, mu = 1: 1.6914...e-971
  (leading digits only, a cross-check of the Newton reference).
All inputs are read exactly (``Fraction`` of the decimal string) at the working precision.
"""

from __future__ import annotations

from functools import lru_cache

import mpmath
import pytest

import derive
from derive import risk as R_limits
from derive.errors import DomainError
from exact_refs import DIGITS, TOL, close, laplace_power, q, qc, val
from numeric import risk as NR

# ------------------------------------------------------------------ exact inputs and helpers


def _newton_z(a, z, dps):
    """Newton steps on log PhiBar(z) = log a at ``dps`` digits from z (None: from sqrt(-2 log a)).

    log PhiBar is concave and decreasing, so from z0 = sqrt(-2 log a), where
    PhiBar(z0) <= e^{-z0^2/2}/2 = a/2 < a, the iterates decrease monotonically to the root.
    """
    with mpmath.workdps(dps):
        la = mpmath.log(a)
        z = mpmath.sqrt(-2 * la) if z is None else +z
        tol = mpmath.mpf(10) ** (-dps + 8)
        for _ in range(1000):
            tail = mpmath.ncdf(-z)
            step = (mpmath.log(tail) - la) * tail / mpmath.npdf(z)
            z += step
            if abs(step) <= tol * max(1, abs(z)):
                return z
    raise AssertionError("Newton for the normal quantile did not converge")


@lru_cache(maxsize=None)
def _z_upper_cached(a, dps):
    z = _newton_z(a, None, 30)
    d = 30
    while d < dps + 10:                  # quadratic convergence: double the precision each round
        d = min(2 * d, dps + 10)
        z = _newton_z(a, z, d)
    return z


def _z_upper(a):
    """z with PhiBar(z) = a, a in (0, 1), to the working precision (own Newton, see _newton_z)."""
    a = mpmath.mpf(a)
    if a == mpmath.mpf(1) / 2:
        return mpmath.mpf(0)
    if a > mpmath.mpf(1) / 2:
        return -_z_upper(1 - a)
    return +_z_upper_cached(a, mpmath.mp.dps)


# ------------------------------------------------------------------ powers 1 - f(a), by hand
@lru_cache(maxsize=None)
def _gauss_power_cached(mu, a, dps):
    with mpmath.workdps(dps):
        return mpmath.ncdf(mpmath.mpf(mu) - _z_upper(a))


def gauss_power(mu, a):
    """1 - G_mu(a) = PhiBar(z_{1-a} - mu) = Phi(mu - z_{1-a})."""
    a = mpmath.mpf(a)
    if a == 0:
        return mpmath.mpf(0)
    if a == 1:
        return mpmath.mpf(1)
    return +_gauss_power_cached(mu, a, mpmath.mp.dps)




def urs_p(mu, n):
    return -mpmath.expm1(-mpmath.mpf(mu)) / n


def urs_power(mu, n, a):            # replacement neighbours: 1 - max(0, 1 - p - a)
    return min(mpmath.mpf(1), urs_p(mu, n) + a)


def urs_ar_power(mu, n, a):         # add/remove: 1 - f with f = 1 - p - a up to e^-mu, (n-1)(1-a)/n after
    if a <= mpmath.exp(-mpmath.mpf(mu)):
        return urs_p(mu, n) + a
    return 1 - mpmath.mpf(n - 1) * (1 - a) / n


def adp_power(eps, delta, a):       # 1 - f_{eps,delta}(a) = min(1, delta + e^eps a, 1 - e^-eps (1 - delta - a))
    e, d = mpmath.mpf(eps), q(delta)
    return min(mpmath.mpf(1), d + mpmath.exp(e) * a, 1 - mpmath.exp(-e) * (1 - d - a))


def cg_mu(eps, delta):              # classical Gaussian mechanism: mu = eps / sqrt(2 log(1.25/delta))
    return mpmath.mpf(eps) / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / q(delta)))


def logistic_power(mu, a):          # 1 - F(F^-1(1-a) - mu), F(x) = 1/(1+e^-x): = a/(a + (1-a)e^-mu)
    a = mpmath.mpf(a)
    return a / (a + (1 - a) * mpmath.exp(-mpmath.mpf(mu)))


# ------------------------------------------------------------------ the records and their theory
#: name -> (constructor args, power(a), f(0) (callable), failure class, rho (callable, inf if unbounded))
CASES = {
    "gaussian-1": (("gaussian", "1"), lambda a: gauss_power(1, a), lambda: mpmath.mpf(1), "graceful",
                   lambda: mpmath.inf),
    "laplace-1": (("laplace", "1"), lambda a: laplace_power(1, a), lambda: mpmath.mpf(1), "none",
                  lambda: mpmath.e * 1),
    "laplace-2": (("laplace", "2"), lambda a: laplace_power(2, a), lambda: mpmath.mpf(1), "none",
                  lambda: mpmath.exp(2)),
    "urs-1-5": (("uniform_sampling", "1", "5"), lambda a: urs_power(1, 5, a), lambda: 1 - urs_p(1, 5),
                "catastrophic", lambda: mpmath.inf),
    "urs-ar-1-5": (("uniform_sampling", "1", "5", "add-remove"), lambda a: urs_ar_power(1, 5, a),
                   lambda: 1 - urs_p(1, 5), "catastrophic", lambda: mpmath.inf),
    "approx-dp-1-1e-5": (("approx_dp", "1", "1e-5"), lambda a: adp_power(1, "1e-5", a),
                         lambda: 1 - q("1e-5"), "catastrophic", lambda: mpmath.inf),
    "rr-2": (("randomized_response", "2"), lambda a: adp_power(2, "0", a), lambda: mpmath.mpf(1), "none",
             lambda: mpmath.exp(2)),
    "classical-gaussian-1-1e-5": (("classical_gaussian", "1", "1e-5"), lambda a: gauss_power(cg_mu(1, "1e-5"), a),
                                  lambda: mpmath.mpf(1), "graceful", lambda: mpmath.inf),
    "logistic-2": (("noise", "logistic", "2"), lambda a: logistic_power(2, a), lambda: mpmath.mpf(1), "none",
                   lambda: mpmath.exp(2)),
}


@lru_cache(maxsize=None)
def rec(name):
    ctor, *args = CASES[name][0]
    return getattr(derive, ctor)(*args)


@lru_cache(maxsize=None)
def risk_of(name, alpha0="0.01", prior="0.5", digits=DIGITS):
    return NR.risk(rec(name), alpha0, prior, digits)


# ------------------------------------------------------------------ failure class, f(0), rho
@pytest.mark.parametrize("name", list(CASES))
def test_failure_class_f0_and_rho(name):
    _, _, f0, failure, rho = CASES[name]
    out = risk_of(name)
    assert out.failure == failure
    with mpmath.workdps(60):
        close(out.f0, f0(), what="f(0)")
        r = rho()
        if mpmath.isinf(r):
            assert mpmath.isinf(val(out.rho)) and val(out.rho) > 0
        else:
            close(out.rho, r, what="rho")
    # DF-Thm1: with rho = oo the supremum 1 is attained (at alpha = 0) iff f(0) < 1; with finite rho it is
    # attained iff (1 - f(alpha))/alpha already equals rho at some alpha > 0 (the linear stretch of Laplace and
    # randomized response; not logistic noise): judged here from the case's own reference power at 1e-10
    if failure != "none":
        assert out.posterior_sup_attained is (failure == "catastrophic")
    else:
        with mpmath.workdps(60):
            ratio = CASES[name][1](mpmath.mpf("1e-10")) / mpmath.mpf("1e-10")
            flat = abs(ratio / rho() - 1) < mpmath.mpf(10) ** -30
        assert out.posterior_sup_attained is flat


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][3] == "none"])
def test_finite_rho_is_the_brute_force_supremum(name):
    """rho = sup_a (1 - f(a))/a, maximised over a grid by hand: never above rho, and reaching it."""
    power = CASES[name][1]
    out = risk_of(name)
    with mpmath.workdps(60):
        grid = [mpmath.mpf(10) ** -j for j in range(1, 61)] + [mpmath.mpf(i) / 200 for i in range(1, 201)]
        best = max(power(a) / a for a in grid)
        r = val(out.rho)
        assert best <= r * (1 + mpmath.mpf("1e-18"))
        assert best >= r * (1 - mpmath.mpf("1e-18"))   # the ratio tends to rho as a -> 0+ (a = 1e-60 on the grid)


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][3] != "none"])
def test_infinite_rho_means_the_ratio_is_unbounded(name):
    """(1 - f(a))/a by hand keeps growing as a -> 0 (a = 1e-2, 1e-10, 1e-100, 1e-1000), and at 1e-1000
    it is 1e5 times its value at 1e-2: no finite rho bounds it, rho = inf is right."""
    power = CASES[name][1]
    with mpmath.workdps(80):
        ratios = [power(q(a)) / q(a) for a in ("1e-2", "1e-10", "1e-100", "1e-1000")]
        assert all(x < y for x, y in zip(ratios, ratios[1:])), ratios
        assert ratios[-1] > mpmath.mpf(10) ** 5 * ratios[0]
    assert mpmath.isinf(val(risk_of(name).rho))


# ------------------------------------------------------------------ everything at alpha0 and prior
RISK_POINTS = [
    ("gaussian-1", "0.01", "0.5"),
    ("gaussian-1", "1e-1000", "0.999999999999999"),
    ("gaussian-1", "1e-1000", "1e-15"),
    ("gaussian-1", "1", "0.3"),
    ("laplace-1", "0.3", "1e-15"),                # middle piece of f
    ("laplace-1", "0.7", "0.999999999999999"),    # last piece
    ("laplace-2", "0.01", "0.5"),                 # first piece: rho_alpha0 = rho
    ("urs-1-5", "0.01", "0.5"),
    ("urs-1-5", "0.9", "1e-15"),                  # p + a > 1: power 1
    ("urs-ar-1-5", "0.1", "0.5"),
    ("urs-ar-1-5", "0.6", "0.999999999999999"),   # second piece (a > e^-1)
    ("approx-dp-1-1e-5", "1e-1000", "0.5"),
    ("logistic-2", "0.3", "1e-15"),
    ("rr-2", "0.01", "0.999999999999999"),
    ("rr-2", "0.7", "0.5"),
    ("classical-gaussian-1-1e-5", "1e-300", "0.5"),
]


@pytest.mark.parametrize("name, alpha0, prior", RISK_POINTS)
def test_risk_report_at_alpha0(name, alpha0, prior):
    power, _, failure, rho = CASES[name][1:]
    out = risk_of(name, alpha0, prior)
    # 80 digits suffice at alpha0 = 1e-1000: mpf exponents are unbounded, the quantile comes from
    # log PhiBar (no 1 - alpha), and test_gaussian_power_at_alpha_1e_minus_1000 checks it at 1100
    with mpmath.workdps(80):
        a0, p, pc = q(alpha0), q(prior), qc(prior)
        pw = power(a0)
        den = pc * a0 + p * pw
        close(out.power_alpha0, pw, what="power_alpha0")
        close(out.rho_alpha0, pw / a0, what="rho_alpha0")
        close(out.posterior_alpha0, p * pw / den, what="posterior_alpha0")
        close(out.one_minus_posterior_alpha0, pc * a0 / den, what="one_minus_posterior_alpha0")
        r = rho()
        if mpmath.isinf(r):
            close(out.posterior_sup, 1, what="posterior_sup")
            assert val(out.one_minus_posterior_sup) == 0
        else:
            close(out.posterior_sup, p * r / (p * r + pc), what="posterior_sup")
            close(out.one_minus_posterior_sup, pc / (p * r + pc), what="one_minus_posterior_sup")
            # DF-rho-a0: (1 - f(a))/a is non-increasing, so rho_alpha0 <= rho
            assert val(out.rho_alpha0) <= r * (1 + TOL)


def test_gaussian_power_at_alpha_1e_minus_1000():
    """The catalog's 1.6914...e-971, and 30 digits against the 1100-digit Newton reference
    (which also confirms the 80-digit reference used by the other tests)."""
    out = risk_of("gaussian-1", "1e-1000", "0.5", 30)
    with mpmath.workdps(80):
        ref80 = gauss_power(1, q("1e-1000"))
    with mpmath.workdps(1100):
        ref = gauss_power(1, q("1e-1000"))
        assert mpmath.nstr(ref, 5) == "1.6914e-971"      # catalog value (leading digits)
        assert abs(ref80 / ref - 1) < mpmath.mpf("1e-70")
        close(out.power_alpha0, ref, mpmath.mpf("1e-28"), "power at 1e-1000")
        # rho_alpha0 = power/alpha = 1.69e29: the unbounded ratio of the graceful failure
        close(out.rho_alpha0, ref / q("1e-1000"), mpmath.mpf("1e-28"), "rho_alpha0")


# ------------------------------------------------------------------ posterior(record, prior, alpha)
POSTERIOR_POINTS = [
    ("gaussian-1", "0.5", "0.05"),
    ("gaussian-1", "1e-15", "1e-1000"),
    ("gaussian-1", "0.999999999999999", "1e-1000"),
    ("gaussian-1", "0.999999999999999", "0.2"),
    ("laplace-1", "1e-15", "0.3"),
    ("laplace-1", "0.999999999999999", "1e-300"),
    ("urs-1-5", "1e-15", "1e-1000"),
    ("urs-1-5", "0.5", "1"),
    ("logistic-2", "0.999999999999999", "0.01"),
]


@pytest.mark.parametrize("name, prior, alpha", POSTERIOR_POINTS)
def test_posterior(name, prior, alpha):
    power = CASES[name][1]
    out = NR.posterior(rec(name), prior, alpha, DIGITS)
    with mpmath.workdps(80):
        a, p, pc = q(alpha), q(prior), qc(prior)
        pw = power(a)
        den = pc * a + p * pw
        close(out.posterior, p * pw / den, what="posterior")
        close(out.one_minus_posterior, pc * a / den, what="1 - posterior")


@pytest.mark.parametrize("name, prior", [("gaussian-1", "0.999999999999999"), ("laplace-1", "1e-15"),
                                         ("laplace-2", "0.999999999999999"), ("urs-1-5", "1e-15"),
                                         ("logistic-2", "0.5")])
def test_posterior_at_alpha_zero_is_the_limit(name, prior):
    """alpha = 0: lim_{a->0+} p_post(a) = p rho/(p rho + 1 - p) (1 when rho = inf); for finite rho
    the hand formula at a = 1e-400 agrees with the library's limit to its 20 digits."""
    power, _, _, rho = CASES[name][1:]
    out = NR.posterior(rec(name), prior, "0", DIGITS)
    with mpmath.workdps(500):
        p, pc, r = q(prior), qc(prior), rho()
        if mpmath.isinf(r):
            close(out.posterior, 1, what="posterior(0)")
            assert val(out.one_minus_posterior) == 0
            return
        close(out.posterior, p * r / (p * r + pc), what="posterior(0)")
        close(out.one_minus_posterior, pc / (p * r + pc), what="1 - posterior(0)")
        a = q("1e-400")
        near = pc * a / (pc * a + p * power(a))
        close(out.one_minus_posterior, near, what="1 - posterior(0) against 1 - posterior(1e-400)")


def test_posterior_is_non_increasing_in_alpha():
    """DF-Def6 with (1 - f(a))/a non-increasing: p_post(a) never increases (Gaussian, prior 0.3)."""
    alphas = ["1e-100", "1e-10", "0.001", "0.01", "0.1", "0.3", "0.5", "0.9", "1"]
    got = [val(NR.posterior(rec("gaussian-1"), "0.3", a, 15).posterior) for a in alphas]
    assert all(x > y for x, y in zip(got, got[1:])), got
    with mpmath.workdps(30):
        close(got[-1], q("0.3"), mpmath.mpf("1e-13"), "p_post(1) = prior")


# ------------------------------------------------------------------ regressions (bugs found and fixed)
def test_rho_equal_to_e_keeps_the_requested_digits():
    out = risk_of("laplace-1", "0.01", "0.5", 30)
    with mpmath.workdps(60):
        ref = mpmath.nstr(+mpmath.e, 30)
    assert mpmath.nstr(out.rho, 30) == ref        # at the caller's (default) precision
    assert isinstance(out.rho, mpmath.mpf)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("prior", ["0", "1", "-0.1", "1.5"])
def test_prior_outside_open_unit_interval(prior):
    with pytest.raises(DomainError) as exc:
        NR.posterior(rec("laplace-1"), prior, "0.1")
    assert exc.value.parameter == "prior"
    with pytest.raises(DomainError) as exc:
        NR.risk(rec("laplace-1"), "0.1", prior)
    assert exc.value.parameter == "prior"


@pytest.mark.parametrize("alpha0", ["0", "-0.1", "1.5", "1.0000000000000000000001"])
def test_alpha0_outside_half_open_unit_interval(alpha0):
    with pytest.raises(DomainError) as exc:
        NR.risk(rec("laplace-1"), alpha0, "0.5")
    assert exc.value.parameter == "alpha0"


def test_alpha0_equal_to_one_is_accepted():
    out = risk_of("gaussian-1", "1", "0.3")
    with mpmath.workdps(40):
        close(out.power_alpha0, 1, what="power at 1")
        close(out.posterior_alpha0, q("0.3"), what="posterior at alpha0 = 1 is the prior")


@pytest.mark.parametrize("alpha", ["-0.1", "1.5"])
def test_posterior_alpha_outside_unit_interval(alpha):
    with pytest.raises(DomainError) as exc:
        NR.posterior(rec("laplace-1"), "0.5", alpha)
    assert exc.value.parameter == "alpha"


@pytest.mark.parametrize("ctor, param", [("laplace", "eps"), ("gaussian", "mu")])
def test_negative_parameter(ctor, param):
    with pytest.raises(DomainError) as exc:
        getattr(derive, ctor)("-1")
    assert exc.value.parameter == param


# ------------------------------------------------------------------ issue #25 item 4: tiny eps of G_mu


def test_classical_gaussian_tiny_eps_answers_in_seconds():
    """`risk classical-gaussian --eps 1e-300 --delta 0.1 --digits 30` ran past 40 s (sympy.simplify of
    rho's L'Hopital limit with mu = eps/sqrt(2 log(25/2)) written out); 1e-300 is now below the domain's floor
    1e-100 (derive/domains.py), so the floor itself is checked.  mu > 0, so G_mu is graceful:
    f(0) = 1, rho = inf, sup p_post = 1 not attained (DF-Table1, by hand).  Reference for rho_alpha0 at
    alpha0 = 0.01: Phi(PhiInv(0.01) + mu)/0.01 in plain mpmath (ncdf, erfinv) at 60 digits; with mu ~ 4e-101
    it is 1 to 30 digits."""
    import time

    from cli_runner import run
    start = time.monotonic()
    d = run(("risk", "classical-gaussian", "--eps", "1e-100", "--delta", "0.1", "--digits", "30", "--json")).json()
    assert time.monotonic() - start < 20
    assert d["failure"] == "graceful" and d["rho"] == "inf" and d["posterior_sup_attained"] is False
    with mpmath.workdps(60):
        mu = mpmath.mpf(10) ** -100 / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("12.5")))
        z = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf("0.01"))
        want = mpmath.ncdf(z + mu) / mpmath.mpf("0.01")
        assert abs(mpmath.mpf(d["rho_alpha0"]) - want) < mpmath.mpf("1e-29")


def test_classical_gaussian_small_eps_rho_alpha0_against_mpmath():
    """eps = 1e-3 was as slow (simplify against the rational 1/1000); here the digits are visible:
    rho_alpha0 = Phi(PhiInv(0.01) + mu)/0.01, mu = 1e-3/sqrt(2 log 12.5), in plain mpmath at 60 digits."""
    out = NR.risk(derive.classical_gaussian("1e-3", "0.1"), "0.01", "0.5", 30)
    assert out.failure == "graceful"
    with mpmath.workdps(60):
        mu = mpmath.mpf("1e-3") / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("12.5")))
        z = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf("0.01"))
        want = mpmath.ncdf(z + mu) / mpmath.mpf("0.01")
        assert abs(want - 1) > mpmath.mpf("1e-4")          # the answer is not the mu = 0 one
        assert abs(mpmath.mpf(out.rho_alpha0) - want) < mpmath.mpf("1e-28")


@pytest.mark.parametrize("coefficient, want", [("log(3) - log(2)", 0), ("log(2) - log(3)", "oo")])
def test_quantile_substitution_with_named_constants(coefficient, want):
    """The constants of the expression are named by signed symbols before simplify
    (derive.risk._constants_as_symbols); a limit that depends on them must still come out right.
    exp(c PhiInv(alpha)) with PhiInv(alpha) -> -oo as alpha -> 0+: 0 for c > 0, oo for c < 0 (by hand;
    log 3 > log 2).  The two signs guard against a substitution that loses the sign of c."""
    import sympy as sp

    from derive.special import PhiInv
    from derive.symbols import alpha
    c = sp.log(3) - sp.log(2) if coefficient.startswith("log(3)") else sp.log(2) - sp.log(3)
    got = R_limits._quantile_substitution(sp.exp(c * PhiInv(alpha)))
    assert got == (sp.S.Zero if want == 0 else sp.oo)
