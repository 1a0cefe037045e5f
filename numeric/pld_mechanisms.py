"""Single-step privacy-loss distributions for the certified composition engine (``numeric.pld``).

Convention
----------
A mechanism step is described by one or more *dominating pairs* (P, Q) (one per
neighbouring direction; symmetric mechanisms need one).  The privacy loss is

    L = log (dP/dQ)(X),   X ~ P,

with an atom at L = +inf carrying the P-mass of {dQ = 0} (the Q-mass of
{dP = 0} never appears under P).  Its hockey-stick curve is

    delta(eps) = E_P[(1 - e^{eps - L})_+] = sup_S P(S) - e^eps Q(S),

and the trade-off function of the pair, read with type-I error measured under Q,
is f(alpha) = sup_eps max(0, 1 - delta(eps) - e^eps alpha).  Gaussian(mu) gives
f = G_mu, randomized response (pure eps-DP) gives f_{eps,0}, the 4-point pair
gives f_{eps,delta}.

Everything the engine needs from a step is, at a loss value l (a rational
multiple of the grid step),

    S_P(l) = P(l < L < inf),     S_Q(l) = Q(l < L < inf) = E_P[e^{-L}; l < L < inf],

the mass P(L = +inf), and the atoms of L (value, P-mass, Q-mass) so that an atom
lying exactly on a knot is recognised with exact rational arithmetic.  The
method ``tails(l)`` returns S_P and S_Q as ``flint.arb`` balls that contain the
exact values (Arb's erfc/exp/log are rigorous: Johansson 2017, IEEE TC 66(8)),
evaluated from the closed forms below.  ``log_cell_float`` is a float64
*heuristic* (scipy) used only to choose where knots are dense; nothing certified
depends on it.

Closed forms (derived here; the continuous parts are monotone maps of a normal
or Laplace variable, so each tail is a normal/Laplace tail at the preimage):

* Gaussian(mu): P = N(mu, 1), Q = N(0, 1).  L = mu X - mu^2/2,
  S_P(l) = Phibar((l - mu^2/2)/mu), S_Q(l) = Phibar((l + mu^2/2)/mu).
* Laplace(eps): P = Lap(eps, 1), Q = Lap(0, 1).  L = |x| - |x - eps|: atom +eps
  (P 1/2, Q e^{-eps}/2), atom -eps (P e^{-eps}/2, Q 1/2), density on (-eps, eps);
  for -eps <= l < eps: S_P(l) = 1 - e^{(l - eps)/2}/2, S_Q(l) = e^{-(l + eps)/2}/2.
* Randomized response / pure eps-DP: atoms +eps (P e^eps/(1+e^eps), Q 1/(1+e^eps))
  and -eps (masses swapped).
* (eps, delta)-DP, the 4-point pair of Kairouz-Oh-Viswanath (catalog 004): P-atoms
  +inf (delta), +eps ((1-delta) e^eps/(1+e^eps)), -eps ((1-delta)/(1+e^eps)).
* Logistic shift(m): P = Logistic(0, 1), Q = Logistic(m, 1) (no atoms).  L(x) = -m + 2 log((1 + e^{m-x})/
  (1 + e^{-x})) decreases from m to -m; with c = e^{(l+m)/2}, L > l iff e^{-x} > (c - 1)/(e^m - c), so for
  -m < l < m: S_P(l) = F(x(l)) = c expm1((m-l)/2)/expm1(m), S_Q(l) = F(x(l) - m) = expm1((m-l)/2)/expm1(m)
  (F the logistic CDF; S_P = S_Q = 1 at l <= -m, 0 at l >= m; dS_Q/dS_P = e^{-l} as it must).
* Discrete Gaussian(s2) (Canonne-Kamath-Steinke 2020; seed 004 Sec. 4.4): P = N_Z(1, s2),
  Q = N_Z(0, s2) on the integers, w(z) = exp(-z^2/(2 s2)), Zn = sum_z w(z).  L(z) = (2z - 1)/(2 s2):
  an atom at every such value; L > l iff z >= z0 := floor(l s2 + 1/2) + 1, so
  S_P(l) = U(z0 - 1)/Zn and S_Q(l) = U(z0)/Zn with U(m) = sum_{j >= m} w(j).  U is summed in Arb with
  the remainder after the last term bounded by the geometric series of the (decreasing) ratio
  w(j+1)/w(j) = exp(-(2j+1)/(2 s2)) and added as a ball, so every tail is a rigorous enclosure.
* Poisson-subsampled Gaussian, rate q, noise multiplier sigma (sensitivity 1):
  with mixture M = (1-q) N(0, s^2) + q N(1, s^2) and B = N(0, s^2),
  remove: (P, Q) = (M, B), L = log(1 - q + q e^{(2x-1)/(2 s^2)}) increasing in x,
  L > l iff x > x(l) := s^2 log((expm1(l) + q)/q) + 1/2 (for l > log(1-q)),
  S_P = (1-q) Phibar(x/s) + q Phibar((x-1)/s), S_Q = Phibar(x/s);
  add: (P, Q) = (B, M), L = -log(1 - q + q e^{(2x-1)/(2 s^2)}), L > l iff
  x < x(-l) (for l < -log(1-q)), S_P = Phi(x(-l)/s),
  S_Q = (1-q) Phi(x(-l)/s) + q Phi((x(-l)-1)/s).
  These are the two dominating pairs of the Poisson-subsampled Gaussian under
  add/remove neighbours (the remove pair is the mixture against the base; the
  add pair is the base against the mixture).

Inputs are exact decimals (strings, ints, Fractions); floats are converted with
``Fraction(str(x))`` (their shortest decimal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


class _Special:
    """scipy.special, imported on first use (0.12 s of every run that composes no Gaussian step)."""

    def __getattr__(self, name):
        import scipy.special
        return getattr(scipy.special, name)


sc = _Special()

PREC = 96           # Arb working precision (bits) of the single-step tails


def flint_or_none():
    try:
        import flint
        return flint
    except ImportError:          # pragma: no cover - the certified extra is missing
        return None


def exact(value, name: str) -> Fraction:
    """An exact rational from a decimal string, int, Fraction or float (via its repr)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError) as err:
        raise ValueError(f"{name} must be a decimal number, got {value!r}") from err


