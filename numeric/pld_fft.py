"""Composition of step measures by FFT with exponential tilting, and the certified delta bounds
read off it on the grid.

What is here: the tilt of a step measure (``_tilt``), the Chernoff bounds on the mass beyond a
point (``Chernoff``), ``compose_fft`` (tilting ``_tilted_parts``, the window ``_window``, the
transforms and powers with their error bound ``_convolve``, the +inf atom and finite mass
``_inf_and_total``) returning a :class:`Composed`, and ``grid_bounds`` (log bounds on delta at
every grid point of the window).  The float constants of the argument live here: ``A1`` and
``LOGSLACK`` (assumption A1), ``TW`` and ``FFT_SAFETY`` (assumption A2), ``MAX_WINDOW`` and
``TINY_NORMAL``.

Every error term is listed and justified in ``numeric.pld``'s docstring ("Composition (FFT with
exponential tilting)" and the assumptions A1, A2); ``numeric.pld_discretise`` makes the step
measures, ``numeric.pld`` is the API that reads the bounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from derive.errors import DomainError

from . import pld_mechanisms as M
from .pld_discretise import StepMeasure, U

A1 = 1e-12          # relative slack for numpy exp/log (assumption A1)
LOGSLACK = 1e-9     # relative slack on the final values (log-space float arithmetic)
TW = 1e-15          # twiddle error (assumption A2)
FFT_SAFETY = 10.0
#: largest FFT window (grid points): 2^24 complex128 values are 256 MiB per array; the peak of the
#: DP-SGD query at delta = 1e-300 (which needs 2^24) is recorded in BENCHMARKS.md
MAX_WINDOW = 1 << 24
#: below this a float64 value may be subnormal (relative precision lost): not trusted as a bound
TINY_NORMAL = 1e-290


# ----------------------------------------------------------------------------------------------
# composition by FFT with tilting


@dataclass
class Composed:
    """Certified representation of one direction's composition near a tilt."""
    W0: int                    # grid index of y[0]
    y: np.ndarray
    E_out: float               # ||y_computed - y_circular||_2 bound
    C: float                   # log scale: composed measure = e^{C - lam l} y(l)
    lam: float
    h: float
    log_above: float           # log of the mass of (exact) y above the window
    log_alias: float           # log of the mass of (exact) y outside the window
    log_inf: float             # log P(some step at +inf) (bound in the measure's direction)
    log_total: float           # log of the total finite mass of the composed measure
    kind: str
    center: float
    sigma: float
    n_points: int = 0          # the window's length N (kept when ``release`` drops y)
    g_start: int = 0           # the first window index of the grid of bounds made from it (``grid_bounds``' start)

    def release(self):
        """Drop y once ``grid_bounds`` has read it (numeric.pld caches the grids, not y: at T = 10^6 a
        window of 2^23 points is 64 MB per composition, and a query kept four of them)."""
        self.y = None


def _logsumexp(a):
    m = np.max(a)
    if not np.isfinite(m):
        return m
    return float(m + math.log(np.sum(np.exp(a - m))))


def _tilt(meas: StepMeasure, lam: float, hf: float):
    """(positions-l, x normalized, c) with x = mass e^{lam l - c} (outward slack A1)."""
    l = meas.knots.astype(float) * hf
    with np.errstate(divide="ignore"):
        lm = np.log(meas.mass) + lam * l
    c = _logsumexp(lm[np.isfinite(lm)]) if np.isfinite(lm).any() else 0.0
    x = np.exp(lm - c)
    x = x * (1 + A1) if meas.kind == "upper" else x * (1 - A1)
    return l, x, c


_THETAS = np.geomspace(1e-3, 1e5, 60)


def _thetas(parts) -> np.ndarray:
    """The Chernoff exponents tried: ``_THETAS``, and for a composition whose loss spread s (the
    standard deviation of the sum of the parts' normalised laws) is below 1e-2 also 8 points a decade
    from 1e5 up to 1e3 / s.  The best exponent for a point t is about (t - mean) / s^2: 10^4 shuffled rounds
    of n = 10^6 users at eps0 = 10^-6 (s ~ 1e-8) asked for 1e10, and with theta <= 1e5 the mass above a
    window 90 s wide was bounded by 0.91, so eps(1e-6) was [0, inf].  Every theta > 0 gives a valid bound
    (the minimum over any set is one), so the set decides width only."""
    var = 0.0
    for l, x, k in parts:
        tot = float(np.sum(x))
        if tot > 0:
            m1 = float(np.sum(x * l)) / tot
            var += k * max(float(np.sum(x * (l - m1) ** 2)) / tot, 0.0)
    s = math.sqrt(var)
    if not 0 < s < 1e-2:
        return _THETAS
    top = 1e3 / s
    extra = np.geomspace(1e5, top, max(2, math.ceil(8 * math.log10(top / 1e5))))[1:]
    return np.concatenate([_THETAS, extra])


#: log tail masses at which ``Chernoff`` truncates the steps' losses (``_truncated``), largest first
TRUNCATION_LEVELS = (-20.0, -40.0, -80.0, -160.0, -320.0, -640.0)


