#!/usr/bin/env python
"""Independent high-accuracy reference for the privacy of DP-SGD.

DP-SGD = T-fold composition of the Poisson-subsampled Gaussian mechanism
(sampling rate q, noise multiplier sigma, sensitivity 1).  This module does NOT
use any dp-derive code (nothing from numeric/, derive/, proofs_check/); it only
needs numpy and scipy.

Directions (x ~ real line, r(x) = 1 - q + q exp((x - 1/2)/sigma^2)):
  remove: P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2),  L = log r(X), X ~ P
  add:    P = N(0,s^2), Q = (1-q) N(0,s^2) + q N(1,s^2),  L = -log r(X), X ~ P
delta_T(eps) = E[(1 - exp(eps - L_T))_+],  L_T = sum of T iid copies of L.
eps(delta) = max over the two directions.

Method: exact Laplace (Bromwich) inversion on a vertical line.
  * Identity.  g(x) = (1 - e^{eps-x})_+.  For Re z > 0
        int_eps^inf (1 - e^{eps-x}) e^{-zx} dx = e^{-z eps}/z - e^{eps} e^{-(z+1)eps}/(z+1)
                                              = e^{-z eps} / (z (z+1)).
    Bromwich inversion (g is continuous, of bounded variation, g(x)e^{-cx} in L1)
    and Fubini give, for every c > 0 with M(c) < inf,
        delta_T(eps) = (1/2 pi i) int_{c-i inf}^{c+i inf} M(z)^T e^{-z eps} / (z(z+1)) dz
                     = (1/pi) int_0^inf Re[ M(c+it)^T e^{-(c+it)eps} / ((c+it)(c+it+1)) ] dt
    with M(z) = E_P[e^{zL}] (conjugate symmetry gives the half line).
    With F(lam) = E_{X~N(0,s^2)}[ r(X)^lam ]:  remove M(z) = F(z+1), add M(z) = F(-z).
    F is entire in lam (r > 0 on the real line), so M is finite for every c > 0.
  * F(lam) is a 1-D Gaussian integral, computed with the trapezoid rule on the
    real x axis (spectrally accurate for analytic integrands; branch points of
    log r sit at Im x = pi s^2).  The window is [min(0,a) - 11 s, max(0,a) + 11 s]
    (a = Re lam; the integrand is provably < e^{-60} x max outside it), the step is
    min(0.5 s_eff, 0.3 s^2, 2 pi/(omega + 12/s_eff)) where omega = |Im lam| max p / s^2
    is the local oscillation frequency of r^lam (p = dlog r/dx * s^2 in (0,1)).
    When F = O(1) we compute F - 1 = E[r^lam - 1 - lam (r-1)] (E[r-1] = 0 exactly)
    with cancellation-free kernels (e^w - 1 - w and log(1+u) - u by series for
    small arguments) and log F = log1p(F-1): this keeps T log M(z) accurate to
    ~1e-13 absolute even for T = 10^6, where M(z) - 1 ~ 1e-6.  When F is large we
    use a log-sum-exp.  M^T = exp(T log M) (branch of log irrelevant: T integer).
  * Contour: c is the saddle point of T K(c) - c eps - log(c(c+1)), K = log M
    (found from the real saddle-point approximation), so the integrand is a
    non-oscillating bump at t = 0.  The t-integral uses the trapezoid rule with
    step h; by Poisson summation its error is EXACTLY
        sum_{k != 0} e^{2 pi k c/h} delta_T(eps + 2 pi k/h),
    the k<0 terms are <= e^{-2 pi c/h} (delta <= 1) and the k>0 terms are
    <= exp(-(2 pi/h - 2/c)^2/(2 T K''(c))) x (saddle scale) by Chernoff at a
    shifted abscissa.  We take h = min(2 pi/(7.5 sd + 2/c), 2 pi c/(log(1/delta)+30))
    (sd^2 = T K''(c)), i.e. both aliasing terms < ~1e-12 relative, and truncate
    the t-sum once a whole block of 64 terms is < 1e-17 of the sum.
  * eps(delta): the values M(z_j)^T on the grid are cached and log delta_T(eps)
    (a smooth, decreasing function of eps) is solved by a bracketing root solve
    (brentq, xtol 1e-14 relative) around the saddle-point estimate.
  * Error control: the whole computation is repeated with an independent
    configuration (contour abscissa c' = 0.8 c, t-step and x-step x 0.6, larger
    windows).  Both results are exact in exact arithmetic, so
    err = |eps - eps'| (+ 1e-13 |eps| floor) is reported as the error estimate.

  * x-contour: for Im lam = b != 0 the x-integral is taken on Im x = sign(b) y0,
    y0 = min(pi s^2/2, 1.5 s) (Cauchy; r has no zeros for |Im x| < pi s^2), which
    damps the fast oscillation of r^lam, so the x-step does not shrink with b.
  * Fallback: when |M(c+it)|^T decays too slowly (> 30000 t-nodes; e.g. a heavy
    single-step tail dominating the tilt, small q with T = 100) the contour is
    moved left (c/2, c/4, ...); still exact, the cancellation factor
    sum|terms|/delta is monitored and enters the error floor (1e-15 amp / c).

Validation (recorded when this file was written):
  (1) q = 1 vs closed form Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
      (eps solved in mpmath, 40 digits), mu = sqrt(T)/sigma:
        sigma=1,  T=100,   delta=1e-5 : 91.8172896246637   diff -4.3e-14
        sigma=5,  T=1000,  delta=1e-10: 59.5418307250869   diff +2.0e-13
        sigma=2,  T=10^4,  delta=1e-5 : 1462.2850159647921 diff +1.2e-11 (rel 8e-15)
        sigma=20, T=10^4,  delta=1e-10: 43.6629038690200   diff +7.8e-14
  (2) delta(eps) per direction vs exact T=1 closed form and T=2
      (E_{x1~P}[delta_1(eps - L(x1))], mpmath quad, 40 digits), q=0.1, sigma=1:
        remove eps=1   T=1: 2.07121486021392e-04 rel diff -7.9e-16
        remove eps=1   T=2: 5.14160429396502e-04 rel diff -1.3e-15
        add eps=0.05268 T=1: 9.46556382113572e-03 rel diff -3.7e-16
        add eps=0.05268 T=2: 2.97418460613058e-02 rel diff +1.2e-15
      (T = 1 with small q, e.g. q=0.01 sigma=0.8, is OUT OF RANGE: |M(c+it)|
      decays too slowly in t; the method targets T >~ 100.)
  (3) dp_accounting 0.6.0 PLDAccountant (pessimistic discretisation), eps at
      value_discretization_interval 1e-4 / 2e-5, minus this reference:
        q=0.004 sigma=1 T=10^4 delta=1e-5 (ref 2.182192263723): +6.7e-5 / +2.7e-6
        q=256/60000 sigma=1.1 T=14062 delta=1e-5 (ref 2.381596921424): +8.9e-5 / +3.6e-6
        q=0.01 sigma=2 T=10^4 delta=1e-10 (ref 3.373192983206): +7.0e-5 / +1.3e-4
  Known certified brackets: 2.381596921424 in [2.3815115, 2.3816386];
  q=0.004 s=1 T=1e4: 2.182192263723 in [2.18211, 2.18223];
  q=0.004 s=1 T=100: 0.270745448724 in [0.27025, 0.27097].
  Independent-configuration differences (reported err) are typically 1e-13..1e-12,
  up to ~1e-9 for fallback-contour cells (q=1e-3, sigma<=0.8, T=100, delta=1e-10).

CLI:
  python bench/dpsgd_reference.py --q Q --sigma S --T T --delta D
  python bench/dpsgd_reference.py --grid OUT.json      (resumable)
API:  eps_reference(q, sigma, T, delta) -> (eps, err)
      delta_reference(q, sigma, T, eps) -> (delta, err)
"""
import argparse
import json
import math
import os
import time

