"""Plot kinds of seed 002 (Kazan et al. 2025) Figs. 1 and 7 for an (eps, delta)-DP release (issue #26 item 6).

* KIND eps-prime (Fig. 1): eps' of Theorem 3.9, eps' = eps + log1p(delta (1 + e^-eps)/(delta' - delta)),
  against delta' in (delta, 1] on a log axis, with eps beside it: the release is (eps', delta')-PDP, the
  price of reading an (eps, delta) guarantee as a posterior bound that fails with probability delta'.
* KIND prior-ratio (Fig. 7, left): by Corollary 3.10 (2), with probability >= 1 - delta' the posterior P of
  membership satisfies L(p, eps') <= P <= U(p, eps') (U(p, e) = p e^e / (p e^e + 1 - p), L(p, e) = U(p, -e)),
  so P/p lies in [1/(p + (1 - p) e^eps'), 1/(p + (1 - p) e^-eps')] and (1 - P)/(1 - p) in the same interval
  at the prior 1 - p; the two series drawn are the envelope of both events (the larger upper end and the
  smaller lower end), against the prior p (catalog 002 KZ-S4.4-ratio).
* KIND prior-difference (Fig. 7, right): P - p in [L(p, eps') - p, U(p, eps') - p]; the change of the
  complement event is its negative, so the envelope of both is +-max(U(p, eps') - p, p - L(p, eps')),
  largest (tanh(eps'/4)) at p = 1/(1 + e^{eps'/2}) and its mirror (catalog 002 KZ-S4.4-diff, Lemma 3.4).

Every point is one SymPy expression of ``derive.semantics`` (the differences U - p without subtraction)
at exact inputs (eps, delta of the record's EPS_DELTA fact; delta' and the prior and its complement as
exact decimals), evaluated to verified digits (``numeric.precision.evaluate_env``).
"""

from __future__ import annotations

#: KIND -> (x label, y label, log x)
PRIOR_AXES = {"eps-prime": ("delta' (the bound fails with probability at most delta'), log scale",
                            "eps' of Theorem 3.9 ((eps', delta')-PDP)", True),
              "prior-ratio": ("prior probability p of membership",
                              "posterior-to-prior ratio bounds (P/p and (1-P)/(1-p))", False),
              "prior-difference": ("prior probability p of membership",
                                   "posterior-to-prior difference bounds (P - p and its complement)", False)}

PRIOR_HELP = ("KIND eps-prime, prior-ratio, prior-difference (MECH approx-dp --eps E --delta D, or any (eps, "
              "delta)-DP mechanism): eps' of Theorem 3.9 against delta' (seed 002 Fig. 1); the bounds of "
              "Corollary 3.10 on the posterior-to-prior ratio and difference, holding with probability >= "
              "1 - --delta-prime, against the prior (seed 002 Fig. 7).")

#: the priors drawn: a fine grid with the ends approached (the ratio bounds tend to e^{+-eps'} there)
PRIORS = tuple(["0.0001", "0.001", "0.005"] + [f"{i / 100:.2f}" for i in range(1, 100)] + ["0.995", "0.999", "0.9999"])


def takes(record) -> bool:
    """Records with an (eps, delta) pair (the EPS_DELTA fact): approx-dp, randomized response, ..."""
    from derive.mechanisms import facts as K
    return record.fact(K.EPS_DELTA) is not None


def _eps_delta(mechanism, records, combos):
    """(eps, delta) as exact Rationals from the record's EPS_DELTA fact."""
    from .common import UsageError, fact_value
    if len(combos) != 1:
        raise UsageError(f"mechanism: KIND eps-prime/prior-* draws one (eps, delta) per plot ({len(combos)} given)")
    symbolic = mechanism.build(None, records.options)
    return tuple(_exact(name, fact_value(mechanism, symbolic, records, combos[0], _key(), i))
                 for i, name in enumerate(("eps", "delta")))


def _exact(name, value):
    import sympy as sp

    from derive.exact import as_expr, rational

    from .common import UsageError
    if isinstance(value, str):
        return rational(name, value)
    value = as_expr(value)
    if not isinstance(value, sp.Rational):
        raise UsageError(f"{name}={value}: KIND eps-prime/prior-* needs an exact {name}")
    return value


def _key():
    from derive.mechanisms import facts as K
    return K.EPS_DELTA


def _env(eps, delta, delta_prime, prior=None):
    from derive import semantics as S
    from derive.exact import rational
    from derive.symbols import delta as DELTA
    from derive.symbols import eps as EPS
    from numeric.bridge import exact_of
    from numeric.risk import prior_env
    env = {EPS: exact_of(rational("eps", eps)), DELTA: exact_of(rational("delta", delta)),
           S.delta_p: exact_of(rational("delta_prime", delta_prime))}
    if prior is not None:
        env.update(prior_env(prior))
    return env


def eps_prime_points(eps, delta, delta_primes, digits):
    """[(delta', eps')] (Theorem 3.9, log1p form)."""
    from derive import semantics as S
    from numeric.precision import evaluate_env
    expr = S.eps_prime()
    return [(d, evaluate_env(expr, _env(eps, delta, d), digits)) for d in delta_primes]


