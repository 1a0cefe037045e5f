"""Certified mode (``dp-derive check --certified``): arb-ball checks of the inequality claims.

The references here are hand-built records whose truth is known by construction (a power below
alpha by a stated relative amount; a Laplace record whose linear regime is multiplied by
1 + 1e-20), so each test knows the right verdict without running the code under test.
"""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout

import mpmath
import pytest
import sympy as sp

import derive  # noqa: E402
from derive import symbols as sy  # noqa: E402
from proofs_check import certified, discovery, registry  # noqa: E402
from proofs_check import claims_certified_000 as CC0  # noqa: E402
from proofs_check import claims_certified_001_003 as CC13  # noqa: E402
from proofs_check import claims_certified_002 as CC2  # noqa: E402
from proofs_check import claims_certified_004 as CC4  # noqa: E402
from proofs_check import claims_foundation as cf  # noqa: E402
from proofs_check.cli import main  # noqa: E402
from proofs_check.status import CONFIRMED, FAILED  # noqa: E402

A = sy.alpha


def fake_record(f, power, name="fake") -> derive.TradeOff:
    """A TradeOff built by hand (no parameters): f(alpha) and its stored complement."""
    return derive.TradeOff(name=name, parameters=(), tradeoff=f, power=power, paper=f, domain={},
                           citation="hand-built for tests/test_certified.py")


def _claim(claim_id):
    discovery.all_claims()
    return registry._REGISTRY[claim_id]


# ---------------------------------------------------------------- real claims
@pytest.mark.parametrize("claim_id", ["DRS-Prop2.2:gaussian", "DRS-Prop2.2:laplace", "DF-Cor2"])
@pytest.mark.slow
def test_real_claims_are_certified(claim_id):
    c = _claim(claim_id)
    assert c.certify is not None
    out = c.certify()
    assert out.status == CONFIRMED and out.certified is True
    assert out.method == "certified (arb balls)"
    assert out.points > 100
    # the report says which cases are certified over whole intervals and which parts pointwise only
    assert "whole interval" in out.detail and "pointwise" in out.detail
    assert set(out.extra["intervals"]) and "whole_interval_cases" in out.extra


def test_equalities_are_decided_exactly():
    # gaussian(mu=0) is f = 1 - alpha exactly and Laplace(eps) has (1 - f)/alpha = e^eps exactly for
    # alpha < e^-eps/2: the slack is exactly 0 there, so the certified margin is exactly 0 (never
    # an undecided pair of overlapping balls); gaussian(0) is an equality on the whole interval
    out = CC0.certify_axioms([("g0", derive.gaussian(0))])
    assert out.status == CONFIRMED and float(out.margin) == 0.0
    assert out.extra["exact_decisions"] > 0
    assert out.extra["whole_interval_cases"] == ["g0"]
    out = CC0.certify_ratio_bound([("lap1", derive.laplace(1))])
    assert out.status == CONFIRMED and float(out.margin) == 0.0
    assert out.worst_at["alpha"] == "1e-1000"       # linear regime: equality
    assert out.extra["exact_decisions"] > 0


def test_point_decisions():
    # 1/3 - 0.3333 > 0 by 1/30000, decided by arb; exp(1) - e exactly 0; a negative slack proved
    v = certified.certify_nonneg(sp.Rational(1, 3) - A, {A: sp.Rational("0.3333")})
    assert v.holds is True and v.lower > 0
    v = certified.certify_nonneg(sp.exp(A) - sp.E, {A: sp.Integer(1)})
    assert v.holds is True and v.how == "exact" and v.lower == 0
    v = certified.certify_nonneg(A - sp.Rational(1, 3), {A: sp.Rational("0.3333")})
    assert v.holds is False and v.upper < 0


