"""The Poisson-subsampled pair of any single-pair loss model (``numeric.pld_mechanisms.LossModel``).

``Subsampled(base, q, direction)`` wraps a base pair (P, Q) with finite-loss tails and exactly located
atoms (randomized response and the 4-point (eps, delta) pair ``PureDP``, ``LogisticShift``,
``DiscreteGaussian``; ``Laplace`` and ``Gaussian`` work too and are checked against the bespoke
``SubsampledLaplace`` / ``SubsampledGaussian``, which the engine keeps using for their records).

Convention (the one of ``SubsampledGaussian`` / ``SubsampledLaplace``)
---------------------------------------------------------------------
In the base pair P is the shifted law and Q the base law (P = N(mu, 1), Q = N(0, 1); P = Lap(eps, 1),
Q = Lap(0, 1)), and L = log dP/dQ under P.  Poisson subsampling at rate q (Zhu, Dong, Wang 2022, the
dominating pairs of the Poisson-subsampled mechanism; Balle, Barthe, Gaboardi 2018) gives

    remove:  (P', Q') = (M, Q),   M = (1 - q) Q + q P,
    add:     (P'', Q'') = (Q, M), the mirrored pair (the base is symmetric: its add pair is (Q, P)).

Derivation (remove).  dM/dQ = 1 - q + q dP/dQ, so L' = log dM/dQ = g(L) with g(u) = log(1 - q + q e^u),
increasing, g(-inf) = log(1 - q) (a point where dP = 0 < dQ has a finite L' for q < 1), g(+inf) = +inf.
For a loss value l put v = expm1(l) + q.  If v > 0, g^{-1}(l) = lam := log(v/q) and {L' > l} = {L > lam}
(L = -inf is not in it), so

    S_P'(l) = M(l < L' < inf) = (1 - q) S_Q(lam) + q S_P(lam),      S_Q'(l) = S_Q(lam).

If v < 0 (l < log(1 - q)) every outcome with a finite L' is above l: S_P'(l) = 1 - q p_inf (Q never
sits at L = +inf, P does with mass p_inf) and S_Q'(l) = 1.  (v = 0 needs e^l = 1 - q, impossible for a
rational l: knots are rational.)  L' = +inf exactly where L = +inf: p_inf' = q p_inf.  A base atom at
a (P-mass pa, Q-mass qa) moves to g(a) with masses ((1 - q) qa + q pa, qa); the Q-mass of L = -inf (the
4-point pair's delta) becomes the atom at log(1 - q).  No knot is ever on a moved atom except at 0:
g(a) for rational a != 0 and q < 1 is irrational (e^{g(a)} = 1 - q + q e^a; with t = e^{1/N} for a
common denominator N of a and g(a) this is a non-trivial polynomial equation over Q for t, which
Lindemann-Weierstrass forbids), and log(1 - q) is irrational.  So ``atoms`` lists the image of a base
atom at 0 only (g(0) = 0), and every other ``q_atom_at`` is 0, correctly.

Derivation (add).  L'' = -g(L) under Q: L'' > l iff g(L) < -l.  With w = expm1(-l) + q: w < 0 gives
nothing (g >= log(1 - q) > -l); w > 0 gives mu := log(w/q) and {g(L) < -l} = {L < mu} (including
L = -inf), so S_P''(l) = Q(L < mu) and S_Q''(l) = M(L < mu) = (1 - q) Q(L < mu) + q P(L < mu).  The base
is symmetric (one pair serves both directions: the law of L under Q is that of -L under P, infinities
included, and the other way round), so without a complement or an atom term

    Q(L < mu) = P(L > -mu) = S_P(-mu) + p_inf,      P(L < mu) = Q(L > -mu) = S_Q(-mu),

relative-accurate where they are small (1 - S_Q(mu) - Qatom(mu) is the same number, computed with a
cancellation; tests/test_subsampled_generic.py checks the two agree for every base).  p_inf'' = 0 (dM >= (1 - q) dQ > 0 wherever dQ > 0).  q = 1 is the base pair itself and is refused here
(``poisson_subsampled`` returns the base mechanism).

The (eps, delta) pair with delta > 0 is handled by the same formulas: it is the finite pair with
P-atoms +inf (delta), +-eps and the Q-atom at L = -inf (delta); its remove image has the atoms
g(+-eps), log(1 - q) and +inf (q delta), its add image -g(+-eps), -log(1 - q) (P''-mass delta).

Certification.  lam = g^{-1}(l) (and mu) is irrational for every rational l != 0 (the argument above), so
the base's tails cannot take it as an exact Fraction.  It is computed as an Arb ball (l = 0 gives
exactly 0 and goes through the base's exact path) and handed to the base as a :class:`LossBall`: every
comparison the base makes with a rational (its support ends, its atoms: ``PureDP``, ``Laplace``,
``LogisticShift``), and the floor of an affine rational image (``DiscreteGaussian``'s z0), is decided in
Arb and raises ``ArithmeticError`` when the ball straddles the rational (never a guess; the true lam
differs from every rational, so this happens only when a knot lies within ~2^-90 of a moved atom or
support end).  With the branch decided, the base evaluates its closed form at the ball, which encloses
the value at the true lam (Arb's functions are rigorous on balls).  The masses above are sums and
products of such balls and of q, so every tail returned is an enclosure: errors are only ever widened,
never dropped, and an undecidable knot raises instead of being resolved either way.  A base atom
inside the ball would make the strict tail S(lam) = mass of {L > lam} ambiguous: the listed atoms are
checked against the ball before the base is asked (``DiscreteGaussian`` lists none; its floor decision
excludes them).

The float methods (``_float_sp``, ``rough_range``) are heuristics that place knots only; they use the
symmetry of the base (Q(L > l) = P(L < -l)).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .pld_mechanisms import (
    Atom,
    LossModel,
    Mechanism,
    SymmetricHull,
    _number,
    _subsampling,
    arb_of,
    exact,
    from_record,
    subsampled_gaussian,
    subsampled_laplace,
    uniform_subsampled_gaussian,
    uniform_subsampled_laplace,
)


class LossBall:
    """An irrational loss value known as an Arb ball, for a base model's ``_tails(l, la)``: its
    comparisons with rationals and its floor are decided in Arb, raising ``ArithmeticError`` when the
    ball does not decide them; ``* r`` and ``+ r`` (r rational) give balls again; anything else is a
    TypeError (a base that uses ``l`` otherwise fails loudly)."""

    __hash__ = None

    def __init__(self, ball):
        self.ball = ball

    @staticmethod
    def _arb(r):
        if isinstance(r, (int, Fraction)):
            return arb_of(Fraction(r))
        raise TypeError(f"a loss ball is compared / combined with rationals only, got {type(r).__name__}")

    def _decide(self, yes: bool, no: bool, r) -> bool:
        if yes:
            return True
        if no:
            return False
        raise ArithmeticError(f"a loss ball {self.ball} straddles {r}: the comparison is undecided")

    def __lt__(self, r):
        ra = self._arb(r)
        return self._decide(self.ball < ra, self.ball >= ra, r)

    def __le__(self, r):
        ra = self._arb(r)
        return self._decide(self.ball <= ra, self.ball > ra, r)

    def __gt__(self, r):
        ra = self._arb(r)
        return self._decide(self.ball > ra, self.ball <= ra, r)

    def __ge__(self, r):
        ra = self._arb(r)
        return self._decide(self.ball >= ra, self.ball < ra, r)

    def __eq__(self, r):
        ra = self._arb(r)
        return self._decide(self.ball == ra, self.ball != ra, r)

    def __ne__(self, r):
        return not self.__eq__(r)

    def __mul__(self, r):
        return LossBall(self.ball * self._arb(r))

    __rmul__ = __mul__

    def __add__(self, r):
        return LossBall(self.ball + self._arb(r))

    __radd__ = __add__

    def __neg__(self):
        return LossBall(-self.ball)

    def __floor__(self) -> int:
        n = self.ball.floor().unique_fmpz()
        if n is None:
            raise ArithmeticError(f"a loss ball {self.ball} holds an integer: its floor is undecided")
        return int(n)


class Subsampled(LossModel):
    """The Poisson-subsampled pair of ``base`` at rate q < 1, one direction (module docstring).  ``base``
    is a symmetric pair (the law of L under Q is that of -L under P: one pair for both directions, as
    every model of ``pld_mechanisms.from_record``); the add direction relies on it."""

    def __init__(self, base: LossModel, q, direction: str = "remove"):
        self.q, self.direction = _subsampling(q, direction)
        if self.q == 1:
            raise ValueError("q = 1 is the base pair itself: use it directly")
        self.base = base
        self.name = f"subsampled({base.name}, q={q}, {direction})"
        edge = math.log1p(-float(self.q))
        top = self._g_float(base.hi)
        self.lo, self.hi = (edge, top) if direction == "remove" else (-top, -edge)
        zero = [a for a in base.atoms if a.value == 0]
        if zero:
            pa, qa = zero[0].p_mass, zero[0].q_mass

            def mixed():
                w = self._weight()
                return (1 - w) * qa() + w * pa()
            self.atoms = ((Atom(Fraction(0), mixed, qa),) if direction == "remove"
                          else (Atom(Fraction(0), qa, mixed),))

    @property
    def atom_scale(self):
        """The smallest distance from 0 of a moved listed atom (float; the engine's default grid resolves
        it: ``numeric.pld.Composition._grid``), None without such atoms."""
        places = [abs(self._g_float(float(a.value))) for a in self.base.atoms if a.value != 0]
        if float(self.base.p_inf().mid()) > 0:
            places.append(-math.log1p(-float(self.q)))
        return min(places) if places else None

    def _weight(self):
        """The mixing weight q of M = (1 - q) Q + q P, as a ball (one place, so a test can break it)."""
        return arb_of(self.q)

    def p_inf(self):
        from flint import arb
        return self._weight() * self.base.p_inf() if self.direction == "remove" else arb(0)

    # -- certified tails --------------------------------------------------------------------------
    def _preimage(self, l: Fraction, la):
        """g^{-1}(l) = log((expm1(l) + q)/q): exactly 0 at l = 0, else a ball; None when
        expm1(l) + q < 0 (every finite base loss, and L = -inf, maps above l); undecided raises."""
        if l == 0:
            return Fraction(0)
        q = arb_of(self.q)
        v = la.expm1() + q
        if v > 0:
            return (v / q).log()
        if v < 0:
            return None
        raise ArithmeticError(f"{self.name}: knot {l} too close to log(1 - q) to decide")

    def _base_tails(self, lam):
        """The base's (S_P, S_Q) at lam (a Fraction, or a ball decided as in the module docstring)."""
        if isinstance(lam, Fraction):
            return self.base.tails(lam)
        for a in self.base.atoms:
            av = arb_of(a.value)
            if not (lam < av or lam > av):
                raise ArithmeticError(f"{self.name}: a preimage ball {lam} holds the base atom {a.value}")
        x = LossBall(lam)
        if type(self.base).tails is LossModel.tails:
            return self.base._tails(x, lam)
        return self.base.tails(x)

    def tails(self, l: Fraction):
        from flint import arb
        la = arb_of(l)
        w = self._weight()
        if self.direction == "remove":                 # L' > l  iff  L > lam
            lam = self._preimage(l, la)
            if lam is None:
                return 1 - w * self.base.p_inf(), arb(1)
            sp, sq = self._base_tails(lam)
            return (1 - w) * sq + w * sp, sq
        mu = self._preimage(-l, -la)                   # L'' > l  iff  L < mu
        if mu is None:
            return arb(0), arb(0)
        sp, sq = self._base_tails(-mu)                 # symmetry: Q(L < mu) = S_P(-mu) + p_inf, P(L < mu) = S_Q(-mu)
        below_q = sp + self.base.p_inf()
        return below_q, (1 - w) * below_q + w * sq

    # -- float heuristics (knot placement only) ---------------------------------------------------
    def _g_float(self, u):
        qf = float(self.q)
        with np.errstate(divide="ignore", over="ignore"):
            return float(np.logaddexp(math.log1p(-qf), math.log(qf) + u))

    def _preimage_float(self, l):
        qf = float(self.q)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.log((np.expm1(np.asarray(l, dtype=float)) + qf) / qf)

    def _float_sp(self, l):
        qf, pinf = float(self.q), float(self.base.p_inf().mid())
        with np.errstate(invalid="ignore", over="ignore"):
            if self.direction == "remove":
                lam = self._preimage_float(l)
                sp = self.base._float_sp(lam)
                sq = 1 - pinf - self.base._float_sp(-lam)          # Q(L > lam) = P(L < -lam) (symmetry)
                return np.where(np.isnan(lam), 1 - qf * pinf, (1 - qf) * sq + qf * sp)
            mu = self._preimage_float(-np.asarray(l, dtype=float))
            below = pinf + self.base._float_sp(-mu)                # Q(L < mu) = P(L > -mu) (symmetry)
            return np.where(np.isnan(mu), 0.0, below)

    def rough_range(self, lam):
        # both ends pushed out a little: they can be atoms (log(1 - q) when the base's Q sits at L = -inf,
        # the image of the base's top atom), and the heuristic's float cells (a, b] must hold them
        edge = math.log1p(-float(self.q))
        if self.direction == "remove":
            a, b = edge, self._g_float(self.base.rough_range(lam)[1])
        else:
            a, b = -self._g_float(self.base.rough_range(0.0)[1]), -edge
        return a - 1e-6 * (1 + abs(a)), b + 1e-6 * (1 + abs(b))

    def knot_hints(self, a: float, b: float):
        """Float places of the moved base atoms in [a, b] (``pld_discretise._knots`` puts knots beside
        them; accuracy only): g(v) (remove) or -g(v) (add) of the listed atoms, of those the base
        places (``atom_places``: the discrete Gaussian's) and the end +-log(1 - q)."""
        sign = 1.0 if self.direction == "remove" else -1.0
        lo, hi = (a, b) if sign > 0 else (-b, -a)                    # the range of g(L)
        with np.errstate(invalid="ignore", divide="ignore"):
            ends = [float(x) for x in self._preimage_float(np.array([lo, hi]))]
        reach = max(abs(x) for x in self.base.rough_range(0.0))
        ends = [-reach if math.isnan(x) else max(min(x, reach), -reach) for x in ends]
        places = [float(v.value) for v in self.base.atoms]
        places += list(getattr(self.base, "atom_places", lambda x, y: ())(ends[0], ends[1]))
        out = [sign * self._g_float(v) for v in places if ends[0] <= v <= ends[1]]
        return out + [sign * math.log1p(-float(self.q))]


