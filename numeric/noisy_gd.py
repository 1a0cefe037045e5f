"""Privacy of the last iterate of noisy gradient descent: the shifted-interpolation GDP bounds of
Bok, Su and Altschuler (BSA24, "Shifted Interpolation for Differential Privacy", ICML 2024,
arXiv:2403.00278 v2), the composition bound (every iterate released) and the Renyi bound beside them.

Algorithm and conventions (one source for the module, the CLI and ``reproduce --paper 004``):

* ``x_{t+1} = x_t - eta (g_t + sigma Z_t)``, ``Z_t`` standard Gaussian, ``g_t`` the average over a batch
  of ``b`` records of per-record gradients of losses that are L-Lipschitz, M-smooth and m-strongly
  convex (m = 0: convex).  Replace-one neighbours: one step's gradient moves by at most ``2 L / b``,
  against noise of standard deviation ``sigma``, so one step alone is ``G_{mu_s}`` with
  ``mu_s = 2 L / (b sigma)`` (the Gaussian mechanism).  This is the noise placement of the authors'
  training script for the MNIST experiment (jinhobok/shifted_interpolation_dp, ``table_acc_lr.py``:
  the update subtracts ``lr * (grad + sigma * noise)``), whose ``mu = 2/3`` in ``table_privacy_lr.py``
  is ``2 * 5 / (1500 * 0.01)``.
* ``c = max(|1 - eta m|, |1 - eta M|)``: the Lipschitz constant of one gradient step (BSA24 Sec. 4,
  the contraction of a smooth strongly convex step); ``eta M <= 2`` keeps ``c <= 1``.
* Full batch (``b = n``): ``T`` steps.  Cyclic batches: ``l = n / b`` disjoint batches visited in order,
  ``E`` epochs, ``T = l E`` steps; each record is used once per epoch.

Bounds (mu of a GDP guarantee ``G_mu``):

* last iterate, full batch (BSA24 v2 Sec. 4, NoisyGD, strongly convex):
  ``mu^2 = mu_s^2 (1 + c)/(1 - c) * (1 - c^T)/(1 + c^T)``;
* last iterate, cyclic batches (BSA24 v2 Sec. 4, NoisyCGD, strongly convex):
  ``mu^2 = mu_s^2 (1 + c^{2l-2} (1 - c^2)/(1 - c^l)^2 * (1 - c^{l(E-1)})/(1 + c^{l(E-1)}))``.

  Source of both closed forms: the paper text could not be read here (the page store holds only the
  abstract and table of contents of arXiv:2403.00278 v2); they are transcribed from the authors' public
  numerics (jinhobok/shifted_interpolation_dp: ``plot_table_ngd_fdp.py`` for NoisyGD, ``plot_table_ncgd_fdp.py``
  and ``table_privacy_lr.py`` for NoisyCGD, the script behind BSA24 Table 1 = seed 004 Table 1), not from
  the theorem statements, so no theorem number is cited.  Checks that do not depend on the transcription:
  T = 1 and E = 1 give mu_s (one step is the Gaussian mechanism), the full-batch bound never exceeds
  composition and converges as T -> inf, and each closed form equals its series form (the full-batch one
  is mu_s^2 (sum_{t<T} c^t)^2 / sum_{t<T} c^{2t}), summed term by term in tests/test_noisy_gd.py;
* composition (all iterates released): ``mu = mu_s sqrt(T)`` full batch, ``mu_s sqrt(E)`` cyclic (the
  differing record enters one step per epoch; the other steps are post-processing of the same record-free
  computation), Dong-Roth-Su's ``G_a x G_b = G_sqrt(a^2+b^2)``;
* Renyi (the RDP bound BSA24 Table 1 compares against, its column "RDP"):
  ``eps_alpha = alpha rho``, ``rho = mu_s^2/2 (1 + c^{l-2} (1 - c^2)/(1 - c^l)^2 (1 - c^{l(E-1)}))``; full batch
  is the case ``l = 1`` (one batch holding every record, ``E = T``).

The Renyi route reports the smaller of that formula and the RDP composition of the steps that touch the
differing record, ``rho = uses mu_s^2/2`` (``uses`` = T full batch, E cyclic; RDP composes additively and the
last iterate is post-processing of all of them), both valid bounds (``rho_renyi_route``).  The formula is
above composition whenever l = 1 and E >= 2 (its c -> 1 limit is ``1 + 2(E-1)`` against ``E``; at c -> 0 the
factor ``c^{l-2} = 1/c`` diverges), so for full batch the route is the composition's; at BSA24 Table 1's
parameters it is the formula's.

The exponent ``l - 2`` in the Renyi formula is as in the authors' script ``table_privacy_lr.py``, which
produced BSA24 Table 1 (and hence seed 004 Table 1); it is the one that reproduces the printed
5.82 / 7.61 / 9.88, whereas ``2l - 2`` gives 5.81 / 7.60 / 9.86 (``reproduce_noisygd``).  The paper's own
statement of this bound could not be read here (only the abstract of arXiv:2403.00278 is in the page
store), so the exponent is the script's, not a checked transcription of a theorem.

The convex case (m = 0, ``c = 1``) is the ``c -> 1`` limit of the same closed forms: full batch
``mu_s sqrt(T)`` (no gain over composition), cyclic ``mu_s sqrt(1 + (E - 1)/l)``, Renyi
``rho = mu_s^2/2 (1 + 2 (E - 1)/l)``.  The paper's projected (bounded-domain) convex bounds and the
stochastic-batch (NoisySGD) bounds are not implemented as bounds; ``numeric.noisy_sgd`` computes the authors'
CLT approximation of them (labelled, not certified).

Conversions to (eps, delta): GDP through the toolkit's Gaussian record (``numeric.clt.gdp_eps``, the
function behind ``dp-derive profile gaussian --mu X --at-delta D``); Renyi through the smaller of the
Canonne-Kamath-Steinke conversion (algebraically the same objective in the order as the BBG20 conversion
the authors' script minimises) and Bun-Steinke (which equals Mironov's conversion at its optimal order
for a linear RDP curve): ``numeric.composition.zcdp_to_dp``.  The authors' script also tries the
Asoodeh et al. conversion; at the Table 1 parameters it is larger than CKS (6.06 / 7.89 / 10.2, a scratch
check) and is not used here.

Arithmetic: every input is an exact Rational; ``1 - c^k`` is ``-expm1(k log1p(-(1 - c)))`` and ``1 - c^2`` is
``(1 - c)(1 + c)`` with ``1 - c`` exact, so no difference of nearly equal numbers is formed.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from derive.domains import MAX_MECHANISM_PARAM, parse_in
from derive.errors import DomainError

SETTINGS = ("strongly-convex", "convex")
BATCHES = ("full", "cyclic")


@dataclass(frozen=True)
class Step:
    """One step's constants: ``c`` (contraction) and ``mu_s`` (GDP of one step), exact."""
    c: sp.Rational
    mu_s: sp.Rational


