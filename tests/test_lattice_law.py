"""Exact lattice laws (numeric/lattice_law.py; issue #25 item 2) and the engine's lattice step measures.

References, each independent of the code under test:
* brute force: every composed atom enumerated (the product of the components' full binomial laws,
  ``mpmath.binomial`` at 50 digits, no truncation), Neyman-Pearson by sorting the atoms by L and filling the
  rejection region greedily, and delta(eps) = lost + sum_{L > eps} P(L)(1 - e^{eps - L});
* large k: a term-by-term sum with ``mpmath.loggamma`` for every term at 40 digits (no recursion), and
  scipy's binomial CDF (Cephes' incomplete beta, float64) for the Neyman-Pearson index and beta;
* the fixed-point summation: ``mpmath.fsum`` of every term;
* the engine must bracket every exact value.
Each reference is broken once on purpose (the ``mutation`` tests) to show that the comparison can fail.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from numeric import compose_exact as X
from numeric import lattice_law as LL

DPS = 50


def _brute(comps):
    """comps [(eps, k, delta)] -> (atoms [(L, P)], lost): every composed atom, exact binomial weights."""
    dist = [(mpmath.mpf(0), mpmath.mpf(1))]
    keep = mpmath.mpf(1)
    for e, k, d in comps:
        e, d = mpmath.mpf(e), mpmath.mpf(d)
        keep *= (1 - d) ** k
        a = 1 / (1 + mpmath.exp(e))
        step = [((k - 2 * i) * e, mpmath.binomial(k, i) * a ** i * (1 - a) ** (k - i)) for i in range(k + 1)]
        merged = {}
        for l1, p1 in dist:
            for l2, p2 in step:
                key = mpmath.nstr(l1 + l2, 30)
                lv, pv = merged.get(key, (l1 + l2, 0))
                merged[key] = (lv, pv + p1 * p2)
        dist = list(merged.values())
    return [(l, p * keep) for l, p in dist], 1 - keep


def brute_delta(comps, e):
    atoms, lost = _brute(comps)
    e = mpmath.mpf(e)
    return lost + mpmath.fsum(p * (1 - mpmath.exp(e - l)) for l, p in atoms if l > e)


def brute_beta(comps, alpha):
    """beta at type-I error alpha: reject the largest L first (Q-mass P e^{-L}), randomise at the boundary."""
    atoms, lost = _brute(comps)
    atoms.sort(key=lambda lp: lp[0], reverse=True)
    a = mpmath.mpf(alpha)
    used, power = mpmath.mpf(0), lost
    for l, p in atoms:
        q = p * mpmath.exp(-l)
        if used + q <= a:
            used, power = used + q, power + p
        else:
            power += p * (a - used) / q
            break
    return 1 - power


def _v(x):
    """An exact route's value as an mpf (an exact 0 or 1 comes back as ``Exact``)."""
    from numeric.precision import as_mpf
    return as_mpf(x, DPS)


def _entries(comps):
    from derive.mechanisms.table import lookup
    out = []
    for e, k, d in comps:
        rec = (lookup("randomized-response").build({"eps": e}) if d == "0" and e != "0"
               else lookup("approx-dp").build({"eps": e, "delta": d}))
        out.append((rec, k))
    return out


# ------------------------------------------------------------------ the fixed-point sums


@pytest.mark.parametrize("lo,hi", [(0, 120), (0, 20), (0, 45), (60, 120), (40, 50), (0, 0), (120, 120)])
def test_binom_sum_equals_every_term(lo, hi):
    k = 120
    with mpmath.workdps(30):
        x = 1 / (1 + mpmath.e)
        y = 1 - x
        term = lambda i: mpmath.binomial(k, i) * x ** i * y ** (k - i)          # noqa: E731
        ref = mpmath.fsum(term(i) for i in range(lo, hi + 1))
        assert abs(LL._binom_sum(k, x, y, lo, hi) - ref) <= mpmath.mpf(10) ** -28 * ref
        # the hockey weight 1 - v0 e^{-e2 (i0 - i)}, v0 just below 1 (its relative accuracy is kept)
        v0, e2 = mpmath.mpf("-1e-20"), mpmath.mpf("0.3")
        refw = mpmath.fsum(term(i) * -mpmath.expm1(v0 - e2 * (hi - i)) for i in range(lo, hi + 1))
        got = LL._binom_sum(k, x, y, lo, hi, (hi, v0, e2))
        assert abs(got - refw) <= mpmath.mpf(10) ** -28 * refw


