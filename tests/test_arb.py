"""Certified enclosures (numeric.arb): containment of independent references, widths, decisions.

Every reference below is computed by plain mpmath at ``_ref_dps(alpha)`` decimal digits
(140 digits plus the number of leading digits lost by the textbook formula in the tail),
from a formula that is *not* the record's stable expression and never through
``numeric.mp`` or ``numeric.kernels``:

* Gaussian records: the printed form Phi(PhiInv(1 - alpha) - mu) with the textbook
  CDF (1 + erf(x/sqrt2))/2 and quantile sqrt2 erfinv(2p - 1) (these cancel in the tails;
  the extra digits pay for it); power = 1 - f at the same precision;
* Laplace and logistic noise: the definition f = F(F^{-1}(1 - alpha) - mu) with the
  noise CDF and quantile written out here;
* approx-DP, randomized response, uniform sampling: the Neyman-Pearson lemma run on the
  two finite output laws of the mechanism (written out per mechanism below): reject the
  outcomes in decreasing order of likelihood ratio Q/P until the type I error is spent.

With >= 140 correct digits the reference error is far below the enclosure radius
at 200 bits (~1e-55 relative), so "the ball contains the reference point" is a sharp test.
"""

from __future__ import annotations

import ast
import sys
import time
from functools import lru_cache
from pathlib import Path

import flint  # a core dependency (pyproject.toml): no skip
import mpmath
import pytest
import sympy as sp

import derive  # noqa: E402
from derive.errors import DomainError  # noqa: E402
from derive.special import LogPhi, Phi, PhiInv, PhiInvExp  # noqa: E402
from derive.stabilize import log_space  # noqa: E402
from derive.symbols import alpha as ALPHA  # noqa: E402
from derive.symbols import log_alpha as LOG_ALPHA
from derive.symbols import mu as MU
from numeric import arb as A  # noqa: E402

arb = flint.arb
PREC = 200
ALPHAS = ("1e-300", "1e-30", "0.05", "0.5", "0.9999999999")


# ------------------------------------------------------------------ helpers
def _ref_dps(alpha: str) -> int:
    """140 digits beyond those lost in the tails (about -log10 min(alpha, 1 - alpha))."""
    with mpmath.workdps(30):
        a = mpmath.mpf(alpha)
        small = min(a, 1 - a)
        lost = 0 if small <= 0 else max(0, int(-mpmath.floor(mpmath.log10(small))))
    return 140 + lost


def _point(x: mpmath.mpf):
    """An mpf as an exact arb point (sign, mantissa, exponent copied; no rounding)."""
    sign, man, exp, _ = x._mpf_
    out = arb((-int(man) if sign else int(man), int(exp)))
    assert out.is_exact()
    return out


def _rel_radius(ball) -> float:
    return float(ball.rad()) / abs(float(ball.mid())) if ball.mid() != 0 else float("inf")


def assert_encloses(ball, ref, dps, what=""):
    """``ball`` contains ``ref`` (mpf, correct to ~dps - lost digits); an exact ball equals it
    up to the reference's own rounding."""
    assert ball.is_finite(), f"{what}: {ball}"
    if ball.is_exact():
        with mpmath.workdps(dps):
            mid = mpmath.mpf(ball.mid().str(dps + 10, radius=False))
            assert abs(mid - ref) <= mpmath.mpf(10) ** (-(dps - 40)) * max(1, abs(ref)), \
                f"{what}: exact ball {ball} vs reference {mpmath.nstr(ref, 30)}"
        return
    assert ball.contains(_point(ref)), f"{what}: {ball.str(40, radius=True)} misses {mpmath.nstr(ref, 40)}"


# ------------------------------------------------------------------ references
def _textbook_phi(x):
    return (1 + mpmath.erf(x / mpmath.sqrt(2))) / 2


def _textbook_phiinv(p):
    return mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)


def gaussian_ref(alpha, mu, quantity, dps):
    """Printed form Phi(PhiInv(1 - alpha) - mu), textbook erf/erfinv; power = 1 - f."""
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        f = _textbook_phi(_textbook_phiinv(1 - a) - mu)
        return +f if quantity == "tradeoff" else 1 - f


