"""dp-derive, numerical layer: the ``mp`` (verified digits) and ``fp`` (float64) paths."""

from . import fp, mp

__all__ = ["mp", "fp"]
