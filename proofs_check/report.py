"""Reports of ``dp-derive check`` and ``dp-derive reproduce``: text, JSON, Markdown, LaTeX.

``render_check(result, fmt)`` and ``render_reproduce(result, fmt)`` take the objects returned by
``checker.run`` and ``reproduce.reproduce`` (``render_errata`` the errata list of
``errata.errata``) and return the report as one string, in one of :data:`FORMATS`.

* ``text``  the terminal form;
* ``json``  the objects themselves (``--json``);
* ``md``    GitHub-flavoured Markdown: a summary table, one overview row per claim, then each
            claim in full (statement in ``$...$`` when the claim has LaTeX), and the errata;
* ``latex`` a complete document (``article`` class, only packages of a base TeX install:
            amsmath, amssymb, array, longtable, geometry) that a referee can attach to a review.
            Long texts sit in ``p{}`` columns or description lists, so they wrap.

Every string that comes from a claim (reasons, counter-examples, paper quotations) is escaped
for its format: the ten LaTeX specials, and the Unicode symbols that appear in mathematical prose
(arrows, relations, Greek letters, sub- and superscript digits, typographic quotes and dashes)
are mapped to LaTeX; a character with no mapping is written as its code point ``[U+XXXX]``, so
the document always compiles.
"""

from __future__ import annotations

import json
import re
import unicodedata

FORMATS = ("text", "md", "latex", "json")

CHECK_STATUSES = ("PROVEN", "CONFIRMED", "FAILED", "REFUTED", "INCONCLUSIVE", "ERROR")
REPRODUCE_STATUSES = ("reproduced", "differs", "unverifiable")
STATUS_MEANING = {
    "PROVEN": "SymPy decided the statement exactly",
    "CONFIRMED": "checked numerically at verified precision on the stated domain",
    "FAILED": "a definite counter-example: a defect of the toolkit or of the check",
    "REFUTED": "a statement of a paper that is false (an erratum); what holds instead was checked",
    "INCONCLUSIVE": "undecided, with the reason",
    "ERROR": "the check raised or ran past its time limit",
}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("dp-derive")
    except PackageNotFoundError:
        return "unknown"


def _unknown(fmt: str):
    return ValueError(f"format={fmt}: one of {', '.join(FORMATS)}")


def _paper_title(pid) -> str:
    from .papers import PAPERS
    p = PAPERS.get(pid)
    return p.title if p is not None else ""


# ------------------------------------------------------------------------------ plain values


def plain(value) -> str:
    """A value of a row (dict, list, number, None) as one line of printable plain text."""
    if value is None:
        return "-"
    if isinstance(value, dict):
        return "; ".join(f"{k} = {plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    # one line; control characters (a terminal escape, a bell) become spaces
    return " ".join("".join(c if c.isprintable() else " " for c in str(value)).split())


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _seconds(row) -> str:
    s = row.get("seconds")
    return f"{s:.2f}" if isinstance(s, (int, float)) else plain(s)


def _status_label(row) -> str:
    return row["status"] + (" (certified)" if row.get("certified") else "")


# ------------------------------------------------------------------------------ LaTeX escaping

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\ensuremath{\mathdollar}", "%": r"\%",
    "&": r"\&", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # (\$ would take the dollar from a TS1 font; \mathdollar is the OT1 glyph)
    # OT1 prints < > | as other glyphs; brackets would be read as optional arguments after \\ or \item
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "[": "{[}", "]": "{]}",
    "`": r"{\ttfamily\char96}", '"': r"{\ttfamily\char34}",
}

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "vartheta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "ς": "varsigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi",
    "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi",
    "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}

