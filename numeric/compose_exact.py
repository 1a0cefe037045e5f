"""Exact composition of trade-off functions (issue #9 item 2; seed 004 / catalog 004 Sec. 3).

Three closed routes, each evaluated with verified digits (``numeric.precision.verified``: the
whole computation is run at two rising precisions and the digits that agree are returned):

* **GDP** (Dong-Roth-Su, Cor. 3.3; catalog 004 DRS-Cor3.3): G_mu1 (x) ... (x) G_muk =
  G_sqrt(mu1^2 + ... + muk^2).  ``gdp`` returns the Gaussian record with mu replaced by the exact
  SymPy expression sqrt(sum mu_i^2), so tradeoff, power, profile and LaTeX are the record's own.
* **(eps, delta)^(x)k, the binomial route** (Kairouz-Oh-Viswanath 2017; catalog 004 "KOV17"):
  one step is the 4-point pair; k steps have privacy loss L = (k - 2I) eps with probability
  (1 - delta)^k, where I counts the steps that came out on the "wrong" side, and L = +inf
  otherwise.  I ~ Bin(k, a) under P and Bin(k, b) under Q, with a = 1/(1 + e^eps), b = 1 - a.
  The Neyman-Pearson test rejects for small I and randomises at the boundary; delta(eps) is the
  hockey stick summed over the atoms with non-negative terms P(L)(1 - e^{eps - L}).  Pure eps-DP
  and randomized response are delta = 0.  The printed closed form of the catalog (Kairouz-Oh-
  Viswanath) is not used here: it is the independent reference of claim KOV17:closed-form
  (``proofs_check.claims_composition.kov_printed``).  The law lives in ``numeric.lattice_law``
  (``BinomialLaw``: O(sqrt(k)) fixed-point terms per query, k <= 10^7); lists of f_{eps,delta} steps with
  different parameters are its ``lattice_*`` functions below (one binomial when the eps agree, the
  ``ConvolvedLaw`` on the common lattice of the eps otherwise).
* **Laplace^(x)k** (derived here, ``numeric.compose_laplace``): in the unit x = L/eps one step's
  loss law is an exponential tilt e^{-+ eps x/2} of one symmetric measure with rational weights
  (atoms at +-1 and a uniform part on (-1, 1)); the k-fold convolution of that measure is a spline
  of degree k - 1 with knots at 2j - k, whose pieces are built in exact rational arithmetic, and
  every tail is an integral of a tilted piece, evaluated in arb balls.  Exact for k <= 500
  (MAX_K_LAPLACE; the build is O(k^2) rational polynomial operations: 0.04 s at k = 100, 1.7 s at
  k = 500).
* **eps = 0** (any of the three): L = 0 with probability (1 - delta)^k, else infinite.

Convention (the same as ``numeric.pld``): L = log dP/dQ; the test rejects for large L; its type-I
error alpha is measured under Q and its type-II error beta under P, so f(alpha) = beta and
delta(eps) = sup_S P(S) - e^eps Q(S) = P(L = inf) + E_P[(1 - e^{eps - L}); eps < L < inf].
These mechanisms are symmetric, so this is their trade-off function in either reading.

Exact inputs: every parameter is a decimal string (or int, Fraction, Rational) taken exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import mpmath
import sympy as sp

from derive.domains import parse_in
from derive.errors import DomainError
from derive.mechanisms import facts as K

from .bridge import Exact
from .display import ResultDisplay
from .lattice_law import BinomialLaw, ConvolvedLaw, convolved  # noqa: F401  (ConvolvedLaw: the class, for callers)
from .precision import check_digits, verified
from .solvers import bisect, integer_midpoint

#: largest k of the binomial route (the count domain's top: its sums cost O(sqrt(k)) fixed-point terms, 0.2 s
#: for eps(delta) at k = 10^7, numeric.lattice_law) and of the Laplace route (its exact pieces cost O(k^2)
#: big-integer polynomial operations: 1.7 s and 175 MB at k = 500)
MAX_K_BINOMIAL = 10**7
MAX_K_LAPLACE = 500
#: the Laplace route's truncated exponentials need ~e * eps terms and cancel ~eps * 1.44 bits; beyond
#: this the engine answers
MAX_EPS_LAPLACE = 100


def _mp(r: sp.Rational):
    """A Rational (or int) at the working precision."""
    r = sp.Rational(r)
    return mpmath.mpf(int(r.p)) / int(r.q)


# ----------------------------------------------------------------------------------------------
# GDP


def gdp(mus):
    """The record of G_mu1 (x) ... (x) G_muk = G_sqrt(sum mu_i^2) (DRS Cor. 3.3), mu exact.

    ``mus`` is a list of mu values (decimal strings), or of (mu, count) pairs.  The record's
    expressions have no free parameter but alpha; ``record.notes`` holds the composed mu."""
    from derive import symbols as sy
    from derive.mechanisms import gaussian
    mu = gdp_mu(mus)
    base = gaussian()
    sub = {sy.mu: mu}
    return replace(base, name="gaussian-composition", parameters=(), values={},
                   tradeoff=base.tradeoff.xreplace(sub), power=base.power.xreplace(sub),
                   paper=base.paper.xreplace(sub), profile=base.profile.xreplace(sub),
                   domain={}, notes=f"mu = {mu}", label=f"mu={mu}",
                   facts={k: (v[0].xreplace(sub), *v[1:]) for k, v in base.facts.items()},
                   citation=base.citation + "; Dong-Roth-Su Cor. 3.3 (composition)")


def gdp_mu(mus) -> sp.Expr:
    """sqrt(sum count * mu^2) exactly (a SymPy expression); ``mus`` as for ``gdp``."""
    total = sp.Integer(0)
    for item in mus:
        mu, count = item if isinstance(item, tuple) else (item, 1)
        total += parse_in("k", count, "k") * parse_in("mu", mu, "mu") ** 2
    return sp.sqrt(total)


# ----------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class ExactValue(ResultDisplay):
    """A value of an exact route: ``value`` has ``digits`` verified digits; ``complement`` is
    1 - value computed without subtraction (power at --alpha), when it applies."""
    value: object
    complement: object = None
    route: str = ""


# ----------------------------------------------------------------------------------------------
# the generic Neyman-Pearson / hockey-stick machinery on an exact loss law


class _Law:
    """The law of a composed privacy loss L = log dP/dQ, at the working precision.

    Subclasses give ``atoms()`` (finite atom locations, ascending, as mpf), ``p_inf()`` (P-mass at
    +inf), ``q_minf()`` (Q-mass at -inf) and the strict tails of the finite part:
    ``p_above(t) = P(t < L < inf)``, ``p_below(t) = P(-inf < L < t)``, ``q_above``, ``q_below``,
    and ``atom(t) = (P(L = t), Q(L = t))``.  ``continuous`` says whether L has a density part
    (between atoms the tails are then continuous and strictly monotone)."""

    continuous = False

    def q_ge(self, t):
        return self.q_above(t) + self.atom(t)[1]

    # -- f(alpha)
    def tradeoff(self, alpha):
        """(beta, power) at type-I error alpha (mpf), randomising at an atom."""
        one = mpmath.mpf(1)
        if alpha == 0:
            p_inf = self.p_inf()
            return self.p_below(mpmath.inf), p_inf
        if alpha >= one - self.q_minf():
            return mpmath.mpf(0), one
        atoms = self.atoms()
        # the largest atom index j with Q(L >= a_j) >= alpha (Q(L >= a_0) = 1 - Q(-inf) > alpha)
        lo, hi = 0, len(atoms) - 1
        if self.q_ge(atoms[hi]) >= alpha:
            lo = hi
        else:
            lo, hi = bisect(lambda j: self.q_ge(atoms[j]) >= alpha, lo, hi,
                            stop=_adjacent, mid=integer_midpoint)
        a = atoms[lo]
        above = self.q_above(a)
        if above <= alpha or not self.continuous or lo == len(atoms) - 1:
            # randomise at the atom a: reject L > a, and L = a with probability gamma
            pa, qa = self.atom(a)
            gamma = (alpha - above) / qa if qa > 0 else mpmath.mpf(0)
            gamma = min(max(gamma, mpmath.mpf(0)), one)
            beta = self.p_below(a) + (one - gamma) * pa
            power = self.p_inf() + self.p_above(a) + gamma * pa
            return beta, power
        # inside (a, next atom): Q(L > t) is continuous and decreasing there
        b = atoms[lo + 1]
        t = _solve_decreasing(lambda x: self.q_above(x), alpha, a, b)
        return self.p_below(t), self.p_inf() + self.p_above(t)

    # -- delta(eps)
    def delta(self, eps):
        return self.p_inf() + self.hockey_finite(eps)

    def hockey_finite(self, eps):
        """E_P[(1 - e^{eps - L}); eps < L < inf] = P(L > eps) - e^eps Q(L > eps) (finite part)."""
        return self.p_above(eps) - mpmath.exp(eps) * self.q_above(eps)

    # -- eps(delta)
    def eps(self, delta):
        """inf{eps >= 0: delta(eps) <= delta}; inf when delta < P(L = inf)."""
        p_inf = self.p_inf()
        if delta < p_inf:
            return mpmath.inf
        atoms = self.atoms()
        top = atoms[-1]
        if delta == p_inf:
            return max(top, mpmath.mpf(0))
        zero = mpmath.mpf(0)
        # atoms above 0; the answer lies in [0, top)
        cand = [zero] + [a for a in atoms if a > 0]
        lo, hi = 0, len(cand) - 1            # delta(cand[lo]) > delta >= delta(cand[hi]) = p_inf
        lo, hi = bisect(lambda j: self.delta(cand[j]) > delta, lo, hi, stop=_adjacent, mid=integer_midpoint)
        # delta(0) is looked at last, and only when the search ended next to 0 (it is the costliest
        # query of a continuous law: every piece below the middle)
        if lo == 0 and self.delta(zero) <= delta:
            return zero
        a, b = cand[lo], cand[hi]
        if not self.continuous:
            # on [a, b) delta(eps) = p_inf + A - e^eps B with A, B the masses of L >= b
            pb, qb = self.atom(b)
            A = self.p_above(b) + pb
            B = self.q_above(b) + qb
            return mpmath.log((p_inf + A - delta) / B)
        return _solve_decreasing(self.delta, delta, a, b)


def _solve_decreasing(g, target, a, b):
    """t in (a, b) with g(t) = target, g continuous and decreasing there (g(a+) >= target >= g(b-)):
    a few bisections to a tame bracket, then ``numeric.solvers.crossing`` (Anderson-Bjorck, its sign change
    checked, bisection otherwise) on the residual relative to the target, (g - target)/|target|.

    Relative, because mpmath's Anderson-Bjorck stops as soon as |residual| < tol: with the absolute
    residual g - target and a tolerance of 2^(16 - 2 prec) every point of a bracket at delta = 1e-300
    passed at once, unchecked (``subsample gaussian --mu 1 --p 0.1 --at-delta 1e-300`` printed
    35.0850563823960 as 15 verified digits against 35.0839820652942; tests/test_root_tiny_target.py)."""
    from .solvers import crossing
    above = lambda x: g(x) > target           # noqa: E731
    a, b = bisect(above, a, b, steps=12)      # a few bisections make the bracket tame
    scale = abs(target) if target != 0 else mpmath.mpf(1)
    return crossing(lambda x: (g(x) - target) / scale, a, b, left_positive=True)


def _adjacent(lo, hi):
    """The stop of a bisection over indices: the ends are neighbours."""
    return hi - lo <= 1


# ----------------------------------------------------------------------------------------------
# binomial route: (eps, delta)^(x)k


# (eps, delta)^(x)k and the lists of f_{eps,delta} steps: BinomialLaw and ConvolvedLaw of numeric.lattice_law
# (one source of truth; imported at the top)


# ----------------------------------------------------------------------------------------------
# Laplace route (the spline of numeric.compose_laplace)


class LaplaceLaw(_Law):
    """L = sum of k Laplace(eps) steps' losses: atoms at (2J - k) eps and a spline density between
    them, built exactly by ``numeric.compose_laplace`` (see its docstring for the derivation)."""

    continuous = True

    def __init__(self, eps: sp.Rational, k: int):
        from . import compose_laplace as CL
        self.k = k
        self.e = _mp(eps)
        eps = sp.Rational(eps)
        self._spline = CL.spline(int(eps.p), int(eps.q), k)
        self._tail = CL.tail

    def atoms(self):
        return [j * self.e for j in range(-self.k, self.k + 1, 2)]

    def p_inf(self):
        return mpmath.mpf(0)

    q_minf = p_inf

    def q_above(self, t):
        return self._tail(self._spline, "q_above", t)

    def q_below(self, t):
        return self._tail(self._spline, "q_below", t)

    def p_above(self, t):
        if t == mpmath.inf:
            return mpmath.mpf(0)
        return self._tail(self._spline, "p_above", t)

    def p_below(self, t):
        if t == mpmath.inf:
            return mpmath.mpf(1)
        return self._tail(self._spline, "p_below", t)

    def hockey_finite(self, eps):
        return self._tail(self._spline, "hockey", eps)

    def atom(self, t):
        j = t / self.e
        n = int(mpmath.nint(j))
        if abs(j - n) > mpmath.mpf(2) ** (-mpmath.mp.prec // 2) or (n - self.k) % 2 or abs(n) > self.k:
            return mpmath.mpf(0), mpmath.mpf(0)
        J = (n + self.k) // 2
        w = mpmath.binomial(self.k, J) / mpmath.mpf(2) ** self.k
        return w * mpmath.exp((J - self.k) * self.e), w * mpmath.exp(-J * self.e)


# ----------------------------------------------------------------------------------------------
# public API


def __getattr__(name):
    """``ROUTES``: the table's mechanisms whose records declare a fact with an exact route (computed on
    first use: it builds the symbolic records)."""
    if name == "ROUTES":
        from derive.mechanisms.table import TABLE
        routes = []
        for row in TABLE:
            try:
                record = row.build()
            except TypeError:                    # a row whose symbolic record needs an option (noise family)
                continue
            if any(key in record.facts for key in _ROUTE_FACTS):
                routes.append(row.name)
        globals()["ROUTES"] = tuple(routes)
        return globals()["ROUTES"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ZeroLossLaw(_Law):
    """eps = 0: every step's finite loss is 0, so L = 0 with probability (1 - delta)^k and +inf
    (under P) / -inf (under Q) otherwise; delta = 0 is f = Id."""

    def __init__(self, delta: sp.Rational, k: int):
        d = _mp(delta)
        self.keep = mpmath.exp(k * mpmath.log1p(-d)) if d < 1 else mpmath.mpf(0)
        self.lost = -mpmath.expm1(k * mpmath.log1p(-d)) if d < 1 else mpmath.mpf(1)

    def atoms(self):
        return [mpmath.mpf(0)]

    def p_inf(self):
        return self.lost

    q_minf = p_inf

    def p_above(self, t):
        return self.keep if t < 0 else mpmath.mpf(0)

    def p_below(self, t):
        return self.keep if t > 0 else mpmath.mpf(0)

    q_above, q_below = p_above, p_below

    def atom(self, t):
        return (self.keep, self.keep) if t == 0 else (mpmath.mpf(0), mpmath.mpf(0))


#: the routes' labels (``ExactValue.route``, printed by ``compose fdp``)
GDP, BINOMIAL, LAPLACE_LAW = "gdp", "binomial", "laplace"
#: the identity facts (derive.mechanisms.facts) an exact route serves: G_mu (gdp), f_{eps,delta} (binomial),
#: the Laplace pair (laplace)
_ROUTE_FACTS = (K.GDP_MU, K.EPS_DELTA, K.LAPLACE_EPS)


def _record(mechanism, params=None):
    """The trade-off record: ``mechanism`` itself, or (the older calling convention) a table name built
    with ``params`` ({parameter: exact value})."""
    if isinstance(mechanism, str):
        from derive.mechanisms.table import lookup
        row = lookup(mechanism)
        return row.build(dict(params)) if params is not None else row.build()
    return mechanism


def _route(record):
    """("gdp", mu), ("binomial", (eps, delta)) or ("laplace", eps) from the record's identity fact, the
    values exact Rationals; None when the record has none of them (or a value that is not rational)."""
    mu, pair, eps = (record.fact(key) for key in _ROUTE_FACTS)
    kind, value, parts = ((GDP, mu, (mu,)) if mu is not None else (BINOMIAL, pair, pair) if pair is not None
                          else (LAPLACE_LAW, eps, (eps,)))
    if value is None or not all(getattr(v, "is_Rational", False) for v in parts):
        return None
    return kind, (tuple(pair) if kind == BINOMIAL else value)


def _law(kind: str, value, k: int):
    eps, delta = value if kind == BINOMIAL else (value, sp.S.Zero)
    if eps == 0:
        return lambda: ZeroLossLaw(delta, k)
    if kind == BINOMIAL:
        return lambda: BinomialLaw(eps, delta, k)
    return lambda: LaplaceLaw(eps, k)


def available(mechanism, k: int, params: dict | None = None) -> bool:
    """Whether an exact route composes ``k`` copies of ``mechanism`` (a record, or a table name with its
    ``params``) within the route's size limits: every G_mu record (GDP), k <= MAX_K_BINOMIAL copies of an
    f_{eps,delta} record (binomial), k <= MAX_K_LAPLACE copies of a Laplace pair with eps <= MAX_EPS_LAPLACE."""
    route = _route(_record(mechanism, params))
    if route is None:
        return False
    kind, value = route
    if kind == GDP:
        return True
    if kind == BINOMIAL:
        return k <= MAX_K_BINOMIAL
    return k <= MAX_K_LAPLACE and value <= MAX_EPS_LAPLACE


def _check(record, k):
    """(k as an int, the route) or DomainError: no route, or beyond the route's size limits."""
    k = int(parse_in("count", k, "k"))
    route = _route(record)
    if route is None:
        raise DomainError("mechanism", str(record), "a record with an exact composition route (G_mu, "
                          "f_{eps,delta} or the Laplace pair, rational parameters)")
    kind, value = route
    limit = MAX_K_LAPLACE if kind == LAPLACE_LAW else MAX_K_BINOMIAL
    if kind != GDP and k > limit:
        raise DomainError("k", k, f"an integer in [1, {limit}] for the exact {record.name} route")
    if kind == LAPLACE_LAW and value > MAX_EPS_LAPLACE:
        from derive.exact import _show
        raise DomainError("eps", _show(value), f"[0, {MAX_EPS_LAPLACE}] for the exact laplace route")
    return k, route


