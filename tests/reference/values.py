"""High-precision reference values for the trade-off-function toolkit tests.

AUTO-GENERATED -- do not edit by hand.  Regenerate (from the repository root) with:

    python tests/reference/make_references.py

Generated with mpmath 1.3.0 and sympy 1.14.0 by a standalone script that does
not import the project.  All inputs are exact decimal strings (keys); all values
are decimal strings with 40 significant digits (mpmath.nstr(v, 40)), with
trailing zeros dropped.  All precision is set locally with mpmath.workdps(...).

GAUSSIAN[(mu, alpha)] = {"beta": G_mu(alpha), "power": 1 - G_mu(alpha)},
    G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu).
    Method A (all alpha except 1e-100000): naive formula at working precision
    dps = 80 + 1.1*log10(1/min(alpha, 1-alpha)):  z = sqrt(2)*erfinv(1 - 2*alpha),
    beta = ncdf(z - mu), power = 1 - beta (cancellation absorbed by the extra digits).
    Method B (all alpha; the only method for alpha = 1e-100000): 400-step bisection
    at dps 60 on log(erfc(-x/sqrt2)/2) - log(alpha) for the alpha-quantile x (for
    alpha > 1/2 the complementary equation Phi(-x) = 1 - alpha, with 1 - alpha exact);
    power = erfc(-(x+mu)/sqrt2)/2, beta = erfc((x+mu)/sqrt2)/2.
    Stored values are method A where available, else method B.  A and B agree to
    >= 35 significant digits (relative) for both beta and power at every point
    (asserted).  Published checks asserted: (5, 1e-300) power = 1.2048...e-225,
    (1, 1e-1000) power = 1.6914...e-971,
    (1, 1e-300) power = 7.65717206478308680944708952631e-285 (all 30 digits).

LAPLACE[(eps, alpha)] = {"beta", "power"}: direct F(F^{-1}(1 - alpha) - eps) with the
    standard Laplace CDF F and quantile, same precision rule as Gaussian method A,
    power = 1 - beta.  Cross-checked (>= 38 digits, asserted) against the exact
    piecewise closed form evaluated in sympy (1 - e^eps a | e^-eps/(4a) | e^-eps(1-a)).

LOGISTIC[(mu, alpha)] = {"beta", "power"}: direct F(F^{-1}(1 - alpha) - mu) with
    F(x) = 1/(1+exp(-x)), same precision rule.  Cross-checked (>= 38 digits, asserted)
    against the exact sympy form beta = (1-a)/((1-a) + e^mu a).

APPROX_DP[(eps, delta, alpha)] = {"beta", "power"}:
    f(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)} on exact
    sympy Rationals (exp as sympy.exp(Rational)); the maximising branch is chosen
    by a 400-digit comparison; power = 1 - f formed exactly; evalf(40, strict=True).

GDP_PROFILE[(mu, eps)] = delta(eps) = sup_alpha (1 - e^eps alpha - G_mu(alpha)):
    brute force, no closed form: grid scan (step 1/4, t in [-25, 10]) then
    golden-section search over t with alpha = ncdf(t), G_mu evaluated naively
    (erfinv of 1 - 2 alpha) at dps 80; the objective is re-evaluated at the
    located t* at dps 120.  Asserted agreement with the closed form
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (dps 80) to >= 30 digits,
    and at least 40 trusted digits (see the check log below).

URS_F0[(mu, n)] = f(0) = 1 - p, p = (1 - exp(-mu))/n, exact sympy, evalf(40, strict=True).
    The seed paper's catalog numbers 0.980967483607, 0.873575888234, 0.816416999725
    (mu = 0.1, 1, 2.5) are reproduced by n = 0.1: [5], 1: [5], 2.5: [5]; those (mu, n) keys are included.

Check log (from the generating run, total runtime 10.7 s):
    GAUSSIAN (0.5, 1e-20): method A (dps 104) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (1, 1e-20): method A (dps 104) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (5, 1e-20): method A (dps 104) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (0.5, 1e-300): method A (dps 412) vs method B (bisection, dps 60): beta 60 digits, power 58 digits
    GAUSSIAN (1, 1e-300): method A (dps 412) vs method B (bisection, dps 60): beta 60 digits, power 59 digits
    GAUSSIAN (5, 1e-300): method A (dps 412) vs method B (bisection, dps 60): beta 60 digits, power 59 digits
    GAUSSIAN (0.5, 1e-1000): method A (dps 1182) vs method B (bisection, dps 60): beta 60 digits, power 58 digits
    GAUSSIAN (1, 1e-1000): method A (dps 1182) vs method B (bisection, dps 60): beta 60 digits, power 58 digits
    GAUSSIAN (5, 1e-1000): method A (dps 1182) vs method B (bisection, dps 60): beta 60 digits, power 58 digits
    GAUSSIAN (0.5, 1e-100000): bisection dps 60 vs bisection dps 90: power 56 digits; vs secant findroot dps 80: power 56, beta 60 digits
    GAUSSIAN (1, 1e-100000): bisection dps 60 vs bisection dps 90: power 56 digits; vs secant findroot dps 80: power 56, beta 60 digits
    GAUSSIAN (5, 1e-100000): bisection dps 60 vs bisection dps 90: power 56 digits; vs secant findroot dps 80: power 56, beta 60 digits
    GAUSSIAN (0.5, 0.05): method A (dps 83) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (1, 0.05): method A (dps 83) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (5, 0.05): method A (dps 83) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (0.5, 0.5): method A (dps 82) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (1, 0.5): method A (dps 82) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (5, 0.5): method A (dps 82) vs method B (bisection, dps 60): beta 60 digits, power 60 digits
    GAUSSIAN (0.5, 0.999999999999999999999999999999): method A (dps 115) vs method B (bisection, dps 60): beta 59 digits, power 60 digits
    GAUSSIAN (1, 0.999999999999999999999999999999): method A (dps 115) vs method B (bisection, dps 60): beta 59 digits, power 60 digits
    GAUSSIAN (5, 0.999999999999999999999999999999): method A (dps 115) vs method B (bisection, dps 60): beta 59 digits, power 60 digits
    published check ('5', '1e-300') power starts with 1.2048e-225: PASS
    published check ('1', '1e-1000') power starts with 1.6914e-971: PASS
    published check ('1','1e-300') power = 7.65717206478308680944708952631e-285: agrees to 30.5 digits (the published value has 30)
    LAPLACE (0.1, 1e-20): direct F(F^-1(1-a)-eps) at dps 104 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 1e-20): direct F(F^-1(1-a)-eps) at dps 104 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 1e-20): direct F(F^-1(1-a)-eps) at dps 104 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 1e-300): direct F(F^-1(1-a)-eps) at dps 412 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 1e-300): direct F(F^-1(1-a)-eps) at dps 412 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 1e-300): direct F(F^-1(1-a)-eps) at dps 412 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 0.1): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 0.1): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 0.1): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 0.3): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 0.3): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 0.3): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 0.5): direct F(F^-1(1-a)-eps) at dps 82 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 0.5): direct F(F^-1(1-a)-eps) at dps 82 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 0.5): direct F(F^-1(1-a)-eps) at dps 82 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 0.7): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 0.7): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 54, power 55 digits
    LAPLACE (2.5, 0.7): direct F(F^-1(1-a)-eps) at dps 83 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (0.1, 0.999999999999999999999999999999): direct F(F^-1(1-a)-eps) at dps 115 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (1, 0.999999999999999999999999999999): direct F(F^-1(1-a)-eps) at dps 115 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LAPLACE (2.5, 0.999999999999999999999999999999): direct F(F^-1(1-a)-eps) at dps 115 vs exact piecewise closed form (sympy): beta 55, power 55 digits
    LOGISTIC (0.5, 1e-20): direct at dps 104 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (1, 1e-20): direct at dps 104 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (0.5, 1e-300): direct at dps 412 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (1, 1e-300): direct at dps 412 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (0.5, 0.25): direct at dps 82 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (1, 0.25): direct at dps 82 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (0.5, 0.9): direct at dps 83 vs exact closed form (sympy): beta 55, power 55 digits
    LOGISTIC (1, 0.9): direct at dps 83 vs exact closed form (sympy): beta 55, power 55 digits
    APPROX_DP (1, 1e-5, 1e-300): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (1, 1e-5, 0.01): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (1, 1e-5, 0.2): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (1, 1e-5, 0.5): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (1, 1e-5, 0.99999): exact sympy, branch 0 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (0.5, 0, 1e-300): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (0.5, 0, 0.01): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (0.5, 0, 0.2): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (0.5, 0, 0.5): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (0.5, 0, 0.99999): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (3, 1e-300, 1e-300): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (3, 1e-300, 0.01): exact sympy, branch 1 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (3, 1e-300, 0.2): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (3, 1e-300, 0.5): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    APPROX_DP (3, 1e-300, 0.99999): exact sympy, branch 2 of [0, 1-d-e^eps a, e^-eps(1-d-a)]
    GDP_PROFILE (1, 0): grid (step 1/4 on t in [-25,10]) + golden section over t = Phi^-1(alpha) at dps 80 (214 iterations, t*=-0.5), objective re-evaluated at dps 120; flatness-probe digits 85; agrees with closed form (dps 80) to 81 digits
    GDP_PROFILE (1, 1): grid (step 1/4 on t in [-25,10]) + golden section over t = Phi^-1(alpha) at dps 80 (214 iterations, t*=-1.5), objective re-evaluated at dps 120; flatness-probe digits 86; agrees with closed form (dps 80) to 81 digits
    GDP_PROFILE (0.5, 2): grid (step 1/4 on t in [-25,10]) + golden section over t = Phi^-1(alpha) at dps 80 (214 iterations, t*=-4.25), objective re-evaluated at dps 120; flatness-probe digits 83; agrees with closed form (dps 80) to 77 digits
    GDP_PROFILE (2, 1): grid (step 1/4 on t in [-25,10]) + golden section over t = Phi^-1(alpha) at dps 80 (214 iterations, t*=-1.5), objective re-evaluated at dps 120; flatness-probe digits 87; agrees with closed form (dps 80) to 81 digits
    GDP_PROFILE (1, 10): grid (step 1/4 on t in [-25,10]) + golden section over t = Phi^-1(alpha) at dps 80 (214 iterations, t*=-10.5), objective re-evaluated at dps 120; flatness-probe digits 72; agrees with closed form (dps 80) to 57 digits
    URS catalog f(0)=0.980967483607 (mu=0.1) reproduced (to 12 decimals) by n in [5]
    URS catalog f(0)=0.873575888234 (mu=1) reproduced (to 12 decimals) by n in [5]
    URS catalog f(0)=0.816416999725 (mu=2.5) reproduced (to 12 decimals) by n in [5]
"""


