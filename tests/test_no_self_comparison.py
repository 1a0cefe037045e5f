"""A source scan (issue #23, item 3): no check in proofs_check/ compares a quantity with itself.

Flags, in every module of proofs_check/: a comparison whose two sides are the same expression
(``x == x``, ``x < x``), a difference of an expression with itself (``x - x``), and an agreement row
``(context, value, reference)`` whose value and reference are the same expression.  Same expression
means the same AST after dropping positions.  The scan is checked against snippets that must be found.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "proofs_check"


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a, include_attributes=False) == ast.dump(b, include_attributes=False)


def self_comparisons(source: str) -> list[int]:
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_same(node.left, c) for c in node.comparators):
            hits.append(node.lineno)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _same(node.left, node.right):
            hits.append(node.lineno)
        elif isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[0], ast.Dict) \
                and _same(node.elts[1], node.elts[2]):
            hits.append(node.lineno)
    return hits


def test_the_scan_finds_self_comparisons():
    assert self_comparisons("ok = value == value") == [1]
    assert self_comparisons("d = f(a) - f(a)") == [1]
    assert self_comparisons("rows.append(({'a': 1}, g(x), g(x)))") == [1]
    assert self_comparisons("rows.append(({'a': 1}, g(x), h(x)))\nd = f(a) - f(b)\nok = x < y") == []


def test_no_claim_compares_a_quantity_with_itself():
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        hits = self_comparisons(path.read_text(encoding="utf-8"))
        if hits:
            found[str(path.relative_to(ROOT.parent))] = hits
    assert found == {}
