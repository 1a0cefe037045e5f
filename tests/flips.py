"""The registry of verdict-flip tests (issue #23: every claim of kind "statement" has one).

A verdict-flip test asserts a claim's current verdict, breaks one thing with ``monkeypatch`` (the toolkit
code the claim relies on, or the paper's printed form/number/setting the claim tests) and asserts that the
verdict changes.  Such a test is tagged ``@flips("claim-id", ...)`` with the ids of the claims it flips (a
parametrised test lists every id of its parameters).  A test that only asserts a status, without a
mutation, is not a flip and is not tagged.

tests/test_flip_coverage.py imports the test modules that carry flips and checks the registry against
the registered statement claims.
"""

from __future__ import annotations

from collections.abc import Callable

#: "module::test name" -> the test function (unchanged)
TESTS: dict[str, Callable] = {}
#: "module::test name" -> the ids of the claims the test flips
FLIPPED: dict[str, tuple[str, ...]] = {}


def flips(*claim_ids: str):
    """Record that the decorated test flips the verdict of ``claim_ids``; the test is returned unchanged."""
    if not claim_ids or not all(isinstance(c, str) and c for c in claim_ids):
        raise ValueError("flips() takes the ids of the claims the test flips")

    def tag(fn):
        key = f"{fn.__module__}::{fn.__qualname__}"
        TESTS[key] = fn
        FLIPPED[key] = tuple(dict.fromkeys(claim_ids))
        return fn
    return tag


def flipped_claims() -> dict[str, list[str]]:
    """claim id -> the tests that flip it."""
    out: dict[str, list[str]] = {}
    for key, ids in FLIPPED.items():
        for cid in ids:
            out.setdefault(cid, []).append(key)
    return out
