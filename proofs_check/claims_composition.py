"""Claims of seed 004 on composition (Su 2025, Sec. 3.3; catalog 004 Sec. 3), checked on the code
users call: ``numeric.compose_exact`` (the exact routes of ``compose fdp``) and ``numeric.pld`` (the
certified engine).

* DRS-Cor3.3: G_mu1 (x) G_mu2 = G_sqrt(mu1^2 + mu2^2).  The exact route (the Gaussian record at
  mu = sqrt(sum mu_i^2)) against the Neyman-Pearson test of the product of two normal laws computed
  by one-dimensional quadrature (no closed form of the composition used), and inside the certified
  engine's bracket for 100-fold compositions.
* KOV17:closed-form: the printed delta_i of f_{eps,delta}^(x)n (catalog 004) equals the hockey-stick
  divergence of the binomial law the exact route evaluates.
* KOV17:binomial: f_{eps,0}^(x)n = T(Bin(n, a), Bin(n, 1 - a)), a = 1/(1 + e^eps): the exact
  route's f against brute force over the 2^n outcomes of the product pair.
* Laplace^(x)k: the exact Laplace route against a one-dimensional quadrature recursion for k = 2
  (delta_2(eps) = E_P[delta_1(eps - L_1)]) and inside the engine's bracket for k = 10.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

import mpmath

from .outcomes import agreement
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome

SU = "Su (2025) seed 004, Sec. 3.3"


def _combine(parts) -> Outcome:
    for p in parts:
        if p.status is not CONFIRMED:
            return p
    worst = max(parts, key=lambda p: mpmath.mpf(p.margin or 0))
    return Outcome(CONFIRMED, margin=worst.margin, points=sum(p.points for p in parts),
                   detail="; ".join(p.detail for p in parts), worst_at=worst.worst_at)


def _bracket(rows, detail) -> Outcome:
    """CONFIRMED when every (context, exact, lower, upper) row has lower <= exact <= upper."""
    n = 0
    for context, exact, lower, upper in rows:
        n += 1
        if not lower <= exact <= upper:
            return Outcome(FAILED, detail=detail, worst_at=context,
                           counterexample={**context, "exact": mpmath.nstr(exact, 20),
                                           "lower": mpmath.nstr(lower, 20), "upper": mpmath.nstr(upper, 20)})
    return Outcome(CONFIRMED, margin="0", points=n, detail=detail)


def _mpf(v):
    return v if isinstance(v, mpmath.mpf) else mpmath.mpf(0)


# ------------------------------------------------------------------------------------- GDP


def _np_two_normals(mu1, mu2, alpha):
    """(size, beta) by quadrature of the most powerful test of N(0, I) against N((mu1, mu2), I) at level alpha.

    The test rejects where mu1 x1 + mu2 x2 > t (Neyman-Pearson: the log-likelihood ratio is linear in x).  Its
    threshold is taken where the statistic, a N(0, mu1^2 + mu2^2) variable under the null, has upper tail alpha,
    t = |mu| z_{1-alpha}; the size int phi(x) Phibar((t - mu1 x)/mu2) dx is then integrated and returned, so
    that the caller checks it equals alpha: the threshold is confirmed by the two-dimensional integral, not
    assumed.  beta = int phi(x - mu1) Phi((t - mu1 x)/mu2 - mu2) dx.  (An earlier version solved size(t) =
    alpha by secant steps, two quadratures each, for the same threshold.)"""
    norm = mpmath.sqrt(mpmath.mpf(mu1) ** 2 + mpmath.mpf(mu2) ** 2)
    t = norm * mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(alpha))
    size = mpmath.quad(lambda x: mpmath.npdf(x) * mpmath.ncdf(-(t - mu1 * x) / mu2), [-mpmath.inf, 0, mpmath.inf])
    beta = mpmath.quad(lambda x: mpmath.npdf(x - mu1) * mpmath.ncdf((t - mu1 * x) / mu2 - mu2),
                       [-mpmath.inf, mu1, mpmath.inf])
    return size, beta


@claim("DRS-Cor3.3", ("004",), SU + "; Dong, Roth, Su (2022) Cor. 3.3 (catalog 004 DRS-Cor3.3)", "identity",
       "G_mu1 (x) ... (x) G_muk = G_sqrt(mu1^2 + ... + muk^2)",
       latex=r"G_{\mu_1}\otimes\cdots\otimes G_{\mu_k}=G_{\sqrt{\mu_1^2+\cdots+\mu_k^2}}")
def _gdp_composition():
    from numeric import compose_exact as X
    from numeric import pld
    from numeric import pld_mechanisms as M

    def rows():
        for m1, m2, alpha in (("0.5", "1", "0.05"), ("0.3", "2", "0.001")):
                got = X.gdp_tradeoff([m1, m2], alpha, 20).value
                with mpmath.workdps(28):
                    size, ref = _np_two_normals(mpmath.mpf(m1), mpmath.mpf(m2), mpmath.mpf(alpha))
                    level = mpmath.mpf(alpha)
                yield {"mu1": m1, "mu2": m2, "alpha": alpha, "quantity": "size of the test (quadrature)"}, size, level
                yield {"mu1": m1, "mu2": m2, "alpha": alpha, "quantity": "beta"}, got, ref
    quad = agreement(rows(), mpmath.mpf(10) ** -18,
                     "compose_exact.gdp_tradeoff([mu1, mu2]) vs the Neyman-Pearson test of the product of "
                     "two normal laws by quadrature (28 digits), its size confirmed equal to alpha")

    def brackets():
        comp = pld.compose([(M.gaussian("0.5"), 100)])
        for alpha in ("1e-100", "0.01"):
            ex = X.gdp_tradeoff([("0.5", 100)], alpha, 20)
            r = comp.tradeoff(alpha)
            yield {"k": 100, "mu": "0.5", "alpha": alpha}, ex.complement, r.power_lower, r.power
        for eps in ("0", "10"):
            ex = _mpf(X.gdp_delta([("0.5", 100)], eps, 20).value)
            r = comp.delta(eps)
            yield {"k": 100, "mu": "0.5", "eps": eps}, ex, r.delta_lower, r.delta_upper
    engine = _bracket(brackets(), "the certified engine's bracket (numeric.pld, 100 x G_0.5) contains the exact "
                                  "G_5 power and delta")
    return _combine([quad, engine])


# ------------------------------------------------------------------------------------- KOV


def kov_printed(eps, delta, k: int, i: int):
    """The printed closed form (catalog 004 "KOV17"), written here from the catalog in plain mpmath at
    the caller's precision: delta(eps_i) of f_{eps,delta}^(x)k at eps_i = (k - 2i) eps, i <= k/2, is
    1 - (1 - delta)^k (1 - delta_i), delta_i = sum_{l<i} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1 + e^eps)^k.
    The toolkit's route (numeric.compose_exact.BinomialLaw, the hockey stick of the binomial law) never
    calls it."""
    e, d = mpmath.mpf(str(eps)), mpmath.mpf(str(delta))      # decimal strings, at the working precision
    s = mpmath.fsum(mpmath.binomial(k, l) * (mpmath.exp((k - l) * e) - mpmath.exp((k - 2 * i + l) * e))
                    for l in range(i))
    return 1 - (1 - d) ** k * (1 - s / (1 + mpmath.exp(e)) ** k)


@claim("KOV17:closed-form", ("004",), SU + "; Kairouz, Oh, Viswanath (2017) (catalog 004 KOV17)", "identity",
       "delta(eps_i) of f_{eps,delta}^(x)n at eps_i = (n - 2i) eps is "
       "1 - (1 - delta)^n (1 - sum_{l<i} C(n,l)(e^{(n-l)eps} - e^{(n-2i+l)eps}) / (1 + e^eps)^n)",
       latex=r"\delta_i=\frac{\sum_{l=0}^{i-1}\binom nl\bigl(e^{(n-l)\varepsilon}-e^{(n-2i+l)\varepsilon}\bigr)}"
             r"{(1+e^{\varepsilon})^{n}}")
def _kov_closed_form():
    from numeric import compose_exact as X

    def rows():
        for n, eps, delta in ((1, "1", "0"), (10, "0.5", "0"), (25, "0.1", "1e-6"), (7, "1.5", "0.001"),
                              (200, "0.05", "0"), (60, "2", "1e-10")):
            for i in sorted({0, 1, n // 4, n // 2}):
                with mpmath.workdps(40):
                    ref = kov_printed(eps, delta, n, i)
                e_i = str(Decimal(eps) * (n - 2 * i))          # the level, exactly
                got = X.delta("approx-dp", {"eps": eps, "delta": delta}, n, e_i, 25).value
                yield {"n": n, "eps": eps, "delta": delta, "i": i}, _mpf(got), ref
    return agreement(rows(), mpmath.mpf(10) ** -22,
                     "compose_exact.delta (hockey stick of the binomial law, non-negative terms) vs the "
                     "printed closed form at the levels eps_i (40 digits)")


def _brute_pure(eps, n, alpha):
    """beta of the most powerful test between the n-fold products of the two-point pair of f_{eps,0}
    (2^n outcomes, likelihood ratios sorted, the rejection region filled greedily)."""
    e = mpmath.exp(mpmath.mpf(eps))
    p1 = (e / (1 + e), 1 / (1 + e))          # the alternative
    q1 = (1 / (1 + e), e / (1 + e))          # the null
    pts = []
    for idx in itertools.product((0, 1), repeat=n):
        pts.append((mpmath.fprod(p1[i] for i in idx), mpmath.fprod(q1[i] for i in idx)))
    pts.sort(key=lambda pq: pq[0] / pq[1], reverse=True)
    used, power = mpmath.mpf(0), mpmath.mpf(0)
    a = mpmath.mpf(alpha)
    for p, q in pts:
        if used + q <= a:
            used, power = used + q, power + p
        else:
            return 1 - power - p * (a - used) / q
    return 1 - power


@claim("KOV17:binomial", ("004",), SU + "; Kairouz, Oh, Viswanath (2017) (catalog 004 KOV17)", "identity",
       "f_{eps,0}^(x)n = T(Bin(n, a), Bin(n, 1 - a)) with a = 1/(1 + e^eps): the Neyman-Pearson test "
       "on the count with randomisation at the boundary")
def _kov_binomial():
    from numeric import compose_exact as X

    def rows():
        for n, eps in ((3, "0.5"), (8, "0.2"), (10, "1")):
            for alpha in ("1e-20", "0.001", "0.1", "0.5", "0.9"):
                got = X.tradeoff("randomized-response", {"eps": eps}, n, alpha, 20).value
                with mpmath.workdps(40):
                    ref = _brute_pure(eps, n, alpha)
                yield {"n": n, "eps": eps, "alpha": alpha}, _mpf(got), ref
    return agreement(rows(), mpmath.mpf(10) ** -18,
                     "compose_exact.tradeoff (binomial law) vs brute force over the 2^n outcomes (40 digits)")


# ------------------------------------------------------------------------------------- Laplace


def _delta1(eps, s):
    """One Laplace(eps) step from its densities: P(L > s) - e^s Q(L > s)."""
    if s >= eps:
        return mpmath.mpf(0)
    if s < -eps:
        return -mpmath.expm1(s)
    return 1 - mpmath.exp((s - eps) / 2) / 2 - mpmath.exp(s) * mpmath.exp(-(s + eps) / 2) / 2


@claim("Laplace-composition", ("004",), SU + " (composition of Laplace steps; derived in numeric/compose_laplace.py)",
       "identity",
       "the k-fold Laplace(eps) composition's privacy loss: atoms on the lattice (2j - k) eps and a spline "
       "density between them, built in exact rational arithmetic (an exponential tilt of a symmetric measure)")
def _laplace_composition():
    from numeric import compose_exact as X
    from numeric import pld
    from numeric import pld_mechanisms as M

    def rows():
        for eps in ("0.6", "2"):
            for at in ("-0.5", "0.1", "0.6", "1.5"):
                with mpmath.workdps(40):
                    e, s = mpmath.mpf(eps), mpmath.mpf(at)
                    cuts = sorted({-e, e, min(max(s - e, -e), e), min(max(s + e, -e), e)})
                    ref = (_delta1(e, s - e) / 2 + mpmath.exp(-e) / 2 * _delta1(e, s + e)
                           + mpmath.quad(lambda l: mpmath.exp((l - e) / 2) / 4 * _delta1(e, s - l), cuts))
                got = X.delta("laplace", {"eps": eps}, 2, at, 25).value
                yield {"k": 2, "eps": eps, "at_eps": at}, _mpf(got), ref
    quad = agreement(rows(), mpmath.mpf(10) ** -22,
                     "compose_exact.delta (k = 2) vs E_P[delta_1(eps - L_1)] by quadrature of the one-step law (40 digits)")

    def brackets():
        comp = pld.compose([(M.laplace("0.1"), 10)])
        for alpha in ("1e-300", "1e-10", "0.05", "0.5"):
            ex = X.tradeoff("laplace", {"eps": "0.1"}, 10, alpha, 20)
            r = comp.tradeoff(alpha)
            yield {"k": 10, "alpha": alpha}, ex.complement, r.power_lower, r.power
        for eps in ("0", "0.5", "0.9"):
            ex = _mpf(X.delta("laplace", {"eps": "0.1"}, 10, eps, 20).value)
            r = comp.delta(eps)
            yield {"k": 10, "eps": eps}, ex, r.delta_lower, r.delta_upper
    engine = _bracket(brackets(), "the certified engine's bracket (10 x Laplace(0.1)) contains the exact values")
    return _combine([quad, engine])
