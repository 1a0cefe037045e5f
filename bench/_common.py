"""Shared helpers of the bench/ scripts: import path, timing, machine info."""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def timed(fn):
    """(wall seconds, process CPU seconds) of one call ``fn()``."""
    c0, t0 = time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - t0, time.process_time() - c0


def sample_times(fn, repeats: int, warmup: bool = True):
    """(wall list, CPU list) of ``repeats`` calls of ``fn()``, after one warm-up call."""
    if warmup:
        fn()
    pairs = [timed(fn) for _ in range(repeats)]
    return [w for w, _ in pairs], [c for _, c in pairs]


def median_time(fn, repeats: int, warmup: bool = True) -> float:
    """Median wall time (s) of ``fn()`` over ``repeats`` calls, after one warm-up call."""
    return statistics.median(sample_times(fn, repeats, warmup)[0])


def loadavg() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def pass_fail(ok) -> str:
    if ok is None:
        return "n/a"
    return "PASS" if ok else "FAIL"


def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_info() -> dict:
    import mpmath
    import numpy
    import scipy
    import sympy
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = os.cpu_count()
    return {
        "nproc": affinity,
        "load average (1/5/15 min) at start": loadavg(),
        "cpu_count": os.cpu_count(),
        "cpu": _cpu_model(),
        "platform": platform.platform(),
        "python": sys.version.split()[0] + f" ({platform.python_implementation()})",
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "mpmath": mpmath.__version__,
        "mpmath backend": mpmath.libmp.BACKEND,
        "sympy": sympy.__version__,
    }


def print_markdown(header: list, rows: list) -> None:
    """A markdown table: the header cells, a separator, one line per row of cells (already formatted)."""
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for cells in rows:
        print("| " + " | ".join(str(c) for c in cells) + " |")
