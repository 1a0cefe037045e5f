"""The mechanism table and the parameter-domain table (issue #11, items 1 and 7).

Both tables are read by the CLI, the constructors and the evaluators; these tests check that
the tables are complete and consistent with what the constructors actually accept, by calling
the constructors at and beyond each domain's ends (the constructors' own range checks are the
independent side: they raise DomainError or they do not).
"""

from __future__ import annotations

import subprocess
import sys

import mpmath
import pytest

import derive
from derive.domains import DOMAINS, parse_in
from derive.errors import DomainError
from derive.mechanisms import table as T

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def test_every_row_builds_and_its_module_is_declared():
    for m in T.TABLE:
        module = "derive.mechanisms." + m.constructor.partition(":")[0]
        assert module in T.LAZY_IMPORTS, m.name
        for _, key in m.params:
            assert key in DOMAINS, (m.name, key)
        record = m.build({name: _inside(key, "1") for name, key in m.params}
                         | ({"delta": "0.5"} if "delta" in m.param_names else {}),
                         {o.name: o.choices[0] for o in m.options})
        assert record.values, m.name


@pytest.mark.parametrize("m", T.TABLE, ids=[m.name for m in T.TABLE])
@pytest.mark.slow
def test_domain_ends_are_enforced_and_inside_is_a_tradeoff_function(m):
    """Just outside each end the constructor refuses, naming the parameter (the constructors read the
    table: this checks they do).  The independent side: at each closed end and just inside each end,
    the record is a trade-off function, 0 <= f(alpha) <= 1 - alpha on a grid (computed on the mp path);
    a domain that admitted a parameter where the formula is not a trade-off function fails here."""
    from numeric import mp
    base = {name: _inside(key, "0.5") for name, key in m.params}
    options = {o.name: o.choices[0] for o in m.options}
    for name, key in m.params:
        d = DOMAINS[key]
        accepted = []
        for end, is_open, outside, inside in ((d.low, d.low_open, "-1e-30", "1e-30"),
                                              (d.high, d.high_open, "1e-30", "-1e-30")):
            if end is None:
                continue
            at = str(end)
            with pytest.raises(DomainError) as exc:
                m.build({**base, name: _shift(at, outside)}, options)
            assert exc.value.parameter == name
            if is_open:
                with pytest.raises(DomainError):
                    m.build({**base, name: at}, options)
            else:
                accepted.append(at)
            if not d.integer:
                accepted.append(_shift(at, inside))
        for value in accepted:
            record = m.build({**base, name: value}, options)
            for a in ("0", "1e-12", "0.1", "0.5", "0.9", "1"):
                beta, power = mp.tradeoff(record, a, 10), mp.power(record, a, 10)
                assert 0 <= beta and mpmath.mpf(a) <= power + mpmath.mpf("1e-9"), (m.name, name, value, a)


def _inside(key: str, value: str) -> str:
    """``value``, or for an integer domain the integer 3 or its lower end, whichever is larger."""
    d = DOMAINS[key]
    return str(max(3, d.low)) if d.integer else value


def _shift(at: str, by: str) -> str:
    """at + by as an exact decimal string (1 + 1e-30 stays above 1; so does the cap 1e308 + 1e-30, which
    needs 339 digits: 80 rounded it back to 1e308)."""
    import decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 1000
        return str(decimal.Decimal(at) + decimal.Decimal(by))


def test_capabilities_and_constructors_are_the_public_names():
    assert T.with_capability(T.ATTACK) == ("laplace", "classical-gaussian")
    assert set(T.with_capability(T.SELECT)) == {"gaussian", "laplace", "randomized-response", "noise"}
    assert derive.MECHANISMS["gaussian"] is derive.gaussian
    import importlib

    import derive.mechanisms as M
    importlib.import_module("derive.mechanisms.laplace")     # loading the submodule keeps the public name
    assert callable(M.laplace) and M.laplace is derive.laplace


def test_parse_in_names_the_parameter_and_the_range():
    with pytest.raises(DomainError) as exc:
        parse_in("prior", "1", "prior")
    assert str(exc.value) == "prior=1: prior must be in (0, 1)"
    with pytest.raises(DomainError) as exc:
        parse_in("k", "2.5")
    assert "an integer in [1, 1000000]" in str(exc.value)
    assert DOMAINS["alpha"].describe() == "in [0, 1]"


def test_the_cli_and_the_tables_load_without_sympy():
    """--help must not pay for SymPy (0.5 s): importing the CLI package loads neither SymPy nor mpmath."""
    code = ("import sys, proofs_check.cli, derive.mechanisms.table, derive.domains; "
            "print(sorted(m for m in ('sympy', 'mpmath', 'numpy', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_mp_path_loads_neither_numpy_nor_scipy():
    """tradeoff on the mp path starts in <= 0.6 s only if numpy/scipy (0.4 s) stay unloaded."""
    code = ("import sys, derive; from numeric import mp; mp.tradeoff(derive.gaussian('1'), '1e-300', 20); "
            "print(sorted(m for m in ('numpy', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
