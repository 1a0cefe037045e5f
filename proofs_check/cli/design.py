"""``compose``, ``select`` and ``ztest``: composition of pure DP and of zCDP (seed 002),
privacy-first choice of a parameter and utility-first Z-test design (seed 000 Sec. 5)."""

from __future__ import annotations

from derive.mechanisms.table import SELECT, with_capability

from . import compose_fdp
from .common import (
    Parser,
    UsageError,
    lookup,
    mechanism_help,
    number,
    output_parent,
    run_one,
    subparser,
)

SELECT_MECHANISMS = with_capability(SELECT)
TARGETS = ("rho", "rho-alpha0", "power")      # numeric.design.TARGETS; a test keeps them equal
METHODS = ("basic", "advanced", "optimal")     # numeric.composition.METHODS
CONVERSIONS = ("bun-steinke", "cks")           # numeric.composition.CONVERSIONS
DEFAULT_CONVERSION = "cks"
DEFAULT_SELECT_ALPHA0 = "0.01"


def _rho(text: str) -> str:
    """--rho: a number >= 0, or inf (no privacy)."""
    t = text.strip()
    if t.lower() in ("inf", "+inf", "infinity"):
        return "inf"
    return number("rho")(t)


_rho.__name__ = "rho"
_rho.valid = "a number >= 0, or inf"


