"""The issue #3 commands of ``dp-derive`` (seeds 000 and 002), run as a real program.

Every acceptance form runs in a subprocess, ``python -m proofs_check ...`` with the
repository root as working directory (as in tests/test_cli.py); all of them are started
at once, in parallel, by the module-scoped ``cli`` fixture.  Most bad inputs are run
in-process through ``proofs_check.cli.main`` (the program's code path apart from
``sys.exit``), a few through the subprocess, to keep the CPU time down.

Reference provenance (computed in this file with plain mpmath, never by the library):
Gaussian power Phi(mu - z_{1-a}) with z_{1-a} from our own Newton iteration on log PhiBar;
Laplace 1 - f by pieces; URS f(0) = 1 - (1 - e^-mu)/n; the posterior p(1-f)/((1-p)a + p(1-f))
and its complement; eps' = log((e^eps delta' + delta)/(delta' - delta)), U(p, e), tanh(eps'/4);
basic / advanced composition formulas, the optimal eps by bisection on the exact-binomial
Murtagh-Vadhan delta; Bun-Steinke R + 2 sqrt(R log(1/delta)) and CKS by golden section;
the Gaussian select root z_{1-a0} + z_{1-b0}; the Z-test power PhiBar(z_{1-alpha} - m/sigma_n)
and the smallest mu by bisection.  Printed digits are checked to be the reference correctly
rounded (half an ulp, as in tests/test_cli.py).
"""

from __future__ import annotations

import json
import math
import re

import mpmath
import pytest

from cli_runner import Result, assert_usage_error, mantissa_digits, module_runner
from cli_runner import argv as _a
from exact_refs import gauss_power, q, qc, z_upper

# ---------------------------------------------------------------- running the CLI


RISK_G = _a("risk gaussian --mu 1 --alpha0 1e-1000 --prior 0.999999999999999 --digits 30 --json")
RISK_URS_TEXT = _a("risk uniform-sampling --mu 1 --n 5")
RISK_L1 = _a("risk laplace --eps 1 --alpha0 0.3 --prior 1e-15 --digits 30 --json")
POST_G = _a("posterior gaussian --mu 1 --prior 1e-15 --alpha 1e-1000 --digits 25 --json")
POST_URS0 = _a("posterior uniform-sampling --mu 1 --n 5 --prior 0.999999999999999 --alpha 0 --json")
SEM_A = _a("semantics --eps 1 --delta 1e-300 --delta-prime 0.05 --prior 1e-15 --digits 30 --json")
COMP = {m: _a(f"compose pure --eps 0.1 --k 50 --delta 1e-5 --method {m} --digits 30 --json")
        for m in ("basic", "advanced", "optimal")}
ZCDP_CKS = _a("compose zcdp --rho 0.01 --k 10 --delta 1e-5 --json")
ZCDP_BS = _a("compose zcdp --rho 0.01 --k 10 --delta 1e-300 --conversion bun-steinke --digits 30 --json")
SEL_G = _a("select gaussian --target power --value 0.5 --alpha0 0.01 --digits 30 --json")
SEL_L_RA0 = _a("select laplace --target rho-alpha0 --value 5 --alpha0 0.01 --json")
SEL_L_RHO = _a("select laplace --target rho --value 3 --digits 30 --json")
ZT = _a("ztest --n 100 --sigma 1 --m 0.3 --alpha 0.05 --mu 1 --digits 25 --json")
ZT_MIN = _a("ztest --n 100 --sigma 1 --m 0.3 --alpha 0.05 --min-mu --max-relative-loss 0.1 --json")

#: (id, argv, text the single stderr line must contain) run as subprocesses
BAD_SUBPROCESS = [
    ("prior-1", _a("risk gaussian --mu 1 --prior 1"), ["prior", "(0, 1)"]),
    ("rho-target-gaussian", _a("select gaussian --target rho --value 3"), ["target", "rho"]),
]

