"""What every command of the CLI shares: the parser class, argparse types from the
domain table, the mechanism arguments, the output options and the batch driver.

Nothing here imports SymPy or mpmath at import time; ``dp-derive --help`` stays
fast.  The numeric layers are imported by the commands when they run.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import re
import sys
import threading
import time

from derive.domains import DOMAINS
from derive.errors import DomainError, shorten
from derive.mechanisms.table import BY_NAME, NAMES, TABLE, Mechanism, lookup

from ..usage import Once, UsageError

FORMATS = ("text", "json", "jsonl", "csv")
DEFAULT_DIGITS = 15


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is our one-line error (exit 2), not argparse's, and a flag
    that takes a value may be given once unless it says otherwise (a repeated flag is an error,
    not 'the last one wins').  Prefix matching is off (``allow_abbrev=False``): ``--alpha`` is not
    taken for ``--alpha0``, nor ``--m`` for ``--mu`` (issue #25 item 1)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise UsageError(message)

    def parse_known_args(self, args=None, namespace=None):
        """An abbreviated flag is named instead of argparse's complaint about a missing required one: with
        prefix matching off, ``--alph 0.05`` was reported as "one of the arguments --alpha --alpha-grid is
        required", argparse's check of the required group coming before its list of unrecognized arguments."""
        try:
            return super().parse_known_args(args, namespace)
        except UsageError as exc:
            if "required" not in str(exc) or args is None:
                raise
            for token in args:
                if token == "--":
                    break
                flag = token.split("=", 1)[0]
                longer = sorted(o for o in self._option_string_actions if o.startswith(flag) and o != flag)
                if flag.startswith("--") and flag not in self._option_string_actions and longer:
                    # an abbreviation (mechanism parameters such as --mu are read after argparse: not judged here)
                    name = flag.lstrip("-").replace("-", "_")
                    raise UsageError(f"{name}: {flag} is not an argument of this command (see its --help; did you "
                                     f"mean {longer[0]}?)") from None
            raise

    def add_argument(self, *args, **kwargs):
        if args and args[0].startswith("-") and "action" not in kwargs and kwargs.get("nargs") is None:
            kwargs["action"] = Once
        return super().add_argument(*args, **kwargs)

    def _get_value(self, action, arg_string):
        """The ``type=`` of a flag applied to its text; a comma list given to a flag whose type does not
        take lists (``takes_list``) is refused saying so (issue #25 item 2: not 'must be a finite decimal
        number'), and a ValueError of a plain type (``int``) is our one-line message."""
        if not action.option_strings or action.type is None or not isinstance(arg_string, str):
            return super()._get_value(action, arg_string)
        flag = max(action.option_strings, key=len)
        if "," in arg_string and not getattr(action.type, "takes_list", False):
            key = getattr(action.type, "domain_key", None)
            valid = getattr(action.type, "valid", None) or (DOMAINS[key].describe() if key in DOMAINS else None)
            raise UsageError(f"{action.dest}={shorten(arg_string)}: {flag} takes a single value"
                             + (f" ({valid})" if valid else "") + f"; comma lists are not accepted for {flag}")
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError:
            kind = {"int": "an integer", "float": "a number"}.get(getattr(action.type, "__name__", ""), "a valid value")
            raise UsageError(f"{action.dest}={shorten(arg_string)}: {flag} must be {kind}") from None


def subparser(sub, name, summary, description, examples, parents=(), aliases=()):
    """A subcommand with a one-line summary (in ``dp-derive --help``), a description and examples."""
    epilog = "examples:\n" + "\n".join("  " + e for e in examples)
    return sub.add_parser(name, help=summary, description=description, epilog=epilog, parents=list(parents),
                          formatter_class=argparse.RawDescriptionHelpFormatter, aliases=list(aliases),
                          allow_abbrev=False)


# ---------------------------------------------------------------- numbers ------

_INF = re.compile(r"^[+]?(inf|infinity)$", re.IGNORECASE)


