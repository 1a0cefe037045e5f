"""Claims of seed 004's applications (Su 2025 Sec. 4.2-4.4; issue #26), checked on the code users call
against forms written here independently:

* BSA24:NoisyGD-series: the last-iterate GDP bound of full-batch noisy gradient descent (``numeric.noisy_gd``,
  the closed form mu_s^2 (1 + c)/(1 - c) (1 - c^T)/(1 + c^T)) equals mu_s^2 (sum_{t<T} c^t)^2 / sum_{t<T} c^{2t}
  summed term by term at 40 digits.
* BSA24:NoisyGD-convergent: with a contraction c < 1 the bound converges, to mu_s sqrt((1 + c)/(1 - c)),
  while the composition bound mu_s sqrt(T) of all iterates diverges (seed 004 Sec. 4.2, Table 1's point).
* DRS-CLT:subsampled-kl: kl of the Poisson-subsampled Gaussian's trade-off function f_p
  (``numeric.functionals_subsampled``, quadrature over the slope law of G_mu) equals KL(N(0,1) || (1-p) N(0,1)
  + p N(mu,1)) integrated in the observation y.
* SSW24:census-level-eps: the certified engine bracket of a census level's eps at delta = 1e-10
  (``numeric.census.certified_eps``, 9 discrete Gaussians of the shipped allocation) contains the eps of the
  exact law of their sum (``numeric.census.convolution_eps``: a convolution of the integer pmfs, a different
  algorithm), up to the convolution's float64 error.
* FMT-clones:delta: the certified delta(eps) of the standard- and stronger-clone pairs (``numeric.shuffle_clones``)
  contains the pair's hockey-stick divergence summed over every atom at 60 digits.
* FMT-clones:rounds: the certified delta(eps) of two shuffled rounds (``numeric.shuffle_rounds.compose_rounds``,
  also with 4 blocks of clone counts, so that the bracket comes from the two coarser pairs that sandwich the
  clone pair) contains the 2-fold product's hockey stick summed over all pairs of atoms at 40 digits.
* SU-shuffle:routes-ordered: exact shuffled binary-RR pair (lower bound) < stronger-clone < standard-clone bound.
"""

from __future__ import annotations

import mpmath

from .outcomes import agreement
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome

SU = "Su (2025) seed 004"

#: (mu_s, c, T) of the noisy-GD checks: Table 1's c = 0.9999 among them
_NGD_CASES = (("2/3", "0.9999", 50), ("2/3", "0.9999", 4000), ("1", "1/2", 7), ("0.3", "0.9", 200))


@claim("BSA24:NoisyGD-series", ("004",), SU + ", Sec. 4.2; Bok, Su, Altschuler (2024) v2 Sec. 4 (NoisyGD)",
       "identity", "the last-iterate GDP bound of full-batch noisy GD is mu_s^2 (1 + c)/(1 - c) (1 - c^T)/(1 + c^T) "
                   "= mu_s^2 (sum_{t<T} c^t)^2 / sum_{t<T} c^{2t}",
       latex=r"\mu^2=\mu_s^2\frac{1+c}{1-c}\cdot\frac{1-c^T}{1+c^T}")
def _ngd_series():
    from numeric import noisy_gd as N

    def rows():
        for mu_s, c, T in _NGD_CASES:
            import sympy as sp
            with mpmath.workdps(40):
                got = N.mu_last_full(sp.Rational(mu_s), sp.Rational(c), T)
                m, cc = mpmath.mpf(sp.Rational(mu_s)), mpmath.mpf(sp.Rational(c))
                s1 = mpmath.fsum(cc ** t for t in range(T))
                s2 = mpmath.fsum(cc ** (2 * t) for t in range(T))
                ref = m * s1 / mpmath.sqrt(s2)
            yield {"mu_s": mu_s, "c": c, "T": T}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -25, "numeric.noisy_gd.mu_last_full vs the series summed term by "
                                                      "term at 40 digits")


