"""Functionals and link functions of a trade-off function, derived with SymPy.

Su (2025) seed 004, catalog 004 Sec. 1.1 (link functions) and Sec. 3 (functionals, Dong, Roth, Su
2022 Sec. 3).  For f = T(P, Q) and alpha uniform on [0, 1], write g(alpha) = log|f'(alpha)|.  Then

    kl(f)        = -int_0^1 g                                  (catalog DRS-kl, DRS-Sec3.2)
    kappa2(f)    =  int_0^1 g^2
    kappa3(f)    =  int_0^1 |g|^3
    kappabar3(f) =  int_0^1 |g + kl(f)|^3
    D_lambda(f)  =  1/(lambda - 1) log int_0^1 |f'|^(1 - lambda),  lambda > 1   (SU-link-Renyi)
    zCDP rho     =  sup_{lambda > 1} D_lambda(f) / lambda                        (SU-link-zCDP)
    TV(f)        =  1 + f*(-1) = max_alpha (1 - alpha - f(alpha))                  (SU-Thm3)
    pure eps     =  max{log(-f'(0+)), -log(-f'(1-))}, inf when f(0) < 1          (SU-link-pure)

TV is integrated as int_0^1 (1 - |f'|)_+ (derived here: 1 - alpha - f(alpha) = 1 - f(0) +
int_0^alpha (|f'| - 1) is largest where |f'| crosses 1, and int_0^1 (|f'| - 1) = f(0) - 1 since
f(1) = 0).  The pure-DP link is the catalog's -log(-f'(1-)) (= D_inf(P||Q)) together with the
other direction log(-f'(0+)) (= D_inf(Q||P)): f >= f_{eps,0} holds iff f(0) = 1 and both are <= eps
(convexity); for a symmetric f the two agree.

The derivation, :func:`slope_law`, writes g piece by piece: for a Piecewise or Max record
(Laplace, f_{eps,delta}, randomized response, uniform sampling) on the intervals between its
breakpoints, with the slope differentiated by SymPy; for a record in which alpha enters only
through PhiInv(alpha) (the Gaussian family) in z = PhiInv(alpha), where alpha = Phi(z) carries the
weight phi(z) dz.  A piece where f' = 0 (f = 0 on [1 - delta, 1] for f_{eps,delta}) makes kl,
kappa2, kappa3, kappabar3 and D_lambda infinite: :class:`DivergentFunctional` says so and why.
The branch choices (which piece is active, where |g| changes sign) are decided at the record's
parameter values, so a closed form holds on the region of parameters that contains them; a
parameter whose value is 0 is substituted before the derivation.

Nothing here evaluates a number beyond those decisions: ``numeric.functionals`` evaluates the
closed forms to verified digits, and integrates the same g by quadrature where SymPy does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key, lru_cache

import sympy as sp

from . import symbols as sy
from .errors import DomainError
from .exact import as_expr
from .special import Phi, PhiInv, _normal_density
from .tradeoff import TradeOff

#: the order lambda > 1 of a Renyi divergence
ORDER = sp.Symbol("lambda", positive=True)
#: lambda - 1 while integrating (positive, so that SymPy need not split on 2 lambda - 1 = 0)
_T = sp.Symbol("t", positive=True)
#: the shift of a Gaussian-shaped record, Phi(-PhiInv(alpha) - m), while integrating
_M = sp.Symbol("m", positive=True)

FUNCTIONALS = ("kl", "kappa2", "kappa3", "kappabar3", "mu3", "tv", "renyi")
#: functionals that are infinite when f' = 0 on a set of positive measure
_NEED_SLOPE = ("kl", "kappa2", "kappa3", "kappabar3", "mu3", "renyi")


class DivergentFunctional(DomainError):
    """A functional of the record is +inf (bad input for a command that reports a finite value)."""

    def __init__(self, functional: str, record: TradeOff, reason: str):
        self.parameter, self.value, self.valid = functional, "inf", reason
        ValueError.__init__(self, f"{functional}=inf: {functional} of {record} diverges: {reason}")


@dataclass(frozen=True)
class Piece:
    """g = log|f'| on (lo, hi) of the law's variable; ``flat``: f' = 0 there (g = -inf)."""
    g: sp.Expr
    lo: sp.Expr
    hi: sp.Expr
    flat: bool = False


