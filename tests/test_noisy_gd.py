"""numeric/noisy_gd.py, ``dp-derive noisy-gd`` and seed 004 Table 1 (proofs_check/reproduce_noisygd.py).

References are computed independently of the module: the closed forms are checked against their series
form summed by SymPy on exact Rationals (the quadratic programme of the shifted-interpolation argument:
mu^2 / mu_s^2 = (sum of contraction weights)^2 / (sum of their squares)); eps of G_mu against a root of
the Gaussian profile delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) found by mpmath.findroot;
the Renyi conversion against a golden-section minimisation of the CKS objective written out here.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from numeric import noisy_gd as N
from tests.cli_runner import assert_usage_error, run

R = sp.Rational


def _sum(terms):
    """Exact (SymPy Rationals, small cases) or brute-force mpmath (positive terms: no cancellation) sum."""
    terms = list(terms)
    return sp.Add(*terms) if terms and isinstance(terms[0], sp.Basic) else mpmath.fsum(terms)


def _sqrt(x):
    return sp.sqrt(x) if isinstance(x, sp.Basic) else mpmath.sqrt(x)


def _series_full(mu_s, c, T):
    """mu of the full-batch bound from its series form: mu_s^2 (sum_{t<T} c^t)^2 / sum_{t<T} c^{2t}."""
    s1 = _sum(c ** t for t in range(T))
    s2 = _sum(c ** (2 * t) for t in range(T))
    return _sqrt(mu_s ** 2 * s1 ** 2 / s2)


def _series_cyclic(mu_s, c, l, E):
    """mu of the cyclic bound, series form: 1 + c^{2l-2} (1 + c) / (A (1 + c^l)) * S1^2 / S2 with
    A = sum_{j<l} c^j, r = c^l, S1 = sum_{k<E-1} r^k, S2 = sum_{k<E-1} r^{2k} (E = 1: mu_s)."""
    if E == 1:
        return mu_s
    A = _sum(c ** j for j in range(l))
    r = c ** l
    S1 = _sum(r ** k for k in range(E - 1))
    S2 = _sum(r ** (2 * k) for k in range(E - 1))
    return mu_s * _sqrt(1 + c ** (2 * l - 2) * (1 + c) / (A * (1 + c ** l)) * S1 ** 2 / S2)


def _series_rho(mu_s, c, l, E, power=None):
    """rho of the Renyi bound, series form: (1 - c^2)/(1 - c^l)^2 = (1 + c)/((1 - c) A^2) and
    1 - c^{l(E-1)} = (1 - c) sum_{i < l(E-1)} c^i.  ``power``: the exponent of c (default l - 2)."""
    A = _sum(c ** j for j in range(l))
    B = _sum(c ** i for i in range(l * (E - 1))) if E > 1 else 0
    return mu_s ** 2 / 2 * (1 + c ** (l - 2 if power is None else power) * (1 + c) * B / A ** 2)


def _mpf60(x):
    """An exact Rational as an mpf of 80 digits (the brute-force sums run at 80 digits)."""
    return mpmath.mpf(x.p) / x.q


def _close(got, want, digits=25):
    with mpmath.workdps(60):
        w = mpmath.mpf(sp.N(want, 60)) if not isinstance(want, mpmath.mpf) else want
        assert abs(mpmath.mpf(got) - w) <= mpmath.mpf(10) ** (-digits) * abs(w), (got, w)


@pytest.mark.parametrize("c,T", [(R(1, 2), 1), (R(1, 2), 7), (R(99, 100), 50), (R(9999, 10000), 300), (R(0), 5)])
def test_full_batch_matches_series(c, T):
    mu_s = R(2, 3)
    with mpmath.workdps(40):
        got = N.mu_last_full(mu_s, c, T)
    if T <= 50:         # exact: SymPy Rationals summed term by term, evaluated to 60 digits
        _close(got, _series_full(mu_s, c, T))
    with mpmath.workdps(80):         # brute force in mpmath (positive terms)
        want = _series_full(_mpf60(mu_s), _mpf60(c), T)
    _close(got, want)


@pytest.mark.parametrize("c,l,E", [(R(1, 2), 3, 1), (R(1, 2), 3, 4), (R(9, 10), 5, 6), (R(9999, 10000), 40, 3),
                                   (R(99, 100), 1, 9)])
def test_cyclic_matches_series(c, l, E):
    mu_s = R(2, 3)
    with mpmath.workdps(40):
        got = N.mu_last_cyclic(mu_s, c, l, E)
        rho = N.rho_renyi(mu_s, c, l, E)
    if l * E <= 30:     # exact: SymPy Rationals summed term by term
        _close(got, _series_cyclic(mu_s, c, l, E))
        _close(rho, _series_rho(mu_s, c, l, E))
    with mpmath.workdps(80):
        want, want_rho = (_series_cyclic(_mpf60(mu_s), _mpf60(c), l, E), _series_rho(_mpf60(mu_s), _mpf60(c), l, E))
    _close(got, want)
    _close(rho, want_rho)


def test_one_step_is_the_gaussian_mechanism():
    """T = 1 (full) and E = 1 (cyclic): mu = mu_s exactly, and rho = mu_s^2/2."""
    with mpmath.workdps(30):
        assert N.mu_last_full(R(1, 3), R(1, 2), 1) == mpmath.mpf(1) / 3
        assert abs(N.mu_last_cyclic(R(1, 3), R(1, 2), 10, 1) - mpmath.mpf(1) / 3) < mpmath.mpf(10) ** -28
        assert abs(N.rho_renyi(R(1, 3), R(1, 2), 10, 1) - mpmath.mpf(1) / 18) < mpmath.mpf(10) ** -28


def test_strongly_convex_converges_composition_diverges():
    """T -> inf: mu -> mu_s sqrt((1 + c)/(1 - c)) (= sqrt(3) mu_s at c = 1/2), while composition grows as sqrt(T)."""
    with mpmath.workdps(30):
        far = N.mu_last_full(1, R(1, 2), 10 ** 6)
        assert abs(far - mpmath.sqrt(3)) < mpmath.mpf(10) ** -25
        assert N.mu_composition(1, 10 ** 6) == 1000
        for T in (1, 2, 10, 100):
            assert N.mu_last_full(1, R(1, 2), T) <= N.mu_composition(1, T) * (1 + mpmath.mpf(10) ** -25)
        # cyclic: the limit E -> inf is mu_s sqrt(1 + c^{2l-2}(1 - c^2)/(1 - c^l)^2)
        lim = mpmath.sqrt(1 + mpmath.mpf("0.25") ** 2 * (1 - mpmath.mpf("0.25")) / (1 - mpmath.mpf("0.125")) ** 2)
        assert abs(N.mu_last_cyclic(1, R(1, 2), 3, 10 ** 5) - lim) < mpmath.mpf(10) ** -25


def test_convex_is_the_limit_c_to_1():
    """c = 1 (convex) branches agree with the general branches at c = 1 - 1e-30 (no cancellation there)."""
    near = 1 - R(1, 10 ** 30)
    with mpmath.workdps(30):
        for T in (1, 5, 1000):
            _close(N.mu_last_full(R(1, 2), near, T), N.mu_last_full(R(1, 2), 1, T), 20)
        for l, E in ((1, 4), (7, 3), (40, 200)):
            _close(N.mu_last_cyclic(R(1, 2), near, l, E), N.mu_last_cyclic(R(1, 2), 1, l, E), 20)
            _close(N.rho_renyi(R(1, 2), near, l, E), N.rho_renyi(R(1, 2), 1, l, E), 20)
        # and the c = 1 closed forms by hand: sqrt(1 + (E-1)/l), (1 + 2(E-1)/l)/2 at mu_s = 1
        assert N.mu_last_cyclic(1, 1, 4, 9) == mpmath.sqrt(3)
        assert N.rho_renyi(1, 1, 4, 9) == mpmath.mpf("2.5")


def test_no_cancellation_near_one():
    """c = 1 - 1e-20 at 15 working digits: naive 1 - c^l would lose every digit; SymPy exact series is the reference."""
    c = 1 - R(1, 10 ** 20)
    with mpmath.workdps(15):
        got = N.mu_last_cyclic(1, c, 40, 50)
    with mpmath.workdps(80):
        want = _series_cyclic(mpmath.mpf(1), _mpf60(c), 40, 50)
    _close(got, want, 12)


@pytest.mark.parametrize("c,l,E", [(R(1, 2), 1, 5), (R(9, 10), 4, 7), (R(9999, 10000), 40, 200), (R(1), 3, 9)])
def test_renyi_is_never_tighter_than_the_gdp_bound(c, l, E):
    """G_mu gives the RDP curve alpha mu^2/2, so the Renyi route's rho is at least mu_last^2/2 (c^{l-2} >= c^{2l-2},
    1 - r >= (1 - r)/(1 + r)); checked, not assumed."""
    with mpmath.workdps(30):
        assert N.rho_renyi(1, c, l, E) >= N.mu_last_cyclic(1, c, l, E) ** 2 / 2


def test_contraction_and_step():
    assert N.contraction("0.05", "0.002", "32.502") == R(9999, 10000)
    assert N.contraction("1.5", "0.1", "1") == R(17, 20)      # max(|1 - 0.15|, |1 - 1.5|) = 0.85
    assert N.step_mu("5", 1500, "0.01") == R(2, 3)


def _gaussian_eps(mu, delta):
    """eps with Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta, by mpmath.findroot (independent of
    numeric.profile)."""
    with mpmath.workdps(40):
        mu, delta = mpmath.mpf(mu), mpmath.mpf(delta)
        f = lambda e: mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2) - delta  # noqa: E731
        return mpmath.findroot(f, mu * mu / 2 + mu * 3)


def _renyi_eps(rho, delta):
    """min over orders a > 1 of the CKS objective (golden section on log(a - 1), written out here) and
    Bun-Steinke rho + 2 sqrt(rho log(1/delta))."""
    with mpmath.workdps(40):
        rho, delta = mpmath.mpf(rho), mpmath.mpf(delta)

        def g(x):
            a = 1 + mpmath.exp(x)
            return a * rho + (mpmath.log(1 / delta) + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)
        lo, hi = mpmath.mpf(-30), mpmath.mpf(30)
        phi = (mpmath.sqrt(5) - 1) / 2
        for _ in range(300):
            x1, x2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
            lo, hi = (lo, x2) if g(x1) < g(x2) else (x1, hi)
        return min(g((lo + hi) / 2), rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / delta)))


def test_table1_values_against_independent_references():
    """Seed 004 Table 1 at the authors' parameters: mu from the SymPy series, eps by the independent solvers."""
    from proofs_check import reproduce_noisygd as RN
    mu_s, c, l = R(2, 3), R(9999, 10000), 40
    rows = {e["id"]: e for e in RN.entries()}
    for E in (50, 100, 200):
        with mpmath.workdps(80):
            mu_f = _series_cyclic(_mpf60(mu_s), _mpf60(c), l, E)
            mu_c = _mpf60(mu_s) * mpmath.sqrt(E)
            rho = _series_rho(_mpf60(mu_s), _mpf60(c), l, E)
        for route, ref in (("f-DP", _gaussian_eps(mu_f, "1e-5")), ("composition", _gaussian_eps(mu_c, "1e-5")),
                           ("Renyi DP", _renyi_eps(rho, "1e-5"))):
            row = rows[f"SU-Table1:{E}:{route}"]
            assert abs(mpmath.mpf(row["computed"]) - ref) < mpmath.mpf("1e-6") * ref, (row, ref)
            assert row["status"] == "reproduced", row


