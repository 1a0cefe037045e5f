"""Shuffled binary randomized response (numeric/shuffle_rr.py) and the WSY+23 / Renyi routes
(numeric/shuffle_fdp.py), issue #26 item 1.

References are computed independently of the code under test:
* brute force over every dataset of the others (all 2^(n-1)), the count pmf built by convolving the n
  users' Bernoulli laws one by one in mpmath at 40 digits, and once (n = 5) by multiplying their
  generating polynomials in SymPy with p = E^eps0/(1 + E^eps0) kept exact, evaluated with evalf (no
  binomial formula, no likelihood-ratio interval, no tail bound);
* for larger n, mpmath at 50 digits: the full sum over every count of max(0, Q - g P) with the pmf from
  mpmath.binomial (no window, no ratio recursion).
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from numeric import shuffle_fdp as F
from numeric import shuffle_rr as S


def _sym_count_pmf(xs, eps0):
    """Coefficients of prod_i (report polynomial of user i) in z: the exact count pmf (SymPy)."""
    e = sp.exp(sp.Rational(eps0))
    p, q = e / (1 + e), 1 / (1 + e)
    z = sp.Symbol("z")
    poly = sp.Integer(1)
    for x in xs:
        poly *= (q + p * z) if x == 1 else (p + q * z)
    coeffs = sp.Poly(sp.expand(poly), z).all_coeffs()[::-1]
    return [sp.N(c, 40) for c in coeffs]


def _hs(P, Q, g):
    return sum(max(mpmath.mpf(0), mpmath.mpf(qq) - g * mpmath.mpf(pp)) for pp, qq in zip(P, Q))


def _mp_count_pmf(xs, eps0):
    """The count pmf by direct convolution of the users' Bernoulli laws in mpmath (ambient precision)."""
    e = mpmath.exp(mpmath.mpf(sp.Rational(eps0)))
    p, q = e / (1 + e), 1 / (1 + e)
    pmf = [mpmath.mpf(1)]
    for x in xs:
        one = p if x == 1 else q
        pmf = [(pmf[s] if s < len(pmf) else 0) * (1 - one) + (pmf[s - 1] * one if s > 0 else 0)
               for s in range(len(pmf) + 1)]
    return pmf


def _profile_sym(others, eps0, eps, exact=False):
    """max over both directions of H_{e^eps}; the pmf from SymPy exact polynomials (exact=True) or an
    mpmath convolution at 40 digits."""
    with mpmath.workdps(40):
        law = _sym_count_pmf if exact else _mp_count_pmf
        P = law((0,) + others, eps0)
        Q = law((1,) + others, eps0)
        g = mpmath.exp(mpmath.mpf(sp.Rational(eps)))
        return max(_hs(P, Q, g), _hs(Q, P, g))


def test_sympy_exact_pmf_agrees_with_convolution():
    """The SymPy exact polynomial product and the mpmath convolution agree (n = 5, one dataset each k)."""
    for k in (0, 1, 4):
        others = (1,) * k + (0,) * (4 - k)
        a = _profile_sym(others, "0.5", "0.1", exact=True)
        b = _profile_sym(others, "0.5", "0.1")
        assert abs(a - b) < mpmath.mpf("1e-35")
        br = S.binary_rr_delta(5, "0.5", "0.1", ones=(k,))
        assert br["delta_lower"] <= a <= br["delta_upper"]


@pytest.mark.parametrize("n, eps0, eps", [(5, "0.5", "0.1"), (6, "1", "0.3"), (8, "0.8", "0.05")])
def test_brute_force_all_datasets_and_brackets(n, eps0, eps):
    """Every one of the 2^(n-1) datasets of the others: delta depends only on the number k of ones, the
    module's certified bracket for that k contains it, and the worst dataset is max over k."""
    by_k = {}
    for others in itertools.product((0, 1), repeat=n - 1):
        by_k.setdefault(sum(others), []).append(_profile_sym(others, eps0, eps))
    for k, vals in by_k.items():
        assert max(vals) - min(vals) < mpmath.mpf("1e-30"), k          # only the count of ones matters
        b = S.binary_rr_delta(n, eps0, eps, ones=(k,))
        assert b["delta_lower"] <= vals[0] <= b["delta_upper"], (k, vals[0], b)
        assert b["delta_upper"] - b["delta_lower"] <= 1e-14 * max(vals[0], 1e-300) + 1e-300
    worst = max(max(v) for v in by_k.values())
    allk = S.binary_rr_delta(n, eps0, eps, ones=range(n))
    assert allk["delta_lower"] <= worst <= allk["delta_upper"]


