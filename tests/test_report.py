"""Referee reports (proofs_check.report): text, JSON, Markdown and LaTeX forms of check, reproduce
and errata.

The results rendered here are real: ``checker.run`` on two built-in claims (DF-G, DF-Lap) plus
hand-built claims of every status whose reasons, counter-examples and paper quotations carry
every character that breaks Markdown tables or LaTeX (the ten TeX specials, pipes, brackets,
Unicode relations and Greek letters, control characters), and ``reproduce`` on paper 002 plus a
hand-built paper block with alternative readings.

What is shown:
* Markdown: the summary counts equal the statuses of the rows (counted here from the rows), the
  overview table has exactly one row per claim and every table row has as many cells as its
  header (no pipe leaks out of a cell), the claim LaTeX is set in ``$...$``, the errata list the
  refuted claim;
* JSON: the report parses back to the result itself;
* LaTeX: pure ASCII; parsed with pylatexenc (strict mode): environments paired, no comment node,
  no stray special character in a text node, and the escaped nasty text converts back to the
  original characters; compiled with pdflatex when it is on PATH (exit 0, a PDF, no table wider
  than the page, no font outside OT1/OML/OMS/OMX: TS1 glyphs would need fonts a base install
  builds as bitmaps);
* text: notes, alternative readings, inputs and the per-paper counts of reproduce are printed.

Which tests skip: the pylatexenc tests skip when pylatexenc is not installed (it is in the
``test`` extra); the compile tests skip when ``pdflatex`` is not on PATH (Debian/Ubuntu package
``texlive-latex-base``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from proofs_check import checker, discovery, report
from proofs_check.registry import Claim
from proofs_check.status import (
    CONFIRMED,
    ERROR,
    FAILED,
    INCONCLUSIVE,
    PROVEN,
    REFUTED,
    STATUSES,
    Outcome,
)

# every character with a meaning in Markdown tables or in LaTeX text mode, plus Unicode symbols
NASTY = ("a_b #1 $5 100% & {x} ~y ^z \\cmd -- `q` \"dq\" <lt> |p| [br] *s* "
         "→ ≤ ≥ ≠ μ ε α₀ x² – — … café Ærø ą • § £ © ☃ \x07 \t tab\nnewline")
ASCII_SPECIALS = "a_b #1 $5 100% & {x} [y]"
GOOD_LATEX = r"\beta(\alpha) = \Phi\left(\Phi^{-1}(1-\alpha) - \mu\right) \le 1 - \alpha"


def _fake(id_, outcome, latex=None, papers=("003",)):
    return Claim(id_, tuple(papers), f"tests/test_report.py | {NASTY}", "inequality",
                 f"statement of {id_}: {NASTY}", lambda: outcome, latex)


def _raises():
    raise RuntimeError(f"broken check: {NASTY}")


def fake_claims() -> list[Claim]:
    refuted = Outcome(REFUTED, margin="0.5", points=3, detail=f"refuted: {NASTY}",
                      counterexample={"alpha": "1e-300", "why": NASTY},
                      refutation={"paper_says": f"the paper says {NASTY}",
                                  "holds_instead": "f(α) ≤ 1 − α for α ∈ [0, 1]",
                                  "evidence": {"alpha": "0.5", "f": "0.7 > 0.5", "note": NASTY}})
    return [
        _fake("T|proven_1", Outcome(PROVEN, margin="0", detail=f"sympy: {NASTY}"), latex=GOOD_LATEX),
        _fake("T#confirmed", Outcome(CONFIRMED, margin="1.5e-30", points=40, detail=NASTY,
                                     worst_at={"case": "gaussian | mu=1", "log10 alpha": "-300"}),
              latex=r"\frac{1}{2{"),  # unbalanced: must fall back to the plain statement
        _fake("T_failed", Outcome(FAILED, margin="-0.25", points=7, detail=NASTY,
                                  counterexample={"alpha": "1e-20", "f+g-1": "-0.25", "note": NASTY})),
        _fake("T-refuted", refuted, papers=("001", "003")),
        _fake("T-inconclusive", Outcome(INCONCLUSIVE, detail=f"undecided: {NASTY}")),
        Claim("T-error", ("003",), "tests/test_report.py", "identity", "raises", _raises),
    ]


@pytest.fixture(scope="module")
def result():
    claims = checker.select(claim_id="DF-G") + checker.select(claim_id="DF-Lap")
    assert [c.id for c in claims] == ["DF-G", "DF-Lap"]
    return checker.run(claims + fake_claims(), timeout=60)


@pytest.fixture(scope="module")
def reproduced():
    from proofs_check.reproduce import reproduce
    out = reproduce("002")
    fake = {"paper": "003", "title": f"A paper & co. {NASTY}", "note": f"block note {NASTY}", "entries": [
        {"id": "X:1", "printed": "0.5005", "computed": "0.50000625", "status": "differs",
         "note": f"described reading | {NASTY}", "alt_reading": f"other reading {NASTY}",
         "alt_value": "0.50051244", "alt_status": "reproduced"},
        {"id": "X:2", "printed": "52%", "computed": None, "status": "unverifiable",
         "note": "an input is missing", "inputs": f"eps = 0.1 inferred | {NASTY}"},
        {"id": "X_3", "printed": "7.9", "computed": "7.91", "status": "reproduced", "note": ""},
    ]}
    out["papers"].append(fake)
    entries = [e for b in out["papers"] for e in b["entries"]]
    out["summary"] = {s: sum(e["status"] == s for e in entries) for s in ("reproduced", "differs", "unverifiable")}
    out["summary"]["total"] = len(entries)
    return out


ERRATA = [
    {"paper": "001", "where": "Eq. 12 & Table 1", "paper_says": f"F* < 0.55 {NASTY}",
     "holds_instead": "F* ≥ 5/9 for every ε", "claim": "LXM_Eq12", "evidence": {"eps": "0.1", "F": NASTY}},
    {"paper": "003", "where": "Table 1, eps = 0.01", "paper_says": "AUC 0.5005",
     "holds_instead": "0.50000625", "claim": "MHA-T1", "evidence": "exact AUC of the difference law"},
]


# ---------------------------------------------------------------- the result itself
def test_the_fakes_have_every_status(result):
    statuses = [r["status"] for r in result["claims"]]
    assert statuses[:2] == [PROVEN, CONFIRMED]  # DF-G is SymPy-decided, DF-Lap numeric
    assert set(statuses[2:]) == {s.value for s in STATUSES}
    assert result["claims"][-1]["status"] == ERROR and "broken check" in result["claims"][-1]["reason"]


# ---------------------------------------------------------------- JSON and text
def test_json_round_trip(result, reproduced):
    assert json.loads(report.render_check(result, "json")) == json.loads(json.dumps(result))
    assert json.loads(report.render_reproduce(reproduced, "json")) == json.loads(json.dumps(reproduced))
    assert json.loads(report.render_errata(ERRATA, "json")) == {"errata": json.loads(json.dumps(ERRATA)), "unverifiable": []}


def test_text_check_report(result):
    text = report.render_check(result, "text")
    lines = text.splitlines()
    assert sum(line.startswith(("PROVEN", "CONFIRMED", "FAILED", "REFUTED", "INCONCLUSIVE", "ERROR"))
               for line in lines) == len(result["claims"])
    assert "counterexample: alpha = 1e-20" in text
    assert "the paper says: the paper says" in text and "what holds:     f(α) ≤ 1 − α" in text
    assert "\x07" not in text and "\t" not in text  # one line per field, no control characters
    counts = {s.value: sum(r["status"] == s.value for r in result["claims"]) for s in STATUSES}
    assert lines[-1].startswith(f"{len(result['claims'])} claims: {counts['PROVEN']} proven, "
                                f"{counts['CONFIRMED']} confirmed, {counts['FAILED']} failed, "
                                f"{counts['REFUTED']} refuted")


def test_text_reproduce_prints_notes_alternatives_and_per_paper_counts(reproduced):
    text = report.render_reproduce(reproduced, "text")
    assert "described reading | a_b" in text and "    block note a_b" in text
    assert "alternative reading: other reading" in text and "0.50051244 (reproduced)" in text
    assert "inputs: eps = 0.1 inferred" in text
    for block in reproduced["papers"]:
        n = {s: sum(e["status"] == s for e in block["entries"]) for s in ("reproduced", "differs", "unverifiable")}
        assert (f"[{block['paper']}] {len(block['entries'])} entries: {n['reproduced']} reproduced, "
                f"{n['differs']} differs, {n['unverifiable']} unverifiable") in text
    s = reproduced["summary"]
    assert text.splitlines()[-1] == (f"{s['total']} entries: {s['reproduced']} reproduced, {s['differs']} differs, "
                                     f"{s['unverifiable']} unverifiable")


def test_unknown_format_is_refused(result):
    for fn, arg in ((report.render_check, result), (report.render_errata, ERRATA)):
        with pytest.raises(ValueError, match="format=html"):
            fn(arg, "html")


# ---------------------------------------------------------------- Markdown
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def _tables(text: str) -> list[list[list[str]]]:
    """The GFM tables of ``text``: lists of rows (header first, delimiter row dropped) of cells."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in _CELL_SPLIT.split(line)[1:-1]]
            if current is None:
                current = []
                tables.append(current)
            if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                current.append(cells)
        else:
            current = None
    return tables


