"""One table of parameter domains, read by the constructors, the evaluators and the CLI.

Every number a user passes (a mechanism parameter, a level alpha, a prior, a
number of compositions ...) is checked against exactly one entry of
``DOMAINS``: the record constructors and evaluators call :func:`parse_in`, and
the command line builds its argparse ``type=`` functions from the same entries
(``proofs_check/cli/types.py``), so the two cannot drift apart and the CLI
cannot let through what the API refuses.

The module imports nothing heavy (no SymPy at import time), so that the CLI can
describe the domains in ``--help`` without loading the algebra.

A key names a domain, not a parameter: ``delta`` of an (eps, delta)-DP record
may be 0, the ``delta`` of the classical Gaussian mechanism may not, so they
are two keys (``delta`` and ``delta_positive``) while the parameter a message
names is still ``delta``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .errors import power_of_ten


@dataclass(frozen=True)
class Domain:
    """An interval of the real line, possibly restricted to the integers.

    ``low``/``high`` are exact (int or Fraction); ``None`` is unbounded.
    ``meaning`` is the one-line description printed by ``--help``.
    """

    low: int | Fraction | None = None
    high: int | Fraction | None = None
    low_open: bool = False
    high_open: bool = False
    integer: bool = False
    meaning: str = ""
    tiny: int | Fraction | None = None      # nonzero values below this magnitude are refused


    def kwargs(self) -> dict:
        """Keyword arguments of :func:`derive.exact.parse` / ``check_range``."""
        return {"low": self.low, "high": self.high, "low_open": self.low_open,
                "high_open": self.high_open, "integer": self.integer, "tiny": self.tiny}

    def describe(self) -> str:
        """The valid range as the error messages print it: ``in [0, inf)``, ``0 or in [1e-1000, 1e308]``."""
        low, low_open = (self.tiny, False) if self.tiny is not None else (self.low, self.low_open)
        left = "(-inf" if low is None else ("(" if low_open else "[") + _show(low)
        right = "inf)" if self.high is None else _show(self.high) + (")" if self.high_open else "]")
        zero = "0 or " if self.tiny is not None and self.low == 0 and not self.low_open else ""
        text = f"{zero}in {left}, {right}"
        return "an integer " + text if self.integer else text


def _show(value) -> str:
    value = Fraction(value)
    if value < 0:                       # -1e308, not the 309 digits of -10^308
        return "-" + _show(-value)
    if value.denominator == 1:
        return power_of_ten(value.numerator) or str(value.numerator)
    if value.numerator == 1 and power_of_ten(value.denominator):      # a floor: 1e-1000
        return "1e-" + power_of_ten(value.denominator)[2:]
    return str(float(value)) if float(value) == value else f"{value.numerator}/{value.denominator}"


#: the largest value of a mechanism parameter (mu, eps).  Every computing command forms e^{-mu^2/2} or
#: e^{-eps} (or its quantile's square) at the working precision, and the cost of that exponential grows
#: with the digits of its exponent: mu = 1e1000 took 7-13 s for tradeoff/risk/link --to approx (gaussian,
#: noise --family gaussian, classical-gaussian), mu = 1e4299 ran past any bound (issue #25 item 4).  At
#: 1e308 (about the largest double) every command with every row of the mechanism table answered within
#: ~3 s on the 2-core test machine (tradeoff, profile, latex, risk, posterior, link, cnd, subsample,
#: compose fdp, plot, pr, fscore, auc, functional, clt; measured 2026-11-28: the slowest plot tradeoff
#: gaussian, 2.9 s; link --to zcdp's first call takes 5 s at any mu, its SymPy derivation), as did
#: semantics --eps, compose pure --eps and ztest --mu (each past 60 s at 1e4299).
MAX_MECHANISM_PARAM = 10 ** 308
#: the largest eps of the classical Gaussian mechanism: fscore's optimum for G_mu, mu = eps/sqrt(2 ln(1.25/
#: delta)), needs the threshold t* ~ mu/2 to relative precision e^{-mu^2}-fine (alpha* = Phi(-t*)), so its
#: cost grows with mu: eps = 1e100 takes 3.3 s, 1e150 18-22 s, 1e200 past 60 s (measured 2026-11-28; every
#: other command answers at 1e308 as above)
MAX_CLASSICAL_EPS = 10 ** 100
#: the smallest nonzero mechanism parameter.  Expressions in mu (mu^2, mu^3 in the functionals' closed
#: forms) are SymPy Rationals, and SymPy prints them (cache keys, term ordering) through int -> str, which
#: Python refuses beyond 4300 digits: mu = 1e-5000 ended in that ValueError (functional ... logistic,
#: risk laplace; issue #25 item 4).  At 1e-1000 every power up to the fourth stays under the limit and
#: every computing command answered in seconds (measured 2026-11-28).
MIN_MECHANISM_PARAM = Fraction(1, 10 ** 1000)
#: F_beta's weight beta: beyond these the optimum's algebra divides by a zero at every working precision
#: (``fscore laplace --beta 1e-1000`` ended in a ZeroDivisionError traceback, thirteenth session)
MIN_ATTACK_WEIGHT = Fraction(1, 10 ** 500)
MAX_ATTACK_WEIGHT = 10 ** 500
#: the largest Renyi order taken (an order of 1e999999 ran past 70 s)
MAX_RENYI_ORDER = 10 ** 100
#: the smallest nonzero eps of the classical Gaussian mechanism: fscore's threshold grows like 1/mu^2, and
#: its alpha* = Phi(-t) then costs as at the cap (eps = 1e-150 took 7.8 s, 1e-300 66 s; 1e-100 answers in
#: ~3 s), so the floor mirrors the cap 1e100
MIN_CLASSICAL_EPS = Fraction(1, 10 ** 100)

#: the largest number of compositions the exact pure-DP routes accept (k = 10^4 takes ~0.3 s, linear in k)
MAX_K = 10 ** 6
#: the most significant digits any evaluation may ask for
MAX_DIGITS = 1000

D = Domain
#: key -> Domain.  Keys are referenced by the constructors (derive/mechanisms),
#: the evaluators (numeric/) and the CLI (proofs_check/cli/).
DOMAINS: dict[str, Domain] = {
    # mechanism parameters
    "mu": D(0, MAX_MECHANISM_PARAM, tiny=MIN_MECHANISM_PARAM,
             meaning="GDP parameter mu: 0 (perfect privacy) or in [1e-1000, 1e308]"),
    "eps": D(0, MAX_MECHANISM_PARAM, tiny=MIN_MECHANISM_PARAM,
              meaning="privacy parameter eps: 0 or in [1e-1000, 1e308]"),
    "eps_classical": D(0, MAX_CLASSICAL_EPS, tiny=MIN_CLASSICAL_EPS,
                        meaning="eps of the classical Gaussian mechanism: 0 or in [1e-100, 1e100]"),
    "eps_positive": D(0, MAX_MECHANISM_PARAM, tiny=MIN_MECHANISM_PARAM, low_open=True,
                       meaning="privacy parameter eps in [1e-1000, 1e308]"),
    "delta": D(0, 1, high_open=True, meaning="privacy parameter delta in [0, 1)"),
    "delta_positive": D(0, 1, low_open=True, high_open=True, meaning="delta in (0, 1)"),
    "n_sample": D(1, None, integer=True, meaning="population size n (an integer >= 1)"),
    "outcomes": D(2, 10 ** 9, integer=True, meaning="number M of candidate outputs (an integer in [2, 1e9])"),
    # levels, priors and targets
    "alpha": D(0, 1, meaning="type I error (level) of the membership test, in [0, 1]"),
    "alpha_open": D(0, 1, low_open=True, high_open=True, meaning="level alpha in (0, 1)"),
    "log_alpha": D(None, 0, meaning="log of the level, <= 0"),
    "alpha0": D(0, 1, low_open=True, meaning="reference level alpha0 in (0, 1]"),
    "alpha0_open": D(0, 1, low_open=True, high_open=True, meaning="reference level alpha0 in (0, 1)"),
    "prior": D(0, 1, low_open=True, high_open=True, meaning="prior probability of membership, in (0, 1)"),
    "at_eps": D(-MAX_MECHANISM_PARAM, MAX_MECHANISM_PARAM,
                meaning="the eps at which delta(eps) is evaluated (any real in [-1e308, 1e308]; eps < 0 is allowed)"),
    "at_delta": D(0, 1, meaning="the delta at which eps(delta) is evaluated, in [0, 1]"),
    "y": D(None, None, meaning="argument of the convex conjugate"),
    # attack (seed 001)
    "beta_f": D(0, MAX_ATTACK_WEIGHT, low_open=True, tiny=MIN_ATTACK_WEIGHT,
                meaning="weight beta of recall in F_beta, in [1e-500, 1e500]"),
    "weight": D(0, None, low_open=True, meaning="prior weight w = (1 - p)/p > 0 of non-membership"),
    "rho_p": D(0, 1, tiny=MIN_MECHANISM_PARAM, meaning="prior weight rho_p: 0 or in [1e-1000, 1]"),
    "rho_c": D(0, 1, high_open=True, meaning="prior weight rho_c in [0, 1)"),
    "rho_t": D(0, 1, high_open=True, meaning="prior weight rho_t in [0, 1)"),
    "bound": D(0, 1, low_open=True, high_open=True, meaning="bound on F*_beta, in (0, 1)"),
    # semantics and composition (seeds 002, 004)
    "delta_prime": D(0, 1, low_open=True, meaning="delta' of the probabilistic DP reading, in (0, 1]"),
    "delta_prime_open": D(0, 1, low_open=True, high_open=True, meaning="delta' in (0, 1)"),
    "k": D(1, MAX_K, integer=True, meaning="number of compositions (an integer >= 1)"),
    "krr_k": D(3, MAX_K, integer=True, meaning="number of values of k-ary randomized response (k = 2 is binary-rr)"),
    "rho": D(0, MAX_MECHANISM_PARAM, meaning="zCDP parameter rho in [0, 1e308] of one release (inf: no privacy)"),
    "rho_positive": D(0, None, low_open=True, meaning="zCDP parameter rho > 0"),
    "eps_g": D(0, None, meaning="eps of the composed guarantee"),
    "count": D(1, 10 ** 7, integer=True, meaning="how many times a mechanism is composed (an integer >= 1)"),
    "sampling_rate": D(0, 1, low_open=True, meaning="sampling rate p in (0, 1]"),
    # design (seed 000 Sec. 5)
    "n": D(1, MAX_MECHANISM_PARAM, integer=True, meaning="sample size n (an integer in [1, 1e308])"),
    "sigma": D(0, MAX_MECHANISM_PARAM, low_open=True, tiny=MIN_MECHANISM_PARAM,
               meaning="standard deviation sigma in [1e-1000, 1e308]"),
    "batch": D(1, None, integer=True, meaning="batch size (an integer >= 1, at most n)"),
    "epochs": D(0, 10 ** 6, low_open=True, meaning="number of epochs, in (0, 1e6]"),
    "noise_multiplier": D(Fraction(3, 10), 1000, meaning="noise multiplier sigma in [0.3, 1000] (below 0.3 the "
                          "privacy loss of a step outgrows the certified engine's window)"),
    "sigma2": D(0, 10 ** 4, low_open=True, tiny=MIN_MECHANISM_PARAM,
                meaning="variance parameter sigma^2 of the discrete Gaussian, in [1e-1000, 1e4] "
                "(its sums have ~10 sigma terms)"),
    "m": D(0, None, low_open=True, meaning="effect size m > 0"),
    "mu_positive": D(0, MAX_MECHANISM_PARAM, tiny=MIN_MECHANISM_PARAM, low_open=True,
                      meaning="GDP parameter mu in [1e-1000, 1e308]"),
    "delta_q": D(0, MAX_MECHANISM_PARAM, low_open=True, tiny=MIN_MECHANISM_PARAM,
                 meaning="sensitivity of the mean, in [1e-1000, 1e308] (default 1/n)"),
    "max_relative_beta_increase": D(0, None, low_open=True,
                                    meaning="largest relative increase of the type II error, > 0"),
    "max_relative_loss": D(0, 1, low_open=True, high_open=True,
                           meaning="largest relative loss of power, in (0, 1) (0 is reached only as mu -> inf)"),
    "min_power": D(0, 1, low_open=True, high_open=True, meaning="smallest power, in (0, 1)"),
    "threshold": D(0, 1, low_open=True, high_open=True, meaning="threshold in (0, 1)"),
    # functionals and links (seed 004 Sec. 1.1 and 3)
    "order": D(1, MAX_RENYI_ORDER, low_open=True, meaning="order lambda of a Renyi divergence, in (1, 1e100]"),
    # canonical noise (seed 004 Sec. 3.2)
    "samples": D(1, 10 ** 8, integer=True, meaning="number of samples, at most 10^8"),
    "seed": D(0, 10 ** 38, integer=True, meaning="seed of numpy's default generator, an integer in [0, 1e38]"),
    # noisy gradient descent, last iterate (BSA24, seed 004 Sec. 4.2; numeric/noisy_gd.py)
    "lipschitz": D(0, None, low_open=True, meaning="Lipschitz constant L > 0 of each loss"),
    "smoothness": D(0, None, low_open=True, meaning="smoothness M > 0 of each loss"),
    "strong_convexity": D(0, None, meaning="strong convexity m >= 0 of each loss (0: convex)"),
    "step_size": D(0, None, low_open=True, meaning="step size eta > 0"),
    "epochs_whole": D(1, 10 ** 7, integer=True, meaning="number of epochs (an integer in [1, 1e7])"),
    "diameter": D(0, None, low_open=True, meaning="diameter D > 0 of the convex set iterates are projected onto"),
    "young_split": D(0, None, low_open=True, meaning="split lam > 0 of the two terms of BSA24's projected bound"),
    # shuffling (issue #26 item 1; numeric/shuffle_clones.py)
    "eps0": D(0, 50, low_open=True, meaning="local privacy parameter eps0 of each user's randomizer, in (0, 50]"),
    "n_users": D(1, 10 ** 8, integer=True, meaning="number n of users whose reports are shuffled, an integer in "
                 "[1, 1e8] (the time grows like sqrt(n): ~2 s at 1e7)"),
    "rounds": D(1, 10 ** 4, integer=True, meaning="number R of shuffled rounds composed, an integer in [1, 1e4]"),
    # output
    "digits": D(1, MAX_DIGITS, integer=True, meaning="significant digits of every number printed"),
}


def domain(key: str) -> Domain:
    return DOMAINS[key]


def parse_in(key: str, value, name: str | None = None):
    """``value`` as an exact SymPy Rational inside ``DOMAINS[key]``, or DomainError naming ``name``."""
    from .exact import parse
    return parse(name or key, value, **DOMAINS[key].kwargs())
