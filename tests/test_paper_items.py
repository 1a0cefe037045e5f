"""proofs_check.paper_items against the seed texts: every label stands on its recorded line (when
../shared/seeds is beside the repository)."""

from __future__ import annotations

import pytest

from proofs_check.paper_items import FIGURE_CURVES, ITEMS, heading_line_text, item
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


@pytest.mark.parametrize("paper", sorted(FIGURE_CURVES))
def test_figure_curves_are_the_ones_the_text_names(paper):
    lines = seed_text(paper)
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    for fig, (line, values) in FIGURE_CURVES[paper].items():
        text = lines[line - 1]
        assert fig.replace("Fig.", "Figure") in text
        assert all(f"= {v}" in text for v in values), (fig, values)


def test_absences_the_errata_rely_on():
    """KZ-Errata-Theorem-3.10-xref: 'Theorem 3.10' occurs in seed 002 only where it is cited (line 173), and
    no result heading 3.10 other than the corollary exists; MHA's Fig. 3 is the contour plot."""
    lines = seed_text("002")
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    assert [i + 1 for i, t in enumerate(lines) if "Theorem 3.10" in t] == [173]
    assert [t.split()[0] for t in lines if t.split()[1:2] == ["3.10."]] == ["Corollary"]
    assert "Contour plot" in seed_text("003")[item("003", "Fig. 3")[0] - 1]
