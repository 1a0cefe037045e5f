"""``compose fdp``: the trade-off function of a composition (issue #9; seed 004 Sec. 3.3).

Components come from MECH PARAMS --k K, or from a spec file (derive/spec.py).  The value is a
two-sided bracket from the certified privacy-loss engine (numeric/pld.py, numeric/pld_mechanisms.py):
at --alpha: beta, beta_lower, beta_upper, power = 1 - beta_lower, power_lower = 1 - beta_upper; at --at-eps:
delta, delta_lower, delta_upper; at --at-delta: eps, eps_lower, eps_upper.  The unsuffixed value is the privacy-safe end.
``certified`` is the engine's (proved up to the two floating-point assumptions its docstring states);
the printed ends are rounded outward (``numeric.precision.format_outward``), so the printed bracket holds the computed one.

``--method exact`` (and ``auto``, the default, whenever a route applies) answers from the exact
routes of numeric/compose_exact.py instead: any list of Gaussians (GDP composition); k <= 10^7 copies
of one randomized-response, geometric, approx-dp or Laplace step (the binomial / Kairouz-Oh-Viswanath
and k-fold Laplace laws); and any list of f_{eps,delta} steps (randomized response, geometric,
approx-dp: the lattice route of numeric/lattice_law.py, one binomial when the eps agree, else the
convolution on their common lattice while it stays small); ``method`` is then "exact", lower = upper =
the value to --digits verified digits.  Anything else is composed by the numeric engine (``method``
"numeric").  ``auto`` weighs the predicted cost (``_engine_cheaper``): where the engine's bracket is
comparably tight (the Laplace pair) and the exact route is predicted more than ENGINE_FACTOR times
slower (the O(k^2) spline beyond k ~ 330), the engine answers.
"""

from __future__ import annotations

import time
from functools import lru_cache

from derive.errors import DomainError
from derive.mechanisms import rebind
from derive.mechanisms import table as T

from .common import (
    Once,
    UsageError,
    as_int,
    mechanism_help,
    mechanism_params,
    number,
    one_value_each,
    run_one,
    subparser,
)

#: the mechanisms the engine composes (the table's ENGINE token: the record has a privacy-loss model,
#: numeric.pld_mechanisms.from_record), and those it subsamples (SUBSAMPLE_ENGINE)
ENGINE = T.with_capability(T.ENGINE)
SUBSAMPLED = T.with_capability(T.SUBSAMPLE_ENGINE)
#: the limits ``_components`` decides (plot.py reads them too); GDP: the route of a list of G_mu steps
IDENTITY, NO_PRIVACY = "identity", "no-privacy"
GDP = "gdp"
#: the exact route of a list of f_{eps,delta} steps (numeric.compose_exact.lattice_*)
LATTICE = "lattice"


def add_engine_mechanism(p) -> None:
    """MECH (optional beside --spec), the mechanism flags and --k: the composition engine's inputs."""
    from .common import _FLAG_MEANING, MECHANISM_FLAGS, _MechanismValue, numbers
    p.add_argument("mechanism", metavar="MECH", nargs="?", choices=tuple(ENGINE),
                   help="one of: " + ", ".join(ENGINE) + " (or give --spec)")
    for name in MECHANISM_FLAGS:
        p.add_argument(f"--{name}", type=numbers(None, name), action=_MechanismValue, default=None,
                       metavar=name.upper(), help=_FLAG_MEANING[name])
    p.add_argument("--k", type=number("count", "k"), default=None, help="how many copies (with MECH)")


