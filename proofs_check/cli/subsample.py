"""``subsample``: privacy amplification by subsampling (issue #9 item 4; seed 004 Sec. 4.1).

Without ``--k``: C_p(f) = min{f_p, f_p^{-1}}** of a symmetric record (Dong-Roth-Su Thm 4.2),
f_p = p f + (1 - p) Id, evaluated to --digits verified digits by numeric/subsampling.py
(``method`` "exact").  It is the guarantee of one subsampled run for both samplings: uniform
sampling of m = p n records (replace-one neighbours, Thm 4.2) and Poisson sampling with rate p
(add/remove neighbours: f_p and f_p^{-1} are its two directions).

With ``--k``: the k-fold composition of the subsampled Gaussian from the certified engine
(numeric/pld.py; ``method`` "numeric", a bracket): Poisson sampling composes both directions (add and
remove pairs), uniform sampling composes the symmetric pair of C_p(G_mu) itself
(``pld_mechanisms.SymmetricHull``); the same for the Laplace mechanism (``SubsampledLaplace``) and, by
the generic wrapper ``numeric.pld_subsampled.Subsampled``, for every record the engine models
(randomized response, approx-dp, geometric, exponential, discrete Gaussian: the table's SUBSAMPLE_ENGINE
token).  Other mechanisms have no composed subsampled pair in the engine; they are refused with that
reason.
"""

from __future__ import annotations

import time

from derive.mechanisms.table import SUBSAMPLE, SUBSAMPLE_ENGINE, with_capability

from .common import (
    Once,
    Records,
    UsageError,
    add_mechanism,
    as_int,
    lookup,
    mechanism_help,
    mechanism_params,
    number,
    one_value_each,
    output_parent,
    run_one,
    subparser,
)

#: mechanisms whose records are symmetric with a closed-form profile (C_p needs both): the table's SUBSAMPLE token
NAMES = with_capability(SUBSAMPLE)


def register(sub):
    p = subparser(sub, "subsample", "privacy amplification by subsampling: C_p(f), or its k-fold composition",
                  "C_p(f) = min{f_p, f_p^-1}** with f_p = p f + (1 - p) Id (Dong, Roth, Su 2022, Thm 4.2), the "
                  "trade-off function of the mechanism run on a subsample of rate p (uniform sampling without "
                  "replacement, or Poisson sampling: both directions).  Without --k the value is exact (verified "
                  "digits); with --k the subsampled step is composed k times by the certified engine "
                  "(Poisson: both directions; uniform: C_p(f) itself; a bracket, the unsuffixed value is the "
                  "privacy-safe end).\n\n" + mechanism_help(NAMES),
                  ["dp-derive subsample gaussian --mu 1 --p 0.01 --alpha 0.05",
                   "dp-derive subsample laplace --eps 1 --p 0.1 --at-delta 1e-6 --digits 30",
                   "dp-derive subsample gaussian --mu 0.9 --p 0.01 --k 1000 --at-delta 1e-5 --json"],
                  parents=[output_parent(formats=("text", "json"))])
    add_mechanism(p, NAMES, lists=False)
    p.add_argument("--p", type=number("sampling_rate", "p"), required=True, action=Once,
                   help="sampling rate p in (0, 1] (batch / n for uniform sampling)")
    p.add_argument("--sampling", choices=("poisson", "uniform"), default="poisson", action=Once,
                   help="poisson (default): each record independently with probability p; uniform: a fixed-size "
                        "subset of p n records")
    p.add_argument("--k", type=number("count", "k"), default=None, action=Once,
                   help="compose the subsampled mechanism k times (" + ", ".join(with_capability(SUBSAMPLE_ENGINE)) + ")")
    q = p.add_mutually_exclusive_group(required=True)
    q.add_argument("--alpha", type=number("alpha"), action=Once, help="C_p(f)(alpha) and the power")
    q.add_argument("--at-eps", type=number("at_eps", "eps"), action=Once, help="delta(eps)")
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps(delta)")
    p.set_defaults(func=cmd_subsample)


def cmd_subsample(args):
    from numeric.precision import format_number
    mechanism = lookup(args.mechanism)
    given, _ = mechanism_params(args, mechanism)
    values = one_value_each(given, "subsample")
    records = Records(args, mechanism)
    k = as_int(args.k) if args.k is not None else None
    if k is not None and k > 1:
        if SUBSAMPLE_ENGINE not in mechanism.capabilities:
            raise UsageError(f"k={args.k}: composing a subsampled {args.mechanism} is not available (the engine has "
                             "no privacy-loss model of its record); give --k with "
                             f"{' or '.join(with_capability(SUBSAMPLE_ENGINE))}, or no --k")
    digits = args.digits

    def compute():
        t0 = time.perf_counter()
        record = records.get(values)
        shown = {"mechanism": mechanism.name, "params": records.shown(values), "p": args.p,
                 "sampling": args.sampling}
        if k is not None and k > 1:
            return _composed(args, mechanism, record, values, k, shown, t0)
        from numeric import subsampling as S
        if args.alpha is not None:
            r = S.tradeoff(record, args.p, args.alpha, digits)
            beta, power = format_number(r.value, digits), format_number(r.complement, digits)
            payload = {**shown, "alpha": args.alpha, "beta": beta, "beta_lower": beta, "beta_upper": beta,
                       "power": power}
            line = f"C_p(f)({args.alpha}) = {beta}, power = {power}"
        elif args.at_eps is not None:
            v = format_number(S.delta(record, args.p, args.at_eps, digits).value, digits)
            payload = {**shown, "eps": args.at_eps, "delta": v, "delta_lower": v, "delta_upper": v}
            line = f"delta = {v} at eps = {args.at_eps}"
        else:
            v = format_number(S.eps(record, args.p, args.at_delta, digits).value, digits)
            payload = {**shown, "delta": args.at_delta, "eps": v, "eps_lower": v, "eps_upper": v}
            line = f"eps = {v} at delta = {args.at_delta}"
        payload.update({"method": "exact", "certified": True, "digits": digits,
                        "seconds": round(time.perf_counter() - t0, 3)})
        return payload, [f"{record}, subsampled at p = {args.p}: {line}  (C_p(f), {digits} verified digits)"]
    return run_one(args, compute)


