"""C_p(f) in risk, posterior and auc (issue #9 item 4): numeric/subsampling.py against independent routes.

References:
* rho of the subsampled Laplace mechanism: the classical amplification bound e^{eps'} = 1 + p (e^eps - 1)
  (the relative risk of a pure eps'-DP mechanism is e^{eps'}), written out here;
* the power at alpha0 <= x*: p (1 - f(alpha0)) + (1 - p) alpha0 from the base record (numeric.mp);
* the AUC: the area under the lower convex hull of the points of f_p and of f_p^{-1} (f_p on a grid of
  40001 points in float64, numeric.fp; the inverse by swapping coordinates), by trapezoids: no fixed
  point, no formula of numeric/subsampling.py.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derive.mechanisms import approx_dp, gaussian, laplace
from numeric import auc as A
from numeric import fp, mp
from numeric import risk as NR
from numeric import subsampling as S
from tests.cli_runner import run


def _hull_area(record, p, kinks=()):
    """Area under min{f_p, f_p^{-1}}** from points, by the lower convex hull (monotone chain); the
    kinks of f (given) are grid points, so that the hull's vertices are exact."""
    a = np.unique(np.concatenate([np.linspace(0, 1, 20001), np.logspace(-12, 0, 20000), list(kinks)]))
    fpa = p * np.asarray(fp.tradeoff(record, a), dtype=float) + (1 - p) * (1 - a)
    pts = np.concatenate([np.stack([a, fpa], 1), np.stack([fpa, a], 1), [[0.0, 1.0], [1.0, 0.0]]])
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0]))]
    hull = []
    for x, y in pts:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) <= 0:     # not a left turn: drop the middle
                hull.pop()
            else:
                break
        hull.append((x, y))
    h = np.array(hull)
    return float(np.sum((h[1:, 0] - h[:-1, 0]) * (h[1:, 1] + h[:-1, 1]) / 2))


# f_{1, 0.01} has one kink, at alpha = (1 - delta)/(1 + e^eps); Laplace(1)'s f at e^{-1}/2 and 1/2
@pytest.mark.parametrize("record,p,kinks", [(gaussian("1"), 0.1, ()), (laplace("1"), 0.3, (np.exp(-1) / 2, 0.5)),
                                            (approx_dp("1", "0.01"), 0.5, (0.99 / (1 + np.e),)),
                                            (gaussian("3"), 0.02, ())])
def test_auc_is_the_area_under_the_hull(record, p, kinks):
    got = S.auc(record, str(p), 15)
    assert abs(float(got) - (1 - _hull_area(record, p, kinks))) < 1e-8


def test_rate_one_is_the_base_record():
    for rec in (gaussian("1"), laplace("0.5")):
        assert abs(S.auc(rec, "1", 20) - A.auc(rec, 20)) < mpmath.mpf(10) ** -19
        r1, r0 = S.risk(rec, "1", digits=20), NR.risk(rec, digits=20)
        assert abs(r1.power_alpha0 - r0.power_alpha0) < mpmath.mpf(10) ** -19 * r0.power_alpha0
        assert r1.failure == r0.failure


@pytest.mark.parametrize("eps,p", [("1", "0.1"), ("0.5", "0.01"), ("3", "0.7")])
def test_laplace_rho_is_the_amplified_epsilon(eps, p):
    r = S.risk(laplace(eps), p, digits=30)
    with mpmath.workdps(50):
        ref = 1 + mpmath.mpf(p) * mpmath.expm1(mpmath.mpf(eps))     # e^{eps'} = 1 + p (e^eps - 1)
        sup = ref / (ref + 1)                                         # prior 1/2: pi rho / (pi rho + 1 - pi)
    assert r.failure == "none"
    assert abs(r.rho - ref) < mpmath.mpf(10) ** -29 * ref
    assert abs(r.posterior_sup - sup) < mpmath.mpf(10) ** -29


