"""``pr``, ``fscore``, ``fscore-inverse`` and ``auc``: the membership attack read as a
classifier (seed 001, Liu et al. 2019) and the area under its ROC (seed 003)."""

from __future__ import annotations

from derive.mechanisms.table import ATTACK, NAMES, with_capability

from .common import (
    UsageError,
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

ATTACK_MECHANISMS = with_capability(ATTACK)


def register(sub):
    out = output_parent()
    p = subparser(sub, "pr", "precision and recall of the NP membership attack at level alpha",
                  "Precision and recall of the most powerful (Neyman-Pearson) membership test at level "
                  "alpha, and its threshold in units of the sensitivity above Q(D') (seed 001, Sec. 4).  "
                  "alpha = 0 is the limit alpha -> 0+.\n\n" + mechanism_help(ATTACK_MECHANISMS),
                  ["dp-derive pr laplace --eps 1 --alpha 0.01",
                   "dp-derive pr classical-gaussian --eps 1 --delta 1e-5 --alpha 0.001,0.01,0.1 --format csv"],
                  parents=[out])
    add_mechanism(p, ATTACK_MECHANISMS)
    add_points(p, "alpha", "alpha", "level alpha of the test, in [0, 1]", required=True)
    p.set_defaults(func=cmd_pr)

    f = subparser(sub, "fscore", "the optimal F_beta score of the NP attack",
                  "The largest F_beta score of a threshold attack, its threshold and level alpha* "
                  "(seed 001, Theorems 2-3); the priors rho_p, rho_c, rho_t weight the classes "
                  "(Sec. 4.4; default 0, the uniform prior).\n\n" + mechanism_help(ATTACK_MECHANISMS),
                  ["dp-derive fscore laplace --eps 1 --beta 1",
                   "dp-derive fscore classical-gaussian --eps 1 --delta 1e-5 --beta 1 --digits 30"],
                  parents=[out])
    add_mechanism(f, ATTACK_MECHANISMS)
    f.add_argument("--beta", type=number("beta_f", "beta"), required=True,
                   help="weight of recall in F_beta, > 0 (1: the F1 score)")
    for name in ("rho_p", "rho_c", "rho_t"):
        f.add_argument(f"--{name.replace('_', '-')}", dest=name, type=number(name), default="0",
                       help=f"prior weight {name}, {_domain(name)} (default 0)")
    f.set_defaults(func=cmd_fscore)

    fi = subparser(sub, "fscore-inverse", "largest eps keeping the Laplace F*_beta at or below a bound",
                   "Seed 001, Table 1: the largest eps of the Laplace mechanism whose optimal F_beta score "
                   "is at most --bound (no eps when even eps = 0 exceeds it).",
                   ["dp-derive fscore-inverse laplace --beta 1 --bound 0.7"], parents=[out])
    fi.add_argument("mechanism", metavar="MECH", choices=("laplace",), help="laplace (the only one)")
    fi.add_argument("--beta", type=number("beta_f", "beta"), required=True, help="weight of recall, > 0")
    fi.add_argument("--bound", type=number("bound"), required=True, help="bound on F*_beta, in (0, 1)")
    fi.set_defaults(func=cmd_fscore_inverse)

    a = subparser(sub, "auc", "AUC of the optimal ROC curve, 1 - integral of f",
                  "The area under the ROC curve of the best attack, AUC = 1 - int_0^1 f (seed 003, "
                  "Sec. 3), by SymPy where it integrates, else verified quadrature.\n\n" + mechanism_help(),
                  ["dp-derive auc gaussian --mu 1 --digits 30", "dp-derive auc laplace --eps 0.5,1,2 --format csv"],
                  parents=[out])
    add_mechanism(a)
    add_sampling_rate(a)
    a.set_defaults(func=cmd_auc)


def _domain(key):
    from derive.domains import DOMAINS
    return DOMAINS[key].describe()


def _setup(args, finite=False):
    mechanism, records, given, _ = setup(args)
    if finite:
        from derive.mechanisms.table import is_infinite
        for name, values in given.items():
            if any(is_infinite(v) for v in values):
                raise UsageError(f"{name}=inf: {args.command} needs a finite {name} (the attack's threshold "
                                 "is not defined without noise)")
    return mechanism, records, given


def cmd_pr(args):
    from numeric import attack, mp
    mechanism, records, given = _setup(args, finite=True)
    digits, fmt = args.digits, mp.format_number

    def compute(c):
        record = records.get(c)
        out = attack.pr(record, c["alpha"], digits)
        payload = {"mechanism": mechanism.name, "params": records.shown(c), "alpha": c["alpha"], "digits": digits,
                   **{k: fmt(getattr(out, k), digits) for k in ("precision", "one_minus_precision", "recall")},
                   "threshold": None if out.threshold is None else fmt(out.threshold, digits)}
        if out.note:
            payload["note"] = out.note
        return payload, ([f"{record}  alpha = {c['alpha']}", f"precision = {payload['precision']}",
                         f"recall    = {payload['recall']}",
                         f"threshold = {payload['threshold'] or 'undefined'} (units of Delta Q above Q(D'))"]
                         + ([f"note: {payload['note']}"] if "note" in payload else []))
    return run_points(args, combinations(args, mechanism.param_names + ("alpha",), given), compute)


def cmd_fscore(args):
    from derive.attack import prior_weight
    from numeric import attack, mp
    mechanism, records, given = _setup(args, finite=True)
    digits, fmt = args.digits, mp.format_number
    weight = prior_weight(args.rho_p, args.rho_c, args.rho_t)

    def compute(c):
        record = records.get(c)
        out = attack.fscore_optimum(record, args.beta, digits, weight=weight)
        payload = {"mechanism": mechanism.name, "params": records.shown(c), "beta": args.beta,
                   "rho_p": args.rho_p, "rho_c": args.rho_c, "rho_t": args.rho_t, "w": str(weight),
                   "digits": digits, **{k: fmt(getattr(out, k), digits) for k in ("fscore", "one_minus_fscore",
                                                                                  "threshold", "alpha")},
                   "branch": out.branch, "method": out.method}
        return payload, [f"{record}  beta = {args.beta}",
                         f"F*_beta = {payload['fscore']}  (1 - F* = {payload['one_minus_fscore']})",
                         f"threshold = {payload['threshold']}, alpha* = {payload['alpha']}, branch {payload['branch']}"]
    return run_points(args, combinations(args, mechanism.param_names, given), compute)


def cmd_fscore_inverse(args):
    from numeric import attack, mp

    def compute():
        out = attack.fscore_inverse(args.beta, args.bound, digits=args.digits)
        eps = None if out.eps is None else mp.format_number(out.eps, args.digits)
        payload = {"mechanism": "laplace", "beta": args.beta, "bound": args.bound, "eps": eps,
                   "reason": out.reason, "digits": args.digits}
        return payload, [f"eps = {eps}" if eps is not None else f"eps: none ({out.reason})"]
    return run_one(args, compute)


def cmd_auc(args):
    from numeric import mp
    from numeric.auc import auc
    mechanism, records, given = _setup(args)
    digits = args.digits

    def compute(c):
        record = records.get(c)
        payload = {"mechanism": mechanism.name, "params": records.shown(c), "digits": digits}
        if args.p is None:
            payload["auc"] = mp.format_number(auc(record, digits), digits)
            return payload, [f"{record}: AUC = {payload['auc']}"]
        from numeric import subsampling
        payload.update({"p": args.p, "auc": mp.format_number(subsampling.auc(record, args.p, digits), digits)})
        return payload, [f"{record}, subsampled at p = {args.p} (C_p(f)): AUC = {payload['auc']}"]
    return run_points(args, combinations(args, mechanism.param_names, given), compute)


__all__ = ["register", "ATTACK_MECHANISMS", "NAMES", "UsageError"]
