"""Claims of seed 002 (Kazan et al. 2025): Bayesian semantics, composition, zCDP.

Catalog ids from ``../shared/catalog/002.md`` (KZ-*).  The seed's formulas were
stripped by the extraction, so each reconstructed formula is checked here
rather than assumed.  Numerical confirmations use the Gaussian mechanism with
shift mu, whose privacy loss given membership is Z ~ N(mu^2/2, mu^2) (and
-Z' ~ the same law given non-membership), so P(|Z| > x) is a sum of two
normal tails, and whose exact (eps, delta) curve is the GDP profile
(Dong, Roth, Su 2022, Cor. 2.13, claim DRS-Cor2.13).
"""

from __future__ import annotations

import mpmath
import sympy as sp

import derive
from derive import composition as C
from derive import semantics as S
from derive import symbols as sy
from derive.posterior import prior, prior_c
from numeric import composition as NC
from numeric import mp

from .registry import claim
from .outcomes import agreement, proven_if
from .status import CONFIRMED, FAILED, INCONCLUSIVE, PROVEN, Outcome

SOURCE = "Kazan, Sharma, Zhang, Jiang, Yan (2025), arXiv:2507.09699v1"
p = sp.Symbol("p", positive=True)


def _with_prior(expr):
    """Replace (pi, bar_pi) by (p, 1 - p) for symbolic proofs."""
    return expr.xreplace({prior: p, prior_c: 1 - p})


def _zero(expr) -> sp.Expr:
    return sp.simplify(expr)


# ------------------------------------------------------------------ Section 3
@claim("KZ-T3.1", ("002",), SOURCE + ", Theorem 3.1, Eq. 1-2", "identity",
       "the posterior p f1/(p f1 + (1-p) f0) equals 1/(1 + (1-p)/p e^{-L}) with L = log(f1/f0) "
       "given membership, and 1/(1 + (1-p)/p e^{L'}) with L' = log(f0/f1) otherwise; "
       "it is increasing in L")
def _t31():
    f1, f0 = sp.symbols("f1 f0", positive=True)
    bayes = p * f1 / (p * f1 + (1 - p) * f0)
    member = _with_prior(S.posterior_of_loss(True, sp.log(f1 / f0)))
    other = _with_prior(S.posterior_of_loss(False, sp.log(f0 / f1)))
    slope = sp.simplify(sp.diff(_with_prior(S.posterior_of_loss(True)), S.loss))
    return proven_if({"member": _zero(bayes - member), "non-member": _zero(bayes - other),
                    "increasing": slope.is_positive if slope.is_positive is not None else
                    sp.simplify(slope - p * (1 - p) * sp.exp(S.loss) / (p * sp.exp(S.loss) + 1 - p)**2)},
                   "SymPy: both forms equal Bayes' rule; dP/dL = p(1-p)e^L/(p e^L + 1 - p)^2 > 0")


@claim("KZ-T3.2", ("002",), SOURCE + ", Theorem 3.2, Eq. 3 (and Cor. 3.6)", "iff",
       "P(L(p,eps) <= P_i <= U(p,eps)) = P(|Z| <= eps): the posterior of Thm 3.1 equals U at Z = eps and "
       "L at Z = -eps, so the posterior bound is the PDP event; U(1/2, eps) = 1/(1 + e^-eps)")
def _t32():
    post = S.posterior_of_loss(True)
    return proven_if({"U": _zero(post.subs(S.loss, sy.eps) - S.upper()),
                    "L": _zero(post.subs(S.loss, -sy.eps) - S.lower()),
                    "U(1/2)": _zero(_with_prior(S.upper()).subs(p, sp.Rational(1, 2)) - 1 / (1 + sp.exp(-sy.eps))),
                    "1-U": _zero(_with_prior(S.upper() + S.one_minus_upper()) - 1),
                    "1-L": _zero(_with_prior(S.lower() + S.one_minus_lower()) - 1)},
                   "SymPy: P(Z = eps) = U(p, eps), P(Z = -eps) = L(p, eps) with P increasing in Z (KZ-T3.1); "
                   "the complements 1 - U and 1 - L are exact")


