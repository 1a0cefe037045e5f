"""Mutation tests for proofs_check.claims_su_applications (seed 004's applications: noisy GD's last
iterate, the subsampled CLT's kl, the census levels): each breaks the code a claim checks and requires
FAILED."""

from __future__ import annotations

import dataclasses

import mpmath
import sympy as sp

from mutations import assert_failed, assert_passes, scaled
from numeric import census as C
from numeric import noisy_gd as N
from numeric.functionals_subsampled import SubsampledStep
from proofs_check.discovery import all_claims

all_claims()


def test_noisy_gd_series_catches_a_wrong_exponent(monkeypatch):
    """(1 - c^(T+1)) for (1 - c^T): the closed form no longer equals the series."""
    assert_passes("BSA24:NoisyGD-series")
    orig = N.mu_last_full
    monkeypatch.setattr(N, "mu_last_full", lambda mu_s, c, T: orig(mu_s, c, T + 1))
    assert_failed("BSA24:NoisyGD-series")


def test_noisy_gd_convergent_catches_a_slowly_growing_composition(monkeypatch):
    """A composition bound growing as T^(1/4) instead of sqrt(T) is no longer 10x the limit at T = 10^6."""
    assert_passes("BSA24:NoisyGD-convergent")
    monkeypatch.setattr(N, "mu_composition", lambda mu_s, uses: mpmath.mpf(sp.Rational(mu_s)) * mpmath.root(uses, 4))
    assert_failed("BSA24:NoisyGD-convergent")


def test_noisy_gd_convergent_catches_a_wrong_limit(monkeypatch):
    monkeypatch.setattr(N, "mu_last_full", scaled(N.mu_last_full, "1.000001"))
    assert_failed("BSA24:NoisyGD-convergent")


def test_subsampled_kl_catches_a_scaled_functional(monkeypatch):
    assert_passes("DRS-CLT:subsampled-kl")
    monkeypatch.setattr(SubsampledStep, "functional_value", scaled(SubsampledStep.functional_value, "1.0000001"))
    assert_failed("DRS-CLT:subsampled-kl")


def test_census_level_catches_a_shifted_bracket(monkeypatch):
    """A bracket moved up by 1e-3 relative no longer contains the exact law's eps."""
    assert_passes("SSW24:census-level-eps")
    orig = C.certified_eps

    def moved(*a, **kw):
        r = orig(*a, **kw)
        with mpmath.workdps(30):
            return dataclasses.replace(r, eps_lower=r.eps_lower * mpmath.mpf("1.001"),
                                       eps_upper=r.eps_upper * mpmath.mpf("1.001"))
    monkeypatch.setattr(C, "certified_eps", moved)
    assert_failed("SSW24:census-level-eps")


def test_clone_delta_catches_a_swapped_mixing_weight(monkeypatch):
    """a -> 1 - a (the reporting probability swapped) in the pair the walk sums."""
    from numeric import shuffle_clones as S
    assert_passes("FMT-clones:delta")
    monkeypatch.setattr(S, "mixing_weight", lambda E: (1 / (1 + E), E / (1 + E)))
    assert_failed("FMT-clones:delta")


def test_clone_delta_catches_the_wrong_clone_probability(monkeypatch):
    """The stronger-clone pair given the standard clone's q."""
    from numeric import shuffle_clones as S
    red = dict(S.REDUCTIONS)
    red["stronger-clone"] = dataclasses.replace(red["stronger-clone"], pair=red["standard-clone"].pair,
                                                pair_float=red["standard-clone"].pair_float)
    monkeypatch.setattr(S, "REDUCTIONS", red)
    assert_failed("FMT-clones:delta")


def test_clone_rounds_catches_swapped_block_ends(monkeypatch):
    """The pessimistic block pair taking each block's largest clone count (the optimistic pair's): with the
    checker's 3-4 blocks the bracket no longer holds the double loop's value."""
    from numeric import shuffle_blocks as SB
    assert_passes("FMT-clones:rounds")
    orig = SB.CloneBlockPair.__init__

    def swapped(self, reduction, eps0, n, side, count=SB.BLOCKS):
        orig(self, reduction, eps0, n, "lower" if side == "upper" else "upper", count)
    monkeypatch.setattr(SB.CloneBlockPair, "__init__", swapped)
    assert_failed("FMT-clones:rounds")


def test_clone_rounds_catches_a_dropped_bound_factor(monkeypatch):
    """The slices' pmf windows scaled by 0.99 (as if the enclosure factor were wrong)."""
    from numeric import shuffle_blocks as SB
    orig = SB.make_slice

    def low(c):
        sl = orig(c)
        return dataclasses.replace(sl, b=sl.b * 0.99, cum=sl.cum * 0.99)
    monkeypatch.setattr(SB, "make_slice", low)
    assert_failed("FMT-clones:rounds")


def test_routes_ordered_catches_a_too_large_exact_pair(monkeypatch):
    from numeric import shuffle_rr as R
    assert_passes("SU-shuffle:routes-ordered")
    orig = R.binary_rr

    def bigger(*a, **kw):
        r = orig(*a, **kw)
        return {**r, "eps_upper": r["eps_upper"] * 1.6}
    monkeypatch.setattr(R, "binary_rr", bigger)
    assert_failed("SU-shuffle:routes-ordered")