@dataclass(frozen=True)
class SlopeLaw:
    """log|f'(alpha)| for alpha uniform on [0, 1], piece by piece.

    ``var`` is alpha (weight 1) or z with alpha = Phi(z) (weight phi(z)); ``at`` maps every free
    symbol of the pieces to its value (the dummy shift m to its expression's value); ``back`` maps
    the dummy symbols to the record's expressions (applied to a closed form after integration).
    """
    var: sp.Symbol
    pieces: tuple
    at_items: tuple = ()
    back_items: tuple = ()

    @property
    def at(self) -> dict:
        return dict(self.at_items)

    @property
    def back(self) -> dict:
        return dict(self.back_items)

    @property
    def weight(self) -> sp.Expr:
        return _normal_density(sy.z) if self.var == sy.z else sp.S.One

    def flat_pieces(self):
        return [p for p in self.pieces if p.flat]


# ------------------------------------------------------------- decisions at the values ---------

def _maxn(at: dict) -> int:
    """Working digits SymPy may use to decide a sign at these values (1e-300 needs ~600)."""
    size = sum(len(str(v.p)) + len(str(v.q)) for v in at.values() if isinstance(v, sp.Rational))
    return 2 * size + 400


def _sign(expr: sp.Expr, at: dict) -> int:
    """Sign of a numeric expression at the values (SymPy's adaptive evalf, strict); 0 only when the
    expression is 0; ValueError when neither evalf nor simplify decides."""
    expr = as_expr(expr)                 # a SymPy expression or a Python number, never a string
    e = expr.xreplace(at)
    if e in (sp.oo, -sp.oo):
        return 1 if e is sp.oo else -1
    if e.is_Number:
        return int(sp.sign(e))
    try:
        v = e.evalf(15, strict=True, maxn=_maxn(at))
    except sp.core.evalf.PrecisionExhausted:
        # cancellation beyond any precision (eps = 1e300: two terms of size e^-eps): decide the sign of
        # the simplified expression from the symbols' assumptions, else evaluate the simplified form
        simple = sp.simplify(sp.together(expr))
        if simple == 0:
            return 0
        if simple.is_positive:
            return 1
        if simple.is_negative:
            return -1
        try:
            v = simple.xreplace(at).evalf(15, strict=True, maxn=_maxn(at))
        except (sp.core.evalf.PrecisionExhausted, OverflowError, ValueError):
            raise ValueError(f"the sign of {expr} at the parameter values is not decided") from None
    if not v.is_real:
        raise ValueError(f"not real at the values: {expr}")
    return int(sp.sign(v))


def _approx(expr: sp.Expr, at: dict) -> sp.Float:
    """A 30-digit value at the values (ordering and midpoints only; +-oo kept)."""
    e = as_expr(expr).xreplace(at)
    if e in (sp.oo, -sp.oo):
        return e
    return e.evalf(30, maxn=_maxn(at))


# ------------------------------------------------------------------------- the law -------------

def _items(d: dict) -> tuple:
    return tuple(sorted(d.items(), key=lambda kv: str(kv[0])))


def _zeros(record: TradeOff) -> dict:
    return {s: sp.S.Zero for s, v in record.values.items() if v == 0}


#: largest |parameter| of a piecewise record for which the pieces are decided (1e5 measured: 2 s)
MAX_PIECEWISE_VALUE = 10**5