ALL = [RISK_G, RISK_URS_TEXT, RISK_L1, POST_G, POST_URS0, SEM_A, *COMP.values(), ZCDP_CKS,
       ZCDP_BS, SEL_G, SEL_L_RA0, SEL_L_RHO, ZT, ZT_MIN, *(a for _, a, _ in BAD_SUBPROCESS)]


@pytest.fixture(scope="module")
def cli(request):
    runner = module_runner(request, ALL, threshold=10)
    yield runner
    runner.close()


# ---------------------------------------------------------------- helpers


def assert_correctly_rounded(got: str, ref, digits: int, what=""):
    """``got`` has ``digits`` significant digits and is ``ref`` rounded to them (half an ulp, +1e-6 slack)."""
    assert mantissa_digits(got) == digits, f"{what}: {got!r} does not have {digits} significant digits"
    with mpmath.workdps(80):
        g, r = mpmath.mpf(got), mpmath.mpf(ref)
        ulp = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(abs(g))) - digits + 1)
        assert abs(g - r) <= ulp / 2 * (1 + mpmath.mpf("1e-6")), \
            f"{what}: {got} is not {mpmath.nstr(r, digits + 5)} rounded to {digits} digits"


# ---------------------------------------------------------------- risk
def test_risk_gaussian_extreme_level_and_prior(cli):
    out = cli(*RISK_G).json()
    assert out["mechanism"] == "gaussian" and out["params"] == {"mu": "1"}
    assert out["alpha0"] == "1e-1000" and out["prior"] == "0.999999999999999" and out["digits"] == 30
    assert out["failure"] == "graceful"
    assert out["rho"] == "inf"
    assert out["posterior_sup_attained"] is False
    assert out["one_minus_posterior_sup"] == "0"
    with mpmath.workdps(80):
        a0, p, pc = q("1e-1000"), q("0.999999999999999"), qc("0.999999999999999")
        pw = gauss_power(1, a0)
        den = pc * a0 + p * pw
        assert_correctly_rounded(out["f0"], 1, 30, "f0")
        assert_correctly_rounded(out["power_alpha0"], pw, 30, "power_alpha0")
        assert out["power_alpha0"].startswith("1.6914")                         # catalog value
        assert_correctly_rounded(out["rho_alpha0"], pw / a0, 30, "rho_alpha0")
        assert_correctly_rounded(out["posterior_alpha0"], p * pw / den, 30, "posterior_alpha0")
        assert_correctly_rounded(out["one_minus_posterior_alpha0"], pc * a0 / den, 30, "1 - posterior_alpha0")
        assert_correctly_rounded(out["posterior_sup"], 1, 30, "posterior_sup")


def test_risk_text_form_uniform_sampling_defaults(cli):
    res = cli(*RISK_URS_TEXT)
    assert res.rc == 0 and res.err == ""
    text = res.out
    assert "alpha0 = 0.01, prior = 0.5" in text                  # the defaults
    assert re.search(r"^failure\s+= catastrophic$", text, re.M), text
    assert re.search(r"^rho\s+= inf\b", text, re.M), text
    m = re.search(r"^f\(0\)\s+= (\S+)", text, re.M)
    with mpmath.workdps(40):
        assert_correctly_rounded(m.group(1), 1 + mpmath.expm1(-1) / 5, 15, "f(0) = 1 - (1 - e^-1)/5")
    assert re.search(r"posterior_sup\s+= 1\.0+\s+\(1 - it = 0, attained\)", text), text


def test_risk_rho_e_to_30_digits(cli):
    out = cli(*RISK_L1).json()
    with mpmath.workdps(60):
        assert_correctly_rounded(out["rho"], mpmath.e, 30, "rho = e")


