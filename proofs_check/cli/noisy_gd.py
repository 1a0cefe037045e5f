"""``noisy-gd``: privacy of the last iterate of noisy gradient descent, the shifted-interpolation GDP bound
of Bok-Su-Altschuler 2024 beside composition and the Renyi bound (issue #26 item 2; numeric/noisy_gd.py)."""

from __future__ import annotations

from .common import Once, number, output_parent, run_one, subparser

SETTINGS = ("strongly-convex", "convex")     # numeric.noisy_gd.SETTINGS (not imported: --help stays fast)
BATCHES = ("full", "cyclic", "stochastic")    # stochastic: numeric.noisy_sgd (a CLT approximation)


def register(sub):
    p = subparser(sub, "noisy-gd", "noisy gradient descent: last-iterate GDP (BSA24) vs composition vs Renyi",
                  "Noisy gradient descent x <- x - eta (g + sigma Z) on losses that are L-Lipschitz, M-smooth and "
                  "m-strongly convex (m = 0: convex), batches of b records (--batch full: b = n, T = --steps; "
                  "--batch cyclic: l = n/b disjoint batches in order, T = l E).  One step is G_mu_s with "
                  "mu_s = 2L/(b sigma) (replace-one neighbours); c = max(|1 - eta m|, |1 - eta M|) needs eta M <= 2.  "
                  "Three routes, each as mu (or rho) and eps at --at-delta: last iterate only, the shifted-"
                  "interpolation GDP bound of Bok, Su, Altschuler (ICML 2024, arXiv:2403.00278 v2, Sec. 4); every "
                  "iterate released, GDP composition mu_s sqrt(uses) (uses = T full, E cyclic); the Renyi bound "
                  "eps_alpha = alpha rho of BSA24 Table 1, or the RDP composition uses mu_s^2/2 where that is smaller "
                  "(always for full batch), converted by min(CKS, Bun-Steinke).  Convex: the c = 1 "
                  "limit of the same forms.  --batch stochastic (NoisySGD, batches of b drawn at rate p = b/n; with "
                  "--diameter D: iterates projected onto a convex set of diameter D, --setting convex) gives BSA24's "
                  "own CLT approximation of the last-iterate bound (the authors' Figure 10 scripts), labelled "
                  "kind = clt-approximation, certified = false: the theorem itself could not be read and is not "
                  "implemented.",
                  ["dp-derive noisy-gd --setting strongly-convex --batch cyclic --L 5 --M 32.5 --m 0.002 --eta 0.05 "
                   "--sigma 0.01 --n 60000 --b 1500 --epochs 50 --at-delta 1e-5",
                   "dp-derive noisy-gd --setting strongly-convex --batch full --L 1 --M 1 --m 0.1 --eta 0.1 "
                   "--sigma 2 --n 1000 --b 1000 --steps 1000 --at-delta 1e-5 --json",
                   "dp-derive noisy-gd --setting convex --batch cyclic --L 1 --M 1 --eta 1 --sigma 0.5 --n 100 "
                   "--b 10 --epochs 20",
                   "dp-derive noisy-gd --setting convex --batch stochastic --L 1 --M 1 --eta 0.1 --sigma 3 --n 1000 "
                   "--b 10 --steps 20000 --diameter 1 --at-delta 1e-5"],
                  parents=[output_parent(formats=("text", "json"))])
    p.add_argument("--setting", choices=SETTINGS, required=True, action=Once,
                   help="strongly-convex (m > 0) or convex (m = 0)")
    p.add_argument("--batch", choices=BATCHES, required=True, action=Once,
                   help="full (b = n, one batch), cyclic (l = n/b disjoint batches visited in order) or stochastic "
                        "(NoisySGD, rate b/n: BSA24's CLT approximation, not a certified bound)")
    p.add_argument("--L", type=number("lipschitz", "L"), required=True, action=Once, help="Lipschitz constant L")
    p.add_argument("--M", type=number("smoothness", "M"), required=True, action=Once, help="smoothness M")
    p.add_argument("--m", type=number("strong_convexity", "m"), default=None, action=Once,
                   help="strong convexity m (required for strongly-convex; 0 for convex, the default there)")
    p.add_argument("--eta", type=number("step_size", "eta"), required=True, action=Once,
                   help="step size eta (eta M <= 2)")
    p.add_argument("--sigma", type=number("sigma", "sigma"), required=True, action=Once,
                   help="noise standard deviation added to the averaged gradient")
    p.add_argument("--n", type=number("n", "n"), required=True, action=Once, help="dataset size n")
    p.add_argument("--b", type=number("batch", "b"), required=True, action=Once,
                   help="batch size b (= n for --batch full; a divisor of n for --batch cyclic)")
    t = p.add_mutually_exclusive_group(required=True)
    t.add_argument("--epochs", type=number("epochs_whole", "epochs"), action=Once,
                   help="epochs E (full batch: one step each)")
    t.add_argument("--steps", type=number("count", "steps"), action=Once,
                   help="steps T (cyclic: a multiple of l = n/b)")
    p.add_argument("--diameter", type=number("diameter", "diameter"), default=None, action=Once,
                   help="--batch stochastic, --setting convex: iterates projected onto a convex set of diameter D")
    p.add_argument("--split", type=number("young_split", "split"), default=None, action=Once,
                   help="with --diameter: the split lam of the two terms (default 9, BSA24 Figure 10's script)")
    p.add_argument("--at-delta", type=number("delta_positive", "at_delta"), default=None, action=Once,
                   help="also eps at this delta for each route")
    p.set_defaults(func=cmd_noisy_gd)


