"""Cross-references of the seed papers, checked against the table of their numbered items
(``proofs_check.paper_items``; itself checked against the seeds by tests/test_paper_items.py).

An erratum of kind ``cross-reference`` is REFUTED when the cited item does not exist, or when an
equation cited in a proof belongs to another theorem than the hypothesis the proof works from; the
correction (the intended item) must exist and be what the argument uses.  The rules of every verdict:
``proofs_check.verdicts``.
"""

from __future__ import annotations

from .errata_common import DF, KZ, MHA, unverifiable
from .outcomes import refutation
from .paper_items import FIGURE_CAPTIONS, FIGURE_REFERENCES, figure_subject, item
from .registry import claim
from .status import CONFIRMED, FAILED, Outcome


def _exists(paper: str, labels) -> Outcome:
    """CONFIRMED when every label is an item of the paper (the corrected reference exists)."""
    missing = [lab for lab in labels if item(paper, lab) is None]
    if missing:
        return Outcome(FAILED, detail=f"the corrected reference does not exist: {missing}")
    return Outcome(CONFIRMED, points=len(labels), margin="0", method="table of numbered items",
                   detail="; ".join(f"{lab}: line {item(paper, lab)[0]} ({item(paper, lab)[1]})" for lab in labels))


@claim("KZ-Errata-Theorem-3.10-xref", ("002",), KZ + ", Section 4.3, line 173", "statement",
       "'rather than using the upper bound over all DP mechanisms from Theorem 3.10': the paper has no Theorem "
       "3.10; the bound over all DP mechanisms is Corollary 3.10 (line 113)")
def _kz_theorem_310():
    def counterexample():
        if item("002", "Theorem 3.10") is not None:
            return None
        return {"Theorem 3.10": "no such item", "results of Section 3": "Theorems 3.1, 3.2, 3.3, 3.5, 3.9; Lemma 3.4; "
                "Corollaries 3.6, 3.7, 3.8 (its proof: line 348), 3.10, 3.11, 3.12",
                "Corollary 3.10": f"line {item('002', 'Corollary 3.10')[0]}"}
    return refutation("rather than using the upper bound over all DP mechanisms from Theorem 3.10",
                      "from Corollary 3.10 (line 113), the posterior bound for any (eps, delta)-DP mechanism",
                      counterexample, lambda: _exists("002", ("Corollary 3.10",)), "paper_items table",
                      kind="cross-reference")


def _proof_equation(paper, proved, cited, hypothesis):
    """Counter-example when equation ``cited`` belongs to another theorem than ``proved``, whose hypothesis
    is ``hypothesis``."""
    owner = item(paper, cited)
    if owner is None or owner[1] == proved or item(paper, hypothesis)[1] != proved:
        return None
    return {cited: f"line {owner[0]}, the bound of {owner[1]}",
            hypothesis: f"line {item(paper, hypothesis)[0]}, the bound of {proved}, which this part of the proof assumes"}


@claim("KZ-Errata-A3-proof-eq3-for-eq5", ("002",), KZ + ", Appendix A.3 (proof of Theorem 3.3), lines 287-290",
       "statement",
       "the converse part of the proof of Theorem 3.3 assumes (5) and uses it in the first case ('Thus, from (5) "
       "with'), but the second case says 'Thus, from (3) with': (3) is the bound of Theorem 3.2, not assumed here")
def _kz_a3():
    return refutation("Now suppose (5) is satisfied for all , all , and all , under both and . ... Thus, from (5) "
                      "with , for all , ... Thus, from (3) with , for all ,",
                      "'from (5)' in the second case too: (5) (line 80) is Theorem 3.3's bound, the hypothesis of this "
                      "part of the proof", lambda: _proof_equation("002", "Theorem 3.3", "(3)", "(5)"),
                      lambda: _exists("002", ("(5)", "proof of Theorem 3.3")), "paper_items table",
                      kind="cross-reference")


