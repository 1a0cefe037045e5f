"""The Neyman-Pearson membership attack: threshold, precision, recall and F_beta.

Liu, He, Chanyaswad, Wang, Mittal (2019), PoPETs 2019(3), sections 4-5 (catalog
001, ids LXM-*).  Units: Q(D') = 0, Q(D) = Delta Q = 1; the attack decides
"d_i present" when the release o exceeds the threshold theta.  For the Laplace
mechanism (scale b = 1/eps) and the Gaussian mechanism (sd sigma) the likelihood
ratio is monotone in o, so thresholding o is the NP test and

    recall    = RSR = 1 - f(alpha)            (the record's power)
    precision = RSR / (RSR + w GSR)           (LXM-Eq9-11, Eq. 17, Eq. 23)

with GSR = alpha and w = 1 - rho_eff (w = 1 without auxiliary information).
The weighted harmonic mean (LXM-Fbeta) becomes, with R = 1 - f(alpha),

    F_beta(alpha) = (1 + beta^2) R / (R + w alpha + beta^2),
    1 - F_beta(alpha) = (w alpha + beta^2 f(alpha)) / (R + w alpha + beta^2),

the second without subtraction.  ``laplace_fscore_optimum`` derives the
maximum over alpha with SymPy from the three pieces of the Laplace trade-off
(stationary point on the middle piece, endpoint alpha = 1 otherwise); the claim
LXM-Eq12 compares it with the printed Eq. 12 / Eq. 24.
"""

from __future__ import annotations

import sympy as sp

from . import symbols as sy
from .errors import DomainError
from .exact import parse
from .mechanisms.laplace import laplace_pieces
from .special import PhiInv
from .tradeoff import TradeOff

#: F-score weight (beta > 0) and the prior weight w = 1 - rho_eff in (0, 1]
beta = sp.Symbol("beta", positive=True)
w = sp.Symbol("w", positive=True)

CITATION = "Liu, He, Chanyaswad, Wang, Mittal (2019) PoPETs, sections 4-5 (catalog 001)"


def prior_weight(rho_p="0", rho_c="0", rho_t="0") -> sp.Rational:
    """w = 1 - rho_eff = (2 - rho_p)(1 - rho_c)(1 - rho_t) - 1 (catalog LXM-weff).

    rho_p in [0, 1] (prior), rho_c in [0, 1) (record correlation), rho_t in [0, 1)
    (temporal correlation), and the product must exceed 1 so that 0 < w <= 1
    (LXM-Eq23: a non-positive w would make the precision formula meaningless).
    """
    p = parse("rho_p", rho_p, 0, 1)
    c = parse("rho_c", rho_c, 0, 1, high_open=True)
    t = parse("rho_t", rho_t, 0, 1, high_open=True)
    weight = (2 - p) * (1 - c) * (1 - t) - 1
    if weight <= 0:
        raise DomainError("rho_p, rho_c, rho_t", f"({rho_p}, {rho_c}, {rho_t})",
                          "such that (2 - rho_p)(1 - rho_c)(1 - rho_t) > 1 (w = 1 - rho_eff > 0)")
    return weight


def precision(record: TradeOff) -> sp.Expr:
    """precision(alpha) = R / (R + w alpha), R = 1 - f(alpha)."""
    r = record.power
    return r / (r + w * sy.alpha)


def one_minus_precision(record: TradeOff) -> sp.Expr:
    return w * sy.alpha / (record.power + w * sy.alpha)


def fscore(record: TradeOff) -> sp.Expr:
    """F_beta(alpha) = (1 + beta^2) R / (R + w alpha + beta^2)."""
    r = record.power
    return (1 + beta**2) * r / (r + w * sy.alpha + beta**2)


def one_minus_fscore(record: TradeOff) -> sp.Expr:
    """1 - F_beta(alpha) = (w alpha + beta^2 f(alpha)) / (R + w alpha + beta^2)."""
    return (w * sy.alpha + beta**2 * record.tradeoff) / (record.power + w * sy.alpha + beta**2)


def laplace_threshold(e) -> sp.Expr:
    """theta(alpha) = F^{-1}(1 - alpha)/eps for Laplace noise of scale 1/eps (LXM-Thm3, Eq. 6)."""
    a = sy.alpha
    return sp.Piecewise((-sp.log(2 * a) / e, a <= sp.S.Half), (sp.log(2 - 2 * a) / e, True))


def gaussian_threshold(sigma) -> sp.Expr:
    """theta(alpha) = sigma Phi^{-1}(1 - alpha) = -sigma Phi^{-1}(alpha) (LXM-Thm6)."""
    return -sigma * PhiInv(sy.alpha)


