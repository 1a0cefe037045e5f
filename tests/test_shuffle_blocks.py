"""numeric/shuffle_blocks.py: shuffled rounds at large n (issue #26 item 1, ``shuffle --rounds``).

References, none of them from the code under test:
* ``two_round_delta``: the clone pair's atoms enumerated from the definition P(c, x) = w_c [a b_c(x - 1)
  + (1 - a) b_c(x)], Q(c, x) = w_c [a b_c(x) + (1 - a) b_c(x - 1)] (scipy's float binomial pmfs, no
  mirror, no prefix sums), and the 2-round hockey stick delta_2(e) = sum_a P_a H(e - L_a) with
  H(t) = sum_{L_b > t} (P_b - e^t Q_b) from sorted cumulative sums (float64: relative error ~1e-12,
  far below the brackets' widths).
* one round: the certified hockey-stick walk of numeric/shuffle_fast.py (relative width 1e-9), a
  different algorithm (no engine, no blocks).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy.stats import binom

from numeric import shuffle_blocks as SB
from numeric.pld import compose
from numeric.pld_mechanisms import Mechanism


@functools.lru_cache(maxsize=None)
def two_round_delta(eps0: float, n: int, eps: float) -> float:
    E = math.exp(eps0)
    a = E / (1 + E)
    cs = np.arange(n)
    w = binom.pmf(cs, n - 1, math.exp(-eps0))
    Ps, Qs = [], []
    for c in cs[w > 1e-40]:
        x = np.arange(c + 2)
        b0, b1 = binom.pmf(x, c, 0.5), binom.pmf(x - 1, c, 0.5)
        Ps.append(w[c] * (a * b1 + (1 - a) * b0))
        Qs.append(w[c] * (a * b0 + (1 - a) * b1))
    P, Q = np.concatenate(Ps), np.concatenate(Qs)
    keep = (P > 1e-300) & (Q > 1e-300)          # the rest underflowed: below 1e-290 in all
    P, Q = P[keep], Q[keep]
    L = np.log(P / Q)
    order = np.argsort(L)
    L, P, Q = L[order], P[order], Q[order]
    sp = np.concatenate([np.cumsum(P[::-1])[::-1], [0.0]])
    sq = np.concatenate([np.cumsum(Q[::-1])[::-1], [0.0]])
    t = eps - L
    i = np.searchsorted(L, t, side="right")
    H = np.maximum(sp[i] - np.exp(t) * sq[i], 0.0)
    return float(np.sum(P * H))


def _bracket(n: int, rounds: int, eps, count: int = SB.BLOCKS):
    """delta(eps) of R rounds: [engine lower end of the optimistic pair, engine upper end of the
    pessimistic pair], and whether the block pairs are the clone pair itself."""
    ends = {}
    for side in ("upper", "lower"):
        m = SB.CloneBlockPair("standard-clone", F(1), n, side, count)
        r = compose([(Mechanism(m.name, [m], True), rounds)]).delta(F(eps))
        assert r.certified
        ends[side] = (float(r.delta_lower), float(r.delta_upper))
        if m.exact:                       # width-1 blocks: both block pairs are the clone pair
            ends["lower"] = ends[side]
            break
    return ends["lower"][0], ends["upper"][1], m.exact


def _ok(lo, hi, ref, rel):
    """The bracket holds the reference (beyond its float error) and is at most ``rel`` wide relative."""
    return lo <= ref * (1 + 1e-9) and ref * (1 - 1e-9) <= hi and hi - lo <= rel * ref


@pytest.mark.parametrize("n, count", [(60, SB.BLOCKS), (1000, SB.BLOCKS), (2000, 40)])
def test_two_rounds_contain_the_enumerated_pair(n, count):
    ref = two_round_delta(1.0, n, 0.25)
    lo, hi, exact = _bracket(n, 2, "0.25", count)
    assert exact == (count == SB.BLOCKS)                       # n <= 2000 fits in 2500 blocks of width 1
    # 40 blocks of width ~25 move delta (1e-9 here, deep in the tail) by tens of percent
    assert _ok(lo, hi, ref, 2e-3 if exact else 1.0)


def test_coarse_blocks_sandwich_strictly():
    """With 40 blocks the optimistic pair's delta lies below the clone pair's and the pessimistic pair's
    above (by more than the engine's widths): the sandwich is doing work, not coinciding."""
    ref = two_round_delta(1.0, 2000, 0.25)
    for side, below in (("lower", True), ("upper", False)):
        m = SB.CloneBlockPair("standard-clone", F(1), 2000, side, 40)
        r = compose([(Mechanism(m.name, [m], True), 2)]).delta(F(1, 4))
        assert (float(r.delta_upper) < ref) if below else (float(r.delta_lower) > ref)


def test_one_round_at_1e6_contains_the_hockey_stick_walk():
    from numeric.shuffle_fast import eps_bracket
    exact = eps_bracket("standard-clone", F(1), 10 ** 6, F(1, 10 ** 6))
    lows, highs = [], []
    for side in ("upper", "lower"):
        m = SB.CloneBlockPair("standard-clone", F(1), 10 ** 6, side)
        r = compose([(Mechanism(m.name, [m], True), 1)]).eps(F(1, 10 ** 6))
        lows.append(float(r.eps_lower))
        highs.append(float(r.eps_upper))
    assert min(lows) <= float(exact.upper) and float(exact.lower) <= max(highs)
    assert max(highs) - min(lows) <= 1e-3 * float(exact.upper)


def test_slice_enclosures_contain_the_exact_binomial():
    """F_c(T - 1) + w b_c(T) bounds against exact rational binomials (c = 1001, T in and out of the window)."""
    c = 1001
    sl = SB.make_slice(c)
    fl = SB.flatten([sl])
    T = np.array([[-1], [0], [sl.x_lo], [400], [500], [501], [sl.x_hi], [sl.x_hi + 1], [c + 1]])
    w = 0.75
    lo = SB.s_of(*SB.parts(fl, T, "lo"), w, "lo")[:, 0]
    hi = SB.s_of(*SB.parts(fl, T, "hi"), w, "hi")[:, 0]
    for k, t in enumerate(T[:, 0].tolist()):
        pmf = [F(math.comb(c, x), 2 ** c) for x in range(c + 1)]
        exact = sum(pmf[:max(t, 0)], F(0)) + F(3, 4) * (pmf[t] if 0 <= t <= c else 0)
        assert F(lo[k]) <= exact <= F(hi[k]), (t, lo[k], float(exact), hi[k])


def test_rounds_cli_at_1e7(capsys):
    from proofs_check.cli import main
    rc = main(["shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "10000000", "--rounds", "2",
               "--at-delta", "1e-6", "--json"])
    import json
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["certified"] and out["rounds"] == 2
    # two rounds cost more eps than one (the one-round walk's certified lower end), less than twice it
    from numeric.shuffle_fast import eps_bracket
    one = eps_bracket("standard-clone", F(1), 10 ** 7, F(1, 10 ** 6))
    assert float(one.lower) < float(out["eps_lower"]) <= float(out["eps_upper"]) < 2 * float(one.upper)


# ---- mutations: each breaks one piece of the argument and must be caught ----

def test_mutation_swapped_mixing_is_caught(monkeypatch):
    orig = SB._mixing
    monkeypatch.setattr(SB, "_mixing", lambda e: tuple(reversed(orig(e))))
    ref = two_round_delta(1.0, 60, 0.25)
    lo, hi, _ = _bracket(60, 2, "0.25")
    assert not _ok(lo, hi, ref, 2e-3)


def test_mutation_threshold_off_by_one_is_caught(monkeypatch):
    orig = SB.thresholds
    monkeypatch.setattr(SB, "thresholds", lambda c, a, b: tuple(t + 1 for t in orig(c, a, b)))
    ref = two_round_delta(1.0, 60, 0.25)
    lo, hi, _ = _bracket(60, 2, "0.25")
    assert not _ok(lo, hi, ref, 2e-3)


def test_mutation_swapped_block_ends_is_caught(monkeypatch):
    """The pessimistic pair taking each block's largest clone count (the optimistic one's) is caught by
    the enumerated pair with 40 blocks."""
    orig = SB.CloneBlockPair.__init__

    def swapped(self, reduction, eps0, n, side, count=SB.BLOCKS):
        orig(self, reduction, eps0, n, "lower" if side == "upper" else "upper", count)
    monkeypatch.setattr(SB.CloneBlockPair, "__init__", swapped)
    ref = two_round_delta(1.0, 2000, 0.25)
    lo, hi, _ = _bracket(2000, 2, "0.25", 40)
    assert not _ok(lo, hi, ref, 1.0)


@pytest.mark.slow
def test_many_rounds_of_a_tiny_loss_are_bounded():
    """n = 10^8, eps0 = 0.01, 10^4 rounds: one round's loss sd (1e-6) is below the engine's default grid
    step, which answered "delta not reached" and printed [0, 0]; the rounds' own grid gives a finite,
    certified upper end, below the trivial R eps0 = 100 and the composition of the single round's
    certified eps (10^4 x eps_1)."""
    from numeric.shuffle_fast import eps_bracket
    from numeric.shuffle_rounds import compose_rounds
    r = compose_rounds("stronger-clone", F(1, 100), 10 ** 8, 10 ** 4, at_delta=F(1, 10 ** 6))
    one = eps_bracket("stronger-clone", F(1, 100), 10 ** 8, F(1, 10 ** 10))
    assert r.certified and r.upper is not None and float(r.upper) < 10 ** 4 * float(one.lower)


def test_an_unbounded_upper_end_prints_inf(monkeypatch, capsys):
    from numeric import shuffle_rounds as SR
    from proofs_check.cli import main
    monkeypatch.setattr(SR, "compose_rounds", lambda *a, **k: SR.RoundsResult(F(0), None, False, 0.0, "window"))
    rc = main(["shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "10", "--rounds", "2",
               "--at-delta", "1e-6"])
    assert rc == 0 and "eps in [0, inf]" in capsys.readouterr().out
