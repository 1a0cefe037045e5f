"""SSW24's census ranges in ``reproduce --paper 004`` (issue #26 item 3): the verdict logic, with the engine
stubbed (its brackets are checked in tests/test_census.py); the slow test runs the entries whole.

Reference for the upper end of the unused-budget range: the block level (the smallest rho, the largest
share unused) in the continuous-Gaussian limit, 9 queries of variance 1/(2 rho_i), at 40 digits,
against Bun-Steinke by hand (as in tests/test_census.py)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from numeric import census as C
from proofs_check import reproduce_census as RC


class _Bracket:
    eps_lower = eps_upper = mpmath.mpf(1)
    certified = True


def _entries(monkeypatch):
    monkeypatch.setattr(C, "certified_eps", lambda level=C.ALL, query_set=None, delta=C.DELTA: _Bracket())
    monkeypatch.setattr(C, "compose", lambda qs: _Comp())
    return {e["id"]: e for e in RC.entries()}


def _block_unused_reference():
    with mpmath.workdps(40):
        rho = (mpmath.mpf(981) / 538) ** 2 * 2 / 665
        nominal = rho + 2 * mpmath.sqrt(rho * mpmath.log(mpmath.mpf(10) ** 10))
        mu = mpmath.sqrt(2 * rho)        # 9 Gaussians of variance 9/(2 rho): mu^2 = 9 / (9/(2 rho))
        d = mpmath.mpf("1e-10")
        f = lambda e: mpmath.log(mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)) - mpmath.log(d)
        return 100 * (1 - mpmath.findroot(f, (mpmath.mpf("0.1"), 5), solver="illinois") / nominal)


def test_ranges_and_verdicts(monkeypatch):
    out = _entries(monkeypatch)
    unused, var = out["SU-census:unused-budget"], out["SU-census:variance-reduction"]
    # not reproduced on reconstructed inputs: unverifiable (no verdict on the paper), with our numbers
    assert unused["status"] == var["status"] == "unverifiable"
    assert "not an erratum" in unused["note"]
    hi = mpmath.mpf(unused["computed"].split("-")[1].rstrip("%"))
    assert abs(hi - _block_unused_reference()) < mpmath.mpf("0.005")
    assert [row["level"] for row in unused["levels"]] == list(C.levels())
    assert "cks" in unused["note"] and "dhcp_20220310" in unused["note"]


def test_mutation_margins_at_the_printed_ends_are_reproduced(monkeypatch):
    """Margins whose smallest and largest shares are the printed 8.50 % and 13.76 % must be 'reproduced':
    the verdict can go either way."""
    def forced(conversion="bun-steinke", query_set=None):
        ends = {0: 0.0850, 7: 0.1376}
        return [C.Margin(g, 9, 0.1, 10.0, 1.0, 1.1, conversion, ends.get(i, 0.1), 0.2)
                for i, g in enumerate(C.levels())]
    monkeypatch.setattr(C, "margins", forced)
    assert _entries(monkeypatch)["SU-census:unused-budget"]["status"] == "reproduced"


@pytest.mark.slow
def test_entries_with_the_engine():
    out = {e["id"]: e for e in RC.entries()}
    for row in out["SU-census:unused-budget"]["levels"]:
        lo, hi = (mpmath.mpf(x) for x in row["eps_certified"])
        assert row["certified"] and lo <= mpmath.mpf(row["eps_convolution"]) <= hi * (1 + mpmath.mpf("1e-9"))


class _Comp:
    def eps(self, delta):
        return type("R", (), {"eps_lower": mpmath.mpf(20), "eps_upper": mpmath.mpf(20), "certified": True})()

    def delta(self, eps):
        return type("R", (), {"delta_lower": mpmath.mpf("2e-11"), "delta_upper": mpmath.mpf("3e-11")})()


def _script(monkeypatch):
    monkeypatch.setattr(C, "compose", lambda qs: _Comp())
    return {e["id"]: e for e in RC._script_entries()}


def test_script_eps_base(monkeypatch):
    out = _script(monkeypatch)
    # by hand: rho = (485/254)^2, Bun-Steinke at 1e-10 = 21.9710740...
    with mpmath.workdps(30):
        rho = (mpmath.mpf(485) / 254) ** 2
        bs = rho + 2 * mpmath.sqrt(rho * mpmath.log(mpmath.mpf(10) ** 10))
    assert abs(mpmath.mpf(out["SSW24-script:eps-base"]["computed"]) - bs) < mpmath.mpf("1e-8")
    assert out["SSW24-script:eps-base"]["status"] == "reproduced"
    assert "holds" in out["SSW24-script:factor"]["note"]
    assert sum(q.rho for q in C.script_queries()) == Fraction(485**2, 254**2)


def test_mutation_script_scale(monkeypatch):
    """global_scale 254/486 in place of 254/485 must make 21.97 differ."""
    data = dict(C._data())
    data["ssw24_script_allocation"] = dict(data["ssw24_script_allocation"], global_scale="254/486")
    monkeypatch.setattr(C, "_data", lambda: data)
    assert _script(monkeypatch)["SSW24-script:eps-base"]["status"] == "differs"


@pytest.mark.slow
def test_script_entries_with_the_engine():
    out = {e["id"]: e for e in RC._script_entries()}
    assert "holds" in out["SSW24-script:factor"]["note"] and "not shown" not in out["SSW24-script:factor"]["note"]
    assert mpmath.mpf(out["SSW24-script:factor"]["computed"]) < mpmath.mpf("0.9485")
    # a valid but not tight factor: no verdict on the script (unverifiable, not differs)
    assert out["SSW24-script:factor"]["status"] == "unverifiable"
