"""numeric.pld_tree: the product tree of distinct count-1 steps inside the engine's FFT composition.

References are independent of the code under test: exact linear convolutions of the float inputs in
Fractions (every float is a dyadic rational, so the exact convolution and its distance to the computed one
are exact up to the final square root, taken in mpmath at 50 digits), and the brute-force enumeration of a
composed randomized-response law (tests/test_lattice_law.py ``brute_delta``: every atom with its exact
weight) for the end-to-end bracket.  Each check has a mutation test that breaks the code and sees it fail.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld_tree as PT
from numeric.pld_fft import fft_eta


def _exact_conv(a, b):
    fa, fb = [Fraction(float(v)) for v in a], [Fraction(float(v)) for v in b]
    out = [Fraction(0)] * (len(fa) + len(fb) - 1)
    for i, x in enumerate(fa):
        for j, y in enumerate(fb):
            out[i + j] += x * y
    return out


def _dist(computed, exact) -> mpmath.mpf:
    s = sum((Fraction(float(c)) - e) ** 2 for c, e in zip(computed, exact))
    with mpmath.workdps(50):
        return mpmath.sqrt(mpmath.mpf(s.numerator) / s.denominator)


def _pair_bound_holds(rng, n1, n2) -> bool:
    a, b = rng.random(n1) * np.exp(-rng.random(n1) * 30), rng.random(n2)
    c, err = PT._fft_pair(a, b, fft_eta)
    d = _dist(c, _exact_conv(a, b))
    return len(c) == n1 + n2 - 1 and 0 < d <= err and err < 1e-12 * float(np.abs(c).sum())


def test_fft_pair_bound_contains_the_exact_error():
    rng = np.random.default_rng(5)
    assert all(_pair_bound_holds(rng, n1, n2) for n1, n2 in ((3, 5), (40, 17), (130, 129)))


def test_fft_pair_mutation_zero_bound_is_caught(monkeypatch):
    orig = PT._fft_pair
    monkeypatch.setattr(PT, "_fft_pair", lambda a, b, e: (orig(a, b, e)[0], 0.0))
    assert not _pair_bound_holds(np.random.default_rng(5), 40, 17)


def _join_bound_holds(rng) -> bool:
    """Subtrees carrying input errors: a~ = a + da-sized noise, b~ likewise; the joined bound must hold
    against the exact a * b."""
    a, b = rng.random(30), rng.random(21)
    pa, pb = rng.standard_normal(30) * 1e-9, rng.standard_normal(21) * 1e-9
    da, db = float(np.sqrt(np.sum(pa * pa))) * 1.01, float(np.sqrt(np.sum(pb * pb))) * 1.01
    lo, c, d = PT._join((2, a + pa, da), (-5, b + pb, db), fft_eta)
    return lo == -3 and _dist(c, _exact_conv(a, b)) <= d


def test_join_propagates_input_errors():
    assert _join_bound_holds(np.random.default_rng(11))


def test_join_mutation_dropped_input_error_is_caught(monkeypatch):
    orig = PT._join
    monkeypatch.setattr(PT, "_join", lambda l, r, e: orig((l[0], l[1], 0.0), (r[0], r[1], 0.0), e))
    assert not _join_bound_holds(np.random.default_rng(11))


#: ten randomized-response steps of distinct eps 0.1 .. 1.0 (>= MIN_TREE count-1 steps: the tree is used)
STEPS = [(f"{i / 10:.1f}", 1, "0") for i in range(1, 11)]


def _engine_bracket(tmp_path, at):
    from cli_runner import run
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanisms": [{"mechanism": "randomized-response", "eps": e, "count": 1}
                                               for e, _, _ in STEPS]}))
    out = run(("compose", "fdp", "--spec", str(spec), "--at-eps", at, "--json", "--method", "numeric")).json()
    assert out["method"] == "numeric" and out["certified"] is True
    return mpmath.mpf(out["delta_lower"]), mpmath.mpf(out["delta_upper"])


def _brute(at):
    from test_lattice_law import brute_delta
    with mpmath.workdps(50):
        return brute_delta(STEPS, at)


def test_engine_bracket_with_tree_holds_brute_force(tmp_path, monkeypatch):
    used = []
    orig = PT.split
    monkeypatch.setattr(PT, "split", lambda *a: used.append(1) or orig(*a))
    ref = _brute("1.3")
    lo, hi = _engine_bracket(tmp_path, "1.3")
    assert used and lo <= ref <= hi and hi - lo <= 1e-6 * ref


@pytest.mark.parametrize("stop", [0, 3])
def test_engine_bracket_with_subtrees_as_parts_holds_brute_force(tmp_path, monkeypatch, stop):
    # the levels stop joining (stop = 0: at once, 10 parts; 3: after the joins of up to 3-point results),
    # as when a join would need a transform as long as the window: the subtrees enter _convolve as parts
    counts = []
    orig_split, orig_len = PT.split, PT._join_length
    monkeypatch.setattr(PT, "_join_length", lambda a, b: orig_len(a, b) if len(a[1]) + len(b[1]) - 1 <= stop
                        else 1 << 40)
    monkeypatch.setattr(PT, "split", lambda *a: (lambda r: counts.append(len(r[1])) or r)(orig_split(*a)))
    ref = _brute("1.3")
    lo, hi = _engine_bracket(tmp_path, "1.3")
    assert counts and min(counts) > 1 and lo <= ref <= hi and hi - lo <= 1e-6 * ref


def test_engine_bracket_mutation_dropped_subtree_is_caught(tmp_path, monkeypatch):
    """Mutation: the levels stop at once and the last subtree part is lost; the bracket must miss."""
    orig_split = PT.split
    monkeypatch.setattr(PT, "_join_length", lambda a, b: 1 << 40)
    monkeypatch.setattr(PT, "split", lambda *a: (lambda r: (r[0], r[1][:-1]))(orig_split(*a)))
    ref = _brute("1.3")
    lo, hi = _engine_bracket(tmp_path, "1.3")
    assert not (lo <= ref <= hi)


def test_engine_bracket_mutation_shifted_tree_is_caught(tmp_path, monkeypatch):
    orig = PT._join
    monkeypatch.setattr(PT, "_join", lambda l, r, e: (lambda o: (o[0] + 1, o[1], o[2]))(orig(l, r, e)))
    ref = _brute("1.3")
    lo, hi = _engine_bracket(tmp_path, "1.3")
    assert not (lo <= ref <= hi)


@pytest.mark.parametrize("n", [1, 7])
def test_few_steps_skip_the_tree(n):
    class _Meas:
        knots = np.array([0, 3])
    rest, trees = PT.split([(_Meas(), 1)] * n, [(None, np.ones(2), 1)] * n, 1 << 10, fft_eta)
    assert trees == [] and rest == list(range(n))


def test_planned_parts_hold_the_exact_product():
    """The parts ``split`` plans (built by ``fold`` one at a time) together carry the exact linear
    convolution of every member: the exact product of the members (Fractions) against the float product
    of the built parts, within the parts' own 2-norm errors (to first order) plus float slack."""
    class _M:
        def __init__(self, knots):
            self.knots = knots
    rng = np.random.default_rng(3)
    items, parts = [], []
    for i in range(11):
        knots = np.arange(i % 3, i % 3 + 4 + i % 2)
        items.append((_M(knots), 1))
        parts.append((None, rng.random(len(knots)), 1))
    rest, trees = PT.split(items, parts, 1 << 6, fft_eta)
    assert rest == [] and len(trees) > 1
    built = [PT.fold(t, 1 << 10) for t in trees]
    exact = [Fraction(1)]
    for (meas, _), (_, x, _) in zip(items, parts):
        exact = _exact_conv(exact, x)
    lo_exact = sum(int(m.knots.min()) for m, _ in items)
    prod, lo, err = np.ones(1), 0, 0.0
    for idx, x, d in built:
        lo += int(idx[0])
        err = err * float(np.abs(x).sum()) + d * float(np.abs(prod).sum()) + err * d
        prod = np.convolve(prod, x)
    assert lo == lo_exact and len(prod) == len(exact)
    assert _dist(prod, exact) <= err + 1e-12 * float(np.abs(prod).sum())


