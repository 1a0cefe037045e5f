"""The special heads of derive.special and the rewrites of derive.stabilize.

Numerical references here never use numeric/: they are plain mpmath
(``mpmath.ncdf``, ``mpmath.erfinv``, ``mpmath.findroot``, ``mpmath.diff``) at
50-60 digits, or SymPy's own evalf of the ``erf`` rewrite.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import derive
from derive import LogPhi, Phi, PhiInv, PhiInvExp
from derive import symbols as sy
from derive.special import HEADS, to_erf
from derive.stabilize import log_space, stabilize

x, p, y = sp.symbols("x p y", real=True)


def _quantile(q):
    """Plain-mpmath normal quantile by root finding on mpmath.ncdf (no erfinv), at ambient precision."""
    q = mpmath.mpf(q)
    return mpmath.findroot(lambda t: mpmath.ncdf(t) - q, mpmath.sqrt(2) * mpmath.erfinv(2 * q - 1))


def _num(expr, subs, dps=50):
    """SymPy numerical value of ``expr`` after rewriting the heads into erf/erfinv."""
    return mpmath.mpf(str(sp.N(to_erf(expr).subs(subs), dps)))


# ---------------------------------------------------------------- LaTeX goldens (the printed form is the spec)
@pytest.mark.parametrize("expr, golden", [
    (Phi(x), r"\Phi\left(x\right)"),
    (PhiInv(p), r"\Phi^{-1}\left(p\right)"),
    (LogPhi(x), r"\log \Phi\left(x\right)"),
    (PhiInvExp(y), r"\Phi^{-1}\left(e^{y}\right)"),
    (Phi(x) ** 2, r"\Phi\left(x\right)^{2}"),
    (PhiInv(p) ** 2, r"\left(\Phi^{-1}\left(p\right)\right)^{2}"),
    (LogPhi(x) ** 2, r"\left(\log \Phi\left(x\right)\right)^{2}"),
    (PhiInvExp(y) ** 2, r"\left(\Phi^{-1}\left(e^{y}\right)\right)^{2}"),
])
def test_latex_of_heads(expr, golden):
    assert sp.latex(expr) == golden


def test_heads_tuple():
    assert set(HEADS) == {Phi, PhiInv, LogPhi, PhiInvExp}


# ---------------------------------------------------------------- exact special values
def test_exact_special_values():
    assert Phi(0) == sp.S.Half
    assert Phi(sp.oo) == 1 and Phi(-sp.oo) == 0
    assert PhiInv(sp.S.Half) == 0
    assert PhiInv(0) == -sp.oo and PhiInv(1) == sp.oo
    assert LogPhi(sp.oo) == 0 and LogPhi(-sp.oo) == -sp.oo
    assert PhiInvExp(0) == sp.oo and PhiInvExp(-sp.oo) == -sp.oo


def test_eval_never_introduces_a_subtraction():
    # unlike sympy.erfc, Phi(-x) stays Phi(-x) (the complement is never written 1 - Phi(x))
    assert Phi(-x).args == (-x,) and not Phi(-x).has(sp.Add)
    assert PhiInv(1 - p).args == (1 - p,)
    assert isinstance(Phi(sp.Rational(-3, 2)), Phi)


# ---------------------------------------------------------------- derivatives
def test_phi_derivative_is_normal_density():
    density = sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)  # written here from the definition of Phi
    assert sp.simplify(sp.diff(Phi(x), x) - density) == 0
    # chain rule through an inner function
    assert sp.simplify(sp.diff(Phi(3 * x + 1), x) - 3 * density.subs(x, 3 * x + 1)) == 0


def test_phiinv_derivative():
    d = sp.diff(PhiInv(p), p)
    # inverse-function rule: 1 / phi(PhiInv(p))
    assert sp.simplify(d - sp.sqrt(2 * sp.pi) * sp.exp(PhiInv(p) ** 2 / 2)) == 0
    # d/dp Phi(PhiInv(p)) = 1 symbolically
    assert sp.simplify(sp.diff(Phi(PhiInv(p)), p)) == 1
    # numerically at p = 3/10 vs plain-mpmath numerical differentiation of a findroot quantile
    with mpmath.workdps(40):
        ref = mpmath.diff(_quantile, mpmath.mpf(3) / 10)
        got = _num(d, {p: sp.Rational(3, 10)}, 40)
        assert abs(got - ref) <= abs(ref) * mpmath.mpf(10) ** -25


@pytest.mark.parametrize("head, point, reference", [
    # d/dx log Phi(x) at x = -7/2, by numerical differentiation of log(mpmath.ncdf)
    (LogPhi, sp.Rational(-7, 2), lambda t: mpmath.log(mpmath.ncdf(t))),
    # d/dy PhiInv(exp(y)) at y = -9/4, by numerical differentiation of the findroot quantile of exp(y)
    (PhiInvExp, sp.Rational(-9, 4), lambda t: _quantile(mpmath.exp(t))),
])
def test_log_head_derivatives_numerically(head, point, reference):
    d = sp.diff(head(x), x)
    with mpmath.workdps(40):
        ref = mpmath.diff(reference, mpmath.mpf(point.p) / point.q)
        got = _num(d, {x: point}, 40)
        assert abs(got - ref) <= abs(ref) * mpmath.mpf(10) ** -25


# ---------------------------------------------------------------- rewrite into erf
@pytest.mark.parametrize("t", [sp.Rational(-5, 2), sp.Integer(0), sp.Rational(7, 10), sp.Integer(4)])
def test_phi_rewrite_erf_matches_mpmath_ncdf(t):
    with mpmath.workdps(50):
        ref = mpmath.ncdf(mpmath.mpf(t.p) / t.q)
        assert abs(_num(Phi(x), {x: t}) - ref) <= abs(ref) * mpmath.mpf(10) ** -40
        ref_log = mpmath.log(ref)
        assert abs(_num(LogPhi(x), {x: t}) - ref_log) <= max(abs(ref_log), 1) * mpmath.mpf(10) ** -40


@pytest.mark.parametrize("q", [sp.Rational(1, 1000), sp.Rational(3, 10), sp.Rational(1, 2), sp.Rational(9, 10)])
def test_phiinv_rewrite_erf_matches_findroot_quantile(q):
    with mpmath.workdps(50):
        ref = _quantile(mpmath.mpf(q.p) / q.q)
        got = _num(PhiInv(p), {p: q})
        assert abs(got - ref) <= mpmath.mpf(10) ** -40
        # PhiInvExp(log q) is the same number
        got_exp = _num(PhiInvExp(y), {y: sp.log(q)})
        assert abs(got_exp - ref) <= mpmath.mpf(10) ** -40


@pytest.mark.parametrize("q", [sp.Rational(1, 7), sp.Rational(1, 2), sp.Rational(5, 6)])
def test_rewrite_round_trip(q):
    # Phi(PhiInv(q)) = q and PhiInv(Phi(t)) = t after rewriting both heads into erf/erfinv
    with mpmath.workdps(50):
        assert abs(_num(Phi(PhiInv(p)), {p: q}) - mpmath.mpf(q.p) / q.q) <= mpmath.mpf(10) ** -40
        t = sp.Rational(-13, 10) + q
        assert abs(_num(PhiInv(Phi(x)), {x: t}) - mpmath.mpf(t.p) / t.q) <= mpmath.mpf(10) ** -38


def test_to_erf_removes_every_head():
    expr = Phi(PhiInv(1 - sy.alpha) - sy.mu) + LogPhi(x) + PhiInvExp(y)
    out = to_erf(expr)
    assert not any(out.has(h) for h in HEADS)
    assert out.has(sp.erf) and out.has(sp.erfinv)


# ---------------------------------------------------------------- stabilize
def test_stabilize_gaussian_paper_form():
    a, m = sy.alpha, sy.mu
    paper = Phi(PhiInv(1 - a) - m)
    stable = stabilize(paper)
    # hand-written expected form: Phi(-PhiInv(alpha) - mu), no 1 - alpha left
    assert stable == Phi(-PhiInv(a) - m)
    assert stable == derive.gaussian().tradeoff
    assert not stable.has(1 - a)
    # the complement rule: 1 - G_mu(alpha) -> Phi(PhiInv(alpha) + mu), the record's power
    assert stabilize(1 - paper) == Phi(PhiInv(a) + m)
    assert stabilize(1 - paper) == derive.gaussian().power


def test_stabilize_single_rules():
    assert stabilize(PhiInv(1 - sy.alpha)) == -PhiInv(sy.alpha)
    assert stabilize(1 - Phi(x)) == Phi(-x)
    assert stabilize(1 - Phi(x) + y) == Phi(-x) + y
    # nothing to do
    assert stabilize(Phi(x) + PhiInv(p)) == Phi(x) + PhiInv(p)


@pytest.mark.parametrize("alpha_val, mu_val", [(sp.Rational(3, 10), sp.Integer(1)),
                                               (sp.Rational(1, 10**6), sp.Rational(5, 2))])
def test_stabilized_form_equals_paper_numerically(alpha_val, mu_val):
    paper = Phi(PhiInv(1 - sy.alpha) - sy.mu)
    subs = {sy.alpha: alpha_val, sy.mu: mu_val}
    with mpmath.workdps(60):
        a = _num(paper, subs, 55)
        b = _num(stabilize(paper), subs, 55)
        assert abs(a - b) <= abs(b) * mpmath.mpf(10) ** -40


# ---------------------------------------------------------------- log_space
def test_log_space_of_gaussian_power():
    out = log_space(derive.gaussian().power)
    assert out.has(LogPhi) and out.has(PhiInvExp)
    assert not out.has(Phi) and not out.has(PhiInv)
    assert not out.has(sy.alpha)
    assert out.free_symbols == {sy.log_alpha, sy.mu}
    # log G-power at log_alpha = log(3/10), mu = 1 vs plain mpmath log(ncdf(quantile(0.3) + 1))
    with mpmath.workdps(50):
        ref = mpmath.log(mpmath.ncdf(_quantile(mpmath.mpf(3) / 10) + 1))
        got = _num(out, {sy.log_alpha: sp.log(sp.Rational(3, 10)), sy.mu: 1})
        assert abs(got - ref) <= abs(ref) * mpmath.mpf(10) ** -40


def test_log_space_of_gaussian_tradeoff():
    out = log_space(derive.gaussian().tradeoff)
    assert out.has(LogPhi) and out.has(PhiInvExp) and not out.has(sy.alpha)


def test_log_space_moves_piecewise_conditions_to_log_alpha():
    out = log_space(derive.laplace().power)
    conds = [c for _, c in out.atoms(sp.Piecewise).pop().args if c is not sp.true]
    assert conds
    for c in conds:
        assert c.has(sy.log_alpha) and not c.has(sp.exp(sy.log_alpha))
    # the first piece is log(e^eps alpha) = eps + log_alpha exactly
    assert out.args[0][0] == sy.eps + sy.log_alpha


@pytest.mark.parametrize("z", ["1e20", "3.5e40", "1e100", "1e150"])
@pytest.mark.parametrize("dps", [15, 50, 300])
def test_erfc_asymptotic_branch_matches_mpmath_below_its_overflow(z, dps):
    """numeric.kernels sums erfc's asymptotic series above 1e20 (mpmath.erfc raises OverflowError
    above ~1.3e154).  Reference: mpmath.erfc itself, which still works up to 1e150 (its own algorithm,
    at 20 more digits)."""
    from numeric import kernels
    with mpmath.workdps(dps):
        zz = mpmath.mpf(z)          # one binary value for both sides (the functions take it as exact)
    with mpmath.workdps(dps + 20):
        ref = mpmath.erfc(zz)
        ref_log = mpmath.log(ref)
    with mpmath.workdps(dps):
        got = kernels._erfc(zz)
        got_log = kernels._log_erfc(zz)
    with mpmath.workdps(dps + 20):
        assert abs(got / ref - 1) < mpmath.mpf(10) ** (-dps + 1)
        assert abs(got_log / ref_log - 1) < mpmath.mpf(10) ** (-dps + 1)


def test_phi_beyond_mpmath_erfc_range():
    """Phi(-1e300) and log Phi(-1e300): mpmath.erfc overflows there.  Reference: the Mills-ratio
    bounds phi(x)/x * (1 - 1/x^2) <= 1 - Phi(x) <= phi(x)/x (x > 0), in log space, which pin
    log Phi(-1e300) to within 1e-600 relative."""
    from numeric import kernels
    with mpmath.workdps(30):
        x = mpmath.mpf("1e300")                     # one binary value, taken as exact by both sides
        got = kernels.log_ncdf(-x)
        assert kernels.ncdf(-x) > 0
    with mpmath.workdps(700):                       # x^2 ~ 1e600: the bounds need its integer digits
        upper = -x * x / 2 - mpmath.log(x) - mpmath.log(2 * mpmath.pi) / 2
        lower = upper + mpmath.log1p(-1 / (x * x))
        assert lower * (1 + mpmath.mpf("1e-28")) <= got <= upper * (1 - mpmath.mpf("1e-28"))