def _part_log_mgf(l, x, th):
    """(log M(theta), float error bound) of one part's measure sum_i x_i e^{theta l_i} at every theta."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        lx = np.log(x)
        a = lx[None, :] + th * l[None, :]
        m = np.max(a, axis=1)
        lm = m + np.log(np.sum(np.exp(a - m[:, None]), axis=1))
        lm = np.where(np.isfinite(m), lm, m)
        fin = np.isfinite(lx)
        big = (float(np.max(np.abs(lx[fin]))) if fin.any() else 0.0) + np.abs(th[:, 0]) * float(np.max(np.abs(l)))
        # the float error of lm: log x and theta l (a few roundings of terms <= big), the
        # shift by m, exp, a sum of len(l) terms and the log: below 8 u (big + len(l) + |lm|)
        err = 8 * 2.0 ** -53 * (big + len(l) + np.abs(np.where(np.isfinite(lm), lm, 0.0)))
    return lm, err


class Chernoff:
    """Chernoff bounds on the mass of the composition of the (l, x, k) parts above (or below) a point t:
    the log of min over 60 theta of sum_j k_j log M_j(theta) - theta t.  The per-step log-mgfs
    log M_j(theta) do not depend on t: they are computed once per direction and reused for every t
    (the window search asks for up to 128 points), with the same float operations in the same order as
    evaluating them afresh, so the bound is the same number.

    Heavy tails (``_truncated``).  A Poisson-subsampled Gaussian step tilted by lam has a far bump (its loss
    grows linearly in the noise, so e^{lam l} wins over the Gaussian density far out): every theta large
    enough for a point t a few sigma out reads the bump, and the plain bound stays near e^-9 where the
    truth is e^-60 (DP-SGD q = 0.001, sigma = 2, T = 100, delta = 1e-10 at lam = 30: the window stopped
    growing and eps(1e-10) was unbounded).  So the losses are also truncated: for levels a_j (part j),
    {sum L > t} lies in {some step of part j has L > a_j} union {sum L > t and every L <= a_j}, whence

        mass(sum L > t) <= sum_j k_j tail_j(a_j) prod_i tot_i^{k_i} / tot_j
                           + e^{-theta t} prod_j (sum_{l <= a_j} x e^{theta l})^{k_j}

    for every theta >= 0 (tail_j: the part's mass above a_j, tot_j its total; the second term is the
    Chernoff bound of the measures restricted to l <= a_j, which is Markov's inequality for e^{theta sum L}
    on that event).  Below t the same with l >= b_j.
    a_j is the knot where the part's log tail k_j tail_j falls to a level of ``TRUNCATION_LEVELS``; the
    bound returned is the least over the plain one and the levels tried.  The suffix sums carry at most
    len - 1 roundings of non-negative terms each (Higham 4.4): scaled up (tails, totals) or down (the
    total divided by) by 2 len u; logs and exps take the A1 slack.  tests/test_chernoff_truncated.py
    checks the bound against exact binomial sums."""

    def __init__(self, parts):
        self.parts = parts
        self.thetas = _thetas(parts)
        self._lms = {}

    def _log_mgfs(self, above: bool):
        got = self._lms.get(above)
        if got is None:
            th = (self.thetas if above else -self.thetas)[:, None]
            got = []
            for l, x, k in self.parts:
                lm, err = _part_log_mgf(l, x, th)
                got.append((lm, err, k))
            self._lms[above] = got
        return got

    def _truncated(self, above: bool, level: float):
        """(log-mgfs of the truncated parts, log bound on the union term) at one truncation level."""
        key = (above, level)
        got = self._lms.get(key)
        if got is not None:
            return got
        th = (self.thetas if above else -self.thetas)[:, None]
        lms, terms, log_tot = [], [], 0.0
        for l, x, k in self.parts:
            n = len(x)
            grow = 1 + 2 * n * U
            tot = float(np.sum(x))
            lg = math.log(tot * grow)
            log_tot += k * (lg + A1 * abs(lg) + U)           # rounded up whatever the sign of lg
            # tails[m]: the mass at the indices beyond m (above: i >= m; below: i < m, reversed order)
            xs = x if above else x[::-1]
            tails = np.cumsum(xs[::-1])[::-1] * grow
            with np.errstate(divide="ignore"):
                lt = np.log(k * tails) * (1 - A1) + A1
            cut = np.nonzero(lt <= level)[0]
            m = int(cut[0]) if len(cut) else n
            m = max(m, 1)
            if m >= n:
                lms.append((*_part_log_mgf(l, x, th), k))
                continue
            tail = float(tails[m])
            ls = l if above else l[::-1]
            lms.append((*_part_log_mgf(ls[:m], xs[:m], th), k))
            if tail > 0:
                terms.append(math.log(k * tail) - math.log(tot * (1 - 2 * n * U)))
        lu = (_logsumexp(np.array(terms)) + log_tot) if terms else -math.inf
        if math.isfinite(lu):
            lu += 1e-9 * (1 + abs(lu) + len(terms))
        got = self._lms[key] = (lms, lu)
        return got

    def _bound(self, lms, t, above: bool) -> float:
        th = self.thetas if above else -self.thetas
        v = -th * t
        v = v + 4 * 2.0 ** -53 * np.abs(v)
        with np.errstate(invalid="ignore"):
            for lm, err, k in lms:
                v = v + k * (lm + err)
        v = v + sum(k for _, _, k in self.parts) * 1e-9          # slack A1 on the mgf evaluation
        v = v[~np.isnan(v)]
        return float(np.min(v)) if len(v) else math.inf

    def log_mass_beyond(self, t, above: bool, need=None):
        """The least bound found; with ``need`` (a caller asking only whether the mass is below e^need) the
        truncation levels that cannot bring it there (the union term is about e^level) are not tried."""
        best = self._bound(self._log_mgfs(above), t, above)
        for level in TRUNCATION_LEVELS:
            if need is not None and (best <= need or level > need):
                continue
            if level >= best - 1.0:
                continue
            lms, lu = self._truncated(above, level)
            lc = self._bound(lms, t, above)
            if not math.isfinite(lc):
                both = lc if lc > lu else lu
            else:
                both = float(np.logaddexp(lu, lc)) + 1e-12 * (1 + abs(lc) + (abs(lu) if math.isfinite(lu) else 0.0))
            best = min(best, both)
            if lc > level:
                break           # deeper levels keep more of the tail: their Chernoff term only grows
        return best


def _power(z, k):
    """Binary powering of a complex array (the same products as the textbook loop), in place: z itself is
    the running square and is overwritten (the caller does not need it again)."""
    result = None
    base = z
    while k:
        if k & 1:
            if result is None:
                result = base if k == 1 else base.copy()
            else:
                np.multiply(result, base, out=result)
        k >>= 1
        if k:
            np.multiply(base, base, out=base)
    return result


def _tilted_parts(items, lam: float, hf: float):
    """Tilt every step measure (``_tilt``): the parts (l, x, k), the log scale C = sum k_j c_j (an
    exact Fraction), and the mean and standard deviation (+ one cell) of the tilted composition."""
    parts = []
    C = Fraction(0)
    mean = var = 0.0
    for meas, k in items:
        l, x, c = _tilt(meas, lam, hf)
        parts.append((l, x, k))
        C += k * Fraction(c)
        s = x.sum()
        mu = float((x * l).sum() / s)
        mean += k * mu
        var += k * float((x * (l - mu) ** 2).sum() / s)
    sig = math.sqrt(max(var, 0.0)) + hf
    return parts, C, mean, sig


def _window(items, parts, hf: float, mean: float, sig: float, eps_hint, window, cher=None, floor=-40.0,
            shrink=False):
    """The FFT window: (W0, N, sup_lo, sup_hi) with W0 the grid index of its first point, N = 2^p
    its length and [sup_lo, sup_hi] the composition's integer support (grid indices)."""
    # +-8 sigma of the tilted composition, then each side is widened in steps of 1 sigma while the
    # Chernoff bound on the mass beyond it exceeds e^floor (that mass is bounded and accounted for
    # below, whatever floor is: floor moves only width and time; the default e^-40 keeps it ~1e-15 of
    # the tilted values read at the query when they sit near the centre; ``compose_fft`` raises it
    # when it knows the query's delta).
    # A subsampled step's tilted loss has a heavy right tail: DP-SGD's needs +16 sigma on the right
    # and -9 sigma on the left.
    lo = mean - 8 * sig
    hi = mean + 8 * sig
    if eps_hint is not None:
        lo = min(lo, eps_hint - 8 * sig)
        hi = max(hi, eps_hint + 8 * sig)
    if shrink and window is not None and window[1] > 64 * max((hi - lo) / hf, 1 << 10):
        # the given window is far wider than this measure's own (a lower measure whose tilt is narrow
        # under a bimodal upper one): its own window on the same grid; the eps reader maps grid
        # indices (below a window the lower value is its first one, delta being non-increasing;
        # above it -inf), so only width can move
        window = None
    if window is not None:
        lo, hi = min(lo, window[0] * hf), max(hi, (window[0] + window[1] - 1) * hf)
    # the composed support is the integer range sum k_j [first knot_j, last knot_j]: when it is not
    # much wider than the window, cover it whole (then nothing aliases, exactly); otherwise widen the
    # window while the Chernoff bound on the mass outside it is not negligible (skewed steps, few
    # steps: +-15 sigma left 3 % outside for one Poisson-subsampled step at q = 0.01, sigma = 0.5)
    sup_lo = sum(k * int(meas.knots[0]) for meas, k in items)
    sup_hi = sum(k * int(meas.knots[-1]) for meas, k in items)
    if _cover_support(sup_hi - sup_lo + 2, (hi - lo) / hf + 2, window):
        lo, hi = min(lo, sup_lo * hf), max(hi, sup_hi * hf)
    else:
        grow_hi = grow_lo = True
        cher = Chernoff(parts) if cher is None else cher
        for _ in range(64):
            if grow_hi:
                grow_hi = hi < sup_hi * hf and cher.log_mass_beyond(hi, True, floor) > floor
                hi += sig if grow_hi else 0.0
            if grow_lo:
                grow_lo = lo > sup_lo * hf and cher.log_mass_beyond(lo, False, floor) > floor
                lo -= sig if grow_lo else 0.0
            if not (grow_hi or grow_lo):
                break           # (not at MAX_WINDOW: a refusal reports the whole need, numeric.pld's retry uses it)
    n_need = int((hi - lo) / hf) + 2
    N = 1 << max(10, (n_need - 1).bit_length())
    if window is not None and window[0] * hf <= lo and hi <= (window[0] + window[1] - 1) * hf:
        n_need = N = window[1]
    if N > MAX_WINDOW:
        total = sum(k for _, k in items)
        raise WindowTooLarge(N, "k", total, f"a composition whose FFT window fits in 2^{MAX_WINDOW.bit_length() - 1} "
                                            f"grid points (this one needs 2^{N.bit_length() - 1} at h = {hf:.3g}: its "
                                            f"loss spreads over {hi - lo:.3g}); compose fewer steps")
    W0 = math.floor(lo / hf) - (N - n_need) // 2
    if window is not None and N == window[1]:
        W0 = window[0]
    return W0, N, sup_lo, sup_hi


