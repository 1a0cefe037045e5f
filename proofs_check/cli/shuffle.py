"""``shuffle``: privacy amplification by shuffling through the clone reductions, a certified bracket
(issue #26 item 1; numeric/shuffle_clones.py)."""

from __future__ import annotations

from .common import Once, as_int, number, output_parent, run_one, subparser

#: the reductions (names fixed by issue #26); their pairs live in numeric.shuffle_clones.REDUCTIONS
REDUCTION_NAMES = ("standard-clone", "stronger-clone")
#: the randomizers whose exact shuffled pairs are computed (numeric.shuffle_rr, numeric.shuffle_krr): a lower
#: bound on the shuffled mechanism's privacy loss, beside the reductions' upper bounds
RANDOMIZER_NAMES = ("binary-rr", "k-rr")
#: the numbers of ones among the other n - 1 users tried by --randomizer binary-rr (and their mirrors), as in
#: reproduce --paper 004: no single dataset is proved worst (numeric.shuffle_rr's docstring)
RR_ONES = (0, 1, 2, 3)


#: the smallest positive --at-delta shuffle answers (a numerator and denominator: --help imports no Fraction)
MIN_DELTA = (1, 10 ** 300)


def register(sub):
    p = subparser(sub, "shuffle", "shuffling n eps0-LDP reports: certified eps (or delta) of a clone reduction",
                  "n users each apply an eps0-LDP randomizer and a shuffler permutes the reports.  A clone reduction "
                  "bounds the shuffled output by a finite pair: C ~ Bin(n - 1, q), A ~ Bin(C, 1/2), Delta ~ "
                  "Bern(e^eps0/(1 + e^eps0)), P = (A + Delta, C - A + 1 - Delta), Q its mirror; standard-clone "
                  "(Feldman-McMillan-Talwar 2021) has q = e^-eps0, stronger-clone (FMT 2023, for the randomizers "
                  "its errata names) q = 2/(e^eps0 + 1).  The pair's delta(eps) (both directions; they are equal) is "
                  "summed exactly in interval arithmetic through binomial tails, and eps(delta) is bracketed to "
                  "relative width 1e-9; eps_upper is the privacy-safe end.  --rounds R composes R shuffled rounds "
                  "through the certified privacy-loss engine (a wider bracket, ~1e-4 relative; n <= 1e8, seconds "
                  "at n = 1e7): above ~2500 clone counts the pair is bracketed by two coarser clone pairs "
                  "(blocks of clone counts, reported as blocks and block_width).  "
                  "--randomizer binary-rr instead computes the exact shuffled output (the count of ones) for the "
                  "neighbouring datasets with 0-3 ones among the other users (certified), --randomizer k-rr --k K "
                  "the shuffled k-ary randomized response for two neighbouring datasets (float): each is a LOWER "
                  "bound on the mechanism's eps (no dataset is proved worst), where the reductions give upper bounds.",
                  ["dp-derive shuffle --reduction standard-clone --eps0 1 --n 1000 --at-delta 1e-6",
                   "dp-derive shuffle --reduction stronger-clone --eps0 2 --n 10000000 --at-delta 1e-6 --json",
                   "dp-derive shuffle --reduction standard-clone --eps0 1 --n 10000 --at-eps 0.05",
                   "dp-derive shuffle --reduction standard-clone --eps0 1 --n 1000000 --rounds 10 --at-delta 1e-6",
                   "dp-derive shuffle --randomizer binary-rr --eps0 1 --n 10000 --at-delta 1e-6"],
                  parents=[output_parent(formats=("text", "json"))])
    route = p.add_mutually_exclusive_group(required=True)
    route.add_argument("--reduction", choices=REDUCTION_NAMES, action=Once,
                       help="standard-clone (FMT21: q = e^-eps0) or stronger-clone (FMT23: q = 2/(e^eps0 + 1))")
    route.add_argument("--randomizer", choices=RANDOMIZER_NAMES, action=Once,
                       help="binary-rr or k-rr (with --k): the exact shuffled pair of that randomizer, a lower bound")
    p.add_argument("--k", type=number("krr_k", "k"), action=Once, help="number of values of k-rr (an integer >= 3)")
    p.add_argument("--eps0", type=number("eps0", "eps0"), required=True, action=Once,
                   help="each user's local privacy parameter eps0 > 0")
    p.add_argument("--n", type=number("n_users", "n"), required=True, action=Once, help="number of users n")
    p.add_argument("--rounds", type=number("rounds", "rounds"), default="1", action=Once,
                   help="number R of shuffled rounds composed (default 1)")
    q = p.add_mutually_exclusive_group(required=True)
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps at this delta")
    q.add_argument("--at-eps", type=number("eps", "at_eps"), action=Once, help="delta at this eps >= 0")
    p.set_defaults(func=cmd_shuffle)


def _mpf_end(fr, up: bool):
    """A Fraction as an mpf rounded outward (up for an upper end), at 200 bits."""
    import mpmath
    with mpmath.workprec(200):
        return mpmath.fdiv(fr.numerator, fr.denominator, rounding="u" if up else "d")