# ---- members of count k > 1: one leaf, the k-fold power on a window of its own (numeric.pld_envelope's rounded
# families enter the engine as many distinct steps of small counts)


class _Leaf:
    def __init__(self, knots):
        self.knots = knots


def _power_leaf_holds(k, shift=0):
    from numeric.pld_fft import _convolve
    rng = np.random.default_rng(11)
    knots = np.array([3, 4, 6, 9])
    x = rng.random(4) * np.exp(-rng.random(4) * 20)
    lo, y, d = PT._power_leaf(_Leaf(knots), (None, x, k), k + shift, _convolve)
    dense = np.zeros(7)
    dense[knots - 3] = x
    exact = [Fraction(1)]
    for _ in range(k):
        exact = _exact_conv(exact, dense)
    return lo == 3 * k and len(y) == len(exact) and _dist(y, exact) <= d < 1e-10 * float(np.abs(y).sum())


@pytest.mark.parametrize("k", [2, 5, 17])
def test_power_leaf_bound_contains_the_exact_k_fold(k):
    """The leaf against the exact k-fold linear self-convolution of its float input (Fractions)."""
    assert _power_leaf_holds(k)


def test_power_leaf_mutation_one_power_short_is_caught():
    assert not _power_leaf_holds(5, shift=-1)


def test_counted_members_join_the_tree_and_hold_the_lattice_reference():
    """Eight distinct Laplace steps of count 3 each (24 steps): every member is a power leaf of the tree, and
    delta(0.5) holds the reference of tests/laplace_reference.lattice_bracket (each step's density rounded
    up / down onto a lattice 10^-5, both laws composed; width about h sum eps / 2 = 1.3e-6)."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    from tests.laplace_reference import lattice_bracket
    eps = [Fraction(5 + i, 100) for i in range(8)]
    leaves = []
    orig = PT._power_leaf
    PT_calls = lambda meas, part, k, conv: leaves.append(k) or orig(meas, part, k, conv)  # noqa: E731
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PT, "_power_leaf", PT_calls)
        r = pld.compose([(M.laplace(e), 3) for e in eps]).delta("0.5")
    rlo, rhi = lattice_bracket([e for e in eps for _ in range(3)], Fraction(1, 2), Fraction(1, 10 ** 5))
    assert leaves and set(leaves) == {3}
    assert r.delta_lower <= rhi and rlo <= r.delta_upper
    assert r.delta_upper - r.delta_lower <= 1e-6


def test_counted_members_mutation_power_one_short_is_caught(monkeypatch):
    from numeric import pld
    from numeric import pld_mechanisms as M
    from tests.laplace_reference import lattice_bracket
    orig = PT._power_leaf
    monkeypatch.setattr(PT, "_power_leaf", lambda meas, part, k, conv: orig(meas, part, k - 1, conv))
    eps = [Fraction(5 + i, 100) for i in range(8)]
    r = pld.compose([(M.laplace(e), 3) for e in eps]).delta("0.5")
    rlo, rhi = lattice_bracket([e for e in eps for _ in range(3)], Fraction(1, 2), Fraction(1, 10 ** 5))
    assert not (r.delta_lower <= rhi and rlo <= r.delta_upper)
