"""Privacy profile, convex conjugate, inverse and dual-to-primal, numerically.

Every function here returns a zero-argument ``compute`` that evaluates at the
ambient mpmath precision; ``numeric.mp`` wraps it in ``verified``.

* delta(eps) = 1 + f*(-e^eps) = sup_alpha {1 - f(alpha) - e^eps alpha}
  (Dong, Roth, Su 2022, Prop. 2.12; catalog DRS-Prop2.12): the record's closed
  form when it has one, else the supremum of a concave function found by
  golden-section search in log(alpha) plus the exact candidates alpha = 0, 1
  and the breakpoints of a piecewise f.
* eps(delta): bisection on the non-increasing delta(eps).
* f^{-1}(alpha) = inf{t : f(t) <= alpha}: f itself for a symmetric record,
  else bisection in log t.
* f(alpha) = sup_eps f_{eps, delta(eps)}(alpha) from a profile (dual to primal).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from derive.errors import DomainError
from derive.exact import parse
from derive.operations import approx_dp_tradeoff, breakpoints
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff, eps_prime

from .bridge import ONE, ZERO, Exact, compile_mp, exact_of, to_mpf
from .inputs import alpha_exact, bound_env
from .kernels import ndtri_lower
from .solvers import bisect, golden_max, integer_midpoint, newton_in_bracket

#: log(alpha) range searched by the numerical suprema: alpha in [1e-100000, 1]
LOG_ALPHA_LOW = -230259


def _sup_concave(record: TradeOff, slope_fn):
    """sup over alpha in [0,1] of power(alpha) + s alpha, s = slope_fn() (mpf or Exact)."""
    fn = compile_mp(record.power)
    env = bound_env(record)
    points = [exact_of(b) if b.is_Rational else b for b in breakpoints(record)]

    def compute():
        s = slope_fn()

        def h_at(a):
            """(value, rounding noise) of power(a) + s a."""
            env[ALPHA] = a
            v = fn(env)
            if isinstance(a, Exact) and a.p == 0:
                return v, 0        # h(0) = power(0), exact when power(0) is
            if isinstance(v, Exact) and isinstance(a, Exact) and isinstance(s, Exact):
                return v + s * a, 0
            term = to_mpf(s) * to_mpf(a)
            pv = to_mpf(v)
            return pv + term, mpmath.ldexp(abs(pv) + abs(term), -mpmath.mp.prec + 8)

        # exact candidates first; an inexact one wins only above its rounding noise,
        # so that an exactly flat supremum (0 on a linear piece) stays exact
        best, _ = max((h_at(ZERO), h_at(ONE)), key=lambda c: to_mpf(c[0]))
        for b in points:
            a = b if isinstance(b, Exact) else compile_mp(b)(dict(bound_env(record)))
            value, noise = h_at(a)
            if to_mpf(value) > to_mpf(best) + noise:
                best = value
        u, _ = golden_max(lambda u: to_mpf(h_at(mpmath.exp(u))[0]), LOG_ALPHA_LOW, 0)
        value, noise = h_at(mpmath.exp(u))
        if value > to_mpf(best) + noise:
            best = value
        _check_floor(lambda a: fn({**env, ALPHA: a}), best, s)
        return best
    return compute


def _check_floor(power_at, best, slope):
    """The search covers [e^LOG_ALPHA_LOW, 1]; below it, h = power - e^eps alpha is concave, so it lies under
    the line through its values at a0 = e^LOG_ALPHA_LOW and 2 a0: sup over [0, a0] <= 2 h(a0) - h(2 a0)
    = 2 power(a0) - power(2 a0) (the linear term cancels exactly).  When that bound exceeds the supremum
    found, the true one may sit below a0 (G_1 at eps = 1000: at alpha ~ e^-500000, delta = 2.8e-216937,
    where the search saw 0): refused rather than understated."""
    a0 = mpmath.exp(mpmath.mpf(LOG_ALPHA_LOW))
    p1, p2 = to_mpf(power_at(a0)), to_mpf(power_at(2 * a0))
    if 2 * p1 - p2 > to_mpf(best) + mpmath.ldexp(abs(p1) + abs(p2), -mpmath.mp.prec + 8):
        eps = mpmath.nstr(mpmath.log(-to_mpf(slope)), 10) if to_mpf(slope) < 0 else "-inf"
        raise DomainError("at_eps", eps, "an eps whose supremum of 1 - f - e^eps alpha lies above "
                          "alpha = e^-230259, the numerical supremum's range (this record has no closed-form "
                          "profile)")


def _delta_maker(record: TradeOff, definition: bool = False):
    """e -> compute() of delta at eps = e (an Exact or an mpf): the closed form, else the supremum.

    The record's profile is bound and compiled once (eps_at calls this hundreds of times).
    ``definition=True`` always takes the supremum 1 + f*(-e^eps) (the closed forms are derived
    for eps >= 0; the definition holds for every real eps)."""
    if record.profile is not None and not definition:
        fn = compile_mp(record.bind(record.profile))
        return lambda e: (lambda: fn({eps_prime: e}))

    def make(e):
        def slope():
            if isinstance(e, Exact) and e.p == 0:
                return Exact(-1)
            return -mpmath.exp(to_mpf(e))
        return _sup_concave(record, slope)
    return make


def _delta_of(record: TradeOff, e):
    """compute() of delta at eps = e (an Exact or an mpf): the closed form, else the supremum."""
    return _delta_maker(record)(e)


def delta_at(record: TradeOff, eps):
    """compute() of delta(eps) for the record, eps any real number.

    For eps < 0, delta(eps) = sup_alpha 1 - f(alpha) - e^eps alpha = 1 + f*(-e^eps) is still the
    hockey-stick divergence (peers' tests use it: 0.67881797 for G_1 at eps = -1); it is computed
    from that definition, since the records' closed forms are stated for eps >= 0."""
    e = parse("eps", eps)
    return _delta_maker(record, definition=e < 0)(exact_of(e))


def conjugate_at(record: TradeOff, y):
    """compute() of f*(y) = -1 + sup_x (power(x) + y x)."""
    yv = exact_of(parse("y", y))
    sup = _sup_concave(record, lambda: yv)

    def compute():
        v = sup()
        return v + Exact(-1) if isinstance(v, Exact) else v - 1
    return compute


#: eps(delta) is searched up to 2^EPS_MAX_BITS (closed-form profiles); past it the command refuses
EPS_MAX_BITS = 1000
#: ... and up to 2^17 by the numerical supremum: its maximiser alpha <= e^-eps must lie well inside
#: [e^LOG_ALPHA_LOW, 1] (past eps ~ 230259 the supremum misses it and eps(delta) came out too small)
EPS_SUP_MAX_BITS = 17


def _bracket(above, reachable, limit_bits: int):
    """(lo, hi) with hi = 2 lo (or [0, 1]) and the root of the decreasing delta(eps) - target inside;
    (lo, None) when no finite eps reaches the target; (None, hi) when none below 2^limit_bits does.

    The exponent of hi doubles (2, 4, 16, 256, 2^16, ... : a dozen evaluations up to 2^1000, where
    doubling hi took a thousand, 90 s for G_1e150), then bisection on the exponent narrows the bracket
    to one binade.  reachable() is asked once hi passes 2^24 (1 - f(0) < delta: some finite eps)."""
    if not above(mpmath.mpf(1)):
        return _small_bracket(above)
    lo_bits, hi_bits, asked = 0, 1, False
    while above(mpmath.ldexp(1, hi_bits)):
        if hi_bits >= limit_bits:
            return None, mpmath.ldexp(1, hi_bits)
        lo_bits, hi_bits = hi_bits, min(2 * hi_bits, limit_bits)
        if hi_bits >= 24 and not asked:
            asked = True
            if not reachable():
                return mpmath.mpf(0), None
    lo_bits, hi_bits = bisect(lambda bits: above(mpmath.ldexp(1, bits)), lo_bits, hi_bits,
                              mid=integer_midpoint, stop=lambda lo, hi: hi - lo <= 1)
    return mpmath.ldexp(1, lo_bits), mpmath.ldexp(1, hi_bits)


#: a root below 2^-EPS_MIN_BITS is bracketed by [0, 2^-EPS_MIN_BITS] (mechanism parameters are at least
#: 1e-1000 ~ 2^-3322, derive/domains.py, and eps(delta) scales with them)
EPS_MIN_BITS = 8192


def _small_bracket(above):
    """(lo, hi) for a root in (0, 1] (the caller saw above(0) and not above(1)): the exponent of lo halves
    (2^-1, 2^-2, 2^-4, ..., 2^-8192) until above(lo), then bisection on the exponent narrows the bracket
    to one binade.  Before, [0, 1] itself was returned, and the search, stopping at a width relative to
    hi after prec + 64 halvings, answered eps = 0 for G_mu with mu = 6.3e-297 at delta = 1e-300 (the
    root is 1.9e-296: delta(0) = 2.5e-297 > 1e-300)."""
    hi_bits, lo_bits = 0, -1
    while not above(mpmath.ldexp(1, lo_bits)):
        if lo_bits <= -EPS_MIN_BITS:
            return mpmath.mpf(0), mpmath.ldexp(1, lo_bits)
        hi_bits, lo_bits = lo_bits, max(2 * lo_bits, -EPS_MIN_BITS)
    lo_bits, hi_bits = bisect(lambda bits: above(mpmath.ldexp(1, bits)), lo_bits, hi_bits,
                              mid=integer_midpoint, stop=lambda lo, hi: hi - lo <= 1)
    return mpmath.ldexp(1, lo_bits), mpmath.ldexp(1, hi_bits)


def _gaussian_bracket(record: TradeOff, target):
    """For G_mu with a large mu (a record with the ``gdp_mu`` fact), a proved bracket of eps(delta): with eps = mu^2/2 + mu t,
    delta(eps) = Phi(-t) - e^eps Phi(-t - mu), and e^eps Phi(-t - mu) <= phi(t)/(t + mu) (Mills' ratio), so
    Phi(-t) - phi(t)/(t + mu) <= delta(eps) < Phi(-t): the root lies between t = z2 (Phi(-z2) = 2 delta, when
    phi(z2)/(z2 + mu) < delta/2) and t = z (Phi(-z) = delta).  Its relative width ~ 2 (z - z2)/mu is below the
    working precision for mu ~ 1e150, where the search over eps took 90 s.  None where it does not apply."""
    fact = record.facts.get("gdp_mu")         # the capability: the record is G_mu (derive.mechanisms.gaussian)
    mu_expr = record.bind(fact[0]) if fact is not None else None
    if mu_expr is None or mu_expr.free_symbols:     # a record rebuilt without its parameter values: no bracket
        return None
    mu, t = to_mpf(compile_mp(mu_expr)(bound_env(record))), to_mpf(target)
    if mu < 2 ** 16 or not 0 < t < mpmath.mpf(1) / 4:
        return None
    z, z2 = -ndtri_lower(t), -ndtri_lower(2 * t)
    if mpmath.exp(-z2 * z2 / 2) / mpmath.sqrt(2 * mpmath.pi) / (z2 + mu) >= t / 2:
        return None
    margin = mpmath.ldexp(1, -mpmath.mp.prec + 8)       # the rounding of z, z2 and the products
    return (mu * mu / 2 + mu * z2) * (1 - margin), (mu * mu / 2 + mu * z) * (1 + margin)


#: the most guard bits: the cancellation in delta(eps) = P(L > eps) - e^eps Q(L > eps) is about log2 of
#: (term / delta); near the root the two terms differ in relative terms by about eps_0 (Laplace) or z mu
#: (G_mu at eps = z mu), so it is at most about log2(1/param) <= 3322 bits for the domain's smallest
#: parameter 1e-1000 (derive/domains.py), and never more than log2(1/delta)
GUARD_MAX_BITS = 3500


def _guard_bits(target) -> int:
    """min(log2(1/delta), GUARD_MAX_BITS) bits added to the working precision where delta(eps) is compared
    with delta (``eps_at``)."""
    t = to_mpf(target)
    if not t > 0:
        return 0
    return min(GUARD_MAX_BITS, max(0, int(-mpmath.log(t, 2)) + 1))


def eps_at(record: TradeOff, delta, digits: int):
    """compute() of eps(delta) = inf{eps >= 0 : delta(eps) <= delta}."""
    target = exact_of(parse("delta", delta, 0, 1))     # delta = 1: eps = 0 (delta(0) <= 1 always)
    delta_of = _delta_maker(record)

    # delta(eps) is a difference of two probabilities (P(L > eps) - e^eps Q(L > eps), each at most 1), so
    # at p bits its absolute error is about 2^-p whatever its size: deciding delta(eps) > delta needs p
    # bits beyond log2(1/delta).  At the working precision alone G_mu, mu = 6.3e-297, answered eps = 0 at
    # delta = 1e-300: delta(0) = 2.5e-297 cancelled to 0 (the root is 1.9e-296).
    guard = _guard_bits(target)

    def above(e):
        with mpmath.workprec(mpmath.mp.prec + guard):
            d = delta_of(e)()
            if isinstance(d, Exact):
                return d.cmp(target) > 0
            return d > to_mpf(target)

    power = compile_mp(record.bind(record.power))

    def reachable():
        """delta(eps) decreases to 1 - f(0) as eps -> inf (the alpha = 0 term of the supremum is 1 - f(0),
        and the others vanish): a finite eps exists iff 1 - f(0) < delta.  Asked only once eps passes
        2^24 (it used to answer inf there, silently: eps of G_10000 at 1e-5 is 5.0e7)."""
        env = bound_env(record)
        env[ALPHA] = ZERO
        p0 = power(env)
        return (p0.cmp(target) < 0) if isinstance(p0, Exact) else (p0 < to_mpf(target))

    limit = EPS_MAX_BITS if record.profile is not None else EPS_SUP_MAX_BITS

    def compute():
        if not above(ZERO):
            return ZERO
        lo, hi = _gaussian_bracket(record, target) or _bracket(above, reachable, limit)
        if hi is None or (lo is None and not reachable()):
            return mpmath.mpf("inf")
        if lo is None:
            raise DomainError("delta", delta, f"large enough that eps(delta) <= 2^{limit} (about "
                              f"{mpmath.nstr(mpmath.ldexp(1, limit), 3)}) for {record}, the largest eps "
                              "computed here: eps(delta) exceeds it; take a smaller mechanism parameter")
        # stop a few ulps above the working precision (never below one ulp)
        tol = mpmath.ldexp(1, -mpmath.mp.prec + 6)
        if hi - lo <= tol * hi:
            return hi
        if slope is not None:
            return _newton_in_bracket(lo, hi, tol)
        _, hi = bisect(above, lo, hi, steps=mpmath.mp.prec + 64, stop=lambda lo, hi: hi - lo <= tol * hi)
        return hi

    # a closed-form profile: Newton on log delta(eps) = log(target) inside the bracket (delta is
    # decreasing in eps), with the derivative of the profile taken by SymPy; a step that leaves the
    # bracket, or a delta that is not positive, falls back to bisection.  ~10 steps instead of ~170.
    slope = None
    if record.profile is not None:
        value = compile_mp(record.bind(record.profile))
        slope = compile_mp(sp.diff(record.bind(record.profile), eps_prime))

    def _newton_in_bracket(lo, hi, tol):
        log_t = mpmath.log(to_mpf(target))

        def probe(x):
            with mpmath.workprec(mpmath.mp.prec + guard):
                d = to_mpf(value({eps_prime: x}))

            def step():
                if d > 0:
                    dd = to_mpf(slope({eps_prime: x}))
                    if dd < 0:
                        return (mpmath.log(d) - log_t) * d / dd
                return None
            return d > to_mpf(target), step
        return newton_in_bracket(probe, lo, hi, tol, mpmath.mp.prec + 64)
    return compute


def inverse_at(record: TradeOff, alpha, digits: int):
    """compute() of f^{-1}(alpha)."""
    a = alpha_exact(alpha)
    fn = compile_mp(record.tradeoff if not record.values else record.f)
    env = bound_env(record)
    if record.symmetric:
        def direct():
            env[ALPHA] = a
            return fn(env)
        return direct

    def at_most(t):
        env[ALPHA] = t
        v = fn(env)
        if isinstance(v, Exact) and isinstance(t, Exact):
            return v.cmp(a) <= 0
        return to_mpf(v) <= to_mpf(a)

    def compute():
        if at_most(ZERO):
            return ZERO
        lo, hi = mpmath.mpf(LOG_ALPHA_LOW), mpmath.mpf(0)
        tol = mpmath.ldexp(1, -mpmath.mp.prec + 6)
        _, hi = bisect(lambda u: not at_most(mpmath.exp(u)), lo, hi, steps=mpmath.mp.prec + 64,
                       stop=lambda lo, hi: hi - lo <= tol * max(1, abs(hi)))
        return mpmath.exp(hi)
    return compute


def symmetrized_at(record: TradeOff, alpha, digits: int):
    """compute() of max{f(alpha), f^{-1}(alpha)}."""
    a = alpha_exact(alpha)
    fn = compile_mp(record.f)
    env = bound_env(record)
    inv = inverse_at(record, alpha, digits)

    def compute():
        env[ALPHA] = a
        u, v = fn(env), inv()
        return u if to_mpf(u) >= to_mpf(v) else v
    return compute


def from_profile_at(delta_of_eps: sp.Expr, alpha, digits: int):
    """compute() of sup_eps f_{eps, delta(eps)}(alpha), delta given in ``eps_prime``."""
    a = alpha_exact(alpha)
    if delta_of_eps.free_symbols - {eps_prime}:
        raise DomainError("profile", delta_of_eps, "an expression in eps' only")
    f_expr = approx_dp_tradeoff(eps_prime, delta_of_eps, ALPHA)
    fn = compile_mp(f_expr)

    def g(e):
        return to_mpf(fn({eps_prime: e, ALPHA: a}))

    def compute():
        a_m = to_mpf(a)
        top = mpmath.mpf(60) if a_m == 0 else max(mpmath.mpf(2), -mpmath.log(a_m) + 2)
        grid = [top * k / 64 for k in range(65)]
        values = [g(e) for e in grid]
        k = max(range(65), key=lambda i: values[i])
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, 64)]
        _, m = golden_max(g, lo, hi)
        return max(m, values[k])
    return compute