@claim("KZ-T3.3", ("002",), SOURCE + ", Theorem 3.3, Eq. 4-5 (and Cor. 3.7)", "limit",
       "sup_p U(p,eps)/p = e^eps and inf_p L(p,eps)/p = e^-eps (both as p -> 0; U/p is decreasing in p), "
       "so the ratio bound [e^-eps, e^eps] is prior-free")
def _t33():
    up = _with_prior(S.upper()) / p
    lo = _with_prior(S.lower()) / p
    dup = sp.simplify(sp.diff(up, p))
    return proven_if({"sup": _zero(sp.limit(up, p, 0, "+") - sp.exp(sy.eps)),
                    "inf": _zero(sp.limit(lo, p, 0, "+") - sp.exp(-sy.eps)),
                    "monotone": _zero(dup + sp.exp(sy.eps) * (sp.exp(sy.eps) - 1) /
                                      (p * sp.exp(sy.eps) + 1 - p)**2)},
                   "SymPy limits at p -> 0; d(U/p)/dp = -e^eps (e^eps - 1)/(p e^eps + 1 - p)^2 <= 0")


@claim("KZ-L3.4", ("002",), SOURCE + ", Lemma 3.4, Eq. 6", "identity",
       "h_c(p) = U(p, c) - p is stationary at p* = 1/(1 + e^{c/2}) with h_c(p*) = tanh(c/4) "
       "= (e^{c/2} - 1)/(e^{c/2} + 1), a maximum for c > 0 (minimum for c < 0); 1 - U(p*, c) = p*")
def _l34():
    c = S.c
    h = _with_prior(S.upper(c)) - p
    crit = sp.solve(sp.diff(h, p), p)
    star = S.worst_case_prior(c)
    hit = [r for r in crit if sp.simplify(r - star) == 0]
    second = sp.simplify(sp.diff(h, p, 2).subs(p, star))
    # sign of h'' at p*: -(e^{c/2} + 1)^3 sinh(c/2)/(2 e^{c/2}) ... checked by substitution
    sign_pos = sp.simplify(second.subs(c, 1)).evalf() < 0
    sign_neg = sp.simplify(second.subs(c, -1)).evalf() > 0
    return proven_if({"root": len(hit) == 1 or "no root equal to p*",
                    "value": _zero((h.subs(p, star) - S.tau(c)).rewrite(sp.exp)),
                    "printed tau": _zero((S.tau(c) - S.tau_printed(c)).rewrite(sp.exp)),
                    "complement": _zero(_with_prior(S.one_minus_upper(c)).subs(p, star) - star),
                    "second": bool(sign_pos and sign_neg)},
                   f"SymPy: dh/dp = 0 at {star}; h(p*) - tanh(c/4) = 0; h''(p*) = {second} "
                   "(negative at c = 1, positive at c = -1, and its sign is that of -c)")


@claim("KZ-T3.5", ("002",), SOURCE + ", Theorem 3.5 and Cor. 3.8, 3.12(1)", "identity",
       "(1) |U - p| and |L - p| are at most tau(eps) for every prior; (2) a difference bound tau(eps) at "
       "p = 1/2 confines Z to [-eps~, eps~] with eps~ = log((1 + 2 tau)/(1 - 2 tau)) "
       "= log((3 e^{eps/2} - 1)/(3 - e^{eps/2})) >= eps, and at the worst-case priors to Z <= eps")
