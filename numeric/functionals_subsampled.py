"""kl, kappa2, kappa3, kappabar3 and mu3 of a subsampled step, for the privacy CLT (issue #26 item 4).

The functionals are those of Dong, Roth, Su (2022) Sec. 3.2 (seed 004 Sec. 3.3, catalog 004 "DRS-§3.2
functionals"): with g = log|h'| of a trade-off function h and x uniform on [0, 1],
kl = -E g, kappa2 = E g^2, kappa3 = E|g|^3, kappabar3 = E|g + kl|^3, mu3 = E (g + kl)^3.

A subsampled step is read through the base record's law of log|f'| (``derive.functionals.slope_law``:
pieces in alpha with weight 1, or in z with alpha = Phi(z) and weight phi(z)), never through f itself:

* f_p = p f + (1 - p) Id has |f_p'| = 1 + p (|f'| - 1), so log|f_p'| = l(g) := log1p(p expm1(g))
  at the same alpha (no subtraction: expm1 and log1p), and l = log(1 - p) where f is flat.
* f_p^{-1}: substituting x = f_p(alpha) (f(0) = 1, so f_p maps [0, 1] onto [0, 1]),
  int_0^1 H(log|(f_p^{-1})'(x)|) dx = int_0^1 H(-l) e^l d alpha.
* C_p(f) = min{f_p, f_p^{-1}}** (DRS Thm 4.2; catalog 004 "DRS-§4 subsampling"), f symmetric: C = f_p
  on [0, x*] (where g >= 0: |f'| >= 1 before the fixed point of a symmetric convex f), a slope -1
  segment (log|C'| = 0) and f_p^{-1} beyond it, so
  int_0^1 H(log|C'|) = int_{g > 0} [H(l) + H(-l) e^l] w + H(0) w0,  w0 = 1 - int_{g > 0} (1 + e^l) w,
  the segment's length (with the part of [0, x*] where g = 0, on which l = 0 as well).

Which trade-off function a sampling scheme is: uniform (fixed-size batches, replace-one neighbours) is
C_p(f)-DP (DRS Thm 4.2); Poisson sampling (add/remove neighbours) is f_p in the remove direction and
f_p^{-1} in the add direction (the pairs of ``numeric.pld_mechanisms.subsampled_gaussian``).  The two
views differ at the leading order: for G_mu and small p, kl(f_p) ~ p^2 (e^{mu^2} - 1)/2 (half the chi^2
divergence of the mixture), whose CLT mu -> p sqrt(T (e^{mu^2} - 1)) is the DP-SGD formula of Bu, Dong,
Long, Su (2020); the hull's kl ~ p^2 int_{z < -mu/2} expm1(g)^2 phi is larger (the symmetrisation moves
O(p) of slope over a range of alpha of size O(1)).

Closed forms: none is used.  l = log(1 + p (e^g - 1)) integrated against a Gaussian (or a piecewise
Laplace slope) has no elementary antiderivative; the values are tanh-sinh quadrature (``mpmath.quad``)
split at every kink of |.| (found by bisection on the monotone g) and at z = 0 (the Gaussian weight),
evaluated at two working precisions until ``digits`` agree (``numeric.precision.verified``).  The tests
check them against the mixture densities integrated in the observation y at 60 digits, against the
p -> 1 limit (the base record's functionals) and against the p^2 term of the series in p.
"""

from __future__ import annotations

import mpmath

from derive import functionals as dfun
from derive.domains import parse_in
from derive.errors import DomainError
from derive.functionals import DivergentFunctional

from .bridge import compile_mp, exact_of, to_mpf
from .functionals import _env, _kink
from .precision import verified

#: the trade-off functions of a subsampled step: C_p(f) (uniform), and the two Poisson directions
VIEWS = ("hull", "remove", "add")
NAMES = ("kl", "kappa2", "kappa3", "kappabar3", "mu3")
#: the smallest subsampling rate whose functionals are computed (``SubsampledStep.functional_value``)
MIN_P = mpmath.mpf("1e-6")