def test_power_and_posterior_at_alpha0_from_the_base():
    rec = gaussian("1")
    r = S.risk(rec, "0.1", "0.01", "0.2", digits=20)
    with mpmath.workdps(40):
        p, a0 = mpmath.mpf("0.1"), mpmath.mpf("0.01")
        pw = p * mp.power(rec, "0.01", 30) + (1 - p) * a0
        post = mpmath.mpf("0.2") * pw / (mpmath.mpf("0.8") * a0 + mpmath.mpf("0.2") * pw)
        assert abs(r.power_alpha0 - pw) < mpmath.mpf(10) ** -19 * pw
        assert abs(r.posterior_alpha0 - post) < mpmath.mpf(10) ** -19
        q = S.posterior(rec, "0.1", "0.2", "0.01", 20)
        assert abs(q.posterior - post) < mpmath.mpf(10) ** -19
    assert r.failure == "graceful" and str(r.posterior_sup) == "Exact(1/1)"
    # approx-dp: C_p(f)(0) = p (1 - delta) + 1 - p < 1, catastrophic
    c = S.risk(approx_dp("1", "0.01"), "0.5")
    assert c.failure == "catastrophic" and str(c.f0_expr) == "199/200"


def test_cli_risk_auc_posterior_take_p():
    got = run(("risk", "laplace", "--eps", "1", "--p", "0.1", "--json")).json()
    assert got["p"] == "0.1" and got["rho_exact"] == "E/10 + 9/10" and got["failure"] == "none"
    auc = run(("auc", "gaussian", "--mu", "1", "--p", "0.1", "--json")).json()
    assert abs(float(auc["auc"]) - (1 - _hull_area(gaussian("1"), 0.1))) < 1e-7
    post = run(("posterior", "gaussian", "--mu", "1", "--prior", "0.5", "--alpha", "0", "--p", "0.01", "--json")).json()
    assert post["posterior"].startswith("1.0") and post["note"]
    for argv in (("risk", "gaussian", "--mu", "1", "--p", "0"), ("auc", "laplace", "--eps", "1", "--p", "1.5")):
        r = run(argv)
        assert r.rc == 2 and "p=" in r.err and "Traceback" not in r.err


# ------------------------------------------------------------------ mutations


def test_mutation_fixed_point_is_caught(monkeypatch):
    """x* off by 1 %: the area formula is stationary in x* (the hull's tangency), so the error is
    second order (5e-7 here), still 50x the test's tolerance."""
    orig = S.Subsampled.fixed_point
    monkeypatch.setattr(S.Subsampled, "fixed_point", lambda self: orig(self) * mpmath.mpf("1.01"))
    got = S.auc(gaussian("1"), "0.1", 12)
    assert abs(float(got) - (1 - _hull_area(gaussian("1"), 0.1))) > 1e-8


def test_mutation_rate_is_caught(monkeypatch):
    orig = S.Subsampled.__init__

    def off(self, record, p):
        orig(self, record, p)
        self.p_exact = self.p_exact * S.sp.Rational(1001, 1000)
    monkeypatch.setattr(S.Subsampled, "__init__", off)
    r = S.risk(laplace("1"), "0.1", digits=20)
    with mpmath.workdps(40):
        ref = 1 + mpmath.mpf("0.1") * mpmath.expm1(1)
    assert abs(r.rho - ref) > mpmath.mpf(10) ** -6


def test_plot_tradeoff_draws_c_p_beside_the_base(tmp_path):
    """The C_p curve's data: equal to `tradeoff --p` at two points, above the base curve (C_p(f) >= f:
    subsampling never weakens privacy) and below Id, and refused with other kinds."""
    import csv
    out = tmp_path / "cp.png"
    r = run(("plot", "tradeoff", "gaussian", "--mu", "2", "--p", "0.1", "--points", "21", "--out", str(out)))
    assert r.rc == 0, r.err
    with open(tmp_path / "cp.csv") as fh:
        rows = list(csv.DictReader(fh))
    base = {x["alpha"]: mpmath.mpf(x["beta"]) for x in rows if not x["series"].startswith("C_p")}
    cp = {x["alpha"]: mpmath.mpf(x["beta"]) for x in rows if x["series"].startswith("C_p")}
    assert len(cp) == 21 and set(cp) == set(base)
    for a, b in cp.items():
        assert base[a] - mpmath.mpf(10) ** -14 <= b <= 1 - mpmath.mpf(a) + mpmath.mpf(10) ** -14
    alphas = sorted(cp, key=float)
    for a in (alphas[3], alphas[15]):
        want = run(("tradeoff", "gaussian", "--mu", "2", "--p", "0.1", "--alpha", a, "--json")).json()
        assert abs(cp[a] - mpmath.mpf(want["beta"])) < mpmath.mpf(10) ** -12
    bad = run(("plot", "posterior", "gaussian", "--mu", "1", "--p", "0.1", "--out", str(out)))
    assert bad.rc == 2 and "p=0.1" in bad.err