def test_k0_is_not_always_worst():
    """The finding the module docstring states: at n = 10, eps0 = 0.5, eps = 0.2 one 'one' among the
    others (k = 1) beats all-zero others (k = 0); brute force over the two compositions in SymPy."""
    d0 = _profile_sym((0,) * 9, "0.5", "0.2")
    d1 = _profile_sym((1,) + (0,) * 8, "0.5", "0.2")
    assert d1 > d0 * mpmath.mpf("1.1")
    scan = S.scan_all_k(10, 0.5, 0.2)
    assert abs(scan[0] - float(d0)) < 1e-12 and abs(scan[1] - float(d1)) < 1e-12


def _mp_pair_delta(n, eps0, eps, k=0, dps=50):
    """mpmath reference: max over both directions of sum_s max(0, Q - g P), every count summed."""
    with mpmath.workdps(dps):
        e = mpmath.exp(mpmath.mpf(sp.Rational(eps0)))
        p, q = e / (1 + e), 1 / (1 + e)
        g = mpmath.exp(mpmath.mpf(sp.Rational(eps)))
        N = n - 1
        a = [mpmath.binomial(k, j) * p ** j * q ** (k - j) for j in range(k + 1)]
        b = [mpmath.binomial(N - k, j) * q ** j * p ** (N - k - j) for j in range(N - k + 1)]
        B = [mpmath.fsum(a[i] * b[s - i] for i in range(k + 1) if 0 <= s - i <= N - k) for s in range(N + 1)]
        B0 = [mpmath.mpf(0)] + B + [mpmath.mpf(0)]
        P = [p * B0[s + 1] + q * B0[s] for s in range(N + 2)]
        Q = [q * B0[s + 1] + p * B0[s] for s in range(N + 2)]
        return max(_hs(P, Q, g), _hs(Q, P, g))


@pytest.mark.parametrize("n, eps0, eps, k", [(300, "0.5", "0.05", 0), (300, "1", "0.2", 2),
                                             (1000, "0.7", "0.1", 0), (400, "3", "0.5", 5)])
def test_bracket_contains_mpmath_reference(n, eps0, eps, k):
    ref = _mp_pair_delta(n, eps0, eps, k)
    b = S.binary_rr_delta(n, eps0, eps, ones=(k,))
    assert b["delta_lower"] <= ref <= b["delta_upper"]
    assert b["delta_upper"] - b["delta_lower"] <= 1e-12 * float(ref)


def test_eps_bracket_brackets_reference_and_is_narrow():
    r = S.binary_rr(1000, "0.7", "1e-4")
    lo, hi = r["eps_lower"], r["eps_upper"]
    assert r["certified"] and 0 < lo <= hi and (hi - lo) <= 1e-9 * hi
    # the reference delta at the two ends straddles delta = 1e-4 (mpmath, every count summed)
    assert _mp_pair_delta(1000, "0.7", sp.Rational(lo)) > mpmath.mpf("1e-4")
    assert _mp_pair_delta(1000, "0.7", sp.Rational(hi)) <= mpmath.mpf("1e-4")


def test_domain_errors():
    from derive.errors import DomainError
    for bad in ({"n": 1}, {"eps0": "0"}, {"delta": "1"}, {"n": "2.5"}):
        kw = {"n": 10, "eps0": "0.5", "delta": "1e-3", **bad}
        with pytest.raises(DomainError) as ei:
            S.binary_rr(**kw)
        assert next(iter(bad)) in str(ei.value)
    with pytest.raises(DomainError):
        S.binary_rr(1000, "0.5", "1e-3", ones=(500,))


def test_timing_n_1e6():
    t = time.perf_counter()
    r = S.binary_rr(10 ** 6, "0.5", "1e-6")
    assert time.perf_counter() - t < 8.0
    assert r["eps_upper"] - r["eps_lower"] <= 1e-9 * r["eps_upper"]


# ------------------------------------------------------------------------------------ mutations