def _cover_support(span: int, own: float, window) -> bool:
    """Whether ``_window`` covers a composition's whole integer support (``span`` points; ``own``: the points of
    its +-8 sigma range): when the support is at most 4x that range, and, with a given ``window``, at most 2x its
    length.  (A lower composition on the upper one's window of 2^21 points covered its support of 7.9e6 points
    on 2^24: 3.8 of the query's 7 s, DP-SGD q = 0.001, sigma = 0.8, T = 100, delta = 1e-10.  The Chernoff widening
    keeps the given window there; the mass outside it is accounted for either way, so only width and time move.)"""
    if span > max(4 * own, 1 << 16):
        return False
    return window is None or span <= max(2 * window[1], 1 << 16)


class WindowTooLarge(DomainError):
    """The FFT window a composition needs at its grid step is above MAX_WINDOW (``needed`` points):
    numeric.pld answers a query of a default grid on a coarser one instead."""

    def __init__(self, needed: int, *args):
        super().__init__(*args)
        self.needed = needed


def fft_eta(n: int) -> float:
    """The FFT error bound constant: ||fl(FFT x) - FFT x||_2 <= fft_eta(n) ||FFT x||_2 for a length-n
    transform (Higham's bound with assumption A2)."""
    L2 = math.log2(n)
    gamma4 = 4 * U / (1 - 4 * U)
    eta = TW + gamma4 * (math.sqrt(2) + TW)
    return FFT_SAFETY * L2 * eta / (1 - L2 * eta)