def slope_law(record: TradeOff) -> SlopeLaw:
    """The law of log|f'| of the record (see the module docstring); ValueError when not derivable."""
    zeros = _zeros(record)
    at = {s: v for s, v in record.values.items() if v != 0}
    if not record.tradeoff.has(PhiInv):
        for sym, v in at.items():
            if v.is_Number and abs(v) > MAX_PIECEWISE_VALUE:
                # the pieces of a max/piecewise f are ordered exactly at the values; with e^(+-1e6) in
                # one comparison SymPy's strict evalf asks for ~1e6 bits per unit of the parameter
                shown = v if len(str(v)) <= 20 else sp.Float(v, 6)
                raise DomainError(str(sym), shown, f"|{sym}| <= {MAX_PIECEWISE_VALUE} for functionals, links and "
                                                "the CLT (the pieces of f are decided exactly; beyond this "
                                                "e^value cancels beyond any working precision)")
    return _slope_law(record.tradeoff, tuple(sorted(zeros, key=str)), _items(at))


@lru_cache(maxsize=128)
def _slope_law(tradeoff, zero_symbols, at_items) -> SlopeLaw:
    zeros = {s: sp.S.Zero for s in zero_symbols}
    at = dict(at_items)
    f = tradeoff.xreplace(zeros)
    a = sy.alpha
    if f.has(PhiInv):
        return _z_law(f, at)
    pieces = []
    for expr, lo, hi in _branches(f, at):
        slope = sp.diff(expr, a)
        if a not in slope.free_symbols and _sign(slope, at) == 0 or sp.simplify(slope.xreplace(at)) == 0:
            pieces.append(Piece(sp.S.NegativeInfinity, lo, hi, flat=True))
            continue
        if _sign(slope.xreplace({a: _approx((lo + hi) / 2, at)}), at) > 0:
            raise ValueError(f"f is increasing on ({lo}, {hi}): not a trade-off function")
        g = sp.expand(sp.expand_log(sp.log(sp.factor(-slope)), force=True))
        pieces.append(Piece(g, lo, hi))
    return SlopeLaw(a, tuple(pieces), _items(at))


def _z_law(f, at) -> SlopeLaw:
    """alpha = Phi(z): f'(alpha) = (df/dz) / phi(z); Phi(-z - M) gets a positive dummy for M."""
    a, z = sy.alpha, sy.z
    fz = f.xreplace({PhiInv(a): z})
    if a in fz.free_symbols:
        raise ValueError("alpha enters the record other than through PhiInv(alpha)")
    back = {}
    if isinstance(fz, Phi):
        shift = sp.expand(-(fz.args[0] + z))
        if z not in shift.free_symbols and shift.free_symbols:
            if _sign(shift, at) <= 0:
                raise ValueError("a Gaussian record with a shift that is not positive")
            back = {_M: shift}
            at = {**at, _M: shift.xreplace(at)}
            fz = Phi(-z - _M)
        elif shift == 0:
            return SlopeLaw(z, (Piece(sp.S.Zero, -sp.oo, sp.oo),), _items(at))
    dz = sp.diff(fz, z)
    g = sp.expand(sp.expand_log(sp.log(-dz) - sp.log(_normal_density(z)), force=True))
    return SlopeLaw(z, (Piece(g, -sp.oo, sp.oo),), _items(at), _items(back))


def _condition_end(cond) -> sp.Expr:
    """The right end of ``alpha < b`` / ``alpha <= b`` (or ``b > alpha``)."""
    a = sy.alpha
    if isinstance(cond, (sp.StrictLessThan, sp.LessThan)) and cond.lhs == a:
        return cond.rhs
    if isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan)) and cond.rhs == a:
        return cond.lhs
    raise ValueError(f"a Piecewise condition that is not alpha < b: {cond}")