def _t35():
    z = sp.Symbol("z", real=True)
    u = sp.Symbol("u", positive=True)          # u = e^{eps/4}: every quantity is rational in u
    to_u = {sy.eps: 4 * sp.log(u)}
    t = sp.simplify(S.tau().subs(to_u).rewrite(sp.exp))
    half = _with_prior(S.posterior_of_loss(True, z)).subs(p, sp.Rational(1, 2))
    sol = sp.solve(sp.Eq(sp.exp(-z), sp.solve(sp.Eq(half.subs(sp.exp(-z), sp.Symbol("w", positive=True)),
                                                   sp.Rational(1, 2) + t), sp.Symbol("w", positive=True))[0]), z)
    tilde = sp.simplify(sp.exp(S.eps_tilde().subs(to_u).rewrite(sp.exp)))
    printed = sp.simplify(sp.exp(S.eps_tilde_printed().subs(to_u)))
    star = S.worst_case_prior().subs(to_u)
    w = sp.Symbol("w", positive=True)            # w = e^z
    at_star = _with_prior(S.posterior_of_loss(True, sp.log(w))).subs(p, star)
    one_sided = sp.solve(sp.Eq(sp.simplify(at_star - star), t), w)
    e_lo = [sp.Rational(k, 10) for k in range(1, 21)]          # eps in (0, 2] < 2 log 3
    gaps = [mp.evaluate(S.eps_tilde() - sy.eps, {sy.eps: e}, 20) for e in e_lo]
    return proven_if({"(2) p = 1/2": 0 if any(_zero(sp.exp(sv.subs(to_u)) - tilde) == 0 for sv in sol) else sol,
                    "printed": _zero(tilde - printed),
                    "one-sided": 0 if any(_zero(r - u**4) == 0 for r in one_sided) else one_sided,
                    "eps~ >= eps": all(g > 0 for g in gaps)},
                   "SymPy, in u = e^{eps/4}: U(1/2, z) = 1/2 + tau(eps) iff e^z = e^{eps~} (= the printed closed "
                   "form (3u^2 - 1)/(3 - u^2)); U(p*, z) - p* = tau(eps) iff e^z = u^4 = e^eps; (1) is KZ-L3.4 "
                   "(max_p (U - p) = tau); eps~ - eps > 0 at eps = 0.1, ..., 2 (20 points, verified digits)")


@claim("KZ-EXA.1", ("002",), SOURCE + ", Appendix Example A.1 (reconstruction in catalog KZ-EXA.1)", "inequality",
       "a difference bound w.p. 1 - delta does not give (eps, delta)-PDP: eps~-randomized response run with "
       "probability gamma = delta (1 + e^-eps~) meets |Delta| <= tau(eps) w.p. >= 1 - delta for every prior, "
       "but P(|Z| > eps) = gamma > delta")
def _exa1():
    points = 0
    for e_txt, d_txt in (("0.5", "0.1"), ("1", "0.01"), ("2", "0.3")):
        with mpmath.workdps(40):
            e, d = mpmath.mpf(e_txt), mpmath.mpf(d_txt)
            t = mpmath.tanh(e / 4)
            et = mpmath.log((1 + 2 * t) / (1 - 2 * t))
            gamma = d * (1 + mpmath.exp(-et))
            # outputs: 'nothing' (LR 1), RR 'yes' (LR e^et given I = 1), RR 'no' (LR e^-et)
            p_yes_1 = gamma * mpmath.exp(et) / (1 + mpmath.exp(et))
            p_no_1 = gamma / (1 + mpmath.exp(et))
            for k in range(1, 100):
                pr = mpmath.mpf(k) / 100
                bad = mpmath.mpf(0)
                for prob1, lr in ((p_yes_1, mpmath.exp(et)), (p_no_1, mpmath.exp(-et))):
                    post = pr * lr / (pr * lr + 1 - pr)
                    if abs(post - pr) > t * (1 + mpmath.mpf(10) ** -30):
                        bad += prob1
                points += 1
                if bad > d * (1 + mpmath.mpf(10) ** -30):
                    return Outcome(FAILED, counterexample={"eps": e_txt, "delta": d_txt, "prior": str(pr),
                                                           "violation probability": str(bad)})
            if not gamma > d:
                return Outcome(FAILED, counterexample={"eps": e_txt, "delta": d_txt, "gamma": str(gamma)})
    return Outcome(CONFIRMED, margin="0", points=points,
                   detail="(eps, delta) in {(0.5, 0.1), (1, 0.01), (2, 0.3)}, priors 0.01..0.99: the difference "
                          "bound fails with probability <= delta given membership, while P(|Z| > eps) = gamma "
                          "= delta (1 + e^-eps~) > delta")


