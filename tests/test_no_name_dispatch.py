"""No consumer outside derive/mechanisms/ dispatches on a mechanism's name (issue #24).

Consumers ask the record what it is (``record.fact(K.GDP_MU)``, ``derive/mechanisms/facts.py``) or the
table row what it can do (``row.capabilities``), so that a mechanism added in one module works in every
command without an edit elsewhere.  Scanned on the source (ast), in derive/, numeric/ and proofs_check/:

- a comparison (==, !=, in, not in) with a string constant that is a mechanism name of the table (or
  ``no-privacy``, the limit record), or a tuple/list/set of such constants;
- a dict literal keyed by such a name (a dispatch table);
- ``.startswith``/``.endswith`` with such a name;
- a substring test on a record's ``citation`` or ``notes`` (``"logistic" in record.citation``).

String constants passed as arguments (``lookup("gaussian")``, a figure's mechanism) are not dispatch
and are not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from derive.mechanisms.table import NAMES

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = set(NAMES) | {n.replace("-", "_") for n in NAMES} | {"no-privacy"}
TEXT_ATTRIBUTES = ("citation", "notes")


def _strings(node) -> set:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_strings(e) for e in node.elts)) if node.elts else set()
    return set()


def _text_attribute(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in TEXT_ATTRIBUTES


def name_dispatch(source: str) -> list[tuple[int, str]]:
    """(line, what) of every dispatch on a mechanism name in ``source``."""
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            names = set().union(*(_strings(s) for s in sides)) & FORBIDDEN
            if names:
                hits.append((node.lineno, "comparison with " + ", ".join(sorted(names))))
            elif any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and any(map(_text_attribute, sides)):
                hits.append((node.lineno, "substring test on a record's citation/notes"))
        elif isinstance(node, ast.Dict):
            names = set().union(*(_strings(k) for k in node.keys if k is not None)) & FORBIDDEN
            if names:
                hits.append((node.lineno, "dict keyed by " + ", ".join(sorted(names))))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("startswith", "endswith"):
            names = set().union(*(_strings(a) for a in node.args)) & FORBIDDEN if node.args else set()
            if names:
                hits.append((node.lineno, f"{node.func.attr} with " + ", ".join(sorted(names))))
    return hits


def _consumers():
    for package in ("derive", "numeric", "proofs_check"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.relative_to(ROOT).parts[:2] != ("derive", "mechanisms"):
                yield path


@pytest.mark.parametrize("path", list(_consumers()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_mechanism_name_dispatch(path):
    hits = name_dispatch(path.read_text(encoding="utf-8"))
    assert not hits, f"{path.relative_to(ROOT)}: " + "; ".join(f"line {n}: {w}" for n, w in hits)


@pytest.mark.parametrize("snippet", [
    'if record.name == "laplace":\n    pass',
    'x = name in ("gaussian", "classical-gaussian")',
    'ENGINE = {"randomized-response": 1}',
    'ok = record.notes.endswith("laplace")',
    'if "logistic" in record.citation:\n    pass',
    'if record.name != "no-privacy":\n    pass',
])
def test_the_scan_catches_each_form(snippet):
    assert name_dispatch(snippet), snippet


def test_the_scan_leaves_arguments_alone():
    assert not name_dispatch('row = lookup("gaussian")\nrecord = row.build({"mu": "1"})\nf("laplace", 1)')