_MATH_SYMBOL = {
    "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow",
    "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "↑": r"\uparrow",
    "↓": r"\downarrow", "≤": r"\le", "≥": r"\ge", "⩽": r"\le", "⩾": r"\ge", "≠": r"\ne",
    "≈": r"\approx", "≃": r"\simeq", "≅": r"\cong", "≡": r"\equiv", "∼": r"\sim", "≪": r"\ll",
    "≫": r"\gg", "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot",
    "⋅": r"\cdot", "∘": r"\circ", "−": "-", "∞": r"\infty", "∈": r"\in", "∉": r"\notin",
    "∋": r"\ni", "⊂": r"\subset", "⊆": r"\subseteq", "⊃": r"\supset", "⊇": r"\supseteq",
    "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∀": r"\forall", "∃": r"\exists",
    "¬": r"\neg", "∧": r"\wedge", "∨": r"\vee", "∑": r"\sum", "∏": r"\prod", "∫": r"\int",
    "∂": r"\partial", "∇": r"\nabla", "√": r"\surd", "′": r"\prime", "″": r"\prime\prime",
    "°": r"^\circ", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}",
    "∝": r"\propto", "⊕": r"\oplus", "⊗": r"\otimes", "ℓ": r"\ell", "∣": r"\mid",
    "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil", "⟨": r"\langle",
    "⟩": r"\rangle", "≺": r"\prec", "≻": r"\succ", "≼": r"\preceq", "≽": r"\succeq",
}
_MATH_SYMBOL.update({k: "\\" + v for k, v in _GREEK.items()})

_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₙₘₖ", "0123456789+-=()aeoxnmk"))

_TEXT_SYMBOL = {
    "–": "--", "—": "---", "‘": "`", "’": "'", "‚": ",", "“": "``", "”": "''", "„": ",,",
    "«": r"\textless{}\textless{}", "»": r"\textgreater{}\textgreater{}", "…": r"\ldots{}", "\u00a0": "~",
    "\u2009": r"\,", "\u202f": r"\,", "\u200b": "", "•": r"\ensuremath{\bullet}", "§": r"\ensuremath{\mathsection}",
    "¶": r"\ensuremath{\mathparagraph}", "†": r"\ensuremath{\dagger}", "‡": r"\ensuremath{\ddagger}", "©": "(c)", "£": "GBP",
    "€": "EUR", "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "œ": r"\oe{}", "Œ": r"\OE{}",
    "ø": r"\o{}", "Ø": r"\O{}", "å": r"\aa{}", "Å": r"\AA{}", "ł": r"\l{}", "Ł": r"\L{}",
    "ı": r"\i{}", "¿": r"?`", "¡": r"!`", "\t": " ", "\n": " ", "\r": " ",
}

# combining marks of NFD decompositions -> text accent commands of the OT1 encoding (no TS1/T1
# glyph is used anywhere: those fonts may be missing from a base install, or be generated as bitmaps)
_ACCENT = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u0304": "=",
           "\u0307": ".", "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0306": "u", "\u0327": "c",
           "\u0323": "d"}


def _accented(ch: str) -> str | None:
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) < 2 or not parts[0].isascii() or not parts[0].isalpha():
        return None
    out = parts[0] if parts[0] not in "ij" else "\\" + parts[0]  # dotless i/j under an accent
    for mark in parts[1:]:
        cmd = _ACCENT.get(mark)
        if cmd is not None:  # a mark OT1 cannot set (ogonek, ...) is dropped: the base letter stays
            out = f"\\{cmd}{{{out}}}"
    return "{" + out + "}"


def tex(text) -> str:
    """Escape ``text`` (any value, see :func:`plain`) for LaTeX text mode in a base install."""
    s = text if isinstance(text, str) else plain(text)
    out = []
    for i, ch in enumerate(s):
        if ch in _TEX_SPECIAL:
            out.append(_TEX_SPECIAL[ch])
        elif ch == "-" and i + 1 < len(s) and s[i + 1] == "-":
            out.append("-{}")  # no en/em-dash ligature: '--' stays two hyphens
        elif ch in "?!" and i + 1 < len(s) and s[i + 1] == "`":
            out.append(ch + "{}")  # no Spanish-quote ligature
        elif ch.isascii():
            out.append(ch if ch.isprintable() else " ")
        elif ch in _TEXT_SYMBOL:
            out.append(_TEXT_SYMBOL[ch])
        elif ch in _MATH_SYMBOL:
            out.append(f"\\ensuremath{{{_MATH_SYMBOL[ch]}}}")
        elif ch in _SUPER:
            out.append(f"\\textsuperscript{{{tex(_SUPER[ch])}}}")
        elif ch in _SUB:
            out.append(f"\\ensuremath{{{{}}_{{\\mathrm{{{tex(_SUB[ch])}}}}}}}")
        elif (acc := _accented(ch)) is not None:
            out.append(acc)
        elif unicodedata.category(ch).startswith(("Z", "C")):
            out.append(" ")
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