_F = flint_or_none()


def arb_of(fr: Fraction):
    return _F.arb(_F.fmpq(fr.numerator, fr.denominator))


def _phibar(z, rsqrt2=None):
    """Upper normal tail as an Arb ball, relative-accurate in both tails (``rsqrt2``: a ball of
    1/sqrt 2 made once by the caller, to save its evaluation in loops)."""
    return (z * (_F.arb(2).rsqrt() if rsqrt2 is None else rsqrt2)).erfc() / 2


def _phi(z):
    return _phibar(-z)


@dataclass(frozen=True)
class Atom:
    value: Fraction      # the loss value
    p_mass: object       # callable () -> arb (exact closed form)
    q_mass: object


class LossModel:
    """One dominating pair.  Subclasses set ``name``, ``lo``/``hi`` (float support ends of the finite
    loss, +-inf if unbounded), ``atoms`` and implement ``_tails(l_fraction, l_arb)``."""

    name = "?"
    lo = -math.inf
    hi = math.inf
    atoms: tuple = ()
    #: True when the finite loss is exactly the listed atoms (no density part, no unlisted atoms): the
    #: engine then uses the atoms themselves as both step measures when they lie on its grid
    #: (``numeric.pld._lattice_measure``)
    atomic = False

    def p_inf(self):
        from flint import arb
        return arb(0)

    def tails(self, l: Fraction):
        """(S_P(l), S_Q(l)) as Arb balls: P- and Q-mass of l < L < inf."""
        return self._tails(l, arb_of(l))

    def q_atom_at(self, l: Fraction):
        """Q-mass of an atom of L located exactly at l (0 if none)."""
        return self._atom_mass_at(l, "q_mass")

    def p_atom_at(self, l: Fraction):
        """P-mass of an atom of L located exactly at l (0 if none)."""
        return self._atom_mass_at(l, "p_mass")

    def _atom_mass_at(self, l: Fraction, which: str):
        from flint import arb
        for a in self.atoms:
            if a.value == l:
                return getattr(a, which)()
        return arb(0)

    def log_cell_float(self, grid: np.ndarray, h: float) -> np.ndarray:
        """Heuristic float64 log P(L in (l - h, l]) on a grid (used to place knots only)."""
        sp = self._float_sp(grid - h) - self._float_sp(grid)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(np.clip(sp, 0, None))
        return out

    def _float_sp(self, l):              # pragma: no cover - overridden
        raise NotImplementedError

    def rough_range(self, lam: float):
        """A generous float interval holding all but ~e^-800 of the loss mass, untilted and tilted
        by e^{lam L} (heuristic: only decides where knots go)."""
        return self.lo, self.hi