def test_risk_laplace_middle_piece_tiny_prior(cli):
    out = cli(*RISK_L1).json()
    assert out["alpha0"] == "0.3" and out["prior"] == "1e-15"
    # attained: 1 - f = e alpha on alpha <= e^-1/2 (Laplace's linear stretch), where p_post equals its sup
    assert out["failure"] == "none" and out["posterior_sup_attained"] is True
    assert out["rho_exact"] == "E"
    with mpmath.workdps(80):
        a0, p, pc = q("0.3"), q("1e-15"), qc("1e-15")
        pw = 1 - mpmath.exp(-1) / (4 * a0)                # middle piece: e^-1/2 <= 0.3 <= 1/2
        rho = +mpmath.e
        assert_correctly_rounded(out["f0"], 1, 30, "f0")
        assert_correctly_rounded(out["power_alpha0"], pw, 30, "power")
        assert_correctly_rounded(out["rho_alpha0"], pw / a0, 30, "rho_alpha0")
        assert_correctly_rounded(out["posterior_alpha0"], p * pw / (pc * a0 + p * pw), 30, "posterior_alpha0")
        assert_correctly_rounded(out["one_minus_posterior_alpha0"], pc * a0 / (pc * a0 + p * pw), 30,
                                 "1 - posterior_alpha0")
        assert_correctly_rounded(out["posterior_sup"], p * rho / (p * rho + pc), 30, "posterior_sup")
        assert_correctly_rounded(out["one_minus_posterior_sup"], pc / (p * rho + pc), 30, "1 - posterior_sup")


# ---------------------------------------------------------------- posterior
def test_posterior_gaussian_extreme(cli):
    out = cli(*POST_G).json()
    assert out["prior"] == "1e-15" and out["alpha"] == "1e-1000" and out["digits"] == 25
    with mpmath.workdps(80):
        a, p, pc = q("1e-1000"), q("1e-15"), qc("1e-15")
        pw = gauss_power(1, a)
        den = pc * a + p * pw
        assert_correctly_rounded(out["posterior"], p * pw / den, 25, "posterior")
        assert_correctly_rounded(out["one_minus_posterior"], pc * a / den, 25, "1 - posterior")


def test_posterior_at_alpha_zero_catastrophic(cli):
    out = cli(*POST_URS0).json()
    assert out["posterior"] == "1." + "0" * 14         # f(0) < 1: the posterior reaches 1 (DF-Thm1)
    assert out["one_minus_posterior"] == "0"
    assert "limit" in out["note"]


# ---------------------------------------------------------------- semantics
def _sem_ref(eps, delta, dp, prior):
    e, d, dpr, p = q(eps), q(delta), q(dp), q(prior)
    ep = mpmath.log((mpmath.exp(e) * dpr + d) / (dpr - d))
    up = p * mpmath.exp(ep) / (p * mpmath.exp(ep) + 1 - p)
    lo = p * mpmath.exp(-ep) / (p * mpmath.exp(-ep) + 1 - p)
    return {"eps_prime": ep, "posterior_lower": lo, "posterior_upper": up, "ratio_lower": mpmath.exp(-ep),
            "ratio_upper": mpmath.exp(ep), "difference_bound": mpmath.tanh(ep / 4),
            "worst_case_prior": 1 / (1 + mpmath.exp(ep / 2)), "probability": 1 - dpr}


def test_semantics(cli):
    eps, delta, dp, prior = "1", "1e-300", "0.05", "1e-15"
    out = cli(*SEM_A).json()
    assert out["prior"] == prior and out["delta"] == delta and out["delta_prime"] == dp
    with mpmath.workdps(400):                       # resolves delta = 1e-300 against delta' = 0.05
        ref = _sem_ref(eps, delta, dp, prior)
        for key, r in ref.items():
            assert_correctly_rounded(out[key], r, 30, key)


# ---------------------------------------------------------------- compose
def _delta_opt(a, k, g):
    return sum((math.comb(k, l) * max(mpmath.mpf(0), mpmath.exp((k - l) * a) - mpmath.exp(g + l * a))
                for l in range(k + 1)), mpmath.mpf(0)) / (1 + mpmath.exp(a)) ** k


