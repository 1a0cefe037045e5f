"""Run claims and collect their outcomes: one row per claim, a summary per status.

Each claim runs under a time limit (``timeout`` seconds, default 60).  With ``jobs = 1`` the
claims run in this process, one after the other; the limit is enforced with ``SIGALRM``, which
interrupts the check between two Python bytecodes (the exception derives from BaseException, so
a check's own ``except Exception`` cannot swallow it).  With ``jobs > 1`` they run through a
``concurrent.futures.ProcessPoolExecutor`` (fork start method: the workers inherit the imported
claim modules and any user-registered claim), each task enforcing its own limit the same way in
the worker's main thread.  Any other ``concurrent.futures.Executor`` can be passed instead (a
Dask ``Client.get_executor()``, README "Sweeps on a cluster"): the tasks are claim ids, so the
workers must be able to import the modules that register them (``modules``).  Where a task does
not run in a main thread (Dask runs tasks in worker threads) it runs in a forked child process,
whose main thread takes the alarm (and which is killed if it does not answer); where no child
can be made the limit is applied after the fact: the row becomes ERROR when the check took longer.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

from derive.errors import PrecisionExhausted

from . import registry
from .discovery import all_claims
from .registry import Claim
from .status import BLOCKING, ERROR, STATUSES, Outcome, Status

DEFAULT_TIMEOUT = 60.0


class ClaimTimeout(BaseException):
    """Raised inside a check when its time limit is reached."""


class UnknownClaim(LookupError):
    pass


def select(paper: str | None = None, claim_id: str | None = None, modules=()) -> list[Claim]:
    claims = all_claims(modules)
    if paper is not None:
        claims = [c for c in claims if paper in c.papers]
    if claim_id is not None:
        claims = [c for c in claims if c.id == claim_id]
    return claims


def _jsonable(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value.value if isinstance(value, Status) else value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def _row(c: Claim, out: Outcome, seconds: float) -> dict:
    return {
        "id": c.id, "paper": c.papers[0] if c.papers else None, "papers": list(c.papers),
        "source": c.source, "kind": c.kind, "statement": c.statement, "latex": c.latex,
        "status": out.status.value, "method": out.method, "certified": out.certified,
        "margin": out.margin, "worst_at": _jsonable(out.worst_at), "points": out.points,
        "seconds": round(seconds, 3), "reason": out.detail, "detail": out.detail,
        "counterexample": _jsonable(out.counterexample), "refutation": _jsonable(out.refutation),
        "extra": _jsonable(out.extra) if out.extra else None,
    }


def _alarm(signum, frame):
    raise ClaimTimeout()


def evaluate(c: Claim, timeout: float | None = DEFAULT_TIMEOUT, certified: bool = False) -> dict:
    """Run one claim under its time limit and return its row (never raises for a check's error)."""
    check = c.certify if certified and c.certify is not None else c.check
    in_main = threading.current_thread() is threading.main_thread()
    armed = bool(timeout) and in_main and hasattr(signal, "setitimer")
    t0 = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm) if armed else None
    try:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            out = check()
        finally:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
        if not isinstance(out, Outcome):
            raise TypeError(f"the check returned {type(out).__name__}, not an Outcome")
    except ClaimTimeout:
        out = Outcome(ERROR, detail=f"time limit of {timeout:g} s reached (--claim-timeout)")
    except PrecisionExhausted as exc:
        out = Outcome(ERROR, detail=f"PrecisionExhausted: {exc}")
    except Exception as exc:  # a broken check must not hide the other rows
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        out = Outcome(ERROR, detail=f"the check raised {type(exc).__name__}: {exc} "
                                    f"(at {tb.filename.rsplit('/', 1)[-1]}:{tb.lineno})")
    finally:
        if armed:
            signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - t0
    if timeout and not armed and seconds > timeout and out.status not in BLOCKING:
        out = Outcome(ERROR, detail=f"took {seconds:.1f} s, over the time limit of {timeout:g} s "
                                    f"(applied after the fact: no SIGALRM outside a main thread)")
    if certified and c.certify is None and out.status not in BLOCKING:
        out.detail = f"{out.detail} [no certified check for this claim: ordinary check run]"
    return _row(c, out, seconds)