def register(kinds, out):
    f = subparser(kinds, "fdp", "the composed trade-off function: a certified bracket",
                  "k-fold (or heterogeneous, --spec) composition of trade-off functions, evaluated by the "
                  "certified privacy-loss engine: a two-sided bracket that contains the exact value "
                  "(beta_lower <= f(alpha) <= beta_upper, and the same for delta and eps); the unsuffixed "
                  "value is the privacy-safe end.  Mechanisms: " + ", ".join(ENGINE) + "; a spec entry may "
                  f"subsample a{_either()} entry with \"p\" (and \"sampling\": poisson or uniform).\n\n" + mechanism_help(tuple(ENGINE)),
                  ["dp-derive compose fdp laplace --eps 0.1 --k 10 --at-delta 1e-6",
                   "dp-derive compose fdp gaussian --mu 0.5 --k 100 --alpha 1e-10 --json",
                   "dp-derive compose fdp --spec spec.json --at-eps 1"], parents=[out])
    add_engine_mechanism(f)
    f.add_argument("--spec", default=None, action=Once, metavar="FILE.json",
                   help='a heterogeneous list: {"mechanisms": [{"mechanism": "gaussian", "mu": "0.5", '
                        '"count": 10}, ...]} (same names as the flags; "p" subsamples a' + _either() + ' entry)')
    f.add_argument("--dp-event", default=None, action=Once, metavar="FILE.json",
                   help="a dp_accounting DpEvent tree in its to_named_tuple() form as JSON (numeric/dp_events.py)")
    f.add_argument("--relation", choices=("add-remove", "replace-one"), default="add-remove", action=Once,
                   help="neighbouring relation of --dp-event (default add-remove)")
    q = f.add_mutually_exclusive_group(required=True)
    q.add_argument("--alpha", type=number("alpha"), action=Once, help="f(alpha) and the power at level alpha")
    q.add_argument("--at-eps", type=number("at_eps", "eps"), action=Once, help="delta(eps)")
    q.add_argument("--at-delta", type=number("at_delta", "delta"), action=Once, help="eps(delta)")
    f.add_argument("--method", choices=("exact", "numeric", "auto"), default="auto",
                   help="exact: closed routes (any list of gaussians; lists of randomized-response, geometric "
                        "or approx-dp steps; k copies of one laplace step), verified to --digits; numeric: the "
                        "certified engine (15 digits at most); auto (default): exact where a route applies, "
                        "unless its predicted time is far above the engine's and the engine's bracket is "
                        "comparably tight (a long laplace composition), else numeric")
    f.set_defaults(func=cmd_fdp)


#: below this a parameter is refused: the engine's loss grid cannot resolve the step
SMALLEST = "1e-8"
#: above this a parameter is refused: one step's loss spreads over ~LARGEST^2 / 2, beyond what the
#: engine's float grid and FFT window hold (mu = 1e6 and eps = 1e6 crashed it, mu = 1000 needed a
#: 2^29-point window; at this size one step is already almost perfectly distinguishing)
LARGEST = "100"


def check_engine_parameter(label: str, theta, zero: str = "") -> None:
    """Refuse (in one line) a parameter the certified engine cannot take (``zero``: what the message
    adds about a parameter of exactly 0, where the caller answers that case itself)."""
    from fractions import Fraction
    if label == "sigma2":
        # a discrete Gaussian: the engine reads 1/sigma2 against the same bounds (its message named "eps")
        if not Fraction(1, 1) / Fraction(LARGEST) <= Fraction(theta) <= 1 / Fraction(SMALLEST):
            raise UsageError(f"sigma2={theta}: the engine needs sigma2 in [{1 / float(LARGEST):g}, "
                             f"{1 / float(SMALLEST):g}] (1/sigma2 is the step's loss scale: below the range the loss "
                             "spreads beyond the grid, above it the grid cannot resolve the step)")
        return
    if Fraction(theta) < Fraction(SMALLEST):
        raise UsageError(f"{label}={theta}: the engine needs a parameter >= {SMALLEST}{zero} (its loss grid "
                         "cannot resolve smaller steps)")
    if Fraction(theta) > Fraction(LARGEST):
        raise UsageError(f"{label}={theta}: the engine needs a parameter <= {LARGEST} (one step's loss would "
                         "spread beyond its grid; such a step is already almost perfectly distinguishing)")


def _either() -> str:
    """' gaussian or laplace': the subsampled mechanisms as the help texts name them."""
    return " " + " or ".join(SUBSAMPLED)


@lru_cache(maxsize=2048)       # the routes read each entry's record up to 4 times: a 1000-step spec fits
def _built(name: str, values: tuple):
    return rebind.build(name, dict(values))          # one symbolic record per row where that is exact


