"""Certified numeric composition of privacy-loss distributions (issue #9, item 3).

API
---
``compose([(mechanism, count), ...], h=None)`` returns a :class:`Composition`;
its methods ``delta(eps)``, ``eps(delta)`` and ``tradeoff(alpha)`` return frozen
result records (:class:`DeltaResult`, :class:`EpsResult`, :class:`TradeoffResult`)
with a two-sided bracket, ``method = "numeric"``, ``certified`` and ``seconds``.
Mechanisms come from ``numeric.pld_mechanisms`` (gaussian, laplace,
randomized_response / pure, eps_delta, discrete_gaussian, subsampled_gaussian (Poisson, both
directions), uniform_subsampled_gaussian (the symmetric pair of C_p(G_mu))), and
``numeric.pld_subsampled`` (the Poisson / uniform subsampled step of any of them: ``subsampled_step``).  The unsuffixed
value is the privacy-safe end: ``delta = delta_upper``, ``eps = eps_upper``,
``beta = beta_lower``, ``power = 1 - beta_lower``.

Layout
------
This module holds the API: ``compose``, :class:`Composition` (tilts, reading the bounds at a
query, eps(delta) and the trade-off curve) and the result records.  The engine's two stages live
beside it and are re-exported here (``numeric.pld.discretise``, ``numeric.pld.compose_fft``,
``numeric.pld.MAX_WINDOW``, ... still work):

* ``numeric.pld_discretise``: one step's upper and lower measures with their certified rounding
  (``StepMeasure``, ``discretise``; "Single step, upper / lower measure" below);
* ``numeric.pld_fft``: the FFT composition with tilting and its error bound (``Composed``,
  ``compose_fft``), the delta bounds at the grid points (``grid_bounds``) and the float constants
  of assumptions A1 and A2 ("Composition (FFT with exponential tilting)" below).

The argument below covers all three modules.

Why the bracket is proved (the argument, step by step)
-------------------------------------------------------
Notation: a step is a pair (P, Q); L = log dP/dQ under P; u = e^{-L} in [0, inf)
(u = 0 is the atom L = +inf).  For any non-negative measure m of u put

    D_m(s) = E_m[(1 - s u)_+],   s = e^eps >= 0.

For the true step D(e^eps) = delta(eps) is the hockey-stick curve, and the
composition of k independent steps has D_comp(s) = E[(1 - s u_1 ... u_k)_+].

Lemma 1 (domination composes).  If each step's measure m_j' satisfies
D_{m_j'}(s) >= D_{m_j}(s) for every s >= 0, then the composition of the m_j'
dominates the composition of the m_j at every s; the same with <=.
Proof: replace one factor at a time.  Conditionally on the other factors, whose
product is c >= 0, the integrand is (1 - (s c) u_j)_+, i.e. D_{m_j}(s c) for the
measure of the replaced factor; integrate the pointwise inequality.  QED.  (No
total mass is assumed: m_j' may be any non-negative measure, so masses may be
rounded up for an upper measure and down for a lower one: D is increasing in
every mass.)

Hence f is bracketed too: f(alpha) = sup_eps max(0, 1 - delta(eps) - e^eps alpha)
(convex duality of the hockey stick; over both directions the true guarantee is
1 - inf_eps [max_d delta_d(eps) + e^eps alpha]).  An upper delta gives the lower
end beta_lower and power = 1 - beta_lower >= the true power >= alpha.

Single step, upper measure ("connect the dots", second order).  Knots
l_0 < ... < l_n on the grid hZ.  Each cell (l_i, l_{i+1}] keeps its P-mass p and
Q-mass q but moves them to the two knots (the two-point law with the same P- and
Q-mass).  In u = e^{-L} this is a mean-preserving spread of the conditional law
of u on [e^{-l_{i+1}}, e^{-l_i}]; (1 - s u)_+ is convex in u, so by Jensen D
grows at every s.  Mass below l_0 is moved up to l_0, mass above l_n to +inf
(moving loss up raises (1 - s e^{-l})_+).  D of this measure equals D at every
knot.

Single step, lower measure (second order).  D is convex in s with right derivative
-Q(L > l) at s = e^l, so R_i(s) = S_P(l_i) - s S_Q(l_i) (the right tangent at s_i) and the left
tangent at s_{i+1} lie below D; on the cell [s_i, s_{i+1}] they cross at c_i = P_open / Q_open
(the masses of the open cell), a fraction theta_i of the way.  Give each knot a value
v_i = D(s_i) - e_i with e_i >= 0.  The linear interpolant of the v's minus the larger tangent is
concave on the cell with its only kink at c_i, so the interpolant lies below D on the cell as soon
as it lies below R_i at c_i: (1 - theta_i) e_i + theta_i e_{i+1} >= theta_i Delta_i, with
Delta_i = D(s_{i+1}) - R_i(s_{i+1}).  This is linear in theta_i and holds at theta = 0, so an upper
end of theta_i suffices.  The deficits are chosen (``pld_discretise._deficits``) as min(max(G_{i-1}, G_i), tau_i),
G_i = theta_i Delta_i and tau_i the height of D(s_i) above the tangent R_0 at the first knot, and then
raised where a cell's condition fails.  Points on or above R_0 make the lower measure's total mass
and Q-mass exact (D~ follows R_0 near s = 0); that first moment is what a composition of many steps
amplifies.  D~ is the lower convex hull of these points and of (0, P(L > l_0)) = R_0(0) (which keeps
it below D left of s_0); lowering a value only helps, so the hull is valid.  Its masses are the
slope jumps times s; float masses are rounded down and the inequalities at every knot are then
*verified* with a float recursion of non-negative terms whose relative rounding error is bounded
by (1+u)^{4n} - 1; if the check fails the masses are scaled down until it passes, and if that is
not small the first-order measure (round every cell's P-mass down to its left knot; mass below l_0
dropped) is used instead and the result says so.  Beyond the last knot K whose value can be set to 0
(the cell before it still valid with e_K = D(s_K), by the right tangent at s_{K-1} or by the left tangent
at s_K, whose slope is -Q(L >= l_K): ``pld_discretise._left_tangent_holds``, which keeps an atom at the
top of the support where it is) D~ is 0.

Single step, atoms on the grid.  A step whose finite loss is exactly a few atoms (``LossModel.atomic``:
randomized response, the (eps, delta) pair) with every atom on hZ is its own discretisation: the
upper measure is its atoms with their closed-form masses rounded up (the +inf mass too), the lower
one with them rounded down (``_lattice_measure``); D grows with every mass, so Lemma 1 applies with
no discretisation error at all (the hull above lost the +eps atom: 100 x RR(0.1) had delta in [0,
0.239] at eps = 0.5).  Repeated k times (one or two atoms), the step enters as its k-fold binomial law
of count 1 (``numeric.lattice_power``; Lemma 1 with the k steps as one factor), not as a k-th power
of its spectrum.  The default grid is the atoms' common lattice when at most 16x finer than the target.

``scheme="round"`` uses the first-order pair throughout (upper: P-mass of each
cell to its right knot, lower: to its left knot) - the textbook pessimistic /
optimistic discretisation; its bracket is wider by about k h.

Tails are Arb balls (``numeric.pld_mechanisms``); masses are computed from them
in Arb at ``pld_mechanisms.PREC`` (96) bits and rounded outward to float64.

Composition (FFT with exponential tilting).  For a query near eps the step
measures m_j are tilted, x_j(l) = m_j(l) e^{lam l - c_j} (lam >= 0 from the
saddle point of the composed cumulant generating function, so the tilted
composition is centred at eps; c_j normalises).  Tilting commutes with
convolution, so the composed measure is e^{C - lam l} y(l) with C = sum k_j c_j
and y the composition of the x_j.  y is computed on a window of N = 2^p grid
points by FFT, pointwise powers (binary powering) and an inverse FFT; the
circular result is the window part of y plus the mass of y outside the window
folded in (aliasing).  Errors, all added to the upper and subtracted from the
lower value:

* rounding of x_j: computed in float from exact-float masses with a relative
  slack of 1e-12 applied outward (assumption A1 below);
* FFT: Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed.,
  Thm 24.2): ||fl(FFT x) - FFT x||_2 <= eta_F ||FFT x||_2 with
  eta_F = log2(N) eta / (1 - log2(N) eta), eta = mu + gamma_4 (sqrt 2 + mu),
  mu the twiddle-factor error; we take mu = 1e-15 and multiply eta_F by 10
  (assumption A2: numpy's pocketfft, radix-2/4 passes for N = 2^p, is covered).  The
  transforms are numpy's real ones (rfft/irfft: half the work); their spectra are read as the
  whole Hermitian spectrum (norms count the middle entries twice), and irfft drops the imaginary
  parts of Y_0 and Y_{N/2}, which only changes the imaginary part of the inverse, so
  ||y' - y||_2 below still holds;
* powers: |X^k - X'^k| <= k r^{k-1} |X - X'| with r >= |X|, |X'|; binary
  powering with complex products of relative error <= sqrt5 u (Brent, Percival,
  Zimmermann 2007) has relative error <= (1 + sqrt5 u)^{k + 2 log2 k + 2} - 1;
* inverse FFT: ||y' - y||_2 <= (||Y' - Y||_2 + eta_F ||Y'||_2)/sqrt(N);
  a weighted sum sum w_i (y'_i - y_i) is bounded by ||w||_2 ||y' - y||_2;
* aliasing / truncation: none when the window holds the composition's whole support (the integer
  range sum k_j [first knot_j, last knot_j], checked exactly; the window is widened to it when that
  costs at most 4x); otherwise the mass of y above and below the window is bounded by
  Chernoff, P(S >= t) <= e^{-theta t} prod M_j(theta)^{k_j}, or its truncated form (a union bound on
  some step passing a_j plus the Chernoff bound of the steps restricted below a_j: ``pld_fft.Chernoff``,
  for the far bump of a tilted subsampled Gaussian); it is subtracted
  from the lower value (it may sit anywhere in the window) and the part above
  the window is added to the upper value.  Where the window stops (Chernoff mass beyond it below
  e^-40, or for an eps(delta) query below e^-15 of the tilted value read at eps,
  ``pld_fft.compose_fft``'s ``log_delta``) moves only width and time, never the certificate;
* the delta sums: T_i = sum_{j>i} y_j e^{-lam(l_j - l_i)} (1 - e^{-(l_j - l_i)}) is
  summed by a recursion with non-negative coefficients (``pld_fft.first_order``), relative
  rounding error <= (2K + 4n + 10) u with K from ``first_order_roundings``, coefficients from Arb;
  that bound multiplies the sum A_i of the same weights on |y|, itself bounded from the signed
  recursion and the negative FFT noise of y (``pld_fft._abs_sum_bound``), and ||w||_2 is summed in
  closed form in Arb (``pld_fft._w_norm``).  An eps(delta) query computes these sums only at
  eps >= 0 (``grid_bounds``' start: each T_i reads the points above i only).

Values are combined in log space (float64 logs carry a relative slack of 1e-9,
assumption A1), so results far below 1e-308 are representable; they are
returned as mpmath numbers.

Between grid points delta(eps) of a discrete measure is linear in e^eps (plus
the constant +inf part), so the certified values at two neighbouring grid
points interpolate to certified values in between: eps(delta) is solved
exactly inside the cell.  For power = inf_eps [delta(eps) + e^eps alpha] the
upper end is the value at the best grid eps (any eps gives an upper bound); the
lower end is the exact minimum over cells of the maximum over directions of the
lines through the certified lower end-point values, together with bounds for eps
outside the window (monotonicity).

Assumptions that are not proved here (stated so that ``certified`` means
exactly this; tests/test_pld_assumptions.py checks both against exact arithmetic on random
inputs: the worst observed error is 1/100 of A1, and the FFT convolution error is 0.3-0.7 % of
Higham's bound before the factor 10): A1 numpy's exp/log/log1p/expm1 have relative error <= 1e-12
(their documented accuracy is a few ulp, 1e-12 is ~4500 ulp); A2 numpy's
power-of-two FFTs (complex and real) satisfy 10x Higham's radix-2 bound with twiddle error
1e-15.  Everything else is IEEE arithmetic with bounded rounding and Arb.
Where a step of the argument fails at run time (lower-measure verification,
window too small) ``certified`` is False and ``reason`` says why.

Accuracy (not a guarantee): the discretisation error of both measures is
second order, about k h^2 (lam + 1)^2 / 8 in relative delta per unit loss
density; the default grid h is chosen from that estimate, and the bracket width
is what is reported.
"""


