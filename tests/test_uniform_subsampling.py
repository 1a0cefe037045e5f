"""Fixed-size (uniform) subsampling in the certified engine: the symmetric pair of C_p(G_{1/sigma})
(numeric.pld_mechanisms.SymmetricHull) composed by numeric.pld, and ``dpsgd --sampling uniform``.

References (independent of the engine and of SymmetricHull's tail algebra):
* k = 1: numeric.subsampling, which builds C_p(f) from the G_mu record's closed forms (f_p, its fixed
  point and f_p^{-1} by root finding) - another route to the same trade-off function.
* k = 2: delta_2(eps) = E_{L ~ P}[delta_1(eps - L)], integrated with mpmath.quad at 30 digits, with
  delta_1 the hull's profile written from the remove pair's profile (delta_1(e) = delta_remove(e) for
  e >= 0, delta_1(e) = 1 - e^e + e^e delta_1(-e) for e < 0: the symmetry of C_p(f)) and the law of L
  from the remove pair's density (l > 0), its mirror e^l p(-l) (l < 0) and the atom at 0.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint")

import derive  # noqa: E402
from numeric import dpsgd, pld  # noqa: E402
from numeric import pld_mechanisms as M
from numeric import subsampling as S
from tests.cli_runner import run  # noqa: E402


def _remove_pair(q, s):
    """Closed forms of the Poisson remove pair (1-q) N(0, s^2) + q N(1, s^2) against N(0, s^2), in mpmath."""
    q, s = mpmath.mpf(q.numerator) / q.denominator, mpmath.mpf(s.numerator) / s.denominator

    def x_of(l):
        return s**2 * mpmath.log((mpmath.expm1(l) + q) / q) + mpmath.mpf(1) / 2

    def tails(l):
        x = x_of(l)
        sq = mpmath.ncdf(-x / s)
        return (1 - q) * sq + q * mpmath.ncdf(-(x - 1) / s), sq

    def density(l):                      # P-density of L at l > log(1 - q)
        x = x_of(l)
        dx = s**2 * mpmath.exp(l) / (mpmath.expm1(l) + q)
        return ((1 - q) * mpmath.npdf(x / s) + q * mpmath.npdf((x - 1) / s)) / s * dx
    return tails, density


def _hull_delta_k2(q, s, eps):
    tails, density = _remove_pair(q, s)

    def d1(e):
        if e >= 0:
            sp, sq = tails(e)
            return sp - mpmath.exp(e) * sq
        return -mpmath.expm1(e) + mpmath.exp(e) * d1(-e)
    sp0, sq0 = tails(0)
    atom = 1 - sp0 - sq0
    eps = mpmath.mpf(eps)
    pos = mpmath.quad(lambda l: density(l) * d1(eps - l), [0, eps, eps + 2, 10, 40, mpmath.inf])
    neg = mpmath.quad(lambda l: mpmath.exp(-l) * density(l) * d1(eps + l), [0, 2, 10, 40, mpmath.inf])
    return atom * d1(eps) + pos + neg


@pytest.mark.parametrize("p,sigma,eps", [("0.1", "1", "0.1"), ("0.1", "1", "1"), ("0.5", "2", "0.3"),
                                          ("0.01", "0.5", "0")])
def test_one_step_contains_the_hull_of_numeric_subsampling(p, sigma, eps):
    comp = pld.compose([(M.uniform_subsampled_gaussian(p, sigma), 1)])
    r = comp.delta(eps)
    mu = 1 / Fraction(sigma)
    exact = S.delta(derive.gaussian(str(float(mu))), p, eps, 20).value     # mu = 1, 1/2, 2: exact decimals
    assert r.certified
    assert r.delta_lower <= exact <= r.delta_upper
    # one weakly subsampled step is the engine's known weak spot (BENCHMARKS.md): about 0.5 % wide at p = 0.01
    assert r.delta_upper - r.delta_lower <= 1e-2 * exact


@pytest.mark.parametrize("p,sigma,eps", [("0.1", "1", "0.5"), ("0.2", "0.8", "1.5"), ("0.05", "1", "0.05")])
def test_two_steps_contain_the_integral(p, sigma, eps):
    with mpmath.workdps(30):
        ref = _hull_delta_k2(Fraction(p), Fraction(sigma), eps)
    r = pld.compose([(M.uniform_subsampled_gaussian(p, sigma), 2)]).delta(eps)
    assert r.certified
    assert r.delta_lower <= ref <= r.delta_upper, (r.delta_lower, ref, r.delta_upper)
    assert r.delta_upper - r.delta_lower <= 2e-3 * ref


def test_the_integral_reference_can_fail():
    """The k = 2 reference distinguishes the hull from the remove pair alone (no atom, no mirror): the
    remove direction's two-fold delta (the Poisson engine's one direction) is outside the uniform bracket."""
    with mpmath.workdps(30):
        ref = _hull_delta_k2(Fraction("0.2"), Fraction("0.8"), "1.5")
    poisson = pld.compose([(M.subsampled_gaussian("0.2", "0.8"), 2)]).delta("1.5")
    assert not (poisson.delta_lower <= ref <= poisson.delta_upper)


@pytest.mark.slow
def test_uniform_is_never_below_poisson():
    """C_q(f) <= f_q and <= f_q^{-1}: fixed-size batches cost at least the Poisson eps at the same q."""
    u = dpsgd.account(60000, 256, "1.1", steps=200, sampling="uniform", at_delta="1e-5")
    po = dpsgd.account(60000, 256, "1.1", steps=200, sampling="poisson", at_delta="1e-5")
    assert u.certified and po.certified
    assert u.eps_upper >= po.eps_lower
    assert u.eps_lower > po.eps_upper          # strictly worse here (not a tie of the brackets)


def test_cli_dpsgd_uniform():
    data = run(("dpsgd", "--n", "1000", "--batch", "100", "--sigma", "1", "--steps", "2", "--sampling", "uniform",
                "--at-eps", "1.5", "--json")).json()
    assert data["sampling"] == "uniform" and data["certified"] is True
    with mpmath.workdps(30):
        ref = _hull_delta_k2(Fraction(1, 10), Fraction(1), "1.5")
    assert mpmath.mpf(data["delta_lower"]) <= ref <= mpmath.mpf(data["delta_upper"])


def test_cli_subsample_uniform_k2_and_spec(tmp_path):
    """`subsample --sampling uniform --k 2` and a spec entry with "sampling": "uniform" both compose
    C_p(G_mu): their brackets contain the k = 2 integral (mu = 1.25 is sigma = 0.8)."""
    with mpmath.workdps(30):
        ref = _hull_delta_k2(Fraction("0.2"), Fraction("0.8"), "1.5")
    a = run(("subsample", "gaussian", "--mu", "1.25", "--p", "0.2", "--sampling", "uniform", "--k", "2",
             "--at-eps", "1.5", "--json")).json()
    spec = tmp_path / "s.json"
    spec.write_text('{"mechanisms": [{"mechanism": "gaussian", "mu": "1.25", "p": "0.2", "sampling": "uniform", '
                    '"count": 2}]}')
    b = run(("compose", "fdp", "--spec", str(spec), "--at-eps", "1.5", "--json")).json()
    for out in (a, b):
        assert out["method"] == "numeric" and out["certified"] is True
        assert mpmath.mpf(out["delta_lower"]) <= ref <= mpmath.mpf(out["delta_upper"])
    assert a["sampling"] == "uniform"