def test_table1_printed_cells_and_the_other_exponent():
    """All nine printed cells reproduce; the exponent 2l - 2 in the Renyi bound would not (its eps is in the note)."""
    from proofs_check import reproduce_noisygd as RN
    rows = RN.entries()
    assert [r["printed"] for r in rows] == [p for _, _, p in RN.SU_TABLE1]
    assert all(r["status"] == "reproduced" for r in rows)
    # the 2l-2 variant at E = 50, computed here from the SymPy series with c^{2l-2}: 5.813...
    with mpmath.workdps(80):
        rho = _series_rho(_mpf60(R(2, 3)), _mpf60(R(9999, 10000)), 40, 50, power=78)
    other = _renyi_eps(rho, "1e-5")
    assert mpmath.nstr(other, 3) == "5.81"
    assert "5.81" in next(r for r in rows if r["id"] == "SU-Table1:50:Renyi DP")["note"]


# ------------------------------------------------------------------ mutations ------

@pytest.mark.parametrize("target,mutant,route", [
    ("_cyclic_gain", lambda orig: (lambda c, l: orig(c, l) * mpmath.mpf("1.01")), "f-DP"),
    ("mu_composition", lambda orig: (lambda mu_s, uses: orig(mu_s, uses + 1)), "composition"),
    ("rho_renyi", lambda orig: (lambda mu_s, c, l, E: orig(mu_s, c, l, E) * mpmath.mpf("1.005")), "Renyi DP"),
    ("eps_of_mu", lambda orig: (lambda mu, d, digits: orig(mu, d, digits) + mpmath.mpf("0.01")), "f-DP"),
    ("eps_of_rho", lambda orig: (lambda rho, d, digits: orig(rho, d, digits) * mpmath.mpf("1.002")), "Renyi DP"),
])
def test_mutations_break_table1(monkeypatch, target, mutant, route):
    """Each slightly wrong piece of the computation makes some cell of the route differ."""
    from proofs_check import reproduce_noisygd as RN
    monkeypatch.setattr(N, target, mutant(getattr(N, target)))
    rows = [r for r in RN.entries() if r["id"].endswith(":" + route)]
    assert any(r["status"] == "differs" for r in rows), rows


