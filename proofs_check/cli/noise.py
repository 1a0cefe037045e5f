"""``cnd``: the canonical noise distribution of a symmetric trade-off function (issue #12 item 4;
seed 004 Sec. 3.2, Awan and Vadhan 2023)."""

from __future__ import annotations

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

#: the most significant digits cnd computes (--x, --quantile)
CND_DIGITS = 200


def register(sub):
    p = subparser(sub, "cnd", "canonical noise distribution of f: CDF, quantile or samples",
                  "The Awan-Vadhan canonical noise distribution N of a symmetric trade-off function f "
                  "(T(N, N + 1) = f), built from f's fixed point c = f(c): linear on [-1/2, 1/2], extended "
                  "by F(x) = 1 - f(F(x - 1)) and its mirror.  CNDs are not unique (for G_mu, N(0, 1/mu^2) "
                  "is another); the output says so.\n\n" + mechanism_help(),
                  ["dp-derive cnd gaussian --mu 1 --x 1.5",
                   "dp-derive cnd randomized-response --eps 1 --quantile 0.99 --digits 30",
                   "dp-derive cnd laplace --eps 1 --sample 5 --seed 1 --json"],
                  parents=[output_parent(formats=("text", "json"))])
    add_mechanism(p, lists=False)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--x", type=number("y", "x"), action=Once, help="evaluate the CDF F(x) (and 1 - F(x)) at x")
    what.add_argument("--quantile", type=number("alpha_open", "quantile"), metavar="U", action=Once,
                      help="evaluate the quantile F^{-1}(U), U in (0, 1)")
    what.add_argument("--sample", type=number("samples", "sample"), metavar="N", action=Once,
                      help="draw N samples (float64, inverse CDF), N <= 10^8")
    p.add_argument("--seed", type=number("seed"), default=None, action=Once, help="seed of numpy's default generator (with --sample)")
    p.set_defaults(func=cmd_cnd)


def cmd_cnd(args):
    from numeric import cnd
    from numeric.precision import format_number
    mechanism = lookup(args.mechanism)
    given, _ = mechanism_params(args, mechanism)
    values = one_value_each(given, "cnd")
    records = Records(args, mechanism)
    if args.seed is not None and args.sample is None:
        raise UsageError(f"seed={args.seed}: --seed goes with --sample")
    digits = args.digits
    if digits > CND_DIGITS and args.sample is None:
        from derive.errors import DomainError
        raise DomainError("digits", digits, f"at most {CND_DIGITS} for cnd (its fixed point and root searches took "
                                            "9 s at 300 digits and over 70 s at 1000)")

    def compute():
        record = records.get(values)
        base = {"mechanism": mechanism.name, "params": records.shown(values), "digits": digits,
                "fixed_point": format_number(cnd.fixed_point(record, digits), digits), "note": cnd.NOTE}
        if args.x is not None:
            out = cnd.cdf(record, args.x, digits)
            payload = {**base, "x": args.x, "cdf": format_number(out.cdf, digits),
                       "survival": format_number(out.survival, digits)}
            lines = [f"{record}: F({args.x}) = {payload['cdf']}, 1 - F = {payload['survival']}"]
        elif args.quantile is not None:
            payload = {**base, "quantile": args.quantile,
                       "x": format_number(cnd.quantile(record, args.quantile, digits), digits)}
            lines = [f"{record}: F^-1({args.quantile}) = {payload['x']}"]
        else:
            seed = None if args.seed is None else as_int(args.seed)     # checked by number("seed")
            draws = cnd.sample(record, args.sample, seed)
            payload = {**base, "samples": [repr(float(v)) for v in draws], "seed": seed}
            payload.pop("digits")
            lines = [" ".join(payload["samples"])]
        return payload, lines + [f"note: {cnd.NOTE}"]
    return run_one(args, compute)
