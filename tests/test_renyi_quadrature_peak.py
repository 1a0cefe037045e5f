"""Renyi divergences by quadrature at large orders (issue #25's seventeenth-session probe): tanh-sinh on [0, inf]
missed the far peak of e^{-(lambda - 1) g} phi and printed a wrong value as 15 verified digits.

Reference: the Gaussian mechanism's closed form D_lambda(G_mu) = lambda mu^2 / 2 (exact rationals here)."""

from __future__ import annotations

import pytest

from cli_runner import run


def _renyi(mu, order, *extra):
    out = run(("functional", "gaussian", "--mu", mu, "--name", "renyi", "--order", order, "--method", "quadrature",
               "--json", "--quiet", *extra)).json()
    return out["value"]


@pytest.mark.parametrize("mu,order,want", [("1", "100", "50.0000000000000"), ("1", "1e5", "50000.0000000000"),
                                           ("30", "1000", "450000.000000000"), ("0.5", "3", "0.375000000000000")])
def test_renyi_by_quadrature_is_the_closed_form(mu, order, want):
    assert _renyi(mu, order) == want          # lambda mu^2 / 2 to the 15 digits printed


def test_mutation_no_peak_node_is_caught(monkeypatch):
    import numeric.functionals as F
    monkeypatch.setattr(F, "_peak_nodes", lambda nodes, log_h: nodes)
    assert _renyi("1", "100") != "50.0000000000000"
