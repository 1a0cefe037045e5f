"""Test helpers of the DP-SGD cells: the FFT window sizes an eps(delta) query asks for (``numeric.pld_fft._window``
spied on), queries without truncation, and the independent reference eps of ``bench/dpsgd_reference.py``."""

from __future__ import annotations

from fractions import Fraction

from numeric import dpsgd, pld, pld_fft, pld_truncate


def eps_and_windows(monkeypatch, q, sigma, T: int, delta: str):
    """(eps result, [window length N of every composition]) of T steps of DP-SGD at rate q, noise sigma."""
    sizes = []
    orig = pld_fft._window

    def spy(*a, **k):
        r = orig(*a, **k)
        sizes.append(r[1])
        return r
    monkeypatch.setattr(pld_fft, "_window", spy)
    return dpsgd._composition(Fraction(q), Fraction(sigma), T).eps(delta), sizes


def no_truncation(monkeypatch):
    """eps(delta) queries without ``numeric.pld_truncate``: its truncated step measures have no far tail, which
    hides what the tests of the tilt cap, the subnormal sweep and the knot floor look at (they act as before in
    every delta(eps) and trade-off query)."""
    monkeypatch.setattr(pld_truncate, "truncation_top", lambda model, trunc: None)
    monkeypatch.setattr(pld, "truncation_top", lambda model, trunc: None)


def saddle_point_reference(q, s, T, delta):
    """(eps, its error estimate) from bench/dpsgd_reference.py: Laplace inversion through the saddle point, no
    dp-derive code (numpy + scipy)."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "bench" / "dpsgd_reference.py"
    spec = importlib.util.spec_from_file_location("dpsgd_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.eps_reference(q, s, T, delta)
