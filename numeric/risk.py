"""Posterior, failure class and relative disclosure risk to verified digits (seed 000).

Formulas: ``derive.posterior`` (DF-Def6) and ``derive.risk`` (DF-Thm1, DF-Thm2,
DF-Def7, DF-rho-a0, DF-Table1).  The prior enters as two exact numbers, pi and
1 - pi, so that priors like 1e-15 and 1 - 1e-15 keep every digit; the
posterior and its complement are separate cancellation-free expressions.
At alpha = 0 the posterior is its limit alpha -> 0+ (1 when f(0) < 1, else
pi rho/(pi rho + 1 - pi)), which is how Theorem 1 reads p_post(0).

Results are frozen dataclasses (``numeric.display.ResultDisplay``: ``as_dict(digits)``, and a
table in Jupyter): ``Classification``, ``PosteriorResult``, ``RiskResult``, ``RiskLatex``.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from derive import risk as R
from derive.domains import parse_in
from derive.posterior import one_minus_posterior, prior, prior_c
from derive.posterior import posterior as posterior_expr
from derive.symbols import alpha as ALPHA
from derive.tradeoff import TradeOff

from .bridge import Exact, exact_of
from .display import ResultDisplay
from .inputs import alpha_exact, bound_env
from .precision import evaluate_env

DEFAULT_ALPHA0 = "0.01"
DEFAULT_PRIOR = "0.5"


@dataclass(frozen=True)
class Classification(ResultDisplay):
    """f(0) and rho as ``derive.risk.Limit`` (SymPy ``value`` and ``method``) and the failure class."""
    f0: object
    rho: object
    failure: str


@dataclass(frozen=True)
class PosteriorResult(ResultDisplay):
    """p_post(alpha) and 1 - p_post(alpha) to ``digits`` digits; ``at_zero`` says alpha = 0 was read as the limit."""
    posterior: object
    one_minus_posterior: object
    digits: int = 15
    at_zero: str | None = None


@dataclass(frozen=True)
class RiskResult(ResultDisplay):
    """The disclosure-risk report of seed 000 (values mpf or Exact, rho = inf when unbounded)."""
    f0: object
    f0_expr: object          # SymPy
    f0_method: str
    failure: str
    rho: object
    rho_expr: object         # SymPy
    rho_method: str
    rho_alpha0: object
    power_alpha0: object
    posterior_alpha0: object
    one_minus_posterior_alpha0: object
    posterior_sup: object
    one_minus_posterior_sup: object
    posterior_sup_attained: bool
    digits: int = 15


@dataclass(frozen=True)
class RiskLatex(ResultDisplay):
    """LaTeX strings of f(0), rho and sup p_post."""
    f0: str
    rho: str
    posterior_sup: str


def prior_env(p) -> dict:
    """{pi: p, bar_pi: 1 - p}, both exact; p in the open interval (0, 1)."""
    r = parse_in("prior", p)
    return {prior: exact_of(r), prior_c: exact_of(1 - r)}


def _record_env(record: TradeOff, p=None, alpha=None) -> dict:
    env = bound_env(record)
    if p is not None:
        env.update(prior_env(p))
    if alpha is not None:
        env[ALPHA] = alpha
    return env


def classify(record: TradeOff) -> Classification:
    """f(0), rho (SymPy expressions, with how they were obtained) and the failure class."""
    f0 = R.f_at_zero(record)
    below = R.is_below_one(f0.value)
    rho = R.rho(record)
    return Classification(f0=f0, rho=rho, failure=R.failure_class(below, rho.value))


def _sup(record: TradeOff, cls: Classification, env, digits, base_rho=None):
    """(sup p_post, 1 - sup p_post, attained).  rho = oo: the sup is 1, attained iff f(0) < 1; finite
    rho: pi rho/(pi rho + 1 - pi), attained iff 1 - f = rho alpha near 0 (derive.risk.sup_attained
    on ``record``, the base record for C_p(f): 1 - C_p(f) = p (1 - f) + (1 - p) alpha near 0; ``base_rho``
    is that record's rho when the caller has it)."""
    if cls.failure != R.NONE:
        return Exact(1), Exact(0), cls.failure == R.CATASTROPHIC
    up, down = R.posterior_sup(cls.rho.value)
    attained = R.sup_attained(record, classify(record).rho.value if base_rho is None else base_rho)
    return evaluate_env(up, env, digits), evaluate_env(down, env, digits), attained


def posterior(record: TradeOff, prior_value, alpha, digits: int = 15) -> PosteriorResult:
    """p_post(alpha) and 1 - p_post(alpha) (DF-Def6) for a prior in (0, 1)."""
    a = alpha_exact(alpha)
    env = _record_env(record, prior_value, a)
    if a.p == 0:
        cls = classify(record)
        up, down, _ = _sup(record, cls, env, digits, cls.rho.value)
        return PosteriorResult(posterior=up, one_minus_posterior=down, digits=digits, at_zero="limit alpha -> 0+")
    return PosteriorResult(posterior=evaluate_env(posterior_expr(record), env, digits),
                           one_minus_posterior=evaluate_env(one_minus_posterior(record), env, digits),
                           digits=digits)


def risk(record: TradeOff, alpha0=DEFAULT_ALPHA0, prior_value=DEFAULT_PRIOR, digits: int = 15) -> RiskResult:
    """The disclosure-risk report of seed 000 for one bound record.

    Fields: f0, failure, rho (mpf, inf when unbounded), rho_alpha0, power_alpha0,
    posterior_alpha0, one_minus_posterior_alpha0, posterior_sup,
    one_minus_posterior_sup, posterior_sup_attained, and the SymPy forms and
    methods of f0 and rho.
    """
    a0 = exact_of(parse_in("alpha0", alpha0))
    cls = classify(record)
    env = _record_env(record, prior_value, a0)
    rho = cls.rho.value
    up, down, attained = _sup(record, cls, env, digits, rho)
    return RiskResult(
        f0=evaluate_env(cls.f0.value, env, digits),
        f0_expr=cls.f0.value, f0_method=cls.f0.method,
        failure=cls.failure,
        rho=evaluate_env(rho, env, digits), rho_expr=rho, rho_method=cls.rho.method,
        rho_alpha0=evaluate_env(R.rho_alpha0(record), env, digits),
        power_alpha0=evaluate_env(record.power, env, digits),
        posterior_alpha0=evaluate_env(posterior_expr(record), env, digits),
        one_minus_posterior_alpha0=evaluate_env(one_minus_posterior(record), env, digits),
        posterior_sup=up, one_minus_posterior_sup=down, posterior_sup_attained=attained,
        digits=digits)


def latex(record: TradeOff) -> RiskLatex:
    """LaTeX of f(0), rho and sup p_post for the record (bound values substituted)."""
    cls = classify(record)
    sup = sp.Integer(1) if cls.failure != R.NONE else R.posterior_sup(cls.rho.value)[0]
    names = {prior_c: r"\bar{\pi}"}
    return RiskLatex(f0=sp.latex(cls.f0.value), rho=sp.latex(cls.rho.value),
                     posterior_sup=sp.latex(sup, symbol_names=names))
