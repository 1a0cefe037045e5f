"""Rewrite rules into cancellation-free forms.

A printed formula such as ``Phi(PhiInv(1 - alpha) - mu)`` is exact in real
arithmetic but loses every digit in floating point once ``alpha`` is below the
unit roundoff.  ``stabilize`` rewrites it, by identities of the standard
normal, into a form whose evaluation never subtracts nearly equal numbers:

* ``PhiInv(1 - a)``           -> ``-PhiInv(a)``          (symmetry of Phi)
* ``1 - Phi(x)``              -> ``Phi(-x)``
* ``log(Phi(x))``             -> ``LogPhi(x)``
* ``PhiInv(exp(y))``          -> ``PhiInvExp(y)``
* ``log`` of a product, a power, ``exp``, ``Max``/``Min`` or a ``Piecewise``
  is distributed (every factor of a trade-off quantity is positive).

``log_space`` builds the log of a quantity as a function of ``log_alpha``:
the entry point for alpha below the float range.
"""

from __future__ import annotations

import sympy as sp
from sympy import S
from sympy.codegen.cfunctions import log1p

from .special import LogPhi, Phi, PhiInv, PhiInvExp
from .symbols import alpha, log_alpha


def _complement_argument(arg):
    """Return ``a`` if ``arg`` is ``1 - a`` (syntactically), else ``None``."""
    if arg.is_Add and S.One in arg.args:
        return sp.expand(1 - arg)
    return None


def _phiinv_symmetry(expr):
    a = _complement_argument(expr.args[0])
    return -PhiInv(a) if a is not None else expr


def _one_minus_phi(expr):
    terms = list(expr.args)
    if S.One not in terms:
        return expr
    for t in terms:
        if t.is_Mul and t.args[0] is S.NegativeOne and len(t.args) == 2 and isinstance(t.args[1], Phi):
            rest = [u for u in terms if u is not S.One and u is not t]
            return sp.Add(Phi(-t.args[1].args[0]), *rest)
    return expr


def stabilize(expr: sp.Expr) -> sp.Expr:
    """Apply the complement rules until nothing changes."""
    previous = None
    while previous != expr:
        previous = expr
        expr = expr.replace(lambda e: isinstance(e, PhiInv), _phiinv_symmetry)
        expr = expr.replace(lambda e: e.is_Add, _one_minus_phi)
    return expr


def _log_of(e):
    """log(e) with the log pushed inside every positive structure."""
    if isinstance(e, sp.exp):
        return e.args[0]
    if isinstance(e, Phi):
        return LogPhi(e.args[0])
    if e.is_Mul:
        return sp.Add(*[_log_of(f) for f in e.args])
    if e.is_Pow and e.exp.is_Number:
        return e.exp * _log_of(e.base)
    if isinstance(e, (sp.Max, sp.Min)):
        return type(e)(*[_log_of(a) for a in e.args], evaluate=False)
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(_log_of(v), c) for v, c in e.args])
    if e.is_Number and e.is_positive:
        return sp.log(e)
    return sp.log(e)


def _log_difference(e):
    """log(e) like ``_log_of``, and for a difference A - B of positive terms
    log A + log1p(-exp(log B - log A)): the logs of A and B are representable far below the float
    range, and the difference is formed only as 1 - B/A inside log1p (catalog of rules above).
    log 0 is -oo (a structural zero of a piece), never SymPy's complex infinity."""
    if e == 0:
        return sp.S.NegativeInfinity
    if e.is_Add:
        neg = [t for t in e.args if t.could_extract_minus_sign()]
        pos = [t for t in e.args if not t.could_extract_minus_sign()]
        if len(neg) == 1 and len(pos) == 1:
            la, lb = _log_difference(pos[0]), _log_difference(-neg[0])
            return la + log1p(-sp.exp(lb - la))
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(_log_difference(v), c) for v, c in e.args])
    if isinstance(e, sp.Max):
        # log max(a, b, ...) = max over the positive arguments of log a: an argument that may be
        # negative (the 1 - delta - e^eps alpha of f_{eps,delta}) contributes only where it is > 0
        kept = [a for a in e.args if a != 0]
        logs = [_log_difference(a) if a.is_positive else
                sp.Piecewise((_log_difference(a), a > 0), (sp.S.NegativeInfinity, True)) for a in kept]
        if not logs:
            return sp.S.NegativeInfinity
        return sp.Max(*logs, evaluate=False) if len(logs) > 1 else logs[0]
    if isinstance(e, sp.Min):
        return sp.Min(*[_log_difference(a) for a in e.args], evaluate=False)
    if e.is_Mul:
        return sp.Add(*[_log_difference(f) for f in e.args])
    return _log_of(e)


def log_of_difference(expr: sp.Expr) -> sp.Expr:
    """log(expr) for a positive quantity written as differences of positive terms (a privacy profile
    delta(eps) = A - e^eps B): see ``_log_difference``."""
    return _log_difference(expr)


def _condition_in_log_space(cond):
    """Rewrite ``exp(log_alpha) < c`` as ``log_alpha < log(c)`` (c > 0)."""
    if isinstance(cond, sp.core.relational.Relational):
        lhs, rhs = cond.lhs, cond.rhs
        ea = sp.exp(log_alpha)
        if lhs == ea and rhs.is_positive:
            return type(cond)(log_alpha, sp.expand_log(sp.log(rhs), force=True))
        if rhs == ea and lhs.is_positive:
            return type(cond)(sp.expand_log(sp.log(lhs), force=True), log_alpha)
    return cond


def log_space(expr: sp.Expr) -> sp.Expr:
    """``log(expr)`` as a function of ``log_alpha`` (with ``alpha = exp(log_alpha)``).

    The result contains no ``exp(log_alpha)`` inside ``PhiInv`` or ``log``, so
    it stays finite in float64 for ``log_alpha`` far below ``log(1e-308)``.
    """
    e = expr.subs(alpha, sp.exp(log_alpha))
    e = _log_difference(e)
    e = e.replace(lambda t: isinstance(t, PhiInv) and isinstance(t.args[0], sp.exp),
                  lambda t: PhiInvExp(t.args[0].args[0]))
    e = e.replace(lambda t: isinstance(t, sp.Piecewise),
                  lambda t: sp.Piecewise(*[(v, _condition_in_log_space(c)) for v, c in t.args]))
    return e