def classical_mu(eps, delta, dps):
    """mu = eps / sqrt(2 log(1.25/delta)) (Dwork and Roth, Thm A.1; sigma = Delta/mu)."""
    with mpmath.workdps(dps):
        return mpmath.mpf(eps) / mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / mpmath.mpf(delta)))


def location_ref(cdf, quantile, alpha, shift, quantity, dps):
    """f(alpha) = F(F^{-1}(1 - alpha) - shift) from the definition; power = 1 - f."""
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        f = cdf(quantile(1 - a) - shift)
        return +f if quantity == "tradeoff" else 1 - f


def laplace_cdf(x):
    return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2


def laplace_quantile(q):
    return mpmath.log(2 * q) if q < 0.5 else -mpmath.log(2 - 2 * q)


def logistic_cdf(x):
    return 1 / (1 + mpmath.exp(-x))


def logistic_quantile(q):
    return mpmath.log(q / (1 - q))


def neyman_pearson_ref(laws, alpha, quantity, dps):
    """Trade-off of two finite laws P, Q (``laws(dps)`` -> [(P_i, Q_i)]) by the NP lemma."""
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        atoms = laws()
        assert abs(sum(p for p, _ in atoms) - 1) < mpmath.mpf(10) ** (-dps + 10)
        assert abs(sum(q for _, q in atoms) - 1) < mpmath.mpf(10) ** (-dps + 10)
        atoms.sort(key=lambda pq: mpmath.inf if pq[0] == 0 else pq[1] / pq[0], reverse=True)
        spent, power = mpmath.mpf(0), mpmath.mpf(0)
        for p, q in atoms:
            if p == 0:
                power += q              # free rejection: no type I error
                continue
            take = min(p, a - spent)
            if take <= 0:
                break
            power += q * take / p       # randomised on the boundary atom
            spent += take
        return 1 - power if quantity == "tradeoff" else +power


def approx_dp_laws(eps, delta):
    """f_{eps,delta} = T(P, Q) for the four-point laws of Dong, Roth, Su (2022), Prop. 2.5
    (Kairouz et al. 2015)."""
    def laws():
        e, d = mpmath.exp(mpmath.mpf(eps)), mpmath.mpf(delta)
        lo, hi = (1 - d) / (1 + e), (1 - d) * e / (1 + e)
        return [(d, mpmath.mpf(0)), (hi, lo), (lo, hi), (mpmath.mpf(0), d)]
    return laws


def randomized_response_laws(eps):
    """The released bit: Bern(1/(1+e^eps)) against Bern(e^eps/(1+e^eps))."""
    def laws():
        e = mpmath.exp(mpmath.mpf(eps))
        return [(e / (1 + e), 1 / (1 + e)), (1 / (1 + e), e / (1 + e))]
    return laws


def uniform_sampling_laws(mu, n, neighbours):
    """URS output laws (de Fondeville 2026, Example 3): the constant w.p. e^-mu, else one
    record uniformly; p = (1 - e^-mu)/n.  replacement: x1 in D only, x* in D' only, n - 1
    shared records; add-remove: P on D without x* (n - 1 records), Q on D' = D + x*."""
    def laws():
        c = mpmath.exp(-mpmath.mpf(mu))
        p = (1 - c) / n
        if neighbours == "replacement":
            return [(c, c), (p, mpmath.mpf(0)), ((n - 1) * p, (n - 1) * p), (mpmath.mpf(0), p)]
        return [(c, c), (1 - c, (n - 1) * p), (mpmath.mpf(0), p)]
    return laws


@lru_cache(maxsize=None)
def record(name):
    return {
        "gaussian(1)": lambda: derive.gaussian("1"),
        "classical_gaussian(1,1e-5)": lambda: derive.classical_gaussian("1", "1e-5"),
        "laplace(1)": lambda: derive.laplace("1"),
        "approx_dp(1,1e-5)": lambda: derive.approx_dp("1", "1e-5"),
        "randomized_response(1)": lambda: derive.randomized_response("1"),
        "uniform_sampling(1,10)": lambda: derive.uniform_sampling("1", "10"),
        "uniform_sampling(1,10,add-remove)": lambda: derive.uniform_sampling("1", "10", "add-remove"),
        "noise(logistic,1)": lambda: derive.noise("logistic", "1"),
    }[name]()


