"""`compose fdp` at a delta or an alpha that a float rounds to 0 or 1 (issue #25's seventeenth-session probe).

The CLI compared --at-delta with 0 and 1 as floats: delta = 1 - 10^-20 was "delta = 1", eps = 0 (also on the exact
route), and delta = 1e-400 was "delta = 0", eps = inf.  The engine's trade-off query took alpha = 1 - 10^-20 as the
53-bit float 1.0: power >= 1 and beta in [0, 0] (certified) around 1.9e-46.

References, all mpmath at 50 digits from closed forms, none from the code under test:
* one Laplace(eps) step: delta(e) = 1 - e^{(e - eps)/2} on [0, eps), so eps(1 - 10^-20) = eps - 2 log(10^20);
* G_m: delta(e) = Phi(-e/m + m/2) - e^e Phi(-e/m - m/2), solved by findroot on a bracket;
* G_m's trade-off function beta(alpha) = Phi(Phi^-1(1 - alpha) - m).
"""

from __future__ import annotations

import mpmath
import pytest

from cli_runner import run

NEAR_ONE = "0.99999999999999999999"


def _gdp_eps(m, delta, a, b):
    """eps with G_m's delta(eps) = delta, by 200 bisection steps on [a, b] at 60 digits (delta decreases)."""
    with mpmath.workdps(60):
        m, d, a, b = mpmath.mpf(m), mpmath.mpf(delta), mpmath.mpf(a), mpmath.mpf(b)
        for _ in range(200):
            e = (a + b) / 2
            if mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2) > d:
                a = e
            else:
                b = e
        return (a + b) / 2


def _gdp_beta(m, alpha):
    with mpmath.workdps(50):
        return mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(2 * (1 - mpmath.mpf(alpha)) - 1) - m)


def _eps_of(args):
    out = run(("compose", "fdp", *args, "--json", "--quiet")).json()
    return mpmath.mpf(out["eps_lower"] if "eps_lower" in out else out["eps"]), mpmath.mpf(out.get("eps_upper", out["eps"]))


@pytest.mark.parametrize("method", ["auto", "exact"])
def test_laplace_at_delta_just_below_one(method):
    with mpmath.workdps(50):
        ref = 100 - 2 * mpmath.log(mpmath.mpf(10) ** 20)           # 7.89659628023817...
    lo, hi = _eps_of(("laplace", "--eps", "100", "--k", "1", "--at-delta", NEAR_ONE, "--method", method))
    assert lo <= ref * (1 + mpmath.mpf("1e-14")) and ref * (1 - mpmath.mpf("1e-14")) <= hi
    assert lo > 7


def test_gaussian_at_delta_just_below_one():
    ref = _gdp_eps(30, NEAR_ONE, 150, 200)                          # 170.934788924043...
    lo, hi = _eps_of(("gaussian", "--mu", "30", "--k", "1", "--at-delta", NEAR_ONE))
    assert lo <= ref * (1 + mpmath.mpf("1e-14")) and ref * (1 - mpmath.mpf("1e-14")) <= hi


def test_gaussian_at_delta_below_the_float_range():
    ref = _gdp_eps(5, "1e-400", 200, 250)                           # G_0.5 x 100 = G_5: 226.287...
    lo, hi = _eps_of(("gaussian", "--mu", "0.5", "--k", "100", "--at-delta", "1e-400"))
    assert lo <= ref * (1 + mpmath.mpf("1e-14")) and ref * (1 - mpmath.mpf("1e-14")) <= hi


def test_engine_beta_at_alpha_just_below_one():
    ref = _gdp_beta(5, NEAR_ONE)                                     # 1.878e-46
    out = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "100", "--alpha", NEAR_ONE, "--method", "numeric",
               "--json", "--quiet")).json()
    assert out["certified"] is True
    assert mpmath.mpf(out["beta_lower"]) <= ref <= mpmath.mpf(out["beta_upper"])
    assert mpmath.mpf(out["beta_upper"]) <= mpmath.mpf("1.0000001e-20")       # 1 - alpha, rounded up


def test_mutation_float_comparison_is_caught(monkeypatch):
    """The CLI's test of delta = 1 made in floats again: eps = 0 at 1 - 10^-20."""
    import derive.exact as E
    orig = E.rational
    monkeypatch.setattr(E, "rational", lambda name, v: orig(name, repr(float(str(v)))) if name == "delta" else orig(name, v))
    lo, hi = _eps_of(("laplace", "--eps", "100", "--k", "1", "--at-delta", NEAR_ONE))
    assert not lo > 7


def test_mutation_alpha_rounded_up_is_caught(monkeypatch):
    """alpha rounded to nearest (1.0) as the power's lower end: beta in [0, 0] again."""
    import numeric.pld_power as PP
    monkeypatch.setattr(PP.math, "nextafter", lambda x, y: x)
    ref = _gdp_beta(5, NEAR_ONE)
    out = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "100", "--alpha", NEAR_ONE, "--method", "numeric",
               "--json", "--quiet")).json()
    assert not mpmath.mpf(out["beta_lower"]) <= ref <= mpmath.mpf(out["beta_upper"])


def test_power_is_printed_as_a_bracket():
    """The engine's power was printed "power = 0.0867030541471936", its upper end, as if exact (the true value is
    0.08670299134...).  Reference: 1 - beta(1e-10) of G_5."""
    res = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "100", "--alpha", "1e-10", "--method", "numeric",
               "--quiet"))
    assert res.rc == 0 and "power in [" in res.out
    out = run(("compose", "fdp", "gaussian", "--mu", "0.5", "--k", "100", "--alpha", "1e-10", "--method", "numeric",
               "--json", "--quiet")).json()
    with mpmath.workdps(50):
        ref = 1 - _gdp_beta(5, "1e-10")
    assert mpmath.mpf(out["power_lower"]) <= ref <= mpmath.mpf(out["power"])


def test_lower_end_just_below_one_is_printed_below_it():
    """beta's lower end 1 - 1.2e-307 (power's upper end 1.2e-307 at alpha = 1e-400) was compared with its printed
    form after rounding to 45 digits, i.e. as 1.0, and printed 1.00000000000000: above the beta it bounds (beta < 1
    since the power is positive).  Reference: beta < 1 strictly, so the printed lower end must be too."""
    from decimal import Decimal
    out = run(("compose", "fdp", "gaussian", "--mu", "1", "--k", "2", "--alpha", "1e-400", "--method", "numeric",
               "--json", "--quiet")).json()
    assert Decimal(out["beta_lower"]) < 1 and Decimal(out["power"]) > 0


def test_mutation_rounded_comparison_is_caught(monkeypatch):
    import numeric.precision as P
    orig = P.format_outward

    def rounded(value, digits, up):
        with mpmath.workdps(digits + 30):
            return orig(+mpmath.mpf(value), digits, up)
    monkeypatch.setattr(P, "format_outward", rounded)
    from decimal import Decimal
    out = run(("compose", "fdp", "gaussian", "--mu", "1", "--k", "2", "--alpha", "1e-400", "--method", "numeric",
               "--json", "--quiet")).json()
    assert not Decimal(out["beta_lower"]) < 1