class Gaussian(LossModel):
    """The pair N(0, 1) against N(mu, 1): L ~ N(mu^2/2, mu^2) under P.  Given by mu, or by mu2 = mu^2 (exact),
    the form a merged list of Gaussian steps takes (``numeric.pld_gaussian_merge``): the tails then use the Arb ball
    of sqrt(mu2), an enclosure like every other."""

    def __init__(self, mu=None, mu2=None):
        if mu2 is None:
            self.mu = exact(mu, "mu")
            if self.mu <= 0:
                raise ValueError(f"mu must be > 0, got {mu}")
            self.mu2 = self.mu * self.mu
            self.name = f"gaussian(mu={mu})"
        else:
            self.mu, self.mu2 = None, exact(mu2, "mu2")
            if self.mu2 <= 0:
                raise ValueError(f"mu2 must be > 0, got {mu2}")
            self.name = f"gaussian(mu=sqrt({self.mu2}))"
        self._m = math.sqrt(float(self.mu2))

    def _tails(self, l, la):
        mu = arb_of(self.mu) if self.mu is not None else arb_of(self.mu2).sqrt()
        half = arb_of(self.mu2) / 2
        return _phibar((la - half) / mu), _phibar((la + half) / mu)

    def _float_sp(self, l):
        return sc.ndtr(-(l - self._m ** 2 / 2) / self._m)

    def rough_range(self, lam):
        m = self._m
        c0, c1 = m * m / 2, m * m / 2 + lam * m * m
        return min(c0, c1) - 42 * m, max(c0, c1) + 42 * m

    def log_cell_float(self, grid, h):
        m = self._m
        a = (grid - h - m * m / 2) / m
        b = (grid - m * m / 2) / m
        # log(Phi(b) - Phi(a)) for the upper side; use the smaller tail
        with np.errstate(divide="ignore", invalid="ignore"):
            up = sc.log_ndtr(-a) + np.log1p(-np.exp(np.clip(sc.log_ndtr(-b) - sc.log_ndtr(-a), None, 0)))
            dn = sc.log_ndtr(b) + np.log1p(-np.exp(np.clip(sc.log_ndtr(a) - sc.log_ndtr(b), None, 0)))
        return np.where(a > 0, up, dn)


class Laplace(LossModel):
    def __init__(self, eps):
        self.eps = exact(eps, "eps")
        if self.eps <= 0:
            raise ValueError(f"eps must be > 0, got {eps}")
        self.name = f"laplace(eps={eps})"
        e = self.eps
        self.lo, self.hi = -float(e), float(e)
        self.atoms = (Atom(e, lambda: arb_of(Fraction(1, 2)),
                           lambda: (-arb_of(e)).exp() / 2),
                      Atom(-e, lambda: (-arb_of(e)).exp() / 2, lambda: arb_of(Fraction(1, 2))))

    def _tails(self, l, la):
        from flint import arb
        e = self.eps
        if l < -e:
            return arb(1), arb(1)
        if l >= e:
            return arb(0), arb(0)
        ea = arb_of(e)
        return 1 - ((la - ea) / 2).exp() / 2, (-(la + ea) / 2).exp() / 2

    def tails_batch(self, h, knots, balls):
        """All knots' tails at once (``numeric.laplace_tails``: the same closed forms, one pass)."""
        from .laplace_tails import tails_batch
        return tails_batch(self, h, knots, balls)

    def _float_sp(self, l):
        e = float(self.eps)
        out = 1 - np.exp((np.clip(l, -e, e) - e) / 2) / 2
        return np.where(l < -e, 1.0, np.where(l >= e, 0.0, out))


class PureDP(LossModel):
    """Randomized response with parameter eps: the dominating pair of pure eps-DP."""

    atomic = True

    def __init__(self, eps, delta=0):
        self.eps = exact(eps, "eps")
        self.delta = exact(delta, "delta")
        if self.eps < 0:
            raise ValueError(f"eps must be >= 0, got {eps}")
        if not 0 <= self.delta <= 1:
            raise ValueError(f"delta must be in [0, 1], got {delta}")
        self.name = f"eps_delta(eps={eps}, delta={delta})" if self.delta else f"pure(eps={eps})"
        e, d = self.eps, self.delta
        self.lo, self.hi = -float(e), float(e)

        def big():
            ea = arb_of(e).exp()
            return (1 - arb_of(d)) * ea / (1 + ea)

        def small():
            ea = arb_of(e).exp()
            return (1 - arb_of(d)) / (1 + ea)
        if e == 0:
            self.atoms = (Atom(Fraction(0), lambda: 1 - arb_of(d), lambda: 1 - arb_of(d)),)
        else:
            self.atoms = (Atom(e, big, small), Atom(-e, small, big))

    def p_inf(self):
        return arb_of(self.delta)

    def _tails(self, l, la):
        from flint import arb
        sp, sq = arb(0), arb(0)
        for a in self.atoms:
            if a.value > l:
                sp, sq = sp + a.p_mass(), sq + a.q_mass()
        return sp, sq

    def _float_sp(self, l):
        e, d = float(self.eps), float(self.delta)
        big = (1 - d) / (1 + math.exp(-e))
        return np.where(l < -e, 1 - d, np.where(l < e, big, 0.0))


class LogisticShift(LossModel):
    """The logistic pair (module docstring): P = Logistic(0, 1), Q = Logistic(m, 1), loss in [-m, m]."""

    def __init__(self, m):
        self.m = exact(m, "m")
        if self.m <= 0:
            raise ValueError(f"m must be > 0, got {m}")
        self.name = f"logistic_shift(m={m})"
        self.lo, self.hi = -float(self.m), float(self.m)

    def _tails(self, l, la):
        from flint import arb
        m = self.m
        if l <= -m:
            return arb(1), arb(1)
        if l >= m:
            return arb(0), arb(0)
        ma = arb_of(m)
        sq = ((ma - la) / 2).expm1() / ma.expm1()
        return ((la + ma) / 2).exp() * sq, sq

    def _float_sp(self, l):
        m = float(self.m)
        x = np.clip(np.asarray(l, dtype=float), -m, m)
        out = np.exp((x + m) / 2) * np.expm1((m - x) / 2) / np.expm1(m)
        return np.where(x <= -m, 1.0, np.where(x >= m, 0.0, out))


