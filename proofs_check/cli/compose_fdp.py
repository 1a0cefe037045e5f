"""``compose fdp``: the trade-off function of a composition (issue #9; seed 004 Sec. 3.3).

Components come from MECH PARAMS --k K, or from a spec file (derive/spec.py).  The value is a
two-sided bracket from the certified privacy-loss engine (numeric/pld.py, numeric/pld_mechanisms.py):
at --alpha: beta, beta_lower, beta_upper, power = 1 - beta_lower; at --at-eps: delta, delta_lower,
delta_upper; at --at-delta: eps, eps_lower, eps_upper.  The unsuffixed value is the privacy-safe end.
``certified`` is the engine's (proved up to the two floating-point assumptions its docstring states);
``method`` is "numeric".  The exact routes of item 2 (GDP, binomial, Kairouz-Oh-Viswanath, k-fold
Laplace) are not wired here yet: ``--method exact`` says so.
"""

from __future__ import annotations

import time

from .common import (Once, UsageError, add_mechanism, mechanism_help, mechanism_params, number, run_one,
                     subparser)

#: table name -> numeric.pld_mechanisms constructor, parameters in order
ENGINE = {"gaussian": ("gaussian", ("mu",)), "laplace": ("laplace", ("eps",)),
          "randomized-response": ("randomized_response", ("eps",)), "approx-dp": ("eps_delta", ("eps", "delta"))}


def register(kinds, out):
    f = subparser(kinds, "fdp", "the composed trade-off function: a certified bracket",
                  "k-fold (or heterogeneous, --spec) composition of trade-off functions, evaluated by the "
                  "certified privacy-loss engine: a two-sided bracket that contains the exact value "
                  "(beta_lower <= f(alpha) <= beta_upper, and the same for delta and eps); the unsuffixed "
                  "value is the privacy-safe end.  Mechanisms: " + ", ".join(ENGINE) + "; a spec entry may "
                  "subsample a gaussian with \"p\" (Poisson).\n\n" + mechanism_help(tuple(ENGINE)),
                  ["dp-derive compose fdp laplace --eps 0.1 --k 10 --at-delta 1e-6",
                   "dp-derive compose fdp gaussian --mu 0.5 --k 100 --alpha 1e-10 --json",
                   "dp-derive compose fdp --spec spec.json --at-eps 1"], parents=[out])
    f.add_argument("mechanism", metavar="MECH", nargs="?", choices=tuple(ENGINE),
                   help="one of: " + ", ".join(ENGINE) + " (or give --spec)")
    from .common import MECHANISM_FLAGS, _FLAG_MEANING, _MechanismValue, numbers
    for name in MECHANISM_FLAGS:
        f.add_argument(f"--{name}", type=numbers(None, name), action=_MechanismValue, default=None,
                       metavar=name.upper(), help=_FLAG_MEANING[name])
    f.add_argument("--k", type=number("count", "k"), default=None, help="how many copies (with MECH)")
    f.add_argument("--spec", default=None, action=Once, metavar="FILE.json",
                   help='a heterogeneous list: {"mechanisms": [{"mechanism": "gaussian", "mu": "0.5", '
                        '"count": 10}, ...]} (same names as the flags; "p" subsamples a gaussian)')
    q = f.add_mutually_exclusive_group(required=True)
    q.add_argument("--alpha", type=number("alpha"), action=Once, help="f(alpha) and the power at level alpha")
    q.add_argument("--at-eps", type=number("at_eps", "eps"), action=Once, help="delta(eps)")
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps(delta)")
    f.add_argument("--method", choices=("exact", "numeric", "auto"), default="auto",
                   help="numeric: the certified engine; exact: not available yet; auto (default): numeric")
    f.set_defaults(func=cmd_fdp)


#: below this a parameter is refused: the engine's loss grid cannot resolve the step
SMALLEST = "1e-8"


