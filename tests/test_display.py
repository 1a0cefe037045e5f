"""Result dataclasses as plain data and as notebook tables (numeric/display.py)."""

from __future__ import annotations

import mpmath

import derive
from numeric import clt, functionals, pld
from numeric import pld_mechanisms as M


def test_results_as_dict_show_their_verified_digits():
    r = clt.clt([(derive.randomized_response("0.1"), 100)], 20)
    d = r.as_dict()
    # mu = 20 tanh(0.05) (catalog 004, DRS-Thm3.4 on f_{eps,0}), shown with the result's own 20 digits
    with mpmath.workdps(30):
        assert d["mu"] == mpmath.nstr(20 * mpmath.tanh(mpmath.mpf("0.05")), 20)
    assert d["digits"] == 20 and r.as_dict(6)["mu"] == "0.999167"
    html = r._repr_html_()
    assert html.startswith("<table><caption>CltResult</caption>") and d["mu"] in html
    e = pld.compose([(M.gaussian("0.5"), 10)]).eps("1e-6").as_dict()
    assert e["delta"] == "1/1000000" and e["certified"] is True
    v = functionals.functional(derive.laplace("1"), "kl").as_dict()
    assert v["expr"] == "epsilon - 1 + exp(-epsilon)" and v["method"] == "sympy"
