"""ruff over the repository (issue #24): pyflakes and import order, as configured in pyproject.toml.

ruff is in the ``test`` extra, so the default test run (and therefore ``.ci/run``) lints every file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    return [exe]


def test_ruff_finds_nothing():
    run = subprocess.run(_ruff() + ["check", "--no-cache", "--output-format", "concise", str(ROOT)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_can_fail(tmp_path):
    """The lint is live: an unused import in a scratch file is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n", encoding="utf-8")
    run = subprocess.run(_ruff() + ["check", "--no-cache", "--isolated", "--select", "F", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "F401" in run.stdout
