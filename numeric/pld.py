"""Certified numeric composition of privacy-loss distributions (issue #9, item 3).

API
---
``compose([(mechanism, count), ...], h=None)`` returns a :class:`Composition`;
its methods ``delta(eps)``, ``eps(delta)`` and ``tradeoff(alpha)`` return frozen
result records (:class:`DeltaResult`, :class:`EpsResult`, :class:`TradeoffResult`)
with a two-sided bracket, ``method = "numeric"``, ``certified`` and ``seconds``.
Mechanisms come from ``numeric.pld_mechanisms`` (gaussian, laplace,
randomized_response / pure, eps_delta, discrete_gaussian, subsampled_gaussian (Poisson, both
directions), uniform_subsampled_gaussian (the symmetric pair of C_p(G_mu))).  The unsuffixed
value is the privacy-safe end: ``delta = delta_upper``, ``eps = eps_upper``,
``beta = beta_lower``, ``power = 1 - beta_lower``.

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
end of theta_i suffices.  The deficits are chosen (``_deficits``) as min(max(G_{i-1}, G_i), tau_i),
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
(the cell before it still valid with e_K = D(s_K)) D~ is 0.

``scheme="round"`` uses the first-order pair throughout (upper: P-mass of each
cell to its right knot, lower: to its left knot) - the textbook pessimistic /
optimistic discretisation; its bracket is wider by about k h.

Tails are Arb balls (``numeric.pld_mechanisms``); masses are computed from them
in Arb at 128 bits and rounded outward to float64.

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
  Chernoff, P(S >= t) <= e^{-theta t} prod M_j(theta)^{k_j}; it is subtracted
  from the lower value (it may sit anywhere in the window) and the part above
  the window is added to the upper value;
* the delta sums: T_i = sum_{j>i} y_j e^{-lam(l_j - l_i)} (1 - e^{-(l_j - l_i)}) is
  summed by a recursion with non-negative coefficients (scipy lfilter), relative
  rounding error <= (4n + 10) u, coefficients from Arb.

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

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from derive.errors import DomainError

from . import pld_mechanisms as M
from .display import ResultDisplay
from .solvers import bisect

U = 2.0 ** -53
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
# result records


@dataclass(frozen=True)
class DeltaResult(ResultDisplay):
    eps: object
    delta: object
    delta_lower: object
    delta_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class EpsResult(ResultDisplay):
    delta: object
    eps: object
    eps_lower: object
    eps_upper: object
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class TradeoffResult(ResultDisplay):
    alpha: object
    beta: object
    beta_lower: object
    beta_upper: object
    power: object
    power_upper: object = None
    method: str = "numeric"
    certified: bool = True
    seconds: float = 0.0
    reason: str = ""
    #: certified lower end of the power 1 - f(alpha) (kept apart: 1 - beta_upper loses it near 1)
    power_lower: object = None


# ----------------------------------------------------------------------------------------------
# single-step measures


@dataclass
class StepMeasure:
    knots: np.ndarray          # int64 grid indices
    mass: np.ndarray           # float64 masses (rigorous upper or lower bounds)
    inf_mass: float            # bound on the mass at L = +inf
    kind: str                  # "upper" | "lower"
    note: str = ""

    def finite_total(self) -> float:
        s = math.fsum(self.mass.tolist())
        return s * (1 + 4 * U) if self.kind == "upper" else s * (1 - 4 * U)


def _down(x) -> float:
    """A float <= the Arb ball x (lower end, stepped down one ulp after conversion)."""
    return math.nextafter(float(x.lower()), -math.inf)


def _up(x) -> float:
    hi = x.upper()
    return math.nextafter(float(hi), math.inf)


def _knots(model, h: Fraction, lam: float, tol: float = 1e-13) -> np.ndarray:
    """Knot indices: every grid point where the (tilted or untilted) mass is dense, growing gaps
    where it is thin (a cell of relative mass r and width w costs about r w^2; w^3 <= tol h / r)."""
    hf = float(h)
    A0, B0 = model.rough_range(lam)
    A0 = max(A0, -1e6)
    B0 = min(B0, 1e6)
    M_ = 4096
    Hc = (B0 - A0) / M_
    if Hc <= 0:
        Hc = hf
    grid = A0 + Hc * np.arange(1, M_ + 1)
    logm = model.log_cell_float(grid, Hc)
    logm = np.where(np.isfinite(logm), logm, -np.inf)
    finite = np.isfinite(logm)
    if not finite.any():
        i0 = math.floor(A0 / hf)
        return np.arange(i0, i0 + 2, dtype=np.int64)
    centers = grid - Hc / 2
    rel = []
    for tilt in (0.0, lam):
        lt = logm + tilt * centers
        lt = lt - np.max(lt[finite])
        rel.append(lt)
    lrel = np.maximum(rel[0], rel[1])          # log relative mass per coarse cell
    keep = lrel > -800
    idx = np.nonzero(keep)[0]
    lo_c, hi_c = idx[0], idx[-1]
    ia = math.floor((A0 + lo_c * Hc) / hf) - 1
    ib = math.ceil((A0 + (hi_c + 1) * Hc) / hf) + 1
    if math.isfinite(model.lo):
        ia = max(ia, math.floor(model.lo / hf) - 1)
    if math.isfinite(model.hi):
        ib = min(ib, math.ceil(model.hi / hf) + 1)
    # per coarse cell: allowed gap in fine cells
    fine_per = Hc / hf
    r = np.exp(np.clip(lrel, -800, 0)) / max(fine_per, 1.0)     # relative mass per fine cell
    w = np.cbrt(tol * hf / np.maximum(r, 1e-300))
    # a cell wider than 1/(2 max(lam, 1)) would let the tilt e^{lam l} magnify the mass that the
    # upper measure moves to its right end: cap the width (accuracy only; validity never depends on it)
    w = np.minimum(w, 0.5 / max(lam, 1.0))
    gap = np.clip(np.floor(w / hf), 1, 2 ** 24).astype(np.int64)
    gap = np.where(keep, gap, 2 ** 24)
    # next coarse cell with a smaller gap (so that a long jump never skips a denser region)
    nxt = np.full(M_, M_, dtype=np.int64)
    stack = []
    for c in range(M_):
        while stack and gap[c] < gap[stack[-1]]:
            nxt[stack.pop()] = c
        stack.append(c)
    knots = []
    i = ia

    def cell_of(j):
        return min(max(int((j * hf - A0) / Hc), 0), M_ - 1)
    while i < ib:
        knots.append(i)
        c = cell_of(i)
        g = int(gap[c])
        if g > 1 and nxt[c] < M_:
            j_next = math.floor((A0 + nxt[c] * Hc) / hf)
            if i + g > j_next:
                g = max(1, j_next - i)
        i += g
    knots.append(ib)
    ks = set(knots)
    for a in model.atoms:
        q = a.value / h
        ks.add(math.floor(q))
        ks.add(math.ceil(q))
    return np.array(sorted(ks), dtype=np.int64)


def _knot_balls(h: Fraction, knots):
    """The knots' loss values l_i = h k_i as exact balls (one fmpq each, no Fraction arithmetic)."""
    from flint import arb, fmpq
    hn, hd = h.numerator, h.denominator
    return [arb(fmpq(hn * k, hd)) for k in knots.tolist()]