def _record(name: str, values: dict):
    """The trade-off record of a plan entry (memoised: the plan is read by several routes)."""
    return _built(name, tuple(sorted(values.items())))


def _plan(args):
    """[(table name, {param: text}, count, p or None)] and what the payload echoes."""
    if args.spec is not None:
        if args.mechanism is not None or args.k is not None:
            raise UsageError("spec: give either --spec or MECH PARAMS --k K, not both")
        from derive.spec import read_spec
        plan = []
        for i, comp in enumerate(read_spec(args.spec)):
            name = comp.mechanism.name
            if comp.p is not None and T.SUBSAMPLE_ENGINE not in comp.mechanism.capabilities:
                raise UsageError(f"mechanisms[{i}].p: the engine subsamples {' and '.join(SUBSAMPLED)} entries only")
            if T.ENGINE not in comp.mechanism.capabilities:
                raise UsageError(f"mechanisms[{i}].mechanism={name}: the engine composes {', '.join(ENGINE)}")
            plan.append((name, dict(comp.params), comp.count, (comp.p, comp.sampling) if comp.p is not None
                         else None))
        return plan, {"spec": args.spec}
    if args.mechanism is None:
        raise UsageError("mechanism: give MECH PARAMS --k K, or --spec FILE.json")
    if args.k is None:
        raise UsageError("k: --k K is required with MECH")
    from derive.mechanisms.table import BY_NAME
    mechanism = BY_NAME[args.mechanism]
    given, _ = mechanism_params(args, mechanism)
    values = one_value_each(given, "compose fdp")
    mechanism.build(values)                     # the domain checks of the record (one table)
    return [(args.mechanism, values, as_int(args.k), None)], {"mechanism": args.mechanism, "params": values,
                                                           "k": args.k}


def _delta_zero(plan, args):
    """eps at delta = 0: the sum of count * eps when every step is pure DP (the record's ``pure_eps``: Laplace,
    randomized response, (eps, 0)-DP, whose privacy loss is bounded by eps), else inf (a Gaussian loss is
    unbounded; an (eps, delta > 0) step has a loss of +inf with probability delta)."""
    total = 0
    for name, values, count, p in plan:
        record = _record(name, values)
        if record.pure_eps is None:
            return "no-pure"
        total += count * record.bind(record.pure_eps)
    args._pure_eps = total
    return "pure"


def _privacy_parameter(row, record, values) -> tuple[str, str]:
    """(label, value as typed) of the parameter the engine's size rule reads: the row's loss-spreading
    parameter (mu, eps); for a discrete Gaussian record (DG_SIGMA2: sigma2 > 0 and bounded by its domain, no
    spreading parameter) sigma2 itself, which ``check_engine_parameter`` reads as 1/sigma2.  Its inf is the no-privacy record (``limits.no_privacy``);
    its 0 is perfect privacy only together with the other parameters: see ``Mechanism.is_identity``."""
    from derive.mechanisms import facts as K
    sigma2 = record.fact(K.DG_SIGMA2)
    if sigma2 is not None:
        return "sigma2", values.get("sigma2", str(sigma2))
    key = (row.spread_params or row.param_names)[0]
    return key, values[key]


def _components(plan, engine: bool = True):
    """Engine components, or the exact answer when a limit decides it: a component that is Id
    (``Mechanism.is_identity``: perfect privacy, every loss-carrying parameter 0) is the identity of the
    tensor product (dropped); one whose record is the no-privacy limit (a parameter inf: the NO_PRIVACY
    fact) makes the whole composition f = 0.  With ``engine=False`` (an exact route will answer) only the
    limits are decided: the engine's smallest-parameter rule does not apply and the list holds None for
    each remaining component."""
    from derive.mechanisms import facts as K
    from numeric import pld_mechanisms as M
    from numeric import pld_subsampled as PS
    out = []
    for name, values, count, p in plan:
        record = _record(name, values)
        if record.fact(K.NO_PRIVACY):
            return None, NO_PRIVACY
        mech = T.lookup(name)
        if mech.is_identity(values):
            continue
        if not engine:
            out.append(None)
            continue
        if not mech.finite_loss_is_zero(values):
            # (a finite loss that is the single atom L = 0, e.g. approx-dp at eps = 0 with delta > 0, lies on
            # every grid: the smallest-parameter rule is about resolving a step of size eps)
            check_engine_parameter(*_privacy_parameter(mech, record, values), " or exactly 0")
        if p is not None:
            rate, sampling = p
            out.append((PS.subsampled_step(record, rate, sampling), count))
            continue
        out.append((M.from_record(record), count))
    return (_merge_gaussians(out) if engine else out), (IDENTITY if not out else None)


