"""Running ``python -m proofs_check`` as a subprocess, many commands in parallel (CLI tests)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 300  # seconds per CLI call (a full `check` takes ~45 s)


@dataclass(frozen=True)
class Result:
    args: tuple
    rc: int
    out: str
    err: str

    def json(self):
        assert self.rc == 0, f"{self.args}: exit {self.rc}, stderr {self.err!r}"
        assert self.err == "", f"{self.args}: stderr {self.err!r}"
        assert len(self.out.strip().splitlines()) == 1, f"{self.args}: --json prints one line"
        return json.loads(self.out)


def run(args: tuple, program=None) -> Result:
    cmd = (program or [sys.executable, "-m", "proofs_check"]) + list(args)
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    except OSError:  # a transient spawn failure (seen once: EFAULT from fork_exec under load); retry once
        time.sleep(0.5)
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    return Result(tuple(args), proc.returncode, proc.stdout, proc.stderr)


def argv(text: str) -> tuple:
    return tuple(text.split())


class CLI:
    """Runs CLI commands in a thread pool; ``cli(*args)`` waits for (or starts) one command."""

    def __init__(self, workers: int | None = None):
        self._pool = ThreadPoolExecutor(max_workers=workers or max(2, os.cpu_count() or 2) + 1)
        self._futures = {}

    def submit(self, args):
        args = tuple(args)
        if args not in self._futures:
            self._futures[args] = self._pool.submit(run, args)
        return self._futures[args]

    def __call__(self, *args) -> Result:
        return self.submit(args).result()

    def close(self):
        self._pool.shutdown(wait=True, cancel_futures=True)


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