@claim("BSA24:NoisyGD-convergent", ("004",), SU + ", Sec. 4.2 (convergent last-iterate bound vs divergent "
       "composition)", "identity", "for c < 1 the last-iterate bound tends to mu_s sqrt((1 + c)/(1 - c)) as T -> inf, "
       "while composition mu_s sqrt(T) grows without bound (at T = 10^6: at least 10x the limit)")
def _ngd_convergent():
    import sympy as sp

    from numeric import noisy_gd as N
    cases = (("2/3", "0.99"), ("1", "1/2"), ("0.1", "0.999"))

    def rows():
        for mu_s, c in cases:
            T = 10 ** 6                      # c^T <= 0.999^(10^6) = e^-1000.5: the limit to 400 digits
            with mpmath.workdps(40):
                got = N.mu_last_full(sp.Rational(mu_s), sp.Rational(c), T)
                m, cc = mpmath.mpf(sp.Rational(mu_s)), mpmath.mpf(sp.Rational(c))
                ref = m * mpmath.sqrt((1 + cc) / (1 - cc))
            comp = N.mu_composition(sp.Rational(mu_s), T)
            if not mpmath.mpf(comp) > 10 * ref:
                yield {"mu_s": mu_s, "c": c, "T": T, "composition": str(comp)}, comp, ref   # a failure row
            yield {"mu_s": mu_s, "c": c, "T": T}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -25, "last-iterate bound at T = 10^6 vs its limit; composition "
                                                      "at least 10x the limit")


def _kl_mixture(mu, p):
    """KL(N(0,1) || (1-p) N(0,1) + p N(mu,1)) = -int phi(y) log(1 - p + p e^{mu y - mu^2/2}) dy (30 digits, split
    at 0 and at +-10 + mu)."""
    with mpmath.workdps(30):
        m, q = mpmath.mpf(mu), mpmath.mpf(p)

        def integrand(y):
            return mpmath.npdf(y) * mpmath.log1p(q * mpmath.expm1(m * y - m * m / 2))
        return -mpmath.quad(integrand, [-mpmath.inf, -10, 0, m, 10 + m, mpmath.inf])


@claim("DRS-CLT:subsampled-kl", ("004",), SU + ", Sec. 3.3 and 4.1; Dong, Roth, Su (2022) Sec. 3.2 and Thm 4.2",
       "identity", "kl(f_p) of the Poisson-subsampled Gaussian (f_p = p G_mu + (1 - p) Id) is "
                   "KL(N(0,1) || (1-p) N(0,1) + p N(mu,1))")
def _subsampled_kl():
    import derive
    from numeric.functionals_subsampled import SubsampledStep

    def rows():
        for mu, p in (("1", "0.1"), ("0.9090909090909091", "0.004266666666666667"), ("2", "0.5")):
            got = SubsampledStep(derive.gaussian(mu), p, "remove").functional_value("kl", 15)
            yield {"mu": mu, "p": p}, got, _kl_mixture(mu, p)
    return agreement(rows(), mpmath.mpf(10) ** -13, "numeric.functionals_subsampled (slope law of G_mu) vs the "
                                                      "mixture density integrated in y at 30 digits")


@claim("SSW24:census-level-eps", ("004",), SU + ", Sec. 4.4 (the 2020 Census; SSW24)", "identity",
       "the eps at delta = 1e-10 of a census level's 9 discrete Gaussian queries lies in the certified engine "
       "bracket: the exact law of their sum gives the same eps")
def _census_level():
    from numeric import census as C
    worst = None
    for level in ("US", "Block"):
        r = C.certified_eps(level)
        s2, n = C._identical(level, None)
        exact = mpmath.mpf(C.convolution_eps(s2, n))
        slack = mpmath.mpf("1e-9") * exact          # the float64 convolution's error, generously
        ctx = {"level": level, "eps_lower": mpmath.nstr(r.eps_lower, 12), "eps_upper": mpmath.nstr(r.eps_upper, 12),
               "convolution": mpmath.nstr(exact, 12)}
        if not r.eps_lower - slack <= exact <= r.eps_upper + slack:
            return Outcome(FAILED, detail="the convolution's eps is outside the certified bracket",
                           counterexample=ctx)
        margin = min(exact - r.eps_lower, r.eps_upper - exact)
        worst = margin if worst is None or margin < worst else worst
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=2,
                   detail="numeric.census.certified_eps (engine) contains numeric.census.convolution_eps (exact "
                          "integer law, float64) at the US and Block levels")


