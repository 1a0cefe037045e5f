"""Reproducible CI (issue #24): .ci/run installs and tests exactly as README.md's second command says, from
constraints.txt, and constraints.txt pins every dependency pyproject.toml names at a version its floor admits."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```\n(python3 -m venv .*?)\n```", text)[:2]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.lower().replace("_", "-")] = version
    return pins


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def test_ci_runs_the_readme_test_command_from_the_constraints():
    install, test = _readme_commands()
    assert "-c constraints.txt" in install and "-c constraints.txt" in test
    lines = [ln for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    # README's command, then the slow sweeps README names, in the environment that command made
    assert lines[-2:] == [test, "python -m pytest -q -m slow"]
    assert "python -m pytest -q -m slow" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_dependency_is_pinned_at_a_version_its_floor_admits():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    pins = _pins()
    for spec in wanted:
        name, floor = re.match(r"([A-Za-z0-9_.-]+)>=([\d.]+)", spec).groups()
        key = name.lower().replace("_", "-")
        assert key in pins, f"{name} is not pinned in constraints.txt"
        assert _version(pins[key]) >= _version(floor), f"{name}=={pins[key]} is below the floor {floor}"


def test_core_floors_are_the_tested_versions():
    """The minimum versions pyproject.toml claims for the library are the ones CI installs (issue #24: a
    floor below the pin would be a claim no job tests)."""
    pins = _pins()
    for spec in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]:
        name, floor = re.match(r"([A-Za-z0-9_.-]+)>=([\d.]+)", spec).groups()
        assert _version(pins[name.lower().replace("_", "-")]) == _version(floor), (name, floor)
