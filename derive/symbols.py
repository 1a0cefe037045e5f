"""Canonical SymPy symbols, with the assumptions every formula relies on.

One symbol per quantity of the papers, spelled out as in the papers.  Every
module builds its expressions from these, so that substitution and comparison
across modules works on identical symbols.
"""

from __future__ import annotations

import sympy as sp

#: type I error (false-positive rate) of a test; trade-off functions act on it
alpha = sp.Symbol("alpha", positive=True)
#: Gaussian differential privacy parameter (shift of the unit-variance normal)
mu = sp.Symbol("mu", nonnegative=True)
#: pure differential privacy parameter
eps = sp.Symbol("epsilon", nonnegative=True)
#: additive slack of approximate differential privacy
delta = sp.Symbol("delta", nonnegative=True)
#: number of records in the data set
n = sp.Symbol("n", positive=True, integer=True)
#: a real argument of a noise distribution
x = sp.Symbol("x", real=True)
#: a probability argument of a quantile function
p = sp.Symbol("p", positive=True)
#: a standard-normal quantile, used in derivations
z = sp.Symbol("z", real=True)
#: the log of alpha, for log-space entry points
log_alpha = sp.Symbol("log_alpha", nonpositive=True)
#: the argument y of a convex conjugate f*(y)
y = sp.Symbol("y", real=True)