def reference(name, alpha, quantity, dps):
    if name == "gaussian(1)":
        return gaussian_ref(alpha, 1, quantity, dps)
    if name == "classical_gaussian(1,1e-5)":
        return gaussian_ref(alpha, classical_mu("1", "1e-5", dps), quantity, dps)
    if name == "laplace(1)":
        return location_ref(laplace_cdf, laplace_quantile, alpha, 1, quantity, dps)
    if name == "noise(logistic,1)":
        return location_ref(logistic_cdf, logistic_quantile, alpha, 1, quantity, dps)
    laws = {
        "approx_dp(1,1e-5)": approx_dp_laws("1", "1e-5"),
        "randomized_response(1)": randomized_response_laws("1"),
        "uniform_sampling(1,10)": uniform_sampling_laws("1", 10, "replacement"),
        "uniform_sampling(1,10,add-remove)": uniform_sampling_laws("1", 10, "add-remove"),
    }[name]
    return neyman_pearson_ref(laws, alpha, quantity, dps)


@lru_cache(maxsize=None)
def cached_reference(name, alpha, quantity):
    """(reference, dps); for the definition-form references power is 1 - f at the same dps."""
    dps = _ref_dps(alpha)
    if quantity == "power" and name in _DEFINITION_FORMS:
        f, _ = cached_reference(name, alpha, "tradeoff")
        with mpmath.workdps(dps):
            return 1 - f, dps
    return reference(name, alpha, quantity, dps), dps


_DEFINITION_FORMS = ("gaussian(1)", "classical_gaussian(1,1e-5)", "laplace(1)", "noise(logistic,1)")


RECORDS = ("gaussian(1)", "classical_gaussian(1,1e-5)", "laplace(1)", "approx_dp(1,1e-5)",
           "randomized_response(1)", "uniform_sampling(1,10)", "uniform_sampling(1,10,add-remove)",
           "noise(logistic,1)")


# ------------------------------------------------------------------ containment and width
@pytest.mark.parametrize("quantity", A.QUANTITIES)
@pytest.mark.parametrize("name", RECORDS)
def test_record_ball_contains_reference(name, quantity):
    for alpha in ALPHAS:
        ref, dps = cached_reference(name, alpha, quantity)
        ball = A.enclose_record(record(name), quantity, alpha, PREC)
        what = f"{name} {quantity} alpha={alpha}"
        assert_encloses(ball, ref, dps, what)
        if not ball.is_exact():
            assert _rel_radius(ball) < 1e-25, f"{what}: relative radius {_rel_radius(ball)}"


def test_gaussian_power_at_1e_300_is_relative_accurate():
    # 1 - G_1(1e-300) ~ 7.66e-285: relative width, not absolute
    ball = A.enclose_record(record("gaussian(1)"), "power", "1e-300", PREC)
    assert 7.6e-285 < float(ball.mid()) < 7.7e-285
    assert _rel_radius(ball) < 1e-50


def test_endpoints_are_exact():
    g = record("gaussian(1)")
    # PhiInv(0) = -inf, PhiInv(1) = +inf are exact limits, Phi of them exact 0 and 1
    assert A.enclose_record(g, "power", "0", PREC) == 0
    assert A.enclose_record(g, "power", "1", PREC) == 1
    assert A.enclose_record(g, "tradeoff", "0", PREC) == 1
    assert A.enclose_record(record("laplace(1)"), "tradeoff", "1", PREC) == 0


def test_precision_state_is_restored():
    before = flint.ctx.prec
    A.enclose_record(record("gaussian(1)"), "power", "1e-30", 333)
    assert flint.ctx.prec == before


