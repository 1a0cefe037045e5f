"""``dp-derive check`` and ``dp-derive reproduce``: parsers and commands."""

from __future__ import annotations

import argparse
import os

from ..papers import PAPER_IDS
from ..report import FORMATS
from ..usage import Once, UsageError, positive_int, positive_seconds

#: the most local processes --jobs may ask for
MAX_JOBS = 256


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one), at most 8:
    ``check`` and ``reproduce --errata`` use them all unless --jobs says otherwise."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 8))

CHECK_EPILOG = """\
statuses: PROVEN (SymPy decided it exactly), CONFIRMED (numerically, verified precision),
FAILED (a counter-example: a defect), REFUTED (a paper statement that is false: an erratum),
INCONCLUSIVE (undecided, with the reason), ERROR (the check raised or ran out of time).
Exit status 1 on FAILED or ERROR, else 0; 2 on bad input.

examples:
  dp-derive check --paper 000 --jobs 2
  dp-derive check --claim DF-Thm1 --json
  dp-derive check --format md --output report.md
"""

REPRODUCE_EPILOG = """\
examples:
  dp-derive reproduce --paper 001
  dp-derive reproduce --errata --json
  dp-derive reproduce --format latex --output reproduce.tex
"""


def _output_options(p):
    p.add_argument("--format", choices=FORMATS, default=None, action=Once,
                   help="report format (default text; --json is --format json)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--output", "-o", metavar="FILE", default=None, action=Once,
                   help="write the report to FILE instead of standard output")
    p.add_argument("--quiet", action="store_true",
                   help="no progress lines on stderr (by default one line per finished claim once the run has "
                        "lasted 2 s, also when stderr is not a terminal)")


def register(sub) -> None:
    ch = sub.add_parser("check", help="check the theorems and paper claims of the registry",
                        description="Check every registered claim (or a paper's, or one) and report its "
                                    "status, method, worst margin and where it occurs.",
                        epilog=CHECK_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
                        allow_abbrev=False)
    ch.add_argument("--paper", choices=PAPER_IDS, default=None, action=Once, help="only the claims of this seed paper")
    ch.add_argument("--claim", metavar="ID", default=None, action=Once, help="only this claim id")
    ch.add_argument("--certified", action="store_true",
                    help="evaluate inequalities with rigorous interval enclosures (extra 'certified')")
    ch.add_argument("--jobs", type=positive_int("jobs", MAX_JOBS), action=Once, default=None, metavar="N",
                    help="run claims in N local processes (default: one per available CPU, at most 8; "
                         "1 runs them in this process)")
    ch.add_argument("--claim-timeout", type=positive_seconds("claim-timeout"), default=60.0, action=Once, metavar="S",
                    help="time limit per claim in seconds (default 60); past it the claim is ERROR")
    ch.add_argument("--module", action="append", default=[], metavar="MODULE",
                    help="import MODULE first (it registers claims of your own); may be repeated")
    ch.add_argument("--progress", action="store_true",
                    help="print one line per finished claim on stderr once the run has lasted 2 s (the "
                         "default; the flag overrides --quiet)")
    _output_options(ch)
    ch.set_defaults(func=cmd_check)

    rp = sub.add_parser("reproduce", help="recompute the numbers printed in the papers, list the errata",
                        description="Recompute every printed number the toolkit can (reproduced | differs | "
                                    "unverifiable, with the reading used), or list the paper statements "
                                    "the checker refuted (--errata).",
                        epilog=REPRODUCE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
                        allow_abbrev=False)
    rp.add_argument("--paper", choices=PAPER_IDS, default=None, action=Once, help="only this seed paper")
    rp.add_argument("--errata", action="store_true",
                    help="list the paper statements found false, with what holds instead and the claim")
    rp.add_argument("--jobs", type=positive_int("jobs", MAX_JOBS), action=Once, default=None, metavar="N",
                    help="with --errata: run the statement claims in N processes (default: one per available "
                         "CPU, at most 8)")
    rp.add_argument("--progress", action="store_true", help="with --errata: progress lines on stderr")
    _output_options(rp)
    rp.set_defaults(func=cmd_reproduce)


def _format(args) -> str:
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"format={args.format}: --json means --format json; give one of them")
    return "json" if args.json else (args.format or "text")


def _open_output(path):
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"output={path}: cannot write there ({exc.strerror})") from None


def _write(text: str, handle) -> None:
    if handle is None:
        print(text)
    else:
        with handle:
            handle.write(text + "\n")


def cmd_check(args) -> int:
    from .. import checker
    from ..report import render_check
    fmt = _format(args)
    for name in args.module:
        if not name.strip():
            raise UsageError("module=: give a module name (e.g. mypackage.claims)")
    try:
        claims = checker.select(args.paper, args.claim, modules=tuple(args.module))
    except ImportError as exc:
        raise UsageError(f"module={exc.name}: cannot import it ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - a user module that fails while registering its claims
        raise UsageError(f"module={','.join(args.module)}: importing it raised "
                         f"{type(exc).__name__}: {exc}") from None
    if args.claim is not None and not claims:
        valid = sorted(c.id for c in checker.select(args.paper, modules=tuple(args.module)))
        raise UsageError(f"claim={args.claim}: no such claim id; valid ids: {', '.join(valid)}")
    if args.certified:
        from ..certified import require
        require()
    handle = _open_output(args.output)
    jobs = args.jobs if args.jobs is not None else (default_jobs() if len(claims) > 1 else 1)
    result = checker.run(claims, jobs=jobs, timeout=args.claim_timeout, certified=args.certified,
                         progress=args.progress or not args.quiet, modules=tuple(args.module))
    _write(render_check(result, fmt), handle)
    return checker.exit_code(result)


def cmd_reproduce(args) -> int:
    from ..report import render_errata, render_reproduce
    fmt = _format(args)
    handle = _open_output(args.output)
    if args.errata:
        from ..checker import exit_code
        from ..errata import errata
        found, result = errata(args.paper, jobs=args.jobs if args.jobs is not None else default_jobs(), progress=args.progress or not args.quiet)
        _write(render_errata(found, fmt, result.get("unverifiable", ())), handle)
        return exit_code(result)
    from ..reproduce import reproduce
    _write(render_reproduce(reproduce(args.paper), fmt), handle)
    return 0