def _tails_at(model, h: Fraction, knots, balls):
    """(S_P, S_Q, Q-atom) at every knot.  A model without atoms that offers ``tails_arb(la, k)`` (the
    ball of l = h k and the sign of k) is asked with the ball directly; the others get the exact
    Fraction l = h k (they compare it with their atoms exactly)."""
    from flint import arb
    SP, SQ = [], []
    ks = knots.tolist()
    fast = getattr(model, "tails_arb", None) if not model.atoms else None
    if fast is not None:
        for k, la in zip(ks, balls):
            sp, sq = fast(la, k)
            SP.append(sp)
            SQ.append(sq)
        return SP, SQ, [arb(0)] * len(ks)
    QA = []
    for k in ks:
        l = h * k
        sp, sq = model.tails(l)
        SP.append(sp)
        SQ.append(sq)
        QA.append(model.q_atom_at(l))
    return SP, SQ, QA


def _upper_ctd(model, h, knots, SP, SQ, balls) -> StepMeasure:
    from flint import arb
    n = len(knots)
    mass = [arb(0)] * n
    em = [(-la).exp() for la in balls]
    total_fin = 1 - model.p_inf()
    mass[0] = total_fin - SP[0]                       # mass at or below l_0, moved up to l_0
    for i in range(n - 1):
        p = SP[i] - SP[i + 1]
        q = SQ[i] - SQ[i + 1]
        den = em[i] - em[i + 1]
        right = (p * em[i] - q) / den
        mass[i + 1] = mass[i + 1] + right
        mass[i] = mass[i] + (p - right)
    out = np.array([max(_up(m), 0.0) for m in mass])
    inf_mass = _up(model.p_inf() + SP[-1])
    return StepMeasure(np.asarray(knots, dtype=np.int64), out, inf_mass, "upper")


def _round_measure(model, h, knots, SP, kind) -> StepMeasure:
    n = len(knots)
    masses = []
    for i in range(n - 1):
        masses.append(SP[i] - SP[i + 1])
    if kind == "upper":
        out = np.zeros(n)
        out[0] = max(_up(1 - model.p_inf() - SP[0]), 0.0)
        for i, p in enumerate(masses):
            out[i + 1] += max(_up(p), 0.0)
        return StepMeasure(np.asarray(knots), out, _up(model.p_inf() + SP[-1]), "upper", "round")
    out = np.zeros(n)
    for i, p in enumerate(masses):
        out[i] += max(_down(p), 0.0)
    out[-1] += max(_down(SP[-1]), 0.0)
    out[0] += _first_atom(model, h, knots)
    out = np.array([math.nextafter(v, 0.0) if v > 0 else 0.0 for v in out])
    return StepMeasure(np.asarray(knots), out, max(_down(model.p_inf()), 0.0), "lower", "round")


def _first_atom(model, h: Fraction, knots) -> float:
    """A float <= the P-mass of an atom of L lying exactly on the first knot l_0.  Both lower
    measures are built from the masses above l_0 (S_P(l_0) = P(l_0 < L < inf)) and drop what lies at
    or below it; an atom at l_0 itself can be kept where it is (its D-term (1 - s e^{-l_0})_+ is
    exact, and the rest of the measure bounds D of L > l_0 alone).  Without it the (0, delta) pair,
    whose finite loss is the single atom L = 0, had a lower measure of finite mass 0 (the engine
    then divided by it), and randomized response lost its -eps atom."""
    return max(_down(model.p_atom_at(h * int(knots[0]))), 0.0)


