"""Trade-off functions of mixtures and the inequality of Eq. 4.1 (issue #12 item 5; seed 004 Sec. 4,
Wang et al. 2023 (WSY+23), catalog 004 "SU Eq. 4.1").

A mixture pair is P = sum_i w_i P_i, Q = sum_i w_i Q_i with Gaussian location components
P_i = N(a_i, 1), Q_i = N(b_i, 1) (so T(P_i, Q_i) = G_{|b_i - a_i|}).  The likelihood ratio q/p of the
mixture need not be monotone, so the Neyman-Pearson rejection region {x : q(x) > t p(x)} can be a
union of intervals: its end points are the sign changes of q - t p, located on a grid that covers
every component's mass to the working precision and refined by bisection.  The curve is traced by
the level t: alpha(t) = P(region), beta(t) = 1 - Q(region) = Q(complement), both as sums of normal
CDF differences (the complement is summed directly, no 1 - x near 1).

Eq. 4.1: for t >= 0 (no atoms here, so c does not matter),

    T(P, Q)(sum_i w_i alpha_i(t)) >= sum_i w_i T(P_i, Q_i)(alpha_i(t)),
    alpha_i(t) = P_i[dQ_i/dP_i > t] = Phibar(m_i / 2 + log(t)/m_i) for m_i = b_i - a_i > 0

(``eq41_sides``).  Equality holds when every component has the same likelihood-ratio ordering in x
and the same level sets, e.g. identical components; the claim SU-Eq4.1 checks both.

All functions work at the ambient mpmath precision (``verified`` wraps them in the claims).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from .solvers import crossing


@dataclass(frozen=True)
class Mixture:
    """sum_i w_i N(a_i, 1) against sum_i w_i N(b_i, 1); weights positive, summing to 1."""
    weights: tuple
    a: tuple
    b: tuple

    def _mp(self, xs):
        return [mpmath.mpf(x) for x in xs]

    def p(self, x):
        return mpmath.fsum(w * mpmath.npdf(x - a) for w, a in zip(self._mp(self.weights), self._mp(self.a)))

    def q(self, x):
        return mpmath.fsum(w * mpmath.npdf(x - b) for w, b in zip(self._mp(self.weights), self._mp(self.b)))

    def _span(self):
        c = self._mp(self.a) + self._mp(self.b)
        # beyond +-R of every mean the normal mass is below 2^-(prec + 10)
        r = mpmath.sqrt(2 * (mpmath.mp.prec + 10) * mpmath.log(2)) + 1
        return min(c) - r, max(c) + r

    def region(self, t, points: int = 20001):
        """The intervals where q > t p.  The sign changes of q - t p are located on a float grid of the
        log-ratio (finite everywhere, so the tails are seen too) and refined by bisection at the working
        precision; a pair of sign changes closer than the grid step (a sliver of mass below ~1e-9) could
        be missed, which the claims' second precision would not reveal: the grid is fine for that reason."""
        import numpy as np
        lo, hi = self._span()
        xs = np.linspace(float(lo), float(hi), points)
        w = np.array([float(x) for x in self.weights])
        a_ = np.array([float(x) for x in self.a])[:, None]
        b_ = np.array([float(x) for x in self.b])[:, None]
        # log q - log p - log t, by log-sum-exp over the components
        lq = np.logaddexp.reduce(np.log(w)[:, None] - (xs - b_) ** 2 / 2, axis=0)
        lp = np.logaddexp.reduce(np.log(w)[:, None] - (xs - a_) ** 2 / 2, axis=0)
        sign = (lq - lp - float(mpmath.log(t))) > 0

        log_t = mpmath.log(t)

        def g(x):                                      # log q - log p - log t at the working precision
            return mpmath.log(self.q(x)) - mpmath.log(self.p(x)) - log_t
        cuts = []
        for i in np.nonzero(sign[1:] != sign[:-1])[0].tolist():
            cuts.append(crossing(g, mpmath.mpf(xs[i]), mpmath.mpf(xs[i + 1]), bool(sign[i])))
        inside = bool(sign[0])
        edges = [mpmath.ninf] + cuts + [mpmath.inf]
        out = []
        for left, right in zip(edges, edges[1:]):
            if inside:
                out.append((left, right))
            inside = not inside
        return out

    def _mass(self, centers, intervals):
        """sum_i w_i N(c_i, 1)(intervals); an interval right of c_i is measured with upper tails, so a
        far-tail interval is not the difference of two numbers near 1."""
        w = self._mp(self.weights)

        def piece(c, l, r):
            if l - c > 0:
                return mpmath.ncdf(-(l - c)) - mpmath.ncdf(-(r - c))
            return mpmath.ncdf(r - c) - mpmath.ncdf(l - c)
        return mpmath.fsum(wi * piece(c, l, r) for wi, c in zip(w, self._mp(centers)) for l, r in intervals)

    def level(self, t):
        """(alpha, beta) of the Neyman-Pearson test at level t: alpha = P(q > t p), beta = Q(q <= t p)."""
        reg = self.region(t)
        comp, prev = [], mpmath.ninf
        for l, r in reg:
            if l > prev:
                comp.append((prev, l))
            prev = r
        if prev < mpmath.inf:
            comp.append((prev, mpmath.inf))
        return self._mass(self.a, reg), self._mass(self.b, comp)

    def tradeoff(self, alpha):
        """T(P, Q)(alpha): the level t with P(q > t p) = alpha (decreasing in t; a few bisections in log t,
        then the Anderson-Bjorck method), then beta there."""
        from .compose_exact import _solve_decreasing
        alpha = mpmath.mpf(alpha)
        log_t = _solve_decreasing(lambda u: self.level(mpmath.exp(u))[0], alpha, mpmath.mpf(-60), mpmath.mpf(60))
        return self.level(mpmath.exp(log_t))[1]


def component_alpha(a, b, t):
    """alpha_i(t) = P_i[dQ_i/dP_i > t] for P_i = N(a, 1), Q_i = N(b, 1), b > a: the likelihood ratio
    exp(m (x - (a + b)/2)) exceeds t beyond x_t = (a + b)/2 + log(t)/m, m = b - a."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    m = b - a
    return mpmath.ncdf(-(m / 2 + mpmath.log(t) / m))


def eq41_sides(mix: Mixture, t, component_tradeoff):
    """(left, right) of Eq. 4.1 at level t; ``component_tradeoff(m, alpha)`` is G_m(alpha) (the caller
    passes the toolkit's record evaluator)."""
    w = [mpmath.mpf(x) for x in mix.weights]
    alphas = [component_alpha(a, b, t) for a, b in zip(mix.a, mix.b)]
    left = mix.tradeoff(mpmath.fsum(wi * ai for wi, ai in zip(w, alphas)))
    right = mpmath.fsum(wi * component_tradeoff(mpmath.mpf(b) - mpmath.mpf(a), ai)
                        for wi, a, b, ai in zip(w, mix.a, mix.b, alphas))
    return left, right
