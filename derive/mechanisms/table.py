"""The mechanism table: one row per mechanism the CLI, the grids and the tests know.

Each row says how a user names the mechanism, which constructor builds its
trade-off record, which parameters it takes (each with its key in
``derive.domains.DOMAINS``), which options it takes (with their choices and
defaults) and what it can do beyond the common commands (``capabilities``).
Everything that used to be a parallel list (the CLI's parameter map, the
mechanisms of ``pr``/``fscore``, of ``select``) is read from here.

The module is pure data and imports no SymPy: ``dp-derive --help`` lists the
mechanisms without loading the algebra.  ``Mechanism.build`` imports the
constructor when a record is actually needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

#: the modules ``Mechanism.factory`` may load (tests/test_layering.py reads this; a test checks the table)
LAZY_IMPORTS = ("derive.mechanisms.gaussian", "derive.mechanisms.laplace", "derive.mechanisms.approx_dp",
                "derive.mechanisms.uniform_sampling", "derive.mechanisms.noise",
                "derive.mechanisms.discrete_gaussian", "derive.mechanisms.geometric",
                "derive.mechanisms.exponential")

#: capabilities beyond tradeoff/profile/latex/auc/risk/posterior (which every mechanism has)
ATTACK = "attack"      # pr, fscore: the NP attack of seed 001 Sec. 4 has a closed form
SELECT = "select"      # select: one parameter, solvable for a privacy target (seed 000 Sec. 5)
ENGINE = "engine"      # compose fdp / clt: the record has a privacy-loss model (numeric.pld_mechanisms.from_record)
SUBSAMPLE_ENGINE = "subsample-engine"   # spec "p", subsample --k: the engine has the subsampled pair
SUBSAMPLE = "subsample"  # subsample: the record is symmetric with a closed-form profile (C_p(f) needs both)


@dataclass(frozen=True)
class Option:
    """A non-numeric option (``--family``, ``--neighbours``): its choices and default."""
    name: str
    choices: tuple[str, ...]
    default: str | None        # None: required
    meaning: str


@dataclass(frozen=True)
class Mechanism:
    name: str                               # as typed on the command line
    constructor: str                        # "module:function" inside derive.mechanisms
    params: tuple[tuple[str, str], ...]     # (flag name, domain key), in the constructor's order
    summary: str
    options: tuple[Option, ...] = ()
    capabilities: frozenset = field(default_factory=frozenset)
    #: parameters whose value may be ``inf``: the zero-noise limit, f = 0 (derive/mechanisms/limits.py)
    infinite_ok: tuple[str, ...] = ()
    #: parameters that spread the finite privacy loss (all 0: the finite loss is one atom at 0), and those
    #: that put loss at +inf (delta); none: the mechanism is never the identity (discrete Gaussian)
    spread_params: tuple[str, ...] = ()
    inf_mass_params: tuple[str, ...] = ()

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.params)

    def finite_loss_is_zero(self, values: dict) -> bool:
        """Whether the finite part of the privacy loss is the single atom L = 0 (every spreading
        parameter exactly 0); False for a mechanism without such parameters."""
        from fractions import Fraction
        return bool(self.spread_params) and all(Fraction(values[p]) == 0 for p in self.spread_params)

    def is_identity(self, values: dict) -> bool:
        """Whether one step is Id (perfect privacy): the finite loss is 0 and no mass sits at +inf
        (approx-dp needs eps = 0 AND delta = 0: f_{0,delta} is not Id for delta > 0)."""
        from fractions import Fraction
        return self.finite_loss_is_zero(values) and all(Fraction(values[p]) == 0 for p in self.inf_mass_params)

    def factory(self):
        module, _, function = self.constructor.partition(":")
        return getattr(import_module(f"derive.mechanisms.{module}"), function)

    def build(self, params: dict | None = None, options: dict | None = None):
        """The trade-off record; ``params=None`` leaves the parameters symbolic.

        A parameter given as ``"inf"`` is the zero-noise limit where the row allows it
        (``infinite_ok``), and refused otherwise; the other parameters are still checked.
        """
        options = {o.name: (options or {}).get(o.name) or o.default for o in self.options}
        if params is None:
            return self.factory()(**{k: v for k, v in options.items() if v is not None})
        infinite = [n for n in self.param_names if is_infinite(params[n])]
        if not infinite:
            return self.factory()(**options, **{name: params[name] for name in self.param_names})
        return self._limit(infinite, params, options)

    def _limit(self, infinite, params, options):
        from ..domains import DOMAINS, parse_in
        from ..errors import DomainError
        from .limits import no_privacy
        for name in infinite:
            if name not in self.infinite_ok:
                key = dict(self.params)[name]
                raise DomainError(name, "inf", f"{DOMAINS[key].describe()} for {self.name} (no zero-noise "
                                  "limit is implemented for it)")
        for name, key in self.params:              # the finite parameters are still checked
            if name not in infinite:
                parse_in(key, params[name], name)
        return no_privacy(self.name, ", ".join(f"{n}={'inf' if n in infinite else params[n].strip()}"
                                               for n in self.param_names))


_FAMILY = Option("family", ("logistic", "laplace", "gaussian"), None,
                 "noise family of the location mechanism")
_NEIGHBOURS = Option("neighbours", ("replacement", "add-remove"), "replacement",
                     "neighbouring relation of the sampled datasets")

TABLE: tuple[Mechanism, ...] = (
    Mechanism("gaussian", "gaussian:gaussian", (("mu", "mu"),),
              "mu-GDP: N(0, 1) against N(mu, 1)",
              capabilities=frozenset({SUBSAMPLE, SELECT, ENGINE, SUBSAMPLE_ENGINE}), infinite_ok=("mu",),
              spread_params=("mu",)),
    Mechanism("laplace", "laplace:laplace", (("eps", "eps"),),
              "Laplace mechanism with eps = sensitivity / scale",
              capabilities=frozenset({SUBSAMPLE, ATTACK, SELECT, ENGINE, SUBSAMPLE_ENGINE}), infinite_ok=("eps",),
              spread_params=("eps",)),
    Mechanism("approx-dp", "approx_dp:approx_dp", (("eps", "eps"), ("delta", "delta")),
              "the (eps, delta)-DP trade-off function f_{eps,delta}",
              capabilities=frozenset({SUBSAMPLE, ENGINE, SUBSAMPLE_ENGINE}),
              infinite_ok=("eps",),
              spread_params=("eps",), inf_mass_params=("delta",)),
    Mechanism("randomized-response", "approx_dp:randomized_response", (("eps", "eps"),),
              "randomized response, pure eps-DP (f_{eps,0})",
              capabilities=frozenset({SUBSAMPLE, SELECT, ENGINE, SUBSAMPLE_ENGINE}),
              infinite_ok=("eps",), spread_params=("eps",)),
    Mechanism("classical-gaussian", "gaussian:classical_gaussian",
              (("eps", "eps_classical"), ("delta", "delta_positive")),
              "Gaussian mechanism calibrated by sigma = sqrt(2 ln(1.25/delta)) / eps",
              capabilities=frozenset({SUBSAMPLE, ATTACK}), infinite_ok=("eps",), spread_params=("eps",)),
    Mechanism("uniform-sampling", "uniform_sampling:uniform_sampling", (("mu", "mu"), ("n", "n_sample")),
              "release of a uniformly sampled record (seed 000 Example 3)", options=(_NEIGHBOURS,),
              spread_params=("mu",)),
    Mechanism("discrete-gaussian", "discrete_gaussian:discrete_gaussian", (("sigma2", "sigma2"),),
              "discrete Gaussian N_Z(0, sigma^2) against N_Z(1, sigma^2), sensitivity 1 (census 2020)",
              capabilities=frozenset({SUBSAMPLE, ENGINE, SUBSAMPLE_ENGINE})),
    Mechanism("noise", "noise:noise", (("mu", "mu"),),
              "additive noise of a symmetric log-concave family, shift mu", options=(_FAMILY,),
              capabilities=frozenset({SELECT}), infinite_ok=("mu",), spread_params=("mu",)),
    Mechanism("geometric", "geometric:geometric", (("eps", "eps"),),
              "geometric mechanism (discrete Laplace, P(k) proportional to e^{-eps |k|}) on an integer query "
              "of sensitivity 1", capabilities=frozenset({SUBSAMPLE, ENGINE, SUBSAMPLE_ENGINE}), infinite_ok=("eps",),
              spread_params=("eps",)),
    Mechanism("exponential", "exponential:exponential", (("eps", "eps"), ("outcomes", "outcomes")),
              "exponential mechanism over M outcomes, utility sensitivity 1, scores scaled by eps/2",
              capabilities=frozenset({SUBSAMPLE, ENGINE, SUBSAMPLE_ENGINE}), infinite_ok=("eps",), spread_params=("eps",)),
)

def is_infinite(value) -> bool:
    return isinstance(value, str) and value.strip().lower() in ("inf", "+inf", "infinity", "+infinity")


BY_NAME: dict[str, Mechanism] = {m.name: m for m in TABLE}
NAMES: tuple[str, ...] = tuple(BY_NAME)


def with_capability(capability: str) -> tuple[str, ...]:
    return tuple(m.name for m in TABLE if capability in m.capabilities)


def lookup(name: str) -> Mechanism:
    from ..errors import DomainError
    try:
        return BY_NAME[name]
    except KeyError:
        raise DomainError("mechanism", name, "one of " + ", ".join(NAMES)) from None
