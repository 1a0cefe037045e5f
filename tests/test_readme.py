"""README.md tells the truth (issue #11, item 8): every ```console block's commands print exactly
what the README shows (stdout, or the one stderr line of an error), run in-process."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from proofs_check.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def _examples():
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = [line[2:], []]
                out.append(current)
            else:
                assert current is not None, f"output before any command in a console block: {line!r}"
                current[1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


EXAMPLES = _examples()


def test_there_are_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(command, expected):
    argv = shlex.split(command)
    assert argv[0] == "dp-derive"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv[1:])
    shown = (out.getvalue() + err.getvalue()).rstrip("\n")
    assert shown == expected
    assert rc == (2 if expected.startswith("dp-derive: error:") else 0)


def test_readme_python_session():
    """The ```pycon blocks are one doctest session."""
    import doctest
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    result = runner.run(test, out=out.write)
    assert result.failed == 0, out.getvalue()