class DiscreteGaussian(LossModel):
    """The discrete Gaussian pair (module docstring): tails as Arb sums with a rigorous remainder."""

    def __init__(self, sigma2):
        self.s2 = exact(sigma2, "sigma2")
        if self.s2 <= 0:
            raise ValueError(f"sigma2 must be > 0, got {sigma2}")
        self.name = f"discrete_gaussian(sigma2={sigma2})"
        self._m = 1 / math.sqrt(float(self.s2))       # the Gaussian with the same loss variance (heuristics)
        self._cache = {}
        self._zn = None

    def _w(self, j: int):
        return (-arb_of(Fraction(j * j) / (2 * self.s2))).exp()

    def _u_pos(self, m: int):
        """U(m) = sum_{j >= m} w(j) for m >= 0, an Arb ball containing the exact sum."""
        if m in self._cache:
            return self._cache[m]
        from flint import arb
        total, j = arb(0), m
        while True:
            t = self._w(j)
            total += t
            r = (-arb_of(Fraction(2 * j + 1) / (2 * self.s2))).exp()           # w(j+1)/w(j), decreasing in j
            if r < 1:
                rest = t * r / (1 - r)                                           # sum_{i > j} w(i) <= this
                if rest < total * arb(2) ** (-PREC - 8):
                    up = rest.upper()
                    total += arb(up / 2, up / 2)
                    break
            j += 1
        self._cache[m] = total
        return total

    def _u(self, m: int):
        """U(m) = sum_{j >= m} w(j) for any integer m (U(m) = Zn - U(1 - m) for m <= 0)."""
        if m >= 1:
            return self._u_pos(m)
        return self.zn() - self._u_pos(1 - m)

    def zn(self):
        if self._zn is None:
            self._zn = 1 + 2 * self._u_pos(1)
        return self._zn

    def _z0(self, l: Fraction) -> int:
        return math.floor(l * self.s2 + Fraction(1, 2)) + 1

    def tails(self, l: Fraction):
        z0 = self._z0(l)
        zn = self.zn()
        return self._u(z0 - 1) / zn, self._u(z0) / zn

    def q_atom_at(self, l: Fraction):
        from flint import arb
        z = l * self.s2 + Fraction(1, 2)
        if z.denominator != 1:
            return arb(0)
        return self._w(int(z)) / self.zn()

    def _float_sp(self, l):
        m = self._m
        return sc.ndtr(-(l - m * m / 2) / m)

    def atom_places(self, lo: float, hi: float):
        """The atoms (2z - 1)/(2 s2) in [lo, hi] as floats (knots of a wrapper: pld_subsampled; none if
        over 20000)."""
        s2 = float(self.s2)
        za, zb = math.ceil(lo * s2 + 0.5), math.floor(hi * s2 + 0.5)
        return [(2 * z - 1) / (2 * s2) for z in range(za, zb + 1)] if 0 <= zb - za <= 20000 else []

    def rough_range(self, lam):
        m = self._m
        c0, c1 = m * m / 2, m * m / 2 + lam * m * m
        return min(c0, c1) - 42 * m, max(c0, c1) + 42 * m


def _subsampling(q, direction: str):
    """(the exact rate q in (0, 1], the neighbouring direction) of a Poisson-subsampled pair."""
    qq = exact(q, "q")
    if not 0 < qq <= 1:
        raise ValueError(f"q must be in (0, 1], got {q}")
    if direction not in ("remove", "add"):
        raise ValueError("direction must be 'remove' or 'add'")
    return qq, direction


