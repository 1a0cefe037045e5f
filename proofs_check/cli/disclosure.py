"""``risk``, ``posterior`` and ``semantics``: Bayesian disclosure risk of a mechanism
(seed 000, de Fondeville 2026) and the posterior semantics of (eps, delta)-DP (seed 002)."""

from __future__ import annotations

from .common import (
    add_mechanism,
    add_points,
    add_sampling_rate,
    combinations,
    mechanism_help,
    number,
    output_parent,
    run_one,
    run_points,
    setup,
    subparser,
)

#: seed 000's defaults (numeric.risk.DEFAULT_ALPHA0 / DEFAULT_PRIOR hold the same values; a test keeps them equal)
DEFAULT_ALPHA0 = "0.01"
DEFAULT_PRIOR = "0.5"

RISK_FIELDS = ("f0", "rho", "rho_alpha0", "power_alpha0", "posterior_alpha0", "one_minus_posterior_alpha0",
               "posterior_sup", "one_minus_posterior_sup")

SEMANTICS_FIELDS = ("eps_prime", "posterior_lower", "posterior_upper", "ratio_lower", "ratio_upper",
                    "difference_bound", "worst_case_prior", "worst_case_prior_down", "probability",
                    "one_minus_posterior_lower", "one_minus_posterior_upper", "ratio_lower_at_prior",
                    "ratio_upper_at_prior", "difference_lower_at_prior", "difference_upper_at_prior")


def register(sub):
    out = output_parent()
    r = subparser(sub, "risk", "f(0), failure class, rho, rho_alpha0 and posterior bounds (seed 000)",
                  "Relative disclosure risk of a mechanism (seed 000, Definitions 4-6): f(0) and the "
                  "failure class (graceful, catastrophic), rho = sup (1 - f(alpha)) / alpha, rho at alpha0, "
                  "and the attacker's posterior at alpha0 and its supremum.\n\n" + mechanism_help(),
                  ["dp-derive risk gaussian --mu 1", "dp-derive risk laplace --eps 1 --alpha0 0.001 --prior 0.1"],
                  parents=[out])
    add_mechanism(r)
    r.add_argument("--alpha0", type=number("alpha0"), default=DEFAULT_ALPHA0,
                   help=f"reference level alpha0 in (0, 1] (default {DEFAULT_ALPHA0})")
    r.add_argument("--prior", type=number("prior"), default=DEFAULT_PRIOR,
                   help=f"prior probability of membership in (0, 1) (default {DEFAULT_PRIOR})")
    add_sampling_rate(r)
    r.set_defaults(func=cmd_risk)

    p = subparser(sub, "posterior", "posterior of membership after a positive test at level alpha",
                  "The attacker's posterior probability of membership after the most powerful test at "
                  "level alpha rejects (seed 000, Eq. 3); alpha = 0 is the limit alpha -> 0+.\n\n"
                  + mechanism_help(),
                  ["dp-derive posterior gaussian --mu 1 --prior 0.5 --alpha 0.01",
                   "dp-derive posterior laplace --eps 1 --prior 0.1 --alpha-grid log:1e-10:0.5:20 --format csv"],
                  parents=[out])
    add_mechanism(p)
    p.add_argument("--prior", type=number("prior"), required=True, help="prior probability of membership, in (0, 1)")
    add_points(p, "alpha", "alpha", "level alpha of the test, in [0, 1]", required=True)
    add_sampling_rate(p)
    p.set_defaults(func=cmd_posterior)

    s = subparser(sub, "semantics", "bounds on posterior, ratio and difference from (eps, delta)-DP",
                  "What (eps, delta)-DP says about the posterior (seed 002, Kifer-Zhang): through "
                  "(eps', delta')-probabilistic DP (Theorem 3.9), with probability >= 1 - delta' the "
                  "posterior lies in the printed interval.  delta' = 1 is allowed but says nothing (the "
                  "probability is 0); the output says so.",
                  ["dp-derive semantics --eps 1 --delta 1e-6 --delta-prime 1e-3",
                   "dp-derive semantics --eps 0.5 --delta 1e-8 --delta-prime 1e-4 --prior 0.01 --json"],
                  parents=[out])
    s.add_argument("--eps", type=number("eps"), required=True, help="eps of the (eps, delta)-DP guarantee, >= 0")
    s.add_argument("--delta", type=number("delta"), required=True, help="delta of the guarantee, in [0, 1)")
    s.add_argument("--delta-prime", type=number("delta_prime", "delta_prime"), required=True,
                   help="delta' of the probabilistic reading, in (0, 1]")
    s.add_argument("--prior", type=number("prior"), default=DEFAULT_PRIOR,
                   help=f"prior probability of membership (default {DEFAULT_PRIOR})")
    s.set_defaults(func=cmd_semantics)


