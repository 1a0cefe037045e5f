"""Mechanism records of derive.mechanisms: printed forms, stable forms, trade-off axioms.

* LaTeX goldens: the printed (paper) form is the spec; every golden string was
  checked by hand against the formula it prints (comment next to each).
* stable and printed forms vs the mechanisms' output laws: the record's ``tradeoff``,
  ``power`` and printed ``paper`` form, by SymPy's own evalf (heads rewritten into erf, so
  numeric/ plays no part), against the trade-off computed in plain mpmath from the two
  output laws of the mechanism (``_textbook_tradeoff``).
* trade-off axioms (Dong, Roth, Su 2022, Prop. 2.2): on the fp path with
  hypothesis-drawn alpha grids: non-increasing, convex, f(alpha) <= 1 - alpha,
  f(1) = 0, and tradeoff + power = 1.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import derive
from conftest import PROPERTY_CASES, record
from derive import symbols as sy
from derive.special import expm1, to_erf
from derive.tradeoff import eps_prime
from numeric import fp

# ---------------------------------------------------------------- LaTeX goldens
GOLDEN = {
    # G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu)  (Dong, Roth, Su 2022, Eq. 2.2)
    "gaussian": r"\Phi\left(- \mu + \Phi^{-1}\left(1 - \alpha\right)\right)",
    # G_mu with mu = eps / sqrt(2 ln(1.25/delta)) = sqrt(2) eps / (2 sqrt(log(5/(4 delta))))
    "classical_gaussian": r"\Phi\left(- \frac{\sqrt{2} \epsilon}{2 \sqrt{\log{\left(\frac{5}{4 \delta} \right)}}}"
                          r" + \Phi^{-1}\left(1 - \alpha\right)\right)",
    # 1 - e^eps alpha (alpha < e^-eps/2) | e^-eps/(4 alpha) (alpha <= 1/2) | e^-eps (1 - alpha)
    "laplace": r"\begin{cases} - \alpha e^{\epsilon} + 1 & \text{for}\: \alpha < \frac{e^{- \epsilon}}{2} \\"
               r"\frac{e^{- \epsilon}}{4 \alpha} & \text{for}\: \alpha \leq \frac{1}{2} \\"
               r"\left(1 - \alpha\right) e^{- \epsilon} & \text{otherwise} \end{cases}",
    # f_{eps,delta} = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}
    "approx_dp": r"\max\left(0, \left(- \alpha - \delta + 1\right) e^{- \epsilon}, "
                 r"- \alpha e^{\epsilon} - \delta + 1\right)",
    # f_{eps,0} = max{0, 1 - e^eps alpha, e^-eps (1 - alpha)}
    "randomized_response": r"\max\left(0, \left(1 - \alpha\right) e^{- \epsilon}, - \alpha e^{\epsilon} + 1\right)",
    # max{0, 1 - p - alpha}, p = (1 - e^-mu)/n = -expm1(-mu)/n
    "uniform_sampling": r"\max\left(0, - \alpha + 1 + \frac{\left(e^{- \mu} - 1\right)}{n}\right)",
    # 1 - p - alpha (alpha <= e^-mu) | 1 - p - e^-mu - (n-1)/n (alpha - e^-mu)
    "uniform_sampling_add_remove":
        r"\begin{cases} - \alpha + 1 + \frac{\left(e^{- \mu} - 1\right)}{n} & "
        r"\text{for}\: \alpha \leq e^{- \mu} \\1 - e^{- \mu} - \frac{\left(\alpha - e^{- \mu}\right) "
        r"\left(n - 1\right)}{n} + \frac{\left(e^{- \mu} - 1\right)}{n} & \text{otherwise} \end{cases}",
    # logistic: F(F^{-1}(1-alpha) - mu), F^{-1}(p) = log(p/(1-p)), F(x) = 1/(1+e^-x)
    # = 1 / (1 + e^mu alpha/(1 - alpha))
    "noise_logistic": r"\frac{1}{\frac{\alpha e^{\mu}}{1 - \alpha} + 1}",
}

SYMBOLIC = {
    "gaussian": lambda: derive.gaussian(),
    "classical_gaussian": lambda: derive.classical_gaussian(),
    "laplace": lambda: derive.laplace(),
    "approx_dp": lambda: derive.approx_dp(),
    "randomized_response": lambda: derive.randomized_response(),
    "uniform_sampling": lambda: derive.uniform_sampling(),
    "uniform_sampling_add_remove": lambda: derive.uniform_sampling(neighbours="add-remove"),
    "noise_logistic": lambda: derive.noise("logistic"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_latex_of_printed_form(name):
    assert sp.latex(SYMBOLIC[name]().paper) == GOLDEN[name]


def test_gaussian_paper_is_the_textbook_expression():
    # the printed form is literally Phi(PhiInv(1 - alpha) - mu), not a rewritten one
    assert derive.gaussian().paper == derive.Phi(derive.PhiInv(1 - sy.alpha) - sy.mu)


def test_mechanisms_table():
    from derive.mechanisms.table import NAMES
    assert set(derive.MECHANISMS) == set(NAMES) >= {"gaussian", "laplace", "approx-dp", "uniform-sampling",
                                                    "randomized-response", "classical-gaussian", "noise",
                                                    "discrete-gaussian", "geometric", "exponential"}
    assert derive.MECHANISMS["gaussian"] is derive.gaussian


# ---------------------------------------------------------------- stable forms vs printed form (SymPy evalf)
def _sym_value(expr, dps=50):
    """SymPy evalf of a closed expression (heads rewritten into erf/erfinv), as an mpf."""
    e = to_erf(expr).replace(lambda t: isinstance(t, expm1), lambda t: sp.exp(t.args[0]) - 1)
    return mpmath.mpf(str(sp.N(e, dps, strict=False)))


# every non-Gaussian case; the Gaussian family (slow erfinv evalf) at three parameters
STABLE_CASES = ([c for c in PROPERTY_CASES if c[0] not in ("gaussian", "classical_gaussian")]
                + [("gaussian", ("0",)), ("gaussian", ("1",)), ("gaussian", ("12",)),
                   ("classical_gaussian", ("1", "1e-5"))])
ALPHAS = [sp.Rational(1, 10**9), sp.Rational(3, 100), sp.Rational(7, 10), sp.Rational(99, 100)]


def _discrete_tradeoff(pairs, a):
    """Trade-off of two discrete laws [(P(x), Q(x))] at level a: the Neyman-Pearson test ranks the
    outcomes by Q/P and randomises on the boundary one, so beta is linear between ROC vertices."""
    ranked = sorted(pairs, key=lambda pq: mpmath.inf if pq[0] == 0 else pq[1] / pq[0], reverse=True)
    spent, caught = mpmath.mpf(0), mpmath.mpf(0)
    for p, q in ranked:
        if spent + p >= a:
            return 1 - caught - (q * (a - spent) / p if p > 0 else q)
        spent, caught = spent + p, caught + q
    return mpmath.mpf(0)


def _textbook_tradeoff(name, args, a):
    """f(a) from the mechanism's two output laws, in plain mpmath (call at 60 digits).

    Gaussian: Phi(Phi^{-1}(1 - a) - mu), the quantile by mpmath.erfinv; classical Gaussian: the same
    with mu = eps / sqrt(2 ln(1.25/delta)); Laplace and logistic: threshold t with P(X0 > t) = a from
    the quantile of the law, then P(X0 + shift <= t); f_{eps,delta}, randomized response and uniform
    sampling: the Neyman-Pearson trade-off of their canonical discrete laws (Kairouz et al.; catalog
    DF-Ex3: a constant with probability e^-mu, else a uniform record, the target has probability
    p = (1 - e^-mu)/n under one law, the replacement record (or nothing, add-remove) under the other).
    """
    v = [mpmath.mpf(x) if isinstance(x, str) and x not in ("logistic", "replacement", "add-remove") else x
         for x in args]
    if name in ("gaussian", "classical_gaussian"):
        mu = v[0] if name == "gaussian" else v[0] / mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / v[1]))
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a)        # Phi^{-1}(1 - a)
        return mpmath.ncdf(z - mu)
    if name == "laplace":
        t = -mpmath.log(2 * a) if a <= mpmath.mpf(1) / 2 else mpmath.log(2 * (1 - a))
        x = t - v[0]
        return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2
    if name == "noise":   # logistic
        t = mpmath.log((1 - a) / a)
        return 1 / (1 + mpmath.exp(v[1] - t))
    if name in ("approx_dp", "randomized_response"):
        e, d = v[0], (v[1] if name == "approx_dp" else mpmath.mpf(0))
        hi, lo = (1 - d) * mpmath.exp(e) / (1 + mpmath.exp(e)), (1 - d) / (1 + mpmath.exp(e))
        return _discrete_tradeoff([(d, 0), (hi, lo), (lo, hi), (0, d)], a)
    if name == "uniform_sampling":
        c, n = mpmath.exp(-v[0]), v[1]
        p = -mpmath.expm1(-v[0]) / n
        if args[2] == "add-remove":
            return _discrete_tradeoff([(0, p), (c, c), (1 - c, 1 - c - p)], a)
        return _discrete_tradeoff([(0, p), (p, 0), (c, c), (1 - c - p, 1 - c - p)], a)
    raise ValueError(name)


@pytest.mark.parametrize("name, args", STABLE_CASES)
def test_stable_and_printed_forms_equal_the_textbook_tradeoff(name, args):
    # reference: _textbook_tradeoff, the trade-off of the mechanism's output laws in plain mpmath at
    # 60 digits (nothing of derive/ or numeric/); the record's forms by SymPy's own evalf
    rec = record(name, *args)
    paper = rec.bind(rec.paper)
    with mpmath.workdps(60):
        for a in ALPHAS:
            ref = _textbook_tradeoff(name, args, mpmath.mpf(a.p) / a.q)
            printed = _sym_value(paper.subs(sy.alpha, a))
            stable = _sym_value(rec.f.subs(sy.alpha, a))
            power = _sym_value(rec.one_minus_f.subs(sy.alpha, a))
            assert abs(printed - ref) <= mpmath.mpf(10) ** -40, (name, args, a, "printed")
            assert abs(stable - ref) <= mpmath.mpf(10) ** -40, (name, args, a, "stable")
            assert abs(power - (1 - ref)) <= mpmath.mpf(10) ** -40, (name, args, a, "power")


def test_gaussian_stable_forms_are_cancellation_free():
    # no 1 - alpha inside PhiInv and no 1 - Phi(...) in the evaluated forms
    g = derive.gaussian()
    assert g.tradeoff == derive.Phi(-derive.PhiInv(sy.alpha) - sy.mu)
    assert g.power == derive.Phi(derive.PhiInv(sy.alpha) + sy.mu)


# ---------------------------------------------------------------- record metadata
def test_record_metadata():
    g = derive.gaussian("1")
    assert g.is_bound and not derive.gaussian().is_bound
    assert g.params == {"mu": sp.Integer(1)}
    assert str(g) == "gaussian(mu=1)"
    assert g.symmetric and g.pure_eps is None
    assert derive.laplace("2.5").bind(derive.laplace("2.5").pure_eps) == sp.Rational(5, 2)
    assert derive.approx_dp("1", "1e-5").pure_eps is None
    assert derive.randomized_response("2").bind(derive.randomized_response("2").pure_eps) == 2
    assert derive.uniform_sampling("1", 5, "add-remove").symmetric is False
    assert derive.uniform_sampling("1", 5).symmetric is True
    assert derive.noise("logistic", "1").profile is not None     # the logistic pair's closed form
    assert derive.uniform_sampling("1", 5, "add-remove").profile is None


def test_approx_dp_with_zero_delta_is_pure_dp():
    rec = derive.approx_dp("1", "0")
    assert rec.pure_eps is not None and rec.bind(rec.pure_eps) == 1


def test_profiles_are_expressions_in_eps_prime():
    for rec in (derive.gaussian("1"), derive.laplace("1"), derive.approx_dp("1", "1e-5"),
                derive.randomized_response("1"), derive.uniform_sampling("1", 5)):
        assert rec.bind(rec.profile).free_symbols <= {eps_prime}


def test_gaussian_profile_formula():
    # delta(eps') = Phi(-eps'/mu + mu/2) - e^eps' Phi(-eps'/mu - mu/2)  (Dong, Roth, Su 2022, Cor. 2.13)
    g = derive.gaussian("1")
    expected = derive.Phi(-eps_prime + sp.S.Half) - sp.exp(eps_prime) * derive.Phi(-eps_prime - sp.S.Half)
    assert sp.simplify(g.bind(g.profile) - expected) == 0


# ---------------------------------------------------------------- trade-off axioms (fp path, hypothesis)
_ALPHA = st.one_of(
    st.floats(min_value=-300, max_value=0).map(lambda e: 10.0 ** e),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=-16, max_value=-1).map(lambda e: 1 - 10.0 ** e),
)
GRIDS = st.lists(_ALPHA, min_size=1, max_size=40).map(lambda xs: np.unique(np.array(xs + [0.0, 1.0])))
TOL = 1e-12  # absolute slack for float rounding of beta (|beta| <= 1, relative accuracy ~1e-13)


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(PROPERTY_CASES), a=GRIDS)
def test_tradeoff_axioms_fp(case, a):
    rec = record(case[0], *case[1])
    b = fp.tradeoff(rec, a)
    p = fp.power(rec, a)
    assert not np.isnan(b).any() and not np.isnan(p).any()
    assert ((b >= 0) & (b <= 1)).all() and ((p >= 0) & (p <= 1)).all()
    # f(1) = 0 exactly
    assert b[-1] == 0.0 and a[-1] == 1.0
    # non-increasing
    assert (np.diff(b) <= TOL).all(), f"{case}: increases at alpha={a[1:][np.diff(b) > TOL]}"
    # convex: every point lies below the chord of its neighbours
    if len(a) >= 3:
        a0, a1, a2 = a[:-2], a[1:-1], a[2:]
        chord = ((a2 - a1) * b[:-2] + (a1 - a0) * b[2:]) / (a2 - a0)
        assert (b[1:-1] <= chord + TOL).all(), f"{case}: not convex at alpha={a1[b[1:-1] > chord + TOL]}"
    # f(alpha) <= 1 - alpha, i.e. power >= alpha (relative slack for Phi(PhiInv(a)) round trips, mu = 0)
    assert (p >= a * (1 - TOL)).all(), f"{case}: power < alpha at {a[p < a * (1 - TOL)]}"
    # the two stable forms are complements
    assert (np.abs(b + p - 1) <= 1e-15).all(), f"{case}: max |f + (1-f) - 1| = {np.abs(b + p - 1).max()}"


@settings(max_examples=25, deadline=None)
@given(mu=st.floats(min_value=0, max_value=20), a=GRIDS)
def test_gaussian_axioms_at_random_mu(mu, a):
    # hypothesis-drawn mu (a float is read as the decimal it prints as)
    rec = record("gaussian", repr(mu))
    b = fp.tradeoff(rec, a)
    assert b[-1] == 0 and b[0] == 1
    assert (np.diff(b) <= TOL).all()
    assert (np.abs(b + fp.power(rec, a) - 1) <= 1e-15).all()


def test_laplace_kinks_are_continuous():
    # the three pieces meet: at alpha = e^-eps/2 and alpha = 1/2 (SymPy, exact)
    e = sp.Rational(3, 2)
    f = derive.laplace(e).f
    for k in (sp.exp(-e) / 2, sp.S.Half):
        left = sp.limit(f, sy.alpha, k, "-")
        right = sp.limit(f, sy.alpha, k, "+")
        assert sp.simplify(left - right) == 0


# ---------------------------------------------------------------- custom noise CDFs
def test_custom_cdf_equals_named_logistic():
    # the same CDF passed as an expression must give the same SymPy trade-off as the named family
    from derive import symbols as sy
    custom = derive.noise(mu="1", cdf=1 / (1 + sp.exp(-sy.x)))
    named = derive.noise("logistic", "1")
    assert sp.simplify(custom.f - named.f) == 0
    assert sp.simplify(custom.one_minus_f - named.one_minus_f) == 0


def test_custom_cdf_not_log_concave_is_refused():
    # Cauchy CDF: symmetric, but (log f)'' = 2(x^2 - 1)/(1 + x^2)^2 > 0 for |x| > 1 (hand derivation)
    from derive import symbols as sy
    with pytest.raises(derive.DomainError, match="cdf"):
        derive.noise(mu="1", cdf=sp.atan(sy.x) / sp.pi + sp.Rational(1, 2))


def test_custom_cdf_not_symmetric_is_refused():
    # Gumbel CDF exp(-exp(-x)) is log-concave but not symmetric about 0
    from derive import symbols as sy
    with pytest.raises(derive.DomainError, match="symmetric"):
        derive.noise(mu="1", cdf=sp.exp(-sp.exp(-sy.x)))
