"""One table of the seed papers: id, citation, and where their reproduce entries come from."""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    #: "module:function" returning the reproduce entries (imported lazily)
    entries: str
    #: one line on what ``reproduce`` recomputes for this paper
    note: str

    def reproduce_entries(self) -> list[dict]:
        module, function = self.entries.split(":")
        return getattr(importlib.import_module(module), function)()


PAPERS: dict[str, Paper] = {p.id: p for p in (
    Paper("000", "de Fondeville (2026), arXiv:2603.12753v1", "proofs_check.reproduce_disclosure:entries",
          "the mu_min values of section 5.2, constants, numeric claims about Figs. 4-5 and printed "
          "formulas that fail the axioms; alt_value = the criterion as printed"),
    Paper("001", "Liu, He, Chanyaswad, Wang, Mittal (2019), PoPETs", "proofs_check.reproduce_lxm:entries",
          "Table 1 (every cell), from the closed-form inverse of Eq. 12 (claim LXM-Eq12-inv); '-' means "
          "the paper prints no value"),
    Paper("002", "Kazan et al. (2025)", "proofs_check.reproduce_semantics:entries",
          "every number the text keeps (the extraction stripped the formulas and most inputs: 'inputs' "
          "says which input is printed and which this toolkit infers)"),
    Paper("003", "Matthews, Harel, Aseltine (2010)", "proofs_check.reproduce_mha:entries",
          "Tables 1-4 (every cell) and the AUCs quoted in the text; computed = the method as described "
          "(exact AUC), alt_value = the reading that reproduces"),
    Paper("004", "Su (2025), A statistical viewpoint on differential privacy", "proofs_check.reproduce_su:entries",
          "Tables 2-3 (shuffling) were lost in the text extraction; only Table 1 survives and it cannot "
          "be recomputed from the paper"),
)}

PAPER_IDS = tuple(PAPERS)


def paper(pid: str) -> Paper:
    return PAPERS[pid]