def test_markdown_check_report(result):
    text = report.render_check(result, "md")
    rows = result["claims"]
    tables = _tables(text)
    for table in tables:  # no pipe leaked out of a cell
        assert len({len(r) for r in table}) == 1, table
    summary, claims = tables[0], tables[1]
    counts = {s.value: sum(r["status"] == s.value for r in rows) for s in STATUSES}
    assert {r[0]: int(r[1]) for r in summary[1:]} == {**counts, "total": len(rows)}
    assert claims[0][:3] == ["id", "papers", "status"]
    assert len(claims) - 1 == len(rows)
    for cells, r in zip(claims[1:], rows):
        assert cells[0].startswith(f"[{report.md(r['id'])}]")
        assert cells[2] == r["status"]
    assert r"T\|proven\_1" in text  # the pipe of an id is escaped
    assert "$" + GOOD_LATEX + "$" in text  # a claim with LaTeX is set as math
    assert r"statement of T\#confirmed: a\_b" in text  # broken LaTeX: the plain statement instead
    assert len(re.findall(r"^### ", text, flags=re.M)) == len(rows) + 1  # one per claim, one per errata paper
    errata = text.split("## Errata", 1)[1]
    assert _tables(errata)[0][1][3] == "T-refuted" and "the paper says a\\_b" in errata
    assert "\x07" not in text and "\t" not in text