class SubsampledStep:
    """One subsampled step seen as a trade-off function (``view``), with its functionals.

    ``symmetric`` is True for the hull only: the Poisson directions f_p and f_p^{-1} are each other's
    inverse, the CLT of Dong-Roth-Su (stated for symmetric f) is applied to each of them as an
    approximation (``numeric.clt``)."""

    def __init__(self, record, p, view: str):
        if view not in VIEWS:
            raise DomainError("view", view, "one of " + ", ".join(VIEWS))
        if not record.symmetric:
            raise DomainError("mechanism", record.name, "a symmetric trade-off function (C_p(f) is stated for "
                                                        "symmetric f)")
        from .functionals import _dg_sigma2
        if _dg_sigma2(record) is not None:
            raise DomainError("mechanism", record.name, "a record with a law of log|f'| to integrate (the discrete "
                              "Gaussian's functionals are sums over the integers; subsampled, they are not "
                              "implemented)")
        try:
            dfun.slope_law(record)
        except ValueError as exc:
            raise DomainError("mechanism", record.name, f"a record with a derivable law of log|f'| ({exc})") from None
        self.record, self.view = record, view
        self.p = parse_in("sampling_rate", p, "p")
        self.symmetric = view == "hull"
        self.poisson_direction = view != "hull"
        self.parameters = record.parameters
        self.values = record.values
        self.name = record.name

    def __str__(self):
        what = {"hull": "C_p(f)", "remove": "f_p", "add": "f_p^-1"}[self.view]
        return f"{what} of {self.record} at p = {self.p}"

    def functional_value(self, name: str, digits: int):
        """The functional ``name`` to ``digits`` verified digits (an mpf)."""
        if name not in NAMES:
            raise DomainError("name", name, "one of " + ", ".join(NAMES))
        if self.p < MIN_P:
            raise DomainError("p", mpmath.nstr(to_mpf(exact_of(self.p)), 6), "at least 1e-6 for a subsampled step's CLT functionals (they are O(p^2) "
                              "remainders of O(p) quadratures: at p = 1e-7 they ran past 100 s, and at 1e-300 kl "
                              "came out 1.8e-300 instead of ~1e-600)")
        if self.view != "remove" and dfun.divergence(self.record, name) is not None:
            # f = 0 on [x0, 1] (f(0) < 1 for a symmetric f): f_p^{-1} is 0 on a set of positive measure
            raise DivergentFunctional(name, self.record, dfun.divergence(self.record, name))
        if self.p == 1:
            # f_1 = f, and C_1(f) = f^{-1} = f for a symmetric f: the base record's functionals (closed forms
            # where SymPy has them; mu3 of G_mu is exactly 0, which no two precisions would confirm)
            from .functionals import functional
            from .precision import as_mpf
            return as_mpf(functional(self.record, name, digits=digits).value, digits + 10)
        return verified(lambda: _compute(self, name), digits, max_dps=max(4 * digits, digits + 80))


def _compute(step: SubsampledStep, name: str):
    """The functional at the ambient precision (the integrals' node values and kl are kept per precision:
    the five functionals share them)."""
    cache = step.__dict__.setdefault("_cache", {})
    key = mpmath.mp.prec
    if key not in cache:
        cache[key] = {"q": _Integrals(step)}
    memo = cache[key]
    q = memo["q"]
    direct, mirrored = step.view in ("hull", "remove"), step.view in ("hull", "add")
    positive = step.view == "hull"

    def total(H, cuts=()):
        s = mpmath.mpf(0)
        if direct:
            s += q.integral(H, positive, cuts)
        if mirrored:
            s += q.integral(lambda l: H(-l) * mpmath.exp(l), positive, tuple(-c for c in cuts))
        if positive:
            s += H(mpmath.mpf(0)) * q.segment()
        return s

    if "kl" not in memo:
        memo["kl"] = -total(lambda l: l)
    kl = memo["kl"]
    if name == "kl":
        return kl
    if name == "kappa2":
        return total(lambda l: l * l)
    if name == "kappa3":
        return total(lambda l: abs(l) ** 3, (mpmath.mpf(0),))
    if name == "kappabar3":
        return total(lambda l: abs(l + kl) ** 3, (-kl,))
    return total(lambda l: (l + kl) ** 3)