@claim("KZ-T3.9", ("002",), SOURCE + ", Theorem 3.9", "identity",
       "eps' = log((e^eps delta' + delta)/(delta' - delta)) = eps + log1p(delta (1 + e^-eps)/(delta' - delta)); "
       "delta (1 + e^-eps')/(1 - e^{eps - eps'}) at that eps' is delta'; the inverse in eps; eps' = eps when "
       "delta = 0 (Cor. 3.6-3.8: pure DP bounds hold with probability 1)")
def _t39():
    ep = S.eps_prime()
    ep_sym = sp.Symbol("eps'", positive=True)
    back = S.delta_prime_of(ep=ep_sym).subs(ep_sym, S.eps_prime_printed())
    inv = S.eps_from_eps_prime(ep=ep_sym).subs(ep_sym, S.eps_prime_printed())
    return proven_if({"log1p form": _zero(sp.exp(ep.rewrite(sp.log)) - sp.exp(S.eps_prime_printed())),
                    "delta'": _zero(back - S.delta_p),
                    "inverse": _zero(sp.exp(inv) - sp.exp(sy.eps)),
                    "pure": _zero(ep.subs(sy.delta, 0) - sy.eps)},
                   "SymPy: the boxed and log1p forms agree (exp of both), the delta'(eps') form returns delta', "
                   "the inverse in eps returns eps, and delta = 0 gives eps' = eps")


def _gauss_tail(mu, x):
    """P(|Z| > x) for Z ~ N(mu^2/2, mu^2), the privacy loss of N(mu, 1) against N(0, 1)."""
    m, s = mu * mu / 2, mu
    return mpmath.ncdf(-(x - m) / s) + mpmath.ncdf((-x - m) / s)


def _gauss_delta(mu_text: str, e_text: str):
    """The exact (eps, delta)-DP curve of the Gaussian mechanism: the record's closed-form profile
    (one source, derived by SymPy in claim DRS-Cor2.13), at 35 verified digits."""
    return mp.profile_delta(derive.gaussian(mu_text), e_text, 35)


def _gaussian_cases():
    for mu in ("0.5", "1", "2"):
        for e in ("0.1", "0.5", "1", "3"):
            for factor in ("1.01", "2", "10", "1000"):
                yield mu, e, factor


@claim("KZ-T3.9:gaussian", ("002",), SOURCE + ", Theorem 3.9 and Cor. 3.10(2)-3.12(2)", "inequality",
       "for the Gaussian mechanism at a point (eps, delta) of its exact DP curve and delta' = c delta, "
       "P(|Z| > eps') <= delta': the posterior, ratio and difference bounds at eps' hold w.p. >= 1 - delta'")
def _t39_gauss():
    worst, points = None, 0
    for mu_t, e_t, c_t in _gaussian_cases():
        with mpmath.workdps(40):
            mu, c = mpmath.mpf(mu_t), mpmath.mpf(c_t)
            d = _gauss_delta(mu_t, e_t)
            dp = min(c * d, mpmath.mpf(1))
            if not dp > d:
                continue
            d_txt, dp_txt = mpmath.nstr(d, 35), mpmath.nstr(dp, 35)
        ep = mp.evaluate(S.eps_prime(), {sy.eps: e_t, sy.delta: d_txt, S.delta_p: dp_txt}, 30)
        with mpmath.workdps(40):
            tail = _gauss_tail(mu, ep)
            slack = (mpmath.mpf(dp_txt) - tail) / mpmath.mpf(dp_txt)
        points += 1
        if slack < 0:
            return Outcome(FAILED, counterexample={"mu": mu_t, "eps": e_t, "delta": d_txt, "delta'": dp_txt,
                                                   "eps'": str(ep), "P(|Z|>eps')": str(tail)})
        worst = slack if worst is None else min(worst, slack)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="mu in {0.5, 1, 2}, eps in {0.1, 0.5, 1, 3}, delta' = delta x {1.01, 2, 10, 1000}; "
                          "margin = smallest relative slack (delta' - P(|Z| > eps'))/delta'. The posterior is "
                          "monotone in Z (KZ-T3.1), so the posterior bound holds exactly on |Z| <= eps', and the "
                          "ratio and difference bounds contain it (KZ-T3.3, KZ-L3.4)")