def clone_pair_atoms(q, a, n: int):
    """The clone pair built from its definition (mpmath, at the caller's precision): C ~ Bin(n - 1, q),
    A ~ Bin(C, 1/2), D ~ Bern(a), P = (A + D, C - A + 1 - D), Q = (A + 1 - D, C - A + D); returns the dicts
    atom -> mass of P and Q.  Every atom is enumerated (no tail, no walk): the reference of the claim below
    and of tests/test_shuffle_clones.py and tests/test_shuffle_rounds.py, independent of
    numeric.shuffle_clones."""
    P, Q = {}, {}
    for c in range(n):
        wc = mpmath.binomial(n - 1, c) * q ** c * (1 - q) ** (n - 1 - c)
        for A in range(c + 1):
            w = wc * mpmath.binomial(c, A) / mpmath.mpf(2) ** c
            for D, pd in ((1, a), (0, 1 - a)):
                kp, kq = (A + D, c - A + 1 - D), (A + 1 - D, c - A + D)
                P[kp] = P.get(kp, 0) + w * pd
                Q[kq] = Q.get(kq, 0) + w * pd
    return P, Q


def _clone_pair_delta(q_of, eps0: str, n: int, eps: str):
    """max(H_{e^eps}(P||Q), H_{e^eps}(Q||P)) of the clone pair, summed over all atoms at 60 digits."""
    with mpmath.workdps(60):
        E, t = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        P, Q = clone_pair_atoms(q_of(E), E / (1 + E), n)
        keys = set(P) | set(Q)
        return max(mpmath.fsum(max(0, P.get(k, 0) - t * Q.get(k, 0)) for k in keys),
                   mpmath.fsum(max(0, Q.get(k, 0) - t * P.get(k, 0)) for k in keys))


#: the clone probability of each reduction, written here from the papers' statements (FMT21: q = e^-eps0;
#: FMT23: q = 2/(e^eps0 + 1))
_CLONE_Q = {"standard-clone": lambda E: 1 / E, "stronger-clone": lambda E: 2 / (E + 1)}


@claim("FMT-clones:delta", ("004",), SU + ", Sec. 4.3; Feldman, McMillan, Talwar (2021, 2023): the clone pairs",
       "identity", "the certified delta(eps) of each clone reduction's pair (dp-derive shuffle) contains the "
                   "pair's hockey-stick divergence summed over all of its atoms")
def _clone_delta():
    from fractions import Fraction

    from numeric import shuffle_clones as S
    worst = None
    points = 0
    for name, q_of in _CLONE_Q.items():
        for eps0, n, eps in (("1", 20, "0.3"), ("2", 30, "0.5"), ("0.5", 12, "0.05")):
            r = S.delta_bracket(name, Fraction(eps0), n, Fraction(eps))
            ref = _clone_pair_delta(q_of, eps0, n, eps)
            with mpmath.workdps(60):
                lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
                hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
            points += 1
            if not lo <= ref <= hi:
                return Outcome(FAILED, detail="the brute-force value is outside the certified bracket",
                               counterexample={"reduction": name, "eps0": eps0, "n": n, "eps": eps,
                                               "lower": mpmath.nstr(lo, 15), "upper": mpmath.nstr(hi, 15),
                                               "reference": mpmath.nstr(ref, 15)})
            width = (hi - lo) / ref if ref > 0 else hi - lo
            worst = width if worst is None or width > worst else worst
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="numeric.shuffle_clones.delta_bracket (binomial-tail walk in arb) contains the sum over "
                          "every atom at 60 digits; margin: the worst relative width")


