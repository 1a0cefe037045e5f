"""The capability vocabulary: what a trade-off record says it *is*, so that consumers never ask its name.

A mechanism module attaches facts to the record it builds (``TradeOff.facts``: key -> (value, reason)),
and every consumer (closed-form evaluators, the composition engine, the exact composition laws, the CLI's
checks, the claims) asks ``record.fact(KEY)`` and falls back to its generic route when the fact is absent.
The value is an expression in the record's parameters; ``record.fact`` returns it with the bound values
substituted.  Two kinds of facts:

*Identities* (the record's trade-off function equals a known one; a consumer that has a route for the
known function serves every mechanism that declares it):

``GDP_MU``          f = G_mu (Dong, Roth, Su 2022, Eq. 2.2); value mu.
``EPS_DELTA``       f = f_{eps,delta}: the privacy loss is +-eps on a two-point lattice, with mass delta at
                    +inf (DRS22 Eq. 2.5; randomized response is delta = 0); value (eps, delta).
``LAPLACE_EPS``     f = T(Lap(0, 1), Lap(eps, 1)) (catalog DF-Lap); value eps.
``LOGISTIC_SHIFT``  f = T(Logistic(0, 1), Logistic(m, 1)) = (1 - alpha) / (1 + (e^m - 1) alpha); value m.
``DG_SIGMA2``       f = T(N_Z(0, s2), N_Z(1, s2)) of the discrete Gaussian (Canonne-Kamath-Steinke 2020);
                    value s2.
``NO_PRIVACY``      f = 0 (an infinite privacy parameter, ``limits.no_privacy``); value True.

*Closed forms* stated or derived in the mechanism's module:

``AUC_PRINTED``     1 - int_0^1 f as printed in the catalog (DF-AUC); value the expression.
``AUC_PIECES``      ((expression, lower, upper), ...) covering [0, 1], the pieces SymPy integrates.
``F0``, ``RHO``     f(0) and lim (1 - f(alpha))/alpha where SymPy cannot take them from an opaque head.

The table rows (``table.py``) carry the parse-time tokens (which commands list the mechanism); a test
checks each row's tokens against the facts of the record it builds.
"""

GDP_MU = "gdp_mu"
EPS_DELTA = "eps_delta"
LAPLACE_EPS = "laplace_eps"
LOGISTIC_SHIFT = "logistic_shift"
DG_SIGMA2 = "discrete_gaussian_sigma2"
NO_PRIVACY = "no_privacy"
AUC_PRINTED = "auc_printed"
AUC_PIECES = "auc_pieces"
F0 = "f0"
RHO = "rho"

#: the identity facts: at most one of them holds for a record (a test checks every record of the table)
IDENTITIES = (GDP_MU, EPS_DELTA, LAPLACE_EPS, LOGISTIC_SHIFT, DG_SIGMA2, NO_PRIVACY)


def fact(value, reason: str) -> tuple:
    """The (value, reason) pair a record stores under a key (SymPy objects, or a tuple of them)."""
    return (value, reason)