def _usage(fn):
    """argparse swallows a ValueError raised by a ``type=`` (DomainError is one) into its own
    vague message; re-raise it as our UsageError, which argparse lets through."""
    def wrapped(text):
        try:
            return fn(text)
        except DomainError as exc:
            raise UsageError(str(exc)) from None
    wrapped.__name__ = fn.__name__
    return wrapped


def _not_finite(text: str) -> bool:
    return bool(_INF.match(text)) or text.lower() in ("-inf", "-infinity", "nan", "+nan", "-nan")


def _check(key: str, name: str, text: str) -> str:
    """Validate one number against ``DOMAINS[key]``; return it as typed (stripped)."""
    from derive.domains import parse_in
    text = text.strip()
    if _not_finite(text):
        desc = DOMAINS[key].describe()           # "an integer in [1, N]" says finite already
        raise DomainError(name, text, desc if desc.startswith("an integer") else f"a finite number {desc}")
    parse_in(key, text, name)
    return text


def number(key: str, name: str | None = None):
    """argparse ``type=``: one exact number in ``DOMAINS[key]`` (the text is kept, exactly as typed)."""
    name = name or key

    def parse(text: str) -> str:
        return _check(key, name, text)
    parse.__name__ = name        # argparse names the type in its own messages
    wrapped = _usage(parse)
    wrapped.domain_key = key     # the boundary tests read the domain of each flag from here
    return wrapped


def as_int(text) -> int:
    """The integer an integer flag holds, from its text as typed (``1e3``, ``100.0`` and ``1000`` alike;
    ``number`` has checked that it is an integer)."""
    from derive.exact import rational
    v = rational("count", str(text))
    if v.q != 1:
        raise UsageError(f"{text}: an integer was expected")
    return int(v.p)


def numbers(key: str | None, name: str):
    """argparse ``type=``: a comma list of numbers (``0.1,0.2``), each checked (``key=None``: the
    mechanism's constructor checks the domain, which depends on the mechanism)."""
    def parse(text: str) -> tuple[str, ...]:
        items = [t.strip() for t in text.split(",")]
        if not all(items):
            raise UsageError(f"{name}={text}: a number or a comma list of numbers (no empty item)")
        if key is None:      # a mechanism parameter: inf is the zero-noise limit where the table allows it
            for t in items:
                if _not_finite(t) and not _INF.match(t):
                    raise DomainError(name, t, "a number (inf: the zero-noise limit)")
                if _INF.match(t):
                    continue
                from derive.exact import rational
                rational(name, t)
            return tuple(items)
        return tuple(_check(key, name, t) for t in items)
    parse.__name__ = name
    wrapped = _usage(parse)
    wrapped.domain_key = key
    wrapped.takes_list = True
    return wrapped


def grid(key: str | None, name: str):
    """argparse ``type=``: ``log:LO:HI:N`` or ``lin:LO:HI:N``, N points with both ends as typed.

    Interior points are printed to 17 significant digits and then taken exactly,
    like any typed number; a log grid needs 0 < LO < HI.
    """
    def parse(text: str) -> tuple[str, ...]:
        parts = text.split(":")
        if len(parts) != 4 or parts[0] not in ("log", "lin"):
            raise UsageError(f"{name}-grid={text}: give log:LO:HI:N or lin:LO:HI:N (e.g. log:1e-300:0.5:200)")
        kind, lo, hi, count = parts
        lo, hi = (numbers(key, name)(v)[0] for v in (lo, hi))
        try:
            n = int(count)
        except ValueError:
            n = 0
        if not 2 <= n <= 100_000:
            raise UsageError(f"{name}-grid={text}: N={count} must be an integer in [2, 100000]")
        import mpmath

        from derive.exact import rational
        a, b = rational(name, lo), rational(name, hi)
        if not a < b or (kind == "log" and a <= 0):
            raise UsageError(f"{name}-grid={text}: need {'0 < ' if kind == 'log' else ''}LO < HI")
        with mpmath.workdps(40):
            a_, b_ = mpmath.mpf(a.p) / a.q, mpmath.mpf(b.p) / b.q
            if kind == "log":
                la, lb = mpmath.log(a_), mpmath.log(b_)
                inner = [mpmath.exp(la + (lb - la) * i / (n - 1)) for i in range(1, n - 1)]
            else:
                inner = [a_ + (b_ - a_) * i / (n - 1) for i in range(1, n - 1)]
            texts = [mpmath.nstr(v, 17, strip_zeros=True, min_fixed=-4, max_fixed=17) for v in inner]
        return (lo, *texts, hi)
    parse.__name__ = name + "-grid"
    wrapped = _usage(parse)
    wrapped.takes_list = True          # its own grammar (LO:HI:N); a comma is its own error
    return wrapped


