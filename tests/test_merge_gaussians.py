"""Plain Gaussian entries of a spec are composed exactly as one G_mu, mu^2 = sum k_i mu_i^2, before the
engine (proofs_check.cli.compose_fdp._merge_gaussians, numeric.pld_gaussian_merge; issue #25)."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from tests.cli_runner import run

SPEC = {"mechanisms": [{"mechanism": "gaussian", "mu": "0.3", "count": 3},
                       {"mechanism": "gaussian", "mu": "0.4", "count": 1},
                       {"mechanism": "laplace", "eps": "0.5", "count": 1},
                       {"mechanism": "gaussian", "mu": "0.5", "count": 1}]}
MU2 = Fraction(3 * 9 + 16 + 25, 100)       # 0.68, by hand
EPS_LAP, AT = mpmath.mpf("0.5"), mpmath.mpf("0.75")


def _delta_reference(mu2, at):
    """delta(at) of G_sqrt(mu2) x Laplace(0.5) by mpmath at 40 digits, independent of the engine: for
    independent losses delta(E) = E_{L2}[delta_G(E - L2)], delta_G(x) = Phi(mu/2 - x/mu) - e^x Phi(-mu/2 - x/mu)
    (Dong-Roth-Su 2022, Cor. 2.13, any real x), and the Laplace loss under P has atoms +eps (1/2), -eps
    (e^-eps/2) and the density e^{(l - eps)/2}/4 on (-eps, eps) (tests/laplace_reference.py's docstring)."""
    with mpmath.workdps(40):
        mu = mpmath.sqrt(mpmath.mpf(mu2.numerator) / mu2.denominator)

        def dg(x):
            return mpmath.ncdf(mu / 2 - x / mu) - mpmath.exp(x) * mpmath.ncdf(-mu / 2 - x / mu)
        e = EPS_LAP
        cont = mpmath.quad(lambda l: dg(at - l) * mpmath.exp((l - e) / 2) / 4, [-e, 0, e])
        return dg(at - e) / 2 + dg(at + e) * mpmath.exp(-e) / 2 + cont


def _bracket(tmp_path, spec):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    got = run(("compose", "fdp", "--spec", str(path), "--at-eps", "0.75", "--json", "--quiet")).json()
    return mpmath.mpf(got["delta_lower"]), mpmath.mpf(got["delta_upper"])


def test_merged_bracket_contains_reference(tmp_path):
    lo, hi = _bracket(tmp_path, SPEC)
    ref = _delta_reference(MU2, AT)
    assert lo <= ref <= hi, (lo, ref, hi)
    assert hi - lo < 1e-5


def test_merge_makes_one_gaussian():
    from derive.spec import parse_spec
    from proofs_check.cli.compose_fdp import _components
    plan = [(c.mechanism.name, c.params, c.count, None) for c in parse_spec(json.dumps(SPEC))]
    out, limit = _components(plan)
    assert limit is None and len(out) == 2
    merged = [m for m, _ in out if "sqrt" in m.name]
    assert len(merged) == 1 and merged[0].directions[0].mu2 == MU2


def test_mutation_merge_without_squares_is_caught(tmp_path, monkeypatch):
    """Mutation: sum k mu instead of k mu^2; the bracket must then miss the reference."""
    from numeric import pld_gaussian_merge as GM
    from numeric import pld_mechanisms as M

    def without_squares(mus_counts):
        model = M.Gaussian(mu2=sum(Fraction(mu) * k for mu, k in mus_counts))
        return M.Mechanism(model.name, [model], True)
    monkeypatch.setattr(GM, "merged_gaussian", without_squares)
    lo, hi = _bracket(tmp_path, SPEC)
    ref = _delta_reference(MU2, AT)
    assert not lo <= ref <= hi


def test_no_merge_beyond_one_step_limit():
    # two 10^4-fold G_100 rows: merged mu ~ 1.4e4 > 100, the engine's one-step limit; kept as two rows
    from proofs_check.cli.compose_fdp import _components
    plan = [("gaussian", {"mu": "100"}, 10000, None), ("gaussian", {"mu": "99"}, 10000, None)]
    out, _ = _components(plan)
    assert [k for _, k in out] == [10000, 10000]
    plan = [("gaussian", {"mu": "70"}, 1, None), ("gaussian", {"mu": "71"}, 1, None)]     # 4900 + 5041 <= 10^4
    out, _ = _components(plan)
    assert len(out) == 1


@pytest.mark.parametrize("mu2", ["0", "-1"])
def test_merged_gaussian_needs_positive_mu2(mu2):
    from numeric import pld_mechanisms as M
    with pytest.raises(ValueError, match="mu2"):
        M.Gaussian(mu2=mu2)
