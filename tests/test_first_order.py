"""``numeric.pld_fft.first_order``: the blocked first-order recursion behind the engine's delta sums
(issue #25: it replaced scipy.signal.lfilter, whose import cost 1.6 s of CPU per process).

Reference: the same recursion y_n = b x_n + a y_{n-1} evaluated sequentially at 60 digits (mpmath), independent
of the blocking; the bound checked is the one its docstring proves,
|computed - exact| <= gamma_K sum_j w_nj |x_j| with K = first_order_roundings(n).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numeric.pld_fft import U, first_order, first_order_roundings


def exact(x, a, b):
    """The recursion at 60 digits (mpmath, sequential): its own error, ~1e-58 relative per term, is far
    below the gamma_K ~ 1e-12 checked."""
    with mpmath.workdps(60):
        fa, fb = mpmath.mpf(a), mpmath.mpf(b)
        y, acc = [], mpmath.mpf(0)
        for v in x:
            acc = fb * mpmath.mpf(float(v)) + fa * acc
            y.append(acc)
        return y


def bound_holds(x, a, b, computed):
    K = first_order_roundings(len(x))
    gam = K * U / (1 - K * U)
    ys = exact(x, a, b)
    ws = exact(np.abs(x), a, b)              # sum_j w_nj |x_j|
    with mpmath.workdps(60):
        return all(abs(mpmath.mpf(float(c)) - e) <= gam * w * (1 + mpmath.mpf(10) ** -40) for c, e, w in zip(computed, ys, ws))


@pytest.mark.parametrize("n", [1, 7, 33, 1025, 3000])
@pytest.mark.parametrize("a", [0.0, 2.0 ** -23, 2.0 ** -300, 0.5, 1 - 2.0 ** -20])   # 2^-300: blocks of 3
def test_matches_exact_recursion_within_its_bound(n, a):
    rng = np.random.default_rng(n * 7 + int(a * 1000) + (a > 0))
    x = rng.normal(size=n) * np.exp(rng.normal(size=n) * 3)        # signed, spread over many magnitudes
    b = 0.7310585786300049
    assert bound_holds(x, a, b, first_order(x, a, b))


def test_roundings_count_levels():
    assert first_order_roundings(2) == 4102 + 2048                 # one level at most
    assert first_order_roundings(1 << 20) == 20 * 4102 + 2048


def test_mutation_a_wrong_carry_is_caught():
    # drop the carried block-end values (y = block partial sums only): the exact check must fail
    rng = np.random.default_rng(3)
    x = rng.random(100)
    a, b = 0.9, 0.1
    good = first_order(x, a, b)
    B = 7                                              # any split into blocks, each recursion restarted
    blocks = np.concatenate([first_order(x[i:i + B], a, b) for i in range(0, 100, B)])
    assert bound_holds(x, a, b, good)
    assert not bound_holds(x, a, b, blocks)
