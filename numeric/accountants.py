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

Results are floats: an upper end is rounded up to the next float when float() rounded it down,
a lower end down (``_float_up`` / ``_float_down``), so the float bracket still contains the value.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from copy import deepcopy
from dataclasses import dataclass
from fractions import Fraction

from . import dp_events as E


@dataclass(frozen=True)
class Bracket:
    """lower <= value <= upper (floats, rounded outward); ``certified`` and ``reason`` from the engine."""
    lower: float
    upper: float
    certified: bool = True
    reason: str = ""


def _float_up(x) -> float:
    f = float(x)
    return f if f >= x else math.nextafter(f, math.inf)


def _float_down(x) -> float:
    f = float(x)
    return f if f <= x else math.nextafter(f, -math.inf)


def _decimal(value, name: str) -> str:
    """A query (delta or eps) as decimal text: a float by its repr, else its str; a DomainError if not a number."""
    from derive.errors import DomainError
    if isinstance(value, bool):
        raise DomainError(name, value, "a number")
    text = repr(value) if isinstance(value, float) else str(value).strip()
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise DomainError(name, value, "a finite number") from None
    return text


class Ledger:
    """A multiset of engine leaves (``numeric.dp_events``) and the engine's compositions of it (cached)."""

    def __init__(self):
        self.leaves = Counter()
        self._comps = None

    def add(self, ledger: Counter, count: int = 1):
        for leaf, c in ledger.items():
            self.leaves[leaf] += c * count
        self._comps = None

    def compositions(self):
        """(lower model, upper model): one Composition twice unless an enclosed parameter is present."""
        if self._comps is None:
            from . import pld
            upper = pld.compose(E.components(self.leaves, 1))
            lower = pld.compose(E.components(self.leaves, 0)) if E.two_models(self.leaves) else upper
            self._comps = (lower, upper)
        return self._comps

    def empty(self) -> bool:
        return not any(c > 0 for c in self.leaves.values())

    def eps_bracket(self, delta) -> Bracket:
        text = _decimal(delta, "delta")
        d = Fraction(text)
        if not 0 < d <= 1:
            from derive.errors import DomainError
            raise DomainError("delta", delta, "in (0, 1]")
        if self.empty() or d == 1:
            return Bracket(0.0, 0.0)
        if E.no_privacy(self.leaves):
            return Bracket(math.inf, math.inf, True, "a non-private event (noise 0) is in the ledger")
        lower, upper = self.compositions()
        hi = upper.eps(text)
        lo = lower.eps(text) if lower is not upper else hi
        return Bracket(_float_down(lo.eps_lower), _float_up(hi.eps_upper), bool(lo.certified and hi.certified),
                       hi.reason or lo.reason)

    def delta_bracket(self, eps) -> Bracket:
        text = _decimal(eps, "eps")
        if Fraction(text) < 0:
            from derive.errors import DomainError
            raise DomainError("eps", eps, ">= 0")
        if self.empty():
            return Bracket(0.0, 0.0)
        if E.no_privacy(self.leaves):
            return Bracket(1.0, 1.0, True, "a non-private event (noise 0) is in the ledger")
        lower, upper = self.compositions()
        hi = upper.delta(text)
        lo = lower.delta(text) if lower is not upper else hi
        return Bracket(_float_down(lo.delta_lower), min(1.0, _float_up(hi.delta_upper)),
                       bool(lo.certified and hi.certified), hi.reason or lo.reason)


def _safe_end(bracket: Bracket) -> float:
    if not bracket.certified:
        import warnings
        warnings.warn(f"the engine's bracket is not certified: {bracket.reason}", stacklevel=3)
    return bracket.upper


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
        ledger = Ledger()
        for sigma, q, n in self.history:
            ledger.add(E.read_event(dpsgd_event(sigma, q, n)))
        return ledger

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
