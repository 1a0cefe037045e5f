"""``dpsgd --sweep FILE.csv --out RESULT.csv``: calibration sweeps, local or on a Dask cluster (issue #27,
item 4; numeric/dpsgd_sweep.py)."""

from __future__ import annotations

import sys

from ..usage import Once, UsageError, positive_int

MAX_JOBS = 256


def add_sweep_arguments(p) -> None:
    p.add_argument("--sweep", default=None, action=Once, metavar="FILE.csv",
                   help="calibrate every row of a CSV (columns n, batch, epochs or steps, target_eps, delta; "
                        "optional sampling): the smallest certified sigma per row, written to --out")
    p.add_argument("--out", default=None, action=Once, metavar="RESULT.csv",
                   help="with --sweep: the result file (CSV, or JSON lines if it ends in .jsonl); rows already "
                        "in it are skipped (resumable)")
    p.add_argument("--jobs", type=positive_int("jobs", MAX_JOBS), default=1, action=Once, metavar="N",
                   help="with --sweep: rows in N local processes (default 1)")
    p.add_argument("--executor", choices=("local", "dask"), default="local", action=Once,
                   help="with --sweep: local processes (default) or a Dask cluster (--scheduler)")
    p.add_argument("--scheduler", default=None, action=Once, metavar="ADDRESS",
                   help="with --executor dask: the scheduler address, e.g. tcp://127.0.0.1:8786")


def check_single(args) -> None:
    """Without --sweep: the arguments argparse would require, with its messages; sweep flags refused."""
    for flag in ("out", "scheduler"):
        if getattr(args, flag) is not None:
            raise UsageError(f"{flag}: --{flag} is a --sweep option")
    missing = [f"--{n}" for n in ("n", "batch") if getattr(args, n) is None]
    if missing:
        raise UsageError(f"the following arguments are required: {', '.join(missing)}")
    if args.epochs is None and args.steps is None:
        raise UsageError("one of the arguments --epochs --steps is required")
    if args.at_delta is None and args.at_eps is None:
        raise UsageError("one of the arguments --at-delta --at-eps is required")


def cmd_sweep(args) -> int:
    from numeric import dpsgd_sweep as S
    given = [f"--{n.replace('_', '-')}" for n in ("n", "batch", "sigma", "target_eps", "epochs", "steps",
                                                  "at_delta", "at_eps") if getattr(args, n) is not None]
    if given:
        raise UsageError(f"sweep: the rows come from {args.sweep}; {given[0]} is not taken with --sweep")
    if args.out is None:
        raise UsageError("out: --sweep needs --out RESULT.csv")
    if args.executor == "dask" and args.scheduler is None:
        raise UsageError("scheduler: --executor dask needs --scheduler ADDRESS")
    if args.executor == "local" and args.scheduler is not None:
        raise UsageError("scheduler: --scheduler is for --executor dask")
    from .common import output_file
    output_file("out", args.out)
    rows = S.read_rows(args.sweep)
    quiet = getattr(args, "quiet", False)

    def progress(counts, total):
        if not quiet:
            print(f"dpsgd sweep: {counts['computed']}/{total} rows done"
                  + (f" ({counts['errors']} out of range)" if counts["errors"] else ""), file=sys.stderr, flush=True)
    if args.executor == "dask":
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("executor=dask: needs the dask extra (pip install 'dp-derive[dask]')") from None
        with Client(args.scheduler) as client:
            counts = S.sweep(rows, args.out, client.get_executor(), progress)
    elif args.jobs > 1:
        import concurrent.futures as cf
        import multiprocessing
        with cf.ProcessPoolExecutor(max_workers=args.jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            counts = S.sweep(rows, args.out, pool, progress)
    else:
        counts = S.sweep(rows, args.out, None, progress)
    print(f"{counts['rows']} rows: {counts['computed']} calibrated now, {counts['skipped']} already in {args.out}"
          + (f", {counts['errors']} out of range (their error column says why)" if counts["errors"] else ""))
    return 0
