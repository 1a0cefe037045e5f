"""The CLI asks the record what it is, never its name (issue #24): the mechanism flags come from the table's
rows, and KIND semantics / auc / ztest of ``dp-derive plot`` take every record with the fact they need
(proofs_check/cli/plot_kinds.py).  A row added to the table (here a test double) is served with no edit of
the CLI; a record the old name checks refused (noise --family laplace / gaussian) gives the same data as the
mechanism whose pair it is."""

from __future__ import annotations

import csv

import pytest

from cli_runner import assert_usage_error, run
from derive.mechanisms.table import TABLE, Mechanism
from proofs_check.cli import common
from proofs_check.cli import plot_kinds as PK


def test_mechanism_flags_are_the_table_parameters_in_order():
    seen = []
    for m in TABLE:
        seen.extend(p for p in m.param_names if p not in seen)
    assert common.MECHANISM_FLAGS == tuple(seen)
    assert set(common._FLAG_MEANING) == set(seen)
    assert common.OPTION_NAMES == tuple(dict.fromkeys(o.name for m in TABLE for o in m.options))


def test_a_new_parameter_gets_its_flag(monkeypatch):
    row = Mechanism("exponential-double", "approx_dp:randomized_response", (("eps", "eps"), ("tries", "n")),
                    "a test double")
    monkeypatch.setattr(common, "TABLE", TABLE + (row,))
    flags = common._table_flags()
    assert list(flags)[:len(common.MECHANISM_FLAGS)] == list(common.MECHANISM_FLAGS)
    assert "tries" in flags and flags["tries"][1] == ["exponential-double"]
    assert "exponential-double" in common._meaning("tries", *flags["tries"])
    assert flags["outcomes"][1] == ["exponential"]              # the real row added this way


def test_a_new_pure_row_is_taken_by_semantics(monkeypatch):
    """A row whose record is f_{eps,0} (a stand-in for the geometric mechanism) is listed among the
    mechanisms KIND semantics takes, beside randomized-response, with no edit of plot_kinds."""
    row = Mechanism("geometric-double", "approx_dp:randomized_response", (("eps", "eps"),), "a test double")
    monkeypatch.setattr(common, "TABLE", TABLE + (row,))
    assert common.rows_where(PK.pure) == ["randomized-response", "geometric", "geometric-double"]
    assert common.rows_where(PK.gdp_exact) == ["gaussian", "noise --family gaussian"]
    assert "classical-gaussian" in common.rows_where(PK.two_sided)
    assert "approx-dp" not in common.rows_where(PK.pure)          # f_{eps,delta}: delta is not 0 structurally


def _rows(path):
    with open(path) as fh:
        return list(csv.DictReader(fh))


def test_noise_families_plot_as_their_pairs(tmp_path):
    pytest.importorskip("matplotlib")
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert run(["plot", "auc", "laplace", "--eps", "1", "--points", "5", "--out", str(a)]).rc == 0
    assert run(["plot", "auc", "noise", "--family", "laplace", "--mu", "1", "--points", "5", "--out", str(b)]).rc == 0
    assert [r["auc"] for r in _rows(tmp_path / "a.csv")] == [r["auc"] for r in _rows(tmp_path / "b.csv")]
    assert run(["plot", "ztest", "gaussian", "--mu", "1", "--points", "4", "--out", str(a)]).rc == 0
    assert run(["plot", "ztest", "noise", "--family", "gaussian", "--mu", "1", "--points", "4",
                "--out", str(b)]).rc == 0
    assert _rows(tmp_path / "a.csv") == _rows(tmp_path / "b.csv")
    # the refusals name the rows that are taken, read from the table
    r = run(["plot", "ztest", "laplace", "--eps", "1", "--out", str(a)])
    assert_usage_error(r, "mechanism")
    assert "gaussian or noise --family gaussian" in r.err
    assert_usage_error(run(["plot", "semantics", "noise", "--family", "laplace", "--mu", "1", "--out", str(a)]),
                       "mechanism")