@claim("KZ-Errata-A5-proof-eq3-for-eq9", ("002",), KZ + ", Appendix A.5 (proof of Theorem 3.5), lines 313-321",
       "statement",
       "Part 2 of the proof of Theorem 3.5 assumes (9) and uses it in the first case ('Thus, from (9) with'), but "
       "the second case says 'Thus, from (3) with': (3) is the bound of Theorem 3.2, not assumed here")
def _kz_a5():
    return refutation("Suppose (9) is satisfied for all , all , and all , under both and . ... Thus, from (9) with , "
                      "for all , ... Thus, from (3) with , for all ,",
                      "'from (9)' in the second case too: (9) (line 94) is Theorem 3.5's bound, the hypothesis of Part 2",
                      lambda: _proof_equation("002", "Theorem 3.5", "(3)", "(9)"),
                      lambda: _exists("002", ("(9)", "proof of Theorem 3.5")), "paper_items table",
                      kind="cross-reference")


#: the roadmap of seed 003 (line 35): what it says each section holds, and the section that holds it
_ROADMAP = (("Section 3", "differential privacy", "Section 2.1"),
            ("Section 4", "ROC", "Section 3"),
            ("Section 5", "examples", "Section 4"))


@claim("MHA-Errata-roadmap-section-numbers", ("003",), MHA + ", Section 1, line 35", "statement",
       "the roadmap says Section 3 discusses differential privacy, Section 4 proposes the ROC curve and AUC and "
       "Section 5 gives examples; the paper's Sections are 2.1 (differential privacy), 3 (ROC and AUC), 4 "
       "(examples) and 5 (Discussion)")
def _mha_roadmap():
    def counterexample():
        out = {}
        for said, topic, actual in _ROADMAP:
            heading = item("003", said)[1]
            if topic.lower() in heading.lower():     # the cited section does hold it: no error
                return None
            if topic.lower() not in item("003", actual)[1].lower():
                return None                          # the table does not place the topic elsewhere either
            out[said] = f"is '{heading}'; {topic}: {actual} ('{item('003', actual)[1]}')"
        return out
    return refutation("Section 3 discusses differential privacy, its definitions, and extensions. Section 4 proposes "
                      "using the receiver-operator characteristic (ROC) curve and associated area under curve metric "
                      "to assess privacy in a more intuitive way, followed by several examples of this privacy metric "
                      "in Sect. 5.",
                      "differential privacy is Section 2.1, the ROC/AUC proposal Section 3 and the examples Section 4 "
                      "(4.1 Laplace, 4.2 normal); Section 5 is the Discussion",
                      counterexample, lambda: _exists("003", [a for _, _, a in _ROADMAP]), "paper_items table",
                      kind="cross-reference")


@claim("MHA-Errata-AUC-values-from-figures", ("003",), MHA + ", Section 5, line 227", "statement",
       "'with the normal noise added the AUC is 0.5091 (from Fig. 3) and with the Laplace noise added the AUC is "
       "0.5253 (from Fig. 1)': Fig. 1 draws ROC curves for eps = 0.1, 1.0, 4.0 only, with no AUC values, and Fig. 3 "
       "is a contour plot; both numbers are table cells, Table 1 at eps = 0.5 and Table 3 at (delta, eps) = (1.5, "
       "0.25), which the tables' reading reproduces (0.525275 and 0.509066)")
