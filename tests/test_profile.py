"""Privacy profiles, their inverse, the conjugate, f^{-1} and the dual-to-primal conversion (numeric.mp).

Reference provenance:
* GDP_PROFILE in tests/reference/values.py: brute-force supremum (grid + golden
  section over t = Phi^{-1}(alpha), naive G_mu), no closed form;
* ``_brute_sup`` below: a brute-force supremum written here in plain mpmath
  (grid in log alpha + golden section), of 1 - f(alpha) - s alpha with the Laplace
  f taken from its *definition* F(F^{-1}(1 - alpha) - eps) (standard Laplace CDF and
  quantile), not from the library's three-piece form;
* ``_profile_reference``: the hockey-stick divergence of the canonical discrete output
  laws (f_{eps,delta}, randomized response, uniform sampling), or ``_brute_sup`` with the
  Laplace / Gaussian trade-off from its definition; both the record's closed form and the
  library's generic supremum (record copied with ``profile=None``) are compared with it;
* hand algebra for the uniform-sampling inverse (comments).

eps(delta) and f^{-1} once looped forever (a bisection stopping rule finer than one ulp);
they are fixed (checked for issue #24 item 5), and their tests, with the generic supremum of a
zero profile, are ordinary tests that run the call under ``conftest.call_with_timeout``: a
regression fails with ``conftest.Hang`` after HANG_SECONDS instead of stalling the suite.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import mpmath
import pytest

from conftest import assert_rel, call_with_timeout, mpf_to_fraction, record
from numeric import mp
from tests.reference import values as R

TOL30 = mpmath.mpf("1e-29")
TOL25 = mpmath.mpf("1e-24")
HANG_SECONDS = 5.0  # hang guard only: each guarded call answers in 0.05-0.45 s (generic supremum the slowest)


# ---------------------------------------------------------------- independent brute force (plain mpmath)
def _laplace_f_definition(alpha, eps):
    """f(alpha) = F(F^{-1}(1 - alpha) - eps) for the standard Laplace law, at the ambient precision."""
    p = 1 - alpha
    q = mpmath.log(2 * p) if p < mpmath.mpf(1) / 2 else -mpmath.log(2 - 2 * p)
    x = q - eps
    return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2


def _brute_sup(f, s, dps=50):
    """sup over alpha in [0, 1] of 1 - f(alpha) - s alpha: grid in log alpha, then golden section."""
    with mpmath.workdps(dps):
        h = lambda u: 1 - f(mpmath.exp(u)) - s * mpmath.exp(u)  # noqa: E731
        grid = [mpmath.mpf(-40) + mpmath.mpf(k) / 10 for k in range(401)]  # alpha in [e^-40, 1]
        vals = [h(u) for u in grid]
        k = max(range(len(grid)), key=lambda i: vals[i])
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        g = (mpmath.sqrt(5) - 1) / 2
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
        fc, fd = h(c), h(d)
        while hi - lo > mpmath.mpf(10) ** -24:
            if fc > fd:
                hi, d, fd = d, c, fc
                c = hi - g * (hi - lo)
                fc = h(c)
            else:
                lo, c, fc = c, d, fd
                d = lo + g * (hi - lo)
                fd = h(d)
        best = max(fc, fd, vals[k], 1 - f(mpmath.mpf(0)))  # alpha = 0 is a candidate too
        return +best


# ---------------------------------------------------------------- delta(eps)
@pytest.mark.parametrize("mu, eps", sorted(R.GDP_PROFILE))
def test_gaussian_profile_vs_brute_force_reference(mu, eps):
    # reference: GDP_PROFILE (brute force over alpha, 40 digits)
    assert_rel(mp.profile_delta(record("gaussian", mu), eps, 30), R.GDP_PROFILE[(mu, eps)], TOL30)


@pytest.mark.parametrize("eps0, eps", [("1", "0"), ("1", "0.5"), ("0.1", "0.05"), ("2.5", "1")])
def test_laplace_profile_vs_own_brute_force(eps0, eps):
    # reference: _brute_sup with the Laplace trade-off from its definition, s = e^eps, dps 50
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        ref = _brute_sup(lambda a: _laplace_f_definition(a, e0), mpmath.exp(mpmath.mpf(eps)))
    assert_rel(mp.profile_delta(record("laplace", eps0), eps, 25), ref, TOL25, f"laplace({eps0}) delta({eps})")


@pytest.mark.parametrize("eps", ["1", "1.5", "7"])
def test_laplace_profile_is_zero_beyond_eps0(eps):
    # reference: for eps' >= eps0 the supremum of 1 - f - e^eps' alpha is 0 (at alpha = 0); own brute force
    with mpmath.workdps(50):
        ref = _brute_sup(lambda a: _laplace_f_definition(a, mpmath.mpf(1)), mpmath.exp(mpmath.mpf(eps)))
        assert abs(ref) < mpmath.mpf(10) ** -40
    got = mp.profile_delta(record("laplace", "1"), eps, 25)
    assert got == 0 and mp.format_number(got, 25) == "0"


GENERIC_CASES = [
    ("laplace", ("1",), "0"), ("laplace", ("1",), "0.5"), ("laplace", ("0.1",), "0.05"),
    ("approx_dp", ("1", "1e-5"), "0.5"), ("approx_dp", ("1", "1e-5"), "3"), ("approx_dp", ("0.5", "0"), "0.25"),
    ("randomized_response", ("2",), "0"), ("randomized_response", ("2",), "1.5"),
    ("uniform_sampling", ("1", 5), "0.5"),
    ("gaussian", ("1",), "1"), ("gaussian", ("0.5",), "2"), ("classical_gaussian", ("1", "1e-5"), "1"),
]


def _hockey_stick(pairs, s):
    """delta(eps) = sum_x max(0, Q(x) - e^eps P(x)) for discrete laws [(P(x), Q(x))] (plain mpmath)."""
    return sum((max(mpmath.mpf(0), q - s * p) for p, q in pairs), mpmath.mpf(0))


def _output_laws(name, args):
    """Canonical discrete output laws [(P(x), Q(x))] of f_{eps,delta}, randomized response and uniform
    sampling with replacement (catalog DF-Ex3: a constant with probability e^-mu, else a uniform record;
    the target has probability p = (1 - e^-mu)/n under Q, its replacement under P)."""
    if name in ("approx_dp", "randomized_response"):
        e = mpmath.mpf(args[0])
        d = mpmath.mpf(args[1]) if name == "approx_dp" else mpmath.mpf(0)
        hi, lo = (1 - d) * mpmath.exp(e) / (1 + mpmath.exp(e)), (1 - d) / (1 + mpmath.exp(e))
        return [(d, 0), (hi, lo), (lo, hi), (0, d)]
    mu, n = mpmath.mpf(args[0]), args[1]
    c, p = mpmath.exp(-mu), -mpmath.expm1(-mu) / n
    return [(0, p), (p, 0), (c, c), (1 - c - p, 1 - c - p)]


def _gaussian_f_definition(alpha, mu):
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), the quantile by mpmath.erfinv (ambient precision)."""
    return mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * alpha) - mu)