@claim("KZ-T2.5", ("002",), SOURCE + ", Theorem 2.5 and Cor. 3.10(1)-3.12(1)", "inequality",
       "(eps, delta)-PDP implies (eps, delta)-DP: for the Gaussian mechanism the exact DP delta(eps) is at most "
       "P(|Z| > eps)")
def _t25():
    rows = 0
    worst = None
    for mu_t in ("0.25", "1", "3"):
        for e_t in ("0", "0.1", "1", "5", "20"):
            with mpmath.workdps(40):
                mu, e = mpmath.mpf(mu_t), mpmath.mpf(e_t)
                dp_delta, pdp_delta = _gauss_delta(mu_t, e_t), _gauss_tail(mu, e)
                rows += 1
                if dp_delta > pdp_delta:
                    return Outcome(FAILED, counterexample={"mu": mu_t, "eps": e_t, "dp": str(dp_delta),
                                                           "pdp": str(pdp_delta)})
                r = dp_delta / pdp_delta
                worst = r if worst is None else max(worst, r)
    return Outcome(CONFIRMED, margin=mpmath.nstr(1 - worst, 3), points=rows,
                   detail="delta_DP(eps) / P(|Z| > eps) <= 1 for mu in {0.25, 1, 3}, eps in {0, 0.1, 1, 5, 20}")


@claim("KZ-TA.2", ("002",), SOURCE + ", Appendix Theorem A.2 (Canonne, Kamath, Steinke 2020), Eq. 31-33",
       "identity",
       "delta(eps) = E[max(0, 1 - e^{eps - Z})] = P(Z > eps) - e^eps P(Z' < -eps): for the Gaussian "
       "mechanism both equal the GDP profile (quadrature, 30 digits); for k randomized responses the "
       "expectation equals the optimal-composition sum of Kairouz-Oh-Viswanath / Murtagh-Vadhan")
def _ta2():
    rows = []
    for mu_t in ("0.5", "1", "2"):
        for e_t in ("0", "0.5", "2"):
            with mpmath.workdps(40):
                mu, e = mpmath.mpf(mu_t), mpmath.mpf(e_t)
                m = mu * mu / 2
                dens = lambda z: mpmath.npdf(z, m, mu)   # noqa: E731
                expect = mpmath.quad(lambda z: dens(z) * -mpmath.expm1(e - z), [e, e + 10 * mu, mpmath.inf])
                split = mpmath.ncdf(-(e - m) / mu) - mpmath.exp(e) * mpmath.ncdf((-e - m) / mu)
                profile = _gauss_delta(mu_t, e_t)
            rows.append(({"mu": mu_t, "eps": e_t, "form": "expectation"}, expect, profile))
            rows.append(({"mu": mu_t, "eps": e_t, "form": "split"}, split, profile))
    for k_, e0, eg in ((5, "0.3", "0.5"), (12, "0.1", "0.25"), (40, "0.05", "0.6")):
        with mpmath.workdps(40):
            a, g = mpmath.mpf(e0), mpmath.mpf(eg)
            q = 1 / (1 + mpmath.exp(a))
            expect = mpmath.fsum(mpmath.binomial(k_, l) * q**l * (1 - q)**(k_ - l) *
                                 max(0, -mpmath.expm1(g - (k_ - 2 * l) * a)) for l in range(k_ + 1))
        rows.append(({"k": k_, "eps0": e0, "eps_g": eg}, NC.optimal_delta(e0, k_, eg, 30), expect))
    return agreement(rows, mpmath.mpf(10) ** -25, "Gaussian mu in {0.5, 1, 2}, eps in {0, 0.5, 2}; "
                     "k randomized responses (k, eps0, eps_g) in {(5, .3, .5), (12, .1, .25), (40, .05, .6)}")


# ------------------------------------------------------------------ Section 2
@claim("KZ-T2.3", ("002",), SOURCE + ", Theorem 2.3", "inequality",
       "eps-DP iff |Z| <= eps almost surely: the Laplace mechanism's privacy loss |x| - |x - eps| lies in "
       "[-eps, eps] and reaches both ends; the Gaussian mechanism's is unbounded")
