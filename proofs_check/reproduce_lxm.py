"""Liu et al. (2019), seed 001: every cell of Table 1 (``reproduce --paper 001``)."""

from __future__ import annotations

import mpmath

from .rounding import mark, reading

# Liu et al. (2019) Table 1: the maximal eps under a required bound on F_beta (Laplace mechanism).
_LXM_BOUNDS = ("0.55", "0.58", "0.62", "0.67", "0.76", "0.83", "0.9", "0.95")
_LXM_TABLE1 = {
    "0.5": ("0.22", "0.34", "0.55", "0.82", "1.42", "2.04", "3", "4.29"),
    "0.6": ("-", "0.33", "0.54", "0.83", "1.45", "2.11", "3.11", "4.43"),
    "0.8": ("-", "-", "0.49", "0.8", "1.46", "2.16", "3.21", "4.58"),
    "1": ("-", "-", "-", "0.71", "1.4", "2.12", "3.2", "4.6"),
    "1.5": ("-", "-", "-", "-", "1.17", "1.88", "2.99", "4.41"),
    "2": ("-", "-", "-", "-", "-", "1.61", "2.69", "4.12"),
}



def entries():
    from numeric.attack import fscore_inverse
    out = []
    for beta, row in _LXM_TABLE1.items():
        for bound, printed in zip(_LXM_BOUNDS, row):
            got = fscore_inverse(beta, bound, digits=15)
            eps = got.eps
            entry = {"id": f"LXM-Table1:beta={beta}:F={bound}", "printed": printed,
                     "computed": None if eps is None else mpmath.nstr(eps, 6)}
            if printed == "-":
                entry["status"] = "reproduced" if eps is None else "differs"
                entry["note"] = "no eps exists: " + got.reason if eps is None else \
                    "the paper has no value; the closed form gives one"
            elif eps is None:
                tau = mpmath.log(1 + mpmath.mpf(beta) ** 2)
                plateau = (1 + mpmath.mpf(beta) ** 2) / (2 + mpmath.mpf(beta) ** 2)
                entry["status"] = "differs"
                entry["note"] = (f"F*_beta >= {mpmath.nstr(plateau, 6)} for every eps, above the bound "
                                 f"{bound}: no eps exists by Eq. 12. Reading that reproduces it: the column is "
                                 f"the plateau value {mpmath.nstr(plateau, 4)} printed to 2 digits and the cell "
                                 f"is the turning point tau = log(1 + beta^2) = {mpmath.nstr(tau, 6)}"
                                 + (f" ({reading(printed, tau)})" if reading(printed, tau) else ""))
            else:
                how = mark(entry, printed, eps).get("reading")
                if how:
                    entry["note"] = f"eps_max = log(w (s_F^2 - 1)/(4 beta^2)) = {mpmath.nstr(eps, 6)}, {how}"
                    if mpmath.mpf(printed) > eps:
                        entry["note"] += ("; the printed value lies above eps_max (rounded up), so F*_beta at "
                                          "the printed eps is slightly above the bound")
                else:
                    entry["note"] = (f"eps_max = {mpmath.nstr(eps, 6)}: neither rounds nor truncates to the "
                                     "printed digits")
            out.append(entry)
    return out