import numpy as np
from scipy.optimize import brentq

LOG2PI = math.log(2 * math.pi)
MAX_T_NODES = 30000   # t-nodes per contour before moving the contour left
KWIN = 11.0          # window half-width in units of sigma (tail < e^{-60})


class OutOfRange(Exception):
    pass


class TooManyNodes(OutOfRange):
    pass


# ----------------------------------------------------------------------------
# cancellation-free kernels
# ----------------------------------------------------------------------------
def _l1pmx(u):
    """log(1+u) - u for real u > -1, accurate also for tiny |u|."""
    u = np.asarray(u, dtype=float)
    out = np.log1p(u) - u
    return _small_l1pmx(u, out)


def _small_l1pmx(u, out):
    """``out`` with its entries at |u| < 0.05 replaced by the series of log(1+u) - u,
    -u^2/2 + u^3/3 - u^4/4 + ... up to u^14 (0.05^15/15 ~ 2e-21); real or complex u."""
    small = np.abs(u) < 0.05
    if np.any(small):
        us = u[small]
        acc = np.zeros_like(us)
        for k in range(14, 1, -1):
            acc = acc * us + ((-1.0) ** (k + 1)) / k
        out[small] = acc * us * us
    return out


_INVFACT = [1.0 / math.factorial(k) for k in range(40)]


