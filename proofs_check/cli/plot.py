"""``plot``: pictures of trade-off curves drawn from verified data (issue #13, first kinds).

``dp-derive plot tradeoff MECH PARAMS --out FILE.(png|pdf|svg) [--log] [--bound-delta D] [--data FILE.csv]``
draws f (or, with ``--log``, 1 - f against alpha on log10 axes down to alpha = 1e-300: the coordinates
are base-10 logarithms computed on the mp path, so nothing underflows) for every value of a comma list
of parameters, with the tightest (eps, delta) curve f_{eps, delta} at ``--bound-delta`` beside each.
``dp-derive plot composition MECH PARAMS --k K --out ...`` draws the k-fold composition (exact route or
the certified engine's privacy-safe end), the CLT's G_mu and the Berry-Esseen band.

Every curve is checked from its own data before it is drawn (``numeric.curves.check_curve``: power >=
alpha, non-increasing, convex); a curve that fails is refused with the reason.  The data drawn is written
beside the image (``--data``, default FILE.csv).  matplotlib is the optional extra ``plot``.
"""

from __future__ import annotations

import os

from .common import (
    Once,
    UsageError,
    _digits_type,
    add_mechanism,
    as_int,
    combinations,
    file_errors,
    mechanism_help,
    number,
    one_value_each,
    output_file,
    setup,
    subparser,
)
from .plot_kinds import gdp_exact, kind_setup
from .plot_prior import PRIOR_AXES, PRIOR_HELP, prior_series

KINDS = ("tradeoff", "composition", "posterior", "risk", "power", "pr", "fscore", "semantics", "auc", "ztest",
         *PRIOR_AXES)
#: the other kinds draw y(x) series: (x label, y label, log x)
SERIES_AXES = {"posterior": ("alpha (type I error of the attack), log scale", "posterior probability of membership",
                             True),
               "risk": ("alpha (type I error), log scale", "relative disclosure risk (1 - f(alpha)) / alpha", True),
               "power": ("privacy-loss parameter", "power 1 - f(alpha0) of the best attack", False),
               "pr": ("recall of the attack", "precision of the attack (Neyman-Pearson test)", False),
               "fscore": ("privacy-loss parameter", "highest F_beta score of the attack", False),
               "semantics": ("number of releases k", "bound holding with probability >= 1 - delta'", False),
               "auc": ("alpha (type I error)", "power of the two-sided test (ROC)", False),
               "ztest": ("alternative mean m", "power of the one-sided Z-test", False), **PRIOR_AXES}
IMAGE_TYPES = (".png", ".pdf", ".svg")


