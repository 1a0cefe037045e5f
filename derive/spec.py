"""Composition specs: a heterogeneous list of mechanisms, each with a count (issue #9).

The file format (``dp-derive compose fdp --spec FILE.json``, also read by ``clt --spec``)::

    {"mechanisms": [
        {"mechanism": "gaussian", "mu": "0.5", "count": 10},
        {"mechanism": "laplace", "eps": "0.1", "count": 100},
        {"mechanism": "gaussian", "mu": "0.9", "p": "0.01", "sampling": "poisson", "count": 1000}]}

The names are the CLI's flags (the mechanism table, ``derive/mechanisms/table.py``);
``p`` and ``sampling`` subsample an entry (``sampling`` defaults to poisson when ``p``
is given).  Numbers may be JSON strings or JSON numbers; a JSON number is taken as the
decimal it is written as (``0.1`` is 1/10: the text is kept, never a double).
Every error names the entry (``mechanisms[2].mu``), the value and the valid range.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .domains import DOMAINS, parse_in
from .errors import DomainError
from .mechanisms.table import BY_NAME, NAMES, Mechanism, is_infinite

SAMPLINGS = ("poisson", "uniform")
_KNOWN = {"mechanism", "count", "p", "sampling"}


@dataclass(frozen=True)
class Component:
    """One entry: ``count`` copies of the mechanism, optionally subsampled with rate ``p``."""
    mechanism: Mechanism
    params: dict            # flag -> text as given (checked against the domain table)
    count: int
    options: dict = field(default_factory=dict)
    p: object = None        # sympy Rational in (0, 1], or None
    sampling: str | None = None

    def record(self):
        """The (un-subsampled) trade-off record of one copy."""
        return self.mechanism.build(self.params, self.options)


def read_spec(path: str) -> list[Component]:
    """Parse a spec file; any problem is a DomainError naming ``spec`` or the entry."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise DomainError("spec", path, f"a readable JSON file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise DomainError("spec", path, f"a UTF-8 text file (byte {exc.object[exc.start]:#04x} at offset "
                          f"{exc.start} is not UTF-8)") from None
    return parse_spec(text, where=path)


def parse_spec(text: str, where: str = "spec") -> list[Component]:
    try:
        data = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as exc:
        raise DomainError("spec", where, f"JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("mechanisms"), list) or not data["mechanisms"]:
        raise DomainError("spec", where, 'a JSON object {"mechanisms": [ ... ]} with at least one entry')
    extra = set(data) - {"mechanisms"}
    if extra:
        raise DomainError("spec", where, f'only the key "mechanisms" at the top (found {sorted(extra)[0]!r})')
    return [_component(i, entry) for i, entry in enumerate(data["mechanisms"])]


def _component(i: int, entry) -> Component:
    at = f"mechanisms[{i}]"
    if not isinstance(entry, dict):
        raise DomainError(at, _short(entry), 'an object such as {"mechanism": "gaussian", "mu": "1", "count": 10}')
    name = entry.get("mechanism")
    if name not in BY_NAME:
        raise DomainError(f"{at}.mechanism", _short(name), "one of " + ", ".join(NAMES))
    m = BY_NAME[name]
    allowed = _KNOWN | set(m.param_names) | {o.name for o in m.options}
    for key in entry:
        if key not in allowed:
            raise DomainError(f"{at}.{key}", _short(entry[key]),
                              f"not a key of {name} (its keys: {', '.join(sorted(allowed))})")
    params = {}
    for pname, key in m.params:
        if pname not in entry:
            raise DomainError(f"{at}.{pname}", "missing", f"a number {DOMAINS[key].describe()} for {name}")
        value = _text(entry[pname], f"{at}.{pname}")
        if not (is_infinite(value) and pname in m.infinite_ok):
            parse_in(key, value, f"{at}.{pname}")
        params[pname] = value
    options = {}
    for o in m.options:
        value = entry.get(o.name, o.default)
        if value is None or value not in o.choices:
            raise DomainError(f"{at}.{o.name}", _short(value), "one of " + ", ".join(o.choices))
        options[o.name] = value
    count = int(parse_in("count", _text(entry.get("count", "1"), f"{at}.count"), f"{at}.count"))
    p = sampling = None
    if "p" in entry:
        p = parse_in("sampling_rate", _text(entry["p"], f"{at}.p"), f"{at}.p")
        sampling = entry.get("sampling", "poisson")
        if sampling not in SAMPLINGS:
            raise DomainError(f"{at}.sampling", _short(sampling), "one of " + ", ".join(SAMPLINGS))
    elif "sampling" in entry:
        raise DomainError(f"{at}.sampling", _short(entry["sampling"]), "given together with a rate p")
    return Component(m, params, count, options, p, sampling)


def _text(value, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str):
        raise DomainError(name, _short(value), "a number (a JSON number or a decimal string)")
    return value.strip()


def _short(value) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."