def _merge_gaussians(out):
    """The engine's list with its plain Gaussian rows merged exactly while the merged mu stays within the
    engine's one-step limit ``LARGEST`` (``numeric.pld_gaussian_merge.merge_gaussian_rows``; issue #25)."""
    from fractions import Fraction

    from numeric.pld_gaussian_merge import merge_gaussian_rows
    return merge_gaussian_rows(out, Fraction(LARGEST))


def _exact_limit(kind, args):
    """The answers of f = Id (perfect privacy) and f = 0 (no privacy), and eps at delta = 0, exactly."""
    from derive.exact import rational
    if kind in ("pure", "no-pure"):
        return {"eps": args._pure_eps if kind == "pure" else "inf"}
    if kind == "delta-one":
        return {"eps": 0}
    if kind == IDENTITY:
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
    if args.dp_event is not None:
        from .compose_dp_event import cmd_dp_event
        return cmd_dp_event(args)
    from numeric.pld_envelope import compose_spec
    plan, shown = _plan(args)
    components, limit = _components(plan, engine=False)          # the limits first
    route = _exact_route(plan) if limit is None else None
    if route is not None and args.method == "auto" and _engine_cheaper(route):
        route = None
    if limit is None and (route is None or args.method == "numeric"):
        components, limit = _components(plan)
    if args.method == "exact" and limit is None and route is None:
        from numeric.compose_exact import MAX_EPS_LAPLACE, MAX_K_BINOMIAL, MAX_K_LAPLACE
        raise UsageError("method=exact: no exact route for this composition (exact routes: any list of "
                         f"gaussians; up to {MAX_K_BINOMIAL} randomized-response, geometric or approx-dp "
                         "steps of one eps, or a few of several eps (a convolved lattice of limited size); "
                         f"k <= {MAX_K_LAPLACE} copies of one laplace step with eps <= {MAX_EPS_LAPLACE}); "
                         "use --method numeric")
    from derive.exact import rational
    # (exact comparisons: as floats, 1e-400 was 0, answered eps = inf, and 0.99999999999999999999 was 1, eps = 0)
    at_delta = None if args.at_delta is None else rational("delta", args.at_delta)
    if limit is None and at_delta == 0:
        limit = _delta_zero(plan, args)
    if limit is None and at_delta == 1:
        limit = "delta-one"
    digits = min(args.digits, 15)

    from numeric.precision import format_outward

    def fmt(v, up: bool):
        return format_outward(v, digits, up)

    def compute():
        t0 = time.perf_counter()
        if limit is not None:
            return _limit_payload(limit, args, shown, t0)
        engine_components = components
        if route is not None and args.method in ("exact", "auto"):
            try:
                return _exact_payload(route, args, shown, t0)
            except DomainError:
                # a lattice query in the tails the convolved table drops: auto asks the engine instead
                if args.method == "exact" or route[0] != LATTICE:
                    raise
                engine_components, _ = _components(plan)
        base = {**shown, "method": "numeric"}
        try:
            comp = compose_spec(engine_components)      # an Envelope when a family has too many distinct steps
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
            # the power is a bracket too: "power = X" read as an exact value (issue #25's probe); the unsuffixed
            # JSON field keeps its meaning, 1 - beta_lower (the power's upper end)
            payload = {**base, "alpha": args.alpha, "beta": fmt(r.beta, False), "beta_lower": fmt(r.beta_lower, False),
                       "beta_upper": fmt(r.beta_upper, True), "power": fmt(r.power, True),
                       "power_lower": fmt(_power_lower(r), False)}
            line = (f"beta in [{payload['beta_lower']}, {payload['beta_upper']}] at alpha = {args.alpha}, "
                    f"power in [{payload['power_lower']}, {payload['power']}]")
        elif args.at_eps is not None:
            payload = {**base, "eps": args.at_eps, "delta": fmt(r.delta, True), "delta_lower": fmt(r.delta_lower, False),
                       "delta_upper": fmt(r.delta_upper, True)}
            line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
        else:
            payload = {**base, "delta": args.at_delta, "eps": fmt(r.eps, True), "eps_lower": fmt(r.eps_lower, False),
                       "eps_upper": fmt(r.eps_upper, True)}
            line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
        payload.update({"certified": bool(r.certified), "seconds": round(time.perf_counter() - t0, 3),
                        "digits": digits})
        if r.reason:
            payload["reason"] = r.reason
        lines = [line + ("  (certified)" if r.certified else f"  (not certified: {r.reason})")]
        return payload, lines
    return run_one(args, compute)