def test_mutation_step_constant(monkeypatch):
    """mu_s = L/(b sigma) (sensitivity L/b, the add/remove reading) instead of 2L/(b sigma): every cell differs."""
    from proofs_check import reproduce_noisygd as RN
    monkeypatch.setattr(N, "step_mu", lambda L, b, sigma: sp.Rational(L) / (sp.Integer(b) * sp.Rational(sigma)))
    assert all(r["status"] == "differs" for r in RN.entries())


# ------------------------------------------------------------------ CLI ------

_TABLE = ("noisy-gd", "--setting", "strongly-convex", "--batch", "cyclic", "--L", "5", "--M", "32.502",
          "--m", "0.002", "--eta", "0.05", "--sigma", "0.01", "--n", "60000", "--b", "1500")


def test_cli_json_fields():
    res = run(_TABLE + ("--epochs", "100", "--at-delta", "1e-5", "--json"))
    out = res.json()
    for key in ("mu_last", "mu_composition", "rho_renyi", "eps_last", "eps_composition", "eps_renyi", "c",
                "mu_step", "steps", "epochs", "batches"):
        assert key in out, key
    assert (out["steps"], out["epochs"], out["batches"], out["c"], out["mu_step"]) == (4000, 100, 40, "9999/10000",
                                                                                        "2/3")
    assert out["eps_last"].startswith("5.601") and out["eps_composition"].startswith("49.88")
    assert run(_TABLE + ("--steps", "4000", "--at-delta", "1e-5", "--json")).json()["eps_last"] == out["eps_last"]