def cmd_shuffle(args):
    from fractions import Fraction

    from numeric.precision import format_outward
    digits = min(args.digits, 15)
    n, rounds = as_int(args.n), as_int(args.rounds)
    eps0 = Fraction(args.eps0)

    def out(v, up):
        if v is None:                       # an upper end the engine could not bound
            return "inf"
        return format_outward(_mpf_end(v, up), digits, up)

    if args.at_delta is not None and 0 < Fraction(args.at_delta) < Fraction(*MIN_DELTA):
        from derive.errors import DomainError
        raise DomainError("at_delta", args.at_delta, "0 or at least 1e-300 for shuffle (its pairs' sums start from a "
                          "float delta: 1e-400 and 5e-324 ended in a traceback)")
    if args.randomizer is not None:
        return run_one(args, lambda: _randomizer(args, n, digits))
    if args.k is not None:
        from derive.errors import DomainError
        raise DomainError("k", args.k, "given with --randomizer k-rr only")

    def compute():
        import time
        t0 = time.perf_counter()
        payload = {"reduction": args.reduction, "eps0": args.eps0, "n": n, "rounds": rounds}
        if rounds > 1:
            r = _rounds(args, eps0, n, rounds)
        elif args.at_delta is not None:
            from numeric.shuffle_fast import eps_bracket
            r = eps_bracket(args.reduction, eps0, n, Fraction(args.at_delta))
        else:
            from numeric.shuffle_clones import delta_bracket
            r = delta_bracket(args.reduction, eps0, n, Fraction(args.at_eps))
        if args.at_delta is not None:
            payload.update({"delta": args.at_delta, "eps": out(r.upper, True), "eps_lower": out(r.lower, False),
                            "eps_upper": out(r.upper, True)})
            line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
        else:
            payload.update({"eps": args.at_eps, "delta": out(r.upper, True), "delta_lower": out(r.lower, False),
                            "delta_upper": out(r.upper, True)})
            line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
        if rounds > 1:
            payload.update({"blocks": r.blocks, "block_width": r.block_width})
        certified = bool(getattr(r, "certified", True))
        reason = getattr(r, "reason", "")
        payload.update({"method": "numeric", "certified": certified,
                        "seconds": round(time.perf_counter() - t0, 3), "digits": digits})
        if reason:
            payload["reason"] = reason
        head = f"{args.reduction}, eps0 = {args.eps0}, n = {n}" + (f", {rounds} rounds" if rounds > 1 else "")
        lines = [f"shuffling ({head}): {line}" + ("  (certified)" if certified else f"  (not certified: {reason})")]
        return payload, lines
    return run_one(args, compute)


def _rounds(args, eps0, n, rounds):
    from fractions import Fraction

    from numeric.shuffle_rounds import compose_rounds
    if args.at_delta is not None:
        return compose_rounds(args.reduction, eps0, n, rounds, at_delta=Fraction(args.at_delta))
    return compose_rounds(args.reduction, eps0, n, rounds, at_eps=Fraction(args.at_eps))


def _randomizer(args, n: int, digits: int):
    """--randomizer: the exact shuffled pair's eps (or delta), a lower bound on the mechanism's."""
    import time

    import mpmath

    from derive.errors import DomainError
    from numeric.precision import format_outward
    t0 = time.perf_counter()
    if as_int(args.rounds) != 1:
        raise DomainError("rounds", args.rounds, "1 with --randomizer (rounds compose the reductions' pairs)")
    if (args.randomizer == "k-rr") != (args.k is not None):
        raise DomainError("k", args.k, "given exactly with --randomizer k-rr (k = 2 is binary-rr)")
    if args.randomizer == "binary-rr":
        from numeric import shuffle_rr as R
        ones = tuple(k for k in RR_ONES if k <= n - 1)
        try:
            r = (R.binary_rr(n, args.eps0, args.at_delta, ones=ones) if args.at_delta is not None
                 else R.binary_rr_delta(n, args.eps0, args.at_eps, ones=ones))
        except ArithmeticError:
            # the arb terms could not certify a bracket (n = 10, delta = 1e-300 ended in a traceback): refused
            at_delta = args.at_delta is not None
            raise DomainError("at_delta" if at_delta else "at_eps", args.at_delta if at_delta else args.at_eps,
                              "a value whose bracket the exact pair's arb sums certify (try a larger "
                              + ("delta or n)" if at_delta else "eps0 or n, or another eps)")) from None
    else:
        from numeric import shuffle_krr as K
        r = (K.krr_eps(n, args.k, args.eps0, args.at_delta) if args.at_delta is not None
             else K.krr_delta(n, args.k, args.eps0, args.at_eps))
    what = "eps" if args.at_delta is not None else "delta"

    def out(v, up):
        return None if v is None else format_outward(mpmath.mpf(v), digits, up)
    payload = {"randomizer": args.randomizer, "eps0": args.eps0, "n": n, "rounds": 1,
               "delta" if what == "eps" else "eps": args.at_delta if what == "eps" else args.at_eps,
               what: out(r[f"{what}_lower"], False), f"{what}_lower": out(r[f"{what}_lower"], False),
               f"{what}_upper": out(r[f"{what}_upper"], True), "side": "lower bound",
               "method": "numeric", "certified": bool(r["certified"]),
               "seconds": round(time.perf_counter() - t0, 3), "digits": digits}
    if args.k is not None:
        payload["k"] = as_int(args.k)
    if not r["certified"]:
        payload["reason"] = r.get("reason", "float")
    at = f"delta = {args.at_delta}" if what == "eps" else f"eps = {args.at_eps}"
    if payload[f"{what}_upper"] is not None:
        value = f"{what} in [{payload[f'{what}_lower']}, {payload[f'{what}_upper']}]"
    else:
        value = f"{what} = {payload[what]}"
    tag = "certified" if payload["certified"] else "float, not certified"
    head = f"{args.randomizer}" + (f" (k = {as_int(args.k)})" if args.k is not None else "") + f", eps0 = {args.eps0}, n = {n}"
    lines = [f"shuffled {head}: {value} at {at}  ({tag}; the exact pair of chosen neighbours: a LOWER bound on the "
             f"mechanism's {what})"]
    return payload, lines
