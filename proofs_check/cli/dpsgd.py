"""``dpsgd``: DP-SGD accounting and noise calibration on the certified engine (issue #9 item 5;
numeric/dpsgd.py)."""

from __future__ import annotations

from .common import Once, UsageError, number, output_parent, run_one, subparser


def register(sub):
    p = subparser(sub, "dpsgd", "DP-SGD: certified eps (or delta), the CLT beside it, or the noise to reach a target",
                  "DP-SGD with Poisson sampling at rate q = batch/n and noise multiplier sigma is the T-fold "
                  "composition of the Poisson-subsampled Gaussian; the certified engine gives a bracket for both "
                  "neighbouring directions (eps = eps_upper, the privacy-safe end).  T = --steps, or "
                  "ceil(epochs * n / batch).  Beside it: the privacy CLT mu = q sqrt(T (e^{1/sigma^2} - 1)), the "
                  "eps of G_mu at the same delta, and clt_gap = eps_clt - eps (negative: the CLT understates the "
                  "loss).  With --target-eps instead of --sigma: the smallest sigma (to 0.1 %) whose certified "
                  "eps is at most the target.  --sampling uniform (fixed-size batches): C_q(G_{1/sigma}) per step, "
                  "composed T times (seed 004 Sec. 4.1; replace-one neighbours).",
                  ["dp-derive dpsgd --n 60000 --batch 256 --sigma 1.1 --steps 100 --at-delta 1e-5",
                   "dp-derive dpsgd --n 60000 --batch 256 --sigma 1.1 --epochs 60 --at-delta 1e-5",
                   "dp-derive dpsgd --n 60000 --batch 256 --sigma 1.1 --steps 1000 --at-eps 1 --json",
                   "dp-derive dpsgd --n 60000 --batch 256 --steps 1000 --target-eps 1 --at-delta 1e-5",
                   "dp-derive dpsgd --n 60000 --batch 256 --sigma 1.1 --steps 1000 --sampling uniform --at-delta 1e-5",
                   "dp-derive dpsgd --sweep rows.csv --out sigmas.csv --jobs 2"],
                  parents=[output_parent(formats=("text", "json"))])
    p.add_argument("--n", type=number("n", "n"), action=Once, help="dataset size n")
    p.add_argument("--batch", type=number("batch", "batch"), action=Once,
                   help="(expected) batch size; q = batch / n")
    p.add_argument("--sigma", type=number("noise_multiplier", "sigma"), default=None, action=Once,
                   help="noise multiplier (noise standard deviation / clipping norm)")
    p.add_argument("--target-eps", type=number("eps_positive", "target_eps"), default=None, action=Once,
                   help="calibrate: the smallest sigma whose certified eps at --at-delta is <= this")
    t = p.add_mutually_exclusive_group()
    t.add_argument("--epochs", type=number("epochs", "epochs"), action=Once, help="epochs (T = ceil(epochs n / batch))")
    t.add_argument("--steps", type=number("count", "steps"), action=Once, help="number of steps T")
    p.add_argument("--sampling", choices=("poisson", "uniform"), default="poisson", action=Once,
                   help="poisson (default): each record with probability batch / n, add/remove neighbours; uniform: "
                        "fixed-size batches, C_q(G_1/sigma) per step (replace-one neighbours, seed 004 Sec. 4.1)")
    q = p.add_mutually_exclusive_group()
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps at this delta")
    q.add_argument("--at-eps", type=number("at_eps", "eps"), action=Once, help="delta at this eps")
    from .dpsgd_sweep import add_sweep_arguments
    add_sweep_arguments(p)
    p.set_defaults(func=cmd_dpsgd)


