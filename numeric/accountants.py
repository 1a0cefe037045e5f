"""Certified accountants behind dp_accounting's and Opacus's interfaces (issue #27, items 1-2).

``CertifiedAccountant`` (needs the ``dp-accounting`` extra) is a ``dp_accounting.PrivacyAccountant``:
``supports()``/``compose()`` take the ``DpEvent`` trees listed in ``numeric.dp_events`` and refuse
every other (``supports() == False``, ``compose()`` raises ``UnsupportedEventError``), never
accounting an event it cannot bound.  ``get_epsilon(delta)`` / ``get_delta(eps)`` return the
privacy-safe end of the certified bracket of ``numeric.pld`` (its docstring holds the argument for
the bracket); ``epsilon_bracket(delta)`` / ``delta_bracket(eps)`` return the whole bracket.

``OpacusAccountant`` has the shape of Opacus's ``IAccountant`` (opacus/accountants/accountant.py
and rdp.py, Opacus 1.5.4, read at pytorch/opacus 4d0ebc8): ``step(noise_multiplier=, sample_rate=)``
merges equal consecutive steps into ``history`` entries (noise_multiplier, sample_rate, steps) as
Opacus's RDP and PRV accountants do, ``get_epsilon(delta)``, ``len()``, ``state_dict()`` /
``load_state_dict()``, ``mechanism()`` and ``get_optimizer_hook_fn(sample_rate)``, the hook Opacus's
``PrivacyEngine.make_private`` attaches to its ``DPOptimizer``.  It needs neither Opacus nor
dp_accounting.  ``get_noise_multiplier`` calibrates on the certified engine
(``numeric.dpsgd.calibrate_sigma``): the returned sigma is one at which the certified eps_upper was
evaluated and met the target.

Results are floats rounded outward (``numeric.accountant_ledger``).
"""

from __future__ import annotations

from collections import OrderedDict
from copy import deepcopy
from fractions import Fraction

from . import dp_events as E
from .accountant_ledger import (  # noqa: F401
    Bracket,
    Ledger,
    _decimal,
    _float_down,
    _float_up,
    _safe_end,
)


def dpsgd_event(noise_multiplier, sample_rate, steps: int) -> dict:
    """Opacus's (sigma, q, steps) entry as the dict form of dp_accounting's DpEvent tree."""
    gaussian = {"class_name": "GaussianDpEvent", "noise_multiplier": noise_multiplier}
    sampled = {"class_name": "PoissonSampledDpEvent", "sampling_probability": sample_rate, "event": gaussian}
    return {"class_name": "SelfComposedDpEvent", "event": sampled, "count": steps}


class OpacusAccountant:
    """Opacus's ``IAccountant`` protocol on the certified engine (Poisson sampling, add/remove neighbours)."""

    MECHANISM = "dp-derive"

    def __init__(self):
        self.history = []        # [(noise_multiplier, sample_rate, num_steps)], as Opacus keeps it

    def step(self, *, noise_multiplier: float, sample_rate: float):
        E.read_event(dpsgd_event(noise_multiplier, sample_rate, 1))      # refuse now, not at get_epsilon
        if self.history and self.history[-1][:2] == (noise_multiplier, sample_rate):
            sigma, q, n = self.history.pop()
            self.history.append((sigma, q, n + 1))
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def _ledger(self) -> Ledger:
        """The ledger of ``history`` (kept while the history is unchanged: its compositions are cached)."""
        key = tuple(tuple(h) for h in self.history)
        cached = getattr(self, "_cached", None)
        if cached is None or cached[0] != key:
            ledger = Ledger()
            for sigma, q, n in self.history:
                ledger.add(E.read_event(dpsgd_event(sigma, q, n)))
            self._cached = cached = (key, ledger)
        return cached[1]

    def get_epsilon(self, delta: float, *args, **kwargs) -> float:
        """The certified eps_upper at ``delta`` of the steps so far (extra Opacus arguments are ignored)."""
        return _safe_end(self._ledger().eps_bracket(delta))

    def get_epsilon_bracket(self, delta: float) -> Bracket:
        return self._ledger().eps_bracket(delta)

    def get_privacy_spent(self, *, delta: float, **kwargs):
        """(eps, None): Opacus's RDP accountant returns (eps, best alpha); there is no alpha here."""
        return self.get_epsilon(delta), None

    def __len__(self) -> int:
        return sum(n for _, _, n in self.history)

    @classmethod
    def mechanism(cls) -> str:
        return cls.MECHANISM

    def get_optimizer_hook_fn(self, sample_rate: float):
        """The hook ``PrivacyEngine.make_private`` attaches: one step per optimizer step, at the rate times the
        optimizer's accumulated iterations (as Opacus's IAccountant.get_optimizer_hook_fn)."""
        def hook_fn(optim):
            self.step(noise_multiplier=optim.noise_multiplier, sample_rate=sample_rate * optim.accumulated_iterations)
        return hook_fn

    def state_dict(self, destination=None):
        destination = OrderedDict() if destination is None else destination
        destination["history"] = deepcopy(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict):
        if not state_dict:
            raise ValueError("state dict is either None or empty and hence cannot be loaded into the accountant")
        for key in ("history", "mechanism"):
            if key not in state_dict:
                raise ValueError(f"state_dict does not have the key `{key}`")
        if state_dict["mechanism"] != self.mechanism():
            raise ValueError(f"state_dict of {state_dict['mechanism']} cannot be loaded into an accountant with "
                             f"mechanism {self.mechanism()}")
        self.history = list(state_dict["history"])


def get_noise_multiplier(*, target_epsilon: float, target_delta: float, sample_rate: float, epochs=None,
                         steps=None, **kwargs) -> float:
    """The smallest noise multiplier (to 0.1 %, ``numeric.dpsgd.calibrate_sigma``) whose certified eps_upper at
    ``target_delta`` after the steps is <= ``target_epsilon``; steps = int(epochs / sample_rate) when epochs are
    given (Opacus's ``get_noise_multiplier`` convention).  The returned float is >= the calibrated decimal."""
    from .dpsgd import calibrate_sigma
    if (steps is None) == (epochs is None):
        raise ValueError("get_noise_multiplier takes exactly one of steps and epochs")
    q = Fraction(_decimal(sample_rate, "sample_rate"))
    if steps is None:
        steps = int(epochs / sample_rate)
    r = calibrate_sigma(str(q.denominator), str(q.numerator), _decimal(target_epsilon, "target_epsilon"),
                        _decimal(target_delta, "target_delta"), steps=str(int(steps)))
    return _float_up(r.sigma)


def __getattr__(name):
    if name == "CertifiedAccountant":
        from .accountant_dp import CertifiedAccountant
        return CertifiedAccountant
    raise AttributeError(name)