def ratio_points(eps, delta, delta_prime, priors, digits):
    """[(p, lower envelope, upper envelope)] of P/p and (1 - P)/(1 - p) (Corollary 3.10 (2))."""
    from derive import semantics as S
    from numeric.precision import evaluate_env
    ep = S.eps_prime()
    lo, hi = S.ratio_bounds_at_prior(ep)
    out = []
    for p in priors:
        env = _env(eps, delta, delta_prime, p)
        lows = [evaluate_env(lo, env, digits), evaluate_env(_complement(lo), env, digits)]
        highs = [evaluate_env(hi, env, digits), evaluate_env(_complement(hi), env, digits)]
        out.append((p, min(lows), max(highs)))
    return out


def _complement(expr):
    """The same bound for the complement event (1 - P)/(1 - p): the prior and its complement swapped."""
    from derive.posterior import prior as PRIOR
    from derive.posterior import prior_c as PRIOR_C
    return expr.xreplace({PRIOR: PRIOR_C, PRIOR_C: PRIOR})


def difference_points(eps, delta, delta_prime, priors, digits):
    """[(p, max(U(p, eps') - p, p - L(p, eps')))]: the envelope is +- this (Corollary 3.10 (2))."""
    from derive import semantics as S
    from numeric.precision import evaluate_env
    up, down = _sides(S.eps_prime())
    out = []
    for p in priors:
        env = _env(eps, delta, delta_prime, p)
        out.append((p, max(evaluate_env(up, env, digits), evaluate_env(down, env, digits))))
    return out


def _sides(ep):
    """(U(p, eps') - p, p - L(p, eps')): the largest rise of P and of 1 - P."""
    from derive import semantics as S
    return S.difference_at_prior(ep), -S.difference_at_prior(-ep)


def _delta_primes(delta, n):
    """delta' from just above delta to 1 on a log grid (exact decimals): delta (1 + 10^-3) ... 1."""
    from fractions import Fraction

    import mpmath
    d = Fraction(int(delta.p), int(delta.q))
    if d == 0:
        lo = mpmath.mpf("1e-12")
    else:
        lo = mpmath.mpf(d.numerator) / d.denominator * mpmath.mpf("1.001")
        if lo >= 1:                                   # delta within 0.1 % of 1: the midpoint of (delta, 1)
            lo = (1 + mpmath.mpf(d.numerator) / d.denominator) / 2
    n = max(int(n), 2)
    out = []
    for i in range(n):
        x = mpmath.power(10, mpmath.log10(lo) * (1 - mpmath.mpf(i) / (n - 1)))
        out.append(mpmath.nstr(x, 6, min_fixed=-mpmath.inf, max_fixed=mpmath.inf) if i < n - 1 else "1")
    return [x for x in out if d == 0 or Fraction(x) > d]


def prior_series(args, mechanism, records, combos, out, data, digits, emit) -> int:
    """Draw KIND eps-prime, prior-ratio or prior-difference (``emit``: plot._emit_series)."""
    import mpmath

    from derive.domains import parse_in
    from numeric import curves as CV

    from .common import UsageError
    eps, delta = _eps_delta(mechanism, records, combos)
    if delta >= 1:
        raise UsageError("delta: KIND eps-prime/prior-* needs delta < 1")
    xlabel, ylabel, logx = PRIOR_AXES[args.kind]
    shown = f"eps = {_show(eps)}, delta = {_show(delta)}"
    if args.kind == "eps-prime":
        pts = eps_prime_points(eps, delta, _delta_primes(delta, int(args.points or 61)), digits)
        xs = tuple(x for x, _ in pts)
        items = [CV.Series("eps' (Theorem 3.9)", xs, tuple(mpmath.mpf(y) for _, y in pts), digits),
                 CV.Series("eps", xs, tuple(mpmath.mpf(int(eps.p)) / int(eps.q) for _ in xs), digits, "reference")]
        title = f"eps' against delta' for an (eps, delta)-DP release, {shown}"
        return emit(items, args.kind, xlabel, ylabel, title, out, data, logx=True)
    dp = parse_in("delta_prime_open", args.delta_prime, "delta_prime")
    if not dp > delta:
        raise UsageError(f"delta_prime={args.delta_prime}: delta' must exceed delta = {_show(delta)} (Theorem 3.9)")
    level = f"probability >= 1 - {args.delta_prime}"
    if args.kind == "prior-ratio":
        pts = ratio_points(eps, delta, args.delta_prime, PRIORS, digits)
        items = [CV.Series("upper bound (larger of P/p and (1-P)/(1-p))", PRIORS,
                           tuple(mpmath.mpf(h) for _, _, h in pts), digits),
                 CV.Series("lower bound (smaller of the two)", PRIORS, tuple(mpmath.mpf(lo) for _, lo, _ in pts), digits)]
    else:
        pts = difference_points(eps, delta, args.delta_prime, PRIORS, digits)
        items = [CV.Series("upper bound on the change (P - p or its complement)", PRIORS,
                           tuple(mpmath.mpf(v) for _, v in pts), digits),
                 CV.Series("lower bound (its negative)", PRIORS, tuple(-mpmath.mpf(v) for _, v in pts), digits)]
    title = f"Corollary 3.10 bounds against the prior, {shown}, {level}"
    return emit(items, args.kind, xlabel, ylabel, title, out, data, logx=False)


def _show(r) -> str:
    from derive.exact import _show as show
    return show(r)


__all__ = ["PRIOR_AXES", "PRIOR_HELP", "PRIORS", "takes", "eps_prime_points", "ratio_points", "difference_points",
           "prior_series"]