# ------------------------------------------------------------------ one eps: brute force


SMALL = [[("0.5", 9, "0")], [("0.1", 30, "1e-4")], [("1.5", 7, "0.001")], [("0.2", 1, "0")],
         [("0.1", 12, "0"), ("0.1", 8, "1e-3")]]          # the last: same eps, different deltas (one binomial)


@pytest.mark.parametrize("comps", SMALL)
def test_one_eps_against_brute_force(comps):
    entries = _entries(comps)
    with mpmath.workdps(DPS):
        for e in ["0", "0.3", "1", "2.5"]:
            got = _v(X.lattice_delta(entries, e, 25).value)
            ref = brute_delta(comps, e)
            assert abs(got - ref) <= mpmath.mpf(10) ** -23 * max(ref, mpmath.mpf(10) ** -40), (e, got, ref)
        for alpha in ["1e-6", "0.05", "0.5"]:
            r = X.lattice_tradeoff(entries, alpha, 25)
            ref = brute_beta(comps, alpha)
            assert abs(_v(r.value) - ref) <= mpmath.mpf(10) ** -23 * max(ref, mpmath.mpf(10) ** -40), (alpha, r, ref)
        for d in ["1e-2", "0.1"]:
            ev = _v(X.lattice_eps(entries, d, 25).value)
            if ev == mpmath.inf:
                assert brute_delta(comps, 1000) > mpmath.mpf(d)
                continue
            # delta(eps(d)) = d, and just below eps(d) delta is larger (eps is the smallest such eps); or
            # eps(d) = 0 with delta(0) <= d
            if ev == 0:
                assert brute_delta(comps, 0) <= mpmath.mpf(d)
                continue
            assert abs(brute_delta(comps, ev) - mpmath.mpf(d)) <= mpmath.mpf(10) ** -20
            assert brute_delta(comps, ev - mpmath.mpf(10) ** -8) > mpmath.mpf(d)


def test_single_record_route_is_the_same_law():
    """k copies of one record (compose_exact.delta) and the same list through the lattice route agree."""
    from derive.mechanisms.table import lookup
    rec = lookup("approx-dp").build({"eps": "0.3", "delta": "1e-5"})
    a = X.delta(rec, None, 40, "1", 20).value
    b = X.lattice_delta([(rec, 25), (rec, 15)], "1", 20).value
    assert abs(a - b) <= mpmath.mpf(10) ** -19 * a


# ------------------------------------------------------------------ several eps: brute force


SEVERAL = [[("0.1", 14, "0"), ("0.3", 6, "1e-4")],                      # eps sharing the lattice 0.1
           [("0.1", 10, "0"), ("0.07", 9, "0"), ("0", 3, "1e-3")],     # lattice 0.01, an eps = 0 step
           [("0.25", 5, "1e-6"), ("0.07", 6, "0")]]                     # lattice 0.01, multiples 25 and 7


@pytest.mark.parametrize("comps", SEVERAL)
def test_several_eps_against_brute_force(comps):
    entries = _entries(comps)
    assert X.lattice_cost(entries) is not None
    with mpmath.workdps(DPS):
        for e in ["0", "0.45", "1.3"]:
            got = _v(X.lattice_delta(entries, e, 25).value)
            ref = brute_delta(comps, e)
            assert abs(got - ref) <= mpmath.mpf(10) ** -23 * ref, (e, got, ref)
        for alpha in ["1e-4", "0.2"]:
            got = _v(X.lattice_tradeoff(entries, alpha, 25).value)
            ref = brute_beta(comps, alpha)
            assert abs(got - ref) <= mpmath.mpf(10) ** -23 * ref, (alpha, got, ref)
        ev = _v(X.lattice_eps(entries, "0.01", 25).value)
        assert abs(brute_delta(comps, ev) - mpmath.mpf("0.01")) <= mpmath.mpf(10) ** -20