def register(sub):
    out = output_parent()
    c = subparser(sub, "compose", "composition: pure DP, zCDP, or trade-off functions (fdp)",
                  "compose pure: k eps0-DP mechanisms by basic (k eps0, no delta needed), advanced "
                  "(Dwork-Rothblum-Vadhan 2010: eps0 sqrt(2 k log(1/delta)) + k eps0 (e^eps0 - 1); note that "
                  "dp_accounting's 'advanced composition' is the optimal Kairouz-Oh-Viswanath bound, our "
                  "--method optimal) or optimal (Kairouz-Oh-Viswanath / Murtagh-Vadhan) composition.\n"
                  "compose zcdp: k rho-zCDP releases are k rho-zCDP, converted to (eps, delta)-DP by "
                  "Canonne-Kamath-Steinke 2020 (cks, the default) or Bun-Steinke 2016.\n"
                  "compose fdp: the trade-off function of a composition (seed 004), as a certified two-sided "
                  "bracket from the privacy-loss engine (numeric/pld.py).",
                  ["dp-derive compose pure --eps 0.1 --k 100 --method basic",
                   "dp-derive compose pure --eps 0.1 --k 100 --delta 1e-6 --method optimal",
                   "dp-derive compose zcdp --rho 0.01 --k 50 --delta 1e-6",
                   "dp-derive compose fdp laplace --eps 0.1 --k 10 --at-delta 1e-6"])
    kinds = c.add_subparsers(dest="kind", metavar="KIND", parser_class=Parser, required=True,
                             help="pure, zcdp or fdp (each has its own --help)")
    pure = subparser(kinds, "pure", "k eps0-DP mechanisms: basic, advanced or optimal composition",
                     "(eps, delta) of k eps0-DP mechanisms.  --method advanced is Dwork-Rothblum-Vadhan's "
                     "bound; dp_accounting's 'advanced composition' is the optimal (Kairouz-Oh-Viswanath) one, "
                     "our --method optimal.  delta = 0 is k eps0 for basic and optimal.",
                     ["dp-derive compose pure --eps 0.1 --k 100 --method basic",
                      "dp-derive compose pure --eps 0.1 --k 100 --delta 1e-6 --method optimal"], parents=[out])
    pure.add_argument("--eps", type=number("eps_positive", "eps"), required=True,
                      help="eps0 > 0 of each pure-DP mechanism")
    pure.add_argument("--k", type=number("k"), required=True, help="number of mechanisms, an integer >= 1")
    pure.add_argument("--delta", type=number("delta"), default=None,
                      help="target delta in [0, 1) (not needed by --method basic)")
    pure.add_argument("--method", choices=METHODS, required=True, help="basic, advanced or optimal")
    pure.set_defaults(func=cmd_compose)
    zc = subparser(kinds, "zcdp", "k rho-zCDP releases converted to (eps, delta)-DP",
                   "k rho-zCDP releases are k rho-zCDP (Bun-Steinke 2016), converted to (eps, delta)-DP by "
                   "Canonne-Kamath-Steinke 2020 (cks, the default) or Bun-Steinke 2016.  rho = 0 gives eps = 0; "
                   "rho = inf or delta = 0 give eps = inf.",
                   ["dp-derive compose zcdp --rho 0.01 --k 50 --delta 1e-6",
                    "dp-derive compose zcdp --rho 0.5 --k 1 --delta 1e-5 --conversion bun-steinke"], parents=[out])
    zc.add_argument("--rho", type=_rho, required=True, help="rho >= 0 of each release, or inf")
    zc.add_argument("--k", type=number("k"), required=True, help="number of releases, an integer >= 1")
    zc.add_argument("--delta", type=number("delta"), required=True, help="target delta in [0, 1)")
    zc.add_argument("--conversion", choices=CONVERSIONS, default=None,
                    help=f"zCDP to (eps, delta) conversion (default {DEFAULT_CONVERSION})")
    zc.set_defaults(func=cmd_compose)
    compose_fdp.register(kinds, out)

    s = subparser(sub, "select", "privacy-first choice of mu or eps",
                  "The parameter of a one-parameter mechanism that meets a disclosure target "
                  "(seed 000, Sec. 5.1): rho, rho at alpha0, or the attack power at alpha0, solved by SymPy.\n\n"
                  + mechanism_help(SELECT_MECHANISMS),
                  ["dp-derive select gaussian --target power --value 0.05",
                   "dp-derive select laplace --target rho-alpha0 --value 2 --alpha0 0.001",
                   "dp-derive select noise --family logistic --target power --value 0.1"],
                  parents=[out])
    s.add_argument("mechanism", metavar="MECH", choices=SELECT_MECHANISMS,
                   help="one of: " + ", ".join(SELECT_MECHANISMS))
    s.add_argument("--family", choices=("logistic", "laplace", "gaussian"), default=None,
                   help="noise family (noise only)")
    s.add_argument("--target", choices=TARGETS, required=True,
                   help="rho (relative disclosure risk), rho-alpha0 (rho at alpha0) or power (at alpha0)")
    s.add_argument("--value", required=True, help="the target's value (a number; its range depends on --target)")
    s.add_argument("--alpha0", type=number("alpha0_open", "alpha0"), default=None,
                   help=f"reference level in (0, 1) for rho-alpha0 and power (default {DEFAULT_SELECT_ALPHA0})")
    s.set_defaults(func=cmd_select)

    z = subparser(sub, "ztest", "utility-first: power of the Z-test on a Gaussian-mechanism mean",
                  "Power of the one-sided Z-test of a mean released by the Gaussian mechanism (seed 000, "
                  "Sec. 5.2), against the unprotected test; or (--min-mu) the smallest mu keeping the power "
                  "above a target.",
                  ["dp-derive ztest --n 1000 --sigma 1 --m 0.1 --alpha 0.05 --mu 1",
                   "dp-derive ztest --n 1000 --sigma 1 --m 0.1 --alpha 0.05 --min-mu --max-relative-loss 0.1"],
                  parents=[out])
    z.add_argument("--n", type=number("n"), required=True, help="sample size, an integer >= 1")
    z.add_argument("--sigma", type=number("sigma"), required=True, help="standard deviation of the data, > 0")
    z.add_argument("--m", type=number("m"), required=True, help="effect size (mean under the alternative), > 0")
    z.add_argument("--alpha", type=number("alpha_open", "alpha"), required=True, help="level of the test, in (0, 1)")
    z.add_argument("--mu", type=number("mu_positive", "mu"), default=None, help="GDP parameter of the release, > 0")
    z.add_argument("--min-mu", action="store_true", help="find the smallest mu meeting the power target")
    z.add_argument("--max-relative-loss", type=number("max_relative_loss"), default=None,
                   help="with --min-mu: largest relative loss of power, in (0, 1)")
    z.add_argument("--min-power", type=number("min_power"), default=None,
                   help="with --min-mu: smallest power, in (0, 1)")
    z.add_argument("--delta-q", type=number("delta_q"), default=None,
                   help="sensitivity of the mean, > 0 (default 1/n)")
    z.set_defaults(func=cmd_ztest)


def cmd_compose(args):
    from numeric import composition
    from numeric.precision import format_number
    digits = args.digits

    def compute():
        if args.kind == "pure":
            if args.method != "basic" and args.delta is None:
                raise UsageError(f"delta: --delta is required for --method {args.method}")
            out = composition.compose_pure(args.eps, args.k, args.delta, args.method, digits)
            payload = {"kind": "pure", "eps0": args.eps, "k": args.k, "method": args.method, "digits": digits,
                       "eps": format_number(out.eps, digits),
                       "delta": "0" if args.method == "basic" else args.delta}
        else:
            conversion = args.conversion or DEFAULT_CONVERSION
            out = composition.zcdp_to_dp(args.rho, args.k, args.delta, conversion, digits)
            payload = {"kind": "zcdp", "rho": args.rho, "k": args.k, "delta": args.delta,
                       "conversion": conversion, "digits": digits, "eps": format_number(out.eps, digits),
                       "rho_total": format_number(out.rho_total, digits)}
            if args.conversion is None:
                payload["conversion_default"] = True
            if out.bun_steinke is not None:
                payload["eps_bun_steinke"] = format_number(out.bun_steinke, digits)
        if out.note:
            payload["note"] = out.note
        conv = (f", conversion {payload['conversion']}" + (" (the default)" if args.conversion is None else "")
                if args.kind == "zcdp" else "")
        return payload, [f"eps = {payload['eps']}, delta = {payload['delta']}{conv}"
                         + (f"  ({payload['note']})" if "note" in payload else "")]
    return run_one(args, compute)