def _t23():
    # the Laplace loss log(f1/f0) at x is |x| - |x - eps| = eps (|y| - |y - 1|) with x = eps y
    y = sp.Symbol("y", real=True)
    w = sp.piecewise_fold((sp.Abs(y) - sp.Abs(y - 1)).rewrite(sp.Piecewise))
    ranges, rest = [], sp.S.Reals
    for expr, cond in w.args:           # pieces in order: each one's set minus the earlier ones
        here = (sp.S.Reals if cond is sp.true else cond.as_set()).intersect(rest)
        rest = rest - here
        if here is not sp.S.EmptySet:
            ranges.append((sp.minimum(expr, y, here), sp.maximum(expr, y, here)))
    low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
    x = sp.Symbol("x", real=True)
    mu = sp.Symbol("mu", positive=True)
    gz = sp.log(sp.exp(-(x - mu)**2 / 2) / sp.exp(-x**2 / 2))
    unbounded = sp.limit(sp.expand(sp.simplify(gz)), x, sp.oo) is sp.oo
    return proven_if({"laplace range": (low == -1 and high == 1) or (low, high), "gaussian": unbounded},
                     "SymPy: with x = eps y the Laplace loss is eps (|y| - |y - 1|), whose pieces range over "
                     f"{ranges}: the loss lies in [-eps, eps] and reaches both ends; the Gaussian loss "
                     "mu x - mu^2/2 -> oo")


@claim("KZ-D2.6", ("002",), SOURCE + ", Definition 2.6 and Theorem 2.9", "identity",
       "the Gaussian mechanism with shift mu is rho-zCDP with rho = mu^2/2: E[e^{(a-1)Z}] = e^{(a-1) a mu^2/2} "
       "for Z ~ N(mu^2/2, mu^2); independent Gaussian losses add, so rho's add under composition")
def _d26():
    a, mu, z = sp.Symbol("a", positive=True), sp.Symbol("mu", positive=True), sp.Symbol("z", real=True)
    dens = sp.exp(-(z - mu**2 / 2)**2 / (2 * mu**2)) / (mu * sp.sqrt(2 * sp.pi))
    mgf = sp.simplify(sp.integrate(sp.exp((a - 1) * z) * dens, (z, -sp.oo, sp.oo)))
    m1, m2 = sp.symbols("mu1 mu2", positive=True)
    rho_sum = sp.simplify((m1**2 + m2**2) / 2 - (m1**2 / 2 + m2**2 / 2))
    return proven_if({"mgf": _zero(mgf - sp.exp((a - 1) * a * mu**2 / 2)), "composition": rho_sum},
                   "SymPy integrates the moment generating function of the Gaussian privacy loss; "
                   "a sum of independent N(m_j^2/2, m_j^2) losses is N(M^2/2, M^2) with M^2 = sum m_j^2")


@claim("KZ-T2.7", ("002",), SOURCE + ", Theorem 2.7 (Bun-Steinke 2016) and Canonne-Kamath-Steinke 2020",
       "inequality",
       "rho-zCDP implies (eps, delta)-DP with eps = rho + 2 sqrt(rho log(1/delta)), and with the smaller CKS eps; "
       "both are at least the exact eps of the Gaussian mechanism with mu = sqrt(2 rho) at delta")
def _t27():
    points, worst = 0, None
    # rho = mu^2/2 (KZ-D2.6): mu = 0.1, 0.5, 1, 2, 4 for rho = 0.005, 0.125, 0.5, 2, 8
    for r_t, mu_t in (("0.005", "0.1"), ("0.125", "0.5"), ("0.5", "1"), ("2", "2"), ("8", "4")):
        for d_t in ("1e-3", "1e-6", "1e-12"):
            bs = NC.zcdp_to_dp(r_t, 1, d_t, "bun-steinke", 20)["eps"]
            cks = NC.zcdp_to_dp(r_t, 1, d_t, "cks", 20)["eps"]
            exact = mp.profile_eps(derive.gaussian(mu_t), d_t, 20)   # the exact eps at delta
            with mpmath.workdps(40):
                points += 1
                if not (exact <= cks * (1 + mpmath.mpf(10) ** -15) and cks <= bs):
                    return Outcome(FAILED, counterexample={"rho": r_t, "delta": d_t, "exact": str(exact),
                                                           "cks": str(cks), "bun-steinke": str(bs)})
                gap = (cks - exact) / exact
                worst = gap if worst is None else min(worst, gap)
    return Outcome(CONFIRMED, margin=mpmath.nstr(worst, 3), points=points,
                   detail="rho in {0.005, 0.125, 0.5, 2, 8}, delta in {1e-3, 1e-6, 1e-12}: exact Gaussian eps <= "
                          "CKS <= Bun-Steinke; margin = smallest relative excess of CKS over the exact eps")