def _em1mx(w):
    """exp(w) - 1 - w for complex w, accurate also for tiny |w|."""
    w = np.asarray(w, dtype=complex)
    out = np.exp(w) - 1.0 - w
    small = np.abs(w) < 0.5
    if np.any(small):
        ws = w[small]
        acc = np.zeros_like(ws)
        for k in range(26, 1, -1):          # 0.5^27/27! ~ 1e-36
            acc = acc * ws + _INVFACT[k]
        out[small] = acc * ws * ws
    return out


def _cexpm1(y):
    """exp(y) - 1 for complex y without cancellation."""
    y = np.asarray(y, dtype=complex)
    a, b = y.real, y.imag
    with np.errstate(over="ignore", invalid="ignore"):
        re = np.expm1(a) * np.cos(b) - 2.0 * np.sin(0.5 * b) ** 2
        im = np.exp(a) * np.sin(b)
    return re + 1j * im


def _cl1pmx(u, logr):
    """log(1+u) - u for complex u (logr = log(1+u) given)."""
    return _small_l1pmx(u, logr - u)


def _em1mx_w(w, logW, W):
    """W (e^w - 1 - w) without overflow of e^w (e^{w + log W} is formed)."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.exp(w + logW) - (1.0 + w) * W
    small = np.abs(w) < 0.5
    if np.any(small):
        ws = np.broadcast_to(w, out.shape)[small]
        acc = np.zeros_like(ws)
        for k in range(26, 1, -1):
            acc = acc * ws + _INVFACT[k]
        out[small] = acc * ws * ws * np.broadcast_to(W, out.shape)[small]
    return out


def _clog1p(d):
    """log(1+d) for complex d, accurate for tiny |d|."""
    d = np.asarray(d, dtype=complex)
    re, im = d.real, d.imag
    mod = 0.5 * np.log1p(2.0 * re + re * re + im * im)
    return mod + 1j * np.arctan2(im, 1.0 + re)


# ----------------------------------------------------------------------------
# F(lam) = E_{X ~ N(0, s^2)} [ r(X)^lam ],  r = 1 - q + q exp((x - 1/2)/s^2)
# ----------------------------------------------------------------------------
class Mixture:
    def __init__(self, q, sigma):
        if not (0 < q <= 1) or sigma <= 0:
            raise ValueError("need 0 < q <= 1, sigma > 0")
        self.q = float(q)
        self.s = float(sigma)
        self.s2 = self.s ** 2

    def _pieces(self, x):
        """u = r - 1, log r, p = q e^Y / r  (all real, stable)."""
        q, s2 = self.q, self.s2
        Y = (x - 0.5) / s2
        # log r = log(1-q + q e^Y) computed stably
        if q < 1:
            logr = np.logaddexp(math.log1p(-q), math.log(q) + Y)
        else:
            logr = Y.copy()
        u = np.expm1(logr)                      # r - 1
        # for |u| small compute u directly (more accurate than expm1(logr))
        eY1 = np.expm1(Y)
        small = logr < 0.5
        u = np.where(small, q * eY1, u)
        logr = np.where(small, np.log1p(np.where(small, u, 0.0)), logr)
        p = np.exp(math.log(q) + Y - logr) if q > 0 else np.zeros_like(Y)
        p = np.minimum(p, 1.0)
        return u, logr, p

    def _window(self, a, res=1.0):
        """coarse analysis of the real integrand phi * r^a.

        returns (xlo, xhi, logFa, s_eff, pmax, lse) where lse tells whether the
        log-sum-exp path must be used (F(a) large)."""
        s = self.s
        K = KWIN * (1.0 + 0.3 * (res - 1.0))
        lo = min(0.0, a) - K * s
        hi = max(0.0, a) + K * s
        n = int(min(2e5, max(2000, (hi - lo) / (0.05 * min(s, self.s2)))))
        x = np.linspace(lo, hi, n + 1)
        h = x[1] - x[0]
        u, logr, p = self._pieces(x)
        logphi = -0.5 * (x / s) ** 2 - 0.5 * LOG2PI - math.log(s)
        lg = logphi + a * logr
        m = lg.max()
        logFa = m + math.log(np.sum(np.exp(lg - m)) * h)
        sig = lg > m - 62.0
        lse = logFa > 2.0
        if not lse:
            sig = sig | (np.abs(x) <= K * s)
        idx = np.nonzero(sig)[0]
        xlo, xhi = x[idx[0]] - 2 * h, x[idx[-1]] + 2 * h
        # local width: curvature of log(phi r^a) is (-1 + a p(1-p))/s^2
        curv = np.max(1.0 - a * p[sig] * (1 - p[sig]))
        curv = max(curv, 1.0)
        s_eff = s / math.sqrt(curv)
        pmax = float(p[sig].max())
        return xlo, xhi, logFa, s_eff, pmax, lse

    def _cpieces(self, x, need_u):
        """complex u = r - 1 and Log r on a (shifted) complex contour."""
        q, s2 = self.q, self.s2
        Y = (x - 0.5) / s2
        em1 = _cexpm1(Y)
        if q == 1.0:
            logr = Y
            u = em1 if need_u else None
            return u, logr
        big = Y.real > 0
        with np.errstate(over="ignore", invalid="ignore"):
            lbig = math.log(q) + Y + _clog1p((1 - q) / q * np.exp(-np.where(big, Y, 0)))
            u = q * em1
            lsmall = _clog1p(np.where(big, 0, u))
        logr = np.where(big, lbig, lsmall)
        return (u if need_u else None), logr

    def logF(self, a, bs, res=1.0):
        """complex log F(a + i b) for an array of b (same real part a).

        For b != 0 the x-contour is shifted to Im x = sign(b) y0,
        y0 = min(pi s^2/2, 1.5 s): the integrand is analytic for |Im x| < pi s^2
        (r != 0 there) and Gaussian-decaying, so F is unchanged (Cauchy), while
        r^(a+ib) is damped by e^{-|b| arg r}: the fast oscillation of the tail
        region disappears and the step no longer has to shrink with |b|.
        Trapezoid error <= e^{-2 pi d/h} x (strip bound), d = y0/2."""
        bs = np.atleast_1d(np.asarray(bs, dtype=float))
        xlo, xhi, logFa, s_eff, pmax, lse = self._window(a, res)
        s = self.s
        Y0 = min(math.pi * self.s2 / 2, 1.5 * s)
        d = 0.5 * Y0
        out = np.empty(bs.shape, dtype=complex)
        order = np.argsort(np.abs(bs))
        CH = 64
        cache = {}
        for sgn in (0, 1, -1):
            idx_all = order[np.sign(bs[order]) == sgn]
            for k0 in range(0, len(idx_all), CH):
                sel = idx_all[k0:k0 + CH]
                lam = a + 1j * bs[sel]
                lmax = np.abs(lam).max()
                h = min(2 * math.pi * d / (45.0 + 0.35 * max(0.0, -a) + math.log1p(lmax)),
                        0.5 * s_eff, 0.3 * self.s2) / res
                key = (math.floor(4 * math.log2(h)), sgn)
                h = 2.0 ** (key[0] / 4.0)
                if key not in cache:
                    n = int(math.ceil((xhi - xlo) / h))
                    if n > 400000:
                        raise OutOfRange("x-quadrature needs %d nodes" % n)
                    xr = xlo + h * np.arange(n + 1)
                    x = xr + 1j * sgn * Y0
                    u, logr = self._cpieces(x, not lse)
                    logw = -0.5 * (x / s) ** 2 - 0.5 * LOG2PI - math.log(s) + math.log(h)
                    l1 = _cl1pmx(u, logr) if not lse else None
                    cache[key] = (logr, logw, l1)
                logr, logw, l1 = cache[key]
                if not lse:
                    W = np.exp(logw)
                    wl = lam[:, None] * logr[None, :]
                    D = np.sum(_em1mx_w(wl, logw[None, :], W[None, :]), axis=1) \
                        + lam * (l1 @ W)
                    with np.errstate(divide="ignore"):
                        lg = np.where(np.abs(D) < 0.5, _clog1p(D), np.log(1.0 + D))
                    # |F(lam)| < 1e-300 F(a): M^T is negligible there
                    out[sel] = np.where(np.isfinite(lg), lg, -700.0)
                else:
                    ell = logw[None, :] + lam[:, None] * logr[None, :]
                    m = ell.real.max(axis=1)
                    S = np.sum(np.exp(ell - m[:, None]), axis=1)
                    out[sel] = m + np.log(S)
        if not np.all(np.isfinite(out)):
            raise OutOfRange("non-finite log M (a=%g)" % a)
        return out

    def tilted_moments(self, a):
        """log F(a), mean and variance of log r under density ~ phi r^a."""
        xlo, xhi, logFa, s_eff, pmax, lse = self._window(a)
        h = min(0.5 * s_eff, 0.3 * self.s2) / 2
        n = int(math.ceil((xhi - xlo) / h))
        x = xlo + h * np.arange(n + 1)
        u, logr, p = self._pieces(x)
        lg = -0.5 * (x / self.s) ** 2 + a * logr
        m = lg.max()
        w = np.exp(lg - m)
        w /= w.sum()
        mu = float(np.dot(w, logr))
        var = float(np.dot(w, (logr - mu) ** 2))
        if not lse:
            logF = float(self.logF(a, [0.0])[0].real)
        else:
            logF = logFa
        return logF, mu, var


# ----------------------------------------------------------------------------
# one direction: cumulants, saddle, inversion
# ----------------------------------------------------------------------------
class Direction:
    def __init__(self, q, sigma, T, kind):
        self.mix = Mixture(q, sigma)
        self.q, self.s, self.T = float(q), float(sigma), int(T)
        self.kind = kind
        self.sgn = 1.0 if kind == "remove" else -1.0
        # sup of L_T (add direction is bounded above by T log(1/(1-q)))
        if kind == "add" and q < 1:
            self.eps_max = -self.T * math.log1p(-q)
        else:
            self.eps_max = math.inf

    def lam_re(self, c):
        return c + 1.0 if self.kind == "remove" else -c

    def logM(self, c, ts, res=1.0):
        """log M(c + i t) for array ts."""
        ts = np.asarray(ts, dtype=float)
        return self.mix.logF(self.lam_re(c), self.sgn * ts, res)

    def cumulants(self, c):
        """K(c), K'(c), K''(c) (real)."""
        logF, mu, var = self.mix.tilted_moments(self.lam_re(c))
        return logF, self.sgn * mu, var

    def saddle_for_delta(self, delta):
        """c solving the saddle-point approximation log delta_approx(c) = log delta.

        param: eps(c) = T K'(c) - 1/c - 1/(c+1);
        log d(c) = T K - c eps(c) - log(c(c+1)) - 0.5 log(2 pi V),
        V = T K'' + 1/c^2 + 1/(c+1)^2; decreasing in c."""
        T = self.T
        ld = math.log(delta)

        def f(lc):
            c = math.exp(lc)
            K, K1, K2 = self.cumulants(c)
            eps = T * K1 - 1 / c - 1 / (c + 1)
            V = T * K2 + 1 / c ** 2 + 1 / (c + 1) ** 2
            return T * K - c * eps - math.log(c * (c + 1)) - 0.5 * math.log(2 * math.pi * V) - ld, eps

        lo, hi = math.log(1e-6), math.log(1.0)
        flo = f(lo)[0]
        while flo < 0:
            lo -= 2.0
            if lo < math.log(1e-14):
                raise OutOfRange("delta too large for the saddle search")
            flo = f(lo)[0]
        fhi = f(hi)[0]
        while fhi > 0:
            hi += 1.0
            if hi > math.log(2e4):
                raise OutOfRange("contour abscissa c > 2e4 needed")
            fhi = f(hi)[0]
        lc = brentq(lambda v: f(v)[0], lo, hi, xtol=1e-6)
        c = math.exp(lc)
        return c, f(lc)[1]

    def saddle_for_eps(self, eps):
        """c minimising T K(c) - c eps - log(c(c+1)): T K'(c) = eps + 1/c + 1/(c+1)."""
        T = self.T
        if eps >= self.eps_max:
            raise OutOfRange("eps beyond sup L_T: delta = 0")

        def g(lc):
            c = math.exp(lc)
            return T * self.cumulants(c)[1] - eps - 1 / c - 1 / (c + 1)

        lo, hi = math.log(1e-6), math.log(1.0)
        while g(lo) > 0:
            lo -= 2.0
            if lo < math.log(1e-14):
                raise OutOfRange("saddle c < 1e-14")
        while g(hi) < 0:
            hi += 1.0
            if hi > math.log(2e4):
                raise OutOfRange("contour abscissa c > 2e4 needed")
        return math.exp(brentq(g, lo, hi, xtol=1e-6))

    def step_rule(self, c, eps, logdelta):
        """largest t-step h whose Poisson-summation aliasing error is < 1e-12 delta.

        k<0 terms: e^{-w c} delta(eps - w) <= e^{-w c}               (w = 2 pi/h)
        k>0 terms: e^{w c} delta(eps + w)
                   <= exp(w c + T K(c') - c'(eps + w)) c'^c'/(c'+1)^(c'+1)  for all c' > c
        (Chernoff with sup_x (1-e^-x)_+ e^{-c'x} = c'^c'/(c'+1)^(c'+1)); the
        k>=2 terms are geometrically smaller."""
        T = self.T
        need = -logdelta + 27.7
        w1 = need / c
        w2 = math.inf
        for f in np.geomspace(0.01, 30.0, 28):
            cp = c * (1.0 + f)
            try:
                K = self.cumulants(cp)[0]
            except OutOfRange:
                continue
            num = T * K - cp * eps + cp * math.log(cp) - (cp + 1) * math.log(cp + 1) + need
            w2 = min(w2, num / (cp - c))
        w = max(w1, w2)
        if not math.isfinite(w):
            raise OutOfRange("no admissible t-step")
        return 2 * math.pi / w

    def build(self, c, eps_ref, logdelta, res=1.0, max_nodes=None):
        """cache B_j = M(z_j)^T e^{-z_j eps_ref}/(z_j(z_j+1)) / e^{S0} on the t-grid."""
        T = self.T
        if max_nodes is None:
            max_nodes = MAX_T_NODES
        h = self.step_rule(c, eps_ref, logdelta) / res
        tol = 1e-17 if res == 1.0 else 1e-18
        blocks, ts_all = [], []
        S0 = None
        total = 0.0
        j0 = 0
        BL = 64
        while True:
            ts = h * np.arange(j0, j0 + BL)
            z = c + 1j * ts
            e = T * self.logM(c, ts, res) - z * eps_ref - np.log(z * (z + 1))
            if S0 is None:
                S0 = e[0].real
            B = np.exp(e - S0)
            blocks.append(B)
            ts_all.append(ts)
            wsum = np.sum(B.real) - (0.5 * B[0].real if j0 == 0 else 0.0)
            total += wsum
            j0 += BL
            if np.max(np.abs(B)) < tol * max(abs(total), 1e-300) and j0 > BL:
                break
            if j0 > max_nodes:
                raise TooManyNodes("t-integral needs > %d nodes at c = %g" % (max_nodes, c))
        B = np.concatenate(blocks)
        ts = np.concatenate(ts_all)
        wts = np.full(len(ts), h / math.pi)
        wts[0] *= 0.5
        self._cache = dict(c=c, h=h, ts=ts, z=c + 1j * ts, Bw=B * wts, S0=S0,
                           eps_ref=eps_ref)
        return self._cache

    def amplification(self, eps):
        """sum |integrand| / |integral|: cancellation factor of the t-sum."""
        C = self._cache
        terms = C["Bw"] * np.exp(-C["z"] * (eps - C["eps_ref"]))
        return float(np.sum(np.abs(terms)) / abs(np.sum(terms.real)))

    def log_delta_cached(self, eps):
        C = self._cache
        val = np.sum((C["Bw"] * np.exp(-C["z"] * (eps - C["eps_ref"]))).real)
        if not val > 0:
            return -math.inf
        return C["S0"] + math.log(val)

    # ------------------------------------------------------------------
    def _saddle_logdelta(self, c, eps):
        K, K1, K2 = self.cumulants(c)
        V = self.T * K2 + 1 / c ** 2 + 1 / (c + 1) ** 2
        return self.T * K - c * eps - math.log(c * (c + 1)) - 0.5 * math.log(2 * math.pi * V)

    def delta(self, eps, res=1.0, c_factor=1.0):
        if eps >= self.eps_max:
            return 0.0
        c = self.saddle_for_eps(eps) * c_factor
        # delta estimate for the step rule: saddle approximation, minus a margin
        lds = min(self._saddle_logdelta(c, eps), 0.0) - 3.0
        c = self._build_fallback(c, eps, lds, res)
        self.last = dict(c=c, h=self._cache["h"], nt=len(self._cache["ts"]),
                         amp=self.amplification(eps))
        return math.exp(self.log_delta_cached(eps))

    def _solve_cached(self, delta, eps0, c0):
        ld = math.log(delta)
        f = lambda e: self.log_delta_cached(e) - ld
        step0 = 0.25 / c0
        lo, hi = eps0 - step0, min(eps0 + step0, self.eps_max)
        step, k = step0, 0
        while f(lo) < 0:
            hi, lo = lo, lo - step
            step *= 2
            k += 1
            if k > 80:
                raise OutOfRange("no bracket (lo)")
        step, k = step0, 0
        while f(hi) > 0:
            lo, hi = hi, min(hi + step, self.eps_max)
            step *= 2
            k += 1
            if k > 80:
                raise OutOfRange("no bracket (hi)")
        return brentq(f, lo, hi, xtol=1e-15 * max(1.0, abs(eps0)), rtol=1e-15, maxiter=200)

    def _build_fallback(self, c, eps_ref, ld, res):
        """build at c; if the t-sum needs too many nodes (slowly decaying
        |M(c+it)|^T, e.g. a heavy single-step tail dominating the tilt), move
        the contour left (c/2, c/4, ...): still exact, at the price of some
        cancellation, which is monitored through amplification()."""
        for k in range(7):
            try:
                self.build(c, eps_ref, ld, res)
                return c
            except TooManyNodes:
                c *= 0.5
        raise OutOfRange("t-integral does not converge for any contour tried")

    def eps(self, delta, res=1.0, c_factor=1.0):
        """eps with delta_T(eps) = delta.  The contour abscissa is iterated to
        the exact saddle of the final eps, then multiplied by c_factor."""
        c, eps0 = self.saddle_for_delta(delta)
        if eps0 >= self.eps_max:
            eps0 = self.eps_max - 1.0 / c
        ld = math.log(delta)
        for it in range(6):
            cb = self._build_fallback(c, eps0, ld, res)
            e = self._solve_cached(delta, eps0, cb)
            eps0 = e
            if cb != c:           # fallback contour: keep it
                c = cb
                break
            c_new = self.saddle_for_eps(e)
            if abs(c_new / c - 1.0) < 0.02:
                break
            c = c_new
        if c_factor != 1.0:
            c = self._build_fallback(c * c_factor, eps0, ld, res)
            e = self._solve_cached(delta, eps0, c)
        self.last = dict(c=c, h=self._cache["h"], nt=len(self._cache["ts"]),
                         amp=self.amplification(e), iters=it + 1)
        if self.last["amp"] > 1e11:
            raise OutOfRange("cancellation amplification %.1e too large" % self.last["amp"])
        return e