def add_points(p, dest: str, key: str | None, meaning: str, required=False, name=None):
    """``--X`` (a number or a comma list) and ``--X-grid SPEC``; exactly one of them when required.

    ``name`` is the parameter an error message names (default ``dest``)."""
    flag = dest.replace("_", "-")
    name = name or dest
    g = p.add_mutually_exclusive_group(required=required)
    g.add_argument(f"--{flag}", dest=dest, type=numbers(key, name), action=Once, metavar=name.upper(),
                   help=f"{meaning}; a comma list gives several points")
    g.add_argument(f"--{flag}-grid", dest=dest, type=grid(key, name), action=Once, metavar="SPEC",
                   help=f"a grid of {name} values: log:LO:HI:N or lin:LO:HI:N")


# ------------------------------------------------------------ mechanisms -------

class _MechanismValue(argparse.Action):
    """--mu/--eps/--delta/--n of a mechanism: given once, or twice where a command says so
    (``profile laplace --eps 1 --eps 0.5``: the second is the profile's eps)."""

    def __call__(self, parser, namespace, values, option_string=None):
        got = list(getattr(namespace, self.dest) or [])
        got.append(values)
        setattr(namespace, self.dest, got)


def _table_flags() -> dict:
    """{flag: (domain keys, mechanisms)} of every mechanism parameter of the table, in the order the
    table first names them: a new row's new parameter gets its flag with no edit here."""
    out = {}
    for m in TABLE:
        for flag, key in m.params:
            keys, users = out.setdefault(flag, ([], []))
            keys.extend([key] if key not in keys else [])
            users.append(m.name)
    return out


def _meaning(flag: str, keys: list, users: list) -> str:
    """The help of ``--flag``: the domain's meaning (of the first row naming it) and who takes it."""
    what = DOMAINS[keys[0]].meaning if keys[0] in DOMAINS else f"parameter {flag}"
    return f"{what}, for {', '.join(users)}"


_TABLE_FLAGS = _table_flags()
#: the parameter flags of MECH (--mu, --eps, --delta, --n, --sigma2 ...), read from the table
MECHANISM_FLAGS = tuple(_TABLE_FLAGS)
_FLAG_MEANING = {flag: _meaning(flag, *v) for flag, v in _TABLE_FLAGS.items()}
#: the non-numeric options of the table's rows (--family, --neighbours ...)
OPTION_NAMES = tuple(dict.fromkeys(o.name for m in TABLE for o in m.options))


def mechanism_help(names=NAMES) -> str:
    rows = []
    for name in names:
        m = BY_NAME[name]
        flags = " ".join(f"--{p} {p.upper()}" for p in m.param_names)
        opts = " ".join(f"--{o.name} {'|'.join(o.choices)}" for o in m.options)
        rows.append(f"  {name:20s} {flags} {opts}".rstrip() + f"\n  {'':20s} {m.summary}; "
                    + "; ".join(f"{p} {DOMAINS[k].describe()}" for p, k in m.params))
    return "mechanisms:\n" + "\n".join(rows)


