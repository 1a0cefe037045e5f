"""numeric.fp (float64 over NumPy) against independent references.

Documented target (numeric/fp.py docstring): beta and 1 - beta relative-accurate
to about 1e-13 for the Gaussian and Laplace records, alpha in [1e-300, 1]; the
test allows 1e-12.  The references are computed here from the output laws in plain
mpmath (``_law_values``: the normal quantile by Newton on log erfc, the Laplace threshold
from its quantile; the other records through ``tests.test_mechanisms._textbook_tradeoff``,
the Neyman-Pearson trade-off of their output laws), at the *exact* binary value of each
double alpha (``Fraction(alpha)``), so input rounding plays no part; numeric.mp, which
evaluates the same SymPy expression as fp, is not used as a reference.  The tables of
tests/reference/values.py are the references of the remaining tests.
Values below the normal float range (< 2.2e-308) cannot be relative-accurate in
float64 and are skipped.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PROPERTY_CASES, assert_rel, record, rel_err
from numeric import fp, mp
from tests.reference import values as R
from tests.test_mechanisms import _textbook_tradeoff

FLOAT_MIN = 2.2250738585072014e-308
TARGET = 1e-12


def _grid():
    logs = np.linspace(-300, 0, 121)
    near_one = 1 - 10.0 ** -np.arange(1, 16)
    return np.unique(np.concatenate([10.0 ** logs, np.linspace(0.005, 0.995, 40), near_one]))


GRID = _grid()


_QUANTILES: dict = {}


def _normal_isf(a):
    """z with P(N(0,1) > z) = a (mpf a, ambient precision): Newton on log erfc from sqrt(-2 log a),
    cached per alpha (the same alphas serve every mu)."""
    key = (a, mpmath.mp.prec)
    if key not in _QUANTILES:
        if a > mpmath.mpf(1) / 2:
            z = -_normal_isf(1 - a)
        else:
            target, z = mpmath.log(a), mpmath.sqrt(-2 * mpmath.log(a)) if a < mpmath.mpf("0.3") else mpmath.mpf(0)
            for _ in range(100):
                sf = mpmath.erfc(z / mpmath.sqrt(2)) / 2
                step = (mpmath.log(sf) - target) * sf / mpmath.npdf(z)
                z += step
                if abs(step) <= mpmath.eps * 8 * max(1, abs(z)):
                    break
        _QUANTILES[key] = z
    return _QUANTILES[key]


def _law_values(name, param, a):
    """(f, 1 - f) at the exact alpha ``a`` (Fraction) from the output laws, plain mpmath, 50 digits."""
    with mpmath.workdps(50):
        al = mpmath.mpf(a.numerator) / a.denominator
        if al == 0 or al == 1:
            f = mpmath.mpf(1 - al)
            return f, 1 - f
        shift = mpmath.mpf(param)
        if name == "gaussian":
            z = _normal_isf(al)
            return mpmath.erfc((shift - z) / mpmath.sqrt(2)) / 2, mpmath.erfc((z - shift) / mpmath.sqrt(2)) / 2
        # laplace: threshold t with P(Lap(0,1) > t) = alpha, then P(Lap(eps,1) <= t) and its complement
        t = -mpmath.log(2 * al) if al <= mpmath.mpf(1) / 2 else mpmath.log(2 * (1 - al))
        x = t - shift
        return ((mpmath.exp(x) / 2, 1 - mpmath.exp(x) / 2) if x < 0 else (1 - mpmath.exp(-x) / 2, mpmath.exp(-x) / 2))


def _worst(name, param, alphas, fp_values, side):
    """(worst relative error, alpha, fp value, reference) over the grid; side 0 = f, 1 = power."""
    worst = (0.0, None, None, None)
    for a, v in zip(alphas, fp_values):
        ref = _law_values(name, param, Fraction(float(a)))[side]  # reference at the exact double alpha
        if abs(ref) < FLOAT_MIN:
            continue
        err = float(rel_err(float(v), ref))
        if err > worst[0]:
            worst = (err, float(a), float(v), mpmath.nstr(ref, 17))
    return worst


@pytest.mark.parametrize("name, param", [("gaussian", "0.5"), ("gaussian", "1"), ("gaussian", "5"),
                                         ("laplace", "0.1"), ("laplace", "1"), ("laplace", "2.5")])
def test_fp_relative_accuracy_on_log_grid(name, param):
    rec = record(name, param)
    beta = fp.tradeoff(rec, GRID)
    power = fp.power(rec, GRID)
    assert beta.shape == power.shape == GRID.shape
    wb = _worst(name, param, GRID, beta, 0)
    wp = _worst(name, param, GRID, power, 1)
    assert wb[0] <= TARGET, f"{name}({param}) beta: worst rel err {wb[0]:.3g} at alpha={wb[1]!r} (fp {wb[2]!r}, mp {wb[3]})"
    assert wp[0] <= TARGET, f"{name}({param}) power: worst rel err {wp[0]:.3g} at alpha={wp[1]!r} (fp {wp[2]!r}, mp {wp[3]})"


@pytest.mark.parametrize("key", [k for k in R.GAUSSIAN if k[1] in ("1e-20", "1e-300", "0.05", "0.5")])
def test_fp_gaussian_vs_reference(key):
    # reference: GAUSSIAN table at the exact decimal alpha; the double nearest to alpha differs by
    # < 1.2e-16 relative, and the elasticity d log(power)/d log(alpha) is below 2 at these points
    mu, alpha = key
    rec = record("gaussian", mu)
    assert_rel(fp.power(rec, float(alpha)), R.GAUSSIAN[key]["power"], TARGET, f"fp power {key}")
    assert_rel(fp.tradeoff(rec, float(alpha)), R.GAUSSIAN[key]["beta"], TARGET, f"fp beta {key}")


@pytest.mark.parametrize("key", [k for k in R.LAPLACE if len(k[1]) < 10])
def test_fp_laplace_vs_reference(key):
    # reference: LAPLACE table (alpha = 1 - 1e-30 is not a double and is left out)
    eps, alpha = key
    rec = record("laplace", eps)
    assert_rel(fp.power(rec, float(alpha)), R.LAPLACE[key]["power"], TARGET, f"fp power {key}")
    assert_rel(fp.tradeoff(rec, float(alpha)), R.LAPLACE[key]["beta"], TARGET, f"fp beta {key}")


def test_fp_log_power_far_below_float_range():
    # reference: log of GAUSSIAN[('1', '1e-100000')]['power'] taken by mpmath at 60 digits.
    # log_alpha = -1e5 ln 10 as a double differs from the exact value by < 1.5e-11 absolute, which
    # moves log(power) by < 2e-11 absolute (elasticity ~1), i.e. < 1e-16 relative.
    # Tolerance 1e-11: observed 1.3e-12, all of it from scipy.special.ndtri_exp (relative error
    # ~7e-13 at y = -2.3e5, doubled by LogPhi(x) ~ -x^2/2); no accuracy is documented below 1e-300.
    rec = record("gaussian", "1")
    la = -1e5 * math.log(10)
    with mpmath.workdps(60):
        ref = mpmath.log(mpmath.mpf(R.GAUSSIAN[("1", "1e-100000")]["power"]))
    got = fp.log_power(rec, la)
    assert math.isfinite(got)
    assert_rel(got, ref, 1e-11, "fp.log_power at 1e-100000")
    # log f = log(1 - 3e-99706) = -3e-99706 underflows to (-)0
    assert fp.log_tradeoff(rec, la) == 0


@pytest.mark.parametrize("mu", ["0.5", "1", "5"])
def test_fp_log_power_in_float_range(mu):
    # reference: mpmath log of GAUSSIAN[(mu, '1e-300')]['power']; the double log(1e-300) is within
    # 1.2e-13 absolute of -300 ln 10, which moves log(power) by ~1e-13 absolute (~2e-16 relative)
    rec = record("gaussian", mu)
    with mpmath.workdps(60):
        ref = mpmath.log(mpmath.mpf(R.GAUSSIAN[(mu, "1e-300")]["power"]))
    assert_rel(fp.log_power(rec, math.log(1e-300)), ref, TARGET)


def test_fp_array_and_scalar_shapes():
    rec = record("gaussian", "1")
    assert isinstance(fp.tradeoff(rec, 0.5), float)
    assert isinstance(fp.power(rec, 0.5), float)
    a = np.array([[0.0, 0.25], [0.5, 1.0]])
    assert fp.tradeoff(rec, a).shape == (2, 2)
    assert fp.power(rec, a).shape == (2, 2)
    b = fp.tradeoff(rec, a)
    assert b[0, 0] == 1.0 and b[1, 1] == 0.0


@pytest.mark.parametrize("mu, eps", sorted(R.GDP_PROFILE))
def test_fp_gaussian_profile_closed_form(mu, eps):
    # reference: GDP_PROFILE (brute-force supremum, no closed form)
    assert_rel(fp.profile_delta(record("gaussian", mu), float(eps)), R.GDP_PROFILE[(mu, eps)], TARGET)


def test_fp_inverse_and_symmetrized_of_symmetric_record():
    # G_mu is symmetric: f^{-1} = f; reference GAUSSIAN[('1', '0.05')]['beta']
    rec = record("gaussian", "1")
    assert_rel(fp.inverse(rec, 0.05), R.GAUSSIAN[("1", "0.05")]["beta"], TARGET)
    assert_rel(fp.symmetrized(rec, 0.05), R.GAUSSIAN[("1", "0.05")]["beta"], TARGET)


def test_fp_classical_gaussian_tiny_delta():
    # reference: plain mpmath at 60 digits: mu = 1/sqrt(2 ln(1.25e20)), G_mu(1/2) = Phi(-mu)
    with mpmath.workdps(60):
        mu = 1 / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25e20")))
        ref = mpmath.ncdf(-mu)
    assert_rel(fp.tradeoff(record("classical_gaussian", "1", "1e-20"), 0.5), ref, TARGET)


# ---------------------------------------------------------------- fp vs mp at random alpha
ALPHA = st.one_of(
    st.floats(min_value=-300, max_value=0).map(lambda e: 10.0 ** e),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=-16, max_value=-1).map(lambda e: 1 - 10.0 ** e),
)


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from([c for c in PROPERTY_CASES if c[0] in ("gaussian", "laplace")]), alpha=ALPHA)
def test_fp_matches_the_laws_relative_gaussian_laplace(case, alpha):
    # reference: _law_values (output laws, plain mpmath, 50 digits) at the exact double alpha
    rec = record(case[0], *case[1])
    refs = _law_values(case[0], case[1][0], Fraction(alpha))
    for fp_fn, ref in ((fp.tradeoff, refs[0]), (fp.power, refs[1])):
        got = fp_fn(rec, alpha)
        if abs(ref) < FLOAT_MIN:
            assert abs(got) < 1e-300  # underflow to a subnormal or 0 is all float64 can do
            continue
        assert_rel(got, ref, TARGET, f"{case} {fp_fn.__name__} alpha={alpha!r}")


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(PROPERTY_CASES), alpha=ALPHA)
def test_fp_matches_the_laws_absolute_every_record(case, alpha):
    # every record, absolute 1e-14 (piecewise-linear records cancel near their zeros, so no relative
    # claim); reference: tests.test_mechanisms._textbook_tradeoff (the Neyman-Pearson trade-off of the
    # mechanism's output laws, plain mpmath at 60 digits) at the exact double alpha
    rec = record(case[0], *case[1])
    exact = Fraction(alpha)
    with mpmath.workdps(60):
        ref = _textbook_tradeoff(case[0], case[1], mpmath.mpf(exact.numerator) / exact.denominator)
        ref_power = 1 - ref
    for fp_fn, r in ((fp.tradeoff, ref), (fp.power, ref_power)):
        got = fp_fn(rec, alpha)
        assert abs(got - float(r)) <= 1e-14, f"{case} {fp_fn.__name__} alpha={alpha!r}: {got!r} vs {r}"


# ------------------------------------------------------------------ float eps(delta) (issue #11 item 3)

_EPS_CASES = [("gaussian", ("1",)), ("gaussian", ("1e4",)), ("gaussian", ("0.01",)), ("laplace", ("1",)),
              ("randomized_response", ("1",)), ("approx_dp", ("1", "0.01")), ("classical_gaussian", ("1", "1e-5"))]


@pytest.mark.parametrize("ctor,args", _EPS_CASES)
def test_float_profile_eps_against_mp(ctor, args):
    """fp.profile_eps (float bracketing + Illinois on log delta) against mp.profile_eps at 25 verified
    digits (a different algorithm: Newton/bisection on the mp profile): relative error <= 1e-11."""
    import derive
    rec = getattr(derive, ctor)(*args)
    deltas = ["0.3", "1e-5", "1e-10", "1e-100", "1e-300"]
    got = fp.profile_eps(rec, np.array([float(d) for d in deltas]))
    for d, v in zip(deltas, got):
        ref = mp.profile_eps(rec, d, 25)
        if not mpmath.isfinite(ref) or ref == 0:
            assert v == float(ref)
        else:
            assert abs(v - ref) <= 1e-11 * ref, (d, v, ref)


def test_float_profile_eps_needs_the_log1p_form(monkeypatch):
    """Mutation: log delta taken as log(A) only (the -B/A correction dropped) is caught."""
    import derive
    import derive.stabilize as ST
    from numeric import fp as FP
    monkeypatch.setattr(ST, "log_of_difference", lambda e: ST._log_of(e.args[0]) if e.is_Add else ST._log_of(e))
    FP._LOG_PROFILE.clear()
    rec = derive.gaussian("1")
    v = FP.profile_eps(rec, 1e-5)
    FP._LOG_PROFILE.clear()
    assert abs(v - mp.profile_eps(rec, "1e-5", 20)) > 1e-6


def test_float_tradeoff_is_not_flushed_to_zero():
    """Laplace(750) at alpha = 1e-300: f = e^-750 / (4 alpha) = 4.754e-27 (mp path, 20 digits), although
    e^-750 underflows in float64; approx-dp's structural zero stays 0."""
    import derive
    rec = derive.laplace("750")
    got = fp.tradeoff(rec, np.array([1e-300, 1e-320]))
    for a, v in zip((1e-300, 1e-320), got):
        ref = mp.tradeoff(rec, Fraction(a), 20)          # the float's exact value (1e-320 is subnormal)
        assert abs(v - ref) <= 1e-12 * ref
    assert fp.tradeoff(derive.approx_dp("1", "0.01"), 0.99999) == 0.0
