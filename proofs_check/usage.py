"""The CLI's usage error (bad flags or values): one line on stderr, exit status 2."""


class UsageError(Exception):
    pass


def positive_int(name: str):
    """argparse ``type=``: an integer >= 1, the message naming the flag and its range."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"{name}={text}: must be an integer >= 1") from None
        if value < 1:
            raise UsageError(f"{name}={text}: must be an integer >= 1")
        return value
    return parse


def positive_seconds(name: str):
    """argparse ``type=``: a number of seconds > 0 (finite)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise UsageError(f"{name}={text}: must be a number of seconds > 0") from None
        if not 0 < value < float("inf"):
            raise UsageError(f"{name}={text}: must be a number of seconds > 0")
        return value
    return parse
