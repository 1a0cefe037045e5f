"""numeric.pld_grid._float_law: the float stand-in for a step's untilted measure that ``query_grid`` reads its
lattice estimate from (heuristic: it moves the grid only).  Its moments are compared with closed forms:
the Laplace pair's loss has mean KL = eps - 1 + e^-eps under P (and atoms 1/2 at +eps, e^-eps/2 at -eps);
the Gaussian pair G_mu's loss is N(mu^2/2, mu^2) under P (Dong-Roth-Su 2022, Sec. 2.3).  mpmath, 30 digits."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld, pld_grid
from numeric import pld_mechanisms as M


def _moments(meas, h):
    x = meas.knots * float(h)
    p = meas.mass
    tot = p.sum()
    mean = float((p * x).sum() / tot)
    return float(tot), mean, float((p * (x - mean) ** 2).sum() / tot)


@pytest.mark.parametrize("eps, h, g", [("0.3", Fraction(1, 1000), Fraction(1, 100)),
                                       ("1", Fraction(1, 2 ** 14), Fraction(1, 2 ** 10))])
def test_laplace_law_has_the_closed_form_mean_and_its_atoms(eps, h, g):
    (model,) = M.laplace(eps).directions
    law = pld_grid._float_law(model, h, g, 2048)
    tot, mean, _ = _moments(law, h)
    with mpmath.workdps(30):
        e = mpmath.mpf(eps)
        kl = e - 1 + mpmath.exp(-e)
    assert abs(tot - 1) < 1e-12
    assert abs(mean - float(kl)) < 1e-6 * float(kl)
    top = int(Fraction(eps) / h)
    assert law.mass[law.knots == top][0] >= 0.5                                  # the +eps atom on its point
    assert law.mass[law.knots == -top][0] >= float(mpmath.exp(-mpmath.mpf(eps)) / 2)


def test_gaussian_law_has_the_closed_form_moments():
    (model,) = M.gaussian("0.5").directions
    h = Fraction(1, 2 ** 12)
    law = pld_grid._float_law(model, h, h * 8, 4096)
    tot, mean, var = _moments(law, h)
    assert abs(tot - 1) < 1e-12 and abs(mean - 0.125) < 1e-6 and abs(var - 0.25) < 1e-4     # (Sheppard: w^2/12 = 2e-5 at w = 2^-6)


def test_mutation_points_at_cell_ends_is_caught(monkeypatch):
    """The cells read at their right ends instead of around the points (first-order bias of w / 2)."""
    (model,) = M.laplace("0.3").directions
    orig = model.log_cell_float
    monkeypatch.setattr(model, "log_cell_float", lambda grid, w: orig(grid - w / 2, w))
    law = pld_grid._float_law(model, Fraction(1, 1000), Fraction(1, 100), 2048)
    _, mean, _ = _moments(law, Fraction(1, 1000))
    kl = 0.3 - 1 + float(mpmath.exp(-0.3))
    assert not abs(mean - kl) < 1e-6 * kl


def test_the_lattice_query_keeps_its_bracket():
    """A lattice eps(delta) query estimated from the float laws: five distinct Laplace steps at 1e-6 against the
    exact composition (tests/laplace_reference.exact_delta, box splines) at the bracket's ends."""
    from tests.laplace_reference import exact_delta
    eps = [Fraction(x, 100) for x in (10, 13, 17, 20, 25)]
    comp = pld.compose([(M.laplace(e), 1) for e in eps])
    assert comp._lattice is not None
    r = comp.eps("1e-6")
    import math
    with mpmath.workdps(30):       # the ends rounded outward to 10^-7 (short rationals: the splines stay quick)
        lo = exact_delta(eps, Fraction(math.floor(float(r.eps_lower) * 10 ** 7), 10 ** 7))
        hi = exact_delta(eps, Fraction(math.ceil(float(r.eps_upper) * 10 ** 7), 10 ** 7))
    assert lo >= mpmath.mpf("1e-6") >= hi and r.eps_upper - r.eps_lower < 1e-5
    assert np.isfinite(float(r.eps_lower))