# keyed by (mu, alpha)
GAUSSIAN = {
    ('0.5', '1e-20'): {'beta': '0.9999999999999999990438085597626539830402', 'power': '9.561914402373460169598288836384423092842e-19'},
    ('1', '1e-20'): {'beta': '0.9999999999999999285779849269273983472235', 'power': '7.142201507307260165277646746827027689731e-17'},
    ('5', '1e-20'): {'beta': '0.9999898851372644150347414541423307851515', 'power': '0.00001011486273558496525854585766921484846874'},
    ('0.5', '1e-300'): {'beta': '1.0', 'power': '9.91472214425710699964811686680365548533e-293'},
    ('1', '1e-300'): {'beta': '1.0', 'power': '7.657172064783086809447089526307701842543e-285'},
    ('5', '1e-300'): {'beta': '1.0', 'power': '1.204830465608264078656815428090768019011e-225'},
    ('0.5', '1e-1000'): {'beta': '1.0', 'power': '4.66016931254787190481694360086955975551e-986'},
    ('1', '1e-1000'): {'beta': '1.0', 'power': '1.691428801695490315026168295749356821522e-971'},
    ('5', '1e-1000'): {'beta': '1.0', 'power': '6.29979948362800819352041935006748377234e-859'},
    ('0.5', '1e-100000'): {'beta': '1.0', 'power': '2.008259798393299017844164413834822499115e-99853'},
    ('1', '1e-100000'): {'beta': '1.0', 'power': '3.140988922918070986669906755682407563241e-99706'},
    ('5', '1e-100000'): {'beta': '1.0', 'power': '1.388023093014970035730045063686503634985e-98532'},
    ('0.5', '0.05'): {'beta': '0.8738651018065697072461640536831461426979', 'power': '0.1261348981934302927538359463168538573021'},
    ('1', '0.05'): {'beta': '0.7404889771585559293516965237010599664807', 'power': '0.2595110228414440706483034762989400335193'},
    ('5', '0.05'): {'beta': '0.0003966150045262920617335642628729555487968', 'power': '0.9996033849954737079382664357371270444512'},
    ('0.5', '0.5'): {'beta': '0.3085375387259868963622953893916622601164', 'power': '0.6914624612740131036377046106083377398836'},
    ('1', '0.5'): {'beta': '0.1586552539314570514147674543679620775221', 'power': '0.8413447460685429485852325456320379224779'},
    ('5', '0.5'): {'beta': '0.0000002866515718791939116737523328746453538544', 'power': '0.9999997133484281208060883262476671253546'},
    ('0.5', '0.999999999999999999999999999999'): {'beta': '2.741907099415263318211998493810668906353e-33', 'power': '0.9999999999999999999999999999999972580929'},
    ('1', '0.999999999999999999999999999999'): {'beta': '5.864903744980287117430159187111986362708e-36', 'power': '0.9999999999999999999999999999999999941351'},
    ('5', '0.999999999999999999999999999999'): {'beta': '3.326312214325091254350242197521261993241e-61', 'power': '1.0'},
}


