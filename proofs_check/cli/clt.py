"""``clt``: the privacy CLT, its Berry-Esseen band and the Edgeworth approximation of a composition,
beside the exact value or the certified bracket (issue #12 item 2; numeric/clt.py)."""

from __future__ import annotations

from .common import Once, UsageError, as_int, number, run_one, subparser

METHODS = ("clt", "berry-esseen", "edgeworth")


def register(sub):
    from .common import mechanism_help, output_parent
    from .compose_fdp import ENGINE, add_engine_mechanism
    p = subparser(sub, "clt", "privacy CLT, Berry-Esseen band and Edgeworth approximation of a composition",
                  "For symmetric steps f_i (k copies of MECH, or a --spec list): the CLT mu = 2 sum kl / "
                  "sqrt(sum kappa2) (Dong-Roth-Su Thm 3.4), the Berry-Esseen mu_berry_esseen and gamma with the "
                  "band G_mu(alpha + gamma) - gamma <= f(alpha) <= G_mu(alpha - gamma) + gamma (Thm 3.5, constant "
                  "0.56 as catalog 004 recalls it), and the first-order Edgeworth approximation (Wang et al. 2022, "
                  "Prop. 3.2).  Beside them: the exact value (GDP, binomial, k-fold Laplace routes) or the "
                  "certified bracket of the composition engine, the errors error_clt and error_edgeworth, and "
                  "underestimates (whether the CLT value claims more privacy than the truth; null when the bracket "
                  "cannot tell).  --method picks the headline value.  Subsampled steps (--p or --batch/--dataset-size, "
                  "--sampling, or \"p\" in a spec entry): the functionals of C_p(f) (uniform) or of the Poisson "
                  "directions f_p and f_p^-1 by verified quadrature, the certified composition beside them "
                  "(DP-SGD: --noise-multiplier).\n\n" + mechanism_help(tuple(ENGINE)),
                  ["dp-derive clt randomized-response --eps 0.1 --k 100 --alpha 0.1",
                   "dp-derive clt laplace --eps 0.1 --k 10 --at-eps 0.5 --digits 30 --json",
                   "dp-derive clt gaussian --mu 0.5 --k 4 --at-delta 1e-5 --method edgeworth",
                   "dp-derive clt gaussian --noise-multiplier 1.1 --batch 256 --dataset-size 60000 --k 14063 "
                   "--at-delta 1e-5"],
                  parents=[output_parent(formats=("text", "json"))])
    add_engine_mechanism(p)
    p.add_argument("--spec", default=None, action=Once, metavar="FILE.json",
                   help="a heterogeneous list, the format of compose fdp --spec (\"p\" and \"sampling\" subsample "
                        "a gaussian or laplace entry)")
    from .clt_subsampled import add_flags
    add_flags(p)
    q = p.add_mutually_exclusive_group()
    q.add_argument("--alpha", type=number("alpha_open", "alpha"), action=Once,
                   help="f(alpha), alpha in (0, 1): beta (CLT), the band, Edgeworth (at 0 and 1 every f is 1 and 0)")
    q.add_argument("--at-eps", type=number("at_eps", "eps"), action=Once, help="delta(eps)")
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps(delta)")
    p.add_argument("--method", choices=METHODS, default="clt", action=Once,
                   help="the headline value: clt (default), berry-esseen (the band), edgeworth")
    p.set_defaults(func=cmd_clt)


def _reference(plan, args):
    """(kind, lower, upper): 'exact' with lower = upper, or 'bracket' from the engine, or None."""

    from .compose_fdp import _components, _exact_route, exact_query
    digits = args.digits
    route = _exact_route(plan)
    if route is not None:
        which, at = (("tradeoff", args.alpha) if args.alpha is not None else ("delta", args.at_eps)
                     if args.at_eps is not None else ("eps", args.at_delta))
        r = exact_query(route, which, at, digits)
        return ("exact", r.value, r.value, r.complement) if which == "tradeoff" else ("exact", r.value, r.value)
    components, limit = _components(plan)
    if limit is not None or not components:
        return None
    from numeric import pld
    comp = pld.compose(components)
    if args.alpha is not None:
        r = comp.tradeoff(args.alpha)
        return "bracket", r.beta_lower, r.beta_upper
    if args.at_eps is not None:
        r = comp.delta(args.at_eps)
        return "bracket", r.delta_lower, r.delta_upper
    r = comp.eps(args.at_delta)
    return "bracket", r.eps_lower, r.eps_upper