@claim("KZ-T2.8", ("002",), SOURCE + ", Theorem 2.8 (Dwork-Rothblum-Vadhan 2010; Kairouz-Oh-Viswanath 2015)",
       "inequality",
       "the optimal composition eps of k eps0-DP mechanisms at delta is at most the basic k eps0 and the "
       "advanced eps0 sqrt(2k log(1/delta)) + k eps0 (e^eps0 - 1); at the KOV grid points eps_g = (k - 2i) eps0 "
       "the Murtagh-Vadhan delta equals Kairouz-Oh-Viswanath's delta_i")
def _t28():
    points = 0
    rows = []
    for k_, e0 in ((1, "0.5"), (10, "0.1"), (50, "0.2"), (1000, "0.01")):
        for d_t in ("1e-3", "1e-8"):
            opt = NC.compose_pure(e0, k_, d_t, "optimal", 20)["eps"]
            basic = NC.compose_pure(e0, k_, d_t, "basic", 20)["eps"]
            adv = NC.compose_pure(e0, k_, d_t, "advanced", 20)["eps"]
            points += 1
            if opt > basic or opt > adv:
                return Outcome(FAILED, counterexample={"k": k_, "eps0": e0, "delta": d_t, "optimal": str(opt),
                                                       "basic": str(basic), "advanced": str(adv)})
    for k_, e0 in ((4, sp.Rational(3, 10)), (9, sp.Rational(1, 5))):
        for i_ in range(1, k_ // 2 + 1):
            kov = mp.evaluate(C.kov_grid_delta.subs({C.k: k_, C.i: i_}).doit(), {C.eps0: e0}, 25)
            mv = NC.optimal_delta(e0, k_, (k_ - 2 * i_) * e0, 25) if k_ - 2 * i_ > 0 else None
            if mv is None:
                continue
            rows.append(({"k": k_, "i": i_}, mv, kov))
    return agreement(rows, mpmath.mpf(10) ** -22, "optimal <= basic and <= advanced for (k, eps0) in "
                     "{(1, .5), (10, .1), (50, .2), (1000, .01)}, delta in {1e-3, 1e-8}; MV = KOV at every grid "
                     "point of (k, eps0) in {(4, 0.3), (9, 0.2)}", extra_points=points)


@claim("KZ-S4.4", ("002",), SOURCE + ", Section 4.4 and Figure 7", "identity",
       "the ratio P/p lies in [1/(p + (1-p)e^eps'), 1/(p + (1-p)e^-eps')] = [L/p, U/p]; at p = 1/2 it is "
       "[2/(1+e^eps'), 2/(1+e^-eps')]; as p -> 0 it tends to [e^-eps', e^eps']; U - p = p(1-p)(e^eps - 1)/"
       "(p e^eps + 1 - p)")
def _s44():
    lo, hi = (_with_prior(v) for v in S.ratio_bounds_at_prior())
    return proven_if({"lo": _zero(lo - _with_prior(S.lower()) / p), "hi": _zero(hi - _with_prior(S.upper()) / p),
                    "half": _zero(lo.subs(p, sp.Rational(1, 2)) - 2 / (1 + sp.exp(sy.eps))),
                    "p->0": _zero(sp.limit(hi, p, 0, "+") - sp.exp(sy.eps)),
                    "difference": _zero((_with_prior(S.difference_at_prior()) -
                                         (_with_prior(S.upper()) - p)).rewrite(sp.exp))},
                   "SymPy identities and the limit p -> 0")


@claim("KZ-P4.2", ("002",), SOURCE + ", Example 4.2 (catalog KZ-P4.2)", "identity",
       "a maximum difference of 0.2 means tau(eps') = 0.2, i.e. eps' = 4 artanh(0.2) = 2 log(3/2)")
def _p42():
    sol = sp.solve(sp.Eq(S.tau_printed(), sp.Rational(1, 5)), sy.eps)
    return proven_if({"solve": 0 if any(_zero(s - 2 * sp.log(sp.Rational(3, 2))) == 0 for s in sol) else sol,
                    "artanh": _zero(sp.exp(4 * sp.atanh(sp.Rational(1, 5)).rewrite(sp.log)) - sp.Rational(9, 4))},
                   "SymPy solves (e^{eps/2} - 1)/(e^{eps/2} + 1) = 1/5: eps = 2 log(3/2) = 4 artanh(1/5)")


# ------------------------------------------------- Corollaries 3.6 to 3.12
def _both(first, second, how: str) -> Outcome:
    """A corollary that is the conjunction of two checked statements."""
    a, b = first(), second()
    status = PROVEN if a.status == b.status == PROVEN else \
        FAILED if FAILED in (a.status, b.status) else \
        INCONCLUSIVE if INCONCLUSIVE in (a.status, b.status) else CONFIRMED
    return Outcome(status, margin=b.margin if status == CONFIRMED else ("0" if status == PROVEN else None),
                   points=a.points + b.points, detail=how,
                   counterexample=a.counterexample or b.counterexample)


for _id, _src, _stmt, _parts, _how in (
        ("KZ-C3.6", "Corollary 3.6, Eq. 10", "eps-DP iff L(p,eps) <= P_i <= U(p,eps) with probability 1",
         (_t32, _t39), "KZ-T3.2 (the bound is the event |Z| <= eps) and KZ-T3.9 with delta = 0 (eps' = eps)"),
        ("KZ-C3.7", "Corollary 3.7, Eq. 11", "eps-DP iff e^-eps <= P_i/p_i <= e^eps with probability 1",
         (_t33, _t39), "KZ-T3.3 (prior-free ratio bounds) and KZ-T3.9 with delta = 0"),
        ("KZ-C3.8", "Corollary 3.8, Eq. 12", "eps-DP iff |P_i - p_i| <= tau(eps) with probability 1",
         (_t35, _t39), "KZ-T3.5 (both directions; with delta = 0 the converse gives (eps, 0)) and KZ-T3.9"),
        ("KZ-C3.10", "Corollary 3.10, Eqs. 13-14",
         "posterior bounds w.p. 1 - delta imply (eps, delta)-DP; (eps, delta)-DP gives them at eps' w.p. 1 - delta'",
         (_t25, _t39_gauss), "(1) KZ-T3.2 + KZ-T2.5 (PDP implies DP); (2) KZ-T3.9 on the Gaussian mechanism"),
        ("KZ-C3.11", "Corollary 3.11, Eqs. 15-16",
         "ratio bounds w.p. 1 - delta imply (eps, delta)-DP; (eps, delta)-DP gives [e^-eps', e^eps'] w.p. 1 - delta'",
         (_t33, _t39_gauss), "KZ-T3.3 (ratio event = PDP event up to the prior-free envelope) and KZ-T3.9"),
        ("KZ-C3.12", "Corollary 3.12, Eqs. 17-18",
         "difference bound w.p. 1 - delta implies (eps, 2 delta)- and (eps~, delta)-DP; (eps, delta)-DP gives "
         "|Delta| <= tau(eps') w.p. 1 - delta'",
         (_t35, _t39_gauss), "KZ-T3.5 (2) with KZ-T2.5, and KZ-T3.9 with KZ-L3.4 (the difference event contains "
         "the posterior event)")):
    claim(_id, ("002",), SOURCE + ", " + _src, "iff", _stmt)(
        lambda parts=_parts, how=_how: _both(parts[0], parts[1], how))