def _breakable(escaped: str) -> str:
    """Allow line breaks after separators inside long identifiers (claim ids) in narrow columns
    (not in numbers: '0.5' must not break after its point)."""
    return re.sub(r"(\\_|(?<!\\)[:/=,.])(?=\S)", r"\1\\allowbreak{}", escaped)


_MATH_FORBIDDEN = re.compile(r"(?<!\\)[$%#]|\\\[|\\\]|\\\(|\\\)|\\(begin|end)\{document\}"
                             r"|\\(input|include|write|immediate|def|catcode|usepackage)\b")


def math_ok(latex: str) -> bool:
    """Whether a claim's LaTeX can be set inside ``\\( ... \\)``: braces balanced, environments
    paired, ASCII only, no math delimiters, comment characters or file and definition commands
    of its own.  A claim whose LaTeX fails this is shown by its plain statement instead."""
    if not isinstance(latex, str) or not latex.strip() or not latex.isascii() or _MATH_FORBIDDEN.search(latex):
        return False
    depth = 0
    i = 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    if depth:
        return False
    stack = []
    for kind, name in re.findall(r"\\(begin|end)\{([^}]*)\}", latex):
        if kind == "begin":
            stack.append(name)
        elif not stack or stack.pop() != name:
            return False
    if stack:
        return False
    if re.search(r"(?<!\\)&", latex):  # alignment tabs only inside an alignment environment
        return bool(re.search(r"\\begin\{(aligned|alignedat|array|matrix|pmatrix|bmatrix|vmatrix|cases|split)\}",
                              latex))
    return True


# ------------------------------------------------------------------------------ Markdown escaping

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|$~#])")


def md(text) -> str:
    """Escape ``text`` for one Markdown table cell or list item (one line, pipes escaped)."""
    return _MD_SPECIAL.sub(r"\\\1", plain(text))


def md_math(latex: str) -> str:
    """Inline math for GitHub (``$...$``); pipes escaped for tables, newlines folded."""
    one = " ".join(latex.split()).replace(r"\|", r"\Vert ")
    return "$" + one.replace("|", r"\vert ") + "$"


# ------------------------------------------------------------------------------ check: text


def per_paper_lines(rows: list[dict]) -> list[str]:
    """One summary line per paper (by a claim's first paper; 'toolkit' for the toolkit's own claims),
    with the statuses that occur and the errata among them."""
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r.get("paper") or "toolkit", []).append(r)
    out = []
    for pid in sorted(groups, key=lambda p: (p == "toolkit", p)):
        mine = groups[pid]
        counts = ", ".join(f"{sum(r['status'] == st for r in mine)} {st.lower()}" for st in CHECK_STATUSES
                           if any(r["status"] == st for r in mine))
        label = f"paper {pid}" if pid != "toolkit" else "toolkit"
        out.append(f"{label}: {_n(len(mine), 'claim')} ({counts})")
    return out


#: beside a CONFIRMED row's negative margin in the text report (issue #25 item 6)
WITHIN_TOL = "(within tol)"
WITHIN_TOL_NOTE = (f"{WITHIN_TOL}: a margin below 0 that is within the check's tolerance (the verified error of the "
                   "evaluation, or the claim's stated tolerance), so the claim is CONFIRMED, not FAILED")


def _within_tolerance(r: dict) -> bool:
    """A CONFIRMED row whose worst margin is negative: above minus the tolerance, not above 0."""
    margin = r.get("margin")
    return r["status"] == "CONFIRMED" and isinstance(margin, str) and margin.strip().startswith("-")


def _margin_cell(r: dict) -> str:
    if r["margin"] is None:
        return ""
    return f"margin {r['margin']}" + (f" {WITHIN_TOL}" if _within_tolerance(r) else "")