def add_mechanism(p, names=NAMES, lists=True):
    """MECH and its parameter flags (read from the mechanism table)."""
    p.add_argument("mechanism", metavar="MECH", choices=names,
                   help="one of: " + ", ".join(names) + " (parameters below)")
    for name in MECHANISM_FLAGS:
        p.add_argument(f"--{name}", type=numbers(None, name), action=_MechanismValue, default=None, metavar=name.upper(),
                       help=_FLAG_MEANING[name] + (" (a comma list gives several mechanisms)" if lists else ""))
    options = {}
    for m in (BY_NAME[n] for n in names):
        for o in m.options:
            options.setdefault(o.name, (o, []))[1].append(m.name)
    for name, (o, users) in options.items():
        default = f" (default {o.default})" if o.default else " (required)"
        p.add_argument(f"--{name}", choices=o.choices, default=None, action=Once,
                       help=f"{o.meaning}, for {', '.join(users)}{default}")


def mechanism_params(args, mechanism: Mechanism, extra_allowed=()) -> tuple[dict, dict]:
    """({flag: tuple of values}, {flag: tuple of leftover values}) for the mechanism's flags.

    A flag of ``extra_allowed`` may be given once more than the mechanism uses;
    the extra value is returned as leftover (the profile's own eps or delta).
    """
    wanted = mechanism.param_names
    given, leftover = {}, {}
    for name in MECHANISM_FLAGS:
        values = list(getattr(args, name, None) or [])
        if name in wanted:
            if not values:
                raise UsageError(f"{name}: --{name} is required for {mechanism.name}")
            given[name] = values.pop(0)
        if not values:
            continue
        if name in extra_allowed and len(values) == 1:
            leftover[name] = values[0]
        elif name in wanted:
            raise UsageError(f"{name}={','.join(values[-1])}: --{name} given twice (once for {mechanism.name}"
                             + (", and once more for the profile)" if name in extra_allowed else ")"))
        else:
            raise UsageError(f"{name}={','.join(values[0])}: --{name} is not a parameter of {mechanism.name} "
                             f"(its parameters: {', '.join('--' + w for w in wanted) or 'none'})")
    for o_name in OPTION_NAMES:
        if getattr(args, o_name, None) is not None and o_name not in {o.name for o in mechanism.options}:
            users = [m.name for m in BY_NAME.values() if o_name in {o.name for o in m.options}]
            raise UsageError(f"{o_name}={getattr(args, o_name)}: --{o_name} applies to {', '.join(users)} only")
    _required_options(args, mechanism)
    return given, leftover


def _required_options(args, mechanism: Mechanism) -> None:
    for o in mechanism.options:
        if o.default is None and getattr(args, o.name, None) is None:
            raise UsageError(f"{o.name}: --{o.name} is required for {mechanism.name} "
                             f"(one of {', '.join(o.choices)})")


def mechanism_options(args, mechanism: Mechanism) -> dict:
    return {o.name: getattr(args, o.name, None) or o.default for o in mechanism.options}


# ------------------------------------------------- what a mechanism's record is --

def symbolic_record(args, mechanism: Mechanism):
    """MECH's symbolic record with the options given (``Mechanism.build()``: its facts, the parameters
    free), for a command that dispatches on what the mechanism is (``derive.mechanisms.facts``), never on
    its name; a required option missing is the usage error of ``mechanism_params``."""
    _required_options(args, mechanism)
    return mechanism.build(None, mechanism_options(args, mechanism))


def rows_where(test) -> list[str]:
    """The mechanisms whose symbolic record passes ``test(record)``, each with the option choices it
    needs when only some pass ("noise --family gaussian"): what an error message lists as accepted."""
    out = []
    for m in TABLE:
        variants = [dict(zip((o.name for o in m.options), choice))
                    for choice in itertools.product(*(o.choices for o in m.options))]
        passing = [v for v in variants if test(m.build(None, v))]
        out.extend([m.name] if len(passing) == len(variants) else
                   [m.name + "".join(f" --{k} {x}" for k, x in v.items()) for v in passing])
    return out


