"""numeric.laplace_tails (issue #25): the Laplace pair's tails at all knots in one pass.

References are independent of the engine: tests/laplace_reference.py (the exact law of a sum of distinct
Laplace losses, checked there against the k-fold Laplace route for equal eps, and a lattice bracket).
"""

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numeric import laplace_tails as LT
from numeric import pld
from numeric import pld_mechanisms as M
from tests.laplace_reference import exact_delta, lattice_bracket

FEW = ["0.05", "0.0731", "0.12", "0.2"]
FIFTY = [str(Fraction(1, 100) + Fraction(j, 10 ** 4)) for j in range(50)]


def _bracket(eps_list, E):
    r = pld.compose([(M.laplace(e), 1) for e in eps_list]).delta(E)
    return mpmath.mpf(r.delta_lower), mpmath.mpf(r.delta_upper)


@pytest.mark.parametrize("eps,h", [("0.0123", Fraction(1, 1800)), ("0.5", Fraction(1, 1000)),
                                   ("1", Fraction(1, 7)), ("0.1", Fraction(1, 30))])
def test_batch_balls_overlap_knot_by_knot(eps, h):
    # reference: the knot-by-knot route (Laplace.tails / q_atom_at on exact Fractions), ball overlap
    from flint import ctx

    from numeric.pld_discretise import _knot_balls, _knots
    m = M.Laplace(eps)
    ks = _knots(m, h, 0.0)
    q = int(m.eps / h)
    ks = np.unique(np.concatenate([ks, np.arange(-q - 3, q + 4)]))      # every case: below, on, above atoms
    with ctx.workprec(M.PREC):
        SP, SQ, QA = LT.tails_batch(m, h, ks, _knot_balls(h, ks))
        for k, sp, sq, qa in zip(ks.tolist(), SP, SQ, QA):
            a, b = m.tails(h * k)
            assert a.overlaps(sp) and b.overlaps(sq) and m.q_atom_at(h * k).overlaps(qa)
            assert sp.rad() < 1e-25 and sq.rad() < 1e-25


@pytest.mark.parametrize("E", ["0.1", "0.3"])
def test_few_distinct_steps_contain_exact(E):
    lo, up = _bracket(FEW, E)
    ref = exact_delta(FEW, E)          # exact law, 60-digit mpmath
    assert lo <= ref <= up
    assert up - lo < 3e-4 * ref        # and narrow enough to be a test (measured 4e-5 and 1.2e-4 relative)


@pytest.mark.parametrize("route", ["batch", "knot by knot"])
def test_fifty_distinct_steps_meet_lattice_bracket(monkeypatch, route):
    # reference: the two rounded lattice laws on h = 1e-5 (tests/laplace_reference.py), independent of the engine;
    # "knot by knot" is the route before numeric.laplace_tails (the hook removed)
    if route != "batch":
        monkeypatch.delattr(M.Laplace, "tails_batch")
    lo, up = _bracket(FIFTY, "0.3")
    rlo, rup = lattice_bracket(FIFTY, "0.3", Fraction(1, 10 ** 5))
    assert rlo - 1e-12 <= up and lo <= rup + 1e-12
    assert rup - rlo < 2e-4 * rup      # the reference is 7x narrower than the engine's bracket (measured)


def test_before_and_after_agree(monkeypatch):
    """The knot-by-knot route (the batch hook removed) gives the same bracket, and it too contains the
    exact value."""
    after = _bracket(FEW, "0.1")
    monkeypatch.delattr(M.Laplace, "tails_batch")
    before = _bracket(FEW, "0.1")
    ref = exact_delta(FEW, "0.1")
    assert before[0] <= ref <= before[1]
    for a, b in zip(after, before):
        assert abs(a - b) <= 1e-13 * ref


@pytest.mark.parametrize("which", ["S_P + 1e-6", "S_Q * (1 + 1e-6)"])
def test_mutation_perturbed_tails_escape_the_reference(monkeypatch, which):
    """Mutation: every S_P of the batch moved up by 1e-6, or every S_Q scaled by 1 + 1e-6; the exact value
    must leave the bracket.  (The opposite perturbations happen to keep it inside: they widen the bracket.)"""
    real = LT.tails_batch

    def perturbed(model, h, knots, balls):
        SP, SQ, QA = real(model, h, knots, balls)
        if which.startswith("S_P"):
            return [x + 1e-6 for x in SP], SQ, QA
        return SP, [x * (1 + 1e-6) for x in SQ], QA
    monkeypatch.setattr(LT, "tails_batch", perturbed)
    lo, up = _bracket(FEW, "0.1")
    assert not (lo <= exact_delta(FEW, "0.1") <= up)
