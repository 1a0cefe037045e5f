"""Independent references for compositions of distinct Laplace pairs (tests of issue #25's batch tails).

Under P the loss of the pair Lap(eps, 1) vs Lap(0, 1) has atoms +eps (mass 1/2), -eps (e^{-eps}/2) and the
density e^{(l - eps)/2}/4 on (-eps, eps) (numeric.pld_mechanisms' docstring; derived again here: with
X ~ Lap(eps, 1), L = |X| - |X - eps| = clip(2X - eps, -eps, eps)).  All three parts carry the factor e^{l/2}:
P(L in dl) = e^{l/2} nu(dl), nu = c (delta_{eps} + delta_{-eps} + 1/2 Leb(-eps, eps)), c = e^{-eps/2}/2.  So
the sum S of n independent losses has P(S in ds) = e^{s/2} (nu_1 * ... * nu_n)(ds), and
delta(E) = E_P[(1 - e^{E - S})_+] = int_{s > E} (e^{s/2} - e^E e^{-s/2}) nu(ds).

``exact_delta``: every step an atom (+ or -) or the uniform part; the uniform parts' sum is Lebesgue measure
on a box pushed forward by the sum, whose density is the box-spline (1/(m-1)!) sum_T (-1)^|T| (t - w_T)_+^(m-1)
(w_j = 2 eps_j, T over subsets); each polynomial piece times e^{+-t/2} is integrated by its antiderivative.
mpmath at 60 digits (inclusion-exclusion cancels); 3^n assignments, for a few steps only.

``lattice_bracket``: any number of steps whose eps lie on a grid h: each step's density mass on a cell is
moved to the cell's right end (upper) or left end (lower); D grows with the loss, so the two laws bracket
delta (up to the float FFT's ~1e-15).  Width about h sum eps_j / 2.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np


def _poly_exp_integral(k: int, c, x0, x1):
    """int_{x0}^{x1} x^k e^{c x} dx by the antiderivative e^{cx} sum_i (-1)^i k!/(k-i)! x^(k-i) / c^(i+1)."""
    def F(x):
        return mpmath.exp(c * x) * mpmath.fsum((-1) ** i * mpmath.factorial(k) / mpmath.factorial(k - i)
                                               * x ** (k - i) / c ** (i + 1) for i in range(k + 1))
    return F(x1) - F(x0)


def exact_delta(eps_list, E) -> mpmath.mpf:
    """delta(E) of the composition of Laplace(eps_j), j = 1..n (exact rationals), to ~50 digits."""
    with mpmath.workdps(60):
        eps = [mpmath.mpf(Fraction(e).numerator) / Fraction(e).denominator for e in eps_list]
        Em = mpmath.mpf(Fraction(E).numerator) / Fraction(E).denominator
        c = mpmath.fprod(mpmath.exp(-e / 2) / 2 for e in eps)
        total = mpmath.mpf(0)
        for choice in itertools.product((1, -1, 0), repeat=len(eps)):
            shift = mpmath.fsum(s * e for s, e in zip(choice, eps) if s != 0)
            box = [2 * e for s, e in zip(choice, eps) if s == 0]
            m = len(box)
            if m == 0:
                if shift > Em:
                    total += mpmath.exp(shift / 2) - mpmath.exp(Em - shift / 2)
                continue
            base = shift - mpmath.fsum(box) / 2          # s = base + t, t in [0, sum(box)]
            top = mpmath.fsum(box)
            weight = mpmath.mpf(1) / 2 ** m / mpmath.factorial(m - 1)
            for r in range(m + 1):
                for T in itertools.combinations(box, r):
                    b = mpmath.fsum(T)
                    lo = max(b, Em - base)               # (t - b)_+ and s > E
                    if lo >= top:
                        continue
                    # t = b + x, x in [lo - b, top - b]: (e^{(base+b+x)/2} - e^E e^{-(base+b+x)/2}) x^(m-1)
                    x0, x1 = lo - b, top - b
                    part = (mpmath.exp((base + b) / 2) * _poly_exp_integral(m - 1, mpmath.mpf(1) / 2, x0, x1)
                            - mpmath.exp(Em - (base + b) / 2) * _poly_exp_integral(m - 1, -mpmath.mpf(1) / 2, x0, x1))
                    total += (-1) ** r * weight * part
        return +(c * total)


def _step_law(e: Fraction, h: Fraction, kind: str):
    """(offset, float masses) of one Laplace step on the grid h (eps/h an integer), density rounded
    up (``kind="upper"``) or down."""
    n = e / h
    assert n.denominator == 1
    n = int(n)
    ef, hf = float(e), float(h)
    p = np.zeros(2 * n + 1)
    p[0] = math.exp(-ef) / 2
    p[-1] += 0.5
    li = -ef + hf * np.arange(2 * n)                       # left ends of the 2n cells
    cell = 0.5 * np.exp((li - ef) / 2) * math.expm1(hf / 2)
    if kind == "upper":
        p[1:] += cell
    else:
        p[:-1] += cell
    return -n, p


def lattice_bracket(eps_list, E, h) -> tuple[float, float]:
    """(lower, upper) of delta(E) from the two rounded lattice laws, composed by one FFT product."""
    h = Fraction(h)
    out = []
    for kind in ("lower", "upper"):
        laws = [_step_law(Fraction(e), h, kind) for e in eps_list]
        size = sum(len(p) - 1 for _, p in laws) + 1
        M = 1 << (size - 1).bit_length()
        spec = np.ones(M // 2 + 1, dtype=complex)
        for _, p in laws:
            spec *= np.fft.rfft(p, M)
        law = np.clip(np.fft.irfft(spec, M)[:size], 0, None)
        s = (sum(o for o, _ in laws) + np.arange(size)) * float(h)
        Ef = float(Fraction(E))
        w = np.where(s > Ef, -np.expm1(Ef - np.minimum(s, 50)), 0.0)
        out.append(float(np.sum(law * w)))
    return out[0], out[1]
