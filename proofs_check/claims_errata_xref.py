"""Cross-references of the seed papers, checked against the table of their numbered items
(``proofs_check.paper_items``; itself checked against the seeds by tests/test_paper_items.py).

An erratum of kind ``cross-reference`` is REFUTED when the cited item does not exist, or when an
equation cited in a proof belongs to another theorem than the hypothesis the proof works from; the
correction (the intended item) must exist and be what the argument uses.  The rules of every verdict:
``proofs_check.verdicts``.
"""

from __future__ import annotations

from .errata_common import KZ, MHA
from .outcomes import refutation
from .paper_items import item
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