def _two_round_delta(q_of, eps0: str, n: int, eps: str):
    """H_{e^eps}(P x P || Q x Q) of the clone pair, summed over all pairs of atoms at 40 digits."""
    with mpmath.workdps(40):
        E, t = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
        P, Q = clone_pair_atoms(q_of(E), E / (1 + E), n)
        atoms = [(P.get(k, 0), Q.get(k, 0)) for k in set(P) | set(Q)]
        return mpmath.fsum(max(0, p1 * p2 - t * q1 * q2) for p1, q1 in atoms for p2, q2 in atoms)


@claim("FMT-clones:rounds", ("004",), SU + ", Sec. 4.3; Feldman, McMillan, Talwar (2021, 2023): the clone pairs "
       "over rounds", "identity", "the certified delta(eps) of two shuffled rounds (dp-derive shuffle --rounds 2), "
       "also when coarse blocks of clone counts sandwich the pair, contains the two-fold product's hockey-stick "
       "divergence summed over all pairs of atoms")
def _clone_rounds():
    from fractions import Fraction

    from numeric.shuffle_rounds import compose_rounds
    worst, points = None, 0
    for name, eps0, n, eps, blocks in (("standard-clone", "1", 12, "0.3", None), ("standard-clone", "1", 16, "0.3", 4),
                                       ("stronger-clone", "1", 10, "0.2", None)):
        q_of = _CLONE_Q[name]
        r = compose_rounds(name, Fraction(eps0), n, 2, at_eps=Fraction(eps), blocks=blocks)
        ref = _two_round_delta(q_of, eps0, n, eps)
        with mpmath.workdps(40):
            lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
            hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
        points += 1
        if not (r.certified and lo <= ref <= hi and (blocks is None) == (r.block_width == 1)):
            return Outcome(FAILED, detail="the double loop's value is outside the certified bracket",
                           counterexample={"reduction": name, "eps0": eps0, "n": n, "eps": eps, "blocks": blocks,
                                           "block_width": r.block_width, "lower": mpmath.nstr(lo, 15),
                                           "upper": mpmath.nstr(hi, 15), "reference": mpmath.nstr(ref, 15)})
        width = (hi - lo) / ref
        worst = width if worst is None or width > worst else worst
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="numeric.shuffle_rounds.compose_rounds (engine on the clone pair, or on the two block "
                          "pairs) contains the sum over all pairs of atoms at 40 digits; margin: the worst relative width")


@claim("SU-shuffle:routes-ordered", ("004",), SU + ", Sec. 4.3 (shuffled mechanisms; FMT21, FMT23)",
       "identity", "for binary randomized response the exact shuffled pair's eps lies below the stronger-clone "
                   "bound, which lies below the standard-clone bound (n = 10^4, delta = 1e-6)")
def _routes_ordered():
    from fractions import Fraction

    from numeric import shuffle_fast as S
    from numeric import shuffle_rr as R
    for eps0 in ("0.5", "1", "2"):
        exact = R.binary_rr(10 ** 4, eps0, "1e-6", ones=(0, 1, 2, 3))
        strong = S.eps_bracket("stronger-clone", Fraction(eps0), 10 ** 4, Fraction(1, 10 ** 6))
        std = S.eps_bracket("standard-clone", Fraction(eps0), 10 ** 4, Fraction(1, 10 ** 6))
        row = {"eps0": eps0, "exact_upper": exact["eps_upper"], "stronger": [float(strong.lower), float(strong.upper)],
               "standard": [float(std.lower), float(std.upper)]}
        if not (exact["eps_upper"] <= strong.lower and strong.upper <= std.lower):
            return Outcome(FAILED, detail="the routes are out of order", counterexample=row)
    return Outcome(CONFIRMED, points=3, detail="certified brackets: exact binary-RR pair < stronger-clone < "
                                               "standard-clone at eps0 = 0.5, 1, 2")