def gdp_tradeoff(mus, alpha, digits: int = 15) -> ExactValue:
    """f(alpha) and 1 - f(alpha) of G_mu1 x ... x G_muk (``mus`` as for ``gdp``)."""
    from . import mp
    rec = gdp(mus)
    return ExactValue(mp.tradeoff(rec, alpha, digits), mp.power(rec, alpha, digits), GDP)


def gdp_delta(mus, eps, digits: int = 15) -> ExactValue:
    from . import mp
    return ExactValue(mp.profile_delta(gdp(mus), eps, digits), None, GDP)


def gdp_eps(mus, delta, digits: int = 15) -> ExactValue:
    from . import mp
    return ExactValue(mp.profile_eps(gdp(mus), delta, digits), None, GDP)


def tradeoff(mechanism, params, k, alpha, digits: int = 15) -> ExactValue:
    """f(alpha) of the k-fold composition, with the power 1 - f(alpha) (no subtraction).  ``mechanism``:
    the step's record (``params`` None), or a table name and its ``params``."""
    check_digits(digits)
    k, (kind, value) = _check(_record(mechanism, params), k)
    if kind == GDP:
        return gdp_tradeoff([(value, k)], alpha, digits)
    return _tradeoff_of(_law(kind, value, k), kind, alpha, digits)


