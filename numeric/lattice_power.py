"""The k-fold law of a repeated lattice step as one step measure of the engine (issue #25 item 2).

A step whose finite loss is one atom or two atoms on the grid (``LossModel.atomic``: randomized
response, the (eps, delta) pair) is its own exact step measure (``pld_discretise._lattice_measure``).
Composed k times by the engine's FFT, the spectrum is raised to the k-th power, and the certified
error of that power grows like k times the transform's (``pld_fft._convolve``): 10^7 steps of RR(0.01)
gave eps(1e-5) 8.7e-6 wide and beta(0.1) in [0, 4.8e-4] around the exact 1.6e-202.  The k-fold law
itself is known in closed form, so it is handed to the engine instead as one step of count 1:

* two atoms a0 < a1 (grid indices i0 < i1) with P-masses p0, p1: L = k a0 + J (a1 - a0) with
  P(J = j) = M_j = C(k, j) p1^j p0^(k - j), j = 0..k;
* one atom a0 with P-mass p0: L = k a0 with mass p0^k;
* the +inf mass: (F + I)^k - F^k with F = p0 (+ p1) and I the step's +inf mass, formed as
  F^k expm1(k log1p(I / F)) in Arb (no subtraction).

Masses (``binomial_masses``).  M_j is kept for j in [j_lo, j_hi], the range where its float estimate is
at least ``FLOOR``.  At anchors every ``BLOCK`` indices M_a is an Arb ball of the log-gamma form; inside a
block M_{a+t} = M_a prod_{s<t} r_{a+s} with r_j = (k - j) / (j + 1) * rho, rho = p1 / p0, in float64.
(k - j) and (j + 1) are exact integers below 2^53, so each ratio costs two rounded operations and
rho's own relative error e_rho; a product of t + 1 floats has relative error at most (1 + u)^t - 1 in
any order (u = 2^-53, no operand or partial product subnormal: every kept M_j is above FLOOR and
M_a <= 1, so each partial product prod r >= M_j); so every computed M_j has relative error at most
beta = (1 + e_a)(1 + e_rho)^B (1 + u)^(3B + 1) - 1, e_a the anchors' relative radius.  The upper
measure takes M_j (1 + 2 beta) and the lower M_j (1 - 2 beta): with beta >= 10 u the final rounded
multiplication stays on the safe side ((1 + 2 beta)(1 - u)(1 - beta) >= 1 and (1 - 2 beta)(1 + u)(1 + beta)
<= 1).

Tails outside [j_lo, j_hi].  M_j is log-concave in j: right of the mode the ratio r_j decreases, so the
mass right of j_hi is at most M_{j_hi} r / (1 - r) with r = r_{j_hi} < 1; left of the mode
M_{j-1} / M_j = j / ((k - j + 1) rho) increases with j, so the mass left of j_lo is at most
M_{j_lo} c / (1 - c), c = j_lo / ((k - j_lo + 1) rho) < 1 (both in Arb).  The upper measure adds the
left tail to the atom j_lo (mass moved to a larger loss) and the right tail to +inf; the lower measure
drops both.  Why that keeps the bounds: D of a measure grows when mass is added or moved to a larger
loss (``numeric.pld``, Lemma 1 and its remark), and the composition by convolution keeps both orders.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import pld_mechanisms as M
from .pld_discretise import StepMeasure, U, _down, _up, atom_indices
from .solvers import bisect, integer_midpoint

#: masses below this are not kept (upper: the right tail goes to +inf, the left tail onto j_lo); near the
#: bottom of the normal floats, so that the +inf mass it leaves (~20 FLOOR at 10^7 steps) stays below the
#: deltas queries ask (at 1e-300, RR(0.01) x 10^7 was uncertified with FLOOR = 1e-300)
FLOOR = 1e-306
#: indices per Arb anchor in ``binomial_masses``
BLOCK = 256
#: k at or below this keeps the engine's FFT power (exact enough, no table to build)
MIN_K = 1
#: the largest k (exact integers in float64 ratios)
MAX_K = 2 ** 52


def _atoms_on_grid(model, h: Fraction):
    """[(grid index, P-mass callable)] of an atomic model's one or two finite atoms on hZ, sorted by loss, or
    None."""
    idx = atom_indices(model, h)
    if idx is None or len(idx) > 2:
        return None
    return sorted(((i, a.p_mass) for i, a in zip(idx, model.atoms)), key=lambda t: t[0])


def _adjacent(lo, hi):
    return hi - lo <= 1


def _float_range(k: int, p0: float, p1: float):
    """(j_lo, j_hi): the indices whose float estimate of log M_j is at least log FLOOR (chooses the
    table only; the tails beyond are bounded rigorously by the caller), or None when no index is."""
    if not (p0 > 1e-290 and p1 > 1e-290):
        return None
    lp0, lp1, lk = math.log(p0), math.log(p1), math.lgamma(k + 1)
    floor = math.log(FLOOR) + 2.0

    def lm(j):
        return lk - math.lgamma(j + 1) - math.lgamma(k - j + 1) + j * lp1 + (k - j) * lp0

    mode = min(max(int((k + 1) * p1 / (p0 + p1)), 0), k)
    if not lm(mode) >= floor:
        return None                        # the whole law below the float range: the caller keeps the power
    # log M_j rises up to the mode and falls after it: the first index at or above the floor left of the
    # mode, the last one right of it (integer bisection on the monotone side)
    j_lo = 0 if lm(0) >= floor else bisect(lambda j: lm(j) < floor, 0, mode, stop=_adjacent, mid=integer_midpoint)[1]
    j_hi = k if lm(k) >= floor else bisect(lambda j: lm(j) >= floor, mode, k, stop=_adjacent, mid=integer_midpoint)[0]
    return j_lo, j_hi


def binomial_masses(k: int, p0, p1):
    """(j_lo, j_hi, masses, beta, left_tail, right_tail): float masses M_j for j in [j_lo, j_hi] with
    relative error at most beta, and Arb upper bounds of the masses left of j_lo and right of j_hi
    (module docstring).  p0, p1: Arb balls."""
    from flint import arb

    rho = p1 / p0
    got = _float_range(k, float(p0.mid()), float(p1.mid()))
    if got is None:
        return None
    j_lo, j_hi = got
    lk, lp0, lp1 = arb(k + 1).lgamma(), p0.log(), p1.log()

    def ball(j):
        return (lk - arb(j + 1).lgamma() - arb(k - j + 1).lgamma() + j * lp1 + (k - j) * lp0).exp()

    js = np.arange(j_lo, j_hi + 1, dtype=np.int64)
    n = len(js)
    nb = -(-n // BLOCK)
    anchors, e_a = np.empty(nb), 0.0
    for b in range(nb):
        m = ball(j_lo + b * BLOCK)
        mid = float(m.mid())
        anchors[b] = mid
        e_a = max(e_a, float((m.rad() / m.mid()).upper()) + U)
    rho_f = float(rho.mid())
    e_rho = float((rho.rad() / rho.mid()).upper()) + U
    ratios = np.ones(nb * BLOCK)
    ratios[:n] = (k - js).astype(float) / (js + 1).astype(float) * rho_f
    prods = np.cumprod(ratios.reshape(nb, BLOCK), axis=1)
    excl = np.empty_like(prods)
    excl[:, 0] = 1.0
    excl[:, 1:] = prods[:, :-1]
    masses = (anchors[:, None] * excl).reshape(-1)[:n]
    beta = math.expm1(math.log1p(e_a) + BLOCK * math.log1p(e_rho) + (3 * BLOCK + 1) * math.log1p(U))
    beta = max(beta * 1.01, 10 * U)
    if not beta < 1e-6:
        return None                        # (the totals' argument takes beta small; at 96 bits it is ~1e-13)
    left = right = arb(0)
    if j_lo > 0:
        c = j_lo / ((k - j_lo + 1) * rho)
        if not c < 1:
            return None
        left = ball(j_lo) * c / (1 - c)
    if j_hi < k:
        r = (k - j_hi) * rho / (j_hi + 1)
        if not r < 1:
            return None
        right = ball(j_hi) * r / (1 - r)
    return j_lo, j_hi, masses, beta, left, right


def _inf_power(F, inf, k: int):
    """(F + I)^k - F^k as an Arb ball, without the subtraction."""
    from flint import arb
    if inf == 0:
        return arb(0)
    return F ** k * (k * (inf / F).log1p()).expm1()


def kfold_measures(model, h: Fraction, k: int):
    """(upper, lower) step measures of the k-fold composition of an atomic model whose one or two finite
    atoms lie on hZ, or None (not atomic on the grid, k out of range, masses below the float range)."""
    atoms = _atoms_on_grid(model, h)
    if atoms is None or not MIN_K < k <= MAX_K:
        return None
    from flint import ctx

    with ctx.workprec(M.PREC):
        ps = [pm() for _, pm in atoms]
        inf = model.p_inf() if model.p_inf() != 0 else 0
        F = sum(ps[1:], ps[0])
        if any(not p > 0 for p in ps):
            return None
        inf_k = _inf_power(F, inf, k)
        if len(atoms) == 1:
            mk = ps[0] ** k
            knots = np.array([k * atoms[0][0]], dtype=np.int64)
            # below FLOOR the finite atom is bounded by FLOOR above and by 0 below (a normal float either way:
            # (0, 1e-3) x 10^6 has mass 0.999^(10^6) ~ 1e-435 there, and delta(0) was [1e-3, 1] on the k-th power)
            big = mk > FLOOR
            return (StepMeasure(knots, np.array([_up(mk) if big else FLOOR]), _up(inf_k) if inf else 0.0, "upper",
                                "lattice", tails=(0.0, 0.0)),
                    StepMeasure(knots, np.array([_down(mk) if big else 0.0]), max(_down(inf_k), 0.0) if inf else 0.0,
                                "lower", "lattice"))
        got = binomial_masses(k, ps[0], ps[1])
        if got is None:
            return None
        j_lo, j_hi, masses, beta, left, right = got
        (i0, _), (i1, _) = atoms
        knots = k * i0 + np.arange(j_lo, j_hi + 1, dtype=np.int64) * (i1 - i0)
        up = masses * (1 + 2 * beta)
        if left != 0:
            # the sum rounds to nearest: (1 + 4u) keeps it above up[0] + left
            up[0] = (up[0] + _up(left)) * (1 + 4 * U)
        lo = masses * (1 - 2 * beta)
        up_inf = _up(inf_k + right) if (inf or j_hi < k) else 0.0
        lo_inf = max(_down(inf_k), 0.0) if inf else 0.0
        # the finite totals without summing 10^5 masses: a kept float is within beta of M_j, so an upper
        # mass is at most M_j (1 + beta)(1 + 2 beta)(1 + u) <= M_j (1 + 4 beta) (beta >= 10 u, beta < 0.1) and
        # a lower one at least M_j (1 - 4 beta); the kept M_j sum to at most F^k and at least F^k - left - right
        Fk = F ** k
        tot_up = _up(Fk * (1 + 4 * beta) + left * (1 + 8 * U))
        tot_lo = max(_down((Fk - left - right) * (1 - 4 * beta)), 0.0)
    if not float(np.min(masses)) > FLOOR / 100:        # every kept mass a normal float (> 2.2e-308)
        return None
    return (StepMeasure(knots, up, up_inf, "upper", "lattice", total=tot_up, tails=(_up(left), _up(right))),
            StepMeasure(knots, lo, lo_inf, "lower", "lattice", total=tot_lo))


def fold_repeats(ups, los, h: Fraction, models, cache: dict):
    """The (measure, count) lists of ``numeric.pld.Composition._measures`` with every repeated lattice
    step replaced by its k-fold law of count 1 (``kfold_measures``; kept where it does not apply).  A lower
    entry may be None (the upper measures alone were asked for); a k-fold law replaces it all the same."""
    out_u, out_l = [], []
    for (mu, k), (ml, _), (model, _) in zip(ups, los, models):
        if k > 1 and mu.note == "lattice":
            key = ("kfold", id(model), k)
            if key not in cache:
                cache[key] = kfold_measures(model, h, k)
            got = cache[key]
            if got is not None:
                mu, ml, k = got[0], got[1], 1
        out_u.append((mu, k))
        out_l.append((ml, k))
    return out_u, out_l