# ---------------------------------------------------------------- mutations
def _power_below_alpha_at_03(rel):
    """power = alpha (1 - rel) on (1/4, 7/20) (so at the grid point 0.3 it is below alpha by
    ``rel`` relative), alpha + alpha (1 - alpha)/10 elsewhere; f = 1 - power."""
    inside = sp.And(A > sp.Rational(1, 4), A < sp.Rational(7, 20))
    p = sp.Piecewise((A * (1 - rel), inside), (A + A * (1 - A) / 10, True))
    f = sp.Piecewise((1 - A + A * rel, inside), (1 - A - A * (1 - A) / 10, True))
    return fake_record(f, p)


def test_power_below_alpha_by_1e_25_is_failed():
    rec = _power_below_alpha_at_03(sp.Rational(1, 10**25))
    out = CC0.certify_axioms([("below", rec)])
    assert out.status == FAILED and out.certified is True
    assert out.counterexample["alpha"] == "0.3"
    assert out.counterexample["statement"] == "f(alpha) <= 1 - alpha"
    # the ordinary 30-digit check (tolerance 1e-27) also sees a 1e-25 shift
    assert cf._axioms([("below", rec)]).status == FAILED


def test_certified_sees_what_the_30_digit_check_cannot():
    # f = 1 - alpha + 1e-32 alpha (1 - alpha): f(0) = 1, f(1) = 0, decreasing, and above 1 - alpha
    # by 1e-32 (1 - alpha) relative on (0, 1) -- below the ordinary check's verified tolerance
    # (1e-27, and its convexity tolerance): it reports CONFIRMED; the certified check proves
    # f(alpha) > 1 - alpha at the first grid point
    rel = sp.Rational(1, 10**32)
    rec = fake_record(1 - A + rel * A * (1 - A), A - rel * A * (1 - A))
    assert cf._axioms([("above", rec)]).status == CONFIRMED
    out = CC0.certify_axioms([("above", rec)])
    assert out.status == FAILED and out.certified is True
    assert out.counterexample["alpha"] == "1e-1000"
    assert out.counterexample["statement"] == "f(alpha) <= 1 - alpha"


def test_laplace_above_e_eps_breaks_certified_cor2(monkeypatch):
    original = derive.laplace

    def mutated(*args, **kwargs):
        rec = original(*args, **kwargs)
        bumped = rec.power.xreplace({sp.exp(sy.eps): sp.exp(sy.eps) * (1 + sp.Rational(1, 10**20))})
        assert bumped != rec.power
        return rec.__class__(**{**rec.__dict__, "power": bumped})

    monkeypatch.setattr(derive, "laplace", mutated)
    out = _claim("DF-Cor2").certify()
    assert out.status == FAILED and out.certified is True
    assert out.counterexample["case"].startswith("laplace")
    assert out.counterexample["statement"] == "(1 - f)/alpha <= e^eps"
    # the ordinary check's tolerance is 1e-17 relative: it does not see a 1e-20 excess
    assert _claim("DF-Cor2").check().status == CONFIRMED


# ---------------------------------------------------------------- CLI
def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def test_cli_certified_json():
    rc, out, _ = _cli(["check", "--certified", "--claim", "DRS-Prop2.2:gaussian", "--json"])
    assert rc == 0
    row = json.loads(out)["claims"][0]
    assert row["id"] == "DRS-Prop2.2:gaussian"
    assert row["status"] == "CONFIRMED" and row["certified"] is True
    assert row["method"] == "certified (arb balls)"


def test_require_without_flint_is_a_one_line_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "flint", None)     # makes `import flint` raise ImportError
    with pytest.raises(certified.UsageError):
        certified.require()
    rc, out, err = _cli(["check", "--certified", "--claim", "DRS-Prop2.2:gaussian"])
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "python-flint" in err


