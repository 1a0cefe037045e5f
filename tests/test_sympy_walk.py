"""The shared SymPy-tree walk (numeric.sympy_walk, issue #24 item 4): one leaf step and one MRO
dispatch for both evaluators (numeric.bridge: mpmath closures; numeric.arb: arb balls)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from derive.special import Phi, PhiInv
from derive.symbols import alpha as ALPHA
from numeric import arb, bridge
from numeric import sympy_walk as walk


class _Base(sp.Function):
    pass


class _Child(_Base):
    pass


class _GrandChild(_Child):
    pass


def test_dispatch_finds_the_nearest_registered_class_through_the_mro():
    table = walk.Dispatch("test")
    table.register(_Base)("base")
    assert table.lookup(_GrandChild) == "base" and table.lookup(_Child) == "base"
    table.register(_Child)("child")                 # registering invalidates the per-type cache
    assert table.lookup(_GrandChild) == "child" and table.lookup(_Base) == "base"
    assert table.lookup(sp.Add) is None and table[sp.Add] is None and table.handles(_GrandChild)


def test_dispatch_register_returns_the_handler_and_takes_an_initial_table():
    table = walk.Dispatch("test", {sp.exp: "exp"})

    @table.register(sp.Add, sp.Mul)
    def handler():
        return None
    assert handler.__name__ == "handler"
    assert table.lookup(sp.Mul) is handler and table.lookup(type(sp.exp(ALPHA))) == "exp"


def test_dispatch_cache_is_bounded():
    table = walk.Dispatch("test", {sp.Basic: 1}, maxsize=4)
    for cls in (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.Max, sp.Min):
        assert table.lookup(cls) == 1
    assert len(table) <= 4


@pytest.mark.parametrize("expr, kind", [
    (ALPHA, walk.SYMBOL), (sp.Dummy("d"), walk.SYMBOL),
    (sp.Integer(3), walk.RATIONAL), (sp.S.Half, walk.RATIONAL), (sp.S.Zero, walk.RATIONAL),
    (sp.S.NegativeOne, walk.RATIONAL), (sp.Rational(2, 7), walk.RATIONAL),
    (sp.oo, walk.CONSTANT), (-sp.oo, walk.CONSTANT), (sp.E, walk.CONSTANT), (sp.pi, walk.CONSTANT),
    (sp.true, walk.CONSTANT), (sp.false, walk.CONSTANT),
    (ALPHA + 1, None), (Phi(ALPHA), None), (sp.nan, None), (sp.zoo, None),
])
def test_leaf_kinds(expr, kind):
    assert walk.leaf(expr) is kind


def test_floats_are_refused_by_the_leaf_step_and_by_both_evaluators():
    with pytest.raises(walk.FloatRefused, match="Floats are not exact"):
        walk.leaf(sp.Float("0.1"))
    with pytest.raises(ValueError):
        walk.leaf(sp.Float("0.1"), ValueError)      # an evaluator may refuse with its own error
    assert issubclass(walk.FloatRefused, TypeError)
    expr = sp.Float("0.1") * ALPHA
    with pytest.raises(TypeError, match="Floats are not exact: use Rational"):
        bridge.compile_mp.__wrapped__(expr)
    with pytest.raises(arb.UnsupportedExpression, match="Floats are not exact: use Rational"):
        arb.enclose(expr, {ALPHA: "0.5"}, 64)


def test_bridge_and_arb_share_the_leaf_step(monkeypatch):
    """Both walkers call ``numeric.sympy_walk.leaf``: spying on it sees both; breaking it breaks both."""
    expr = PhiInv(ALPHA) + 1
    seen = []
    original = walk.leaf

    def spy(e, *args):
        seen.append(e)
        return original(e, *args)
    monkeypatch.setattr(walk, "leaf", spy)
    with mpmath.workdps(20):
        bridge.compile_mp.__wrapped__(expr)({ALPHA: bridge.Exact(1, 4)})
    assert ALPHA in seen and sp.S.One in seen
    seen.clear()
    arb.enclose(expr, {ALPHA: "0.25"}, 64)
    assert ALPHA in seen and sp.S.One in seen

    class Broken(Exception):
        pass

    def broken(e, *args):
        raise Broken(e)
    monkeypatch.setattr(walk, "leaf", broken)
    with pytest.raises(Broken):
        bridge.compile_mp.__wrapped__(expr)
    with pytest.raises(Broken):
        arb.enclose(expr, {ALPHA: "0.25"}, 64)


def test_both_evaluators_dispatch_through_shared_tables():
    for table in (bridge._BUILDERS, arb._NODES, arb._UNARY, arb._CONDITIONS):
        assert isinstance(table, walk.Dispatch)
    # a subclass of a registered head is found through its MRO (by both)
    sub = type("exp_sub", (sp.exp,), {})
    assert bridge._BUILDERS.lookup(sub) is bridge._BUILDERS.lookup(sp.exp) is not None
    assert arb._UNARY.lookup(sub) is arb._UNARY.lookup(sp.exp) is not None


def test_unsupported_heads_keep_their_errors():
    with pytest.raises(TypeError, match="no mpmath kernel for gamma"):
        bridge.compile_mp.__wrapped__(sp.gamma(ALPHA))
    with pytest.raises(arb.UnsupportedExpression, match="no rigorous arb kernel for the head gamma"):
        arb.enclose(sp.gamma(ALPHA), {ALPHA: "0.5"}, 64)
    with pytest.raises(arb.UnsupportedExpression, match="BooleanTrue"):
        arb.enclose(sp.true, {}, 64)                # a condition, not a value
    with pytest.raises(arb.UnsupportedExpression, match="gamma"):
        arb.enclose(sp.Piecewise((1, sp.gamma(ALPHA) < ALPHA), (0, True)), {ALPHA: "0.5"}, 64)


def test_conditions_are_three_valued():
    flint = pytest.importorskip("flint")
    x = sp.Symbol("x")
    straddle = flint.arb(0, 1)                      # [-1, 1]: x < 0 undecided
    cases = [
        (sp.Piecewise((1, x < 0), (2, True)), {x: "-0.5"}, 1),
        (sp.Piecewise((1, sp.And(x > 0, x < 1)), (2, True)), {x: "0.5"}, 1),
        (sp.Piecewise((1, sp.Or(x > 5, sp.Not(x < 1))), (2, True)), {x: "0.5"}, 2),
        (sp.Piecewise((1, sp.Eq(x, 0)), (2, sp.Ne(x, 0))), {x: "0"}, 1),
    ]
    for expr, env, expected in cases:
        assert arb.enclose(expr, env, 64) == expected
    both = arb.enclose(sp.Piecewise((1, x < 0), (2, True)), {x: straddle}, 64)
    assert both.contains(1) and both.contains(2)
