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


@dataclass(frozen=True)
class GridChoice:
    h: Fraction
    #: whether an eps(delta) query may move h and the knot tolerance (a dyadic grid without atoms)
    adapt: bool = False
    #: the coarsest grid a query may move to, and one step's loss variance (float estimates)
    h_cap: float | None = None
    step_var: float = 0.0


def _float_loss_var(model) -> float:
    """Heuristic float64 variance of one step's loss under P (4096 cells of ``rough_range``); it only
    chooses the default grid step, nothing certified depends on it."""
    a, b = model.rough_range(0.0)
    a, b = max(a, -1e6), min(b, 1e6)
    if not b > a:
        return 0.0
    w = (b - a) / 4096
    grid = a + w * np.arange(1, 4097)
    with np.errstate(all="ignore"):
        lm = model.log_cell_float(grid, w)
    lm = np.where(np.isfinite(lm), lm, -np.inf)
    if not np.isfinite(lm).any():
        return 0.0
    m = np.exp(lm - np.max(lm))
    c = grid - w / 2
    mean = float((m * c).sum() / m.sum())
    return float((m * (c - mean) ** 2).sum() / m.sum())


def _rational_gcd(values):
    """The largest rational g with every value an integer multiple of g (positive Fractions)."""
    g = values[0]
    for a in values[1:]:
        g = Fraction(math.gcd(g.numerator * a.denominator, a.numerator * g.denominator), g.denominator * a.denominator)
    return g


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
    if atoms:
        # every atom on a knot when their common lattice g is not much finer than the target: atomic
        # steps are then exact (``_lattice_measure``), and distinct Laplace steps eps = 0.0100,
        # 0.0101, ... (g = 1e-4) keep every atom second order (with only the smallest atom on the
        # grid, 200 such steps had a relative width of 1e-2); else the smallest atom
        e = g if g >= Fraction(target) / 16 else min(atoms)
        m = max(1, math.ceil(float(e) / target))
        return GridChoice(e / m)
    # a query may adapt the grid only where the loss is continuous (the error model of
    # ``Composition._for_query`` is the second-order one of continuous losses): not for unlisted atoms
    # (the discrete Gaussian's ``atom_places``, a subsampled step's ``knot_hints``)
    discrete = any(hasattr(d, "atom_places") or hasattr(d, "knot_hints") or hasattr(getattr(d, "base", None), "atom_places")
                   for mech, _ in entries for d in mech.directions)
    return GridChoice(Fraction(1, 2 ** math.ceil(-math.log2(target))), adapt=not scales and spread > 0 and not discrete,
                      h_cap=min(5e-3, spread / 10) if spread > 0 else 5e-3, step_var=spread * spread / K)