def laplace_fscore_optimum():
    """Derive max_alpha F_beta for the Laplace mechanism with SymPy.

    Returns a dict with the interior stationary point alpha*, the interior
    value, the endpoint (alpha = 1) value, the branch point tau solving
    alpha* = 1/2, and the assembled Piecewise F*(eps, beta, w).
    """
    e, a = sy.eps, sy.alpha
    _, power = laplace_pieces(e)
    middle = power.args[1][0]                      # 1 - e^-eps / (4 alpha)
    f_mid = (1 + beta**2) * middle / (middle + w * a + beta**2)
    stationary = sp.solve(sp.numer(sp.together(sp.diff(f_mid, a))), a)
    positive = [s for s in stationary if sp.simplify(s.subs({e: 1, beta: 1, w: 1})).is_positive]
    (alpha_star,) = positive
    interior = sp.simplify(f_mid.subs(a, alpha_star))
    endpoint = sp.simplify(((1 + beta**2) * 1 / (1 + w + beta**2)))
    tau = sp.solve(sp.Eq(alpha_star, sp.S.Half), e)
    (tau,) = [t for t in tau if t.is_real is not False]
    optimum = sp.Piecewise((endpoint, e < tau), (interior, True))
    return {"alpha_star": sp.simplify(alpha_star), "interior": interior, "endpoint": endpoint,
            "tau": sp.simplify(tau), "optimum": optimum}


def turning_point() -> sp.Expr:
    """tau = log(1 + beta^2/w): F*_beta is flat (the plateau) for eps < tau (Eq. 24)."""
    return sp.log(1 + beta**2 / w)


def _s():
    return sp.sqrt(1 + 4 * beta**2 * sp.exp(sy.eps) / w)


def printed_alpha_star() -> sp.Expr:
    """The maximising level GSR* = beta^2/(w (s - 1)), s = sqrt(1 + 4 beta^2 e^eps / w)
    (catalog LXM-Eq12-argmax, w = 1 there); claim LXM-Eq24 checks it against SymPy's alpha*."""
    return beta**2 / (w * (_s() - 1))


def printed_eq24():
    """F*_beta as printed: Eq. 24 (Eq. 12 at w = 1), catalog LXM-Eq24."""
    s, tau = _s(), turning_point()
    return sp.Piecewise(((1 + beta**2) / (1 + beta**2 + w), sy.eps < tau),
                        ((1 + beta**2) * (s - 1) / ((1 + beta**2) * s - 1 + beta**2), True))


def printed_eq24_complement():
    """1 - F*_beta without subtraction (catalog notes: 2 beta^2 / ((1+beta^2) s - 1 + beta^2))."""
    e = sy.eps
    s, tau = _s(), turning_point()
    return sp.Piecewise((w / (1 + beta**2 + w), e < tau),
                        (2 * beta**2 / ((1 + beta**2) * s - 1 + beta**2), True))


#: the F-score bound F of the inverse problem
bound = sp.Symbol("F", positive=True)


def printed_inverse():
    """eps_max(F) = log(w (s_F^2 - 1) / (4 beta^2)), s_F = (1+b^2 - F(1-b^2))/((1+b^2)(1-F))
    (catalog LXM-Eq12-inv; valid for (1+beta^2)/(1+beta^2+w) <= F < 1)."""
    s_f = (1 + beta**2 - bound * (1 - beta**2)) / ((1 + beta**2) * (1 - bound))
    return sp.log(w * (s_f**2 - 1) / (4 * beta**2))


def derive_inverse():
    """Solve interior F*(eps) = F for eps with SymPy (through s = sqrt(1 + 4 b^2 e^eps / w))."""
    s = sp.Symbol("s", positive=True)
    interior_in_s = (1 + beta**2) * (s - 1) / ((1 + beta**2) * s - 1 + beta**2)
    (s_of_f,) = sp.solve(sp.Eq(interior_in_s, bound), s)
    return sp.simplify(sp.log(w * (s_of_f**2 - 1) / (4 * beta**2)))


#: the released value o (units of Delta Q above Q(D')) and the recall r of a PR curve
o = sp.Symbol("o", real=True)
recall = sp.Symbol("r", positive=True)


def laplace_likelihood_ratio(e) -> sp.Expr:
    """Lambda(o) = p_D(o)/p_D'(o) for Laplace noise of scale 1/eps (LXM-Eq7): e^eps above 1,
    e^{eps(2o - 1)} in between, e^-eps below 0; non-decreasing in o, so thresholding o is NP."""
    return sp.Piecewise((sp.exp(e), o > 1), (sp.exp(e * (2 * o - 1)), o >= 0), (sp.exp(-e), True))


def gaussian_likelihood_ratio(sigma) -> sp.Expr:
    """Lambda(o) = exp((2o - 1)/(2 sigma^2)) for Gaussian noise of sd sigma (LXM-Eq29)."""
    return sp.exp((2 * o - 1) / (2 * sigma**2))


def pr_curve(record: TradeOff) -> sp.Expr:
    """precision as a function of recall r for a symmetric record:
    the NP level at recall r is f^{-1}(1 - r) = f(1 - r), so precision = r / (r + w f(1 - r))."""
    if not record.symmetric:
        raise DomainError("record", record.name, "a symmetric trade-off function (f^{-1} = f)")
    return recall / (recall + w * record.f.xreplace({sy.alpha: 1 - recall}))
