r"""The discrete Gaussian's LaTeX (``latex discrete-gaussian``): its variance printed as sigma^2, the paper's
notation (Canonne-Kamath-Steinke 2020; seed 004 Sec. 4.4 writes N_Z(0, sigma^2)), where SymPy had printed the
symbol sigma2 as sigma_{2}; and the factor of eps first (sigma2 = 2 printed "\varepsilon 2")."""

from __future__ import annotations

import sympy as sp

from derive.mechanisms.discrete_gaussian import SIGMA2, DGProfile
from tests.cli_runner import run


def test_variance_prints_as_sigma_squared():
    out = run(("latex", "discrete-gaussian", "--quantity", "profile"))
    assert out.rc == 0 and r"{\sigma^{2}}" in out.out and r"\sigma_{2}" not in out.out


def test_a_power_of_the_variance_stays_valid_latex():
    text = sp.latex(SIGMA2 ** 2)
    assert "^{2}^{2}" not in text and text in (r"{\sigma^{2}}^{2}", r"\left({\sigma^{2}}\right)^{2}")


def test_the_factor_comes_first():
    eps = sp.Symbol("varepsilon")
    text = sp.latex(DGProfile(eps, sp.Integer(2)))
    assert r"X>2\,\varepsilon-\tfrac12" in text and r"\varepsilon 2" not in text
