"""mpmath with and without the gmpy2 backend (issue #11 item 3: "optional gmpy2 backend only if it
measurably helps").  Run: ``python bench/gmpy_backend.py`` (with gmpy2 installed, e.g. the ``fast``
extra) and ``MPMATH_NOGMPY=1 python bench/gmpy_backend.py``; the first line of each says which
backend mpmath chose.  Medians of repeated calls."""
import sys

sys.path.insert(0, ".")
import statistics
import time

import mpmath.libmp

import derive
from numeric import compose_exact as X
from numeric import mp

g = derive.gaussian("1")
def med(f, n):
    f(); ts=[]
    for _ in range(n):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    return statistics.median(ts)*1e3
print(mpmath.libmp.BACKEND,
      "tail 1e-20: %.2f ms" % med(lambda: mp.power(g, "1e-20", 15), 50),
      "30-digit tradeoff 1e-300: %.2f ms" % med(lambda: mp.tradeoff(g, "1e-300", 30), 50),
      "eps(delta) 30: %.2f ms" % med(lambda: mp.profile_eps(g, "1e-5", 30), 20),
      "1000 digits: %.2f ms" % med(lambda: mp.power(g, "1e-20", 1000), 5),
      "laplace^10 f 30 digits: %.0f ms" % med(lambda: X.tradeoff("laplace", {"eps": "0.1"}, 10, "0.05", 30), 2))
