"""dp-derive, numerical layer: the ``mp`` (verified digits) and ``fp`` (float64) paths.

Submodules load on first use (PEP 562), so that ``import numeric`` costs nothing
until a path is needed.
"""

from importlib import import_module

#: every module the lazy names may load (tests/test_layering.py reads this)
LAZY_IMPORTS = ("numeric.mp", "numeric.fp")

__all__ = ["mp", "fp"]


def __getattr__(name):
    if name in ("mp", "fp"):
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
