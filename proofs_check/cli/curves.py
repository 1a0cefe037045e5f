"""``tradeoff``, ``profile`` and ``latex``: a mechanism's trade-off curve, its privacy
profile and its formulas (issue #2 interface; batch points and ``--path`` from issue #11)."""

from __future__ import annotations

from .common import (
    MECHANISM_FLAGS,
    Records,
    UsageError,
    add_mechanism,
    add_points,
    add_sampling_rate,
    combinations,
    emit_one,
    lookup,
    mechanism_help,
    mechanism_options,
    mechanism_params,
    one_value_each,
    output_parent,
    run_points,
    setup,
    subparser,
)

PATHS = ("mp", "fp")


def register(sub):
    out = output_parent()
    t = subparser(sub, "tradeoff", "beta = f(alpha) and the attack power 1 - f(alpha)",
                  "The smallest type II error beta = f(alpha) of any test of the mechanism at level alpha, "
                  "and the power 1 - f(alpha) of the best membership attack, computed without subtraction.\n\n"
                  + mechanism_help(),
                  ["dp-derive tradeoff gaussian --mu 1 --alpha 1e-300 --digits 30",
                   "dp-derive tradeoff laplace --eps 1 --alpha 0.01,0.05,0.1 --format csv",
                   "dp-derive tradeoff gaussian --mu 0.5 --alpha-grid log:1e-300:0.5:200 --path fp --format jsonl"],
                  parents=[out])
    add_mechanism(t)
    add_points(t, "alpha", "alpha", "level alpha of the test, in [0, 1]", required=True)
    t.add_argument("--path", choices=PATHS, default="mp",
                   help="mp: verified digits (default); fp: float64, vectorised (digits ignored)")
    add_sampling_rate(t)
    t.set_defaults(func=cmd_tradeoff)

    p = subparser(sub, "profile", "privacy profile: delta at an eps, or eps at a delta",
                  "delta(eps) = sup over alpha of 1 - f(alpha) - e^eps alpha (the hockey-stick divergence), "
                  "or its inverse eps(delta).  Give --at-eps or --at-delta.  For a mechanism without a "
                  "parameter of that name, --eps/--delta say the same (profile gaussian --mu 1 --eps 0.5); "
                  "for one with it, a second --eps/--delta is the profile's (profile laplace --eps 1 --eps 0.5).\n\n"
                  + mechanism_help(),
                  ["dp-derive profile gaussian --mu 1 --at-eps 0.5",
                   "dp-derive profile gaussian --mu 1 --at-delta 1e-5 --digits 30",
                   "dp-derive profile laplace --eps 1 --at-eps 0,0.25,0.5 --format csv"],
                  parents=[out])
    add_mechanism(p)
    add_points(p, "at_eps", "at_eps", "evaluate delta(eps) at this eps (a negative eps is the hockey stick at "
               "e^eps < 1)", name="eps")
    add_points(p, "at_delta", "at_delta", "evaluate eps(delta) at this delta in [0, 1] (eps(1) = 0)", name="delta")
    p.add_argument("--path", choices=PATHS, default="mp",
                   help="mp: verified digits (default); fp: float64 (digits ignored)")
    add_sampling_rate(p)
    p.set_defaults(func=cmd_profile)

    la = subparser(sub, "latex", "LaTeX of the trade-off function, its power or its profile",
                   "The formula as the paper prints it (--form paper) or in the stable form the toolkit "
                   "evaluates (--form stable), with the given parameter values substituted; a parameter not "
                   "given stays symbolic.  --json also gives both symbolic forms.\n\n" + mechanism_help(),
                   ["dp-derive latex gaussian --mu 1",
                    "dp-derive latex gaussian --form stable",
                    "dp-derive latex laplace --eps 1 --quantity profile --json"],
                   parents=[output_parent(digits=False, formats=("text", "json"))])
    add_mechanism(la, lists=False)
    la.add_argument("--quantity", default="tradeoff", choices=("tradeoff", "power", "profile"),
                    help="which formula (default tradeoff)")
    la.add_argument("--form", default="paper", choices=("paper", "stable"),
                    help="the paper's printed form or the stable evaluated form (default paper)")
    la.set_defaults(func=cmd_latex)


