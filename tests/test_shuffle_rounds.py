"""numeric/shuffle_rounds.py: R shuffled rounds through the certified PLD engine (issue #26 item 1).

Reference: the clone pair built from its definition (atoms of (A + Delta, C - A + 1 - Delta) and the
mirror, as in tests/test_shuffle_clones.py) and the 2-fold product's hockey stick summed over all pairs
of atoms in mpmath (independent of the engine and of the walk)."""

from __future__ import annotations

import functools
from fractions import Fraction as F

import mpmath
import pytest

from numeric import shuffle_clones as SC
from numeric.shuffle_rounds import compose_rounds
from proofs_check.claims_su_applications import clone_pair_atoms


@functools.lru_cache(maxsize=None)
def two_rounds_delta(eps0: F, n: int, eps: F):
    with mpmath.workdps(40):
        E = mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)
        P, Q = clone_pair_atoms(1 / E, E / (1 + E), n)   # standard clone
        atoms = [(P.get(k, 0), Q.get(k, 0)) for k in set(P) | set(Q)]
        t = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        return mpmath.fsum(max(0, p1 * p2 - t * q1 * q2) for p1, q1 in atoms for p2, q2 in atoms)


def _contains(r, value):
    with mpmath.workdps(40):
        lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
        hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
        return lo <= value <= hi


def _check() -> bool:
    """2 rounds, n = 10, eps0 = 1, delta at eps = 1/2: certified, contains the reference, width <= 1 %."""
    ref = two_rounds_delta(F(1), 10, F(1, 2))
    r = compose_rounds("standard-clone", F(1), 10, 2, at_eps=F(1, 2))
    return r.certified and _contains(r, ref) and r.upper - r.lower <= F(1, 100) * r.upper


def test_two_rounds_contain_the_product_double_loop():
    assert _check()


def test_mutation_swapped_mixing_weight_is_caught(monkeypatch):
    """With a <-> 1 - a the tails are no pair's (S_P and S_Q trade places); the engine answers [0, 1]."""
    monkeypatch.setattr(SC, "mixing_weight", lambda E: (1 / (1 + E), E / (1 + E)))
    assert not _check()


def _check_arb_route() -> bool:
    """The same query on the Arb implementation ``ShuffleClonePair`` (the tests' second reference)."""
    from numeric.pld import compose
    from numeric.pld_mechanisms import Mechanism
    from numeric.shuffle_rounds import ShuffleClonePair
    ref = two_rounds_delta(F(1), 10, F(1, 2))
    model = ShuffleClonePair("standard-clone", F(1), 10)
    r = compose([(Mechanism(model.name, [model], True), 2)]).delta(F(1, 2))
    with mpmath.workdps(40):
        return r.certified and r.delta_lower <= ref <= r.delta_upper


def test_arb_route_contains_the_product_double_loop():
    assert _check_arb_route()


def test_mutation_dropped_window_mass_is_caught(monkeypatch):
    from numeric import shuffle_rounds as SR
    orig = SR._tails_walk
    monkeypatch.setattr(SR, "_tails_walk", lambda *a: tuple(v * (1 - 1e-3) for v in orig(*a)))
    assert not _check_arb_route()


def test_n_above_1e8_is_refused():
    from derive.errors import DomainError
    with pytest.raises(DomainError):
        compose_rounds("standard-clone", F(1), 10 ** 8 + 1, 2, at_delta=F(1, 10 ** 6))
