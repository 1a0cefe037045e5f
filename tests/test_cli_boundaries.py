"""Every number flag of every computing command at its boundaries (issue #11, item 1).

For each subcommand, the first example of its --help is the base command; each numeric flag in it
(and each mechanism parameter) is replaced in turn by: 0, the ends of its domain (read from the
domain table through the flag's argparse type), 1e-300, 1e300, inf, nan, a negative value, a
non-number, and the flag repeated.  The outcome must be exit 0 with a well-formed answer or exit 2
with one line on stderr (tests/test_cli_fuzz.check_outcome), within the time bound; a value outside
the domain must be exit 2 and name the flag's parameter.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

import pytest

from derive.domains import DOMAINS
from proofs_check.cli import build_parser
from test_cli_fuzz import BOUND, check_outcome, run_in_process

SKIP = {"check", "reproduce"}
VALUES = ["0", "1e-300", "1e300", "inf", "nan", "-1", "abc"]
#: known defects: label -> (exception the test raises, reason naming the issue item); each case becomes
#: xfail(strict=True, raises=...), so a fix fails the run until its entry is removed.  Empty since 6871e93:
#: the twelve defects of a870ed9 (mpmath erfc overflow, issue #11 items 1 and 4: tradeoff/profile/auc/risk/
#: posterior --mu 1e300, profile --mu 1e-300, profile --at-eps 1e300, ztest --sigma 1e-300, ztest --m 1e300,
#: pr --eps 0, pr --alpha 0, fscore --beta 1e-300) all answer or refuse in one line, and run as plain cases.
KNOWN: dict[str, tuple[type[BaseException], str]] = {}


def _commands(parser, prefix=()):
    """(name, parser) of every leaf command, nested ones (compose pure|zcdp|fdp) included."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        yield " ".join(prefix), parser
        return
    for name, p in sub.choices.items():
        yield from _commands(p, prefix + (name,))


def _cases():
    cases = []
    for name, p in _commands(build_parser()):
        if name in SKIP:
            continue
        example = next(line.strip() for line in p.epilog.splitlines() if line.strip().startswith("dp-derive "))
        base = example.split()[1:]
        flags = {a.option_strings[0]: a for a in p._actions if a.option_strings}
        for i, tok in enumerate(base):
            action = flags.get(tok)
            if action is None or action.nargs == 0 or i + 1 >= len(base):
                continue
            key = getattr(action.type, "domain_key", None)
            values = list(VALUES)
            if key is not None:
                d = DOMAINS[key]
                values += [str(e) for e in (d.low, d.high) if e is not None]
            for v in dict.fromkeys(values):
                argv = base[:i + 1] + [v] + base[i + 2:]
                cases.append((f"{name} {tok} {v}", argv, key, action.dest))
            cases.append((f"{name} {tok} repeated", base[:i + 2] + [tok, base[i + 1]] + base[i + 2:], None, None))
    return cases


CASES = _cases()
assert not set(KNOWN) - {c[0] for c in CASES}, f"KNOWN names no case: {sorted(set(KNOWN) - {c[0] for c in CASES})}"


#: cases that take seconds each (whole figure sets written, a 10^7-fold CLT, DP-SGD at its extremes): run with
#: ``-m slow`` (CI runs both); one ``figures --out`` case stays in the default run.  ``dpsgd --steps 10000000``
#: (~12 s) and ``shuffle --n 100000000`` (~5 s), the domains' upper ends, joined them (test-suite timing):
#: the other --steps / --n cases of the same commands stay in the default run
SLOW = {"dpsgd --steps 1", "clt --k 10000000", "plot --mu 1e300", "dpsgd --at-delta 1e-300",
        "dpsgd --steps 10000000", "shuffle --n 100000000", "dpsgd --batch 1"}
#: (``dpsgd --batch 1`` is q = 1/60000: refused in 4 s until its window retry on a coarser grid, now answered
#: in ~15 s)
#: larger time bounds (seconds) than the fuzz's 20: plot of G_1e300 takes 4 s alone, but over 20 s late in the
#: full `-m slow` run (twice on 2026-11-27, not reproduced with test_cli's slow tests before it): an
#: order-dependent slowdown recorded on issue #25 to find; the case checks the answer's form, not its speed
BOUNDS = {"plot --mu 1e300": 90,
          # ~12 s wall alone here (9.3 s CPU: a refused default-grid pass, then the coarser-grid answer); CI on
          # 2026-11-28 stopped it at 20 s late in the slow run (stop 35).  The case checks the answer's form.
          "dpsgd --batch 1": 90}


def _slow(label: str) -> bool:
    return label in SLOW or (label.startswith("figures --out ") and label != "figures --out abc")


def _param(case):
    marks = [pytest.mark.slow] if _slow(case[0]) else []
    if case[0] in KNOWN:
        raises, reason = KNOWN[case[0]]
        marks.append(pytest.mark.xfail(strict=True, raises=raises, reason=reason))
    return pytest.param(*case, marks=marks, id=case[0])


def _outside(key, text) -> bool:
    if key is None:
        return False
    try:
        v = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text.lower() not in ("inf",) or DOMAINS[key].high is not None
    d = DOMAINS[key]
    return ((d.low is not None and (v < d.low or (d.low_open and v == d.low)))
            or (d.high is not None and (v > d.high or (d.high_open and v == d.high))))


def test_every_command_is_covered():
    commands = {c[0].rsplit(" --", 1)[0] for c in CASES}
    assert len(commands) >= 15, commands


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Commands that write files (plot --out) write them into a temporary directory."""
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("label, argv, key, dest", [_param(c) for c in CASES])
def test_boundary(label, argv, key, dest):
    # a raise or a time-out fails in run_in_process (pytest.fail.Exception), a malformed answer in
    # check_outcome or below (AssertionError): the raises= of a KNOWN entry says which
    rc, out, err = run_in_process(argv, BOUNDS.get(label, BOUND))
    check_outcome(argv, rc, out, err)
    if label.endswith("repeated"):
        assert rc == 2 and "given twice" in err, err
    elif key is not None and _outside(key, argv[argv.index(label.split()[-2]) + 1]):
        assert rc == 2, f"{label}: outside {DOMAINS[key].describe()} but exit {rc}"

