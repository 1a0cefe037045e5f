"""The result dataclasses of numeric.risk, semantics, attack, composition, design and cnd (issue #13 item 3).

Each result is frozen, gives ``as_dict(digits)`` (mpf fields as strings of ``digits`` significant
digits) and renders in Jupyter as a table naming its fields (``_repr_html_``).  Every reference value
below is a closed form (or an independent search) evaluated here in mpmath at 50 digits; the comment
next to it says which.  The results are computed at 30 digits and shown at fewer, so that the last
shown digit is not a rounding tie of the computation.
"""

from __future__ import annotations

import dataclasses
import re

import mpmath
import pytest

import derive
from numeric import attack, cnd, composition, design, risk, semantics

WDPS = 50


def sig_digits(s: str) -> int:
    """Significant digits of a decimal string such as '0.0123', '2.71828', '1.5e-7'."""
    mant = re.split("[eE]", s)[0].lstrip("+-").replace(".", "")
    return len(mant.lstrip("0"))


def n_shown(x) -> int:
    """A number of digits (12 to 15) at which mpmath.nstr shows x with no trailing zero (nstr strips them)."""
    return next(n for n in (12, 13, 14, 15) if sig_digits(mpmath.nstr(x, n)) == n)


def shown(x, n: int) -> str:
    """The reference as as_dict shows it: mpmath.nstr to n significant digits."""
    return mpmath.nstr(x, n)


def check_display(result, cls, mpf_fields: dict, digits: int = 12):
    """Frozen, as_dict(n) equal to the references and with n significant digits (n from n_shown), and a
    table whose caption is the class and whose rows name every field."""
    assert type(result) is cls and dataclasses.is_dataclass(result)
    name = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, name, None)
    d = result.as_dict(digits)
    assert list(d) == [f.name for f in dataclasses.fields(result)]
    for key, ref in mpf_fields.items():
        assert isinstance(getattr(result, key), mpmath.mpf), key
        n = n_shown(ref)
        got = result.as_dict(n)[key]
        assert got == shown(ref, n), (key, got)
        assert sig_digits(got) == n
    html = result._repr_html_()
    assert html.startswith(f"<table><caption>{cls.__name__}</caption>")
    for f in dataclasses.fields(result):
        assert f"<th style='text-align:left'>{f.name}</th>" in html
    return d


# ----------------------------------------------------------------------------------- numeric.risk
def test_posterior_result():
    r = risk.posterior(derive.laplace("1"), "0.5", "0.01", 30)
    with mpmath.workdps(WDPS):
        e = mpmath.e
        # Laplace eps = 1 at alpha = 0.01 < e^-1/2: power 1 - f = e alpha, so with prior 1/2 the posterior
        # is e alpha/(e alpha + alpha) = e/(1 + e) and its complement 1/(1 + e)
        refs = {"posterior": e / (1 + e), "one_minus_posterior": 1 / (1 + e)}
    d = check_display(r, risk.PosteriorResult, refs)
    assert d["at_zero"] is None and d["digits"] == 30
    # as_dict() with no argument shows the result's own (verified) 30 digits
    assert sig_digits(r.as_dict()["posterior"]) == 30
    assert risk.posterior(derive.laplace("1"), "0.5", "0", 15).at_zero == "limit alpha -> 0+"


def test_risk_result():
    r = risk.risk(derive.laplace("1"), "0.01", "0.5", 30)
    with mpmath.workdps(WDPS):
        e = mpmath.e
        # Laplace eps = 1 (catalog DF-Table1): f(0) = 1 (failure none), rho = sup (1 - f)/alpha = e^eps,
        # attained on alpha <= e^-1/2, so rho_alpha0 = e and the power at 0.01 is 0.01 e; prior 1/2:
        # posterior at alpha0 and its supremum are both e/(1 + e)
        refs = {"rho": e, "rho_alpha0": e, "power_alpha0": e / 100, "posterior_alpha0": e / (1 + e),
                "one_minus_posterior_alpha0": 1 / (1 + e), "posterior_sup": e / (1 + e),
                "one_minus_posterior_sup": 1 / (1 + e)}
    d = check_display(r, risk.RiskResult, refs)
    assert d["failure"] == "none" and d["posterior_sup_attained"] is True     # reached at alpha0 = 0.01 already
    assert mpmath.mpf(d["f0"]) == 1 and d["rho_expr"] == "E"          # f(0) = 1; SymPy's E for rho