from __future__ import annotations

import dataclasses
import math
import time
from fractions import Fraction

import mpmath
import numpy as np

from derive.errors import DomainError

from . import pld_grid as G
from . import pld_mechanisms as M
from . import pld_results as R
from .lattice_power import fold_repeats
from .pld_bump import BUMP_MARGIN, bump_tilt, float_jump
from .pld_discretise import (
    StepMeasure,
    U,
    _lattice_measure,
    _step_measure,
    discretise,
    step_states,
)
from .pld_fft import (
    A1,
    FFT_SAFETY,
    LOGSLACK,
    MAX_WINDOW,
    TINY_NORMAL,
    TW,
    Composed,
    WindowTooLarge,
    compose_fft,
    grid_bounds,
)
from .pld_grid import default_grid
from .pld_power import tradeoff
from .pld_results import DeltaResult, EpsResult, TradeoffResult, capped, infinite_eps
from .pld_truncate import query_trunc, truncation_top
from .solvers import illinois_bracket, midpoint

__all__ = [
    # the API
    "compose", "Composition", "DeltaResult", "EpsResult", "TradeoffResult",
    # the engine's parts (numeric.pld_discretise, numeric.pld_fft), importable from here as before
    "StepMeasure", "discretise", "Composed", "compose_fft", "grid_bounds",
    "U", "A1", "LOGSLACK", "TW", "FFT_SAFETY", "MAX_WINDOW", "TINY_NORMAL",
]


