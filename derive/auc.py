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
from .mechanisms.uniform_sampling import release_probability
from .special import Phi
from .tradeoff import TradeOff


#: closed forms as printed in the catalog (DF-AUC), keyed by record name
def printed_auc(record: TradeOff) -> sp.Expr | None:
    e, d, m, k = sy.eps, sy.delta, sy.mu, sy.n
    name = record.name
    if name == "gaussian":
        return Phi(m / sp.sqrt(2))
    if name == "laplace":
        return 1 - sp.exp(-e) * (2 + e) / 4
    if name == "approx-dp":
        return 1 - (1 - d) ** 2 / (1 + sp.exp(e))
    if name == "randomized-response":
        return 1 - 1 / (1 + sp.exp(e))
    if name == "uniform-sampling" and record.notes.endswith("replacement"):
        p = release_probability(m, k)
        return 1 - (1 - p) ** 2 / 2
    return None


def _pieces(record: TradeOff):
    """[(expression, lower, upper)] covering [0, 1] for the symbolic record, or None."""
    a, e, d, m, k = sy.alpha, sy.eps, sy.delta, sy.mu, sy.n
    f = record.tradeoff
    name = record.name
    if name == "laplace":
        (p1, _), (p2, _), (p3, _) = f.args
        return [(p1, 0, sp.exp(-e) / 2), (p2, sp.exp(-e) / 2, sp.S.Half), (p3, sp.S.Half, 1)]
    if name in ("approx-dp", "randomized-response"):
        dd = d if name == "approx-dp" else 0
        kink = (1 - dd) / (1 + sp.exp(e))
        return [(1 - dd - sp.exp(e) * a, 0, kink), (sp.exp(-e) * (1 - dd - a), kink, 1 - dd)]
    if name == "uniform-sampling":
        p = release_probability(m, k)
        if record.notes.endswith("replacement"):
            return [(1 - p - a, 0, 1 - p)]
        (p1, _), (p2, _) = f.args
        return [(p1, 0, sp.exp(-m)), (p2, sp.exp(-m), 1)]
    if name == "noise" and "logistic" in record.citation:
        return [(f, 0, 1)]
    return None


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
    """The AUC closed form used for evaluation: SymPy's integral, else the stated form."""
    if record.name in ("gaussian", "classical-gaussian") or (record.name == "noise" and "gaussian" in record.citation):
        # the Gaussian records are Phi(-PhiInv(alpha) - m): read the shift m off the expression
        inner = record.tradeoff.args[0]
        shift = -(inner - inner.as_independent(sy.alpha)[1])
        return Phi(shift / sp.sqrt(2))
    return derive_auc(record)