def register(sub):
    p = subparser(sub, "plot", "draw trade-off curves (needs the 'plot' extra: matplotlib)",
                  "KIND tradeoff: f(alpha) of the mechanism (a comma list of parameters draws several), with "
                  "--log the attack power 1 - f against alpha on log10 axes down to 1e-300 (mp path), with "
                  "--bound-delta D the tightest (eps, delta) curve at delta = D beside each.  KIND composition: "
                  "the k-fold composition (exact route or certified bracket) with the CLT's G_mu and the "
                  "Berry-Esseen band.  KIND posterior: the posterior probability of membership after a "
                  "successful attack at level alpha, for the priors --prior (seed 000 Fig. 2).  KIND risk: the "
                  "relative disclosure risk (1 - f(alpha))/alpha against alpha (seed 000 Fig. 3).  KIND power: "
                  "the power 1 - f(alpha0) of the best attack against the mechanism's first parameter on "
                  "--range, for the levels --alpha0 (seed 000 Fig. 4).  KIND pr: precision against recall of "
                  "the Neyman-Pearson attack with prior weight --weight (seed 001 Figs. 3a, 4).  KIND fscore: the "
                  "highest F_beta score against the first parameter on --range, for --beta (seed 001 Fig. 3b).  "
                  "KIND semantics (MECH gaussian, or any G_mu mechanism with an exact mu; --rho R, the zCDP rho of one "
                  "release, or --mu with rho = mu^2/2): "
                  "after k = 1..--k releases, the upper bound on the posterior (for each --prior) and on the "
                  "posterior-to-prior difference that hold with probability >= 1 - --delta-prime (seed 002 Fig. 5); "
                  "(MECH randomized-response, or any pure E0-DP mechanism, --eps E0 --bound-delta D): after k "
                  "pure E0-DP queries composed by basic, advanced and optimal composition (at delta = D), the "
                  "posterior upper bound of each (seed 002 Fig. 3).  "
                  "KIND auc (MECH laplace --eps or gaussian --mu, or any mechanism of the Laplace or Gaussian "
                  "pair): ROC curves of the two-sided test of seed 003 with shift parameter/sqrt 2 (the reading "
                  "under which its tables reproduce) and their AUC; without "
                  "the parameter, the AUC (the paper's risk) against it on --range (seed 003 Figs. 1, 2, 4).  "
                  "KIND ztest (MECH gaussian --mu list, or any G_mu mechanism with an exact mu): the power of the "
                  "one-sided Z-test on a mean released by the Gaussian mechanism (--sample-size, --noise-sd, "
                  "level --alpha0) against the alternative "
                  "mean on --range, or with --mean M its ROC against alpha; the unprotected test beside "
                  "(seed 000 Fig. 5).  "
                  "Each trade-off curve is checked (power "
                  ">= alpha, non-increasing, convex) from the data it is drawn from; the data is written beside "
                  "the image.  " + PRIOR_HELP + "\n\n" + mechanism_help(),
                  ["dp-derive plot tradeoff gaussian --mu 0.5,1,2 --out gdp.png",
                   "dp-derive plot tradeoff laplace --eps 1 --log --bound-delta 1e-5 --out lap.svg",
                   "dp-derive plot composition randomized-response --eps 0.1 --k 100 --out rr.png",
                   "dp-derive plot posterior laplace --eps 1 --prior 0.01,0.1,0.5 --out post.png",
                   "dp-derive plot power gaussian --range 0:6 --alpha0 0.01,0.05,0.1 --out power.png"])
    p.add_argument("kind", metavar="KIND", choices=KINDS, help="one of: " + ", ".join(KINDS))
    add_mechanism(p)
    p.add_argument("--out", required=True, action=Once, metavar="FILE",
                   help="the image to write: .png, .pdf or .svg")
    p.add_argument("--data", default=None, action=Once, metavar="FILE.csv",
                   help="where to write the data drawn (default: the image's name with .csv)")
    p.add_argument("--log", action="store_true", help="log10 axes: alpha against 1 - f, down to --alpha-min")
    p.add_argument("--alpha-min", dest="alpha_min", default="1e-300", action=Once, metavar="A",
                   help="smallest alpha drawn with --log (default 1e-300; the mp path goes further)")
    p.add_argument("--points", type=number("count", "points"), default=None, action=Once, metavar="N",
                   help="points per curve (default 81 for tradeoff, 25 for composition)")
    p.add_argument("--also", action="append", default=None, metavar="MECH:flag=value[,flag=value]",
                   help="another mechanism on the same axes (KIND tradeoff; may be given several times), e.g. "
                        "laplace:eps=1 or uniform-sampling:mu=1,n=5")
    p.add_argument("--bound-delta", dest="bound_delta", default=None, action=Once, metavar="D",
                   help="also draw f_{eps, delta} with eps = eps(D) of each mechanism (its (eps, delta) reading)")
    p.add_argument("--p", type=number("sampling_rate", "p"), default=None, action=Once,
                   help="KIND tradeoff: also draw C_p(f) of each mechanism, subsampled at rate p in (0, 1]")
    p.add_argument("--k", type=number("count", "k"), default=None, action=Once, help="compositions (KIND composition)")
    p.add_argument("--prior", default="0.01,0.1,0.5", action=Once, metavar="P",
                   help="priors of membership, a comma list (KIND posterior; default 0.01,0.1,0.5)")
    p.add_argument("--alpha0", default="0.01,0.05,0.1", action=Once, metavar="A0",
                   help="attack levels, a comma list (KIND power; default 0.01,0.05,0.1)")
    p.add_argument("--range", dest="xrange", default=None, action=Once, metavar="LO:HI",
                   help="the x range (KIND power, fscore, auc: the mechanism's first parameter, default 0:6; "
                        "KIND ztest: the alternative mean, default 0.001:0.3)")
    p.add_argument("--weight", default="1", action=Once, metavar="W",
                   help="prior weight w = (1 - p)/p of non-membership (KIND pr and fscore; default 1; a comma "
                        "list with fscore, e.g. the weights (2 - rho_p)(1 - rho_c)(1 - rho_t) - 1 of auxiliary "
                        "information)")
    p.add_argument("--rho", default=None, action=Once, metavar="R",
                   help="zCDP rho of one release (KIND semantics, instead of --mu)")
    p.add_argument("--delta-prime", dest="delta_prime", default="0.01", action=Once, metavar="D2",
                   help="the bounds hold with probability >= 1 - D2 (KIND semantics; default 0.01)")
    p.add_argument("--sample-size", dest="sample_size", default="100", action=Once, metavar="N",
                   help="sample size n of the Z-test (KIND ztest; default 100)")
    p.add_argument("--noise-sd", dest="noise_sd", default="0.25", action=Once, metavar="S",
                   help="sd of the data's own noise (KIND ztest; default 0.25)")
    p.add_argument("--delta-range", dest="delta_range", default=None, action=Once, metavar="LO:HI",
                   help="KIND auc with gaussian: a contour of the normal-noise risk over eps (--range) and delta "
                        "(this range), seed 003 Fig. 3")
    p.add_argument("--mean", default=None, action=Once, metavar="M",
                   help="alternative mean: draws the Z-test's ROC against alpha (KIND ztest)")
    p.add_argument("--beta", default="1", action=Once, metavar="B",
                   help="the beta of F_beta, a comma list (KIND fscore; default 1)")
    p.add_argument("--digits", type=_digits_type, default=15, action=Once, metavar="D",
                   help="verified digits of the data written beside the image (default 15)")
    p.set_defaults(func=cmd_plot)

    f = subparser(sub, "figures", "draw every figure of a paper that dp-derive can draw, with an index",
                  "Draws the panels of each figure of seed P that the plot kinds cover (proofs_check/figures.py), "
                  "the data of each beside it, and DIR/index.md: each figure described in our words, the "
                  "command that made each panel, how it differs from the paper's, and the figures not drawn "
                  "with the reason.",
                  ["dp-derive figures --paper 001 --out figs001", "dp-derive figures --paper 000 --out figs000",
                   "dp-derive figures --paper 004 --out figs004 --image svg"])
    f.add_argument("--paper", required=True, action=Once, metavar="P",
                   help="a seed number: 000, 001, 002, 003 or 004")
    f.add_argument("--out", required=True, action=Once, metavar="DIR", help="the folder to write (created)")
    f.add_argument("--image", choices=("png", "svg", "pdf"), default="png", help="image type (default png)")
    f.set_defaults(func=cmd_figures)


