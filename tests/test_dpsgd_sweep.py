"""``dpsgd --sweep``: calibration sweeps, resumable, local or on a Dask LocalCluster (issue #27, item 4).

What a row's sigma is (the smallest certified sigma to 0.1 %) is tests/test_dpsgd.py's; here: the rows
reach the calibration and come back into the file, finished rows are never recomputed, a torn last line
is redone, and the Dask path gives what the local path gives.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time

import pytest

from cli_runner import run
from numeric import dpsgd_sweep as S

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = "n,batch,steps,target_eps,delta\n"


def write_rows(path, rows):
    path.write_text(HEAD + "".join(f"{n},{b},{t},{e},{d}\n" for n, b, t, e, d in rows))
    return str(path)


def fake_row(calls):
    def run_row(row):
        calls.append(row["target_eps"])
        return {**row, "steps_taken": int(row["steps"]), "sigma": "1", "eps_lower": "0", "eps_upper": "0",
                "certified": True, "seconds": 0}
    return run_row


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_resume_skips_finished_rows_and_redoes_a_torn_one(tmp_path, monkeypatch, suffix):
    rows = S.read_rows(write_rows(tmp_path / "rows.csv", [(100, 10, 10, e, "1e-5") for e in range(1, 6)]))
    out = str(tmp_path / f"out.{suffix}")
    calls = []
    monkeypatch.setattr(S, "run_row", fake_row(calls))
    S.sweep(rows[:2], out)                                   # an earlier run finished two rows ...
    with open(out, "a", encoding="utf-8") as handle:        # ... and was killed writing the third
        handle.write("100,10,10,3,1e-5,10,1" if suffix == "csv" else '{"n": "100", "batch": "10", "ste')
    calls.clear()
    counts = S.sweep(rows, out)
    assert calls == ["3", "4", "5"] and counts["skipped"] == 2 and counts["computed"] == 3
    assert len(S.done_keys(out)) == 5
    calls.clear()
    assert S.sweep(rows, out)["computed"] == 0 and calls == []


def test_mutation_resume_check_can_fail(tmp_path, monkeypatch):
    """With done_keys blind to the output the rerun recomputes: the resume test's assertion fails."""
    rows = S.read_rows(write_rows(tmp_path / "rows.csv", [(100, 10, 10, 1, "1e-5")]))
    out = str(tmp_path / "out.csv")
    calls = []
    monkeypatch.setattr(S, "run_row", fake_row(calls))
    S.sweep(rows, out)
    monkeypatch.setattr(S, "done_keys", lambda path: set())
    assert S.sweep(rows, out)["computed"] == 1


@pytest.mark.parametrize("extra, text", [
    ([], "--sweep needs --out"),
    (["--out", "o.csv", "--n", "10"], "--n is not taken with --sweep"),
    (["--out", "o.csv", "--executor", "dask"], "needs --scheduler"),
])
def test_sweep_usage_errors(tmp_path, extra, text):
    path = write_rows(tmp_path / "rows.csv", [(100, 10, 10, 1, "1e-5")])
    res = run(("dpsgd", "--sweep", path, *extra))
    assert res.rc == 2 and text in res.err


def test_sweep_file_errors(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("n,batch,target_eps,delta\n100,10,1,1e-5\n")
    res = run(("dpsgd", "--sweep", str(bad), "--out", str(tmp_path / "o.csv")))
    assert res.rc == 2 and "epochs or steps" in res.err


@pytest.mark.slow
def test_one_real_row_and_one_out_of_range(tmp_path):
    """A real calibration reaches the file with its bracket (eps_upper <= target), an unreachable target is an
    error row and the sweep goes on."""
    path = write_rows(tmp_path / "rows.csv", [(2, 1, 1, 1, "1e-5"), (100, 10, 1, "1e-9", "1e-5")])
    out = tmp_path / "out.csv"
    res = run(("dpsgd", "--sweep", path, "--out", str(out)))
    assert res.rc == 0, res.err
    with out.open() as handle:
        rows = {r["target_eps"]: r for r in csv.DictReader(handle)}
    assert float(rows["1"]["eps_upper"]) <= 1 and rows["1"]["certified"] == "True"
    assert "target_eps" in rows["1e-9"]["error"]


SCRIPT = r'''
import sys
from distributed import LocalCluster
from proofs_check.cli import main

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster:
        sys.exit(main(["dpsgd", "--sweep", sys.argv[1], "--out", sys.argv[2], "--executor", "dask",
                       "--scheduler", cluster.scheduler_address]))
'''


def _cluster_sweep(tmp_path, rows_path, out, timeout=None, stop_after=None):
    pytest.importorskip("distributed")
    script = tmp_path / "sweep_cluster.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, str(script), rows_path, str(out)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if stop_after is not None:                       # interrupt once that many rows are in the file
        while len(S.done_keys(str(out))) < stop_after and proc.poll() is None:
            time.sleep(0.5)
        proc.kill()
        proc.communicate()                           # reap it and close its pipes
        return None
    stdout, stderr = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, stderr[-3000:]
    return stdout


def test_sweep_on_a_local_cluster(tmp_path):
    """Two workers; out-of-range rows (one engine evaluation each) keep it short; rerun: nothing recomputed."""
    path = write_rows(tmp_path / "rows.csv", [(100, 10, 1, "1e-9", "1e-5"), (100, 10, 1, "2e-9", "1e-5")])
    out = tmp_path / "out.jsonl"
    stdout = _cluster_sweep(tmp_path, path, out, timeout=120)
    assert "2 rows: 2 calibrated now, 0 already" in stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["target_eps"] for r in rows) == ["1e-9", "2e-9"] and all("error" in r for r in rows)
    assert "0 calibrated now, 2 already" in run(("dpsgd", "--sweep", path, "--out", str(out))).out


@pytest.mark.long
def test_200_rows_on_a_local_cluster_resume_after_a_kill(tmp_path):
    """The issue's target: 200 calibrations on a 2-worker LocalCluster, killed after 20 finished rows and
    resumed: the finished rows are kept as written (not recomputed), the rest are added, 200 in all."""
    # 200 distinct calibrations of short runs (4 or 8 steps at q = 1/2 or 1/10; 3-7 s CPU each), targets 2 to 5.98
    rows = [(1000, (500, 100)[i % 2], (4, 8)[(i // 2) % 2], f"{2 + i / 50:.2f}", "1e-5") for i in range(200)]
    path = write_rows(tmp_path / "rows.csv", rows)
    out = tmp_path / "out.csv"
    _cluster_sweep(tmp_path, path, out, stop_after=20)
    with out.open() as handle:
        before = {tuple(r.values())[:5]: r for r in csv.DictReader(handle) if r.get("certified")}
    stdout = _cluster_sweep(tmp_path, path, out, timeout=7200)
    assert f"{len(before)} already in" in stdout
    with out.open() as handle:
        after = [r for r in csv.DictReader(handle) if r.get("certified")]
    assert len(after) == 200 and len(S.done_keys(str(out))) == 200
    for r in after:
        k = tuple(r.values())[:5]
        if k in before:
            assert r == before[k]                       # the finished row is the one written before the kill
        assert float(r["eps_upper"]) <= float(r["target_eps"])
