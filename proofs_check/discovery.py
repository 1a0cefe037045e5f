"""Discovery of the built-in claim modules (they register their claims on import)."""

from __future__ import annotations

import importlib

from .registry import Claim, registered

#: the modules that hold the built-in claims, in report order
CLAIM_MODULES = ("proofs_check.claims_foundation", "proofs_check.claims_attack",
                 "proofs_check.claims_disclosure", "proofs_check.claims_semantics",
                 "proofs_check.claims_semantics_corollaries",
                 "proofs_check.claims_errata_000", "proofs_check.claims_errata_000_referee",
                 "proofs_check.claims_errata_001",
                 "proofs_check.claims_errata_002", "proofs_check.claims_errata_003",
                 "proofs_check.claims_errata_004", "proofs_check.claims_errata_004_subsampling",
                 "proofs_check.claims_errata_xref",
                 "proofs_check.claims_composition",
                 "proofs_check.claims_su", "proofs_check.claims_su_applications", "proofs_check.claims_clt",
                 "proofs_check.claims_links")
#: modules that attach certified (interval) checks to registered claims
#: (one per seed paper; shared machinery in ``certified_common``)
CERTIFY_MODULES = ("proofs_check.claims_certified_000", "proofs_check.claims_certified_001_003",
                   "proofs_check.claims_certified_002", "proofs_check.claims_certified_004")


def load(extra_modules=()) -> None:
    """Import the claim modules (idempotent) and any user modules that register claims."""
    for name in (*CLAIM_MODULES, *CERTIFY_MODULES, *extra_modules):
        importlib.import_module(name)


def all_claims(extra_modules=()) -> list[Claim]:
    load(extra_modules)
    return registered()