@pytest.mark.slow
def test_kz_t25_and_t39_are_certified_and_fail_when_broken(monkeypatch):
    # the real claims: certified, KZ-T2.5 over the whole eps interval [0, 20] for every mu
    out = CC2.certify_t25()
    assert out.status is CONFIRMED and out.certified
    assert all(not info["uncovered"] for info in out.extra["intervals"].values())
    out = CC2.certify_t39_gaussian()
    assert out.status is CONFIRMED and out.certified
    # halving the tail P(|Z| > eps) (a wrong loss law): delta_DP(0) = 2 Phi(mu/2) - 1 > 1/2 at mu = 3
    orig = CC2._gauss_tail_expr
    monkeypatch.setattr(CC2, "_gauss_tail_expr", lambda mu, e: orig(mu, e) / 2)
    out = CC2.certify_t25()
    assert out.status is FAILED and out.certified
    # doubling it: P(|Z| > eps') > delta' where the slack is below 1/2 (the worst is 0.457)
    monkeypatch.setattr(CC2, "_gauss_tail_expr", lambda mu, e: orig(mu, e) * 2)
    assert CC2.certify_t39_gaussian().status is FAILED


def test_mha_def5_certified_by_monotonicity_and_broken_forms_fail(monkeypatch):
    from derive import two_sided as T
    out = CC13.certify_mha_def5()
    assert out.status is CONFIRMED and out.certified and "whole interval [0, oo)" in out.detail
    # a printed Laplace AUC with e^(-2r): AUC(0) is still 1/2, but its derivative is no longer r e^-r/2
    monkeypatch.setattr(T, "laplace_auc_printed", lambda: 1 - (1 + T.r) * sp.exp(-2 * T.r) / 2)
    assert CC13.certify_mha_def5().status is FAILED


def test_lxm_thm2_certified_over_whole_intervals_and_a_wrong_level_fails(monkeypatch):
    out = CC13.certify_lxm_thm2()
    assert out.status is CONFIRMED and out.certified
    assert all(not info["uncovered"] for info in out.extra["intervals"].values())
    orig = CC13._two_sided_laws
    # the two-sided test's level understated by 40 %: the NP level now exceeds it somewhere
    monkeypatch.setattr(CC13, "_two_sided_laws", lambda t, b: tuple((lv * sp.Rational(3, 5), r)
                                                                    for lv, r in orig(t, b)))
    assert CC13.certify_lxm_thm2().status is FAILED


def test_kz_exa1_certified_and_a_smaller_tau_fails(monkeypatch):
    from derive import semantics as S
    out = CC2.certify_kz_exa1()
    assert out.status is CONFIRMED and out.certified
    monkeypatch.setattr(S, "tau", lambda e=sy.eps: sp.tanh(e / 4) * (1 - sp.Rational(1, 10**6)))
    monkeypatch.setattr(S, "eps_tilde", lambda e=sy.eps: sp.log((1 + 2 * sp.tanh(e / 4)) / (1 - 2 * sp.tanh(e / 4))))
    assert CC2.certify_kz_exa1().status is FAILED


@pytest.mark.slow
def test_kz_t28_certified_and_a_too_small_advanced_bound_fails(monkeypatch):
    from derive import composition as DC
    out = CC2.certify_t28()
    assert out.status is CONFIRMED and out.certified
    # an "advanced" bound a tenth of the true one is below the optimal eps: delta_opt there exceeds delta
    monkeypatch.setattr(DC, "advanced_eps", DC.eps0 * sp.sqrt(2 * DC.k * sp.log(1 / sy.delta)) / 10)
    assert CC2.certify_t28().status is FAILED


# ---------------------------------------------------------------- KZ-T2.7 (zCDP -> DP conversions)
# Independent references, plain mpmath (local precision): the exact eps of G_mu at delta by bisection of
# Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu) = delta, and the CKS infimum by golden-section search over
# s = log(a - 1) of a rho + (L + (a-1) log(1 - 1/a) - log a)/(a - 1) (unimodal in s for these cases).
def _ref_exact_eps(mu, delta, scale=1):
    with mpmath.workdps(60):
        mu, d = mpmath.mpf(mu), mpmath.mpf(delta)

        def prof(e):
            e = e / scale
            return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while prof(hi) > d:
            hi *= 2
        for _ in range(120):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if prof(mid) > d else (lo, mid)
        return hi


