"""numeric/noisy_sgd.py and ``noisy-gd --batch stochastic``: BSA24's CLT approximation for NoisySGD.

References are independent of the module: Dong-Roth-Su's CLT factor by SymPy evalf on exact Rationals at 50
digits (erf/erfc, not mpmath.ncdf), its small-mu limit mu^2/2 by series, the minimisation over tau by brute
force over every integer with the shift weight summed term by term (sum_{k=nu+1}^{t-1} c^k in exact Rationals),
and the invariance of the projected term under rescaling the parameter space.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from numeric import noisy_sgd as S
from tests.cli_runner import assert_usage_error, run

R = sp.Rational


def _factor_ref(mu: str):
    """e^{mu^2} Phi(3mu/2) + 3 Phi(-mu/2) - 2 by SymPy at 50 digits, Phi(x) = erfc(-x/sqrt 2)/2 on Rationals."""
    m = R(mu)
    phi = lambda x: sp.erfc(-x / sp.sqrt(2)) / 2   # noqa: E731
    return mpmath.mpf(str(sp.N(sp.exp(m**2) * phi(3 * m / 2) + 3 * phi(-m / 2) - 2, 50)))


@pytest.mark.parametrize("mu", ["0.2", "0.001", "3"])
def test_clt_factor_against_sympy(mu):
    with mpmath.workdps(40):
        got = S.clt_factor(R(mu))
        ref = _factor_ref(mu)
        assert abs(got - ref) <= mpmath.mpf("1e-30") * ref


def test_clt_small_mu_limit():
    # series: e^{m^2} Phi(3m/2) + 3 Phi(-m/2) - 2 = m^2/2 + O(m^3), so mu_CLT -> p sqrt(k) mu (the Gaussian
    # composition of k steps, each a p-fraction of G_mu)
    with mpmath.workdps(30):
        got = S.mu_clt_subsampled(R(1, 100), 400, R(1, 10**8))
        assert abs(got / (mpmath.mpf(1) / 100 * 20 * mpmath.mpf(10) ** -8) - 1) < mpmath.mpf("1e-7")


def _brute_unconstrained(p, mu_s, c, t):
    """min over every nu in [0, t-1], the shift weight summed term by term in exact Rationals."""
    best = None
    for nu in range(t):
        w = sum((c**k for k in range(nu + 1, t)), R(0))
        v = 2 * p**2 * (nu + 1) * _factor_ref(str(mu_s)) + 2 * mpmath.mpf(str(sp.N(mu_s * w, 50))) ** 2
        if best is None or v < best[0]:
            best = (v, t - nu)
    return mpmath.sqrt(best[0]), best[1]


@pytest.mark.parametrize("c,t", [(R(9, 10), 40), (R(1, 2), 12), (R(1), 15)])
def test_unconstrained_against_brute_force(c, t):
    p, mu_s = R(1, 20), R(1, 2)
    with mpmath.workdps(40):
        mu, tau = S.mu_unconstrained(p, mu_s, c, t)
        ref, ref_tau = _brute_unconstrained(p, mu_s, c, t)
        assert abs(mu - ref) < mpmath.mpf("1e-25") and tau == ref_tau


def test_unconstrained_never_above_composition_and_convex_is_composition():
    p, mu_s = R(1, 100), R(1, 5)
    with mpmath.workdps(30):
        comp = S.mu_clt_subsampled(p, 3000, mu_s)
        sc, _ = S.mu_unconstrained(p, mu_s, R(99, 100), 3000)
        cvx, tau = S.mu_unconstrained(p, mu_s, R(1), 3000)
        assert sc < comp and cvx == comp and tau == 1


def _brute_projected(p, mu_s, t, ratio, lam):
    inner = mpmath.sqrt(1 + 1 / mpmath.mpf(str(lam))) * mpmath.mpf(str(mu_s))
    with mpmath.workdps(60):
        m = inner
        k = mpmath.exp(m**2) * mpmath.ncdf(3 * m / 2) + 3 * mpmath.ncdf(-m / 2) - 2
    vals = [((1 + lam) * ratio**2 / nu + 2 * p**2 * nu * k, t - nu) for nu in range(1, t + 1)]
    v, tau = min(vals, key=lambda x: x[0])
    return mpmath.sqrt(v), tau


@pytest.mark.parametrize("ratio,lam", [(R(10, 3), R(9)), (R(1, 10), R(1)), (R(100), R(9))])
def test_projected_against_brute_force(ratio, lam):
    p, mu_s, t = R(1, 50), R(2, 3), 300
    with mpmath.workdps(40):
        mu, tau = S.mu_projected(p, mu_s, t, ratio, lam)
        ref, ref_tau = _brute_projected(p, mu_s, t, ratio, lam)
        assert abs(mu - ref) < mpmath.mpf("1e-25") and tau == ref_tau


def test_projected_rescaling_invariance():
    """x -> s x maps (D, L, eta, sigma) to (s D, L/s, s^2 eta, sigma/s); the approximation must not move."""
    base = dict(L="1", M="1", m="0", eta="0.1", sigma="3", n="1000", b="10", steps="2000", diameter="1")
    s = R(2)
    moved = dict(base, L="0.5", M="0.25", eta="0.4", sigma="1.5", diameter="2")   # M -> M/s^2 keeps eta M
    a = S.account("convex", **base)
    b = S.account("convex", **moved)
    assert s == 2 and a.mu_last == b.mu_last and a.tau == b.tau


def test_mutation_shift_weight_sign(monkeypatch):
    """A wrong shift weight (c^t added, not subtracted) must fail the brute-force comparison."""
    def wrong(c, nu, t):
        cm = mpmath.mpf(c.p) / c.q
        return (cm ** (nu + 1) + cm ** t) / (1 - cm)
    monkeypatch.setattr(S, "_shift_weight", wrong)
    with mpmath.workdps(40):
        mu, _ = S.mu_unconstrained(R(1, 20), R(1, 2), R(9, 10), 40)
        ref, _ = _brute_unconstrained(R(1, 20), R(1, 2), R(9, 10), 40)
    assert abs(mu - ref) > mpmath.mpf("1e-6")


def test_mutation_clt_constant(monkeypatch):
    """Dong-Roth-Su's 3 Phi(-mu/2) replaced by 2 Phi(-mu/2) + ... must fail the SymPy comparison."""
    def wrong(mu):
        m = mpmath.mpf(mu.p) / mu.q
        return mpmath.exp(m**2) * mpmath.ncdf(3 * m / 2) + 2 * mpmath.ncdf(-m / 2) - 1.5
    monkeypatch.setattr(S, "clt_factor", wrong)
    with mpmath.workdps(40):
        got = S.mu_clt_subsampled(R(1, 10), 10, R(1, 5))
        ref = mpmath.sqrt(2 * 10 * _factor_ref("0.2")) / 10
    assert abs(got - ref) > mpmath.mpf("1e-6")


