"""dp-derive, SymPy layer: trade-off functions of differential privacy in closed form."""

from .errors import DomainError, PrecisionExhausted
from .mechanisms import (MECHANISMS, approx_dp, classical_gaussian, gaussian, laplace, noise,
                         randomized_response, uniform_sampling)
from .special import LogPhi, Phi, PhiInv, PhiInvExp
from .tradeoff import TradeOff, eps_prime

__all__ = ["DomainError", "PrecisionExhausted", "TradeOff", "eps_prime", "Phi", "PhiInv",
           "LogPhi", "PhiInvExp", "gaussian", "classical_gaussian", "laplace", "approx_dp",
           "randomized_response", "uniform_sampling", "noise", "MECHANISMS"]