def test_markdown_reproduce_and_errata(reproduced):
    text = report.render_reproduce(reproduced, "md")
    tables = _tables(text)
    for table in tables:
        assert len({len(r) for r in table}) == 1, table
    assert len(tables) == 1 + len(reproduced["papers"])
    for table, block in zip(tables[1:], reproduced["papers"]):
        assert len(table) - 1 == len(block["entries"])
    assert "*alternative reading:* other reading" in text and "*inputs:* eps = 0.1 inferred" in text
    assert tables[0][-1] == ["all"] + [str(reproduced["summary"][k])
                                       for k in ("reproduced", "differs", "unverifiable", "total")]
    errata = report.render_errata(ERRATA, "md")
    (t1, t3) = _tables(errata)
    assert len(t1) == 2 and len(t3) == 2 and t1[1][3] == r"LXM\_Eq12"
    assert "### Paper 001: Liu" in errata


# ---------------------------------------------------------------- LaTeX: escaping and parsing
def _drop_math(text: str) -> str:
    """``text`` without its ``\\ensuremath{...}`` groups (subscripts are set in math mode)."""
    while (i := text.find("\\ensuremath{")) >= 0:
        j, depth = i + len("\\ensuremath{"), 1
        while depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0) if text[j - 1] != "\\" else 0
            j += 1
        text = text[:i] + text[j:]
    return text


def test_tex_escapes_every_special_character():
    out = report.tex(NASTY)
    assert out.isascii()
    bare = _drop_math(out)
    bare = re.sub(r"\\[A-Za-z]+|\\[^A-Za-z]", "", bare)  # drop the commands
    bare = re.sub(r"\{|\}", "", bare)                   # and their braces
    for ch in "#$%&_^~\\":  # TeX specials
        assert ch not in bare, ch
    for ch in '<>|"':  # OT1 sets these as other glyphs (an inverted !, a dash, a closing quote)
        assert ch not in bare, ch
    # braces stay balanced
    depth = 0
    for tok in re.findall(r"\\.|[{}]", out):
        depth += {"{": 1, "}": -1}.get(tok, 0)
        assert depth >= 0
    assert depth == 0


def test_math_ok():
    assert report.math_ok(GOOD_LATEX)
    assert report.math_ok(r"\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}")
    for bad in (r"\frac{1}{2{", r"x}{", "$x$", r"50\% ok but 50%", r"\begin{cases} x \end{array}",
                r"a & b", "μ + 1", r"\input{/etc/passwd}", ""):
        assert not report.math_ok(bad), bad


def _walk(nodes):
    for n in nodes or ():
        yield n
        for attr in ("nodelist",):
            yield from _walk(getattr(n, attr, None))
        args = getattr(n, "nodeargd", None)
        if args is not None:
            for a in args.argnlist or ():
                if a is not None:
                    yield from _walk([a])


def _parse_strict(text: str):
    walker_mod = pytest.importorskip("pylatexenc.latexwalker")
    w = walker_mod.LatexWalker(text, tolerant_parsing=False)
    nodes, _, _ = w.get_latex_nodes()
    return walker_mod, list(_walk(nodes))