def _profile_reference(name, args, eps):
    """delta(eps) from the mechanism's output laws, independently of numeric/ (50 digits)."""
    with mpmath.workdps(50):
        s = mpmath.exp(mpmath.mpf(eps))
        if name in ("approx_dp", "randomized_response", "uniform_sampling"):
            return _hockey_stick(_output_laws(name, args), s)
        if name == "laplace":
            e0 = mpmath.mpf(args[0])
            return _brute_sup(lambda a: _laplace_f_definition(a, e0), s)
        mu = mpmath.mpf(args[0]) if name == "gaussian" else \
            mpmath.mpf(args[0]) / mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf(args[1])))
        return _brute_sup(lambda a: _gaussian_f_definition(a, mu), s)


@pytest.mark.parametrize("name, args, eps", GENERIC_CASES)
def test_profiles_vs_the_output_laws(name, args, eps):
    # reference: _profile_reference -- the hockey-stick divergence sum max(0, Q - e^eps P) of the
    # canonical discrete laws, or _brute_sup over alpha of 1 - f - e^eps alpha with f from the
    # definition of the Laplace / Gaussian law (plain mpmath, 50 digits); both the record's closed
    # form and the library's generic supremum (a copy with profile=None) are compared with it
    rec = record(name, *args)
    ref = _profile_reference(name, args, eps)
    closed = mp.profile_delta(rec, eps, 25)
    numeric_sup = mp.profile_delta(dataclasses.replace(rec, profile=None), eps, 25)
    assert_rel(closed, ref, TOL25, f"{name}{args} closed-form delta({eps})")
    assert_rel(numeric_sup, ref, TOL25, f"{name}{args} generic supremum delta({eps})")


