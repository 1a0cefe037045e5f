"""Printed numbers of the seed papers, recomputed: ``dp-derive reproduce``.

Each entry is a value claim: id, printed value, computed value, status
(``reproduced`` to the printed digits, ``differs``, or ``unverifiable`` when
the paper does not give what the computation needs) and a note.  Papers whose
capability is not built yet report an empty list and say which issue builds it.
"""

from __future__ import annotations

PAPERS = {
    "000": "de Fondeville (2026), arXiv:2603.12753v1",
    "001": "Liu, He, Chanyaswad, Wang, Mittal (2019), PoPETs",
    "002": "Kazan et al. (2025)",
    "003": "Matthews, Harel, Aseltine (2010)",
    "004": "Su (2025), A statistical viewpoint on differential privacy",
}

PENDING = {
    "000": "not built yet: the posterior, failure-class and parameter-choice numbers of this paper "
           "are issue #3 (disclosure risk of a membership attack)",
    "002": "not built yet: the Bayesian-semantics numbers of this paper are issue #3",
    "001": "not built yet: Table 1 (optimal F-scores) is issue #4",
    "003": "not built yet: Tables 1 to 4 (AUC) are issue #4",
}

# Su (2025) Table 1 (BSA24, regularised logistic regression on MNIST): the seed text prints
# the numbers but not the step size, Lipschitz and convexity constants, sigma or delta needed to
# recompute them (catalog 004, section 4, "No way to recompute these").
_SU_TABLE1 = [("50", "composition", "30.51"), ("50", "Renyi DP", "5.82"), ("50", "f-DP", "4.34"),
              ("100", "composition", "49.88"), ("100", "Renyi DP", "7.61"), ("100", "f-DP", "5.60"),
              ("200", "composition", "83.83"), ("200", "Renyi DP", "9.88"), ("200", "f-DP", "7.58")]


def _su_entries():
    out = []
    for epochs, method, printed in _SU_TABLE1:
        out.append({
            "id": f"SU-Table1:{epochs}:{method}", "printed": printed, "computed": None,
            "status": "unverifiable",
            "note": "eps at fixed delta after this many epochs (BSA24); the review omits the step "
                    "size, smoothness/convexity constants, sigma and delta needed to recompute it",
        })
    return out


def reproduce(paper: str | None = None) -> dict:
    papers = [paper] if paper else list(PAPERS)
    out = []
    for p in papers:
        if p == "004":
            out.append({"paper": p, "title": PAPERS[p], "entries": _su_entries(),
                        "note": "Tables 2-3 (shuffling) were lost in the text extraction; only Table 1 "
                                "survives and it cannot be recomputed from the paper"})
        else:
            out.append({"paper": p, "title": PAPERS[p], "entries": [], "note": PENDING[p]})
    entries = [e for block in out for e in block["entries"]]
    summary = {s: sum(e["status"] == s for e in entries) for s in ("reproduced", "differs", "unverifiable")}
    summary["total"] = len(entries)
    return {"papers": out, "summary": summary}