def _contains(n=300, eps0="0.5", eps="0.05", k=0):
    ref = _mp_pair_delta(n, eps0, eps, k)
    b = S.binary_rr_delta(n, eps0, eps, ones=(k,))
    return b["delta_lower"] <= ref <= b["delta_upper"]


def test_mutation_ratio_recursion_caught(monkeypatch):
    orig = S._XWalk.__init__

    def bad(self, M, th, j0, flint):
        orig(self, M, th, j0, flint)
        self.odds = self.odds * (1 + flint.arb("1e-6"))
    monkeypatch.setattr(S._XWalk, "__init__", bad)
    assert not _contains()


def test_mutation_p_caught(monkeypatch):
    monkeypatch.setattr(S, "_p", lambda x: x / (1 + x) + x * 0 + 1e-9 * (x / x))
    monkeypatch.setattr(S, "_q", lambda x: 1 / (1 + x) - 1e-9 * (x / x))
    assert not _contains()


def test_mutation_dropped_remainder_caught(monkeypatch):
    """Forgetting the tail remainder in the upper end: the bracket then misses the reference at a point
    where the cut is early (the stop rule is loosened to show it)."""
    orig = S._sum_terms

    def cut(noise, c, u, B, walk, th, s_a, flint):
        lo, hi = orig(noise, c, u, B, walk, th, s_a, flint)
        return lo * (1 + 1e-9), lo * (1 + 1e-9)
    monkeypatch.setattr(S, "_sum_terms", cut)
    assert not _contains()


def test_wrong_start_is_repaired(monkeypatch):
    """A locator that starts past s* must be caught by the certified start check (the result stays right)."""
    orig = S.first_positive
    monkeypatch.setattr(S, "first_positive", lambda nz, x, g: orig(nz, x, g) + 6)
    assert _contains()


# ------------------------------------------------------------------------------------ the routes

def _mp_wsy(n, eps0, eps, r):
    """sum_c Bin(n-1, r)(c) H(Q_c || P_c), Q_c = Bin(c,1/2)*Bern(q), P_c = Bin(c,1/2)*Bern(p) (mpmath)."""
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(sp.Rational(eps0)))
        p, q = e / (1 + e), 1 / (1 + e)
        g = mpmath.exp(mpmath.mpf(sp.Rational(eps)))
        r = mpmath.mpf(r)
        tot = mpmath.mpf(0)
        for c in range(n):
            w = mpmath.binomial(n - 1, c) * r ** c * (1 - r) ** (n - 1 - c)
            b = [mpmath.binomial(c, s) / mpmath.mpf(2) ** c for s in range(c + 1)]
            b0 = [mpmath.mpf(0)] + b + [mpmath.mpf(0)]
            P = [p * b0[s + 1] + q * b0[s] for s in range(c + 2)]
            Q = [q * b0[s + 1] + p * b0[s] for s in range(c + 2)]
            tot += w * _hs(P, Q, g)
        return tot


def test_wsy_delta_matches_mpmath_and_bounds_exact():
    n, eps0, eps = 60, "0.8", "0.3"
    r = 2 / (math.exp(0.8) + 1)
    ref = _mp_wsy(n, eps0, eps, mpmath.mpf(2) / (mpmath.exp(mpmath.mpf("0.8")) + 1))
    got = F.wsy_delta(n, 0.8, 0.3, "stronger")
    assert abs(got - float(ref)) <= 1e-9 * float(ref)
    assert r > 0
    # an upper bound must sit above every exact neighbouring pair (here all k, brute force in mpmath)
    assert max(_mp_pair_delta(n, eps0, eps, k) for k in (0, 1, 2, n - 2, n - 1)) <= ref


def test_routes_order():
    """exact pair (lower bound) <= Renyi-of-the-pair and <= WSY stronger <= WSY standard."""
    ex = S.binary_rr(3000, "0.6", "1e-5")
    w1 = F.wsy_eps(3000, "0.6", "1e-5", "stronger")["eps_upper"]
    w2 = F.wsy_eps(3000, "0.6", "1e-5", "standard")["eps_upper"]
    rd = F.rdp_eps(3000, "0.6", "1e-5")["eps_upper"]
    assert ex["eps_upper"] < w1 < w2 and ex["eps_upper"] < rd


