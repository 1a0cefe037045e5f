"""Composition spec files (issue #9, "Bad input": the error says which entry)."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from derive.errors import DomainError
from derive.spec import parse_spec, read_spec

GOOD = {"mechanisms": [{"mechanism": "gaussian", "mu": "0.5", "count": 10},
                       {"mechanism": "laplace", "eps": 0.1, "count": 100},
                       {"mechanism": "gaussian", "mu": "0.9", "p": "0.01", "sampling": "poisson", "count": 1000},
                       {"mechanism": "noise", "family": "logistic", "mu": "1"}]}


def test_good_spec():
    comps = parse_spec(json.dumps(GOOD))
    assert [c.mechanism.name for c in comps] == ["gaussian", "laplace", "gaussian", "noise"]
    assert [c.count for c in comps] == [10, 100, 1000, 1]
    assert comps[1].params == {"eps": "0.1"}          # a JSON number is kept as its decimal text
    assert comps[2].p == sp.Rational(1, 100) and comps[2].sampling == "poisson"
    assert comps[3].options == {"family": "logistic"}
    assert str(comps[0].record()) == "gaussian(mu=0.5)"


def test_json_number_is_the_decimal_written():
    comps = parse_spec('{"mechanisms": [{"mechanism": "laplace", "eps": 1e-300, "count": 1}]}')
    assert comps[0].params["eps"] == "1e-300"


@pytest.mark.parametrize("entry, where", [
    ({"mechanism": "bogus", "mu": "1"}, "mechanisms[0].mechanism"),
    ({"mechanism": "gaussian"}, "mechanisms[0].mu"),
    ({"mechanism": "gaussian", "mu": "-1"}, "mechanisms[0].mu"),
    ({"mechanism": "gaussian", "mu": "1", "count": 0}, "mechanisms[0].count"),
    ({"mechanism": "gaussian", "mu": "1", "count": "2.5"}, "mechanisms[0].count"),
    ({"mechanism": "gaussian", "mu": "1", "p": "0"}, "mechanisms[0].p"),
    ({"mechanism": "gaussian", "mu": "1", "p": "1.5"}, "mechanisms[0].p"),
    ({"mechanism": "gaussian", "mu": "1", "p": "0.1", "sampling": "bogus"}, "mechanisms[0].sampling"),
    ({"mechanism": "gaussian", "mu": "1", "sampling": "poisson"}, "mechanisms[0].sampling"),
    ({"mechanism": "gaussian", "mu": "1", "eps": "1"}, "mechanisms[0].eps"),
    ({"mechanism": "gaussian", "mu": True}, "mechanisms[0].mu"),
    ({"mechanism": "noise", "mu": "1"}, "mechanisms[0].family"),
    ({"mechanism": "uniform-sampling", "mu": "inf", "n": "3"}, "mechanisms[0].mu"),
])
def test_bad_entry_names_the_entry(entry, where):
    with pytest.raises(DomainError) as exc:
        parse_spec(json.dumps({"mechanisms": [entry]}))
    assert exc.value.parameter == where, str(exc.value)


@pytest.mark.parametrize("text", ["", "{", "[]", '{"mechanisms": []}', '{"mechanisms": [], "x": 1}', '{"m": []}'])
def test_bad_file_shape(text):
    with pytest.raises(DomainError) as exc:
        parse_spec(text)
    assert exc.value.parameter == "spec"


def test_missing_file(tmp_path):
    with pytest.raises(DomainError) as exc:
        read_spec(str(tmp_path / "nope.json"))
    assert exc.value.parameter == "spec" and "readable" in str(exc.value)
