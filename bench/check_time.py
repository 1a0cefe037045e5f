"""(c) wall time of ``dp-derive check`` (the proof checker), as a subprocess: the default run,
one process per available CPU (target <= 60 s on 2 cores), the serial ``--jobs 1`` beside it (no
target: the speed-up of the default), and ``--certified`` (target <= 10x the default run), all
measured in the same run.

Tries ``dp-derive check``; if that command is not installed or exits non-zero,
falls back to ``python -m proofs_check check`` (run from the repository root).
If neither succeeds the result is "not available"; nothing here raises.

Run alone: ``python bench/check_time.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import _common
from _common import pass_fail

TARGET = 60.0       # seconds, default run (every available CPU, at most 8)
CERTIFIED_RATIO = 10.0
TIMEOUT = 600.0     # seconds per attempt (keeps the whole runner bounded)


def _tail(text: str, n: int = 3) -> str:
    lines = [ln.strip() for ln in (text or "").strip().splitlines() if ln.strip()]
    return " / ".join(lines[-n:])[:300]


def _attempt(cmd: list) -> dict:
    shown = " ".join(["python" if c == sys.executable else c for c in cmd])
    if shutil.which(cmd[0]) is None and not os.path.isabs(cmd[0]):
        return {"command": shown, "ok": False, "seconds": None, "rc": None, "note": "not installed"}
    env = dict(os.environ)
    env["PYTHONPATH"] = str(_common.REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=_common.REPO, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"command": shown, "ok": False, "seconds": time.perf_counter() - t0, "rc": None,
                "note": f"timed out after {TIMEOUT:.0f} s"}
    except OSError as exc:
        return {"command": shown, "ok": False, "seconds": None, "rc": None, "note": f"{exc}"}
    dt = time.perf_counter() - t0
    ok = proc.returncode == 0
    note = _tail(proc.stdout) if ok else (_tail(proc.stderr) or _tail(proc.stdout))
    return {"command": shown, "ok": ok, "seconds": dt, "rc": proc.returncode, "note": note}


def run(verbose: bool = True) -> dict:
    attempts = []
    for cmd in (["dp-derive", "check"], [sys.executable, "-m", "proofs_check", "check"]):
        res = _attempt(cmd)
        attempts.append(res)
        if verbose:
            t = "-" if res["seconds"] is None else f"{res['seconds']:.2f} s"
            print(f"[c] {res['command']}: rc={res['rc']} time={t} ok={res['ok']} ({res['note']})")
        if res["ok"]:
            break
    used = next((a for a in attempts if a["ok"]), None)
    result = {"attempts": attempts, "used": used,
              "seconds": used["seconds"] if used else None,
              "pass": (used["seconds"] <= TARGET) if used else None}
    if used is not None:
        base = used["command"].replace("python", sys.executable, 1).split() if used["command"].startswith("python") \
            else used["command"].split()
        for flag, key in ((["--jobs", "1"], "serial"), (["--certified"], "certified")):
            res = _attempt(base + flag)
            attempts.append(res)
            result[key] = res
            if verbose:
                t = "-" if res["seconds"] is None else f"{res['seconds']:.2f} s"
                print(f"[c] {res['command']}: rc={res['rc']} time={t} ok={res['ok']}")
        serial, cert = result["serial"], result["certified"]
        result["speedup"] = (serial["seconds"] / used["seconds"]) if serial["ok"] else None
        result["certified_ratio"] = (cert["seconds"] / used["seconds"]) if cert["ok"] else None
        result["pass_certified"] = (result["certified_ratio"] <= CERTIFIED_RATIO) if cert["ok"] else None
    if verbose:
        shown = "not available" if used is None else "%.2f s" % used["seconds"]
        print(f"[c] check wall time: {shown}  {pass_fail(result['pass'])}")
    return result


def markdown(res: dict) -> str:
    out = ["## (c) proof check wall time", "",
           f"`dp-derive check` as a subprocess from the repository root; fallback "
           f"`python -m proofs_check check`. Success = exit code 0. Target: <= {TARGET:.0f} s "
           f"(the default uses every available CPU, at most 8). Command: `python bench/check_time.py`.", "",
           "| command | exit code | wall time | note |", "|---|---:|---:|---|"]
    for a in res["attempts"]:
        t = "-" if a["seconds"] is None else f"{a['seconds']:.2f} s"
        rc = "-" if a["rc"] is None else str(a["rc"])
        note = (a["note"] or "").replace("|", "\\|")
        out.append(f"| `{a['command']}` | {rc} | {t} | {note} |")
    if res["used"] is None:
        out += ["", "Result: **not available** (no command succeeded); target not evaluated."]
    else:
        out += ["", f"Result: `{res['used']['command']}` took {res['seconds']:.2f} s: "
                f"**{pass_fail(res['pass'])}**."]
        if res.get("serial"):
            se = res["serial"]
            t = "-" if se["seconds"] is None else f"{se['seconds']:.2f} s"
            sp = "-" if res["speedup"] is None else f"{res['speedup']:.2f}x"
            out += [f"`--jobs 1` (serial) took {t}: the default run is {sp} faster."]
        if res.get("certified"):
            ratio = res["certified_ratio"]
            shown = "-" if ratio is None else f"{ratio:.2f}x the default run"
            out += [f"`--certified`: {shown} (target <= {CERTIFIED_RATIO:.0f}x): "
                    f"**{pass_fail(res['pass_certified'])}**."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(run()))
