"""DpEvent trees on the certified engine and the Opacus-shaped accountant (issue #27, items 1-2).

No dp_accounting here: the trees are the dict form of ``DpEvent.to_named_tuple()`` (numeric/dp_events.py);
tests/test_accountants_dp.py runs the same against the library itself.  References are computed
independently of the engine: the Gaussian pair's closed-form profile (a composition of G_mu's is
G_sqrt(sum mu^2)) solved in mpmath at 40 digits, the binomial law of composed randomized response
summed exactly, and the closed-form profile of one Poisson-subsampled Gaussian step.
"""

from __future__ import annotations

import json
import math

import mpmath
import pytest

from numeric import accountants as A
from numeric import dp_events as E


def G(sigma):
    return {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}


def self_composed(event, count):
    return {"class_name": "SelfComposedDpEvent", "event": event, "count": count}


def poisson(q, event):
    return {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": event}


def rr(p, k=2):
    return {"class_name": "RandomizedResponseDpEvent", "noise_parameter": p, "num_buckets": k}


def ledger(event, relation=E.ADD_REMOVE):
    book = A.Ledger()
    book.add(E.read_event(event, relation))
    return book


# --- independent references ---------------------------------------------------------------------------

def gdp_delta(mu, eps):
    """delta(eps) of G_mu: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong-Roth-Su 2022 Cor. 2.13), erfc form."""
    mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
    return mpmath.erfc((eps / mu - mu / 2) / mpmath.sqrt(2)) / 2 - mpmath.exp(eps) * mpmath.erfc(
        (eps / mu + mu / 2) / mpmath.sqrt(2)) / 2


def solve_eps(delta_of, delta, hi=60):
    """eps with delta_of(eps) = delta by bisection (delta_of decreasing), 40 digits."""
    with mpmath.workdps(40):
        lo, hi = mpmath.mpf(0), mpmath.mpf(hi)
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
        return lo


def rr_delta(eps0, k, eps):
    """delta(eps) of k-fold randomized response with per-step eps0: the loss is eps0 (2j - k), j ~ Bin(k, a)
    under P and Bin(k, 1 - a) under Q, a = e^eps0/(1 + e^eps0); sum of (P - e^eps Q)_+ over the atoms."""
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        a = mpmath.exp(e0) / (1 + mpmath.exp(e0))
        tot = mpmath.mpf(0)
        for j in range(k + 1):
            pj = mpmath.binomial(k, j) * a**j * (1 - a) ** (k - j)
            qj = mpmath.binomial(k, j) * (1 - a) ** j * a ** (k - j)
            tot += max(mpmath.mpf(0), pj - mpmath.exp(eps) * qj)
        return tot


def poisson_gaussian_delta(q, s, eps):
    """One Poisson-subsampled Gaussian step, the worse of its two directions, in closed form: the loss is
    monotone in x, so {L > eps} is a half-line whose end x* is solved by hand (remove: P = (1-q)N(0,s^2) +
    qN(1,s^2) against Q = N(0,s^2); add: the reverse)."""
    with mpmath.workdps(50):
        q, s, eps = mpmath.mpf(q), mpmath.mpf(s), mpmath.mpf(eps)
        up = lambda x: mpmath.erfc(x / mpmath.sqrt(2)) / 2      # noqa: E731  (upper normal tail)
        x = s**2 * mpmath.log((mpmath.exp(eps) - 1 + q) / q) + mpmath.mpf(1) / 2
        remove = (1 - q) * up(x / s) + q * up((x - 1) / s) - mpmath.exp(eps) * up(x / s)
        add = mpmath.mpf(0)
        if mpmath.exp(-eps) > 1 - q:
            x = s**2 * mpmath.log((mpmath.exp(-eps) - 1 + q) / q) + mpmath.mpf(1) / 2
            add = up(-x / s) - mpmath.exp(eps) * ((1 - q) * up(-x / s) + q * up((1 - x) / s))
        return max(remove, add)


def contains(bracket, value) -> bool:
    return bracket.lower <= value <= bracket.upper


# --- checks (functions, so the mutation tests can require them to fail) --------------------------------

def check_gaussian_tree() -> bool:
    tree = {"class_name": "ComposedDpEvent", "events": [self_composed(G(2.0), 3), G("1.5"),
                                                         {"class_name": "NoOpDpEvent"}]}
    mu = mpmath.sqrt(mpmath.mpf(3) / 4 + mpmath.mpf(4) / 9)
    ref = solve_eps(lambda e: gdp_delta(mu, e), mpmath.mpf("1e-5"))
    return contains(ledger(tree).eps_bracket(1e-5), ref)


def check_replace_one_gaussian() -> bool:
    """Under replace-one a record moves the sum by 2: Gaussian(4) is G_{1/2}."""
    ref = solve_eps(lambda e: gdp_delta(mpmath.mpf(1) / 2, e), mpmath.mpf("1e-6"))
    return contains(ledger(G(4), E.REPLACE_ONE).eps_bracket(1e-6), ref)


def check_randomized_response() -> bool:
    eps0 = mpmath.log(3)                               # p = 1/2, 2 buckets: (2 - p)/p = 3
    book = ledger(self_composed(rr(0.5), 10), E.REPLACE_ONE)
    ok = contains(book.delta_bracket(5), rr_delta(eps0, 10, 5))
    ref = solve_eps(lambda e: rr_delta(eps0, 10, e), mpmath.mpf("1e-3"), hi=12)
    return ok and contains(book.eps_bracket(1e-3), ref)


def test_gaussian_tree_contains_the_gdp_value():
    assert check_gaussian_tree()


def test_replace_one_gaussian_is_two_sensitivity():
    assert check_replace_one_gaussian()


def test_randomized_response_contains_the_binomial_value():
    assert check_randomized_response()


@pytest.mark.parametrize("q, s, eps", [("0.1", "1.1", "0.5"), ("0.01", "0.8", "0.2"), ("0.5", "2", "0.05")])
def test_one_poisson_step_contains_the_closed_form(q, s, eps):
    b = ledger(poisson(q, G(s))).delta_bracket(eps)
    assert contains(b, poisson_gaussian_delta(q, s, eps)) and b.certified


def test_same_bracket_as_dpsgd():
    """The accountant and ``dp-derive dpsgd`` run the same engine composition: the same bracket."""
    from numeric import dpsgd
    b = ledger(self_composed(poisson(0.1, G(2.0)), 10)).eps_bracket(1e-5)
    r = dpsgd.account("10", "1", "2", steps="10", at_delta="1e-5")
    assert b.lower <= r.eps_lower and r.eps_upper <= b.upper
    assert b.upper - b.lower <= float(r.eps_upper - r.eps_lower) * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize("event, relation, why", [
    ({"class_name": "NonPrivateDpEvent"}, E.ADD_REMOVE, "not supported"),
    ({"class_name": "UnsupportedDpEvent"}, E.ADD_REMOVE, "not supported"),
    (rr(0.5, 3), E.REPLACE_ONE, "3 > 2 buckets"),
    (rr(0.5), E.ADD_REMOVE, "REPLACE_ONE relation only"),
    (poisson(0.1, G(1)), E.REPLACE_ONE, "ADD_OR_REMOVE_ONE relation only"),
    (poisson(0.1, self_composed(G(1), 2)), E.ADD_REMOVE, "only of a single Gaussian"),
    (poisson(0.1, G(0.1)), E.ADD_REMOVE, "engine reach"),
    ({"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 100, "sample_size": 10,
      "event": G(1)}, E.ADD_REMOVE, "REPLACE_ONE relation only"),
    (G(-1.0), E.ADD_REMOVE, ">= 0"), (G(float("nan")), E.ADD_REMOVE, "finite"), (G(True), E.ADD_REMOVE, "a number"),
    (G(1), "REPLACE_SPECIAL", "only ADD_OR_REMOVE_ONE and REPLACE_ONE"),
    (self_composed(G(1), 2.5), E.ADD_REMOVE, "integer"),
])
def test_refused(event, relation, why):
    with pytest.raises(E.Refused, match=why):
        E.read_event(event, relation)


def test_numpy_floats_are_their_decimals():
    import numpy as np
    assert E.read_event(G(np.float64(1.1))) == E.read_event(G("1.1"))
    assert ledger(G(2.0)).eps_bracket(np.float64(1e-5)) == ledger(G(2.0)).eps_bracket("1e-5")


def test_limits():
    assert ledger(G(0.0)).eps_bracket(1e-5).upper == math.inf          # no noise: no privacy
    assert ledger(poisson(0.0, G(1))).eps_bracket(1e-5).upper == 0.0    # never sampled
    assert ledger(rr(1.0, 1), E.REPLACE_ONE).delta_bracket(1).upper == 0.0
    assert ledger(self_composed(G(1), 0)).eps_bracket(1e-5).upper == 0.0


@pytest.mark.slow
def test_sampling_without_replacement_is_the_uniform_step():
    """SampledWithoutReplacement(n, m, G(s)) under replace-one is C_{m/n}(G_{2/s}) (dpsgd's uniform sampling at
    sigma s/2): the same engine step."""
    from numeric import dpsgd
    ev = {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 1000, "sample_size": 10,
          "event": G("2.2")}
    b = ledger(self_composed(ev, 10), E.REPLACE_ONE).eps_bracket(1e-5)
    r = dpsgd.account("1000", "10", "1.1", steps="10", sampling="uniform", at_delta="1e-5")
    assert b.lower <= r.eps_lower and r.eps_upper <= b.upper


# --- the Opacus protocol, driven as Opacus drives it ----------------------------------------------------

class StandInOptimizer:
    """What opacus.optimizers.DPOptimizer exposes to the accountant's hook (Opacus 1.5.4): ``noise_multiplier``,
    ``accumulated_iterations``, ``attach_step_hook`` and ``pre_step`` calling the hook once per real step."""

    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier
        self.accumulated_iterations = 1
        self.step_hook = None

    def attach_step_hook(self, fn):
        self.step_hook = fn

    def step(self):
        if self.step_hook:
            self.step_hook(self)


def train(accountant, sample_rate=0.1, steps=(3, 2), sigmas=(2.0, 3.0)):
    """PrivacyEngine.make_private's calls: attach the accountant's hook with the loader's rate; each
    optimizer.step() runs it; a noise change (a scheduler) shows as a new history entry."""
    optim = StandInOptimizer(sigmas[0])
    optim.attach_step_hook(accountant.get_optimizer_hook_fn(sample_rate=sample_rate))
    for sigma, n in zip(sigmas, steps):
        optim.noise_multiplier = sigma
        for _ in range(n):
            optim.step()
    return accountant


def check_opacus_history() -> bool:
    acct = train(A.OpacusAccountant())
    ref = {"class_name": "ComposedDpEvent", "events": [self_composed(poisson(0.1, G(2.0)), 3),
                                                       self_composed(poisson(0.1, G(3.0)), 2)]}
    return acct.history == [(2.0, 0.1, 3), (3.0, 0.1, 2)] and len(acct) == 5 and \
        acct.get_epsilon(1e-5) == ledger(ref).eps_bracket(1e-5).upper


def test_opacus_protocol():
    assert check_opacus_history()
    acct = train(A.OpacusAccountant())
    state = acct.state_dict()
    assert state["mechanism"] == A.OpacusAccountant.mechanism()
    fresh = A.OpacusAccountant()
    fresh.load_state_dict(json.loads(json.dumps(state)))             # a checkpoint round trip
    assert [tuple(h) for h in fresh.history] == acct.history
    with pytest.raises(ValueError, match="cannot be loaded"):
        fresh.load_state_dict({"history": [], "mechanism": "rdp"})
    with pytest.raises(E.Refused):
        A.OpacusAccountant().step(noise_multiplier=0.1, sample_rate=0.01)


@pytest.mark.slow
def test_get_noise_multiplier_meets_the_target_and_is_near_smallest():
    sigma = A.get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, steps=100)
    acct = A.OpacusAccountant()
    acct.history = [(sigma, 0.01, 100)]
    assert acct.get_epsilon(1e-5) <= 2.0
    acct.history = [(sigma * 0.997, 0.01, 100)]
    assert acct.get_epsilon_bracket(1e-5).lower > 2.0


