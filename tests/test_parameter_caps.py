"""Issue #25 item 4: a mechanism parameter has a magnitude cap (derive/domains.py), so every command answers
in seconds at the cap and refuses above it in one line.

Before the cap, ``tradeoff gaussian --alpha 0.1 --mu`` followed by 4299 zeros ran past any time bound
(e^{-mu^2/2} with a 28000-bit exponent) and mu = 1e1000 took 10 s.  The caps: mu and eps at 1e308, the
classical Gaussian's eps at 1e100 (its fscore optimum costs more with mu: 1e150 took 18-39 s).

References are independent of the code under test: the cap values are read from the decimal strings typed
here, and the one answer checked at the cap (G_mu's power at mu = 1e308) follows from Phi(x) = 1 - Phi(-x)
with Phi(-x) < e^{-x^2/2}: for x = 1e308 - 1.29, 1 - power < e^{-1e616}, so power prints as 1.
"""

from __future__ import annotations

import time

import pytest

from cli_runner import assert_usage_error, run
from derive.domains import DOMAINS, MAX_CLASSICAL_EPS, MAX_MECHANISM_PARAM
from derive.errors import DomainError
from derive.mechanisms.table import TABLE

#: seconds a run at the cap may take in-process (the slowest measured at the cap: ~3 s on 2 cores)
BOUND = 15
HUGE = "1" + "0" * 4299               # the fuzz's 4300-digit number
CAP = "1" + "0" * 308                 # 10^308 written out, exactly the cap
ABOVE = "1" + "0" * 307 + "1"         # 10^308 + 1: the smallest integer above it


def timed(*args):
    start = time.monotonic()
    res = run(args)
    took = time.monotonic() - start
    assert took < BOUND, f"{args}: {took:.1f} s"
    return res


def test_caps_are_the_documented_numbers():
    # the literal numbers, not the module's constants, are the reference
    assert MAX_MECHANISM_PARAM == 10 ** 308 and MAX_CLASSICAL_EPS == 10 ** 100
    for key in ("mu", "eps", "eps_positive", "mu_positive"):
        assert DOMAINS[key].high == 10 ** 308, key
        assert DOMAINS[key].describe().endswith(", 1e308]"), DOMAINS[key].describe()
    assert DOMAINS["eps_classical"].describe() == "0 or in [1e-100, 1e100]"


def test_every_real_mechanism_parameter_is_capped():
    """A new row cannot bring an uncapped real parameter back (integers such as n are cheap at any size)."""
    for row in TABLE:
        for name, key in row.params:
            d = DOMAINS[key]
            assert d.integer or d.high is not None, f"{row.name} --{name} ({key}) has no cap"


@pytest.mark.parametrize("argv, name, valid", [
    (("tradeoff", "gaussian", "--alpha", "0.1", "--mu", HUGE), "mu", "0 or in [1e-1000, 1e308]"),
    (("risk", "laplace", "--eps", HUGE), "eps", "0 or in [1e-1000, 1e308]"),
    (("semantics", "--delta", "1e-5", "--delta-prime", "0.5", "--prior", "0.5", "--eps", HUGE), "eps",
     "0 or in [1e-1000, 1e308]"),
    (("ztest", "--n", "100", "--sigma", "1", "--m", "0.1", "--alpha", "0.05", "--mu", HUGE), "mu", "in [1e-1000, 1e308]"),
    (("tradeoff", "gaussian", "--alpha", "0.1", "--mu", ABOVE), "mu", "0 or in [1e-1000, 1e308]"),
    (("tradeoff", "gaussian", "--alpha", "0.1", "--mu", "1e309"), "mu", "0 or in [1e-1000, 1e308]"),
    (("fscore", "classical-gaussian", "--delta", "1e-5", "--beta", "1", "--eps", "1.0000001e100"), "eps",
     "0 or in [1e-100, 1e100]"),
])
def test_above_the_cap_is_refused_in_one_short_line(argv, name, valid):
    res = timed(*argv)
    assert_usage_error(res, f"{name}=", valid)
    assert len(res.err) < 200, res.err          # the 4300 digits are not echoed
    if argv[-1] == HUGE:
        assert "(4300 digits)" in res.err


@pytest.mark.parametrize("argv", [
    ("tradeoff", "gaussian", "--alpha", "0.1", "--mu", CAP, "--json"),
    ("tradeoff", "noise", "--family", "gaussian", "--alpha", "0.1", "--mu", CAP, "--json"),
    ("risk", "gaussian", "--mu", CAP, "--json"),
    ("link", "gaussian", "--mu", CAP, "--to", "approx", "--at-delta", "1e-3", "--json"),
    ("profile", "laplace", "--eps", CAP, "--at-eps", "1", "--json"),
    ("fscore", "classical-gaussian", "--eps", "1e100", "--delta", "1e-5", "--beta", "1", "--json"),
])
def test_at_the_cap_every_command_answers(argv):
    res = timed(*argv)
    assert res.rc == 0, res.err
    res.json()


