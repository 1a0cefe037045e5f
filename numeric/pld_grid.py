"""The engine's default grid h (numeric.pld): chosen from the steps before any query.

What is here: ``default_grid`` (h from the number of steps, the composed loss spread, the atoms'
common lattice and the scale of irrational atoms), ``GridChoice`` (h and what a query may adapt:
``numeric.pld.Composition._for_query``), and its helpers ``_float_loss_var`` and ``_rational_gcd``.
Every grid gives a certified bracket (numeric.pld's docstring); the choice here only trades width for
time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import pld_mechanisms as M
from .pld_bump import BUMP_GRID_MARGIN
from .pld_fft import MAX_WINDOW


@dataclass(frozen=True)
class GridChoice:
    h: Fraction
    #: whether an eps(delta) query may move h and the knot tolerance (a dyadic grid without atoms)
    adapt: bool = False
    #: the coarsest grid a query may move to, and one step's loss variance (float estimates)
    h_cap: float | None = None
    step_var: float = 0.0
    #: the atoms' common lattice when they must stay on the grid: a query's h is then lattice / m
    lattice: Fraction | None = None


def _coarse_law(model, pad: bool = False):
    """(cell centres, relative masses, cell width w) of one step's heuristic float64 law under P: P(L in (l - w, l])
    from the model's ``log_cell_float`` on about COARSE_CELLS cells of ``rough_range``, scaled so that the largest
    cell is 1, or None when no cell has mass.  ``pad``: w a power of two and the cell ends its multiples, so that
    the left end the model computes, l - w, is exactly the previous cell's right end (with w = (b - a)/4096 and
    a + i w, rounding put a Laplace step's atom at +eps in two neighbouring cells: a law of total mass 1.5), and a
    cell more at each end (an atom at the range's lower end, a Laplace step's at -eps, falls in one).  Only
    estimates read it."""
    a, b = model.rough_range(0.0)
    a, b = max(a, -1e6), min(b, 1e6)
    if not b > a:
        return None
    if pad:
        w = 2.0 ** math.floor(math.log2((b - a) / COARSE_CELLS))
        grid = w * np.arange(math.floor(a / w), math.ceil(b / w) + 2, dtype=float)
    else:
        w = (b - a) / COARSE_CELLS
        grid = a + w * np.arange(1, COARSE_CELLS + 1)
    with np.errstate(all="ignore"):
        lm = model.log_cell_float(grid, w)
    lm = np.where(np.isfinite(lm), lm, -np.inf)
    if not np.isfinite(lm).any():
        return None
    return grid - w / 2, np.exp(lm - np.max(lm)), w


#: cells of ``_coarse_law``, and how many of them a step's loss standard deviation must span for
#: ``estimate_law`` to stand in for its certified untilted measure
COARSE_CELLS = 4096
ESTIMATE_RESOLVE = 16


def _moments(c, m):
    mean = float((m * c).sum() / m.sum())
    return mean, float((m * (c - mean) ** 2).sum() / m.sum())


def _float_loss_var(model) -> float:
    """Heuristic float64 variance of one step's loss under P (``_coarse_law``); it only chooses the default
    grid step, nothing certified depends on it."""
    law = _coarse_law(model)
    return 0.0 if law is None else _moments(law[0], law[1])[1]


def estimate_law(model, h: Fraction):
    """A float stand-in for one step's untilted upper measure on the grid hZ, for the estimates of an eps(delta)
    query (its first saddle-point tilt, ``numeric.pld.Composition._tilt_for``, and ``query_grid``), which read
    nothing else from it: ``_coarse_law`` padded, the masses normalised to the law's total, each cell at the grid
    point nearest its centre.  A lattice step keeps its exact law.  None when the cells do not resolve the law
    (its standard deviation below ESTIMATE_RESOLVE cells: a weakly subsampled step, whose mass sits in a cell or
    two near 0); the certified measure stands in then.  The certified untilted measures of 1000 distinct Laplace
    steps, made only for these estimates, were 1.2 of the 6.1 s of their eps(1e-6) query.  Heuristic: only the
    tilt's knots and the query's grid, hence width and time, depend on it."""
    from .pld_discretise import StepMeasure, _lattice_measure
    exact = _lattice_measure(model, h, "upper")
    if exact is not None:
        return exact
    law = _coarse_law(model, pad=True)
    if law is None:
        return None
    c, m, w = law
    keep = m > 0
    c, m = c[keep], m[keep]
    if not math.sqrt(_moments(c, m)[1]) >= ESTIMATE_RESOLVE * w:
        return None
    hf = float(h)
    knots, where = np.unique(np.rint(c / hf).astype(np.int64), return_inverse=True)
    mass = np.bincount(where, weights=m)
    return StepMeasure(knots, mass / mass.sum(), 0.0, "upper", "float")


def _rational_gcd(values):
    """The largest rational g with every value an integer multiple of g (positive Fractions)."""
    g = values[0]
    for a in values[1:]:
        g = Fraction(math.gcd(g.numerator * a.denominator, a.numerator * g.denominator), g.denominator * a.denominator)
    return g


def checked_entries(components):
    """The (mechanism, count) entries of ``numeric.pld.compose``'s components (a bare mechanism counts
    once), the counts checked."""
    out = []
    for item in components:
        mech, k = (item, 1) if isinstance(item, M.Mechanism) else item
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"count must be an integer >= 1, got {k!r}")
        out.append((mech, k))
    if not out:
        raise ValueError("nothing to compose")
    return out


def _accuracy_count(entries, g: Fraction) -> int:
    """The steps the default grid's accuracy target counts.  Pure-DP steps are exact on any grid that holds
    their atoms (their k-fold law, numeric.lattice_power), so only the others count when the atoms' lattice g
    will be the grid's (RR(0.1) x 10^5 + G_0.5 was put on h = 2.5e-5, the target of 10^5 steps, and beta(0.1)
    asked for a 2^25-point window)."""
    rest = sum(k for mech, k in entries if not all(isinstance(d, M.PureDP) for d in mech.directions))
    if rest and g >= Fraction(min(8e-3 / math.sqrt(rest), 5e-3)) / 16:
        return rest
    return sum(k for _, k in entries)


def default_grid(entries) -> GridChoice:
    """The default grid of a composition of (mechanism, count) entries."""
    K = sum(k for _, k in entries)
    # default: h ~ 0.8e-2 / sqrt(K) * typical loss scale, snapped so that pure-DP atoms lie on it
    # (0.5e-2 before the lower measure kept its first moment; DP-SGD: h = 2^-14, width 1.4e-4)
    atoms = []
    for mech, _ in entries:
        for d in mech.directions:
            for a in d.atoms:
                if a.value > 0:
                    atoms.append(a.value)
    g = _rational_gcd(atoms) if atoms else None
    if atoms and all(isinstance(d, (M.PureDP,)) for mech, _ in entries for d in mech.directions):
        return GridChoice(g)
    K = _accuracy_count(entries, g) if atoms else K
    target = min(8e-3 / math.sqrt(K), 5e-3)
    # a composition whose total loss spread is small (few weakly subsampled steps) needs a grid
    # finer than its spread: at most 1/10 of the composed loss's standard deviation (finer grids
    # cost knots in the long right tail of a subsampled step and did not narrow its bracket)
    spread = math.sqrt(sum(k * _float_loss_var(d) for mech, k in entries for d in mech.directions[:1]))
    if spread > 0:
        target = min(target, spread / 10)
    # a subsampled discrete step (numeric.pld_subsampled) has irrational atoms, never on a knot: its
    # bracket is first order in h / (their distance from 0), so the grid resolves that distance (the
    # pair itself, or the remove pair under a SymmetricHull)
    scales = [s for mech, _ in entries for d in mech.directions
              for s in (getattr(d, "atom_scale", None), getattr(getattr(d, "base", None), "atom_scale", None)) if s]
    if scales:
        target = min(target, min(scales) / 256)
    # a query may adapt the grid only where the loss is continuous (the error model of
    # ``Composition._for_query`` is the second-order one of continuous losses): not for unlisted atoms
    # (the discrete Gaussian's ``atom_places``, a subsampled step's ``knot_hints``)
    discrete = any(hasattr(d, "atom_places") or hasattr(d, "knot_hints") or hasattr(getattr(d, "base", None), "atom_places")
                   for mech, _ in entries for d in mech.directions)
    if atoms:
        # every atom on a knot when their common lattice g is not much finer than the target: atomic
        # steps are then exact (``_lattice_measure``), and distinct Laplace steps eps = 0.0100,
        # 0.0101, ... (g = 1e-4) keep every atom second order (with only the smallest atom on the
        # grid, 200 such steps had a relative width of 1e-2); else the smallest atom.  With every atom on
        # the lattice g the rest of each loss is continuous, so a query may move h to g / m (any m >= 1):
        # 10^4 distinct Laplace steps, eps(1e-6) = 1596 with tilt 0.08, were on h = 2^-10 / 13 and a 2^24 window
        e = g if g >= Fraction(target) / 16 else min(atoms)
        m = max(1, math.ceil(float(e) / target))
        lattice = e == g and not scales and spread > 0 and not discrete
        return GridChoice(e / m, adapt=lattice, h_cap=min(5e-3, spread / 10) if spread > 0 else 5e-3,
                          step_var=spread * spread / K, lattice=g if lattice else None)
    return GridChoice(Fraction(1, 2 ** math.ceil(-math.log2(target))), adapt=not scales and spread > 0 and not discrete,
                      h_cap=min(5e-3, spread / 10) if spread > 0 else 5e-3, step_var=spread * spread / K)


#: an eps(delta) query's grid has at least this many cells per step standard deviation s_1 (``query_grid``).  The
#: second-order error model assumes a step's loss varies smoothly across a cell; a weakly subsampled step's bulk
#: spans a few cells of the model's grid.  On the 80 DP-SGD cells at T in {100, 10^4} (issue #25) the five wider
#: than the 1e-4 asked (q = 0.001, T = 100, sigma 0.6 to 1.1) had s_1 / h < 10 on the model's grid, and every cell
#: with s_1 / h >= 14 was narrower than 1e-4.  sigma = 0.6, delta = 1e-5: 1.4e-4 on 2^-11 (s_1 / h = 6.6), 5.3e-5 on
#: 2^-12 in less time; delta = 1e-10: 3.1e-4 on 2^-10, 3.0e-6 on 2^-12.  At most 4x finer than the model's grid:
#: at delta = 1e-280 (eps = 75.69, s_1 / h = 1.3 on the model's 2^-10) the rule alone took 2^-14 and 8.0 s for a
#: relative width of 5.5e-8, 2^-12 takes 6.1 s for 2.5e-7, and 2^-10 took 2.2 s for 2e-5.  (A second look on the
#: finer grid only after a first one wider than 1e-4 cost the six q = 0.001, T = 100 cells 18.5 s against 15.1.)
#: Only width and time move.
STEP_CELLS = 12


def query_grid(comp, logd: float, delta):
    """(h, tol) of the composition an eps(delta) query of ``comp`` is answered on (``Composition._for_query``).
    Only accuracy and time depend on this choice: every grid and tolerance gives a certified bracket.

    * Grid: the discretisation error of the second-order measures is about K h^2 (lam + 1)^2 / 8
      in relative delta (``numeric.pld``'s docstring, "Accuracy"), and a relative delta error r
      moves eps by about r / lam, so h = sqrt(8 QUERY_RTOL lam eps / (K (lam + 1)^2)) aims at a
      relative eps error QUERY_RTOL; lam and eps are the saddle-point estimates of direction 0 on
      its untilted step measures (cheap: few knots).  The default h (0.8e-2 / sqrt K) is moved to
      the power of two at or below the model's h, coarser up to the default's cap (1/10 of the
      composed spread, 5e-3), finer down to 1/64 of the default.  A large eps (q = 0.1, sigma =
      0.6, T = 10^4: eps = 461) needs a grid 8x coarser than the default, whose relative width
      was 8e-8 against the 1e-4 asked, at 20 s; a small eps with a large tilt (q = 0.001, sigma =
      5, T = 10^4: eps = 0.0595, lam = 130) needs one 32x finer (width 2.8e-2 at the default,
      4.6e-5 on 2^-19).  When the query's FFT window does not fit, the default grid answers.
    * Knot tolerance: at most 1e-4 delta and 1e-6 s_1^2 (s_1 a step's loss
      standard deviation), below the default 1e-7 / K (floored at 1e-16; the cost is bounded by the knot
      budget of ``numeric.pld_discretise._knots``, which took over from a cap of 100x below the default: at
      delta = 1e-10, T = 100 that cap left q = 0.001, sigma = 1.1 at [0.2118, 0.2349], and 1e-16 gives
      [0.23211, 0.23257] in about the same time): the thin regions that decide eps at a small
      delta, and gaps well below s_1, need it (q = 0.001, sigma = 1.1, T = 100, delta = 1e-10:
      width 0.5 at the default, 7e-3 at 1e-13; the sigma = 5 cell above on 2^-19: 5.3e-3, 1.4e-4)."""
    h = comp.h
    if comp._lattice is not None:
        models = comp._models(0)
        cells = max(256, min(FLOAT_CELLS, FLOAT_TOTAL // len(models)))
        ups = [(_float_law(model, h, comp._lattice, cells), k) for model, k in models]
    else:
        ups = comp._estimate_ups(0, comp._trunc(logd))
    cgf = comp._measure_cgf(ups, 0)
    lam = comp._solve_lam(cgf, logd, "delta", margin=BUMP_GRID_MARGIN)
    center = cgf(lam)[1]
    K = sum(k for _, k in comp.entries)
    sd = math.sqrt(max(cgf(lam)[2], 0.0))
    if comp._lattice is not None:
        h = _on_lattice(comp, lam, center, K, sd)
    else:
        if lam > 0 and center > 0:
            model = math.sqrt(8 * comp.QUERY_RTOL * lam * center / (K * (lam + 1) ** 2))
            while 2 * h <= min(model, comp._h_cap):
                h *= 2
            while h > model and h > comp.h / 64:
                h /= 2
        # at least STEP_CELLS cells per step standard deviation, at most 4x finer than the model's grid
        # (``STEP_CELLS``' comment)
        s1, floor = math.sqrt(max(comp._step_var, 0.0)), max(comp.h / 64, h / 4)
        while 0 < s1 < STEP_CELLS * float(h) and h > floor:
            h /= 2
        # coarse enough for the window to fit (q = 0.1, sigma = 0.6, T = 10^6 was refused on finer grids)
        while 24 * sd / float(h) > MAX_WINDOW / 2 and 2 * h <= comp._h_cap:
            h *= 2
    tol = max(1e-16, min(comp.tol, 1e-4 * float(delta), 1e-6 * comp._step_var))
    return h, tol


#: most cells of one step's float law, and of all steps' together (``_float_law``)
FLOAT_CELLS = 1 << 18
FLOAT_TOTAL = 1 << 20


def _float_law(model, h: Fraction, g: Fraction, cells: int):
    """A float stand-in for one step's untilted upper measure, for ``query_grid``'s estimate of an eps(delta)
    query of lattice steps (atoms on the lattice g, h = g / m), which reads nothing else from it.  The
    certified measures on the default grid, made only for this estimate (a lattice query moves to its own
    grid g / m'), were half of the CPU time of 10^4 distinct Laplace steps (72 of 147 s, cProfile).  Here:
    P(L in (l - w/2, l + w/2]) from the model's heuristic ``log_cell_float`` at the points l = w i over its
    ``rough_range``, w = g / j with j the largest divisor of m keeping at most ``cells`` points (else g 2^i):
    every atom sits on its own point, and the rest is a midpoint rule, whose moments agree with the certified
    measure's to second order in w.  An atomic step on the grid keeps its exact law.  Heuristic: only the
    grid, hence width and time, depend on it."""
    from .pld_discretise import StepMeasure, _lattice_measure
    exact = _lattice_measure(model, h, "upper")
    if exact is not None:
        return exact
    a, b = model.rough_range(0.0)
    a, b = max(a, -1e6), min(b, 1e6)
    m = round(g / h)
    fits = [j for j in range(m, 0, -1) if m % j == 0 and (b - a) * j / float(g) <= cells]
    w = g / fits[0] if fits else g * 2 ** max(0, math.ceil(math.log2((b - a) / float(g) / cells)))
    wf = float(w)
    idx = np.arange(math.floor(a / wf), math.ceil(b / wf) + 1, dtype=np.int64)
    with np.errstate(all="ignore"):
        mass = np.exp(model.log_cell_float(idx * wf + wf / 2, wf))
    keep = np.isfinite(mass) & (mass > 0)
    return StepMeasure(idx[keep] * int(w / h), mass[keep], 0.0, "upper", "float")


def _on_lattice(comp, lam: float, center: float, K: int, sd: float) -> Fraction:
    """``query_grid``'s h for steps whose atoms lie on the lattice g: g / m with the smallest m whose h is at
    most the error model's (and the cap), no finer than 1/64 of the default; coarser (smaller m) while the
    window would not fit."""
    g = comp._lattice
    m0 = round(g / comp.h)
    model = math.sqrt(8 * comp.QUERY_RTOL * lam * center / (K * (lam + 1) ** 2)) if lam > 0 and center > 0 else float(comp.h)
    m = min(max(1, math.ceil(float(g) / min(model, comp._h_cap))), 64 * m0)
    while m > 1 and 24 * sd / float(g / m) > MAX_WINDOW / 2:
        m = (m + 1) // 2
    return g / m


#: relative width of a delta(eps) bracket on the default grid beyond which the query is answered again on
#: a finer grid, and the step-measure knots all the runs of one query may be predicted to take (a knot costs
#: about 20-60 microseconds of Arb work; a deterministic budget, so that the same query gives the same bracket)
DELTA_RTOL = 2e-5
DELTA_KNOT_BUDGET = 20000
DELTA_KNOT_CAP = 1_000_000
#: largest FFT window (points) a refined delta(eps) run may need, predicted as 4 times the last run's
DELTA_WINDOW = 2 ** 22


def delta_grid(comp, res, h_last, knots_spent: int, knots_last: int, last=None):
    """The next finer grid a delta(eps) query is answered on (``Composition.delta``), or None.

    Only for the default grid and tolerance with the second-order scheme, while the bracket ``res`` (all
    runs so far intersected) is wider than DELTA_RTOL relative: h_last / 4, down to 1/64 of the default
    h, when the knots of that run keep the query within its budget (all runs of a query together: three
    times the first run's knots, at least DELTA_KNOT_BUDGET, at most DELTA_KNOT_CAP, ~25 s of Arb work)
    and its FFT window stays within DELTA_WINDOW points.  The next run's knots are counted, not guessed:
    ``_knots`` is float work, a small part of a knot's cost, and is asked of every step and tilt of the
    last run (``last``, its composition; without it knots are predicted to grow as 1/h, which holds only
    where every grid point is a knot: 80 distinct Laplace steps need 1.5 times their knots on a 4 times
    finer grid, and the 4x guess refused them; tests/test_delta_refine.py).  The cap keeps large specs at
    one run: 1000 mixed steps (bench generator, delta(1) 15 % wide in 39 s CPU) would need 1.03M + 1.30M
    knots for two runs (3 % wide in 76 s).  Every grid gives a certified bracket, so this choice moves only
    width and time.  The width does not shrink as h^2 where a step has kinks: 10 x Laplace(0.1), delta(0.5):
    5.2e-6 on the default h = 1/400, 2.1e-6 on 1/1600, 8.5e-7 on 1/6400, 5.4e-7 on 1/12800, then flat
    (the knot tolerance)."""
    if comp._explicit or comp.scheme != "interpolate" or not res.delta_upper > 0:
        return None
    rel = float((res.delta_upper - res.delta_lower) / res.delta_upper)
    if not rel > DELTA_RTOL or h_last / 4 < comp.h / 64:
        return None
    budget = max(DELTA_KNOT_BUDGET, min(3 * comp._knot_count(), DELTA_KNOT_CAP))
    if last is None:
        need = 4 * knots_last
    else:
        if 4 * _window_points(last) > DELTA_WINDOW:
            return None
        need = _knots_at(last, h_last / 4)
    if knots_spent + need > budget:
        return None
    return h_last / 4


def _knots_at(comp, h) -> int:
    """The knots the step measures ``comp`` made so far (every direction and tilt) would have on the grid h,
    counted as ``Composition._knot_count`` counts them (per direction): float work only
    (``pld_discretise._knots``), the cost model of ``delta_grid``."""
    from .pld_discretise import _knots, _lattice_measure
    counted, n = {}, 0
    for d, bucket, *_ in comp._meas_cache:      # (an eps(delta) query's keys also hold its truncation)
        for model, _ in comp._models(d):
            key = (id(model), bucket)
            if key not in counted:
                counted[key] = (0 if _lattice_measure(model, h, "upper") is not None
                                else len(_knots(model, h, bucket, comp.tol)))
            n += counted[key]
    return n


def _window_points(comp) -> int:
    """The largest FFT window (points) of the compositions ``comp`` made so far (0 if none)."""
    return max((got[0].n_points for got in comp._cache.values()), default=0)
