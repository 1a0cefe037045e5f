"""Area under the optimal ROC curve: AUC(f) = 1 - integral_0^1 f(alpha) d alpha.

de Fondeville (2026) arXiv:2603.12753v1, section on AUC (catalog DF-AUC);
Matthews, Harel, Aseltine (2010), Def. 4 (AUC = integral of the power).
``derive_auc`` integrates the record's trade-off function with SymPy, piece by
piece between its breakpoints, for the piecewise records (Laplace, f_{eps,delta},
randomized response, uniform sampling) and the logistic family.  For the
Gaussian family the closed form Phi(mu/sqrt 2) is stated (Dong, Roth, Su 2022;
it follows from alpha = Phi(-t): the integral is P(Z1 + Z2 < -mu)) and
confirmed by quadrature in claim DF-AUC:gaussian.
"""

from __future__ import annotations

import sympy as sp

from . import symbols as sy
from .bounded import Bounded
from .mechanisms import facts as K
from .special import Phi
from .tradeoff import TradeOff


def _unbound(record: TradeOff, key: str):
    """The record's fact ``key`` as stored: an expression in its (symbolic) parameters, or None."""
    entry = record.facts.get(key)
    return None if entry is None else entry[0]


#: closed forms as printed in the catalog (DF-AUC), declared by the mechanism modules (``K.AUC_PRINTED``)
def printed_auc(record: TradeOff) -> sp.Expr | None:
    """The catalog's AUC of the record, an expression in its parameters, or None."""
    return _unbound(record, K.AUC_PRINTED)


def _pieces(record: TradeOff):
    """[(expression, lower, upper)] covering [0, 1] for the symbolic record (``K.AUC_PIECES``), or None."""
    pieces = _unbound(record, K.AUC_PIECES)
    if pieces is None:
        return None
    return [tuple(piece) for piece in pieces]


def derive_auc(record: TradeOff) -> sp.Expr | None:
    """1 - integral of f over [0, 1], integrated by SymPy (None when not available)."""
    key = (record.name, record.tradeoff, record.notes, record.citation)
    return _AUC_CACHE.memo(key, lambda: _integrate(record))


#: SymPy integrals by record (a few hundred records at most in any run; bounded all the same)
_AUC_CACHE = Bounded(512)


def _integrate(record: TradeOff):
    pieces = _pieces(record)
    if pieces is None:
        return None
    total = sum(sp.integrate(expr, (sy.alpha, lo, hi)) for expr, lo, hi in pieces)
    return sp.simplify(1 - total)


def auc_expr(record: TradeOff) -> sp.Expr | None:
    """The AUC closed form used for evaluation: Phi(mu/sqrt 2) for a record that is G_mu (``K.GDP_MU``),
    else SymPy's integral of its pieces; an expression in the record's parameters."""
    mu = _unbound(record, K.GDP_MU)
    if mu is not None:
        return Phi(mu / sp.sqrt(2))
    return derive_auc(record)
