"""``compose fdp --dp-event FILE.json``: a dp_accounting DpEvent tree, in its named-tuple dict form, on the
certified engine (issue #27, item 1; the mapping is numeric/dp_events.py's table)."""

from __future__ import annotations

import json

from .common import UsageError, run_one

RELATIONS = {"add-remove": "ADD_OR_REMOVE_ONE", "replace-one": "REPLACE_ONE"}


def read_dp_event(path: str):
    """The JSON object of the file (a DpEvent's ``to_named_tuple()`` fields, nested events as objects)."""
    from derive.errors import DomainError
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise DomainError("dp_event", path, f"a readable JSON file ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DomainError("dp_event", path, f"a UTF-8 JSON file ({exc})") from None
    if not isinstance(data, dict) or "class_name" not in data:
        raise DomainError("dp_event", path, 'a JSON object with "class_name", e.g. {"class_name": '
                          '"GaussianDpEvent", "noise_multiplier": 1.1}')
    return data


def cmd_dp_event(args):
    from numeric import dp_events as E
    from numeric.accountants import Ledger
    if args.spec is not None or args.mechanism is not None or args.k is not None:
        raise UsageError("dp_event: give --dp-event alone (not with --spec or MECH --k)")
    if args.alpha is not None:
        raise UsageError("alpha: --dp-event answers --at-eps or --at-delta")
    event = read_dp_event(args.dp_event)
    try:
        leaves = E.read_event(event, RELATIONS[args.relation])
    except E.Refused as refused:
        raise UsageError(f"dp_event={args.dp_event}: refused: {refused}") from None
    ledger = Ledger()
    ledger.add(leaves)
    digits = min(args.digits, 15)

    def format_outward(value, digits, up):
        import mpmath

        from numeric.precision import format_outward as outward
        return outward(mpmath.mpf(value), digits, up)

    def compute():
        import time
        t0 = time.perf_counter()
        base = {"dp_event": args.dp_event, "relation": args.relation, "method": "numeric"}
        if args.at_eps is not None:
            b = ledger.delta_bracket(args.at_eps)
            payload = {**base, "eps": args.at_eps, "delta": format_outward(b.upper, digits, True),
                       "delta_lower": format_outward(b.lower, digits, False),
                       "delta_upper": format_outward(b.upper, digits, True)}
            line = f"delta in [{payload['delta_lower']}, {payload['delta_upper']}] at eps = {args.at_eps}"
        else:
            b = ledger.eps_bracket(args.at_delta)
            payload = {**base, "delta": args.at_delta, "eps": format_outward(b.upper, digits, True),
                       "eps_lower": format_outward(b.lower, digits, False),
                       "eps_upper": format_outward(b.upper, digits, True)}
            line = f"eps in [{payload['eps_lower']}, {payload['eps_upper']}] at delta = {args.at_delta}"
        payload.update({"certified": b.certified, "seconds": round(time.perf_counter() - t0, 3), "digits": digits})
        if b.reason:
            payload["reason"] = b.reason
        return payload, [line + ("  (certified)" if b.certified else f"  (not certified: {b.reason})")]
    return run_one(args, compute)
