"""SSW24's census ranges in ``reproduce --paper 004`` (issue #26 item 3): the verdict logic, with the engine
stubbed (its brackets are checked in tests/test_census.py); the slow test runs the entries whole.

Reference for the upper end of the unused-budget range: the block level (the smallest rho, the largest
share unused) in the continuous-Gaussian limit, 9 queries of variance 1/(2 rho_i), at 40 digits,
against Bun-Steinke by hand (as in tests/test_census.py)."""

from __future__ import annotations

import dataclasses

import mpmath
import pytest

from numeric import census as C
from proofs_check import reproduce_census as RC


class _Bracket:
    eps_lower = eps_upper = mpmath.mpf(1)
    certified = True


def _entries(monkeypatch):
    monkeypatch.setattr(C, "certified_eps", lambda level=C.ALL, query_set=None, delta=C.DELTA: _Bracket())
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
    assert unused["status"] == var["status"] == "differs"
    hi = mpmath.mpf(unused["computed"].split("-")[1].rstrip("%"))
    assert abs(hi - _block_unused_reference()) < mpmath.mpf("0.005")
    assert [row["level"] for row in unused["levels"]] == list(C.levels())
    assert "cks" in unused["note"] and "dhcp_20220310" in unused["note"]


def test_mutation_margins_at_the_printed_ends_are_reproduced(monkeypatch):
    """Margins whose smallest and largest shares are the printed 8.50 % and 13.76 % must be 'reproduced':
    the verdict can go either way."""
    real = C.margins

    def forced(conversion="bun-steinke", query_set=None):
        ms = real(conversion, query_set)
        ends = {0: 0.0850, len(ms) - 1: 0.1376}
        return [dataclasses.replace(m, unused=ends.get(i, 0.1)) for i, m in enumerate(ms)]
    monkeypatch.setattr(C, "margins", forced)
    assert _entries(monkeypatch)["SU-census:unused-budget"]["status"] == "reproduced"


@pytest.mark.slow
def test_entries_with_the_engine():
    out = {e["id"]: e for e in RC.entries()}
    for row in out["SU-census:unused-budget"]["levels"]:
        lo, hi = (mpmath.mpf(x) for x in row["eps_certified"])
        assert row["certified"] and lo <= mpmath.mpf(row["eps_convolution"]) <= hi * (1 + mpmath.mpf("1e-9"))
