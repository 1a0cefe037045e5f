"""Progress on stderr (issue #25, item 4): a run that lasts over 2 s says so on stderr also when stderr is
not a terminal (piped to a log), one line every 10 s there; on a terminal one line rewritten in place;
``--quiet`` silences it.  ``check`` prints one line per finished claim after 2 s unless ``--quiet``."""

from __future__ import annotations

import contextlib
import functools
import io
import time

from cli_runner import run
from proofs_check import checker
from proofs_check.cli import common

SLOW = ("tradeoff", "gaussian", "--mu", "1", "--alpha", "0.1", "--json")


def _beat_lines(**kw) -> list[str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        beat = common.Heartbeat(3, **kw)
        time.sleep(1.3)
        beat.step()
        beat.close()
    return err.getvalue().splitlines(keepends=True)


def test_the_heartbeat_writes_whole_lines_when_stderr_is_not_a_terminal():
    lines = _beat_lines(after=0.2, every=0.5)
    assert len(lines) >= 2, lines
    assert all(line.startswith(common.PROGRESS_PREFIX) and line.endswith(" s\n") and "\r" not in line
               for line in lines), lines
    assert "0/3 points" in lines[0]


def test_quiet_silences_the_heartbeat():
    assert _beat_lines(after=0.2, every=0.5, quiet=True) == []


def test_a_slow_command_reports_progress_and_quiet_does_not(monkeypatch):
    """A command made slow (its output row waits 1.2 s) with the heartbeat's threshold at 0: the progress
    line goes to stderr (not a terminal here), the answer is unchanged, and --quiet writes nothing."""
    monkeypatch.setattr(common, "Heartbeat", functools.partial(common.Heartbeat, after=0.0))
    row = common.Emitter.row

    def slow_row(self, *args, **kw):
        time.sleep(1.2)
        return row(self, *args, **kw)
    monkeypatch.setattr(common.Emitter, "row", slow_row)
    loud = run(SLOW)
    assert common.PROGRESS_PREFIX in loud.err_raw and loud.err == "", loud.err_raw
    quiet = run(SLOW + ("--quiet",))
    assert quiet.err_raw == "" and quiet.json() == loud.json()


def test_check_progress_is_on_unless_quiet(monkeypatch):
    seen = []
    original = checker.run

    def spy(claims, **kw):
        seen.append(kw["progress"])
        return original(claims, **kw)
    monkeypatch.setattr(checker, "run", spy)
    claim = "DF-G"
    assert run(("check", "--claim", claim, "--json")).rc == 0
    assert run(("check", "--claim", claim, "--json", "--quiet")).rc == 0
    assert seen == [True, False]


def test_check_progress_lines_after_two_seconds():
    out = io.StringIO()
    tick = checker._Progress(2, True, stream=out)
    tick({"status": "CONFIRMED", "id": "A"})
    assert out.getvalue() == ""                   # under 2 s: nothing
    tick.start -= 3
    tick({"status": "PROVEN", "id": "B"})
    assert "[2/2" in out.getvalue() and "PROVEN" in out.getvalue() and out.getvalue().endswith("B\n")