# keyed by (eps, alpha)
LAPLACE = {
    ('0.1', '1e-20'): {'beta': '0.9999999999999999999889482908192435237519', 'power': '1.105170918075647624811707826490246668225e-20'},
    ('1', '1e-20'): {'beta': '0.9999999999999999999728171817154095476464', 'power': '2.718281828459045235360287471352662497757e-20'},
    ('2.5', '1e-20'): {'beta': '0.9999999999999999998781750603929652656193', 'power': '1.218249396070347343807017595116796618318e-19'},
    ('0.1', '1e-300'): {'beta': '1.0', 'power': '1.105170918075647624811707826490246668225e-300'},
    ('1', '1e-300'): {'beta': '1.0', 'power': '2.718281828459045235360287471352662497757e-300'},
    ('2.5', '1e-300'): {'beta': '1.0', 'power': '1.218249396070347343807017595116796618318e-299'},
    ('0.1', '0.1'): {'beta': '0.8894829081924352375188292173509753331775', 'power': '0.1105170918075647624811707826490246668225'},
    ('1', '0.1'): {'beta': '0.7281718171540954764639712528647337502243', 'power': '0.2718281828459045235360287471352662497757'},
    ('2.5', '0.1'): {'beta': '0.2052124965597469879238216861678995195945', 'power': '0.7947875034402530120761783138321004804055'},
    ('0.1', '0.3'): {'beta': '0.6684487245773057125564876520529259995326', 'power': '0.3315512754226942874435123479470740004674'},
    ('1', '0.3'): {'beta': '0.3065662009762019346629364751345507228715', 'power': '0.6934337990237980653370635248654492771285'},
    ('2.5', '0.3'): {'beta': '0.06840416551991566264127389538929983986484', 'power': '0.9315958344800843373587261046107001601352'},
    ('0.1', '0.5'): {'beta': '0.4524187090179797865821245297232183105974', 'power': '0.5475812909820202134178754702767816894026'},
    ('1', '0.5'): {'beta': '0.1839397205857211607977618850807304337229', 'power': '0.8160602794142788392022381149192695662771'},
    ('2.5', '0.5'): {'beta': '0.0410424993119493975847643372335799039189', 'power': '0.9589575006880506024152356627664200960811'},
    ('0.1', '0.7'): {'beta': '0.2714512254107878719492747178339309863584', 'power': '0.7285487745892121280507252821660690136416'},
    ('1', '0.7'): {'beta': '0.1103638323514326964786571310484382602337', 'power': '0.8896361676485673035213428689515617397663'},
    ('2.5', '0.7'): {'beta': '0.02462549958716963855085860234014794235134', 'power': '0.9753745004128303614491413976598520576487'},
    ('0.1', '0.999999999999999999999999999999'): {'beta': '9.048374180359595731642490594464366211947e-31', 'power': '0.999999999999999999999999999999095162582'},
    ('1', '0.999999999999999999999999999999'): {'beta': '3.678794411714423215955237701614608674458e-31', 'power': '0.9999999999999999999999999999996321205588'},
    ('2.5', '0.999999999999999999999999999999'): {'beta': '8.20849986238987951695286744671598078378e-32', 'power': '0.9999999999999999999999999999999179150014'},
}


