"""Plain Gaussian rows of a composition merged into one step (issue #25: heterogeneous specs).

G_mu1^k1 x ... x G_mun^kn = G_mu with mu^2 = sum k_i mu_i^2, exactly (Dong-Roth-Su 2022, Cor. 3.3: the
composed pair is N(0, I) against N(v, I) with |v|^2 = sum k_i mu_i^2, and only |v| matters).  The merged
step is the engine's Gaussian pair given by mu^2 (``pld_mechanisms.Gaussian(mu2=...)``), whose tails use
the Arb ball of sqrt(mu^2).
"""

from __future__ import annotations

from fractions import Fraction

from .pld_mechanisms import Gaussian, Mechanism, exact


def merged_gaussian(mus_counts) -> Mechanism:
    """G_mu1^k1 x ... x G_mun^kn as the one step G_mu, mu^2 = sum k_i mu_i^2 (the module docstring).
    ``mus_counts``: [(mu, k)] with mu exact (decimal text or Fraction)."""
    mu2 = sum((exact(mu, "mu") ** 2 * k for mu, k in mus_counts), Fraction(0))
    model = Gaussian(mu2=mu2)
    return Mechanism(model.name, [model], True)


def merge_gaussian_rows(entries, largest_mu):
    """[(Mechanism, count)] with its plain Gaussian rows (two or more) replaced by the one step
    ``merged_gaussian`` of them, so that a spec of many distinct G_mu steps costs one discretised step.  Only
    while the merged mu is at most ``largest_mu``: beyond the engine's one-step limit a single step's loss
    spreads past its grid (two 10^4-fold G_100 rows merged answered eps(1e-5) uncertified, unmerged
    certified)."""
    def plain(m):
        return len(m.directions) == 1 and isinstance(m.directions[0], Gaussian) and m.directions[0].mu is not None
    rows = [(m.directions[0].mu, k) for m, k in entries if plain(m)]
    if len(rows) < 2 or sum(mu * mu * k for mu, k in rows) > Fraction(largest_mu) ** 2:
        return entries
    return [(m, k) for m, k in entries if not plain(m)] + [(merged_gaussian(rows), 1)]
