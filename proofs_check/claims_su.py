"""Claims of seed 004 (Su 2025) on subsampling, canonical noise, the discrete Gaussian and the
(eps, delta) trade-off function, checked on the code users call against independent forms.

* DRS-Thm4.2:Cp-hull: the explicit three-piece C_p(f) of the catalog (what ``numeric.subsampling``
  evaluates) equals min{f_p, f_p^-1}** computed by brute force (the lower convex envelope of the
  minimum on a fine grid, f_p^-1 by bisection).
* DRS-Thm4.2:Cp-symmetric: C_p(f) is symmetric, C_p(f)(C_p(f)(x)) = x.
* DRS-Thm4.2:Cp-poisson-pair: the profile of C_p(G_mu) is the hockey-stick divergence of the
  Poisson-subsampled Gaussian pair in its worse direction, integrated from the normal densities.
* AV-CND:property: the canonical noise N of ``numeric.cnd`` satisfies T(N, N + 1) = f, i.e.
  F(F^-1(1 - alpha) - 1) = f(alpha) from the CND's own CDF and quantile, against the record's f.
* SU-fixed-point: the fixed point of f_{eps,delta} is (1 - delta)/(1 + e^eps) (catalog 004).
* CKS20:DG-profile: the discrete Gaussian's profile (``numeric.discrete_gaussian`` through the record)
  against brute force over the integers with the normaliser as a Jacobi theta function.
* WGZ22-Prop3.2: delta(eps) = 1 - F_Y(eps) - e^eps (1 - F_X(eps)) for the composed pair (catalog 004,
  Prop. 3.2), evaluated with binomial tails for n-fold randomized response, against the exact route's
  hockey stick (``numeric.compose_exact``).
"""

from __future__ import annotations

import mpmath

from numeric.solvers import bisect_array

from .outcomes import agreement
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome

SU = "Su (2025) seed 004"


def _combine(parts) -> Outcome:
    from .claims_composition import _combine as combine
    return combine(parts)


# ----------------------------------------------------------------------------------- subsampling

_CP_CASES = (("gaussian", ("1",), "0.1"), ("laplace", ("1",), "0.3"), ("randomized_response", ("0.5",), "0.05"))


def _record(ctor, args):
    import derive
    return getattr(derive, ctor)(*args)


def _brute_hull(f, p, xs):
    """min{f_p, f_p^-1}** at the points xs, in float64 (the comparison tolerance is 2e-6): f_p on a
    20001-point grid, f_p^-1 by vectorised bisection on the decreasing f_p, the lower convex envelope
    of the minimum (monotone chain), linearly interpolated."""
    import numpy as np

    def fp(x):
        return p * f(x) + (1 - p) * (1 - x)
    grid = np.union1d(np.linspace(0.0, 1.0, 20001), np.asarray(xs, dtype=float))
    target = grid
    lo, hi = bisect_array(lambda mid: fp(mid) > target, np.zeros_like(grid), np.ones_like(grid), 60)
    inv = np.where(target >= fp(np.zeros(1))[0], 0.0, (lo + hi) / 2)
    ys = np.minimum(fp(grid), inv)
    hull = []
    for q in zip(grid.tolist(), ys.tolist()):
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (q[1] - y1) - (y2 - y1) * (q[0] - x1) <= 0:
                hull.pop()
            else:
                break
        hull.append(q)
    hx, hy = np.array([h[0] for h in hull]), np.array([h[1] for h in hull])
    return np.interp(np.asarray(xs, dtype=float), hx, hy).tolist()


@claim("DRS-Thm4.2:Cp-hull", ("004",), SU + ", Sec. 4.1; Dong, Roth, Su (2022) Thm 4.2 (catalog 004)", "identity",
       "C_p(f) = min{f_p, f_p^-1}** with f_p = p f + (1 - p) Id equals the explicit form f_p on [0, x*], "
       "x* + f_p(x*) - x on [x*, f_p(x*)], f_p^-1 on [f_p(x*), 1] (x* = f(x*)), for symmetric f",
       latex=r"C_p(f)=\min\{f_p,f_p^{-1}\}^{**},\quad f_p=pf+(1-p)\mathrm{Id}")