def _deficits(SP, SQ, QA, s, D):
    """Deficits e_i of the lower measure's knot values v_i = D_i - e_i (module docstring, "lower
    measure").

    Cell i carries theta_i (where the tangents of D at its two ends cross, as a fraction of the
    cell) and Delta_i = D_{i+1} - R_i(s_{i+1}), R_i the right tangent at s_i; the interpolant of the
    v's lies below D on the cell when f(theta) = (1 - theta) e_i + theta (e_{i+1} - Delta_i) >= 0 at
    the true theta_i.  f is linear with f(0) = e_i >= 0, so f >= 0 at an upper end theta_hi in (0, 1]
    of theta_i suffices (theta = 1 holds whenever e_{i+1} >= Delta_i).

    First choice: e_i = min(max(G_{i-1}, G_i), tau_i) with G_i = theta_i Delta_i (the chord's gap
    above the tangents' crossing) and tau_i = D_i - t_0(s_i) >= 0 the gap above the tangent t_0 at
    the first knot (t_0(s) = S_P(l_0) - s S_Q(l_0)).  Keeping the points on or above t_0 keeps the
    lower measure's total mass and Q-mass (D~(0) and D~'(0)) those of t_0, i.e. exact, where the
    plain max rule lowered the first knots and made D~ steeper at 0: one Poisson-subsampled Gaussian
    step of DP-SGD then carried 6.6e-7 too much Q-mass, which 14062 steps turned into a 6.6 % low
    delta.  Then a repair pass raises e_{i+1} wherever a cell's condition fails (raising a deficit
    never breaks another cell).  Returns exact floats."""
    from flint import arb
    n = len(s)
    thetas, deltas, gaps = [], [], []
    for i in range(n - 1):
        qopen = SQ[i] - SQ[i + 1] - QA[i + 1]            # Q-mass of the open cell (l_i, l_{i+1})
        delta = D[i + 1] - D[i] + SQ[i] * (s[i + 1] - s[i])
        th = 1.0
        if qopen > 0:
            c = (SP[i] - SP[i + 1] - s[i + 1] * QA[i + 1]) / qopen     # P_open / Q_open, in [s_i, s_{i+1}]
            th = max(min(_up((c - s[i]) / (s[i + 1] - s[i])), 1.0), math.ulp(0.0))
        thetas.append(th)
        deltas.append(delta)
        gaps.append(max(_up(arb(th) * delta), 0.0))
    sp0, sq0 = SP[0], SQ[0]
    e = [0.0] * n
    for i in range(n):
        g = max(gaps[i - 1] if i > 0 else 0.0, gaps[i] if i < n - 1 else 0.0)
        tau = max(_down(D[i] - sp0 + s[i] * sq0), 0.0)
        e[i] = min(g, tau)
    for i in range(n - 1):
        th = arb(thetas[i])
        if ((1 - th) * arb(e[i]) + th * (arb(e[i + 1]) - deltas[i])).lower() >= 0:
            continue
        dhi = max(_up(deltas[i]), 0.0)
        if thetas[i] < 1:
            x = deltas[i] - arb(e[i]) * ((1 - th) / th)
            e[i + 1] = max(e[i + 1], min(max(_up(x), 0.0), dhi))
        else:
            e[i + 1] = max(e[i + 1], dhi)
    return e, thetas, deltas


def _lower_hull(model, h, knots, SP, SQ, QA, balls) -> StepMeasure:
    """Second-order lower measure (module docstring); falls back to rounding down."""
    from flint import arb
    n = len(knots)
    s = [la.exp() for la in balls]
    D = [SP[i] - s[i] * SQ[i] for i in range(n)]
    e, thetas, deltas = _deficits(SP, SQ, QA, s, D)
    v = [D[i] - arb(e[i]) for i in range(n)]
    w = [_down(x) for x in v]
    # top cut: last usable knot K; beyond it D~ = 0.  Setting v_K = 0 is valid when it lowers v_K
    # (v_K >= 0) or when the cell K-1 still holds with e_K = D_K: (1-theta) e_{K-1} + theta D_K >= G
    K = n - 1
    for i in range(n):
        if w[i] <= 0:
            K = i
            break
    while K > 0 and not v[K].lower() >= 0:
        th = arb(thetas[K - 1])
        if ((1 - th) * arb(e[K - 1]) + th * (D[K] - deltas[K - 1])).lower() >= 0:
            break
        K -= 1
    if K == 0:
        return _round_measure(model, h, knots, SP, "lower")
    # lower convex hull (monotone chain, in float) of the point (0, P(L > l_0)) and the (s_i, w_i): the
    # first point makes D~(0) <= P(L > l_0) hold by construction (module docstring); it carries no mass
    sp0 = SP[0]
    sp0_lo = max(_down(sp0), 0.0)
    xs = [0.0] + [float(x.mid()) for x in s[:K + 1]]
    ys = [sp0_lo] + w[:K] + [0.0]
    hull = []
    for i in range(K + 2):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            t1 = (xs[b] - xs[a]) * (ys[i] - ys[a])
            t2 = (ys[b] - ys[a]) * (xs[i] - xs[a])
            # near-collinear counts as not convex: dropping such a middle point costs ~1e-12 relative
            # (absorbed by the verified scaling), keeping it could leave a negative exact mass
            if t1 - t2 <= 1e-12 * (abs(t1) + abs(t2)):
                hull.pop()
            else:
                break
        hull.append(i)
    # masses at hull vertices (knot index = point index - 1) from exact slopes (Arb)
    ya = [arb(y) for y in ys]
    sa = [arb(0)] + s[:K + 1]
    slopes = [(ya[b] - ya[a]) / (sa[b] - sa[a]) for a, b in zip(hull[:-1], hull[1:])]
    mass = np.zeros(n)
    for t in range(1, len(hull)):
        right = slopes[t] if t < len(slopes) else arb(0)
        mm = sa[hull[t]] * (right - slopes[t - 1])
        mass[hull[t] - 1] = max(_down(mm), 0.0)
    # rigorous check: T_i = D~(s_i) <= w_i for i <= K, sum <= SP_0
    meas = StepMeasure(np.asarray(knots), mass, max(_down(model.p_inf()), 0.0), "lower", "hull")
    ok, scale = _verify_lower(h, knots, mass, w, K, sp0_lo)
    if not ok:
        return _round_measure(model, h, knots, SP, "lower")
    if scale < 1:
        meas.mass = mass * scale
        meas.mass = np.array([math.nextafter(x, 0.0) if x > 0 else 0.0 for x in meas.mass])
        meas.note = f"hull scaled by {scale:.3g}"
    atom0 = _first_atom(model, h, knots)             # added after the check, which bounds L > l_0 only
    if atom0 > 0:
        meas.mass = meas.mass.copy()
        meas.mass[0] = math.nextafter(meas.mass[0] + atom0, 0.0)
    return meas


