"""An independent route to the tails of Laplace^(x)k, for the tests of ``numeric.compose_laplace``.

This was the library's exact Laplace route before the spline (numeric/compose_laplace.py) replaced
it; it decomposes differently and so serves as a reference: with P = Lap(eps, 1), Q = Lap(0, 1)
one step's loss is L = clamp(2x - eps, -eps, eps), x ~ Q: -eps (Q-mass 1/2), +eps (Q-mass
e^{-eps}/2), and 2x - eps with x of density e^{-x}/2 on (0, eps).  Given that n+ steps sit at +eps,
n- at -eps and m in the middle, L = (n+ - n-) eps - m eps + 2T with T the sum of m truncated
exponentials, and the box integrals of e^{-sum} are Irwin-Hall sums of incomplete gamma functions:
    int_{(0,eps)^m, sum < tau} e^{-sum} = sum_{j eps < tau} (-1)^j C(m,j) e^{-j eps} P(m, tau - j eps),
    int_{(0,eps)^m, sum > tau} e^{-sum} = e^{-m eps} sum_{j eps < tau'} (-1)^j C(m,j) e^{j eps} E(m, tau' - j eps),
with tau' = m eps - tau, P the regularised lower incomplete gamma and
E(m, x) = int_0^x e^u u^{m-1}/(m-1)! du.  Under P the law is the mirror image.

Its alternating sums cancel: it is O(k^3) incomplete gammas per tail, and at a fixed working
precision it loses digits when k eps is large (at eps = 100, k = 2 and 30 digits it gives
Q(L > 0) = 1.86e-44; at 60 digits the true 9.39e-43; in the library ``verified`` raised the
precision until two runs agreed, at a cost).  The tests run it at 60 digits with k eps <= 10.
"""

from __future__ import annotations

import mpmath
import sympy as sp


def _lower_gamma_reg(m, x):
    """P(m, x), the regularised lower incomplete gamma, integer m >= 1, x >= 0."""
    if x <= 0:
        return mpmath.mpf(0)
    return mpmath.gammainc(m, 0, x, regularized=True)


def _E(m, x):
    """int_0^x e^u u^{m-1}/(m-1)! du = sum_{n>=0} x^{m+n} / (n! (m-1)! (m+n)) (positive series)."""
    if x <= 0:
        return mpmath.mpf(0)
    if x > 4 * m + 40:
        # E(m, x) = (-1)^m (1 - e^x sum_{r<m} (-x)^r / r!); for x >> m the r = m - 1 term dominates
        # and the sum has one sign, so this closed form cancels little (the series would need ~x terms)
        s = mpmath.fsum((-x) ** r / mpmath.factorial(r) for r in range(m))
        return (-1) ** m * (1 - mpmath.exp(x) * s)
    term = x**m / mpmath.factorial(m - 1)          # n = 0 without the 1/(m+n)
    total = term / m
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    n = 0
    while True:
        n += 1
        term = term * x / n
        add = term / (m + n)
        total += add
        r = x / (n + 1)
        if r < mpmath.mpf(1) / 2 and add * 2 < tiny * total:
            return total


class IrwinHallLaplace:
    """L = sum of k Laplace(eps) steps' losses (tails only); formulas in the module docstring."""

    def __init__(self, eps: sp.Rational, k: int):
        self.k = k
        self.e = mpmath.mpf(int(sp.Rational(eps).p)) / int(sp.Rational(eps).q)
        e = self.e
        self.box = -mpmath.expm1(-e)                # int_0^eps e^{-x} dx
        # (n+, n-, m) -> Q-weight of that configuration (without the box integral)
        half = mpmath.mpf(1) / 2
        self.cfg = []
        for m in range(k + 1):
            for n_plus in range(k - m + 1):
                n_minus = k - m - n_plus
                w = (mpmath.factorial(k) / (mpmath.factorial(n_plus) * mpmath.factorial(n_minus)
                                            * mpmath.factorial(m))
                     * mpmath.exp(-n_plus * e) * half**k)
                self.cfg.append((n_plus - n_minus, m, w))

    def _box_below(self, m, tau):
        """int_{(0,eps)^m, sum < tau} e^{-sum}."""
        e = self.e
        if tau <= 0:
            return mpmath.mpf(0)
        if tau >= m * e:
            return self.box**m
        if 2 * tau > m * e:
            return self.box**m - self._box_above(m, tau)
        return mpmath.fsum((-1)**j * mpmath.binomial(m, j) * mpmath.exp(-j * e) * _lower_gamma_reg(m, tau - j * e)
                           for j in range(m + 1) if j * e < tau)

    def _box_above(self, m, tau):
        """int_{(0,eps)^m, sum > tau} e^{-sum} = e^{-m eps} int_{sum y < m eps - tau} e^{sum y}."""
        e = self.e
        if tau >= m * e:
            return mpmath.mpf(0)
        if tau <= 0:
            return self.box**m
        if 2 * tau <= m * e:
            return self.box**m - self._box_below(m, tau)
        tp = m * e - tau
        return mpmath.exp(-m * e) * mpmath.fsum((-1)**j * mpmath.binomial(m, j) * mpmath.exp(j * e) * _E(m, tp - j * e)
                                                for j in range(m + 1) if j * e < tp)

    def _tau(self, t, d, m):
        return (t - d * self.e + m * self.e) / 2

    def q_above(self, t):
        total = []
        for d, m, w in self.cfg:
            if m == 0:
                if d * self.e > t:
                    total.append(w)
                continue
            total.append(w * self._box_above(m, self._tau(t, d, m)))
        return mpmath.fsum(total)

    def q_below(self, t):
        total = []
        for d, m, w in self.cfg:
            if m == 0:
                if d * self.e < t:
                    total.append(w)
                continue
            total.append(w * self._box_below(m, self._tau(t, d, m)))
        return mpmath.fsum(total)

    # under P the law is the mirror image: P(L > t) = Q(L < -t)
    def p_above(self, t):
        if t == mpmath.inf:
            return mpmath.mpf(0)
        return self.q_below(-t)

    def p_below(self, t):
        if t == mpmath.inf:
            return mpmath.mpf(1)
        return self.q_above(-t)