def _check_text(result: dict) -> str:
    lines = []
    for r in result["claims"]:
        margin = _margin_cell(r)
        status = r["status"] + ("*" if r.get("certified") else "")
        lines.append(f"{status:<12} {r['id']:<45} {margin:<18} {r['points']:>5} pts {r['seconds']:>7.2f} s"
                     f"  {r.get('method') or ''}")
        if r.get("worst_at") and r["status"] in ("CONFIRMED", "REFUTED", "FAILED"):
            lines.append(f"    worst at: {plain(r['worst_at'])}")
        if r["status"] in ("FAILED", "ERROR", "INCONCLUSIVE", "REFUTED"):
            lines.append(f"    {plain(r['reason'])}")
        if r["status"] == "REFUTED" and r.get("refutation"):
            ref = r["refutation"]
            lines.append(f"    the paper says: {plain(ref.get('paper_says'))}")
            lines.append(f"    what holds:     {plain(ref.get('holds_instead'))}")
        if r["counterexample"]:
            lines.append(f"    counterexample: {plain(r['counterexample'])}")
    if any(_within_tolerance(r) for r in result["claims"]):
        lines.append(WITHIN_TOL_NOTE)
    lines += per_paper_lines(result["claims"])
    s = result["summary"]
    lines.append(f"{s['total']} claims: {s['PROVEN']} proven, {s['CONFIRMED']} confirmed, "
                 f"{s['FAILED']} failed, {s['REFUTED']} refuted, {s['INCONCLUSIVE']} inconclusive, "
                 f"{s['ERROR']} error in {s['seconds']:.1f} s")
    if any(r.get("certified") for r in result["claims"]):
        lines.append("* evaluated with rigorous interval enclosures (--certified)")
    return "\n".join(lines)


def _errata_of(result: dict) -> list[dict]:
    from .errata import split
    return split(result)[0]


# ------------------------------------------------------------------------------ check: Markdown


def _md_statement(row) -> str:
    if row.get("latex") and math_ok(row["latex"]):
        return md_math(row["latex"])
    return md(row.get("statement"))


