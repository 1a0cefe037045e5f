"""README.md tells the truth (issue #11, item 8): every ```console block's commands print exactly
what the README shows (stdout, or the one stderr line of an error), run in-process."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from cli_runner import without_progress
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
    shown = (out.getvalue() + without_progress(err.getvalue())).rstrip("\n")   # a run over 2 s reports progress
    assert shown == expected
    assert rc == (2 if expected.startswith("dp-derive: error:") else 0)


@pytest.mark.slow
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


def test_readme_counts_match_the_expected_status_table():
    """The claim and erratum counts in README.md are those of tests/expected_status.json (which the full
    `check` run is compared with), so they cannot drift."""
    import collections
    import json
    import pathlib
    import re
    here = pathlib.Path(__file__).parent
    table = json.loads((here / "expected_status.json").read_text(encoding="utf-8"))["claims"]
    text = " ".join((here.parent / "README.md").read_text(encoding="utf-8").split())
    n = collections.Counter(v["status"] for v in table.values())
    m = re.search(r"runs (\d+) claims: (\d+) PROVEN, (\d+) CONFIRMED, (\d+) REFUTED \(errata of the papers\), "
                  r"(\d+) INCONCLUSIVE", text)
    assert m, "README's claim counts sentence not found"
    assert tuple(map(int, m.groups())) == (len(table), n["PROVEN"], n["CONFIRMED"], n["REFUTED"], n["INCONCLUSIVE"])
    from proofs_check import checker
    by_paper = collections.Counter(c.papers[0] for c in checker.select() if table[c.id]["status"] == "REFUTED")
    m = re.search(r"lists the (\d+) errata found \(000: (\d+), 001: (\d+), 002: (\d+), 003: (\d+), 004: (\d+)\)", text)
    assert m, "README's errata counts sentence not found"
    assert tuple(map(int, m.groups())) == (n["REFUTED"], *(by_paper[p] for p in ("000", "001", "002", "003", "004")))