# --- the CLI -------------------------------------------------------------------------------------------

def test_cli_dp_event(tmp_path):
    from cli_runner import run

    def run_cli(argv):
        res = run(tuple(argv))
        return res.rc, res.out, res.err
    path = tmp_path / "ev.json"
    path.write_text(json.dumps(self_composed(G(2.0), 3)))
    rc, out, err = run_cli(["compose", "fdp", "--dp-event", str(path), "--at-delta", "1e-5", "--json"])
    assert rc == 0, err
    payload = json.loads(out)
    ref = solve_eps(lambda e: gdp_delta(mpmath.sqrt(mpmath.mpf(3) / 4), e), mpmath.mpf("1e-5"))
    assert mpmath.mpf(payload["eps_lower"]) <= ref <= mpmath.mpf(payload["eps_upper"]) and payload["certified"]
    path.write_text(json.dumps(rr(0.5, 3)))
    rc, out, err = run_cli(["compose", "fdp", "--dp-event", str(path), "--relation", "replace-one", "--at-eps", "1"])
    assert rc == 2 and err.count("\n") == 1 and "refused" in err


# --- mutations: each check above fails on a slightly wrong reading ---------------------------------------

def test_mutation_relation_factor(monkeypatch):
    monkeypatch.setattr(E, "_noise_step", lambda ev, rel, kind: E.Leaf(kind, 1 / E.number(ev, "noise_multiplier")))
    assert not check_replace_one_gaussian()


def test_mutation_rr_enclosure(monkeypatch):
    true = E.log_enclosure
    monkeypatch.setattr(E, "log_enclosure", lambda x: tuple(v * 1001 / 1000 for v in true(x)))
    assert not check_randomized_response()


def test_mutation_self_composed_count(monkeypatch):
    reader = E._READERS["SelfComposedDpEvent"]
    monkeypatch.setitem(E._READERS, "SelfComposedDpEvent",
                        lambda ev, rel, read: reader({**ev, "count": max(1, ev["count"] - 1)}, rel, read))
    assert not check_gaussian_tree()


def test_mutation_opacus_merge(monkeypatch):
    monkeypatch.setattr(A, "dpsgd_event", lambda s, q, n: self_composed(poisson(q, G(s)), n + 1))
    assert not check_opacus_history()
