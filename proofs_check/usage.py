"""The CLI's usage error (bad flags or values): one line on stderr, exit status 2."""

import argparse

from derive.errors import shorten


class UsageError(Exception):
    pass


def positive_int(name: str, largest: int | None = None):
    """argparse ``type=``: an integer in [1, largest], the message naming the flag and its range."""
    valid = f"an integer in [1, {largest}]" if largest else "an integer >= 1"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"{name}={shorten(text)}: must be {valid}") from None
        if value < 1 or (largest is not None and value > largest):
            raise UsageError(f"{name}={shorten(text)}: must be {valid}")
        return value
    parse.valid = valid
    return parse


class Once(argparse.Action):
    """A flag that may be given once: a repeated flag is an error, not 'the last one wins'."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = getattr(namespace, "_given_once", set())
        if self.dest in seen:
            shown = ",".join(values) if isinstance(values, (tuple, list)) else values
            raise UsageError(f"{self.dest}={shorten(shown)}: {option_string} given twice; give it once")
        seen.add(self.dest)
        setattr(namespace, "_given_once", seen)
        setattr(namespace, self.dest, values)


def positive_seconds(name: str):
    """argparse ``type=``: a number of seconds > 0 (finite)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise UsageError(f"{name}={shorten(text)}: must be a number of seconds > 0") from None
        if not 0 < value < float("inf"):
            raise UsageError(f"{name}={shorten(text)}: must be a number of seconds > 0")
        return value
    parse.valid = "a number of seconds > 0"
    return parse
