"""profile --path fp above eps ~ 709 (issue #25 "Wrong outputs with exit 0"; still NaN at eps = 710 before the
twelfth session): the float form's e^eps overflows beside a vanishing tail, and those entries are now the
mp path's value rounded to float64.

Reference: G_mu's delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth, Su 2022, Cor. 2.13),
and randomized response's (e^eps0 - e^eps)/(1 + e^eps0), both evaluated directly in mpmath at 60 digits."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derive.mechanisms.table import lookup
from numeric import fp


def _gdp(mu, eps):
    with mpmath.workdps(60):
        mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
        return float(mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2))


def _rr(e0, eps):
    with mpmath.workdps(60):
        return float((mpmath.exp(e0) - mpmath.exp(eps)) / (1 + mpmath.exp(e0)))


CASES = [("gaussian", {"mu": "30"}, 710.0, lambda: _gdp(30, 710)),
         ("gaussian", {"mu": "1"}, 710.0, lambda: _gdp(1, 710)),
         ("gaussian", {"mu": "40"}, 800.0, lambda: _gdp(40, 800)),
         ("randomized-response", {"eps": "1000"}, 800.0, lambda: _rr(1000, 800))]


@pytest.mark.parametrize("name, params, eps, ref", CASES)
def test_profile_fp_above_709_is_the_value(name, params, eps, ref):
    got = float(fp.profile_delta(lookup(name).build(params), np.array([eps]))[0])
    want = ref()
    assert not np.isnan(got)
    assert got == want or abs(got - want) <= 1e-13 * abs(want)


def test_mutation_nan_entries_left_alone_is_caught(monkeypatch):
    monkeypatch.setattr(fp, "_mp_value", lambda record, func, v, z: float("nan"))
    got = float(fp.profile_delta(lookup("gaussian").build({"mu": "30"}), np.array([710.0]))[0])
    assert np.isnan(got)
