"""Shared helpers of the errata claim modules, one per seed (``claims_errata_000`` ... ``_004``).

Each claim here is of kind ``"statement"``: it quotes (or paraphrases closely) a statement of a
paper, with the paper and a precise locator.  A false statement is REFUTED through
:func:`~proofs_check.outcomes.refutation`: ``counterexample()`` computes, through the toolkit's
public path (``derive`` records and ``numeric.mp``/``risk``/``design``/``semantics``/``attack``/
``auc``/``composition``), the inputs and values that contradict the paper's words, compared with
a margin far above the verified error; ``corrected()`` checks the corrected statement, and the
toolkit values the counter-example rests on, against independent forms (plain mpmath written from
the definitions in ``grid``'s references or here, quadrature of the densities, brute force).
Statements that hold are registered too (CONFIRMED), so the list says both.

``dp-derive reproduce --errata`` lists the REFUTED rows (``proofs_check.errata``).  Line numbers
are lines of the seed text files (``../shared/seeds``).

This module holds the citation strings, the digits and tolerance of every comparison, and small
reference functions written from the definitions.
"""

from __future__ import annotations

import mpmath

from .grid import laplace_cdf, laplace_sf, normal_cdf, normal_isf, normal_sf
from .outcomes import agreement, inequality, refutation
from .status import CONFIRMED, PROVEN, Outcome

DF = "de Fondeville (2026), arXiv:2603.12753v1"
LXM = "Liu, He, Chanyaswad, Wang, Mittal (2019), PoPETs"
KZ = "Kazan et al. (2025)"
MHA = "Matthews, Harel, Aseltine (2010)"
SU = "Su (2025), A statistical viewpoint on differential privacy"

#: digits asked of the toolkit, and the relative tolerance of every comparison with it
DIG = 15
TOL = mpmath.mpf("1e-12")
#: working precision of the independent references
WDPS = 50


# ------------------------------------------------------------------------------ helpers


def _mpf(x):
    with mpmath.workdps(WDPS):
        return mpmath.mpf(x) if not isinstance(x, mpmath.mpf) else +x


def _dec(x, digits: int = 40) -> str:
    """An mpf as an exact decimal string of ``digits`` significant digits (a toolkit input)."""
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(mpmath.mpf(x), digits, min_fixed=-5, max_fixed=5)


def _gt(a, b, tol=TOL) -> bool:
    """a > b by more than the relative tolerance, decided at 60 digits."""
    with mpmath.workdps(60):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        return a - b > tol * max(abs(a), abs(b))


def _s(x, n: int = 12) -> str:
    return mpmath.nstr(x, n) if x is not None else "None"


def _all(*parts, detail: str = "") -> Outcome:
    """Run the zero-argument checks in order; the first that is not PROVEN/CONFIRMED is the
    outcome, else CONFIRMED with the points summed and the margin/worst point of the last one."""
    points, last, details = 0, None, []
    for part in parts:
        out = part()
        if out.status not in (PROVEN, CONFIRMED):
            return out
        points += out.points
        last = out
        details.append(out.detail)
    return Outcome(CONFIRMED, margin=last.margin, worst_at=last.worst_at, points=points,
                   method=last.method, detail=(detail + ": " if detail else "") + "; ".join(details))


def _sweep(cases, lo: float, hi: float, detail: str, point_name: str = "alpha", grid_points=(),
           grid: int = 13, iterations: int = 14) -> Outcome:
    """``margin(point) >= 0`` (relative slack) on ``grid_points`` and by an adversarial search over
    ``log10 point`` in [lo, hi]: :func:`~proofs_check.outcomes.inequality` with this module's
    tolerance and a short search (one start)."""
    return inequality(cases, TOL, detail, lo=lo, hi=hi, grid_points=grid_points, point_name=point_name,
                      search={"grid": grid, "starts": 1, "iterations": iterations})


# independent references (plain mpmath, from the definitions of the distributions)

def _gauss_power(mu, a):
    """1 - G_mu(a) = P(N(mu,1) > z_{1-a})."""
    with mpmath.workdps(WDPS):
        return normal_sf(normal_isf(_mpf(a)) - _mpf(mu))


def _gauss_tradeoff(mu, a):
    with mpmath.workdps(WDPS):
        return normal_cdf(normal_isf(_mpf(a)) - _mpf(mu))


def _laplace_threshold(a):
    """t with P(Lap(0,1) > t) = a."""
    a = _mpf(a)
    return -mpmath.log(2 * a) if a <= mpmath.mpf(1) / 2 else mpmath.log(2 * (1 - a))


