"""Which mechanisms the seed-specific kinds of ``dp-derive plot`` take, asked of the record (its facts,
``derive.mechanisms.facts``), never of its name: KIND semantics takes every G_mu record with mu a rational
function of its parameters (zCDP releases, rho = mu^2/2) and every f_{eps,0} record (pure eps-DP queries);
KIND auc every record of the Laplace or the Gaussian pair (seed 003's two tests); KIND ztest every such
G_mu record.  The error messages list the accepting rows of the table.  Nothing here imports SymPy at
import time.
"""

from __future__ import annotations

from .common import UsageError, either, lookup, rows_where, symbolic_record


def gdp_exact(record) -> bool:
    """f = G_mu with mu a rational function of the parameters: an exact mu (ztest) and rho = mu^2/2
    (semantics) from exact parameters."""
    from derive.mechanisms import facts as K
    mu = record.fact(K.GDP_MU)
    return mu is not None and mu.is_rational_function(*record.parameters)


def pure(record) -> bool:
    """f = f_{eps,0}: pure eps-DP (randomized response)."""
    from derive.mechanisms import facts as K
    pair = record.fact(K.EPS_DELTA)
    return pair is not None and pair[1] == 0


def two_sided(record) -> bool:
    """The Laplace or the Gaussian pair: seed 003's two-sided tests."""
    from derive.mechanisms import facts as K
    return record.fact(K.LAPLACE_EPS) is not None or record.fact(K.GDP_MU) is not None


#: KIND -> (which records it takes, and what, in the words of its error message)
_TAKES = {"semantics": (lambda r: gdp_exact(r) or pure(r), lambda: f"{either(rows_where(gdp_exact))} (zCDP "
                        f"releases) or {either(rows_where(pure))} (pure eps-DP queries)"),
          "auc": (two_sided, lambda: f"{either(rows_where(two_sided))} (seed 003's two tests)"),
          "ztest": (gdp_exact, lambda: f"{either(rows_where(gdp_exact))} (the mean released with G_mu)")}
for _kind in ("eps-prime", "prior-ratio", "prior-difference"):         # seed 002 Figs. 1 and 7 (plot_prior.py)
    _TAKES[_kind] = (lambda r: _eps_delta(r), lambda: f"{either(rows_where(_eps_delta))} (an (eps, delta)-DP release)")


def _eps_delta(record) -> bool:
    from .plot_prior import takes
    return takes(record)


def kind_setup(args) -> tuple:
    """KIND semantics, auc and ztest take the mechanisms whose record is what they need (its facts, never
    its name); the placeholders of the parameters a kind varies (returned)."""
    varied = ()
    if args.kind in _TAKES:
        row = lookup(args.mechanism)
        takes, what = _TAKES[args.kind]
        record = symbolic_record(args, row)
        if not takes(record):
            raise UsageError(f"mechanism={args.mechanism}: KIND {args.kind} takes {what()}")
    if args.kind == "semantics":
        varied = _semantics_setup(args, row, gdp_exact(record))
    elif args.rho is not None:
        raise UsageError("rho: --rho is for KIND semantics")
    if args.kind == "auc":
        first = row.param_names[0]
        if not getattr(args, first, None):
            setattr(args, first, [("1",)])      # a placeholder: the AUC is drawn against --range
            varied = (first,)
    if args.kind in ("power", "fscore"):
        first = lookup(args.mechanism).param_names[0]
        if getattr(args, first, None):
            raise UsageError(f"{first}: KIND {args.kind} varies --{first} over --range; do not give it")
        setattr(args, first, [("1",)])          # a placeholder for the parameter the plot varies
        varied = (first,)
    return varied


def _semantics_setup(args, row, gdp: bool) -> tuple:
    """zCDP releases (G_mu: --rho R, or the mechanism's parameters giving rho = mu^2/2) or pure eps-DP
    queries (--bound-delta D); with --rho the parameters are placeholders (returned)."""
    params = row.param_names
    if not gdp:
        if args.rho is not None:
            raise UsageError(f"rho: --rho is for KIND semantics with {either(rows_where(gdp_exact))}")
        if args.bound_delta is None:
            raise UsageError(f"bound_delta: KIND semantics with {row.name} needs --bound-delta D, the delta at "
                             "which the composed (eps_k, delta) of advanced and optimal composition is read")
        return ()
    if (args.rho is None) == (not any(getattr(args, p, None) for p in params)):
        raise UsageError("rho: KIND semantics needs exactly one of --rho R or "
                         + " ".join(f"--{p} {p[0].upper()}" for p in params))
    if args.rho is None:
        return ()
    for p in params:
        setattr(args, p, [("1",)])             # placeholders: rho is given
    return params