def _work(items, parts, rest, trees, N: int, fold):
    """The (indices mod N, x, count, 2-norm error) of ``_convolve``'s parts, one at a time: a tree part
    is built (``pld_tree.fold``) only when its turn comes and is dropped after its transform."""
    for j in rest:
        yield (items[j][0].knots % N).astype(np.int64), parts[j][1], items[j][1], 0.0
    for tree in trees:
        idx_t, x_t, d_t = fold(tree, N)
        yield idx_t, x_t, 1, d_t


def _convolve(items, parts, N: int, W0: int):
    """The circular composition of the tilted parts on N points by FFT, pointwise powers and an
    inverse FFT: (y, E_out), y rotated so that y[i] is grid index W0 + i and E_out a bound on
    ||y_computed - y_circular||_2 (Higham's FFT bound with assumption A2, the powering error)."""
    etaF = fft_eta(N)
    sqN = math.sqrt(N)
    Y = None
    err = 0.0           # ||Y' - Y||_2 bound accumulated
    Rprod = 1.0         # bound on |Y|, |Y'| pointwise
    # distinct count-1 steps: one part from numeric.pld_tree's product tree, its own 2-norm error d
    # (x is then inexact: the spectrum error gains sqN d, |X| <= ||x||_1 + sqrt(len) d; docstring there)
    from .pld_tree import fold, split
    rest, trees = split(items, parts, N, fft_eta, _convolve)
    for idx, x, k, d in _work(items, parts, rest, trees, N, fold):
        arr = np.zeros(N)
        np.add.at(arr, idx, x)
        X = np.fft.rfft(arr)          # the half spectrum 0..N/2; the rest is its mirror image
        del arr
        x2 = float(np.sqrt(np.sum(x * x))) * (1 + 1e-12) + d
        s1 = float(np.abs(x).sum()) * (1 + len(x) * U * 2) + math.sqrt(len(x)) * d
        e = etaF * sqN * x2 + sqN * d
        rho = s1 + e
        gpow = math.expm1((k + 2 * math.log2(k + 1) + 2) * math.sqrt(5) * U * 1.01)
        rk1 = rho ** (k - 1)
        err_j = k * rk1 * e + gpow * rk1 * (sqN * x2 + e)
        R = rho ** k * (1 + gpow)
        P = _power(X, k)
        del X
        if Y is None:
            Y = P
            err = err_j
            Rprod = R
        else:
            Y *= P
            err = err * R + Rprod * err_j + math.sqrt(5) * U * 1.01 * Rprod * R * sqN
            Rprod = Rprod * R
    # the 2-norm of the whole (Hermitian) spectrum: the middle entries appear twice
    # sum |Y_j|^2 without a temporary array; BLAS may sum in any order, so the factor covers the
    # recursive-summation bound gamma_{2 len(Y)} of the dot product (Higham Sec. 3.1), not only pairwise
    a2 = float(np.vdot(Y, Y).real)
    Ynorm = math.sqrt(max(2 * a2 - abs(Y[0]) ** 2 - abs(Y[-1]) ** 2, 0.0)) * (1 + 1e-12 + 4 * len(Y) * U)
    y = np.fft.irfft(Y, n=N)
    del Y
    E_out = (err + etaF * Ynorm) / sqN
    # rotate so that y_win[i] is the grid index W0 + i
    y = np.roll(y, -(W0 % N))
    return y, E_out