def _cp_hull():
    from numeric import fp
    from numeric import subsampling as S
    xs = ["0.001", "0.05", "0.2", "0.35", "0.5", "0.7", "0.9"]

    def rows():
        for ctor, args, p in _CP_CASES:
            rec = _record(ctor, args)
            got = [S.tradeoff(rec, p, x, 20).value for x in xs]
            ref = _brute_hull(lambda a: fp.tradeoff(rec, a), float(p), [float(x) for x in xs])
            for x, g, r in zip(xs, got, ref):
                yield {"f": f"{ctor}{args}", "p": p, "alpha": x}, g, r
    # the brute-force hull is exact on the linear pieces and within the grid's chord error elsewhere
    return agreement(rows(), mpmath.mpf("2e-6"),
                     "numeric.subsampling.tradeoff (explicit form) vs the lower convex envelope of min{f_p, f_p^-1} "
                     "on a 20001-point float grid (chord error below 1e-8)")


@claim("DRS-Thm4.2:Cp-symmetric", ("004",), SU + ", Sec. 4.1; Dong, Roth, Su (2022) Thm 4.2", "identity",
       "C_p(f) is symmetric: C_p(f)(C_p(f)(x)) = x")
def _cp_symmetric():
    from numeric import subsampling as S

    def rows():
        for ctor, args, p in _CP_CASES:
            s = S.Subsampled(_record(ctor, args), p)
            for x in ("0.01", "0.1", "0.3", "0.6", "0.8"):
                with mpmath.workdps(40):
                    xv = mpmath.mpf(x)
                    back = s.tradeoff(s.tradeoff(xv)[0])[0]
                yield {"f": f"{ctor}{args}", "p": p, "x": x}, back, xv
    return agreement(rows(), mpmath.mpf(10) ** -30, "C(C(x)) against x at 40 digits")


def _poisson_delta(mu, p, eps):
    """max of the two directions' hockey sticks of (1-p) N(0,1) + p N(mu,1) against N(0,1), from the
    normal tails at the crossing points of the monotone likelihood ratio."""
    mu, p, E = mpmath.mpf(mu), mpmath.mpf(p), mpmath.exp(mpmath.mpf(eps))
    x0 = (mpmath.log((E - (1 - p)) / p) + mu**2 / 2) / mu
    remove = (1 - p) * mpmath.ncdf(-x0) + p * mpmath.ncdf(mu - x0) - E * mpmath.ncdf(-x0)
    add = mpmath.mpf(0)
    if 1 / E > 1 - p:
        x1 = (mpmath.log((1 / E - (1 - p)) / p) + mu**2 / 2) / mu
        add = mpmath.ncdf(x1) - E * ((1 - p) * mpmath.ncdf(x1) + p * mpmath.ncdf(x1 - mu))
    return max(remove, add)


@claim("DRS-Thm4.2:Cp-poisson-pair", ("004",), SU + ", Sec. 4.1 (subsampled Gaussian; catalog 004 WGZ+22 PLLRs)",
       "identity", "delta(eps) of C_p(G_mu) equals the hockey-stick divergence of the Poisson-subsampled Gaussian "
                   "pair (1-p) N(0,1) + p N(mu,1) vs N(0,1), worse direction")
def _cp_poisson():
    import derive
    from numeric import subsampling as S

    def rows():
        for mu, p in (("1", "0.1"), ("2", "0.01"), ("0.5", "0.5")):
            for eps in ("0", "0.3", "1", "3"):
                got = S.delta(derive.gaussian(mu), p, eps, 25).value
                with mpmath.workdps(40):
                    ref = _poisson_delta(mu, p, eps)
                yield {"mu": mu, "p": p, "eps": eps}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -22, "numeric.subsampling.delta vs the normal densities' tails (40 digits)")


# ----------------------------------------------------------------------------------- CND, fixed point


@claim("AV-CND:property", ("004",), SU + ", Sec. 3.2; Awan, Vadhan (2023) (catalog 004 CND)", "identity",
       "the canonical noise N built from the fixed point of f satisfies T(N, N + 1) = f: "
       "F(F^-1(1 - alpha) - 1) = f(alpha)")