def test_mutation_wsy_weights_caught(monkeypatch):
    monkeypatch.setitem(F.CLONES, "stronger", lambda e0: 1.5 / (math.exp(e0) + 1.0))
    ref = _mp_wsy(60, "0.8", "0.3", mpmath.mpf(2) / (mpmath.exp(mpmath.mpf("0.8")) + 1))
    assert abs(F.wsy_delta(60, 0.8, 0.3, "stronger") - float(ref)) > 1e-6 * float(ref)


def _mp_renyi_pair(n, eps0, alpha, k=0):
    """max over both directions of D_alpha for the exact pair, every count summed (mpmath)."""
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(sp.Rational(eps0)))
        p, q = e / (1 + e), 1 / (1 + e)
        N = n - 1
        B = [mpmath.binomial(N, s) * q ** s * p ** (N - s) for s in range(N + 1)]
        B0 = [mpmath.mpf(0)] + B + [mpmath.mpf(0)]
        P = [p * B0[s + 1] + q * B0[s] for s in range(N + 2)]
        Q = [q * B0[s + 1] + p * B0[s] for s in range(N + 2)]
        a = mpmath.mpf(alpha)

        def d(X, Y):
            return mpmath.log(mpmath.fsum(x ** a * y ** (1 - a) for x, y in zip(X, Y))) / (a - 1)
        return max(d(Q, P), d(P, Q))


@pytest.mark.parametrize("alpha", [2.5, 40.0])
def test_renyi_exact_pair_matches_mpmath(alpha):
    ref = _mp_renyi_pair(200, "0.6", alpha)
    assert abs(F.renyi(200, 0.6, alpha) - float(ref)) <= 1e-9 * float(ref)


def test_clone_renyi_matches_mpmath():
    n, e0, a = 40, 0.7, 6.0
    tab = F.CloneTable(n, e0, "stronger")
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf("0.7"))
        p, q = e / (1 + e), 1 / (1 + e)
        r = 2 / (e + 1)
        tot = mpmath.mpf(0)
        for c in range(n):
            w = mpmath.binomial(n - 1, c) * r ** c * (1 - r) ** (n - 1 - c)
            b0 = [mpmath.mpf(0)] + [mpmath.binomial(c, s) / mpmath.mpf(2) ** c for s in range(c + 1)] + [0]
            P = [p * b0[s + 1] + q * b0[s] for s in range(c + 2)]
            Q = [q * b0[s + 1] + p * b0[s] for s in range(c + 2)]
            tot += w * mpmath.fsum(x ** a * y ** (1 - a) for x, y in zip(Q, P))
        ref = mpmath.log(tot) / (a - 1)
    assert abs(F.clone_renyi(tab, a) - float(ref)) <= 1e-9 * float(ref)


def test_table_rows_consistent_and_mutation_caught(monkeypatch):
    """The table's routes sit on their sides (n lowered to 2000 to keep the test fast); a weakened clone
    probability (a wrong reduction) pushes the WSY route below the exact lower bound and is flagged."""
    from proofs_check import reproduce_shuffle as R
    monkeypatch.setattr(R, "N_USERS", 2000)
    R._row.cache_clear()
    row = R._row("0.8")
    assert R.consistent(row)
    assert row["exact"][0] < row["fdp-wsy"] < row["rdp-clones"]
    R._row.cache_clear()
    monkeypatch.setitem(F.CLONES, "stronger", lambda e0: 10 * 2.0 / (math.exp(e0) + 1.0) if e0 < 0 else 0.999)
    bad = R._row("0.8")
    R._row.cache_clear()
    assert not R.consistent(bad)


# ------------------------------------------------------------------------------------ k-RR

def _mp_hist_pmf(values, k, eps0):
    """The shuffled histogram's law by enumerating every report of every user (mpmath, 30 digits)."""
    e = mpmath.exp(mpmath.mpf(sp.Rational(eps0)))
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    dist = {(0,) * k: mpmath.mpf(1)}
    for v in values:
        nxt = {}
        for h, pr in dist.items():
            for y in range(k):
                hh = h[:y] + (h[y] + 1,) + h[y + 1:]
                nxt[hh] = nxt.get(hh, 0) + pr * (p if y == v else q)
        dist = nxt
    return dist


def _mp_krr_profile(others, k, eps0, eps):
    with mpmath.workdps(30):
        P, Q = _mp_hist_pmf((0,) + others, k, eps0), _mp_hist_pmf((1,) + others, k, eps0)
        g = mpmath.exp(mpmath.mpf(sp.Rational(eps)))
        return max(sum(max(0, Q[h] - g * P[h]) for h in P), sum(max(0, P[h] - g * Q[h]) for h in P))