def test_cli_text_and_full_batch():
    res = run(("noisy-gd", "--setting", "convex", "--batch", "full", "--L", "1", "--M", "1", "--eta", "1",
               "--sigma", "1", "--n", "10", "--b", "10", "--steps", "4", "--json"))
    out = res.json()
    # convex full batch: no gain over composition, mu = 2L/(n sigma) sqrt(T) = 0.2 * 2 = 0.4 (by hand)
    assert out["mu_last"] == out["mu_composition"] == "0.400000000000000"
    res = run(_TABLE + ("--epochs", "50"))
    assert res.rc == 0 and "last iterate" in res.out


@pytest.mark.parametrize("extra,needle", [
    (("--eta", "0.1", "--M", "32.502"), None),
    (("--setting", "stochastic"), "setting"),
])
def test_cli_bad_choice(extra, needle):
    if needle is None:      # a repeated flag
        res = run(_TABLE + ("--epochs", "1") + extra)
        assert res.rc == 2
        return
    res = run(("noisy-gd",) + extra)
    assert res.rc == 2


@pytest.mark.parametrize("change,needle", [
    ({"--eta": "0.1"}, "eta"),              # eta M = 3.25 > 2
    ({"--b": "7"}, "b="),                   # not a divisor of n
    ({"--m": "0"}, "m="),                   # strongly convex needs m > 0
    ({"--m": "40"}, "m="),                  # m > M
    ({"--sigma": "-1"}, "sigma"),
    ({"--b": "70000"}, "b="),
])
def test_cli_bad_input_exit_2(change, needle):
    args = list(_TABLE)
    for flag, value in change.items():
        args[args.index(flag) + 1] = value
    assert_usage_error(run(tuple(args) + ("--epochs", "10")), needle)