def cmd_select(args):
    import sympy as sp

    from numeric import design
    from numeric.precision import format_number
    digits = args.digits
    mechanism = lookup(args.mechanism)
    options = {o.name for o in mechanism.options}
    if "family" in options and args.family is None:
        raise UsageError("family: --family is required for noise (one of logistic, laplace, gaussian)")
    if "family" not in options and args.family is not None:
        raise UsageError(f"family={args.family}: --family applies to the noise mechanism only")
    alpha0 = args.alpha0
    if args.target != "rho" and alpha0 is None:
        alpha0 = DEFAULT_SELECT_ALPHA0
    if args.target == "rho" and alpha0 is not None:
        raise UsageError(f"alpha0={alpha0}: --alpha0 applies to --target rho-alpha0 and power only")

    def compute():
        record = mechanism.build(None, {"family": args.family} if args.family else {})
        out = design.select(record, args.target, args.value, alpha0, digits)
        name = out.parameter
        payload = {"mechanism": mechanism.name, "target": args.target, "value": args.value.strip(),
                   "alpha0": alpha0, "digits": digits, name: format_number(out.value, digits),
                   "parameter": name, "equation": str(out.equation), "solution": str(out.expr),
                   "solution_latex": sp.latex(out.expr)}
        if args.family:
            payload["family"] = args.family
        at = ""
        if alpha0 is not None:
            at = f" at alpha0 = {alpha0}" + (" (the default)" if args.alpha0 is None else "")
            if args.alpha0 is None:
                payload["alpha0_default"] = True
        return payload, [f"{name} = {payload[name]}   ({name} = {payload['solution']}){at}"]
    return run_one(args, compute)


def cmd_ztest(args):
    from numeric import design
    from numeric.precision import format_number
    digits = args.digits
    base = {"n": args.n, "sigma": args.sigma, "m": args.m, "alpha": args.alpha, "digits": digits}
    if args.delta_q is not None:
        base["delta_q"] = args.delta_q

    def fmt_all(out, keys):
        return {k: format_number(getattr(out, k), digits) for k in keys}

    def compute():
        if args.min_mu:
            if args.mu is not None:
                raise UsageError(f"mu={args.mu}: give either --mu or --min-mu, not both")
            if (args.max_relative_loss is None) == (args.min_power is None):
                raise UsageError("max_relative_loss: --min-mu needs --max-relative-loss L (or --min-power P)")
            out = design.ztest_min_mu(args.n, args.sigma, args.m, args.alpha, args.max_relative_loss,
                                      args.min_power, args.delta_q, digits)
            mu = out.mu
            payload = {**base, "mu": "0" if mu == 0 else format_number(mu, digits),
                       **fmt_all(out, ("power_unprotected", "target_power"))}
            if args.max_relative_loss is not None:
                payload["max_relative_loss"] = args.max_relative_loss
            else:
                payload["min_power"] = args.min_power
            if out.note is not None:
                payload["note"] = out.note
            return payload, [f"mu_min = {payload['mu']}  (target power {payload['target_power']}, "
                             f"unprotected {payload['power_unprotected']})"]
        if args.mu is None:
            raise UsageError("mu: give --mu MU, or --min-mu with --max-relative-loss L")
        if args.max_relative_loss is not None or args.min_power is not None:
            raise UsageError("max_relative_loss: --max-relative-loss and --min-power go with --min-mu")
        out = design.ztest(args.n, args.sigma, args.m, args.alpha, args.mu, args.delta_q, digits)
        payload = {**base, "mu": args.mu, **fmt_all(out, ("power", "power_unprotected", "one_minus_power",
                                                          "one_minus_power_unprotected", "relative_loss", "sigma_n"))}
        return payload, [f"power = {payload['power']}  (unprotected {payload['power_unprotected']}, "
                         f"relative loss {payload['relative_loss']})",
                         f"1 - power = {payload['one_minus_power']}  "
                         f"(unprotected {payload['one_minus_power_unprotected']})"]
    return run_one(args, compute)


__all__ = ["register", "mechanism_help"]