def _fmt_all(out, keys, digits) -> dict:
    """The fields ``keys`` of a result dataclass, each formatted to ``digits`` digits."""
    from numeric.precision import format_number
    return {k: format_number(getattr(out, k), digits) for k in keys}


def cmd_risk(args):
    from numeric import risk
    mechanism, records, given, _ = setup(args)
    digits = args.digits

    def compute(c):
        record = records.get(c)
        if args.p is None:
            out, tex, shown = risk.risk(record, args.alpha0, args.prior, digits), risk.latex(record), {}
        else:
            from numeric import subsampling
            out = subsampling.risk(record, args.p, args.alpha0, args.prior, digits)
            tex, shown = subsampling.risk_latex(record, args.p), {"p": args.p}
        payload = {"mechanism": mechanism.name, "params": records.shown(c), **shown, "alpha0": args.alpha0,
                   "prior": args.prior, "digits": digits, "failure": out.failure,
                   **_fmt_all(out, RISK_FIELDS, digits), "posterior_sup_attained": out.posterior_sup_attained,
                   "f0_exact": str(out.f0_expr), "rho_exact": str(out.rho_expr).replace("oo", "inf"),
                   "f0_method": out.f0_method, "rho_method": out.rho_method, "latex": tex.as_dict()}
        p = payload
        head = f"{record}" + (f", subsampled at p = {args.p} (C_p(f))" if args.p is not None else "")
        return payload, [
            f"{head}  alpha0 = {p['alpha0']}, prior = {p['prior']}",
            f"f(0)             = {p['f0']}  ({p['f0_exact']})",
            f"failure          = {p['failure']}",
            f"rho              = {p['rho']}  ({p['rho_exact']})",
            f"rho_alpha0       = {p['rho_alpha0']}",
            f"power_alpha0     = {p['power_alpha0']}",
            f"posterior_alpha0 = {p['posterior_alpha0']}  (1 - it = {p['one_minus_posterior_alpha0']})",
            f"posterior_sup    = {p['posterior_sup']}  (1 - it = {p['one_minus_posterior_sup']}, "
            f"{'attained' if p['posterior_sup_attained'] else 'not attained'})"]
    return run_points(args, combinations(args, mechanism.param_names, given), compute)


def cmd_posterior(args):
    from numeric import risk
    mechanism, records, given, _ = setup(args)
    digits = args.digits

    def compute(c):
        record = records.get(c)
        if args.p is None:
            out, shown = risk.posterior(record, args.prior, c["alpha"], digits), {}
        else:
            from numeric import subsampling
            out, shown = subsampling.posterior(record, args.p, args.prior, c["alpha"], digits), {"p": args.p}
        payload = {"mechanism": mechanism.name, "params": records.shown(c), **shown, "prior": args.prior,
                   "alpha": c["alpha"], "digits": digits, **_fmt_all(out, ("posterior", "one_minus_posterior"), digits)}
        if out.at_zero is not None:
            payload["note"] = "alpha = 0: the limit alpha -> 0+"
        return payload, [f"{record}  prior = {payload['prior']}, alpha = {payload['alpha']}",
                         f"posterior     = {payload['posterior']}",
                         f"1 - posterior = {payload['one_minus_posterior']}"]
    return run_points(args, combinations(args, mechanism.param_names + ("alpha",), given), compute)


def cmd_semantics(args):
    from numeric.semantics import semantics

    def compute():
        out = semantics(args.eps, args.delta, args.delta_prime, args.prior, args.digits)
        p = {"eps": args.eps, "delta": args.delta, "delta_prime": args.delta_prime, "prior": args.prior,
             "digits": args.digits, **_fmt_all(out, SEMANTICS_FIELDS, args.digits)}
        lines = [
            f"(eps, delta) = ({p['eps']}, {p['delta']})-DP implies ({p['eps_prime']}, {p['delta_prime']})-PDP "
            f"(Theorem 3.9); with probability >= {p['probability']}:",
            f"posterior in [{p['posterior_lower']}, {p['posterior_upper']}] at prior {p['prior']}",
            f"posterior/prior in [{p['ratio_lower']}, {p['ratio_upper']}] (every prior; "
            f"[{p['ratio_lower_at_prior']}, {p['ratio_upper_at_prior']}] at prior {p['prior']})",
            f"|posterior - prior| <= {p['difference_bound']} (every prior; worst case at prior "
            f"{p['worst_case_prior']} upward, {p['worst_case_prior_down']} downward)"]
        if _is_one(args.delta_prime):
            p["note"] = ("delta' = 1: the bounds hold with probability 0, so they say nothing; "
                         "choose delta' < 1")
            lines.insert(0, "note: " + p["note"])
        return p, lines
    return run_one(args, compute)


def _is_one(text: str) -> bool:
    from derive.exact import rational
    return rational("delta_prime", text) == 1