def test_numerical_supremum_of_a_zero_profile():
    # reference: delta(1) = 0 for laplace(1) (own brute force in test_laplace_profile_is_zero_beyond_eps0)
    generic = dataclasses.replace(record("laplace", "1"), profile=None)
    assert call_with_timeout(lambda: mp.profile_delta(generic, "1", 15), HANG_SECONDS) == 0


def test_uniform_sampling_profile_is_p():
    # reference: f_{0,p} has delta(eps') = p = (1 - e^-mu)/n for every eps' (plain mpmath expm1)
    with mpmath.workdps(60):
        p = -mpmath.expm1(-mpmath.mpf(1)) / 5
    for eps in ("0", "1", "10"):
        assert_rel(mp.profile_delta(record("uniform_sampling", "1", 5), eps, 30), p, TOL30)


def test_conjugate_of_laplace():
    # f*(y) = sup_x (x y - f(x)); at y = -2: f*(-2) = delta(ln 2) - 1; reference: own brute force
    # (1 + f*(-e^eps') = delta(eps'), Dong, Roth, Su 2022, Prop. 2.12), dps 50
    with mpmath.workdps(50):
        ref = _brute_sup(lambda a: _laplace_f_definition(a, mpmath.mpf(1)), mpmath.mpf(2)) - 1
    assert_rel(mp.conjugate(record("laplace", "1"), "-2", 25), ref, TOL25)


# ---------------------------------------------------------------- eps(delta)
def test_profile_eps_of_zero_for_gaussian_is_inf():
    # delta(eps) > 0 for every eps under GDP, so no finite eps reaches delta = 0
    assert mp.profile_eps(record("gaussian", "1"), "0", 25) == mpmath.inf


def test_profile_eps_is_zero_when_delta_is_large():
    # reference: laplace(1) has delta(0) = 1 - e^-1/2 = 0.3934... (own brute force gives the same), so
    # eps(0.5) = 0 exactly
    got = mp.profile_eps(record("laplace", "1"), "0.5", 25)
    assert got == 0 and mp.format_number(got, 25) == "0"


# Regression guard: eps_at's bisection once stopped at hi - lo <= 2^-(prec+2) hi, below one ulp of hi,
# and never ended (gaussian(1), delta = delta(1): lo, hi adjacent floats near 1 at prec 136).
def test_profile_eps_inverts_profile_delta_gaussian():
    # reference: GDP_PROFILE[('1', '1')] = delta(1) for mu = 1, so eps(delta) must be 1 (25 digits)
    got = call_with_timeout(lambda: mp.profile_eps(record("gaussian", "1"), R.GDP_PROFILE[("1", "1")], 25),
                            HANG_SECONDS)
    assert abs(got - 1) <= TOL25


