"""The alpha grid of numerical confirmations and the parameter sets per mechanism.

The grid reaches alpha = 1e-1000 and alpha = 1 - 1e-10; every value on it is
evaluated by ``numeric.mp`` with verified digits.
"""

from __future__ import annotations

import mpmath

import derive
from numeric.solvers import bisect, golden_max, newton

ALPHA_GRID = ("0", "1e-1000", "1e-300", "1e-100", "1e-30", "1e-10", "1e-5", "0.001", "0.01",
              "0.05", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "0.99",
              "0.99999", "0.9999999999", "1")
#: digits verified for every grid value
DIGITS = 30


#: (group, label, constructor name in ``derive``, arguments) of every mechanism case; the records
#: are built when a check runs (``mechanism_cases``), so a claim sees the constructor as it is then
#: (tests/test_checker_mutations.py replaces constructors to show that the claims catch the change)
CASE_SPECS = (
    *[("gaussian", f"gaussian(mu={mu})", "gaussian", (mu,)) for mu in ("0", "0.5", "1", "5")],
    *[("laplace", f"laplace(eps={eps})", "laplace", (eps,)) for eps in ("0", "0.1", "1", "5")],
    *[("approx-dp", f"approx-dp(eps={eps}, delta={delta})", "approx_dp", (eps, delta))
      for eps, delta in (("1", "1e-5"), ("0.5", "0"), ("3", "0.1"))],
    *[(f"uniform-sampling:{nb}", f"uniform-sampling(mu={mu}, n={n}, {nb})", "uniform_sampling", (mu, n, nb))
      for mu, n in (("1", "5"), ("2.5", "1"), ("0.1", "5")) for nb in ("replacement", "add-remove")],
    *[("randomized-response", f"randomized-response(eps={eps})", "randomized_response", (eps,))
      for eps in ("0.5", "2")],
    *[("classical-gaussian", f"classical-gaussian(eps={eps}, delta={delta})", "classical_gaussian", (eps, delta))
      for eps, delta in (("0.5", "1e-5"), ("1", "1e-10"))],
    *[("noise", f"noise(logistic, mu={mu})", "noise", ("logistic", mu)) for mu in ("0.5", "2")],
)
#: the groups in report order (one claim per group and family)
GROUPS = tuple(dict.fromkeys(g for g, *_ in CASE_SPECS))


def mechanism_cases(group: str | None = None):
    """(label, record) for every constructor over a spread of parameters (one group if given)."""
    return [(label, getattr(derive, ctor)(*args)) for g, label, ctor, args in CASE_SPECS
            if group is None or g == group]


# ------------------------------------------------------------ independent references
# Plain mpmath, written here from the textbook definitions of the distributions: nothing of
# derive/ or numeric/ is used, so a claim can compare the toolkit's public path with these.
# Every function works at the caller's precision (call it inside ``mpmath.workdps``).

def normal_sf(x):
    """P(Z > x) for Z ~ N(0, 1), as erfc(x / sqrt 2) / 2 (no subtraction)."""
    return mpmath.erfc(x / mpmath.sqrt(2)) / 2


def normal_cdf(x):
    """P(Z <= x) = erfc(-x / sqrt 2) / 2."""
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def normal_isf(p):
    """z with P(Z > z) = p, 0 < p < 1: bisection on log P(Z > z), then Newton steps.

    For p > 1/2 it uses the symmetry z(p) = -z(1 - p), with 1 - p formed at the caller's
    precision (pass p with enough digits when p is within 10^-k of 1).
    """
    p = mpmath.mpf(p)
    if p > mpmath.mpf(1) / 2:
        return -normal_isf(1 - p)
    if p == mpmath.mpf(1) / 2:
        return mpmath.mpf(0)
    target = mpmath.log(p)
    lo, hi = mpmath.mpf(0), mpmath.sqrt(-2 * target) + 1   # P(Z > hi) < e^{-hi^2/2} < p
    # a bracket of width < hi/2^16, then Newton (monotone from either side)
    lo, hi = bisect(lambda z: mpmath.log(normal_sf(z)) > target, lo, hi, steps=16)

    def step(z):          # Newton on log P(Z > z) - log p; derivative -phi(z)/P(Z > z)
        sf = normal_sf(z)
        return -((mpmath.log(sf) - target) * sf / mpmath.npdf(z))
    return newton(step, (lo + hi) / 2, mpmath.eps * 4, steps=40, polish=False, strict=False)


def laplace_cdf(x, loc=0, scale=1):
    """P(L <= x) for L ~ Laplace(loc, scale)."""
    u = (x - loc) / scale
    return mpmath.exp(u) / 2 if u < 0 else 1 - mpmath.exp(-u) / 2


def laplace_sf(x, loc=0, scale=1):
    """P(L > x) for L ~ Laplace(loc, scale) (the small side without subtraction)."""
    u = (x - loc) / scale
    return mpmath.exp(-u) / 2 if u >= 0 else 1 - mpmath.exp(u) / 2


def brute_max(h, lo, hi, grid: int = 200, iterations: int = 400, smooth: bool = False):
    """max of h on [lo, hi]: an even grid, then golden-section refinement around the best point
    (enough for a function with one peak on the grid's scale).  Returns (argmax, max).

    The bracket is narrowed to the working precision, or with ``smooth`` (a maximum where h is
    twice differentiable) to its square root: the value is then off by about the precision."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    xs = [lo + (hi - lo) * k / grid for k in range(grid + 1)]
    vs = [h(x) for x in xs]
    k = max(range(grid + 1), key=lambda i: vs[i])
    a, b = xs[max(k - 1, 0)], xs[min(k + 1, grid)]
    refined = golden_max(h, a, b, iterations, rel_tol=(mpmath.sqrt(mpmath.eps) if smooth else mpmath.eps) * 16)
    return max(((xs[k], vs[k]), refined), key=lambda t: t[1])
