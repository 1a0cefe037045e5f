"""Operations on trade-off functions that SymPy can carry out symbolically.

* ``breakpoints``: the alphas where a piecewise f changes formula (used as
  exact candidates by the numerical suprema in ``numeric.profile``);
* ``inverse``: f^{-1}(alpha) = inf{t : f(t) <= alpha} (Dong, Roth, Su 2022,
  Eq. 3.2 region; catalog SU-Eq3.2): the record itself when f is symmetric;
* ``derive_profile``: delta(eps') = 1 + f*(-e^eps') derived by SymPy from the
  stationary point of 1 - f(alpha) - e^eps' alpha (smooth f);
* ``profile_to_tradeoff_expr``: f_{eps,delta}(alpha), the building block of the
  dual-to-primal conversion f = sup_eps f_{eps, delta(eps)} (Dong, Roth, Su 2022).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import sympy as sp

from . import symbols as sy
from .special import Phi, PhiInv
from .tradeoff import TradeOff, eps_prime


@lru_cache(maxsize=256)
def _breakpoints_of(expr: sp.Expr) -> tuple:
    a = sy.alpha
    found = set()
    for pw in expr.atoms(sp.Piecewise):
        for _, cond in pw.args:
            for rel in cond.atoms(sp.core.relational.Relational):
                for s in sp.solve(sp.Eq(rel.lhs, rel.rhs), a):
                    found.add(s)
    for m in expr.atoms(sp.Max, sp.Min):
        for u, v in combinations(m.args, 2):
            if u.has(a) or v.has(a):
                for s in sp.solve(sp.Eq(u, v), a):
                    found.add(s)
    out = []
    for s in found:
        if s.free_symbols:
            continue
        value = s.evalf(30)
        if value.is_real and 0 < value < 1:
            out.append(sp.nsimplify(s) if s.is_Float else s)
    return tuple(out)


def breakpoints(record: TradeOff) -> tuple:
    """Exact alphas in (0, 1) where the bound f changes formula."""
    return _breakpoints_of(record.f)


def inverse(record: TradeOff) -> TradeOff | None:
    """The record of f^{-1} when SymPy knows it: f itself when f is symmetric."""
    return record if record.symmetric else None


def derive_profile(power: sp.Expr) -> sp.Expr | None:
    """delta(eps') = sup_alpha (power(alpha) - e^eps' alpha) by the stationary point.

    For a smooth concave ``power`` the supremum is where power'(alpha) = e^eps'.
    The equation is solved in z = PhiInv(alpha) when alpha enters only through
    PhiInv (Gaussian family), else in alpha.  Returns None when SymPy finds no
    unique solution.
    """
    a, z = sy.alpha, sy.z
    slope = sp.diff(power, a)
    if power.has(PhiInv(a)):
        eq = sp.simplify(slope.subs(PhiInv(a), z)) - sp.exp(eps_prime)
        sols = sp.solve(eq, z)
        if len(sols) != 1:
            return None
        alpha_star = Phi(sols[0])
        value = power.subs(PhiInv(a), sols[0]) - sp.exp(eps_prime) * alpha_star
    else:
        sols = [s for s in sp.solve(sp.Eq(slope, sp.exp(eps_prime)), a) if s.is_real is not False]
        if len(sols) != 1:
            return None
        alpha_star = sols[0]
        value = power.subs(a, alpha_star) - sp.exp(eps_prime) * alpha_star
    return sp.simplify(value)


def approx_dp_tradeoff(e, d, a=sy.alpha) -> sp.Expr:
    """f_{e,d}(a) = max{0, 1 - d - e^e a, e^-e (1 - d - a)} (one source: approx_dp)."""
    from .mechanisms.approx_dp import _forms
    return _forms(e, d)[0].xreplace({sy.alpha: a})
