"""An eps(delta) query's grid of delta bounds starts at eps = 0 (``numeric.pld_fft.grid_bounds``' ``start``).

References are independent of the engine: the exact delta(eps) of the composed Gaussian pair G_mu in closed
form (``test_accountants.gdp_delta``, mpmath at 40 digits) and eps(delta) from it by bisection.  The mutation
test breaks the index offset the query reads the shortened grid with, and the exact eps then falls outside.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from numeric import pld  # noqa: E402
from numeric.pld_fft import grid_bounds  # noqa: E402
from numeric.pld_mechanisms import gaussian  # noqa: E402
from test_accountants import gdp_delta, solve_eps  # noqa: E402

MU1, STEPS = "0.5", 3                      # 3 x G_0.5 = G_{sqrt(3)/2}
MU = mpmath.sqrt(mpmath.mpf(3)) / 2
DELTA = Fraction(1, 10 ** 6)


def _exact_eps():
    return solve_eps(lambda e: gdp_delta(MU, e), mpmath.mpf(DELTA.numerator) / DELTA.denominator)


def _check(r):
    """The bracket contains the exact eps and is narrower than 1e-3 relative (the query answers within 7e-6)."""
    assert r.certified
    ref = _exact_eps()
    assert r.eps_lower <= ref <= r.eps_upper, (r.eps_lower, ref, r.eps_upper)
    assert float(r.eps_upper - r.eps_lower) < 1e-3 * float(ref)


def test_eps_query_grid_starts_at_zero_and_contains_the_exact_eps():
    comp = pld.compose([(gaussian(MU1), STEPS)])
    _check(comp.eps(DELTA))
    entries = [got for sub in [comp, *comp._subs.values()] for got in sub._cache.values()]
    starts = [cu.g_start for cu, *_ in entries]
    # the window of this query reaches below eps = 0, so the shortened grid is what answered
    assert any(s > 0 for s in starts)
    for cu, gu, cl, gl in entries:
        assert cu.g_start == max(0, -cu.W0) and cu.g_start + len(gu) == cu.n_points
        assert cl is None or (cl.g_start == cu.g_start and len(gl) == len(gu))


def test_shortened_grid_bounds_contain_the_exact_delta():
    """Every value of the shortened grid lies on its side of the exact delta(eps) at its grid point, and agrees
    with the full grid's value there up to the smaller rounding bound of the shorter recursion."""
    from numeric.pld_fft import compose_fft
    comp = pld.compose([(gaussian(MU1), STEPS)])
    ups, los, _ = comp._measures(0, 0.0, True, None)
    hf = float(comp.h)
    cu = compose_fft(ups, comp.h, 1.0, None)
    cl = compose_fft(los, comp.h, 1.0, None, window=(cu.W0, cu.n_points))
    start = max(0, -cu.W0)
    assert start > 0
    full_up, short_up = grid_bounds(cu, "upper")[0], grid_bounds(cu, "upper", start)[0]
    full_lo, short_lo = grid_bounds(cl, "lower")[1], grid_bounds(cl, "lower", start)[1]
    assert len(short_up) == len(full_up) - start == len(short_lo)
    with np.errstate(invalid="ignore"):
        assert np.all(short_up <= full_up[start:] + 1e-12)
        assert np.allclose(short_up, full_up[start:], rtol=0, atol=1e-6)
    fin = np.isfinite(full_lo[start:])
    assert np.allclose(short_lo[fin], full_lo[start:][fin], rtol=0, atol=1e-6)
    # the exact delta (without the +inf term: G_mu has none) at every 997th grid point at or above 0
    for i in range(0, len(short_up), 997):
        eps = (cu.W0 + start + i) * hf
        if eps > 8:
            break
        exact = float(mpmath.log(gdp_delta(MU, eps)))
        assert short_lo[i] <= exact <= short_up[i], (eps, short_lo[i], exact, short_up[i])


def test_mutation_offset_ignored_moves_eps_out(monkeypatch):
    """Break the offset: the grid made from index 0 of the window while the query reads it from g_start (64
    loss units further up).  The check fails: the bracket comes out [0, 118.6] around the exact 4.1518."""
    orig = pld.grid_bounds
    monkeypatch.setattr(pld, "grid_bounds", lambda comp, which="both", start=0: orig(comp, which))
    comp = pld.compose([(gaussian(MU1), STEPS)])
    with pytest.raises(AssertionError):
        _check(comp.eps(DELTA))