def _ref_cks_obj(rho, delta, a):
    with mpmath.workdps(40):
        rho, L, a = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta)), mpmath.mpf(a)
        return a * rho + (L + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)


def _ref_cks(rho, delta, flip=False):
    """inf over a > 1 of the CKS objective (with flip: its log(a) term added instead of subtracted)."""
    def f(s):
        a = 1 + mpmath.exp(s)
        return _ref_cks_obj(rho, delta, a) + (2 * mpmath.log(a) / (a - 1) if flip else 0)
    with mpmath.workdps(40):
        lo, hi = mpmath.mpf(-12), mpmath.mpf(12)
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(160):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            lo, hi = (lo, x2) if f(x1) < f(x2) else (x1, hi)
        return f((lo + hi) / 2)


@pytest.mark.slow
def test_kz_t27_certified_over_every_order_and_margin_matches_references():
    out = _claim("KZ-T2.7").certify()
    assert out.status is CONFIRMED and out.certified is True and out.method == "certified (arb balls)"
    intervals = out.extra["intervals"]
    assert len(intervals) == len(CC2.T27_CASES) * len(CC2.T27_DELTAS) == 25
    assert all(info["range"] == ["1", "oo"] and not info["uncovered"] for info in intervals.values())
    assert "BS >= CKS also holds at every rho > 0" in out.detail
    gaps = {}
    for r_t, mu_t in CC2.T27_CASES:
        for d_t in CC2.T27_DELTAS:
            ref = _ref_exact_eps(mu_t, d_t)
            e_u = mpmath.mpf(intervals[f"rho = {r_t}, delta = {d_t}"]["eps_U"])
            # eps_U is an upper bracket of the exact eps (relative width 1e-12; shown to 15 digits)
            assert ref * (1 - mpmath.mpf(10) ** -14) <= e_u <= ref * (1 + mpmath.mpf(10) ** -11)
            gaps[(r_t, d_t)] = (_ref_cks(r_t, d_t) - ref) / ref
    worst = min(gaps.values())
    margin = mpmath.mpf(out.margin)
    # a certified lower bound of (CKS - exact)/exact: below the true smallest gap, and not far below it
    assert 0 < margin <= worst and margin > worst * mpmath.mpf("0.8")
    assert (out.worst_at["rho"], out.worst_at["delta"]) == min(gaps, key=gaps.get)
    bs_cks = mpmath.mpf(out.extra["margins"]["BS >= CKS"]["lower_bound"])
    with mpmath.workdps(40):
        r_t, d_t = "8", "1e-300"
        bs = mpmath.mpf(r_t) + 2 * mpmath.sqrt(mpmath.mpf(r_t) * -mpmath.log(mpmath.mpf(d_t)))
        assert 0 < bs_cks <= (bs - _ref_cks(r_t, d_t)) / bs


def test_kz_t27_gaussian_eps_1_percent_larger_is_failed(monkeypatch):
    # the Gaussian profile at eps/1.01: its exact eps is 1.01 times the true one, above CKS where the CKS
    # gap is below 1 % (delta <= 1e-100: 0.67 % and 0.26 %)
    from derive.tradeoff import eps_prime
    orig = CC2._t27_profile
    monkeypatch.setattr(CC2, "_t27_profile", lambda mu: orig(mu).xreplace({eps_prime: eps_prime / sp.Rational(101, 100)}))
    out = CC2.certify_t27()
    assert out.status is FAILED and out.certified is True
    ce = out.counterexample
    assert ce["statement"] == "CKS >= exact" and (ce["rho"], ce["delta"]) == ("0.005", "1e-100")
    # the counterexample, independently: obj(a) <= its bound < 1.01 x the exact eps
    assert _ref_cks_obj("0.005", "1e-100", ce["a"]) <= mpmath.mpf(ce["objective_upper_bound"])
    assert mpmath.mpf(ce["objective_upper_bound"]) < _ref_exact_eps("0.1", "1e-100", scale=mpmath.mpf("1.01"))


