"""A CLI people can learn from --help (issue #11, item 5): every subcommand has a one-line summary,
a description and an example; every flag has a help text; choices and defaults are shown."""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys
import time
from pathlib import Path

import pytest

from proofs_check.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    summaries = {c.dest: c.help for c in action._choices_actions}
    return parser, action.choices, summaries


def test_every_subcommand_has_summary_description_and_example():
    _, choices, summaries = _subparsers()
    assert len(choices) >= 15
    for name, sub in choices.items():
        assert summaries.get(name), f"{name}: no one-line summary in dp-derive --help"
        assert sub.description, f"{name}: no description"
        assert sub.epilog and "examples:" in sub.epilog and f"dp-derive {name}" in sub.epilog, name
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest}: no help text"


def test_every_example_in_the_help_parses():
    """The examples printed by --help are real commands: they parse (and the cheap ones run)."""
    parser, choices, _ = _subparsers()
    for name, sub in choices.items():
        for line in sub.epilog.splitlines():
            line = line.strip()
            if line.startswith("dp-derive "):
                parser.parse_args(line.split()[1:])


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = exc.code
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", ["tradeoff", "profile", "risk", "compose", "check"])
def test_help_shows_defaults_and_choices(command):
    rc, out, _ = _run([command, "--help"])
    out = " ".join(out.split())          # argparse wraps the help texts
    assert rc == 0
    assert "examples:" in out
    if command == "compose":
        assert "Kairouz-Oh-Viswanath" in out
        zc = " ".join(_run(["compose", "zcdp", "--help"])[1].split())
        assert "(default cks)" in zc
    if command == "risk":
        assert "(default 0.01)" in out and "(default 0.5)" in out
    if command == "tradeoff":
        assert "gaussian" in out and "--alpha-grid" in out and "(default 15" in out


def test_version():
    rc, out, _ = _run(["--version"])
    assert rc == 0 and out.startswith("dp-derive ") and out.split()[1][0].isdigit()


def test_startup_is_fast():
    """--help without SymPy: well under a second of wall time (target 0.3 s, measured in bench/)."""
    best = min(_timed([sys.executable, "-m", "proofs_check", "--help"]) for _ in range(3))
    assert best < 1.0, best


def _timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
    return time.perf_counter() - t


def test_closed_pipe_is_quiet():
    """`dp-derive ... | head -1` used to end in a BrokenPipeError traceback."""
    proc = subprocess.run(f"{sys.executable} -m proofs_check tradeoff gaussian --mu 1 "
                          "--alpha-grid lin:0:1:2000 --path fp | head -1", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.startswith("gaussian(mu=1)")
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr


def test_cli_copies_of_library_constants_agree():
    """The CLI keeps a few names of the library so that --help needs no SymPy; they must agree."""
    from numeric import composition, design, risk
    from proofs_check.cli import design as cli_design
    from proofs_check.cli import disclosure as cli_disclosure
    assert cli_disclosure.DEFAULT_ALPHA0 == risk.DEFAULT_ALPHA0
    assert cli_disclosure.DEFAULT_PRIOR == risk.DEFAULT_PRIOR
    assert cli_design.TARGETS == design.TARGETS
    assert cli_design.METHODS == composition.METHODS
    assert cli_design.CONVERSIONS == composition.CONVERSIONS