def _tradeoff_of(make, kind, alpha, digits):
    a = parse_in("alpha", alpha, "alpha")

    def run(which):
        def compute():
            b, p = make().tradeoff(_mp(a))
            value = b if which == 0 else p
            return Exact(0) if value == 0 else (Exact(1) if value == 1 and a == 0 and which == 1 else value)
        return compute
    beta = verified(run(0), digits)
    power = verified(run(1), digits)
    return ExactValue(beta, power, kind)


def delta(mechanism, params, k, eps, digits: int = 15) -> ExactValue:
    """delta(eps) of the k-fold composition (the hockey-stick divergence); arguments as for ``tradeoff``."""
    check_digits(digits)
    k, (kind, value) = _check(_record(mechanism, params), k)
    if kind == GDP:
        return gdp_delta([(value, k)], eps, digits)
    return _delta_of(_law(kind, value, k), kind, eps, digits)


def _delta_of(make, kind, eps, digits):
    e = parse_in("at_eps", eps, "eps")

    def compute():
        v = make().delta(_mp(e))
        return Exact(0) if v == 0 else v
    return ExactValue(verified(compute, digits), None, kind)


def eps(mechanism, params, k, delta_, digits: int = 15) -> ExactValue:
    """eps(delta) = inf{eps >= 0 : delta(eps) <= delta} of the k-fold composition; arguments as for
    ``tradeoff``."""
    check_digits(digits)
    k, (kind, value) = _check(_record(mechanism, params), k)
    if kind == GDP:
        return gdp_eps([(value, k)], delta_, digits)
    return _eps_of(_law(kind, value, k), kind, delta_, digits)


