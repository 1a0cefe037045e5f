"""Many distinct steps of one family bracketed by few: parameters rounded outward (issue #25, specs of
10^4 distinct steps).

A spec of thousands of distinct Poisson-subsampled Gaussian steps costs one Arb discretisation per distinct
step and tilt (about 0.1 s each), so 3333 of them did not finish in 900 s.  Here each family with more
distinct parameters than its budget (``BUDGET``) is rounded onto a dyadic lattice g = 2^-m, outward on
each side, and the engine composes two lists with few distinct steps:

* the **upper** list: every parameter rounded towards less privacy (a Laplace or subsampled Laplace eps up
  to a multiple of g, a subsampled Gaussian noise multiplier sigma down to one);
* the **lower** list: every parameter rounded towards more privacy (eps down, sigma up; an eps rounded
  to 0 drops the step: the identity is dominated by every step).

Why the bracket holds.  Within each family the step's trade-off function is monotone in the parameter:
the Laplace pair T(Lap(0, 1), Lap(eps, 1)) and the Gaussian pair decrease pointwise in eps and in
mu = 1/sigma.  For pairs of distributions pointwise order of trade-off functions is Blackwell order (Blackwell 1950, as
stated in seed 004, Su 2025, Theorem 4): the more private pair (P, Q) is a post-processing K of the less
private one (P', Q'), and the same kernel maps the Poisson-subsampled pair (q P' + (1 - q) Q', Q') to
(q P + (1 - q) Q, Q) (and the add direction likewise), so subsampling keeps the order, per direction.
The composition is monotone in each factor (``numeric.pld``'s Lemma 1, "domination composes", for the
hockey-stick curves every query is read from).  So the upper list's composition is dominated by (is
less private than) no true composition: its certified upper delta, eps and lower beta bound the truth's;
the lower list's certified lower delta, eps and upper beta bound it from the other side
(``Envelope``).  The width added is first order in g; it is reported in ``reason``.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from fractions import Fraction

from . import pld_mechanisms as M
from .pld_results import DeltaResult, EpsResult, TradeoffResult

#: most distinct parameters a family keeps before it is rounded (Laplace steps cost ~5 ms each, the
#: subsampled ones ~0.1 s per tilt)
BUDGET = {M.Laplace: 1024, M.SubsampledGaussian: 24, M.SubsampledLaplace: 24}


def _family(mech):
    """(family key (model class, rate), parameter, sense, build) of a mechanism the envelope can round, or None.  sense +1:
    a larger parameter is less private (eps); -1: a smaller one is (sigma).  build(v) is the same
    mechanism with parameter v."""
    ds = mech.directions
    d0 = ds[0]
    if len(ds) == 1 and type(d0) is M.Laplace:
        return (M.Laplace,), d0.eps, 1, M.laplace
    if len(ds) == 2 and type(d0) is M.SubsampledGaussian and d0.direction == "remove":
        return (M.SubsampledGaussian, d0.q), d0.sigma, -1, lambda v, q=d0.q: M.subsampled_gaussian(q, v)
    if len(ds) == 2 and type(d0) is M.SubsampledLaplace and d0.direction == "remove":
        return (M.SubsampledLaplace, d0.q), d0.eps, 1, lambda v, q=d0.q: M.subsampled_laplace(q, v)
    return None


def _lattice(values, budget: int, sense: int) -> Fraction:
    """g = 2^-m with at most about ``budget`` multiples of g across the values' range; for sigma (sense
    -1) also g <= min(values), so that rounding down never reaches 0."""
    lo, hi = min(values), max(values)
    m = math.floor(-math.log2(float(hi - lo) / budget))
    g = Fraction(1, 2 ** m) if m >= 0 else Fraction(2 ** -m)
    while (hi - lo) / g > budget:
        g *= 2
    if sense < 0:
        while g > lo:
            g /= 2
    return g


def _round(v: Fraction, g: Fraction, up: bool) -> Fraction:
    q = v / g
    n = math.ceil(q) if up else math.floor(q)
    return n * g


def envelope_lists(entries, budget=None):
    """(upper entries, lower entries, notes) of [(Mechanism, count)]: families over their budget rounded
    outward (module docstring), every other entry on both lists unchanged; notes name what was rounded."""
    budget = BUDGET if budget is None else budget
    rows = defaultdict(list)
    rest = []
    for mech, k in entries:
        fam = _family(mech)
        if fam is None:
            rest.append((mech, k))
        else:
            rows[fam[0]].append((fam, k, mech))
    ups, los, notes = list(rest), list(rest), []
    for key, group in rows.items():
        values = {fam[1] for fam, _, _ in group}
        if len(values) <= budget[key[0]]:
            ups += [(mech, k) for _, k, mech in group]
            los += [(mech, k) for _, k, mech in group]
            continue
        sense, build = group[0][0][2], group[0][0][3]
        g = _lattice(values, budget[key[0]], sense)
        cu, cl = defaultdict(int), defaultdict(int)
        for fam, k, _ in group:
            cu[_round(fam[1], g, up=sense > 0)] += k
            cl[_round(fam[1], g, up=sense < 0)] += k
        cl.pop(Fraction(0), None)          # an eps rounded down to 0: the step leaves the lower list
        if len(cu) + len(cl) >= len(values):
            # the two lists would cost more distinct steps than the family (sigma from 0.001 to 1000 needs
            # g <= 0.001, and nothing is shared): it stays as it is
            ups += [(mech, k) for _, k, mech in group]
            los += [(mech, k) for _, k, mech in group]
            continue
        ups += [(build(v), k) for v, k in sorted(cu.items())]
        los += [(build(v), k) for v, k in sorted(cl.items())]
        name = "eps" if sense > 0 else "sigma"
        notes.append(f"{len(values)} distinct {key[0].__name__} steps bracketed by {name} rounded outward to multiples "
                     f"of 2^{round(math.log2(g))} ({len(cu)} and {len(cl)} distinct steps)")
    return ups, los, notes


def needs_envelope(entries, budget=None) -> bool:
    """Whether some family of ``entries`` has more distinct parameters than its budget."""
    budget = BUDGET if budget is None else budget
    seen = defaultdict(set)
    for mech, _ in entries:
        fam = _family(mech)
        if fam is not None:
            seen[fam[0]].add(fam[1])
    return any(len(v) > budget[key[0]] for key, v in seen.items())


class Envelope:
    """A certified composition of the upper and lower lists (``envelope_lists``): the same queries and
    result records as ``numeric.pld.Composition``, each end from the list whose composition bounds the
    truth on that side."""

    def __init__(self, entries, budget=None):
        from .pld import compose
        ups, los, self.notes = envelope_lists(entries, budget)
        self.upper, self.lower = compose(ups), compose(los)
        # no lower end is read from the upper list: its eps(delta) queries skip their lower compositions
        # (10^4 distinct Laplace steps: half of the lower hulls, ``numeric.pld.Composition.lower_ends``)
        self.upper.lower_ends = False

    def _ask(self, query: str, arg):
        """(upper list's result, lower list's result, the fields both ends share) of one query."""
        t0 = time.perf_counter()
        a, b = getattr(self.upper, query)(arg), getattr(self.lower, query)(arg)
        reason = "; ".join([*self.notes] + [r for r in (a.reason, b.reason) if r])
        return a, b, {"certified": a.certified and b.certified, "seconds": time.perf_counter() - t0, "reason": reason}

    def delta(self, eps) -> DeltaResult:
        a, b, common = self._ask("delta", eps)
        return DeltaResult(eps=a.eps, delta=a.delta_upper, delta_lower=b.delta_lower, delta_upper=a.delta_upper,
                           **common)

    def eps(self, delta) -> EpsResult:
        a, b, common = self._ask("eps", delta)
        return EpsResult(delta=a.delta, eps=a.eps_upper, eps_lower=b.eps_lower, eps_upper=a.eps_upper, **common)

    def tradeoff(self, alpha) -> TradeoffResult:
        a, b, common = self._ask("tradeoff", alpha)
        return TradeoffResult(alpha=a.alpha, beta=a.beta_lower, beta_lower=a.beta_lower, beta_upper=b.beta_upper,
                              power=a.power, power_upper=a.power_upper, power_lower=b.power_lower, **common)


def compose_spec(entries, budget=None):
    """``numeric.pld.compose(entries)``, or its ``Envelope`` when a family is over its budget."""
    from .pld import compose
    return Envelope(entries, budget) if needs_envelope(entries, budget) else compose(entries)