def test_compose_pure_three_methods(cli):
    outs = {m: cli(*args).json() for m, args in COMP.items()}
    with mpmath.workdps(60):
        a, k, d = q("0.1"), 50, q("1e-5")
        assert_correctly_rounded(outs["basic"]["eps"], k * a, 30, "basic")
        assert outs["basic"]["delta"] == "0"
        adv = a * mpmath.sqrt(2 * k * mpmath.log(1 / d)) + k * a * mpmath.expm1(a)
        assert_correctly_rounded(outs["advanced"]["eps"], adv, 30, "advanced")
        assert outs["advanced"]["delta"] == "1e-5"
        lo, hi = mpmath.mpf(0), k * a                  # bisection on the exact-binomial delta(eps_g)
        for _ in range(170):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _delta_opt(a, k, mid) > d else (lo, mid)
        assert_correctly_rounded(outs["optimal"]["eps"], hi, 30, "optimal")
        assert outs["optimal"]["delta"] == "1e-5"
        assert mpmath.mpf(outs["optimal"]["eps"]) <= min(k * a, adv)
    for m, out in outs.items():
        assert out["method"] == m and out["k"] == "50" and out["eps0"] == "0.1"


def _cks(R, d):
    f = lambda s: (1 + mpmath.exp(s)) * R + (mpmath.log(1 / d) + mpmath.exp(s) * mpmath.log(  # noqa: E731
        1 - 1 / (1 + mpmath.exp(s))) - mpmath.log(1 + mpmath.exp(s))) / mpmath.exp(s)
    grid = [mpmath.mpf(j) / 4 for j in range(-80, 81)]
    j = min(range(len(grid)), key=lambda i: f(grid[i]))
    lo, hi = grid[j - 1], grid[j + 1]
    g = (mpmath.sqrt(5) - 1) / 2
    for _ in range(200):
        c, e = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(c) < f(e):
            hi = e
        else:
            lo = c
    return f((lo + hi) / 2)


def test_compose_zcdp(cli):
    cks = cli(*ZCDP_CKS).json()
    bs = cli(*ZCDP_BS).json()
    assert cks["conversion"] == "cks" and bs["conversion"] == "bun-steinke"
    with mpmath.workdps(50):
        R = q("0.1")
        assert_correctly_rounded(cks["eps"], _cks(R, q("1e-5")), 15, "CKS")
        assert_correctly_rounded(cks["eps_bun_steinke"], R + 2 * mpmath.sqrt(R * mpmath.log(mpmath.mpf(10) ** 5)),
                                 15, "Bun-Steinke beside CKS")
        assert_correctly_rounded(cks["rho_total"], R, 15, "k rho")
        assert_correctly_rounded(bs["eps"], R + 2 * mpmath.sqrt(R * 300 * mpmath.log(10)), 30, "Bun-Steinke 1e-300")


# ---------------------------------------------------------------- select
def test_select_gaussian_power(cli):
    out = cli(*SEL_G).json()
    assert out["parameter"] == "mu" and out["alpha0"] == "0.01" and out["digits"] == 30
    with mpmath.workdps(80):
        assert_correctly_rounded(out["mu"], z_upper(q("0.01")) + z_upper(q("0.5")), 30, "mu = z_{0.99} + z_{0.5}")
        assert abs(gauss_power(mpmath.mpf(out["mu"]), q("0.01")) - q("0.5")) < mpmath.mpf("1e-29")


def test_select_laplace(cli):
    ra0 = cli(*SEL_L_RA0).json()
    rho = cli(*SEL_L_RHO).json()
    assert ra0["parameter"] == "eps" and rho["parameter"] == "eps" and rho["alpha0"] is None
    with mpmath.workdps(60):
        # rho_alpha0 = 5 at 0.01: power 0.05, b0 = 0.95 > 1/2, eps = ln((1-b0)/a0) = ln 5
        assert_correctly_rounded(ra0["eps"], mpmath.log(5), 15, "eps for rho_alpha0 = 5")
        assert_correctly_rounded(rho["eps"], mpmath.log(3), 30, "eps = ln rho")