def _mha_figures():
    import math

    from numeric import two_sided as NTS

    from .rounding import reproduces

    def corrected():
        lap = NTS.auc_riemann("laplace", 0.5 / math.sqrt(2))                       # Table 1's reading, eps = 0.5
        nor = NTS.auc_riemann("normal", 0.25 / (2 * math.sqrt(math.log(2 / 1.5))))  # Table 3's, (1.5, 0.25)
        if not (reproduces("0.5253", lap) and reproduces("0.5091", nor)):
            return Outcome(FAILED, detail=f"Table 1 (eps = 0.5) {lap}, Table 3 (1.5, 0.25) {nor}: not the printed cells")
        out = _exists("003", ("Table 1", "Table 3"))
        out.detail += f"; Table 1 at eps = 0.5: {lap:.6f}, Table 3 at (1.5, 0.25): {nor:.6f}"
        return out

    def counterexample():
        from .paper_items import FIGURE_CURVES
        line, drawn = FIGURE_CURVES["003"]["Fig. 1"]
        if "0.5" in drawn:            # a curve at eps = 0.5 would make 'from Fig. 1' a reading of the figure
            return None
        fig3 = item("003", "Fig. 3")
        return {"Fig. 1": f"ROC curves for eps = {', '.join(drawn)} only (line {line}): no curve at eps = 0.5, no AUC value",
                "Fig. 3": f"line {fig3[0]}: {fig3[1]}: four digits cannot be read from it",
                "the numbers": "Table 1 (eps = 0.5) and Table 3 (delta = 1.5, eps = 0.25)"}
    return refutation("with the normal noise added the AUC is 0.5091 (from Fig. 3) and with the Laplace noise added "
                      "the AUC is 0.5253 (from Fig. 1)",
                      "0.5091 is Table 3 (delta = 1.5, eps = 0.25) and 0.5253 is Table 1 (eps = 0.5)", counterexample,
                      corrected, "paper_items table and numeric.two_sided.auc_riemann", kind="cross-reference")


#: the numbers the three mismatched references of seed 002 should carry (line, as printed) -> number
KZ_FIGURE_FIX = {(160, 3): 2, (165, 5, "a 99% upper bound"): 4, (188, 7): 6}


def _fixed_number(line: int, number: int, words: str) -> int:
    for key, fixed in KZ_FIGURE_FIX.items():
        if key[:2] == (line, number) and (len(key) == 2 or key[2] in words):
            return fixed
    return number


def _figure_mismatches(paper: str, number_of) -> dict:
    """Reference -> why it points elsewhere, for every reference whose cited figure draws another subject."""
    out = {}
    for line, number, words, _, subject in FIGURE_REFERENCES[paper]:
        n = number_of(line, number, words)
        drawn = figure_subject(paper, n)
        if drawn != subject:
            out[f"line {line}: '{words}'"] = (f"describes '{subject}', but Figure {n} is "
                                              f"{'absent' if drawn is None else repr(drawn)}")
    return out


@claim("KZ-Errata-Figure-references", ("002",), KZ + ", Section 4.2, lines 160-161, Example 4.1, line 165 and "
       "Section 4.4, lines 188-189", "statement",
       "the paper's seven figure captions (lines 111, 157, 159, 168, 170, 185, 187) make Figures 1-7, but the text "
       "cites only Figures 1, 3, 5 and 7, each of 3, 5, 7 for two different plots: line 160 cites Figure 3 for the "
       "composed eps (Figure 2), line 165 Figure 5 for the posterior bound over days (Figure 4), line 188 Figure 7 "
       "for the ratio bounds (Figure 6)")
def _kz_figure_refs():
    """Decided on the table of captions and references (``proofs_check.paper_items``, checked against the
    seed by tests/test_paper_items.py).  The captions' own 'Figure N:' labels were lost in the extraction,
    so a figure's number is its caption's place; the references' numbers survive.  The other reading, that
    each pair of plots is one figure with two panels and a lost main caption, gives Figures 1-4, where
    'Figure 5' and 'Figure 7' do not exist: the references are wrong under either reading.  (A figure with
    two \\caption{}s and one \\label after both refers to the second number, which is what the printed
    references do.)"""
    def counterexample():
        bad = _figure_mismatches("002", lambda line, number, words: number)
        if not bad:
            return None
        paired = 1 + (len(FIGURE_CAPTIONS["002"]) - 1) // 2         # Figure 1, then one figure per pair
        absent = sorted({number for _, number, *_ in FIGURE_REFERENCES["002"] if number > paired})
        bad["if each pair of plots were one two-panel figure"] = (f"the paper would have Figures 1-{paired}, and "
                                                                  f"Figures {absent} would not exist")
        return bad

    def corrected():
        bad = _figure_mismatches("002", _fixed_number)
        if bad:
            return Outcome(FAILED, detail=f"the renumbered references still mismatch: {bad}")
        # 'Figures 3-5 are upper bounds' (line 166): the three posterior bounds in the seven-caption numbering
        spans = [figure_subject("002", n) for n in (3, 4, 5)]
        if not all("posterior" in s for s in spans):
            return Outcome(FAILED, detail=f"Figures 3-5 are not the three posterior bounds: {spans}")
        return Outcome(CONFIRMED, points=len(FIGURE_REFERENCES["002"]) + 1, margin="0", method="table of figures",
                       detail="with Figures 2, 4 and 6 at lines 160, 165 and 188, every reference names the figure "
                              "that draws what it describes, and 'Figures 3-5 are upper bounds' (line 166) are the "
                              "three posterior bounds")
    return refutation("Often, composition results are visualized as in Figure 3, which presents the composition of "
                      "pure DP mechanisms ... Figure 3 examines the upper bound on the adversary’s posterior "
                      "probability ... Figure 5 plots a 99% upper bound on the adversary’s posterior probability as a "
                      "function of the number of days elapsed. ... Figure 5 plots the 99% upper bound on the "
                      "posterior-to-prior difference ... Figure 7 plots 95% probability bounds on ... Figure 7 plots "
                      "the bounds on",
                      "Figure 2 at line 160 (composed eps against the number of queries), Figure 4 for the first "
                      "reference of line 165 (maximum posterior against days), Figure 6 at line 188 (ratio bounds "
                      "against the prior)", counterexample, corrected, "paper_items tables of captions and references",
                      kind="cross-reference")


