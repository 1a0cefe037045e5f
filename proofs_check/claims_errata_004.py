"""Seed 004 (Su (2025)): statements made in words, checked; errata found by the tool.

How these claims are built and what REFUTED means here: ``proofs_check.errata_common``.
"""

from __future__ import annotations

import mpmath

import derive
from numeric import mp
from numeric import risk as NR

from .errata_common import DIG, SU, TOL, WDPS, _f_eps_delta, _mpf, _s
from .outcomes import agreement, refutation
from .registry import claim


@claim("SU-Errata-TV-not-inappropriate", ("004",), SU + ", Section 2.3, lines 44-45", "statement",
       "'the total variation distance ... is not inappropriate for a privacy definition' (offered as an example "
       "of an unsuitable link): releasing one uniformly random record of n = 100 has TV 0.01 yet discloses the "
       "differing record with probability 0.01 (posterior 1, f(0) = 0.99 < 1)",
       latex=r"{\rm TV}=\delta(0)=0.01,\ f(0)=0.99<1:\ \text{blatant disclosure}")
def _su_tv():
    urs = derive.uniform_sampling("80", "100")     # a record released with probability (1 - e^-80)/100

    def corrected():
        with mpmath.workdps(WDPS):
            p = -mpmath.expm1(-80) / 100
            # the two output laws (replacement neighbours): a constant w.p. e^-80, else one of the n records;
            # they differ only in the atom of the replaced record (mass p under each): TV = (p + p)/2
            law_d = [mpmath.exp(-80)] + [p] * 100 + [mpmath.mpf(0)]
            law_d2 = [mpmath.exp(-80)] + [p] * 99 + [mpmath.mpf(0), p]
            tv = sum(abs(x - y) for x, y in zip(law_d, law_d2)) / 2
        rows = [({"what": "TV = delta(0) (mp.profile_delta) vs half the L1 distance of the output laws"},
                 mp.profile_delta(urs, "0", DIG), tv),
                ({"what": "f(0) (mp.tradeoff) vs 1 - p"}, mp.tradeoff(urs, "0", DIG), 1 - p),
                ({"what": "posterior at alpha -> 0, prior 1/2 (numeric.risk)"},
                 NR.posterior(urs, "0.5", "0").posterior, mpmath.mpf(1))]
        return agreement(rows, TOL, "release of one uniformly random record, n = 100")

    def counterexample():
        tv = mp.profile_delta(urs, "0", DIG)
        f0 = mp.tradeoff(urs, "0", DIG)
        cls = NR.classify(urs).failure
        if not (tv < mpmath.mpf("0.0101") and f0 < 1 - mpmath.mpf("0.009") and cls == "catastrophic"):
            return None
        return {"mechanism": "release one uniformly random record, n = 100 (URS mu = 80)",
                "TV(M(D), M(D'))": _s(tv, 10), "f(0)": _s(f0, 10), "failure class": cls,
                "disclosure": "with probability 0.01 the differing record itself is released: posterior 1"}
    return refutation("the total variation distance ... is not inappropriate for a privacy definition",
                      "the total variation distance is inappropriate for a privacy definition: TV = 0.01 allows "
                      "releasing a record outright with probability 0.01", counterexample, corrected,
                      "mp.profile_delta (TV = delta(0)), mp.tradeoff and numeric.risk of derive.uniform_sampling", kind='statement')


@claim("SU-Thm5-tight", ("004",), SU + ", Theorem 5, line 98", "statement",
       "f_{eps,delta} satisfies Eq. 2.4 with equality: 1 + f*(-e^eps) = delta",
       latex=r"1+f_{\varepsilon,\delta}^*(-e^{\varepsilon})=\delta")
def _su_thm5():
    rows = []
    for e, d in (("1", "1e-5"), ("0.5", "0.1"), ("2", "0.3")):
        got = mp.profile_delta(derive.approx_dp(e, d), e, DIG)
        with mpmath.workdps(WDPS):
            y = -mpmath.exp(_mpf(e))
            kinks = (mpmath.mpf(0), (1 - _mpf(d)) / (1 + mpmath.exp(_mpf(e))), 1 - _mpf(d), mpmath.mpf(1))
            conj = max(x * y - _f_eps_delta(e, d, x) for x in kinks)   # f* of a piecewise-linear convex f
        rows.append(({"eps": e, "delta": d, "what": "mp.profile_delta vs 1 + f*(-e^eps) over the kinks"}, got, 1 + conj))
        rows.append(({"eps": e, "delta": d, "what": "mp.profile_delta vs delta"}, got, _mpf(d)))
    return agreement(rows, TOL, "the conjugate of f_{eps,delta} computed from its kinks")