# ----------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------
def _direction_eps(q, sigma, T, delta, kind):
    d = Direction(q, sigma, T, kind)
    e1 = d.eps(delta, res=1.0, c_factor=1.0)
    info = dict(d.last)
    d2 = Direction(q, sigma, T, kind)
    e2 = d2.eps(delta, res=1.0 / 0.6, c_factor=0.8)
    # roundoff floor: relative delta error ~ 1e-15 x amplification, and
    # d log(delta)/d eps ~ -c
    amp = max(info["amp"], d2.last["amp"])
    err = abs(e1 - e2) + 1e-13 * abs(e2) + 1e-15 * amp / min(info["c"], d2.last["c"])
    info.update(nt2=d2.last["nt"], eps_other=e1, amp2=d2.last["amp"])
    return e2, err, info


def eps_reference(q, sigma, T, delta, details=False):
    """eps(delta) of T-fold Poisson-subsampled Gaussian (max of add/remove).

    returns (eps, err) where err is the estimated absolute numerical error."""
    res = {}
    er, errr, ir = _direction_eps(q, sigma, T, delta, "remove")
    res["remove"] = (er, errr, ir)
    add_bound = -T * math.log1p(-q) if q < 1 else math.inf
    if er < add_bound:
        try:
            ea, erra, ia = _direction_eps(q, sigma, T, delta, "add")
        except OutOfRange as ex:
            # the add direction needs c > 2e4: then its eps is within 1/c of
            # its supremum; it can matter only if that is above the remove eps
            if add_bound - 1e-3 > er:
                raise
            ea, erra, ia = -math.inf, 0.0, dict(note=str(ex))
        res["add"] = (ea, erra, ia)
    else:
        res["add"] = (-math.inf, 0.0, dict(note="eps_remove >= sup L_T(add)"))
    best = max(res.values(), key=lambda v: v[0])
    eps, err = best[0], best[1]
    # if the two directions are within their errors, widen err
    other = [v for v in res.values() if v is not best][0]
    if abs(other[0] - eps) < err + other[1]:
        err = max(err, other[1])
    if details:
        return eps, err, res
    return eps, err


