"""``check --certified``: interval (arb ball) evaluation of inequality claims (python-flint)."""

from __future__ import annotations

from .usage import UsageError


def require() -> None:
    """Raise a usage error naming the extra when python-flint is not installed."""
    try:
        import flint  # noqa: F401
    except ImportError:
        raise UsageError("certified: --certified needs python-flint "
                         "(pip install -e \".[certified]\")") from None