def _cnd_property():
    from numeric import cnd, mp

    def rows():
        for ctor, args in (("gaussian", ("1",)), ("randomized_response", ("1",)), ("laplace", ("0.7",))):
            rec = _record(ctor, args)
            for a in ("0.01", "0.1", "0.3", "0.45"):
                with mpmath.workdps(30):
                    one_minus = 1 - mpmath.mpf(a)
                q = cnd.quantile(rec, mpmath.nstr(one_minus, 28), 22)
                with mpmath.workdps(30):
                    x = mpmath.nstr(q - 1, 25)
                got = cnd.cdf(rec, x, 20).cdf
                yield {"f": f"{ctor}{args}", "alpha": a}, got, mp.tradeoff(rec, a, 20)
            # the identity above holds by construction for any linear middle piece; what makes F a CDF
            # (and N a canonical noise) is its continuity at +-1/2, where the recursion meets the linear
            # piece: 1 - f(F(-1/2)) = 1 - f(c) must equal F(1/2) = 1 - c, i.e. f(c) = c
            for x in ("0.5", "-0.5"):
                left = cnd.cdf(rec, x + "0000000000000000000000000001" if x.startswith("-") else
                               "0.4999999999999999999999999999", 20).cdf
                right = cnd.cdf(rec, "-0.4999999999999999999999999999" if x.startswith("-") else
                                "0.5000000000000000000000000001", 20).cdf
                yield {"f": f"{ctor}{args}", "continuity at": x}, left, right
    return agreement(rows(), mpmath.mpf(10) ** -17,
                     "the CND's CDF at its quantile(1 - alpha) - 1 (numeric.cnd) vs the record's f (numeric.mp); "
                     "F continuous across +-1/2 (1e-28 either side)")


@claim("SU-fixed-point", ("004",), SU + ", Sec. 2 (catalog 004: c = f_{eps,delta}(c))", "identity",
       "the fixed point of f_{eps,delta} is c = (1 - delta)/(1 + e^eps)")
def _fixed_point():
    import derive
    from numeric import cnd

    def rows():
        for eps, delta in (("0.5", "0"), ("1", "1e-5"), ("3", "0.1"), ("0.01", "0.5")):
            got = cnd.fixed_point(derive.approx_dp(eps, delta), 25)
            with mpmath.workdps(40):
                ref = (1 - mpmath.mpf(delta)) / (1 + mpmath.exp(mpmath.mpf(eps)))
            yield {"eps": eps, "delta": delta}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -23, "numeric.cnd.fixed_point (bisection on f) vs the printed form")


# ----------------------------------------------------------------------------------- discrete Gaussian


def _dg_brute(s2, eps, r=60):
    s2 = mpmath.mpf(s2)
    zn = mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * s2)))
    t = mpmath.exp(mpmath.mpf(eps))
    return mpmath.fsum(max((mpmath.exp(-(z - 1) ** 2 / (2 * s2)) - t * mpmath.exp(-z**2 / (2 * s2))) / zn, 0)
                       for z in range(-r, r + 2))


@claim("CKS20:DG-profile", ("004",), SU + ", Sec. 4.4 (census; catalog 004: delta(eps) = Pr[X > eps s2 - 1/2] - "
       "e^eps Pr[X > eps s2 + 1/2])", "identity",
       "the discrete Gaussian's privacy profile is Pr[X > eps sigma^2 - 1/2] - e^eps Pr[X > eps sigma^2 + 1/2], "
       "X ~ N_Z(0, sigma^2)")
def _dg_profile():
    import derive
    from numeric import discrete_gaussian as DG
    from numeric import mp

    def rows():
        for s2 in ("0.25", "1", "4"):
            rec = derive.discrete_gaussian(s2)
            for eps in ("0", "0.5", "2", "6"):
                with mpmath.workdps(45):
                    ref = _dg_brute(s2, eps)
                    printed = DG.printed_profile(mpmath.mpf(eps), mpmath.mpf(s2))
                yield {"sigma2": s2, "eps": eps, "form": "record"}, mp.profile_delta(rec, eps, 25), ref
                yield {"sigma2": s2, "eps": eps, "form": "printed"}, printed, ref
    return agreement(rows(), mpmath.mpf(10) ** -22,
                     "the record's profile and the printed form vs brute force over |z| <= 60, theta-function normaliser")


# ----------------------------------------------------------------------------------- Prop. 3.2


@claim("WGZ22-Prop3.2", ("004",), SU + ", Prop. 3.2 (Wang et al. 2022; catalog 004)", "identity",
       "delta(eps) = 1 - F_Y(eps) - e^eps (1 - F_X(eps)) with F_X, F_Y the CDFs of the summed log-likelihood "
       "ratios under the two hypotheses")