def test_classification_and_latex():
    c = risk.classify(derive.laplace("1"))
    d = check_display(c, risk.Classification, {})
    # f(0) = 1 and rho = e^1 for Laplace eps = 1 (as above), each with how SymPy obtained it
    assert d["failure"] == "none" and d["f0"]["value"] == "1" and d["rho"]["value"] == "E"
    assert isinstance(d["rho"]["method"], str)
    t = risk.latex(derive.laplace("1"))
    d = check_display(t, risk.RiskLatex, {})
    assert d == {"f0": "1", "rho": "e", "posterior_sup": t.posterior_sup}
    assert "pi" in t.posterior_sup


# ------------------------------------------------------------------------------ numeric.semantics
# the independent golden-section search over delta of the Bun-Steinke eps' (one copy, in test_semantics)
from test_semantics import _bs_eps_prime_min as _eps_prime_min  # noqa: E402


def test_semantics_result():
    r = semantics.semantics("1", "0", "0.01", "0.5", 30)
    with mpmath.workdps(WDPS):
        e = mpmath.e
        # delta = 0: eps' = eps = 1 (Thm 3.9); with prior 1/2 the posterior lies in [1/(1 + e), e/(1 + e)],
        # the ratio in [1/e, e], |posterior - prior| <= tanh(eps/4) (= 1 - 2 p*), worst prior p* = 1/(1 + e^(1/2))
        refs = {"posterior_upper": e / (1 + e), "posterior_lower": 1 / (1 + e), "ratio_upper": e,
                "ratio_lower": 1 / e, "difference_bound": mpmath.tanh(mpmath.mpf(1) / 4),
                "worst_case_prior": 1 / (1 + mpmath.sqrt(e))}
    d = check_display(r, semantics.SemanticsResult, refs)
    assert mpmath.mpf(d["eps_prime"]) == 1 and d["probability"] == "0.99"      # eps' = 1, 1 - delta' = 0.99


def test_zcdp_eps_prime_result():
    r = semantics.zcdp_eps_prime("0.3", "0.01", "bun-steinke", 30)
    with mpmath.workdps(WDPS):
        ref = _eps_prime_min(mpmath.mpf("0.3"), mpmath.mpf("0.01"))   # the independent search above
    d = check_display(r, semantics.ZcdpEpsPrime, {"eps_prime": ref})
    assert isinstance(r.delta, mpmath.mpf) and 0 < r.delta < mpmath.mpf("0.01") and d["digits"] == 30


def test_releases_until_and_bounds_over_releases():
    with mpmath.workdps(WDPS):
        rho, dp = mpmath.mpf("0.5"), mpmath.mpf("0.01")

        def upper(k):        # U(1/2, eps'_k) = 1/(1 + e^-eps'_k), eps'_k of k rho (the search above)
            return 1 / (1 + mpmath.exp(-_eps_prime_min(k * rho, dp)))

        def tau(k):          # tau(eps'_k) = tanh(eps'_k/4)
            return mpmath.tanh(_eps_prime_min(k * rho, dp) / 4)
        ups = [upper(k) for k in (1, 2, 3, 4)]
        k_ref = next(k for k, u in zip((1, 2, 3, 4), ups) if u > mpmath.mpf("0.998"))
        refs = {"bound_at_k": ups[k_ref - 1], "bound_before": ups[k_ref - 2]}
        taus = [tau(k) for k in (1, 3)]
    assert k_ref > 1
    r = semantics.releases_until("0.5", "0.01", "0.998", "posterior")
    d = check_display(r, semantics.ReleasesUntil, refs)
    assert d["k"] == k_ref and d["digits"] == 20

    b = semantics.bounds_over_releases("0.5", "0.01", [1, 3], "0.5", digits=30)
    d = check_display(b, semantics.ReleaseBounds, {})
    assert d["posterior_upper"] == [shown(ups[0], 12), shown(ups[2], 12)]
    assert d["difference_bound"] == [shown(t, 12) for t in taus]


