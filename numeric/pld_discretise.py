"""One step of the certified privacy-loss engine: its upper and lower measures on the grid hZ.

What is here: the knots of a pair (``_knots``), its tails at the knots as Arb balls (``_tails_at``),
the second-order upper measure ("connect the dots", ``_upper_ctd``), the first-order pair
(``_round_measure``, ``scheme="round"``), the second-order lower measure (the deficits
``_deficits``, the hull ``_lower_hull`` and its rigorous float check ``_verify_lower``), the
outward rounding of Arb balls to float64 (``_down``, ``_up``; ``U`` the unit roundoff) and the
entry points ``discretise`` / ``_step_state`` / ``_step_measure``.

Why these measures dominate (upper) and are dominated by (lower) the step's hockey-stick curve is
argued in ``numeric.pld``'s docstring ("Single step, upper measure", "Single step, lower
measure"; Lemma 1 for why that is enough for the composition).  The masses are computed in Arb
(``numeric.pld_mechanisms.PREC`` bits) and rounded outward; nothing here relies on the float
assumptions A1 / A2.  ``numeric.pld_fft`` composes the measures, ``numeric.pld`` is the API.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import pld_mechanisms as M

U = 2.0 ** -53
#: at most about this many knots per step measure (``_knots``)
KNOT_BUDGET = 200_000
#: the smallest positive normal float64: an upper mass below it is a rounded-up subnormal
SMALLEST_NORMAL = 2.0 ** -1022
#: log of a coarse cell's mass below which ``_knots`` places no knots (20 below the float range)
KNOT_FLOOR = math.log(SMALLEST_NORMAL) - 20
#: ``_knots``' width cap where the mass is negligible at every tilt the knots serve.  A step measure made for the tilt
#: lam serves tilts in [0, lam] and, for estimates (the bump onset's ladder, ``numeric.pld_bump``), above it; a coarse
#: cell left of both the untilted and the tilted peak has, at any tilt t >= 0, at most the relative mass rho =
#: max(untilted, tilted at lam) (log-mass is linear in t; above lam it only falls there).  Such a cell may hold cells
#: up to (ln(tol / rho) - TILT_CAP_SLACK) / max(lam, 1) wide, so that moving its mass across one (the upper measure's
#: rounding) at t <= lam leaves at most tol e^-TILT_CAP_SLACK of relative mass: summed over the 4096 coarse cells at
#: most 4096 e^-9 tol < tol.  Right of a peak the former cap stays (a larger tilt raises the mass there: with the
#: cap grown on both sides the bump onset of q = 0.001, sigma = 2, T = 100 moved from 32 to 5.7).  The former cap
#: 1/(2 lam) everywhere put the add direction of q = 0.001, sigma = 2 (T = 100, delta = 1e-10, lam = 1328) on 33102
#: knots along its untilted left tail.  Accuracy only: every knot set gives a certified measure.
TILT_CAP_SLACK = 9.0
#: ``_upper_ctd`` redoes its split with floats when the Arb split's total passes 1 by more than this
UPPER_TOTAL_SLACK = 1e-9


# ----------------------------------------------------------------------------------------------
# single-step measures


@dataclass
class StepMeasure:
    knots: np.ndarray          # int64 grid indices
    mass: np.ndarray           # float64 masses (rigorous upper or lower bounds)
    inf_mass: float            # bound on the mass at L = +inf
    kind: str                  # "upper" | "lower"
    note: str = ""
    #: a bound on the finite mass in the measure's direction, when known without summing (the k-fold
    #: lattice law of ``numeric.lattice_power``: fsum over 10^5 masses spanning 1000 binades took 0.1 s)
    total: float | None = None
    #: set on an upper measure whose masses bound the true atoms pointwise (both measures: ``_lattice_measure``,
    #: ``numeric.lattice_power``): float upper bounds of the mass left and right of its knots (``numeric.lattice_beta``)
    tails: tuple | None = None

    def finite_total(self) -> float:
        if self.total is not None:
            return self.total
        s = math.fsum(self.mass.tolist())
        return s * (1 + 4 * U) if self.kind == "upper" else s * (1 - 4 * U)


def _down(x) -> float:
    """A float <= the Arb ball x (lower end, stepped down one ulp after conversion)."""
    return math.nextafter(float(x.lower()), -math.inf)


def _up(x) -> float:
    hi = x.upper()
    return math.nextafter(float(hi), math.inf)


class NextSmaller:
    """``ns[c]``: the first j > c with a[j] < a[c], len(a) if none (an integer array, exact).

    st[k][i] = min(a[i : i + 2^k]).  Starting at pos = c + 1, the window [pos, pos + 2^k) is skipped
    whenever its minimum is >= a[c] (no smaller entry in it), k from the top down: the predicate "no
    smaller entry in [c + 1, pos)" is monotone in pos, so after the pass pos is the first index whose entry
    is < a[c] (or len(a)).  Building the table is log2(len) numpy minima; a query is log2(len) steps."""

    def __init__(self, a: np.ndarray):
        self.a = np.asarray(a)
        self.n = n = len(self.a)
        self.levels = [self.a]
        self.memo = {}
        k = 1
        while (1 << k) <= n:
            prev = self.levels[-1]
            half = 1 << (k - 1)
            self.levels.append(np.minimum(prev[:len(prev) - half], prev[half:]))
            k += 1

    def __getitem__(self, c: int) -> int:
        got = self.memo.get(c)
        if got is not None:
            return got
        target = self.a[c]
        pos = c + 1
        for k in range(len(self.levels) - 1, -1, -1):
            if pos + (1 << k) <= self.n and self.levels[k][pos] >= target:
                pos += 1 << k
        self.memo[c] = pos
        return pos

    def __len__(self):
        return self.n

    def all(self) -> np.ndarray:
        """ns[c] for every c at once: the same lifting, each level one numpy pass over all starts (a
        gathered window minimum compared with a[c]), so log2(len) vector steps instead of a Python
        query per visited cell (cProfile put 0.5 s of a 1000-step Laplace spec on those queries; unprofiled,
        the spec's time did not change measurably: BENCHMARKS.md, ninth session).

        Runs of equal entries are answered through the array of runs: for c in run j every later entry of
        run j equals a[c], so ns[c] is the first index of the first later run whose value is smaller.  A
        Laplace step's gaps are one value but at its atoms' cells (2 runs in 4096 cells), and the lifting
        over all 4096 starts was most of its knot placement."""
        n = self.n
        starts = np.flatnonzero(np.concatenate(([True], self.a[1:] != self.a[:-1])))
        if 4 * len(starts) <= n:
            bounds = np.append(starts, n)
            run_next = NextSmaller(self.a[starts]).all()
            return bounds[np.repeat(run_next, np.diff(bounds))]
        pos = np.arange(1, n + 1, dtype=np.int64)
        for k in range(len(self.levels) - 1, -1, -1):
            lev = self.levels[k]
            fits = pos + (1 << k) <= n
            ok = np.zeros(n, dtype=bool)
            ok[fits] = lev[pos[fits]] >= self.a[fits]
            pos = pos + np.where(ok, 1 << k, 0)
        return pos


def _walk(ia: int, ib: int, gap: np.ndarray, nxt, A0: float, Hc: float, hf: float) -> list:
    """The knot walk from ia to ib: at a knot i in coarse cell c the next knot is i + gap[c], but never past
    the first fine index j_next of the next denser cell nxt[c] (then i + max(1, j_next - i)).  Knots are
    sparse against the coarse cells (a Laplace step of a 1000-step spec visits ~150 cells for ~300 knots),
    so the walk stays a Python loop, over plain lists, with j_next looked up once per visited cell (issue
    #25; cProfile overstated this walk's share, the spec's time did not change measurably).  Knots decide
    accuracy only;
    tests/test_knot_walk.py keeps the former walk as the reference and compares the knots."""
    M_ = len(gap)
    gl = gap.tolist()
    last = M_ - 1
    nexts = {}
    out = []
    i = ia
    while i < ib:
        out.append(i)
        c = min(max(int((i * hf - A0) / Hc), 0), last)
        g = gl[c]
        if g > 1:
            if c in nexts:
                jn = nexts[c]
            else:
                k = nxt[c]
                jn = nexts[c] = math.floor((A0 + k * Hc) / hf) if k < M_ else None
            if jn is not None and i + g > jn:
                g = max(1, jn - i)
        i += g
    return out


def _left_of_peaks(centers, rel0, rel1, lrel):
    """``lrel`` on the coarse cells left of both the untilted and the tilted peak, 0 elsewhere (``_tilt_cap``'s
    argument: only there may the cap grow, ``TILT_CAP_SLACK``)."""
    left = centers < min(centers[np.argmax(rel0)], centers[np.argmax(rel1)])
    return np.where(left, lrel, 0.0)


def _tilt_cap(tol: float, rel: np.ndarray, lam: float) -> np.ndarray:
    """The widest cell ``_knots`` allows in each coarse cell, whose log relative mass at every tilt it serves is at
    most ``rel`` (0 where the cap must not grow): 1/(2 max(lam, 1)) where that mass is not negligible, up to
    (ln(tol / rho) - TILT_CAP_SLACK) / max(lam, 1) where it is (``TILT_CAP_SLACK``), rounded down to a power of two
    times the former (a knot walk stops at every cell whose gap is smaller than the current one: a cap growing
    smoothly along a tail put a knot in each of its coarse cells, 1539 knots where 1151 do)."""
    grow = np.maximum(1.0, (math.log(tol) - TILT_CAP_SLACK - rel) / 0.5)
    return np.exp2(np.floor(np.log2(grow))) * 0.5 / max(lam, 1.0)


def _knots(model, h: Fraction, lam: float, tol: float = 1e-13, top: float | None = None) -> np.ndarray:
    """Knot indices: every grid point where the (tilted or untilted) mass is dense, growing gaps
    where it is thin (a cell of relative mass r and width w costs about r w^2; w^3 <= tol h / r).
    ``top``: no knot above the grid point at or above this loss (an eps(delta) query's truncation,
    ``numeric.pld_truncate``): the upper measure moves the P-mass above the last knot to +inf and the lower
    one drops it, both valid wherever the last knot is (``_upper_ctd``, ``_lower_hull``)."""
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
    if top is not None:                 # the knots follow the truncated law: its tilted mass, normalised below top
        logm = np.where(grid - Hc <= top, logm, -np.inf)
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
    # and only where a cell's own mass is above the float range's floor: below it the upper masses are
    # swept to +inf and the lower ones are 0 (``_upper_swept``), yet a large tilt (lam = 681 at q = 0.001,
    # sigma = 5, T = 100) asked for 1.9e5 knots out to l ~ 20 on masses of e^-9000 (accuracy only)
    keep = (lrel > -800) & (logm > KNOT_FLOOR)
    idx = np.nonzero(keep)[0]
    lo_c, hi_c = idx[0], idx[-1]
    ia = math.floor((A0 + lo_c * Hc) / hf) - 1
    ib = math.ceil((A0 + (hi_c + 1) * Hc) / hf) + 1
    if math.isfinite(model.lo):
        ia = max(ia, math.floor(model.lo / hf) - 1)
    if math.isfinite(model.hi):
        ib = min(ib, math.ceil(model.hi / hf) + 1)
    if top is not None:
        ib = max(min(ib, math.ceil(top / hf)), ia + 2)
    # per coarse cell: allowed gap in fine cells
    fine_per = Hc / hf
    r = np.exp(np.clip(lrel, -800, 0)) / max(fine_per, 1.0)     # relative mass per fine cell
    w = np.cbrt(tol * hf / np.maximum(r, 1e-300))
    # a cell wider than 1/(2 max(lam, 1)) would let the tilt e^{lam l} magnify the mass that the
    # upper measure moves to its right end: cap the width (accuracy only; validity never depends on it).
    # Where the tilted law's relative mass rho of a coarse cell is far below tol, the cap is ln(tol / rho) - TILT_CAP_SLACK
    # over max(lam, 1) instead: the magnified mass rho e^{lam w} stays below tol e^-TILT_CAP_SLACK (``TILT_CAP_SLACK``)
    w = np.minimum(w, _tilt_cap(tol, _left_of_peaks(centers, rel[0], rel[1], lrel), lam))
    gap = np.clip(np.floor(w / hf), 1, 2 ** 24).astype(np.int64)
    gap = np.where(keep, gap, 2 ** 24)
    # a budget on the knots of one step (each costs Arb work): DP-SGD at q = 1/60000, T = 10, on the grid
    # its window needs, tilted by lam = 1e4, asked for 813043 knots per direction (12 s each); wider
    # gaps everywhere instead (accuracy only, like every knot choice)
    count = float(np.sum(np.where(keep, fine_per / gap, 0.0)))
    if count > KNOT_BUDGET:
        gap = np.clip(np.ceil(gap * (count / KNOT_BUDGET)), 1, 2 ** 24).astype(np.int64)
    knots = _walk(ia, ib, gap, NextSmaller(gap).all().tolist(), A0, Hc, hf)
    knots.append(ib)
    ks = set(knots)
    for a in model.atoms:
        q = a.value / h
        ks.add(math.floor(q))
        ks.add(math.ceil(q))
    atom_hints = getattr(model, "atom_hints", None)     # (the same, told the grid, and keeping the query's grid rule)
    for v in [*getattr(model, "knot_hints", lambda a, b: ())(ia * hf, ib * hf),
              *(atom_hints(ia * hf, ib * hf, hf) if atom_hints else ())]:
        f = math.floor(v / hf)            # float places of unlisted (irrational) atoms: accuracy only
        ks.update(range(f - 1, f + 3))     # (the flanking cells keep the lower measure's deficit local)
    out = np.array(sorted(ks), dtype=np.int64)
    return out if top is None else out[out <= ib]


def _knot_balls(h: Fraction, knots):
    """The knots' loss values l_i = h k_i as exact balls (one fmpq each, no Fraction arithmetic)."""
    from flint import arb, fmpq
    hn, hd = h.numerator, h.denominator
    return [arb(fmpq(hn * k, hd)) for k in knots.tolist()]


def _tails_at(model, h: Fraction, knots, balls):
    """(S_P, S_Q, Q-atom) at every knot.  A model with ``tails_batch(h, knots, balls)`` answers all knots
    in one call (numeric/shuffle_blocks.py, numeric/laplace_tails.py).  A model without atoms that offers ``tails_arb(la, k)`` (the
    ball of l = h k and the sign of k) is asked with the ball directly; the others get the exact
    Fraction l = h k (they compare it with their atoms exactly)."""
    batch = getattr(model, "tails_batch", None)
    if batch is not None:
        return batch(h, knots, balls)
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
    """The second-order upper measure ("connect the dots", ``numeric.pld``'s docstring): each cell's P-mass p
    split between its knots as r* to the right and p - r* to the left, r* = (p e^-l_i - q)/(e^-l_i - e^-l_{i+1}),
    summed per knot in Arb and rounded up.

    With wide tails this rounding adds the radius of r* twice, and r* divides by a tiny difference when the
    loss is tiny: a clone pair at n = 10^8, eps0 = 0.01 (float tails with radii 1e-10 on cells ~1e-7 wide)
    had an upper measure of total mass 1.075, and 10^4 rounds of it a trivial upper delta.  When the total
    passes 1 (the pair's whole mass) by more than UPPER_TOTAL_SLACK, the split is redone with a float right mass r >= r* (the upper
    end of its ball, at most p's upper end; r* <= p since the cell's Q/P ratio lies between the ends' e^-l)
    and the left mass the ball p - r when that is surely >= 0, else the float max(upper end of p - r, 0).
    Valid: the split with exactly r* dominates (Jensen), and moving mass from the left knot to the right
    one, or adding mass, only raises D; so any r >= r* with a left mass >= p - r dominates."""
    from flint import arb
    n = len(knots)
    em = [(-la).exp() for la in balls]
    total_fin = 1 - model.p_inf()
    cells = [(SP[i] - SP[i + 1], SQ[i] - SQ[i + 1], em[i] - em[i + 1]) for i in range(n - 1)]

    def split(floats: bool):
        mass = [arb(0)] * n
        mass[0] = total_fin - SP[0]                   # mass at or below l_0, moved up to l_0
        for i, (p, q, den) in enumerate(cells):
            right = (p * em[i] - q) / den
            left = p - right
            if floats:
                ru, pu = _up(right), max(_up(p), 0.0)
                right = arb(min(max(ru, 0.0), pu) if ru == ru else pu)   # (a NaN ball: all of p right)
                left = p - right
                if not left.lower() >= 0:
                    left = arb(max(_up(left), 0.0))
            mass[i + 1] = mass[i + 1] + right
            mass[i] = mass[i] + left
        return np.array([max(_up(m), 0.0) for m in mass])
    out = split(False)
    if math.fsum(out.tolist()) > 1 + UPPER_TOTAL_SLACK:
        out = split(True)
    inf_mass = _up(model.p_inf() + SP[-1])
    return _upper_swept(knots, out, inf_mass, "")


def _upper_swept(knots, out, inf_mass: float, note: str) -> StepMeasure:
    """The upper measure with every knot mass below SMALLEST_NORMAL moved to +inf, and the zero-mass
    knots above its last positive mass dropped.

    Why: an exact mass far below 2^-1022 (a subsampled step's loss tail: 1e-340 at l = 12) rounds up to
    a subnormal, at least 5e-324, and tilting by e^{lam l} magnified those floor values above the true
    tilted law: at q = 0.001, sigma = 5, T = 100 (lam = 61.6) 7 % of the tilted step sat on them at
    l ~ 11.9, whose spread then asked for a 2^24-point window (6 s for a 0.01 s answer).
    Validity: moving P-mass from a finite loss l up to +inf raises (1 - s e^{-l})_+ to 1 at every s,
    so D only grows and the measure still dominates (Lemma 1, ``numeric.pld``); the moved floats are
    each >= their exact masses already and their sum is added to the +inf mass rounded up.  The cost
    is at most (number of knots) x 2^-1022 < 1e-302 of delta, the mass those knots carried anyway
    wherever eps is below their losses.  Dropping zero-mass knots leaves the measure unchanged."""
    tiny = (out > 0) & (out < SMALLEST_NORMAL)
    if tiny.any():
        moved = math.fsum(out[tiny].tolist())
        out = np.where(tiny, 0.0, out)
        inf_mass = math.nextafter(inf_mass + moved, math.inf)
    knots = np.asarray(knots, dtype=np.int64)
    pos = np.nonzero(out > 0)[0]
    last = int(pos[-1]) + 1 if len(pos) else 1
    return StepMeasure(knots[:last], out[:last], inf_mass, "upper", note)


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
        return _upper_swept(knots, out, _up(model.p_inf() + SP[-1]), "round")
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
    """Deficits e_i of the lower measure's knot values v_i = D_i - e_i (numeric.pld's docstring,
    "lower measure").

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
    thetas, deltas, gaps, dhis = [], [], [], []
    ulp0 = math.ulp(0.0)
    for i in range(n - 1):
        s0, s1 = s[i], s[i + 1]
        dq, dp = SQ[i] - SQ[i + 1], SP[i] - SP[i + 1]
        delta = s1 * dq - dp          # = D_{i+1} - D_i + S_Q(l_i)(s_{i+1} - s_i), D = S_P - s S_Q
        qa = QA[i + 1]
        if qa != 0:                   # exact zero (no atom on the knot) subtracts nothing
            dq, dp = dq - qa, dp - s1 * qa
        th = 1.0
        if dq > 0:                    # dq: Q-mass of the open cell; dp / dq in [s_i, s_{i+1}]
            th = max(min(_up((dp / dq - s0) / (s1 - s0)), 1.0), ulp0)
        dhi = _up(delta)
        thetas.append(th)
        deltas.append(delta)
        dhis.append(dhi)
        # theta Delta <= theta dhi <= the float product rounded up (th > 0): an upper end without an Arb product
        gaps.append(math.nextafter(dhi * th, math.inf) if dhi > 0 else 0.0)
    sp0, sq0 = SP[0], SQ[0]
    e = [0.0] * n
    for i in range(n):
        g = max(gaps[i - 1] if i > 0 else 0.0, gaps[i] if i < n - 1 else 0.0)
        e[i] = min(g, max(_down(D[i] - sp0 + s[i] * sq0), 0.0)) if g > 0 else 0.0
    for i in range(n - 1):
        if e[i + 1] >= dhis[i]:       # then f(theta) >= (1 - theta) e_i >= 0 for every theta in (0, 1]
            continue
        if _float_holds(thetas[i], e[i], e[i + 1], dhis[i]):
            continue
        th = arb(thetas[i])
        if ((1 - th) * arb(e[i]) + th * (arb(e[i + 1]) - deltas[i])).lower() >= 0:
            continue
        dhi = max(dhis[i], 0.0)
        if thetas[i] < 1:
            x = deltas[i] - arb(e[i]) * ((1 - th) / th)
            e[i + 1] = max(e[i + 1], min(max(_up(x), 0.0), dhi))
        else:
            e[i + 1] = max(e[i + 1], dhi)
    return e, thetas, deltas


def _float_holds(th: float, e0: float, e1: float, dhi: float) -> bool:
    """Whether f = (1 - th) e0 + th (e1 - Delta) >= 0 is proved in float arithmetic for every Delta <= dhi
    (a filter before ``_deficits``' Arb test; False means "not proved here", never "fails").  With dhi >= Delta
    and th >= 0, f >= g = x + z, x = (1 - th) e0, z = th (e1 - dhi).  Each of the five float operations
    below has relative error <= u = 2^-53 (round to nearest) plus an absolute error < 2^-1074 where it
    underflows, so the computed g differs from the exact one by at most 3.1 u (|x| + |z|) + 5 2^-1074
    (the computed |x|, |z| are within 1 + 3u of the exact ones); a computed g above 2e-15 (|x| + |z|) +
    1e-300 therefore proves g > 0.  It decides 98 % of the cells that reach it in the steps of a 1000-step
    Laplace spec (7375 of 7536 over 50 of its steps), without the Arb product."""
    x = (1.0 - th) * e0
    z = th * (e1 - dhi)
    return x + z > 2e-15 * (abs(x) + abs(z)) + 1e-300


def _left_tangent_holds(K, e, v, w, D, s, SQ, QA) -> bool:
    """Whether v_K = 0 keeps the cell [s_{K-1}, s_K] below D by the left tangent at s_K, raising e_{K-1}
    (and v, w there) as needed; the top cut's second test (``_lower_hull``).

    D is convex with left derivative -Q(L >= l_K) at s_K, so L_K(s) = D_K + q (s_K - s) <= D(s) for s <= s_K
    and any q <= Q(L >= l_K) = S_Q(l_K) + (the Q-atom at l_K); QA holds a ball of that atom or a lower
    bound of it (0 when the model does not report it), and the test below takes the upper end of the need.  The chord from (s_{K-1}, v_{K-1}) to (s_K, 0) and L_K are linear on the
    cell with chord(s_K) = 0 <= D_K = L_K(s_K), so the chord lies below L_K, hence below D, as soon as
    v_{K-1} <= L_K(s_{K-1}), i.e. e_{K-1} >= D_{K-1} - D_K - q (s_K - s_{K-1}).  Raising a deficit never
    breaks another cell (``_deficits``).  Why: the cell below an atom at the top of the support (a shuffled
    round's clone pair, l = eps0) has D linear on it, and the right tangent's test needs Delta <= 0 exactly,
    which balls of float tails never prove; the cut then moved the atom one knot down and ten rounds of
    n = 2 lost the largest loss (eps bracket [0, 9.99994] at delta = 1e-6)."""
    from flint import arb
    need = D[K - 1] - D[K] - (SQ[K] + QA[K]) * (s[K] - s[K - 1])
    up = _up(need)
    if not math.isfinite(up):
        return False
    ek = max(e[K - 1], up, 0.0)
    vk = D[K - 1] - arb(ek)
    wk = _down(vk)
    if not wk >= 0:
        return False
    e[K - 1], v[K - 1], w[K - 1] = ek, vk, wk
    return True


#: ``_lower_hull`` keeps a middle point when its cross product exceeds HULL_TOL (|t1| + |t2|).  The first hull
#: point (0, P(L > l_0)) makes the products O(1) near the bottom of the support, where D is nearly linear: at
#: 1e-12 a dropped point lifted D~ by 3.4e-12 absolute, 3.6e-9 relative to D there, and ``_verify_lower``'s scaling
#: of every mass by 1 - 3.6e-9 cost T = 10^6 DP-SGD steps (q = 0.001, sigma = 2) 3.6e-3 of delta: eps in
#: [2.14222, 2.14271] (2.3e-4 wide) where 1e-15 gives [2.142670, 2.142717] (2.2e-5).  Only width moves: the
#: masses are checked by ``_verify_lower`` whatever the hull.
HULL_TOL = 1e-15


def _lower_hull(model, h, knots, SP, SQ, QA, balls) -> StepMeasure:
    """Second-order lower measure (numeric.pld's docstring); falls back to rounding down."""
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
        if _left_tangent_holds(K, e, v, w, D, s, SQ, QA):
            break
        K -= 1
    if K == 0:
        return _round_measure(model, h, knots, SP, "lower")
    # lower convex hull (monotone chain, in float) of the point (0, P(L > l_0)) and the (s_i, w_i): the
    # first point makes D~(0) <= P(L > l_0) hold by construction (numeric.pld's docstring); it carries no mass
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
            # near-collinear counts as not convex (``HULL_TOL``): a middle point dropped raises D~ there a little
            # (``_verify_lower`` then scales the masses), one kept may carry a negative exact mass (clipped to 0)
            if t1 - t2 <= HULL_TOL * (abs(t1) + abs(t2)):
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
    ks, ms = knots.tolist(), mass.tolist()         # Python floats: the same IEEE doubles, without numpy scalars
    for i in range(n - 2, -1, -1):
        e1, c1 = fac(ks[i + 1] - ks[i])
        base = ms[i + 1] + E
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


def atom_indices(model, h: Fraction) -> list | None:
    """The grid indices of an ``atomic`` model's atoms (in its order) when every atom lies on hZ (exact
    rationals), else None."""
    if not getattr(model, "atomic", False) or not model.atoms:
        return None
    idx = [a.value / h for a in model.atoms]
    return [int(q) for q in idx] if all(q.denominator == 1 for q in idx) else None


def _lattice_measure(model, h: Fraction, kind: str) -> StepMeasure | None:
    """The step's own law as its upper or lower measure, when that is exact on the grid: the model is
    ``atomic`` (its finite loss is exactly its listed atoms: randomized response, the (eps, delta) pair)
    and every atom lies on hZ (checked in exact rationals).  Masses are Arb balls of the closed forms
    rounded outward (up for "upper", down for "lower"), the +inf mass too; D of a measure grows with
    every mass (Lemma 1's remark), so these dominate / are dominated by the true step.  None otherwise.
    (The interpolating lower hull sampled D only at knots and lost a whole atom: 100 x RR(0.1) had
    beta_upper = 0.996.)"""
    idx = atom_indices(model, h)
    if idx is None:
        return None
    from flint import ctx

    rnd = _up if kind == "upper" else _down
    order = np.argsort(idx)
    with ctx.workprec(M.PREC):
        mass = [max(rnd(model.atoms[i].p_mass()), 0.0) for i in order]
        inf_mass = max(rnd(model.p_inf()), 0.0) if model.p_inf() != 0 else 0.0
    return StepMeasure(np.asarray([idx[i] for i in order], dtype=np.int64), np.array(mass), inf_mass, kind,
                       "lattice", tails=(0.0, 0.0) if kind == "upper" else None)


def memo_tails(model) -> bool:
    """Whether ``_step_state`` may keep a pair's knot balls and tails across calls (``step_states``' memo): only
    for the ``tails_arb`` path, whose values are per knot.  A batch model (``tails_batch``) may compute its knots
    jointly (the shuffles' anchored walks), so its values are taken from one call only."""
    return getattr(model, "tails_arb", None) is not None and not model.atoms and getattr(model, "tails_batch", None) is None


def _step_state(model, h: Fraction, lam: float, tol: float, top: float | None = None, memo=None):
    """(knots, knot balls, S_P, S_Q, Q-atoms) of one pair: what both step measures are built from (``top``:
    ``_knots``).  ``memo``: a dict knot -> (ball, S_P, S_Q, Q-atom) of this pair on this grid, read and filled
    (``step_states``)."""
    from flint import ctx
    knots = _knots(model, h, lam, tol, top)
    with ctx.workprec(M.PREC):
        if memo is None:
            balls = _knot_balls(h, knots)
            return (knots, balls) + tuple(_tails_at(model, h, knots, balls))
        ks = knots.tolist()
        new = np.array([k for k in ks if k not in memo], dtype=np.int64)
        if len(new):
            nb = _knot_balls(h, new)
            for row in zip(new.tolist(), nb, *_tails_at(model, h, new, nb)):
                memo[row[0]] = row[1:]
        return (knots,) + tuple(list(col) for col in zip(*(memo[k] for k in ks)))


def step_states(models, h: Fraction, lam: float, tol: float, trunc: float | None = None, memos=None):
    """[(model, count, ``_step_state`` or None for a lattice step)] of [(model, count)].  ``numeric.pld``
    makes both step measures from them at once and drops them: kept for the lower measures until a query
    asked for those, a 1000-step mixed spec peaked at 613 MB instead of 296 MB (issue #25).  ``trunc``: the
    log P-mass a step may leave above its last knot (``numeric.pld_truncate``).  ``memos``: a dict the caller
    keeps for one grid h, id(model) -> that pair's knot memo (``_step_state``), for the pairs ``memo_tails``
    admits.  A query's tilts place knots on the same lattice h k, and an exact ball and its tails depend on
    (model, h, k) only (at the fixed precision M.PREC), so a memoised value is the one a fresh call computes, bit
    for bit: a DP-SGD cell's eps(delta) query evaluated the tails at 22645 knots, 10788 of them distinct."""
    from .pld_truncate import truncation_top
    return [(model, k, None if _lattice_measure(model, h, "upper") is not None
             else _step_state(model, h, lam, tol, truncation_top(model, trunc),
                              None if memos is None or not memo_tails(model) else memos.setdefault(id(model), {})))
            for model, k in models]


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
