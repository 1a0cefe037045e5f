"""The rules every verdict on a paper follows (seed papers 000-004), written once.

1. *Printed numbers* (:mod:`proofs_check.rounding`): a printed number is ``reproduced`` when the
   computed value rounds (half-even) **or** truncates to it at the printed number of decimals, and
   the entry says which (``reading``); ``differs`` otherwise.  An erratum about a number
   (:func:`~proofs_check.errata_common.printed_numbers`, kind ``"number"``) names the
   ``dp-derive reproduce`` entries of its numbers, and those entries must say ``differs``: the
   errata and the reproduce table use one rule, and tests/test_errata.py checks that they agree
   for every paper.
2. *Attribution*: an erratum's ``paper_says`` is a verbatim quote of the seed text at the lines its
   source cites ("line N", "lines N-M", several separated by commas or "and"), compared with
   whitespace normalised; an ellipsis ``...`` joins fragments that occur in that order.  The
   extraction keeps some formulas twice (a Unicode rendering and the LaTeX source, seed 000) and
   loses others (seeds 002 and 004 drop most symbols; seed 001 turns them into U+FFFD): a quote
   uses what the text holds.  Where the formula or number an erratum would be about was lost in
   the extraction, there is no erratum: the claim says ``unverifiable`` (``extra["paper"]``) with
   the reading it used, and a correct formula from the literature is an ordinary claim with its
   source.
3. *Corrections*: the ``holds_instead`` of every erratum is checked (``corrected()`` in
   :func:`~proofs_check.outcomes.refutation`) before the paper is called wrong.
4. *Evidence* uses the paper's own procedure when the erratum is about that procedure, and says
   so when it uses another.
5. *Kinds*: every erratum has a kind in :data:`~proofs_check.outcomes.ERRATUM_KINDS`.

:func:`cited_lines` and :func:`quote_found` implement rule 2; tests/test_errata.py applies them to
every erratum when ``../shared/seeds`` is present (the toolkit itself never reads the papers).
"""

from __future__ import annotations

import re
from pathlib import Path

#: where the seed texts sit in the development tree (beside the repository)
SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"

_LIST = re.compile(r"\blines? (\d+(?:-\d+)?(?:(?:, | and )\d+(?:-\d+)?)*)")

#: lines of context allowed on each side of a cited range
PAD = 2


def cited_lines(source: str) -> list[tuple[int, int]]:
    """The line ranges a claim's source cites: 'Section 2.2, line 114' -> [(114, 114)];
    'Table 3 (lines 203-209) and line 227' -> [(203, 209), (227, 227)]."""
    out = []
    for group in _LIST.findall(source):
        for part in re.split(r", | and ", group):
            a, _, b = part.partition("-")
            out.append((int(a), int(b or a)))
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def seed_text(paper: str, seeds: Path = SEEDS) -> list[str] | None:
    """The lines of seed ``paper`` ('000'...), or None when the seeds are not beside the repository."""
    found = sorted(seeds.glob(f"{paper}_*.txt")) if seeds.is_dir() else []
    return found[0].read_text(encoding="utf-8").split("\n") if found else None


def quote_found(quote: str, lines: list[str], ranges: list[tuple[int, int]], pad: int = PAD) -> str | None:
    """None when every '...'-separated fragment of ``quote`` occurs, in order, in the cited lines
    (each range widened by ``pad``; whitespace normalised), else the first fragment not found."""
    keep = sorted({i for a, b in ranges for i in range(max(1, a - pad), min(len(lines), b + pad) + 1)})
    text = _norm("\n".join(lines[i - 1] for i in keep))
    pos = 0
    for fragment in quote.split("..."):
        fragment = _norm(fragment)
        if not fragment:
            continue
        at = text.find(fragment, pos)
        if at < 0:
            return fragment
        pos = at + len(fragment)
    return None