def cmd_tradeoff(args):
    mechanism, records, given, _ = setup(args)
    combos = combinations(args, mechanism.param_names + ("alpha",), given)
    _no_fp_with_p(args)
    if args.path == "fp":
        return run_points(args, combos, _fp_rows(records, mechanism, combos, "alpha"))
    from numeric import mp
    digits, fmt = args.digits, mp.format_number

    def compute(c):
        record = records.get(c)
        if args.p is None:
            beta, power = mp.tradeoff(record, c["alpha"], digits), mp.power(record, c["alpha"], digits)
            shown, head = {}, f"{record}"
        else:
            from numeric import subsampling
            r = subsampling.tradeoff(record, args.p, c["alpha"], digits)
            beta, power = r.value, r.complement
            shown, head = {"p": args.p}, f"{record}, subsampled at p = {args.p} (C_p(f))"
        payload = {"mechanism": mechanism.name, "params": records.shown(c), **shown, "alpha": c["alpha"],
                   "digits": digits, "beta": fmt(beta, digits), "power": fmt(power, digits)}
        return payload, [f"{head}  alpha = {c['alpha']}", f"beta  = f(alpha)     = {payload['beta']}",
                         f"power = 1 - f(alpha) = {payload['power']}"]
    return run_points(args, combos, compute)


def _no_fp_with_p(args):
    if args.p is not None and args.path == "fp":
        raise UsageError(f"p={args.p}: C_p(f) is evaluated on the mp path only (drop --path fp)")


def _subsampled_profile(record, mechanism, records, c, axis, p, digits):
    """delta(eps) or eps(delta) of C_p(f) (numeric.subsampling: the larger of the two directions)."""
    from numeric import subsampling
    from numeric.precision import format_number as fmt
    method = "C_p(f): the larger of the remove and add profiles, from the base record's profile"
    base = {"mechanism": mechanism.name, "params": records.shown(c), "p": p}
    if axis == "at_eps":
        payload = {**base, "eps": c["at_eps"], "delta": fmt(subsampling.delta(record, p, c["at_eps"], digits).value,
                                                             digits), "digits": digits, "method": method}
    else:
        payload = {**base, "eps": fmt(subsampling.eps(record, p, c["at_delta"], digits).value, digits),
                   "delta": c["at_delta"], "digits": digits, "method": method}
    return payload, [f"{record}, subsampled at p = {p}: eps = {payload['eps']}, delta = {payload['delta']} ({method})"]


def _fp_rows(records, mechanism, combos, axis):
    """The fp path: one vectorised call per mechanism parameter combination."""
    import numpy as np

    from numeric import fp
    cache = {}

    def compute(c):
        record = records.get(c)
        key = tuple(c[n] for n in mechanism.param_names)
        if key not in cache:
            points = [x[axis] for x in combos if tuple(x[n] for n in mechanism.param_names) == key]
            arr = np.array([float(p) for p in points])
            if axis == "alpha":
                cache[key] = dict(zip(points, zip(fp.tradeoff(record, arr).tolist(),
                                                  fp.power(record, arr).tolist())))
            elif axis == "at_eps":
                cache[key] = dict(zip(points, np.atleast_1d(fp.profile_delta(record, arr)).tolist()))
            else:
                cache[key] = dict(zip(points, np.atleast_1d(fp.profile_eps(record, arr)).tolist()))
        value = _fp_checked(record, axis, c[axis], cache[key][c[axis]])
        base = {"mechanism": mechanism.name, "params": records.shown(c)}
        if axis == "alpha":
            beta, power = value
            payload = {**base, "alpha": c["alpha"], "path": "fp", "beta": repr(beta), "power": repr(power)}
            return payload, [f"{record}  alpha = {c['alpha']}  beta = {beta!r}  power = {power!r}  (float64)"]
        if axis == "at_eps":
            payload = {**base, "eps": c["at_eps"], "delta": repr(value), "path": "fp"}
        else:
            payload = {**base, "eps": repr(value), "delta": c["at_delta"], "path": "fp"}
        return payload, [f"{record}: eps = {payload['eps']}, delta = {payload['delta']} (float64)"]
    return compute


def _fp_checked(record, axis: str, text: str, value):
    """The fp path's value at one point, or a UsageError where float64 changes the answer, not its last digits
    (issue #25's probe): an input that rounds to an end of its range (delta = 0.99999999999999999999 is 1.0, and eps
    came out 0 against 7.9 for laplace(100)), or an eps that overflows (gaussian mu = 1e308 at delta = 1e-10: inf
    against 5.0e+615 on the mp path).  At delta = 0 the value is the mp path's (a closed form, rounded to float64):
    the float search answered eps = 721664.03 for G_1, whose eps(0) is inf."""
    from fractions import Fraction

    from derive.exact import rational
    exact = rational(axis, text)
    x = float(Fraction(int(exact.p), int(exact.q)))
    if axis != "at_eps" and (x in (0.0, 1.0)) and exact not in (0, 1):
        raise UsageError(f"{axis}={text}: rounds to {x} in float64 (--path fp), which changes the answer; "
                         "use --path mp")
    if axis == "at_delta" and exact == 0:
        from numeric import mp
        return float(mp.profile_eps(record, text, 17))
    if axis == "at_delta" and value == float("inf") and 0 < exact < 1:
        from numeric import mp
        if mp.profile_eps(record, text, 17) < float("inf"):
            raise UsageError(f"at_delta={text}: eps exceeds the float64 range (--path fp); use --path mp")
    return value


