"""The mechanism protocol (issue #24): every row of the table builds a record whose facts are true.

Consumers trust a record's identity fact (``derive/mechanisms/facts.py``) instead of its name, so a wrong
fact would send a mechanism down another mechanism's closed form.  Each identity is checked here against
the known function it names, written out independently with mpmath at 40 digits (G_mu from erfc, the
(eps, delta) polygon, the three Laplace pieces, the logistic pair from its CDF), at several levels.
"""

from __future__ import annotations

import mpmath
import pytest

from derive.mechanisms import facts as K
from derive.mechanisms.table import TABLE, lookup
from numeric import mp

SAMPLES = {
    "gaussian": [{"mu": "0.7"}],
    "laplace": [{"eps": "0.9"}],
    "approx-dp": [{"eps": "0.5", "delta": "0.01"}],
    "randomized-response": [{"eps": "0.8"}],
    "classical-gaussian": [{"eps": "0.5", "delta": "1e-5"}],
    "uniform-sampling": [{"mu": "1", "n": "10"}],
    "discrete-gaussian": [{"sigma2": "2"}],
    "noise": [{"mu": "0.6"}],
    "geometric": [{"eps": "0.4"}],
    "exponential": [{"eps": "1.2", "outcomes": "5"}],
}
FAMILIES = {"noise": ("logistic", "laplace", "gaussian")}
LEVELS = ("1e-9", "0.07", "0.4", "0.75")


def _cases():
    for row in TABLE:
        for params in SAMPLES[row.name]:
            for family in FAMILIES.get(row.name, (None,)):
                yield row.name, params, ({"family": family} if family else None)


def _phi(x):
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def _phi_inv(p):
    return -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * p)


def _known(key, value, a):
    """The function the identity ``key`` names, at level a (40 digits, written here)."""
    if key == K.GDP_MU:
        return _phi(-_phi_inv(a) - value)
    if key == K.EPS_DELTA:
        e, d = value
        return max(0, 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))
    if key == K.LAPLACE_EPS:
        e = value
        if a < mpmath.exp(-e) / 2:
            return 1 - mpmath.exp(e) * a
        return mpmath.exp(-e) / (4 * a) if a <= mpmath.mpf(1) / 2 else mpmath.exp(-e) * (1 - a)
    if key == K.LOGISTIC_SHIFT:            # F(F^-1(1 - a) - m), F the logistic CDF
        return 1 / (1 + mpmath.exp(-(mpmath.log((1 - a) / a) - value)))
    return None


def _mpf(v):
    return tuple(mpmath.mpf(str(x.evalf(50))) for x in v) if hasattr(v, "__len__") else mpmath.mpf(str(v.evalf(50)))


def identity_errors(record) -> list:
    """(key, level, record's f, the named function) wherever they differ by more than 1e-30 relative."""
    bad = []
    for key in (k for k in K.IDENTITIES if k in record.facts):
        value = record.fact(key)
        if key in (K.NO_PRIVACY, K.DG_SIGMA2):
            continue
        with mpmath.workdps(40):
            for level in LEVELS:
                a = mpmath.mpf(level)
                got = mpmath.mpf(str(mp.tradeoff(record, level, 35)))
                ref = _known(key, _mpf(value), a)
                if abs(got - ref) > mpmath.mpf(10) ** -30 * max(abs(ref), mpmath.mpf(10) ** -300):
                    bad.append((key, level, got, ref))
    return bad


@pytest.mark.parametrize("name,params,options", list(_cases()))
def test_each_record_declares_at_most_one_identity_and_it_is_true(name, params, options):
    record = lookup(name).build(params, options)
    identities = [k for k in K.IDENTITIES if k in record.facts]
    assert len(identities) <= 1, (name, identities)
    assert not identity_errors(record), identity_errors(record)


def test_the_identities_cover_the_mechanisms_the_consumers_serve():
    """Every row but uniform sampling (f_{0,p} with replacement neighbours is left to the generic routes,
    and the add-remove form is none of the known functions) says what it is."""
    silent = [row.name for row in TABLE for p in SAMPLES[row.name]
              if not any(k in row.build(p, {"family": "logistic"} if row.name == "noise" else None).facts
                         for k in K.IDENTITIES)]
    assert silent == ["uniform-sampling"], silent


def test_infinite_parameter_is_no_privacy():
    record = lookup("exponential").build({"eps": "inf", "outcomes": "3"})
    assert record.fact(K.NO_PRIVACY) is True


def test_the_check_catches_a_wrong_identity():
    """A geometric record that claimed to be the Laplace pair would be caught."""
    import dataclasses
    record = lookup("geometric").build({"eps": "0.4"})
    eps = record.facts[K.EPS_DELTA][0][0]
    wrong = dataclasses.replace(record, facts={K.LAPLACE_EPS: (eps, "wrong")})
    assert identity_errors(wrong)