def test_mutation_wrong_lattice_multiple_is_caught(monkeypatch):
    """Put the second component on the wrong multiple of the common lattice: brute force notices."""
    orig = LL._gcd
    monkeypatch.setattr(LL, "_gcd", lambda values: orig(values) * 2 if len(values) > 1 else orig(values))
    LL._convolved_at.cache_clear()                 # (the laws built by the tests above are cached)
    monkeypatch.setattr(LL, "_convolved_at", LL._convolved_at.__wrapped__)
    comps = SEVERAL[0]
    got = X.lattice_delta(_entries(comps), "0.45", 20).value
    with mpmath.workdps(DPS):
        ref = brute_delta(comps, "0.45")
    assert abs(got - ref) > mpmath.mpf(10) ** -5 * ref


def test_mutation_fixed_point_ratio_is_caught(monkeypatch):
    """A ratio off by one part in 10^12 in the fixed-point recursion: the every-term reference notices."""
    orig = LL._fixed
    monkeypatch.setattr(LL, "_fixed", lambda v, bits: orig(v * (1 + mpmath.mpf(10) ** -12), bits))
    with mpmath.workdps(30):
        x = 1 / (1 + mpmath.e)
        ref = mpmath.fsum(mpmath.binomial(120, i) * x ** i * (1 - x) ** (120 - i) for i in range(0, 21))
        assert abs(LL._binom_sum(120, x, 1 - x, 0, 20) - ref) > mpmath.mpf(10) ** -25 * ref


# ------------------------------------------------------------------ large k


def _loggamma_delta(eps, k, e, dps=40):
    """delta(e) of k RR(eps) steps term by term, each from loggamma (no recursion), from the last atom
    above e downwards until the terms fall below 10^-(dps+5) of the sum (they decrease: below the mode)."""
    with mpmath.workdps(dps):
        eps, e = mpmath.mpf(eps), mpmath.mpf(e)
        la, lb = -mpmath.log1p(mpmath.exp(eps)), -mpmath.log1p(mpmath.exp(-eps))
        i = int(mpmath.ceil((k - e / eps) / 2)) - 1
        total = mpmath.mpf(0)
        while i >= 0:
            t = mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(i + 1) - mpmath.loggamma(k - i + 1)
                           + i * la + (k - i) * lb) * -mpmath.expm1(e - (k - 2 * i) * eps)
            total += t
            if t < mpmath.mpf(10) ** -(dps + 5) * total:
                break
            i -= 1
        return total


@pytest.mark.parametrize("eps0, k, at", [
    ("0.03", 10**5, "20"),                                                   # delta ~ 1e-5
    pytest.param("0.01", 10**6, "96.7", marks=pytest.mark.slow),             # delta ~ 1e-6
])
def test_delta_and_eps_against_loggamma_terms(eps0, k, at):
    """RR(eps0) x k: delta at eps = at and eps(1e-6), the exact route against the term-by-term sum."""
    got = X.delta("randomized-response", {"eps": eps0}, k, at, 20).value
    ref = _loggamma_delta(eps0, k, at)
    assert abs(got - ref) <= mpmath.mpf(10) ** -18 * ref
    e = X.eps("randomized-response", {"eps": eps0}, k, "1e-6", 20).value
    assert abs(_loggamma_delta(eps0, k, e) - mpmath.mpf("1e-6")) <= mpmath.mpf(10) ** -17


