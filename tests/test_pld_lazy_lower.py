"""numeric.pld: lower step measures made only when a query reads them (``Composition._measures`` with
``lower=False``), and eps(delta) queries that read the upper end only (``Composition.lower_ends``, set by
``numeric.pld_envelope.Envelope`` on its upper list).

References: the lower measure a lazy call makes is compared with the one ``pld_discretise.discretise`` makes
jointly with its upper measure from one step state (the route the engine took before); the envelope's eps
bracket with the closed form of the Gaussian composition G_mu (Poisson-subsampled Gaussian steps at q = 1
are plain Gaussian pairs; Dong-Roth-Su 2022, Cor. 2.13 and 3.3), solved in mpmath at 40 digits."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import pld
from numeric import pld_envelope as E
from numeric import pld_mechanisms as M
from numeric.pld_discretise import discretise

CASES = [
    ([(M.laplace("0.3"), 2), (M.laplace("0.7"), 1)], Fraction(1, 400)),
    ([(M.subsampled_gaussian("0.01", "1.1"), 50)], Fraction(1, 2 ** 12)),
]


def _same(a, b):
    return np.array_equal(a.knots, b.knots) and np.array_equal(a.mass, b.mass) and a.inf_mass == b.inf_mass


@pytest.mark.parametrize("entries, h", CASES)
def test_a_lower_measure_made_later_is_the_joint_one(entries, h):
    comp = pld.compose(entries, h=h)
    bucket = comp._bucket(3.0)
    ups, los, _ = comp._measures(0, bucket, lower=False)
    assert los is None
    assert all(p[1] is None for p in comp._pair_cache.values())        # no lower measure was made
    ups2, los2, _ = comp._measures(0, bucket)
    for (mu, _), (mu2, _), (ml, _), (model, _) in zip(ups, ups2, los2, comp._models(0)):
        ju, jl = discretise(model, comp.h, bucket, tol=comp.tol)
        assert mu is mu2 and _same(mu, ju)
        assert _same(ml, jl)


def test_mutation_lower_state_at_another_tilt_is_caught(monkeypatch):
    """The state remade for the lower measure with the knots of the untilted step: not the joint measure."""
    entries, h = CASES[1]
    orig = pld.step_states
    calls = []

    def wrong(models, hh, lam, tol, trunc=None, memos=None):
        calls.append(lam)
        return orig(models, hh, 0.0 if len(calls) > 1 else lam, tol, trunc, memos)
    monkeypatch.setattr(pld, "step_states", wrong)
    comp = pld.compose(entries, h=h)
    bucket = comp._bucket(3.0)
    comp._measures(0, bucket, lower=False)
    _, los, _ = comp._measures(0, bucket)
    (model, _), = comp._models(0)
    assert not _same(los[0][0], discretise(model, comp.h, bucket, tol=comp.tol)[1])


def test_upper_end_only():
    entries = [(M.gaussian("0.5"), 10), (M.laplace("0.1"), 20)]
    both = pld.compose(entries, h=Fraction(1, 800)).eps("1e-6")
    one = pld.compose(entries, h=Fraction(1, 800))
    one.lower_ends = False
    r = one.eps("1e-6")
    assert r.eps_upper == both.eps_upper and r.eps_lower == 0 < both.eps_lower
    assert all(p[1] is None for p in one._pair_cache.values())          # no lower measure was made


SIGMAS = [1 + Fraction(i, 8) for i in range(9)]
BUDGET = {M.Laplace: 2, M.SubsampledGaussian: 2, M.SubsampledLaplace: 2}


def _envelope_eps(env):
    mu2 = sum(Fraction(2) / (s * s) for s in SIGMAS)
    with mpmath.workdps(40):
        mu = mpmath.sqrt(mpmath.mpf(mu2.numerator) / mu2.denominator)

        def delta(x):
            return mpmath.ncdf(-x / mu + mu / 2) - mpmath.exp(x) * mpmath.ncdf(-x / mu - mu / 2)
        truth = mpmath.findroot(lambda x: delta(x) - mpmath.mpf("1e-6"), 5)
    return env.eps("1e-6"), truth


def test_envelope_reads_its_upper_list_one_sided():
    env = E.Envelope([(M.subsampled_gaussian("1", s), 2) for s in SIGMAS], BUDGET)
    assert env.upper.lower_ends is False and env.lower.lower_ends is True
    r, truth = _envelope_eps(env)
    # the rounding (sigma to multiples of 1/2) is the width: both ends within 20 % of the truth (16.27, 18.53, 21.90)
    assert r.eps_lower <= truth <= r.eps_upper
    assert r.eps_lower >= truth * 0.8 and r.eps_upper <= truth * 1.25


def test_mutation_one_sided_lower_list_is_caught():
    """The lower list read one-sided too: its eps_lower is 0 and the bracket loses its lower end."""
    env = E.Envelope([(M.subsampled_gaussian("1", s), 2) for s in SIGMAS], BUDGET)
    env.lower.lower_ends = False
    r, truth = _envelope_eps(env)
    assert not r.eps_lower >= truth * 0.8