@pytest.mark.parametrize("n, k, eps0, eps", [(4, 3, "1", "0.3"), (5, 3, "0.5", "0.1"), (4, 4, "1.5", "0.5")])
def test_krr_pairs_match_full_histogram_brute_force(n, k, eps0, eps):
    """Both reduced pairs equal the full-histogram computation for their dataset; every dataset of the
    others is enumerated (k^(n-1)) and the computed max is attained (here) and never exceeded."""
    from numeric import shuffle_krr as K
    vals = {o: _mp_krr_profile(o, k, eps0, eps) for o in itertools.product(range(k), repeat=n - 1)}
    v1 = K.krr_delta(n, k, eps0, eps, others=("v1",))["delta"]
    v3 = K.krr_delta(n, k, eps0, eps, others=("v3",))["delta"]
    assert abs(v1 - float(vals[(0,) * (n - 1)])) <= 1e-12
    assert abs(v3 - float(vals[(2,) * (n - 1)])) <= 1e-12
    assert max(v1, v3) <= float(max(vals.values())) * (1 + 1e-12)
    assert v3 > v1                                       # the outside-value pair is the worse one here


def test_krr_k3_moderate_n_and_mutation(monkeypatch):
    """n = 40, k = 3: the reduced v3 pair against the full histogram (mpmath enumeration of the 861
    histograms through the users' reports); a wrong likelihood ratio (p/q replaced) is caught."""
    from numeric import shuffle_krr as K
    others = (2,) * 39
    ref = _mp_krr_profile(others, 3, "0.8", "0.2")
    got = K.krr_delta(40, 3, "0.8", "0.2", others=("v3",))["delta"]
    assert abs(got - float(ref)) <= 1e-10 * float(ref)
    orig = K.KrrPairOutside.__init__

    def bad(self, n, k, eps0, span=9.0):
        orig(self, n, k, eps0, span)
        self.Q = self.Q * (1 + 1e-6)
    monkeypatch.setattr(K.KrrPairOutside, "__init__", bad)
    got = K.krr_delta(40, 3, "0.8", "0.2", others=("v3",))["delta"]
    assert abs(got - float(ref)) > 1e-10 * float(ref)


def test_hidden_clone_mixture_is_the_exact_pair():
    """Identity (ii) of numeric/shuffle_fdp.py: sum_c Bin(n-1, 2q)(c) Bin(c, 1/2) * Bern(q) is the k = 0
    pair's P = Bin(n-1, q) * Bern(q) (mpmath, n = 25, every atom), so the WSY route >= the exact pair is
    the data-processing inequality, and the route is strictly above it (the clones are revealed)."""
    n, eps0 = 25, mpmath.mpf("0.7")
    with mpmath.workdps(30):
        e = mpmath.exp(eps0)
        q = 1 / (1 + e)
        N = n - 1
        mix = [mpmath.mpf(0)] * (n + 1)
        for c in range(N + 1):
            w = mpmath.binomial(N, c) * (2 * q) ** c * (1 - 2 * q) ** (N - c)
            for s in range(c + 1):
                b = mpmath.binomial(c, s) / mpmath.mpf(2) ** c
                mix[s] += w * b * (1 - q)
                mix[s + 1] += w * b * q
        B = [mpmath.binomial(N, s) * q ** s * (1 - q) ** (N - s) for s in range(N + 1)] + [0]
        P = [(1 - q) * B[s] + (q * B[s - 1] if s else 0) for s in range(n + 1)]
        assert max(abs(a - b) for a, b in zip(mix, P)) < mpmath.mpf("1e-25")
    assert F.wsy_delta(n, 0.7, 0.2) > float(_mp_pair_delta(n, "0.7", "0.2"))


def test_wsy_certified_upper_contains_reference_and_mutation(monkeypatch):
    """The certified route delta is >= the mpmath sum over every component and within 1e-12 of it; with
    the weights enclosed 1e-6 too large (the window mass then exceeds 1) the bound falls below: caught."""
    from fractions import Fraction
    ref = _mp_wsy(60, "0.8", "0.3", mpmath.mpf(2) / (mpmath.exp(mpmath.mpf("0.8")) + 1))
    up = F.wsy_delta_certified(60, Fraction(4, 5), Fraction(3, 10), "stronger")
    assert float(ref) <= up <= float(ref) * (1 + 1e-12)
    orig = S._binom_at
    monkeypatch.setattr(S, "_binom_at", lambda M, j, th, flint: orig(M, j, th, flint) * flint.arb("1.000001"))
    assert F.wsy_delta_certified(60, Fraction(4, 5), Fraction(3, 10), "stronger") < float(ref)


