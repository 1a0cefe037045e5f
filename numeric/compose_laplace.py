"""Laplace^(x)k exactly: the composed privacy loss as a spline with rational pieces (issue #9 item 2).

Derived here (no formula of the seeds is involved beyond the Laplace mechanism itself, seed 000
Sec. 2 / catalog 000 "Laplace"; the composition is the convolution of losses, seed 004 Sec. 3).

The pair and its loss
---------------------
Convention of ``numeric.compose_exact``: P = Lap(eps, 1), Q = Lap(0, 1), L = log dP/dQ =
clamp(2x - eps, -eps, eps).  In the unit x = L / eps one step's loss has, under Q, the atom -1 with
mass 1/2, the atom +1 with mass e^{-eps}/2, and the density (eps/4) e^{-eps (x + 1)/2} on (-1, 1).
With a = eps/2 this is

    Q(dx) = e^{-a} e^{-a x} nu(dx),   P(dx) = e^{-a} e^{+a x} nu(dx),
    nu = (1/2) delta_{-1} + (1/2) delta_{+1} + (eps/4) 1_{(-1,1)}(x) dx,

(the P line is dP = e^L dQ).  nu is symmetric and has rational weights when eps is rational, and the
exponential tilt factors out of convolutions: the k-fold loss has Q-law e^{-ak} e^{-ax} nu^{*k}(dx)
and P-law e^{-ak} e^{+ax} nu^{*k}(dx).

nu^{*k}, exactly
----------------
Expanding the k-fold product by the number m of steps in the continuous part,

    nu^{*k} = 2^{-k} sum_J C(k, J) delta_{2J - k}
              + sum_{m=1}^{k} C(k, m) (eps/4)^m 2^{-(k-m)} (delta_{-1} + delta_{+1})^{*(k-m)} * U^{*m},

with U the Lebesgue measure on (-1, 1).  U^{*m} has the density
sum_l (-1)^l C(m, l) (x + m - 2l)_+^{m-1} / (m-1)!, so the continuous part of nu^{*k} is a spline of
degree k - 1 with knots at x_j = 2j - k, j = 0..k:

    rho(x) = sum_j sum_m c_m D_{m,j} (x - x_j)_+^{m-1},
    c_m = C(k, m) (eps/2)^m / ((m-1)! 2^k),   D_{m,j} = [w^j] (1 + w)^{k-m} (1 - w)^m.

On the interval I_J = [x_J, x_J + 2] it is the polynomial rho_J(z), z = x - x_J in [0, 2], and

    rho_J(z) = rho_{J-1}(z + 2) + N_J(z),   N_J(z) = sum_m c_m D_{m,J} z^{m-1}.

These pieces are built in exact rational arithmetic (FLINT's fmpq_poly), so the cancellation that
makes the truncated-power form unusable in floating point (the terms grow like 20^k at eps = 0.1)
never happens.  The symmetry of nu gives rho_{k-1-J}(z) = rho_J(2 - z), so only the lower half of
the pieces is built.

Tails
-----
With atoms A_J = C(k, J) 2^{-k}, the Q- and P-masses of the atom x_J are A_J e^{-2aJ} and
A_J e^{2a(J-k)}, and those of [x_J, x_J + z0] inside the interval I_J are e^{-2aJ} int_0^z0 e^{-az}
rho_J and e^{2a(J-k)} int_0^z0 e^{az} rho_J.  These integrals are taken as int_0^z0 E(z) rho_J(z)
dz with E the Taylor polynomial of e^{-+az} of a degree M where its relative error on [0, 2] is
below eta = (2a)^{M+1}/(M+1)! e^{4a} <= 2^{-prec-8}; since rho_J >= 0 (a density) the integral of
E rho_J is within the relative error eta of the true one, and the ball is widened by that factor
(``_Balls._exp_poly``).  The product, antiderivative and evaluation are arb_poly operations.

Every tail is taken from the side with fewer pieces: for x0 <= 0 the mass of (-inf, x0) directly
(a sum of positive terms), for x0 > 0 by the mirror P(L > t) = Q(L < -t) (a symmetric pair), and
the remaining tails as 1 minus those; the hockey stick P(L > t) - e^t Q(L > t), t >= 0, is the
difference of two such sums.

Arithmetic: arb balls (FLINT), at a precision raised until the ball's relative radius is below the
working precision of mpmath (so cancellation in the alternating coefficients of a piece, or in
1 - Q(L < t), costs bits, never digits); the returned mpf is the ball's midpoint.  The digits are
then confirmed by ``numeric.precision.verified`` (two working precisions), like every exact route.

Cost: building the pieces is O(k^2) operations on integer polynomials (FLINT) with a common
denominator, done once per (eps, k) and cached; a tail is a few arb_poly operations per piece below
its point.  Measured (BENCHMARKS.md): eps of 100 steps of Laplace(0.1) at delta = 1e-6 to 15
digits in about 0.03 s from a cold cache; k = 500 in 1.7 s.
"""