def test_at_the_cap_the_answer_is_right():
    """beta = G_mu(0.1) = Phi(-x), x = mu - z, z = PhiInv(0.9), at mu = 1e308.  Reference: the Mills-ratio
    asymptotics log10 Phi(-x) = -x^2/(2 ln 10) - log10(x sqrt(2 pi)) + O(1/x^2) (the O term is ~1e-616) in
    plain mpmath at 700 digits, z by mpmath's erfinv; the power 1 - beta prints as 1."""
    import mpmath
    d = timed("tradeoff", "gaussian", "--alpha", "0.1", "--mu", CAP, "--json").json()
    assert d["power"] == "1.00000000000000"
    with mpmath.workdps(700):
        z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.8"))
        x = mpmath.mpf(10) ** 308 - z
        log10_beta = -x * x / (2 * mpmath.log(10)) - mpmath.log10(x * mpmath.sqrt(2 * mpmath.pi))
        exponent = mpmath.floor(log10_beta)
        mantissa = mpmath.power(10, log10_beta - exponent)
        want_exponent = mpmath.nstr(exponent, 700).split(".")[0]
        mant, _, exp = d["beta"].partition("e")
        assert exp == want_exponent
        assert abs(mpmath.mpf(mant) - mantissa) < mpmath.mpf("1e-13")


def test_api_refuses_above_the_cap_too():
    import derive
    with pytest.raises(DomainError, match=r"mu must be 0 or in \[1e-1000, 1e308\]"):
        derive.gaussian(ABOVE)
    with pytest.raises(DomainError, match=r"eps must be 0 or in \[1e-100, 1e100\]"):
        derive.classical_gaussian("1e101", "1e-5")
    derive.gaussian(CAP)                                  # the cap itself is in the domain
    derive.classical_gaussian("1e100", "1e-5")


# ----------------------------------------------------------------------------- the floor (issue #25 item 4)
#: mu = 1e-5000 ended in Python's "Exceeds the limit (4300 digits) for integer string conversion" ValueError
#: traceback in `functional noise --family logistic` and `risk laplace` (SymPy prints Rationals through
#: int -> str); nonzero parameters below 1e-1000 (the classical Gaussian's eps below 1e-100) are refused.
FLOOR = "1e-1000"
BELOW = "9.99e-1001"


@pytest.mark.parametrize("argv, name, valid", [
    (("functional", "noise", "--family", "logistic", "--name", "kl", "--mu", "1e-5000"), "mu",
     "0 or in [1e-1000, 1e308]"),
    (("risk", "laplace", "--eps", "1e-5000"), "eps", "0 or in [1e-1000, 1e308]"),
    (("tradeoff", "gaussian", "--alpha", "0.1", "--mu", BELOW), "mu", "0 or in [1e-1000, 1e308]"),
    (("ztest", "--n", "100", "--sigma", "1", "--m", "0.1", "--alpha", "0.05", "--mu", BELOW), "mu",
     "in [1e-1000, 1e308]"),
    (("fscore", "classical-gaussian", "--delta", "1e-5", "--beta", "1", "--eps", "9.9e-101"), "eps",
     "0 or in [1e-100, 1e100]"),
])
def test_below_the_floor_is_refused_in_one_short_line(argv, name, valid):
    res = timed(*argv)
    assert_usage_error(res, f"{name}=", valid)
    assert len(res.err) < 200, res.err


@pytest.mark.parametrize("argv", [
    ("functional", "noise", "--family", "logistic", "--name", "kl", "--mu", FLOOR, "--json"),
    ("functional", "noise", "--family", "logistic", "--name", "kappa3", "--mu", FLOOR, "--json"),
    ("risk", "laplace", "--eps", FLOOR, "--json"),
    ("tradeoff", "laplace", "--alpha", "0.1", "--eps", FLOOR, "--json"),
    ("fscore", "classical-gaussian", "--delta", "1e-5", "--beta", "1", "--eps", "1e-100", "--json"),
])
def test_at_the_floor_every_command_answers(argv):
    res = timed(*argv)
    assert res.rc == 0, res.err
    res.json()


def test_at_the_floor_the_answer_is_right():
    """Laplace(eps): power = 1 - f(alpha) = e^eps alpha for alpha <= 1/2 ... at alpha = 0.1 and eps = 1e-1000,
    power = 0.1 e^{1e-1000}, which prints as 0.1 to any digits up to 1000; beta = 0.9 (1 - 0.1 e^eps rounds to
    0.9).  The posterior sup of risk laplace is e^eps / (1 + e^eps) at prior 1/2 (seed 000), printing 0.5."""
    d = timed("tradeoff", "laplace", "--alpha", "0.1", "--eps", FLOOR, "--json").json()
    assert d["beta"].startswith("0.9000000") and d["power"].startswith("0.1000000"), d
    r = timed("risk", "laplace", "--eps", FLOOR, "--json").json()
    assert r["posterior_sup"].startswith("0.500000000"), r


def test_api_refuses_below_the_floor_too():
    import derive
    with pytest.raises(DomainError, match=r"mu must be 0 or in \[1e-1000, 1e308\]"):
        derive.gaussian(BELOW)
    with pytest.raises(DomainError, match=r"eps must be 0 or in \[1e-100, 1e100\]"):
        derive.classical_gaussian("1e-101", "1e-5")
    derive.gaussian(FLOOR)                                 # the floor itself and 0 are in the domain
    derive.gaussian("0")
    derive.classical_gaussian("1e-100", "1e-5")
