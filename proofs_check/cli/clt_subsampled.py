"""Subsampled steps for ``clt`` (issue #26 item 4): the flags, the plan and the CLT of each direction.

A step subsampled at rate p is the trade-off function C_p(f) for uniform (fixed-size) sampling, and
f_p (remove) or f_p^{-1} (add) for Poisson sampling (``numeric.functionals_subsampled``).  For Poisson the
CLT mu of Dong-Roth-Su Thm 3.4 (stated for symmetric f) is computed for each direction's list of trade-off
functions and the larger mu (the less private direction) is reported, with ``direction`` naming it; the
Edgeworth approximation, which reads Y = -X off a symmetric step, is then not reported.

DP-SGD in its own terms: ``--noise-multiplier S`` is gaussian with mu = 1/S and ``--batch B --dataset-size N``
is p = B/N, both exact (the ratio of the decimals as typed), as ``dp-derive dpsgd`` reads them.
"""

from __future__ import annotations

from .common import Once, UsageError, number

#: the explanation carried in the payload when a Poisson direction stands in for a symmetric step
POISSON_NOTE = ("Poisson sampling: each step is f_p (remove) or f_p^-1 (add), not symmetric; Dong-Roth-Su Thms "
                "3.4-3.5 are stated for symmetric f and are applied to the direction with the larger mu as an "
                "approximation (the Berry-Esseen band is then not a proved bound); no Edgeworth value")


def add_flags(p) -> None:
    p.add_argument("--p", type=number("sampling_rate", "p"), default=None, action=Once,
                   help="subsample MECH at rate p in (0, 1] (gaussian, laplace): the CLT of the subsampled steps")
    p.add_argument("--batch", type=number("batch", "batch"), default=None, action=Once,
                   help="with --dataset-size: p = batch / dataset size, exactly (DP-SGD)")
    p.add_argument("--dataset-size", type=number("n", "dataset_size"), default=None, action=Once,
                   help="with --batch: the dataset size n of p = batch / n")
    p.add_argument("--sampling", choices=("poisson", "uniform"), default=None, action=Once,
                   help="with --p or --batch: poisson (default; add/remove neighbours, f_p and f_p^-1) or uniform "
                        "(fixed-size batches, C_p(f), replace-one neighbours)")
    p.add_argument("--noise-multiplier", type=number("noise_multiplier", "noise_multiplier"), default=None,
                   action=Once, help="gaussian with mu = 1 / noise multiplier, exactly (DP-SGD's sigma; instead of --mu)")


def _rate(args):
    """p as an exact Rational, or None when no subsampling flag is given."""
    import sympy as sp

    from derive.exact import rational
    if (args.batch is None) != (args.dataset_size is None):
        raise UsageError("batch: give --batch and --dataset-size together (p = batch / dataset size)")
    if args.batch is not None:
        if args.p is not None:
            raise UsageError("p: give --p or --batch with --dataset-size, not both")
        b, n = rational("batch", args.batch), rational("dataset_size", args.dataset_size)
        if b > n:
            raise UsageError(f"batch={args.batch}: at most the dataset size {args.dataset_size}")
        return sp.Rational(b) / n
    return None if args.p is None else rational("p", args.p)


def plan(args, base_plan):
    """The plan with the MECH entry subsampled by the flags (None when they are absent): the spec's own
    ``p`` entries pass unchanged."""
    from derive.mechanisms import table as T
    rate = _rate(args)
    if args.sampling is not None and rate is None:
        raise UsageError("sampling: --sampling goes with --p (or --batch and --dataset-size)")
    if rate is None:
        return base_plan
    if args.spec is not None:
        raise UsageError("p: a spec file subsamples its entries itself (\"p\" and \"sampling\" in an entry)")
    (name, values, count, _), = base_plan
    if T.SUBSAMPLE_ENGINE not in T.lookup(name).capabilities:
        raise UsageError(f"p: the CLT subsamples {' and '.join(T.with_capability(T.SUBSAMPLE_ENGINE))} steps only")
    return [(name, values, count, (rate, args.sampling or "poisson"))]


def mechanism_values(args):
    """{'mu': 1/sigma} for --noise-multiplier (gaussian only), or None."""
    if args.noise_multiplier is None:
        return None
    if args.mechanism is None or not _is_gdp_in_mu(args.mechanism) or args.mu is not None:
        raise UsageError("noise_multiplier: --noise-multiplier goes with a G_mu mechanism whose one parameter is mu "
                         "(gaussian), instead of --mu")
    from derive.exact import rational
    sigma = rational("noise_multiplier", args.noise_multiplier)
    if sigma == 0:
        raise UsageError("noise_multiplier=0: a positive noise multiplier")
    return {"mu": 1 / sigma}


def _is_gdp_in_mu(name) -> bool:
    """The row's record is G_mu with mu its one parameter (its GDP_MU fact, never its name)."""
    from derive.mechanisms import facts as K
    from derive.mechanisms import table as T
    row = T.lookup(name)
    record = row.build(None, {})
    return row.param_names == ("mu",) and record.fact(K.GDP_MU) == record.parameters[0]


def directions(plan):
    """{direction: [(step, count)]}: 'symmetric' when no entry is Poisson-subsampled, else 'remove' and 'add'."""
    from derive.mechanisms.table import BY_NAME
    from numeric.functionals_subsampled import SubsampledStep
    poisson = any(p is not None and p[1] == "poisson" for _, _, _, p in plan)
    out = {}
    for d in (("remove", "add") if poisson else ("symmetric",)):
        entries = []
        for name, values, count, p in plan:
            record = BY_NAME[name].build(values)
            if p is not None:
                view = "hull" if p[1] == "uniform" else d
                record = SubsampledStep(record, p[0], view)
            entries.append((record, count))
        out[d] = entries
    return out


def clt(plan, digits):
    """(CltResult, direction, note): the CLT of the plan, the less private direction for Poisson steps."""
    from numeric import clt as C
    best = None
    for d, entries in directions(plan).items():
        res = C.clt(entries, digits)
        if best is None or res.mu > best[0].mu:
            best = (res, d)
    res, d = best
    return res, (None if d == "symmetric" else d), (POISSON_NOTE if d != "symmetric" else None)


__all__ = ["add_flags", "plan", "mechanism_values", "directions", "clt", "POISSON_NOTE"]