# keyed by (mu, alpha)
LOGISTIC = {
    ('0.5', '1e-20'): {'beta': '0.9999999999999999999835127872929987185316', 'power': '1.648721270700128146837955182236574400769e-20'},
    ('1', '1e-20'): {'beta': '0.9999999999999999999728171817154095476469', 'power': '2.718281828459045235313579728647946447839e-20'},
    ('0.5', '1e-300'): {'beta': '1.0', 'power': '1.648721270700128146848650787814163571654e-300'},
    ('1', '1e-300'): {'beta': '1.0', 'power': '2.718281828459045235360287471352662497757e-300'},
    ('0.5', '0.25'): {'beta': '0.6453387556075566072703832048868723854364', 'power': '0.3546612443924433927296167951131276145636'},
    ('1', '0.25'): {'beta': '0.524633113581328308902346517389537589856', 'power': '0.475366886418671691097653482610462410144'},
    ('0.5', '0.9'): {'beta': '0.06313732617918662645175199974755701369096', 'power': '0.936862673820813373548248000252442986309'},
    ('1', '0.9'): {'beta': '0.03927030055005057041483643985157767245294', 'power': '0.9607296994499494295851635601484223275471'},
}


# keyed by (eps, delta, alpha)
APPROX_DP = {
    ('1', '1e-5', '1e-300'): {'beta': '0.99999', 'power': '0.00001'},
    ('1', '1e-5', '0.01'): {'beta': '0.9728071817154095476463971252864733750224', 'power': '0.02719281828459045235360287471352662497757'},
    ('1', '1e-5', '0.2'): {'beta': '0.4563336343081909529279425057294675004485', 'power': '0.5436663656918090470720574942705324995515'},
    ('1', '1e-5', '0.5'): {'beta': '0.1839360417913094463745459298430288191142', 'power': '0.8160639582086905536254540701569711808858'},
    ('1', '1e-5', '0.99999'): {'beta': '0.0', 'power': '1.0'},
    ('0.5', '0', '1e-300'): {'beta': '1.0', 'power': '1.648721270700128146848650787814163571654e-300'},
    ('0.5', '0', '0.01'): {'beta': '0.9835127872929987185315134921218583642835', 'power': '0.01648721270700128146848650787814163571654'},
    ('0.5', '0', '0.2'): {'beta': '0.6702557458599743706302698424371672856693', 'power': '0.3297442541400256293697301575628327143308'},
    ('0.5', '0', '0.5'): {'beta': '0.303265329856316711801899767495590226721', 'power': '0.696734670143683288198100232504409773279'},
    ('0.5', '0', '0.99999'): {'beta': '0.000006065306597126334236037995349911804534419', 'power': '0.9999939346934028736657639620046500881955'},
    ('3', '1e-300', '1e-300'): {'beta': '1.0', 'power': '2.108553692318766774092852965458171789699e-299'},
    ('3', '1e-300', '0.01'): {'beta': '0.7991446307681233225907147034541828210301', 'power': '0.2008553692318766774092852965458171789699'},
    ('3', '1e-300', '0.2'): {'beta': '0.03982965469429115438347393252004942130536', 'power': '0.9601703453057088456165260674799505786946'},
    ('3', '1e-300', '0.5'): {'beta': '0.02489353418393197148967120782503088831585', 'power': '0.9751064658160680285103287921749691116842'},
    ('3', '1e-300', '0.99999'): {'beta': '0.000000497870683678639429793424156500617766317', 'power': '0.9999995021293163213605702065758434993822'},
}


# keyed by (mu, eps)
GDP_PROFILE = {
    ('1', '0'): '0.3829249225480262072754092212166754797672',
    ('1', '1'): '0.1269367375066439458008296247577668804151',
    ('0.5', '2'): '0.000009439168634947233758511266964030394362353',
    ('2', '1'): '0.5098616600546701530762388459744423601823',
    ('1', '10'): '9.81270582684695594922331111863428937575e-23',
}


# keyed by (mu, n)
URS_F0 = {
    ('0.1', 1): '0.9048374180359595731642490594464366211947',
    ('1', 1): '0.3678794411714423215955237701614608674458',
    ('2.5', 1): '0.0820849986238987951695286744671598078378',
    ('1', 5): '0.8735758882342884643191047540322921734892',
    ('0.1', 5): '0.9809674836071919146328498118892873242389',
    ('2.5', 5): '0.8164169997247797590339057348934319615676',
}