class SubsampledGaussian(LossModel):
    """Poisson-subsampled Gaussian, one direction ('remove' or 'add')."""

    #: its tilted loss has a far bump (``numeric.pld.Composition._bump_tilt``)
    tilt_bump = True

    def __init__(self, q, sigma, direction="remove"):
        self.q, self.direction = _subsampling(q, direction)
        self.sigma = exact(sigma, "sigma")
        if self.sigma <= 0:
            raise ValueError(f"sigma must be > 0, got {sigma}")
        self.name = f"subsampled_gaussian(q={q}, sigma={sigma}, {direction})"
        qf = float(self.q)
        edge = math.log1p(-qf) if qf < 1 else -math.inf
        if direction == "remove":
            self.lo, self.hi = edge, math.inf
        else:
            self.lo, self.hi = -math.inf, -edge

    def _consts(self):
        """Balls made once (exact rationals rounded at the precision of the first call; a ball stays a valid
        enclosure at any later precision): q, 1 - q, sigma^2, log q, 1/(sigma sqrt 2) and 1/2."""
        c = self.__dict__.get("_c")
        if c is None:
            q, s = arb_of(self.q), arb_of(self.sigma)
            c = self._c = (q, 1 - q, s * s, q.log(), _F.arb(2).rsqrt() / s, _F.arb(1) / 2)
        return c

    def tails(self, l: Fraction):
        return self.tails_arb(arb_of(l), l)

    def tails_arb(self, la, l=None):
        """(S_P, S_Q) at the loss ball la (the engine's fast path; ``l`` only names the knot).  With
        v = expm1(+-l) + q and x = s^2 (log v - log q) + 1/2 (the x(l) of the module docstring), the tails are
        Phi-bar(x/s) = erfc(x c)/2 and Phi-bar((x - 1)/s) = erfc(x c - c)/2, c = 1/(s sqrt 2): every quantity
        an Arb ball, one expm1, one log and two erfc a knot (issue #25: the former form evaluated expm1
        twice and divided by s and sqrt 2 at every call)."""
        # decide the support edge rigorously: remove needs expm1(l) + q > 0, add needs expm1(-l) + q > 0
        q, q1, s2, lq, c, half = self._consts()
        v = (la if self.direction == "remove" else -la).expm1() + q
        if v > 0:
            z = (s2 * (v.log() - lq) + half) * c
            if self.direction == "remove":
                sq = z.erfc() * half
                return q1 * sq + q * ((z - c).erfc() * half), sq
            sp = (-z).erfc() * half
            return sp, q1 * sp + q * ((c - z).erfc() * half)
        if v < 0 or v == 0:
            from flint import arb
            return (arb(1), arb(1)) if self.direction == "remove" else (arb(0), arb(0))
        raise ArithmeticError(f"{self.name}: knot {l} too close to the support end to decide")

    def tail_point(self, log_mass: float):
        """A float loss above which this step's P-mass is at most about e^log_mass (``numeric.pld_truncate``;
        heuristic).  remove: L > l iff x > x(l) and S_P(l) <= Phi-bar((x(l) - 1)/sigma), so the loss at
        x = 1 + sigma z with Phi-bar(z) = e^log_mass; add: None (its loss is at most -log(1 - q))."""
        if self.direction != "remove":
            return None
        z = -float(sc.ndtri_exp(log_mass))
        return self._float_L(1 + float(self.sigma) * z)

    def _float_L(self, x):
        qf, s = float(self.q), float(self.sigma)
        return float(np.logaddexp(math.log1p(-qf) if qf < 1 else -np.inf, math.log(qf) + (2 * x - 1) / (2 * s * s)))

    def rough_range(self, lam):
        s = float(self.sigma)
        if self.direction == "remove":
            top = max(1.0, lam) + 40 * s
            return (self.lo if math.isfinite(self.lo) else self._float_L(-40 * s)), self._float_L(top)
        return -self._float_L(40 * s + 1), (self.hi if math.isfinite(self.hi) else -self._float_L(-40 * s))

    def _float_x(self, l):
        qf, s = float(self.q), float(self.sigma)
        with np.errstate(divide="ignore", invalid="ignore"):
            return s * s * np.log((np.expm1(l) + qf) / qf) + 0.5

    def log_cell_float(self, grid, h):
        qf, s = float(self.q), float(self.sigma)
        a, b = grid - h, grid
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if self.direction == "remove":
                xa, xb = self._float_x(a), self._float_x(b)
                xa = np.where(np.isnan(xa), -np.inf, xa)
                xb = np.where(np.isnan(xb), -np.inf, xb)
                # P(xa < X <= xb) under the mixture, via log-space tails of each component

                def comp(shift):
                    za, zb = (xa - shift) / s, (xb - shift) / s
                    la_, lb_ = sc.log_ndtr(-za), sc.log_ndtr(-zb)
                    upper = la_ + np.log1p(-np.exp(np.clip(lb_ - la_, None, 0)))
                    lca, lcb = sc.log_ndtr(za), sc.log_ndtr(zb)
                    lower = lcb + np.log1p(-np.exp(np.clip(lca - lcb, None, 0)))
                    return np.where(za > 0, upper, lower)
                return np.logaddexp(np.log1p(-qf) + comp(0.0) if qf < 1 else -np.inf, np.log(qf) + comp(1.0))
            xa, xb = self._float_x(-a), self._float_x(-b)
            xa = np.where(np.isnan(xa), -np.inf, xa)
            xb = np.where(np.isnan(xb), -np.inf, xb)
            # L in (a, b]  <=>  x in [xb, xa) under N(0, s^2)
            za, zb = xb / s, xa / s
            la_, lb_ = sc.log_ndtr(-za), sc.log_ndtr(-zb)
            upper = la_ + np.log1p(-np.exp(np.clip(lb_ - la_, None, 0)))
            lca, lcb = sc.log_ndtr(za), sc.log_ndtr(zb)
            lower = lcb + np.log1p(-np.exp(np.clip(lca - lcb, None, 0)))
            return np.where(za > 0, upper, lower)