def test_cli_steps_must_be_whole_epochs_and_m_missing():
    assert_usage_error(run(_TABLE + ("--steps", "41",)), "steps")
    args = list(_TABLE)
    i = args.index("--m")
    del args[i:i + 2]
    assert_usage_error(run(tuple(args) + ("--epochs", "3")), "m=")


# ------------------------------------------------------------------ Renyi route: the smaller valid bound ------

def test_renyi_route_full_batch_is_composition():
    """Full batch (l = 1), T = 10, c = 0 (eta = m = M = 1): the script's formula has c^{l-2} = 1/c, infinite, so the
    route reports the RDP composition T mu_s^2/2 = 10 (1/1000)^2/2 = 5e-6 (by hand; mu_s = 2 L/(b sigma) = 1/1000)."""
    r = N.account("strongly-convex", "full", L="1", M="1", m="1", eta="1", sigma="2", n="1000", b="1000", steps="10",
                  digits=20)
    assert r.rho_renyi_route == "composition"
    with mpmath.workdps(50):
        assert abs(r.rho_renyi - mpmath.mpf("5e-6")) < mpmath.mpf(10) ** -30
    assert N.rho_renyi(R(1, 1000), 0, 1, 10) == mpmath.inf


@pytest.mark.parametrize("c", [R(1, 10), R(1, 2), R(99, 100), R(1)])
def test_renyi_formula_above_composition_at_one_batch(c):
    """l = 1, E = 5: 1 + c^{-1}(1 + c)/(1 - c) (1 - c^4) > 5 for c in (0, 1] (c = 1: 1 + 2*4 = 9; hand series below),
    so the composition's 5/2 mu_s^2 is reported; at Table 1's l = 40 the formula is (reproduce_noisygd)."""
    with mpmath.workdps(30):
        rho, route = N.rho_renyi_route(1, c, 1, 5, 5)
        series = _series_rho(mpmath.mpf(1), mpmath.mpf(c.p) / c.q, 1, 5)
    assert route == "composition" and rho == mpmath.mpf(5) / 2 < series


def test_mutation_renyi_route_ignores_composition(monkeypatch):
    """The route reporting the shifted formula whatever the composition gives (the comparison dropped) is caught."""
    orig = N.rho_renyi_route

    def shifted_only(mu_s, c, l, E, uses):
        orig(mu_s, c, l, E, uses)
        return N.rho_renyi(mu_s, c, l, E), "shifted"
    monkeypatch.setattr(N, "rho_renyi_route", shifted_only)
    with pytest.raises(AssertionError):
        test_renyi_route_full_batch_is_composition()
