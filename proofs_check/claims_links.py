"""Claims of seed 004 (Su 2025, Sec. 1.1 link functions; catalog 004) on Renyi, KL, zCDP and total
variation of the toolkit's records, each checked on ``numeric.functionals`` (what ``dp-derive link``
and ``dp-derive functional`` call) against a form that does not go through the trade-off function:

* Mironov-Renyi:laplace: D_lambda of the Laplace pair against Mironov (2017) Prop. 6,
  log(lambda/(2 lambda - 1) e^((lambda - 1) eps) + (lambda - 1)/(2 lambda - 1) e^(-lambda eps))/(lambda - 1);
* SU-kl:laplace: kl(f) of Laplace against KL(Lap(0, 1/eps) || Lap(1, 1/eps)) integrated over the real
  line from the two densities (mpmath.quad, split at 0 and 1);
* SU-link:gdp-renyi: D_lambda(G_mu) = lambda mu^2/2 against the toolkit's *quadrature* route;
* CKS20:DG-functionals: the discrete Gaussian's kl and zCDP rho are 1/(2 sigma^2) (Canonne, Kamath,
  Steinke 2020) and its TV is 1/theta_3(0, e^(-1/(2 sigma^2))) (the sum of (p1 - p0)_+ telescopes to
  the mass at 0), against the toolkit's sums over the integers.
"""

from __future__ import annotations

import mpmath

from numeric.bridge import mpf_of

from .outcomes import agreement
from .registry import claim

SU = "Su (2025) seed 004"




@claim("Mironov-Renyi:laplace", ("004",), SU + ", Sec. 1.1 (link to Renyi DP); Mironov (2017) Prop. 6", "identity",
       "D_lambda(Lap) = log(lambda/(2 lambda - 1) e^((lambda - 1) eps) + (lambda - 1)/(2 lambda - 1) e^(-lambda eps))"
       " / (lambda - 1)",
       latex=r"D_\lambda=\frac{1}{\lambda-1}\log\Bigl(\frac{\lambda}{2\lambda-1}e^{(\lambda-1)\varepsilon}"
             r"+\frac{\lambda-1}{2\lambda-1}e^{-\lambda\varepsilon}\Bigr)")
def _renyi_laplace():
    import derive

    def mironov(e, l):
        return mpmath.log(l / (2 * l - 1) * mpmath.exp((l - 1) * e) + (l - 1) / (2 * l - 1) * mpmath.exp(-l * e)) / (l - 1)
    return agreement(_renyi_rows(derive.laplace, ("0.1", "1", "3"), ("1.5", "10", "100"), mironov),
                     mpmath.mpf(10) ** -22, "numeric.functionals.link(.., 'renyi') vs Mironov's closed form")


def _renyi_rows(make, eps_values, orders, reference):
    """({eps, order}, the toolkit's D_lambda by numeric.functionals.link, reference(eps, lambda) at 50 digits)."""
    from numeric import functionals as F
    for eps in eps_values:
        rec = make(eps)
        for lam in orders:
            got = mpf_of(F.link(rec, "renyi", order=lam, digits=25).value)
            with mpmath.workdps(50):
                ref = reference(mpmath.mpf(eps), mpmath.mpf(lam))
            yield {"eps": eps, "order": lam}, got, ref


@claim("SU-kl:laplace", ("004",), SU + ", Sec. 3.3 (kl(f) of a pair is KL(P || Q))", "identity",
       "kl(f) of the Laplace mechanism equals KL(Lap(0, 1/eps) || Lap(1, 1/eps)) integrated from the densities")
def _kl_laplace():
    import derive
    from numeric import functionals as F

    def rows():
        for eps in ("0.01", "0.5", "2", "8"):
            got = mpf_of(F.functional(derive.laplace(eps), "kl", digits=25).value)
            with mpmath.workdps(40):
                e = mpmath.mpf(eps)

                def integrand(x):
                    # p log(p/q) with p = Lap(0, 1/eps), q = Lap(1, 1/eps): log(p/q) = eps (|x - 1| - |x|)
                    return e / 2 * mpmath.exp(-e * abs(x)) * e * (abs(x - 1) - abs(x))
                ref = mpmath.quad(integrand, [-mpmath.inf, 0, 1, mpmath.inf])
            yield {"eps": eps}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -22,
                     "numeric.functionals (integral of log|f'| over the record) vs int p log(p/q) over the real line")


@claim("SU-link:gdp-renyi", ("004",), SU + ", Sec. 1.1 (G_mu <-> Renyi of a Gaussian pair)", "identity",
       "D_lambda(G_mu) = lambda mu^2 / 2 for every order lambda > 1")
def _renyi_gdp():
    import derive
    from numeric import functionals as F

    def rows():
        for mu in ("0.3", "2.5"):
            for lam in ("1.25", "3", "20"):
                got = mpf_of(F.functional(derive.gaussian(mu), "renyi", order=lam, digits=20, method="quadrature").value)
                with mpmath.workdps(40):
                    yield {"mu": mu, "order": lam}, got, mpmath.mpf(lam) * mpmath.mpf(mu) ** 2 / 2
    return agreement(rows(), mpmath.mpf(10) ** -18,
                     "numeric.functionals by quadrature (tanh-sinh in z = PhiInv(alpha)) vs lambda mu^2/2")


@claim("CKS20:DG-functionals", ("004",), SU + ", Sec. 4.4; Canonne, Kamath, Steinke (2020)", "identity",
       "for the discrete Gaussian N_Z(0, s2) vs N_Z(1, s2): kl = rho = 1/(2 s2) and TV = 1/theta_3(0, e^(-1/(2 s2)))")
def _dg_functionals():
    import derive
    from numeric import functionals as F

    def rows():
        for s2 in ("0.25", "2", "50"):
            rec = derive.discrete_gaussian(s2)
            with mpmath.workdps(40):
                x = mpmath.mpf(s2)
                refs = {"kl": 1 / (2 * x), "zcdp": 1 / (2 * x),
                        "tv": 1 / mpmath.jtheta(3, 0, mpmath.exp(-1 / (2 * x)))}
            for name, ref in refs.items():
                got = mpf_of(F.link(rec, name, digits=25).value)
                yield {"sigma2": s2, "functional": name}, got, ref
    return agreement(rows(), mpmath.mpf(10) ** -22,
                     "numeric.functionals (sums over the integers) vs 1/(2 s2) and the theta function")


@claim("SU-link:rr-renyi", ("004",), SU + ", Sec. 1.1 (link to Renyi DP) for f_{eps,0}", "identity",
       "D_lambda(f_{eps,0}) = log(a^lambda (1 - a)^(1 - lambda) + (1 - a)^lambda a^(1 - lambda)) / (lambda - 1), "
       "a = e^eps/(1 + e^eps): the Renyi divergence of the two-point randomized-response pair")
def _renyi_rr():
    import derive

    def two_outcomes(e, l):
        a = 1 / (1 + mpmath.exp(-e))
        return mpmath.log(a**l * (1 - a) ** (1 - l) + (1 - a) ** l * a ** (1 - l)) / (l - 1)
    return agreement(_renyi_rows(derive.randomized_response, ("0.05", "1", "4"), ("1.5", "2", "30"), two_outcomes),
                     mpmath.mpf(10) ** -22,
                     "numeric.functionals.link(.., 'renyi') (SymPy integral of |f'|^(1 - lambda)) vs the sum over "
                     "the two outcomes of the pair")