def test_profile_eps_of_zero_for_laplace_is_eps0():
    # reference: delta(eps') = 0 exactly for eps' >= eps0 and > 0 below, so eps(0) = eps0 = 1
    got = call_with_timeout(lambda: mp.profile_eps(record("laplace", "1"), "0", 25), HANG_SECONDS)
    assert abs(got - 1) <= TOL25


# ---------------------------------------------------------------- dual to primal
def test_tradeoff_from_gaussian_profile():
    # reference: GAUSSIAN[('1', '0.05')]['beta'] = G_1(0.05) (naive erfinv at high precision)
    g = record("gaussian", "1")
    got = mp.tradeoff_from_profile(g.bind(g.profile), "0.05", 20)
    assert_rel(got, R.GAUSSIAN[("1", "0.05")]["beta"], mpmath.mpf("1e-19"))


# ---------------------------------------------------------------- inverse / symmetrized
def test_inverse_of_symmetric_record_is_f():
    # G_1 is symmetric, so G_1^{-1}(0.05) = G_1(0.05); reference GAUSSIAN[('1', '0.05')]
    g = record("gaussian", "1")
    assert_rel(mp.inverse(g, "0.05", 25), R.GAUSSIAN[("1", "0.05")]["beta"], TOL25)
    assert_rel(mp.symmetrized(g, "0.05", 25), R.GAUSSIAN[("1", "0.05")]["beta"], TOL25)


def _urs_ar_inverse(a: Fraction):
    """Hand algebra for uniform_sampling(1, 5, add-remove), c = e^-1, p = (1 - c)/5:
    f(t) = 1 - p - t on [0, c] and (4/5)(1 - t) on [c, 1]; f(c) = (4/5)(1 - c).
    So f^{-1}(a) = 1 - 5a/4 for a <= (4/5)(1 - c), else 1 - p - a (a < 1 - p)."""
    with mpmath.workdps(60):
        c = mpmath.exp(-1)
        p = (1 - c) / 5
        am = mpmath.mpf(a.numerator) / a.denominator
        return 1 - 5 * am / 4 if am <= 4 * (1 - c) / 5 else 1 - p - am


URS_AR = ("uniform_sampling", "1", 5, "add-remove")


@pytest.mark.parametrize("a", ["0.01", "0.1", "0.15"])
def test_inverse_of_add_remove_sampling(a):
    rec = record(*URS_AR)
    inv = mp.inverse(rec, a, 25)
    assert_rel(inv, _urs_ar_inverse(Fraction(a)), TOL25, f"f^-1({a})")
    # f(f^{-1}(a)) = a, evaluating f at the exact binary value of the returned inverse
    assert_rel(mp.tradeoff(rec, mpf_to_fraction(inv), 25), Fraction(a), mpmath.mpf("1e-22"), f"f(f^-1({a}))")
    # symmetrized = max(f(a), f^{-1}(a)); f(a) = 1 - p - a here (a <= c)
    with mpmath.workdps(60):
        f_a = 1 - (1 - mpmath.exp(-1)) / 5 - mpmath.mpf(a)
        ref = max(f_a, _urs_ar_inverse(Fraction(a)))
    assert_rel(mp.symmetrized(rec, a, 25), ref, TOL25, f"symmetrized({a})")


# Regression guard: inverse_at's bisection in log t once stopped at hi - lo <= 2^-(prec+2) max(1, |hi|),
# below one ulp whenever |log f^{-1}(alpha)| >= 1/4, and never ended (f^{-1}(0.3) = 0.625 and
# f^{-1}(0.6) = 1 - p - 0.6 = 0.2736 both hung); both now answer in < 0.1 s.
@pytest.mark.parametrize("a", ["0.3", "0.6"])
def test_inverse_of_add_remove_sampling_large_alpha(a):
    rec = record(*URS_AR)
    inv = call_with_timeout(lambda: mp.inverse(rec, a, 15), HANG_SECONDS)
    assert_rel(inv, _urs_ar_inverse(Fraction(a)), mpmath.mpf("1e-14"))
