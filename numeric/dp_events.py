"""dp_accounting's ``DpEvent`` trees read onto the certified engine (issue #27, item 1).

A tree is read into a *ledger*: a multiset of leaves (one engine step each, with its count).  The
reading never imports dp_accounting: an event is anything with a class name and fields, so the
library's attrs objects, their ``to_named_tuple()`` form and that form as a JSON object (the named
tuple's fields, ``module_name``/``class_name`` included, nested events as nested objects; this is
what ``dp-derive compose fdp --dp-event FILE.json`` reads) are all the same tree.  dp_accounting
itself has no JSON form; the named tuple is its documented serialisable one (``DpEvent.to_named_tuple``).

The mapping (one row of ``_READERS`` per class; ``sigma`` the event's noise multiplier, sensitivity 1):

=================================  ===================  ====================================================
event                              relation             engine step (``numeric.pld_mechanisms``)
=================================  ===================  ====================================================
GaussianDpEvent(sigma)             add/remove           G_{1/sigma}  (spec: gaussian, mu = 1/sigma)
GaussianDpEvent(sigma)             replace-one          G_{2/sigma}  (a replaced record moves the sum by 2)
LaplaceDpEvent(b)                  add/remove           Laplace, eps = 1/b
LaplaceDpEvent(b)                  replace-one          Laplace, eps = 2/b
RandomizedResponseDpEvent(p, 2)    replace-one          f_{eps,0}, eps = log((2 - p)/p)
PoissonSampledDpEvent(q, G or L)   add/remove           Poisson-subsampled step, both directions (spec: p, poisson)
SampledWithoutReplacementDpEvent   replace-one          C_{m/n}(f) of the replace-one step (spec: p, uniform)
  (n, m, G or L)
SelfComposedDpEvent(e, k)          any                  the leaves of e, counts times k
ComposedDpEvent([e...])            any                  the union of the leaves
NoOpDpEvent                        any                  nothing
=================================  ===================  ====================================================

Everything else is refused (``Refused`` names the sub-event and why): other event classes, a
relation an event is not defined for (as dp_accounting's PLD accountant: randomized response is a
replace-one mechanism, Poisson sampling an add/remove one), k-ary randomized response for k > 2
(its pair is not f_{eps,0}, and the engine has no model for it), sampling of anything but a single
Gaussian or Laplace event, parameters outside the engine's reach.  Limits are answered exactly:
sigma = 0 or p = 0 is no privacy (eps = inf), a rate or count of 0 and one bucket are no-ops.

Numbers: a Python float is read as the shortest decimal that rounds to it (``repr``: the number the
user typed, as the spec files read JSON numbers), strings as decimals, ints and Fractions exactly.
The float's binary value differs from that decimal by less than one ulp (relative 1.1e-16); the
bracket is certified for the decimal.  mu = 1/sigma is kept as an exact rational (the spec's decimal
``mu`` cannot hold 10/11, which is why ``--dp-event`` reads the event itself).  eps of randomized
response is irrational: it is enclosed by two 40-digit decimals, the lower composition is run with
the smaller and the upper with the larger (f_{eps,0} decreases in eps, so the two brackets' outer
ends enclose the true value).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

ADD_REMOVE = "ADD_OR_REMOVE_ONE"
REPLACE_ONE = "REPLACE_ONE"
RELATIONS = (ADD_REMOVE, REPLACE_ONE)

#: the engine's reach (``proofs_check.cli.compose_fdp`` SMALLEST/LARGEST for a plain step,
#: ``numeric.dpsgd`` SIGMA_MIN/MIN_RATE for a sampled Gaussian step)
SMALLEST, LARGEST = Fraction(1, 10**8), Fraction(100)
SIGMA_MIN, MIN_RATE = Fraction(3, 10), Fraction(1, 10**9)
RR_DIGITS = 40


class Refused(Exception):
    """The tree holds an event this reading does not account: ``event`` and ``reason`` say which."""

    def __init__(self, event, reason: str):
        super().__init__(f"{reason} (event: {_short(event)})")
        self.event = event
        self.reason = reason


@dataclass(frozen=True)
class Kind:
    """What a leaf is: the mechanism table's row (``derive/mechanisms/table.py``) whose constructor builds its
    record, the smallest 1/parameter a sampled step of it may have (engine reach; None: no sampled-step
    limit), and whether its parameter is an enclosure (lower, upper) rather than one exact rational."""
    row: str
    sampled_min_inverse: Fraction | None = None
    enclosed: bool = False


@dataclass(frozen=True)
class Leaf:
    """One engine step: its :class:`Kind`, its loss parameter (mu or eps; for an enclosed kind the pair
    (lower, upper)), and the sampling (None, poisson or uniform) with its rate."""
    kind: Kind | None
    value: object
    sampling: str | None = None
    rate: Fraction | None = None


NO_PRIVACY = Leaf(None, None)
#: DpEvent class of a noise event -> its kind (the record G_mu, mu = c/sigma; Laplace, eps = c/b)
NOISES = {"GaussianDpEvent": Kind("gaussian", SIGMA_MIN), "LaplaceDpEvent": Kind("laplace")}
RR = Kind("randomized-response", enclosed=True)


def class_name(event) -> str:
    if isinstance(event, dict):
        return str(event.get("class_name", ""))
    name = getattr(event, "class_name", None)
    return name if isinstance(name, str) else type(event).__name__


def field(event, name):
    value = event.get(name) if isinstance(event, dict) else getattr(event, name, None)
    if value is None:
        raise Refused(event, f"no field {name!r}")
    return value


def number(event, name: str) -> Fraction:
    """A field as an exact non-negative rational (float: its repr; str: a decimal)."""
    value = field(event, name)
    if isinstance(value, bool):
        raise Refused(event, f"{name} must be a number, got {value!r}")
    try:
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError
            out = Fraction(repr(float(value)))        # float(): numpy's float64 reprs as np.float64(...)
        elif isinstance(value, (int, Fraction)):
            out = Fraction(value)
        elif isinstance(value, str):
            out = Fraction(value.strip())
        else:
            out = Fraction(str(value))
    except (ValueError, ZeroDivisionError, TypeError):
        raise Refused(event, f"{name} must be a finite number, got {value!r}") from None
    if out < 0:
        raise Refused(event, f"{name} must be >= 0, got {value!r}")
    return out


def integer(event, name: str) -> int:
    value = number(event, name)
    if value.denominator != 1:
        raise Refused(event, f"{name} must be an integer, got {field(event, name)!r}")
    return int(value)


def _needs(event, relation: str, wanted: str, what: str):
    if relation != wanted:
        raise Refused(event, f"{what} is accounted under the {wanted} relation only (found {relation})")


def _noise_step(event, relation: str, kind: Kind) -> Leaf | None:
    """G_{c/sigma} or Laplace eps = c/b, c = 1 (add/remove) or 2 (replace-one); None when it is no privacy."""
    sigma = number(event, "noise_multiplier")
    if sigma == 0:
        return None
    return Leaf(kind, (1 if relation == ADD_REMOVE else 2) / sigma)


def _noise(event, relation, read):
    return Counter({_noise_step(event, relation, NOISES[class_name(event)]) or NO_PRIVACY: 1})


def _randomized_response(event, relation, read):
    _needs(event, relation, REPLACE_ONE, "randomized response")
    p, k = number(event, "noise_parameter"), integer(event, "num_buckets")
    if k <= 1:
        return Counter()
    if p > 1:
        raise Refused(event, f"noise_parameter must be in [0, 1], got {p}")
    if p == 0:
        return Counter({NO_PRIVACY: 1})
    if k != 2:
        raise Refused(event, f"randomized response over {k} > 2 buckets (no engine model for its pair)")
    return Counter({Leaf(RR, log_enclosure((2 - p) / p)): 1})


def log_enclosure(x: Fraction) -> tuple[Fraction, Fraction]:
    """(a, b) decimals of RR_DIGITS digits with a <= log x <= b (mpmath at 200 bits, directed rounding
    of a value whose error is far below one unit of the last digit kept)."""
    import mpmath
    with mpmath.workprec(200):
        v = mpmath.log(mpmath.mpf(x.numerator) / x.denominator)
        unit = Fraction(1, 10**RR_DIGITS)
        k = int(mpmath.floor(v * 10**RR_DIGITS))
    return max(Fraction(0), (k - 1) * unit), (k + 2) * unit


def _sampled(event, relation, read, sampling: str, rate: Fraction):
    inner = field(event, "event")
    if rate == 0:
        return Counter()
    if rate > 1:
        raise Refused(event, f"sampling rate must be in [0, 1], got {rate}")
    kind = NOISES.get(class_name(inner))
    if kind is None:
        raise Refused(event, f"sampling of {class_name(inner) or 'this event'}: only of a single Gaussian or "
                             "Laplace event")
    step = _noise_step(inner, relation, kind)
    if step is None:
        return Counter({NO_PRIVACY: 1})
    if rate == 1 and sampling == "poisson":
        return Counter({step: 1})             # every record is in the batch: the step itself
    if kind.sampled_min_inverse is not None and 1 / step.value < kind.sampled_min_inverse:
        raise Refused(event, f"a sampled {kind.row} step needs 1/parameter >= {float(kind.sampled_min_inverse)} "
                             "(engine reach)")
    if rate < MIN_RATE:
        raise Refused(event, f"sampling rate {rate} below the engine's reach {float(MIN_RATE)}")
    return Counter({Leaf(kind, step.value, sampling, rate): 1})


def _poisson(event, relation, read):
    _needs(event, relation, ADD_REMOVE, "Poisson sampling")
    return _sampled(event, relation, read, "poisson", number(event, "sampling_probability"))


def _without_replacement(event, relation, read):
    _needs(event, relation, REPLACE_ONE, "sampling without replacement")
    n, m = integer(event, "source_dataset_size"), integer(event, "sample_size")
    if n == 0 or m > n:
        raise Refused(event, f"sample_size must be in [0, source_dataset_size], got {m} of {n}")
    return _sampled(event, relation, read, "uniform", Fraction(m, n))


def _self_composed(event, relation, read):
    count = integer(event, "count")
    inner = read(field(event, "event"))
    return Counter({leaf: c * count for leaf, c in inner.items() if c * count})


def _composed(event, relation, read):
    out = Counter()
    events = field(event, "events")
    if isinstance(events, (str, bytes, dict)) or not hasattr(events, "__iter__"):
        raise Refused(event, "events must be a list of events")
    for sub in events:
        out.update(read(sub))
    return out


def _no_op(event, relation, read):
    return Counter()


#: class name -> reader(event, relation, read) -> Counter of leaves
_READERS = {
    "GaussianDpEvent": _noise,
    "LaplaceDpEvent": _noise,
    "RandomizedResponseDpEvent": _randomized_response,
    "PoissonSampledDpEvent": _poisson,
    "SampledWithoutReplacementDpEvent": _without_replacement,
    "SelfComposedDpEvent": _self_composed,
    "ComposedDpEvent": _composed,
    "NoOpDpEvent": _no_op,
}
SUPPORTED = tuple(_READERS)


def read_event(event, relation: str = ADD_REMOVE) -> Counter:
    """The ledger of one event tree (a Counter of :class:`Leaf` -> count), or :class:`Refused`."""
    if relation not in RELATIONS:
        raise Refused(event, f"neighbouring relation {relation}: only {' and '.join(RELATIONS)}")

    def read(sub):
        reader = _READERS.get(class_name(sub))
        if reader is None:
            raise Refused(sub, f"{class_name(sub) or type(sub).__name__} is not supported")
        return reader(sub, relation, read)
    ledger = read(event)
    for leaf in ledger:
        _check_reach(event, leaf)
    return ledger


def _check_reach(event, leaf: Leaf):
    if leaf.kind is None or leaf.kind.enclosed:
        return
    if leaf.sampling is None or leaf.kind.sampled_min_inverse is None:
        if not SMALLEST <= leaf.value <= LARGEST:
            raise Refused(event, f"a {leaf.kind.row} step with loss parameter {float(leaf.value):.3g} outside the "
                                 f"engine's reach [{float(SMALLEST)}, {float(LARGEST)}]")


def _rational(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def engine_step(leaf: Leaf, end: int):
    """The engine mechanism of a leaf; ``end`` 0 (lower model) or 1 (upper model) picks the side of an
    enclosed irrational parameter (randomized response's eps)."""
    import sympy as sp

    from derive.mechanisms.table import BY_NAME

    from . import pld_mechanisms as M
    if leaf.kind.enclosed:
        return M.randomized_response(_rational(leaf.value[end]))
    record = BY_NAME[leaf.kind.row].factory()(sp.Rational(leaf.value.numerator, leaf.value.denominator))
    if leaf.sampling is None:
        return M.from_record(record)
    from .pld_subsampled import subsampled_step
    return subsampled_step(record, _rational(leaf.rate), leaf.sampling)


def components(ledger: Counter, end: int = 1):
    """[(engine mechanism, count)] for ``numeric.pld.compose`` (no-privacy leaves excluded: ask
    :func:`no_privacy` first), in a fixed order."""
    leaves = sorted((leaf for leaf in ledger if leaf != NO_PRIVACY and ledger[leaf] > 0), key=repr)
    return [(engine_step(leaf, end), ledger[leaf]) for leaf in leaves]


def two_models(ledger: Counter) -> bool:
    """True when the lower and upper models differ (an enclosed irrational parameter is present)."""
    return any(leaf.kind is not None and leaf.kind.enclosed for leaf in ledger)


def no_privacy(ledger: Counter) -> bool:
    return ledger.get(NO_PRIVACY, 0) > 0


def _short(event) -> str:
    text = repr(event)
    return text if len(text) <= 120 else text[:117] + "..."