def delta_reference(q, sigma, T, eps):
    """delta(eps) (max of add/remove) with error estimate."""
    out = []
    for kind in ("remove", "add"):
        d = Direction(q, sigma, T, kind)
        if eps >= d.eps_max:
            out.append((0.0, 0.0))
            continue
        v1 = d.delta(eps, 1.0, 1.0)
        v2 = Direction(q, sigma, T, kind).delta(eps, 1 / 0.6, 0.8)
        out.append((v2, abs(v1 - v2) + 1e-13 * v2))
    return max(out, key=lambda v: v[0])


def delta_direction(q, sigma, T, eps, kind):
    d = Direction(q, sigma, T, kind)
    v1 = d.delta(eps, 1.0, 1.0)
    v2 = Direction(q, sigma, T, kind).delta(eps, 1 / 0.6, 0.8)
    return v2, abs(v1 - v2)


# ----------------------------------------------------------------------------
# grid
# ----------------------------------------------------------------------------
GRID_Q = [1e-3, 4e-3, 0.01, 0.1]
GRID_SIGMA = [0.6, 0.8, 1.1, 2, 5]
GRID_T = [100, 10 ** 4, 10 ** 5, 10 ** 6]
GRID_DELTA = [1e-5, 1e-10]


def cell_key(q, s, T, d):
    return "q=%g,sigma=%g,T=%d,delta=%g" % (q, s, T, d)