def test_ten_million_steps_tradeoff_against_scipy():
    """RR(0.001) x 10^7 at alpha = 0.05: the Neyman-Pearson index and beta against scipy's binomial CDF
    (Cephes' incomplete beta in float64: it is off by 1.8e-8 relative here against the loggamma sums of
    ``test_ten_million_steps_tradeoff_against_loggamma_terms``, so the tolerance is 1e-7)."""
    from scipy.special import bdtr, bdtrc
    k, alpha = 10**7, 0.05
    a = 1 / (1 + mpmath.exp(mpmath.mpf("0.001")))
    af, bf = float(a), float(1 - a)
    r = X.tradeoff("randomized-response", {"eps": "0.001"}, k, "0.05", 15)
    # the index: smallest i with Q(I <= i) >= alpha, I ~ Bin(k, b) under Q
    i = int(mpmath.nint(k * bf))
    while bdtr(i, k, bf) < alpha:
        i += 1
    while i > 0 and bdtr(i - 1, k, bf) >= alpha:
        i -= 1
    q_i = bdtr(i, k, bf) - bdtr(i - 1, k, bf)
    gamma = (alpha - bdtr(i - 1, k, bf)) / q_i
    p_i = bdtrc(i - 1, k, af) - bdtrc(i, k, af)      # the upper tail: I = i lies far above the P-mode
    beta = bdtrc(i, k, af) + (1 - gamma) * p_i
    assert abs(float(r.value) - beta) <= 1e-7 * beta


@pytest.mark.slow
def test_ten_million_steps_tradeoff_against_loggamma_terms():
    """The same query against term-by-term loggamma sums at 30 digits (the index from scipy, checked here):
    Q(I <= i-1) < alpha <= Q(I <= i), gamma, and beta = P(I > i) + (1 - gamma) P(I = i)."""
    from scipy.special import bdtr
    k = 10**7
    r = X.tradeoff("randomized-response", {"eps": "0.001"}, k, "0.05", 20)
    with mpmath.workdps(30):
        a = 1 / (1 + mpmath.exp(mpmath.mpf("0.001")))
        b = 1 - a
        lg = mpmath.loggamma(k + 1)

        def terms(x, lo, hi):
            lx, ly = mpmath.log(x), mpmath.log(1 - x)
            return mpmath.fsum(mpmath.exp(lg - mpmath.loggamma(j + 1) - mpmath.loggamma(k - j + 1) + j * lx
                                          + (k - j) * ly) for j in range(lo, hi + 1))
        i = int(k * float(b))
        while bdtr(i - 1, k, float(b)) >= 0.05:
            i -= 1
        below = terms(b, i - 12000, i - 1)           # 7.6 sd: the rest is below 1e-12 of it
        qi = terms(b, i, i)
        alpha = mpmath.mpf("0.05")
        assert below < alpha <= below + qi
        gamma = (alpha - below) / qi
        beta = terms(a, i + 1, i + 12000) + (1 - gamma) * terms(a, i, i)
        assert abs(r.value - beta) <= mpmath.mpf(10) ** -12 * beta


# ------------------------------------------------------------------ the engine on lattice steps


