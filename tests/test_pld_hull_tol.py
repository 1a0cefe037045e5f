"""The lower hull's collinearity test (``pld_discretise.HULL_TOL``): a lower step measure keeps its total mass to
about 1e-12, so that 10^6 composed steps lose about 1e-6 of delta rather than 1e-3.

Reference: the exact total P-mass of a Poisson-subsampled Gaussian step is 1 (a mixture of two normal laws:
no mass at +inf; closed form), so 1 - (the lower measure's total) is the mass it gave up."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from numeric import pld_discretise as PD
from numeric import pld_mechanisms as M
from numeric.pld_discretise import discretise

# the step and the query grid of DP-SGD q = 0.001, sigma = 2, T = 10^6, delta = 1e-5 (``pld_grid.query_grid``)
H, TOL = Fraction(1, 2 ** 18), 5e-14


def _lost(lam: float) -> float:
    _, lo = discretise(M.subsampled_gaussian("0.001", "2").directions[0], H, lam, tol=TOL)
    return 1 - math.fsum(lo.mass.tolist())


@pytest.mark.parametrize("lam", [0.0, 8.0])
def test_the_lower_measure_keeps_its_mass(lam):
    lost = _lost(lam)
    assert 0 <= lost < 1e-11            # measured 2.6e-12 and 2.7e-12


def test_mutation_the_former_tolerance_loses_mass(monkeypatch):
    monkeypatch.setattr(PD, "HULL_TOL", 1e-12)
    assert _lost(0.0) > 1e-9            # measured 3.6e-9: x 10^6 steps, 3.6e-3 of delta
