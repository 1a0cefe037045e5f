"""The engine's tilt below a far bump of the tilted step (Poisson-subsampled Gaussian steps).

A Poisson-subsampled Gaussian step's privacy loss grows linearly in the noise far out, so its law tilted
by e^{lam l} is the untilted bulk plus a Gaussian bump at noise ~ lam whose weight, about
e^{lam^2 / (2 sigma^2) + lam log q}, overtakes the bulk near lam = 2 sigma^2 log(1/q).  Past that tilt the
tilted composition is bimodal.  Its FFT window and the knots placed for it spread over the bump: 132807
knots at lam = 58.7 against 3339 at 53.8 for q = 0.001, sigma = 2, T = 100.  Yet an eps(delta) query
usually reads the bulk, many small losses adding up.  The saddle-point estimate of
``numeric.pld.Composition._solve_lam`` sees the bump in the cumulant generating function and lands past
the onset whenever the bulk's own saddle lies beyond it.

``bump_tilt`` caps the tilt just below the onset: the last point of a ladder of ratio 2^(1/4) before the
composition's tilted variance first passes BUMP_VARIANCE times its untilted one.  It leaves the tilt
uncapped when the query reads the bump itself, i.e. when eps is made by one large step (q = 0.001,
sigma = 1.1, T = 100, delta = 1e-10: eps = 0.232).  The test: the steps' own hockey sticks summed,
sum_j k_j delta_j(eps) (``K.jump``, a union estimate of the one-large-step event), against the bulk's
estimate at the capped tilt (``bulk_log_delta``: the saddle-point estimate of a Gaussian continuation of
the cumulant generating function beyond the cap).  If the steps' own term is within BUMP_MARGIN of the
bulk's at the bulk's eps, the cap is dropped.

Any tilt gives certified bounds (``numeric.pld``'s docstring): the tilt moves width and time only, so
nothing here bears on validity.  The effect on the DP-SGD grid is in BENCHMARKS.md (sixteenth session).
"""

from __future__ import annotations

import math

from .solvers import bisect

#: the cap stops the tilt below the composition's variance growing this many times
BUMP_VARIANCE = 4.0
#: the one-large-step term must lie this far (log) below the bulk's delta for the cap to stay
BUMP_MARGIN = 1.0
#: the same for the query grid's estimate (``numeric.pld_grid.query_grid``), made on the default grid's coarser
#: measures: wider, so that a grid chosen under the cap is not then read by an uncapped tilt (q = 0.001,
#: sigma = 1.1, T = 100, delta = 1e-5: margin 2.7 on the default grid, 0.8 on the query's; the uncapped tilt
#: on the capped tilt's finer grid took 7.9 s against 1.8 s)
BUMP_GRID_MARGIN = 3.0
#: ratio of the tilt ladder
LADDER = 2 ** 0.25


def onset(K, cap):
    """The last ladder tilt before the tilted variance passes BUMP_VARIANCE times the untilted one, or None
    when it never does below ``cap`` (or the untilted variance is 0)."""
    v0 = K(0.0)[2]
    if not v0 > 0:
        return None
    prev, lam = 0.0, min(1.0, cap)
    while lam <= cap:
        if K(lam)[2] > BUMP_VARIANCE * v0:
            return prev
        prev, lam = lam, lam * LADDER
    return None


def bulk_log_delta(K, lam_b, eps):
    """Saddle-point estimate of log delta(eps) from the Gaussian continuation of K beyond lam_b:
    K_b(lam) = K(lam_b) + (lam - lam_b) m + (lam - lam_b)^2 v / 2 with (m, v) = (K', K'') at lam_b."""
    k0, m, v = K(lam_b)
    v = max(v, 1e-300)
    lam = max(lam_b + (eps - m) / v, 1e-9)
    d = lam - lam_b
    kb = k0 + d * m + d * d * v / 2
    return kb - lam * eps - math.log(lam * (lam + 1) * math.sqrt(2 * math.pi * v))


def bulk_eps(K, lam_b, logd):
    """The eps at which ``bulk_log_delta`` falls to logd (it decreases in eps right of the capped centre)."""
    _, m, v = K(lam_b)
    s = math.sqrt(max(v, 0.0))
    lo, hi = m, m + max(s, 1e-300)
    for _ in range(200):
        if bulk_log_delta(K, lam_b, hi) <= logd:
            break
        lo, hi = hi, hi + 2 * (hi - m)
    _, hi = bisect(lambda e: bulk_log_delta(K, lam_b, e) > logd, lo, hi, steps=60)
    return hi


def bump_tilt(K, cap, target, mode, margin=BUMP_MARGIN):
    """The tilt cap for a query: ``onset(K, cap)``, or ``cap`` when the query reads the bump.  ``mode``
    "delta": target is log delta, the bulk's eps is ``bulk_eps``; "mean": target is the eps itself."""
    lam_b = onset(K, cap)
    if lam_b is None or lam_b <= 0:
        return cap
    if mode == "delta":
        eps, logd = bulk_eps(K, lam_b, target), target
    else:
        eps = target
        if eps <= K(lam_b)[1]:
            return lam_b
        logd = bulk_log_delta(K, lam_b, eps)
    jump = getattr(K, "jump", None)
    if jump is not None and jump(eps) > logd - margin:
        return cap
    return lam_b


#: cells of each segment of the float laws ``float_jump`` reads, and the segments (fractions of eps..top)
JUMP_CELLS = 256
SEGMENTS = (0.0, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)


def float_jump(models):
    """eps -> log sum_j k_j delta_j(eps) over the [(model, k)] whose tilt has a bump, each delta_j the step's
    own hockey stick E_P (1 - e^{eps - L})_+ from its float law (``log_cell_float`` on JUMP_CELLS cells in each
    of the SEGMENTS from eps to the top of its ``rough_range``, each cell's mass at its midpoint).  The engine's default-grid upper
    measures (a few dozen knots) move their mass to the right end of wide cells and overstated the term by
    e^50 (q = 0.001, sigma = 5, T = 100), dropping a cap the query's own measures then kept."""
    import numpy as np

    from .pld_fft import _logsumexp
    steps = [(m, k) for m, k in models if getattr(m, "tilt_bump", False)]

    def jump(eps):
        logs = []
        for model, k in steps:
            top = model.rough_range(0.0)[1]
            if not top > eps:
                continue
            lm = []
            for a, b in zip(SEGMENTS[:-1], SEGMENTS[1:]):      # cells fine near eps, where (1 - e^{eps - l}) moves
                w = (top - eps) * (b - a) / JUMP_CELLS
                right = eps + (top - eps) * a + w * np.arange(1, JUMP_CELLS + 1)
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    lm.append(model.log_cell_float(right, w) + np.log(-np.expm1(eps - (right - w / 2))))
            lm = np.concatenate(lm)
            lm = lm[np.isfinite(lm)]
            if len(lm):
                logs.append(math.log(k) + _logsumexp(lm))
        return _logsumexp(np.array(logs)) if logs else -math.inf
    return jump