def _verify_lower(h, knots, mass, w, K, sp0_lo):
    """Check D~(s_i) <= w_i (i <= K) and total <= sp0_lo with a rigorous float recursion of
    non-negative terms.  Returns (ok, scale): scale < 1 if masses must be scaled down."""
    n = len(knots)
    # factors e^{-d} and 1 - e^{-d} for the gaps, upper bounds
    cache = {}

    def fac(d):
        if d not in cache:
            x = M.arb_of(h * d)
            cache[d] = (_up((-x).exp()), _up(-((-x).expm1())))
        return cache[d]
    T = [0.0] * n
    E = 0.0
    Tn = 0.0
    for i in range(n - 2, -1, -1):
        d = int(knots[i + 1] - knots[i])
        e1, c1 = fac(d)
        base = mass[i + 1] + E
        Tn = Tn + c1 * base
        E = e1 * base
        T[i] = Tn
    gam = (4 * n + 10) * U * 1.01
    worst = 1.0
    for i in range(K + 1):
        t = T[i] * (1 + gam)
        if t > w[i]:
            if T[i] == 0 and i == K:
                continue          # D~(s_K) = 0 by construction; K was chosen with D_K - g_{K-1} >= 0
            if w[i] <= 0:
                return False, 0.0
            worst = min(worst, w[i] / t)
    tot = math.fsum(mass.tolist()) * (1 + n * U)
    if tot > sp0_lo:
        worst = min(worst, sp0_lo / tot) if sp0_lo > 0 else 0.0
    if worst < 1:
        worst = worst * (1 - 1e-12)
        if worst < 0.999:
            return False, worst
    return True, worst


def _step_state(model, h: Fraction, lam: float, tol: float):
    """(knots, knot balls, S_P, S_Q, Q-atoms) of one pair: what both step measures are built from."""
    from flint import ctx
    knots = _knots(model, h, lam, tol)
    with ctx.workprec(M.PREC):
        balls = _knot_balls(h, knots)
        return (knots, balls) + tuple(_tails_at(model, h, knots, balls))


def _step_measure(model, h: Fraction, state, kind: str, scheme: str = "interpolate") -> StepMeasure:
    """The upper or lower step measure of one pair from its ``_step_state``."""
    from flint import ctx
    knots, balls, SP, SQ, QA = state
    with ctx.workprec(M.PREC):
        if scheme == "round":
            return _round_measure(model, h, knots, SP, kind)
        if kind == "upper":
            return _upper_ctd(model, h, knots, SP, SQ, balls)
        return _lower_hull(model, h, knots, SP, SQ, QA, balls)


def discretise(model, h: Fraction, lam: float = 0.0, scheme: str = "interpolate", tol: float = 1e-13):
    """(upper, lower) step measures of one dominating pair on the grid hZ."""
    state = _step_state(model, h, lam, tol)
    return _step_measure(model, h, state, "upper", scheme), _step_measure(model, h, state, "lower", scheme)


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


def _chernoff(parts, t, above: bool):
    """log of a bound on the mass of the composition of the (l, x, k) parts above t (or below t):
    min over 60 theta of sum_j k_j log M_j(theta) - theta t (all theta at once)."""
    th = (_THETAS if above else -_THETAS)[:, None]
    v = -th[:, 0] * t
    for l, x, k in parts:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            a = np.log(x)[None, :] + th * l[None, :]
            m = np.max(a, axis=1)
            lm = m + np.log(np.sum(np.exp(a - m[:, None]), axis=1))
        v = v + k * np.where(np.isfinite(m), lm, m)
    v = v + sum(k for _, _, k in parts) * 1e-9          # slack A1 on the mgf evaluation
    v = v[~np.isnan(v)]
    return float(np.min(v)) if len(v) else math.inf


def _power(z, k):
    """Binary powering of a complex array (the same products as the textbook loop, done in place)."""
    result = None
    base = z.copy()
    while k:
        if k & 1:
            if result is None:
                result = base.copy()
            else:
                np.multiply(result, base, out=result)
        k >>= 1
        if k:
            np.multiply(base, base, out=base)
    return result