@file_errors({"out": "out"})
def cmd_figures(args):
    from ..figures import PAPERS, figures
    if args.paper not in PAPERS:
        raise UsageError(f"paper={args.paper}: paper must be one of {', '.join(PAPERS)}")
    # like mkdir -p: the folder and missing parents are made; the nearest existing one must be a
    # writable directory
    existing = os.path.abspath(args.out)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing) or not os.access(existing, os.W_OK):
        raise UsageError(f"out={args.out}: out must be a folder (made if missing) under a writable directory")
    _pyplot()
    rows = figures(args.paper, args.out, _draw_in_process, args.image)
    drawn = sum(1 for r in rows if r["status"] == "drawn")
    failed = [r for r in rows if r["status"] == "failed"]
    for r in rows:
        what = r.get("image") or r["reason"]
        print(f"{r['figure']}: {r['status']}: {what}")
    print(f"{drawn} panels drawn, {len(rows) - drawn - len(failed)} figures not drawn, {len(failed)} failed; "
          "index.md written beside the images")
    return 1 if failed else 0


def _draw_in_process(argv) -> int:
    """Run ``dp-derive plot ...`` (argv starting with "plot") through this module's own parser."""
    import argparse

    from derive.errors import DomainError
    parser = argparse.ArgumentParser(prog="dp-derive", allow_abbrev=False)
    register(parser.add_subparsers(dest="command"))
    try:
        args = parser.parse_args(list(argv))
        return args.func(args) or 0
    except SystemExit as exc:                   # an argument the plot parser refused (said on stderr)
        return int(exc.code or 2)
    except (UsageError, DomainError) as exc:
        import sys
        print(f"dp-derive: error: {exc}", file=sys.stderr)
        return 2


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise UsageError("plot: matplotlib is not installed; install the extra: pip install -e \".[plot]\"") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _paths(args):
    out = args.out
    ext = os.path.splitext(out)[1].lower()
    if ext not in IMAGE_TYPES:
        raise UsageError(f"out={out}: out must end in one of {', '.join(IMAGE_TYPES)}")
    output_file("out", out)
    data = args.data or os.path.splitext(out)[0] + ".csv"
    output_file("data", data)
    return out, data


@file_errors({"out": "out", "data": "data"})
def cmd_plot(args):
    from derive.domains import parse_in
    from numeric import curves as CV
    out, data = _paths(args)
    varied = kind_setup(args)
    mechanism, records, given, _ = setup(args)
    for name in varied:
        given.pop(name, None)
    combos = combinations(args, mechanism.param_names, given)
    if args.p is not None and args.kind != "tradeoff":
        raise UsageError(f"p={args.p}: --p (C_p(f)) is for KIND tradeoff")
    if args.kind in SERIES_AXES:
        return _series_plot(args, mechanism, records, given, combos, out, data)
    if args.kind == "composition":
        if args.k is None:
            raise UsageError("k: --k K is required with KIND composition")
        if args.also:
            raise UsageError("also: --also is for KIND tradeoff")
        if len(combos) != 1:
            one_value_each(given, "KIND composition")
        curves, notes = _composition_curves(args, mechanism, records, combos[0]), []
        title = f"{as_int(args.k)} x {records.get(combos[0])}: composition, CLT and Berry-Esseen band"
    else:
        if args.k is not None:
            raise UsageError("k: --k is for KIND composition")
        n = int(args.points or 81)
        if args.log:
            lo = parse_in("alpha_open", args.alpha_min, "alpha_min")
            import mpmath
            with mpmath.workdps(30):
                lo_exp = float(mpmath.log10(mpmath.mpf(lo.p) / lo.q))
            alphas = CV.log_grid(lo_exp, "0.5", n)
        else:
            alphas = CV.mixed_grid(n)
        curves, notes = [], []
        extra = [_also_record(text) for text in (args.also or [])]
        for rec in [records.get(c) for c in combos] + extra:
            grid, note = CV.timed_grid(rec, alphas, CV.thinned(alphas, 9), args.digits)
            if note:
                notes.append(note)
            curves.append(CV.tradeoff_curve(rec, grid, args.digits))
            if args.p is not None:
                curves.append(CV.subsampled_curve(rec, args.p, grid, args.digits))
            if args.bound_delta is not None:
                curves.append(_bound_curve(rec, args.bound_delta, grid, args.digits))
        title = f"trade-off curves: {', '.join([str(records.get(c)) for c in combos] + [str(r) for r in extra])}"
    for c in curves:
        if c.kind in ("tradeoff", "bound"):
            chk = CV.check_curve(c)
            if not chk.ok:
                raise UsageError(f"plot: the curve {c.label} fails its check ({chk.reason}); not drawn")
    CV.write_csv(data, curves)
    _draw(curves, args.log and args.kind == "tradeoff", title, out)
    print(f"wrote {out} and {data} ({len(curves)} curves, {sum(len(c.alphas) for c in curves)} points, "
          "each trade-off curve checked: power >= alpha, non-increasing, convex)")
    for note in (notes if args.kind == "tradeoff" else []):
        print("note: " + note)
    return 0


