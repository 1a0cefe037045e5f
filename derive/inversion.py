"""Solve ``expr = value`` for one symbol, peeling the normal CDF first.

SymPy's ``solve`` does not know that PhiInv inverts Phi, so an equation
Phi(g) = v is rewritten g = PhiInv(v) before ``solve`` takes over; a
Piecewise is solved piece by piece, each root kept with the condition under
which it is valid (the caller decides the condition with its numbers).
Used for the privacy-first and utility-first parameter choices of seed 000
(``derive.design``).
"""

from __future__ import annotations

import sympy as sp

from .special import Phi, PhiInv


def solve_for(expr: sp.Expr, symbol: sp.Symbol, value: sp.Expr) -> list[tuple[sp.Expr, sp.Basic]]:
    """[(root, condition)] with expr(root) = value wherever condition holds."""
    if isinstance(expr, sp.Piecewise):
        out, earlier = [], []
        for piece, cond in expr.args:
            for root, c in solve_for(piece, symbol, value):
                here = [cond.subs(symbol, root)] + [sp.Not(e.subs(symbol, root)) for e in earlier]
                out.append((root, sp.And(c, *here)))
            earlier.append(cond)
        return out
    if isinstance(expr, (sp.Min, sp.Max)):
        out = []
        for i, arg in enumerate(expr.args):
            for root, c in solve_for(arg, symbol, value):
                at = arg.subs(symbol, root)
                cmp = [(at <= o.subs(symbol, root)) if isinstance(expr, sp.Min) else (at >= o.subs(symbol, root))
                       for j, o in enumerate(expr.args) if j != i]
                out.append((root, sp.And(c, *cmp)))
        return out
    if isinstance(expr, Phi):
        return solve_for(expr.args[0], symbol, PhiInv(value))
    roots = sp.solve(sp.Eq(expr, value), symbol, dict=False)
    return [(sp.simplify(r), sp.true) for r in roots]
