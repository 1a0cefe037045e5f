"""eps(delta) beyond eps = 2^24 (issue #11: `profile gaussian --mu 1e4 --at-delta 1e-5` printed inf).

Reference: Newton's method on the GDP profile written here from Dong-Roth-Su Cor. 2.13,
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), with its derivative
delta'(eps) = -e^eps Phi(-eps/mu - mu/2), at 60 digits; the root is then confirmed by a sign change of
delta - target within 1e-30 relative (the code bisects, on the record's compiled profile).
"""

from __future__ import annotations

import mpmath
import pytest

import derive
from numeric import mp


@pytest.mark.parametrize("mu, delta", [("1e4", "1e-5"), ("3e4", "1e-10")])
def test_large_eps_is_finite(mu, delta):
    with mpmath.workdps(60):
        m, d = mpmath.mpf(mu), mpmath.mpf(delta)

        def gap(e):
            return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2) - d
        ref = m * m / 2      # delta > target here; Newton on a convex decreasing gap from the left stays left
        for _ in range(60):
            ref -= gap(ref) / (-mpmath.exp(ref) * mpmath.ncdf(-ref / m - m / 2))
        assert gap(ref * (1 - mpmath.mpf("1e-30"))) > 0 > gap(ref * (1 + mpmath.mpf("1e-30")))
    got = mp.profile_eps(derive.gaussian(mu), delta, 20)
    assert abs(got / ref - 1) < mpmath.mpf("1e-19")


def test_unreachable_delta_is_inf():
    # f_{1, 0.1}: delta(eps) >= 1 - f(0) = 0.1 for every eps, so eps(0.05) = inf
    assert mpmath.isinf(mp.profile_eps(derive.approx_dp("1", "0.1"), "0.05", 15))
    # and eps(0.1) too: delta(eps) > 0.1 at every finite eps? no: f_{1,0.1} reaches 0.1 at eps = 1
    assert abs(mp.profile_eps(derive.approx_dp("1", "0.1"), "0.1", 15) - 1) < mpmath.mpf("1e-14")


def test_negative_eps_gaussian():
    # dp_accounting's test expects 0.67881797 for mu = 1 at eps = -1; the closed form
    # Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) holds for every real eps (hockey stick of N(mu,1) vs N(0,1))
    with mpmath.workdps(40):
        ref = mpmath.ncdf(mpmath.mpf("1.5")) - mpmath.exp(-1) * mpmath.ncdf(mpmath.mpf("0.5"))
    got = mp.profile_delta(derive.gaussian("1"), "-1", 25)
    assert abs(got / ref - 1) < mpmath.mpf("1e-24")


def test_negative_eps_laplace_by_direct_integration():
    """delta(eps) = integral of (q - e^eps p)_+ for P = Lap(0, 1), Q = Lap(1, 1) (f = T(P, Q)),
    by mpmath.quad split at the kinks 0 and 1 and at the crossing of q and e^eps p."""
    eps = mpmath.mpf("-0.5")
    with mpmath.workdps(40):
        p = lambda x: mpmath.exp(-abs(x)) / 2          # noqa: E731
        q = lambda x: mpmath.exp(-abs(x - 1)) / 2      # noqa: E731
        # on (0, 1): q/p = e^{2x - 1}; it exceeds e^eps for x > (1 + eps)/2; for x >= 1, q/p = e > e^eps
        x0 = (1 + eps) / 2
        ref = mpmath.quad(lambda x: q(x) - mpmath.exp(eps) * p(x), [x0, 1, mpmath.inf])
    got = mp.profile_delta(derive.laplace("1"), "-0.5", 25)
    assert abs(got / ref - 1) < mpmath.mpf("1e-22")


def test_delta_one_is_eps_zero():
    assert mp.profile_eps(derive.gaussian("1"), "1", 15) == 0


# ------------------------------------------------------------ cancellation guard (numeric.profile._guard_bits)
def _gdp_root(mu: str, delta: str, dps: int = 800):
    """eps with delta(eps) = delta for G_mu: the closed form Phi(-e/mu + mu/2) - e^e Phi(-e/mu - mu/2)
    written out here in plain mpmath at 800 digits (enough for the 1e-300 cancellation), root by findroot
    in the scaled variable z = eps / mu."""
    import mpmath
    with mpmath.workdps(dps):
        m, t = mpmath.mpf(mu), mpmath.mpf(delta)

        def d(e):
            return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
        z = mpmath.findroot(lambda z: d(z * m) - t, 3)
        return z * m


@pytest.mark.parametrize("mu, delta, dps", [("6.3e-297", "1e-300", 800), ("1e-1000", "1e-1005", 2100)])
def test_tiny_mu_eps_is_not_lost_to_cancellation(mu, delta, dps):
    """G_mu with mu = 6.3e-297 answered eps = 0 at delta = 1e-300 (delta(0) = 2.5e-297 cancelled to 0 at the
    working precision), and 1.22e-296 once the bracket was fixed but the Newton probe was unguarded; the
    root is 2.042e-296."""
    import mpmath

    import derive
    from numeric import mp
    got = mp.profile_eps(derive.gaussian(mu), delta, 12)
    want = _gdp_root(mu, delta, dps)
    with mpmath.workdps(40):
        assert abs(got / want - 1) < mpmath.mpf("1e-11"), (got, want)


def test_laplace_tiny_eps_profile_inverse():
    """Laplace(eps0): delta(e) = 1 - e^{-(eps0 - e)/2} for 0 <= e <= eps0 (seed 000's profile), so the root
    is e = eps0 + 2 log(1 - delta) (mpmath at 700 digits).  eps0 = 1e-300, delta = 1e-310: 9.999999998e-301;
    the unguarded search answered 7.47e-301."""
    import mpmath

    import derive
    from numeric import mp
    got = mp.profile_eps(derive.laplace("1e-300"), "1e-310", 12)
    with mpmath.workdps(700):
        want = mpmath.mpf("1e-300") + 2 * mpmath.log1p(-mpmath.mpf("1e-310"))
        assert abs(got / want - 1) < mpmath.mpf("1e-11"), (got, want)


def test_without_the_guard_the_tiny_mu_case_fails(monkeypatch):
    """Mutation: no guard bits -> the cancelled delta(0) decides eps = 0 (or a wrong root)."""
    # (the 800-digit reference, as above)
    import mpmath

    import derive
    from numeric import mp
    from numeric import profile as P
    monkeypatch.setattr(P, "_guard_bits", lambda target: 0)
    got = mp.profile_eps(derive.gaussian("6.3e-297"), "1e-300", 12)
    want = _gdp_root("6.3e-297", "1e-300")
    with mpmath.workdps(40):
        assert not abs(got / want - 1) < mpmath.mpf("1e-11")


def test_fp_path_hands_the_cancelled_case_to_mp():
    """--path fp: Phi(mu/2) - Phi(-mu/2) cancels to 0 in float for mu = 6.3e-297, and eps = 0 came out at
    delta = 1e-300; now the entry is recomputed by the guarded mp path (same 800-digit reference as above).
    delta = 0.5 stays eps = 0 on the float path (delta(0) = 2.5e-297 <= 0.5 is decided in float)."""
    import derive
    from numeric import fp
    got = fp.profile_eps(derive.gaussian("6.3e-297"), [1e-300, 0.5])
    want = float(_gdp_root("6.3e-297", "1e-300"))
    assert abs(got[0] / want - 1) < 1e-13 and got[1] == 0.0