def _eps_of(make, kind, delta_, digits):
    d = parse_in("at_delta", delta_, "delta")

    def compute():
        v = make().eps(_mp(d))
        return Exact(0) if v == 0 else v
    return ExactValue(verified(compute, digits), None, kind)


# ----------------------------------------------------------------------------------------------
# lists of f_{eps,delta} steps (numeric.lattice_law): the lattice route

LATTICE = "lattice"


def lattice_components(entries):
    """[(record, count)] -> (components, zero): components [(eps, count, [(delta, count), ...])] merged by
    eps (Fractions, eps > 0, ascending) and zero the [(delta, count)] of the eps = 0 steps; None when a record
    has no rational EPS_DELTA fact."""
    from fractions import Fraction
    groups, zero = {}, []
    for record, count in entries:
        pair = record.fact(K.EPS_DELTA)
        if pair is None or not all(getattr(v, "is_Rational", False) for v in pair):
            return None
        e, d = (Fraction(int(v.p), int(v.q)) for v in pair)
        (zero if e == 0 else groups.setdefault(e, [])).append((d, int(count)))
    comps = [(e, sum(c for _, c in ds), ds) for e, ds in sorted(groups.items())]
    return comps, zero


def lattice_cost(entries):
    """Predicted work of the lattice route (binomial terms, or the convolved table's term pairs), None when
    it does not apply or is beyond its limits (k > MAX_K_BINOMIAL, a table above MAX_CONVOLVED)."""
    from .lattice_law import MAX_CONVOLVED, convolved_size
    got = lattice_components(entries)
    if got is None:
        return None
    comps, _ = got
    if len(comps) <= 1:
        k = comps[0][1] if comps else 0
        return None if k > MAX_K_BINOMIAL else 40 * int(math.sqrt(k) + 1)
    n = convolved_size([(e, k, ds) for e, k, ds in comps])
    return n if n <= MAX_CONVOLVED else None


