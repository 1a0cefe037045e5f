"""Running the CLI for the tests: in-process through ``main(argv)`` (the default; a subprocess only
adds 1 s of start-up per call), or as a real program (``program=[...]``) where the process matters."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 300  # seconds per CLI call (a full `check` takes ~45 s)


#: progress lines on stderr (issue #25: written also when stderr is not a terminal, after 2 s): the CLI's
#: heartbeat and check's one line per finished claim; ``Result.err`` holds stderr without them
_PROGRESS = re.compile(r"^(dp-derive: working: .*|\[\s*\d+/\d+\s+[\d.]+ s\] .*)$")


def without_progress(err: str) -> str:
    return "".join(line for line in err.splitlines(keepends=True) if not _PROGRESS.match(line.rstrip("\n")))


@dataclass(frozen=True)
class Result:
    args: tuple
    rc: int
    out: str
    err: str            # stderr without the progress lines
    err_raw: str = ""   # stderr as written

    def json(self):
        assert self.rc == 0, f"{self.args}: exit {self.rc}, stderr {self.err!r}"
        assert self.err == "", f"{self.args}: stderr {self.err!r}"
        assert len(self.out.strip().splitlines()) == 1, f"{self.args}: --json prints one line"
        return json.loads(self.out)


def run(args: tuple, program=None) -> Result:
    """Run the CLI: in-process through ``main(argv)`` (one at a time: stdout is global), or, with
    ``program`` given, as a real program in a subprocess (for what only a process shows)."""
    if program is None:
        return _run_in_process(tuple(args))
    return _run_subprocess(tuple(args), program)


def _run_in_process(args: tuple) -> Result:
    from proofs_check.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as exc:
            rc = exc.code
    return Result(tuple(args), rc, out.getvalue(), without_progress(err.getvalue()), err.getvalue())


def _run_subprocess(args: tuple, program) -> Result:
    cmd = list(program) + list(args)
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    except OSError:  # a transient spawn failure (seen once: EFAULT from fork_exec under load); retry once
        time.sleep(0.5)
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    return Result(tuple(args), proc.returncode, proc.stdout, without_progress(proc.stderr), proc.stderr)


def argv(text: str) -> tuple:
    return tuple(text.split())


class _Lazy:
    """A command run when its result is first asked for, in the asking (main) thread: mpmath's
    precision and sys.stdout are process-global, so in-process runs cannot go to a thread pool."""

    def __init__(self, args):
        self.args, self._result = args, None

    def result(self):
        if self._result is None:
            self._result = run(self.args)
        return self._result


class CLI:
    """``cli(*args)`` runs a CLI command once (cached: tests that read the same command share it)."""

    def __init__(self, workers: int | None = None):
        self._futures = {}

    def submit(self, args):
        args = tuple(args)
        if args not in self._futures:
            self._futures[args] = _Lazy(args)
        return self._futures[args]

    def __call__(self, *args) -> Result:
        return self.submit(args).result()

    def close(self):
        self._futures.clear()


def module_runner(request, commands, threshold: int):
    """A CLI runner for one test module; when most of the module runs, every command starts at once."""
    runner = CLI()
    selected = [item for item in request.session.items if getattr(item, "module", None) is request.module]
    if len(selected) >= threshold:
        for args in commands:
            runner.submit(args)
    return runner


def mantissa_digits(text: str) -> int:
    """Significant digits written in a decimal string ("0.0271928182845905" -> 15)."""
    m = re.fullmatch(r"[+-]?(\d+)(?:\.(\d*))?(?:[eE][+-]?\d+)?", text)
    assert m, f"not a decimal string: {text!r}"
    return len((m.group(1) + (m.group(2) or "")).lstrip("0"))


def assert_usage_error(res: Result, *must_contain: str):
    """Exit 2, no traceback, one stderr line containing every ``must_contain``."""
    assert res.rc == 2, f"{res.args}: exit {res.rc}, stdout {res.out!r}, stderr {res.err!r}"
    assert "Traceback" not in res.err and "Traceback" not in res.out, res.err
    lines = res.err.splitlines()
    assert len(lines) == 1, f"{res.args}: stderr must be one line, got {res.err!r}"
    for text in must_contain:
        assert text in lines[0], f"{res.args}: {text!r} not in {lines[0]!r}"
    return lines[0]