def cmd_noisy_gd(args):
    from derive.errors import DomainError
    from numeric import noisy_gd as N
    from numeric.precision import format_number
    digits = min(args.digits, 30)
    m = args.m
    if m is None:
        if args.setting == "strongly-convex":
            raise DomainError("m", "missing", "given (> 0) for --setting strongly-convex")
        m = "0"

    def fmt(v):
        return None if v is None else format_number(v, digits)

    def exact(q):
        """A short exact Rational as typed (2/3, 9999/10000); a long one as a decimal."""
        import mpmath
        text = str(q)
        if len(text) <= 40:
            return text
        with mpmath.workdps(digits + 10):
            return fmt(mpmath.mpf(q.p) / q.q)

    if args.batch == "stochastic":
        return run_one(args, lambda: _stochastic(args, m, digits, fmt, exact))
    for flag in ("diameter", "split"):
        if getattr(args, flag) is not None:
            raise DomainError(flag, getattr(args, flag), "given only with --batch stochastic (the projected case "
                              "exists here only as BSA24's NoisySGD CLT approximation)")

    def compute():
        r = N.account(args.setting, args.batch, L=args.L, M=args.M, m=m, eta=args.eta, sigma=args.sigma,
                      n=args.n, b=args.b, epochs=args.epochs, steps=args.steps, at_delta=args.at_delta, digits=digits)
        payload = {"setting": args.setting, "batch": args.batch, "L": args.L, "M": args.M, "m": m, "eta": args.eta,
                   "sigma": args.sigma, "n": args.n, "b": args.b, "batches": r.batches, "epochs": r.epochs,
                   "steps": r.steps, "c": exact(r.c), "one_minus_c": exact(1 - r.c), "mu_step": exact(r.mu_step),
                   "mu_last": fmt(r.mu_last), "mu_composition": fmt(r.mu_composition), "rho_renyi": fmt(r.rho_renyi),
                   "rho_renyi_route": r.rho_renyi_route}
        lines = [f"noisy GD ({args.setting}, {args.batch} batch): l = {r.batches}, E = {r.epochs}, T = {r.steps}, "
                 f"c = {payload['c']}, mu_step = 2L/(b sigma) = {payload['mu_step']}",
                 f"last iterate (BSA24 shifted interpolation): mu = {payload['mu_last']}",
                 f"composition (all iterates): mu = {payload['mu_composition']}",
                 f"Renyi: eps_alpha = alpha rho, rho = {payload['rho_renyi']}"
                 + ("" if r.rho_renyi_route == "shifted" else
                    f" (RDP composition of the {r.steps if args.batch == 'full' else r.epochs} uses: below the "
                    "shifted Renyi formula here)")]
        if args.at_delta is not None:
            payload.update({"delta": args.at_delta, "eps_last": fmt(r.eps_last),
                            "eps_composition": fmt(r.eps_composition), "eps_renyi": fmt(r.eps_renyi)})
            lines.append(f"eps at delta = {args.at_delta}: last iterate {payload['eps_last']}, composition "
                         f"{payload['eps_composition']}, Renyi {payload['eps_renyi']}")
        payload["digits"] = digits
        return payload, lines
    return run_one(args, compute)


def _stochastic(args, m, digits, fmt, exact):
    """--batch stochastic: numeric.noisy_sgd (BSA24's CLT approximation, labelled, never certified)."""
    from numeric import noisy_sgd as S
    r = S.account(args.setting, L=args.L, M=args.M, m=m, eta=args.eta, sigma=args.sigma, n=args.n, b=args.b,
                  epochs=args.epochs, steps=args.steps, diameter=args.diameter, split=args.split,
                  at_delta=args.at_delta, digits=digits)
    payload = {"setting": args.setting, "batch": "stochastic", "L": args.L, "M": args.M, "m": m, "eta": args.eta,
               "sigma": args.sigma, "n": args.n, "b": args.b, "p": exact(r.p), "steps": r.steps, "c": exact(r.c),
               "mu_step": exact(r.mu_step), "diameter": args.diameter,
               "split": None if r.split is None else exact(r.split), "tau": r.tau, "mu_last": fmt(r.mu_last),
               "mu_composition": fmt(r.mu_composition), "kind": r.kind, "certified": r.certified, "note": r.note}
    where = "" if r.diameter is None else f", projected (D = {args.diameter}, lam = {payload['split']})"
    lines = [f"noisy SGD ({args.setting}{where}): p = b/n = {payload['p']}, T = {r.steps}, c = {payload['c']}, "
             f"mu_step = {payload['mu_step']}",
             f"last iterate, CLT approximation (not certified): mu ~ {payload['mu_last']} at tau = {r.tau}",
             f"all iterates, CLT approximation (not certified): mu ~ {payload['mu_composition']}",
             "note: " + r.note]
    if args.at_delta is not None:
        payload.update({"delta": args.at_delta, "eps_last": fmt(r.eps_last),
                        "eps_composition": fmt(r.eps_composition)})
        lines.insert(3, f"eps at delta = {args.at_delta} of these approximations: last iterate {payload['eps_last']}, "
                        f"all iterates {payload['eps_composition']}")
    payload["digits"] = digits
    return payload, lines
