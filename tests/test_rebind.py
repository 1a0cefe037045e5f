"""derive.mechanisms.rebind: a record of a value is the symbolic record with the value bound (issue #25),
and numeric.pld_discretise.NextSmaller equals the plain stack pass it replaced."""

import numpy as np
import pytest

from derive.errors import DomainError
from derive.mechanisms import rebind
from derive.mechanisms.table import BY_NAME

VALUES = {"laplace": ("eps", ["0.0123", "1", "3.5", "1e-3", "0"]),
          "gaussian": ("mu", ["0.5", "1e-3", "2", "0"])}


@pytest.mark.parametrize("name", sorted(rebind.REBINDABLE))
def test_rebound_record_equals_built_record(name):
    # reference: the ordinary constructor (Mechanism.build), field-by-field dataclass equality
    pname, texts = VALUES[name]
    for text in texts:
        assert rebind.build(name, {pname: text}) == BY_NAME[name].build({pname: text})


def test_rebind_keeps_domain_checks():
    with pytest.raises(DomainError):
        rebind.build("laplace", {"eps": "-1"})


def test_rebind_inf_takes_the_limit_record():
    assert rebind.build("gaussian", {"mu": "inf"}) == BY_NAME["gaussian"].build({"mu": "inf"})


def test_mutation_rebind_wrong_value_is_caught(monkeypatch):
    """Mutation: bind a different value; the equality check above must then fail."""
    real = rebind.parse_in
    monkeypatch.setattr(rebind, "parse_in", lambda key, text, name: real(key, text, name) * 2)
    assert rebind.build("laplace", {"eps": "0.5"}) != BY_NAME["laplace"].build({"eps": "0.5"})


def _stack(gap):
    # reference: the former stack pass of numeric.pld_discretise._knots
    n = len(gap)
    nxt = np.full(n, n, dtype=np.int64)
    stack = []
    for c in range(n):
        while stack and gap[c] < gap[stack[-1]]:
            nxt[stack.pop()] = c
        stack.append(c)
    return nxt


def next_smaller(gap):
    from numeric.pld_discretise import NextSmaller
    ns = NextSmaller(gap)
    return np.array([ns[c] for c in range(len(gap))], dtype=np.int64)


def test_next_smaller_equals_stack_pass():
    from numeric.pld_discretise import NextSmaller
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 7, 64, 4096, 4099):
        for hi in (2, 5, 2 ** 24):
            gap = rng.integers(1, hi, n)
            assert (next_smaller(gap) == _stack(gap)).all()
            assert (NextSmaller(gap).all() == _stack(gap)).all()


def test_mutation_next_smaller_off_by_one_is_caught():
    """Mutation: shift every answer by one cell; the comparison must see it."""
    gap = np.random.default_rng(1).integers(1, 5, 100)
    assert not (np.minimum(next_smaller(gap) + 1, 100) == _stack(gap)).all()


def test_next_smaller_on_runs_equals_stack_pass():
    """Gaps in long runs of equal values (a Laplace step's: one value but at its atoms) take the run-array
    path of ``NextSmaller.all``; the reference is the former stack pass over every cell."""
    from numeric.pld_discretise import NextSmaller
    rng = np.random.default_rng(11)
    for n_runs in (1, 2, 3, 17, 200):
        for hi in (2, 4, 2 ** 24):
            gap = np.repeat(rng.integers(1, hi, n_runs), rng.integers(4, 40, n_runs))
            assert 4 * n_runs <= len(gap)           # the run path, not the lifting over every cell
            assert (NextSmaller(gap).all() == _stack(gap)).all()


def test_mutation_next_smaller_run_path_answers_run_end_is_caught():
    """Mutation: answer with the end of the cell's own run (the next *different* entry, not the next smaller
    one); the stack pass must disagree on runs that step up."""
    gap = np.repeat(np.array([3, 5, 1, 4, 2]), 10)
    starts = np.flatnonzero(np.concatenate(([True], gap[1:] != gap[:-1])))
    bounds = np.append(starts, len(gap))
    wrong = np.repeat(bounds[1:], np.diff(bounds))
    assert not (wrong == _stack(gap)).all()