# ------------------------------------------------------------------ the heads directly
def test_phiinv_far_below_the_float_range():
    # reference: FLINT's own erfcinv (an independent rigorous implementation):
    # PhiInv(p) = -sqrt(2) erfcinv(2p)
    ball = A.enclose(PhiInv(ALPHA), {ALPHA: "1e-100000"}, PREC)
    with flint.ctx.workprec(PREC):
        other = -arb(2).sqrt() * (2 / arb(flint.fmpz(10) ** 100000)).erfcinv()
    assert ball.overlaps(other)
    assert _rel_radius(ball) < 1e-50
    assert -679 < float(ball.mid()) < -678


@pytest.mark.parametrize("log_alpha", ["-100", "-0.5", "-1e-20"])
def test_log_space_heads(log_alpha):
    # LogPhi(mu + PhiInvExp(log_alpha)) = log(1 - G_mu(e^log_alpha)); reference: the
    # textbook forms log((1 + erf((sqrt2 erfinv(2 e^y - 1) + mu)/sqrt2))/2) at 200 digits
    expr = log_space(record("gaussian(1)").power)
    assert expr.has(LogPhi) and expr.has(PhiInvExp)
    ball = A.enclose(expr, {MU: 1, LOG_ALPHA: log_alpha}, PREC)
    with mpmath.workdps(200):
        y = mpmath.mpf(log_alpha)
        ref = mpmath.log(_textbook_phi(_textbook_phiinv(mpmath.exp(y)) + 1))
        assert ball.contains(_point(ref))
    assert _rel_radius(ball) < 1e-25


def test_erfinv_and_elementary_heads():
    # reference: mpmath's erfinv, erf, tanh at 80 digits
    x = sp.Symbol("x")
    for expr, fn in ((sp.erfinv(x), mpmath.erfinv), (sp.erf(x), mpmath.erf), (sp.tanh(x), mpmath.tanh),
                     (sp.log(1 + x), lambda v: mpmath.log(1 + v))):
        for v in ("-0.999", "0.3", "0.75"):
            ball = A.enclose(expr, {x: v}, 128)
            with mpmath.workdps(80):
                assert ball.contains(_point(fn(mpmath.mpf(v)))), (expr, v, ball)


def test_piecewise_straddling_a_breakpoint_takes_both_branches():
    # Laplace power: e^eps alpha below alpha* = e^-eps/2, 1 - e^-eps/(4 alpha) above;
    # at a ball around alpha* both branches must be covered (they agree at alpha*: 1/2)
    power = record("laplace(1)").one_minus_f
    with flint.ctx.workprec(PREC):
        star = (-arb(1)).exp() / 2
        wide = star + arb(0, arb(2) ** -80)
    ball = A.enclose(power, {ALPHA: wide}, PREC)
    with mpmath.workdps(80):
        a_star = mpmath.exp(-1) / 2
        for a in (a_star - mpmath.mpf(2) ** -80, a_star + mpmath.mpf(2) ** -80):
            ref = 1 - laplace_cdf(laplace_quantile(1 - a) - 1)
            assert ball.contains(_point(ref))
    # a decided point stays narrow
    assert _rel_radius(A.enclose(power, {ALPHA: "0.1"}, PREC)) < 1e-50


# ------------------------------------------------------------------ mutations
@pytest.mark.parametrize("alpha", ["1e-300", "0.05", "0.9999999999"])
def test_mutated_gaussian_is_caught(alpha):
    # mu shifted by 1e-20: a relative change of ~1e-20 of the power, far above the radius
    mutated = Phi(PhiInv(ALPHA) + 1 + sp.Rational(1, 10**20))
    ref, dps = cached_reference("gaussian(1)", alpha, "power")
    ball = A.enclose(mutated, {ALPHA: alpha}, PREC)
    assert not ball.contains(_point(ref))
    # the unmutated stable form at the same inputs does contain it
    assert A.enclose(Phi(PhiInv(ALPHA) + 1), {ALPHA: alpha}, PREC).contains(_point(ref))


