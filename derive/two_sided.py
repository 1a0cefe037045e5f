"""Two-sided tests on a released mean: Matthews, Harel, Aseltine (2010) (catalog MHA-*).

Two releases X_R = X + eta and X'_R = X' + eta' of neighbouring means that
differ by Delta f are compared by a two-sided test (MHA-Eq1, MHA-Eq2); the
paper's risk is the AUC of that test's ROC, AUC = int_0^1 power(alpha) d alpha
(MHA-Def4), and privacy = 1 - risk (MHA-Def5).

* ``laplace_power(r)``: the statistic is one Laplace variable with location
  shift r (in units of its scale), rejected when |A| > log(1/alpha):
  power = alpha cosh r for alpha <= e^-r, else 1 - e^-r (1/alpha - alpha)/2;
  AUC = 1 - (1 + r) e^-r / 2 (catalog MHA-(a)).
* ``normal_power(d)``: A ~ N(d, 1) under H1, two-sided at level alpha:
  power = Phi(d + PhiInv(alpha/2)) + Phi(PhiInv(alpha/2) - d) (the printed
  1 - Phi(Z - d) + Phi(-Z - d) with Z = Phi^{-1}(1 - alpha/2), written without
  subtraction); AUC = Phi(d/sqrt2)^2 + Phi(-d/sqrt2)^2 (catalog MHA-(b)).
* ``laplace_difference_*``: the exact law of eta - eta' for i.i.d. Laplace(1)
  noise (catalog MHA-(c)): P(Y > x) = e^-x (1 + x/2)/2 for x >= 0; the test
  rejects for |Y + r| > c, so alpha(c) = e^-c (1 + c/2) and
  power(c) = T(c - r) + T(c + r), and AUC = int_0^inf power(c) e^-c (1 + c)/2 dc
  = 1 - (r^3 + 9 r^2 + 24 r + 24) e^-r / 48 (derived here by SymPy, piece by piece:
  ``derive_laplace_difference_auc``; claim MHA-(c) checks that it equals the stated form).
"""

from __future__ import annotations

import sympy as sp

from . import symbols as sy
from .special import Phi, PhiInv

r = sp.Symbol("r", nonnegative=True)
d = sp.Symbol("d", nonnegative=True)
c = sp.Symbol("c", nonnegative=True)


def laplace_power() -> sp.Expr:
    a = sy.alpha
    return sp.Piecewise((a * sp.cosh(r), a <= sp.exp(-r)),
                        (1 - sp.exp(-r) * (1 / a - a) / 2, True))


def laplace_auc_printed() -> sp.Expr:
    return 1 - (1 + r) * sp.exp(-r) / 2


def derive_laplace_auc() -> sp.Expr:
    """int_0^1 of ``laplace_power`` by SymPy, piece by piece."""
    a = sy.alpha
    (p1, _), (p2, _) = laplace_power().args
    return sp.simplify(sp.integrate(p1, (a, 0, sp.exp(-r))) + sp.integrate(p2, (a, sp.exp(-r), 1)))


def normal_power() -> sp.Expr:
    z = PhiInv(sy.alpha / 2)
    return Phi(d + z) + Phi(z - d)


def normal_auc_printed() -> sp.Expr:
    return Phi(d / sp.sqrt(2)) ** 2 + Phi(-d / sp.sqrt(2)) ** 2


def _difference_tail(x):
    """P(Y > x), Y = eta - eta' with eta, eta' i.i.d. Laplace(0, 1)."""
    return sp.Piecewise((sp.exp(-x) * (1 + x / 2) / 2, x >= 0), (1 - sp.exp(x) * (1 - x / 2) / 2, True))


def laplace_difference_power() -> sp.Expr:
    """power(c) of the two-sided test |Y + r| > c."""
    return _difference_tail(c - r) + _difference_tail(c + r)


def laplace_difference_level() -> sp.Expr:
    """alpha(c) = P(|Y| > c) = e^-c (1 + c/2)."""
    return sp.exp(-c) * (1 + c / 2)


def laplace_difference_auc_integrand() -> sp.Expr:
    """power(c) |d alpha / d c|: the AUC is its integral over c in [0, inf)."""
    return laplace_difference_power() * sp.simplify(-sp.diff(laplace_difference_level(), c))


def laplace_difference_auc_printed() -> sp.Expr:
    """1 - (r^3 + 9 r^2 + 24 r + 24) e^-r / 48: the AUC of the two-release Laplace test (derived here)."""
    return 1 - (r**3 + 9 * r**2 + 24 * r + 24) * sp.exp(-r) / 48


def derive_laplace_difference_auc() -> sp.Expr:
    """int_0^inf of ``laplace_difference_auc_integrand`` by SymPy: on [0, r] the tail T(c - r) takes its
    branch for a negative argument, on (r, inf) the other; T(c + r) always the first (c + r >= 0)."""
    x = sp.Symbol("x", real=True)
    (pos, _), (neg, _) = _difference_tail(x).args
    weight = sp.simplify(-sp.diff(laplace_difference_level(), c))

    shift = sp.Symbol("r_pos", positive=True)     # r > 0 (the value at r = 0, 1/2, is the limit: continuity)

    def integral(below, lo, hi):
        body = sp.expand(((neg if below else pos).xreplace({x: c - shift}) + pos.xreplace({x: c + shift})) * weight)
        return sum(sp.integrate(t, (c, lo, hi)) for t in sp.Add.make_args(body))
    return sp.simplify(integral(True, 0, shift) + integral(False, shift, sp.oo)).xreplace({shift: r})