def either(names) -> str:
    """'a, b or c'."""
    names = list(names)
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def fact_parameter(mechanism: Mechanism, symbolic, key: str, index=None) -> str | None:
    """The flag of the parameter that the fact ``key`` (component ``index``) of the symbolic record is
    (gaussian's G_mu is its --mu), or None when the fact is an expression of the parameters."""
    expr = symbolic.fact(key)
    expr = expr if index is None else expr[index]
    if len(symbolic.parameters) == len(mechanism.params) and expr in symbolic.parameters:
        return mechanism.param_names[symbolic.parameters.index(expr)]
    return None


def fact_value(mechanism: Mechanism, symbolic, records, combo: dict, key: str, index=None):
    """The fact ``key`` (component ``index``) at the parameters ``combo``: the parameter's text as typed
    when the fact is a parameter (the checks downstream echo it: 'mu=inf: ...'), else its value on the
    record built at ``combo``."""
    flag = fact_parameter(mechanism, symbolic, key, index)
    if flag is not None:
        return combo[flag]
    from derive.mechanisms import facts as K
    record = records.get(combo)
    value = record.fact(key)
    if value is None:
        what = "the zero-noise limit (f = 0)" if record.fact(K.NO_PRIVACY) else "a record"
        raise UsageError(f"{', '.join(f'{k}={v}' for k, v in combo.items())}: {record} is {what} without the "
                         f"fact {key} this command reads")
    return value if index is None else value[index]


def add_sampling_rate(parser):
    """``--p P``: read the mechanism subsampled at rate p, i.e. C_p(f) (numeric.subsampling)."""
    parser.add_argument("--p", type=number("sampling_rate", "p"), default=None, action=Once,
                        help="subsampling rate p in (0, 1]: answer for C_p(f) = min{f_p, f_p^-1}** (Dong-Roth-Su "
                             "Thm 4.2), the mechanism run on a subsample (uniform or Poisson)")


def setup(args, extra_allowed=()):
    """(mechanism row, Records, {flag: values}, leftover) of a command that takes MECH PARAMS."""
    mechanism = lookup(args.mechanism)
    given, leftover = mechanism_params(args, mechanism, extra_allowed)
    return mechanism, Records(args, mechanism), given, leftover


class Records:
    """Build (and cache) the record of each combination of mechanism parameter values."""

    def __init__(self, args, mechanism: Mechanism):
        self.mechanism = mechanism
        self.options = mechanism_options(args, mechanism)
        self._cache = {}

    def get(self, values: dict):
        key = tuple(values[n] for n in self.mechanism.param_names)
        if key not in self._cache:
            self._cache[key] = self.mechanism.build(values, self.options)
        return self._cache[key]

    def shown(self, values: dict) -> dict:
        """The params as the payload shows them: options that were given or defaulted, then numbers."""
        out = {k: v for k, v in self.options.items() if v is not None}
        out.update({n: values[n] for n in self.mechanism.param_names})
        return out


# ------------------------------------------------------------------ output -----

def output_parent(digits=True, formats=FORMATS) -> argparse.ArgumentParser:
    """--digits D, --json and --format, shared by the computing commands."""
    p = Parser(add_help=False, allow_abbrev=False)
    if digits:
        p.add_argument("--digits", type=_digits_type, default=DEFAULT_DIGITS, action=Once, metavar="D",
                       help=f"significant digits of every number printed, verified (default {DEFAULT_DIGITS}, "
                            f"at most {DOMAINS['digits'].high})")
    p.add_argument("--json", action="store_true", help="one JSON object (a JSON list for several points)")
    p.add_argument("--format", choices=formats, default=None, action=Once,
                   help="text (default), json" + (", jsonl (one object per line) or csv (one row per point)"
                                                   if "csv" in formats else ""))
    p.add_argument("--quiet", action="store_true",
                   help="no progress lines on stderr (by default a run that lasts over 2 s says so there, "
                        "also when stderr is not a terminal)")
    return p


