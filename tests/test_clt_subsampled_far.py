"""Poisson-subsampled Gaussian steps with a small rate and a large mu in ``clt`` (thirteenth session's audit):
the privacy loss l = log(1 - p + p e^g) turns from ~p e^g to ~g + log p within ~1/mu of z ~ mu/2 + log(1/p)/mu,
which tanh-sinh missed at every precision (kappa2 wrong from the 10th digit, the same at 35 and 52 digits), and
var = kappa2 - kl^2 cancels 14 digits at mu = 20, p = 1e-6, which the 10 guard digits did not cover
(mu_berry_esseen and gamma wrong from the 3rd digit at --digits 25).

References: the audit helper's, computed without dp-derive code by three quadratures that agree to 30 digits:
tanh-sinh on a 0.5-spaced grid plus the cut points of l = log1p(p expm1(mu y - mu^2/2)), y ~ N(0, 1);
Gauss-Legendre at 100 digits with each mixture component integrated in its own centred variable; and
l = log(1 - p) + X, X = log1p(r e^g) >= 0, where kl, kappa2 and the variance are integrals of positive
functions (no cancellation)."""

from __future__ import annotations

import mpmath
import pytest

from cli_runner import run
from numeric import clt as CLT
from numeric import functionals_subsampled as FS


def _clt(mu, p, digits):
    out = run(("clt", "gaussian", "--mu", mu, "--p", p, "--k", "1", "--sampling", "poisson", "--digits", str(digits),
               "--json"))
    assert out.rc == 0, out.err
    return out.json()


def _close(text, ref, digits):
    got, want = mpmath.mpf(text), mpmath.mpf(ref)
    assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** (1 - digits), (text, ref)


def test_mu10_p1e6_functionals():
    out = _clt("10", "1e-6", 15)
    _close(out["kl"], "9.99709174293135e-7", 15)
    _close(out["kappa2"], "4.61812291556865e-10", 15)
    _close(out["mu_berry_esseen"], "0.0931411019695235", 15)
    _close(out["gamma"], "100036.180486566", 15)


def test_mu20_p1e6_at_25_digits():
    out = _clt("20", "1e-6", 25)
    _close(out["kappa2"], "1.000001000000958607405438e-12", 25)
    _close(out["mu_berry_esseen"], "9765990.721693031344517644", 25)
    _close(out["gamma"], "13773649067540.60", 15)


def test_mutation_without_the_turn_cut_is_caught(monkeypatch):
    monkeypatch.setattr(FS._Integrals, "turn", lambda self: ())
    with pytest.raises(AssertionError):
        test_mu10_p1e6_functionals()


def test_mutation_without_extra_digits_is_caught(monkeypatch):
    monkeypatch.setattr(CLT, "MAX_EXTRA_DIGITS", 0)
    with pytest.raises(AssertionError):
        test_mu20_p1e6_at_25_digits()