def cmd_dpsgd(args):
    from fractions import Fraction

    from numeric import dpsgd
    from numeric.precision import format_number

    from .dpsgd_sweep import check_single, cmd_sweep
    if args.sweep is not None:
        return cmd_sweep(args)
    check_single(args)
    if args.sigma is None and args.target_eps is None:
        raise UsageError("sigma: give --sigma S, or --target-eps E to calibrate sigma")
    if args.sigma is not None and args.target_eps is not None:
        raise UsageError(f"target_eps={args.target_eps}: give either --sigma or --target-eps, not both")
    if args.target_eps is not None and args.at_delta is None:
        raise UsageError("at_delta: calibration (--target-eps) needs --at-delta")
    if Fraction(args.batch) > Fraction(args.n):
        raise UsageError(f"batch={args.batch}: batch must be an integer in [1, n = {args.n}]")
    digits = min(args.digits, 15)

    def fmt(v):
        return None if v is None else format_number(v, digits)

    def out(v, up):
        """A certified end, rounded outward (numeric.precision.format_outward)."""
        from numeric.precision import format_outward
        return None if v is None else format_outward(v, digits, up)

    def compute():
        when = {"epochs": args.epochs} if args.epochs is not None else {"steps": args.steps}
        if args.target_eps is not None:
            r = dpsgd.calibrate_sigma(args.n, args.batch, args.target_eps, args.at_delta, sampling=args.sampling,
                                      **when)
        else:
            kw = {"at_delta": args.at_delta} if args.at_delta is not None else {"at_eps": args.at_eps}
            r = dpsgd.account(args.n, args.batch, args.sigma, sampling=args.sampling, **when, **kw)
        q = r.q
        payload = {"n": args.n, "batch": args.batch, **({"epochs": args.epochs} if args.epochs else {}),
                   "steps": r.steps, "q": format_number(mpmath_of(q), digits), "sampling": args.sampling}
        if args.target_eps is not None:
            payload["sigma"] = dpsgd.decimal_str(r.sigma)
            payload["target_eps"] = args.target_eps
        else:
            payload["sigma"] = args.sigma
        if args.at_delta is not None:
            payload.update({"delta": args.at_delta, "eps": out(r.eps, True), "eps_lower": out(r.eps_lower, False),
                            "eps_upper": out(r.eps_upper, True), "mu_clt": fmt(r.mu_clt), "eps_clt": fmt(r.eps_clt)})
            if r.clt_gap is not None:
                payload["clt_gap"] = fmt(r.clt_gap)
            line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
            clt = f"CLT: mu = {payload['mu_clt']}, eps = {payload['eps_clt']}"
            if r.clt_gap is not None and r.clt_gap != 0 and r.certified and r.eps_upper < float("inf"):
                clt += f" ({'understates' if r.clt_gap < 0 else 'overstates'} the certified eps by " \
                       f"{format_number(abs(r.clt_gap), 4)})"
        else:
            payload.update({"eps": args.at_eps, "delta": out(r.delta, True), "delta_lower": out(r.delta_lower, False),
                            "delta_upper": out(r.delta_upper, True), "mu_clt": fmt(r.mu_clt)})
            line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
            clt = f"CLT: mu = {payload['mu_clt']}"
        payload.update({"method": "numeric", "certified": bool(r.certified), "seconds": round(r.seconds, 3),
                        "digits": digits})
        if r.reason:
            payload["reason"] = r.reason
        head = ""
        if args.target_eps is not None:
            # at the search's floor the smallest sigma meeting the target may lie below it (target 1e308)
            floor = Fraction(r.sigma) <= dpsgd.SIGMA_MIN
            head = (f"sigma = {payload['sigma']} (" + ("the smallest sigma searched, which already meets"
                                                       if floor else "smallest meeting") + f" eps <= {args.target_eps}), ")
        lines = [f"DP-SGD ({args.sampling} sampling), T = {r.steps} steps, q = {payload['q']}: {head}{line}"
                 + ("  (certified)" if r.certified else f"  (not certified: {r.reason})"), clt]
        return payload, lines
    return run_one(args, compute)


def mpmath_of(fr):
    import mpmath
    return mpmath.mpf(fr.numerator) / fr.denominator
