"""Su (2025), seed 004: the printed numbers that survive the extraction (``reproduce --paper 004``)."""

from __future__ import annotations


# Su (2025) Table 1 (BSA24, regularised logistic regression on MNIST): the seed text prints
# the numbers but not the step size, Lipschitz and convexity constants, sigma or delta needed to
# recompute them (catalog 004, section 4, "No way to recompute these").
_SU_TABLE1 = [("50", "composition", "30.51"), ("50", "Renyi DP", "5.82"), ("50", "f-DP", "4.34"),
              ("100", "composition", "49.88"), ("100", "Renyi DP", "7.61"), ("100", "f-DP", "5.60"),
              ("200", "composition", "83.83"), ("200", "Renyi DP", "9.88"), ("200", "f-DP", "7.58")]


def entries():
    out = []
    for epochs, method, printed in _SU_TABLE1:
        out.append({
            "id": f"SU-Table1:{epochs}:{method}", "printed": printed, "computed": None,
            "status": "unverifiable",
            "note": "eps at fixed delta after this many epochs (BSA24); the review omits the step "
                    "size, smoothness/convexity constants, sigma and delta needed to recompute it",
        })
    return out