def _inf_and_total(items, kind: str):
    """(log_inf, log_total): log P(some step at +inf) and log of the composed measure's finite
    mass, both bounds in the measure's own direction (``kind``)."""
    Fs = []
    for meas, k in items:
        Fs.append((meas.finite_total(), meas.inf_mass, k))
    with mpmath.workprec(80):
        tot = mpmath.mpf(1)
        fin = mpmath.mpf(1)
        for F, I, k in Fs:
            tot *= (mpmath.mpf(F) + mpmath.mpf(I)) ** k
            fin *= mpmath.mpf(F) ** k
        # P(some step at +inf) = tot - fin, without the cancellation of that difference (it lost
        # the whole mass of inf masses below 2^-80, three (0, 1e-30) steps gave 0, and 2e-5 of it
        # at 1e-20): fin (prod (1 + I/F)^k - 1) by log1p/expm1
        if fin > 0:
            pinf = fin * mpmath.expm1(mpmath.fsum(k * mpmath.log1p(mpmath.mpf(I) / mpmath.mpf(F))
                                                  for F, I, k in Fs))
        else:
            pinf = tot
        log_inf = float(mpmath.log(pinf)) if pinf > 0 else -math.inf
        log_total = float(mpmath.log(fin)) if fin > 0 else -math.inf
    if math.isfinite(log_inf):
        # outward in the measure's direction: the float log (and the logaddexp that adds it to the
        # finite part) rounds to nearest; three (0, 1e-12) steps, where P(+inf) is the whole answer,
        # had a lower end 2.9999999999976e-12 above the exact 2.999999999997e-12
        log_inf += (LOGSLACK if kind == "upper" else -LOGSLACK) * max(abs(log_inf), 1.0)
    return log_inf, log_total


def compose_fft(items, h: Fraction, lam: float, eps_hint=None, window=None, log_delta=None) -> Composed:
    """items: list of (StepMeasure, count), all of one kind.  ``window = (W0, N)`` reuses another
    composition's window (the lower measure's, so that both ends are read on the same grid points);
    it is taken when it holds this composition's own +-12 sigma range, else widened as usual.

    ``log_delta`` (an eps(delta) query's log delta, with ``eps_hint``) lets the window stop growing
    where the Chernoff mass beyond it is below e^-25 of the tilted value the query reads, about
    delta e^{lam eps - C} (eps taken as min(eps_hint, centre), which only lowers the floor).  That mass
    is accounted for in the bounds (``log_above``, ``log_alias``) whatever the window, so this moves
    only width and time.  With ``log_delta`` a given ``window`` 64x wider than this measure's own need is
    not taken (``_window``).  DP-SGD q = 0.001, sigma = 2, T = 100 had a bimodal tilted step (sigma of the
    tilted composition 1.8 against eps = 0.015) whose window grew from 2^20 to 2^23 points for mass
    that is e^-40 in tilted units but far below delta e^-25 where eps is read."""
    hf = float(h)
    kind = items[0][0].kind
    parts, C, mean, sig = _tilted_parts(items, lam, hf)
    cher = Chernoff(parts)
    floor = -40.0
    if log_delta is not None and eps_hint is not None and math.isfinite(log_delta):
        floor = max(floor, log_delta + lam * min(eps_hint, mean) - float(C) - 15.0)
    W0, N, sup_lo, sup_hi = _window(items, parts, hf, mean, sig, eps_hint, window, cher, floor,
                                    shrink=log_delta is not None)
    y, E_out = _convolve(items, parts, N, W0)
    top = (W0 + N) * hf
    bot = (W0 - 1) * hf
    # mass outside the window: none when the integer support lies inside it, else the Chernoff bound
    la = -math.inf if sup_hi <= W0 + N - 1 else cher.log_mass_beyond(top, True)
    lb = -math.inf if sup_lo >= W0 else cher.log_mass_beyond(bot, False)
    log_alias = float(np.logaddexp(la, lb))
    log_inf, log_total = _inf_and_total(items, kind)
    return Composed(W0, y, E_out, float(C), lam, hf, la, log_alias, log_inf, log_total, kind,
                    mean, sig, len(y))