def test_own_grid_fast_path_gives_the_gathered_values(monkeypatch):
    """``_dir_bounds`` reads an eps(delta) query's own grid without gathering: the bracket is the one of the
    general path (the fast path switched off), bit for bit, on a step with an atom at +inf (log_inf finite:
    the (eps, delta) pair) composed with Gaussian steps."""
    from numeric.pld_mechanisms import eps_delta
    comps = [(gaussian(MU1), STEPS), (eps_delta("0.1", "1e-8"), 2)]
    fast = pld.compose(comps).eps(DELTA)
    monkeypatch.setattr(pld, "_is_own_grid", lambda idx, first, n: False)
    slow = pld.compose(comps).eps(DELTA)
    assert (fast.eps_lower, fast.eps_upper) == (slow.eps_lower, slow.eps_upper)
    assert fast.eps_upper - fast.eps_lower < 1e-3 * fast.eps_upper


def test_is_own_grid():
    assert pld._is_own_grid(np.arange(5, 9), 5, 4)
    assert not pld._is_own_grid(np.arange(5, 9), 4, 4)
    assert not pld._is_own_grid(np.arange(5, 9), 5, 5)
    assert not pld._is_own_grid(np.array([5, 6, 8, 9]), 5, 4)
    assert not pld._is_own_grid(np.arange(0), 0, 0)


def _weights(rl, r1, c1, n):
    """w_D, D = 0..n, of the recursion as ``grid_bounds`` runs it (p = fl(rl r1), b = fl(rl c1): the float
    coefficients it is given), summed in mpmath at 50 digits: b sum_{m=1}^{D} rl^{m-1} p^{D-m}."""
    with mpmath.workdps(50):
        p, b, a = mpmath.mpf(rl * r1), mpmath.mpf(rl * c1), mpmath.mpf(rl)
        return [b * sum(a ** (m - 1) * p ** (D - m) for m in range(1, D + 1)) for D in range(n + 1)]


def _weighted_sums(y, rl, r1, c1):
    """(S, A) at every i: S_i = sum_D w_D y_{i+D}, A_i = sum_D w_D |y_{i+D}|, w_D = c1 rl^D sum_{k<D} r1^k (the
    recursion's weights for its float coefficients, in its reversed order: y[0] is the top of the window), in
    mpmath at 50 digits: independent of the float recursion."""
    with mpmath.workdps(50):
        n = len(y)
        w = _weights(rl, r1, c1, n)
        S, A = [], []
        for i in range(n):                   # reversed index i: the points above it are y[0..i-1]
            S.append(sum(w[i - j] * mpmath.mpf(float(y[j])) for j in range(i)))
            A.append(sum(w[i - j] * abs(mpmath.mpf(float(y[j]))) for j in range(i)))
        return S, A


def test_abs_sum_bound_covers_the_worst_rounding():
    """``_abs_sum_bound`` >= gamma A at every point when the computed recursion sits at the low end of its error
    bound (T = S - gamma A, the worst case first_order allows), for y with negative FFT-noise entries."""
    from numeric import pld_fft
    rng = np.random.default_rng(7)
    y = np.abs(rng.normal(size=40)) * 1e-3
    y[::3] = -rng.uniform(1e-4, 1e-3, size=len(y[::3]))      # negative entries, as an FFT's noise leaves them
    hf, lam = 2.0 ** -6, 3.0
    rl, r1 = math.exp(-lam * hf), math.exp(-hf)
    c1 = -math.expm1(-hf)
    gam = 1e-3
    S, A = _weighted_sums(y, rl, r1, c1)
    T = np.array([float(s - gam * a) for s, a in zip(S, A)])
    wmax = pld_fft._weight_bound(rl, r1, c1)
    assert all(mpmath.mpf(wmax) >= w for w in _weights(rl, r1, c1, len(y)))
    got = pld_fft._abs_sum_bound(T, y, gam, wmax)
    assert all(mpmath.mpf(float(g)) >= gam * a for g, a in zip(got, A))


def test_mutation_abs_sum_without_the_noise_term(monkeypatch):
    """|y| taken as y (the negative FFT noise dropped from the bound): the check above fails."""
    from numeric import pld_fft
    monkeypatch.setattr(pld_fft, "ABS_NOISE", 0.0)
    with pytest.raises(AssertionError):
        test_abs_sum_bound_covers_the_worst_rounding()


@pytest.mark.parametrize("lam,hf,n", [(0.0, 2 ** -8, 700), (0.39, 2 ** -14, 900), (61.6, 2 ** -12, 500),
                                      (1e-3, 2 ** -20, 600)])
