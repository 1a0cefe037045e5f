"""Numbered items of the seed papers, as data: headings of theorems, corollaries and sections, and
equation labels, each with the seed line where it stands (``../shared/seeds``, 1-based).

Cross-reference errata (``proofs_check.claims_errata_xref``) are decided on this table: whether a
cited item exists, and which theorem an equation label belongs to.  The toolkit does not read the
papers; tests/test_paper_items.py checks every entry against the seed text when it is present (the
label stands on the recorded line).  Items whose label the extraction lost are not listed.
"""

from __future__ import annotations

#: paper -> label -> (seed line, what it belongs to or heads)
ITEMS: dict[str, dict[str, tuple[int, str]]] = {
    "000": {
        "Section 1": (12, "Introduction"), "Section 2": (26, "Materials and Methods"),
        "Section 2.1": (28, "Differential Privacy"), "Section 2.2": (48, "Hypothesis Testing and f-Differential Privacy"),
        "Section 2.3": (124, "Bayesian Statistics and Prior-to-Posterior Analysis"),
        "Section 3": (158, "Managing disclosure risk under uncertainty"), "Section 3.1": (160, "Membership Attacks"),
        "Section 3.2": (202, "Controlling membership attacks with f_mu-DP"),
        "Section 3.2.1": (208, "Mechanisms suffering from catastrophic failures"),
        "Section 3.2.2": (252, "Interpreting disclosure risk"),
        "Section 4": (312, "Reliable data analysis under differential privacy"),
        "Section 5": (356, "The privacy-utility trade-off in practice"),
        "Section 5.1": (378, "Privacy-first: choosing a DP-Mechanism and its parameters"),
        "Section 5.2": (422, "Utility-first: linking the privacy-loss parameters with statistical significance"),
        "Section 6": (462, "Acknowledgements"),
    },
    "002": {
        "Theorem 2.3": (35, "Section 2"), "Theorem 2.7": (45, "Section 2"), "Theorem 2.8": (48, "Section 2"),
        "Theorem 2.9": (51, "Section 2"),
        "Theorem 3.1": (67, "Section 3"), "Theorem 3.2": (71, "Section 3"), "Theorem 3.3": (76, "Section 3"),
        "Lemma 3.4": (82, "Section 3"), "Theorem 3.5": (84, "Section 3"), "Corollary 3.6": (97, "Section 3"),
        "Corollary 3.7": (101, "Section 3"), "Theorem 3.9": (106, "Section 3"), "Corollary 3.10": (113, "Section 3"),
        "Corollary 3.11": (124, "Section 3"), "Corollary 3.12": (126, "Section 3"),
        "(3)": (73, "Theorem 3.2"), "(5)": (80, "Theorem 3.3"), "(9)": (94, "Theorem 3.5"),
        "proof of Theorem 3.3": (280, "Appendix A.3"), "proof of Theorem 3.5": (306, "Appendix A.5"),
        # the main-text heading of Corollary 3.8 was lost in the extraction; its proof's heading stands
        "proof of Corollary 3.8": (348, "Appendix A.7"),
    },
    "003": {
        "Section 2": (37, "Statistical disclosure limitation and quantifying privacy"),
        "Section 2.1": (51, "Differential privacy"),
        "Section 3": (95, "Using the receiver-operator characteristic (ROC) curve and area under the curve (AUC) "
                          "to assess privacy"),
        "Section 4": (125, "Examples"), "Section 4.1": (127, "Adding Laplace noise"),
        "Section 4.2": (181, "Adding normal noise"), "Section 5": (237, "Discussion"),
        "Table 1": (156, "risk of the Laplace release against eps = 0.01, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0"),
        "Table 3": (203, "risk of the normal release against delta = 0.75, 1, 1.5 and eps"),
        "Fig. 1": (153, "ROC curves for eps = 0.1, 1.0, 4.0 (line 147)"),
        "Fig. 3": (199, "contour plot of the risk over (eps, delta)"),
    },
}


def item(paper: str, label: str) -> tuple[int, str] | None:
    """(line, owner) of a numbered item, or None when the paper has no such item."""
    return ITEMS.get(paper, {}).get(label)


def heading_line_text(label: str) -> str:
    """What the seed line of ``label`` starts with: 'Corollary 3.10.' for a result, '(3)' for an
    equation label, a '#' heading with the number for a section (seed 003), the result's name for a proof,
    the bold caption label of a table or figure (seed 003)."""
    if label.startswith("("):
        return label
    if label.startswith("Section "):
        return label.split()[1] + " "
    if label.startswith("proof of "):
        return label[len("proof of "):]
    if label.startswith(("Table ", "Fig. ")):
        return "**" + label + "**"
    return label + "."


#: what a figure draws, where the text says so: paper -> figure -> (seed line, the parameter values drawn);
#: tests/test_paper_items.py checks each value against that line
FIGURE_CURVES: dict[str, dict[str, tuple[int, tuple[str, ...]]]] = {
    "003": {"Fig. 1": (147, ("0.1", "1.0", "4.0"))},
}


#: the figure captions of a paper in the order they stand (their "Figure N:" labels were lost in the
#: extraction, so a figure's number is its place in this list): (seed line, the caption's first words,
#: what the figure draws); tests/test_paper_items.py checks that each line starts with those words
FIGURE_CAPTIONS: dict[str, tuple[tuple[int, str, str], ...]] = {
    "002": ((111, "When (on the x-axis) is between", "eps' against delta' (Theorem 3.9)"),
            (157, "Plot of the privacy parameter", "composed eps against the number of queries"),
            (159, "Plot of the posterior bound", "posterior bound against the number of queries"),
            (168, "The maximum posterior increases", "maximum posterior against days"),
            (170, "The maximum difference increases", "maximum posterior-to-prior difference against days"),
            (185, "The ratio bounds are largest", "ratio bounds against the prior"),
            (187, "The difference bounds are largest", "difference bounds against the prior")),
}

#: the figure references of a paper's text: (seed line, the number cited, the reference's words, words of
#: the same line that say what the cited figure shows, that subject as in FIGURE_CAPTIONS); the test checks
#: that both word groups stand on the line
FIGURE_REFERENCES: dict[str, tuple[tuple[int, int, str, str, str], ...]] = {
    "002": ((109, 1, "This is demonstrated in Figure 1", "Notably, when , it follows that",
             "eps' against delta' (Theorem 3.9)"),
            (160, 3, "composition results are visualized as in Figure 3",
             "which presents the composition of pure DP mechanisms", "composed eps against the number of queries"),
            (161, 3, "Figure 3 examines the upper bound", "on the adversary’s posterior probability as a function of",
             "posterior bound against the number of queries"),
            (165, 5, "Figure 5 plots a 99% upper bound", "on the adversary’s posterior probability as a function of "
             "the number of days elapsed", "maximum posterior against days"),
            (165, 5, "Figure 5 plots the 99% upper bound", "on the posterior-to-prior difference as a function of "
             "days elapsed", "maximum posterior-to-prior difference against days"),
            (188, 7, "Figure 7 plots 95% probability bounds on", "We first examine the maximal posterior-to-prior ratio",
             "ratio bounds against the prior"),
            (189, 7, "Figure 7 plots the bounds on", "We can similarly examine the maximal posterior-to-prior difference",
             "difference bounds against the prior")),
}


def figure_subject(paper: str, number: int) -> str | None:
    """What figure ``number`` of ``paper`` draws (its caption's place in FIGURE_CAPTIONS), or None."""
    captions = FIGURE_CAPTIONS.get(paper, ())
    return captions[number - 1][2] if 1 <= number <= len(captions) else None
