"""The 2020 Census allocation as data, its composition, and SSW24's ranges (issue #26 item 3).

References are computed here independently of numeric.census: Fractions by hand from the configuration
file's numbers, a brute-force sum over all integer triples at 40 digits, the catalog's printed form of
the one-query profile (numeric.discrete_gaussian.printed_profile), the continuous Gaussian's closed-form
profile at 40 digits (the discrete Gaussian at sigma^2 = 450 differs from it by ~1e-5, under the
tolerance 5e-5), and the zCDP conversions as upper bounds.  Each check has a mutation test below."""

from __future__ import annotations

import functools
import itertools
import json
import math
from fractions import Fraction

import mpmath
import pytest

from derive.spec import parse_spec
from numeric import census as C
from numeric import discrete_gaussian as DG

SPECS = C.DATA.parent / "census_specs"


# ------------------------------------------------------------------------------------------ data --

def test_allocation_sums_to_the_documented_total():
    data = json.loads(C.DATA.read_text(encoding="utf-8"))
    # the DAS's global rho is 1 / global_scale^2 (budget.py, "Global rho"); global_scale = 538/981 in the
    # config: by hand (981/538)^2 = 962361/289444 = 3.32486...; SSW24's script writes it as 3.325
    assert C.global_rho() == Fraction(962361, 289444)
    assert abs(float(C.global_rho()) - 3.325) < 5e-4
    assert sum(Fraction(g["prop"]) for g in data["geolevels"]) == 1
    for qs in data["query_sets"].values():
        assert sum(Fraction(p) for p in qs["props"]) == 1 and len(qs["props"]) == len(qs["queries"])
    for name in C.query_sets():
        assert C.level_rho(C.ALL, name) == Fraction(962361, 289444)
    # SSW24's Noise_to_DP.m: the US level is 1.95 % of rho with n = 9 queries
    assert round(100 * 13 / 665, 2) == 1.95 and len(C.queries("US")) == 9 and len(C.queries()) == 72


def test_sigma2_by_hand():
    # sigma^2 = 1/(2 rho_i), rho_i = rho * 2/665 * 1/9 at the block level: 9 * 665 * 538^2 / (2 * 2 * 981^2)
    block = C.queries("Block")
    assert {q.sigma2 for q in block} == {Fraction(9 * 665 * 538**2, 4 * 981**2)}
    assert C.queries("US", "dhcp_20220310")[0].sigma2 == Fraction(8 * 665 * 538**2, 2 * 13 * 981**2)


def test_bad_level_and_query_set():
    from derive.errors import DomainError
    with pytest.raises(DomainError, match="level"):
        C.queries("Planet")
    with pytest.raises(DomainError, match="query_set"):
        C.queries("US", "nope")


def test_shipped_specs_are_the_generator_output():
    for g in C.levels() + (C.ALL,):
        text = (SPECS / f"{g}.json").read_text(encoding="utf-8")
        assert text == C.spec_text(g), g
        comps = [c for c in parse_spec(text) for _ in range(c.count)]
        assert len(comps) == len(C.queries(g))
        for c, q in zip(comps, C.queries(g)):
            s2 = Fraction(c.params["sigma2"])
            assert s2 <= q.sigma2 < s2 * (1 + Fraction(1, 10**14))


def test_decimal_down():
    assert C.decimal_down(Fraction(1, 3), 5) == "0.33333"
    assert C.decimal_down(Fraction(2000, 3), 4) == "666.6"
    assert C.decimal_down(Fraction(450), 15) == "450"
    assert C.decimal_down(Fraction(1, 30000), 2) == "0.000033"


# --------------------------------------------------------------------------- the exact profile --

@functools.lru_cache(maxsize=1)
def _brute_deltas(epss=(0.3, 1.0, 2.5), s2=2, n=3, k=14):
    """delta(eps) of n DGs for each eps by summing over every integer n-tuple in [-k, k]^n at 40 digits:
    sum (P1(z) - e^eps P0(z))_+ with the product laws (beyond |z| = 14 at s2 = 2 a weight is below e^-49
    of the mode's, far under the 1e-12 asked)."""
    with mpmath.workdps(40):
        w = {z: mpmath.exp(-mpmath.mpf(z) ** 2 / (2 * s2)) for z in range(-k - 1, k + 2)}
        zn = sum(mpmath.exp(-mpmath.mpf(z) ** 2 / (2 * s2)) for z in range(-60, 61))
        ratios = [mpmath.exp(e) for e in epss]
        totals = [mpmath.mpf(0)] * len(epss)
        for zs in itertools.product(range(-k, k + 1), repeat=n):
            p0 = w[zs[0]] * w[zs[1]] * w[zs[2]]
            p1 = w[zs[0] - 1] * w[zs[1] - 1] * w[zs[2] - 1]
            totals = [t + max(p1 - r * p0, 0) for t, r in zip(totals, ratios)]
        return tuple(float(t / zn**n) for t in totals)


def _conv_matches_brute() -> bool:
    ok = True
    for eps, ref in zip((0.3, 1.0, 2.5), _brute_deltas()):
        got = C.convolution_delta(eps, 2.0, 3)
        ok &= abs(got - ref) <= 1e-12 * ref
    return ok