_SGD = ("noisy-gd", "--setting", "convex", "--batch", "stochastic", "--L", "1", "--M", "1", "--eta", "0.1",
        "--sigma", "3", "--n", "1000", "--b", "10", "--steps", "2000")


def test_cli_json_labels_the_approximation():
    out = run(_SGD + ("--diameter", "1", "--at-delta", "1e-5", "--json")).json()
    assert out["kind"] == "clt-approximation" and out["certified"] is False and out["split"] == "9"
    assert out["p"] == "1/100" and out["mu_step"] == "1/15" and 0 <= out["tau"] <= 1999
    with mpmath.workdps(40):
        ref, tau = _brute_projected(R(1, 100), R(1, 15), 2000, R(10, 3), R(9))
    assert abs(mpmath.mpf(out["mu_last"]) - ref) < mpmath.mpf("1e-13") * ref and out["tau"] == tau
    assert float(out["eps_last"]) > 0 and float(out["eps_composition"]) > 0
    text = run(_SGD + ("--diameter", "1")).out
    assert "not certified" in text and "CLT approximation" in text


@pytest.mark.parametrize("extra,needle", [
    (("--diameter", "0"), "diameter"),
    (("--diameter", "1", "--split", "-1"), "split"),
    (("--epochs", "1"), "epochs"),
])
def test_cli_bad_input(extra, needle):
    args = _SGD[:-2] + extra if extra[0] == "--epochs" else _SGD + extra
    if extra[0] == "--epochs":
        args = _SGD + extra      # both --steps and --epochs
        res = run(args)
        assert res.rc == 2
        return
    assert_usage_error(run(args), needle)


def test_cli_diameter_needs_stochastic_and_convex():
    full = ("noisy-gd", "--setting", "convex", "--batch", "full", "--L", "1", "--M", "1", "--eta", "1",
            "--sigma", "1", "--n", "10", "--b", "10", "--steps", "4", "--diameter", "1")
    assert_usage_error(run(full), "diameter")
    sc = tuple(x if x != "convex" else "strongly-convex" for x in _SGD) + ("--m", "0.5", "--diameter", "1")
    assert_usage_error(run(sc), "diameter")


def test_cli_steps_cap():
    """E n/b above 1e7 steps is refused in one line naming epochs (no unbounded work)."""
    args = _SGD[:-2] + ("--epochs", "10000000")
    assert_usage_error(run(args), "epochs")


def test_large_t_is_fast_and_matches_a_dense_scan():
    """T = 10^5: the bisection's minimiser equals a dense float scan of every tau (independent search)."""
    p, mu_s, c, t = R(1, 100), R(1, 5), R(999, 1000), 100000
    with mpmath.workdps(30):
        mu, tau = S.mu_unconstrained(p, mu_s, c, t)
        K = 2 * float(S.clt_factor(mu_s)) * float(p) ** 2
    vals = [K * (nu + 1) + 2 * (0.2 * (0.999 ** (nu + 1) - 0.999 ** t) / 0.001) ** 2 for nu in range(t)]
    nu_best = min(range(t), key=vals.__getitem__)
    assert abs(tau - (t - nu_best)) <= 1 and abs(float(mu) - vals[nu_best] ** 0.5) < 1e-9 * float(mu)


@pytest.mark.parametrize("extra", [("--sigma", "1e-300"), ("--sigma", "0.001", "--diameter", "1e300")])
def test_cli_extreme_inputs_one_line(extra):
    """A huge GDP parameter: the approximation still computes (no float overflow) and eps is refused in one
    line naming sigma."""
    base = list(_SGD[:-2]) + ["--steps", "20"]
    i = base.index("--sigma")
    del base[i:i + 2]
    assert run(tuple(base) + extra).rc == 0
    assert_usage_error(run(tuple(base) + extra + ("--at-delta", "1e-5")), "sigma")