def _composed(args, mechanism, record, values, k, shown, t0):
    from derive.mechanisms import facts as K
    from numeric import pld
    from numeric import pld_subsampled as PS
    name = args.mechanism
    label = (mechanism.spread_params or mechanism.param_names)[0]       # mu, eps, sigma2: the first parameter
    theta = values[label]
    if record.fact(K.NO_PRIVACY):
        return _no_privacy(args, k, shown, t0)
    if mechanism.is_identity(values):
        raise UsageError(f"{label}={theta}: the subsampled {name} with these parameters is Id (perfect "
                         "privacy); no composition needed")
    from .compose_fdp import _privacy_parameter, check_engine_parameter
    if not mechanism.finite_loss_is_zero(values):
        # (the engine's size rule reads the loss-spreading parameter: 1/sigma2 for the discrete Gaussian;
        # a finite loss that is the atom L = 0, approx-dp at eps = 0 with delta > 0, lies on every grid)
        check_engine_parameter(*_privacy_parameter(mechanism, record, values))
    comp = pld.compose([(PS.subsampled_step(record, args.p, args.sampling), k)])
    from numeric.precision import format_outward
    digits = min(args.digits, 15)
    fmt = (lambda v, up: format_outward(v, digits, up))          # the bracket's ends rounded outward
    if args.alpha is not None:
        r = comp.tradeoff(args.alpha)
        payload = {**shown, "k": k, "alpha": args.alpha, "beta": fmt(r.beta, False),
                   "beta_lower": fmt(r.beta_lower, False), "beta_upper": fmt(r.beta_upper, True),
                   "power": fmt(r.power, True)}
        line = f"beta in [{payload['beta_lower']}, {payload['beta_upper']}] at alpha = {args.alpha}"
    elif args.at_eps is not None:
        r = comp.delta(args.at_eps)
        payload = {**shown, "k": k, "eps": args.at_eps, "delta": fmt(r.delta, True),
                   "delta_lower": fmt(r.delta_lower, False), "delta_upper": fmt(r.delta_upper, True)}
        line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
    else:
        r = comp.eps(args.at_delta)
        payload = {**shown, "k": k, "delta": args.at_delta, "eps": fmt(r.eps, True),
                   "eps_lower": fmt(r.eps_lower, False), "eps_upper": fmt(r.eps_upper, True)}
        line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
    payload.update({"method": "numeric", "certified": bool(r.certified), "digits": digits,
                    "seconds": round(time.perf_counter() - t0, 3)})
    if r.reason:
        payload["reason"] = r.reason
    return payload, [f"{k} x {args.sampling}-subsampled {name}({label}={theta}), p = {args.p}: {line}"
                     + ("  (certified)" if r.certified else f"  (not certified: {r.reason})")]


def _no_privacy(args, k, shown, t0):
    """Parameter inf (no privacy per step), exactly: each subsampled step is f_{0,p} (a step that
    reveals everything when the record is sampled: C_p(0) = max(0, 1 - p - alpha) for uniform
    sampling; for Poisson sampling the remove direction puts P-mass p at L = +inf and the add direction
    has the deterministic finite loss -k log(1 - p), whose hockey stick never exceeds the remove one's),
    and k of them compose to f_{0, 1 - (1 - p)^k} (numeric.compose_exact, the eps = 0 law)."""
    from numeric import compose_exact as X
    from numeric.precision import format_number
    digits = args.digits
    params = {"eps": "0", "delta": args.p}
    if args.alpha is not None:
        r = X.tradeoff("approx-dp", params, k, args.alpha, digits)
        beta, power = format_number(r.value, digits), format_number(r.complement, digits)
        payload = {**shown, "k": k, "alpha": args.alpha, "beta": beta, "beta_lower": beta, "beta_upper": beta,
                   "power": power}
        line = f"beta = {beta} at alpha = {args.alpha}"
    elif args.at_eps is not None:
        v = format_number(X.delta("approx-dp", params, k, args.at_eps, digits).value, digits)
        payload = {**shown, "k": k, "eps": args.at_eps, "delta": v, "delta_lower": v, "delta_upper": v}
        line = f"delta = {v} at eps = {args.at_eps}"
    else:
        v = format_number(X.eps("approx-dp", params, k, args.at_delta, digits).value, digits)
        payload = {**shown, "k": k, "delta": args.at_delta, "eps": v, "eps_lower": v, "eps_upper": v}
        line = f"eps = {v} at delta = {args.at_delta}"
    payload.update({"method": "exact", "certified": True, "digits": digits,
                    "seconds": round(time.perf_counter() - t0, 3)})
    return payload, [f"{k} x {args.sampling}-subsampled {args.mechanism} with parameter inf (no privacy per step), "
                     f"p = {args.p}: {line}  (exact: f_(0, 1 - (1 - p)^k))"]