def _assert_sound_latex(text: str):
    assert text.isascii()
    assert text.lstrip().startswith(r"\documentclass") and text.rstrip().endswith(r"\end{document}")
    lw, nodes = _parse_strict(text)
    assert not [n for n in nodes if isinstance(n, lw.LatexCommentNode)]
    envs = [n.environmentname for n in nodes if isinstance(n, lw.LatexEnvironmentNode)]
    assert envs.count("document") == 1
    assert text.count(r"\begin{") == text.count(r"\end{")
    (doc,) = [n for n in nodes if isinstance(n, lw.LatexEnvironmentNode) and n.environmentname == "document"]
    for n in _walk(doc.nodelist):  # text of the body (the preamble's column types use #1)
        if isinstance(n, lw.LatexCharsNode) and not n.parsing_state.in_math_mode:
            assert not set(n.chars) & set("#%_^\\$&"), n.chars
    used = set(re.findall(r"\\usepackage(?:\[[^]]*\])?\{([^}]*)\}", text))
    assert {p.strip() for u in used for p in u.split(",")} <= {"geometry", "amsmath", "amssymb", "array",
                                                              "longtable"}
    return lw, nodes


def test_latex_check_report_parses(result):
    text = report.render_check(result, "latex")
    lw, nodes = _assert_sound_latex(text)
    envs = [n.environmentname for n in nodes if isinstance(n, lw.LatexEnvironmentNode)]
    assert envs.count("longtable") == 2  # summary, claims
    subsections = [n for n in nodes if isinstance(n, lw.LatexMacroNode) and n.macroname == "subsection"]
    assert len(subsections) == len(result["claims"]) + 1  # one per claim, one per errata paper
    assert rf"\(\displaystyle {GOOD_LATEX}\)" in text
    assert r"\item[The paper says] the paper says a\_b" in text
    assert r"\item[Counterexample] alpha = 1e-20" in text


def test_latex_escaping_round_trips_through_a_parser():
    l2t = pytest.importorskip("pylatexenc.latex2text")
    # \mathdollar (the OT1 dollar) is not in pylatexenc's tables: taught here as '$'
    db = l2t.get_default_latex_context_db().filter_context()  # a copy
    db.add_context_category("report", macros=[l2t.MacroTextSpec("mathdollar", "$")], prepend=True)
    back = l2t.LatexNodes2Text(latex_context=db).latex_to_text(report.tex(ASCII_SPECIALS))
    assert back == ASCII_SPECIALS
    unicode = "α ≤ β → ε"
    assert l2t.LatexNodes2Text().latex_to_text(report.tex(unicode)).split() == ["α", "≤", "β", "→", "ε"]


def test_latex_reproduce_and_errata_parse(reproduced):
    _assert_sound_latex(report.render_reproduce(reproduced, "latex"))
    _assert_sound_latex(report.render_errata(ERRATA, "latex"))
    _assert_sound_latex(report.render_errata([], "latex"))


# ---------------------------------------------------------------- LaTeX: compiled
pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                              reason="pdflatex not on PATH (Debian package texlive-latex-base)")


def _compile(text: str, tmp_path, name: str):
    (tmp_path / f"{name}.tex").write_text(text, encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                           f"{name}.tex"], cwd=tmp_path, capture_output=True, text=True, timeout=180)
    log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
    assert proc.returncode == 0, log[-3000:]
    assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
    # longtables fit the text width (an over-wide table is cut at the page edge)
    wide = [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\) in alignment", log)]
    assert not [w for w in wide if w > 2], wide
    # only OT1/OML/OMS/OMX fonts: a TS1 glyph would need fonts a base install only has as bitmaps
    # (their fonts are tcrm1000 and kin; a missing one is generated by mktexpk as a bitmap)
    assert not re.search(r"\btc(rm|ss|tt|bx|sl|ti|bi|si)\d", log) and "mktexpk" not in proc.stdout + proc.stderr
    return log


@pdflatex
def test_check_report_compiles(result, tmp_path):
    _compile(report.render_check(result, "latex"), tmp_path, "check")


@pdflatex
def test_reproduce_and_errata_reports_compile(reproduced, tmp_path):
    _compile(report.render_reproduce(reproduced, "latex"), tmp_path, "reproduce")
    _compile(report.render_errata(ERRATA, "latex"), tmp_path, "errata")


def _with_real_latex():
    """Every registered claim that has LaTeX, with a stand-in check (its LaTeX is what is tested)."""
    claims = [c for c in discovery.all_claims() if c.latex]
    if not claims:
        pytest.skip("no registered claim has LaTeX yet")
    return [Claim(c.id, c.papers, c.source, c.kind, c.statement, lambda: Outcome(CONFIRMED, margin="0"), c.latex)
            for c in claims]


def test_every_registered_claim_latex_is_set_as_math():
    claims = _with_real_latex()
    assert [c.id for c in claims if not report.math_ok(c.latex)] == []
    text = report.render_check(checker.run(claims), "latex")
    assert text.count(r"\(\displaystyle ") == len(claims)
    _assert_sound_latex(text)


@pdflatex
def test_every_registered_claim_latex_compiles(tmp_path):
    _compile(report.render_check(checker.run(_with_real_latex()), "latex"), tmp_path, "claims")
