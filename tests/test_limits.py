"""The zero-noise limit (issue #11: "mu = inf / eps = inf: delta(eps) = 1, eps = inf").

Reference: the finite records at a large parameter (computed by their own closed forms, which
do not involve the limit record): the limit record's f, power, profile and AUC must be the limit
of theirs, e.g. |f_limit(alpha) - f_finite(alpha)| <= f_finite(alpha) itself, tiny at mu = 60.
"""

from __future__ import annotations

import mpmath
import pytest

from derive.errors import DomainError
from derive.mechanisms.table import BY_NAME
from numeric import mp
from numeric.auc import auc

CASES = [("gaussian", {"mu": "inf"}, {"mu": "60"}),
         ("laplace", {"eps": "inf"}, {"eps": "400"}),
         ("randomized-response", {"eps": "inf"}, {"eps": "400"}),
         ("approx-dp", {"eps": "inf", "delta": "0.1"}, {"eps": "400", "delta": "0.1"}),
         ("classical-gaussian", {"eps": "inf", "delta": "1e-5"}, {"eps": "300", "delta": "1e-5"})]


@pytest.mark.parametrize("name, limit, finite", CASES, ids=[c[0] for c in CASES])
def test_limit_record_is_the_limit_of_the_finite_records(name, limit, finite):
    m = BY_NAME[name]
    lim, fin = m.build(limit), m.build(finite)
    for a in ("1e-30", "0.1", "0.5", "1"):
        f_fin = mp.tradeoff(fin, a, 20)
        assert mp.tradeoff(lim, a, 20) == 0
        assert f_fin < mpmath.mpf("1e-30"), (name, a, f_fin)          # the finite record is already ~ 0
        assert mp.power(lim, a, 20) == 1
    # delta(eps) -> 1 and eps(delta) -> inf
    assert mp.profile_delta(lim, "2", 20) == 1
    assert 1 - mp.profile_delta(fin, "2", 20) < mpmath.mpf("1e-3")
    assert mpmath.isinf(mp.profile_eps(lim, "1e-5", 20))
    assert mp.profile_eps(fin, "1e-5", 20) > 50
    assert abs(auc(lim, 20) - 1) == 0 and 1 - auc(fin, 20) < mpmath.mpf("1e-20")
    assert "inf" in str(lim)


def test_no_limit_where_the_limit_is_not_zero():
    # uniform sampling with add-remove neighbours tends to (n - 1)(1 - alpha)/n, not 0: refused
    with pytest.raises(DomainError) as exc:
        BY_NAME["uniform-sampling"].build({"mu": "inf", "n": "3"}, {"neighbours": "add-remove"})
    assert exc.value.parameter == "mu"


def test_finite_parameters_are_still_checked():
    with pytest.raises(DomainError) as exc:
        BY_NAME["approx-dp"].build({"eps": "inf", "delta": "2"})
    assert exc.value.parameter == "delta"