def test_kz_t27_smaller_log_delta_in_cks_objective_is_failed(monkeypatch):
    from derive import composition as DC
    a = DC.order
    mutated = a * DC.rho + (sp.Rational(9, 10) * sp.log(1 / sy.delta) + (a - 1) * sp.log(1 - 1 / a) - sp.log(a)) / (a - 1)
    monkeypatch.setattr(DC, "cks_objective", mutated)
    out = CC2.certify_t27()
    assert out.status is FAILED and out.counterexample["statement"] == "CKS >= exact"


def test_kz_t27_bs_above_cks_fails_when_broken(monkeypatch):
    from derive import composition as DC
    # Bun-Steinke without its factor 2: rho + sqrt(rho L) < CKS (0.191 < 0.236 at rho = 0.005, delta = 1e-3)
    monkeypatch.setattr(DC, "bun_steinke_eps", DC.rho + sp.sqrt(DC.rho * sp.log(1 / sy.delta)))
    out = CC2.certify_t27()
    assert out.status is FAILED and out.counterexample["statement"] == "BS >= CKS"
    assert (out.counterexample["rho"], out.counterexample["delta"]) == ("0.005", "1e-3")
    with mpmath.workdps(30):
        assert mpmath.mpf("0.005") + mpmath.sqrt(mpmath.mpf("0.005") * mpmath.log(1000)) < _ref_cks("0.005", "1e-3")
    # the CKS objective with its log(a) sign flipped is above Bun-Steinke at every order there
    monkeypatch.undo()
    a = DC.order
    monkeypatch.setattr(DC, "cks_objective", DC.cks_objective + 2 * sp.log(a) / (a - 1))
    out = CC2.certify_t27()
    assert out.status is FAILED and out.counterexample["statement"] == "BS >= CKS"
    with mpmath.workdps(30):
        bs = mpmath.mpf("0.005") + 2 * mpmath.sqrt(mpmath.mpf("0.005") * mpmath.log(1000))
        assert _ref_cks("0.005", "1e-3", flip=True) > bs > _ref_cks("0.005", "1e-3")


def test_kz_t27_never_confirms_what_it_cannot_bound_and_never_refutes_a_true_case(monkeypatch):
    from derive import composition as DC
    # an objective outside the form the tail bounds use (an extra e^-a term): no tail bound, INCONCLUSIVE
    monkeypatch.setattr(DC, "cks_objective", DC.cks_objective + sp.exp(-DC.order))
    out = CC2.certify_t27()
    assert out.status.name == "INCONCLUSIVE" and not out.certified
    monkeypatch.undo()
    # the refutation step on the true objective and profile (a cell at the CKS optimum) proves nothing
    rho, d = sp.Rational("0.5"), sp.Rational("1e-6")
    obj_t = DC.cks_objective.xreplace({DC.rho: rho, sy.delta: d, DC.order: 1 + CC2._T})
    t_opt = sp.Rational(3, 1)                       # near sqrt(L/rho) - ish; any cell: obj >= CKS > exact
    assert CC2._t27_refute(obj_t, CC2._t27_profile("1"), d, (t_opt, t_opt + 1)) is None


