"""proofs_check.paper_items against the seed texts: every label stands on its recorded line (when
../shared/seeds is beside the repository)."""

from __future__ import annotations

import pytest

from flips import flips
from proofs_check.paper_items import (
    FIGURE_CAPTIONS,
    FIGURE_CURVES,
    FIGURE_REFERENCES,
    ITEMS,
    heading_line_text,
    item,
)
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


@pytest.mark.parametrize("paper", sorted(FIGURE_CAPTIONS))
def test_figure_captions_and_references_stand_on_their_lines(paper):
    """KZ-Errata-Figure-references: each caption starts its recorded line, and the captions are all the
    figure lines there are (a line right after a blank line that describes a plot, nothing else between the
    captions); each reference's number and words stand on its line, and no other 'Figure N' occurs."""
    lines = seed_text(paper)
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    for line, words, _ in FIGURE_CAPTIONS[paper]:
        assert lines[line - 1].startswith(words), (line, lines[line - 1][:60])
        assert lines[line - 2].strip() == "", f"line {line}: a caption follows the blank line of its image"
    import re
    cited = [(i + 1, int(n)) for i, t in enumerate(lines) for n in re.findall(r"Figures? (\d+)", t)]
    recorded = [(line, number) for line, number, *_ in FIGURE_REFERENCES[paper]]
    # line 166 cites the range 'Figures 3-5' (its first number), which the erratum reads as a check
    assert sorted(cited) == sorted(recorded + [(166, 3)])
    for line, number, words, context, _ in FIGURE_REFERENCES[paper]:
        assert f"Figure {number}" in words and words in lines[line - 1] and context in lines[line - 1]
    assert "Figures 3-5 are upper bounds" in lines[165]


@flips("KZ-Errata-Figure-references")
def test_flip_kz_figure_references(monkeypatch):
    """Paper side: the three references renumbered (2, 4, 6) make the paper right (CONFIRMED); toolkit side:
    a figure's number read off by one (the caption list shifted) breaks the correction (FAILED)."""
    from proofs_check import checker
    from proofs_check import claims_errata_xref as X
    from proofs_check import paper_items as P
    (c,) = checker.select(claim_id="KZ-Errata-Figure-references")
    assert checker.evaluate(c)["status"] == "REFUTED"
    fixed = tuple((line, X._fixed_number(line, n, words), words, ctx, subject)
                  for line, n, words, ctx, subject in P.FIGURE_REFERENCES["002"])
    monkeypatch.setitem(P.FIGURE_REFERENCES, "002", fixed)
    assert checker.evaluate(c)["status"] == "CONFIRMED"
    monkeypatch.undo()
    monkeypatch.setattr(X, "figure_subject", lambda paper, n: P.figure_subject(paper, n + 1))
    assert checker.evaluate(c)["status"] == "FAILED"


def test_df_section_citations_stand_on_their_lines():
    """DF-xref-section-numbers: every listed reference is printed on its line of seed 000."""
    from proofs_check.claims_errata_xref import DF_SECTION_CITATIONS
    lines = seed_text("000")
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    assert [(line, printed) for line, printed, *_ in DF_SECTION_CITATIONS
            if f"Section {printed}" not in lines[line - 1]] == []


def test_every_df_section_reference_resolves_or_is_listed():
    """A referee scan of seed 000: each in-text 'Section N' either names an item of the table or is one of
    DF_SECTION_CITATIONS; references into other works ('[19, Section 2.4.2]') are not the paper's sections."""
    import re

    from proofs_check.claims_errata_xref import DF_SECTION_CITATIONS
    lines = seed_text("000")
    if lines is None:
        pytest.skip("../shared/seeds is not beside the repository")
    listed = {(line, printed) for line, printed, *_ in DF_SECTION_CITATIONS}
    unresolved, seen = [], 0
    for n, text in enumerate(lines, 1):
        for m in re.finditer(r"Section (\d+(?:\.\d+)*)", text):
            if re.search(r"\[\d+, $", text[:m.start()]):
                continue
            seen += 1
            if item("000", "Section " + m.group(1)) is None and (n, m.group(1)) not in listed:
                unresolved.append((n, m.group(1)))
    assert unresolved == [] and seen >= 15
