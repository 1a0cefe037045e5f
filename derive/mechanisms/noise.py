"""Trade-off functions of symmetric log-concave location families.

For a noise CDF F that is symmetric (F(-x) = 1 - F(x)) and log-concave, the
most powerful test of F against F(. - mu) rejects for large x, and

.. math::

    f_\\mu(\\alpha) = F\\{F^{-1}(1-\\alpha) - \\mu\\}

(printed form; de Fondeville 2026, arXiv:2603.12753v1, appendix, catalog
DF-Eq-tradeoff; Dong, Roth, Su 2022).  By symmetry the stable forms are

    f(alpha) = F(-F^{-1}(alpha) - mu),    1 - f(alpha) = F(F^{-1}(alpha) + mu).

F^{-1} is derived by SymPy (``solve``) from the CDF; the composed expression is
simplified by SymPy.  Named families: ``logistic`` (F = 1/(1 + e^{-x})),
``laplace`` and ``gaussian`` (F = Phi).
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from .. import symbols as sy
from ..errors import DomainError
from ..special import Phi, PhiInv
from ..tradeoff import TradeOff
from . import facts as K
from ._params import bind, described
from .laplace import LAPLACE_CDF, LAPLACE_QUANTILE, laplace_pieces

FAMILIES = ("logistic", "laplace", "gaussian")

CITATION = ("de Fondeville (2026) arXiv:2603.12753v1, appendix (log-concave location "
            "families; catalog DF-Eq-tradeoff)")


def family_cdf(name: str) -> sp.Expr:
    """The CDF (in ``symbols.x``) of a named unit-scale family."""
    if name == "logistic":
        return 1 / (1 + sp.exp(-sy.x))
    if name == "laplace":
        return LAPLACE_CDF
    if name == "gaussian":
        return Phi(sy.x)
    raise DomainError("family", name, "one of " + ", ".join(FAMILIES))


def quantile(cdf: sp.Expr) -> sp.Expr:
    """F^{-1}(p) derived from F by ``sympy.solve`` (one real solution required)."""
    if cdf == LAPLACE_CDF:
        return LAPLACE_QUANTILE
    if cdf == Phi(sy.x):
        return PhiInv(sy.p)
    solutions = [s for s in sp.solve(sp.Eq(cdf, sy.p), sy.x) if s.is_real is not False]
    if len(solutions) != 1:
        raise DomainError("cdf", cdf, "a CDF whose quantile SymPy can solve for uniquely")
    return solutions[0]


def is_symmetric(cdf: sp.Expr) -> bool | None:
    """Whether F(-x) + F(x) = 1 is proved by SymPy (None when undecided)."""
    from ..special import to_erf
    diff = sp.simplify(to_erf(cdf.subs(sy.x, -sy.x) + cdf) - 1)
    return True if diff == 0 else None


#: points where (log F')'' is evaluated when SymPy cannot decide its sign
_PROBES = (-20, -5, -2, -1, sp.Rational(-1, 2), 0, sp.Rational(1, 2), 1, 2, 5, 20)


def is_log_concave(cdf: sp.Expr) -> bool | None:
    """True when SymPy proves (log F')'' <= 0; False when a probe point shows
    (log F')'' > 0 (a counterexample); None when neither."""
    density = sp.diff(cdf, sy.x)
    curvature = sp.simplify(sp.diff(sp.log(density), sy.x, 2))
    decided = curvature.is_nonpositive
    if decided is not None:
        return decided
    for point in _PROBES:
        value = curvature.subs(sy.x, point).evalf(30)
        if value.is_real and value > 0:
            return False
    return None


def noise(family="logistic", mu=None, *, cdf: sp.Expr | None = None) -> TradeOff:
    """Trade-off function of a symmetric log-concave location family shifted by mu >= 0.

    ``family`` names a built-in CDF; alternatively pass ``cdf``, a SymPy
    expression in ``derive.symbols.x``.  A CDF whose symmetry SymPy cannot
    prove, or which SymPy proves not log-concave, is refused (DomainError); when
    SymPy cannot decide log-concavity the record says so in ``notes``.
    """
    m, values = bind(sy.mu, mu, "mu")
    name = family if cdf is None else "custom"
    F = family_cdf(family) if cdf is None else cdf
    tradeoff, power, paper, concave = _derived(F, m)
    return TradeOff(
        name="noise", parameters=(sy.mu,), tradeoff=tradeoff, power=power, paper=paper,
        domain=described(mu="mu"), citation=CITATION + f"; family {name}", values=values,
        profile=_profile(name, m), symmetric=True, pure_eps=None,
        notes=f"family={name}; log-concavity proved by SymPy: {concave}",
        facts=_identity(name, m, tradeoff),
    )


def _profile(family: str, m):
    """The closed-form profile of a built-in family: its pair is G_mu, the Laplace or the logistic pair (the
    numerical supremum of 1 - f - e^eps alpha would miss a maximiser below alpha = e^-230259: 0 for
    G_1 at eps = 1000, where the truth is 2.8e-216937); None for a custom CDF."""
    from .exponential import logistic_profile
    from .gaussian import gdp_profile
    from .laplace import laplace_profile
    return {"gaussian": gdp_profile, "laplace": laplace_profile,
            "logistic": logistic_profile}.get(family, lambda _: None)(m)


def _identity(family: str, m, tradeoff) -> dict:
    """The built-in families are known trade-off functions: G_mu, the Laplace pair, the logistic pair
    (whose single piece SymPy integrates for the AUC); a custom CDF declares nothing."""
    if family == "gaussian":
        return {K.GDP_MU: K.fact(m, "N(0, 1) against N(mu, 1) is G_mu")}
    if family == "laplace":
        return {K.LAPLACE_EPS: K.fact(m, "the Laplace family shifted by mu is the Laplace pair with eps = mu")}
    if family == "logistic":
        return {K.LOGISTIC_SHIFT: K.fact(m, "the logistic family shifted by mu"),
                K.AUC_PIECES: K.fact(sp.Tuple(sp.Tuple(tradeoff, 0, 1)), "one piece on [0, 1]")}
    return {}


@lru_cache(maxsize=64)
def _derived(F: sp.Expr, m: sp.Expr):
    """(trade-off, power, paper form, log-concavity) of the family F shifted by m: SymPy solve and
    simplify (~0.3 s), a pure function of the two SymPy expressions, so memoised; a refused CDF
    raises DomainError (not memoised)."""
    a = sy.alpha
    if F == LAPLACE_CDF:
        tradeoff, power = laplace_pieces(m)
    else:
        if is_symmetric(F) is not True:
            raise DomainError("cdf", F, "a CDF symmetric about 0 (F(-x) = 1 - F(x))")
        Finv = quantile(F)
        tradeoff = sp.simplify(F.subs(sy.x, -Finv.subs(sy.p, a) - m))
        power = sp.simplify(F.subs(sy.x, Finv.subs(sy.p, a) + m))
    paper = F.subs(sy.x, quantile(F).subs(sy.p, 1 - a) - m)
    concave = is_log_concave(F) if F not in (LAPLACE_CDF, Phi(sy.x)) else True
    if concave is False:
        raise DomainError("cdf", F, "a log-concave CDF ((log F')'' > 0 at a probe point)")
    return tradeoff, power, paper, concave