def _in_forked_child(claim_id, timeout, certified, modules) -> dict | None:
    """Evaluate in a forked child (whose only thread is its main thread, so SIGALRM works).

    ``os.fork`` directly: multiprocessing refuses to start children from daemonic processes,
    and Dask's worker processes are daemonic.  The child sends its row through a pipe and exits;
    the parent waits ``timeout + 10`` s at most and kills a child that has not answered (one
    that deadlocked on a lock held by another thread at the fork, for instance).  Returns None
    where no child can be made (no ``os.fork``, or it failed).
    """
    import os
    import pickle
    import select as _select
    if not hasattr(os, "fork"):
        return None
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:                                   # the child
        try:
            os.close(read_fd)
            row = run_claim_id(claim_id, timeout, certified, modules)
            data = pickle.dumps(row)
            with os.fdopen(write_fd, "wb") as w:
                w.write(data)
        finally:
            os._exit(0)
    os.close(write_fd)
    chunks, deadline = [], time.monotonic() + timeout + 10
    try:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = _select.select([read_fd], [], [], max(left, 0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                return _row(registry._REGISTRY[claim_id], Outcome(
                    ERROR, detail=f"time limit of {timeout:g} s reached (--claim-timeout); the child "
                                  f"process did not answer and was killed"), float(timeout))
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    if not chunks:
        return _row(registry._REGISTRY[claim_id], Outcome(ERROR, detail="the process of the check died"), 0.0)
    return pickle.loads(b"".join(chunks))


def run_claim_id(claim_id: str, timeout: float | None = DEFAULT_TIMEOUT, certified: bool = False,
                 modules=()) -> dict:
    """Executor task: look a claim up by id (importing ``modules`` first) and evaluate it.

    Outside a main thread (a Dask worker runs tasks in threads) the claim runs in a forked child
    process so that its time limit can still interrupt it; where no child can be made, the limit
    is applied after the fact.
    """
    if claim_id not in registry._REGISTRY:
        all_claims(modules)
    if claim_id not in registry._REGISTRY:
        raise UnknownClaim(claim_id)
    if timeout and threading.current_thread() is not threading.main_thread():
        row = _in_forked_child(claim_id, timeout, certified, modules)
        if row is not None:
            return row
    if claim_id not in registry._REGISTRY:
        all_claims(modules)
    if claim_id not in registry._REGISTRY:
        raise UnknownClaim(claim_id)
    return evaluate(registry._REGISTRY[claim_id], timeout, certified)


def run_claim_ids(claim_ids: tuple[str, ...], timeout: float | None = DEFAULT_TIMEOUT, certified: bool = False,
                  modules=()) -> list[dict]:
    """Executor task for a group of claims (one module's): evaluated one after the other in one worker,
    so that what they share (SymPy derivations, lru caches) is computed once."""
    return [run_claim_id(i, timeout, certified, modules) for i in claim_ids]


#: measured seconds per claim (``python bench/claim_costs.py`` rewrites it); used only to order the work
COSTS_FILE = Path(__file__).with_name("claim_costs.json")


def _costs() -> dict[str, float]:
    try:
        return json.loads(COSTS_FILE.read_text(encoding="utf-8"))["seconds"]
    except (OSError, ValueError, KeyError):
        return {}


def plan(claims: list[Claim]) -> list[list[int]]:
    """Indices of ``claims`` in groups, one group per defining module, the most expensive group first.

    A local pool hands each free worker the next group, so with the groups in decreasing order of
    cost (the sum of ``claim_costs.json``'s seconds, a claim it does not list counting as the median)
    this is the longest-processing-time-first rule; grouping by module keeps the claims that share
    derivations in one process.  The order only affects the time a run takes, never its rows."""
    costs = _costs()
    known = sorted(costs.values())
    default = known[len(known) // 2] if known else 1.0
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(claims):
        groups.setdefault(getattr(c.check, "__module__", None) or "", []).append(i)
    weight = {m: sum(costs.get(claims[i].id, default) for i in ix) for m, ix in groups.items()}
    return [groups[m] for m in sorted(groups, key=lambda m: (-weight[m], m))]


def summarise(rows: list[dict], seconds: float) -> dict:
    summary = {s.value: sum(r["status"] == s.value for r in rows) for s in STATUSES}
    summary["total"] = len(rows)
    summary["seconds"] = round(seconds, 3)
    return summary


class _Progress:
    """One line per finished claim on stderr, once the run has lasted ``after`` seconds."""

    def __init__(self, total: int, enabled: bool, after: float = 2.0, stream=None):
        self.total, self.enabled, self.after = total, enabled, after
        self.stream = stream or sys.stderr
        self.start, self.done = time.perf_counter(), 0

    def __call__(self, row: dict) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        if self.enabled and elapsed >= self.after:
            print(f"[{self.done}/{self.total} {elapsed:6.1f} s] {row['status']:<12} {row['id']}",
                  file=self.stream, flush=True)


def run(claims: list[Claim], jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
        executor: cf.Executor | None = None, certified: bool = False, progress: bool = False,
        modules=()) -> dict:
    """Evaluate ``claims`` and return ``{"claims": rows, "summary": counts}`` (rows in input order).

    ``jobs`` > 1 uses a local process pool; ``executor`` overrides it (the caller owns it).
    """
    start = time.perf_counter()
    tick = _Progress(len(claims), progress)
    if executor is None and jobs <= 1:
        rows = []
        for c in claims:
            rows.append(evaluate(c, timeout, certified))
            tick(rows[-1])
        return {"claims": rows, "summary": summarise(rows, time.perf_counter() - start)}
    own = executor is None
    if own:
        executor = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
    try:
        # a local pool takes one task per module, most expensive first (``plan``); another executor (a
        # cluster with many workers) one task per claim; rows are returned in the input order either way
        groups = plan(claims) if own else [[i] for i in range(len(claims))]
        futures = {executor.submit(run_claim_ids, tuple(claims[i].id for i in g), timeout, certified,
                                   tuple(modules)): g for g in groups}
        rows: list[dict | None] = [None] * len(claims)
        for fut in cf.as_completed(futures):
            group = futures[fut]
            try:
                done = fut.result()
            except Exception as exc:  # the worker died or could not find a claim
                done = [_row(claims[i], Outcome(ERROR, detail=f"the worker failed: "
                                                             f"{type(exc).__name__}: {exc}"), 0.0) for i in group]
            for i, row in zip(group, done):
                rows[i] = row
                tick(row)
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    return {"claims": rows, "summary": summarise(rows, time.perf_counter() - start)}


def exit_code(result: dict) -> int:
    """1 when a claim FAILED or raised (ERROR), 0 otherwise (REFUTED is an expected outcome)."""
    return 1 if any(result["summary"][s.value] for s in BLOCKING) else 0
