"""README "Use it from your training code": its Python snippets run as shown (issue #27, item 5).
The dp_accounting snippet needs the library (in the ``test`` extra: CI runs it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def snippets():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use it from your training code", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_there_are_two_snippets():
    assert len(snippets()) == 2


@pytest.mark.parametrize("index", [0, 1], ids=["dp_accounting", "opacus"])
def test_snippet_runs(index):
    code = snippets()[index]
    if "dp_accounting" in code:
        pytest.importorskip("dp_accounting")
    scope = {}
    exec(compile(code, f"README snippet {index}", "exec"), scope)      # noqa: S102 (our own README)
    if index == 1:
        assert 0 < scope["eps"] < 1 and scope["state"]["history"] == [(2.0, 0.1, 5)]
