"""Property test of the certified engine (numeric/pld.py) with hypothesis (issue #9, Tests).

For random small compositions (mechanism, parameter, count) and random queries: lower <= upper at
every query; power >= alpha (no test does worse than guessing); along an increasing alpha sequence
the privacy-safe beta is non-increasing and the power non-decreasing; and where an exact route
exists (numeric/compose_exact.py, checked against brute force in tests/test_compose_exact.py) the
bracket contains the exact value.  Derandomised, so that the run is reproducible."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric import compose_exact as X
from numeric import pld
from numeric import pld_mechanisms as M

MECHS = st.sampled_from([
    ("gaussian", "mu", ["0.1", "0.5", "1", "2"]),
    ("laplace", "eps", ["0.05", "0.3", "1"]),
    ("randomized-response", "eps", ["0.1", "0.5", "2"]),
])
CTOR = {"gaussian": M.gaussian, "laplace": M.laplace, "randomized-response": M.randomized_response}


@settings(max_examples=30, deadline=None, derandomize=True)
@given(MECHS, st.data(), st.integers(1, 12),
       st.lists(st.integers(-250, -1), min_size=3, max_size=3, unique=True))
@pytest.mark.slow
def test_bracket_properties(mech, data, k, exps):
    name, key, choices = mech
    value = data.draw(st.sampled_from(choices))
    comp = pld.compose([(CTOR[name](value), k)])
    alphas = [f"1e{e}" for e in sorted(exps)] + ["0.3"]
    prev_beta, prev_power = mpmath.mpf(2), mpmath.mpf(-1)
    for a in alphas:
        r = comp.tradeoff(a)
        assert r.beta_lower <= r.beta_upper and r.power_lower <= r.power
        assert r.power >= mpmath.mpf(a) * (1 - mpmath.mpf(10) ** -12)
        assert r.beta <= prev_beta and r.power >= prev_power
        prev_beta, prev_power = r.beta, r.power
        ex = X.tradeoff(name, {key: value}, k, a, 15).complement
        assert r.power_lower <= ex <= r.power * (1 + mpmath.mpf(10) ** -12)
    for e in ("0", "0.7"):
        r = comp.delta(e)
        assert r.delta_lower <= r.delta_upper
        ex = X.delta(name, {key: value}, k, e, 15).value
        ex = ex if isinstance(ex, mpmath.mpf) else mpmath.mpf(0)
        assert r.delta_lower <= ex <= r.delta_upper
    r = comp.eps("1e-6")
    assert r.eps_lower <= r.eps_upper
