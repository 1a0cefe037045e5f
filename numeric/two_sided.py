"""AUCs of the two-sided tests of Matthews, Harel, Aseltine (2010): exact and as tabulated.

``auc_exact_*`` evaluate the closed forms (mp, verified digits), the difference
of two Laplace releases included (derived by SymPy in ``derive.two_sided``).  ``auc_riemann``
is the convention that reproduces the paper's tables: the right-endpoint sum
(1/N) sum_{i=1..N} power(i/N), N = 1000, evaluated in float64 from the same
SymPy power expression (``derive.two_sided``); float64 carries ~13 correct
digits of a sum whose terms are in [0, 1], far more than the 4 printed.
"""

from __future__ import annotations

import numpy as np

from derive import two_sided as T
from derive.exact import rational
from derive.symbols import alpha as ALPHA

from .bridge import compile_fp, exact_of, fp_call
from .precision import evaluate_env


def _exact(expr, symbol, value, digits):
    return evaluate_env(expr, {symbol: exact_of(rational("shift", value))}, digits)


def auc_exact_laplace(shift, digits: int = 15):
    """1 - (1 + r) e^-r / 2 for the single-Laplace two-sided test with shift r."""
    return _exact(T.laplace_auc_printed(), T.r, shift, digits)


def auc_exact_normal(shift, digits: int = 15):
    """Phi(d/sqrt2)^2 + Phi(-d/sqrt2)^2 for the two-sided normal test with shift d."""
    return _exact(T.normal_auc_printed(), T.d, shift, digits)


def auc_exact_laplace_difference(shift, digits: int = 15):
    """1 - (r^3 + 9 r^2 + 24 r + 24) e^-r / 48 for the difference of two Laplace releases (claim MHA-(c):
    derived by SymPy from int_0^inf power(c) e^-c (1 + c)/2 dc, and checked against quadrature of the laws)."""
    return _exact(T.laplace_difference_auc_printed(), T.r, shift, digits)


#: the noise families of the two-sided tests (seed 003), the ``kind`` of ``auc_riemann``: a noise law, not a
#: mechanism of the table
LAPLACE_NOISE = "laplace"
NORMAL_NOISE = "normal"


def auc_riemann(kind: str, shift: float, n: int = 1000) -> float:
    """(1/n) sum_{i=1..n} power(i/n) for kind LAPLACE_NOISE ('laplace', shift r) or NORMAL_NOISE ('normal',
    shift d)."""
    expr, symbol = (T.laplace_power(), T.r) if kind == LAPLACE_NOISE else (T.normal_power(), T.d)
    fn = compile_fp(expr, (ALPHA, symbol))
    grid = np.arange(1, n + 1, dtype=float) / n
    values = np.asarray(fp_call(fn, grid, float(shift)), dtype=float)
    return float(np.sum(values) / n)