def _bound_curve(record, delta, alphas, digits):
    """f_{eps, delta} with eps = eps(delta) of the record: its (eps, delta)-DP reading."""
    import mpmath

    import derive
    from numeric import curves as CV
    from numeric import mp
    eps = mp.profile_eps(record, delta, digits)
    if not mpmath.isfinite(eps):
        raise UsageError(f"bound_delta={delta}: eps(delta) is infinite for {record}")
    with mpmath.workdps(digits + 10):
        shown = mpmath.nstr(eps, digits)
    rec = derive.approx_dp(shown, delta)
    c = CV.tradeoff_curve(rec, alphas, digits, label=f"f_(eps, delta) of {record}: eps = {mpmath.nstr(eps, 6)}, "
                                                      f"delta = {delta}")
    return CV.Curve(c.label, c.alphas, c.beta, c.power, c.digits, "bound")


def _composition_curves(args, mechanism, records, combo):
    import mpmath

    from numeric import clt as C
    from numeric import compose_exact as X
    from numeric import curves as CV
    from numeric.bridge import mpf_of
    k = as_int(args.k)
    rec = records.get(combo)
    n = int(args.points or 25)
    alphas = CV.mixed_grid(n)
    name = mechanism.name
    digits = min(args.digits, 15)
    from derive.mechanisms.table import ENGINE, with_capability

    from .compose_fdp import _components
    if name not in with_capability(ENGINE):
        raise UsageError(f"mechanism={name}: composition plots need the exact routes or the engine "
                         f"({', '.join(with_capability(ENGINE))})")
    comps, limit = _components([(name, combo, k, None)])
    if limit is not None:                       # no components left: f = Id; none at all: no privacy, f = 0
        raise UsageError(f"composition: the composition is degenerate ({limit}: f = "
                         f"{'0' if comps is None else '1 - alpha'}); nothing to compare with the CLT")
    exact = X.available(name, k, combo) if name in X.ROUTES else False
    betas, powers = [], []
    if exact:
        for a in alphas:
            v = X.tradeoff(name, combo, k, a, digits)
            betas.append(mpmath.mpf(mpf_of(v.value)))
            powers.append(mpmath.mpf(mpf_of(v.complement)))
        how = "exact"
    else:
        from numeric import pld
        comp = pld.compose(comps)
        for a in alphas:
            r = comp.tradeoff(a)
            betas.append(mpmath.mpf(r.beta))
            powers.append(mpmath.mpf(r.power))
        how = "certified bracket, privacy-safe end"
    main = CV.Curve(f"{k} x {rec} ({how})", tuple(alphas), tuple(betas), tuple(powers), digits)
    res = C.clt([(rec, k)], digits)
    with mpmath.workdps(digits + 10):
        g = [C.gdp_beta(res.mu, mpmath.mpf(a), digits) for a in alphas]
        clt_curve = CV.Curve(f"CLT: G_mu, mu = {mpmath.nstr(res.mu, 6)}", tuple(alphas), tuple(g),
                             tuple(1 - x for x in g), digits, "approximation")
        # the band is a statement on [gamma, 1 - gamma] only (DRS Thm 3.5): drawn there
        inside = [a for a in alphas if res.gamma <= mpmath.mpf(a) <= 1 - res.gamma]
        band = [C.band(res, mpmath.mpf(a)) for a in inside]
        lo = CV.Curve(f"Berry-Esseen band on [gamma, 1 - gamma], gamma = {mpmath.nstr(res.gamma, 4)}: lower",
                      tuple(inside), tuple(b[0] for b in band), tuple(1 - b[0] for b in band), digits, "band")
        hi = CV.Curve("Berry-Esseen band: upper", tuple(inside), tuple(b[1] for b in band),
                      tuple(1 - b[1] for b in band), digits, "band")
    return [main, clt_curve, lo, hi]