# --------------------------------------------------------------------------------- numeric.attack
def test_pr_result():
    r = attack.pr(derive.laplace("1"), "0.01", 30)
    with mpmath.workdps(WDPS):
        e = mpmath.e
        # Laplace eps = 1 (scale 1, means 0 and 1): the level-alpha test rejects above theta = log(1/(2 alpha))
        # = log 50, and recall = P(Lap > theta - 1) = e^(1 - theta)/2 = e alpha; precision R/(R + alpha) = e/(1 + e)
        refs = {"threshold": mpmath.log(50), "recall": e / 100, "precision": e / (1 + e),
                "one_minus_precision": 1 / (1 + e)}
    d = check_display(r, attack.PrResult, refs)
    assert d["note"] is None
    assert "alpha = 0" in attack.pr(derive.laplace("1"), "0", 15).note


def test_fscore_optimum_result():
    r = attack.fscore_optimum(derive.laplace("0.01"), "1", 30)
    with mpmath.workdps(WDPS):
        # Laplace eps = 0.01 < the turning point: the plateau, alpha* = 1 (reject always), recall 1, so
        # F_1 = 2 x 1/(1 + 1 + 1) = 2/3 and 1 - F = 1/3 (seed 001, Sec. 4: (1 + b^2)/(2 + b^2))
        refs = {"fscore": mpmath.mpf(2) / 3, "one_minus_fscore": mpmath.mpf(1) / 3}
    d = check_display(r, attack.FscoreOptimum, refs)
    assert d["branch"] == "plateau" and d["threshold"] == "-inf" and mpmath.mpf(d["alpha"]) == 1
    assert d["one_minus_alpha"] is None


def _laplace_fstar(eps):
    """max over alpha of F_1 = 2R/(R + alpha + 1) for Laplace eps (R = 1 - f(alpha), f the Laplace
    trade-off: 1 - e^eps a on [0, e^-eps/2], e^-eps/(4a) on [e^-eps/2, 1/2], e^-eps (1 - a) above):
    golden section on each piece, at the ambient precision."""
    em = mpmath.exp(-eps)

    def F(a):
        f = 1 - a / em if a <= em / 2 else (em / (4 * a) if a <= mpmath.mpf(1) / 2 else em * (1 - a))
        R = 1 - f
        return 2 * R / (R + a + 1)
    best = max(F(em / 2), F(mpmath.mpf(1) / 2), F(mpmath.mpf(1)))
    g = (mpmath.sqrt(5) - 1) / 2
    for lo, hi in ((em / 2, mpmath.mpf(1) / 2), (mpmath.mpf(1) / 2, mpmath.mpf(1))):
        for _ in range(200):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            if F(c) > F(d):
                hi = d
            else:
                lo = c
        best = max(best, F((lo + hi) / 2))
    return best


def test_fscore_inverse_result():
    r = attack.fscore_inverse("1", "0.67", digits=30)
    with mpmath.workdps(40):
        # the eps with F*_1(eps) = 0.67, by bisection on the brute-force optimum above (F* increases with eps)
        lo, hi = mpmath.mpf("0.1"), mpmath.mpf(2)
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _laplace_fstar(mid) < mpmath.mpf("0.67") else (lo, mid)
        ref = (lo + hi) / 2
    d = check_display(r, attack.FscoreInverse, {"eps": ref})
    assert d["reason"] is None
    none = attack.fscore_inverse("1", "0.5")            # below the plateau 2/3: no eps
    assert none.eps is None and "plateau" in none.as_dict()["reason"]