class SubsampledLaplace(LossModel):
    """Poisson-subsampled Laplace mechanism (rate q, scale 1/eps, sensitivity 1), one direction.

    Derived here like the subsampled Gaussian: with B = Lap(0, 1/eps), B1 = Lap(1, 1/eps) and the
    mixture M = (1 - q) B + q B1, the base loss u(x) = log dB1/dB (x) = eps (|x| - |x - 1|) is -eps on
    x <= 0, eps (2x - 1) on (0, 1) and eps on x >= 1, and g(u) = log(1 - q + q e^u) is increasing.

    remove, (P, Q) = (M, B): L = g(u(x)).  With lam(l) = log((expm1(l) + q)/q) = g^{-1}(l) and
    x(l) = (lam/eps + 1)/2: L > l iff u > lam, which is everything when lam < -eps (or
    expm1(l) + q <= 0), nothing when lam >= eps, and x > x(l) in between, where
        S_Q = e^{-eps x}/2,   S_P = (1 - q) e^{-eps x}/2 + q (1 - e^{eps (x - 1)}/2).
    add, (P, Q) = (B, M): L = -g(u(x)); L > l iff u < lam(-l), which is nothing when expm1(-l) + q
    <= 0 or lam(-l) <= -eps, everything when lam(-l) > eps, and x < x(-l) in between, where
        S_P = 1 - e^{-eps x}/2,   S_Q = (1 - q)(1 - e^{-eps x}/2) + q e^{eps (x - 1)}/2.
    The atoms of L (at g(+-eps), resp. -g(+-eps)) are irrational for rational q < 1 and eps > 0, so
    no knot ever sits on one; every comparison with the ends is decided in Arb (undecided raises).
    """

    def __init__(self, q, eps, direction="remove"):
        self.q, self.direction = _subsampling(q, direction)
        self.eps = exact(eps, "eps")
        if self.eps <= 0:
            raise ValueError(f"eps must be > 0, got {eps}")
        self.name = f"subsampled_laplace(q={q}, eps={eps}, {direction})"
        qf, ef = float(self.q), float(self.eps)
        g_lo = math.log1p(qf * math.expm1(-ef))
        g_hi = math.log1p(qf * math.expm1(ef))
        self.lo, self.hi = (g_lo, g_hi) if direction == "remove" else (-g_hi, -g_lo)
        if self.q == 1:
            # q = 1 is the Laplace pair itself, whose atoms sit at the rational +-eps
            e = self.eps
            plus = Atom(e, lambda: arb_of(Fraction(1, 2)), lambda: (-arb_of(e)).exp() / 2)
            minus = Atom(-e, lambda: (-arb_of(e)).exp() / 2, lambda: arb_of(Fraction(1, 2)))
            self.atoms = (plus, minus) if direction == "remove" else (
                Atom(e, minus.q_mass, minus.p_mass), Atom(-e, plus.q_mass, plus.p_mass))

    def _where(self, la):
        """Where lam = g^{-1}(l) lies against the ends -eps, eps of u, decided in Arb: "below"
        (lam < -eps, or no lam: expm1(l) + q <= 0), "lo" (lam = -eps), "inside" (with the ball
        x = (lam/eps + 1)/2), "hi" (lam = eps) or "above"; undecided raises ArithmeticError."""
        q, e = arb_of(self.q), arb_of(self.eps)
        if self.q == 1:
            lam = la                                   # g is the identity: lam = l exactly
        else:
            v = la.expm1() + q
            if v < 0 or v == 0:
                return "below", None
            if not v > 0:
                raise ArithmeticError(f"{self.name}: knot too close to the support end to decide")
            lam = (v / q).log()
        if lam < -e:
            return "below", None
        if lam > e:
            return "above", None
        if lam == -e:
            return "lo", _F.arb(0)
        if lam == e:
            return "hi", _F.arb(1)
        if lam > -e and lam < e:
            return "inside", (lam / e + 1) / 2
        raise ArithmeticError(f"{self.name}: knot too close to an atom to decide")

    def _tails(self, l, la):
        from flint import arb
        q, e = arb_of(self.q), arb_of(self.eps)
        one, zero = (arb(1), arb(1)), (arb(0), arb(0))
        if self.direction == "remove":               # L > l  iff  u > lam(l)
            where, x = self._where(la)
            if where == "below":
                return one
            if where in ("hi", "above"):
                return zero
            sq = (-e * x).exp() / 2
            return (1 - q) * sq + q * (1 - (e * (x - 1)).exp() / 2), sq
        where, x = self._where(-la)                  # L > l  iff  u < lam(-l)
        if where in ("below", "lo"):
            return zero
        if where == "above":
            return one
        sp = 1 - (-e * x).exp() / 2
        return sp, (1 - q) * sp + q * (e * (x - 1)).exp() / 2

    def _float_sp(self, l):
        qf, ef = float(self.q), float(self.eps)
        l = np.asarray(l, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if self.direction == "remove":
                lam = np.log((np.expm1(l) + qf) / qf)
                x = np.clip((lam / ef + 1) / 2, 0, 1)
                sp = (1 - qf) * np.exp(-ef * x) / 2 + qf * (1 - np.exp(ef * (x - 1)) / 2)
                return np.where(np.isnan(lam) | (lam < -ef), 1.0, np.where(lam >= ef, 0.0, sp))
            lam = np.log((np.expm1(-l) + qf) / qf)
            x = np.clip((lam / ef + 1) / 2, 0, 1)
            sp = 1 - np.exp(-ef * x) / 2
            return np.where(np.isnan(lam) | (lam <= -ef), 0.0, np.where(lam > ef, 1.0, sp))

    def rough_range(self, lam):
        return self.lo, self.hi


class SymmetricHull(LossModel):
    """The symmetric pair of C_p(f) = min{f_p, f_p^{-1}}** (uniform subsampling, DRS22 Thm 4.2).

    Built from the remove pair (P, Q) of f_p (``SubsampledGaussian(p, sigma, "remove")`` for
    f = G_{1/sigma}).  Along the Neyman-Pearson curve the loss is l = log|slope|: C_p(f) equals f_p
    on [0, x*] (x* = f(x*); f_p'(x*) = -1 since f'(x*) = -1 for a symmetric f), so the part L > 0
    of the hull's pair is the part L > 0 of the remove pair; the segment of slope -1 on
    [x*, f_p(x*)] is an atom at L = 0 of P- and Q-mass f_p(x*) - x*; and the pair is symmetric
    (P(L in A) = Q(L in -A), P(L = +inf) = Q(L = -inf)), which gives the part L < 0.  With S_P, S_Q,
    the atoms and p_inf of the remove pair:

        l >= 0:  S_P^C(l) = S_P(l),  S_Q^C(l) = S_Q(l);
        l < 0:   S_P^C(l) = 1 - p_inf - S_Q(-l) - Q-atom(-l),
                 S_Q^C(l) = 1 - p_inf - S_P(-l) - P-atom(-l);
        atom 0:  P = Q = 1 - p_inf - S_P(0) - S_Q(0).

    (The mass of L < 0 under P is Q(L > 0) = S_Q(0), hence the atom.)  Every value is an Arb
    expression of the remove pair's balls, so the enclosures stay rigorous.
    """

    def __init__(self, remove: LossModel):
        self.base = remove
        self.name = f"hull({remove.name})"
        self.lo, self.hi = -remove.hi, remove.hi
        if type(remove).q_atom_at is not LossModel.q_atom_at or type(remove).p_atom_at is not LossModel.p_atom_at:
            raise ValueError("the remove pair must list its atoms in .atoms (the mirror reads both masses there)")
        if any(a.value < 0 for a in remove.atoms):
            raise ValueError("the remove pair must have its atoms at loss >= 0 only")
        atoms = [Atom(Fraction(0), self._atom0, self._atom0)]      # (it holds a remove atom at 0 too)
        for a in (a for a in remove.atoms if a.value > 0):
            atoms.append(a)
            atoms.append(Atom(-a.value, a.q_mass, a.p_mass))
        self.atoms = tuple(atoms)

    def _atom0(self):
        sp, sq = self.base.tails(Fraction(0))
        m = 1 - self.base.p_inf() - sp - sq
        return m if m.lower() >= 0 else (m + abs(m)) / 2        # a ball of the (non-negative) mass

    def p_inf(self):
        return self.base.p_inf()

    def tails(self, l: Fraction):
        if l >= 0:
            return self.base.tails(l)
        sp, sq = self.base.tails(-l)
        rest = 1 - self.base.p_inf()
        return (rest - sq - self.base.q_atom_at(-l),
                rest - sp - self.base.p_atom_at(-l))

    def log_cell_float(self, grid, h):
        pos = self.base.log_cell_float(grid, h)
        # a cell (l - h, l] with l <= 0 mirrors [-l, -l + h) of the remove pair, its P-mass there
        # times e^{-L} ~ e^{l} (heuristic: knots only)
        neg = self.base.log_cell_float(-grid + h, h) + grid
        return np.where(grid > 0, pos, neg)

    def rough_range(self, lam):
        _, top = self.base.rough_range(max(lam, 0.0))
        return -top, top


class Mechanism:
    """A mechanism step: its dominating pairs (directions) and a description."""

    def __init__(self, name: str, directions: list, symmetric: bool):
        self.name = name
        self.directions = directions
        self.symmetric = symmetric

    def __repr__(self):
        return f"Mechanism({self.name})"


def gaussian(mu) -> Mechanism:
    """Gaussian mechanism with f = G_mu (noise sd = sensitivity / mu)."""
    return Mechanism(f"gaussian(mu={mu})", [Gaussian(mu)], True)


def laplace(eps) -> Mechanism:
    """Laplace mechanism with scale sensitivity/eps (T(Lap(0,1), Lap(eps,1)))."""
    return Mechanism(f"laplace(eps={eps})", [Laplace(eps)], True)


def randomized_response(eps) -> Mechanism:
    """Randomized response / the dominating pair of pure eps-DP (f = f_{eps,0})."""
    return Mechanism(f"pure(eps={eps})", [PureDP(eps)], True)


pure = randomized_response


def eps_delta(eps, delta) -> Mechanism:
    """The 4-point pair with trade-off f_{eps,delta} (any (eps, delta)-DP mechanism is dominated by it)."""
    return Mechanism(f"eps_delta(eps={eps}, delta={delta})", [PureDP(eps, delta)], True)


def discrete_gaussian(sigma2) -> Mechanism:
    """Discrete Gaussian mechanism N_Z(0, sigma2) on an integer query of sensitivity 1."""
    return Mechanism(f"discrete_gaussian(sigma2={sigma2})", [DiscreteGaussian(sigma2)], True)


def subsampled_gaussian(q, sigma) -> Mechanism:
    """Poisson-subsampled Gaussian (rate q, noise multiplier sigma): both add and remove pairs."""
    return Mechanism(f"subsampled_gaussian(q={q}, sigma={sigma})",
                     [SubsampledGaussian(q, sigma, "remove"), SubsampledGaussian(q, sigma, "add")], False)


def subsampled_laplace(q, eps) -> Mechanism:
    """Poisson-subsampled Laplace (rate q, per-step eps): both add and remove pairs."""
    return Mechanism(f"subsampled_laplace(q={q}, eps={eps})",
                     [SubsampledLaplace(q, eps, "remove"), SubsampledLaplace(q, eps, "add")], False)


def uniform_subsampled_laplace(p, eps) -> Mechanism:
    """The Laplace step on a fixed-size subsample of rate p: C_p(f_Lap) as one symmetric pair."""
    return Mechanism(f"uniform_subsampled_laplace(p={p}, eps={eps})",
                     [SymmetricHull(SubsampledLaplace(p, eps, "remove"))], True)


def uniform_subsampled_gaussian(p, sigma) -> Mechanism:
    """The Gaussian step f = G_{1/sigma} on a fixed-size subsample of rate p: C_p(G_{1/sigma}) (replace-one
    neighbours, Dong-Roth-Su 2022 Thm 4.2; seed 004 Sec. 4.1), one symmetric pair (:class:`SymmetricHull`)."""
    return Mechanism(f"uniform_subsampled_gaussian(p={p}, sigma={sigma})",
                     [SymmetricHull(SubsampledGaussian(p, sigma, "remove"))], True)


def logistic_shift(m) -> Mechanism:
    """The pair Logistic(0, 1) against Logistic(m, 1) (f = (1 - alpha)/(1 + (e^m - 1) alpha))."""
    return Mechanism(f"logistic_shift(m={m})", [LogisticShift(m)], True)


def _number(value, label: str, record):
    """A fact's value as an exact number the constructors take: its shortest decimal text when that is
    exact (the model's name then reads as typed), else p/q; a non-rational value raises ValueError."""
    if not getattr(value, "is_Rational", False):
        raise ValueError(f"{record}: the engine takes an exact rational {label}, got {value}")
    from derive.exact import _show
    text = _show(value)
    return text if Fraction(text) == Fraction(int(value.p), int(value.q)) else f"{value.p}/{value.q}"


def from_record(record, strict: bool = True) -> Mechanism | None:
    """The engine's privacy-loss model of a trade-off record, asked of its identity fact
    (``derive.mechanisms.facts``): G_mu -> the Gaussian pair, T(Lap(0, 1), Lap(eps, 1)) -> the Laplace
    pair, f_{eps,0} -> randomized response, f_{eps,delta} (delta > 0) -> the 4-point pair, the discrete
    Gaussian -> its pair, the logistic shift -> :class:`LogisticShift`.  A record with none of them:
    ValueError (None with ``strict=False``); a non-rational parameter: ValueError."""
    from derive.mechanisms import facts as K
    for key, label, build in ((K.GDP_MU, "mu", gaussian), (K.LAPLACE_EPS, "eps", laplace),
                              (K.DG_SIGMA2, "sigma2", discrete_gaussian), (K.LOGISTIC_SHIFT, "m", logistic_shift)):
        value = record.fact(key)
        if value is not None:
            return build(_number(value, label, record))
    pair = record.fact(K.EPS_DELTA)
    if pair is not None:
        eps, delta = _number(pair[0], "eps", record), _number(pair[1], "delta", record)
        return randomized_response(eps) if pair[1] == 0 else eps_delta(eps, delta)
    if strict:
        raise ValueError(f"{record}: the composition engine has no privacy-loss model for this record (it "
                         "composes G_mu, Laplace, f_{eps,delta}, discrete Gaussian and logistic-shift steps)")
    return None
