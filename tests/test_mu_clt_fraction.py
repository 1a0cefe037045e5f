"""numeric.dpsgd.mu_clt takes a Fraction T (BDLS20's epochs N / B), and reproduce_bdls uses it (one source of
truth for the privacy CLT; issue #26 item 5)."""

from fractions import Fraction

import mpmath
import sympy as sp

from numeric import dpsgd
from proofs_check import reproduce_bdls as R


def _ref(q, sigma, T):
    """Independent reference: SymPy on exact Rationals, q sqrt(T (exp(1/sigma^2) - 1)), evaluated to 40 digits."""
    q, sigma, T = sp.Rational(q), sp.Rational(sigma), sp.Rational(str(T))
    with mpmath.workdps(40):
        return mpmath.mpf(str(sp.N(q * sp.sqrt(T * (sp.exp(1 / sigma**2) - 1)), 40)))


def test_fraction_steps_against_sympy():
    # 15 epochs of N = 60000 at B = 256: T = 28125/8 = 3515.625 steps (not an integer)
    with mpmath.workdps(30):
        got = dpsgd.mu_clt(Fraction(256, 60000), Fraction("1.3"), Fraction(28125, 8))
    with mpmath.workdps(40):
        assert abs(got - _ref("256/60000", "13/10", "28125/8")) < mpmath.mpf("1e-27")


def test_integer_steps_unchanged():
    with mpmath.workdps(30):
        got = dpsgd.mu_clt(Fraction(1, 100), Fraction(2), 1000)
    with mpmath.workdps(40):
        assert abs(got - _ref("1/100", "2", "1000")) < mpmath.mpf("1e-27")


def test_reproduce_bdls_calls_the_engine_function(monkeypatch):
    """Mutation: a wrong numeric.dpsgd.mu_clt must show through reproduce_bdls.mu_clt (no private copy left)."""
    monkeypatch.setattr(dpsgd, "mu_clt", lambda q, s, t: mpmath.mpf(-1))
    assert R.mu_clt("1.3", Fraction(28125, 8)) == -1


def test_reproduce_bdls_value():
    T = Fraction(28125, 8)
    got = R.mu_clt("1.3", T)
    with mpmath.workdps(40):
        assert abs(got - _ref("256/60000", "13/10", T)) < mpmath.mpf("1e-27")