def _one_pair(mech: Mechanism) -> LossModel:
    if not mech.symmetric or len(mech.directions) != 1:
        raise ValueError(f"{mech.name}: the generic subsampled pair needs a symmetric step with one pair (its "
                         "add pair is the mirror of the remove pair)")
    return mech.directions[0]


def poisson_subsampled(mech: Mechanism, q) -> Mechanism:
    """The Poisson-subsampled step (rate q) of a symmetric single-pair mechanism: remove and add pairs
    (at q = 1 the mechanism itself)."""
    base = _one_pair(mech)
    qq, _ = _subsampling(q, "remove")
    if qq == 1:
        return Mechanism(f"poisson_subsampled({mech.name}, q=1)", [base], True)
    return Mechanism(f"poisson_subsampled({mech.name}, q={q})",
                     [Subsampled(base, q, "remove"), Subsampled(base, q, "add")], False)


def uniform_subsampled(mech: Mechanism, p) -> Mechanism:
    """The step on a fixed-size subsample of rate p: C_p(f) as one symmetric pair (``SymmetricHull`` of the
    remove pair; Dong, Roth, Su 2022 Thm 4.2; at p = 1 the mechanism itself)."""
    base = _one_pair(mech)
    pp, _ = _subsampling(p, "remove")
    if pp == 1:
        return Mechanism(f"uniform_subsampled({mech.name}, p=1)", [base], True)
    return Mechanism(f"uniform_subsampled({mech.name}, p={p})", [SymmetricHull(Subsampled(base, p, "remove"))], True)