def contraction(eta, m, M) -> sp.Rational:
    """c = max(|1 - eta m|, |1 - eta M|), exact; DomainError unless 0 <= m <= M and eta M <= 2 (c <= 1)."""
    eta, m, M = sp.Rational(eta), sp.Rational(m), sp.Rational(M)
    if m > M:
        raise DomainError("m", str(m), f"at most M = {M} (strong convexity cannot exceed smoothness)")
    if eta * M > 2:
        raise DomainError("eta", str(eta), f"at most 2/M = {2 / M} (a larger step is not a contraction, c > 1)")
    return max(abs(1 - eta * m), abs(1 - eta * M))


def step_mu(L, b, sigma) -> sp.Rational:
    """mu_s = 2 L / (b sigma): one step's Gaussian mechanism (sensitivity 2L/b, replace-one)."""
    return 2 * sp.Rational(L) / (sp.Integer(b) * sp.Rational(sigma))


def _mp(x):
    return mpmath.mpf(x.p) / x.q if isinstance(x, sp.Rational) else mpmath.mpf(x)


def _pow(c, k):
    """c^k (k >= 0 an integer; 0^0 = 1)."""
    return mpmath.mpf(1) if k == 0 else _mp(c) ** k


def _one_minus_pow(c, k):
    """1 - c^k for 0 <= c <= 1 without cancellation: -expm1(k log1p(-(1 - c)))."""
    if k == 0:
        return mpmath.mpf(0)
    if c == 0:
        return mpmath.mpf(1)
    return -mpmath.expm1(k * mpmath.log1p(-_mp(1 - c)))


def _geometric_ratio(c, k):
    """(1 - c^k)/(1 + c^k)."""
    return _one_minus_pow(c, k) / (1 + _pow(c, k))