def _draw(curves, log, title, out):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    styles = {"tradeoff": {"lw": 2}, "bound": {"lw": 1.2, "ls": "--"}, "approximation": {"lw": 1.5, "ls": "-."},
              "band": {"lw": 0.8, "ls": ":", "color": "grey"}}
    for c in curves:
        st = dict(styles.get(c.kind, {}))
        if log:
            ax.plot(c.log10_alpha(), c.log10_power(), label=c.label, **st)
        else:
            import mpmath
            ax.plot([float(mpmath.mpf(a)) for a in c.alphas], [float(b) for b in c.beta], label=c.label, **st)
    if log:
        lo = min(min(c.log10_alpha()) for c in curves)
        ax.plot([lo, 0], [lo, 0], color="black", lw=0.6, label="power = alpha (no privacy loss)")
        ax.set_xlabel("log10 alpha (type I error)")
        ax.set_ylabel("log10 (1 - f(alpha)) (attack power)")
    else:
        ax.plot([0, 1], [1, 0], color="black", lw=0.6, label="Id: f = 1 - alpha (perfect privacy)")
        ax.set_xlabel("alpha (type I error)")
        ax.set_ylabel("beta = f(alpha) (type II error)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    _finish_axes(plt, fig, ax, title, out)


def _finish_axes(plt, fig, ax, title, out, legend=True):
    """Title, legend, grid; write the image and close the figure."""
    ax.set_title(_wrap(title), fontsize=9)
    if legend:
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def _wrap(title: str) -> str:
    import textwrap
    return "\n".join(textwrap.wrap(title, 80))


def _split_list(text: str, key: str, name: str):
    from derive.domains import parse_in
    items = [t.strip() for t in str(text).split(",") if t.strip()]
    if not items:
        raise UsageError(f"{name}={text}: {name} must be a comma list of numbers")
    for t in items:
        parse_in(key, t, name)
    return items


def _series_plot(args, mechanism, records, given, combos, out, data):
    import mpmath

    from numeric import curves as CV
    from numeric import mp
    from numeric import risk as NR
    n = int(args.points or 61)
    digits = args.digits
    items = []
    if args.kind in ("pr", "fscore"):
        return _attack_series(args, mechanism, records, given, combos, out, data, n, digits)
    if args.kind == "semantics":
        return _semantics_series(args, mechanism, records, combos, out, data, digits)
    if args.kind in PRIOR_AXES:
        return prior_series(args, mechanism, records, combos, out, data, digits, _emit_series)
    if args.kind == "auc":
        return _auc_series(args, mechanism, records, given, combos, out, data, n, digits)
    if args.kind == "ztest":
        return _ztest_series(args, mechanism, records, combos, out, data, n, digits)
    if args.kind == "power":
        first = mechanism.param_names[0]
        xs = _range_grid(args, first, "0:6", n)
        others = {k: v[0] if isinstance(v, tuple) else v for k, v in given.items()}
        for a0 in _split_list(args.alpha0, "alpha0_open", "alpha0"):
            def fn(x, a0=a0):
                return mp.power(records.get({**others, first: x}), a0, digits)
            items.append(CV.series(f"{mechanism.name}, alpha0 = {a0}", xs, fn, digits))
        xlabel = f"{first} (privacy-loss parameter of {mechanism.name})"
        title = f"power of the best attack against {mechanism.name} at levels alpha0"
    else:
        lo = mpmath.log10(mpmath.mpf(args.alpha_min if args.alpha_min != "1e-300" else "1e-6"))
        xs = CV.log_grid(float(lo), "1", n)
        for c in combos:
            rec = records.get(c)
            if args.kind == "posterior":
                for pr in _split_list(args.prior, "prior", "prior"):
                    items.append(CV.series(f"{rec}, prior = {pr}", xs,
                                           lambda a, rec=rec, pr=pr: NR.posterior(rec, pr, a, digits).posterior,
                                           digits))
            else:
                items.append(CV.series(str(rec), xs, lambda a, rec=rec: _ratio(mp.power(rec, a, digits), a), digits))
        xlabel = SERIES_AXES[args.kind][0]
        title = (f"posterior after a successful attack: {', '.join(str(records.get(c)) for c in combos)}"
                 if args.kind == "posterior" else
                 f"relative disclosure risk: {', '.join(str(records.get(c)) for c in combos)}")
    return _emit_series(items, args.kind, xlabel, SERIES_AXES[args.kind][1], title, out, data,
                        logx=SERIES_AXES[args.kind][2], logy=args.kind == "risk")


def _ratio(power, alpha_text):
    import mpmath
    with mpmath.workdps(40):
        v = power
        if hasattr(v, "q"):
            v = mpmath.mpf(v.p) / v.q
        return v / mpmath.mpf(alpha_text)


def _draw_series(items, xlabel, ylabel, logx, title, out, logy=False):
    import mpmath
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    for it in items:
        xs = [float(mpmath.mpf(x)) for x in it.x]
        ax.plot(xs, [float(y) for y in it.y], label=it.label, lw=1.6)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _finish_axes(plt, fig, ax, title, out)


def _attack_series(args, mechanism, records, given, combos, out, data, n, digits):
    """KIND pr (precision against recall, derive.attack.pr_curve) and fscore (numeric.attack.fscore_optimum
    against the first parameter)."""
    from derive import attack as A
    from derive.domains import parse_in
    from numeric import attack as NA
    from numeric import curves as CV
    from numeric import mp
    if args.kind == "pr":
        parse_in("weight", args.weight, "weight")
    items = []
    if args.kind == "pr":
        xs = CV.lin_grid("0.01", "1", n)
        for c in combos:
            rec = records.get(c)
            expr = rec.bind(A.pr_curve(rec))
            items.append(CV.series(f"{rec}, w = {args.weight}", xs,
                                   lambda r, expr=expr: mp.evaluate(expr, {A.recall: r, A.w: args.weight}, digits),
                                   digits))
        xlabel = SERIES_AXES["pr"][0]
        title = f"precision against recall of the best attack: {', '.join(str(records.get(c)) for c in combos)}"
    else:
        first = mechanism.param_names[0]
        xs = _range_grid(args, first, "0:6", n)
        others = {k: v[0] if isinstance(v, tuple) else v for k, v in given.items()}
        for b in _split_list(args.beta, "beta_f", "beta"):
            for wv in _split_list(args.weight, "weight", "weight"):
                def fn(x, b=b, wv=wv):
                    return NA.fscore_optimum(records.get({**others, first: x}), b, digits, weight=wv).fscore
                items.append(CV.series(f"{mechanism.name}, beta = {b}, w = {wv}", xs, fn, digits))
        xlabel = f"{first} (privacy-loss parameter of {mechanism.name})"
        title = f"highest F_beta score of the attack against {mechanism.name}"
    return _emit_series(items, args.kind, xlabel, SERIES_AXES[args.kind][1], title, out, data)


def _semantics_series(args, mechanism, records, combos, out, data, digits):
    """KIND semantics: numeric.semantics.bounds_over_releases for k = 1..K (at most 60 points) of zCDP
    releases (a G_mu record: rho = mu^2/2, or --rho), else pure eps-DP queries (an f_{eps,0} record)."""
    import mpmath

    from derive.domains import parse_in
    from derive.mechanisms import facts as K
    from numeric import curves as CV
    from numeric import semantics as NS

    from .common import fact_value
    symbolic = mechanism.build(None, records.options)
    if not gdp_exact(symbolic):
        eps0 = fact_value(mechanism, symbolic, records, combos[0], K.EPS_DELTA, 0)
        return _semantics_pure_series(args, eps0, out, data, digits)
    if args.rho is not None:
        rho = args.rho
        parse_in("rho_positive", rho, "rho")
    else:
        mu = fact_value(mechanism, symbolic, records, combos[0], K.GDP_MU)
        with mpmath.workdps(40):
            m = parse_in("mu", mu, "mu")
            rho = m * m / 2                        # exact (a SymPy Rational)
    parse_in("delta_prime_open", args.delta_prime, "delta_prime")
    ks = _release_counts(as_int(args.k or 60))
    xs = [str(k) for k in ks]
    items = []
    diff = None
    for pr in _split_list(args.prior, "prior", "prior"):
        vals = NS.bounds_over_releases(rho, args.delta_prime, ks, pr, digits=digits)
        items.append(CV.Series(f"posterior upper bound, prior = {pr}", tuple(xs),
                               tuple(mpmath.mpf(v) for v in vals.posterior_upper), digits))
        diff = vals.difference_bound
    items.append(CV.Series("posterior-to-prior difference bound (any prior)", tuple(xs),
                           tuple(mpmath.mpf(v) for v in diff), digits, "difference"))
    title = (f"bounds after k zCDP releases, rho = {rho} each, probability >= 1 - {args.delta_prime} "
             "(Bun-Steinke conversion, best delta per k)")
    return _emit_series(items, "semantics", SERIES_AXES["semantics"][0], SERIES_AXES["semantics"][1], title, out, data)


def _release_counts(k_max: int) -> list:
    """k = 1..k_max, at most about 60 of them (both ends kept)."""
    step = max(1, -(-k_max // 60))
    return list(range(1, k_max + 1, step)) + ([k_max] if (k_max - 1) % step else [])


def _semantics_pure_series(args, eps0, out, data, digits):
    """KIND semantics with pure eps0-DP queries (seed 002 Fig. 3, catalog KZ-P3): k of them
    composed by basic (k eps0, 0), advanced and optimal composition (numeric.composition.compose_pure at
    delta = --bound-delta), each read through Theorem 3.9 (numeric.semantics) as the posterior upper
    bound that holds with probability >= 1 - delta', for each --prior; the first k where each bound
    exceeds 0.8 is printed (the figure's question)."""
    import mpmath

    from derive.domains import parse_in
    from derive.errors import DomainError
    from numeric import composition as NC
    from numeric import curves as CV
    from numeric import semantics as NS
    parse_in("eps_positive", eps0, "eps")
    delta = args.bound_delta
    parse_in("delta_positive", delta, "bound_delta")
    parse_in("delta_prime_open", args.delta_prime, "delta_prime")
    ks = _release_counts(as_int(args.k or 100))
    xs = tuple(str(k) for k in ks)
    items, crossings = [], []
    for pr in _split_list(args.prior, "prior", "prior"):
        for method in ("basic", "advanced", "optimal"):
            def bound(k, method=method, pr=pr):
                r = NC.compose_pure(eps0, k, None if method == "basic" else delta, method, digits)
                d = "0" if method == "basic" else delta
                try:
                    sem = NS.semantics(mpmath.nstr(r.eps, digits + 10), d, args.delta_prime, pr, digits)
                except DomainError:
                    raise UsageError(f"eps={eps0}: {method} composition of k = {k} queries gives an eps beyond "
                                     "what Theorem 3.9 reads (every posterior bound is 1 long before); give a "
                                     "smaller eps") from None
                return mpmath.mpf(sem.posterior_upper)
            ys = [bound(k) for k in ks]
            label = f"{method} composition, prior = {pr}"
            items.append(CV.Series(label, xs, tuple(ys), digits))
            i = next((i for i, y in enumerate(ys) if y > mpmath.mpf("0.8")), None)
            if i is None:
                crossings.append(f"{label}: posterior bound <= 0.8 up to k = {ks[-1]}")
                continue
            # the bound grows with k (each composed eps does), so the first k above 0.8 lies in
            # (ks[i-1], ks[i]]: bisection over the integers
            from numeric.solvers import bisect, integer_midpoint
            lo, hi = bisect(lambda k: not bound(k) > mpmath.mpf("0.8"), (ks[i - 1] if i > 0 else 0), ks[i],
                            stop=lambda lo, hi: hi - lo <= 1, mid=integer_midpoint)
            crossings.append(f"{label}: posterior bound > 0.8 first at k = {hi}")
    title = (f"posterior upper bound after k pure {eps0}-DP queries, probability >= 1 - {args.delta_prime} "
             f"(composed at delta = {delta}; Theorem 3.9)")
    rc = _emit_series(items, "semantics", SERIES_AXES["semantics"][0], SERIES_AXES["semantics"][1], title, out,
                      data)
    for line in crossings:
        print("note: " + line)
    return rc


def _auc_series(args, mechanism, records, given, combos, out, data, n, digits):
    """KIND auc: seed 003's two-sided tests (derive.two_sided) on the record's pair, the Laplace pair (its eps)
    or the Gaussian one (its mu), shift = that parameter / sqrt 2 (the reading of its tables,
    proofs_check.reproduce_mha): ROC curves with their exact AUC, or the AUC against the mechanism's first
    parameter on --range."""
    import mpmath
    import sympy as sp

    from derive import two_sided as T
    from derive.domains import parse_in
    from derive.mechanisms import facts as K
    from derive.symbols import alpha as ALPHA
    from numeric import curves as CV
    from numeric import mp
    from numeric.bridge import mpf_of

    from .common import fact_parameter, fact_value
    symbolic = mechanism.build(None, records.options)
    laplace = symbolic.fact(K.LAPLACE_EPS) is not None
    power, auc, shift = ((T.laplace_power(), T.laplace_auc_printed(), T.r) if laplace else
                         (T.normal_power(), T.normal_auc_printed(), T.d))
    key = K.LAPLACE_EPS if laplace else K.GDP_MU
    flag = fact_parameter(mechanism, symbolic, key)
    named = flag or ("eps" if laplace else "mu")

    def shift_at(c):                            # the shift parameter / sqrt 2 of the record at c
        v = fact_value(mechanism, symbolic, records, c, key)
        return (parse_in(dict(mechanism.params)[flag], v, flag) if flag else v) / sp.sqrt(2)
    first = mechanism.param_names[0]
    test = "two-sided Laplace test" if laplace else "two-sided normal test"
    if args.delta_range is not None:
        if laplace or first in given:
            raise UsageError("delta_range: --delta-range draws the normal-noise contour: KIND auc gaussian with "
                             "--range and no --mu")
        return _auc_contour(args, auc, shift, out, data, n, digits)
    items = []
    if first in given:
        xs = CV.lin_grid("0", "1", n)
        for c in combos:
            sub = {shift: shift_at(c)}
            a_val = mp.evaluate(auc.xreplace(sub), {}, digits)
            shown = ", ".join(f"{p} = {c[p]}" for p in mechanism.param_names)
            label = f"{mechanism.name} {shown}: AUC = {mpmath.nstr(mpf_of(a_val), 6)}"
            items.append(CV.series(label, xs, lambda a, e=power.xreplace(sub): mp.evaluate(e, {ALPHA: a}, digits),
                                   digits, "roc"))
        xlabel, ylabel = SERIES_AXES["auc"][0], SERIES_AXES["auc"][1]
        title = f"ROC curves of the {test} (shift = {named}/sqrt 2)"
    else:
        xs = _range_grid(args, first, "0:6", n)

        def fn(x):
            return mp.evaluate(auc.xreplace({shift: shift_at({**combos[0], first: x})}), {}, digits)
        items.append(CV.series(f"AUC of the {test} (the paper's risk)", xs, fn, digits, "auc"))
        xlabel, ylabel = f"{first} (shift = {named}/sqrt 2)", "risk = AUC of the ROC"
        title = f"risk (AUC) of the {test} against {first}"
    return _emit_series(items, "auc", xlabel, ylabel, title, out, data)


def _ztest_series(args, mechanism, records, combos, out, data, n, digits):
    """KIND ztest: numeric.design.ztest (power of the one-sided Z-test on the mean protected by the record's
    G_mu, and the unprotected test) against the alternative mean, or its ROC against alpha at --mean."""
    from derive.mechanisms import facts as K
    from numeric import curves as CV
    from numeric import design as DS

    from .common import fact_value
    symbolic = mechanism.build(None, records.options)
    mus = [fact_value(mechanism, symbolic, records, c, K.GDP_MU) for c in combos]
    a0 = _split_list(args.alpha0, "alpha0_open", "alpha0")[0]
    items = []
    if args.mean is None:
        xs = _range_grid(args, "m", "0.001:0.3", n)
        xs = [x for x in xs if float(x) > 0]

        def run(mu, x, key):
            return getattr(DS.ztest(args.sample_size, args.noise_sd, x, a0, mu, digits=digits), key)
        for mu in mus:
            items.append(CV.series(f"mu = {mu}", xs, lambda x, mu=mu: run(mu, x, "power"), digits))
        items.append(CV.series("unprotected (mu = inf)", xs, lambda x: run(mus[0], x, "power_unprotected"),
                               digits, "unprotected"))
        xlabel, ylabel = "alternative mean m", f"power of the one-sided Z-test at level {a0}"
        title = f"Z-test power, n = {args.sample_size}, noise sd = {args.noise_sd}, Gaussian mechanism"
    else:
        xs = [x for x in CV.mixed_grid(n) if 0 < float(x) < 1]

        def run(mu, a, key):
            return getattr(DS.ztest(args.sample_size, args.noise_sd, args.mean, a, mu, digits=digits), key)
        for mu in mus:
            items.append(CV.series(f"mu = {mu}", xs, lambda a, mu=mu: run(mu, a, "power"), digits))
        items.append(CV.series("unprotected (mu = inf)", xs, lambda a: run(mus[0], a, "power_unprotected"),
                               digits, "unprotected"))
        xlabel, ylabel = "alpha (level of the Z-test)", "power (ROC)"
        title = f"Z-test ROC, m = {args.mean}, n = {args.sample_size}, noise sd = {args.noise_sd}, Gaussian mechanism"
    return _emit_series(items, "ztest", xlabel, ylabel, title, out, data)


def _auc_contour(args, auc, shift, out, data, n, digits):
    """Seed 003 Fig. 3: the AUC of the two-sided normal test over (eps, delta), with the noise of the
    (eps, delta) Gaussian mechanism tau^2 = 2 ln(2/delta)(Delta f/eps)^2 and d = Delta f/(sqrt2 tau) =
    eps/(2 sqrt(ln(2/delta))) (the reading under which Table 3 reproduces, reproduce --paper 003)."""
    import csv

    import mpmath

    from numeric.bridge import compile_mp, to_mpf
    m = min(int(args.points or 41), 81)
    es = _range_grid(args, "eps", "0:6", m)
    # the paper's Table 3 takes delta up to 1.5: any delta in (0, 2) keeps ln(2/delta) > 0
    ds = _range_grid(args, "delta_range", None, m, text=args.delta_range, key="eps_positive")
    if mpmath.mpf(ds[-1]) >= 2:
        raise UsageError(f"delta_range={args.delta_range}: delta_range must lie in (0, 2) (ln(2/delta) > 0)")
    fn = compile_mp(auc)
    grid = []
    with mpmath.workdps(digits + 10):
        for d in ds:
            row = []
            for e in es:
                dv = mpmath.mpf(e) / (2 * mpmath.sqrt(mpmath.log(2 / mpmath.mpf(d))))
                row.append(to_mpf(fn({shift: dv})))
            grid.append(row)
    with open(data, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["eps", "delta", "risk"])
        for d, row in zip(ds, grid):
            for e, z in zip(es, row):
                w.writerow([e, d, mpmath.nstr(z, 12)])
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    cs = ax.contour([float(e) for e in es], [float(d) for d in ds], [[float(z) for z in row] for row in grid],
                    levels=[0.51, 0.55, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99])
    ax.clabel(cs, fontsize=7)
    ax.set_xlabel("eps")
    ax.set_ylabel("delta")
    _finish_axes(plt, fig, ax, "risk (AUC of the two-sided normal test) of the (eps, delta) Gaussian mechanism, "
                 "d = eps/(2 sqrt(ln(2/delta)))", out, legend=False)
    print(f"wrote {out} and {data} (a {m} x {m} grid of the risk over eps and delta)")
    return 0


def _also_record(text: str):
    """The record of ``MECH:flag=value[,flag=value]`` (parameters and options by their flag names)."""
    from derive.mechanisms.table import BY_NAME
    name, _, rest = str(text).partition(":")
    if name not in BY_NAME:
        raise UsageError(f"also={text}: also must start with one of {', '.join(BY_NAME)} and a colon")
    mech = BY_NAME[name]
    values, options = {}, {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lstrip("-").replace("-", "_")
        if not eq or not value.strip():
            raise UsageError(f"also={text}: each parameter is flag=value")
        if key in mech.param_names:
            values[key] = value.strip()
        elif key in {o.name for o in mech.options}:
            options[key] = value.strip()
        else:
            raise UsageError(f"also={text}: {key} is not a parameter of {name} (its parameters: "
                             f"{', '.join(mech.param_names)})")
    missing = [n for n in mech.param_names if n not in values]
    if missing:
        raise UsageError(f"also={text}: {name} needs {', '.join(missing)}")
    return mech.build(values, options)


def _range_grid(args, name: str, default: str | None, n: int, text=None, key: str | None = None) -> list:
    """n exact decimals from LO to HI of ``--range`` (or ``text``), each end checked in the domain of
    ``name`` (or ``key``), LO < HI."""
    from derive.domains import DOMAINS, parse_in
    from numeric import curves as CV
    raw = text if text is not None else (args.xrange if args.xrange is not None else default)
    flag = "range" if text is None else name
    parts = str(raw).split(":")
    if len(parts) != 2:
        raise UsageError(f"{flag}={raw}: {flag} must be LO:HI")
    dom = key or (name if name in DOMAINS else "eps")
    lo, hi = (parse_in(dom, t.strip(), flag) for t in parts)
    if not lo < hi:
        raise UsageError(f"{flag}={raw}: {flag} must be LO:HI with LO < HI")
    return CV.lin_grid(parts[0].strip(), parts[1].strip(), n)


def _emit_series(items, kind, xlabel, ylabel, title, out, data, logx=False, logy=False) -> int:
    """Write the series' data, draw them, say so."""
    from numeric import curves as CV
    CV.write_series_csv(data, items, "x", kind)
    _draw_series(items, xlabel, ylabel, logx, title, out, logy=logy)
    print(f"wrote {out} and {data} ({len(items)} series, {sum(len(i.x) for i in items)} points)")
    return 0
