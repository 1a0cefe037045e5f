"""Su (2025) v1 Tables 2-3 (shuffling: WSY+23's f-DP against Renyi DP), recomputed route by route
(``reproduce --paper 004``; issue #26 item 1).

What survives of the tables (catalog 004, "SU Tables 2-3"): only the column headers eps0 = 0.5, ..., 1.0
(Table 2, rows "eps (Renyi DP)" and "eps (f-DP)") and eps0 = 0.5, ..., 0.8 (Table 3, rows "numerical upper
bound" and "numerical lower bound").  The numbers, and n and delta, were lost in the extraction; the
WSY+23 paper (arXiv 2310.19973) was not reachable from this build either, so n and delta are ASSUMED:
n = 10^4 users, delta = 10^-6.  Every entry is therefore "unverifiable" (nothing printed to compare), with
the value this toolkit computes for that route at the assumed inputs.

Routes per eps0 (binary randomized response with local parameter eps0, shuffled):
* ``exact``: certified eps(delta) of the exact shuffled pairs with k = 0..3 ones among the others (and the
  mirror k = n - 4..n - 1), numeric.shuffle_rr: a LOWER bound on the mechanism's eps(delta), hence on
  every upper-bound route (the Table 3 "numerical lower bound" role);
* ``fdp-wsy``: WSY+23's Eq. 4.1 applied to the FMT23 stronger-clone mixture (numeric.shuffle_fdp): an upper
  bound (Table 2 "f-DP" row);
* ``rdp-clones``: Renyi DP of the same clone mixture, converted (Balle et al. 2020): an upper bound
  (Table 2 "Renyi DP" row, in our reading; FMT23's own RDP formula is not implemented);
* ``rdp-exact``: Renyi DP of the k = 0 exact pair, converted: an upper bound for that pair only.

Our reading of Table 3 ("numerical upper bound", "numerical lower bound", eps0 = 0.5..0.8): the upper bound
is the fdp-wsy row (Eq. 4.1 over the clone mixture equals the clone pair's exact hockey-stick divergence,
numeric/shuffle_fdp.py), the lower bound the exact row.  A reading, not recovered text.
"""

from __future__ import annotations

from functools import lru_cache

#: the assumed inputs (WSY+23's n and delta were not recovered)
N_USERS = 10 ** 4
DELTA = "1e-6"
EPS0S = ("0.5", "0.6", "0.7", "0.8", "0.9", "1.0")
#: k = 0..K_SCAN ones among the others (and the mirrors) for the exact lower bound
K_SCAN = 3


@lru_cache(maxsize=None)
def _row(eps0: str) -> dict:
    from numeric import shuffle_fdp as F
    from numeric import shuffle_rr as S
    ex = S.binary_rr(N_USERS, eps0, DELTA, ones=range(K_SCAN + 1))
    return {
        "exact": (ex["eps_lower"], ex["eps_upper"]),
        "fdp-wsy": F.wsy_eps(N_USERS, eps0, DELTA, "stronger")["eps_upper"],
        "rdp-clones": F.rdp_eps(N_USERS, eps0, DELTA, "stronger")["eps_upper"],
        "rdp-exact": F.rdp_eps(N_USERS, eps0, DELTA, "exact")["eps_upper"],
    }


def consistent(row: dict) -> bool:
    """Every upper-bound route lies above the certified exact lower bound (the upper end of its bracket
    is below each route): the check that the routes and the exact pair agree on which side they are."""
    hi = row["exact"][1]
    return all(row[r] >= hi for r in ("fdp-wsy", "rdp-clones", "rdp-exact"))


_WHAT = {
    "exact": "certified eps(delta) of the exact shuffled binary-RR pairs (k = 0..3 and mirrors): a lower "
             "bound for every reduction",
    "fdp-wsy": "WSY+23 Eq. 4.1 over the FMT23 stronger-clone mixture (float): an upper bound",
    "rdp-clones": "Renyi DP of the stronger-clone mixture, Balle et al. 2020 conversion (float): an upper bound",
    "rdp-exact": "Renyi DP of the k = 0 exact pair, converted (float): an upper bound for that pair",
}


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def entries() -> list[dict]:
    out = []
    for eps0 in EPS0S:
        row = _row(eps0)
        lo, hi = row["exact"]
        for route, what in _WHAT.items():
            value = lo if route == "exact" else row[route]
            note = (f"{what}; n = {N_USERS} and delta = {DELTA} ASSUMED (WSY+23's were not recovered); "
                    f"the printed number is lost (catalog 004)")
            if route == "exact":
                note += f"; certified bracket [{lo!r}, {hi!r}]"
                if not consistent(row):
                    note += "; INCONSISTENT: an upper-bound route lies below this lower bound"
            else:
                note += f"; ratio to the exact lower bound {value / hi:.4f}"
            out.append({"id": f"SU-Table2:eps0={eps0}:{route}", "printed": None, "computed": _fmt(value),
                        "status": "unverifiable", "inputs": f"eps0 = {eps0}, n = {N_USERS}, delta = {DELTA}",
                        "note": note})
    return out
