"""The trade-off record: one mechanism's trade-off function, written once.

A :class:`TradeOff` holds, as SymPy expressions in ``alpha`` and the
mechanism's parameter symbols,

* ``tradeoff``  f(alpha), the smallest type II error at type I error alpha,
  in a form that evaluates without cancellation;
* ``power``     1 - f(alpha), also cancellation-free (never ``1 - f``);
* ``paper``     the form printed in the paper, kept for LaTeX and for the
  claim that it equals the stable form;
* ``profile``   the privacy profile delta(eps') = 1 + f*(-e^eps') in closed
  form where one is known (else ``None``);
* the parameter values (exact Rationals; empty for a symbolic record), the
  valid range of every parameter, and the citation.

References
----------
Dong, Roth, Su (2022), Gaussian differential privacy, JRSS-B, Def. 2.1 and
Prop. 2.2 (trade-off functions); de Fondeville (2026), arXiv:2603.12753v1,
Def. 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp

from . import symbols as sy

#: the argument of the privacy profile delta(eps'), distinct from a mechanism's eps
#: (printed \varepsilon, the mechanism's parameter is printed \epsilon)
eps_prime = sp.Symbol("varepsilon", nonnegative=True)


@dataclass(frozen=True)
class TradeOff:
    """A trade-off function with its stable, complementary and printed forms."""

    name: str
    parameters: tuple[sp.Symbol, ...]
    tradeoff: sp.Expr
    power: sp.Expr
    paper: sp.Expr
    domain: Mapping[str, str]
    citation: str
    values: Mapping[sp.Symbol, sp.Rational] = field(default_factory=dict)
    profile: sp.Expr | None = None
    profile_citation: str = ""
    symmetric: bool = True
    #: the eps of pure DP the mechanism satisfies (expression), or None
    pure_eps: sp.Expr | None = None
    notes: str = ""
    #: how ``str`` shows the parameters when they are not in ``values`` (a limit record: "mu=inf")
    label: str = ""
    #: limits stated by the record's derivation where SymPy cannot take them from an opaque head:
    #: {"f0": (value, reason), "rho": (value, reason)} (the discrete Gaussian)
    facts: Mapping[str, tuple] = field(default_factory=dict)

    @property
    def params(self) -> dict[str, sp.Rational]:
        """Parameter values by name (only the bound ones)."""
        return {s.name: self.values[s] for s in self.parameters if s in self.values}

    def bind(self, expr: sp.Expr | None) -> sp.Expr | None:
        """``expr`` with the bound parameter values substituted."""
        if expr is None:
            return None
        return expr.xreplace(dict(self.values)) if self.values else expr

    def fact(self, key: str):
        """The value of capability ``key`` (``derive.mechanisms.facts``) with the bound parameter values
        substituted, or None when the record does not declare it."""
        if key not in self.facts:
            return None
        value = self.facts[key][0]
        return self.bind(value) if isinstance(value, sp.Basic) else value

    @property
    def f(self) -> sp.Expr:
        """f(alpha) with the parameter values substituted."""
        return self.bind(self.tradeoff)

    @property
    def one_minus_f(self) -> sp.Expr:
        """1 - f(alpha) with the parameter values substituted."""
        return self.bind(self.power)

    @property
    def alpha(self) -> sp.Symbol:
        return sy.alpha

    @property
    def is_bound(self) -> bool:
        return all(s in self.values for s in self.parameters)

    # ------------------------------------------------------------- notebook display (issue #13)
    def _repr_latex_(self) -> str:
        """f(alpha) of the record as LaTeX (the paper's form, parameters substituted), for Jupyter."""
        return "$f(\\alpha) = " + sp.latex(self.bind(self.paper)) + "$"

    def _repr_html_(self) -> str:
        """A short table: mechanism, parameters, pure eps, citation."""
        from html import escape
        rows = [("mechanism", str(self)), ("f(alpha)", "$" + sp.latex(self.bind(self.paper)) + "$"),
                ("pure eps", "none (not pure DP)" if self.pure_eps is None else
                 "$" + sp.latex(self.bind(self.pure_eps)) + "$"),
                ("symmetric", "yes" if self.symmetric else "no"), ("source", self.citation)]
        body = "".join(f"<tr><th style='text-align:left'>{escape(k)}</th><td style='text-align:left'>{escape(v)}"
                       f"</td></tr>" for k, v in rows)
        return f"<table>{body}</table>"

    def __str__(self) -> str:
        from .exact import _show
        if self.label:
            return f"{self.name}({self.label})"
        params = ", ".join(f"{k}={_show(v) if isinstance(v, sp.Rational) else ('inf' if v is sp.oo else v)}"
                           for k, v in self.params.items())
        return f"{self.name}({params})"