def _digits_type(text: str) -> int:
    from derive.domains import parse_in
    return int(parse_in("digits", text.strip(), "digits"))


_digits_type = _usage(_digits_type)
_digits_type.valid = DOMAINS["digits"].describe()


def output_format(args) -> str:
    fmt = getattr(args, "format", None)
    if args.json and fmt not in (None, "json"):
        raise UsageError(f"format={fmt}: --json means --format json; give one of them")
    return "json" if args.json else (fmt or "text")


def _flat(payload: dict, prefix="") -> dict:
    out = {}
    for k, v in payload.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


class Emitter:
    """Writes rows as they come (jsonl, csv, text) or at the end (json: one object, or a list)."""

    def __init__(self, fmt: str, stream=None):
        self.fmt = fmt
        self.stream = stream or sys.stdout
        self.rows = []
        self._csv = None

    def row(self, payload: dict, lines: list[str]):
        if self.fmt == "json":
            self.rows.append(payload)
        elif self.fmt == "jsonl":
            print(json.dumps(payload), file=self.stream, flush=True)
        elif self.fmt == "csv":
            flat = _flat(payload)
            if self._csv is None:
                self._fields = list(flat)
                self._csv = csv.DictWriter(self.stream, fieldnames=self._fields, extrasaction="ignore",
                                           lineterminator="\n")
                self._csv.writeheader()
            self._csv.writerow({k: _cell(flat.get(k)) for k in self._fields})
            self.stream.flush()
        else:
            print("\n".join(lines), file=self.stream, flush=True)

    def close(self):
        if self.fmt == "json":
            data = self.rows[0] if len(self.rows) == 1 else self.rows
            print(json.dumps(data), file=self.stream)


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, (list, tuple)):
        return json.dumps(v)
    return v


def emit_one(args, payload: dict, lines: list[str]):
    out = Emitter(output_format(args))
    out.row(payload, lines)
    out.close()


# -------------------------------------------------------------- the driver -----

#: how every progress line on stderr begins (the tests' runner tells them from answers by it)
PROGRESS_PREFIX = "dp-derive: working: "


class Heartbeat:
    """After ``after`` seconds, a sign of life on stderr: points done, time spent (issue #25: also when
    stderr is not a terminal, e.g. piped to a log; ``--quiet`` silences it).  On a terminal one line is
    rewritten in place every half second and cleared at the end; elsewhere a line is written at
    ``after`` seconds and then every ``every`` seconds, and left in the log."""

    def __init__(self, total: int, after: float = 2.0, force: bool | None = None, quiet: bool = False,
                 every: float = 10.0):
        self.total, self.done, self.after, self.every = total, 0, after, every
        self.start = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.enabled = (not quiet) if force is None else force
        self._stop = threading.Event()
        self._thread = None
        self._written = 0
        if self.enabled:
            self._thread = threading.Thread(target=self._beat, daemon=True)
            self._thread.start()

    def _beat(self):
        while not self._stop.wait(0.5):
            spent = time.monotonic() - self.start
            if spent < self.after:
                continue
            part = f"{self.done}/{self.total} points, " if self.total > 1 else ""
            if self.tty:
                sys.stderr.write(f"\r{PROGRESS_PREFIX}{part}{spent:.0f} s (Ctrl-C stops)")
            elif spent >= self.after + self._written * self.every:
                self._written += 1
                sys.stderr.write(f"{PROGRESS_PREFIX}{part}{spent:.0f} s\n")
            else:
                continue
            sys.stderr.flush()

    def step(self):
        self.done += 1

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            if self.tty and time.monotonic() - self.start >= self.after:
                sys.stderr.write("\r" + " " * 60 + "\r")
                sys.stderr.flush()


