"""Float shortcuts in the step discretisation (issue #25: 1000 distinct Laplace steps in <= 5 s).

* ``pld_discretise._float_holds``: a float filter before ``_deficits``' Arb test of a cell's condition
  (1 - theta) e_i + theta (e_{i+1} - Delta) >= 0.  Reference: the same expression in exact Fractions of
  the float inputs (``Fraction(float)`` is exact), so every True answer is checked without float rounding.
* The Laplace tails with one exponential a knot (``laplace_tails.tails_batch``: S_P = 1 - c e^{l/2},
  S_Q = c e^{-l/2}) and the lower measure built on them: checked against the closed-form hockey stick of the
  Laplace pair at 60 digits (``tests/test_upper_split._laplace_D``), D~(s) <= D(s) on a grid of s.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import numpy as np

from numeric import pld_discretise as PD
from numeric import pld_mechanisms as M
from tests.test_upper_split import _laplace_D


def _exact(th, e0, e1, dhi) -> Fraction:
    return (1 - Fraction(th)) * Fraction(e0) + Fraction(th) * (Fraction(e1) - Fraction(dhi))


def _near_roots(seed: int, n: int):
    """Cases on and around the root of (1 - th) e0 + th (e1 - dhi) = 0: e1 at the float root and up to
    4 ulps either side, over scales from 1 down to 1e-300 (the deficits' range)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        th = rng.choice([rng.random(), 1.0, 0.5, rng.uniform(0.999, 1.0), rng.uniform(1e-9, 1e-3)]) or 0.5
        scale = 10.0 ** rng.uniform(-300, 0)
        e0, dhi = rng.random() * scale, rng.random() * 2 * scale
        root = dhi - (1 - th) * e0 / th
        if root <= 0:
            continue
        for k in range(-4, 5):
            e1 = root
            for _ in range(abs(k)):
                e1 = math.nextafter(e1, math.inf if k > 0 else -math.inf)
            out.append((th, e0, e1, dhi))
    return out


def test_float_holds_is_sound_near_the_root():
    cases = _near_roots(5, 6000)
    proved = [c for c in cases if PD._float_holds(*c)]
    assert len(proved) > len(cases) // 4               # the filter decides cases, not only the trivial ones
    assert all(_exact(*c) >= 0 for c in proved)


def test_float_holds_decides_clear_cases():
    assert PD._float_holds(0.5, 1e-3, 2e-3, 1e-3)       # f = 5e-4 > 0
    assert not PD._float_holds(0.5, 1e-3, 0.0, 1e-2)    # f < 0: never claimed
    assert not PD._float_holds(1.0, 0.0, 1e-301, 0.0)   # below the absolute floor: left to Arb


def test_mutation_float_holds_without_margin_is_caught():
    """Mutation: the plain float sign test (no rounding margin).  It accepts cases whose exact value is
    negative (found near the root), which the margin refuses."""
    def naive(th, e0, e1, dhi):
        return (1.0 - th) * e0 + th * (e1 - dhi) > 0
    unsound = [c for c in _near_roots(7, 4000) if naive(*c) and _exact(*c) < 0]
    assert unsound
    assert not any(PD._float_holds(*c) for c in unsound)


def _laplace_lower():
    _, lo = PD.discretise(M.Laplace(Fraction(1, 20)), Fraction(1, 10 ** 4), 0.0, tol=1e-10)
    return lo


def _below_closed_form(lo) -> bool:
    with mpmath.workdps(60):
        ls = [mpmath.mpf(int(k)) / 10 ** 4 for k in lo.knots]
        ms = [mpmath.mpf(m) for m in lo.mass.tolist()]
        for t in np.linspace(-0.06, 0.06, 241).tolist() + [-0.05, 0.04999, 0.05]:
            s = mpmath.exp(mpmath.mpf(t))
            approx = mpmath.mpf(lo.inf_mass) + mpmath.fsum(m * max(0, 1 - s * mpmath.exp(-l)) for l, m in zip(ls, ms))
            if approx > _laplace_D(mpmath.mpf(1) / 20, s):
                return False
    return True


def test_laplace_lower_measure_below_closed_form():
    lo = _laplace_lower()
    assert lo.note != "round"                           # the second-order hull, not the fallback
    assert _below_closed_form(lo)


def test_mutation_lower_mass_moved_one_knot_up_is_caught():
    """The check can fail: 1e-3 of every knot's mass moved one knot up (a higher loss) raises D~ above D."""
    lo = _laplace_lower()
    moved = lo.mass * 1e-3
    lo.mass = lo.mass - moved
    lo.mass[1:] += moved[:-1]
    assert not _below_closed_form(lo)