def _branches(f, at) -> list:
    """[(expression, lo, hi)] of f on [0, 1], the pieces non-empty at the values."""
    a = sy.alpha
    if isinstance(f, sp.Piecewise):
        out, lo = [], sp.S.Zero
        for expr, cond in f.args:
            hi = sp.S.One if cond is sp.true else _condition_end(cond)
            if _sign(hi - 1, at) >= 0:
                hi = sp.S.One
            if _sign(hi - lo, at) > 0:
                out.append((expr, lo, hi))
                lo = hi
            if hi == 1:
                break
        return out
    if isinstance(f, sp.Max):
        args = f.args
        cuts = [sp.S.Zero, sp.S.One]
        for i in range(len(args)):
            for j in range(i + 1, len(args)):
                if sp.simplify(args[i] - args[j]) == 0:
                    continue
                for s in sp.solve(sp.Eq(args[i], args[j]), a):
                    if _sign(s, at) > 0 and _sign(1 - s, at) > 0:
                        cuts.append(s)
        # exact ordering (two cuts may agree to hundreds of digits: 1/(1 + e^eps) and e^-eps at eps = 700)
        cuts.sort(key=cmp_to_key(lambda x, y: _sign(x - y, at)))
        unique = [cuts[0]]
        for c in cuts[1:]:
            if _sign(c - unique[-1], at) > 0:
                unique.append(c)
        out = []
        for lo, hi in zip(unique, unique[1:]):
            mid = (lo + hi) / 2
            best = args[0]
            for e in args[1:]:
                if _sign((e - best).xreplace({a: mid}), at) > 0:
                    best = e
            if out and out[-1][0] == best:
                out[-1] = (best, out[-1][1], hi)
            else:
                out.append((best, lo, hi))
        return out
    return [(f, sp.S.Zero, sp.S.One)]


# ------------------------------------------------------------------- integration ---------------

def _split(h: sp.Expr, var, lo, hi, at) -> list:
    """[(lo_i, hi_i, sign of h on it)] covering (lo, hi): h is cut at its roots inside."""
    roots = []
    if var in h.free_symbols:
        for r in sp.solve(sp.Eq(h, 0), var):
            if r.free_symbols - set(at) - {var}:
                continue
            if not r.xreplace(at).is_real and sp.im(_approx(r, at)) != 0:
                continue
            if _sign(r - lo, at) > 0 and _sign(hi - r, at) > 0:
                roots.append(r)
        roots.sort(key=lambda r: _approx(r, at))
    ends = [lo, *roots, hi]
    out = []
    for u, v in zip(ends, ends[1:]):
        if u == -sp.oo and v == sp.oo:
            mid = sp.S.Zero
        elif u == -sp.oo:
            mid = v - 1 - sp.Abs(v)
        elif v == sp.oo:
            mid = u + 1 + sp.Abs(u)
        else:
            mid = (u + v) / 2
        out.append((u, v, _sign(h.xreplace({var: mid}), at)))
    return out


@lru_cache(maxsize=1024)
def _integrate(expr, var, lo, hi):
    """int_lo^hi expr d var by SymPy (cached: the pieces are symbolic, the same for every value of
    the record's parameters that gives the same branch structure)."""
    result = sp.integrate(expr, (var, lo, hi), conds="none")
    if result.has(sp.Integral):
        raise ValueError(f"SymPy leaves the integral of {expr} unevaluated")
    return result


def _sum_of(law: SlopeLaw, integrand, split=None) -> sp.Expr:
    """sum over non-flat pieces of int integrand(g) * weight; ``split(g)`` cuts at the roots of
    ``split(g)`` and multiplies by its sign (|h|^3 as sign(h) h^3)."""
    var, w = law.var, law.weight
    total = sp.S.Zero
    for p in law.pieces:
        if p.flat:
            continue
        if split is None:
            total += _integrate(integrand(p.g) * w, var, p.lo, p.hi)
            continue
        h = split(p.g)
        for u, v, s in _split(h, var, p.lo, p.hi, law.at):
            if s != 0:
                total += s * _integrate(integrand(p.g) * w, var, u, v)
    return total


def _finish(expr: sp.Expr, law: SlopeLaw) -> sp.Expr:
    """Simplified while the Gaussian shift is still the positive dummy m, then m put back."""
    return _tidy(expr).xreplace(law.back)