def cmd_profile(args):
    mechanism, records, given, leftover = setup(args, extra_allowed=("eps", "delta"))
    for name in ("eps", "delta"):
        explicit = getattr(args, f"at_{name}")
        if explicit is not None and name in leftover:
            raise UsageError(f"{name}={','.join(leftover[name])}: the profile's {name} is given twice "
                             f"(--{name} and --at-{name})")
    at = {"at_eps": args.at_eps if args.at_eps is not None else leftover.get("eps"),
          "at_delta": args.at_delta if args.at_delta is not None else leftover.get("delta")}
    if (at["at_eps"] is None) == (at["at_delta"] is None):
        raise UsageError("eps/delta: give exactly one of --at-eps E or --at-delta D for the profile")
    axis = "at_eps" if at["at_eps"] is not None else "at_delta"
    from derive.domains import parse_in
    for v in at[axis]:                       # the leftover --eps/--delta were not checked by a type=
        parse_in(axis, v, axis[3:])
    combos = combinations(args, mechanism.param_names + (axis,), {**given, axis: at[axis]})
    _no_fp_with_p(args)
    if args.path == "fp":
        return run_points(args, combos, _fp_rows(records, mechanism, combos, axis))
    from derive.mechanisms import facts as K
    from numeric import mp
    digits, fmt = args.digits, mp.format_number

    def compute(c):
        record = records.get(c)
        if args.p is not None:
            return _subsampled_profile(record, mechanism, records, c, axis, args.p, digits)
        negative = axis == "at_eps" and c["at_eps"].startswith("-") and float(c["at_eps"]) < 0
        method = (("privacy-loss sum (numeric.discrete_gaussian)" if K.DG_SIGMA2 in record.facts
                   else "closed form") if record.profile is not None and not negative
                  else "numerical supremum of 1 - f - e^eps alpha" + (" (eps < 0)" if negative else ""))
        base = {"mechanism": mechanism.name, "params": records.shown(c)}
        if axis == "at_eps":
            payload = {**base, "eps": c["at_eps"], "delta": fmt(mp.profile_delta(record, c["at_eps"], digits), digits),
                       "digits": digits, "method": method}
        else:
            payload = {**base, "eps": fmt(mp.profile_eps(record, c["at_delta"], digits), digits),
                       "delta": c["at_delta"], "digits": digits, "method": method}
        return payload, [f"{record}: eps = {payload['eps']}, delta = {payload['delta']} ({method})"]
    return run_points(args, combos, compute)


def cmd_latex(args):
    import sympy as sp
    mechanism = lookup(args.mechanism)
    if all(getattr(args, n) is None for n in mechanism.param_names):      # symbolic parameters
        stray = [f"--{f}" for f in MECHANISM_FLAGS if getattr(args, f)]
        if stray:
            raise UsageError(f"{stray[0][2:]}: {stray[0]} is not a parameter of {mechanism.name}")
        given = {}
        record = mechanism.build(None, mechanism_options(args, mechanism))
    else:
        given, _ = mechanism_params(args, mechanism)
        values = one_value_each(given, "latex")
        records = Records(args, mechanism)
        record, given = records.get(values), records.shown(values)
    q = args.quantity
    if q == "tradeoff":
        paper, stable = record.paper, record.tradeoff
    elif q == "power":
        paper = stable = record.power
    else:
        if record.profile is None:
            raise UsageError(f"quantity=profile: {record.name} has no closed-form profile")
        paper = stable = record.profile
    chosen = paper if args.form == "paper" else stable
    payload = {"mechanism": mechanism.name, "params": given, "quantity": q, "form": args.form,
               "latex": sp.latex(paper), "latex_stable": sp.latex(stable),
               "latex_bound": sp.latex(record.bind(stable)), "latex_bound_paper": sp.latex(record.bind(paper)),
               "citation": record.citation}
    emit_one(args, payload, [sp.latex(record.bind(chosen))])
    return 0