def test_engine_lattice_measure_is_exact_and_brackets():
    """100 x RR(0.1): the engine's step measures are the step's own atoms (upper = lower up to outward
    rounding) and its delta / eps brackets hold the exact value with a width below 1e-8 (they were
    [0, 0.239] and [0, 4.77] before: the interpolating hull lost the +eps atom)."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    comp = pld.compose([(M.randomized_response("0.1"), 100)])
    r = comp.delta("0.5")
    ex = X.delta("randomized-response", {"eps": "0.1"}, 100, "0.5", 20).value
    assert r.delta_lower <= ex <= r.delta_upper and r.delta_upper - r.delta_lower <= 1e-8
    r = comp.eps("1e-6")
    ex = X.eps("randomized-response", {"eps": "0.1"}, 100, "1e-6", 20).value
    assert r.eps_lower <= ex <= r.eps_upper and r.eps_upper - r.eps_lower <= 1e-8
    up, lo = (pld._lattice_measure(M.PureDP("0.1"), Fraction(1, 10), kind) for kind in ("upper", "lower"))
    assert list(up.knots) == [-1, 1] and all(lo.mass <= up.mass) and max(up.mass - lo.mass) < 1e-15


def test_mutation_lattice_lower_measure_too_heavy_is_caught(monkeypatch):
    """A lower measure with 1e-6 too much mass on the +eps atom: the bracket no longer holds the exact value.
    (The engine's k-th power of the one-step measure, so the k-fold law of numeric.lattice_power is
    switched off; tests/test_lattice_power.py has that route's mutations.)"""
    from numeric import lattice_power, pld
    from numeric import pld_mechanisms as M
    monkeypatch.setattr(lattice_power, "MIN_K", 10 ** 9)
    orig = pld._lattice_measure

    def heavy(model, h, kind):
        m = orig(model, h, kind)
        if m is not None and kind == "lower":
            m.mass = m.mass.copy()
            m.mass[-1] *= 1 + 1e-6
        return m
    monkeypatch.setattr(pld, "_lattice_measure", heavy)
    r = pld.compose([(M.randomized_response("0.1"), 100)]).delta("0.5")
    ex = X.delta("randomized-response", {"eps": "0.1"}, 100, "0.5", 20).value
    assert not r.delta_lower <= ex


@pytest.mark.slow
def test_engine_tradeoff_target_100_rr():
    """Issue #25 target: 100 x RR(0.1) with the engine, beta bracket width <= 1e-9, holding the exact beta."""
    from numeric import pld
    from numeric import pld_mechanisms as M
    r = pld.compose([(M.randomized_response("0.1"), 100)]).tradeoff("0.1")
    ex = X.tradeoff("randomized-response", {"eps": "0.1"}, 100, "0.1", 20).value
    assert r.beta_lower <= ex <= r.beta_upper and r.beta_upper - r.beta_lower <= 1e-9


# ------------------------------------------------------------------ --method auto's cost model


def test_auto_prefers_the_engine_only_for_a_long_laplace_spline():
    from derive.mechanisms.table import lookup
    from proofs_check.cli import compose_fdp as C
    lap = lookup("laplace").build({"eps": "0.1"})
    rr = lookup("randomized-response").build({"eps": "0.01"})
    assert C._engine_cheaper(("law", lap, 500)) and not C._engine_cheaper(("law", lap, 100))
    assert not C._engine_cheaper(("law", rr, 10**7))
    assert not C._engine_cheaper((C.GDP, [("1", 3)], None))


# ------------------------------------------------------------------ the CLI


def test_cli_rr_past_a_million_steps_is_exact():
    """Issue #25: `compose fdp randomized-response --eps 0.01 --k 1000001 --alpha 0.1` answered beta in [0, 1];
    now the binomial route.  Reference: delta(96.7) = P(L > 96.7) - e^96.7 Q(L > 96.7) from scipy's binomial
    CDF (Cephes, float64; the cancellation is ~10x, Cephes is good to ~1e-8 here: tolerance 1e-6)."""
    from scipy.special import bdtr

    from cli_runner import run
    k = 1000001
    out = run(("compose", "fdp", "randomized-response", "--eps", "0.01", "--k", str(k), "--at-eps", "96.7",
               "--json")).json()
    assert out["method"] == "exact" and out["route"] == "binomial"
    a = float(1 / (1 + mpmath.exp(mpmath.mpf("0.01"))))
    i = int(mpmath.ceil((k - mpmath.mpf("96.7") / mpmath.mpf("0.01")) / 2)) - 1     # L > 96.7 <=> I <= i
    ref = bdtr(i, k, a) - float(mpmath.exp(mpmath.mpf("96.7"))) * bdtr(i, k, 1 - a)
    assert abs(float(out["delta"]) - ref) <= 1e-6 * ref


def test_cli_spec_of_lattice_steps_and_outward_printing(tmp_path):
    """A spec of RR(0.1) x 14 and approx-dp(0.3, 1e-4) x 6: the lattice route (brute force reference), and the
    engine's printed bracket (--method numeric) holds it too, its ends rounded outward."""
    import json

    from cli_runner import run
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanisms": [
        {"mechanism": "randomized-response", "eps": "0.1", "count": 14},
        {"mechanism": "approx-dp", "eps": "0.3", "delta": "1e-4", "count": 6}]}))
    with mpmath.workdps(DPS):
        ref = brute_delta(SEVERAL[0], "0.45")
    out = run(("compose", "fdp", "--spec", str(spec), "--at-eps", "0.45", "--json")).json()
    assert out["route"] == "lattice" and abs(mpmath.mpf(out["delta"]) - ref) <= mpmath.mpf(10) ** -14 * ref
    num = run(("compose", "fdp", "--spec", str(spec), "--at-eps", "0.45", "--json", "--method", "numeric")).json()
    assert mpmath.mpf(num["delta_lower"]) <= ref <= mpmath.mpf(num["delta_upper"])
    assert mpmath.mpf(num["delta_upper"]) - mpmath.mpf(num["delta_lower"]) <= 1e-8 * ref