def test_wsy_eps_certified_small_n():
    r = F.wsy_eps(500, "0.9", "1e-5", certify=True)
    assert r["certified"] and r["eps_upper"] >= F.wsy_eps(500, "0.9", "1e-5")["eps_upper"]


def test_engine_against_rational_convolution():
    """The arb engine on a pair with rational parameters (p = 3/4, so e^eps0 = 3 is not a decimal input:
    the Noise is built directly): the count pmf by direct convolution of the users' Bernoulli laws in
    exact Rationals (n = 9, others k = 2 ones), delta = sum (Q - e^eps P)^+ in SymPy, evalf at 40 digits."""
    from fractions import Fraction
    p, q = sp.Rational(3, 4), sp.Rational(1, 4)

    def law(bits):
        pmf = [sp.Integer(1)]
        for b in bits:
            one = p if b else q
            pmf = [(pmf[s] if s < len(pmf) else 0) * (1 - one) + (pmf[s - 1] * one if s > 0 else 0)
                   for s in range(len(pmf) + 1)]
        return pmf
    others = (1, 1) + (0,) * 6
    P, Q = law((0,) + others), law((1,) + others)
    for eps in ("0.1", "0.7"):
        g = sp.exp(sp.Rational(eps))
        ref = max(sum(sp.Max(0, b - g * a) for a, b in zip(P, Q)), sum(sp.Max(0, a - g * b) for a, b in zip(P, Q)))
        ref = sp.N(ref, 40)

        def const(v):
            return lambda x: x * 0 + v
        both = [S.Noise(6, 2, const(0.25), const(0.75), const(0.25), const(0.75)),     # H(Q || P)
                S.Noise(6, 2, const(0.75), const(0.25), const(0.25), const(0.75))]     # mirror: H(P || Q)
        # delta_bracket_arb's eps0 only feeds x, which the constant parameters ignore
        brackets = [S.delta_bracket_arb(nz, Fraction(1), Fraction(eps)) for nz in both]
        lo, hi = max(b[0] for b in brackets), max(b[1] for b in brackets)
        assert lo <= float(ref) <= hi, (eps, lo, float(ref), hi)


# ---- a large eps0 at large n (twelfth session) ---------------------------------------------------
# eps0 = 20, n = 10^7 took 306 s and n = 10^8 did not finish (5.5 GB): with no positive term below the top,
# the float locator scanned every count in chunks and the arb sum walked every count to the top (its stop
# rule asked for a positive term first).  Reference: the k = 0 pair summed from its definition in mpmath
# (S = B + Bern(q) under D, B + Bern(p) under D', B ~ Bin(n - 1, q), q = 1/(1 + e^eps0)), both directions,
# over s <= 400 (B(400) < 1e-1000 here), at 60 digits.

def _rr_delta_k0(n, eps0, eps):
    import mpmath
    with mpmath.workdps(60):
        x = mpmath.exp(mpmath.mpf(eps0))
        p, q, g = x / (1 + x), 1 / (1 + x), mpmath.exp(mpmath.mpf(eps))
        N = n - 1

        def B(s):
            return mpmath.binomial(N, s) * q ** s * p ** (N - s) if 0 <= s <= N else mpmath.mpf(0)
        Ps = [B(s) * p + B(s - 1) * q for s in range(401)]
        Qs = [B(s) * q + B(s - 1) * p for s in range(401)]
        return max(mpmath.fsum(max(0, a - g * b) for a, b in zip(Qs, Ps)),
                   mpmath.fsum(max(0, b - g * a) for a, b in zip(Qs, Ps)))