def _lattice_law(entries):
    comps, zero = lattice_components(entries)
    if not comps:
        def make():
            law = ZeroLossLaw(sp.S.Zero, 1)
            from .lattice_law import _keep_lost
            law.keep, law.lost = _keep_lost(zero)
            return law
        return make
    if len(comps) == 1:
        e, k, ds = comps[0]
        return lambda: BinomialLaw(e, ds + zero, k)
    comps = [(e, k, ds + (zero if j == 0 else [])) for j, (e, k, ds) in enumerate(comps)]
    return lambda: convolved(comps)


def _lattice_checked(entries):
    if lattice_cost(entries) is None:
        raise DomainError("mechanisms", str([str(r) for r, _ in entries]), "f_{eps,delta} steps with rational "
                          f"parameters, at most {MAX_K_BINOMIAL} of one eps or a convolved lattice within its limit")
    return _lattice_law(entries)


def lattice_tradeoff(entries, alpha, digits: int = 15) -> ExactValue:
    """f(alpha) and the power of the composition of [(record, count)] f_{eps,delta} steps."""
    check_digits(digits)
    return _tradeoff_of(_lattice_checked(entries), LATTICE, alpha, digits)


def lattice_delta(entries, eps, digits: int = 15) -> ExactValue:
    check_digits(digits)
    return _delta_of(_lattice_checked(entries), LATTICE, eps, digits)


def lattice_eps(entries, delta_, digits: int = 15) -> ExactValue:
    check_digits(digits)
    return _eps_of(_lattice_checked(entries), LATTICE, delta_, digits)