#: longest block of ``first_order``
_BLOCK = 1024


def _block(a: float) -> int:
    """``first_order``'s block length for the coefficient a: at most _BLOCK, and short enough that
    a^B stays a normal float (> 1e-290), so that 1 / a^j is finite and exact to one rounding."""
    if a <= 0:
        return 1
    return max(2, min(_BLOCK, int(650 / max(-math.log(a), 1e-300))))


def first_order_roundings(n: int) -> int:
    """K of ``first_order``'s error bound gamma_K for n values: every block has B >= 2, so there are at
    most ceil(log2 n) block levels, whatever the coefficient."""
    return (4 * _BLOCK + 6) * math.ceil(math.log2(max(n, 2))) + 2 * _BLOCK


def first_order(x: np.ndarray, a: float, b: float) -> np.ndarray:
    """y with y_n = b x_n + a y_{n-1} (y_{-1} = 0; a, b >= 0), evaluated in blocks of B = ``_block(a)``.

    (It replaced scipy.signal.lfilter, whose import pulls in scipy.stats: 1.6 s of CPU per process,
    a third of a `dp-derive dpsgd` run.)  Within a block, with p_i = a^i (by repeated multiplication),
    the partial sums are b p_i cumsum_j (x_j / p_j): three vectorised passes.  The values at the block
    ends obey the same recursion with coefficient a^B = p_B, evaluated the same way (recursively); each
    value is its block's partial sum plus p_{i+1} times the previous block's end value.  B keeps
    p_B >= 1e-290, so no power is subnormal and 1 / p_j is finite.

    Rounding: every output is sum_j w_nj x_j with exact weights w_nj = b a^{n-j} >= 0 (for the
    coefficients as given).  Follow one term through a level: p_j and p_i carry at most B - 1
    roundings each, the division and the product with b one each, the cumulative sum at most B, the
    product with p_i one; the carried value is multiplied by p_{i+1} (at most B + 1 roundings) and added
    once: at most 4B + 6 roundings per level; the top level (<= B values) is the plain recursion, at
    most 2B more.  So each term carries a relative error of at most gamma_K with
    K = ``first_order_roundings(n)`` = (4 _BLOCK + 6) ceil(log2 n) + 2 _BLOCK (every block has B >= 2,
    so there are at most ceil(log2 n) levels above the top) (Higham, Lemmas 3.1 and 3.3), i.e. |computed - exact| <= gamma_K sum_j w_nj |x_j|.
    Terms lost to underflow of a whole product p_i (x_j / p_j) are below 2^-1022 times the largest
    |x_j| (<= 1 + slack for the normalised tilted measures here), an absolute error that the caller's
    TINY_NORMAL cut and LOGSLACK absorb, as they did for the sequential recursion."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n == 0:
        return x.copy()
    if a <= 0:
        return b * x
    B = _block(a)
    if n <= B:
        y = np.empty(n)
        acc = 0.0
        for i in range(n):
            acc = b * x[i] + a * acc
            y[i] = acc
        return y
    m = -(-n // B)
    X = np.zeros(m * B)
    X[:n] = x
    X = X.reshape(m, B)
    pw = np.empty(B + 1)                 # pw[i] = a^i by repeated multiplication
    pw[0] = 1.0
    for i in range(1, B + 1):
        pw[i] = pw[i - 1] * a
    X /= pw[None, :B]
    np.cumsum(X, axis=1, out=X)
    X *= (b * pw[:B])[None, :]            # X[k, i] = sum_{j <= i} b a^{i-j} x[kB + j]
    ends = first_order(X[:, B - 1], pw[B], 1.0)
    X[1:] += ends[:-1, None] * pw[1:B + 1][None, :]
    return X.reshape(-1)[:n]


def grid_bounds(comp: Composed, which: str = "both", start: int = 0):
    """log of certified bounds on delta_fin at the window grid points eps = l_i, i = start..N-1,
    without the +inf term: (log_upper, log_lower) arrays of N - start values.  For an upper composition
    only the upper array is meaningful, for a lower one only the lower array; ``which`` = "upper" or
    "lower" makes only that one (the other is None).

    ``start``: the recursions run from the top of the window down, and the value at i reads y_{i+1..N-1}
    only, so the values at i >= start are those of the window's top N - start points, a recursion of that
    length: its rounding bound gamma and its FFT error norm W are those of N - start terms (the bound of
    every value at i >= start holds with them: each such value is a sum of at most N - 1 - start terms).
    An eps(delta) query reads no point below eps = 0 (``numeric.pld.Composition._eps_here``): at q = 0.001,
    sigma = 2, T = 10^6 the window starts at l = -5.8 and 36 % of its 2^22 points lie below 0."""
    from flint import ctx
    hf, lam = comp.h, comp.lam
    start = max(0, min(int(start), len(comp.y) - 1))
    n = len(comp.y) - start
    with ctx.workprec(80):
        hh = M.arb_of(Fraction(hf))
        r_l = (-(M.arb_of(Fraction(lam)) * hh)).exp()
        r_1 = (-hh).exp()
        c1 = float((1 - r_1).mid())
        rl = float(r_l.mid())
        r1 = float(r_1.mid())
    # reversed recursions: E_i = r_l r_1 (y_{i+1} + E_{i+1}), T_i = r_l (T_{i+1} + (1 - r_1)(y_{i+1} + E_{i+1}))
    # (arrays are freed as soon as they are used: at T = 10^6 the window has 2^22 points and the
    # temporaries of this function were the peak of the whole query, 370 MB)
    yr = comp.y[:start - 1:-1] if start else comp.y[::-1]     # y_{N-1}, ..., y_start

    T = _recursion(yr, rl, r1, c1)[::-1]
    # two nested recursions (E inside T), each with first_order's gamma_K, and the sums forming their
    # inputs: (2K + 4n + 10) u, doubled (the sequential recursion was charged (4n + 10) u, doubled)
    gam = (2 * first_order_roundings(n) + 4 * n + 10) * U * 2
    wmax = _weight_bound(rl, r1, c1)         # gamma A, A the weighted sum of |y| (a second recursion if no wmax)
    base_err = _abs_sum_bound(T, yr, gam, wmax) if wmax is not None else _recursion(np.abs(yr), rl, r1, c1)[::-1] * gam
    W = _w_norm(lam, hf, n)                          # ||w||_2 for the FFT error term
    base_err += W * comp.E_out
    scale = np.arange(n, dtype=float)
    scale += comp.W0 + start
    scale *= hf
    scale *= -lam
    scale += comp.C                                   # scale = C - lam l, l = (W0 + i) h
    with np.errstate(divide="ignore", invalid="ignore"):
        # Far below the tilt centre the recursion's factors e^{-lam h} underflow (float64 has no
        # numbers below 2^-1074), so T + base_err can come out as 0 or a subnormal although the
        # true value is positive: there the tilted scale carries no information and the upper
        # value falls back to the trivial bound delta_fin <= P(L finite) (log_total).  Found by
        # the exact Laplace route: 10 x Laplace(0.1) at alpha = 1e-10 was "certified" at
        # power 1.2e-10 against the exact e * 1e-10.
        up = lo = None
        # (in place where the operands are not needed again: the peak of a T = 10^6 query was here)
        if which != "lower":
            up = T + base_err
            if which == "upper":
                del T, base_err
            ok = up > TINY_NORMAL
            np.log(up, out=up, where=ok)
            up += scale
            up[~ok] = comp.log_total
            del ok
            np.logaddexp(up, comp.C - lam * (comp.W0 + start + n) * hf + comp.log_above, out=up)
            _widen(up, 1.0)
        if which != "upper":
            lo = T - base_err
            del T, base_err
            lo -= math.exp(min(comp.log_alias, 700))
            ok = lo > 0
            np.log(lo, out=lo, where=ok)
            lo += scale
            lo[~ok] = -np.inf
            del ok
            _widen(lo, -1.0)
    return up, lo


def _recursion(z: np.ndarray, rl: float, r1: float, c1: float) -> np.ndarray:
    """``grid_bounds``' delta sums on the reversed window z (z[0] the top point), in the reversed order: entry k is
    T at the point k places below the top, sum_D w_D z_{k-D}, by the two nested recursions E = p (z + E) (p =
    rl r1) and T = rl T + rl c1 (z + E) shifted, each a ``first_order`` pass (weights w_D: ``_weight_bound``)."""
    zs = np.concatenate(([0.0], z[:-1]))          # z shifted: entry k gets the point above it
    E = first_order(zs, rl * r1, rl * r1)
    zs[1:] += E[:-1]                              # base_k = z_{k-1} + E_{k-1}
    del E
    return first_order(zs, rl, rl * c1)


def _geo(x, n: int):
    """sum_{D=1}^{n} x^D = x (1 - x^n) / (1 - x) for an Arb ball x != 1 (``_w_norm``)."""
    return x * (1 - x ** n) / (1 - x)


def _w_norm(lam: float, hf: float, n: int) -> float:
    """An upper bound on ||w||_2 = sqrt(sum_{D=1}^{n} e^{-2 lam D h} (1 - e^{-D h})^2), the weights of ``grid_bounds``'
    recursion (exact lam and h: both are floats, taken exactly).

    In closed form: expanding the square, the sum is G(a) - 2 G(a b) + G(a b^2) with a = e^{-2 lam h}, b = e^{-h}
    and the geometric sums G(x) = x (1 - x^n) / (1 - x) (G(1) = n, lam = 0), evaluated as Arb balls at 256 bits
    (the three terms cancel to a second difference: the precision covers it, and the ball says so); the upper
    end of the ball, rounded up, is a bound.  The former float sum over all n terms (chunks of 2^20, a relative
    slack of 1e-9) took 0.1 s a call at 2^23 points.  If the ball is not finite or not within 1e-6 relative
    (never seen), the float sum answers, as before."""
    from flint import arb, ctx
    with ctx.workprec(256):
        h = arb(hf)
        b = (-h).exp()
        a = (-2 * arb(lam) * h).exp()

        total = (_geo(a, n) if lam != 0 else arb(n)) - 2 * _geo(a * b, n) + _geo(a * b * b, n)
        up = float(total.upper()) if total.is_finite() else math.inf
        if math.isfinite(up) and total.rad() <= 1e-6 * abs(total.mid()):
            return math.nextafter(math.sqrt(math.nextafter(max(up, 0.0), math.inf)), math.inf) * (1 + 2 * U)
    acc = 0.0
    for first in range(1, n + 1, 1 << 20):
        d = np.arange(first, min(n, first + (1 << 20) - 1) + 1, dtype=float) * hf
        acc += float(np.sum(np.exp(-2 * lam * d) * (-np.expm1(-d)) ** 2))
    return math.sqrt(acc) * (1 + 1e-9)


def _weight_bound(rl: float, r1: float, c1: float) -> float | None:
    """A float >= every weight w_D of ``grid_bounds``' recursion with its float coefficients, or None.

    The recursion is E_n = p (z_n + E_{n-1}) with p = fl(rl r1), then T_n = b (z'_n) + rl T_{n-1} with
    b = fl(rl c1) and z' = z + E shifted (``_recursion``), so the weight of a point D places above is
    w_D = b sum_{m=1}^{D} rl^{m-1} p^{D-m}.  With rl <= 1 (a rounded e^{-lam h}, lam >= 0) and p <= r1 (1 + u):
    w_D <= b sum_{k >= 0} (r1 (1 + u))^k = b / (1 - r1 (1 + u)) <= c1 (1 + u) / (1 - r1 (1 + u)).  Evaluated
    with r1 (1 + 2u), c1 (1 + 2u) and the quotient times (1 + 4u), which covers the three roundings of this
    expression.  About 1 + 2^-52 / h; None when the denominator is not positive (h below ~2^-52)."""
    den = 1.0 - r1 * (1 + 2 * U)
    if not (rl <= 1.0 and den > 0):
        return None
    return c1 * (1 + 2 * U) / den * (1 + 4 * U)


#: |y| = y + ABS_NOISE y^- (``_abs_sum_bound``)
ABS_NOISE = 2.0


def _abs_sum_bound(T: np.ndarray, yr: np.ndarray, gam: float, wmax: float) -> np.ndarray:
    """gamma A_i >= gamma sum_D w_D |y_{i+D}| at every point, from the computed recursion T on y itself, in place of
    a second recursion over |y| (half of ``grid_bounds``' recursion work: 0.7 of 5.3 s at q = 0.004, sigma = 0.6,
    T = 10^6, 2^23 points).  Returns a new array.

    Why it is an upper bound.  |y| = y + 2 y^- with y^- = max(-y, 0), and the weights w_D >= 0, so
    A_i = S_i + 2 sum_D w_D y^-_{i+D} with S_i = sum_D w_D y_{i+D} the exact recursion on the computed y.  The
    computed T_i satisfies |T_i - S_i| <= gamma A_i (``first_order``'s bound, the one the old second pass was
    multiplied by), so A_i <= T_i + gamma A_i + 2 wmax ||y^-||_1, i.e. A_i <= (T_i + 2 wmax ||y^-||_1) / (1 - gamma),
    with wmax >= every weight (``_weight_bound``: about 1).  Roundings: ||y^-||_1 by numpy's pairwise sum
    (relative error below n u, charged 2 n u), then one product and one addition a point, and the factor
    gamma / (1 - gamma) and its product (charged 8 u together).  Where the computed T_i + 2 wmax ||y^-||_1 is
    negative (only where first_order's underflowed terms, below 2^-1022, dominate: the TINY_NORMAL cut's region)
    the bound is 0 there, the same absolute loss first_order's docstring leaves to that cut.  The bound grows by
    gamma 2 wmax ||y^-||_1 / (1 - gamma) at every point, against the W E_out term of the FFT error added after
    it: ||y^-||_1 is FFT noise."""
    n = len(yr)
    neg = float(np.sum(np.maximum(-yr, 0.0))) * (1 + 2 * n * U)
    out = T + ABS_NOISE * wmax * neg
    np.maximum(out, 0.0, out=out)
    out *= gam / (1 - gam) * (1 + 8 * U)
    return out


def _widen(v: np.ndarray, sign: float):
    """v += sign LOGSLACK max(|v|, 1), in place (one temporary)."""
    t = np.abs(v)
    np.maximum(t, 1, out=t)
    t *= LOGSLACK
    if sign > 0:
        v += t
    else:
        v -= t