from __future__ import annotations

import math
from functools import lru_cache

import mpmath

from derive.errors import PrecisionExhausted

#: the largest ball precision (bits) a single tail may need before giving up
MAX_PREC_BITS = 1 << 16


def _flint():
    from .arb import _flint as load
    return load()


class LaplaceSpline:
    """The exact spline pieces of nu^{*k} for eps = ``e`` (an fmpq) and k steps; see the module
    docstring.  Pieces are built lazily, bottom up, and cached; ball versions per precision."""

    def __init__(self, e, k: int):
        flint = _flint()
        self.flint = flint
        self.e, self.k = e, k
        self.a = e / 2
        one_plus, one_minus = flint.fmpz_poly([1, 1]), flint.fmpz_poly([1, -1])
        # D_m(w) = (1 + w)^{k-m} (1 - w)^m for m = 1..k: each from the last by * (1 - w) / (1 + w)
        kraw = [None] * (k + 1)
        poly = one_plus ** (k - 1) * one_minus
        kraw[1] = poly
        for m in range(2, k + 1):
            poly, rem = divmod(poly * one_minus, one_plus)
            if rem != 0:                                  # pragma: no cover - (1 + w) divides exactly
                raise ArithmeticError("Krawtchouk recursion: inexact division")
            kraw[m] = poly
        self.kraw = kraw
        # c_m = C(k, m) (p/(2q))^m / ((m-1)! 2^k) over the common denominator (2q)^k (k-1)! 2^k
        p, q = int(e.p), int(e.q)
        self.den = (2 * q) ** k * math.factorial(k - 1) * 2 ** k
        num, cm = [0] * (k + 1), k * p * (2 * q) ** (k - 1) * math.factorial(k - 1)
        num[1] = cm
        for m in range(2, k + 1):
            cm, rem = divmod(cm * (k - m + 1) * p, m * (m - 1) * 2 * q)     # exact: c_m den is an integer
            if rem:                                       # pragma: no cover
                raise ArithmeticError("Laplace spline: c_m den is not an integer")
            num[m] = cm
        self.num = num
        self.pieces = []                      # den * rho_J as fmpz_poly, J = 0, 1, ...
        self.half = (k - 1) // 2              # the pieces J <= half suffice (mirror)
        self._shift = flint.fmpz_poly([2, 1])
        self._balls = {}                      # prec -> _Balls

    def piece(self, J: int):
        """den * rho_J (an integer polynomial), J <= half."""
        flint = self.flint
        while len(self.pieces) <= J:
            j = len(self.pieces)
            new = flint.fmpz_poly([self.num[m] * int(self.kraw[m][j]) for m in range(1, self.k + 1)])
            self.pieces.append(new if j == 0 else self.pieces[-1](self._shift) + new)
        return self.pieces[J]

    def start_prec(self, need: int) -> int:
        """A ball precision >= need: the smallest one already built (verified() asks at two working
        precisions; one set of balls at the higher of them serves both), else a new one with room."""
        have = [p for p in self._balls if p >= need]
        return min(have) if have else 64 * -(-(2 * need) // 64)

    def balls(self, prec: int) -> "_Balls":
        b = self._balls.get(prec)
        if b is None:
            b = self._balls[prec] = _Balls(self, prec)
        return b


class _Balls:
    """Ball versions of the pieces' tilted integrals and the cumulative masses at one precision."""

    def __init__(self, spline: LaplaceSpline, prec: int):
        self.s, self.prec = spline, prec
        flint = spline.flint
        with flint.ctx.workprec(prec):
            self.a = flint.arb(spline.a)
            self.e = flint.arb(spline.e)
            self.p_top = (-2 * self.a * spline.k).exp()  # e^{-2ak}
            self.exp_polys = {-1: self._exp_poly(-1), +1: self._exp_poly(+1)}
        self.integrals = {}       # (J, sign) -> antiderivative of rho_J(z) E_sign(z), an arb_poly
        self.cum = [(flint.arb(0), flint.arb(0))]    # (Q, P) masses of x < x_J (atoms and pieces)

    def _exp_poly(self, sign):
        """(E, widen): E(z) = sum_{j <= M} (sign a z)^j / j!, the Taylor polynomial of e^{sign a z}, and
        the ball [1 - 2 eta, 1 + 2 eta] with eta >= sup_{0 <= z <= 2} |e^{saz} - E(z)| / e^{saz}.

        Lagrange: |e^{saz} - E(z)| <= (az)^{M+1} / (M+1)! e^{az}, and e^{saz} >= e^{-az}, so
        eta = (2a)^{M+1} / (M+1)! e^{4a} bounds the relative error at every z in [0, 2].  Because
        rho >= 0, int_0^z0 E rho lies within eta of int_0^z0 e^{saz} rho in relative terms, so the
        integral of E rho times the ball contains the true integral (eta <= 1/4 here)."""
        flint = self.s.flint
        a = float(self.s.a)
        log_2a = math.log(2 * int(self.s.a.p)) - math.log(int(self.s.a.q))     # exact a, also below 1e-308
        target = -(self.prec + 8) * math.log(2)
        M = 1
        while (M + 1) * log_2a - math.lgamma(M + 2) + 4 * a > target:
            M += 1
        coeffs, c = [], flint.arb(1)
        for j in range(M + 1):
            coeffs.append(c)
            c = c * sign * self.a / (j + 1)
        eta = ((2 * self.a) ** (M + 1) / flint.arb(M + 2).gamma() * (4 * self.a).exp()).abs_upper()
        return flint.arb_poly(coeffs), flint.arb(1, 2 * eta)

    def integral(self, J, z0, sign):
        """int_0^z0 e^{sign a z} rho_J(z) dz (ball; z0 a ball in [0, 2])."""
        flint = self.s.flint
        key = (J, sign)
        with flint.ctx.workprec(self.prec):
            anti = self.integrals.get(key)
            if anti is None:
                E, _ = self.exp_polys[sign]
                anti = (flint.arb_poly(self.s.piece(J)) * E).integral() * (1 / flint.arb(self.s.den))
                self.integrals[key] = anti
            return anti(z0) * self.exp_polys[sign][1]

    def weights(self, J):
        """(Q, P) factors of atom/piece J: e^{-2aJ}, e^{2a(J-k)}."""
        flint = self.s.flint
        with flint.ctx.workprec(self.prec):
            return (-2 * self.a * J).exp(), (2 * self.a * J).exp() * self.p_top

    def atom(self, J):
        flint = self.s.flint
        wq, wp = self.weights(J)
        with flint.ctx.workprec(self.prec):
            A = flint.arb(flint.fmpq(math.comb(self.s.k, J), 2 ** self.s.k))
            return A * wq, A * wp

    def below(self, J):
        """(Q, P) masses of x < x_J, J <= half + 1 (sums of positive terms)."""
        flint = self.s.flint
        while len(self.cum) <= J:
            j = len(self.cum) - 1
            aq, ap = self.atom(j)
            wq, wp = self.weights(j)
            two = flint.arb(2)
            mq, mp_ = self.integral(j, two, -1), self.integral(j, two, +1)
            with flint.ctx.workprec(self.prec):
                q, p = self.cum[-1]
                self.cum.append((q + aq + wq * mq, p + ap + wp * mp_))
        return self.cum[J]


@lru_cache(maxsize=4)
def spline(eps_p: int, eps_q: int, k: int) -> LaplaceSpline:
    """The spline of k steps of Laplace(eps_p/eps_q), cached (4 of them: at k = 500 one holds about
    150 MB of exact pieces and balls)."""
    return LaplaceSpline(_flint().fmpq(eps_p, eps_q), k)


def _to_arb(flint, x):
    """An mpf as an exact ball."""
    x = mpmath.mpf(x)
    if x == 0:
        return flint.arb(0)
    sign, man, exp, _ = x._mpf_
    return flint.arb((-int(man) if sign else int(man), int(exp)))


def _to_mpf(b):
    man, exp = b.mid().man_exp()
    return mpmath.mpf((int(man), int(exp)))


def accurate(fn, spl: LaplaceSpline):
    """fn(prec) -> ball, at rising precision until the ball's relative radius is below mpmath's
    working precision (or it is an exact ball); its midpoint as an mpf at the working precision."""
    flint = _flint()
    want = mpmath.mp.prec + 4
    prec = spl.start_prec(mpmath.mp.prec + 24)
    while True:
        with flint.ctx.workprec(prec):
            b = fn(prec)
            if b.rad() == 0 or (not b.contains(0) and b.rad() * flint.arb(2) ** want <= abs(b.mid())):
                return _to_mpf(b)
        if prec >= MAX_PREC_BITS:
            raise PrecisionExhausted(f"a Laplace composition tail needs more than {MAX_PREC_BITS} bits")
        prec = min(2 * prec, MAX_PREC_BITS)


class Tails:
    """Ball-valued tails of the k-fold loss L (in eps units x = L/eps) at one precision; ``t`` is an
    mpf (the loss, not x).  Strict tails of the finite part; Q(L = +-inf) = P(L = +-inf) = 0."""

    def __init__(self, spl: LaplaceSpline, prec: int):
        self.s, self.b, self.prec = spl, spl.balls(prec), prec
        self.flint = spl.flint
        self.k = spl.k

    def knot(self, t):
        """(J0, z0 mpf, at_knot) for x0 = t/eps: J0 = floor((x0 + k)/2), z0 = x0 + k - 2 J0."""
        x0 = t / (mpmath.mpf(int(self.s.e.p)) / int(self.s.e.q))
        J0 = int(mpmath.floor((x0 + self.k) / 2))
        z0 = x0 + self.k - 2 * J0
        tol = mpmath.mpf(2) ** (-(mpmath.mp.prec // 2))
        if abs(z0 - 2) < tol:
            return J0 + 1, mpmath.mpf(0), True
        return J0, z0, abs(z0) < tol

    def below(self, t):
        """(Q, P) balls of the masses of L < t, t <= 0 (lower half: pieces J <= half)."""
        flint, b = self.flint, self.b
        zero = flint.arb(0)
        J0, z0m, at_knot = self.knot(t)
        if J0 < 0:
            return zero, zero
        q, p = b.below(J0)
        if at_knot:
            return q, p
        aq, ap = b.atom(J0)
        wq, wp = b.weights(J0)
        z0 = _to_arb(flint, t) / b.e + (self.k - 2 * J0)
        return q + aq + wq * b.integral(J0, z0, -1), p + ap + wp * b.integral(J0, z0, +1)

    def atom_q(self, t):
        J0, _, at_knot = self.knot(t)
        if not at_knot or not 0 <= J0 <= self.k:
            return self.flint.arb(0)
        return self.b.atom(J0)[0]

    def q_below(self, t):
        if t <= 0:
            return self.below(t)[0]
        return 1 - self.below(-t)[1] - self.atom_q(t)

    def q_above(self, t):
        if t >= 0:
            return self.below(-t)[1]
        return 1 - self.below(t)[0] - self.atom_q(t)

    def p_above(self, t):
        return self.q_below(-t)

    def p_below(self, t):
        return self.q_above(-t)

    def hockey(self, t):
        """P(L > t) - e^t Q(L > t) (the finite hockey stick)."""
        if t >= 0:
            q, p = self.below(-t)
            return q - (_to_arb(self.flint, t)).exp() * p
        return self.p_above(t) - _to_arb(self.flint, t).exp() * self.q_above(t)


def tail(spl: LaplaceSpline, name: str, t):
    """The tail ``name`` (q_below, q_above, p_above, p_below, hockey) at the mpf t, as an mpf with
    the working precision's digits right (ball radius below it)."""
    return accurate(lambda prec: getattr(Tails(spl, prec), name)(t), spl)
