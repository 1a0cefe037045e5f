"""The 2020 Census allocation as discrete Gaussian queries, composed (issue #26 item 3; seed 004 Sec. 4.4;
Su, Su, Wang, "The 2020 United States decennial census is more private than you (might) think",
arXiv 2410.09296 v1, 2024, "SSW24").

Data: ``derive/data/census_2020_plb.json`` (the DAS's zCDP allocation of the 2022 DHC persons runs: a
global rho = 1 / global_scale^2, eight geographic levels with a share each, and within a level the
queries' shares; the file names its sources).  Query i of level g gets rho_i = rho * share_g * share_i
and, as in SSW24 and seed 004 (a sensitivity-1 count released with N_Z(0, sigma_i^2) noise, the test
N_Z(0, sigma_i^2) against N_Z(1, sigma_i^2)), sigma_i^2 = 1 / (2 rho_i) (Canonne-Kamath-Steinke 2020:
then the query is rho_i-zCDP; zCDP composes by adding, so a level is sum_i rho_i-zCDP).

Three ways of answering "eps at delta = 1e-10" for a level, all here:

* ``conversions``: the zCDP ones of the level's total rho, Bun-Steinke rho + 2 sqrt(rho log(1/delta))
  and the tighter Canonne-Kamath-Steinke one (``numeric.composition.zcdp_to_dp``);
* ``certified_eps``: the certified PLD engine (``numeric.pld``) on the spec ``spec_text`` writes (the
  file ``dp-derive compose fdp --spec FILE --at-delta 1e-10`` reads): a two-sided bracket;
* ``convolution_eps``: the exact profile of n identical queries (every level of the shipped
  allocations shares its rho equally between its queries) from the law of T = Z_1 + ... + Z_n, which
  is the n-fold convolution of N_Z(0, s2) on the integers: the privacy loss is L = (2T - n)/(2 s2),
  and delta(eps) = sum over t with L(t) > eps of P1(t) (1 - e^{eps - L(t)}), P1 the law of T + n
  (SSW24 v1, the i.i.d. profile Pr[T > eps s2 - n/2] - e^eps Pr[T > eps s2 + n/2], written as a sum
  of positive terms).  Float64, positive terms only (each entry of a convolution of positive arrays
  carries a relative error of a few ulps per factor), the support cut where the weight is below
  e^-700.  It is not a certified bracket; the tests check that it falls inside the engine's.

SSW24's two ranges, per level (``margins``): the share of the budget left unused,
1 - eps_exact / eps_nominal, and the variance reduction 1 - c with c the common factor on every
sigma_i^2 at which eps_exact(delta) = eps_nominal, eps_nominal being a zCDP conversion of the level's
rho.  Which conversion SSW24 take as the nominal value is not in the text we could read (their script
uses Bun-Steinke), so both are computed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import mpmath
import numpy as np

from derive.errors import DomainError

DATA = Path(__file__).resolve().parent.parent / "derive" / "data" / "census_2020_plb.json"
DELTA = "1e-10"
CONVERSIONS = ("bun-steinke", "cks")
#: a level name or this: every query of every level (a person is counted once at each level)
ALL = "all"
#: significant digits of sigma^2 in a spec file (decimal text: the spec takes decimals only)
SPEC_DIGITS = 15


@dataclass(frozen=True)
class Query:
    level: str
    name: str
    rho: Fraction
    sigma2: Fraction


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def query_sets() -> tuple[str, ...]:
    return tuple(_data()["query_sets"])


def levels() -> tuple[str, ...]:
    return tuple(g["name"] for g in _data()["geolevels"])


def global_rho() -> Fraction:
    """rho = 1 / global_scale^2 (the DAS's global rho)."""
    return 1 / Fraction(_data()["global_scale"]) ** 2


def _query_set(query_set: str | None) -> dict:
    name = query_set or _data()["default_query_set"]
    if name not in _data()["query_sets"]:
        raise DomainError("query_set", name, "one of " + ", ".join(query_sets()))
    return _data()["query_sets"][name]


def queries(level: str = ALL, query_set: str | None = None) -> list[Query]:
    """The level's queries (or all 8 x n), each with its rho_i and sigma_i^2 = 1/(2 rho_i), exact."""
    if level != ALL and level not in levels():
        raise DomainError("level", level, "one of " + ", ".join(levels() + (ALL,)))
    qs = _query_set(query_set)
    rho = global_rho()
    out = []
    for g in _data()["geolevels"]:
        if level not in (ALL, g["name"]):
            continue
        for name, share in zip(qs["queries"], qs["props"]):
            r = rho * Fraction(g["prop"]) * Fraction(share)
            out.append(Query(g["name"], name, r, 1 / (2 * r)))
    return out


def level_rho(level: str = ALL, query_set: str | None = None) -> Fraction:
    return sum((q.rho for q in queries(level, query_set)), Fraction(0))


def decimal_down(x: Fraction, digits: int = SPEC_DIGITS) -> str:
    """``x`` > 0 rounded towards zero to ``digits`` significant digits, as exact decimal text."""
    from decimal import Decimal
    e = 0                                   # 10^(e - 1) <= x < 10^e
    while Fraction(10) ** e <= x:
        e += 1
    while Fraction(10) ** (e - 1) > x:
        e -= 1
    m = math.floor(x * Fraction(10) ** (digits - e))
    text = format(Decimal(m).scaleb(e - digits), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def script_queries() -> list[Query]:
    """The allocation SSW24's repository script composes (``ssw24_script_allocation`` in the data file):
    rho = 1/global_scale^2, 8 levels, 10 equal queries per level."""
    a = _data()["ssw24_script_allocation"]
    rho, n = 1 / Fraction(a["global_scale"]) ** 2, int(a["queries_per_level"])
    out = []
    for level, share in zip(levels(), a["geolevel_props"]):
        r = rho * Fraction(share) / n
        out += [Query(level, f"query {i + 1}", r, 1 / (2 * r)) for i in range(n)]
    return out


def spec_text(level: str = ALL, query_set: str | None = None) -> str:
    """The ``--spec`` JSON of the level's queries (``spec_of``)."""
    return spec_of(queries(level, query_set))


def spec_of(qs: list[Query]) -> str:
    """One discrete-gaussian entry per run of equal sigma^2 with its count, sigma^2 rounded towards zero at
    the 15th significant digit (relative change below 1e-14)."""
    entries: list[dict] = []
    for q in qs:
        s2 = decimal_down(q.sigma2)
        if entries and entries[-1]["sigma2"] == s2:
            entries[-1]["count"] += 1
        else:
            entries.append({"mechanism": "discrete-gaussian", "sigma2": s2, "count": 1})
    return json.dumps({"mechanisms": entries}, indent=1) + "\n"


def conversions(level: str = ALL, query_set: str | None = None, delta: str = DELTA) -> dict:
    """{conversion: eps} of the level's total rho at delta (Bun-Steinke and CKS)."""
    from . import composition as NC
    with mpmath.workdps(40):
        r = level_rho(level, query_set)
        text = mpmath.nstr(mpmath.mpf(r.numerator) / r.denominator, 35)
    return {c: NC.zcdp_to_dp(text, 1, delta, c).eps for c in CONVERSIONS}


def certified_eps(level: str = ALL, query_set: str | None = None, delta: str = DELTA):
    """The certified engine's EpsResult (eps_lower, eps_upper, certified) of the level's spec."""
    return compose(queries(level, query_set)).eps(delta)


def compose(qs: list[Query]):
    """The certified engine's composition of the queries, built from their spec text (the file a user runs)."""
    from derive.spec import parse_spec

    from . import pld
    from . import pld_mechanisms as PM
    comps = parse_spec(spec_of(qs), where="census")
    return pld.compose([(PM.from_record(c.record()), c.count) for c in comps])


# ------------------------------------------------------------------ n identical queries (float64) ----

def _dg_pmf(s2: float) -> tuple[int, np.ndarray]:
    """(first support point, pmf) of N_Z(0, s2) cut at |z| <= M with e^{-M^2/(2 s2)} < e^-700."""
    m = int(math.ceil(math.sqrt(1400 * s2))) + 1
    z = np.arange(-m, m + 1, dtype=float)
    w = np.exp(-z * z / (2 * s2))
    return -m, w / w.sum()


@lru_cache(maxsize=256)
def _sum_law(s2: float, n: int) -> tuple[int, np.ndarray]:
    start, p = _dg_pmf(s2)
    law, first = p, start
    for _ in range(n - 1):
        law, first = np.convolve(law, p), first + start
    return first, law


def convolution_delta(eps: float, s2: float, n: int) -> float:
    """delta(eps) of n identical discrete Gaussian queries (module docstring), a sum of positive terms."""
    first, law = _sum_law(s2, n)
    t = first + np.arange(len(law), dtype=float)
    loss = (2 * t - n) / (2 * s2)
    # P1(t) = P0(t - n): the law shifted by n places
    p1 = np.concatenate([np.zeros(n), law[:-n]]) if n < len(law) else np.zeros_like(law)
    keep = loss > eps
    return float(np.sum(p1[keep] * -np.expm1(eps - loss[keep])))


def convolution_eps(s2: float, n: int, delta: float = 1e-10) -> float:
    """The eps with convolution_delta(eps) = delta (0 when delta(0) <= delta)."""
    from .solvers import brent_root
    target = math.log(delta)

    def g(e):
        d = convolution_delta(e, s2, n)
        return (math.log(d) if d > 0 else -1e4) - target
    if g(0.0) <= 0:
        return 0.0
    hi = 1.0
    while g(hi) > 0:
        hi *= 2
    return brent_root(g, 0.0, hi, xtol=1e-13)


@dataclass(frozen=True)
class Margin:
    """One level against a nominal eps: SSW24's two quantities (module docstring)."""
    level: str
    n: int
    rho: float
    sigma2: float
    eps: float
    nominal: float
    conversion: str
    unused: float
    variance_reduction: float


def _identical(level: str, query_set: str | None) -> tuple[float, int]:
    qs = queries(level, query_set)
    if len({q.sigma2 for q in qs}) != 1:
        raise DomainError("level", level, "a level whose queries share sigma^2 (the convolution route)")
    return float(qs[0].sigma2), len(qs)


def margin(level: str, conversion: str = "bun-steinke", query_set: str | None = None,
           delta: str = DELTA) -> Margin:
    from .solvers import brent_root
    if conversion not in CONVERSIONS:
        raise DomainError("conversion", conversion, "one of " + ", ".join(CONVERSIONS))
    s2, n = _identical(level, query_set)
    d = float(delta)
    nominal = float(conversions(level, query_set, delta)[conversion])
    eps = convolution_eps(s2, n, d)
    # eps_exact(c s2) decreases in c; at c = 1 it is below the nominal (checked by the bracket)
    c = brent_root(lambda c: convolution_eps(c * s2, n, d) - nominal, 0.05, 1.0, xtol=1e-10)
    return Margin(level, n, float(level_rho(level, query_set)), s2, eps, nominal, conversion,
                  1 - eps / nominal, 1 - c)


def margins(conversion: str = "bun-steinke", query_set: str | None = None) -> list[Margin]:
    return [margin(g, conversion, query_set) for g in levels()]