# ---------------------------------------------------------------- DRS-Thm3.5:band, SU-Eq4.1
def _ref_rr_composition(eps, k, alpha):
    """f_{eps,0}^(x)k at alpha, plain mpmath: Neyman-Pearson between Bin(k, 1/(1+e^eps)) and
    Bin(k, e^eps/(1+e^eps)), rejecting large counts, randomised at the boundary."""
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        q0 = 1 / (1 + e)
        p_ = [mpmath.binomial(k, j) * q0 ** j * (1 - q0) ** (k - j) for j in range(k + 1)]
        q_ = [mpmath.binomial(k, j) * (1 - q0) ** j * q0 ** (k - j) for j in range(k + 1)]
        left, beta = mpmath.mpf(alpha), mpmath.mpf(1)
        for j in range(k, -1, -1):
            take = min(left, p_[j])
            beta -= q_[j] * take / p_[j]
            left -= take
            if left <= 0:
                break
        return beta


def test_rr_composition_is_the_binomial_neyman_pearson_curve():
    from proofs_check import certified as Cert
    for eps, k in (("0.1", 100), ("0.3", 30), ("0.1", 10)):
        for alpha in ("0.05", "0.2", "0.55", "0.9"):
            expr = CC4._rr_composition(sp.Rational(eps), k, sp.Rational(alpha))
            ball = Cert._enclose(expr, {}, 128)
            ref = _ref_rr_composition(eps, k, alpha)
            with mpmath.workdps(50):        # the ball's midpoint carries 128 bits
                assert abs(Cert._mpf(ball.mid()) - ref) < mpmath.mpf(10) ** -30, (eps, k, alpha)


@pytest.mark.slow
def test_band_certified_and_a_narrower_band_fails(monkeypatch):
    from numeric import clt as NCLT
    out = _claim("DRS-Thm3.5:band").certify()
    assert out.status is CONFIRMED and out.certified is True
    assert set(out.extra["intervals"]) == {"randomized-response, eps = 0.1, k = 100",
                                           "randomized-response, eps = 0.3, k = 30", "laplace, eps = 0.1, k = 10"}
    assert mpmath.mpf(out.margin) > mpmath.mpf("0.05")
    # a Berry-Esseen constant 100 times smaller: the band is too narrow for the exact RR composition
    monkeypatch.setattr(NCLT, "BERRY_ESSEEN_C", (56, 10000))
    out = CC4.certify_band()
    assert out.status is FAILED and out.certified is True
    assert out.counterexample["mechanism"] == "randomized-response"


@pytest.mark.slow
def test_eq41_certified_and_a_wrong_gaussian_is_never_confirmed(monkeypatch):
    import dataclasses

    from numeric import mixtures as MX
    from numeric import mp
    out = _claim("SU-Eq4.1").certify()
    assert out.status is CONFIRMED and out.certified is True
    # the certified lower bound of left - right at its worst point is below the numeric slack (a different
    # route: numeric.mixtures traces the Neyman-Pearson region) and close to it
    where = out.worst_at
    assert where == {"mixture": "w = (3, 7), a = (0, 3), b = (1, '3.5')", "t": "0.05"}
    with mpmath.workdps(25):
        mix = MX.Mixture((mpmath.mpf("0.3"), mpmath.mpf("0.7")), (mpmath.mpf(0), mpmath.mpf(3)),
                         (mpmath.mpf(1), mpmath.mpf("3.5")))
        left, right = MX.eq41_sides(mix, mpmath.mpf("0.05"),
                                    lambda m, a: mp.tradeoff(derive.gaussian(mpmath.nstr(m, 30)), mpmath.nstr(a, 30), 22))
        assert mpmath.mpf("0.99") * (left - right) < mpmath.mpf(out.margin) <= left - right
    # G_{mu/2} in place of G_mu raises the right side above the mixture's trade-off: not confirmed (a lower
    # bound cannot refute, so INCONCLUSIVE)
    orig = derive.gaussian
    monkeypatch.setattr(derive, "gaussian", lambda *a, **k: dataclasses.replace(
        orig(*a, **k), tradeoff=orig(*a, **k).tradeoff.xreplace({sy.mu: sy.mu / 2})))
    out = CC4.certify_eq41()
    assert out.status.name == "INCONCLUSIVE" and not out.certified
