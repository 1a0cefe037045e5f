"""Issue #23: every claim of kind "statement" has at least one verdict-flip mutation test.

The flip tests are tagged ``@flips(claim id, ...)`` (tests/flips.py).  This test imports every test module
that uses the tag, collects the registry, and checks it against the registered claims: each statement
claim is flipped by some test (or listed in ``NO_FLIP`` with the reason no flip is reachable), and each
tagged id is a claim that exists.  It runs no claim (the flips themselves run in their own files).
"""

from __future__ import annotations

import importlib
import inspect
import os
import warnings

import pytest

import flips as registry
from proofs_check import discovery

HERE = os.path.dirname(os.path.abspath(__file__))

#: statement claims with no reachable flip: id -> why (keep it empty; a claim whose printed value or
#: setting is buried in a local should get a module-level constant that a test can patch instead)
NO_FLIP: dict[str, str] = {}


def _flip_modules() -> list[str]:
    """The test modules that import the tag (found by their text, so that a new file is not forgotten)."""
    out = []
    for name in sorted(os.listdir(HERE)):
        if name.startswith("test_") and name.endswith(".py") and name != os.path.basename(__file__):
            with open(os.path.join(HERE, name), encoding="utf-8") as fh:
                if "from flips import flips" in fh.read():
                    out.append(name[:-3])
    return out


@pytest.fixture(scope="module")
def tagged():
    for mod in _flip_modules():
        importlib.import_module(mod)       # every flip module imports (python-flint is a core dependency)
    return registry.flipped_claims()


def test_the_flip_modules_are_found():
    assert {"test_errata_flips", "test_errata", "test_errata_referee", "test_fidelity_claims",
            "test_errata_dpsgd_clt"} <= set(_flip_modules())


def test_every_statement_claim_has_a_flip(tagged):
    flipped = tagged
    statements = sorted(c.id for c in discovery.all_claims() if c.kind == "statement")
    assert len(statements) >= 46
    missing = [cid for cid in statements if cid not in flipped and cid not in NO_FLIP]
    assert missing == [], f"statement claims without a verdict-flip test (tag it @flips(...)): {missing}"
    if NO_FLIP:
        warnings.warn(f"statement claims without a flip: {NO_FLIP}", stacklevel=1)


def test_no_flip_entries_are_current(tagged):
    statements = {c.id for c in discovery.all_claims() if c.kind == "statement"}
    flipped = tagged
    for cid, why in NO_FLIP.items():
        assert cid in statements, f"NO_FLIP names {cid}, not a statement claim"
        assert isinstance(why, str) and why.strip(), f"NO_FLIP[{cid!r}] gives no reason"
        assert cid not in flipped, f"{cid} has a flip now ({flipped[cid]}): remove it from NO_FLIP"


def test_every_tagged_id_is_a_claim_and_every_tag_is_a_mutation_test(tagged):
    flipped = tagged
    ids = {c.id for c in discovery.all_claims()}
    unknown = {cid: tests for cid, tests in flipped.items() if cid not in ids}
    assert unknown == {}, f"@flips names claims that do not exist: {unknown}"
    assert registry.TESTS, "no flip test was collected"
    for key, fn in registry.TESTS.items():
        assert fn.__name__.startswith("test_"), key
        # a flip breaks something: every tagged test takes pytest's monkeypatch fixture
        assert "monkeypatch" in inspect.signature(fn).parameters, f"{key} mutates nothing (no monkeypatch)"


def test_the_tag_returns_the_test_unchanged():
    def test_probe(monkeypatch):
        return 7
    try:
        assert registry.flips("KZ-S2.1-PDP")(test_probe) is test_probe
        key = f"{test_probe.__module__}::{test_probe.__qualname__}"
        assert registry.FLIPPED[key] == ("KZ-S2.1-PDP",)
    finally:
        key = f"{test_probe.__module__}::{test_probe.__qualname__}"
        registry.TESTS.pop(key, None)
        registry.FLIPPED.pop(key, None)
    with pytest.raises(ValueError):
        registry.flips()