def cmd_clt(args):
    from numeric import clt as C
    from numeric.precision import as_mpf, format_number, format_outward, verified

    from . import clt_subsampled as S
    plan, shown = _plan_of(args)
    plan = S.plan(args, plan)
    if plan[0][3] is not None and args.spec is None:
        shown = {**shown, "p": args.p or f"{args.batch}/{args.dataset_size}", "sampling": plan[0][3][1]}
    digits = args.digits

    def fmt(v):
        return None if v is None else format_number(v, digits)

    def compute():
        import mpmath
        with mpmath.workdps(digits + 20):          # the band's alpha +- gamma and the errors
            return _compute()

    def _compute():
        res, direction, note = S.clt(plan, digits)
        payload = {**shown, "method": args.method, "mu": fmt(res.mu), "mu_berry_esseen": fmt(res.mu_berry_esseen),
                   "gamma": fmt(res.gamma), "kl": fmt(res.kl), "kappa2": fmt(res.kappa2),
                   "kappabar3": fmt(res.kappabar3)}
        if direction is not None:
            payload.update({"direction": direction, "note": note})
        lines = [f"CLT: mu = {payload['mu']}; Berry-Esseen: mu = {payload['mu_berry_esseen']}, "
                 f"gamma = {payload['gamma']}"]
        if args.alpha is None and args.at_eps is None and args.at_delta is None:
            payload["digits"] = digits
            return payload, lines

        def ver(fn):
            def checked():
                out = fn()
                if out is None:
                    raise ValueError("the Edgeworth approximation does not reach the query")
                return out
            return as_mpf(verified(checked, digits), digits + 10)

        if args.alpha is not None:
            approx = C.gdp_beta(res.mu, args.alpha, digits)
            lo, hi = C.band(res, _mpf(args.alpha))
            edge = None if direction else _maybe(lambda: ver(lambda: C.edgeworth_beta(res, _mpf(args.alpha))))
            payload.update({"alpha": args.alpha, "beta": fmt(approx), "beta_band_lower": fmt(lo),
                            "beta_band_upper": fmt(hi), "beta_edgeworth": fmt(edge)})
            key, q = "beta", f"alpha = {args.alpha}"
            more_privacy = 1          # a larger beta claims more privacy
        elif args.at_eps is not None:
            approx = C.gdp_delta(res.mu, args.at_eps, digits)
            edge = None if direction else _maybe(lambda: ver(lambda: C.edgeworth_delta(res, _mpf(args.at_eps))))
            payload.update({"eps": args.at_eps, "delta": fmt(approx), "delta_edgeworth": fmt(edge)})
            key, q, more_privacy = "delta", f"eps = {args.at_eps}", -1
        else:
            approx = C.gdp_eps(res.mu, args.at_delta, digits)
            edge = None if direction else _maybe(lambda: ver(lambda: C.edgeworth_eps(res, _mpf(args.at_delta))))
            payload.update({"delta": args.at_delta, "eps": fmt(approx), "eps_edgeworth": fmt(edge)})
            key, q, more_privacy = "eps", f"delta = {args.at_delta}", -1
        edge_text = payload[key + "_edgeworth"]
        if edge_text is None:
            edge_text = "not computed (Poisson steps are not symmetric)" if direction else "not available"
        lines.append(f"at {q}: {key} (CLT) = {payload[key]}, {key} (Edgeworth) = {edge_text}"
                     + (f", band [{payload['beta_band_lower']}, {payload['beta_band_upper']}]"
                        if args.alpha is not None else ""))
        ref = _reference(plan, args)
        if ref is not None:
            kind, lo_r, hi_r = ref[:3]
            lo_r, hi_r = as_mpf(lo_r, digits + 10), as_mpf(hi_r, digits + 10)
            if kind == "exact":
                payload["exact"] = fmt(lo_r)
                err = _error(approx, lo_r)
                if len(ref) > 3:
                    # beta's error as the powers' difference, p_exact - p_CLT: at alpha = 1e-300 both betas are
                    # 1 - ~1e-285 and their difference was rounding noise of the wrong sign (issue #25's probe)
                    err = _error(as_mpf(ref[3], digits + 10), C.gdp_power(res.mu, args.alpha, digits))
                payload["error_clt"] = fmt(err)
                if edge is not None:
                    payload["error_edgeworth"] = fmt(_error(edge, lo_r))
                under = err * more_privacy > 0
                lines.append(f"exact {key} = {payload['exact']}: CLT error {payload['error_clt']}"
                             + (f", Edgeworth error {payload['error_edgeworth']}" if edge is not None else ""))
            else:
                # rounded outward: the printed bracket holds the computed one
                payload["bracket_lower"], payload["bracket_upper"] = (format_outward(lo_r, digits, False),
                                                                      format_outward(hi_r, digits, True))
                # more privacy claimed than the truth: beta above the bracket, delta or eps below it
                if lo_r <= approx <= hi_r:
                    under = None
                else:
                    under = approx > hi_r if more_privacy > 0 else approx < lo_r
                lines.append(f"certified bracket {key} in [{payload['bracket_lower']}, {payload['bracket_upper']}]")
            payload["underestimates"] = under
            if under is not None:
                lines.append("the CLT value " + ("claims more privacy than the truth (underestimates the loss)"
                                                 if under else "is on the safe side here"))
        payload["digits"] = digits
        return payload, lines
    return run_one(args, compute)


def _plan_of(args):
    """The compose-fdp plan, or gaussian at mu = 1/noise multiplier (exact) for --noise-multiplier."""
    from .clt_subsampled import mechanism_values
    from .compose_fdp import _plan
    values = mechanism_values(args)
    if values is None:
        return _plan(args)
    if args.spec is not None or args.k is None:
        raise UsageError("noise_multiplier: give MECH --noise-multiplier S --k K (no --spec)")
    return ([(args.mechanism, values, as_int(args.k), None)],
            {"mechanism": args.mechanism, "params": {"noise_multiplier": args.noise_multiplier}, "k": args.k})


def _mpf(text):
    """A decimal input string at the working precision (exact to the working precision)."""
    import mpmath

    from derive.exact import rational
    r = rational("value", text)
    return mpmath.mpf(int(r.p)) / int(r.q)


def _error(approx, exact):
    """approx - exact, 0 when they are equal (eps = inf on both sides at delta = 0: inf - inf was NaN)."""
    import mpmath
    return mpmath.mpf(0) if approx == exact else approx - exact


def _maybe(fn):
    """The Edgeworth value, or None when its curve does not reach the query or its digits do not settle."""
    from derive.errors import PrecisionExhausted
    try:
        return fn()
    except (ValueError, PrecisionExhausted):
        return None