def run_grid(path):
    data = {}
    if os.path.exists(path):
        with open(path) as fh:
            data = json.load(fh)
    for q in GRID_Q:
        for s in GRID_SIGMA:
            for T in GRID_T:
                for dl in GRID_DELTA:
                    key = cell_key(q, s, T, dl)
                    if key in data:
                        continue
                    t0 = time.time()
                    rec = dict(q=q, sigma=s, T=T, delta=dl)
                    try:
                        eps, err, det = eps_reference(q, s, T, dl, details=True)
                        rec.update(eps=eps, err=err,
                                   eps_remove=det["remove"][0], eps_add=det["add"][0]
                                   if math.isfinite(det["add"][0]) else None)
                    except Exception as ex:   # report clearly, keep going
                        rec.update(eps=None, err=None, error="%s: %s" % (type(ex).__name__, ex))
                    rec["seconds"] = time.time() - t0
                    data[key] = rec
                    tmp = path + ".tmp"
                    with open(tmp, "w") as fh:
                        json.dump(data, fh, indent=1)
                    os.replace(tmp, path)
                    print(key, rec.get("eps"), rec.get("err"), "%.2fs" % rec["seconds"], flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    ap.add_argument("--q", type=float)
    ap.add_argument("--sigma", type=float)
    ap.add_argument("--T", type=int)
    ap.add_argument("--delta", type=float)
    ap.add_argument("--eps", type=float, help="compute delta(eps) instead")
    ap.add_argument("--grid", metavar="OUT.json")
    args = ap.parse_args(argv)
    if args.grid:
        run_grid(args.grid)
        return
    t0 = time.time()
    if args.eps is not None:
        d, err = delta_reference(args.q, args.sigma, args.T, args.eps)
        print("delta = %.12e  err ~ %.1e  (%.2fs)" % (d, err, time.time() - t0))
        return
    eps, err, det = eps_reference(args.q, args.sigma, args.T, args.delta, details=True)
    print("eps = %.12f  err ~ %.1e  (%.2fs)" % (eps, err, time.time() - t0))
    for k, v in det.items():
        print("  %-6s eps = %.12f  err ~ %.1e" % (k, v[0], v[1]))


if __name__ == "__main__":
    main()
