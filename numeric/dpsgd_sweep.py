"""Calibration sweeps: many DP-SGD rows, each the smallest certified sigma for its target (issue #27, item 4).

A sweep file is a CSV with the columns ``n, batch, epochs`` (or ``steps``)``, target_eps, delta`` (and
optionally ``sampling``: poisson or uniform).  Each row is calibrated by ``numeric.dpsgd.calibrate_sigma``
(its docstring: the sigma returned is one whose certified eps_upper was evaluated and met the target) and
written with ``steps, sigma, eps_lower, eps_upper, certified`` (``error`` instead when the row is out of
range: the sweep goes on).  Rows are written as they finish and flushed, so an interrupted sweep keeps
them; a rerun skips every row whose inputs already appear in the output (resumable).  Output: CSV, or
JSON lines when the file name ends in ``.jsonl``.

Rows run in any ``concurrent.futures.Executor``: in-process, a local process pool (``--jobs N``) or a
Dask cluster's ``Client.get_executor()`` (``--executor dask --scheduler ADDRESS``), as the checker does.
"""

from __future__ import annotations

import csv
import json
import os
from concurrent import futures as cf

from derive.errors import DomainError

INPUTS = ("n", "batch", "epochs", "steps", "target_eps", "delta", "sampling")
RESULTS = ("steps_taken", "sigma", "eps_lower", "eps_upper", "certified", "seconds", "error")


def read_rows(path: str) -> list[dict]:
    """The sweep's rows (each a dict of the input columns it has, values as text)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            head = [c.strip() for c in (reader.fieldnames or [])]
            rows = [{k.strip(): (v or "").strip() for k, v in row.items() if k is not None} for row in reader]
    except OSError as exc:
        raise DomainError("sweep", path, f"a readable CSV file ({exc.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DomainError("sweep", path, f"a UTF-8 CSV file ({exc})") from None
    need = {"n", "batch", "target_eps", "delta"}
    if not need <= set(head) or ("epochs" in head) == ("steps" in head):
        raise DomainError("sweep", path, "a CSV with the columns n, batch, epochs or steps, target_eps, delta "
                                         f"(found: {', '.join(head) or 'none'})")
    extra = set(head) - set(INPUTS)
    if extra:
        raise DomainError("sweep", path, f"only the columns {', '.join(INPUTS)} (found {sorted(extra)[0]!r})")
    return [{k: v for k, v in row.items() if k in INPUTS} for row in rows]


def key(row: dict) -> tuple:
    return tuple((c, row.get(c, "")) for c in INPUTS)


def done_keys(path: str) -> set:
    """The input keys of the rows already in an output file (CSV or JSONL); a torn last line is ignored."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return set()
    with open(path, encoding="utf-8", newline="") as handle:
        if path.endswith(".jsonl"):
            rows = []
            for line in handle:
                try:
                    rows.append({k: str(v) for k, v in json.loads(line).items()})
                except json.JSONDecodeError:
                    continue
        else:
            rows = list(csv.DictReader(handle))
    # a row counts as finished when its last fixed column is there (a row torn by a kill is redone)
    return {key({c: (r.get(c) or "") for c in INPUTS}) for r in rows
            if str(r.get("certified")) in ("True", "False", "true", "false") or r.get("error")}


def run_row(row: dict) -> dict:
    """One row calibrated (a top-level function: executors pickle it)."""
    from numeric import dpsgd
    from numeric.precision import format_outward
    when = {"epochs": row["epochs"]} if row.get("epochs") else {"steps": row["steps"]}
    try:
        r = dpsgd.calibrate_sigma(row["n"], row["batch"], row["target_eps"], row["delta"],
                                  sampling=row.get("sampling") or "poisson", **when)
    except DomainError as exc:
        return {**row, "error": str(exc)}
    return {**row, "steps_taken": r.steps, "sigma": dpsgd.decimal_str(r.sigma),
            "eps_lower": format_outward(r.eps_lower, 15, False), "eps_upper": format_outward(r.eps_upper, 15, True),
            "certified": bool(r.certified), "seconds": round(r.seconds, 3)}


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


class _Writer:
    """Appends finished rows to the output (CSV header once, or JSON lines), flushed after each row."""

    def __init__(self, path: str, columns: list):
        self.jsonl = path.endswith(".jsonl")
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        torn = not new and not _ends_with_newline(path)
        self.handle = open(path, "a", encoding="utf-8", newline="")
        if torn:
            self.handle.write("\n")           # a line torn by a kill stays alone (and is redone)
        self.columns = columns
        if not self.jsonl:
            self.csv = csv.DictWriter(self.handle, fieldnames=columns, extrasaction="ignore")
            if new:
                self.csv.writeheader()

    def write(self, row: dict):
        if self.jsonl:
            self.handle.write(json.dumps({c: row[c] for c in self.columns if c in row}) + "\n")
        else:
            self.csv.writerow(row)
        self.handle.flush()

    def close(self):
        self.handle.close()


def sweep(rows: list[dict], out: str, executor: cf.Executor | None = None, progress=None) -> dict:
    """Calibrate every row not yet in ``out``; returns counts {"rows", "skipped", "computed", "errors"}."""
    done = done_keys(out)
    todo, seen = [], set()
    for row in rows:
        k = key(row)
        if k not in done and k not in seen:
            seen.add(k)
            todo.append(row)
    columns = [c for c in INPUTS if any(c in r for r in rows)] + list(RESULTS)
    writer = _Writer(out, columns)
    counts = {"rows": len(rows), "skipped": len(rows) - len(todo), "computed": 0, "errors": 0}
    try:
        results = (run_row(r) for r in todo) if executor is None else _as_completed(executor, todo)
        for result in results:
            writer.write(result)
            counts["computed"] += 1
            counts["errors"] += "error" in result
            if progress:
                progress(counts, len(todo))
    finally:
        writer.close()
    return counts


def _as_completed(executor: cf.Executor, todo: list):
    pending = [executor.submit(run_row, row) for row in todo]
    try:
        for fut in cf.as_completed(pending):
            yield fut.result()
    finally:
        for fut in pending:
            fut.cancel()
