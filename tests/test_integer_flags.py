"""Integer flags written as 1e3 or 100.0 (twelfth session's probe: ``int('1e3')`` tracebacks in compose fdp,
clt and shuffle).  Each form must give the same answer as the plain integer, exit 0, no traceback."""

from __future__ import annotations

import json

import pytest

from proofs_check.cli import main

CASES = [
    (["compose", "fdp", "gaussian", "--mu", "1", "--k", "{}", "--at-delta", "1e-5"], "1e3", "1000"),
    (["clt", "gaussian", "--mu", "1", "--k", "{}", "--alpha", "0.1"], "1e1", "10"),
    (["shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "{}", "--at-delta", "1e-6"], "100.0", "100"),
    (["shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "100", "--rounds", "{}", "--at-delta",
      "1e-6"], "2e0", "2"),
    (["shuffle", "--randomizer", "k-rr", "--k", "{}", "--eps0", "1", "--n", "50", "--at-delta", "1e-6"], "3e0", "3"),
]


def _run(argv, capsys):
    code = main(argv + ["--json"])
    out = capsys.readouterr()
    assert code == 0 and "Traceback" not in out.err
    got = json.loads(out.out)
    got.pop("seconds", None)
    return got


@pytest.mark.parametrize("argv, written, plain", CASES)
def test_integer_written_as_a_decimal_is_the_integer(argv, written, plain, capsys):
    key = argv[argv.index("{}") - 1].lstrip("-")          # the varied flag's echo may keep the text as typed
    a = _run([t.format(written) for t in argv], capsys)
    b = _run([t.format(plain) for t in argv], capsys)
    assert str(a.pop(key)) in (written, plain) and str(b.pop(key)) == plain
    assert a == b


def test_a_fraction_for_an_integer_flag_is_refused(capsys):
    code = main(["compose", "fdp", "gaussian", "--mu", "1", "--k", "2.5", "--at-delta", "1e-5"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "k" in err


def test_an_infinite_count_is_refused_in_one_plain_sentence(capsys):
    code = main(["shuffle", "--reduction", "standard-clone", "--eps0", "1", "--n", "inf", "--at-delta", "1e-6"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "n must be an integer in [1, 100000000]" in err        # was "a finite number an integer in"