# ---------------------------------------------------------------------------- numeric.composition
def test_compose_pure_result():
    r = composition.compose_pure("0.1", 10, "1e-6", "advanced", 30)
    with mpmath.workdps(WDPS):
        e0, k, dl = mpmath.mpf("0.1"), 10, mpmath.mpf("1e-6")
        # Dwork-Rothblum-Vadhan: eps0 sqrt(2 k log(1/delta)) + k eps0 (e^eps0 - 1)
        ref = e0 * mpmath.sqrt(2 * k * mpmath.log(1 / dl)) + k * e0 * mpmath.expm1(e0)
    assert ref > 1                                        # worse than basic k eps0 = 1: a note says so
    d = check_display(r, composition.ComposePureResult, {"eps": ref})
    assert d["delta"] == "1/1000000" and "worse than basic" in d["note"]


def test_zcdp_dp_result():
    r = composition.zcdp_to_dp("0.25", 2, "1e-5", "bun-steinke", 30)
    with mpmath.workdps(WDPS):
        rho = mpmath.mpf("0.5")
        # 2 releases of 0.25-zCDP are 0.5-zCDP; Bun-Steinke: rho + 2 sqrt(rho log(1/delta))
        ref = rho + 2 * mpmath.sqrt(rho * mpmath.log(mpmath.mpf(10) ** 5))
    d = check_display(r, composition.ZcdpDpResult, {"eps": ref})
    assert d["rho_total"] == "1/2" and d["note"] is None and d["bun_steinke"] is None


# --------------------------------------------------------------------------------- numeric.design
def test_select_result():
    r = design.select(derive.gaussian(), "power", "0.5", "0.01", 30)
    with mpmath.workdps(WDPS):
        # G_mu's power at alpha is Phi(mu - z_{1-alpha}); it is 1/2 at mu = z_0.99 = sqrt(2) erfinv(0.98)
        ref = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.98"))
    d = check_display(r, design.SelectResult, {"value": ref})
    assert d["parameter"] == "mu" and isinstance(d["expr"], str) and isinstance(d["equation"], str)


def test_ztest_results():
    r = design.ztest("100", "1", "0.3", "0.05", "1", digits=30)
    with mpmath.workdps(WDPS):
        z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.9"))            # z_0.95
        # sigma_n^2 = sigma^2/n + (1/n)^2/mu^2 = 1/100 + 1/10^4; power Phi(m/sigma_n - z_0.95); unprotected
        # Phi(m sqrt(n)/sigma - z_0.95) = Phi(3 - z_0.95) (the one-sided Z-test)
        sn = mpmath.sqrt(mpmath.mpf(1) / 100 + mpmath.mpf(1) / 10**4)
        refs = {"sigma_n": sn, "power": mpmath.ncdf(mpmath.mpf("0.3") / sn - z),
                "power_unprotected": mpmath.ncdf(3 - z), "one_minus_power": mpmath.ncdf(z - mpmath.mpf("0.3") / sn)}
    check_display(r, design.ZtestResult, refs)

    m = design.ztest_min_mu("100", "1", "0.3", "0.05", min_power="0.01", digits=30)
    d = check_display(m, design.ZtestMinMu, {"power_unprotected": refs["power_unprotected"]})
    # a target power 0.01 below the level 0.05: every mu > 0 meets it, mu = 0 exactly, with a note
    assert d["mu"] == "0" and d["target_power"] == "0.01" and "every mu" in d["note"] and d["expr"] is None


# ------------------------------------------------------------------------------------ numeric.cnd
def test_cdf_result():
    r = cnd.cdf(derive.gaussian("1"), "0.3", 30)
    with mpmath.workdps(WDPS):
        # the CND of G_1 is linear on [-1/2, 1/2]: F(x) = c (1/2 - x) + (1 - c)(x + 1/2), with the fixed point
        # G_1(c) = c at c = Phi(-1/2) (by symmetry PhiInv(1 - c) = 1/2); at x = 0.3: 0.8 - 0.6 c
        c = mpmath.ncdf(-mpmath.mpf(1) / 2)
        refs = {"cdf": mpmath.mpf("0.8") - mpmath.mpf("0.6") * c, "survival": mpmath.mpf("0.2") + mpmath.mpf("0.6") * c}
    d = check_display(r, cnd.CdfResult, refs)
    assert d["note"] == cnd.NOTE
