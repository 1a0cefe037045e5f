"""AUC of the optimal ROC, 1 - integral of f, to verified digits.

The closed form of ``derive.auc.auc_expr`` when there is one; otherwise (and as
the independent check of the closed forms) tanh-sinh quadrature of f over
[0, 1] split at the record's breakpoints, at the working precision, verified
by re-evaluation at higher precision.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from derive.auc import auc_expr
from derive.mechanisms import facts as K
from derive.operations import breakpoints
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from .bridge import compile_mp, to_mpf
from .inputs import bound_env
from .precision import evaluate_env, verified_mpf


def auc(record: TradeOff, digits: int = 15):
    """AUC = 1 - integral_0^1 f, closed form when known, else quadrature (a discrete Gaussian pair,
    ``K.DG_SIGMA2``, whose f has a kink at every integer's level: the sum of ``numeric.discrete_gaussian.auc``)."""
    if K.DG_SIGMA2 in record.facts:
        from . import discrete_gaussian
        s2, env = compile_mp(record.facts[K.DG_SIGMA2][0]), bound_env(record)
        return verified_mpf(lambda: discrete_gaussian.auc(to_mpf(s2(env))), digits)
    expr = auc_expr(record)
    if expr is None:
        return auc_quadrature(record, digits)
    bound = record.bind(expr)
    if bound.has(sp.nan):
        # the closed form is 0/0 at this parameter (the logistic pair's at mu = 0, found by the fuzz test):
        # the definition, 1 - integral of f, by quadrature
        return auc_quadrature(record, digits)
    return evaluate_env(bound, bound_env(record), digits)


def quadrature_nodes(record: TradeOff, lo=0, hi=1) -> list:
    """lo, the record's breakpoints inside (lo, hi), and hi, sorted, at the working precision (the
    pieces between them are smooth, as tanh-sinh quadrature wants)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    nodes = {lo, hi}
    for b in breakpoints(record):
        v = to_mpf(compile_mp(b)(dict(bound_env(record))))
        if lo < v < hi:
            nodes.add(v)
    return sorted(nodes)


def auc_quadrature(record: TradeOff, digits: int = 15):
    """1 - integral of f by tanh-sinh quadrature between breakpoints."""
    fn = compile_mp(record.f)
    env = bound_env(record)

    def f_at(a):
        env[ALPHA] = a
        return to_mpf(fn(env))

    def compute():
        return 1 - mpmath.quad(f_at, quadrature_nodes(record))
    return verified_mpf(compute, digits)
