"""The two floating-point assumptions of the certified engine (numeric/pld.py, module docstring),
tested against exact arithmetic on random inputs (evidence, not proof: the engine's ``certified``
means "proved up to A1 and A2", and these tests are what that rests on).

A1: numpy's exp, log, log1p and expm1 have relative error <= 1e-12 (the engine's slack A1).  Checked
    against mpmath at 40 digits on 20 000 log-uniform arguments per function, the worst error must be
    below 1e-12 / 100 (numpy's documented accuracy is a few ulp, ~1e-15).
A2: numpy's power-of-two FFT obeys Higham's bound ||fl(FFT x) - FFT x||_2 <= eta_F ||FFT x||_2 with
    eta_F = log2(N) eta / (1 - log2(N) eta), eta = mu + gamma_4 (sqrt 2 + mu), mu = 1e-15 (the engine
    multiplies it by FFT_SAFETY = 10).  Checked on random non-negative vectors by comparing the float
    cyclic convolution (FFT, product, inverse FFT: the engine's operation) with the exact cyclic
    convolution of the same float inputs in rational arithmetic: the observed error must be below the
    unsafetied bound, i.e. ten times below what the engine assumes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld


@pytest.mark.parametrize("name,lo,hi", [("exp", -700.0, 700.0), ("log", 1e-300, 1e300), ("log1p", 1e-300, 1e10),
                                        ("expm1", -700.0, 700.0)])
def test_a1_elementary_functions(name, lo, hi):
    rng = np.random.default_rng(20261124)
    if name in ("log", "log1p"):
        x = np.exp(rng.uniform(math.log(lo), math.log(hi), 20000))
    else:
        x = rng.uniform(lo, hi, 20000)
        x = np.concatenate([x, rng.uniform(-1e-3, 1e-3, 2000)])
    got = getattr(np, name)(x)
    worst = 0.0
    with mpmath.workdps(40):
        f = getattr(mpmath, name)
        for xi, gi in zip(x.tolist(), got.tolist()):
            ref = f(mpmath.mpf(xi))
            if ref == 0:
                continue
            worst = max(worst, float(abs((gi - ref) / ref)))
    assert worst <= pld.A1 / 100, (name, worst)


def _exact_cyclic(a, b):
    n = len(a)
    fa = [Fraction(v) for v in a.tolist()]
    fb = [Fraction(v) for v in b.tolist()]
    return [sum(fa[j] * fb[(i - j) % n] for j in range(n)) for i in range(n)]


@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("p", [4, 6, 8])
@pytest.mark.slow
def test_a2_fft_convolution_error(p, real):
    N = 1 << p
    rng = np.random.default_rng(p)
    U = 2.0 ** -53
    L2 = math.log2(N)
    gamma4 = 4 * U / (1 - 4 * U)
    eta = pld.TW + gamma4 * (math.sqrt(2) + pld.TW)
    etaF = L2 * eta / (1 - L2 * eta)                     # Higham's bound without the engine's factor 10
    for trial in range(3):
        # masses spanning many magnitudes, as tilted privacy-loss masses do
        a = rng.random(N) * np.exp(rng.uniform(-30, 0, N))
        b = rng.random(N) * np.exp(rng.uniform(-30, 0, N))
        if real:        # the engine's transforms: the half spectrum, read as the whole one
            A, B = np.fft.rfft(a), np.fft.rfft(b)
            y = np.fft.irfft(A * B, n=N)
            AB2 = np.abs(A * B) ** 2
            normAB = math.sqrt(2 * AB2.sum() - AB2[0] - AB2[-1])
        else:
            A, B = np.fft.fft(a), np.fft.fft(b)
            y = np.fft.ifft(A * B).real
            normAB = float(np.linalg.norm(A * B))
        exact = _exact_cyclic(a, b)
        err = math.sqrt(sum(float((Fraction(v) - e)) ** 2 for v, e in zip(y.tolist(), exact)))
        # the engine's error budget for this operation (compose_fft: two transforms, one product, one
        # inverse), without FFT_SAFETY: ||y' - y||_2 <= (||Y' - Y||_2 + eta_F ||Y'||_2) / sqrt(N)
        nx, ny = float(np.linalg.norm(a)), float(np.linalg.norm(b))
        sqN = math.sqrt(N)
        eA, eB = etaF * sqN * nx, etaF * sqN * ny
        rA, rB = float(a.sum()) + eA, float(b.sum()) + eB
        errY = rA * eB + rB * eA + math.sqrt(5) * U * 1.01 * rA * rB * sqN
        bound = (errY + etaF * normAB) / sqN
        assert err <= bound, (p, trial, err, bound)
        # and the bound is not vacuous: a bound 10^4 times smaller would be violated (observed ratio
        # err / bound is 0.003-0.007 here), so this comparison can fail
        assert err > bound * 1e-4, (p, trial, err, bound)
