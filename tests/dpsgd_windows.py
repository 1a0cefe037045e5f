"""Test helper: the FFT window sizes a DP-SGD eps(delta) query asks for (``numeric.pld_fft._window`` spied on)."""

from __future__ import annotations

from fractions import Fraction

from numeric import dpsgd, pld_fft


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