def test_mutated_laplace_is_caught():
    # the first piece with e^eps (1 + 1e-20) instead of e^eps
    ref, _ = cached_reference("laplace(1)", "1e-300", "power")
    mutated = sp.E * (1 + sp.Rational(1, 10**20)) * ALPHA
    assert not A.enclose(mutated, {ALPHA: "1e-300"}, PREC).contains(_point(ref))


# ------------------------------------------------------------------ decisions
def test_certify_le_true_false():
    g = record("gaussian(1)")
    power = A.enclose_record(g, "power", "1e-300", 64)
    with flint.ctx.workprec(64):
        a = arb(1) / arb(flint.fmpz(10) ** 300)
    assert A.certify_le(a, power) is True        # power above the diagonal (7.7e-285 > 1e-300)
    assert A.certify_le(power, a) is False       # the false inequality is refused with a proof
    assert A.certify_le(arb(1), arb(1)) is True  # exact points: 1 <= 1 is proved


def test_certify_le_undecided_on_equality():
    # printed and stable forms of G_1 are equal: never decided, at any precision
    g = record("gaussian(1)")
    paper = g.paper.xreplace({MU: 1})
    stable = g.tradeoff.xreplace({MU: 1})
    env = {ALPHA: "0.05"}
    assert A.certify_le(A.enclose(paper, env, 53), A.enclose(stable, env, 53)) is None
    decision = A.certify_le_exprs(paper, stable, env, prec_bits=53, max_prec_bits=512)
    assert decision == A.Decision(None, 512)


def test_escalation_decides_a_close_inequality():
    # power of G_mu increases with mu; mu and mu + 1e-30 differ by ~1e-30 relative
    lhs = Phi(PhiInv(ALPHA) + 1)
    rhs = Phi(PhiInv(ALPHA) + 1 + sp.Rational(1, 10**30))
    env = {ALPHA: "0.05"}
    assert A.certify_le(A.enclose(lhs, env, 53), A.enclose(rhs, env, 53)) is None
    decision = A.certify_le_exprs(lhs, rhs, env, prec_bits=53)
    assert decision.result is True and 100 < decision.prec_bits <= 256
    assert A.certify_le_exprs(rhs, lhs, env, prec_bits=53).result is False


# ------------------------------------------------------------------ errors
def test_unsupported_head_raises_with_the_list():
    with pytest.raises(A.UnsupportedExpression) as info:
        A.enclose(sp.gamma(ALPHA), {ALPHA: "0.5"}, 64)
    assert "gamma" in str(info.value) and "PhiInvExp" in str(info.value)
    with pytest.raises(A.UnsupportedExpression, match="Float"):
        A.enclose(sp.Float("0.1") * ALPHA, {ALPHA: "0.5"}, 64)
    with pytest.raises(KeyError, match="alpha"):
        A.enclose(Phi(ALPHA), {}, 64)


def test_domain_errors():
    with pytest.raises(DomainError):
        A.enclose(PhiInv(ALPHA), {ALPHA: 2}, 64)
    with pytest.raises(DomainError):
        A.enclose_record(record("gaussian(1)"), "power", "1.5", 64)
    with pytest.raises(DomainError):
        A.enclose_record(record("gaussian(1)"), "profile", "0.5", 64)


def test_flint_is_imported_lazily_with_a_clear_message(monkeypatch):
    tree = ast.parse(Path(A.__file__).read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = [a.name for n in top for a in n.names] + [getattr(n, "module", "") or "" for n in top]
    assert not any(name.split(".")[0] == "flint" for name in names)
    monkeypatch.setitem(sys.modules, "flint", None)   # "import flint" now raises ImportError
    with pytest.raises(ImportError, match="certified"):
        A.enclose(Phi(ALPHA), {ALPHA: "0.5"}, 64)


def test_cost_is_small():
    # not a benchmark: a generous bound that catches a pathological regression
    g = record("gaussian(1)")
    A.enclose_record(g, "power", "1e-300", PREC)
    start = time.perf_counter()
    for _ in range(10):
        A.enclose_record(g, "power", "1e-300", PREC)
    assert (time.perf_counter() - start) / 10 < 0.1