def mu_last_full(mu_s, c, T: int):
    """BSA24 v2 Sec. 4 (NoisyGD, full batch): mu_s sqrt((1 + c)/(1 - c) * (1 - c^T)/(1 + c^T)); c = 1: mu_s sqrt(T)."""
    mu_s, c = sp.Rational(mu_s), sp.Rational(c)
    if c == 1:
        return _mp(mu_s) * mpmath.sqrt(T)
    return _mp(mu_s) * mpmath.sqrt((1 + _mp(c)) / _mp(1 - c) * _geometric_ratio(c, T))


def _cyclic_gain(c, l: int):
    """c^{2l-2} (1 - c^2)/(1 - c^l)^2, the factor of the earlier epochs in the cyclic bound."""
    return _pow(c, 2 * l - 2) * _mp(1 - c) * (1 + _mp(c)) / _one_minus_pow(c, l) ** 2


def mu_last_cyclic(mu_s, c, l: int, E: int):
    """BSA24 v2 Sec. 4 (NoisyCGD, cyclic batches):
    mu_s sqrt(1 + c^{2l-2} (1 - c^2)/(1 - c^l)^2 (1 - c^{l(E-1)})/(1 + c^{l(E-1)})); c = 1: mu_s sqrt(1 + (E-1)/l)."""
    mu_s, c = sp.Rational(mu_s), sp.Rational(c)
    if c == 1:
        return _mp(mu_s) * mpmath.sqrt(1 + mpmath.mpf(E - 1) / l)
    return _mp(mu_s) * mpmath.sqrt(1 + _cyclic_gain(c, l) * _geometric_ratio(c, l * (E - 1)))


def mu_composition(mu_s, uses: int):
    """mu_s sqrt(uses): the GDP composition of the steps that touch the differing record (all iterates out)."""
    return _mp(sp.Rational(mu_s)) * mpmath.sqrt(uses)


def rho_renyi(mu_s, c, l: int, E: int):
    """rho of the Renyi bound eps_alpha = alpha rho used for BSA24 Table 1 (authors' script):
    mu_s^2/2 (1 + c^{l-2} (1 - c^2)/(1 - c^l)^2 (1 - c^{l(E-1)})); c = 1: mu_s^2/2 (1 + 2(E-1)/l).
    Full batch: l = 1, E = T."""
    mu_s, c = sp.Rational(mu_s), sp.Rational(c)
    half = _mp(mu_s) ** 2 / 2
    if c == 1:
        return half * (1 + 2 * mpmath.mpf(E - 1) / l)
    if c == 0:          # c^{l-2} with l = 1 is c^{-1}: the bound is vacuous (infinite) at c = 0, l = 1
        return half if (E == 1 or l >= 2) else mpmath.mpf("inf")
    gain = _mp(c) ** (l - 2) * _mp(1 - c) * (1 + _mp(c)) / _one_minus_pow(c, l) ** 2
    return half * (1 + gain * _one_minus_pow(c, l * (E - 1)))


def rho_renyi_route(mu_s, c, l: int, E: int, uses: int):
    """(rho, route): the smaller of the shifted Renyi formula (``rho_renyi``, route "shifted") and the RDP
    composition ``uses mu_s^2/2`` (route "composition"), each a valid bound on the last iterate's RDP."""
    shifted = rho_renyi(mu_s, c, l, E)
    composed = _mp(sp.Rational(mu_s)) ** 2 / 2 * uses
    return (shifted, "shifted") if shifted <= composed else (composed, "composition")


def eps_of_mu(mu, delta, digits: int):
    """eps(delta) of G_mu: the toolkit's Gaussian record (numeric.clt.gdp_eps = numeric.mp.profile_eps)."""
    from .clt import gdp_eps
    if mu == 0:
        return mpmath.mpf(0)
    return gdp_eps(mu, delta, digits)


