"""Claims of seed 002 (Kazan et al. 2025): Corollaries 3.6 to 3.12, the Bayesian semantics of DP.

Catalog ids KZ-C3.6, KZ-C3.7, KZ-C3.8 (pure DP: the posterior, ratio and difference bounds hold with
probability 1) and KZ-C3.10, KZ-C3.11, KZ-C3.12 (approximate DP: they hold at eps' with probability
1 - delta') from ``../shared/catalog/002.md``; source Kazan, Sharma, Zhang, Jiang, Yan (2025),
arXiv:2507.09699v1.  The rest of seed 002's claims (Sections 2 to 4, Theorems 3.1 to 3.9) are in
``claims_semantics``, which is discovered right before this module, so the claims keep the order of
the paper's Section 3.
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

import derive
from derive import semantics as S
from derive import symbols as sy
from derive.posterior import prior, prior_c
from numeric import mp
from numeric import risk as NR
from numeric import semantics as NS

from .claims_semantics import SOURCE, _prior_pair
from .outcomes import agreement, inequality
from .registry import claim
from .status import CONFIRMED, FAILED, PROVEN, Outcome

# ------------------------------------------------- Corollaries 3.6 to 3.12
# Each corollary is checked on its own statement, through numeric.semantics.semantics (the evaluator a
# user calls) against forms computed here with plain mpmath, and on mechanisms: the pure-DP ones
# (3.6-3.8, delta = 0) on the eps-DP Laplace record through seed 000's posterior (numeric.risk), the
# approximate-DP ones (3.10-3.12) on the Gaussian mechanism, whose privacy loss law is N(mu^2/2, mu^2).

def _indep_eps_prime(e, d, dp):
    """eps' of Thm 3.9, boxed form log((e^eps delta' + delta)/(delta' - delta)), plain mpmath (60 digits)."""
    with mpmath.workdps(60):
        e, d, dp = mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf(dp)
        return mpmath.log((mpmath.exp(e) * dp + d) / (dp - d))


def _indep_bounds(e, d, dp, p):
    """The bounds of Cor. 3.6-3.12 at eps' (plain mpmath, 60 digits), keyed as numeric.semantics keys them."""
    ep = _indep_eps_prime(e, d, dp)
    with mpmath.workdps(60):
        p = mpmath.mpf(p)
        up = p * mpmath.exp(ep) / (p * mpmath.exp(ep) + 1 - p)
        lo = p * mpmath.exp(-ep) / (p * mpmath.exp(-ep) + 1 - p)
        return {"eps_prime": ep, "posterior_upper": up, "posterior_lower": lo,
                "one_minus_posterior_upper": (1 - p) / (p * mpmath.exp(ep) + 1 - p),
                "one_minus_posterior_lower": (1 - p) / (p * mpmath.exp(-ep) + 1 - p),
                "ratio_upper": mpmath.exp(ep), "ratio_lower": mpmath.exp(-ep),
                "ratio_upper_at_prior": up / p, "ratio_lower_at_prior": lo / p,
                "difference_bound": mpmath.tanh(ep / 4), "difference_upper_at_prior": up - p,
                "difference_lower_at_prior": lo - p, "worst_case_prior": 1 / (1 + mpmath.exp(ep / 2))}


def _semantics_rows(keys, points):
    """Agreement rows: numeric.semantics.semantics against _indep_bounds at (eps, delta, delta', prior)."""
    rows = []
    for e, d, dp, p in points:
        got = NS.semantics(e, d, dp, p, 30)
        ref = _indep_bounds(e, d, dp, p)
        for key in keys:
            rows.append(({"eps": e, "delta": d, "delta'": dp, "prior": p, "key": key}, getattr(got, key), ref[key]))
    return rows


def _first_bad(*outcomes) -> Outcome:
    """The conjunction of checks of one corollary: the first that is not PROVEN/CONFIRMED, else CONFIRMED
    with the points summed and the margin and place of the last (the inequality)."""
    for out in outcomes:
        if out.status not in (PROVEN, CONFIRMED):
            return out
    last = outcomes[-1]
    return Outcome(CONFIRMED, margin=last.margin, worst_at=last.worst_at,
                   points=sum(o.points for o in outcomes), method=last.method,
                   detail="; ".join(o.detail for o in outcomes))


_PURE = (("0.5", "0.5"), ("2", "1e-12"))     # (eps, prior) for Cor. 3.6-3.8
_PURE_POINTS = [(e, "0", "0.05", p) for e, p in _PURE] + [("1", "0", "1", "0.999999")]


def _laplace_sweep(e, p, value, label):
    """inequality case on the eps-DP Laplace record: value(p_post(alpha) from numeric.risk.posterior)."""
    rec = derive.laplace(e)
    return (label, lambda a: value(NR.posterior(rec, p, a, 25)))


def _gaussian_witness(e, p, broken):
    """The converse: the Gaussian mechanism (mu = 1) is eps-DP for no eps, and its posterior after a
    positive test at alpha = 1e-300 breaks the bound (numeric.risk.posterior)."""
    got = NR.posterior(derive.gaussian(1), p, "1e-300", 25)
    if not broken(got):
        return Outcome(FAILED, counterexample={"mechanism": "gaussian(mu=1)", "eps": e, "prior": p,
                                               "posterior(1e-300)": str(got.posterior)},
                       detail="the converse direction: a mechanism that is not eps-DP should break the bound")
    return Outcome(CONFIRMED, points=1, detail=f"converse: gaussian(mu=1) breaks the bound at eps={e}, prior={p}")


@claim("KZ-C3.6", ("002",), SOURCE + ", Corollary 3.6, Eq. 10", "iff",
       "eps-DP iff L(p,eps) <= P_i <= U(p,eps) with probability 1: numeric.semantics at delta = 0 gives "
       "eps' = eps and [L, U] (against plain mpmath); the eps-DP Laplace mechanism's posterior after a positive "
       "test (numeric.risk.posterior) stays below U(p, eps) for alpha down to 1e-300 and reaches it; the "
       "Gaussian mechanism (not eps-DP) exceeds it",
       latex=r"M\ \varepsilon\text{-DP}\iff\Pr\big[\mathcal{L}(p,\varepsilon)\le P_i\le U(p,\varepsilon)\big]=1")
def _c36():
    rows = agreement(_semantics_rows(("eps_prime", "posterior_upper", "posterior_lower"), _PURE_POINTS),
                     mpmath.mpf(10) ** -25, "semantics(eps, 0, delta', p): eps' = eps, U and L")
    cases = []
    for e, p in _PURE:
        up = _indep_bounds(e, 0, "0.05", p)["posterior_upper"]
        cases.append(_laplace_sweep(e, p, lambda got, up=up: (up - got.posterior) / up,
                                    f"laplace(eps={e}), prior {p}: (U - p_post)/U"))
    sweep = inequality(cases, mpmath.mpf(10) ** -22, "p_post(alpha) <= U(p, eps) for the Laplace record, "
                       "alpha in [1e-300, 0.999] (grid + golden-section search); 0 = attained (linear regime)",
                       grid_points=("1e-1000", "1e-300", "0.5", "1"))
    up5 = _indep_bounds("5", 0, "0.05", "0.5")["posterior_upper"]
    witness = _gaussian_witness("5", "0.5", lambda got: got.posterior > up5)
    return _first_bad(rows, witness, sweep)


@claim("KZ-C3.7", ("002",), SOURCE + ", Corollary 3.7, Eq. 11", "iff",
       "eps-DP iff e^-eps <= P_i/p_i <= e^eps with probability 1: numeric.semantics' prior-free ratio bounds at "
       "delta = 0 are e^-+eps; for the eps-DP Laplace record they equal seed 000's rho (numeric.risk.risk) and "
       "its posterior ratio p_post(alpha)/p stays below e^eps down to alpha = 1e-300; the Gaussian's is unbounded",
       latex=r"M\ \varepsilon\text{-DP}\iff\Pr\big[e^{-\varepsilon}\le P_i/p_i\le e^{\varepsilon}\big]=1,"
             r"\qquad \sup_{p,\alpha}p_{\rm post}/p=\rho=e^{\varepsilon}\ \text{(Laplace)}")
def _c37():
    rows = _semantics_rows(("ratio_upper", "ratio_lower", "ratio_upper_at_prior"), _PURE_POINTS)
    for e, _ in _PURE:       # sup_p P/p = e^eps is seed 000's rho of the eps-DP Laplace mechanism
        rows.append(({"eps": e, "key": "rho(laplace) = ratio_upper"}, NR.risk(derive.laplace(e), "0.01", "0.5", 30).rho,
                     NS.semantics(e, "0", "0.05", "0.5", 30).ratio_upper))
    agree = agreement(rows, mpmath.mpf(10) ** -25, "semantics(eps, 0, delta', p) ratio bounds e^-+eps and "
                      "U/p; seed 000's rho of laplace(eps) = e^eps")
    cases = []
    for e, p in _PURE:
        top = _indep_bounds(e, 0, "0.05", p)["ratio_upper"]
        cases.append(_laplace_sweep(e, p, lambda got, top=top, p=p: (top - got.posterior / mpmath.mpf(p)) / top,
                                    f"laplace(eps={e}), prior {p}: (e^eps - p_post/p)/e^eps"))
    sweep = inequality(cases, mpmath.mpf(10) ** -22, "p_post(alpha)/p <= e^eps for the Laplace record, alpha in "
                       "[1e-300, 0.999]; tight as p -> 0 (prior 1e-12: margin ~1e-12)",
                       grid_points=("1e-1000", "1e-300", "1"))
    witness = _gaussian_witness("5", "1e-12", lambda got: got.posterior / mpmath.mpf("1e-12") > mpmath.exp(5))
    return _first_bad(agree, witness, sweep)


@claim("KZ-C3.8", ("002",), SOURCE + ", Corollary 3.8, Eq. 12", "iff",
       "eps-DP iff |P_i - p_i| <= tau(eps) with probability 1: numeric.semantics' difference bound at delta = 0 "
       "is tau(eps) = tanh(eps/4), attained at its worst-case prior; U(p, eps) - p <= tau(eps) for every prior "
       "(search over p = 10^t and 1 - p = 10^t down to 10^-300); at p* the bound confines Z to [.., eps] "
       "(the converse: U(p*, Z) - p* > tau(eps) as soon as Z > eps)",
       latex=r"M\ \varepsilon\text{-DP}\iff\Pr\big[|P_i-p_i|\le\tau(\varepsilon)\big]=1,\quad"
             r"\tau(\varepsilon)=\tanh(\varepsilon/4)=\max_p\big(U(p,\varepsilon)-p\big)")
def _c38():
    rows = _semantics_rows(("difference_bound", "difference_upper_at_prior", "difference_lower_at_prior",
                            "worst_case_prior"), _PURE_POINTS)
    for e in ("0.5", "2"):    # at the worst-case prior the bound is attained
        star = NS.semantics(e, "0", "0.05", "0.5", 30).worst_case_prior
        star_txt = mpmath.nstr(star, 40)
        at = NS.semantics(e, "0", "0.05", star_txt, 30)
        rows.append(({"eps": e, "prior": "p*", "key": "U - p at p* = tau"}, at.difference_upper_at_prior,
                     _indep_bounds(e, 0, "0.05", star_txt)["difference_bound"]))
    agree = agreement(rows, mpmath.mpf(10) ** -25, "semantics(eps, 0, delta', p) difference bounds; at p* "
                      "U - p = tau (attained)")

    def case(e, upper_half):
        t = _indep_bounds(e, 0, "0.05", "0.5")["difference_bound"]

        def margin(text):
            pr, prc = _prior_pair(text, upper_half)
            got = NS.semantics(e, "0", "0.05", pr, 25)
            with mpmath.workdps(40):
                return (t - max(got.difference_upper_at_prior, -got.difference_lower_at_prior)) / t
        return (f"eps={e}, {'1 - p' if upper_half else 'p'} = 10^t", margin)
    sweep = inequality([case("0.5", False), case("0.5", True)], mpmath.mpf(10) ** -22,
                       "max(U - p, p - L)/tau <= 1 over priors 10^t and 1 - 10^t, t in [-300, log10 1/2] "
                       "(numeric.semantics; worst at the worst-case prior, margin ~0)",
                       lo=-300.0, hi=math.log10(0.5), point_name="prior")
    # converse at p*: Z slightly above eps breaks the bound (so the bound w.p. 1 at p* and 1 - p* gives Z <= eps)
    e = "1"
    star = NS.semantics(e, "0", "0.05", "0.5", 30).worst_case_prior
    with mpmath.workdps(40):
        z = mpmath.mpf(e) * (1 + mpmath.mpf(10) ** -8)
    beyond = mp.evaluate(S.difference_at_prior(S.loss), {prior: sp.Rational(mpmath.nstr(star, 40)),
                                                         prior_c: 1 - sp.Rational(mpmath.nstr(star, 40)),
                                                         S.loss: mpmath.nstr(z, 40)}, 25)
    tau1 = NS.semantics(e, "0", "0.05", "0.5", 30).difference_bound
    if not beyond > tau1:
        return Outcome(FAILED, counterexample={"eps": e, "Z": mpmath.nstr(z, 20), "U(p*, Z) - p*": str(beyond),
                                               "tau": str(tau1)},
                       detail="converse at p*: a loss above eps should break the difference bound")
    return _first_bad(agree, sweep)


# --------------------------------------------- approximate DP: Cor. 3.10 to 3.12 (eps', delta')

def _gauss_violation(mu, z_hi, z_lo):
    """max over I in {1, 0} of P(Z > z_hi) + P(Z < z_lo) for the Gaussian mechanism's loss.  Given I = 1
    the posterior's loss is Z ~ N(mu^2/2, mu^2); given I = 0 it is -Z' with Z' of the same law."""
    with mpmath.workdps(50):
        m, s = mu * mu / 2, mu
        above = lambda x: mpmath.ncdf(-(x - m) / s) if x != mpmath.inf else mpmath.mpf(0)   # noqa: E731
        below = lambda x: mpmath.ncdf((x - m) / s) if x != -mpmath.inf else mpmath.mpf(0)   # noqa: E731
        member = above(z_hi) + below(z_lo)
        other = below(-z_hi) + above(-z_lo)
        return max(member, other)


def _logit_gap(q, q_c, p, p_c):
    """log(q/(1-q)) - log(p/(1-p)): the privacy loss at which the posterior of prior p equals q."""
    with mpmath.workdps(50):
        return mpmath.log(q / q_c) - mpmath.log(p / p_c)


def _thresholds(kind, got, p):
    """(z_hi, z_lo): the event 'bound holds' is z_lo <= Z <= z_hi, from the bound values numeric.semantics
    reported (the posterior is increasing in Z, KZ-T3.1)."""
    with mpmath.workdps(50):
        p = mpmath.mpf(p)
        pc = 1 - p
        if kind == "posterior":
            return (_logit_gap(got.posterior_upper, got.one_minus_posterior_upper, p, pc),
                    _logit_gap(got.posterior_lower, got.one_minus_posterior_lower, p, pc))
        if kind == "ratio":
            hi, lo = p * got.ratio_upper, p * got.ratio_lower
        else:
            hi, lo = p + got.difference_bound, p - got.difference_bound
        z_hi = _logit_gap(hi, 1 - hi, p, pc) if hi < 1 else mpmath.inf
        z_lo = _logit_gap(lo, 1 - lo, p, pc) if lo > 0 else -mpmath.inf
        return z_hi, z_lo


_APPROX_CASES = (("0.5", "0.5", "0.5"), ("1", "1", "0.01"))      # (mu, eps, prior)


def _approx_corollary(kind: str, keys, swept: int):
    """Cor. 3.10-3.12 (2) on the Gaussian mechanism at a point (eps, delta = its exact DP delta) and
    delta' = delta (1 + 10^t): the bound reported by numeric.semantics holds with probability >= 1 - delta'
    (margin (delta' - P(bound broken))/delta', search over t), and equals the plain-mpmath bound."""
    points, cases = [], []
    for mu_t, e_t, p_t in _APPROX_CASES:
        d = mp.profile_delta(derive.gaussian(mu_t), e_t, 35)
        d_txt = mpmath.nstr(d, 35)
        points.append((e_t, d_txt, mpmath.nstr(mpmath.mpf(d_txt) * 3, 35), p_t))

        def margin(text, mu_t=mu_t, e_t=e_t, d_txt=d_txt, p_t=p_t):
            with mpmath.workdps(50):
                dp = min(mpmath.mpf(d_txt) * (1 + mpmath.mpf(text)), mpmath.mpf(1))
                dp_txt = mpmath.nstr(dp, 40)
            got = NS.semantics(e_t, d_txt, dp_txt, p_t, 25)
            z_hi, z_lo = _thresholds(kind, got, p_t)
            bad = _gauss_violation(mpmath.mpf(mu_t), z_hi, z_lo)
            with mpmath.workdps(40):
                return (mpmath.mpf(dp_txt) - bad) / mpmath.mpf(dp_txt)
        with mpmath.workdps(30):
            top = float(mpmath.log10(1 / mpmath.mpf(d_txt) - 1))
        cases.append((f"gaussian(mu={mu_t}), eps={e_t}, prior {p_t}", margin, top))
    agree = agreement(_semantics_rows(keys, points), mpmath.mpf(10) ** -25,
                      f"semantics(eps, delta, 3 delta, p) {', '.join(keys)} against plain mpmath at eps' "
                      "(boxed form)")
    label, m, top = cases[swept]      # the search for one case (cost); the other is checked by agreement
    sweeps = [inequality([(label, m)], mpmath.mpf(10) ** -20, "", lo=-12.0, hi=min(top, 3.0),
                         point_name="delta'/delta - 1")]
    worst = min(sweeps, key=lambda o: mpmath.mpf(o.margin) if o.margin else mpmath.mpf(0))
    for o in sweeps:
        if o.status is not CONFIRMED:
            o.detail = f"P({kind} bound at eps' broken) > delta' for the Gaussian mechanism"
            return o
    sweep = Outcome(CONFIRMED, margin=worst.margin, worst_at=worst.worst_at, points=sum(o.points for o in sweeps),
                    method=worst.method,
                    detail=f"Gaussian mechanism ({label}) at (eps, delta(eps)) of its exact profile, delta' = delta "
                           f"(1 + 10^t), t in [-12, min(3, log10(1/delta - 1))]: P({kind} bound broken) <= delta' (loss law N(mu^2/2, mu^2), "
                           "thresholds from the bound values numeric.semantics reported); margin = smallest "
                           "(delta' - P)/delta'")
    return agree, sweep


@claim("KZ-C3.10", ("002",), SOURCE + ", Corollary 3.10, Eqs. 13-14", "iff",
       "(1) posterior bounds w.p. 1 - delta imply (eps, delta)-DP; (2) (eps, delta)-DP gives "
       "L(p,eps') <= P_i <= U(p,eps') w.p. 1 - delta': numeric.semantics' posterior bounds equal plain mpmath "
       "at eps', and for the Gaussian mechanism the posterior leaves them with probability <= delta'; (1) on "
       "the same mechanism: its exact delta(eps) <= P(posterior outside [L, U] at eps)",
       latex=r"(\varepsilon,\delta)\text{-DP}\Rightarrow\Pr\big[\mathcal{L}(p,\varepsilon')\le P_i\le "
             r"U(p,\varepsilon')\big]\ge1-\delta',\quad \varepsilon'=\log\frac{e^{\varepsilon}\delta'+\delta}"
             r"{\delta'-\delta}")
def _c310():
    agree, sweep = _approx_corollary("posterior", ("eps_prime", "posterior_upper", "posterior_lower",
                                                   "one_minus_posterior_upper"), 1)
    # (1): the posterior bounds at eps hold w.p. 1 - delta_post, delta_post = P(outside); then DP delta <= it
    rows = []
    for mu_t, e_t, p_t in _APPROX_CASES:
        got = NS.semantics(e_t, "0", "0.5", p_t, 30)          # delta = 0: the bounds at eps itself
        z_hi, z_lo = _thresholds("posterior", got, p_t)
        outside = _gauss_violation(mpmath.mpf(mu_t), z_hi, z_lo)
        dp_delta = mp.profile_delta(derive.gaussian(mu_t), e_t, 30)
        if not dp_delta <= outside:
            return Outcome(FAILED, counterexample={"mu": mu_t, "eps": e_t, "delta_DP": str(dp_delta),
                                                   "P(outside)": str(outside)}, detail="(1) fails")
        rows.append(mpmath.nstr(dp_delta / outside, 3))
    out = _first_bad(agree, sweep)
    out.detail += "; (1): delta_DP/P(outside [L, U]) = " + ", ".join(rows)
    return out


@claim("KZ-C3.11", ("002",), SOURCE + ", Corollary 3.11, Eqs. 15-16", "iff",
       "ratio bounds w.p. 1 - delta imply (eps, delta)-DP; (eps, delta)-DP gives e^-eps' <= P_i/p_i <= e^eps' "
       "w.p. 1 - delta': numeric.semantics' ratio bounds equal e^-+eps' (plain mpmath), the prior-specific "
       "envelope lies inside them for every prior, and for the Gaussian mechanism the ratio leaves them with "
       "probability <= delta'",
       latex=r"(\varepsilon,\delta)\text{-DP}\Rightarrow\Pr\big[e^{-\varepsilon'}\le P_i/p_i\le e^{\varepsilon'}"
             r"\big]\ge1-\delta'")
def _c311():
    agree, sweep = _approx_corollary("ratio", ("ratio_upper", "ratio_lower", "ratio_upper_at_prior",
                                               "ratio_lower_at_prior"), 1)
    ep = S.eps_prime()
    lo_p, hi_p = S.ratio_bounds_at_prior(ep)
    fixed = {sy.eps: "1", sy.delta: "1e-6", S.delta_p: "0.01"}

    def env(text):
        return {**fixed, prior: sp.Rational(text), prior_c: 1 - sp.Rational(text)}
    top, bottom = mp.evaluate(sp.exp(ep), fixed, 30), mp.evaluate(sp.exp(-ep), fixed, 30)
    envelope = inequality(
        [("U/p <= e^eps'", lambda text: (top - mp.evaluate(hi_p, env(text), 25)) / top),
         ("L/p >= e^-eps'", lambda text: (mp.evaluate(lo_p, env(text), 25) - bottom) / bottom)],
        mpmath.mpf(10) ** -22, "the prior-specific ratio envelope [L/p, U/p] (derive.semantics."
        "ratio_bounds_at_prior at eps', numeric.mp) lies in [e^-eps', e^eps'] for priors 10^t, "
        "t in [-300, log10 0.999] (tight as p -> 0)", hi=math.log10(0.999), point_name="prior")
    return _first_bad(agree, envelope, sweep)


@claim("KZ-C3.12", ("002",), SOURCE + ", Corollary 3.12, Eqs. 17-18", "iff",
       "(1) a difference bound w.p. 1 - delta implies (eps, 2 delta)- and (eps~, delta)-DP; (2) (eps, delta)-DP "
       "gives |Delta| <= tau(eps') w.p. 1 - delta': numeric.semantics' tau(eps') equals plain mpmath; for the "
       "Gaussian mechanism |Delta| exceeds it with probability <= delta'; (1) on the same mechanism with "
       "delta_diff = sup over priors of P(|Delta| > tau(eps)): exact delta(eps) <= 2 delta_diff and "
       "delta(eps~) <= delta_diff",
       latex=r"\Pr\big[|\Delta_i|\le\tau(\varepsilon)\big]\ge1-\delta\Rightarrow(\varepsilon,2\delta)\text{- and }"
             r"(\tilde\varepsilon,\delta)\text{-DP};\quad(\varepsilon,\delta)\text{-DP}\Rightarrow"
             r"\Pr\big[|\Delta_i|\le\tau(\varepsilon')\big]\ge1-\delta'")
def _c312():
    agree, sweep = _approx_corollary("difference", ("difference_bound", "difference_upper_at_prior",
                                                    "difference_lower_at_prior"), 0)
    notes = []
    for mu_t, e_t in (("0.5", "0.5"), ("1", "1")):
        # delta_diff >= the violation probability at the priors 1/2 and p* (a lower bound on the sup)
        worst = mpmath.mpf(0)
        for p_t in ("0.5", mpmath.nstr(NS.semantics(e_t, "0", "0.5", "0.5", 30).worst_case_prior, 40)):
            got = NS.semantics(e_t, "0", "0.5", p_t, 30)
            worst = max(worst, _gauss_violation(mpmath.mpf(mu_t), *_thresholds("difference", got, p_t)))
        et = mpmath.nstr(mp.evaluate(S.eps_tilde(), {sy.eps: e_t}, 30), 35)
        at_e = mp.profile_delta(derive.gaussian(mu_t), e_t, 30)
        at_et = mp.profile_delta(derive.gaussian(mu_t), et, 30)
        if not (at_e <= 2 * worst and at_et <= worst):
            return Outcome(FAILED, counterexample={"mu": mu_t, "eps": e_t, "delta(eps)": str(at_e),
                                                   "delta(eps~)": str(at_et), "delta_diff >=": str(worst)},
                           detail="(1) fails on the Gaussian mechanism")
        notes.append(f"mu={mu_t}, eps={e_t}: delta(eps)/2delta_diff <= {mpmath.nstr(at_e / (2 * worst), 3)}, "
                     f"delta(eps~)/delta_diff <= {mpmath.nstr(at_et / worst, 3)}")
    out = _first_bad(agree, sweep)
    out.detail += "; (1): " + "; ".join(notes)
    return out
