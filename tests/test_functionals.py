"""Functionals and link functions of trade-off records (numeric/functionals.py, derive/functionals.py;
``dp-derive functional`` and ``dp-derive link``; seed 004 / catalog 004 Sec. 1.1 and 3).

The code integrates log|f'(x)| over x in [0, 1] from the record's SymPy trade-off function.  The
references here never touch a trade-off function: for f = T(P, Q) the slope law is the law of the
likelihood ratio, so each functional is an expectation over P of log(q/p), computed directly:
* Gaussian: mpmath quadrature over the real line of the normal densities (40 digits);
* Laplace: quadrature of the Laplace densities, split at the kinks 0 and eps;
* randomized response: the two-point sum by hand;
* Renyi: (1/(lambda-1)) log int p^lambda q^(1-lambda); Laplace zCDP: the supremum of Mironov's
  closed form D_lambda / lambda over a lambda grid (a peer formula from another paper);
* total variation: sup_S P(S) - Q(S) = 2 Phi(mu/2) - 1 for G_mu.
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from cli_runner import assert_usage_error, run
from derive.errors import DomainError
from numeric import functionals as F
from numeric.bridge import mpf_of

DPS = 40


def _gauss_expect(mu, h):
    """E_{X~N(0,1)} h(log q/p (X)) with q = N(mu, 1); split where log q/p = 0 (x = mu/2) and where it
    is -kl = -mu^2/2 (x = 0), the kinks of |l| and |l + kl|."""
    with mpmath.workdps(DPS):
        mu = mpmath.mpf(mu)
        return mpmath.quad(lambda x: mpmath.npdf(x) * h(mu * x - mu**2 / 2), [-mpmath.inf, 0, mu / 2, mpmath.inf])


def _laplace_expect(eps, h, kink=None):
    """E_{X~Lap(0,1)} h(log q/p (X)) with q = Lap(eps, 1): log q/p = |x| - |x - eps| (= 2x - eps on
    (0, eps)); ``kink``: a value l0 where h has a kink, split at x = (l0 + eps) / 2."""
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)
        pts = [-mpmath.inf, 0, e, mpmath.inf]
        if kink is not None:
            pts.insert(2, (kink + e) / 2)

        def p(x):
            return mpmath.exp(-abs(x)) / 2
        return mpmath.quad(lambda x: p(x) * h(abs(x) - abs(x - e)), pts)


def _rr_expect(eps, h):
    """Randomized response: P = (a, 1 - a), Q = (1 - a, a) with a = e^eps / (1 + e^eps)."""
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)
        a = mpmath.exp(e) / (1 + mpmath.exp(e))
        return a * h(-e) + (1 - a) * h(e)


def close(got, ref, rel=1e-13):
    got = mpf_of(got)                                       # an exact rational result (numeric.bridge.Exact)
    assert abs(got - ref) <= rel * abs(ref), (got, ref)


@pytest.mark.parametrize("mu", ["0.3", "1.3", "4"])
@pytest.mark.slow
def test_gaussian_functionals_against_the_normal_densities(mu):
    rec = derive.gaussian(mu)
    kl = _gauss_expect(mu, lambda l: -l)
    close(F.functional(rec, "kl", digits=20).value, kl)
    close(F.functional(rec, "kappa2", digits=20).value, _gauss_expect(mu, lambda l: l**2))
    close(F.functional(rec, "kappa3", digits=20).value, _gauss_expect(mu, lambda l: abs(l) ** 3))
    close(F.functional(rec, "kappabar3", digits=20).value, _gauss_expect(mu, lambda l: abs(l + kl) ** 3))
    with mpmath.workdps(DPS):
        tv = 2 * mpmath.ncdf(mpmath.mpf(mu) / 2) - 1
        r3 = mpmath.log(_gauss_expect(mu, lambda l: mpmath.exp(-2 * l))) / 2       # lambda = 3
    close(F.functional(rec, "tv", digits=20).value, tv)
    close(F.functional(rec, "renyi", order="3", digits=20).value, r3)


@pytest.mark.parametrize("eps", ["0.1", "1", "3"])
@pytest.mark.parametrize("method", ["auto", "quadrature"])
def test_laplace_functionals_against_the_densities(eps, method):
    rec = derive.laplace(eps)
    kl = _laplace_expect(eps, lambda l: -l)
    close(F.functional(rec, "kl", digits=20, method=method).value, kl)
    close(F.functional(rec, "kappa2", digits=20, method=method).value, _laplace_expect(eps, lambda l: l**2))
    close(F.functional(rec, "kappabar3", digits=20, method=method).value,
          _laplace_expect(eps, lambda l: abs(l + kl) ** 3, kink=-kl))


@pytest.mark.parametrize("eps", ["0.01", "1", "5"])
def test_randomized_response_by_hand(eps):
    rec = derive.randomized_response(eps)
    kl = _rr_expect(eps, lambda l: -l)
    close(F.functional(rec, "kl", digits=25).value, kl)
    close(F.functional(rec, "kappa2", digits=25).value, _rr_expect(eps, lambda l: l**2))
    close(F.functional(rec, "kappa3", digits=25).value, _rr_expect(eps, lambda l: abs(l) ** 3))
    close(F.functional(rec, "kappabar3", digits=25).value, _rr_expect(eps, lambda l: abs(l + kl) ** 3))
    # pure-DP link: the slopes at the ends are -e^{-eps}... -e^{eps}: eps exactly
    close(F.link(rec, "pure", digits=25).value, mpmath.mpf(eps))


def test_laplace_zcdp_is_the_sup_of_mironovs_renyi():
    # Mironov (2017) Table II: D_lambda(Lap) = 1/(lambda-1) log(lambda/(2lambda-1) e^{(lambda-1) eps}
    #                                                         + (lambda-1)/(2lambda-1) e^{-lambda eps})
    with mpmath.workdps(DPS):
        e = mpmath.mpf(1)

        def d(lam):
            return mpmath.log(lam / (2 * lam - 1) * mpmath.exp((lam - 1) * e)
                              + (lam - 1) / (2 * lam - 1) * mpmath.exp(-lam * e)) / (lam - 1)
        grid = [1 + mpmath.mpf(10) ** (-k / mpmath.mpf(4)) for k in range(0, 60)] + \
               [1 + mpmath.mpf(j) / 10 for j in range(1, 200)]
        sup = max(d(lam) / lam for lam in grid)
        # the sup is approached as lambda -> 1 (the KL); the grid's best is just below it
        close(F.link(derive.laplace("1"), "zcdp", digits=20).value, sup, rel=1e-9)
        close(F.link(derive.laplace("1"), "renyi", order="2", digits=20).value, d(mpmath.mpf(2)))


def test_gaussian_zcdp_and_renyi_closed_forms():
    v = F.link(derive.gaussian("2"), "zcdp", digits=20)
    close(v.value, mpmath.mpf(2))                        # mu^2 / 2 (Bun-Steinke 2016, Prop. 1.6)
    close(F.link(derive.gaussian("2"), "renyi", order="5", digits=20).value, mpmath.mpf(10))   # lambda mu^2/2


def test_divergent_functional_says_why():
    with pytest.raises(DomainError) as e:
        F.functional(derive.approx_dp("1", "0.01"), "kl")
    assert "kl" in str(e.value)


def _dg_shifted(c, s2):
    """Z(c) = sum_z exp(-(z - c)^2/(2 s2)) by Poisson summation (a different series from the direct sum the
    code uses): sqrt(2 pi s2) (1 + 2 sum_k exp(-2 pi^2 s2 k^2) cos(2 pi k c))."""
    return mpmath.sqrt(2 * mpmath.pi * s2) * (1 + 2 * mpmath.nsum(
        lambda k: mpmath.exp(-2 * mpmath.pi ** 2 * s2 * k ** 2) * mpmath.cos(2 * mpmath.pi * k * c), [1, mpmath.inf]))


@pytest.mark.parametrize("s2", ["0.5", "2", "30"])
def test_discrete_gaussian_functionals_against_theta_functions(s2):
    """The discrete Gaussian's functionals are sums over the integers (numeric.discrete_gaussian); the
    references: kl = 1/(2 s2) (E Z = 0 for the even pmf), TV = 1/Zn with Zn the Jacobi theta function
    theta_3(0, e^(-1/(2 s2))), D_lambda = lambda/(2 s2) + log(Z(1 - lambda)/Z(0))/(lambda - 1) with Z by
    Poisson summation, rho = 1/(2 s2) (CKS20), kappabar3 = E|Z|^3/s2^3 (exact centring; nsum)."""
    with mpmath.workdps(40):
        x = mpmath.mpf(s2)
        rec = derive.discrete_gaussian(s2)
        zn = mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * x)))
        close(F.functional(rec, "kl", digits=25).value, 1 / (2 * x), 1e-24)
        close(F.functional(rec, "tv", digits=25).value, 1 / zn, 1e-24)
        close(F.link(rec, "zcdp", digits=25).value, 1 / (2 * x), 1e-24)
        for lam in ("1.5", "2", "3.25"):
            lm = mpmath.mpf(lam)
            ref = lm / (2 * x) + mpmath.log(_dg_shifted(1 - lm, x) / _dg_shifted(0, x)) / (lm - 1)
            close(F.functional(rec, "renyi", order=lam, digits=25).value, ref, 1e-24)
        third = mpmath.nsum(lambda z: abs(z) ** 3 * mpmath.exp(-z ** 2 / (2 * x)), [-mpmath.inf, mpmath.inf]) / zn
        close(F.functional(rec, "kappabar3", digits=25).value, third / x ** 3, 1e-24)
        second = mpmath.nsum(lambda z: z ** 2 * mpmath.exp(-z ** 2 / (2 * x)), [-mpmath.inf, mpmath.inf]) / zn
        close(F.functional(rec, "kappa2", digits=25).value, (4 * second + 1) / (4 * x ** 2), 1e-24)
        # mu3 is reported as an exact 0 by the z -> -z symmetry; the sum itself (numeric.discrete_gaussian,
        # not the symmetry argument) must agree to the working precision
        assert F.functional(rec, "mu3").value.p == 0
        from numeric import discrete_gaussian as DG
        assert abs(DG.functional("mu3", x)) < mpmath.mpf(10) ** -30 * DG.functional("kappabar3", x)
        assert F.link(rec, "pure").value == mpmath.inf


def test_discrete_gaussian_functionals_cli():
    r = run(["link", "discrete-gaussian", "--sigma2", "2", "--to", "zcdp", "--json"])
    assert r.rc == 0 and r.json()["rho"].startswith("0.25") and r.json()["method"] == "sum"
    assert_usage_error(run(["functional", "discrete-gaussian", "--sigma2", "2", "--name", "kl", "--method", "sympy"]),
                       "method")
    assert run(["link", "discrete-gaussian", "--sigma2", "1", "--to", "approx", "--at-delta", "1e-5"]).rc == 0


def test_piecewise_records_beyond_the_decidable_range_are_refused():
    # e^(+-1e300) cancels beyond any precision when the pieces of f_{eps,0} are ordered
    assert_usage_error(run(["functional", "randomized-response", "--eps", "1e300", "--name", "kl"]), "epsilon")
    # 700 is decided exactly (the two cuts 1/(1 + e^700) and e^-700 agree to ~600 digits)
    r = run(["functional", "randomized-response", "--eps", "700", "--name", "kl", "--json"])
    assert r.rc == 0 and "tanh" in r.json()["latex"]


def test_cli_bad_input():
    assert_usage_error(run(["functional", "gaussian", "--mu", "1", "--name", "renyi"]), "order")
    assert_usage_error(run(["functional", "gaussian", "--mu", "1", "--name", "kl", "--order", "2"]), "order")
    assert_usage_error(run(["link", "gaussian", "--mu", "1", "--to", "approx"]), "at_delta")


def test_cli_prints_the_closed_form():
    out = run(["functional", "gaussian", "--mu", "1", "--name", "kappa2", "--json"])
    assert out.rc == 0
    import json
    d = json.loads(out.out)
    assert abs(float(d["value"]) - 1.25) < 1e-14        # mu^2 + mu^4/4 at mu = 1


# ----------------------------------------------------- the logistic pair (issue #25 item 4) ----------

def _logistic_expect(m, h, kinks=()):
    """E_{X~Logistic(0,1)} h(log q/p (X)) with q = Logistic(m, 1), by quadrature of the logistic densities
    over the real line (never the trade-off function); ``kinks``: values l0 where h has a kink, split at the
    x where log q/p = l0 (log q/p increases in x from -m to m: mpmath.findroot in a bracket)."""
    with mpmath.workdps(DPS):
        m = mpmath.mpf(m)

        def logpdf(x):
            return -x - 2 * mpmath.log1p(mpmath.exp(-x)) if x > 0 else x - 2 * mpmath.log1p(mpmath.exp(x))

        def loss(x):
            return logpdf(x - m) - logpdf(x)
        pts = [-mpmath.inf, m / 2, mpmath.inf]
        for k in kinks:
            pts.insert(1, mpmath.findroot(lambda x: loss(x) - k, (m / 2 - 60, m / 2 + 60), solver="illinois"))
        return mpmath.quad(lambda x: mpmath.exp(logpdf(x)) * h(loss(x)), sorted(pts))


@pytest.mark.parametrize("m", ["1", "0.25", "6"])
def test_logistic_functionals_against_the_densities(m):
    rec = derive.noise("logistic", m)
    kl = _logistic_expect(m, lambda v: -v)
    with mpmath.workdps(DPS):
        refs = {"kl": kl, "kappa2": _logistic_expect(m, lambda v: v * v),
                "kappa3": _logistic_expect(m, lambda v: abs(v) ** 3, [0]),
                "kappabar3": _logistic_expect(m, lambda v: abs(v + kl) ** 3, [-kl]),
                "mu3": _logistic_expect(m, lambda v: (v + kl) ** 3),
                # TV = P(X < m/2) - Q(X < m/2) = F(m/2) - F(-m/2) = tanh(m/4), F the logistic CDF
                "tv": mpmath.tanh(mpmath.mpf(m) / 4),
                "renyi": mpmath.log(_logistic_expect(m, lambda v: mpmath.exp(-v))),    # order 2
                }
    for name, ref in refs.items():
        got = F.functional(rec, name, order="2" if name == "renyi" else None, digits=30)
        assert got.method == "sympy", (name, got.method)       # the closed form, not quadrature
        close(got.value, ref, 1e-25)
    # the exponential mechanism is the same pair (its fact LOGISTIC_SHIFT): the same numbers
    close(F.functional(derive.exponential(m, 3), "kappa3", digits=30).value, refs["kappa3"], 1e-25)


def test_logistic_kl_at_a_tiny_shift_against_the_series():
    """m = 1e-300: the closed form cancels 600 digits (verified at rising precision).  Reference: kl = E_P[-l]
    = m coth(m/2) - 2 = m^2/6 - m^4/360 + ..., from x coth x = 1 + x^2/3 - x^4/45 + ... (not the library's
    expression, which is the integral itself); kappa3 ~ m^3/4 (|l| nearly uniform on [0, m])."""
    rec = derive.noise("logistic", "1e-300")
    with mpmath.workdps(50):
        m = mpmath.mpf(10) ** -300
        close(F.functional(rec, "kl", digits=30).value, m * m / 6 - m ** 4 / 360, 1e-28)
        close(F.functional(rec, "kappa3", digits=30).value, m ** 3 / 4, 1e-28)


def test_logistic_kappa3_at_1000_digits_in_seconds():
    """`functional noise --family logistic --mu 1 --name kappa3 --digits 1000` took ~35 s by tanh-sinh
    quadrature; the closed form takes well under a second.  Its first 30 digits against the densities."""
    import time
    start = time.monotonic()
    d = run(("functional", "noise", "--family", "logistic", "--mu", "1", "--name", "kappa3", "--digits", "1000",
             "--json")).json()
    assert time.monotonic() - start < 10
    ref = _logistic_expect("1", lambda v: abs(v) ** 3, [0])
    with mpmath.workdps(DPS):
        assert abs(mpmath.mpf(d["value"][:40]) - ref) < mpmath.mpf("1e-30")
    assert len(d["value"].replace(".", "").lstrip("0")) >= 1000


def test_logistic_at_zero_shift_keeps_the_general_route():
    # m = 0: f = 1 - alpha, every functional is 0 (the closed forms would be 0/0); the slope law gives 0
    assert mpf_of(F.functional(derive.noise("logistic", "0"), "kappa3").value) == 0