@lru_cache(maxsize=512)
def _tidy(expr: sp.Expr) -> sp.Expr:
    """SymPy's simplification; erfc(x) written 1 - erf(x) first, so that erf/erfc pairs cancel.
    Cached on the expression: the symbolic sum of a law's pieces is the same for every parameter
    value with the same branch structure, so one simplification serves them all."""
    expr = expr.rewrite(sp.erf) if expr.has(sp.erfc) else expr
    return sp.simplify(expr)


def quadrature_form(g: sp.Expr) -> sp.Expr:
    """g for numerical evaluation: a log whose argument holds exponentials is written log1p(u) with
    e^x - 1 as expm1(x) (the logistic family's log(alpha e^mu - alpha + 1) is log1p(alpha expm1(mu)):
    at mu = 1e-300, e^mu - 1 would round to 0 at every working precision)."""
    from sympy.codegen.cfunctions import log1p

    from derive.special import expm1

    def fix(arg):
        if not arg.has(sp.exp):
            return sp.log(arg)
        rest = sp.expand(arg.xreplace({e: 1 + expm1(e.args[0]) for e in arg.atoms(sp.exp)}) - 1)
        return log1p(rest)
    return g.replace(lambda e: isinstance(e, sp.log), lambda e: fix(e.args[0]))


def divergence(record: TradeOff, name: str) -> str | None:
    """Why ``name`` is +inf for the record (f' = 0 on a set of positive measure), or None."""
    if name not in _NEED_SLOPE:
        return None
    law = slope_law(record)
    for p in law.flat_pieces():
        span = f"[{_show(p.lo, law.at)}, {_show(p.hi, law.at)}]"
        return (f"f = 0 on {span}, so |f'| = 0 and log|f'| = -inf on a set of positive measure (P puts mass "
                f"{_show(p.hi - p.lo, law.at)} where Q has none); {name} is finite only for a record with "
                "f > 0 on [0, 1)")
    return None


def _show(expr, at) -> str:
    e = as_expr(expr).xreplace(at)
    e = sp.nsimplify(e) if e.is_Float else e
    if e.is_Rational:
        from .exact import _show as show_rational
        return show_rational(e)
    return sp.sstr(sp.N(e, 6))


@lru_cache(maxsize=256)
def _closed(law: SlopeLaw, name: str) -> sp.Expr:
    """The closed form of ``name`` (not kappabar3) for a law with no flat piece that matters."""
    if name == "kl":
        return -_sum_of(law, lambda g: g)
    if name == "kappa2":
        return _sum_of(law, lambda g: g ** 2)
    if name == "kappa3":
        return _sum_of(law, lambda g: g ** 3, split=lambda g: g)
    if name == "kappabar3":
        kl = _closed(law, "kl")
        return _sum_of(law, lambda g: (g + kl) ** 3, split=lambda g: g + kl)
    if name == "mu3":              # signed third central moment of the privacy loss (Edgeworth's kappa_3)
        kl = _closed(law, "kl")
        return _sum_of(law, lambda g: sp.expand((g + kl) ** 3))
    if name == "renyi_sum":        # int |f'|^(1 - lambda), lambda = 1 + t
        return _sum_of(law, lambda g: sp.powsimp(sp.expand_power_exp(sp.exp(sp.expand(-_T * g)))))
    if name == "tv":
        flat = sum((p.hi - p.lo for p in law.flat_pieces()), sp.S.Zero)
        return flat + _tv_pieces(law)
    raise ValueError(name)


def _tv_pieces(law: SlopeLaw) -> sp.Expr:
    """int (1 - e^g)_+ over the non-flat pieces: 1 - e^g on the parts where g < 0."""
    var, w = law.var, law.weight
    total = sp.S.Zero
    for p in law.pieces:
        if p.flat:
            continue
        for u, v, s in _split(p.g, var, p.lo, p.hi, law.at):
            if s < 0:
                total += _integrate(sp.powsimp((1 - sp.exp(p.g)) * w), var, u, v)
    return total