def test_outward_printing():
    """The printed ends of an engine bracket never move inward (rounding to nearest printed the lower end
    9.9999999999999982e-8 as 1.00000000000000e-7, above the exact 1 - (1 - 1e-7))."""
    from numeric.precision import format_outward as outward
    x = mpmath.mpf("9.9999999999999982e-8")
    assert outward(x, 15, False) == "9.99999999999999e-8" and mpmath.mpf(outward(x, 15, True)) >= x
    y = mpmath.mpf("0.61202767444326933")
    assert outward(y, 15, True) == "0.612027674443270" and outward(y, 15, False) == "0.612027674443269"


@pytest.mark.parametrize("comps", SEVERAL)
def test_q_table_against_brute_force(comps):
    """The table of the Q-law (asked for f(alpha) when the boundary lies below the P-table) on small cases,
    where both tables hold everything: its beta and power against brute force."""
    parts = [(Fraction(e), k, [(Fraction(d), k)]) for e, k, d in comps if e != "0"]
    zero = [(Fraction(d), k) for e, k, d in comps if e == "0"]
    parts[0][2].extend(zero)
    with mpmath.workdps(DPS):
        law = LL.ConvolvedLaw(parts, under_q=True)
        for alpha in ["1e-4", "0.2", "0.9"]:
            beta, power = law.tradeoff(mpmath.mpf(alpha))
            ref = brute_beta(comps, alpha)
            assert abs(beta - ref) <= mpmath.mpf(10) ** -40 * ref and abs(power - (1 - ref)) <= mpmath.mpf(10) ** -40


def test_several_eps_in_the_dropped_tails():
    """RR(0.1) x 10^5 with RR(0.2) x 3.  At alpha = 0.1 the Neyman-Pearson boundary sits in the Q-bulk near
    L = -500, where the P-table dropped everything (~e^-500 of its mode): the Q-table answers (it is checked
    against brute force above), with 0 < beta <= that of RR(0.1) x 10^5 alone (the binomial route; composing
    one more mechanism never raises f), not the 0 the P-table would read.  delta at eps = 9000, beyond the
    P-table's losses (the support
    reaches 10000.6), raises DomainError (the CLI's auto then asks the engine) instead of reading 0."""
    from derive.errors import DomainError
    from derive.mechanisms.table import lookup
    rr = lambda e: lookup("randomized-response").build({"eps": e})        # noqa: E731
    entries = [(rr("0.1"), 10**5), (rr("0.2"), 3)]
    both = X.lattice_tradeoff(entries, "0.1", 15).value
    alone = X.lattice_tradeoff(entries[:1], "0.1", 15).value
    assert 0 < both <= alone
    with pytest.raises(DomainError, match="inside the exact lattice table"):
        X.lattice_delta(entries, "9000", 15)


@pytest.mark.parametrize("eps0, at", [("200000", "399999"), ("1e300", "1e300")])
def test_extreme_eps_sums_in_mpmath(eps0, at):
    """RR(eps0) x 2 at eps = at (0 < at < 2 eps0): the composed loss is 2 eps0 (P-mass x^2), 0 or -2 eps0, so
    delta = x^2 (1 - e^(at - 2 eps0)) with x = 1 / (1 + e^-eps0), by hand at 60 digits.  (Fixed point would
    need integers of 2^eps0 size: eps0 = 1e300 ended in an OverflowError.)"""
    with mpmath.workdps(60):
        e0 = mpmath.mpf(eps0)
        x = 1 / (1 + mpmath.exp(-e0))
        ref = x * x * -mpmath.expm1(mpmath.mpf(at) - 2 * e0)
    got = X.delta("randomized-response", {"eps": eps0}, 2, at, 20).value
    assert abs(got - ref) <= mpmath.mpf(10) ** -18 * ref
