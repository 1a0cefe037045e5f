"""The Laplace pair's tails at all knots of one step in one pass (issue #25: heterogeneous specs).

``numeric.pld_discretise._tails_at`` asks a model with atoms for its tails knot by knot with the exact
Fraction l = h k: ``Laplace.tails`` compares l with -eps and eps in Fraction arithmetic, converts l to a
ball, and ``q_atom_at`` compares l with both atoms, about 50 us a knot of Python; a 1000-step distinct
Laplace spec has 156 knots a step.  Here the same closed forms (``numeric.pld_mechanisms``' docstring,
the Laplace item: for -eps <= l < eps, S_P(l) = 1 - e^{(l - eps)/2}/2 and S_Q(l) = e^{-(l + eps)/2}/2;
S_P = S_Q = 1 below -eps, 0 at or above eps; Q-atoms 1/2 at -eps and e^{-eps}/2 at +eps) are evaluated
in Arb at the caller's precision on the knot balls the caller already made (l_i = h k_i exactly, one
fmpq each), with one exponential a knot (S_P = 1 - c e^{l/2}, S_Q = c e^{-l/2}, c = e^{-eps/2}/2), so every
returned value is an Arb enclosure of the exact one, as before; only the case
split moved from Fraction to integer arithmetic, and it is exact: with q = eps / h (a Fraction, h > 0),
  h k < -eps  <=>  k < -q  <=>  k < ceil(-q),      h k >= eps  <=>  k >= q  <=>  k >= ceil(q),
and an atom +-eps lies on the knot k exactly when q is an integer and k = +-q.  Nothing here is float.
(tests/test_laplace_tails.py compares every ball with the knot-by-knot route and checks a composed
bracket against an exact reference.)
"""

from __future__ import annotations

import math
from fractions import Fraction


def tails_batch(model, h: Fraction, knots, balls):
    """(S_P list, S_Q list, Q-atom list) of the Laplace pair ``model`` at the knots (int array) whose
    exact loss values l_i = h k_i are the Arb balls ``balls``; the ``tails_batch`` hook of
    ``numeric.pld_discretise._tails_at``."""
    from flint import arb
    e = model.eps
    q = e / h
    bottom, top = math.ceil(-q), math.ceil(q)
    on_lattice = q.denominator == 1
    ea = arb(e.numerator) / e.denominator
    one, zero, half = arb(1), arb(0), arb(1) / 2
    q_top = (-ea).exp() * half                      # Q-mass of the atom at +eps
    c = (-ea * half).exp() * half                   # e^{-eps/2}/2: S_P = 1 - c e^{l/2}, S_Q = c e^{-l/2}
    SP, SQ, QA = [], [], []
    for k, la in zip(knots.tolist(), balls):
        if k < bottom:
            SP.append(one)
            SQ.append(one)
        elif k >= top:
            SP.append(zero)
            SQ.append(zero)
        else:
            x = (la * half).exp()                   # one exponential a knot (each value still an Arb ball)
            SP.append(1 - c * x)
            SQ.append(c / x)
        if on_lattice and k == top:
            QA.append(q_top)
        elif on_lattice and k == -top:
            QA.append(half)
        else:
            QA.append(zero)
    return SP, SQ, QA