def closed_form(record: TradeOff, name: str) -> sp.Expr:
    """The SymPy closed form of a functional of the record, in the record's symbols (and ORDER for
    ``renyi``); DivergentFunctional when it is +inf; ValueError when SymPy does not integrate it."""
    if name not in FUNCTIONALS:
        raise DomainError("name", name, "one of " + ", ".join(FUNCTIONALS))
    reason = divergence(record, name)
    if reason is not None:
        raise DivergentFunctional(name, record, reason)
    shift = _logistic_shift(record)
    if shift is not None:
        return _logistic_closed(name).xreplace({_LM: shift})
    law = slope_law(record)
    if not integrable(law):
        raise ValueError(f"{name} of {record}: log|f'| is not of the form a + b x + c log x on each piece "
                         "(left to quadrature)")
    if name in _VALUE_FREE:
        # these integrals never consult the parameter values (no sign split): one derivation per shape
        return _closed_shape(SlopeLaw(law.var, law.pieces, (), law.back_items), name)
    return _finish(_closed(law, name), law)


#: functionals whose closed form depends only on the symbolic pieces of the law, not on the values
_VALUE_FREE = ("kl", "kappa2", "mu3", "renyi")


@lru_cache(maxsize=256)
def _closed_shape(law: SlopeLaw, name: str) -> sp.Expr:
    if name == "renyi":
        total = _closed(law, "renyi_sum")
        expr = sp.expand_log(sp.log(sp.simplify(total)) / _T, force=True)
        return sp.simplify(_finish(expr, law).xreplace({_T: ORDER - 1}))
    return _finish(_closed(law, name), law)


# ---------------------------------------------------------------- the logistic pair ------------
#
# f = T(Logistic(0, 1), Logistic(m, 1)) = (1 - alpha)/(1 + c alpha), c = e^m - 1 (the noise family
# "logistic" and the exponential mechanism, fact LOGISTIC_SHIFT).  Derived here: f'(alpha) = -e^m/(1 + c alpha)^2,
# so g = log|f'| = m - 2 log(1 + c alpha).  With 1 + c alpha = e^s (s in [0, m]) and r = m - 2s,
#     int_0^1 h(g(alpha)) d alpha = (1/c) int_0^m h(m - 2s) e^s ds = int_{-m}^{m} h(r) e^{-r/2} dr / (4 sinh(m/2)),
# the law of the privacy loss r under P (its total mass is 1).  Every functional is then an integral of a
# polynomial (or an exponential) times e^{a r} over [-m, m], split at a known point: |r|^3 at r = 0 and
# |r + kl|^3 at r = -kl, which lies in (-m, 0) for every m > 0 (0 < kl = m coth(m/2) - 2 < m, since
# coth x - 1 = 2/(e^{2x} - 1) < 1/x).  The closed forms replace tanh-sinh quadrature of log1p, which took
# ~25-35 s at 1000 digits for each functional (issue #25 item 4).  At m = 0 (f = 1 - alpha) they are 0/0:
# that record keeps the general route (g = 0).

#: the shift m > 0 of the logistic pair and the integration variable r (the privacy loss)
_LM = sp.Symbol("m", positive=True)
_R = sp.Symbol("r", real=True)


def _logistic_shift(record: TradeOff):
    """The shift m (in the record's symbols) when the record is the logistic pair with m not 0, else None."""
    from .mechanisms import facts as K
    if K.LOGISTIC_SHIFT not in record.facts:
        return None
    value = record.fact(K.LOGISTIC_SHIFT)
    if value.is_zero:
        return None
    return as_expr(record.facts[K.LOGISTIC_SHIFT][0])