def eps_of_rho(rho, delta, digits: int):
    """eps(delta) of the RDP curve alpha -> alpha rho: min(CKS, Bun-Steinke) (numeric.composition.zcdp_to_dp)."""
    from .composition import zcdp_to_dp
    if mpmath.isinf(rho):
        return mpmath.mpf("inf")
    text = mpmath.nstr(rho, mpmath.mp.dps, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
    from .bridge import to_mpf
    r = zcdp_to_dp(text, 1, delta, "cks", digits)
    return min(to_mpf(r.eps), to_mpf(r.bun_steinke))


@dataclass(frozen=True)
class NoisyGdResult:
    """mu and eps(delta) of the three routes; ``steps`` T, ``epochs`` E, ``batches`` l = n/b."""
    setting: str
    batch: str
    c: sp.Rational
    mu_step: sp.Rational
    steps: int
    epochs: int
    batches: int
    mu_last: object
    mu_composition: object
    rho_renyi: object
    rho_renyi_route: str = "shifted"
    eps_last: object = None
    eps_composition: object = None
    eps_renyi: object = None
    delta: object = None


def _schedule(batch: str, n: int, b: int, epochs, steps):
    """(l, E, T) for the batch scheme; DomainError for a batch size or count that does not fit."""
    if batch == "full":
        if b != n:
            raise DomainError("b", str(b), f"equal to n = {n} for --batch full (one batch of every record)")
        T = int(steps if steps is not None else epochs)
        return 1, T, T
    if n % b:
        raise DomainError("b", str(b), f"a divisor of n = {n} for --batch cyclic (l = n/b disjoint batches)")
    l = n // b
    if steps is not None:
        if int(steps) % l:
            raise DomainError("steps", str(steps), f"a multiple of l = n/b = {l} (whole epochs) for --batch cyclic")
        return l, int(steps) // l, int(steps)
    return l, int(epochs), l * int(epochs)


def account(setting: str, batch: str, *, L, M, m, eta, sigma, n, b, epochs=None, steps=None,
            at_delta=None, digits: int = 15) -> NoisyGdResult:
    """The three routes for one configuration (decimal strings or numbers, taken exactly)."""
    if setting not in SETTINGS:
        raise DomainError("setting", setting, "one of " + ", ".join(SETTINGS))
    if batch not in BATCHES:
        raise DomainError("batch", batch, "one of " + ", ".join(BATCHES) + " (stochastic: numeric.noisy_sgd)")
    L_, M_, eta_, sigma_ = (parse_in(k, v, name) for k, v, name in
                            (("lipschitz", L, "L"), ("smoothness", M, "M"), ("step_size", eta, "eta"),
                             ("sigma", sigma, "sigma")))
    m_ = parse_in("strong_convexity", m, "m")
    if setting == "strongly-convex" and m_ == 0:
        raise DomainError("m", str(m), "> 0 for --setting strongly-convex (use --setting convex for m = 0)")
    if setting == "convex" and m_ != 0:
        raise DomainError("m", str(m), "0 for --setting convex (use --setting strongly-convex for m > 0)")
    n_, b_ = int(parse_in("n", n)), int(parse_in("batch", b, "b"))
    if b_ > n_:
        raise DomainError("b", str(b), f"an integer in [1, n = {n_}]")
    if (epochs is None) == (steps is None):
        raise DomainError("epochs", str(epochs), "given, or --steps, but not both")
    e_ = None if epochs is None else parse_in("epochs_whole", epochs, "epochs")
    s_ = None if steps is None else parse_in("count", steps, "steps")
    l, E, T = _schedule(batch, n_, b_, e_, s_)
    c = contraction(eta_, m_, M_)
    mu_s = step_mu(L_, b_, sigma_)
    with mpmath.workdps(digits + 25):
        last = mu_last_full(mu_s, c, T) if batch == "full" else mu_last_cyclic(mu_s, c, l, E)
        uses = T if batch == "full" else E
        comp = mu_composition(mu_s, uses)
        rho, route = rho_renyi_route(mu_s, c, l, E, uses)
        out = dict(setting=setting, batch=batch, c=c, mu_step=mu_s, steps=T, epochs=E, batches=l,
                   mu_last=last, mu_composition=comp, rho_renyi=rho, rho_renyi_route=route)
        if at_delta is not None:
            d = parse_in("delta_positive", at_delta, "at_delta")
            if max(last, comp) > MAX_MECHANISM_PARAM:
                raise DomainError("sigma", str(sigma), f"large enough that every GDP parameter is at most 1e308 (the "
                                  f"Gaussian record's range); here mu = {mpmath.nstr(max(last, comp), 5)}")
            ds = str(at_delta)
            out.update(delta=d, eps_last=eps_of_mu(last, ds, digits), eps_composition=eps_of_mu(comp, ds, digits),
                       eps_renyi=eps_of_rho(rho, ds, digits))
        return NoisyGdResult(**out)


__all__ = ["SETTINGS", "BATCHES", "contraction", "step_mu", "mu_last_full", "mu_last_cyclic", "mu_composition",
           "rho_renyi", "rho_renyi_route", "eps_of_mu", "eps_of_rho", "account", "NoisyGdResult"]
