"""Library code never parses a string into an expression: ``derive.exact.as_expr`` (the one place that
turns a value into a SymPy object) refuses strings, and no library module calls ``sympify`` or
``eval``/``exec`` on anything else (a source scan)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import sympy as sp

from derive.exact import as_expr

ROOT = Path(__file__).resolve().parent.parent


def test_as_expr_refuses_strings():
    assert as_expr(3) == 3 and as_expr(sp.Rational(1, 2)) == sp.Rational(1, 2)
    with pytest.raises(sp.SympifyError):
        as_expr("__import__('os').system('true')")


def _calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            yield name, node


def test_no_eval_exec_or_loose_sympify_in_library_code():
    bad = []
    for folder in ("derive", "numeric", "proofs_check"):
        for path in (ROOT / folder).rglob("*.py"):
            for name, node in _calls(path):
                if name in ("eval", "exec"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
                if name == "sympify" and not any(k.arg == "strict" and getattr(k.value, "value", None) is True
                                                 for k in node.keywords):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: sympify without strict=True")
    assert bad == []