class _Integrals:
    """int H(l(g(x))) w(x) dx over the pieces of the base record's slope law (all of them, or where g > 0)."""

    def __init__(self, step: SubsampledStep):
        record = step.record
        self.law = law = dfun.slope_law(record)
        self.env = _env(record, law)
        self.p = to_mpf(exact_of(step.p))
        self.gauss = law.var == dfun.sy.z
        self.memo = {}
        self.parts = []
        for piece in law.pieces:
            lo, hi = to_mpf(compile_mp(piece.lo)(self.env)), to_mpf(compile_mp(piece.hi)(self.env))
            g = None if piece.flat else compile_mp(dfun.quadrature_form(piece.g))
            self.parts.append((g, lo, hi))

    def ell(self, g):
        if self.p == 1:                     # f_1 = f (log1p(expm1(g)) would be log1p(-1) far in the tail)
            return g
        return mpmath.log1p(self.p * mpmath.expm1(g))

    def _mass(self, a, b):
        if self.gauss:
            return mpmath.ncdf(b) - mpmath.ncdf(a) if b <= 0 else mpmath.ncdf(-a) - mpmath.ncdf(-b)
        return b - a

    def integral(self, H, positive: bool, cuts=()):
        """int over the pieces (only where g > 0 when ``positive``) of H(l) w; split where l = c, c in cuts."""
        s = mpmath.mpf(0)
        var = self.law.var
        flat_l = mpmath.log1p(-self.p) if self.p < 1 else None
        for g, a, b in self.parts:
            if g is None:                       # f' = 0: |f_p'| = 1 - p (g = -inf, never positive)
                if not positive and flat_l is not None:
                    s += H(flat_l) * self._mass(a, b)
                continue

            def G(x, g=g):
                self.env[var] = x
                return to_mpf(g(self.env))
            nodes = [a, b]
            if positive:
                x0 = _kink(G, 0, a, b)
                if x0 is not None:
                    nodes = [a, x0]
                elif not G((a + b) / 2 if not (mpmath.isinf(a) or mpmath.isinf(b)) else _inner(a, b)) > 0:
                    continue
            # and at l = log(2(1 - p)), where p e^g = 1 - p: l turns from ~p e^g to ~g + log p within ~1/mu
            # there, far out for a small p (z ~ mu/2 + log(1/p)/mu), and tanh-sinh at any precision missed
            # it (a Poisson-subsampled G_20 at p = 1e-6: the same wrong kappa2 at 35 and 52 digits)
            for c in (*cuts, *self.turn()):
                t = mpmath.expm1(c) / self.p        # l = c  <=>  expm1(g) = expm1(c)/p
                if t > -1:
                    x = _kink(G, -mpmath.log1p(t), nodes[0], nodes[-1])
                    if x is not None:
                        nodes = sorted(set(nodes) | {x})
            if self.gauss and nodes[0] < 0 < nodes[-1]:
                nodes = sorted(set(nodes) | {mpmath.mpf(0)})
            s += mpmath.quad(lambda x, G=G: self._at(G, x, H), nodes)
        return s

    def turn(self):
        """(log(2(1 - p)),) for p < 1/2: the cut where p e^g = 1 - p (``integral``), else ()."""
        return (mpmath.log(2 * (1 - self.p)),) if self.p < mpmath.mpf(1) / 2 else ()

    def _at(self, G, x, H):
        """H(l) w at x, with (l, w) remembered per node (the functionals share tanh-sinh's nodes)."""
        key = (id(G.__defaults__[0]), x)
        if key not in self.memo:
            self.memo[key] = (self.ell(G(x)), mpmath.npdf(x) if self.gauss else 1)
        l, w = self.memo[key]
        return H(l) * w

    def segment(self):
        """w0 = 1 - int_{g > 0} (1 + e^l) w: the length of C_p(f)'s slope -1 segment."""
        return 1 - self.integral(lambda l: 1 + mpmath.exp(l), True)


def _inner(a, b):
    """A finite point inside (a, b) (one end may be infinite)."""
    if mpmath.isinf(a) and mpmath.isinf(b):
        return mpmath.mpf(0)
    if mpmath.isinf(a):
        return b - 1
    return a + 1


__all__ = ["SubsampledStep", "VIEWS", "NAMES"]