# ---------------------------------------------------------------- ztest
def _zpower(n, sigma, m, alpha, mu):
    sn = mpmath.sqrt(sigma**2 / n + (1 / mpmath.mpf(n)) ** 2 / mu**2)
    return mpmath.ncdf(m / sn - z_upper(alpha))


def test_ztest_power(cli):
    out = cli(*ZT).json()
    with mpmath.workdps(60):
        n, s, m, a = 100, mpmath.mpf(1), q("0.3"), q("0.05")
        p = _zpower(n, s, m, a, mpmath.mpf(1))
        p0 = mpmath.ncdf(m * 10 / s - z_upper(a))
        assert_correctly_rounded(out["power"], p, 25, "power")
        assert_correctly_rounded(out["power_unprotected"], p0, 25, "unprotected")
        assert_correctly_rounded(out["relative_loss"], (p0 - p) / p0, 25, "relative loss")
        assert_correctly_rounded(out["sigma_n"], mpmath.sqrt(mpmath.mpf("0.0101")), 25, "sigma_n")


def test_ztest_min_mu(cli):
    out = cli(*ZT_MIN).json()
    assert out["max_relative_loss"] == "0.1"
    with mpmath.workdps(50):
        n, s, m, a = 100, mpmath.mpf(1), q("0.3"), q("0.05")
        p0 = mpmath.ncdf(m * 10 / s - z_upper(a))
        goal = q("0.9") * p0
        lo, hi = mpmath.log(mpmath.mpf("1e-8")), mpmath.log(mpmath.mpf("1e8"))
        for _ in range(150):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if _zpower(n, s, m, a, mpmath.exp(mid)) >= goal else (mid, hi)
        assert_correctly_rounded(out["mu"], mpmath.exp(hi), 15, "smallest mu")
        assert_correctly_rounded(out["target_power"], goal, 15, "target power")


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, must_contain", [(a, m) for _, a, m in BAD_SUBPROCESS],
                         ids=[i for i, _, _ in BAD_SUBPROCESS])
def test_bad_input_subprocess(cli, args, must_contain):
    res = cli(*args)
    assert res.out == ""
    assert_usage_error(res, *must_contain)


def _main(capsys, *args):
    from proofs_check.cli import main
    rc = main(list(args))
    captured = capsys.readouterr()
    return Result(tuple(args), rc, captured.out, captured.err)


BAD_IN_PROCESS = [
    ("prior-0", "posterior laplace --eps 1 --prior 0 --alpha 0.1", ["prior=0", "(0, 1)"]),
    ("prior-negative", "posterior laplace --eps 1 --prior -0.1 --alpha 0.1", ["prior=-0.1"]),
    ("prior-1.5", "risk laplace --eps 1 --prior 1.5", ["prior=1.5"]),
    ("semantics-prior-1", "semantics --eps 1 --delta 1e-5 --delta-prime 1e-3 --prior 1", ["prior=1"]),
    ("alpha0-0", "risk gaussian --mu 1 --alpha0 0", ["alpha0=0", "(0, 1]"]),
    ("alpha0-1.5", "risk gaussian --mu 1 --alpha0 1.5", ["alpha0=1.5"]),
    ("alpha-1.5", "posterior gaussian --mu 1 --prior 0.5 --alpha 1.5", ["alpha=1.5"]),
    ("eps-negative-risk", "risk laplace --eps -1", ["eps=-1"]),
    ("eps-negative-semantics", "semantics --eps -1 --delta 1e-5 --delta-prime 1e-3", ["eps=-1"]),
    ("delta-prime-equal", "semantics --eps 1 --delta 1e-5 --delta-prime 1e-5", ["delta_prime"]),
    ("delta-prime-below-delta", "semantics --eps 1 --delta 0.1 --delta-prime 0.05", ["delta_prime=0.05"]),
    ("delta-1", "semantics --eps 1 --delta 1 --delta-prime 1", ["delta=1"]),
    ("k-0", "compose pure --eps 1 --k 0 --delta 1e-5 --method optimal", ["k=0"]),
    ("k-negative", "compose pure --eps 1 --k -1 --delta 1e-5 --method basic", ["k=-1"]),
    ("k-fraction", "compose pure --eps 1 --k 1.5 --delta 1e-5 --method advanced", ["k=1.5", "integer"]),
    ("k-zero-zcdp", "compose zcdp --rho 0.1 --k 0 --delta 1e-5", ["k=0"]),
    ("method", "compose pure --eps 1 --k 2 --delta 1e-5 --method magic", ["method", "magic"]),
    ("conversion", "compose zcdp --rho 0.1 --k 2 --delta 1e-5 --conversion magic", ["conversion", "magic"]),
    ("compose-eps-0", "compose pure --eps 0 --k 2 --delta 1e-5 --method optimal", ["eps=0"]),
    ("select-alpha0-with-rho", "select laplace --target rho --value 2 --alpha0 0.1", ["alpha0=0.1"]),
    ("select-value-below-alpha0", "select laplace --target power --value 0.001 --alpha0 0.01", ["value=0.001"]),
    ("select-target", "select laplace --target bogus --value 0.5", ["target", "bogus"]),
    ("ztest-n-0", "ztest --n 0 --sigma 1 --m 0.3 --alpha 0.05 --mu 1", ["n=0"]),
    ("ztest-min-mu-without-goal", "ztest --n 100 --sigma 1 --m 0.3 --alpha 0.05 --min-mu", ["max_relative_loss"]),
    ("ztest-goal-unreachable", "ztest --n 100 --sigma 1 --m 0.3 --alpha 0.05 --min-mu --max-relative-loss 0",
     ["max_relative_loss"]),
]