def compose_fft(items, h: Fraction, lam: float, eps_hint=None, window=None) -> Composed:
    """items: list of (StepMeasure, count), all of one kind.  ``window = (W0, N)`` reuses another
    composition's window (the lower measure's, so that both ends are read on the same grid points);
    it is taken when it holds this composition's own +-12 sigma range, else widened as usual."""
    hf = float(h)
    kind = items[0][0].kind
    parts = []
    C = Fraction(0)
    mean = var = 0.0
    span = 0
    for meas, k in items:
        l, x, c = _tilt(meas, lam, hf)
        parts.append((l, x, k))
        C += k * Fraction(c)
        s = x.sum()
        mu = float((x * l).sum() / s)
        mean += k * mu
        var += k * float((x * (l - mu) ** 2).sum() / s)
        span = max(span, int(meas.knots[-1] - meas.knots[0]) + 1)
    sig = math.sqrt(max(var, 0.0)) + hf
    # +-8 sigma of the tilted composition, then each side is widened in steps of 1 sigma while the
    # Chernoff bound on the mass beyond it exceeds e^-40 (that mass is bounded and accounted for
    # below; e^-40 keeps it ~1e-15 of the tilted values read at the query, which sit near the centre).
    # A subsampled step's tilted loss has a heavy right tail: DP-SGD's needs +16 sigma on the right
    # and -9 sigma on the left.
    lo = mean - 8 * sig
    hi = mean + 8 * sig
    if eps_hint is not None:
        lo = min(lo, eps_hint - 8 * sig)
        hi = max(hi, eps_hint + 8 * sig)
    if window is not None:
        lo, hi = min(lo, window[0] * hf), max(hi, (window[0] + window[1] - 1) * hf)
    # the composed support is the integer range sum k_j [first knot_j, last knot_j]: when it is not
    # much wider than the window, cover it whole (then nothing aliases, exactly); otherwise widen the
    # window while the Chernoff bound on the mass outside it is not negligible (skewed steps, few
    # steps: +-15 sigma left 3 % outside for one Poisson-subsampled step at q = 0.01, sigma = 0.5)
    sup_lo = sum(k * int(meas.knots[0]) for meas, k in items)
    sup_hi = sum(k * int(meas.knots[-1]) for meas, k in items)
    if (sup_hi - sup_lo + 2) <= max(4 * ((hi - lo) / hf + 2), 1 << 16):
        lo, hi = min(lo, sup_lo * hf), max(hi, sup_hi * hf)
    else:
        grow_hi = grow_lo = True
        for _ in range(64):
            if grow_hi:
                grow_hi = hi < sup_hi * hf and _chernoff(parts, hi, True) > -40
                hi += sig if grow_hi else 0.0
            if grow_lo:
                grow_lo = lo > sup_lo * hf and _chernoff(parts, lo, False) > -40
                lo -= sig if grow_lo else 0.0
            if not (grow_hi or grow_lo) or (hi - lo) / hf > MAX_WINDOW:
                break
    n_need = int((hi - lo) / hf) + 2
    N = 1 << max(10, (n_need - 1).bit_length())
    if window is not None and window[0] * hf <= lo and hi <= (window[0] + window[1] - 1) * hf:
        n_need = N = window[1]
    if N > MAX_WINDOW:
        total = sum(k for _, k in items)
        raise DomainError("k", total, f"a composition whose FFT window fits in 2^{MAX_WINDOW.bit_length() - 1} "
                                      f"grid points (this one needs 2^{N.bit_length() - 1} at h = {hf:.3g}: its "
                                      f"loss spreads over {hi - lo:.3g}); compose fewer steps")
    W0 = math.floor(lo / hf) - (N - n_need) // 2
    if window is not None and N == window[1]:
        W0 = window[0]
    # FFT error bound constants
    L2 = math.log2(N)
    gamma4 = 4 * U / (1 - 4 * U)
    eta = TW + gamma4 * (math.sqrt(2) + TW)
    etaF = FFT_SAFETY * L2 * eta / (1 - L2 * eta)
    sqN = math.sqrt(N)
    Y = None
    err = 0.0           # ||Y' - Y||_2 bound accumulated
    Rprod = 1.0         # bound on |Y|, |Y'| pointwise
    for (meas, k), (l, x, _) in zip(items, parts):
        arr = np.zeros(N)
        np.add.at(arr, (meas.knots % N).astype(np.int64), x)
        X = np.fft.rfft(arr)          # the half spectrum 0..N/2; the rest is its mirror image
        x2 = float(np.sqrt(np.sum(x * x))) * (1 + 1e-12)
        s1 = float(x.sum()) * (1 + len(x) * U * 2)
        e = etaF * sqN * x2
        rho = s1 + e
        gpow = math.expm1((k + 2 * math.log2(k + 1) + 2) * math.sqrt(5) * U * 1.01)
        rk1 = rho ** (k - 1)
        err_j = k * rk1 * e + gpow * rk1 * (sqN * x2 + e)
        R = rho ** k * (1 + gpow)
        P = _power(X, k)
        if Y is None:
            Y = P
            err = err_j
            Rprod = R
        else:
            Y = Y * P
            err = err * R + Rprod * err_j + math.sqrt(5) * U * 1.01 * Rprod * R * sqN
            Rprod = Rprod * R
    # the 2-norm of the whole (Hermitian) spectrum: the middle entries appear twice
    a2 = np.abs(Y) ** 2
    Ynorm = float(np.sqrt(2 * np.sum(a2) - a2[0] - a2[-1])) * (1 + 1e-12)
    y = np.fft.irfft(Y, n=N)
    E_out = (err + etaF * Ynorm) / sqN
    # rotate so that y_win[i] is the grid index W0 + i
    y = np.roll(y, -(W0 % N))
    top = (W0 + N) * hf
    bot = (W0 - 1) * hf
    # mass outside the window: none when the integer support lies inside it, else the Chernoff bound
    la = -math.inf if sup_hi <= W0 + N - 1 else _chernoff(parts, top, True)
    lb = -math.inf if sup_lo >= W0 else _chernoff(parts, bot, False)
    log_alias = float(np.logaddexp(la, lb))
    # +inf atoms and totals (measure's own direction)
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
    return Composed(W0, y, E_out, float(C), lam, hf, la, log_alias, log_inf, log_total, kind,
                    mean, sig)


def grid_bounds(comp: Composed, which: str = "both"):
    """log of certified bounds on delta_fin at every window grid point eps = l_i (i = 0..N-1),
    without the +inf term: (log_upper, log_lower) arrays.  For an upper composition only the upper
    array is meaningful, for a lower one only the lower array; ``which`` = "upper" or "lower" makes
    only that one (the other is None)."""
    from flint import ctx
    hf, lam = comp.h, comp.lam
    n = len(comp.y)
    with ctx.workprec(80):
        hh = M.arb_of(Fraction(hf))
        r_l = (-(M.arb_of(Fraction(lam)) * hh)).exp()
        r_1 = (-hh).exp()
        c1 = float((1 - r_1).mid())
        rl = float(r_l.mid())
        r1 = float(r_1.mid())
    # reversed recursions: E_i = r_l r_1 (y_{i+1} + E_{i+1}), T_i = r_l (T_{i+1} + (1 - r_1)(y_{i+1} + E_{i+1}))
    yr = comp.y[::-1]
    ya = np.abs(yr)

    from scipy.signal import (
        lfilter,  # imported here: scipy.signal costs ~1.8 s at import
    )

    def run(z):
        zs = np.concatenate(([0.0], z[:-1]))          # z_{n-1} shifted: index n gets y_{i+1}
        E = lfilter([rl * r1], [1.0, -rl * r1], zs)
        # E here is sum over earlier z with weights; define base_i = y_{i+1} + E_{i+1}
        base = zs + np.concatenate(([0.0], E[:-1]))
        T = lfilter([rl * c1], [1.0, -rl], base)
        return T[::-1]
    T = run(yr)
    Ta = run(ya)
    gam = (4 * n + 10) * U * 2
    # ||w||_2 for the FFT error term
    d = np.arange(1, n + 1, dtype=float) * hf
    W = float(np.sqrt(np.sum(np.exp(-2 * lam * d) * (-np.expm1(-d)) ** 2))) * (1 + 1e-9)
    base_err = gam * Ta + W * comp.E_out
    l = (comp.W0 + np.arange(n)) * hf
    scale = comp.C - lam * l
    with np.errstate(divide="ignore", invalid="ignore"):
        # Far below the tilt centre the recursion's factors e^{-lam h} underflow (float64 has no
        # numbers below 2^-1074), so T + base_err can come out as 0 or a subnormal although the
        # true value is positive: there the tilted scale carries no information and the upper
        # value falls back to the trivial bound delta_fin <= P(L finite) (log_total).  Found by
        # the exact Laplace route: 10 x Laplace(0.1) at alpha = 1e-10 was "certified" at
        # power 1.2e-10 against the exact e * 1e-10.
        up = lo = None
        if which != "lower":
            tv = T + base_err
            up = np.where(tv > TINY_NORMAL, scale + np.log(np.where(tv > TINY_NORMAL, tv, 1.0)), comp.log_total)
            up = np.logaddexp(up, comp.C - lam * (comp.W0 + n) * hf + comp.log_above)
            up = up + LOGSLACK * np.maximum(np.abs(up), 1)
        if which != "upper":
            lo_v = T - base_err - math.exp(min(comp.log_alias, 700))
            lo = np.where(lo_v > 0, scale + np.log(np.where(lo_v > 0, lo_v, 1)), -np.inf)
            lo = lo - LOGSLACK * np.maximum(np.abs(lo), 1)
    return up, lo