def test_large_eps0_at_large_n_is_fast_and_holds_the_reference(monkeypatch):
    calls = {"n": 0}
    real = S._log_noise

    def counted(*a):
        calls["n"] += 1
        return real(*a)
    monkeypatch.setattr(S, "_log_noise", counted)
    t0 = time.process_time()
    r = S.binary_rr(10 ** 7, 20, "1e-6")
    assert time.process_time() - t0 < 20
    assert calls["n"] < 5000          # the chunked scan of the locator made ~1.2e6 calls here
    delta = mpmath.mpf(10) ** -6
    assert _rr_delta_k0(10 ** 7, 20, r["eps_lower"]) > delta
    assert _rr_delta_k0(10 ** 7, 20, r["eps_upper"]) <= delta
    assert r["eps_upper"] - r["eps_lower"] <= 1e-9 * r["eps_upper"]


def _walk_steps(monkeypatch):
    """Count the terms the arb walks evaluate (the real ``_XWalk.at``, wrapped)."""
    seen = {"calls": 0}
    real = S._XWalk.at

    def counted(self, j):
        before = self.j
        out = real(self, j)
        seen["calls"] += 1 + (self.j - before)          # the call and the counts it walked
        return out
    monkeypatch.setattr(S._XWalk, "at", counted)
    return seen


def _sum_from_zero(monkeypatch):
    """delta of the k = 0 pair's direction with the small binomial Bin(n - 1, q), eps0 = 20, n = 10^5, eps
    just below eps0 (no count below the top is positive), summed from s = 0 (the locator patched to 0: any
    start is valid, the start certification only moves left)."""
    monkeypatch.setattr(S, "first_positive", lambda *a: 0)
    seen = _walk_steps(monkeypatch)
    noise = S.rr_noises(10 ** 5, 0)[0]
    assert noise.M > 10 ** 4 and noise.theta(math.exp(20)) < 1e-8
    got = S.delta_bracket_arb(noise, Fraction(20), Fraction(19999999, 10 ** 6))
    return got, seen["calls"]


def test_sum_stops_below_every_float_without_a_positive_term(monkeypatch):
    (lo, hi), calls = _sum_from_zero(monkeypatch)
    assert lo == 0 and hi <= 5e-324 and calls < 2000


def test_mutation_stop_rule_needing_a_positive_term_is_caught(monkeypatch):
    monkeypatch.setattr(S, "_BELOW_FLOATS_LOG2", -10 ** 7)      # the tiny-rest exit never fires
    _, calls = _sum_from_zero(monkeypatch)
    assert calls > 20000


# ---- eps0 below float resolution (thirteenth session) -------------------------------------------------

def _tv_k0(n: int, eps0: str):
    """delta(0) of the k = 0 pair at n users: P = Bin(n - 1, q) + Bern(p), Q = Bin(n - 1, q) + Bern(q),
    q = 1/(1 + e^eps0), p = 1 - q, so P(s) - Q(s) = (p - q)(b(s - 1) - b(s)) and the positive part sums to
    (p - q) b(mode) = tanh(eps0/2) C(n-1, m) q^m (1 - q)^(n-1-m), m = floor(n q) (a unimodal pmf's increments
    telescope); mpmath at 60 digits.  The other k differ from it in the second order of eps0 only."""
    with mpmath.workdps(60):
        e = mpmath.mpf(eps0)
        q = 1 / (1 + mpmath.exp(e))
        m = int(mpmath.floor(n * q))
        return mpmath.tanh(e / 2) * mpmath.binomial(n - 1, m) * q ** m * (1 - q) ** (n - 1 - m)


@pytest.mark.parametrize("eps0", ["1e-20", "1e-300"])
def test_eps0_below_float_resolution(eps0):
    """eps0 = 1e-20 was refused (the float locator divided by zero at e^eps0 = 1.0) and 1e-300 answered
    [0, 1.0e-300] (192 bits do not resolve 1 + 1e-300); reference 63/512 tanh(eps0/2) to first order."""
    r = S.binary_rr_delta(10, eps0, "0", ones=(0, 1, 2))
    ref = _tv_k0(10, eps0)
    assert r["delta_lower"] <= ref * (1 + mpmath.mpf(10) ** -12) and ref <= r["delta_upper"] * (1 + mpmath.mpf(10) ** -12)
    assert r["delta_upper"] - r["delta_lower"] <= 1e-12 * float(ref)


def test_mutation_fixed_precision_is_caught(monkeypatch):
    monkeypatch.setattr(S, "_prec_for", lambda *values: S._PREC)
    with pytest.raises(AssertionError):
        test_eps0_below_float_resolution("1e-300")
