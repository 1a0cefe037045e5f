"""README "Sweeps on a cluster": the checker runs through a Dask distributed executor.

The recipe is run as the README shows it, as a script in a fresh interpreter: a local cluster
of two worker processes (loopback only), the rows equal to those of the in-process run, and the
time limit still stopping a claim that never returns (the worker runs each claim in a forked
child whose main thread takes the alarm).  Skipped when ``distributed`` is not installed (it is
in the ``test`` extra).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("distributed")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

USER_MODULE = '''
import time
from proofs_check.registry import Claim, register

def _forever():
    while True:
        time.sleep(0.01)

register(Claim("DASK-forever", ("user",), "test", "inequality", "never returns", _forever))
'''

SCRIPT = '''
import json
from distributed import Client, LocalCluster
from proofs_check import checker

if __name__ == "__main__":
    claims = checker.select(claim_id="DF-Lap") + checker.select(claim_id="DF-G")
    local = checker.run(claims)
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        remote = checker.run(claims, executor=client.get_executor())
        slow = checker.run(checker.select(claim_id="DASK-forever", modules=["dask_user_claims"]),
                           executor=client.get_executor(), timeout=2, modules=["dask_user_claims"])
    print(json.dumps({"local": local["claims"], "remote": remote["claims"], "slow": slow["claims"]}))
'''


@pytest.mark.slow
def test_checker_on_a_local_dask_cluster(tmp_path):
    (tmp_path / "dask_user_claims.py").write_text(textwrap.dedent(USER_MODULE))
    (tmp_path / "recipe.py").write_text(textwrap.dedent(SCRIPT))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), ROOT, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(tmp_path / "recipe.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    key = lambda r: (r["id"], r["status"], r["margin"], r["points"])  # noqa: E731
    assert [key(r) for r in out["remote"]] == [key(r) for r in out["local"]]
    assert [r["status"] for r in out["remote"]] == ["CONFIRMED", "PROVEN"]
    (row,) = out["slow"]
    assert row["status"] == "ERROR" and "time limit" in row["reason"]
