"""The ``dp-derive`` command line (also ``python -m proofs_check``).

One module per command family registers its subcommands (``register(sub)``)
with ``help=``, ``choices=`` and ``type=`` read from the parameter-domain table
(``derive/domains.py``) and the mechanism table (``derive/mechanisms/table.py``),
and ``set_defaults(func=...)``:

* ``curves``: tradeoff, profile, latex (issue #2);
* ``attack``: pr, fscore, fscore-inverse, auc (issue #4, seeds 001 and 003);
* ``disclosure``: risk, posterior, semantics (issue #3, seeds 000 and 002);
* ``design``: compose, select, ztest (issue #3);
* ``noise``: cnd (issue #12);
* ``shuffle``: privacy amplification by shuffling, clone reductions (issue #26);
* ``links``: functional, link (issue #12);
* ``check``: check, reproduce (issues #2 and #10).

Numbers are decimal strings taken exactly.  Bad input: one line on stderr
naming the parameter, its value and the valid range; exit status 2.  A
precision budget exhausted: exit 3.  Ctrl-C: exit 130, no traceback; a closed pipe: exit 1, silently.

Importing this package loads neither SymPy nor mpmath: ``dp-derive --help``
and argument errors answer at once; a command imports the algebra it needs.
"""

from __future__ import annotations

import re
import sys

from derive.errors import DomainError, PrecisionExhausted

from ..usage import UsageError
from . import (
    attack,
    check,
    clt,
    curves,
    design,
    disclosure,
    dpsgd,
    links,
    noise,
    noisy_gd,
    plot,
    shuffle,
    subsample,
)
from .common import Parser

FAMILIES = (curves, attack, disclosure, design, noise, links, subsample, dpsgd, noisy_gd, clt, shuffle, plot, check)

DESCRIPTION = """\
Differential privacy as hypothesis testing, exactly: trade-off functions, attack power,
disclosure risk and composition, to verified digits (every number is a decimal taken exactly).
Run `dp-derive COMMAND --help` for a command's flags, defaults and examples."""

EPILOG = """\
examples:
  dp-derive tradeoff gaussian --mu 1 --alpha 1e-300 --digits 30
  dp-derive profile gaussian --mu 1 --at-delta 1e-5
  dp-derive risk laplace --eps 1
  dp-derive check --jobs 2
"""


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("dp-derive")
    except Exception:  # noqa: BLE001 - not installed (run from a checkout): say so
        return "unknown (not installed)"


def build_parser() -> Parser:
    import argparse
    parser = Parser(prog="dp-derive", description=DESCRIPTION, epilog=EPILOG,
                    formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    parser.add_argument("--version", action="version", version=f"dp-derive {_version()}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    for family in FAMILIES:
        family.register(sub)
    return parser


_NEGATIVE = re.compile(r"^-(\d|\.\d|inf|infinity|nan)", re.IGNORECASE)


def _join_negative_values(argv):
    """``--alpha -1e-30`` -> ``--alpha=-1e-30``: argparse takes '-1e-30' (or '-inf') for a flag otherwise."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok.startswith("--") and "=" not in tok and i + 1 < len(argv) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


_CHOICE = re.compile(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)")
_EXPECTED = re.compile(r"argument (\S+): expected one argument")
_REQUIRED = re.compile(r"the following arguments are required: (.*)")
_NOT_ALLOWED = re.compile(r"argument (\S+): not allowed with argument (\S+)")
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (.*)")


def _our_words(message: str) -> str:
    """argparse's messages in our form: ``name=value: what is valid``."""
    m = _CHOICE.search(message)
    if m:
        flag, value, choices = m.groups()
        name = flag.split("/")[0].lstrip("-").replace("-", "_") if flag.startswith("-") else flag.lower()
        name = {"mech": "mechanism", "command": "command"}.get(name, name)
        return f"{name}={value}: {name} must be one of {choices.replace(chr(39), '')}"
    m = _EXPECTED.search(message)
    if m:
        flag = m.group(1).split("/")[0]
        return f"{flag.lstrip('-').replace('-', '_')}: {flag} needs a value"
    m = _REQUIRED.search(message)
    if m:
        first = m.group(1).split(",")[0].split()[0]
        name = first.lstrip("-").lower().replace("-", "_")
        return f"{name}: {first} is required (see --help)"
    m = _UNRECOGNIZED.search(message)
    if m:
        first = m.group(1).split()[0]
        name = first.lstrip("-").replace("-", "_") or first
        return f"{name}: {first} is not an argument of this command (see its --help)"
    m = _NOT_ALLOWED.search(message)
    if m:
        a, b = (x.split("/")[0] for x in m.groups())
        return f"{a.lstrip('-').replace('-', '_')}: {a} cannot be given with {b}"
    return message


_LONG_VALUE = re.compile(r"[\w.+\-,/]{61,}")


def _short_values(message: str) -> str:
    """Every run of value characters longer than 60 (a 4300-digit number echoed by a message that
    did not shorten it itself) shown by ``derive.errors.shorten`` (issue #25 item 4)."""
    from derive.errors import shorten
    return _LONG_VALUE.sub(lambda m: shorten(m.group(0)), message)


def main(argv=None) -> int:
    parser = build_parser()
    try:
        argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
        try:
            args = parser.parse_args(argv)
        except UsageError as exc:
            raise UsageError(_our_words(str(exc))) from None
        if args.command is None:
            parser.print_help()
            return 2
        return args.func(args) or 0
    except (UsageError, DomainError) as exc:
        print(f"dp-derive: error: {_short_values(str(exc))}", file=sys.stderr)
        return 2
    except PrecisionExhausted as exc:
        print(f"dp-derive: precision exhausted: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("dp-derive: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:           # `dp-derive ... | head`: the reader left; say nothing more
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
