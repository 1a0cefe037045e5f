"""The alpha grid of numerical confirmations and the parameter sets per mechanism.

The grid reaches alpha = 1e-1000 and alpha = 1 - 1e-10; every value on it is
evaluated by ``numeric.mp`` with verified digits.
"""

from __future__ import annotations

import derive

ALPHA_GRID = ("0", "1e-1000", "1e-300", "1e-100", "1e-30", "1e-10", "1e-5", "0.001", "0.01",
              "0.05", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "0.99",
              "0.99999", "0.9999999999", "1")
#: digits verified for every grid value
DIGITS = 30


def mechanism_cases():
    """(label, record) for every constructor over a spread of parameters."""
    cases = []
    for mu in ("0", "0.5", "1", "5"):
        cases.append((f"gaussian(mu={mu})", derive.gaussian(mu)))
    for eps in ("0", "0.1", "1", "5"):
        cases.append((f"laplace(eps={eps})", derive.laplace(eps)))
    for eps, delta in (("1", "1e-5"), ("0.5", "0"), ("3", "0.1")):
        cases.append((f"approx-dp(eps={eps}, delta={delta})", derive.approx_dp(eps, delta)))
    for mu, n in (("1", "5"), ("2.5", "1"), ("0.1", "5")):
        for nb in ("replacement", "add-remove"):
            cases.append((f"uniform-sampling(mu={mu}, n={n}, {nb})",
                          derive.uniform_sampling(mu, n, nb)))
    for eps in ("0.5", "2"):
        cases.append((f"randomized-response(eps={eps})", derive.randomized_response(eps)))
    for eps, delta in (("0.5", "1e-5"), ("1", "1e-10")):
        cases.append((f"classical-gaussian(eps={eps}, delta={delta})",
                      derive.classical_gaussian(eps, delta)))
    for mu in ("0.5", "2"):
        cases.append((f"noise(logistic, mu={mu})", derive.noise("logistic", mu)))
    return cases
