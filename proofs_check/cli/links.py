"""``functional`` and ``link``: functionals and link functions of a trade-off function (issue #12
items 1 and 3; seed 004, catalog 004 Sec. 1.1 and Sec. 3).  The numbers come from
``numeric.functionals``; nothing here imports SymPy or mpmath until a command runs."""

from __future__ import annotations

from .common import (
    UsageError,
    add_mechanism,
    combinations,
    mechanism_help,
    numbers,
    output_parent,
    run_points,
    setup,
    subparser,
)

#: copies of numeric.functionals.NAMES / LINKS / METHODS (--help loads no SymPy; a test keeps them equal)
NAMES = ("kl", "kappa2", "kappa3", "kappabar3", "mu3", "tv", "renyi")
LINKS = ("pure", "approx", "renyi", "zcdp", "kl", "tv")
METHODS = ("auto", "sympy", "quadrature")
#: the JSON field that carries the value of each link
LINK_FIELD = {"pure": "eps", "approx": "eps", "renyi": "renyi", "zcdp": "rho", "kl": "kl", "tv": "tv"}

_DEFINITIONS = """\
definitions (g = log|f'(x)|, x uniform on [0, 1]; catalog 004 Sec. 1.1 and 3):
  kl        = -int g                      (= KL(P||Q) for f = T(P, Q))
  kappa2    =  int g^2
  kappa3    =  int |g|^3
  kappabar3 =  int |g + kl|^3
  mu3       =  int (g + kl)^3                (signed: the third cumulant of the privacy loss)
  renyi     =  1/(L - 1) log int |f'|^(1 - L), order L > 1
  tv        =  1 + f*(-1) = max_x (1 - x - f(x))
A functional that is infinite (f = 0 on [x0, 1], e.g. approx-dp with delta > 0) is an error that
says why (exit 2)."""


def _method_flag(p):
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="auto (default): SymPy's closed form where it applies, else quadrature; sympy: the "
                        "closed form or an error; quadrature: mpmath quadrature of the definition")


def register(sub):
    out = output_parent(formats=("text", "json", "jsonl", "csv"))
    f = subparser(sub, "functional", "kl, kappa2, kappa3, kappabar3, tv or Renyi of a trade-off function",
                  "A functional of the mechanism's trade-off function f, with how it was obtained: "
                  "'sympy' (a closed form derived from the definition, printed in LaTeX) or 'quadrature' "
                  "(mpmath tanh-sinh quadrature of the definition), verified at two precisions.\n\n"
                  + _DEFINITIONS + "\n\n" + mechanism_help(),
                  ["dp-derive functional gaussian --mu 1 --name kl",
                   "dp-derive functional laplace --eps 1 --name renyi --order 2 --json",
                   "dp-derive functional noise --family logistic --mu 1 --name kappa3 --digits 30"],
                  parents=[out])
    add_mechanism(f)
    f.add_argument("--name", choices=NAMES, required=True, help="which functional (definitions above)")
    f.add_argument("--order", type=numbers("order", "order"), metavar="L",
                   help="order L > 1 of the Renyi divergence (with --name renyi; a comma list gives several)")
    _method_flag(f)
    f.set_defaults(func=cmd_functional)

    k = subparser(sub, "link", "pure eps, eps at delta, Renyi, zCDP rho, KL or TV of a trade-off function",
                  "The link functions of catalog 004 Sec. 1.1, from the mechanism's trade-off function f:\n"
                  "  pure   eps = max(log(-f'(0+)), -log(-f'(1-))); inf when f(0) < 1 or a slope is 0 or inf\n"
                  "  approx eps at --at-delta D: the root of 1 + f*(-e^eps) = D (the privacy profile)\n"
                  "  renyi  D_L = 1/(L - 1) log int |f'|^(1 - L), order --order L > 1\n"
                  "  zcdp   rho = sup over L > 1 of D_L / L\n"
                  "  kl     -int log|f'|;  tv: 1 + f*(-1)\n"
                  "LaTeX is printed when the value has a closed form.\n\n" + mechanism_help(),
                  ["dp-derive link gaussian --mu 1 --to zcdp",
                   "dp-derive link laplace --eps 1 --to renyi --order 2 --json",
                   "dp-derive link approx-dp --eps 1 --delta 1e-5 --to approx --at-delta 1e-3"],
                  parents=[out])
    add_mechanism(k)
    k.add_argument("--to", choices=LINKS, required=True, help="which link (see above)")
    k.add_argument("--at-delta", dest="at_delta", type=numbers("at_delta", "delta"), metavar="D",
                   help="delta in [0, 1] at which eps is given (with --to approx; a comma list gives several)")
    k.add_argument("--order", type=numbers("order", "order"), metavar="L",
                   help="order L > 1 of the Renyi divergence (with --to renyi; a comma list gives several)")
    _method_flag(k)
    k.set_defaults(func=cmd_link)


def _needs(args, flag: str, dest: str, wanted: bool, what: str):
    value = getattr(args, dest)
    if wanted and value is None:
        raise UsageError(f"{dest}: --{flag} is required with {what}")
    if not wanted and value is not None:
        raise UsageError(f"{dest}={','.join(value)}: --{flag} goes with {what} only")


def _row(record, mechanism, records, c, digits, value, field, extra):
    from numeric.precision import format_number
    shown = format_number(value.value, digits)
    payload = {"mechanism": mechanism.name, "params": records.shown(c), **extra, "digits": digits,
               field: shown, "method": value.method}
    finite = shown not in ("inf", "-inf")
    if value.expr is not None and finite:
        payload["latex"] = value.latex
    if value.note:
        payload["note"] = value.note
    label = ", ".join(f"{k} = {v}" for k, v in extra.items() if k not in ("name", "to"))
    head = f"{record}: {extra.get('name', field)}{' (' + label + ')' if label else ''} = {shown} ({value.method})"
    lines = [head]
    if "latex" in payload:
        lines.append(f"  = {payload['latex']}")
    if value.note:
        lines.append(f"  note: {value.note}")
    return payload, lines


def cmd_functional(args):
    mechanism, records, given, _ = setup(args)
    _needs(args, "order", "order", args.name == "renyi", "--name renyi")
    combos = combinations(args, mechanism.param_names + ("order",), given)
    from numeric import functionals
    digits = args.digits

    def compute(c):
        record = records.get(c)
        value = functionals.functional(record, args.name, order=c.get("order"), digits=digits, method=args.method)
        extra = {"name": args.name}
        if "order" in c:
            extra["order"] = c["order"]
        return _row(record, mechanism, records, c, digits, value, "value", extra)
    return run_points(args, combos, compute)


def cmd_link(args):
    mechanism, records, given, _ = setup(args)
    _needs(args, "order", "order", args.to == "renyi", "--to renyi")
    _needs(args, "at-delta", "at_delta", args.to == "approx", "--to approx")
    if args.method != "auto" and args.to in ("pure", "approx"):
        raise UsageError(f"method={args.method}: --method applies to --to renyi, zcdp, kl and tv")
    combos = combinations(args, mechanism.param_names + ("order", "at_delta"), given)
    from numeric import functionals
    digits = args.digits

    def compute(c):
        record = records.get(c)
        value = functionals.link(record, args.to, at_delta=c.get("at_delta"), order=c.get("order"),
                                 digits=digits, method=args.method)
        extra = {"to": args.to}
        if "order" in c:
            extra["order"] = c["order"]
        if "at_delta" in c:
            extra["delta"] = c["at_delta"]
        return _row(record, mechanism, records, c, digits, value, LINK_FIELD[args.to], extra)
    return run_points(args, combos, compute)
