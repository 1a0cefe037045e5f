"""proofs_check.paper_items against the seed texts: every label stands on its recorded line (when
../shared/seeds is beside the repository)."""

from __future__ import annotations

import pytest

from proofs_check.paper_items import ITEMS, heading_line_text, item
from proofs_check.verdicts import seed_text


@pytest.mark.parametrize("paper", sorted(ITEMS))
def test_items_stand_on_their_lines(paper):
    lines = seed_text(paper)
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    bad = []
    for label, (line, _) in ITEMS[paper].items():
        text = lines[line - 1] if label.startswith(("Table ", "Fig. ")) else lines[line - 1].lstrip("# ")
        if not text.startswith(heading_line_text(label)):
            bad.append((label, line, text[:60]))
    assert bad == []


def test_absent_items():
    assert item("002", "Corollary 3.10") == (113, "Section 3")
    assert item("002", "Theorem 3.10") is None and item("009", "Theorem 1") is None
