"""Shared fixtures and helpers of the dp-derive test suite (derive/ and numeric/ only).

* ``_mpmath_precision_guard`` (autouse): every test must leave the global mpmath
  precision untouched (the library only ever works under ``mpmath.workdps``).
  ``mpmath.mp.dps = 15`` below is the only global precision assignment allowed
  anywhere in the tests.
* ``rel_err``: relative error of a computed value against a reference, both
  parsed by mpmath at 60 digits (never through float, so 1e-99706 stays exact).
* ``record``: cached constructor calls (building a record, and compiling its
  expressions, costs 10-300 ms; hypothesis draws parameters from small sets).
* ``call_with_timeout``: a hang guard for computations that once hung (looped forever,
  or ran for minutes: test_profile.py, test_design.py): a regression raises ``Hang`` after a few
  seconds instead of stalling the suite.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from fractions import Fraction
from functools import lru_cache

import mpmath
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # so that plain ``pytest`` (not ``python -m pytest``) finds the packages
    sys.path.insert(0, ROOT)

import derive  # noqa: E402

# keep hypothesis' local cache out of the repository (no example database is used: derandomize=True)
set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "dp-derive-hypothesis"))
settings.register_profile(
    "dp-derive", max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile("dp-derive")


# ------------------------------------------------------------------ precision guard
@pytest.fixture(autouse=True)
def _mpmath_precision_guard():
    """Reset mpmath's global precision after each test; fail if something changed it."""
    before = (mpmath.mp.prec, mpmath.mp.dps)
    yield
    after = (mpmath.mp.prec, mpmath.mp.dps)
    mpmath.mp.dps = 15  # the only global precision assignment allowed in the test suite
    assert before == (53, 15), f"mpmath precision was {before} when the test started"
    assert after == before, f"mpmath global precision changed by the test: {before} -> {after}"


# ------------------------------------------------------------------ comparisons
def mpf60(value):
    """A reference string, mpf, float, int or Fraction as an mpf at 60 digits (call inside workdps)."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, float):
        return mpmath.mpf(value)  # exact binary value of the double
    return mpmath.mpf(value)


def rel_err(got, ref) -> mpmath.mpf:
    """|got - ref| / |ref| evaluated at 60 digits; 0 when both are exactly 0, inf if only ref is."""
    with mpmath.workdps(60):
        g, r = mpf60(got), mpf60(ref)
        if r == 0:
            return mpmath.mpf(0) if g == 0 else mpmath.inf
        return +abs((g - r) / r)


def assert_rel(got, ref, tol, what=""):
    err = rel_err(got, ref)
    assert err <= tol, f"{what}: got {mpmath.nstr(got, 40)} ref {ref} rel err {mpmath.nstr(err, 3)} > {tol}"


def mpf_to_fraction(x) -> Fraction:
    """The exact binary value of an mpf as a Fraction (no rounding)."""
    if not isinstance(x, mpmath.mpf):
        x = mpmath.mpf(x)
    man, exp = x.man_exp  # read the mantissa as stored: mpmath.mpf(x) would round to the global precision
    return (-1 if x < 0 else 1) * Fraction(int(man)) * Fraction(2) ** int(exp)  # man_exp drops the sign


# ------------------------------------------------------------------ record cache
_CONSTRUCTORS = {
    "gaussian": derive.gaussian,
    "classical_gaussian": derive.classical_gaussian,
    "laplace": derive.laplace,
    "approx_dp": derive.approx_dp,
    "randomized_response": derive.randomized_response,
    "uniform_sampling": derive.uniform_sampling,
    "noise": derive.noise,
}


@lru_cache(maxsize=None)
def record(name: str, *args):
    """``derive.<name>(*args)``, cached (records are frozen dataclasses)."""
    return _CONSTRUCTORS[name](*args)


#: parameter sets used by the property tests: (constructor, args) pairs, all in the domain.
#: Parameters beyond exp overflow (eps, mu > ~709) are tested separately (known fp NaN bug).
PROPERTY_CASES = (
    [("gaussian", (m,)) for m in ("0", "0.001", "0.5", "1", "2.5", "5", "12")]
    + [("classical_gaussian", a) for a in (("0.1", "1e-5"), ("1", "1e-5"), ("3", "0.01"), ("1", "1e-12"))]
    + [("laplace", (e,)) for e in ("0", "0.01", "0.1", "1", "2.5", "10", "50")]
    + [("approx_dp", a) for a in (("0", "0"), ("1", "1e-5"), ("0.5", "0"), ("3", "0.2"), ("0", "0.3"))]
    + [("randomized_response", (e,)) for e in ("0", "0.5", "2", "8")]
    + [("uniform_sampling", (m, n, nb)) for m, n in (("0", 1), ("0.1", 5), ("1", 5), ("2.5", 1), ("1", 100))
       for nb in ("replacement", "add-remove")]
    + [("noise", ("logistic", m)) for m in ("0", "0.5", "1", "4")]
)


# ------------------------------------------------------------------ hang detection
class Hang(Exception):
    """Raised by ``call_with_timeout`` when the computation did not finish in time."""


def call_with_timeout(fn, seconds: float):
    """``fn()``, or raise ``Hang`` after ``seconds`` of wall time (SIGALRM; main thread only).

    Used only around computations that once hung (none does today); each
    finishes in well under 0.5 s, the bound is a regression guard.
    mpmath's ``workdps`` context managers restore the precision while unwinding.
    """
    def _alarm(signum, frame):
        raise Hang(f"no result after {seconds} s")

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------ one CLI parser per run
@pytest.fixture(autouse=True, scope="session")
def _one_cli_parser():
    """``proofs_check.cli.main`` builds its whole argparse tree on every call (25-70 ms: 30 subcommands,
    600 flags); the suite calls it in-process about 1500 times (the boundary and fuzz suites above all), so
    ``main`` gets the tree built once per run.  Parsing leaves a parser unchanged (a fresh namespace per
    call; ``Once`` keeps its state there), so every call parses exactly as with a fresh tree.  Tests that
    inspect the tree call ``build_parser`` themselves (imported before this patch: a fresh tree)."""
    import proofs_check.cli as cli
    patch = pytest.MonkeyPatch()
    patch.setattr(cli, "build_parser", lru_cache(maxsize=1)(cli.build_parser))
    yield
    patch.undo()


# ------------------------------------------------------------------ test-suite timing
@pytest.fixture
def no_delta_refinement(monkeypatch):
    """delta(eps) queries answered on the default grid only: ``pld_grid.delta_grid`` returns None with a zero
    knot budget, so the bracket is the default grid's (certified all the same, only wider).  The refinement
    was most of the time of some default-run tests (a one-step DP-SGD delta(0.01): 8.9 s refined, 0.26 s not,
    the same bracket); each such test keeps a refined twin marked slow.  A renamed constant fails here
    (monkeypatch raises), never silently."""
    from numeric import pld_grid
    monkeypatch.setattr(pld_grid, "DELTA_KNOT_BUDGET", 0)