def subsampled_step(record, rate, sampling: str) -> Mechanism:
    """The engine step of ``record`` on a subsample of rate ``rate``, asked of its identity fact: G_mu (noise
    multiplier 1/mu) or the Laplace pair (its eps) by their tuned pairs (``numeric.pld_mechanisms``), any
    other record ``from_record`` models by the generic wrapper here; Poisson (both directions) or uniform (fixed
    size, the symmetric pair of C_p(f)).  One place for the CLI and the spec files."""
    from derive.mechanisms import facts as K
    if sampling not in ("poisson", "uniform"):
        raise ValueError(f"sampling must be poisson or uniform, got {sampling}")
    mu, eps = record.fact(K.GDP_MU), record.fact(K.LAPLACE_EPS)
    if mu is not None:
        step = subsampled_gaussian if sampling == "poisson" else uniform_subsampled_gaussian
        return step(str(rate), str(1 / exact(_number(mu, "mu", record), "mu")))
    if eps is not None:
        step = subsampled_laplace if sampling == "poisson" else uniform_subsampled_laplace
        return step(str(rate), str(exact(_number(eps, "eps", record), "eps")))
    base = from_record(record, strict=False)
    if base is None:
        raise ValueError(f"{record}: the engine has no privacy-loss model for this record, so no subsampled step")
    return (poisson_subsampled if sampling == "poisson" else uniform_subsampled)(base, str(rate))
