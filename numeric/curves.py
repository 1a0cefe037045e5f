"""Trade-off curves as data: the points a plot draws, computed on the verified mp path, with the checks
every drawn trade-off curve must pass (issue #13 items 1 and 4).

A ``Curve`` holds, for each alpha of a grid, beta = f(alpha) and the power 1 - f(alpha) (computed without
subtraction: ``numeric.mp.power``) as mpf values at ``digits`` verified digits, and their base-10
logarithms, so that a log-log plot of alpha against 1 - f reaches alpha = 1e-300 and below, where a
float64 library flattens or shows a power below alpha.  Grids are exact decimals (``log_grid`` gives
10^t for t on an even grid, written as exact decimal strings), so every point is reproducible from the
CSV beside the image.

``check_curve`` verifies from the data alone what a trade-off function must satisfy (Dong, Roth, Su 2022,
Prop. 2.2; seed 004 Sec. 2): 0 <= f <= 1 - alpha (power >= alpha), non-increasing, and convex (every
chord slope between consecutive points non-decreasing), each up to the verified error of the points.
A curve that fails is not drawn (the plot command refuses with the reason).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

import mpmath

from derive.tradeoff import TradeOff

from .bridge import mpf_of


@dataclass(frozen=True)
class Curve:
    """One labelled trade-off curve on an exact alpha grid (values verified to ``digits``)."""

    label: str
    alphas: tuple           # exact decimal strings
    beta: tuple             # mpf, f(alpha)
    power: tuple            # mpf, 1 - f(alpha) without subtraction
    digits: int
    kind: str = "tradeoff"  # "tradeoff" | "bound" | "approximation" | "band"
    notes: tuple = field(default_factory=tuple)

    def log10_alpha(self):
        with mpmath.workdps(self.digits + 10):
            return [float(mpmath.log10(mpmath.mpf(a))) if mpmath.mpf(a) > 0 else float("-inf") for a in self.alphas]

    def log10_power(self):
        with mpmath.workdps(self.digits + 10):
            return [float(mpmath.log10(p)) if p > 0 else float("-inf") for p in self.power]

    def as_dict(self, digits: int | None = None) -> dict:
        n = digits or self.digits
        return {"label": self.label, "kind": self.kind, "digits": n,
                "points": [{"alpha": a, "beta": mpmath.nstr(b, n), "power": mpmath.nstr(p, n)}
                           for a, b, p in zip(self.alphas, self.beta, self.power)]}


def log_grid(lo_exp: float, hi: str = "0.5", n: int = 60) -> list[str]:
    """n exact decimals 10^t, t evenly spaced from lo_exp to log10(hi) (hi included exactly)."""
    with mpmath.workdps(30):
        top = mpmath.log10(mpmath.mpf(hi))
        ts = [mpmath.mpf(lo_exp) + (top - lo_exp) * i / (n - 1) for i in range(n - 1)]
        out = [mpmath.nstr(mpmath.power(10, t), 6, min_fixed=-5, max_fixed=1) for t in ts]
    return out + [hi]


def lin_grid(lo: str = "0", hi: str = "1", n: int = 101) -> list[str]:
    with mpmath.workdps(30):
        a, b = mpmath.mpf(lo), mpmath.mpf(hi)
        pts = [a + (b - a) * i / (n - 1) for i in range(n)]
        return [mpmath.nstr(x, 12, min_fixed=-13, max_fixed=1) for x in pts]


def mixed_grid(n: int = 81) -> list[str]:
    """About n exact decimals on [0, 1]: a linear grid, refined towards alpha = 0 by a log grid from 1e-6
    (where steep curves such as G_2 bend), sorted and without repeats."""
    lin = lin_grid("0", "1", max(n - n // 4, 2))
    near = log_grid(-6, "0.05", max(n // 4, 2))
    with mpmath.workdps(30):
        return sorted(set(lin) | set(near), key=lambda x: mpmath.mpf(x))


def tradeoff_curve(record: TradeOff, alphas, digits: int = 15, label: str | None = None) -> Curve:
    """f and 1 - f of a bound record on the grid, by ``numeric.mp`` (verified digits)."""
    from . import mp
    betas, powers = [], []
    for a in alphas:
        b = mpmath.mpf(mpf_of(mp.tradeoff(record, a, digits)))
        betas.append(b)
        if b > mpmath.mpf(1) / 2:
            powers.append(mpmath.mpf(mpf_of(mp.power(record, a, digits))))     # 1 - f small: its own form
        else:
            with mpmath.workdps(digits + 10):
                powers.append(1 - b)        # 1 - f >= 1/2: the subtraction loses at most one bit
    return Curve(label or str(record), tuple(alphas), tuple(betas), tuple(powers), digits)


def subsampled_curve(record: TradeOff, p, alphas, digits: int = 15) -> Curve:
    """C_p(f) of a bound symmetric record on the grid (numeric.subsampling, verified digits)."""
    from derive.domains import parse_in

    from .compose_exact import _mp
    from .precision import verified
    from .subsampling import ZERO_CHECK_CURVE, Subsampled, _exact_or
    s = Subsampled(record, p)
    betas, powers = [], []
    for a in alphas:
        x = parse_in("alpha", a, "alpha")
        betas.append(mpmath.mpf(mpf_of(verified(lambda: _exact_or(lambda: s.tradeoff(_mp(x))[0], ZERO_CHECK_CURVE), digits))))
        powers.append(mpmath.mpf(mpf_of(verified(lambda: _exact_or(lambda: s.tradeoff(_mp(x))[1], ZERO_CHECK_CURVE), digits))))
    return Curve(f"C_p({record}), p = {p}", tuple(alphas), tuple(betas), tuple(powers), digits)


def thinned(grid, n: int) -> list:
    """About n points of ``grid``, evenly spaced in index, both ends kept."""
    step = max((len(grid) - 1) // max(n - 1, 1), 1)
    out = list(grid[::step])
    if out[-1] != grid[-1]:
        out.append(grid[-1])
    return out


def timed_grid(record: TradeOff, alphas, coarse, digits: int = 15, budget: float = 0.25):
    """``alphas``, or ``coarse`` when one point of this record costs more than ``budget`` seconds (huge
    parameters make every verified evaluation slow): (grid, note)."""
    import time

    from . import mp
    t0 = time.perf_counter()
    mp.tradeoff(record, alphas[len(alphas) // 2], digits)
    if time.perf_counter() - t0 > budget:
        return coarse, f"coarse grid of {len(coarse)} points: one verified point of {record} costs " \
                       f"{time.perf_counter() - t0:.2f} s"
    return alphas, ""




@dataclass(frozen=True)
class Series:
    """A labelled y(x) series of any other plotted quantity (posterior, relative risk, power), values
    verified to ``digits``; x are exact decimals."""

    label: str
    x: tuple
    y: tuple
    digits: int
    kind: str = "series"

    def as_dict(self, digits: int | None = None) -> dict:
        n = digits or self.digits
        return {"label": self.label, "kind": self.kind, "digits": n,
                "points": [{"x": a, "y": mpmath.nstr(b, n)} for a, b in zip(self.x, self.y)]}


def series(label: str, xs, fn, digits: int = 15, kind: str = "series") -> Series:
    """y = fn(x) (an mpf or an exact result) on the exact grid ``xs``."""
    return Series(label, tuple(xs), tuple(mpmath.mpf(mpf_of(fn(x))) for x in xs), digits, kind)


def write_series_csv(path, items, xname: str, yname: str) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["series", "kind", xname, yname])
        for s in items:
            for a, b in zip(s.x, s.y):
                w.writerow([s.label, s.kind, a, mpmath.nstr(b, s.digits)])


@dataclass(frozen=True)
class CurveCheck:
    ok: bool
    reason: str = ""
    points: int = 0


def check_curve(curve: Curve) -> CurveCheck:
    """power >= alpha, f non-increasing and convex on the curve's points, up to the verified error."""
    with mpmath.workdps(curve.digits + 10):
        tol = mpmath.mpf(10) ** (-(curve.digits - 2))
        a = [mpmath.mpf(x) for x in curve.alphas]
        f, pw = curve.beta, curve.power
        for x, p, b in zip(a, pw, f):
            if p < x * (1 - tol) - tol * mpmath.mpf(10) ** -300:
                return CurveCheck(False, f"power {mpmath.nstr(p, 6)} < alpha {mpmath.nstr(x, 6)}", len(a))
            if b < -tol or b > 1 + tol:
                return CurveCheck(False, f"f = {mpmath.nstr(b, 6)} outside [0, 1] at alpha {mpmath.nstr(x, 6)}", len(a))
        err = [tol * abs(p) for p in pw]                 # the verified error of each point
        for i in range(len(a) - 1):
            # non-increasing: power non-decreasing (power is the accurate side in the tail)
            if pw[i + 1] < pw[i] - (err[i] + err[i + 1]):
                return CurveCheck(False, f"f increases between alpha {curve.alphas[i]} and {curve.alphas[i + 1]}",
                                  len(a))
        slopes, slack = [], []
        for i in range(len(a) - 1):
            if a[i + 1] > a[i]:
                da = a[i + 1] - a[i]
                slopes.append((pw[i + 1] - pw[i]) / da)           # = -(chord slope of f)
                slack.append((err[i] + err[i + 1]) / da)          # its error bound
        for i in range(len(slopes) - 1):
            # f convex: chord slopes of f non-decreasing, i.e. those of the power non-increasing
            if slopes[i + 1] - slopes[i] > slack[i] + slack[i + 1]:
                return CurveCheck(False, f"f is not convex near alpha {curve.alphas[i + 1]}", len(a))
    return CurveCheck(True, "", len(a))


def write_csv(path, curves) -> None:
    """One row per point: series, kind, alpha, beta, power (verified digits, exact alpha)."""
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["series", "kind", "alpha", "beta", "power"])
        for c in curves:
            for a, b, p in zip(c.alphas, c.beta, c.power):
                w.writerow([c.label, c.kind, a, mpmath.nstr(b, c.digits), mpmath.nstr(p, c.digits)])


__all__ = ["Curve", "Series", "series", "write_series_csv", "CurveCheck", "log_grid", "lin_grid", "mixed_grid",
           "thinned", "timed_grid", "tradeoff_curve", "check_curve", "write_csv"]