# ----------------------------------------------------------------------------------------------
# the composition object


#: largest lam h (``Composition._solve_lam``): at 40, ten shuffled rounds of n = 2 (eps(1e-6) one cell below
#: the largest loss) had every cell below the top at e^-40 of it, under the FFT's error: lower end 0
TILT_CELLS = 4.0


class Composition:
    """Certified numeric composition of a list of (mechanism, count)."""

    def __init__(self, components, h=None, scheme: str = "interpolate", tol: float | None = None):
        if M.flint_or_none() is None:
            raise RuntimeError("the certified engine needs python-flint (pip install dp-derive[certified])")
        self.entries = G.checked_entries(components)
        if scheme not in ("interpolate", "round"):
            raise ValueError("scheme must be 'interpolate' or 'round'")
        self.scheme = scheme
        self.tol = tol if tol is not None else max(1e-15, 1e-7 / sum(k for _, k in self.entries))
        #: an eps(delta) query may move the default grid and tolerance (``_for_query``), never given ones
        self._adapt = False
        self._h_cap = self._lattice = None
        self.h = self._grid(h)
        self._adapt = self._adapt and tol is None
        self._explicit = h is not None or tol is not None      # a delta query may refine the default grid only
        self._subs = {}
        #: how many times ``_coarser`` has coarsened the grid to get here (0: not a coarsened composition)
        self._coarsened = 0
        #: False: eps(delta) reads the upper end only (eps_lower 0): the envelope's upper list (pld_envelope)
        self.lower_ends = True
        ndir = max(len(m.directions) for m, _ in self.entries)
        # direction d of the composition: direction d of each mechanism (symmetric ones repeat)
        self.directions = list(range(ndir))
        self._cache = {}
        self._meas_cache = {}
        self._est_cache = {}        # (direction, truncation) -> ``_estimate_ups``
        self._pair_cache = {}       # (id(model), tilt) -> (upper, lower): shared across directions
        self._memos = {}            # grid h -> ``_tails_memo``
        self._memo_ok = None        # ``_tails_memo``: few enough distinct pairs

    # grid -------------------------------------------------------------------------------------
    def _grid(self, h):
        if h is not None:
            return M.exact(h, "h")
        choice = default_grid(self.entries)
        self._adapt, self._h_cap, self._step_var = choice.adapt, choice.h_cap, choice.step_var
        self._lattice = choice.lattice
        return choice.h

    #: relative eps accuracy the query-adapted grid aims at (``pld_grid.query_grid``); a bracket left wider than
    #: ``pld_results.REFINE_RTOL`` (1e-4) is looked at again on a finer knot tolerance, then on half the grid step
    #: (``pld_results.finer_grid``).  At 2e-5 (the eighteenth session) the 160 DP-SGD cells were at most 9.4e-5 wide, most of
    #: them 5-25x narrower than 1e-4; BENCHMARKS.md, nineteenth session, has the grid at 5e-5
    QUERY_RTOL = 5e-5

    def _for_query(self, logd: float, delta: Fraction):
        """The composition an eps(delta) query is answered on: ``self``, or the same steps on the grid and
        knot tolerance ``pld_grid.query_grid`` chooses for the query (the default grid only)."""
        if not self._adapt:
            return self
        h, tol = G.query_grid(self, logd, delta)
        if h == self.h and tol == self.tol:
            return self
        return self._sub(h, tol)

    def _sub(self, h, tol):
        sub = self._subs.get((h, tol))
        if sub is None:
            sub = self._subs[(h, tol)] = Composition(self.entries, h=h, scheme=self.scheme, tol=tol)
            sub._memos = self._memos
            sub.lower_ends = self.lower_ends
        return sub

    # pieces -----------------------------------------------------------------------------------
    def _models(self, d):
        return [(m.directions[min(d, len(m.directions) - 1)], k) for m, k in self.entries]

    def _measures(self, d, lam_knots, lower=True, trunc=None):
        """(upper, lower) step measures of direction d, knots placed for tilts up to lam_knots; with
        ``lower=False`` only the upper ones (lower list None).  The tilt search reads upper measures of tilts
        it then leaves, and the lower hull is most of a step's Arb work (10^4 distinct Laplace steps: 222 of
        287 s of the step measures).  The ``_step_state`` is not kept (it doubled a 1000-step spec's peak
        memory): a lower measure asked for later remakes it, and knots and tails are deterministic in (model,
        h, tilt, tol), so it is the joint call's lower measure bit for bit (tests/test_pld_lazy_lower.py).
        ``trunc``: an eps(delta) query's truncation of the far tails (``numeric.pld_truncate``)."""
        key = (d, lam_knots) if trunc is None else (d, lam_knots, trunc)
        got = self._meas_cache.get(key)
        if got is None or (lower and got[1] is None):
            ups, los, notes = [], [], []
            for model, k in self._models(d):
                # a symmetric step's model serves every direction: its measures are made once per tilt
                pkey = (id(model), lam_knots) if trunc is None else (id(model), lam_knots, trunc)
                pair = self._pair_cache.get(pkey)
                if pair is None or (lower and pair[1] is None):
                    (_, _, st), = step_states([(model, k)], self.h, lam_knots, self.tol, trunc, self._tails_memo())
                    up = pair[0] if pair is not None else _one_measure(model, self.h, st, "upper", self.scheme)
                    lo = _one_measure(model, self.h, st, "lower", self.scheme) if lower else None
                    pair = self._pair_cache[pkey] = (up, lo)
                ups.append((pair[0], k))
                los.append((pair[1], k))
                if pair[1] is not None and pair[1].note == "round":
                    notes.append(f"{model.name}: lower measure fell back to rounding (first order)")
            ups, los = fold_repeats(ups, los, self.h, self._models(d), self._pair_cache)
            got = self._meas_cache[key] = [ups, los if lower else None, notes]
        return got[0], got[1], got[2]

    #: most distinct step pairs whose knot tails a composition keeps across tilts (``step_states``' memos): DP-SGD
    #: has two; a spec of 10^4 distinct steps would hold every knot's balls
    MEMO_PAIRS = 8

    def _tails_memo(self):
        """The memos of ``step_states`` for this composition's grid (shared with the compositions ``_sub`` makes
        of the same steps: a query's refinements keep its grid), or None for one of many distinct steps."""
        if self._memo_ok is None:           # (decided once: ``_measures`` asks for every step of every tilt)
            self._memo_ok = len({id(m) for e, _ in self.entries for m in e.directions}) <= self.MEMO_PAIRS
        return self._memos.setdefault(self.h, {}) if self._memo_ok else None

    def _estimate_ups(self, d, trunc=None):
        """Untilted step measures for the estimates of an eps(delta) query only: every step's float law
        (``pld_grid.estimate_law``, without its cells above the truncation's loss) when each has one, else the
        certified ones (``_measures``)."""
        got = self._est_cache.get((d, trunc))
        if got is None:
            laws = []
            for model, k in self._models(d):
                law, top = G.estimate_law(model, self.h), truncation_top(model, trunc)
                if law is not None and top is not None:
                    keep = law.knots * float(self.h) <= top
                    law = dataclasses.replace(law, knots=law.knots[keep], mass=law.mass[keep])
                laws.append((law, k))
            got = self._est_cache[(d, trunc)] = (laws if all(m is not None for m, _ in laws)
                                                 else self._measures(d, 0.0, False, trunc)[0])
        return got

    @staticmethod
    def _bucket(lam):
        """The tilt the knots are placed for: lam + 1 rounded up on a ladder of ratio 2^(1/8), so that
        nearby queries share measures.  Above lam because a query reads the mass above the tilted
        centre; not much above, because the knots follow the tilted mass and for a subsampled Gaussian
        the tilted mass at a larger tilt sits far out in the tail, where every knot costs Arb work and
        buys nothing.  (Until issue #25's grid runs this was 1.5 lam + 1, tuned on one weakly
        subsampled step; on the 48 DP-SGD cells q in {1e-3, 4e-3, 0.01, 0.1} x sigma in {0.6, 1.1, 5}
        x T in {100, 10^4} x delta in {1e-5, 1e-10} lam + 1 was as narrow or narrower in all but two
        cells and faster in most: q = 0.004, sigma = 1, T = 10^4 took 0.36 s for 34259 knots' 4.1 s,
        relative width 5.5e-5 against 5.0e-5.)"""
        return 0.0 if lam <= 0 else float(2.0 ** (math.ceil(8 * math.log2(lam + 1.0)) / 8))

    def _measure_cgf(self, ups, d=None):
        """Float cumulant generating function of the composed step measures: K(lam) -> (K, K', K'').  Its
        ``jump(eps)`` (``numeric.pld_bump``) reads direction d's float laws when d is given, else the measures."""
        hf = float(self.h)
        parts = []
        for meas, k in ups:
            with np.errstate(divide="ignore"):
                lm = np.log(meas.mass)
            ok = np.isfinite(lm)
            parts.append((meas.knots[ok] * hf, lm[ok], k))

        # all steps in one array (a step's entries are contiguous, starting at ``starts``), so that one
        # evaluation is a few vectorised passes whatever the number of distinct steps (a Python loop
        # over 200 distinct Laplace steps cost 3 of 7 s of the spec, 135 evaluations by the tilt solver)
        parts = [p for p in parts if len(p[0])]
        c_all = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0)
        lm_all = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0)
        ks = np.array([p[2] for p in parts], dtype=float)
        sizes = np.array([len(p[0]) for p in parts], dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if parts else np.zeros(0, dtype=np.int64)
        owner = np.repeat(np.arange(len(parts)), sizes)

        def K(lam):
            if not parts:
                return 0.0, 0.0, 0.0
            a = lm_all + lam * c_all
            mx = np.maximum.reduceat(a, starts)
            w = np.exp(a - mx[owner])
            s = np.add.reduceat(w, starts)
            mu = np.add.reduceat(w * c_all, starts) / s
            var = np.add.reduceat(w * (c_all - mu[owner]) ** 2, starts) / s
            v = float(np.sum(ks * (mx + np.log(s))))
            m1 = float(np.sum(ks * mu))
            m2 = float(np.sum(ks * var))
            return v, m1, m2

        def jump(eps):
            """log of sum_j k_j delta_j(eps): the steps' own hockey sticks (``numeric.pld_bump``)."""
            with np.errstate(divide="ignore", over="ignore"):
                return float(np.log(np.sum(np.repeat(ks, sizes) * np.exp(lm_all) * np.maximum(-np.expm1(eps - c_all), 0.0))))
        K.jump = jump if d is None else float_jump(self._models(d))
        return K

    def _solve_lam(self, K, target, mode, bump=True, margin=BUMP_MARGIN):
        """lam >= 0 solving, with the saddle-point estimates (they only place the tilt):
        'mean': K'(lam) = target; 'delta': log delta ~ K - lam K' - log(lam (lam+1) s sqrt(2 pi)) = target;
        'alpha': log Q(L > K') ~ K - (lam+1) K' - log((lam+1) s sqrt(2 pi)) = target."""
        def g(lam):
            v, m1, m2 = K(lam)
            if mode == "mean":
                return target - m1
            sd = math.sqrt(max(m2, 1e-300)) * math.sqrt(2 * math.pi)
            if mode == "delta":
                pre = math.log(max(lam * (lam + 1), 1e-300) * sd) if lam > 0 else -math.inf
                return v - lam * m1 - pre - target
            return v - (lam + 1) * m1 - math.log((lam + 1) * sd) - target
        g_lo = g(1e-9)
        if g_lo <= 0:
            return 0.0
        # cap: lam h <= TILT_CELLS keeps e^{-lam h} far from float underflow in grid_bounds' recursion (a
        # target at the top of a bounded support asked for lam ~ 1e7 and got the trivial bound 1) and the
        # cells below the top readable; any lam is valid, the cap only moves accuracy
        cap = min(1e7, TILT_CELLS / float(self.h))
        if bump and mode != "alpha" and any(getattr(m, "tilt_bump", False) for m, _ in self._models(0)):
            cap = min(cap, bump_tilt(K, cap, target, mode, margin))
        lo, hi = 1e-9, min(1.0, cap)
        g_hi = g(hi)
        while g_hi > 0 and hi < cap:
            lo, g_lo = hi, g_hi
            hi = min(hi * 2, cap)
            g_hi = g(hi)
        if g_hi > 0:
            return hi
        # g decreases; regula falsi (Illinois) where bisection to the same 1e-7 took ~25 evaluations of K, each a
        # pass over every step's knots (1000 distinct Laplace steps: 91 evaluations, 0.8 of 8.7 s profiled)
        lo, hi = illinois_bracket(g, lo, hi, g_lo, g_hi, stop=lambda a, b: b - a <= 1e-7 * b,  # read to 4 digits
                                  point=lambda a, b, t: a + t * (b - a), mid=midpoint)
        return (lo + hi) / 2

    def _trunc(self, log_delta):
        """The far-tail truncation of an eps(delta) query's step measures (``numeric.pld_truncate``), None for
        other queries."""
        return None if log_delta is None else query_trunc(log_delta, sum(k for _, k in self.entries))

    def _tilt_for(self, d, target, mode, lower=True, bump=True, trunc=None):
        """(lam, eps_center, bucket): the tilt for a query, from the coarse CGF then the step measures.  The
        read bucket's lower measures are made with its upper ones (made later, knots and tails twice: DP-SGD
        cells 15-20 % slower); the untilted ones only place an eps(delta) query's first estimate (its lam > 0).
        ``trunc``: an eps(delta) query's truncation (``_trunc``), for every measure made here."""
        ups = self._estimate_ups(d, trunc) if mode == "delta" else self._measures(d, 0.0, lower, trunc)[0]
        lam0 = self._solve_lam(self._measure_cgf(ups, d), target, mode, bump)
        bucket = self._bucket(lam0)
        ups, _, _ = self._measures(d, bucket, lower, trunc)
        K = self._measure_cgf(ups, d)
        lam = self._solve_lam(K, target, mode, bump)
        if lam > bucket:
            # knots placed for a tilt below the query's: place them again (a lam in (bucket - 1, bucket]
            # keeps these knots, placed for a tilt >= lam, only without the +1 headroom: a second pass
            # over every step cost 6 of 34 s in a 1000-step mixed spec, issue #25; knots decide accuracy only)
            bucket = self._bucket(lam)
            ups, _, _ = self._measures(d, bucket, lower, trunc)
            K = self._measure_cgf(ups, d)
            lam = self._solve_lam(K, target, mode, bump)
        return lam, K(lam)[1], bucket

    def _composed(self, d, lam, eps_hint=None, bucket=None, lower=True, log_delta=None):
        """(upper composition, lower composition, their log-delta grids, notes) of direction d; the
        lower one (on the upper's window) only when asked for (else None, None).  ``log_delta``: an
        eps(delta) query's, for the window (``pld_fft.compose_fft``)."""
        lamq = float(f"{lam:.4g}") if lam > 0 else 0.0
        if bucket is None:
            bucket = self._bucket(lamq)
        key = (d, lamq, bucket, None if eps_hint is None else round(eps_hint, 2),
               None if log_delta is None else round(log_delta, 3))
        ups, los, notes = self._measures(d, bucket, lower, self._trunc(log_delta))
        if key not in self._cache:
            cu = compose_fft(ups, self.h, lamq, eps_hint, log_delta=log_delta)
            # an eps(delta) query reads no grid point below eps = 0 (``_solve``), so its bounds start there
            cu.g_start = 0 if log_delta is None else max(0, -cu.W0)
            self._cache[key] = [cu, grid_bounds(cu, "upper", cu.g_start)[0], None, None]
            cu.release()
        got = self._cache[key]
        if lower and got[2] is None:
            cl = compose_fft(los, self.h, lamq, eps_hint, window=(got[0].W0, got[0].n_points), log_delta=log_delta)
            cl.g_start = got[0].g_start
            got[2], got[3] = cl, grid_bounds(cl, "lower", cl.g_start)[1]
            cl.release()
        return got[0], got[2], got[1], got[3], notes

    def _dir_bounds(self, d, lam, idx, eps_hint=None, bucket=None, lower=True, log_delta=None):
        """log upper / lower bounds of delta (incl. the +inf term) of direction d at grid indices idx
        (the lower ones -inf when not asked for)."""
        cu, cl, gu, gl, notes = self._composed(d, lam, eps_hint, bucket, lower, log_delta)
        up = np.empty(len(idx))
        lo = np.full(len(idx), -np.inf)
        for arr_out, comp, g, is_up in ((up, cu, gu, True), (lo, cl, gl, False)):
            if comp is None:
                continue
            if _is_own_grid(idx, comp.W0 + comp.g_start, len(g)):
                # the grid's own points (an eps(delta) query reads all of them): its values as they are, without
                # the gathers below (0.7 of 5.6 s at q = 0.004, sigma = 0.6, T = 10^6 over 2^23 points)
                arr_out[:] = g
                if comp.log_inf > -np.inf:
                    with np.errstate(invalid="ignore"):
                        np.logaddexp(arr_out, comp.log_inf, out=arr_out)
                continue
            j = idx - (comp.W0 + comp.g_start)
            inside = (j >= 0) & (j < len(g))
            vals = np.where(inside, g[np.clip(j, 0, len(g) - 1)], 0.0)
            if is_up:
                below = j < 0
                above = j >= len(g)
                top_bound = comp.C - comp.lam * (comp.W0 + comp.g_start + len(g)) * comp.h + comp.log_above
                vals = np.where(below, comp.log_total + 1e-9, vals)
                vals = np.where(above, top_bound + 1e-9, vals)
            else:
                below = j < 0
                above = j >= len(g)
                vals = np.where(below, g[0], vals)
                vals = np.where(above, -np.inf, vals)
            with np.errstate(invalid="ignore"):
                vals = np.logaddexp(vals, comp.log_inf)
            arr_out[:] = vals
        return up, lo, notes

    # queries ----------------------------------------------------------------------------------
    def _hf(self):
        return float(self.h)

    def delta(self, eps) -> DeltaResult:
        """delta(eps), a certified bracket; on the default grid, answered again on finer grids while the
        bracket is wide and the finer run is predicted cheap (``pld_grid.delta_grid``), the certified
        brackets intersected."""
        try:
            res = self._delta_once(eps)
        except WindowTooLarge as e:
            coarse = self._coarser(e)
            if coarse is None:
                raise
            return coarse.delta(eps)
        spent = last = self._knot_count()
        h = G.delta_grid(self, res, self.h, spent, last, self)
        while h is not None:
            sub = self._sub(h, self.tol)
            fine = sub._delta_once(eps)
            lo, up = max(res.delta_lower, fine.delta_lower), min(res.delta_upper, fine.delta_upper)
            res = dataclasses.replace(fine, delta=up, delta_lower=lo, delta_upper=up,
                                      seconds=res.seconds + fine.seconds)
            last = sub._knot_count()
            spent += last
            h = G.delta_grid(self, res, h, spent, last, sub)
        return res

    def _knot_count(self) -> int:
        """Knots of the step measures made so far (the Arb work of a query: a deterministic cost)."""
        return sum(len(m.knots) for got in self._meas_cache.values() for m, _ in got[0] if m.note != "lattice")

    def _delta_once(self, eps) -> DeltaResult:
        t0 = time.perf_counter()
        e = M.exact(eps, "eps")
        ef = float(e)
        i0 = math.floor(e / self.h)
        ups, los, notes = [], [], []
        for d in self.directions:
            beyond = self._beyond_support(d, e)
            if beyond is not None:
                ups.append(beyond[0])
                los.append(beyond[1])
                continue
            lam, _, bucket = self._tilt_for(d, ef, "mean")
            idx = np.array([i0, i0 + 1])
            up, lo, nt = self._dir_bounds(d, lam, idx, eps_hint=ef, bucket=bucket)
            notes += nt
            ups.append(self._interp(up, i0, e))
            los.append(self._interp(lo, i0, e))
        du = min(max(ups), mpmath.mpf(1))      # delta <= 1 always (a slack could carry it above)
        dl = max(los)
        return DeltaResult(eps=e, delta=du, delta_lower=dl, delta_upper=du, certified=True,
                           seconds=time.perf_counter() - t0, reason="; ".join(notes))

    def _beyond_support(self, d, e: Fraction):
        """(upper, lower) delta of direction d at an eps at or above the top of its upper measures'
        finite support, or None.  There every finite composed loss is <= sum k_j top_j <= eps, so only
        the +inf atom counts: delta_upper = P(some step at +inf) <= min(1, sum k_j m_j) (union bound,
        m_j the upper measures' inf masses) and delta_lower >= the largest lower inf mass (one step at
        +inf already puts the composition there).  (No tilt is needed; without this a query above the
        support drove the mean-tilt solver to lam ~ 1e7 and an upper end of 1.)"""
        ups, los, _ = self._measures(d, 0.0)         # (joint: the mean tilt's first step reads these too)
        top = Fraction(0)
        for meas, k in ups:
            pos = np.nonzero(meas.mass > 0)[0]
            if len(pos) == 0:
                continue
            top += k * int(meas.knots[pos[-1]]) * self.h
        if e < top:
            return None
        with mpmath.workprec(80):
            up = mpmath.fsum(mpmath.mpf(meas.inf_mass) * k for meas, k in ups) * (1 + mpmath.mpf(2) ** -50)
            lo = max([mpmath.mpf(meas.inf_mass) for meas, _ in los] + [mpmath.mpf(0)])
        return min(up, mpmath.mpf(1)), lo

    def _interp(self, logv, i0, e):
        """Certified value at eps = e in the cell [l_i0, l_i0+1]: linear in t = e^eps."""
        with mpmath.workprec(80):
            a = mpmath.exp(mpmath.mpf(float(logv[0]))) if np.isfinite(logv[0]) else mpmath.mpf(0)
            b = mpmath.exp(mpmath.mpf(float(logv[1]))) if np.isfinite(logv[1]) else mpmath.mpf(0)
            h = self.h
            l0 = mpmath.mpf(i0 * h.numerator) / h.denominator
            l1 = mpmath.mpf((i0 + 1) * h.numerator) / h.denominator
            t = mpmath.exp(mpmath.mpf(e.numerator) / e.denominator)
            t0, t1 = mpmath.exp(l0), mpmath.exp(l1)
            th = (t1 - t) / (t1 - t0)
            th = min(max(th, mpmath.mpf(0)), mpmath.mpf(1))
            return th * a + (1 - th) * b

    def eps(self, delta) -> EpsResult:          # +inf past the +inf mass; no larger than a bounded loss's top
        return infinite_eps(self.entries, delta) or capped(self._eps(delta), self.entries)

    def _eps(self, delta) -> EpsResult:
        t0 = time.perf_counter()
        dl = M.exact(delta, "delta")
        if not 0 < dl < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta}")
        logd = math.log(float(dl)) if float(dl) > 0 else float(mpmath.log(mpmath.mpf(dl.numerator) / dl.denominator))
        sub = self._for_query(logd, dl)
        if sub is not self:
            try:
                r = sub.eps(dl)
            except DomainError:
                r = None            # the query's FFT window is too large: the default grid answers
            if r is not None:
                if self.lower_ends:         # (a one-sided list's eps_lower is 0 by design: no second look)
                    r = R.lower_by_delta(r, lambda e: self._try(self.delta, e), dl)
                    r = R.refine_width(r, lambda: self._try(self._sub(sub.h, sub.tol * R.REFINE_TOL).eps, dl))
                    r = R.refine_width(r, lambda: R.finer_grid(self, sub, dl))
                return dataclasses.replace(r, seconds=time.perf_counter() - t0)
        try:
            return self._eps_here(dl, logd, t0)
        except WindowTooLarge as e:
            coarse = self._coarser(e)
            if coarse is None:
                raise
            return dataclasses.replace(coarse.eps(dl), seconds=time.perf_counter() - t0)

    @staticmethod
    def _try(query, arg):
        """query(arg), or None where its window does not fit (``pld_results``' second looks at a bracket)."""
        try:
            return query(arg)
        except DomainError:
            return None

    def _coarser(self, e: "WindowTooLarge"):
        """The same steps on the grid 2^m times coarser whose window fits (None for a given grid): a
        composition spread far beyond its default grid (DP-SGD, q = 1/60000, sigma = 1.1, T = 100: h = 2^-27
        from the tiny untilted spread, while the tilted window at delta = 1e-10 spans 101) was refused.
        Only width depends on the grid; the bracket stays certified."""
        if (self._explicit and not self._coarsened) or self._coarsened >= 8:
            return None
        factor = 1 << max(1, (-(-e.needed // MAX_WINDOW)).bit_length())
        sub = self._sub(self.h * factor, self.tol)
        sub._coarsened = self._coarsened + 1     # (the window growth stops at MAX_WINDOW: ``needed`` can
        return sub                                # be an underestimate, so the coarser one may retry)

    def _eps_here(self, dl, logd, t0) -> EpsResult:
        """eps(delta) on this composition's own grid (``eps``)."""
        e_up, e_lo, notes = [], [], []
        certified = True
        found = []
        for d in self.directions:
            lam, eg, bucket = self._tilt_for(d, logd, "delta", self.lower_ends, trunc=self._trunc(logd))
            bump = True
            for _ in range(3):
                cu, _, gu, _, nt = self._composed(d, lam, eg, bucket, lower=False, log_delta=logd)
                idx = cu.W0 + cu.g_start + np.arange(len(gu))     # (64 MB at T = 10^6: not kept in ``found``)
                up, _, nt = self._dir_bounds(d, lam, idx, eg, bucket, lower=False, log_delta=logd)
                a = self._solve(up, idx, logd, upper=True)
                center_ok = a is not None and abs(float(a) - cu.center) < 6 * cu.sigma
                if center_ok or lam == 0.0:
                    break
                if a is not None:
                    lam, eg, bucket = self._tilt_for(d, float(a), "mean", self.lower_ends, trunc=self._trunc(logd))
                elif bump:
                    # no crossing under a tilt capped below a far bump (``numeric.pld_bump``): the query reads the bump
                    bump = False
                    lam, eg, bucket = self._tilt_for(d, logd, "delta", self.lower_ends, bump=False, trunc=self._trunc(logd))
            notes += nt
            if a is None:
                certified = False
                notes.append(f"direction {d}: delta not reached in the window")
                a = mpmath.inf
            e_up.append(a)
            found.append((a, d, lam, eg, bucket, (cu.W0 + cu.g_start, len(gu))))
            del idx, up
        # eps = max over directions, so any direction's lower end is a lower end of eps: the lower
        # compositions are made from the direction with the largest upper end down, and skipped for a
        # direction whose upper end is already below the best lower end (it cannot raise it)
        e_lo.append(mpmath.mpf(0))
        for a, d, lam, eg, bucket, (w0, n) in sorted(found, key=lambda t: t[0], reverse=True):
            if a <= max(e_lo) or not self.lower_ends:
                continue
            idx = w0 + np.arange(n)
            _, lo, nt = self._dir_bounds(d, lam, idx, eg, bucket, log_delta=logd)
            notes += [x for x in nt if x not in notes]      # (a lower measure's fallback is named here)
            e_lo.append(self._solve(lo, idx, logd, upper=False))
        eu = max(e_up)
        el = max(e_lo)
        return EpsResult(delta=dl, eps=eu, eps_lower=el, eps_upper=eu, certified=certified,
                         seconds=time.perf_counter() - t0, reason="; ".join(notes))

    def _solve(self, logv, idx, logd, upper):
        """eps with delta(eps) = delta from certified grid values (linear in e^eps per cell).
        upper: smallest eps whose upper bound is <= delta (eps >= 0).  lower: largest eps whose
        lower bound is > delta (a certified lower end), or 0."""
        le = logv
        if upper:
            ok = le <= logd
            # first index (from the left, eps >= 0) after which the bound stays below delta
            cand = np.nonzero(~ok)[0]
            i = cand[-1] + 1 if len(cand) else 0
            if i >= len(le):
                return None
            gi = int(idx[i])
            if gi <= 0:
                return mpmath.mpf(0)
            if i == 0:      # all of a window right of 0 below delta: no value at gi - 1 to interpolate
                return mpmath.mpf(gi) * self.h.numerator / self.h.denominator
            # in cell [gi-1, gi]: interpolate
            return self._cross(le[i - 1], le[i], gi - 1, logd, round_up=True)
        above = np.nonzero(le > logd)[0]
        if len(above) == 0:
            return mpmath.mpf(0)
        i = above[-1]
        gi = int(idx[i])
        if gi < 0:
            return mpmath.mpf(0)
        if i + 1 >= len(le):
            return mpmath.mpf(gi) * self.h.numerator / self.h.denominator
        return self._cross(le[i], le[i + 1], gi, logd, round_up=False)

    def _cross(self, la, lb, gi, logd, round_up):
        with mpmath.workprec(80):
            a = mpmath.exp(mpmath.mpf(float(la))) if np.isfinite(la) else mpmath.mpf(0)
            b = mpmath.exp(mpmath.mpf(float(lb))) if np.isfinite(lb) else mpmath.mpf(0)
            dd = mpmath.exp(mpmath.mpf(logd))
            h = mpmath.mpf(self.h.numerator) / self.h.denominator
            l0 = gi * h
            t0, t1 = mpmath.exp(l0), mpmath.exp(l0 + h)
            if a == b:
                t = t0 if not round_up else t1
            else:
                # a + (b - a)(t - t0)/(t1 - t0) = dd
                t = t0 + (dd - a) * (t1 - t0) / (b - a)
                t = min(max(t, t0), t1)
            e = mpmath.log(t)
            slack = mpmath.mpf(2) ** -60 * (1 + abs(e))
            e = e + slack if round_up else e - slack
            return max(e, mpmath.mpf(0))

    def tradeoff(self, alpha) -> TradeoffResult:
        """beta(alpha) bracket (``numeric.pld_power.tradeoff``; the argument is this module's docstring)."""
        return tradeoff(self, alpha)


def _is_own_grid(idx: np.ndarray, first: int, n: int) -> bool:
    """Whether ``idx`` is first, first + 1, ..., first + n - 1 (``Composition._dir_bounds``' fast path)."""
    return len(idx) == n and n > 0 and int(idx[0]) == first and bool(np.all(np.diff(idx) == 1))


def _one_measure(model, h: Fraction, state, kind: str, scheme: str) -> StepMeasure:
    """``_lattice_measure`` where it applies (the exact law), else the discretised measure."""
    exact_law = _lattice_measure(model, h, kind)
    return exact_law if exact_law is not None else _step_measure(model, h, state, kind, scheme)


def compose(components, h=None, scheme: str = "interpolate", tol: float | None = None) -> Composition:
    """Certified numeric composition: ``compose([(pld_mechanisms.gaussian('0.5'), 10), ...])``."""
    return Composition(components, h=h, scheme=scheme, tol=tol)
