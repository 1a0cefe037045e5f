"""README.md tells the truth (issue #11, item 8): every ```console block's commands print exactly
what the README shows (stdout, or the one stderr line of an error), run in-process."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from cli_runner import without_progress
from proofs_check.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def _examples():
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = [line[2:], []]
                out.append(current)
            else:
                assert current is not None, f"output before any command in a console block: {line!r}"
                current[1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


EXAMPLES = _examples()


def test_there_are_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(command, expected):
    argv = shlex.split(command)
    assert argv[0] == "dp-derive"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv[1:])
    shown = (out.getvalue() + without_progress(err.getvalue())).rstrip("\n")   # a run over 2 s reports progress
    assert shown == expected
    assert rc == (2 if expected.startswith("dp-derive: error:") else 0)


@pytest.mark.slow
def test_readme_python_session():
    """The ```pycon blocks are one doctest session."""
    import doctest
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    result = runner.run(test, out=out.write)
    assert result.failed == 0, out.getvalue()


# ------------------------------------------------------------------ the numbers README states about the code
# (issue #25, item 5): each comes from a generated block of bench/readme_numbers.py or is checked below.
import sys  # noqa: E402

sys.path.insert(0, str(README.parent / "bench"))
import readme_numbers as RN  # noqa: E402

sys.path.remove(str(README.parent / "bench"))


def _readme_text():
    return " ".join(README.read_text(encoding="utf-8").split())


def _blocks():
    return RN.blocks(README.read_text(encoding="utf-8"))


def test_readme_has_every_generated_block():
    assert sorted(_blocks()) == sorted(RN.BLOCKS)


@pytest.mark.parametrize("name", [*RN.COUNTS, *RN.FROM_BENCHMARKS])
def test_readme_counts_are_the_codes(name):
    """Counts (from the registry, tests/expected_status.json and the reproduce tables) and the figures
    taken from BENCHMARKS.md are what the code gives now: `python bench/readme_numbers.py` rewrites them."""
    shown, now = _blocks()[name], RN.render(name)
    assert shown == now, f"README's {name} block is stale: run python bench/readme_numbers.py {name}"
    values = RN.parse(name, shown)
    assert values is not None
    for field in values:                         # each number of the block is read from the code
        assert RN.render(name, {**values, field: values[field] + "1"}) != shown


def test_readme_counts_follow_the_registry(monkeypatch):
    """A claim registered without a row in tests/expected_status.json stops the count (it is not guessed)."""
    from proofs_check import checker
    claims = checker.select()
    extra = claims[0].__class__("README-count-probe", ("000",), "test", "value", "probe", lambda: None)
    monkeypatch.setattr(checker, "select", lambda *a, **k: [*claims, extra])
    with pytest.raises(SystemExit, match="README-count-probe"):
        RN.check_counts()


@pytest.mark.parametrize("name", list(RN.MEASURED))
def test_readme_measured_blocks_have_the_scripts_form(name):
    """Timings are machine-dependent: the block must be the script's output (its template) with a
    plausible time; the deterministic values beside it are compared in the slow run (below)."""
    values = RN.parse(name, _blocks()[name])
    assert values is not None, f"README's {name} block is not in bench/readme_numbers.py's form"
    for field in RN.BLOCKS[name][2]:
        assert 0 < float(values[field]) < 60, (field, values[field])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RN.MEASURED))
def test_readme_measured_blocks_values_are_todays(name):
    shown = RN.parse(name, _blocks()[name])
    now = RN.BLOCKS[name][1]()
    timing = RN.BLOCKS[name][2]
    assert {k: v for k, v in shown.items() if k not in timing} == {k: v for k, v in now.items() if k not in timing}


def test_readme_inconclusive_claims_are_named():
    """README names the INCONCLUSIVE claims: seed 001's Theorems 4, 5 and 7."""
    import json
    table = json.loads(RN.EXPECTED_STATUS.read_text(encoding="utf-8"))["claims"]
    m = re.search(r"INCONCLUSIVE<!-- /generated --> \(seed 001 Theorems (\d+), (\d+) and (\d+)\)", _readme_text())
    assert m
    assert sorted(k for k, v in table.items() if v["status"] == "INCONCLUSIVE") == [f"LXM-Thm{n}" for n in m.groups()]


def _stated(pattern):
    m = re.search(pattern, _readme_text())
    assert m, f"README no longer says {pattern!r}: update this test with it"
    return m.group(1)


WORDS = {"two": 2, "five": 5, "six": 6}


def test_readme_stated_constants_are_the_codes(monkeypatch):
    """Defaults, limits and sizes README states, each read from the code."""
    import inspect

    import numeric.dpsgd
    from numeric import compose_exact, profile
    from proofs_check import certified, checker, status
    from proofs_check import claims_certified_002 as C2
    from proofs_check import claims_certified_004 as C4
    from proofs_check.cli import build_parser
    from proofs_check.cli import check as cli_check
    from proofs_check.cli.common import Heartbeat
    parser = build_parser()
    timeout = parser.parse_args(["check"]).claim_timeout
    assert float(_stated(r"past its time limit \(`--claim-timeout`, default (\d+) s\)")) == timeout == checker.DEFAULT_TIMEOUT
    monkeypatch.setattr(cli_check.os, "sched_getaffinity", lambda pid: set(range(1000)), raising=False)
    assert int(_stated(r"default: one per available CPU, at most (\d+);")) == cli_check.default_jobs()
    digits = parser.parse_args(["tradeoff", "gaussian", "--mu", "1", "--alpha", "0.1"]).digits
    assert int(_stated(r"`--digits D` \(verified significant digits, default (\d+)\)")) == digits
    alpha_min = parser.parse_args(["plot", "tradeoff", "gaussian", "--mu", "1", "--out", "x.png"]).alpha_min
    assert _stated(r"down to `--alpha-min` \((\S+) by default;") == alpha_min
    assert _stated(r"k <= (10\^\d+) copies of one randomized-response") == "10^%d" % len(str(compose_exact.MAX_K_BINOMIAL // 10))
    assert 10 ** int(_stated(r"k <= 10\^(\d+) copies")) == compose_exact.MAX_K_BINOMIAL
    assert int(_stated(r"and k <= (\d+) copies of one Laplace step")) == compose_exact.MAX_K_LAPLACE
    resolution = inspect.signature(numeric.dpsgd.calibrate_sigma).parameters["resolution"].default
    assert float(_stated(r"the smallest sigma \(to ([\d.]+) %\)")) / 100 == resolution
    beat = inspect.signature(Heartbeat).parameters
    assert float(_stated(r"Runs longer than (\d+) s show progress")) == beat["after"].default
    assert float(_stated(r"a line every (\d+) s;")) == beat["every"].default
    assert WORDS[_stated(r"Every claim has one of (\w+) statuses")] == len(status.STATUSES)
    assert int(_stated(r"precision doubled up to (\d+) bits")) == certified.POINT_CAP_BITS
    assert int(_stated(r"KZ-T2.7 \(every Renyi order a > 1 at each of (\d+) \(rho, delta\) cases")) == \
        len(C2.T27_CASES) * len(C2.T27_DELTAS)
    assert WORDS[_stated(r"SU-Eq4.1 \(pointwise at (\w+) t;")] == len(C4.EQ41_T)
    assert int(_stated(r"log alpha over \[e\^-(\d+), 1\]")) == -profile.LOG_ALPHA_LOW
    assert int(_stated(r"at a0 = e\^-(\d+) shows")) == -profile.LOG_ALPHA_LOW
    sys.path.insert(0, str(README.parent / "bench"))
    try:
        import fp_path
    finally:
        sys.path.remove(str(README.parent / "bench"))
    assert float(_stated(r"`numeric.fp`: relative error <= (\S+) for beta and power")) == fp_path.ERR_TARGET
    seeds = sorted(p.name[:3] for p in (README.parent / "notebooks").glob("*.ipynb"))
    assert _stated(r"`notebooks/` holds one short tutorial per seed \((\d+-\d+)\)") == f"{seeds[0]}-{seeds[-1]}"
    assert seeds == list(RN.PAPER_IDS)
    lo, hi = _stated(r"KZ-T2.5 \(whole eps interval \[(\d+, \d+)\]\)").split(", ")
    assert (lo, hi) == (C2.T25_EPS[0], C2.T25_EPS[-1])
    from proofs_check import figures
    undrawn = [f"seed {f.paper}'s {f.name}" for f in figures.TABLE if f.missing]
    assert _stated(r"\((seed 002's Figs[^)]*?) are not drawn; each index says why\)") == " and ".join(undrawn)
    shift = _stated(r"A record whose power is wrong by (\S+) passes the ordinary 30-digit check")
    assert f"by {shift} (1 - alpha)" in (README.parent / "tests" / "test_certified.py").read_text(encoding="utf-8")


def _fmt4(x):
    return "%.4f" % float(x)


#: (README's words with {} for the number, the command, a regex for the number in its output, its formatting)
WORKED = [
    ("still has AUC {} (`dp-derive auc uniform-sampling --mu 1 --n 5`)", "auc uniform-sampling --mu 1 --n 5",
     r"AUC = (\S+)", _fmt4),
    ("`dp-derive select gaussian --target rho-alpha0 --value 9.23622480736939 --alpha0 0.01` gives mu = {}.",
     "select gaussian --target rho-alpha0 --value 9.23622480736939 --alpha0 0.01", r"mu = (\S+)",
     lambda v: "%g" % float(v)),
    pytest.param("--min-mu --max-relative-loss 0.01` gives mu_min = {} (printed 7.9)",
                 "ztest --n 15 --sigma 0.25 --m 0.2 --alpha 0.01 --min-mu --max-relative-loss 0.01", r"mu_min = (\S+)",
                 str, marks=pytest.mark.slow),
    ("converts rho = 3.65 to eps = {} (CKS;", "compose zcdp --rho 3.65 --k 1 --delta 1e-10", r"eps = (\S+),",
     lambda v: "%.3f" % float(v)),
    ("(CKS; {} by Bun-Steinke)", "compose zcdp --rho 3.65 --k 1 --delta 1e-10 --conversion bun-steinke",
     r"eps = (\S+),", lambda v: "%.3f" % float(v)),
    pytest.param("at alpha = 0.05) would give {} instead", "reproduce --paper 000",
                 r"DF-S5.2:mu_min:n=15: .*?as printed [^\n]*?: mu_min = ([\d.]+)\.", lambda v: "%.2f" % float(v),
                 marks=pytest.mark.slow),
    pytest.param("the printed 0.28 (n = 100) is {} truncated", "reproduce --paper 000",
                 r"DF-S5.2:mu_min:n=100: printed 0.28, computed ([\d.]+),", lambda v: "%.5f" % float(v),
                 marks=pytest.mark.slow),
    ("the Berry-Esseen band [{}] around", "clt randomized-response --eps 0.1 --k 100 --alpha 0.1",
     r"band \[(\S+), (\S+)\]", None),
    ("around the exact {});", "clt randomized-response --eps 0.1 --k 100 --alpha 0.1", r"exact beta = (\S+):",
     lambda v: "%.5f" % float(v)),
]


@pytest.mark.parametrize("words, command, pattern, fmt", WORKED, ids=[(w.values if hasattr(w, "marks") else w)[1]
                                                                      for w in WORKED])
def test_readme_worked_examples(words, command, pattern, fmt):
    """The numbers of the worked examples (prose, not console blocks) are what the commands print now."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main([*shlex.split(command), "--quiet"]) == 0
    m = re.search(pattern, out.getvalue(), flags=re.S)
    assert m, out.getvalue()
    if fmt is None:
        number = ", ".join(_fmt4(g) for g in m.groups() if g is not None)
    else:
        number = fmt(m.group(1))
    assert words.format(number) in _readme_text().replace("<!-- /generated -->", ""), (words, number)
