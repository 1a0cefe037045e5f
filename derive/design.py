"""Choosing the privacy parameter: privacy-first and utility-first (seed 000).

de Fondeville (2026), arXiv:2603.12753v1.

Privacy-first (sections 4-5, catalog DF-rho-a0 and DF-Fig4): the parameter for
which the best attack at level alpha0 has power V = 1 - beta0, i.e.
1 - f(alpha0) = V, or rho_alpha0 = R (the same equation with V = R alpha0),
or rho = R.  The roots are derived here by SymPy from the record's own power
(``derive.inversion.solve_for``): for the Gaussian mechanism
mu = PhiInv(V) - PhiInv(alpha0) = z_{1-alpha0} + z_{1-beta0}; for Laplace the
three cases of DF-Fig4, one per piece of f, each with its validity condition.

Utility-first (section 5.2, Eqs. 7-9, catalog DF-Eq7-Eq9): X_i ~ m_i + N(0,
sigma^2), release Xbar + N(0, Delta_q^2/mu^2) with Delta_q = 1/n, so the
release has standard deviation sigma_n with
sigma_n^2 = sigma^2/n + Delta_q^2/mu^2, and the one-sided Z-test of H0: q = 0
at level alpha has power PhiBar(z_{1-alpha} - m/sigma_n) at the alternative m.
It is written Phi(m/sigma_n + PhiInv(alpha)), exact in alpha.
"""

from __future__ import annotations

import dataclasses

import sympy as sp

from derive.special import expm1

from . import risk
from .bounded import Bounded
from .inversion import solve_for
from .special import LogPhi, Phi, PhiInv
from .symbols import alpha, mu, n
from .tradeoff import TradeOff

#: the level of the attack (privacy-first) and the target value of the equation
alpha0 = sp.Symbol("alpha_0", positive=True)
target = sp.Symbol("V", positive=True)

#: Z-test symbols (Eq. 7-9)
sigma = sp.Symbol("sigma", positive=True)
m = sp.Symbol("m", positive=True)
delta_q = sp.Symbol("Delta_q", positive=True)

sigma_n = sp.sqrt(sigma**2 / n + delta_q**2 / mu**2)
#: power of the one-sided Z-test on the protected mean (Eq. 9)
ztest_power = Phi(m / sigma_n + PhiInv(alpha))
#: power of the same test on the unprotected mean (the limit mu -> oo, taken by SymPy)
ztest_power_unprotected = Phi(sp.limit(ztest_power.args[0], mu, sp.oo))
#: the type II errors 1 - power, by symmetry Phi(-x) = 1 - Phi(x) (no subtraction)
ztest_miss = Phi(-ztest_power.args[0])
ztest_miss_unprotected = Phi(-ztest_power_unprotected.args[0])
#: relative loss of power (p0 - p)/p0 = (Phi(-B) - Phi(-A))/Phi(A), A and B the arguments of the
#: unprotected and protected power (A >= B): written -Phi(-B) expm1(log Phi(-A) - log Phi(-B)) / Phi(A)
#: so that two powers both within 1e-4000 of 1 do not cancel (seed 000 Sec. 5.2 defines the loss;
#: the form is ours; the claim DF-Eq7-Eq9 and tests/test_design.py compare it with the plain ratio)
ztest_relative_loss = (-ztest_miss * expm1(LogPhi(-ztest_power_unprotected.args[0]) - LogPhi(-ztest_power.args[0]))
                       / ztest_power_unprotected)


def parameter(record: TradeOff) -> sp.Symbol:
    """The one free parameter of a one-parameter record (mu or eps)."""
    free = [s for s in record.parameters if s not in record.values]
    if len(free) != 1:
        raise ValueError(f"{record.name}: select needs exactly one free parameter, found {free}")
    return free[0]


_ROOTS = Bounded(512)


def _memo(key, compute):
    """SymPy's solve takes up to a second: one derivation per equation."""
    return _ROOTS.memo(key, compute)


def power_roots(record: TradeOff):
    """[(root, condition)] solving 1 - f(alpha0) = V for the record's parameter."""
    eq = record.power.subs(alpha, alpha0)
    return _memo(("power", eq), lambda: solve_for(eq, parameter(record), target))


def _positive(record: TradeOff) -> tuple[TradeOff, sp.Symbol, sp.Symbol]:
    sym = parameter(record)
    pos = sp.Symbol(sym.name, positive=True)
    swap = {sym: pos}
    rec = dataclasses.replace(record, tradeoff=record.tradeoff.xreplace(swap),
                              power=record.power.xreplace(swap), parameters=(pos,))
    return rec, sym, pos


def rho_of_parameter(record: TradeOff) -> risk.Limit:
    """rho as a function of the parameter, for every parameter > 0 (DF-Thm2)."""
    rec, sym, pos = _positive(record)
    lim = risk.rho(rec)
    return risk.Limit(lim.value.xreplace({pos: sym}), lim.method)


def rho_roots(record: TradeOff):
    """[(root, condition)] solving rho(parameter) = V; empty when rho = oo for every parameter > 0."""
    value = rho_of_parameter(record).value
    if value is sp.oo:
        return []
    return _memo(("rho", value), lambda: [(sp.simplify(r), c) for r, c in solve_for(value, parameter(record), target)])


def ztest_mu_roots():
    """[(root, condition)] solving the Z-test power = V for mu (SymPy; the negative root dropped later)."""
    return _memo(("ztest",), lambda: solve_for(ztest_power, mu, target))
