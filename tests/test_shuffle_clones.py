"""numeric/shuffle_clones.py (issue #26 item 1): the clone reductions' pairs, certified.

Reference: ``brute`` below builds the pair of Feldman-McMillan-Talwar *from its definition*
(C ~ Bin(n - 1, q), A ~ Bin(C, 1/2), Delta ~ Bern(a); P = (A + Delta, C - A + 1 - Delta),
Q = (A + 1 - Delta, C - A + Delta)) as a dictionary of atoms, in mpmath at 90 digits, and sums
(P - e^eps Q)_+ and (Q - e^eps P)_+ over all atoms (a double loop, O(n^2) atoms): no threshold, no
binomial tail, no recursion, nothing shared with the code under test.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction as F

import mpmath
import pytest

from numeric import shuffle_clones as SC
from proofs_check.claims_su_applications import clone_pair_atoms

DPS = 90
#: clone probability q(E), E = e^eps0, written out again here (not read from the module)
Q_OF = {"standard-clone": lambda E: 1 / E, "stronger-clone": lambda E: 2 / (E + 1)}


def _mp(x: F):
    return mpmath.mpf(x.numerator) / x.denominator


@functools.lru_cache(maxsize=None)
def brute(reduction: str, eps0: F, n: int, eps: F):
    """(H_{e^eps}(P||Q), H_{e^eps}(Q||P)) by enumerating every atom of the pair (mpmath, 90 digits)."""
    with mpmath.workdps(DPS):
        E, t = mpmath.exp(_mp(eps0)), mpmath.exp(_mp(eps))
        P, Q = clone_pair_atoms(Q_OF[reduction](E), E / (1 + E), n)
        keys = set(P) | set(Q)
        pq = mpmath.fsum(max(0, P.get(k, 0) - t * Q.get(k, 0)) for k in keys)
        qp = mpmath.fsum(max(0, Q.get(k, 0) - t * P.get(k, 0)) for k in keys)
        return pq, qp


def _contains(r, value) -> bool:
    with mpmath.workdps(DPS):
        return _mp(r.lower) <= value <= _mp(r.upper)


CASES = [("1", "0.3"), ("2", "0.5"), ("0.5", "0.01"), ("3", "0"), ("1", "0.999")]


@pytest.mark.parametrize("reduction", list(Q_OF))
@pytest.mark.parametrize("n", [1, 5, 20, 100])
def test_delta_bracket_contains_the_double_loop(reduction, n):
    for eps0, eps in (CASES if n < 100 else CASES[:2]):       # n = 100: 5000 atoms a case, ~1.5 s each
        pq, qp = brute(reduction, F(eps0), n, F(eps))
        with mpmath.workdps(DPS):
            assert abs(pq - qp) <= mpmath.mpf(10) ** -80 * max(pq, 1e-300) + mpmath.mpf(10) ** -85, "symmetric pair"
        r = SC.delta_bracket(reduction, F(eps0), n, F(eps))
        assert _contains(r, max(pq, qp)), (reduction, n, eps0, eps, float(r.lower), float(max(pq, qp)))
        assert r.upper - r.lower <= F(1, 10 ** 12) * r.upper, (reduction, n, eps0, eps)


def test_delta_is_zero_from_eps0_on():
    for red in Q_OF:
        assert max(brute(red, F(1), 5, F(1))) <= mpmath.mpf(10) ** -85     # zero up to the 90-digit rounding
        r = SC.delta_bracket(red, F(1), 5, F(1))
        assert r.lower == r.upper == 0


@pytest.mark.parametrize("reduction", list(Q_OF))
def test_eps_bracket_is_certified_by_the_double_loop(reduction):
    """The exact eps(delta) lies in (lower, upper] iff delta(lower) > delta >= delta(upper) (delta(eps) is
    non-increasing): both sides are checked on the brute-force pair."""
    n, eps0, delta = 20, F(1), F(1, 100)
    r = SC.eps_bracket(reduction, eps0, n, delta)
    assert r.certified and r.upper - r.lower <= F(1, 10 ** 9) * r.upper
    with mpmath.workdps(DPS):
        assert max(brute(reduction, eps0, n, r.lower)) > _mp(delta)
        assert max(brute(reduction, eps0, n, r.upper)) <= _mp(delta)


def test_eps_bracket_ends():
    assert SC.eps_bracket("standard-clone", F(1), 100, F(0)).upper == 1          # delta = 0: eps = eps0
    r = SC.eps_bracket("standard-clone", F(1), 100, F(1))                        # delta = 1: eps = 0
    assert r.lower == r.upper == 0


@pytest.mark.parametrize("reduction", list(Q_OF))
def test_width_and_time_at_n_1e4(reduction):
    SC.eps_bracket(reduction, F(1), 1000, F(1, 10 ** 6))                         # warm the imports
    t0 = time.process_time()
    r = SC.eps_bracket(reduction, F(1), 10 ** 4, F(1, 10 ** 6))
    cpu = time.process_time() - t0
    assert r.certified and r.upper - r.lower <= F(1, 10 ** 9) * r.upper
    assert cpu <= 1.0, cpu


def test_eps_decreases_with_n_and_stronger_beats_standard():
    """More users: more privacy (the clone count C grows); stronger-clone's q = 2/(E + 1) > e^-eps0."""
    delta = F(1, 10 ** 6)
    prev = None
    for n in (100, 1000, 10 ** 4, 10 ** 5):
        std = SC.eps_bracket("standard-clone", F(1), n, delta)
        strong = SC.eps_bracket("stronger-clone", F(1), n, delta)
        assert strong.upper < std.lower
        if prev is not None:
            assert std.upper < prev.lower
        prev = std