def _check_md(result: dict) -> str:
    rows, s = result["claims"], result["summary"]
    out = ["# dp-derive check report", "",
           f"dp-derive {md(_version())}: {_n(s['total'], 'claim')} checked in {s['seconds']:.1f} s.", "",
           "## Summary", "", "| status | claims | meaning |", "|---|---:|---|"]
    for st in CHECK_STATUSES:
        out.append(f"| {st} | {s.get(st, 0)} | {md(STATUS_MEANING[st])} |")
    out += [f"| total | {s['total']} | |", ""]
    out += ["## Claims", "",
            "| id | papers | status | method | worst margin | points | seconds |",
            "|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        out.append(f"| [{md(r['id'])}](#{_anchor(r['id'])}) | {md(plain(r.get('papers')))} | "
                   f"{md(_status_label(r))} | {md(r.get('method'))} | {md(r.get('margin'))} | "
                   f"{r.get('points', 0)} | {_seconds(r)} |")
    out.append("")
    for r in rows:
        out += [f"### {md(r['id'])}", "",
                f"- **status:** {md(_status_label(r))} ({md(r.get('method'))})",
                f"- **papers:** {md(plain(r.get('papers')))}",
                f"- **source:** {md(r.get('source'))}",
                f"- **statement:** {_md_statement(r)}"]
        if r.get("latex") and math_ok(r["latex"]):
            out.append(f"- **in words:** {md(r.get('statement'))}")
        out += [f"- **worst margin:** {md(r.get('margin'))}" + (f" at {md(r['worst_at'])}" if r.get("worst_at") else ""),
                f"- **points:** {r.get('points', 0)}; **seconds:** {_seconds(r)}",
                f"- **reason:** {md(r.get('reason') or '-')}"]
        if r["status"] == "REFUTED" and r.get("refutation"):
            ref = r["refutation"]
            out += [f"- **the paper says:** {md(ref.get('paper_says'))}",
                    f"- **what holds instead:** {md(ref.get('holds_instead'))}",
                    f"- **evidence:** {md(ref.get('evidence'))}"]
        elif r.get("counterexample"):
            out.append(f"- **counterexample:** {md(r['counterexample'])}")
        out.append("")
    out += ["## Errata", ""]
    found = _errata_of(result)
    out.append(_errata_md_body(found) if found else "No paper statement among these claims was refuted.")
    return "\n".join(out).rstrip() + "\n"


def _anchor(cid: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    a = re.sub(r"[^\w\- ]", "", cid.lower(), flags=re.UNICODE)
    return a.replace(" ", "-")


def _errata_md_body(errata: list[dict]) -> str:
    """Errata grouped by paper, then by kind (formula, number, statement, cross-reference, notation)."""
    from .outcomes import ERRATUM_KINDS
    out = []
    for pid in dict.fromkeys(e["paper"] for e in errata):
        title = _paper_title(pid)
        mine = [e for e in errata if e["paper"] == pid]
        counts = ", ".join(f"{sum(e.get('kind') == k for e in mine)} {k}" for k in ERRATUM_KINDS
                           if any(e.get("kind") == k for e in mine))
        out += [f"### Paper {md(pid)}" + (f": {md(title)}" if title else ""), "", f"{len(mine)} {'erratum' if len(mine) == 1 else 'errata'}: {counts}.", ""]
        for kind in (*ERRATUM_KINDS, None):
            group = [e for e in mine if e.get("kind") == kind]
            if not group:
                continue
            out += [f"#### {md(kind or 'unclassified')}", "",
                    "| where | the paper says | what holds instead | claim | evidence |", "|---|---|---|---|---|"]
            for e in group:
                out.append(f"| {md(e['where'])} | {md(e['paper_says'])} | {md(e['holds_instead'])} | "
                           f"{md(e['claim'])} | {md(e['evidence'])} |")
            out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------------------ check: LaTeX

_PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[a4paper,margin=2cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{array,longtable}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
\setlength{\LTpre}{1ex}
\setlength{\LTpost}{1ex}
\newcolumntype{L}[1]{>{\raggedright\arraybackslash}p{#1}}
\newcolumntype{R}[1]{>{\raggedleft\arraybackslash}p{#1}}
\sloppy
"""


#: a description list with the items close together (one claim's fields)
DESCRIPTION = "\\begin{description}\\setlength{\\itemsep}{0.3ex}\\setlength{\\parskip}{0pt}"


def _doc(title: str, body: list[str]) -> str:
    head = [_PREAMBLE.rstrip(), f"\\title{{{title}}}", f"\\author{{dp-derive {tex(_version())}}}",
            "\\date{}", "\\begin{document}", "\\maketitle"]
    return "\n".join(head + body + ["\\end{document}", ""])


def _tex_statement(row) -> str:
    if row.get("latex") and math_ok(row["latex"]):
        return f"\\(\\displaystyle {row['latex'].strip()}\\)"
    return tex(row.get("statement"))


def _check_latex(result: dict) -> str:
    rows, s = result["claims"], result["summary"]
    body = [f"{_n(s['total'], 'claim')} checked in {s['seconds']:.1f}~s.", "",
            "\\section*{Summary}", "\\begin{longtable}{L{2.6cm}R{1.2cm}L{11cm}}", "\\hline",
            "\\textbf{status} & \\textbf{claims} & \\textbf{meaning}\\\\", "\\hline"]
    for st in CHECK_STATUSES:
        body.append(f"{st} & {s.get(st, 0)} & {tex(STATUS_MEANING[st])}\\\\")
    body += ["\\hline", f"total & {s['total']} & \\\\", "\\hline", "\\end{longtable}", ""]

    body += ["\\section*{Claims}",
             "\\begin{longtable}{L{4.0cm}L{1.3cm}L{2.2cm}L{2.0cm}L{1.9cm}R{1.0cm}R{1.0cm}}", "\\hline",
             "\\textbf{id} & \\textbf{papers} & \\textbf{status} & \\textbf{method} & \\textbf{margin} "
             "& \\textbf{points} & \\textbf{s}\\\\", "\\hline", "\\endhead", "\\hline", "\\endfoot"]
    for r in rows:
        body.append(f"{_breakable(tex(r['id']))} & {tex(plain(r.get('papers')))} & {tex(_status_label(r))} & "
                    f"{_breakable(tex(r.get('method')))} & {tex(r.get('margin'))} & "
                    f"{r.get('points', 0)} & {_seconds(r)}\\\\")
    body += ["\\end{longtable}", ""]

    for r in rows:
        body += [f"\\subsection*{{{tex(r['id'])}\\hfill{{\\normalsize {tex(_status_label(r))}}}}}", DESCRIPTION,
                 f"\\item[Status] {tex(_status_label(r))}, method {tex(r.get('method'))}",
                 f"\\item[Papers] {tex(plain(r.get('papers')))}",
                 f"\\item[Source] {tex(r.get('source'))}",
                 f"\\item[Statement] {_tex_statement(r)}"]
        if r.get("latex") and math_ok(r["latex"]):
            body.append(f"\\item[In words] {tex(r.get('statement'))}")
        margin = tex(r.get("margin"))
        if r.get("worst_at"):
            margin += f" at {tex(r['worst_at'])}"
        body += [f"\\item[Worst margin] {margin}",
                 f"\\item[Points, time] {r.get('points', 0)} points, {_seconds(r)}~s",
                 f"\\item[Reason] {tex(r.get('reason') or '-')}"]
        if r["status"] == "REFUTED" and r.get("refutation"):
            ref = r["refutation"]
            body += [f"\\item[The paper says] {tex(ref.get('paper_says'))}",
                     f"\\item[What holds instead] {tex(ref.get('holds_instead'))}",
                     f"\\item[Evidence] {tex(ref.get('evidence'))}"]
        elif r.get("counterexample"):
            body.append(f"\\item[Counterexample] {tex(r['counterexample'])}")
        body.append("\\end{description}")
    body += ["\\section*{Errata}"]
    found = _errata_of(result)
    body += _errata_latex_body(found) if found else ["No paper statement among these claims was refuted."]
    return _doc("dp-derive check report", body)


def _errata_latex_body(errata: list[dict]) -> list[str]:
    body = []
    for pid in dict.fromkeys(e["paper"] for e in errata):
        title = _paper_title(pid)
        body.append(f"\\subsection*{{Paper {tex(pid)}" + (f": {tex(title)}" if title else "") + "}")
        for e in errata:
            if e["paper"] != pid:
                continue
            body += [f"\\paragraph{{{tex(e['where'])}}} (claim {tex(e['claim'])})", DESCRIPTION,
                     f"\\item[The paper says] {tex(e['paper_says'])}",
                     f"\\item[What holds instead] {tex(e['holds_instead'])}",
                     f"\\item[Evidence] {tex(e['evidence'])}", "\\end{description}"]
    return body


# ------------------------------------------------------------------------------ public: check


def _dispatch(fmt: str, as_json, text, md, latex, result) -> str:
    """``result`` rendered by the renderer of ``fmt`` (json, text, md or latex)."""
    if fmt == "json":
        return as_json()
    renderers = {"text": text, "md": md, "latex": latex}
    if fmt not in renderers:
        raise _unknown(fmt)
    return renderers[fmt](result)


def render_check(result: dict, fmt: str = "text") -> str:
    """The report of ``checker.run``'s result in ``fmt`` (one of :data:`FORMATS`)."""
    return _dispatch(fmt, lambda: json.dumps(result), _check_text, _check_md, _check_latex, result)


# ------------------------------------------------------------------------------ reproduce


def _counts(entries: list[dict]) -> dict:
    c = {st: sum(e.get("status") == st for e in entries) for st in REPRODUCE_STATUSES}
    c["total"] = len(entries)
    return c


def _counts_line(c: dict) -> str:
    return f"{c['total']} entries: " + ", ".join(f"{c[st]} {st}" for st in REPRODUCE_STATUSES)


def _extras(e: dict) -> list[tuple[str, str]]:
    """The optional fields of an entry, as (label, text) pairs, in a fixed order."""
    out = []
    if e.get("alt_reading") or e.get("alt_value") is not None:
        alt = plain(e.get("alt_value")) if e.get("alt_value") is not None else "-"
        if e.get("alt_status"):
            alt += f" ({e['alt_status']})"
        label = "alternative reading"
        out.append((label, f"{plain(e['alt_reading'])}: {alt}" if e.get("alt_reading") else alt))
    if e.get("inputs"):
        out.append(("inputs", plain(e["inputs"])))
    if e.get("reading"):
        out.append(("reading", f"the computed value {e['reading']} to the printed digits"))
    known = {"id", "printed", "computed", "status", "note", "alt_reading", "alt_value", "alt_status", "inputs",
             "reading"}
    for k in sorted(set(e) - known):
        out.append((k, plain(e[k])))
    return out


def _reproduce_text(result: dict) -> str:
    lines = []
    for block in result["papers"]:
        lines.append(f"[{block['paper']}] {block['title']}")
        if block.get("note"):
            lines.append(f"    {block['note']}")
        for e in block["entries"]:
            lines.append(f"    {e['id']}: printed {plain(e['printed'])}, computed {plain(e['computed'])}, "
                         f"{e['status']}")
            if e.get("note"):
                lines.append(f"        {plain(e['note'])}")
            for label, text in _extras(e):
                lines.append(f"        {label}: {text}")
        lines.append(f"    [{block['paper']}] {_counts_line(_counts(block['entries']))}")
        lines.append("")
    summary = result.get("summary") or _counts([e for b in result["papers"] for e in b["entries"]])
    lines.append(_counts_line(summary))
    return "\n".join(lines)


def _reproduce_md(result: dict) -> str:
    out = ["# dp-derive reproduce report", "",
           f"dp-derive {md(_version())}: the numbers printed in the papers, recomputed.", ""]
    summary = result.get("summary") or _counts([e for b in result["papers"] for e in b["entries"]])
    out += ["## Summary", "", "| paper | " + " | ".join(REPRODUCE_STATUSES) + " | total |",
            "|---|" + "---:|" * (len(REPRODUCE_STATUSES) + 1)]
    for block in result["papers"]:
        c = _counts(block["entries"])
        out.append(f"| {md(block['paper'])} | " + " | ".join(str(c[st]) for st in REPRODUCE_STATUSES)
                   + f" | {c['total']} |")
    out += ["| all | " + " | ".join(str(summary.get(st, 0)) for st in REPRODUCE_STATUSES)
            + f" | {summary.get('total', 0)} |", ""]
    for block in result["papers"]:
        out += [f"## Paper {md(block['paper'])}: {md(block['title'])}", ""]
        if block.get("note"):
            out += [md(block["note"]), ""]
        out += [f"{_counts_line(_counts(block['entries']))}.", "",
                "| id | printed | computed | status | note |", "|---|---:|---:|---|---|"]
        for e in block["entries"]:
            note = [md(e.get("note"))] if e.get("note") else []
            note += [f"*{md(label)}:* {md(text)}" for label, text in _extras(e)]
            out.append(f"| {md(e['id'])} | {md(e.get('printed'))} | {md(e.get('computed'))} | "
                       f"{md(e.get('status'))} | {'<br>'.join(note)} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


NEWLINE = " \\newline "


def _reproduce_latex(result: dict) -> str:
    summary = result.get("summary") or _counts([e for b in result["papers"] for e in b["entries"]])
    body = ["The numbers printed in the papers, recomputed by the toolkit: \\emph{reproduced} (the "
            "computed value rounds to the printed digits), \\emph{differs}, or \\emph{unverifiable} "
            "(the paper omits an input).", "",
            "\\section*{Summary}", "\\begin{longtable}{l" + "r" * (len(REPRODUCE_STATUSES) + 1) + "}",
            "\\hline", "\\textbf{paper} & " + " & ".join(f"\\textbf{{{st}}}" for st in REPRODUCE_STATUSES)
            + " & \\textbf{total}\\\\", "\\hline"]
    for block in result["papers"]:
        c = _counts(block["entries"])
        body.append(f"{tex(block['paper'])} & " + " & ".join(str(c[st]) for st in REPRODUCE_STATUSES)
                    + f" & {c['total']}\\\\")
    body += ["\\hline", "all & " + " & ".join(str(summary.get(st, 0)) for st in REPRODUCE_STATUSES)
             + f" & {summary.get('total', 0)}\\\\", "\\hline", "\\end{longtable}", ""]
    for block in result["papers"]:
        body.append(f"\\section*{{Paper {tex(block['paper'])}: {tex(block['title'])}}}")
        if block.get("note"):
            body += [f"\\emph{{{tex(block['note'])}}}", ""]
        body += [f"{tex(_counts_line(_counts(block['entries'])))}.", "",
                 "\\begin{longtable}{L{3.2cm}R{1.3cm}R{2.1cm}L{1.7cm}L{6.3cm}}", "\\hline",
                 "\\textbf{id} & \\textbf{printed} & \\textbf{computed} & \\textbf{status} & \\textbf{note}\\\\",
                 "\\hline", "\\endhead", "\\hline", "\\endfoot"]
        for e in block["entries"]:
            note = [tex(e.get("note"))] if e.get("note") else []
            note += [f"\\emph{{{tex(label)}:}} {tex(text)}" for label, text in _extras(e)]
            body.append(f"{_breakable(tex(e['id']))} & {tex(e.get('printed'))} & "
                        f"{tex(e.get('computed'))} & {tex(e.get('status'))} & "
                        f"{NEWLINE.join(note)}\\\\")
        body += ["\\end{longtable}", ""]
    return _doc("dp-derive reproduce report", body)


def render_reproduce(result: dict, fmt: str = "text") -> str:
    """The report of ``reproduce.reproduce``'s result in ``fmt``."""
    return _dispatch(fmt, lambda: json.dumps(result), _reproduce_text, _reproduce_md, _reproduce_latex, result)


# ------------------------------------------------------------------------------ errata


def render_errata(errata: list[dict], fmt: str = "text", unverifiable: list[dict] = ()) -> str:
    """The errata list (``errata.errata``'s first value) in ``fmt``; ``unverifiable`` lists the
    statements the seed text lost (not errata: what was checked in their place)."""
    unverifiable = list(unverifiable)
    if fmt == "json":
        return json.dumps({"errata": errata, "unverifiable": unverifiable})
    if fmt == "text":
        lines = []
        for e in errata:
            lines.append(f"[{e['paper']}] {e['where']} ({e['claim']}, {e.get('kind')})")
            lines.append(f"    the paper says: {plain(e['paper_says'])}")
            lines.append(f"    what holds:     {plain(e['holds_instead'])}")
            lines.append(f"    evidence:       {plain(e['evidence'])}")
        lines.append(f"{len(errata)} errata")
        for u in unverifiable:
            lines.append(f"[{u['paper']}] {u['where']} ({u['claim']}, {u['status']}): unverifiable, the extraction "
                         f"lost {plain(u['missing'])}; checked instead: {plain(u['reading'])}")
        return "\n".join(lines)
    if fmt == "md":
        head = ["# dp-derive errata", "",
                f"dp-derive {md(_version())}: {len(errata)} statements of the papers found false, each "
                "with the claim that shows it, grouped by paper and kind.", ""]
        tail = []
        if unverifiable:
            tail = ["", "## Unverifiable statements", "", "The seed text lost what the paper printed here, so no "
                    "erratum can be reported; the claim checks the reading named.", "",
                    "| where | lost in the extraction | reading checked | claim | status |", "|---|---|---|---|---|"]
            tail += [f"| {md(u['where'])} | {md(u['missing'])} | {md(u['reading'])} | {md(u['claim'])} | "
                     f"{md(u['status'])} |" for u in unverifiable]
        return "\n".join(head) + (_errata_md_body(errata) if errata else "No erratum.\n") + "\n".join(tail)
    if fmt == "latex":
        intro = [f"{len(errata)} statements of the papers found false by the checker, each with what holds "
                 "instead and the claim that shows it (\\texttt{dp-derive check --claim ID}).", ""]
        return _doc("dp-derive errata", intro + (_errata_latex_body(errata) if errata else ["No erratum."]))
    raise _unknown(fmt)
