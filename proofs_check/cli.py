"""The ``dp-derive`` command line (also ``python -m proofs_check``).

Acceptance interface (issue #2)::

    dp-derive tradeoff MECH PARAMS --alpha A [--digits D] [--json]
    dp-derive profile  MECH PARAMS (--eps E | --delta D) [--digits D] [--json]
    dp-derive latex    MECH PARAMS [--quantity tradeoff|power|profile] [--json]
    dp-derive check    [--paper P] [--claim ID] [--json]
    dp-derive reproduce [--paper P] [--json]

Issue #4 (seeds 001 and 003)::

    dp-derive pr MECH PARAMS --alpha A [--digits D] [--json]
    dp-derive fscore MECH PARAMS --beta B [--rho-p P --rho-c C --rho-t T] [--digits D] [--json]
    dp-derive fscore-inverse laplace --beta B --bound F [--json]
    dp-derive auc MECH PARAMS [--digits D] [--json]

Issue #3 (seeds 000 and 002)::

    dp-derive risk MECH PARAMS [--alpha0 A0] [--prior P] [--digits D] [--json]
    dp-derive posterior MECH PARAMS --prior P --alpha A [--digits D] [--json]
    dp-derive semantics --eps E --delta D --delta-prime D2 [--prior P] [--digits D] [--json]
    dp-derive compose pure --eps E --k K --delta D --method basic|advanced|optimal [--json]
    dp-derive compose zcdp --rho R --k K --delta D [--conversion bun-steinke|cks] [--json]
    dp-derive select MECH --target rho|rho-alpha0|power --value V [--alpha0 A0] [--json]
    dp-derive ztest --n N --sigma S --m M --alpha A (--mu MU | --min-mu --max-relative-loss L) [--json]

MECH and PARAMS: gaussian --mu, laplace --eps, approx-dp --eps --delta,
uniform-sampling --mu --n [--neighbours replacement|add-remove],
randomized-response --eps, classical-gaussian --eps --delta,
noise --family logistic --mu.

``profile`` with a mechanism that itself takes --eps or --delta (laplace,
approx-dp, ...): the mechanism's flags come first, a further --eps or --delta is
the profile's argument (``profile laplace --eps 1 --eps 0.5``); ``--at-eps`` and
``--at-delta`` say the same without relying on order.

Numbers are decimal strings taken exactly.  Bad input: one line on stderr
naming the parameter, its value and the valid range; exit status 2.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

import sympy as sp

import derive
from derive.errors import DomainError, PrecisionExhausted
from derive.mechanisms import MECHANISMS

from . import cli_check
from .usage import UsageError

PARAMS = {
    "gaussian": ("mu",),
    "laplace": ("eps",),
    "approx-dp": ("eps", "delta"),
    "uniform-sampling": ("mu", "n"),
    "randomized-response": ("eps",),
    "classical-gaussian": ("eps", "delta"),
    "noise": ("mu",),
}
PARAM_FLAGS = ("mu", "eps", "delta", "n")




class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def _add_mechanism(p):
    p.add_argument("mechanism", metavar="MECH")
    for name in PARAM_FLAGS:
        p.add_argument(f"--{name}", action="append", default=None, metavar=name.upper())
    p.add_argument("--family", default=None)
    p.add_argument("--neighbours", default=None)


def _add_output(p, digits=True):
    """--digits D (significant digits of every number printed) and --json."""
    if digits:
        p.add_argument("--digits", default="15")
    p.add_argument("--json", action="store_true")


def _digits(text):
    try:
        d = int(text)
    except ValueError:
        raise UsageError(f"digits={text}: digits must be an integer in [1, 1000]")
    if not 1 <= d <= 1000:
        raise UsageError(f"digits={text}: digits must be an integer in [1, 1000]")
    return d


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dp-derive", description="Differential privacy as hypothesis testing, exactly.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    t = sub.add_parser("tradeoff", help="beta = f(alpha) and power = 1 - f(alpha)")
    _add_mechanism(t)
    t.add_argument("--alpha", required=True)
    _add_output(t)

    pr = sub.add_parser("profile", help="privacy profile delta(eps) or its inverse eps(delta)")
    _add_mechanism(pr)
    pr.add_argument("--at-eps", default=None)
    pr.add_argument("--at-delta", default=None)
    _add_output(pr)

    la = sub.add_parser("latex", help="LaTeX of the trade-off function, its power or its profile")
    _add_mechanism(la)
    la.add_argument("--quantity", default="tradeoff", choices=("tradeoff", "power", "profile"))
    _add_output(la, digits=False)

    p = sub.add_parser("pr", help="precision and recall of the NP membership attack at level alpha")
    _add_mechanism(p)
    p.add_argument("--alpha", required=True)
    _add_output(p)

    fs = sub.add_parser("fscore", help="the optimal F_beta score of the NP attack")
    _add_mechanism(fs)
    fs.add_argument("--beta", required=True)
    fs.add_argument("--rho-p", default="0")
    fs.add_argument("--rho-c", default="0")
    fs.add_argument("--rho-t", default="0")
    _add_output(fs)

    fi = sub.add_parser("fscore-inverse", help="largest eps keeping the Laplace F*_beta at or below a bound")
    fi.add_argument("mechanism", metavar="MECH")
    fi.add_argument("--beta", required=True)
    fi.add_argument("--bound", required=True)
    _add_output(fi)

    au = sub.add_parser("auc", help="AUC of the optimal ROC curve, 1 - integral of f")
    _add_mechanism(au)
    _add_output(au)

    rk = sub.add_parser("risk", help="f(0), failure class, rho, rho_alpha0 and posterior bounds (seed 000)")
    _add_mechanism(rk)
    rk.add_argument("--alpha0", default=None)
    rk.add_argument("--prior", default=None)
    _add_output(rk)

    po = sub.add_parser("posterior", help="posterior of membership after a positive test at level alpha")
    _add_mechanism(po)
    po.add_argument("--prior", required=True)
    po.add_argument("--alpha", required=True)
    _add_output(po)

    se = sub.add_parser("semantics", help="bounds on posterior, ratio and difference from (eps, delta)-DP")
    se.add_argument("--eps", required=True)
    se.add_argument("--delta", required=True)
    se.add_argument("--delta-prime", required=True)
    se.add_argument("--prior", default=None)
    _add_output(se)

    co = sub.add_parser("compose", help="composition of pure DP, or of zCDP converted to (eps, delta)")
    co.add_argument("kind", metavar="KIND", choices=("pure", "zcdp"))
    co.add_argument("--eps", default=None)
    co.add_argument("--rho", default=None)
    co.add_argument("--k", required=True)
    co.add_argument("--delta", required=True)
    co.add_argument("--method", default=None)
    co.add_argument("--conversion", default=None)
    _add_output(co)

    sl = sub.add_parser("select", help="privacy-first choice of mu or eps")
    sl.add_argument("mechanism", metavar="MECH")
    sl.add_argument("--family", default=None)
    sl.add_argument("--target", required=True)
    sl.add_argument("--value", required=True)
    sl.add_argument("--alpha0", default=None)
    _add_output(sl)

    zt = sub.add_parser("ztest", help="utility-first: power of the Z-test on a Gaussian-mechanism mean")
    zt.add_argument("--n", required=True)
    zt.add_argument("--sigma", required=True)
    zt.add_argument("--m", required=True)
    zt.add_argument("--alpha", required=True)
    zt.add_argument("--mu", default=None)
    zt.add_argument("--min-mu", action="store_true")
    zt.add_argument("--max-relative-loss", default=None)
    zt.add_argument("--min-power", default=None)
    zt.add_argument("--delta-q", default=None)
    _add_output(zt)

    cli_check.register(sub)
    return parser


def _record(args, extra_allowed=()):
    """Build the record; return (record, params as given, leftover flag values)."""
    mech = args.mechanism
    if mech not in MECHANISMS:
        raise UsageError(f"mechanism={mech}: mechanism must be one of {', '.join(MECHANISMS)}")
    wanted = PARAMS[mech]
    given, leftover = {}, {}
    for name in PARAM_FLAGS:
        values = list(getattr(args, name) or [])
        if name in wanted:
            if not values:
                raise UsageError(f"{name}: --{name} is required for {mech}")
            given[name] = values.pop(0)
            if values and name not in extra_allowed:
                raise UsageError(f"{name}={values[0]}: --{name} given more than once (once, for {mech})")
        if values:
            if name in extra_allowed and len(values) == 1:
                leftover[name] = values[0]
            elif name in wanted:
                raise UsageError(f"{name}={values[-1]}: --{name} given too often (once for {mech}"
                                 + (", once more for the profile)" if name in extra_allowed else ")"))
            else:
                raise UsageError(f"{name}={values[0]}: --{name} is not a parameter of {mech} "
                                 f"(its parameters: {', '.join('--' + w for w in wanted)})")
    if mech != "noise" and args.family is not None:
        raise UsageError(f"family={args.family}: --family applies to the noise mechanism only")
    if mech != "uniform-sampling" and args.neighbours is not None:
        raise UsageError(f"neighbours={args.neighbours}: --neighbours applies to uniform-sampling only")
    if mech == "noise":
        if args.family is None:
            raise UsageError("family: --family is required for noise (one of logistic, laplace, gaussian)")
        record = derive.noise(args.family, given["mu"])
        given = {"family": args.family, **given}
    elif mech == "uniform-sampling":
        record = derive.uniform_sampling(given["mu"], given["n"], args.neighbours or "replacement")
        if args.neighbours:
            given["neighbours"] = args.neighbours
    else:
        record = MECHANISMS[mech](*[given[w] for w in wanted])
    return record, given, leftover


def _emit(payload: dict, as_json: bool, lines: list[str]):
    if as_json:
        print(json.dumps(payload))
    else:
        print("\n".join(lines))


def cmd_tradeoff(args):
    from numeric import mp
    digits = _digits(args.digits)
    record, given, _ = _record(args)
    beta = mp.tradeoff(record, args.alpha, digits)
    power = mp.power(record, args.alpha, digits)
    fmt = mp.format_number
    payload = {"mechanism": args.mechanism, "params": given, "alpha": args.alpha.strip(),
               "digits": digits, "beta": fmt(beta, digits), "power": fmt(power, digits)}
    _emit(payload, args.json, [f"{record}  alpha = {args.alpha}",
                               f"beta  = f(alpha)     = {payload['beta']}",
                               f"power = 1 - f(alpha) = {payload['power']}"])


def cmd_profile(args):
    from numeric import mp
    digits = _digits(args.digits)
    record, given, leftover = _record(args, extra_allowed=("eps", "delta"))
    for name, explicit in (("eps", args.at_eps), ("delta", args.at_delta)):
        if explicit is not None and name in leftover:
            raise UsageError(f"{name}={leftover[name]}: the profile's {name} is given twice "
                             f"(--{name} {leftover[name]} and --at-{name} {explicit})")
    at_eps = args.at_eps if args.at_eps is not None else leftover.get("eps")
    at_delta = args.at_delta if args.at_delta is not None else leftover.get("delta")
    if (at_eps is None) == (at_delta is None):
        raise UsageError("eps/delta: give exactly one of --eps E or --delta D for the profile")
    method = "closed form" if record.profile is not None else "numerical supremum of 1 - f - e^eps alpha"
    fmt = mp.format_number
    if at_eps is not None:
        delta = mp.profile_delta(record, at_eps, digits)
        payload = {"mechanism": args.mechanism, "params": given, "eps": at_eps.strip(),
                   "delta": fmt(delta, digits), "digits": digits, "method": method}
    else:
        eps = mp.profile_eps(record, at_delta, digits)
        payload = {"mechanism": args.mechanism, "params": given, "eps": fmt(eps, digits),
                   "delta": at_delta.strip(), "digits": digits, "method": method}
    _emit(payload, args.json, [f"{record}: eps = {payload['eps']}, delta = {payload['delta']} ({method})"])


def cmd_latex(args):
    record, given, _ = _record(args)
    q = args.quantity
    if q == "tradeoff":
        symbolic, stable = record.paper, record.tradeoff
    elif q == "power":
        symbolic = stable = record.power
    else:
        if record.profile is None:
            raise UsageError(f"quantity=profile: {record.name} has no closed-form profile")
        symbolic = stable = record.profile
    payload = {"mechanism": args.mechanism, "params": given, "quantity": q,
               "latex": sp.latex(symbolic), "latex_stable": sp.latex(stable),
               "latex_bound": sp.latex(record.bind(stable)), "citation": record.citation}
    _emit(payload, args.json, [payload["latex"]])


ATTACK_MECHANISMS = ("laplace", "classical-gaussian")


def _attack_record(args):
    if args.mechanism not in ATTACK_MECHANISMS:
        raise UsageError(f"mechanism={args.mechanism}: {args.command} takes one of "
                         f"{', '.join(ATTACK_MECHANISMS)} (seed 001 sections 4.1 and 4.3)")
    return _record(args)


def cmd_pr(args):
    from numeric import attack, mp
    digits = _digits(args.digits)
    record, given, _ = _attack_record(args)
    out = attack.pr(record, args.alpha, digits)
    fmt = mp.format_number
    payload = {"mechanism": args.mechanism, "params": given, "alpha": args.alpha.strip(), "digits": digits,
               "precision": fmt(out["precision"], digits),
               "one_minus_precision": fmt(out["one_minus_precision"], digits),
               "recall": fmt(out["recall"], digits), "threshold": fmt(out["threshold"], digits)}
    _emit(payload, args.json, [f"{record}  alpha = {args.alpha}",
                               f"precision = {payload['precision']}", f"recall    = {payload['recall']}",
                               f"threshold = {payload['threshold']} (units of Delta Q above Q(D'))"])


def cmd_fscore(args):
    from derive.attack import prior_weight
    from numeric import attack, mp
    digits = _digits(args.digits)
    record, given, _ = _attack_record(args)
    weight = prior_weight(args.rho_p, args.rho_c, args.rho_t)
    out = attack.fscore_optimum(record, args.beta, digits, weight=weight)
    fmt = mp.format_number
    payload = {"mechanism": args.mechanism, "params": given, "beta": args.beta.strip(),
               "rho_p": args.rho_p, "rho_c": args.rho_c, "rho_t": args.rho_t, "w": str(weight),
               "digits": digits, "fscore": fmt(out["fscore"], digits),
               "one_minus_fscore": fmt(out["one_minus_fscore"], digits),
               "threshold": fmt(out["threshold"], digits), "alpha": fmt(out["alpha"], digits),
               "branch": out["branch"], "method": out["method"]}
    _emit(payload, args.json, [f"{record}  beta = {args.beta}",
                               f"F*_beta = {payload['fscore']}  (1 - F* = {payload['one_minus_fscore']})",
                               f"threshold = {payload['threshold']}, branch {payload['branch']}"])


def cmd_fscore_inverse(args):
    from numeric import attack, mp
    if args.mechanism != "laplace":
        raise UsageError(f"mechanism={args.mechanism}: fscore-inverse takes laplace (seed 001, Table 1)")
    digits = _digits(args.digits)
    out = attack.fscore_inverse(args.beta, args.bound, digits=digits)
    eps = None if out["eps"] is None else mp.format_number(out["eps"], digits)
    payload = {"mechanism": "laplace", "beta": args.beta.strip(), "bound": args.bound.strip(),
               "eps": eps, "reason": out["reason"], "digits": digits}
    _emit(payload, args.json, [f"eps = {eps}" if eps is not None else f"eps: none ({out['reason']})"])


def cmd_auc(args):
    from numeric import mp
    from numeric.auc import auc
    digits = _digits(args.digits)
    record, given, _ = _record(args)
    value = auc(record, digits)
    payload = {"mechanism": args.mechanism, "params": given, "digits": digits,
               "auc": mp.format_number(value, digits)}
    _emit(payload, args.json, [f"{record}: AUC = {payload['auc']}"])


def _fmt_all(out: dict, keys, digits) -> dict:
    from numeric.precision import format_number
    return {k: format_number(out[k], digits) for k in keys}


RISK_FIELDS = ("f0", "rho", "rho_alpha0", "power_alpha0", "posterior_alpha0", "one_minus_posterior_alpha0",
               "posterior_sup", "one_minus_posterior_sup")


def cmd_risk(args):
    from numeric import risk
    digits = _digits(args.digits)
    record, given, _ = _record(args)
    alpha0 = args.alpha0 if args.alpha0 is not None else risk.DEFAULT_ALPHA0
    prior = args.prior if args.prior is not None else risk.DEFAULT_PRIOR
    out = risk.risk(record, alpha0, prior, digits)
    payload = {"mechanism": args.mechanism, "params": given, "alpha0": alpha0.strip(), "prior": prior.strip(),
               "digits": digits, "failure": out["failure"], **_fmt_all(out, RISK_FIELDS, digits),
               "posterior_sup_attained": out["posterior_sup_attained"],
               "f0_exact": str(out["f0_expr"]), "rho_exact": str(out["rho_expr"]).replace("oo", "inf"),
               "f0_method": out["f0_method"], "rho_method": out["rho_method"], "latex": risk.latex(record)}
    _emit(payload, args.json, [
        f"{record}  alpha0 = {payload['alpha0']}, prior = {payload['prior']}",
        f"f(0)             = {payload['f0']}  ({payload['f0_exact']})",
        f"failure          = {payload['failure']}",
        f"rho              = {payload['rho']}  ({payload['rho_exact']})",
        f"rho_alpha0       = {payload['rho_alpha0']}",
        f"power_alpha0     = {payload['power_alpha0']}",
        f"posterior_alpha0 = {payload['posterior_alpha0']}  (1 - it = {payload['one_minus_posterior_alpha0']})",
        f"posterior_sup    = {payload['posterior_sup']}  (1 - it = {payload['one_minus_posterior_sup']}, "
        f"{'attained' if payload['posterior_sup_attained'] else 'not attained'})"])


def cmd_posterior(args):
    from numeric import risk
    digits = _digits(args.digits)
    record, given, _ = _record(args)
    out = risk.posterior(record, args.prior, args.alpha, digits)
    payload = {"mechanism": args.mechanism, "params": given, "prior": args.prior.strip(),
               "alpha": args.alpha.strip(), "digits": digits,
               **_fmt_all(out, ("posterior", "one_minus_posterior"), digits)}
    if "at_zero" in out:
        payload["note"] = "alpha = 0: the limit alpha -> 0+"
    _emit(payload, args.json, [f"{record}  prior = {payload['prior']}, alpha = {payload['alpha']}",
                               f"posterior     = {payload['posterior']}",
                               f"1 - posterior = {payload['one_minus_posterior']}"])


SEMANTICS_FIELDS = ("eps_prime", "posterior_lower", "posterior_upper", "ratio_lower", "ratio_upper",
                    "difference_bound", "worst_case_prior", "worst_case_prior_down", "probability",
                    "one_minus_posterior_lower", "one_minus_posterior_upper", "ratio_lower_at_prior",
                    "ratio_upper_at_prior", "difference_lower_at_prior", "difference_upper_at_prior")


def cmd_semantics(args):
    from numeric.risk import DEFAULT_PRIOR
    from numeric.semantics import semantics
    digits = _digits(args.digits)
    out = semantics(args.eps, args.delta, args.delta_prime, args.prior, digits)
    prior = args.prior if args.prior is not None else DEFAULT_PRIOR
    payload = {"eps": args.eps.strip(), "delta": args.delta.strip(), "delta_prime": args.delta_prime.strip(),
               "prior": prior.strip(), "digits": digits, **_fmt_all(out, SEMANTICS_FIELDS, digits)}
    p = payload
    _emit(payload, args.json, [
        f"(eps, delta) = ({p['eps']}, {p['delta']})-DP implies ({p['eps_prime']}, {p['delta_prime']})-PDP "
        f"(Theorem 3.9); with probability >= {p['probability']}:",
        f"posterior in [{p['posterior_lower']}, {p['posterior_upper']}] at prior {p['prior']}",
        f"posterior/prior in [{p['ratio_lower']}, {p['ratio_upper']}] (every prior; "
        f"[{p['ratio_lower_at_prior']}, {p['ratio_upper_at_prior']}] at prior {p['prior']})",
        f"|posterior - prior| <= {p['difference_bound']} (every prior; worst case at prior "
        f"{p['worst_case_prior']} upward, {p['worst_case_prior_down']} downward)"])


def cmd_compose(args):
    from numeric import composition
    from numeric.precision import format_number
    digits = _digits(args.digits)
    if args.kind == "pure":
        if args.eps is None:
            raise UsageError("eps: --eps is required for compose pure")
        if args.rho is not None or args.conversion is not None:
            raise UsageError("rho/conversion: --rho and --conversion apply to compose zcdp only")
        if args.method is None:
            raise UsageError("method: --method basic|advanced|optimal is required for compose pure")
        out = composition.compose_pure(args.eps, args.k, args.delta, args.method, digits)
        payload = {"kind": "pure", "eps0": args.eps.strip(), "k": args.k.strip(), "method": args.method,
                   "digits": digits, "eps": format_number(out["eps"], digits),
                   "delta": "0" if args.method == "basic" else args.delta.strip()}
    else:
        if args.rho is None:
            raise UsageError("rho: --rho is required for compose zcdp")
        if args.eps is not None or args.method is not None:
            raise UsageError("eps/method: --eps and --method apply to compose pure only")
        conversion = args.conversion or "cks"
        out = composition.zcdp_to_dp(args.rho, args.k, args.delta, conversion, digits)
        payload = {"kind": "zcdp", "rho": args.rho.strip(), "k": args.k.strip(), "delta": args.delta.strip(),
                   "conversion": conversion, "digits": digits, "eps": format_number(out["eps"], digits),
                   "rho_total": format_number(out["rho_total"], digits)}
        if "bun_steinke" in out:
            payload["eps_bun_steinke"] = format_number(out["bun_steinke"], digits)
    if out.get("note"):
        payload["note"] = out["note"]
    _emit(payload, args.json, [f"eps = {payload['eps']}, delta = {payload['delta']}"
                               + (f"  ({payload['note']})" if "note" in payload else "")])


SELECT_MECHANISMS = ("gaussian", "laplace", "randomized-response", "noise")


def cmd_select(args):
    from numeric import design
    from numeric.precision import format_number
    digits = _digits(args.digits)
    mech = args.mechanism
    if mech not in SELECT_MECHANISMS:
        raise UsageError(f"mechanism={mech}: select takes one of {', '.join(SELECT_MECHANISMS)} "
                         "(one-parameter mechanisms)")
    if args.target not in design.TARGETS:
        raise UsageError(f"target={args.target}: target must be one of {', '.join(design.TARGETS)}")
    if mech == "noise":
        if args.family is None:
            raise UsageError("family: --family is required for noise (one of logistic, laplace, gaussian)")
        record = derive.noise(args.family)
    else:
        if args.family is not None:
            raise UsageError(f"family={args.family}: --family applies to the noise mechanism only")
        record = MECHANISMS[mech]()
    out = design.select(record, args.target, args.value, args.alpha0, digits)
    name = out["parameter"]
    payload = {"mechanism": mech, "target": args.target, "value": args.value.strip(),
               "alpha0": None if args.alpha0 is None else args.alpha0.strip(), "digits": digits,
               name: format_number(out["value"], digits), "parameter": name,
               "equation": str(out["equation"]), "solution": str(out["expr"]),
               "solution_latex": sp.latex(out["expr"])}
    if args.family:
        payload["family"] = args.family
    _emit(payload, args.json, [f"{name} = {payload[name]}   ({name} = {payload['solution']})"])


def cmd_ztest(args):
    from numeric import design
    from numeric.precision import format_number
    digits = _digits(args.digits)
    base = {"n": args.n.strip(), "sigma": args.sigma.strip(), "m": args.m.strip(), "alpha": args.alpha.strip(),
            "digits": digits}
    if args.delta_q is not None:
        base["delta_q"] = args.delta_q.strip()
    if args.min_mu:
        if args.mu is not None:
            raise UsageError(f"mu={args.mu}: give either --mu or --min-mu, not both")
        if (args.max_relative_loss is None) == (args.min_power is None):
            raise UsageError("max_relative_loss: --min-mu needs --max-relative-loss L (or --min-power P)")
        out = design.ztest_min_mu(args.n, args.sigma, args.m, args.alpha, args.max_relative_loss,
                                  args.min_power, args.delta_q, digits)
        mu = out["mu"]
        payload = {**base, "mu": "0" if mu == 0 else format_number(mu, digits),
                   "power_unprotected": format_number(out["power_unprotected"], digits),
                   "target_power": format_number(out["target_power"], digits)}
        if args.max_relative_loss is not None:
            payload["max_relative_loss"] = args.max_relative_loss.strip()
        else:
            payload["min_power"] = args.min_power.strip()
        if "note" in out:
            payload["note"] = out["note"]
        _emit(payload, args.json, [f"mu_min = {payload['mu']}  (target power {payload['target_power']}, "
                                   f"unprotected {payload['power_unprotected']})"])
        return
    if args.mu is None:
        raise UsageError("mu: give --mu MU, or --min-mu with --max-relative-loss L")
    if args.max_relative_loss is not None or args.min_power is not None:
        raise UsageError("max_relative_loss: --max-relative-loss and --min-power go with --min-mu")
    out = design.ztest(args.n, args.sigma, args.m, args.alpha, args.mu, args.delta_q, digits)
    payload = {**base, "mu": args.mu.strip(),
               **_fmt_all(out, ("power", "power_unprotected", "relative_loss", "sigma_n"), digits)}
    _emit(payload, args.json, [f"power = {payload['power']}  (unprotected {payload['power_unprotected']}, "
                               f"relative loss {payload['relative_loss']})"])


COMMANDS = {"tradeoff": cmd_tradeoff, "profile": cmd_profile, "latex": cmd_latex,
            "pr": cmd_pr, "fscore": cmd_fscore, "fscore-inverse": cmd_fscore_inverse, "auc": cmd_auc,
            "risk": cmd_risk, "posterior": cmd_posterior, "semantics": cmd_semantics,
            "compose": cmd_compose, "select": cmd_select, "ztest": cmd_ztest,
            **cli_check.COMMANDS}


_NEGATIVE = re.compile(r"^-(\d|\.\d)")


def _join_negative_values(argv):
    """``--alpha -1e-30`` -> ``--alpha=-1e-30``: argparse takes '-1e-30' for a flag otherwise."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok.startswith("--") and "=" not in tok and i + 1 < len(argv) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def main(argv=None) -> int:
    parser = build_parser()
    try:
        argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return COMMANDS[args.command](args) or 0
    except (UsageError, DomainError) as exc:
        print(f"dp-derive: error: {exc}", file=sys.stderr)
        return 2
    except PrecisionExhausted as exc:
        print(f"dp-derive: precision exhausted: {exc}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
