"""An eps(delta) query's truncation of the steps' far loss tails (issue #25, the DP-SGD cells at T = 100 and
q = 0.001 whose brackets sat on the certified FFT error floor).

Why.  A Poisson-subsampled Gaussian step's loss grows linearly in the noise, so its law tilted by e^{lam l}
carries a far bump (``numeric.pld_bump``).  A tilt that follows the bump needs a window reaching it, and
one capped below it leaves the query's grid values under the FFT's error bound.  Yet the bump's P-mass is
astronomically small: at q = 0.001, sigma = 1.1 the P-mass above the loss 1.5 is below 1e-20, where the
query's delta is 1e-10 over 100 steps.

What.  For an eps(delta) query over K steps, each step's knots stop at the loss ``tail_point(trunc)`` above
which the step's P-mass is about e^trunc, trunc = log delta - log K - TRUNC_MARGIN (``query_trunc``).
The bump then lies above the last knot and never enters the tilted FFT.

Why the bracket stays certified.  Nothing here is part of the argument: the step measures are valid
wherever their last knot is.  The upper measure moves the P-mass above its last knot to +inf
(``pld_discretise._upper_ctd``: (1 - s e^-l)_+ only grows, Lemma 1 of ``numeric.pld``), and the composed
delta's upper end adds P(some step at +inf) <= K e^trunc ~ delta e^-TRUNC_MARGIN.  The lower measure's
hockey stick is 0 beyond its last knot (``pld_discretise._lower_hull``), below the true one.  The float
``tail_point`` is a heuristic: a wrong one moves width, never validity.
"""

from __future__ import annotations

import math

#: the truncated P-mass of all K steps together, relative to the query's delta: e^-TRUNC_MARGIN (1e-6).  It
#: moves eps's upper end by about 1e-6 / (lam eps) relative (lam the query's tilt).  The lower the last knot, the
#: less tilted mass the window carries above the query's eps: q = 0.001, sigma = 1.1, T = 100, delta = 1e-10 (a
#: query decided by one large step, its eps in the trough between the tilted law's two modes) was 1.2e-4 wide at
#: 1e-8, on the FFT's error bound, and is 7.2e-5 wide at 1e-6 (4.9e-5 at 1e-5).
TRUNC_MARGIN = 6 * math.log(10)
#: no truncation for a query below this log delta (the tail points would leave the float range)
TRUNC_FLOOR = -650.0


def query_trunc(logd: float, steps: int):
    """The log P-mass each of ``steps`` steps may leave above its last knot for an eps(delta) query at
    log delta = ``logd``, or None (no truncation) below TRUNC_FLOOR."""
    t = logd - math.log(steps) - TRUNC_MARGIN
    return t if t > TRUNC_FLOOR else None


def truncation_top(model, trunc):
    """The loss above which ``model``'s knots stop for the log P-mass ``trunc`` (None: no truncation, for
    trunc None or a model without a far tail worth cutting, i.e. no ``tail_point``)."""
    point = getattr(model, "tail_point", None)
    if trunc is None or point is None:
        return None
    return point(trunc)