def one_value_each(given: dict, command: str) -> dict:
    """{flag: its one value} for a command that takes one value per mechanism parameter: a comma list
    is refused naming the flag and the list (issue #25 item 2)."""
    for name, values in given.items():
        if len(values) != 1:
            raise UsageError(f"{name}={shorten(','.join(values))}: {command} takes a single value of --{name}; "
                             f"comma lists are not accepted for --{name} here")
    return {k: v[0] for k, v in given.items()}


def combinations(args, names: tuple[str, ...], given: dict) -> list[dict]:
    """The cartesian product of the list-valued flags (mechanism parameters first)."""
    axes = []
    for name in names:
        values = given.get(name, getattr(args, name, None))
        if values is None:
            continue
        axes.append([(name, v) for v in (values if isinstance(values, tuple) else (values,))])
    return [dict(c) for c in itertools.product(*axes)]


def run_points(args, combos: list[dict], compute) -> int:
    """compute(combo) -> (payload, text lines) for every combination; rows stream out."""
    out = Emitter(output_format(args))
    beat = Heartbeat(len(combos), quiet=getattr(args, "quiet", False))
    try:
        for combo in combos:
            payload, lines = compute(combo)
            out.row(payload, lines)
            beat.step()
    finally:
        beat.close()
    out.close()
    return 0


def run_one(args, compute) -> int:
    """A command that computes one answer: the same output path, with a heartbeat."""
    beat = Heartbeat(1, quiet=getattr(args, "quiet", False))
    try:
        payload, lines = compute()
    finally:
        beat.close()
    emit_one(args, payload, lines)
    return 0


def text(value) -> str:
    return value.strip() if isinstance(value, str) else str(value)


__all__ = ["Parser", "subparser", "setup", "number", "numbers", "grid", "add_points", "add_mechanism",
           "mechanism_params", "mechanism_options", "mechanism_help", "Records", "output_parent",
           "output_format", "Emitter", "emit_one", "run_points", "run_one", "combinations", "Heartbeat",
           "UsageError", "Once", "lookup", "FORMATS", "DEFAULT_DIGITS", "text", "symbolic_record", "rows_where",
           "either", "fact_parameter", "fact_value"]


def output_file(name: str, path: str) -> None:
    """UsageError unless ``path`` can be a file written by the command (``--out``, ``--data``): not a
    folder, in an existing writable directory (issue #25: tracebacks from open/savefig)."""
    import os
    if os.path.isdir(path):
        raise UsageError(f"{name}={path}: {name} must be a file path, not a folder")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{name}={path}: {name} must be in an existing directory ({folder} does not exist)")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{name}={path}: {name} must be in a writable directory")
    # and it opens: os.access says yes to root in /proc, where open() then failed with a traceback (dpsgd --sweep)
    existed = os.path.exists(path)
    try:
        open(path, "a", encoding="utf-8").close()
    except OSError as exc:
        raise UsageError(f"{name}={path}: {name} cannot be written ({exc.strerror})") from None
    if not existed:
        os.remove(path)


def file_errors(names: dict):
    """Decorator of a command: an OSError of writing a file (permission, a full disk ...) is a UsageError
    naming the flag whose path it is (``names``: flag -> args attribute), not a traceback."""
    import functools
    import os

    def wrap(cmd):
        @functools.wraps(cmd)
        def run(args):
            try:
                return cmd(args)
            except OSError as exc:
                if isinstance(exc, BrokenPipeError) or exc.filename is None:
                    raise
                where = os.path.abspath(str(exc.filename))
                flag = next((n for n, attr in names.items() if getattr(args, attr, None)
                             and where.startswith(os.path.abspath(getattr(args, attr)))), next(iter(names)))
                raise UsageError(f"{flag}={getattr(args, names[flag], None) or exc.filename}: cannot write "
                                 f"{exc.filename} ({exc.strerror})") from None
        return run
    return wrap