#: seed 000's in-text section references that name no section of the extraction: (line, printed number, the
#: number with its repeated leading part dropped, a word of that section's heading the citing sentence needs)
DF_SECTION_CITATIONS = ((120, "3.3.2.1", "3.2.1", "catastrophic"), (192, "2.2.2", "2.2", "Hypothesis Testing"),
                        (295, "3.3.2.1", "3.2.1", "catastrophic"), (328, "2.2.2", "2.2", "f-Differential Privacy"),
                        (354, "5.5.2", "5.2", "Utility-first"))


@claim("DF-xref-section-numbers", ("000",), DF + ", lines 120, 192, 295, 328 and 354", "statement",
       "the in-text references 'Section 3.3.2.1' (lines 120, 295), 'Section 2.2.2' (lines 192, 328) and 'Section "
       "5.5.2' (line 354) name no section of the text (its sections: 1, 2, 2.1-2.3, 3, 3.1, 3.2, 3.2.1, 3.2.2, 4, "
       "5, 5.1, 5.2, 6); with the repeated leading number dropped they are 3.2.1 (catastrophic failures: the "
       "Gaussian fails gracefully), 2.2 (hypothesis testing and f-DP) and 5.2 (utility-first), which hold what "
       "the sentences use.  The same doubling in three references, while the extraction's own back-links "
       "(lines 468-486) print correct numbers, points at the HTML rendering, so no erratum is reported")
def _df_section_numbers():
    absent, read = [], []
    for line, printed, reading, word in DF_SECTION_CITATIONS:
        if item("000", "Section " + printed) is not None:
            return Outcome(FAILED, detail=f"'Section {printed}' (line {line}) names a section of the table after all")
        absent.append(f"line {line}: Section {printed}")
        target = item("000", "Section " + reading)
        if target is None or word not in target[1] or not printed.endswith(reading) or \
                printed[:len(printed) - len(reading)] != reading.split(".")[0] + ".":
            return Outcome(FAILED, detail=f"'Section {printed}' (line {line}) does not read as Section {reading} "
                                          f"heading '{word}': {target}")
        read.append(f"{printed} -> {reading} (line {target[0]}: {target[1]})")
    out = Outcome(CONFIRMED, points=len(DF_SECTION_CITATIONS), margin="0", method="table of numbered items",
                  detail="absent from the table of sections: " + "; ".join(absent) + "; read as: " + "; ".join(read))
    return unverifiable(out, DF + ", lines 120, 192, 295, 328 and 354",
                        "whether the printed paper's section references carry the doubled leading number or only "
                        "the extraction (arXiv's HTML rendering) does",
                        "each reference with its repeated leading number dropped: 3.2.1, 2.2, 5.2")
