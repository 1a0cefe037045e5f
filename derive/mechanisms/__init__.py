"""Constructors of trade-off records, one module per mechanism family.

Every constructor takes its parameters as exact numbers (decimal strings,
ints, Fractions or Rationals) or leaves them symbolic when omitted.
"""

from .approx_dp import approx_dp, randomized_response
from .gaussian import classical_gaussian, gaussian
from .laplace import laplace
from .noise import noise
from .uniform_sampling import uniform_sampling

#: command-line name -> constructor
MECHANISMS = {
    "gaussian": gaussian,
    "laplace": laplace,
    "approx-dp": approx_dp,
    "uniform-sampling": uniform_sampling,
    "randomized-response": randomized_response,
    "classical-gaussian": classical_gaussian,
    "noise": noise,
}

__all__ = ["gaussian", "classical_gaussian", "laplace", "approx_dp", "randomized_response",
           "uniform_sampling", "noise", "MECHANISMS"]