def _plan(args):
    """[(table name, {param: text}, count, p or None)] and what the payload echoes."""
    if args.spec is not None:
        if args.mechanism is not None or args.k is not None:
            raise UsageError("spec: give either --spec or MECH PARAMS --k K, not both")
        from derive.spec import read_spec
        plan = []
        for i, comp in enumerate(read_spec(args.spec)):
            name = comp.mechanism.name
            if comp.p is not None and (name != "gaussian" or comp.sampling != "poisson"):
                raise UsageError(f"mechanisms[{i}].p: the engine subsamples gaussian entries with Poisson "
                                 "sampling only")
            if name not in ENGINE:
                raise UsageError(f"mechanisms[{i}].mechanism={name}: the engine composes {', '.join(ENGINE)}")
            plan.append((name, dict(comp.params), comp.count, comp.p))
        return plan, {"spec": args.spec}
    if args.mechanism is None:
        raise UsageError("mechanism: give MECH PARAMS --k K, or --spec FILE.json")
    if args.k is None:
        raise UsageError("k: --k K is required with MECH")
    from derive.mechanisms.table import BY_NAME
    mechanism = BY_NAME[args.mechanism]
    given, _ = mechanism_params(args, mechanism)
    if any(len(v) != 1 for v in given.values()):
        raise UsageError("compose fdp takes one value per mechanism parameter")
    values = {k: v[0] for k, v in given.items()}
    mechanism.build(values)                     # the domain checks of the record (one table)
    return [(args.mechanism, values, int(args.k), None)], {"mechanism": args.mechanism, "params": values,
                                                           "k": args.k}


def _delta_zero(plan, args):
    """eps at delta = 0: the sum of count * eps when every step is pure DP (Laplace, randomized
    response, (eps, 0)-DP: their privacy loss is bounded by eps), else inf (a Gaussian loss is
    unbounded; an (eps, delta > 0) step has a loss of +inf with probability delta)."""
    from derive.exact import rational
    total = 0
    for name, values, count, p in plan:
        if name == "gaussian" or (name == "approx-dp" and rational("delta", values["delta"]) > 0):
            return "no-pure"
        total += count * rational("eps", values["eps"])
    args._pure_eps = total
    return "pure"


def _privacy_parameter(name, values):
    """The parameter whose 0 means perfect privacy and inf no privacy (mu or eps)."""
    return values["mu"] if name == "gaussian" else values["eps"]


def _components(plan):
    """Engine components, or the exact answer when a limit decides it: a component with parameter 0
    is Id, the identity of the tensor product (dropped); one with parameter inf makes the whole
    composition f = 0 (no privacy)."""
    from fractions import Fraction

    from derive.mechanisms.table import is_infinite
    from numeric import pld_mechanisms as M
    out = []
    for name, values, count, p in plan:
        theta = _privacy_parameter(name, values)
        if is_infinite(theta):
            return None, "no-privacy"
        if Fraction(theta) == 0 or (name == "approx-dp" and Fraction(values["eps"]) == 0
                                    and Fraction(values["delta"]) == 0):
            continue
        if Fraction(theta) < Fraction(SMALLEST):
            raise UsageError(f"{'mu' if name == 'gaussian' else 'eps'}={theta}: the engine needs a parameter "
                             f">= {SMALLEST} or exactly 0 (its loss grid cannot resolve smaller steps)")
        if p is not None:
            out.append((M.subsampled_gaussian(str(p), str(1 / Fraction(theta))), count))
            continue
        ctor, params = ENGINE[name]
        out.append((getattr(M, ctor)(*[values[q] for q in params]), count))
    return out, ("identity" if not out else None)


def _exact_limit(kind, args):
    """The answers of f = Id (perfect privacy) and f = 0 (no privacy), and eps at delta = 0, exactly."""
    from derive.exact import rational
    if kind in ("pure", "no-pure"):
        return {"eps": args._pure_eps if kind == "pure" else "inf"}
    if kind == "delta-one":
        return {"eps": 0}
    if kind == "identity":
        if args.alpha is not None:
            beta = 1 - rational("alpha", args.alpha)
            return {"beta": beta, "power": 1 - beta}
        if args.at_eps is not None:
            return {"delta": 0}
        return {"eps": 0}
    if args.alpha is not None:
        return {"beta": 0, "power": 1}
    if args.at_eps is not None:
        return {"delta": 1}
    return {"eps": "inf"}


