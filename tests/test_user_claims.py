"""Claims of a user's own (proofs_check.user_claims): registered from SymPy expressions, checked
like the built-in ones, able to fail.

References: the true statements are textbook facts checked by hand (G_mu's power is >= alpha;
alpha^2 <= alpha on [0, 1]; Phi(-PhiInv(a)) = 1 - a); the false ones are built false on purpose,
with the reason next to each.
"""

from __future__ import annotations

import sys
import textwrap

import pytest
import sympy as sp

import derive
from derive import symbols as sy
from derive.errors import DomainError
from derive.special import Phi, PhiInv
from proofs_check import checker, registry
from proofs_check import user_claims as uc
from proofs_check.status import CONFIRMED, FAILED, PROVEN

A = sy.alpha


@pytest.fixture
def private_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    yield registry._REGISTRY


def _status(claim):
    (row,) = checker.run([claim], timeout=60)["claims"]
    return row


def test_identity_proven_confirmed_and_failed(private_registry):
    x = sp.Symbol("x", positive=True)
    assert _status(uc.identity("U-id-sym", (x + 1) ** 2, x**2 + 2 * x + 1, [{x: "2"}], "square"))["status"] == PROVEN
    # SymPy cannot simplify Phi(-PhiInv(a)) (custom heads): the numeric fallback confirms it at 30 digits
    row = _status(uc.identity("U-id-num", Phi(-PhiInv(A)), 1 - A, [{A: "0.3"}, {A: "1e-300"}], "symmetry"))
    assert row["status"] == CONFIRMED and "SymPy could not decide" in row["reason"]
    # wrong by a^3/1000 (0.000027 at a = 0.3): FAILED, not INCONCLUSIVE
    row = _status(uc.identity("U-id-bad", Phi(-PhiInv(A)), 1 - A - A**3 / 1000, [{A: "0.3"}], "wrong"))
    assert row["status"] == FAILED


def test_inequality_confirmed_in_the_tail_and_failed(private_registry):
    good = uc.inequality("U-le", lhs=A, rhs=Phi(PhiInv(A) + 2), variable=A, interval=("1e-300", "0.999"),
                         log_scale=True, statement="power of G_2 >= alpha")
    row = _status(good)
    assert row["status"] == CONFIRMED and row["points"] > 40 and row["worst_at"]
    # reversed: alpha >= power fails everywhere (power > alpha for mu = 2 on (0, 1))
    bad = uc.inequality("U-ge", lhs=Phi(PhiInv(A) + 2), rhs=A, variable=A, interval=("1e-300", "0.999"),
                        log_scale=True, statement="reversed")
    assert _status(bad)["status"] == FAILED
    # alpha^2 <= alpha holds on [0, 1]; alpha <= alpha^2 + 1/10 fails near alpha = 1/2 only
    assert _status(uc.inequality("U-sq", A**2, A, A, ("0", "1"), "a^2 <= a"))["status"] == CONFIRMED
    row = _status(uc.inequality("U-dip", A, A**2 + sp.Rational(1, 5), A, ("0", "1"), "a <= a^2 + 1/5"))
    assert row["status"] == FAILED    # a - a^2 peaks at 1/4 > 1/5, for a in (0.276, 0.724)
    a_bad = sp.Rational(row["counterexample"]["alpha"])
    assert a_bad - a_bad**2 > sp.Rational(1, 5)


def test_tradeoff_axioms_of_a_user_record(private_registry):
    assert _status(uc.tradeoff_axioms("U-ax", derive.noise("logistic", "1")))["status"] == CONFIRMED
    concave = derive.TradeOff(name="concave", parameters=(), tradeoff=1 - A**2, power=A**2, paper=1 - A**2,
                              domain={}, citation="test")
    assert _status(uc.tradeoff_axioms("U-ax-bad", concave))["status"] == FAILED


def test_bad_user_input_is_a_domain_error(private_registry):
    with pytest.raises(DomainError, match="interval"):
        uc.inequality("U-e1", A, A, A, ("0.5", "0.1"), "empty interval")
    with pytest.raises(DomainError, match="points"):
        uc.identity("U-e2", A, A, [], "no points")
    with pytest.raises(ValueError, match="twice"):
        uc.identity("U-e3", A, A, [{A: "0.5"}], "x")
        uc.identity("U-e3", A, A, [{A: "0.5"}], "x")


def test_check_module_flag_runs_user_claims(private_registry, tmp_path, monkeypatch, capsys):
    from proofs_check.cli import main
    (tmp_path / "my_dp_claims.py").write_text(textwrap.dedent('''
        from derive import symbols as sy
        from proofs_check import user_claims as uc
        uc.inequality("MINE-1", lhs=sy.alpha**2, rhs=sy.alpha, variable=sy.alpha, interval=("0", "1"),
                      statement="alpha^2 <= alpha")
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_dp_claims", raising=False)
    assert main(["check", "--module", "my_dp_claims", "--claim", "MINE-1"]) == 0
    assert "CONFIRMED" in capsys.readouterr().out
    assert main(["check", "--module", "no_such_module_xyz"]) == 2
    assert "no_such_module_xyz" in capsys.readouterr().err