@pytest.mark.parametrize("argv, must_contain", [(a, m) for _, a, m in BAD_IN_PROCESS],
                         ids=[i for i, _, _ in BAD_IN_PROCESS])
def test_bad_input_in_process(capsys, argv, must_contain):
    res = _main(capsys, *argv.split())
    assert res.out == ""
    assert_usage_error(res, *must_contain)


def test_semantics_pure_zero_dp(capsys):
    res = _main(capsys, *_a("semantics --eps 0 --delta 0 --delta-prime 0.05 --json"))
    assert res.rc == 0, res.err
    out = json.loads(res.out)
    assert out["eps_prime"] == "0" or float(out["eps_prime"]) == 0
    assert float(out["difference_bound"]) == 0


def test_compose_zcdp_eps_is_not_negative(capsys):
    res = _main(capsys, *_a("compose zcdp --rho 1e-20 --k 1 --delta 0.1 --json"))
    assert res.rc == 0, res.err
    assert float(json.loads(res.out)["eps"]) >= 0


def test_risk_json_carries_latex_of_f0_rho_and_posterior_sup(capsys):
    # Laplace eps = 2: rho = e^2 (DF-rho), sup p_post = pi e^2/(bar pi + pi e^2) (DF-Def6 at alpha -> 0)
    latex = _main(capsys, "risk", "laplace", "--eps", "2", "--json").json()["latex"]
    assert latex == {"f0": "1", "rho": "e^{2}", "posterior_sup": r"\frac{\pi e^{2}}{\bar{\pi} + \pi e^{2}}"}


def test_select_defaults_alpha0_and_says_so(capsys):
    # Laplace: power = e^eps alpha0 while alpha0 <= e^-eps / 2 (catalog LXM Laplace f); power 0.5 at the
    # default alpha0 = 0.01 gives e^eps = 50 with alpha0 = e^-eps/2 on the boundary: eps = log 50.
    res = _main(capsys, *_a("select laplace --target power --value 0.5 --json"))
    assert res.rc == 0, res.err
    out = json.loads(res.out)
    assert out["alpha0"] == "0.01" and out["alpha0_default"] is True
    assert abs(mpmath.mpf(out["eps"]) - mpmath.log(50)) < mpmath.mpf("1e-14")
    text = _main(capsys, *_a("select laplace --target power --value 0.5")).out
    assert "alpha0 = 0.01 (the default)" in text
