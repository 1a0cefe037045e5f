"""numeric/shuffle_fast.py (issue #26 item 1, speed): float model + one Arb walk at two points.

References, each independent of the code under test:
* ``brute`` of tests/test_shuffle_clones.py: the clone pair built atom by atom from its definition and its
  hockey stick summed over every atom in mpmath at 90 digits (no threshold, no walk, no tails);
* F_c(T) = sum_{x <= T} binom(c, x) / 2^c as an exact Fraction (Python integers);
* the general search numeric.shuffle_clones.eps_bracket (its own float walk, separate certified walks
  started from Arb's incomplete beta), for agreement at sizes brute force cannot reach.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest

from numeric import shuffle_clones as SC
from numeric import shuffle_fast as SF
from tests.test_shuffle_clones import DPS, _mp, brute


def _exact_F(c: int, T: int) -> F:
    return F(sum(math.comb(c, x) for x in range(T + 1)), 2 ** c)


def _start_contains(c: int, T: int) -> bool:
    import flint
    with flint.ctx.workprec(192):
        b = flint.arb(math.comb(c, T)) / flint.arb(2) ** c
        lo, hi = SC._ends(SF._start_F(c, T, b, flint.arb))
    return lo <= _exact_F(c, T) <= hi and hi - lo <= F(1, 10 ** 15) * hi


START_CASES = [(300, 130), (2000, 999), (1, 0), (50, 0), (5, 5)]


def test_start_sum_contains_the_exact_binomial_cdf():
    assert all(_start_contains(c, T) for c, T in START_CASES)


def test_start_incomplete_beta_branch_contains_the_exact_cdf(monkeypatch):
    monkeypatch.setattr(SF, "MAX_TERMS", 1)                     # every case takes Arb's beta_lower at 64 bits
    assert all(_start_contains(c, T) for c, T in START_CASES[:2])


def test_mutation_start_without_the_geometric_rest_is_caught(monkeypatch):
    """Dropping the bound on the unsummed terms (their ball [0, rest]) makes the ball miss F."""
    orig = SF._start_F
    monkeypatch.setattr(SF, "_start_F", lambda c, T, b, arb: orig(c, T, b, arb) * (1 - arb(2) ** -60))
    assert not all(_start_contains(c, T) for c, T in START_CASES[:2])


def _pair_contains(reduction: str, n: int, eps0: F, e_lo: F, e_hi: F) -> bool:
    got = SF.certify_pair(reduction, eps0, n, e_lo, e_hi, 60.0)
    ok = got is not None
    for (lo, hi), e in zip(got or (), (e_lo, e_hi)):
        ref = max(brute(reduction, eps0, n, e))
        with mpmath.workdps(DPS):
            ok = ok and _mp(lo) <= ref <= _mp(hi) and hi - lo <= F(1, 10 ** 12) * hi
    return ok


@pytest.mark.parametrize("reduction", ["standard-clone", "stronger-clone"])
def test_one_walk_two_points_contains_the_double_loop(reduction):
    assert _pair_contains(reduction, 30, F(1), F(3, 10), F(3, 10) + F(1, 10 ** 7))
    assert _pair_contains(reduction, 12, F(2), F(1, 2), F(1, 2) + F(1, 10 ** 9))


def test_mutation_swapped_mixing_weight_is_caught(monkeypatch):
    monkeypatch.setattr(SC, "mixing_weight", lambda E: (1 / (1 + E), E / (1 + E)))
    assert not _pair_contains("standard-clone", 30, F(1), F(3, 10), F(3, 10) + F(1, 10 ** 7))


def test_mutation_walk_dropping_a_slice_is_caught(monkeypatch):
    orig = SC._slice
    calls = {"k": 0}

    def skip_third(*a):
        calls["k"] += 1
        g = orig(*a)
        return g * 0 if calls["k"] in (5, 6) else g          # the third c of the walk, both points
    monkeypatch.setattr(SC, "_slice", skip_third)
    assert not _pair_contains("standard-clone", 30, F(1), F(3, 10), F(3, 10) + F(1, 10 ** 7))


@pytest.mark.parametrize("reduction", ["standard-clone", "stronger-clone"])
def test_fast_eps_bracket_is_certified_by_the_double_loop(reduction):
    """eps in (lower, upper] iff delta(lower) > delta >= delta(upper): both checked on the brute-force pair."""
    n, eps0, delta = 40, F(1), F(1, 1000)
    got = SF.try_eps_bracket(reduction, eps0, n, delta, 1e-9)
    assert got is not None
    lo, hi = got
    assert hi - lo <= F(1, 10 ** 9) * hi
    with mpmath.workdps(DPS):
        assert max(brute(reduction, eps0, n, lo)) > _mp(delta)
        assert max(brute(reduction, eps0, n, hi)) <= _mp(delta)


def test_a_misleading_model_is_refused_not_trusted(monkeypatch):
    """The model only proposes: a root moved by 1e-6 cannot be certified at width 1e-9, so the fast route
    returns None and shuffle_clones' general search answers (still certified, same eps)."""
    n, eps0, delta = 40, F(1), F(1, 1000)
    ref = SC.eps_bracket("standard-clone", eps0, n, delta)
    orig = SF.FloatModel.root
    monkeypatch.setattr(SF.FloatModel, "root", lambda self, d, **k: orig(self, d, **k) * (1 + 1e-6))
    assert SF.try_eps_bracket("standard-clone", eps0, n, delta, 1e-9) is None
    r = SF.eps_bracket("standard-clone", eps0, n, delta)
    assert r.certified and r.evaluations > 2 and r.lower < ref.upper and ref.lower < r.upper


@pytest.mark.parametrize("n,eps0", [(10 ** 3, F(1, 2)), (10 ** 4, F(1)), (10 ** 5, F(2))])
def test_fast_route_is_taken_and_agrees_with_the_general_search(n, eps0):
    delta = F(1, 10 ** 6)
    fast = SF.eps_bracket("standard-clone", eps0, n, delta)
    slow = SC.eps_bracket("standard-clone", eps0, n, delta)
    assert fast.certified and fast.evaluations == 2                      # one walk at two points
    assert fast.upper - fast.lower <= F(1, 10 ** 9) * fast.upper
    assert fast.lower < slow.upper and slow.lower < fast.upper          # both certified: they must overlap


def test_model_locates_eps_to_the_certified_bracket():
    """The float model's root lies in the certified bracket of the general search, up to 1e-10 relative,
    at n = 1e4 (it must, for two points 4e-10 apart around it to bracket eps)."""
    r = SC.eps_bracket("standard-clone", F(1), 10 ** 4, F(1, 10 ** 6))
    m = SF.FloatModel("standard-clone", 1.0, 10 ** 4, SC._log_inv_tail(1e-6))
    root = m.root(1e-6)
    assert float(r.lower) * (1 - 1e-10) <= root <= float(r.upper) * (1 + 1e-10)


@pytest.mark.slow
@pytest.mark.parametrize("n", [10 ** 6, 10 ** 7])
def test_fast_route_at_large_n_agrees_with_the_general_search(n):
    delta = F(1, 10 ** 6)
    for eps0 in (F(1, 2), F(2)):
        fast = SF.eps_bracket("standard-clone", eps0, n, delta)
        slow = SC.eps_bracket("standard-clone", eps0, n, delta)
        assert fast.certified and fast.evaluations == 2
        assert fast.upper - fast.lower <= F(1, 10 ** 9) * fast.upper
        assert fast.lower < slow.upper and slow.lower < fast.upper