def _exp_poly(p: sp.Expr, rate: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """int_lo^hi p(r) e^(rate r) dr for a polynomial p in r and a rate that is not 0, by the antiderivative
    e^(rate r) sum_j (-1)^j p^(j)(r)/rate^(j+1) (its derivative telescopes to p e^(rate r))."""
    terms, d, j = [], sp.expand(p), 0
    while d != 0:
        terms.append((-1) ** j * d / rate ** (j + 1))
        d, j = sp.diff(d, _R), j + 1
    anti = sp.Add(*terms)
    return sp.exp(rate * hi) * anti.xreplace({_R: hi}) - sp.exp(rate * lo) * anti.xreplace({_R: lo})


@lru_cache(maxsize=16)
def _logistic_closed(name: str) -> sp.Expr:
    """The functional ``name`` of the logistic pair with shift _LM > 0 (derivation above); renyi in ORDER."""
    m, r, half = _LM, _R, sp.Rational(1, 2)
    mass = 4 * sp.sinh(m / 2)

    def mean(p, lo=-m, hi=m):
        return _exp_poly(p, -half, lo, hi) / mass
    kl = -mean(r)
    if name == "kl":
        return kl
    if name == "kappa2":
        return mean(r ** 2)
    if name == "kappa3":
        return mean(r ** 3, 0, m) - mean(r ** 3, -m, 0)
    if name == "kappabar3":
        return mean((r + kl) ** 3, -kl, m) - mean((r + kl) ** 3, -m, -kl)
    if name == "mu3":
        return mean((r + kl) ** 3)
    if name == "tv":               # int (1 - e^r)_+ against the law: r < 0
        return (_exp_poly(sp.S.One, -half, -m, 0) - _exp_poly(sp.S.One, half, -m, 0)) / mass
    if name == "renyi":            # 1/(lambda - 1) log E[e^{-(lambda - 1) r}]
        t = ORDER - 1
        return sp.log(_exp_poly(sp.S.One, -(t + half), -m, m) / mass) / t
    raise ValueError(name)


def integrable(law: SlopeLaw) -> bool:
    """Whether the SymPy route applies: on every piece log|f'| = a + b x + c log x in the law's variable
    (Gaussian family in z; Laplace, f_{eps,delta}, randomized response, uniform sampling in alpha).
    Other shapes (the logistic family) integrate too, but SymPy takes seconds to minutes: quadrature."""
    L = sp.Dummy("L")
    for p in law.pieces:
        if p.flat:
            continue
        h = sp.expand(p.g.xreplace({sp.log(law.var): L}))
        if h.has(sp.log(law.var)):
            return False
        try:
            poly = sp.Poly(h, law.var, L)
        except sp.PolynomialError:
            return False
        if poly.total_degree() > 1:
            return False
    return True


def pure_eps_form(record: TradeOff) -> tuple[sp.Expr, str]:
    """(eps of pure DP, reason when infinite) from the slopes at the ends (SU-link-pure, both ways)."""
    a = sy.alpha
    at = {s: v for s, v in record.values.items() if v != 0}
    f0 = record.power.xreplace(_zeros(record)).xreplace({a: sp.S.Zero})
    if _sign(f0, at) > 0:
        f_at_0 = "0" if _sign(f0 - 1, at) == 0 else f"1 - {_show(f0, at)}"
        return sp.oo, (f"f(0) = {f_at_0} < 1: an event of probability {_show(f0, at)} under Q "
                       "has probability 0 under P")
    law = slope_law(record)
    first, last = law.pieces[0], law.pieces[-1]
    if last.flat or first.flat:
        return sp.oo, "f = 0 near alpha = 1 (f'(1-) = 0): P has mass where Q has none"
    if law.var == sy.z:
        left = sp.limit(first.g, sy.z, -sp.oo)
        right = sp.limit(last.g, sy.z, sp.oo)
    else:
        left = sp.limit(first.g, a, 0, "+")
        right = sp.limit(last.g, a, 1, "-")
    eps = _tidy(sp.Max(left, -right).xreplace(law.back))
    if eps.xreplace(law.at).xreplace(record.values) == sp.oo or eps == sp.oo:
        side = "0+" if left == sp.oo or left.xreplace(law.at) == sp.oo else "1-"
        return sp.oo, f"|f'({side})| is {'infinite' if side == '0+' else '0'}: the privacy loss is unbounded"
    return eps, ""