# ----------------------------------------------------------------------------------------------
# the composition object


def _entries(components):
    out = []
    for item in components:
        if isinstance(item, M.Mechanism):
            mech, k = item, 1
        else:
            mech, k = item
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"count must be an integer >= 1, got {k!r}")
        out.append((mech, k))
    if not out:
        raise ValueError("nothing to compose")
    return out


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


class Composition:
    """Certified numeric composition of a list of (mechanism, count)."""

    def __init__(self, components, h=None, scheme: str = "interpolate", tol: float | None = None):
        if M.flint_or_none() is None:
            raise RuntimeError("the certified engine needs python-flint (pip install dp-derive[certified])")
        self.entries = _entries(components)
        if scheme not in ("interpolate", "round"):
            raise ValueError("scheme must be 'interpolate' or 'round'")
        self.scheme = scheme
        self.tol = tol if tol is not None else max(1e-15, 1e-7 / sum(k for _, k in self.entries))
        self.h = self._grid(h)
        ndir = max(len(m.directions) for m, _ in self.entries)
        # direction d of the composition: direction d of each mechanism (symmetric ones repeat)
        self.directions = list(range(ndir))
        self._cache = {}
        self._meas_cache = {}

    # grid -------------------------------------------------------------------------------------
    def _grid(self, h):
        if h is not None:
            return M.exact(h, "h")
        K = sum(k for _, k in self.entries)
        # default: h ~ 0.8e-2 / sqrt(K) * typical loss scale, snapped so that pure-DP atoms lie on it
        # (0.5e-2 before the lower measure kept its first moment; DP-SGD: h = 2^-14, width 1.4e-4)
        atoms = []
        for mech, _ in self.entries:
            for d in mech.directions:
                for a in d.atoms:
                    if a.value > 0:
                        atoms.append(a.value)
        if atoms and all(isinstance(d, (M.PureDP,)) for mech, _ in self.entries for d in mech.directions):
            g = atoms[0]
            for a in atoms[1:]:
                g = Fraction(math.gcd(g.numerator * a.denominator, a.numerator * g.denominator),
                             g.denominator * a.denominator)
            return g
        target = min(8e-3 / math.sqrt(K), 5e-3)
        # a composition whose total loss spread is small (few weakly subsampled steps) needs a grid
        # finer than its spread: at most 1/10 of the composed loss's standard deviation (finer grids
        # cost knots in the long right tail of a subsampled step and did not narrow its bracket)
        spread = math.sqrt(sum(k * _float_loss_var(d) for mech, k in self.entries for d in mech.directions[:1]))
        if spread > 0:
            target = min(target, spread / 10)
        if atoms:
            e = min(atoms)
            m = max(1, math.ceil(float(e) / target))
            return e / m
        return Fraction(1, 2 ** math.ceil(-math.log2(target)))

    # pieces -----------------------------------------------------------------------------------
    def _models(self, d):
        return [(m.directions[min(d, len(m.directions) - 1)], k) for m, k in self.entries]

    def _measures(self, d, lam_knots, lower=True):
        """(upper, lower) step measures of direction d, knots placed for tilts up to lam_knots.  The
        lower ones are made from the same tails when first asked for (None until then: the tilt
        search needs only the upper ones)."""
        key = (d, lam_knots)
        got = self._meas_cache.get(key)
        if got is None:
            states = [(model, k, _step_state(model, self.h, lam_knots, self.tol)) for model, k in self._models(d)]
            ups = [(_step_measure(model, self.h, st, "upper", self.scheme), k) for model, k, st in states]
            got = self._meas_cache[key] = [ups, None, [], states]
        if lower and got[1] is None:
            los, notes = [], []
            for model, k, st in got[3]:
                lo = _step_measure(model, self.h, st, "lower", self.scheme)
                los.append((lo, k))
                if lo.note == "round":
                    notes.append(f"{model.name}: lower measure fell back to rounding (first order)")
            got[1], got[2] = los, notes
        return got[0], got[1], got[2]

    @staticmethod
    def _bucket(lam):
        """The tilt the knots are placed for: 1.5 lam + 1 rounded up on a ladder of ratio 2^(1/8), so
        that nearby queries share measures.  Above lam because a query reads the mass above the
        tilted centre (one weakly subsampled step at delta = 1e-5 loses 30 % of its bracket with
        knots placed for 1.1 lam); not much above, because the knots follow the tilted mass and for a
        subsampled Gaussian the tilted mass at 2.5 lam can sit far out in the tail (DP-SGD's step
        asked for 92627 knots at 16, the old power-of-two ladder's choice for lam = 6.24, and for
        1698 at 10.4)."""
        return 0.0 if lam <= 0 else float(2.0 ** (math.ceil(8 * math.log2(1.5 * lam + 1.0)) / 8))

    def _measure_cgf(self, ups):
        """Float cumulant generating function of the composed step measures: K(lam) -> (K, K', K'')."""
        hf = float(self.h)
        parts = []
        for meas, k in ups:
            with np.errstate(divide="ignore"):
                lm = np.log(meas.mass)
            ok = np.isfinite(lm)
            parts.append((meas.knots[ok] * hf, lm[ok], k))

        def K(lam):
            v = m1 = m2 = 0.0
            for c, lm, k in parts:
                a = lm + lam * c
                mx = np.max(a)
                w = np.exp(a - mx)
                s = w.sum()
                mu = float((w * c).sum() / s)
                v += k * (mx + math.log(s))
                m1 += k * mu
                m2 += k * float((w * (c - mu) ** 2).sum() / s)
            return v, m1, m2
        return K

    def _solve_lam(self, K, target, mode):
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
        if g(1e-9) <= 0:
            return 0.0
        # cap: lam h <= 40 keeps e^{-lam h} far from float underflow in grid_bounds' recursion (a
        # target at the top of a bounded support asked for lam ~ 1e7 and got the trivial bound 1);
        # any lam is valid, the cap only costs accuracy where the tilted mass sits on the last knot
        cap = min(1e7, 40.0 / float(self.h))
        lo, hi = 1e-9, min(1.0, cap)
        while g(hi) > 0 and hi < cap:
            lo, hi = hi, min(hi * 2, cap)
        if g(hi) > 0:
            return hi
        lo, hi = bisect(lambda lam: g(lam) > 0, lo, hi, steps=60)
        return (lo + hi) / 2

    def _tilt_for(self, d, target, mode):
        """(lam, eps_center): the tilt for a query, from the coarse CGF then the step measures."""
        ups, _, _ = self._measures(d, 0.0, lower=False)
        lam0 = self._solve_lam(self._measure_cgf(ups), target, mode)
        bucket = self._bucket(lam0)
        ups, _, _ = self._measures(d, bucket, lower=False)
        K = self._measure_cgf(ups)
        lam = self._solve_lam(K, target, mode)
        if self._bucket(lam) > bucket:
            bucket = self._bucket(lam)
            ups, _, _ = self._measures(d, bucket, lower=False)
            K = self._measure_cgf(ups)
            lam = self._solve_lam(K, target, mode)
        return lam, K(lam)[1], bucket

    def _composed(self, d, lam, eps_hint=None, bucket=None, lower=True):
        """(upper composition, lower composition, their log-delta grids, notes) of direction d; the
        lower one (on the upper's window) only when asked for (else None, None)."""
        lamq = float(f"{lam:.4g}") if lam > 0 else 0.0
        if bucket is None:
            bucket = self._bucket(lamq)
        key = (d, lamq, bucket, None if eps_hint is None else round(eps_hint, 2))
        ups, los, notes = self._measures(d, bucket, lower)
        if key not in self._cache:
            cu = compose_fft(ups, self.h, lamq, eps_hint)
            self._cache[key] = [cu, grid_bounds(cu, "upper")[0], None, None]
        got = self._cache[key]
        if lower and got[2] is None:
            cl = compose_fft(los, self.h, lamq, eps_hint, window=(got[0].W0, len(got[0].y)))
            got[2], got[3] = cl, grid_bounds(cl, "lower")[1]
        return got[0], got[2], got[1], got[3], notes

    def _dir_bounds(self, d, lam, idx, eps_hint=None, bucket=None, lower=True):
        """log upper / lower bounds of delta (incl. the +inf term) of direction d at grid indices idx
        (the lower ones -inf when not asked for)."""
        cu, cl, gu, gl, notes = self._composed(d, lam, eps_hint, bucket, lower)
        up = np.empty(len(idx))
        lo = np.full(len(idx), -np.inf)
        for arr_out, comp, g, is_up in ((up, cu, gu, True), (lo, cl, gl, False)):
            if comp is None:
                continue
            j = idx - comp.W0
            inside = (j >= 0) & (j < len(g))
            vals = np.where(inside, g[np.clip(j, 0, len(g) - 1)], 0.0)
            if is_up:
                below = j < 0
                above = j >= len(g)
                top_bound = comp.C - comp.lam * (comp.W0 + len(g)) * comp.h + comp.log_above
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
        ups, los, _ = self._measures(d, 0.0)
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

    def eps(self, delta) -> EpsResult:
        t0 = time.perf_counter()
        dl = M.exact(delta, "delta")
        if not 0 < dl < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta}")
        logd = math.log(float(dl)) if float(dl) > 0 else float(mpmath.log(mpmath.mpf(dl.numerator) / dl.denominator))
        e_up, e_lo, notes = [], [], []
        certified = True
        found = []
        for d in self.directions:
            lam, eg, bucket = self._tilt_for(d, logd, "delta")
            for _ in range(3):
                cu, _, gu, _, nt = self._composed(d, lam, eg, bucket, lower=False)
                idx = cu.W0 + np.arange(len(gu))
                up, _, nt = self._dir_bounds(d, lam, idx, eg, bucket, lower=False)
                a = self._solve(up, idx, logd, upper=True)
                center_ok = a is not None and abs(float(a) - cu.center) < 6 * cu.sigma
                if center_ok or lam == 0.0:
                    break
                if a is not None:
                    lam, eg, bucket = self._tilt_for(d, float(a), "mean")
            notes += nt
            if a is None:
                certified = False
                notes.append(f"direction {d}: delta not reached in the window")
                a = mpmath.inf
            e_up.append(a)
            found.append((a, d, lam, eg, bucket, idx))
        # eps = max over directions, so any direction's lower end is a lower end of eps: the lower
        # compositions are made from the direction with the largest upper end down, and skipped for a
        # direction whose upper end is already below the best lower end (it cannot raise it)
        e_lo.append(mpmath.mpf(0))
        for a, d, lam, eg, bucket, idx in sorted(found, key=lambda t: t[0], reverse=True):
            if a <= max(e_lo):
                continue
            _, lo, _ = self._dir_bounds(d, lam, idx, eg, bucket)
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
            if len(cand) == 0:
                i = 0
            else:
                i = cand[-1] + 1
            if i >= len(le):
                return None
            gi = int(idx[i])
            if gi <= 0:
                return mpmath.mpf(0)
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
        t0 = time.perf_counter()
        al = M.exact(alpha, "alpha")
        if not 0 < al < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha}")
        la = float(mpmath.log(mpmath.mpf(al.numerator) / al.denominator))
        notes = []
        per = []
        lo_i, hi_i = None, None
        tops = []
        for d in self.directions:
            lam, eg, bucket = self._tilt_for(d, la, "alpha")
            cu, cl, gu, gl, nt = self._composed(d, lam, eg, bucket)
            notes += nt
            # the pessimistic measure's largest finite loss: above it its delta is its +inf mass
            ups_d, _, _ = self._measures(d, bucket, lower=False)
            tops.append((sum(k * int(m.knots[-1]) for m, k in ups_d) * self.h, cu.log_inf))
            per.append((d, lam, eg, bucket))
            a, b = cu.W0, cu.W0 + len(gu)
            lo_i = a if lo_i is None else max(lo_i, a)
            hi_i = b if hi_i is None else min(hi_i, b)
        if lo_i is None or hi_i <= lo_i:
            lo_i = min(p[2] for p in per)
        idx = np.arange(lo_i, hi_i)
        hf = self._hf()
        ups, los = [], []
        for d, lam, eg, bucket in per:
            up, lo, _ = self._dir_bounds(d, lam, idx, eg, bucket)
            ups.append(up)
            los.append(lo)
        U_ = np.max(ups, axis=0)
        l = idx * hf
        tal = la + l                   # log(e^eps alpha)
        objU = np.logaddexp(U_, tal)
        j = int(np.argmin(objU))
        # power upper: value at the best grid point (any eps gives an upper bound), certified form
        pu = self._exp_up(objU[j])
        # at eps = the largest finite loss of every pessimistic measure, delta_upper is the +inf
        # mass: power <= P(+inf) + e^top alpha (tight when alpha sits in the top atom)
        top = max(t for t, _ in tops)
        log_inf = max(li for _, li in tops)
        with mpmath.workprec(80):
            cand = mpmath.exp(mpmath.mpf(top.numerator) / top.denominator) * (mpmath.mpf(al.numerator) / al.denominator)
            if np.isfinite(log_inf):
                cand += self._exp_up(log_inf)
            cand *= 1 + mpmath.mpf(2) ** -60
        pu = min(pu, cand)
        # power lower: exact minimum over cells of max over directions of the lines through the
        # lower end-point values (module docstring); lines are linear in t = e^eps
        pl = self._power_lower(los, idx, la)
        # outside the common window: below it delta >= delta(bottom) (monotone), above it e^eps alpha
        bottom = max(float(x[0]) for x in los)
        pl = min(pl, self._exp_down(bottom), self._exp_down(la + idx[-1] * hf))
        one = mpmath.mpf(1)
        pu = min(pu, one)
        pl = min(pl, one)
        beta_lower = max(one - pu, mpmath.mpf(0))
        beta_upper = max(one - pl, mpmath.mpf(0))
        return TradeoffResult(alpha=al, beta=beta_lower, beta_lower=beta_lower, beta_upper=beta_upper,
                              power=pu, power_upper=pu, certified=True,
                              seconds=time.perf_counter() - t0, reason="; ".join(notes), power_lower=pl)

    def _exp_up(self, x):
        with mpmath.workprec(80):
            return mpmath.exp(mpmath.mpf(float(x)) + 1e-12 * (1 + abs(float(x))))

    def _exp_down(self, x):
        if not np.isfinite(x):
            return mpmath.mpf(0)
        with mpmath.workprec(80):
            return mpmath.exp(mpmath.mpf(float(x)) - 1e-12 * (1 + abs(float(x))))

    def _power_lower(self, los, idx, la):
        """min over eps of max_d line_d(t) + t alpha, lines through certified lower values."""
        hf = self._hf()
        # work relative to a reference scale to stay in float range
        L_ = np.max(los, axis=0)
        l = idx * hf
        ref = float(np.min(np.logaddexp(L_, la + l)))
        vals = [np.exp(np.clip(x - ref, -745, 700)) for x in los]
        # alpha t at the grid points, scaled (clipped: a smaller value only lowers the lower bound)
        alpha_t = np.exp(np.clip(la + l - ref, -745, 700))
        best = math.inf
        V = [v + alpha_t for v in vals]       # lines at grid points
        Vm = np.max(V, axis=0)
        best = float(np.min(Vm))
        if len(V) == 2:
            a0, a1 = V[0][:-1], V[0][1:]
            b0, b1 = V[1][:-1], V[1][1:]
            da, db = a0 - b0, a1 - b1
            cross = da * db < 0
            if cross.any():
                th = da[cross] / (da[cross] - db[cross])
                val = a0[cross] + th * (a1[cross] - a0[cross])
                best = min(best, float(np.min(val)))
        # the float evaluation above carries relative error ~1e-15; take a 1e-9 margin
        return self._exp_down(ref + math.log(max(best, 1e-300)) - 1e-9)


def compose(components, h=None, scheme: str = "interpolate", tol: float | None = None) -> Composition:
    """Certified numeric composition: ``compose([(pld_mechanisms.gaussian('0.5'), 10), ...])``."""
    return Composition(components, h=h, scheme=scheme, tol=tol)