def test_an_ambiguous_threshold_is_handled():
    """At eps chosen so that (c + 1) theta is an integer for some c the slice takes max over three prefixes;
    the bracket must still contain the double loop (eps0 = ln 3, eps = ln(5/3): theta = 1/8 exactly, so the
    ball of (c + 1) theta holds an integer at c = 7, 15, ...; the rational inputs are their decimal
    truncations at 40 digits, close enough that the balls straddle)."""
    with mpmath.workdps(60):
        eps0 = F(mpmath.nstr(mpmath.log(3), 40))
        eps = F(mpmath.nstr(mpmath.log(mpmath.mpf(5) / 3), 40))
    pq, qp = brute("standard-clone", eps0, 20, eps)
    r = SC.delta_bracket("standard-clone", eps0, 20, eps, prec_bits=100)
    assert _contains(r, max(pq, qp))


# ---------------------------------------------------------------- mutations ------

def _caught(reduction="standard-clone", n=20, eps0="1", eps="0.3", **kw) -> bool:
    """True when the (mutated) bracket misses the brute-force value."""
    ref = max(brute(reduction, F(eps0), n, F(eps)))
    try:
        r = SC.delta_bracket(reduction, F(eps0), n, F(eps), **kw)
    except (ValueError, AssertionError):          # the mutated code failed loudly (its own checks): caught
        return True
    return not _contains(r, ref)


def test_mutation_swapped_mixing_weight_is_caught(monkeypatch):
    assert not _caught()
    monkeypatch.setattr(SC, "mixing_weight", lambda E: (1 / (1 + E), E / (1 + E)))     # a <-> 1 - a
    assert _caught()


def test_mutation_dropped_tail_mass_is_caught(monkeypatch):
    """A window of ~2 standard deviations (log_inv_tail = 2) drops real mass: with its bound the bracket is
    still right (the code widens the window), without it the upper end falls below the exact value."""
    assert not _caught(n=100, log_inv_tail=2.0)
    monkeypatch.setattr(SC, "_tail_bound", lambda *a: __import__("flint").arb(0))
    assert _caught(n=100, log_inv_tail=2.0)


def test_mutation_threshold_two_atoms_off_is_caught(monkeypatch):
    """(One atom off is absorbed on purpose: the ball test sends the slice to max over T - 1, T, T + 1.)"""
    orig = SC._threshold
    monkeypatch.setattr(SC, "_threshold", lambda c, theta: orig(c, theta) + 2)
    assert _caught(n=100)


def test_mutation_wrong_clone_probability_is_caught(monkeypatch):
    assert not _caught("stronger-clone")
    monkeypatch.setitem(SC.REDUCTIONS, "stronger-clone", SC.REDUCTIONS["standard-clone"])
    assert _caught("stronger-clone")


def test_tiny_delta_keeps_a_finite_window_and_a_certified_bracket():
    """delta = 1e-300: the window's log(1/tail) once overflowed to inf (1e13/1e-300) and the walk then covered
    every c; the bracket is checked on the brute-force pair as above (n = 20, delta = 1e-40)."""
    import math
    assert math.isfinite(SC._log_inv_tail(1e-300))
    n, eps0, delta = 20, F(2), F(1, 10 ** 40)
    r = SC.eps_bracket("standard-clone", eps0, n, delta)
    assert r.certified
    with mpmath.workdps(DPS):
        assert max(brute("standard-clone", eps0, n, r.lower)) > _mp(delta)
        assert max(brute("standard-clone", eps0, n, r.upper)) <= _mp(delta)


@pytest.mark.parametrize("reduction,route", [("standard-clone", "standard"), ("stronger-clone", "stronger")])
def test_agrees_with_the_float_per_atom_route_at_large_n(reduction, route):
    """numeric/shuffle_fdp.wsy_delta (written separately: every atom of every slice summed in float log space)
    is the same pair's delta(eps) (its docstring, identity (i)); at n = 1e4, 1e5 it must agree with the
    certified bracket to float accuracy (measured 4e-13 to 2e-11 relative)."""
    from numeric import shuffle_fdp
    for n, eps0, eps in ((10 ** 4, 1, "0.05"), (10 ** 5, 2, "0.03")):
        w = shuffle_fdp.wsy_delta(n, float(eps0), float(eps), route)
        r = SC.delta_bracket(reduction, F(eps0), n, F(eps))
        assert abs(w - float(r.upper)) <= 1e-9 * float(r.upper), (n, w, float(r.lower))