def _power_lower(r):
    """The power's certified lower end: the result's own, else 1 - beta_upper as an exact difference (as
    ``numeric.pld_power`` forms beta's ends), so the outward formatting sees it unrounded."""
    import mpmath
    if r.power_lower is not None:
        return r.power_lower
    return mpmath.fsub(1, mpmath.mpf(r.beta_upper), exact=True)


def _exact_route(plan):
    """("gdp", [(mu, count), ...], None) when every entry is G_mu (the GDP_MU fact, rational); ("law", record, k)
    when the plan is k copies of one step with an exact law (compose_exact: f_{eps,delta}, the Laplace pair;
    entries with the same parameters merged); None when no exact route applies (subsampled entries,
    mixtures, k too large)."""
    from derive.mechanisms import facts as K
    from numeric.compose_exact import available
    if any(p is not None for _, _, _, p in plan):
        return None
    mus = [(_record(name, values).fact(K.GDP_MU), count) for name, values, count, _ in plan]
    if all(getattr(mu, "is_Rational", False) for mu, _ in mus):
        return (GDP, mus, None)
    from fractions import Fraction

    from numeric.compose_exact import lattice_cost
    keys = {(name, tuple(sorted((k, Fraction(v)) for k, v in values.items()))) for name, values, _, _ in plan}
    if len(keys) != 1:
        # f_{eps,delta} steps of several kinds or parameters: the lattice route (numeric.lattice_law)
        entries = [(_record(name, values), count) for name, values, count, _ in plan]
        return (LATTICE, entries, None) if lattice_cost(entries) is not None else None
    record = _record(plan[0][0], plan[0][1])
    k = sum(count for _, _, count, _ in plan)
    return ("law", record, k) if available(record, k) else None


#: measured seconds of one ``compose fdp`` query (2 cores, loaded): the engine ~3 s for one step kind at
#: k <= 10^4 (laplace eps = 0.1: 3.2 s at k = 100, 4.4 s at 250, 5.2 s at 500); the exact Laplace spline
#: 0.2 s at k = 100, 1.7 s at 250, 13.5 s at 500 (O(k^2) rational pieces, ~k^2.6 measured)
ENGINE_SECONDS = 3.0
LAPLACE_SECONDS_250 = 1.7
#: auto prefers the engine only when the exact route is predicted this many times slower
ENGINE_FACTOR = 2.0


def _engine_cheaper(route) -> bool:
    """--method auto's cost model: the engine answers instead of an exact route when the exact route's
    predicted time exceeds ENGINE_FACTOR x the engine's *and* the engine's bracket is comparably tight for
    that route.  Only the Laplace route qualifies: its engine bracket has relative width ~1e-5 (measured
    at k = 100..500, every query), while for lattice steps (binomial, lattice routes) the engine's
    bracket is loose at large k (RR(0.01) x 10^6: delta in [0.99997, 1], beta in [0, 3.2e-5] against
    1.4e-18) and the exact route is cheap anyway (O(sqrt k) terms: 2 s at k = 10^7); GDP is closed form."""
    from numeric import compose_exact as X
    kind, record, k = route
    if kind != "law":
        return False
    got = X._route(record)
    if got is None or got[0] != X.LAPLACE_LAW:
        return False
    predicted = LAPLACE_SECONDS_250 * (k / 250) ** 2.6
    return predicted > ENGINE_FACTOR * ENGINE_SECONDS