def test_w_norm_bounds_the_direct_sum(lam, hf, n):
    """The closed form's bound against the sum of its n terms in mpmath at 50 digits (no geometric series): at
    least the sum, and within 1e-12 relative of it."""
    from numeric.pld_fft import _w_norm
    with mpmath.workdps(50):
        h, lm = mpmath.mpf(hf), mpmath.mpf(lam)
        ref = mpmath.sqrt(mpmath.fsum(mpmath.exp(-2 * lm * D * h) * (-mpmath.expm1(-D * h)) ** 2
                                      for D in range(1, n + 1)))
        got = _w_norm(lam, hf, n)
        assert mpmath.mpf(got) >= ref
        assert mpmath.mpf(got) <= ref * (1 + mpmath.mpf("1e-12"))


def test_w_norm_mutation_fails(monkeypatch):
    """A broken geometric sum in ``_w_norm`` (one term more: x^{n+1} in place of x^n) is caught by the comparison
    with the direct sum (the closed form then no longer cancels to the second difference)."""
    from numeric import pld_fft
    orig = pld_fft._geo
    monkeypatch.setattr(pld_fft, "_geo", lambda x, n: orig(x, n + 1))
    with pytest.raises(AssertionError):
        test_w_norm_bounds_the_direct_sum(0.0, 2 ** -8, 700)


def _recursion_weights(rl, r1, c1, n):
    """The weights as ``grid_bounds``' recursion (``pld_fft._recursion``) produces them, run on a unit impulse at the
    top of the window (reversed index 0); entry D is the weight of a point D places above."""
    from numeric.pld_fft import _recursion
    z = np.zeros(n + 1)
    z[0] = 1.0
    return _recursion(z, rl, r1, c1)


@pytest.mark.parametrize("lam,hf", [(0.0, 2 ** -2), (3.0, 2 ** -6), (0.01, 2 ** -20)])
def test_weight_bound_covers_every_weight(lam, hf):
    """``_weight_bound`` >= every weight: the weights summed in mpmath (``_weights``, which agree with the float
    recursion run on an impulse to 1e-12), up to where they have converged to their limit."""
    from numeric import pld_fft
    rl, r1, c1 = math.exp(-lam * hf), math.exp(-hf), -math.expm1(-hf)
    n = 60
    w = _weights(rl, r1, c1, n)
    rec = _recursion_weights(rl, r1, c1, n)
    assert all(abs(float(w[D]) - rec[D]) <= 1e-12 * max(float(w[D]), 1e-300) for D in range(1, n + 1))
    wmax = pld_fft._weight_bound(rl, r1, c1)
    assert all(mpmath.mpf(wmax) >= x for x in w)
    if lam == 0.0:                     # the weights tend to 1 - e^{-D h} -> 1: the bound is near-tight there
        assert wmax < 1 + 1e-12 and w[n] > 1 - 1e-6


def test_mutation_weight_bound_half(monkeypatch):
    from numeric import pld_fft
    monkeypatch.setattr(pld_fft, "_weight_bound", lambda rl, r1, c1: 0.5)
    with pytest.raises(AssertionError):
        test_weight_bound_covers_every_weight(0.0, 2 ** -2)


def test_fallbacks_still_bound(monkeypatch):
    """The two fallbacks ``grid_bounds`` keeps: the second recursion over |y| where no weight bound holds
    (``_weight_bound`` None), and ``_w_norm``'s float sum where the Arb ball is not usable.  Both still give values on
    the right side of the exact delta and of the direct sum (the checks above, rerun on those paths)."""
    from flint import arb

    from numeric import pld_fft
    monkeypatch.setattr(pld_fft, "_weight_bound", lambda rl, r1, c1: None)
    test_shortened_grid_bounds_contain_the_exact_delta()
    monkeypatch.setattr(pld_fft, "_geo", lambda x, n: arb("inf"))
    lam, hf, n = 0.39, 2 ** -14, 900
    got = pld_fft._w_norm(lam, hf, n)
    with mpmath.workdps(50):
        ref = mpmath.sqrt(mpmath.fsum(mpmath.exp(-2 * mpmath.mpf(lam) * D * mpmath.mpf(hf))
                                      * (-mpmath.expm1(-D * mpmath.mpf(hf))) ** 2 for D in range(1, n + 1)))
        # the float sum carries a relative slack of 1e-9 (the former rule): above the sum, within 1e-8 of it
        assert ref <= mpmath.mpf(got) <= ref * (1 + mpmath.mpf("1e-8"))