def _one_query_matches_printed_form() -> bool:
    with mpmath.workdps(30):
        ref = DG.printed_profile(mpmath.mpf(1), mpmath.mpf(5))
    return abs(C.convolution_delta(1.0, 5.0, 1) - float(ref)) <= 1e-12 * float(ref)


def test_convolution_against_brute_force_and_the_printed_form():
    C._sum_law.cache_clear()
    assert _conv_matches_brute()
    assert _one_query_matches_printed_form()


def test_mutation_convolution_wrong_shift(monkeypatch):
    """P1 = the law shifted by n - 1 instead of n: both references catch it."""
    orig = C.convolution_delta

    def shifted(eps, s2, n):
        return orig(eps + 1 / (2 * s2) * 2, s2, n)         # the same as moving the loss by one lattice step
    monkeypatch.setattr(C, "convolution_delta", shifted)
    assert not _conv_matches_brute()
    assert not _one_query_matches_printed_form()


# -------------------------------------------------------------------------- engine, conversions --

def _engine_contains(level) -> bool:
    s2, n = C._identical(level, None)
    r = C.certified_eps(level)
    e = C.convolution_eps(s2, n)
    conv = C.conversions(level)
    return (r.certified and float(r.eps_lower) <= e <= float(r.eps_upper) * (1 + 1e-12)
            and float(r.eps_upper) <= float(conv["cks"]) <= float(conv["bun-steinke"]))


def test_engine_bracket_contains_the_exact_value_and_sits_below_the_zcdp_conversions():
    for level in ("US", "State"):
        assert _engine_contains(level), level


def test_mutation_engine_check_catches_a_wrong_sigma(monkeypatch):
    """The convolution at a sigma^2 5 % off leaves the engine bracket (the check can fail)."""
    orig = C.convolution_eps
    monkeypatch.setattr(C, "convolution_eps", lambda s2, n, delta=1e-10: orig(s2 * 1.05, n, delta))
    assert not _engine_contains("US")


@pytest.mark.slow
def test_all_72_queries_compose_below_the_conversions():
    r = C.certified_eps(C.ALL)
    conv = C.conversions(C.ALL)
    assert r.certified and float(r.eps_upper) < float(conv["cks"]) < float(conv["bun-steinke"])
    # Bun-Steinke of rho = 962361/289444 at delta = 1e-10 by hand: rho + 2 sqrt(rho log 1e10)
    with mpmath.workdps(30):
        rho = mpmath.mpf(962361) / 289444
        bs = rho + 2 * mpmath.sqrt(rho * mpmath.log(mpmath.mpf(10) ** 10))
    assert abs(conv["bun-steinke"] - bs) < mpmath.mpf("1e-12")


# ----------------------------------------------------------------------------- SSW24's margins --

def _gaussian_margin(s2, n, nominal):
    """(unused, variance reduction) for n continuous Gaussians of variance s2 (mu^2 = n / s2) at 40 digits."""
    with mpmath.workdps(40):
        d = mpmath.mpf("1e-10")

        def eps(mu):
            f = lambda e: mpmath.log(mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)) - mpmath.log(d)
            return mpmath.findroot(f, (mpmath.mpf("0.01"), 40), solver="anderson")
        e = eps(mpmath.sqrt(n / mpmath.mpf(s2)))
        c = mpmath.findroot(lambda c: eps(mpmath.sqrt(n / (c * s2))) - nominal, (mpmath.mpf("0.5"), 1), solver="anderson")
        return 1 - e / nominal, 1 - c


def _block_margin_matches() -> bool:
    m = C.margin("Block")
    with mpmath.workdps(40):
        # the block level's rho by hand: (981/538)^2 * 2/665; its Bun-Steinke eps at delta = 1e-10
        rho = (mpmath.mpf(981) / 538) ** 2 * 2 / 665
        nominal = rho + 2 * mpmath.sqrt(rho * mpmath.log(mpmath.mpf(10) ** 10))
    un, vr = _gaussian_margin(1 / (2 * rho / 9), 9, nominal)
    # the lattice of the discrete loss (step 1/sigma^2) moves eps by ~1e-5 relative from the Gaussian's
    return abs(m.unused - float(un)) < 5e-5 and abs(m.variance_reduction - float(vr)) < 5e-5


def test_block_margin_against_the_gaussian_limit():
    assert _block_margin_matches()


def test_mutation_margin_definition(monkeypatch):
    """A margin computed against the CKS nominal instead of Bun-Steinke is caught."""
    orig = C.margin
    monkeypatch.setattr(C, "margin", lambda level, conversion="bun-steinke", query_set=None, delta=C.DELTA:
                        orig(level, "cks", query_set, delta))
    assert not _block_margin_matches()


def test_margin_bad_conversion():
    from derive.errors import DomainError
    with pytest.raises(DomainError, match="conversion"):
        C.margin("US", "renyi")


def test_identical_refuses_mixed_levels():
    from derive.errors import DomainError
    with pytest.raises(DomainError, match="share sigma"):
        C._identical(C.ALL, None)
    assert math.isclose(C._identical("Block", None)[0], float(Fraction(9 * 665 * 538**2, 4 * 981**2)))
