"""Seed 002 Figs. 1 and 7 (proofs_check/cli/plot_prior.py, figures --paper 002).

References, independent of the code under test (which evaluates derive.semantics' SymPy forms: eps' in
the log1p form, the ratio bounds as 1/(p + (1 - p) e^{-+eps'}), the difference U - p without subtraction):
plain mpmath at 40 digits from the posterior bounds themselves, U(p, e) = 1/(1 + (1 - p)/p e^-e),
L(p, e) = U(p, -e), with eps' in the printed form log((e^eps delta' + delta)/(delta' - delta)) (catalog
002 KZ-T3.9), and the ratios and differences formed from U and L as the event and its complement
(P/p in [L/p, U/p], (1 - P)/(1 - p) in [(1 - U)/(1 - p), (1 - L)/(1 - p)], P - p in [L - p, U - p]).
"""

from __future__ import annotations

import csv
from fractions import Fraction

import mpmath
import pytest

from cli_runner import assert_usage_error, run
from proofs_check.cli import plot_prior as PP

EPS, DELTA = "1.8", "1e-5"
PRIORS = ("0.01", "0.2", "0.5", "0.77", "0.99")


def _eps_prime(dp):
    e, d, dp = mpmath.mpf(EPS), mpmath.mpf(DELTA), mpmath.mpf(dp)
    return mpmath.log((mpmath.exp(e) * dp + d) / (dp - d))


def _u(p, e):
    return 1 / (1 + (1 - p) / p * mpmath.exp(-e))


def _hand(p, dp):
    """(ratio lower, ratio upper, largest change) from U and L at eps'."""
    with mpmath.workdps(40):
        p, ep = mpmath.mpf(p), _eps_prime(dp)
        U, L = _u(p, ep), _u(p, -ep)
        lower = min(L / p, (1 - U) / (1 - p))
        upper = max(U / p, (1 - L) / (1 - p))
        change = max(U - p, p - L)
        return lower, upper, change


def _close(a, b, rel=mpmath.mpf("1e-13")):
    return abs(mpmath.mpf(a) - b) <= rel * abs(b)


def check_eps_prime():
    from derive.exact import rational
    pts = PP.eps_prime_points(rational("eps", EPS), rational("delta", DELTA), ["1.1e-5", "1e-4", "0.05", "1"], 15)
    for dp, value in pts:
        with mpmath.workdps(40):
            assert _close(value, _eps_prime(dp)), (dp, value)


def check_ratio(dp="0.05"):
    from derive.exact import rational
    pts = PP.ratio_points(rational("eps", EPS), rational("delta", DELTA), dp, PRIORS, 15)
    for p, lo, hi in pts:
        lo_h, hi_h, _ = _hand(p, dp)
        assert _close(lo, lo_h) and _close(hi, hi_h), (p, lo, hi, lo_h, hi_h)


def check_difference(dp="0.01"):
    from derive.exact import rational
    pts = PP.difference_points(rational("eps", EPS), rational("delta", DELTA), dp, PRIORS, 15)
    for p, v in pts:
        assert _close(v, _hand(p, dp)[2]), (p, v)


def test_eps_prime_points():
    check_eps_prime()


def test_ratio_points():
    check_ratio()


def test_difference_points():
    check_difference()


def test_worst_case_difference_is_tanh():
    # Lemma 3.4: the largest change is tanh(eps'/4) at p = 1/(1 + e^{eps'/2}); the grid's maximum is below it
    # and within the grid's resolution (0.01 in p, where the curve is flat to second order)
    with mpmath.workdps(40):
        top = mpmath.tanh(_eps_prime("0.01") / 4)
        grid = [_hand(p, "0.01")[2] for p in PP.PRIORS]
        assert max(grid) <= top and top - max(grid) < mpmath.mpf("1e-3")


def test_the_drawn_data(tmp_path):
    out = tmp_path / "r.png"
    res = run(("plot", "prior-ratio", "approx-dp", "--eps", EPS, "--delta", DELTA, "--delta-prime", "0.05",
               "--out", str(out)))
    assert res.rc == 0, res.err
    with open(tmp_path / "r.csv") as fh:
        rows = list(csv.reader(fh))
    seen = 0
    wanted = {Fraction(p) for p in PRIORS}
    for label, _, x, y in rows[1:]:
        if Fraction(x) in wanted:
            lo, hi, _ = _hand(x, "0.05")
            with mpmath.workdps(40):
                assert _close(y, hi if label.startswith("upper") else lo, mpmath.mpf("1e-13")), (label, x, y)
            seen += 1
    assert seen == 2 * len(PRIORS)


def test_figures_002_draws_four(tmp_path):
    from proofs_check.figures import TABLE
    drawn = {f.name for f in TABLE if f.paper == "002" and not f.missing}
    assert {"Fig. 1", "Fig. 3", "Fig. 5", "Fig. 7"} <= drawn


@pytest.mark.parametrize("args,text", [
    (("plot", "prior-ratio", "gaussian", "--mu", "1"), "mechanism"),
    (("plot", "prior-ratio", "approx-dp", "--eps", "1", "--delta", "0.1", "--delta-prime", "0.05"), "delta_prime"),
    (("plot", "eps-prime", "approx-dp", "--eps", "1,2", "--delta", "0.1"), "mechanism"),
])
def test_usage_errors(args, text, tmp_path):
    assert_usage_error(run((*args, "--out", str(tmp_path / "x.png"))), text)


# ------------------------------------------------------------------------------ mutations ----

def test_mutation_eps_prime_without_the_delta_term(monkeypatch):
    from derive import semantics as S
    monkeypatch.setattr(S, "eps_prime", lambda e=S.eps, d=S.delta, dp=S.delta_p: e)
    with pytest.raises(AssertionError):
        check_eps_prime()


def test_mutation_ratio_without_the_complement(monkeypatch):
    monkeypatch.setattr(PP, "_complement", lambda expr: expr)
    with pytest.raises(AssertionError):
        check_ratio()


def test_mutation_difference_one_sided(monkeypatch):
    original = PP._sides
    monkeypatch.setattr(PP, "_sides", lambda ep: (original(ep)[0],) * 2)
    with pytest.raises(AssertionError):
        check_difference()
