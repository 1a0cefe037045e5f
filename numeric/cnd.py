"""Canonical noise distributions (Awan and Vadhan 2023; seed 004 Sec. 3.2, catalog 004 "AV23").

For a symmetric, non-trivial trade-off function f (f = f^{-1}, and f(alpha) < 1 - alpha
somewhere), let c in [0, 1/2) be the fixed point f(c) = c.  The CDF

    F(x) = c (1/2 - x) + (1 - c)(x + 1/2)     on [-1/2, 1/2],
    F(x) = 1 - f(F(x - 1))                    for x > 1/2,
    F(x) = f(1 - F(x + 1))                    for x < -1/2,

defines a law N, symmetric about 0, with T(N, N + 1) = f (catalog 004, AV23 construction; the
same recursion is OpenDP's ``quantile_cnd``, "Prop. F.6 of AV23").  CNDs are not unique: for G_mu,
N(0, 1/mu^2) is another one (its T(N, N + 1) is also G_mu).

Evaluation.  By symmetry 1 - F(x) = F(-x), so only x >= 0 needs the recursion, written for the
survival function S = 1 - F, which is what the tail needs (never 1 - F by subtraction):

    S(x) = 1/2 - (1 - 2c) x              on [0, 1/2],
    S(x) = f(1 - S(x - 1))               for x > 1/2.

The quantile inverts each step: for u in [c, 1 - c] it is linear; for u > 1 - c,
F(x) = u = 1 - f(F(x - 1)) means F(x - 1) = f^{-1}(1 - u) = f(1 - u) (f^{-1} = f by symmetry), so
Q(u) = 1 + Q(f(1 - u)), and so on down to the linear piece; Q(u) = -Q(1 - u) below 1/2.  The mp functions run the recursion at the
working precision inside ``numeric.precision.verified`` (two precisions must agree); the fp sampler
runs it vectorised in float64 (inverse-CDF sampling).

``cdf`` returns a frozen dataclass, ``CdfResult`` (``numeric.display.ResultDisplay``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath

from derive.errors import DomainError
from derive.mechanisms import facts as K
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from .bridge import compile_mp, to_mpf
from .display import ResultDisplay
from .inputs import bound_env
from .precision import verified_mpf
from .solvers import bisect, geometric_midpoint


@dataclass(frozen=True)
class CdfResult(ResultDisplay):
    """F(x) and 1 - F(x) (``survival``, never formed by subtraction), each to ``digits`` verified digits."""
    cdf: object
    survival: object
    note: str
    digits: int = 15

#: the smallest fixed point searched for (2^-3322 ~ 1e-1000)
SMALLEST_C = mpmath.ldexp(1, -3322)
#: recursion steps allowed (|x| above this many units is refused: S(x) underflows any precision budget)
MAX_STEPS = 10_000
#: the smallest tail 1 - F(|x|) the CDF computes (the recursion works at ~ -log10(tail) digits;
#: 1e-60: ~3 s for G_1 at x = 15)
SMALLEST_TAIL = mpmath.mpf(10) ** -60
SMALLEST_TAIL_INV = 10 ** 60      # the same bound, exact, for the quantile's levels
NOTE = ("CNDs are not unique: this is the Awan-Vadhan construction from f's fixed point; for G_mu, "
        "N(0, 1/mu^2) is another canonical noise distribution")


def _check(record: TradeOff):
    if record.fact(K.NO_PRIVACY):
        raise DomainError("mechanism", str(record), "a mechanism with noise (f = 0 here: its canonical noise "
                          "would be the uniform law on [-1/2, 1/2], which separates N from N + 1 perfectly)")
    if not record.symmetric:
        raise DomainError("mechanism", str(record), "a symmetric trade-off function (this one is not; "
                          "use its symmetrisation max(f, f^-1))")
    if not record.is_bound:
        raise DomainError("mechanism", str(record), "a record with every parameter given")


class _F:
    """f at mpf arguments, at the ambient precision, and its fixed point."""

    def __init__(self, record: TradeOff):
        self.record = record
        self.fn = compile_mp(record.bind(record.tradeoff))
        self.env = bound_env(record)

    def __call__(self, a):
        self.env[ALPHA] = a
        return to_mpf(self.fn(self.env))

    def fixed_point(self):
        """c with f(c) = c: bisection on f(a) - a, which is decreasing, on [SMALLEST_C, 1/2]."""
        lo, hi = SMALLEST_C, mpmath.mpf(1) / 2
        if self(hi) >= hi:
            raise DomainError("mechanism", "f", "a non-trivial trade-off function (f = 1 - alpha: no "
                              "privacy loss, no canonical noise)")
        if self(lo) <= lo:
            raise DomainError("mechanism", "f", "a trade-off function whose fixed point c = f(c) is above "
                              "1e-1000 (this one's is smaller: the CND's tails start below 1e-1000)")
        above = lambda a: self(a) > a       # noqa: E731  (f(a) - a > 0: c is right of a)
        # geometric bisection first (c may be 1e-500), then arithmetic, to full relative precision
        lo, hi = bisect(above, lo, hi, stop=lambda lo, hi: not hi > 2 * lo, mid=geometric_midpoint)
        lo, hi = bisect(above, lo, hi, steps=mpmath.mp.prec + 10)
        return (lo + hi) / 2


def fixed_point(record: TradeOff, digits: int = 15):
    """c = f(c), to ``digits`` verified digits."""
    _check(record)
    return verified_mpf(lambda: _F(record).fixed_point(), digits)


def _survival(f: _F, c, x, shown=None):
    """S(x) = 1 - F(x) for x >= 0 at the ambient precision.

    Each step forms 1 - s, which needs the working precision to reach below s: a tail S(x) of 1e-N
    costs N digits (cnd gaussian --mu 1 --x 40, S ~ 1e-350, ran > 120 s).  A tail below SMALLEST_TAIL,
    once the working precision resolves it, is refused (DomainError naming x, ``shown``)."""
    steps = 0
    while x > mpmath.mpf(1) / 2:
        x -= 1
        steps += 1
    s = mpmath.mpf(1) / 2 - (1 - 2 * c) * x
    resolved = mpmath.ldexp(1, -mpmath.mp.prec + 20) < SMALLEST_TAIL
    for k in range(steps):
        s = f(1 - s)
        # s = 0 at a resolving precision: f vanished (an (eps, delta) record past 1 - delta); refused at once,
        # as no precision makes a floating 0 verified (approx-dp eps 1, delta 0.1 at x = 2.5 ran 73 s, then
        # exhausted 20000 digits)
        if resolved and s < SMALLEST_TAIL and (k + 1 < steps or s == 0):
            raise DomainError("x", shown, f"small enough in |x| that 1 - F(|x|) >= {mpmath.nstr(SMALLEST_TAIL, 3)} "
                              f"for {f.record} (here the tail passes below it after {k + 1} of {steps} unit "
                              "steps; each further one costs as many digits as the tail is small"
                              + ("; here it is 0: f vanishes there, and F reaches 1" if s == 0 else "") + ")")
    return s


def cdf(record: TradeOff, x, digits: int = 15) -> CdfResult:
    """F(x) and 1 - F(x) at an exact x, each to ``digits`` verified digits.

    The small side is the recursion r = S(|x|) (S(x) for x >= 0, F(x) = S(-x) for x < 0 by
    symmetry); the large side is 1 - r, which never cancels (r <= 1/2)."""
    from derive.exact import rational
    _check(record)
    xv = rational("x", x)
    if abs(xv) > MAX_STEPS:
        raise DomainError("x", x, f"in [-{MAX_STEPS}, {MAX_STEPS}]")

    def side(small: bool):
        def compute():
            f = _F(record)
            r = _survival(f, f.fixed_point(), abs(mpmath.mpf(xv.p) / xv.q), x)
            return r if small else 1 - r
        return compute
    small, large = verified_mpf(side(True), digits), verified_mpf(side(False), digits)
    if xv >= 0:
        return CdfResult(cdf=large, survival=small, note=NOTE, digits=digits)
    return CdfResult(cdf=small, survival=large, note=NOTE, digits=digits)


class _BeyondSteps(Exception):
    """The quantile recursion took more than MAX_STEPS steps (the level's quantile is that far out)."""


def _quantile_upper(f: _F, c, s):
    """Q(1 - s) for a level 1 - s in [1/2, 1), given by its complement s in (0, 1/2] (exact at the
    ambient precision: 1 - s is not rounded to 1 when s is 1e-50)."""
    u = 1 - s
    shift = 0
    while u > 1 - c:                # F(x) = u > 1 - c  =>  F(x - 1) = f(1 - u)
        u = f(1 - u)
        shift += 1
        if shift > MAX_STEPS:
            raise _BeyondSteps()
    return shift + (u - mpmath.mpf(1) / 2) / (1 - 2 * c)


def quantile(record: TradeOff, u, digits: int = 15):
    """F^{-1}(u), u in (0, 1), to ``digits`` verified digits.

    Q(u) = -Q(1 - u) below 1/2; the upper level 1 - s is formed from the smaller side s = min(u, 1 - u),
    taken exactly, at the working precision plus the bits of 1/s, so that 1 - s keeps s (issue #25
    item 3: at 1e-50, 1 - s rounded to 1 and the recursion never left the tail)."""
    from derive.domains import parse_in
    _check(record)
    uv = parse_in("alpha_open", u, "quantile")
    if uv * 2 == 1:
        return mpmath.mpf(0)          # the median of a symmetric law, exactly (verified() never accepts a float 0)
    small, sign = (uv, -1) if uv * 2 < 1 else (1 - uv, 1)
    if small * SMALLEST_TAIL_INV < 1:   # the tails the CDF computes (SMALLEST_TAIL): --x and --quantile agree
        raise DomainError("quantile", u, "a level in [1e-60, 1 - 1e-60], the tails the CDF computes (a level "
                          "1e-N costs about N extra digits of working precision)")
    extra = max(0, small.q.bit_length() - small.p.bit_length()) + 10

    def compute():
        f = _F(record)
        c = f.fixed_point()
        with mpmath.workprec(mpmath.mp.prec + extra):
            return sign * _quantile_upper(f, c, mpmath.mpf(small.p) / small.q)
    try:
        return verified_mpf(compute, digits)
    except _BeyondSteps:
        raise DomainError("quantile", u, f"a level in (0, 1) whose quantile is within {MAX_STEPS} units of 0 "
                          f"(|F^-1(U)| <= {MAX_STEPS}, the range of --x); this level's quantile is farther "
                          "out") from None


# ------------------------------------------------------------------ float path

def _fp_parts(record: TradeOff):
    from . import fp
    c = float(fixed_point(record, 17))
    return (lambda a: fp.tradeoff(record, a)), c


def quantile_fp(record: TradeOff, u):
    """F^{-1}(u) vectorised in float64 (the sampler's inverse CDF)."""
    import numpy as np
    _check(record)
    f, c = _fp_parts(record)
    u = np.asarray(u, dtype=float)
    sign = np.where(u < 0.5, -1.0, 1.0)
    v = np.where(u < 0.5, 1.0 - u, u)
    shift = np.zeros_like(v)
    todo = v > 1 - c
    steps = 0
    while np.any(todo):
        v[todo] = np.asarray(f(1.0 - v[todo]), dtype=float)
        shift[todo] += 1
        todo = v > 1 - c
        steps += 1
        if steps > MAX_STEPS:
            level = float(np.asarray(u)[todo].flat[0])
            raise DomainError("quantile", repr(level), f"a level whose quantile is within {MAX_STEPS} units of 0")
    return sign * (shift + (v - 0.5) / (1 - 2 * c))


def cdf_fp(record: TradeOff, x):
    """F(x) vectorised in float64 (for goodness-of-fit tests of the sampler)."""
    import numpy as np
    _check(record)
    f, c = _fp_parts(record)
    x = np.asarray(x, dtype=float)
    a = np.abs(x)
    steps = np.maximum(np.ceil(a - 0.5), 0)
    s = 0.5 - (1 - 2 * c) * (a - steps)
    for k in range(int(steps.max()) if steps.size else 0):
        live = steps > k
        s[live] = np.asarray(f(1.0 - s[live]), dtype=float)
    return np.where(x >= 0, 1.0 - s, s)


def sample(record: TradeOff, n: int, seed: int | None = None):
    """``n`` draws of the CND by inverse-CDF sampling (numpy's default generator, ``seed``)."""
    import numpy as np

    from derive.domains import parse_in
    count = int(parse_in("samples", n, "samples"))
    rng = np.random.default_rng(seed)
    u = rng.random(count)
    u[u == 0.0] = math.ulp(0.0)         # (0, 1): the generator can return 0
    return quantile_fp(record, u)
