"""The optimal F-score of an (eps, delta) record (f(0) = 1 - delta < 1) through ``numeric.attack.fscore_optimum``
(thirteenth session's audit: the golden section over log alpha slid left on a plateau that is flat at every
precision, so approx_dp(1, 0.01) reported F*_1 = 2/3 at alpha = 1 as "verified", against 0.73375 at the kink).

Reference (no dp-derive code): f(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)) is piecewise
linear with kinks at alpha_1 = (1 - delta)/(1 + e^eps) and 1 - delta, so R = 1 - f is piecewise linear and
F_b = (1 + b^2) R/(R + w alpha + b^2) is a Moebius function of alpha on each piece, monotone there: its maximum
over [0, 1] is at 0+, a kink or 1, all evaluated at 50 digits."""

from __future__ import annotations

import mpmath
import pytest

from derive.mechanisms import approx_dp
from numeric import attack as AT


def _reference(eps: str, delta: str, b=1, w=1):
    with mpmath.workdps(50):
        e, d = mpmath.mpf(eps), mpmath.mpf(delta)
        E = mpmath.exp(e)

        def F(a):
            f = max(mpmath.mpf(0), 1 - d - E * a, (1 - d - a) / E)
            R = 1 - f
            return (1 + b * b) * R / (R + w * a + b * b)
        return max(F(a) for a in (mpmath.mpf(10) ** -40, (1 - d) / (1 + E), 1 - d, mpmath.mpf(1)))


@pytest.mark.parametrize("eps,delta", [("1", "0.01"), ("5", "1e-6"), ("0.1", "0.1"), ("1", "0")])
def test_fscore_of_approx_dp_is_the_best_breakpoint(eps, delta):
    ref = _reference(eps, delta)        # 0.733747992843705, 0.993307155768566, 0.689655172413793, 0.731058578630005
    got = AT.fscore_optimum(approx_dp(eps, delta), 1, 15).fscore
    assert abs(got - ref) <= mpmath.mpf(10) ** -14 * ref


def test_mutation_without_the_search_in_alpha_is_caught(monkeypatch):
    """The second golden section (over alpha itself) answering nothing: the plateau's slide comes back."""
    orig = AT.golden_max

    def only_log(h, lo, hi, *args, **kw):
        if lo == 0 and hi == 1:
            return mpmath.mpf("0.5"), mpmath.mpf("-inf")
        return orig(h, lo, hi, *args, **kw)
    monkeypatch.setattr(AT, "golden_max", only_log)
    with pytest.raises(AssertionError):
        test_fscore_of_approx_dp_is_the_best_breakpoint("1", "0.01")
