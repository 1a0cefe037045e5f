"""DP-SGD accounting and calibration on the certified engine (issue #9 item 5; seed 004 Sec. 4.1).

DP-SGD with Poisson sampling at rate q = batch/n, noise multiplier sigma (sensitivity 1 after
clipping) and T steps is the T-fold composition of the Poisson-subsampled Gaussian mechanism, whose
two dominating pairs (remove: the mixture (1-q) N(0, s^2) + q N(1, s^2) against N(0, s^2); add: the
reverse) are in ``numeric.pld_mechanisms.subsampled_gaussian``; ``numeric.pld`` composes each
direction and reports the worse, as a two-sided bracket (``eps_lower <= eps <= eps_upper``; the
unsuffixed value is the upper, privacy-safe end).  T = ceil(epochs * n / batch) when epochs are given.

Beside it, the privacy CLT of Bu, Dong, Long, Su (2020) / Dong, Roth, Su (2022) (catalog 004):
mu_CLT = q sqrt(T (e^{1/sigma^2} - 1)), the eps of G_{mu_CLT} at the same delta, and the gap
eps_CLT - eps_upper (negative: the CLT reports less privacy loss than the certified bracket allows).

Calibration: the smallest noise multiplier whose *certified* eps_upper at delta is <= the target,
to a relative resolution of 1e-3 (bisection in log sigma, the CLT value as the first guess): the
returned sigma is one at which the engine's upper end was evaluated and met the target, so it
provably meets it (up to the engine's stated assumptions).  ``max_epochs`` is the dual: the largest
whole number of epochs that keeps eps_upper <= target for a given sigma.

Fixed-size (uniform) sampling of B = q n records: seed 004 Sec. 4.1 states that T steps are
C_q(G_{1/sigma})^{(x)T}-DP (Dong, Roth, Su 2022 Thm 4.2 with one step G_{1/sigma}; Bu, Dong, Long, Su
2020), neighbours differing by the replacement of one record.  C_q(f) = min{f_q, f_q^{-1}}** is the
trade-off function of one symmetric pair (``numeric.pld_mechanisms.SymmetricHull``: the remove pair
above for loss > 0, an atom at 0, its mirror for loss < 0), composed T times by the same engine.  As
in the paper, one step is taken to be G_{1/sigma} (the clipped sum moves by at most the clipping
norm); a user whose replaced record can move the clipped sum by twice the norm passes sigma / 2.
It is never smaller than the Poisson value at the same q (C_q(f) <= f_q and <= f_q^{-1}).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from derive.domains import parse_in
from derive.errors import DomainError

from .display import ResultDisplay
from .solvers import bisect, illinois_bracket, integer_midpoint

#: largest noise multiplier the calibration searches (eps at sigma = 1e3 is the smallest reachable)
SIGMA_MAX = Fraction(1000)
#: smallest noise multiplier the engine takes (the domain "noise_multiplier")
SIGMA_MIN = Fraction(3, 10)
#: the engine's reach: T steps (each a knot set and an FFT window that grows with sqrt(T)) and the
#: sampling rate (below 1e-9 the loss of one step is below the float grid the engine works on)
MAX_STEPS = 10**7
MIN_RATE = Fraction(1, 10**9)


@dataclass(frozen=True)
class DpsgdResult(ResultDisplay):
    steps: int
    q: Fraction
    sigma: Fraction
    eps: object = None
    eps_lower: object = None
    eps_upper: object = None
    delta: object = None
    delta_lower: object = None
    delta_upper: object = None
    mu_clt: object = None
    eps_clt: object = None
    clt_gap: object = None
    certified: bool = True
    reason: str = ""
    seconds: float = 0.0


def _mpf(fr: Fraction):
    return mpmath.mpf(fr.numerator) / fr.denominator


def _exact(value, key, name) -> Fraction:
    r = parse_in(key, value, name)
    return Fraction(int(r.p), int(r.q))


def steps_of(n, batch, epochs=None, steps=None) -> int:
    """T: the given steps, or ceil(epochs * n / batch)."""
    if (epochs is None) == (steps is None):
        raise DomainError("epochs", epochs, "exactly one of epochs and steps")
    if steps is not None:
        T = int(_exact(steps, "count", "steps"))
        if T > MAX_STEPS:
            raise DomainError("steps", steps, f"an integer in [1, {MAX_STEPS:.0e}]")
        return T
    e = _exact(epochs, "epochs", "epochs")
    T = max(1, math.ceil(e * _exact(n, "n", "n") / _exact(batch, "batch", "batch")))
    if T > MAX_STEPS:
        raise DomainError("epochs", epochs, f"at most {MAX_STEPS:.0e} steps (ceil(epochs n / batch) = {T:.3e})")
    return T


def rate(n, batch) -> Fraction:
    nn, bb = _exact(n, "n", "n"), _exact(batch, "batch", "batch")
    if bb > nn:
        raise DomainError("batch", batch, f"an integer in [1, n = {nn}]")
    if bb / nn < MIN_RATE:
        raise DomainError("batch", batch, f"a sampling rate batch / n >= 1e-9 (n = {n})")
    return bb / nn


SAMPLINGS = ("poisson", "uniform")


def _check_sampling(sampling: str):
    if sampling not in SAMPLINGS:
        raise DomainError("sampling", sampling, "poisson or uniform")


def mu_clt(q: Fraction, sigma: Fraction, steps):
    """q sqrt(T (e^{1/sigma^2} - 1)) at the working precision (expm1: no cancellation for large sigma).

    ``steps`` is an int or a Fraction (BDLS20's T = epochs N / B is a fraction of steps); it is taken exactly."""
    s = mpmath.mpf(sigma.numerator) / sigma.denominator
    t = Fraction(steps)
    return mpmath.mpf(q.numerator) / q.denominator * mpmath.sqrt(
        mpmath.mpf(t.numerator) / t.denominator * mpmath.expm1(1 / s**2))


def _composition(q: Fraction, sigma: Fraction, steps: int, sampling: str = "poisson"):
    """The engine's T-fold composition of one DP-SGD step: the record G_{1/sigma} (the noise multiplier is
    converted here, once: everything below speaks the mechanism's own parameter mu) subsampled at rate q."""
    import sympy as sp

    from derive.mechanisms import gaussian

    from . import pld
    from .pld_subsampled import subsampled_step
    step = subsampled_step(gaussian(sp.Rational(sigma.denominator, sigma.numerator)),
                           f"{q.numerator}/{q.denominator}", sampling)
    return pld.compose([(step, steps)])


def account(n, batch, sigma, *, epochs=None, steps=None, sampling="poisson", at_delta=None,
            at_eps=None) -> DpsgdResult:
    """eps at ``at_delta`` (or delta at ``at_eps``) of DP-SGD, a certified bracket, with the CLT beside it."""
    _check_sampling(sampling)
    t0 = time.perf_counter()
    q = rate(n, batch)
    T = steps_of(n, batch, epochs, steps)
    s = _exact(sigma, "noise_multiplier", "sigma")
    with mpmath.workdps(30):
        mu = mu_clt(q, s, T)
    comp = _composition(q, s, T, sampling)
    if (at_delta is None) == (at_eps is None):
        raise DomainError("at_delta", at_delta, "exactly one of at_delta and at_eps")
    if at_delta is not None:
        d = _exact(at_delta, "at_delta", "delta")
        if d == 0:
            return DpsgdResult(T, q, s, eps=mpmath.inf, eps_lower=mpmath.inf, eps_upper=mpmath.inf, mu_clt=mu,
                               eps_clt=mpmath.inf, reason="delta = 0: a Gaussian step is not pure DP",
                               seconds=time.perf_counter() - t0)
        if d == 1:
            z = mpmath.mpf(0)
            return DpsgdResult(T, q, s, eps=z, eps_lower=z, eps_upper=z, mu_clt=mu, eps_clt=z,
                               reason="delta = 1: eps = 0", seconds=time.perf_counter() - t0)
        return _eps_result(T, q, s, comp.eps(str(at_delta)), at_delta, t0)
    r = comp.delta(str(at_eps))
    return DpsgdResult(T, q, s, delta=r.delta_upper, delta_lower=r.delta_lower, delta_upper=r.delta_upper,
                       mu_clt=mu, certified=r.certified, reason=r.reason, seconds=time.perf_counter() - t0)


def _eps_result(T: int, q: Fraction, s: Fraction, r, at_delta, t0: float) -> DpsgdResult:
    """The result of an eps(delta) query ``r`` of the engine, with the CLT's mu and eps beside it."""
    import derive

    from . import mp
    with mpmath.workdps(30):
        mu = mu_clt(q, s, T)
    e_clt = mp.profile_eps(derive.gaussian(mpmath.nstr(mu, 25)), at_delta, 15)
    return DpsgdResult(T, q, s, eps=r.eps_upper, eps_lower=r.eps_lower, eps_upper=r.eps_upper, mu_clt=mu,
                       eps_clt=e_clt, clt_gap=e_clt - r.eps_upper, certified=r.certified, reason=r.reason,
                       seconds=time.perf_counter() - t0)


def calibrate_sigma(n, batch, target_eps, at_delta, *, epochs=None, steps=None, sampling="poisson",
                    resolution: float = 1e-3) -> DpsgdResult:
    """The smallest sigma (to ``resolution``, relative) with certified eps_upper(at_delta) <= target_eps.

    Each candidate sigma costs one engine composition, so the search spends few: the CLT's sigma (a
    float solve, ``_clt_sigma``) and its multiples make the first bracket, then Illinois regula falsi
    on log(eps_upper / target) against log sigma (``solvers.illinois_bracket``; eps_upper falls
    smoothly with sigma) closes it to ``resolution``; every evaluated sigma is kept, so the final check
    of the reported decimal and the result reuse them.  Before (bisection in log sigma, a 60-step
    CLT bisection on the mp path, the final sigma composed twice): 16 compositions and 29 s CPU for
    T = 5 (n = 60000, batch 256, target 1, delta 1e-5)."""
    _check_sampling(sampling)
    t0 = time.perf_counter()
    q = rate(n, batch)
    T = steps_of(n, batch, epochs, steps)
    target = _mpf(_exact(target_eps, "eps_positive", "target_eps"))
    d = _exact(at_delta, "at_delta", "delta")
    if not 0 < d < 1:
        raise DomainError("at_delta", at_delta, "in (0, 1) for calibration")
    seen: dict = {}

    def eps_up(s: Fraction):
        if s not in seen:
            seen[s] = _composition(q, s, T, sampling).eps(str(at_delta))
        return seen[s].eps_upper

    top = eps_up(SIGMA_MAX)
    if top > target:
        raise DomainError("target_eps", target_eps,
                          f"a target above {mpmath.nstr(top, 6)} (the certified eps at sigma = "
                          f"{SIGMA_MAX}, the largest noise multiplier searched) for these n, batch, steps and delta")
    lo, hi = _first_bracket(eps_up, target, _clt_sigma(q, T, target, at_delta))
    if lo is not None:
        def g(s):
            e = eps_up(s)
            return float(mpmath.log(e / target)) if e > 0 else -math.inf

        def point(a, b, t):
            return Fraction(float(a) * (float(b) / float(a)) ** t).limit_denominator(10**9)
        lo, hi = illinois_bracket(g, lo, hi, g(lo), g(hi), point=point,
                                  stop=lambda lo, hi: not (hi > lo and hi / lo - 1 > Fraction(resolution)),
                                  mid=lambda lo, hi: Fraction(math.sqrt(lo * hi)).limit_denominator(10**9))
    # report a short decimal: hi rounded up to 5 significant digits (more noise: eps can only fall,
    # but the engine's upper end is re-evaluated there, and the next decimal up is tried if it does not
    # meet the target, so the returned sigma is one whose certified eps was seen to meet it)
    sigma = _round_up(hi, 5)
    while eps_up(sigma) > target:
        sigma = _round_up(sigma * Fraction(100001, 100000), 5)
    final = _eps_result(T, q, sigma, seen[sigma], at_delta, t0)
    assert final.eps_upper <= target
    return final


def _first_bracket(eps_up, target, guess: Fraction):
    """(lo, hi) with eps_up(lo) > target >= eps_up(hi) around the CLT's guess, trying the guess and its
    multiples 1.3, 2, 4 (up) or 1/1.3, 1/2, 1/4 (down) before the search limits; (None, SIGMA_MIN)
    when even SIGMA_MIN meets the target.  eps_up(SIGMA_MAX) <= target is the caller's check."""
    guess = min(max(guess, SIGMA_MIN), SIGMA_MAX)
    factors = (Fraction(13, 10), Fraction(2), Fraction(4))
    if eps_up(guess) > target:
        lo = guess
        for f in factors:
            cand = guess * f
            if cand >= SIGMA_MAX:
                break
            if eps_up(cand) <= target:
                return lo, cand
            lo = cand
        return lo, SIGMA_MAX
    hi = guess
    for f in factors:
        cand = guess / f
        if cand <= SIGMA_MIN:
            break
        if eps_up(cand) > target:
            return cand, hi
        hi = cand
    if eps_up(SIGMA_MIN) <= target:
        return None, SIGMA_MIN
    return SIGMA_MIN, hi


def _round_up(x: Fraction, sig: int) -> Fraction:
    """The smallest decimal with ``sig`` significant digits that is >= x (x > 0)."""
    e = math.floor(math.log10(x)) - sig + 1
    unit = Fraction(10) ** e
    r = math.ceil(x / unit) * unit
    return r


def decimal_str(x: Fraction) -> str:
    """A non-negative Fraction whose denominator divides a power of 10, as a plain decimal (exact)."""
    k = 0
    while (x * 10 ** k).denominator != 1:
        k += 1
    digits = str((x * 10 ** k).numerator).rjust(k + 1, "0")
    return digits if k == 0 else f"{digits[:-k]}.{digits[-k:]}"


def _clt_sigma(q: Fraction, T: int, target, at_delta) -> Fraction:
    """sigma with mu_CLT(sigma) = the mu whose G_mu eps at delta is the target (a starting point only: the
    float path's profile, ``numeric.fp``, bisected in log mu to 1e-4; was 60 mp-path steps, 15 s)."""
    import derive

    from . import fp
    tgt = float(target)

    def below(mu):          # eps of G_mu at delta increases with mu; a NaN counts as below (a guess only)
        return not fp.profile_eps(derive.gaussian(repr(float(mu))), at_delta) > tgt
    lo, hi = bisect(below, 1e-6, 100.0, mid=lambda a, b: math.sqrt(a * b),
                    stop=lambda a, b: b / a - 1 < 1e-4)
    # mu = q sqrt(T expm1(1/s^2))  =>  1/s^2 = log1p((mu/q)^2 / T)
    x = math.log1p((lo / float(q)) ** 2 / T)
    return Fraction(1 / math.sqrt(x)).limit_denominator(10**6)


def max_epochs(n, batch, sigma, target_eps, at_delta, *, sampling="poisson", limit: int = 10**5) -> int:
    """The largest whole number of epochs whose certified eps_upper(at_delta) is <= target_eps (0 if none)."""
    _check_sampling(sampling)
    target = _mpf(_exact(target_eps, "eps_positive", "target_eps"))

    def ok(e):
        return account(n, batch, sigma, epochs=str(e), sampling=sampling, at_delta=at_delta).eps_upper <= target
    if not ok(1):
        return 0
    lo, hi = 1, 2
    while ok(hi):
        lo, hi = hi, hi * 2
        if hi > limit:
            return lo
    lo, hi = bisect(ok, lo, hi, stop=lambda lo, hi: hi - lo <= 1, mid=integer_midpoint)
    return lo
