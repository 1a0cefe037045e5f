"""Inputs: exact parsing, domain errors that name the parameter, and no NaN for valid inputs."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

import derive
from conftest import record
from derive.errors import DomainError
from derive.exact import parse, rational
from numeric import fp, mp

BAD_ALPHAS = ["-0.1", "1.5", "nan", "inf", "abc", "1e-2000000", "", "1/2", "0x1p-3", "1e", "--1"]


def _assert_domain_error(excinfo, parameter):
    err = excinfo.value
    assert isinstance(err, DomainError)
    assert err.parameter == parameter
    assert parameter in str(err)


# ---------------------------------------------------------------- alpha
@pytest.mark.parametrize("alpha", BAD_ALPHAS)
@pytest.mark.parametrize("fn", [mp.tradeoff, mp.power])
def test_mp_bad_alpha(fn, alpha):
    with pytest.raises(DomainError) as excinfo:
        fn(record("gaussian", "1"), alpha)
    _assert_domain_error(excinfo, "alpha")


@pytest.mark.parametrize("alpha", [-0.1, 1.5, float("nan"), float("inf"), -float("inf")])
@pytest.mark.parametrize("fn", [mp.tradeoff, fp.tradeoff, fp.power])
def test_bad_float_alpha(fn, alpha):
    with pytest.raises(DomainError) as excinfo:
        fn(record("laplace", "1"), alpha)
    _assert_domain_error(excinfo, "alpha")


def test_fp_bad_alpha_inside_an_array():
    with pytest.raises(DomainError) as excinfo:
        fp.tradeoff(record("gaussian", "1"), np.array([0.1, 0.2, 1.5]))
    _assert_domain_error(excinfo, "alpha")


def test_bad_log_alpha():
    with pytest.raises(DomainError) as excinfo:
        fp.log_power(record("gaussian", "1"), 0.5)
    _assert_domain_error(excinfo, "log_alpha")
    with pytest.raises(DomainError) as excinfo:
        mp.log_power(record("gaussian", "1"), "0.5")
    _assert_domain_error(excinfo, "log_alpha")


def test_huge_exponent_is_refused_quickly():
    # 10**-2000000 would need a 2-million-digit integer: refused by the exponent bound
    with pytest.raises(DomainError, match="exponent"):
        rational("alpha", "1e-2000000")
    with pytest.raises(DomainError, match="exponent"):
        rational("alpha", "1e+2000000")


# ---------------------------------------------------------------- parameters
@pytest.mark.parametrize("call, parameter", [
    (lambda: derive.gaussian("-1"), "mu"),
    (lambda: derive.gaussian("nan"), "mu"),
    (lambda: derive.gaussian(float("inf")), "mu"),
    (lambda: derive.classical_gaussian("-1", "0.1"), "eps"),
    (lambda: derive.classical_gaussian("1", "0"), "delta"),
    (lambda: derive.classical_gaussian("1", "1"), "delta"),
    (lambda: derive.laplace("-1"), "eps"),
    (lambda: derive.laplace("-1e-300"), "eps"),
    (lambda: derive.approx_dp("-1", "0"), "eps"),
    (lambda: derive.approx_dp("1", "1"), "delta"),
    (lambda: derive.approx_dp("1", "-0.1"), "delta"),
    (lambda: derive.randomized_response("-1"), "eps"),
    (lambda: derive.uniform_sampling("-1", 5), "mu"),
    (lambda: derive.uniform_sampling("1", 0), "n"),
    (lambda: derive.uniform_sampling("1", "0"), "n"),
    (lambda: derive.uniform_sampling("1", "2.5"), "n"),
    (lambda: derive.uniform_sampling("1", 5, "swap"), "neighbours"),
    (lambda: derive.noise("logistic", "-1"), "mu"),
    (lambda: derive.noise("cauchy", "1"), "family"),
])
def test_bad_parameters(call, parameter):
    with pytest.raises(DomainError) as excinfo:
        call()
    _assert_domain_error(excinfo, parameter)


@pytest.mark.parametrize("value", [True, sp.Symbol("t"), sp.Float("0.5"), None, [0.5]])
def test_non_numbers_are_refused(value):
    with pytest.raises(DomainError) as excinfo:
        rational("mu", value)
    _assert_domain_error(excinfo, "mu")


def test_profile_arguments():
    # eps < 0 and delta = 1 are answered since issue #11 (tests/test_profile_edges.py); these are not
    with pytest.raises(DomainError) as excinfo:
        mp.profile_delta(record("gaussian", "1"), "abc")
    _assert_domain_error(excinfo, "eps")
    with pytest.raises(DomainError) as excinfo:
        mp.profile_eps(record("gaussian", "1"), "1.5")
    _assert_domain_error(excinfo, "delta")


def test_message_names_value_and_range():
    with pytest.raises(DomainError) as excinfo:
        derive.approx_dp("1", "1")
    msg = str(excinfo.value)
    assert msg.startswith("delta=1:") and "[0, 1)" in msg


# ---------------------------------------------------------------- exact parsing
@pytest.mark.parametrize("text, expected", [
    ("0.1", Fraction(1, 10)), ("1e-300", Fraction(1, 10**300)), ("+2.50", Fraction(5, 2)),
    (".5", Fraction(1, 2)), ("5.", Fraction(5)), ("-3E2", Fraction(-300)), (" 7 ", Fraction(7)),
    (0.1, Fraction(1, 10)), (3, Fraction(3)), (Fraction(2, 7), Fraction(2, 7)),
    (sp.Rational(2, 7), Fraction(2, 7)),
])
def test_exact_parsing(text, expected):
    r = rational("x", text)
    assert isinstance(r, sp.Rational)
    assert Fraction(int(r.p), int(r.q)) == expected


def test_parse_large_exponent_within_bound():
    r = parse("alpha", "1e-100000", 0, 1)
    assert r.p == 1 and r.q == 10**100000


# ---------------------------------------------------------------- no NaN for valid inputs
# Parameters stay below exp overflow (709.78); beyond it see test_fp_in_range_beyond_exp_overflow and
# test_fp_accurate_beyond_exp_overflow below (NaN no longer occurs there: fp._run recomputes it by the mp path).
EPS = st.sampled_from(["0", "1e-9", "0.3", "1", "5", "40", "300", "700"])
RECORDS = st.one_of(
    st.floats(min_value=0, max_value=700).map(lambda m: record("gaussian", repr(m))),
    EPS.map(lambda e: record("laplace", e)),
    EPS.map(lambda e: record("randomized_response", e)),
    st.sampled_from([("0", "0"), ("1", "1e-300"), ("5", "0.5"), ("700", "0.999999"), ("1e-9", "1e-10"),
                     ("300", "0")]).map(lambda a: record("approx_dp", *a)),
    st.tuples(st.sampled_from(["0", "1e-9", "1", "40", "700"]), st.sampled_from([1, 2, 10, 10**6]),
              st.sampled_from(["replacement", "add-remove"])).map(lambda a: record("uniform_sampling", *a)),
    st.sampled_from([("1", "1e-18"), ("0", "0.5"), ("50", "1e-5"), ("1e-9", "0.999")])
      .map(lambda a: record("classical_gaussian", *a)),
    st.sampled_from(["0", "1", "30", "700"]).map(lambda m: record("noise", "logistic", m)),
)
ALPHAS = st.lists(st.one_of(st.floats(0, 1), st.floats(-330, 0).map(lambda e: 10.0 ** e),
                            st.sampled_from([0.0, 5e-324, 1.0, 1 - 2**-53, 0.5])), min_size=1, max_size=20)


@settings(max_examples=30, deadline=None)
@given(rec=RECORDS, alphas=ALPHAS)
def test_fp_never_nan_for_valid_inputs(rec, alphas):
    a = np.array(alphas)
    b, p = fp.tradeoff(rec, a), fp.power(rec, a)
    assert not np.isnan(b).any(), f"{rec}: NaN tradeoff at {a[np.isnan(b)]}"
    assert not np.isnan(p).any(), f"{rec}: NaN power at {a[np.isnan(p)]}"
    assert ((b >= 0) & (b <= 1) & (p >= 0) & (p <= 1)).all()
    la = np.log(np.maximum(a, 5e-324))
    assert not np.isnan(fp.log_power(rec, la)).any()


@settings(max_examples=15, deadline=None)
@given(rec=RECORDS, mant=st.integers(1, 999), e10=st.integers(0, 5000))
# uniform sampling with mu = 0 (p = -expm1(-0)/n = 0) always runs: it was once dropped here (issue #24, item 5)
@example(rec=record("uniform_sampling", "0", 10, "add-remove"), mant=1, e10=0)
@example(rec=record("uniform_sampling", "0", 1, "replacement"), mant=999, e10=5000)
def test_mp_never_nan_for_valid_inputs(rec, mant, e10):
    alpha = f"{mant}e-{e10 + 3}"
    for fn in (mp.tradeoff, mp.power):
        v = fn(rec, alpha, 15)
        assert not mpmath.isnan(v) and 0 <= v <= 1


@pytest.mark.parametrize("name, args, fn, alpha, expected", [
    ("laplace", ("800",), "tradeoff", 0.0, 1.0),
    ("approx_dp", ("800", "0"), "tradeoff", 0.0, 1.0),
    ("randomized_response", ("1000",), "tradeoff", 0.0, 1.0),
    ("noise", ("logistic", "800"), "power", 0.5, 1.0),
])
def test_fp_no_nan_beyond_exp_overflow(name, args, fn, alpha, expected):
    # reference: f(0) = 1 for these mechanisms; logistic power(1/2) = e^mu/(1 + e^mu) = 1 - 4e-348 -> 1.0
    rec = record(name, *args)
    got = getattr(fp, fn)(rec, alpha)
    assert not math.isnan(got) and got == expected


@pytest.mark.parametrize("name, args, fn, alpha", [
    ("laplace", ("800",), "tradeoff", "0"),
    ("approx_dp", ("800", "0"), "tradeoff", "0"),
    ("randomized_response", ("1000",), "tradeoff", "0"),
    ("noise", ("logistic", "800"), "power", "0.5"),
])
def test_mp_beyond_exp_overflow(name, args, fn, alpha):
    # reference: f(0) = 1 exactly; logistic power(1/2) = e^800/(1 + e^800) = 1 - 3.7e-348 (plain mpmath, 400 digits)
    got = getattr(mp, fn)(record(name, *args), alpha, 20)
    if alpha == "0":
        assert got == 1
    else:
        with mpmath.workdps(400):
            ref = mpmath.exp(800) / (1 + mpmath.exp(800))
            assert abs(got - ref) <= mpmath.mpf(10) ** -19


# ---------------------------------------------------------------- parameters beyond exp overflow
def _beyond(name, args, reason=None, raises=AssertionError):
    marks = [pytest.mark.xfail(strict=True, raises=raises, reason=reason)] if reason else []
    return pytest.param(name, args, marks=marks, id=f"{name}{list(args)}")


#: fixed in numeric/fp.py (_run): Laplace 709.78 < eps < ~745 gave -inf / +inf at alpha < e^-eps/2 (1 - e^eps alpha
#: with e^eps = inf); the logistic family at mu > 709.78 gave f = 0 (e^mu = inf) where f = 3.7e-48 (mu = 800,
#: alpha = 1e-300).  An evaluation that overflows now has its end-of-range values recomputed by the mp path.
SUBNORMAL_ALPHAS = np.array([0.0, 5e-324, 1e-320, 1e-315, 1e-310, 1e-308, 1e-300, 1e-20, 0.5, 1 - 2**-53, 1.0])


@pytest.mark.parametrize("name, args", [
    _beyond("gaussian", ("800",)), _beyond("gaussian", ("1e300",)),
    _beyond("laplace", ("710",)), _beyond("laplace", ("720",)),
    _beyond("laplace", ("745",)), _beyond("laplace", ("800",)), _beyond("laplace", ("1e300",)),
    _beyond("randomized_response", ("710",)), _beyond("randomized_response", ("1e300",)),
    _beyond("approx_dp", ("710", "0")), _beyond("approx_dp", ("710", "0.5")), _beyond("approx_dp", ("1e300", "0")),
    _beyond("uniform_sampling", ("800", 10, "add-remove")), _beyond("uniform_sampling", ("1e300", 1, "replacement")),
    _beyond("classical_gaussian", ("800", "1e-5")),
    _beyond("noise", ("logistic", "710")), _beyond("noise", ("logistic", "800")),
])
def test_fp_in_range_beyond_exp_overflow(name, args):
    """test_fp_never_nan_for_valid_inputs' property with the parameter beyond exp overflow (709.78),
    alpha down to the smallest subnormal."""
    rec = record(name, *args)
    with np.errstate(all="ignore"):
        b, p = fp.tradeoff(rec, SUBNORMAL_ALPHAS), fp.power(rec, SUBNORMAL_ALPHAS)
    a = SUBNORMAL_ALPHAS
    assert not np.isnan(b).any() and not np.isnan(p).any(), f"NaN at {a[np.isnan(b) | np.isnan(p)]}"
    bad = ~((b >= 0) & (b <= 1) & (p >= 0) & (p <= 1))
    assert not bad.any(), f"outside [0, 1] at alpha = {a[bad]}: beta {b[bad]}, power {p[bad]}"


def _reference(name, args, alpha: str):
    """(f(alpha), 1 - f(alpha)) from the textbook closed forms in plain mpmath (400 digits, alpha exact):
    Laplace F(F^{-1}(1 - alpha) - eps) with F^{-1}(1 - a) = -ln(2a) for a <= 1/2; f_{eps,delta} =
    max(0, 1 - delta - e^eps a, e^-eps (1 - delta - a)) (randomized response: delta = 0); logistic
    F(F^{-1}(1 - a) - mu) = (1 - a)/(1 - a + e^mu a)."""
    with mpmath.workdps(400):
        a, t = mpmath.mpf(alpha), mpmath.mpf(args[-1] if name == "noise" else args[0])
        if name == "laplace":
            q = -mpmath.log(2 * a) if a <= mpmath.mpf(1) / 2 else mpmath.log(2 - 2 * a)
            x = q - t
            f = mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2
        elif name in ("approx_dp", "randomized_response"):
            d = mpmath.mpf(args[1]) if name == "approx_dp" else mpmath.mpf(0)
            f = max(mpmath.mpf(0), 1 - d - mpmath.exp(t) * a, mpmath.exp(-t) * (1 - d - a))
        else:
            f = (1 - a) / (1 - a + mpmath.exp(t) * a)
        return float(f), float(1 - f)


ALPHAS_IN_FLOAT_RANGE = ["1e-300", "1e-200", "1e-20", "0.01", "0.5", "0.99"]  # fp's documented range [1e-300, 1]


@pytest.mark.parametrize("name, args", [
    _beyond("laplace", ("710",)), _beyond("laplace", ("745",)), _beyond("laplace", ("800",)),
    _beyond("randomized_response", ("710",)), _beyond("approx_dp", ("710", "0")),
    _beyond("approx_dp", ("710", "0.5")), _beyond("approx_dp", ("800", "1e-5")),
    _beyond("noise", ("logistic", "710")), _beyond("noise", ("logistic", "800")),
])
def test_fp_accurate_beyond_exp_overflow(name, args):
    # reference: _reference (closed forms in plain mpmath, 400 digits), rounded once to float64
    rec = record(name, *args)
    for alpha in ALPHAS_IN_FLOAT_RANGE:
        ref_b, ref_p = _reference(name, args, alpha)
        got_b, got_p = fp.tradeoff(rec, float(alpha)), fp.power(rec, float(alpha))
        for got, ref, what in ((got_b, ref_b, "tradeoff"), (got_p, ref_p, "power")):
            assert abs(got - ref) <= 1e-12 * abs(ref) + 1e-320, f"{what}({alpha}) = {got!r}, reference {ref!r}"


@pytest.mark.parametrize("digits", [0, -1, 1001, 2.5, True, "15"])
def test_api_digits_outside_the_domain_are_refused(digits):
    """issue #11: the API accepted digits = 0 (a 'verification' of no digit)."""
    import derive
    from derive.errors import DomainError
    from numeric import mp
    with pytest.raises(DomainError) as exc:
        mp.tradeoff(derive.gaussian("1"), "0.1", digits)
    assert exc.value.parameter == "digits"


