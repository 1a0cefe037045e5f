"""The discrete Gaussian mechanism (Canonne, Kamath, Steinke 2020; seed 004 Sec. 4.4, the 2020 US
census; catalog 004 "SU Sec. 4.4 census").

A count q(D) is released as q(D) + N_Z(0, sigma^2), Pr[X = x] proportional to exp(-x^2/(2 sigma^2))
on the integers (sensitivity 1).  Its trade-off function is T(N_Z(0, s2), N_Z(1, s2)), s2 = sigma^2:
the likelihood ratio exp((2z - 1)/(2 s2)) increases with z, so the most powerful test thresholds z
and randomises at one integer, and f is piecewise linear with a kink at every integer's level.  It
has no closed form in elementary functions; the record holds it as SymPy heads
(``DGTradeoff(alpha, s2)``, ``DGPower``, ``DGProfile(eps, s2)``) whose values are computed by the
kernels of ``numeric.discrete_gaussian`` (sums of Gaussian weights with a certified stopping rule),
so every evaluator that reads records (mp, fp, profile, posterior, tradeoff, latex) takes it.

Privacy profile (derived from the privacy loss L(z) = (2z - 1)/(2 s2)): delta(eps) =
sum_{L(z) > eps} P(z)(1 - e^{eps - L(z)}) = Pr[X > eps s2 - 1/2] - e^eps Pr[X > eps s2 + 1/2],
X ~ N_Z(0, s2) (the catalog's form; the two are compared in tests/test_discrete_gaussian.py).
zCDP: the discrete Gaussian is 1/(2 s2)-zCDP (CKS20 Prop. 5), like the continuous one.
"""

from __future__ import annotations

import sympy as sp

from .. import symbols as sy
from ..tradeoff import TradeOff, eps_prime
from . import facts as K
from ._params import bind, described

CITATION = ("Canonne, Kamath, Steinke (2020) 'The discrete Gaussian for differential privacy'; "
            "Su (2025) seed 004 Sec. 4.4 (catalog 004, census)")

class _Variance(sp.Symbol):
    """The variance sigma^2 as one symbol named sigma2.  SymPy's LaTeX reads a trailing digit as a subscript
    and printed it sigma_{2}; this prints sigma^{2}, braced, so that a power of it stays valid LaTeX."""

    def _latex(self, printer):
        return r"{\sigma^{2}}"


SIGMA2 = _Variance("sigma2", positive=True)


class _DGHead(sp.Function):
    """A value of the discrete Gaussian pair computed by ``numeric.discrete_gaussian.KERNELS[kernel]``."""

    nargs = 2
    kernel = ""
    #: no SymPy derivative: consumers that differentiate the record (derive.functionals) refuse it
    numeric_head = True


class DGTradeoff(_DGHead):
    """T(N_Z(0, s2), N_Z(1, s2))(alpha)."""
    kernel = "tradeoff"

    def _latex(self, printer):
        a, s = (printer._print(x) for x in self.args)
        return (r"T\bigl(\mathcal N_{\mathbb Z}(0,%s),\,\mathcal N_{\mathbb Z}(1,%s)\bigr)(%s)" % (s, s, a))

    @classmethod
    def eval(cls, a, s):
        if a == 0:
            return sp.S.One
        if a == 1:
            return sp.S.Zero
        return None


class DGPower(_DGHead):
    """1 - T(N_Z(0, s2), N_Z(1, s2))(alpha), computed without subtraction."""
    kernel = "power"

    def _latex(self, printer):
        a, s = (printer._print(x) for x in self.args)
        return r"1-T\bigl(\mathcal N_{\mathbb Z}(0,%s),\,\mathcal N_{\mathbb Z}(1,%s)\bigr)(%s)" % (s, s, a)

    @classmethod
    def eval(cls, a, s):
        if a == 0:
            return sp.S.Zero
        if a == 1:
            return sp.S.One
        return None


class DGProfileSlope(_DGHead):
    """d delta / d eps of the discrete Gaussian."""
    kernel = "profile_slope"

    def _latex(self, printer):
        e, s = (printer._print(x) for x in self.args)
        return r"\delta'_{\mathcal N_{\mathbb Z}(0,%s)}(%s)" % (s, e)


class DGProfile(_DGHead):
    """delta(eps) = Pr[X > eps s2 - 1/2] - e^eps Pr[X > eps s2 + 1/2], X ~ N_Z(0, s2)."""
    kernel = "profile"

    def _latex(self, printer):
        e, s = (printer._print(x) for x in self.args)
        # sigma^2 eps, the factor first (with sigma2 = 2 the product read "\varepsilon 2")
        return (r"\Pr\bigl[X>%s\,%s-\tfrac12\bigr]-e^{%s}\Pr\bigl[X>%s\,%s+\tfrac12\bigr],"
                r"\ X\sim\mathcal N_{\mathbb Z}(0,%s)" % (s, e, e, s, e, s))

    def fdiff(self, argindex=1):
        if argindex == 1:
            return DGProfileSlope(*self.args)
        raise sp.ArgumentIndexError(self, argindex)


HEADS = (DGTradeoff, DGPower, DGProfile, DGProfileSlope)


def discrete_gaussian(sigma2=None) -> TradeOff:
    """Trade-off record of the discrete Gaussian mechanism with variance parameter sigma^2 > 0."""
    s, values = bind(SIGMA2, sigma2, "sigma2")
    a = sy.alpha
    return TradeOff(
        name="discrete-gaussian", parameters=(SIGMA2,), tradeoff=DGTradeoff(a, s), power=DGPower(a, s),
        paper=DGTradeoff(a, s), domain=described(sigma2="sigma2"), citation=CITATION, values=values,
        profile=DGProfile(eps_prime, s), profile_citation=CITATION, symmetric=True, pure_eps=None,
        notes="f has no elementary closed form: evaluated by numeric.discrete_gaussian",
        facts={K.DG_SIGMA2: K.fact(s, "the trade-off function is T(N_Z(0, s2), N_Z(1, s2))"),
               K.F0: (sp.S.One, "the pair has no atom where Q = 0 (both laws charge every integer): f(0) = 1"),
               K.RHO: (sp.oo, "the likelihood ratio exp((2z - 1)/(2 sigma^2)) is unbounded in z: "
                              "(1 - f(alpha))/alpha -> oo as alpha -> 0")})
