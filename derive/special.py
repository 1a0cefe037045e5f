"""Tail-safe special functions as SymPy heads.

The heads are the vocabulary of every formula in dp-derive.  They exist so that
a formula can be written without any cancellation in the tails:

* ``Phi(x)``        standard normal CDF; its complement is written ``Phi(-x)``;
* ``PhiInv(p)``     its quantile; the upper quantile is written ``-PhiInv(p)``;
* ``LogPhi(x)``     ``log(Phi(x))``, finite far below the float range;
* ``PhiInvExp(y)``  ``PhiInv(exp(y))``, the quantile of a probability given by its log.

Unlike ``sympy.erfc`` (whose ``eval`` turns ``erfc(-x)`` into ``2 - erfc(x)``)
and ``sympy.stats`` (which writes the normal CDF as ``erf/2 + 1/2``), ``eval``
here only resolves exact special values and never introduces a subtraction.
Each head has derivatives (``fdiff``), rewrites into ``erf``/``erfinv`` (used
to prove identities) and a LaTeX form.  Numerical kernels live in
``numeric.kernels``; this module knows nothing of them.

References
----------
Dong, Roth, Su (2022), Gaussian differential privacy, JRSS-B: G_mu.
"""

from __future__ import annotations

import sympy as sp
from sympy import Function, S, erf, erfc, erfinv, exp, log, pi, sqrt
from sympy.codegen.cfunctions import expm1 as _codegen_expm1


class expm1(_codegen_expm1):
    r"""``e^x - 1`` without the subtraction: SymPy's codegen head, printed in LaTeX as
    :math:`\left(e^{x} - 1\right)` (SymPy's printer read the digit in its name as a subscript,
    ``\operatorname{expm}_{1}``).  Its name, evaluation and derivatives are SymPy's."""

    def _latex(self, printer, exp=None):
        body = r"\left(e^{%s} - 1\right)" % printer._print(self.args[0])
        return body if exp is None else r"%s^{%s}" % (body, exp)


def _normal_density(t):
    return exp(-(t**2) / 2) / sqrt(2 * pi)


class _Head(Function):
    """A head printed in LaTeX as ``template % argument``; a power wraps it in parentheses."""

    nargs = 1
    latex_template = ""
    #: wrap in parentheses before a power (needed when the head carries its own superscript)
    latex_power_parens = True

    def _latex(self, printer, exp=None):
        body = self.latex_template % printer._print(self.args[0])
        if exp is None:
            return body
        return (r"\left(%s\right)^{%s}" if self.latex_power_parens else r"%s^{%s}") % (body, exp)


class Phi(_Head):
    r"""Standard normal CDF :math:`\Phi(x)`."""

    latex_template = r"\Phi\left(%s\right)"
    latex_power_parens = False

    @classmethod
    def _special_values(cls, x):
        if x is S.Zero:
            return S.Half
        if x is S.Infinity:
            return S.One
        if x is S.NegativeInfinity:
            return S.Zero
        return None

    #: SymPy evaluates a head through ``eval``: only exact special values, never a rewrite
    eval = _special_values

    def fdiff(self, argindex=1):
        return _normal_density(self.args[0])

    def inverse(self, argindex=1):
        return PhiInv

    def _eval_rewrite_as_erf(self, x, **kwargs):
        return (1 + erf(x / sqrt(2))) / 2

    def _eval_rewrite_as_erfc(self, x, **kwargs):
        return erfc(-x / sqrt(2)) / 2

    def _eval_is_positive(self):
        return self.args[0].is_extended_real and not self.args[0].is_infinite or None

    def _eval_is_extended_real(self):
        return self.args[0].is_extended_real



class PhiInv(_Head):
    r"""Standard normal quantile :math:`\Phi^{-1}(p)`, :math:`p\in[0,1]`."""

    latex_template = r"\Phi^{-1}\left(%s\right)"

    @classmethod
    def _special_values(cls, p):
        if p is S.Half:
            return S.Zero
        if p is S.Zero:
            return S.NegativeInfinity
        if p is S.One:
            return S.Infinity
        return None

    #: SymPy evaluates a head through ``eval``: only exact special values, never a rewrite
    eval = _special_values

    def fdiff(self, argindex=1):
        # d/dp PhiInv(p) = 1 / phi(PhiInv(p))
        return sqrt(2 * pi) * exp(self**2 / 2)

    def inverse(self, argindex=1):
        return Phi

    def _eval_rewrite_as_erf(self, p, **kwargs):
        return sqrt(2) * erfinv(2 * p - 1)

    def _eval_is_extended_real(self):
        return True if self.args[0].is_positive else None



class LogPhi(_Head):
    r""":math:`\log\Phi(x)`, computed without forming :math:`\Phi(x)`."""

    latex_template = r"\log \Phi\left(%s\right)"

    @classmethod
    def _special_values(cls, x):
        if x is S.Infinity:
            return S.Zero
        if x is S.NegativeInfinity:
            return S.NegativeInfinity
        return None

    #: SymPy evaluates a head through ``eval``: only exact special values, never a rewrite
    eval = _special_values

    def fdiff(self, argindex=1):
        x = self.args[0]
        return _normal_density(x) / Phi(x)

    def _eval_rewrite_as_Phi(self, x, **kwargs):
        return log(Phi(x))

    def _eval_rewrite_as_erf(self, x, **kwargs):
        return log((1 + erf(x / sqrt(2))) / 2)



class PhiInvExp(_Head):
    r""":math:`\Phi^{-1}(e^{y})` for :math:`y\le 0`: a quantile from a log-probability."""

    latex_template = r"\Phi^{-1}\left(e^{%s}\right)"

    @classmethod
    def _special_values(cls, y):
        if y is S.Zero:
            return S.Infinity
        if y is S.NegativeInfinity:
            return S.NegativeInfinity
        return None

    #: SymPy evaluates a head through ``eval``: only exact special values, never a rewrite
    eval = _special_values

    def fdiff(self, argindex=1):
        y = self.args[0]
        return sqrt(2 * pi) * exp(self**2 / 2 + y)

    def _eval_rewrite_as_PhiInv(self, y, **kwargs):
        return PhiInv(exp(y))

    def _eval_rewrite_as_erf(self, y, **kwargs):
        return sqrt(2) * erfinv(2 * exp(y) - 1)



HEADS = (Phi, PhiInv, LogPhi, PhiInvExp)


def to_erf(expr: sp.Expr) -> sp.Expr:
    """Rewrite every head into ``erf``/``erfinv``/``log`` (for symbolic proofs only)."""
    return expr.rewrite(erf)