@pytest.mark.parametrize("mu", ["710", "800"])
def test_fp_log_forms_beyond_exp_overflow(mu):
    """The logistic family past exp overflow in the log forms: log_alpha = -inf (alpha = 0) used to raise
    DomainError (the mp fallback was handed '-inf'), and log f at log_alpha = -700 came out -inf.
    Reference: log f = log((1 - a)/(1 - a + e^mu a)) and log(1 - f) in plain mpmath, 400 digits."""
    rec = record("noise", "logistic", mu)
    la = np.array([-np.inf, -700.0, -50.0, -1.0, 0.0])
    got_f, got_p = fp.log_tradeoff(rec, la), fp.log_power(rec, la)
    with mpmath.workdps(400):
        for i, l in enumerate(la):
            if l == -np.inf:
                ref_f, ref_p = 0.0, -np.inf
            else:
                a = mpmath.exp(mpmath.mpf(l))
                f = (1 - a) / (1 - a + mpmath.exp(mpmath.mpf(mu)) * a)
                ref_f = float(mpmath.log(f)) if f > 0 else -np.inf
                ref_p = float(mpmath.log(1 - f))
            for got, ref, what in ((got_f[i], ref_f, "log f"), (got_p[i], ref_p, "log(1 - f)")):
                assert got == ref or abs(got - ref) <= 1e-12 * abs(ref) + 1e-300, (what, l, got, ref)


def test_integers_of_other_types_are_taken_exactly():
    """mpmath's mantissas are gmpy2 mpz under its gmpy2 backend; a Fraction built from one keeps the mpz, which
    SymPy's Rational turns into a float (and refuses): rational() takes both exactly.  The reference is the
    Fraction's own integer arithmetic."""
    import gmpy2
    big = gmpy2.mpz(3) * 10 ** 50
    assert rational("x", Fraction(big, 7)) == sp.Rational(3 * 10 ** 50, 7)
    assert rational("x", big) == sp.Integer(3 * 10 ** 50)
    x = mpmath.mpf("0.1")
    man, exp = x.man_exp
    assert rational("alpha", Fraction(man) * Fraction(2) ** exp) == sp.Rational(3602879701896397, 2 ** 55)