def _prop32():
    from numeric import compose_exact as X

    def rows():
        for n, e0 in ((10, "0.5"), (40, "0.2"), (7, "1.3")):
            with mpmath.workdps(40):
                e0v = mpmath.mpf(e0)
                a = 1 / (1 + mpmath.exp(e0v))
                b = 1 - a
            for eps in ("0.5", "1.5", "3"):
                with mpmath.workdps(40):
                    ev = mpmath.mpf(eps)
                    # sum of n steps of log dQ/dP in {+e0, -e0}: count K of +e0 steps; under Q K ~ Bin(n, b),
                    # under P K ~ Bin(n, a); the sum is (2K - n) e0 > eps  <=>  K > (n + eps/e0)/2
                    def tail(prob):
                        return mpmath.fsum(mpmath.binomial(n, k) * prob**k * (1 - prob)**(n - k)
                                           for k in range(n + 1) if (2 * k - n) * e0v > ev)
                    ref = tail(b) - mpmath.exp(ev) * tail(a)
                got = X.delta("randomized-response", {"eps": e0}, n, eps, 25).value
                got = got if isinstance(got, mpmath.mpf) else mpmath.mpf(0)
                yield {"n": n, "eps0": e0, "eps": eps}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -22,
                     "compose_exact.delta (hockey stick, positive terms) vs 1 - F_Y(eps) - e^eps (1 - F_X(eps)) "
                     "with binomial tails (40 digits)")


__all__ = ["CONFIRMED"]


# ----------------------------------------------------------------------------------- Eq. 4.1


@claim("SU-Eq4.1", ("004",), SU + ", Eq. 4.1 (Wang et al. 2023; catalog 004)", "inequality",
       "T(P, Q)(sum_i w_i alpha_i(t)) >= sum_i w_i T(P_i, Q_i)(alpha_i(t)) for mixtures P = sum w_i P_i, "
       "Q = sum w_i Q_i, alpha_i(t) = P_i[dQ_i/dP_i > t]; with equality for identical components",
       latex=r"T(P,Q)\Bigl(\sum_iw_i\alpha_i(t,c)\Bigr)\ge\sum_iw_i\,T(P_i,Q_i)\bigl(\alpha_i(t,c)\bigr)")
def _eq41():
    import derive
    from numeric import mixtures as MX
    from numeric import mp

    def G(m, a):
        return mp.tradeoff(derive.gaussian(mpmath.nstr(m, 30)), mpmath.nstr(a, 30), 20)

    cases = (((1, 1), (0, 0), (1, 2)), ((3, 7), (0, 3), (1, "3.5")), ((1, 1, 2), (0, -1, 2), (2, 0, "2.5")))
    worst, worst_at, n = None, None, 0
    with mpmath.workdps(20):
        for ws, a, b in cases:
            tot = sum(ws)
            mix = MX.Mixture(tuple(mpmath.mpf(w) / tot for w in ws), tuple(mpmath.mpf(x) for x in a),
                             tuple(mpmath.mpf(x) for x in b))
            for t in ("0.2", "1", "4"):
                left, right = MX.eq41_sides(mix, mpmath.mpf(t), G)
                slack = left - right
                n += 1
                if slack < -mpmath.mpf(10) ** -15:
                    return Outcome(FAILED, detail="Eq. 4.1 violated", worst_at={"mixture": str((ws, a, b)), "t": t},
                                   counterexample={"left": mpmath.nstr(left, 15), "right": mpmath.nstr(right, 15)})
                if worst is None or slack < worst:
                    worst, worst_at = slack, {"mixture": str((ws, a, b)), "t": t}
    inequality_part = Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=n, worst_at=worst_at,
                              detail="left - right >= 0 at t in {0.2, 1, 4} for three Gaussian mixtures "
                                     "(numeric.mixtures: Neyman-Pearson region of the mixture, 20 digits)")

    def rows():
        with mpmath.workdps(20):
            same = MX.Mixture((mpmath.mpf(1) / 2, mpmath.mpf(1) / 2), (0, 0), (1, 1))
            for t in ("0.5", "2"):
                left, right = MX.eq41_sides(same, mpmath.mpf(t), G)
                yield {"case": "identical components", "t": t}, left, right
            # a shared P_i = N(0, 1): the likelihood ratio of the mixture is monotone, so
            # T(P, Q)(alpha) = sum_i w_i G_{b_i}(alpha) exactly (an independent closed form)
            shared = MX.Mixture((mpmath.mpf(1) / 4, mpmath.mpf(3) / 4), (0, 0), (1, 2))
            for a in ("0.01", "0.3"):
                yield ({"case": "shared P", "alpha": a}, shared.tradeoff(mpmath.mpf(a)),
                       mpmath.mpf(1) / 4 * G(1, mpmath.mpf(a)) + mpmath.mpf(3) / 4 * G(2, mpmath.mpf(a)))
    equality_part = agreement(rows(), mpmath.mpf(10) ** -15,
                              "equality for identical components; T of a shared-P mixture = sum_i w_i G_{b_i}")
    return _combine([inequality_part, equality_part])