def exact_query(route, which: str, at, digits: int):
    """The ExactValue of an ``_exact_route`` at a query: ``which`` is "tradeoff" (at alpha), "delta" (at
    eps) or "eps" (at delta)."""
    from numeric import compose_exact as X
    kind, values, k = route
    if kind == GDP:
        return {"tradeoff": X.gdp_tradeoff, "delta": X.gdp_delta, "eps": X.gdp_eps}[which](values, at, digits)
    if kind == LATTICE:
        return {"tradeoff": X.lattice_tradeoff, "delta": X.lattice_delta, "eps": X.lattice_eps}[which](values, at, digits)
    return {"tradeoff": X.tradeoff, "delta": X.delta, "eps": X.eps}[which](values, None, k, at, digits)


def _exact_payload(route, args, shown, t0):
    """The answer of an exact route, lower = upper = value to --digits verified digits."""
    import sympy as sp

    from numeric import compose_exact as X
    from numeric.precision import format_number
    kind, values, k = route
    digits = args.digits
    extra = {}
    if kind == GDP:
        # G_mu1 x ... x G_muk = G_mu with mu = sqrt(sum count mu_i^2): one Gaussian of that mu
        mu = X.gdp_mu(values)
        with __import__("mpmath").workdps(digits + 10):
            extra = {"mu": format_number(sp.N(mu, digits + 10) if mu.is_number else mu, digits),
                     "mu_exact": str(mu), "latex": "G_{" + sp.latex(mu) + "}"}
    if args.alpha is not None:
        r = exact_query(route, "tradeoff", args.alpha, digits)
        beta, power = format_number(r.value, digits), format_number(r.complement, digits)
        payload = {**shown, "method": "exact", "alpha": args.alpha, "beta": beta, "beta_lower": beta,
                   "beta_upper": beta, "power": power}
        line = f"beta = {beta} at alpha = {args.alpha}, power = {power}"
    elif args.at_eps is not None:
        r = exact_query(route, "delta", args.at_eps, digits)
        v = format_number(r.value, digits)
        payload = {**shown, "method": "exact", "eps": args.at_eps, "delta": v, "delta_lower": v, "delta_upper": v}
        line = f"delta = {v} at eps = {args.at_eps}"
    else:
        r = exact_query(route, "eps", args.at_delta, digits)
        v = format_number(r.value, digits)
        payload = {**shown, "method": "exact", "delta": args.at_delta, "eps": v, "eps_lower": v, "eps_upper": v}
        line = f"eps = {v} at delta = {args.at_delta}"
    payload.update(extra)
    payload.update({"route": r.route, "certified": True, "seconds": round(time.perf_counter() - t0, 3),
                    "digits": digits})
    what = {X.GDP: "exact: G_mu1 x ... x G_muk = G_sqrt(sum mu_i^2)",
            X.BINOMIAL: "exact: binomial Neyman-Pearson test (Kairouz-Oh-Viswanath)",
            X.LAPLACE_LAW: "exact: k-fold Laplace privacy-loss law",
            X.LATTICE: "exact: the composed privacy-loss law on the lattice of the steps' eps"}[r.route]
    return payload, [line + f"  ({what}, {digits} verified digits)"]


def _limit_payload(limit, args, shown, t0):
    from derive.exact import _show, rational
    values = {k: (v if v == "inf" else _show(rational(k, v) if isinstance(v, int) else v))
              for k, v in _exact_limit(limit, args).items()}
    what = {IDENTITY: "every component is Id (parameter 0; approx-dp: eps = delta = 0): f = Id, perfect privacy",
            NO_PRIVACY: "a component has an infinite parameter: f = 0, no privacy",
            "pure": "delta = 0: the composition of pure-DP steps is pure, eps = the sum of k eps",
            "no-pure": "delta = 0: a (discrete) Gaussian or (eps, delta > 0) step is not pure DP, eps = inf",
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