def _laplace_power(eps, a):
    """1 - f(a) of Laplace noise of scale 1 and shift eps: P(Lap(eps, 1) > t(a))."""
    with mpmath.workdps(WDPS):
        return laplace_sf(_laplace_threshold(a), loc=_mpf(eps))


def _laplace_tradeoff(eps, a):
    with mpmath.workdps(WDPS):
        return laplace_cdf(_laplace_threshold(a), loc=_mpf(eps))


def _f_eps_delta(eps, delta, a):
    """f_{eps,delta}(a) = max{0, 1 - delta - e^eps a, e^-eps (1 - delta - a)}."""
    with mpmath.workdps(WDPS):
        e, d, a = _mpf(eps), _mpf(delta), _mpf(a)
        return max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))


def _gdp_delta(mu, eps):
    """Tight delta(eps) of N(0,1) vs N(mu,1): the integral of (q - e^eps p)_+ by quadrature."""
    with mpmath.workdps(30):
        mu, eps = _mpf(mu), _mpf(eps)
        kink = eps / mu + mu / 2          # q = e^eps p at y = eps/mu + mu/2

        def h(y):
            return mpmath.npdf(y, mu, 1) - mpmath.exp(eps) * mpmath.npdf(y, 0, 1)
        return mpmath.quad(h, [kink, kink + 10, kink + 40, mpmath.inf])


def _gdp_delta_closed(mu, eps):
    """The same delta(eps) from the Gaussian CDF: P_Q(L > eps) - e^eps P_P(L > eps)."""
    with mpmath.workdps(WDPS):
        mu, eps = _mpf(mu), _mpf(eps)
        return normal_sf(eps / mu - mu / 2) - mpmath.exp(eps) * normal_sf(eps / mu + mu / 2)


def _rows_ok(rows, detail):
    return lambda: agreement(rows() if callable(rows) else rows, TOL, detail)


def printed_numbers(paper_says: str, holds_instead: str, ids: tuple[str, ...], values, corrected,
                    detail: str = "", inconsistency=None) -> Outcome:
    """A statement about printed numbers, judged by the one rule of :mod:`proofs_check.rounding`.

    ``ids`` are the ``dp-derive reproduce`` entries of the numbers, ``values()`` returns one
    ``(printed, computed)`` pair per id (the computed value in the printed unit: percent for a
    printed '48%').  REFUTED (an erratum of kind ``"number"``) only when a computed value neither
    rounds nor truncates to its printed number; when every one does, CONFIRMED with the reading
    of each.  ``corrected()`` checks the computed values against independent forms first.
    ``inconsistency()``, when given, returns the printed numbers' disagreement with each other (which
    needs no computed input, so it stands where the extraction lost one) or None; it is part of the
    evidence, and an erratum on its own.
    """
    from .rounding import verdict
    seen = {}

    def counterexample():
        pairs = list(values())
        if len(pairs) != len(ids):
            raise ValueError(f"{len(ids)} reproduce ids but {len(pairs)} printed numbers")
        bad = {}
        for rid, (printed, computed) in zip(ids, pairs):
            status, how = verdict(printed.rstrip("%"), computed)
            seen[rid] = f"{printed} <- {_s(computed, 10)} ({how or 'differs'})"
            if status != "reproduced":
                bad[rid] = (f"printed {printed}, but no value exists" if computed is None else
                            f"printed {printed}, computed {_s(computed, 10)}"
                            f"{'%' if printed.endswith('%') else ''}: neither rounds nor truncates to it")
        among = inconsistency() if inconsistency is not None else None
        if among:
            bad["among the printed numbers"] = among
        return bad or None
    out = refutation(paper_says, holds_instead, counterexample, corrected, detail, kind="number", printed=ids)
    if out.status is CONFIRMED:
        out.detail = (f"every printed number reproduced: {'; '.join(seen.values())}; "
                      f"{out.detail.split('; ', 1)[-1]}")
        out.extra = {**(out.extra or {}), "printed": list(ids)}
    return out


def unverifiable(out: Outcome, where: str, missing: str, reading: str) -> Outcome:
    """Mark ``out`` (the check of a correct statement from the literature) as standing where the
    seed text lost what the paper printed: no erratum can be reported there (``proofs_check.verdicts``,
    rule 2).  ``extra`` records ``paper = 'unverifiable'``, the lines, what is missing and the reading
    that was checked instead; ``dp-derive reproduce --errata`` lists such rows apart from the errata."""
    out.extra = {**(out.extra or {}), "paper": "unverifiable", "where": where, "missing": missing,
                 "reading": reading}
    return out