def cmd_fdp(args):
    from numeric import pld
    from numeric.precision import format_number
    if args.method == "exact":
        raise UsageError("method=exact: the exact routes (issue #9 item 2) are not wired to the CLI yet; "
                         "use --method numeric (a certified bracket)")
    plan, shown = _plan(args)
    components, limit = _components(plan)
    if limit is None and args.at_delta is not None and float(args.at_delta) == 0:
        limit = _delta_zero(plan, args)
    if limit is None and args.at_delta is not None and float(args.at_delta) == 1:
        limit = "delta-one"
    digits = min(args.digits, 15)

    def fmt(v):
        return format_number(v, digits)

    def compute():
        t0 = time.perf_counter()
        if limit is not None:
            return _limit_payload(limit, args, shown, t0)
        base = {**shown, "method": "numeric"}
        try:
            comp = pld.compose(components)
            if args.alpha is not None:
                r = comp.tradeoff(args.alpha)
            elif args.at_eps is not None:
                r = comp.delta(args.at_eps)
            else:
                r = comp.eps(args.at_delta)
        except MemoryError:
            raise UsageError("k: the composition's loss grid does not fit in memory (numpy could not allocate "
                             "it); use fewer compositions") from None
        if args.alpha is not None:
            payload = {**base, "alpha": args.alpha, "beta": fmt(r.beta), "beta_lower": fmt(r.beta_lower),
                       "beta_upper": fmt(r.beta_upper), "power": fmt(r.power)}
            line = (f"beta in [{payload['beta_lower']}, {payload['beta_upper']}] at alpha = {args.alpha}, "
                    f"power = {payload['power']}")
        elif args.at_eps is not None:
            payload = {**base, "eps": args.at_eps, "delta": fmt(r.delta), "delta_lower": fmt(r.delta_lower),
                       "delta_upper": fmt(r.delta_upper)}
            line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
        else:
            payload = {**base, "delta": args.at_delta, "eps": fmt(r.eps), "eps_lower": fmt(r.eps_lower),
                       "eps_upper": fmt(r.eps_upper)}
            line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
        payload.update({"certified": bool(r.certified), "seconds": round(time.perf_counter() - t0, 3),
                        "digits": digits})
        if r.reason:
            payload["reason"] = r.reason
        lines = [line + ("  (certified)" if r.certified else f"  (not certified: {r.reason})")]
        return payload, lines
    return run_one(args, compute)


def _limit_payload(limit, args, shown, t0):
    from derive.exact import _show, rational
    values = {k: (v if v == "inf" else _show(rational(k, v) if isinstance(v, int) else v))
              for k, v in _exact_limit(limit, args).items()}
    what = {"identity": "every component has parameter 0: f = Id, perfect privacy",
            "no-privacy": "a component has an infinite parameter: f = 0, no privacy",
            "pure": "delta = 0: the composition of pure-DP steps is pure, eps = the sum of k eps",
            "no-pure": "delta = 0: a Gaussian or (eps, delta > 0) step is not pure DP, eps = inf",
            "delta-one": "delta = 1: every mechanism is (0, 1)-DP, eps = 0"}[limit]
    payload = {**shown, "method": "exact", "certified": True, "note": what}
    for key, value in values.items():
        payload.update({key: value, f"{key}_lower": value, f"{key}_upper": value})
    payload.pop("power_lower", None)
    payload.pop("power_upper", None)
    for key in ("alpha", "at_eps", "at_delta"):
        if getattr(args, key) is not None:
            payload[{"alpha": "alpha", "at_eps": "eps", "at_delta": "delta"}[key]] = getattr(args, key)
    payload["seconds"] = round(time.perf_counter() - t0, 3)
    return payload, [", ".join(f"{k} = {v}" for k, v in values.items()) + f"  ({what})"]
