"""Layering of the packages, checked on the source (ast), without importing anything.

derive/ (SymPy layer) imports neither numeric nor proofs_check; numeric/ does not
import proofs_check.  Library code never sets mpmath's global precision (only
``workdps``/``workprec`` locally) and never calls eval/exec.
proofs_check/ is scanned for the same two rules, and no package has an import cycle inside it
(registry <-> claims_*, reproduce <-> reproduce_* were such cycles): every import counts, also
one inside a function, except an import of a package's own ``__init__`` from inside it.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ("derive", "numeric", "proofs_check")
PACKAGES = LIBRARY


def _py_files(package: str):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no Python files under {package}/"
    return files


@functools.lru_cache(maxsize=None)
def _tree(path: Path):
    """The parsed source of ``path``, parsed once per run (every test here only reads it)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.lru_cache(maxsize=None)
def _imported_modules(path: Path):
    """Absolute names of every module imported by ``path`` (relative imports resolved)."""
    tree = _tree(path)
    lazy = _lazy_targets(tree)
    # the package containing the module (for pkg/__init__.py that is pkg itself)
    package_parts = list(path.relative_to(ROOT).with_suffix("").parts)[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - (node.level - 1)]
                assert len(base) >= 1, f"{path}: relative import escapes the top-level package"
                prefix = ".".join(base)
                mod = f"{prefix}.{node.module}" if node.module else prefix
            else:
                mod = node.module or ""
            out.append(mod)
            # ``from . import numeric``-style imports name modules in ``names``
            out.extend(f"{mod}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__"):
            for arg in node.args[:1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.append(arg.value)
                elif lazy is None:
                    out.append("<dynamic import>")
    return out + list(lazy or ())


def _lazy_targets(tree):
    """A module whose imports are computed (PEP 562 lazy loading) declares every module they
    may load in a module-level ``LAZY_IMPORTS = ("pkg.mod", ...)`` of string constants."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LAZY_IMPORTS" for t in node.targets):
            assert isinstance(node.value, ast.Tuple), "LAZY_IMPORTS must be a tuple of strings"
            names = [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            assert len(names) == len(node.value.elts), "LAZY_IMPORTS must be a tuple of string constants"
            return names
    return None


def _forbidden(modules, packages):
    return [m for m in modules for p in packages if m == p or m.startswith(p + ".") or m == "<dynamic import>"]


@pytest.mark.parametrize("path", _py_files("derive"), ids=lambda p: str(p.relative_to(ROOT)))
def test_derive_imports_neither_numeric_nor_proofs_check(path):
    bad = _forbidden(_imported_modules(path), ("numeric", "proofs_check"))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", _py_files("numeric"), ids=lambda p: str(p.relative_to(ROOT)))
def test_numeric_does_not_import_proofs_check(path):
    bad = _forbidden(_imported_modules(path), ("proofs_check",))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_import_walker_resolves_relative_imports():
    # self-check of the walker on a file known to use ``from .. import symbols``
    mods = _imported_modules(ROOT / "derive" / "mechanisms" / "gaussian.py")
    assert "derive.symbols" in mods or "derive" in mods
    assert "derive.special" in mods


# ---------------------------------------------------------------- global precision, eval/exec
LIBRARY_FILES = [p for pkg in LIBRARY for p in _py_files(pkg)]
_GLOBAL_PRECISION = re.compile(r"\b(mp|mpmath\.mp|mpmath)\s*\.\s*(dps|prec)\s*[+\-*/]?=(?!=)")


def _precision_assignments(tree):
    """Assignments whose target is ``<something>.mp.dps|prec`` or ``mp.dps|prec`` (ast)."""
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            # mpmath.mp.dps = ..., flint.ctx.prec = ...: global; self.prec = ... is an object's own
            if isinstance(t, ast.Attribute) and t.attr in ("dps", "prec") and \
                    not (isinstance(t.value, ast.Name) and t.value.id == "self"):
                found.append(ast.unparse(t))
        # setattr(mpmath.mp, "dps", ...)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr" and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and name.value in ("dps", "prec"):
                found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_global_precision_assignment(path):
    text = path.read_text(encoding="utf-8")
    assert not _GLOBAL_PRECISION.search(text), f"{path.relative_to(ROOT)}: {_GLOBAL_PRECISION.search(text).group(0)}"
    assert not _precision_assignments(_tree(path)), f"{path.relative_to(ROOT)} sets the global precision"


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_eval_or_exec(path):
    tree = _tree(path)
    calls = [ast.unparse(n) for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
             and (getattr(n.func, "id", None) in ("eval", "exec", "compile")
                  or (isinstance(n.func, ast.Attribute) and n.func.attr in ("eval", "exec")
                      and getattr(n.func.value, "id", "") in ("builtins", "__builtins__")))]
    assert not calls, f"{path.relative_to(ROOT)}: {calls}"


def test_checks_catch_violations():
    # the detectors themselves, on synthetic source
    assert _precision_assignments(ast.parse("import mpmath\nmpmath.mp.dps = 50"))
    assert _precision_assignments(ast.parse("from mpmath import mp\nmp.prec += 10"))
    assert not _precision_assignments(ast.parse("with mpmath.workdps(50):\n    x = 1"))
    assert _precision_assignments(ast.parse("import flint\nflint.ctx.prec = 200"))
    assert not _precision_assignments(ast.parse("class A:\n    def f(self):\n        self.prec = 3"))
    assert _GLOBAL_PRECISION.search("mp.dps = 30") and not _GLOBAL_PRECISION.search("if mp.dps == 30: pass")
    tmp = ast.parse("x = eval('1+1')")
    assert any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "eval" for n in ast.walk(tmp))


def test_library_packages_exist():
    for pkg in LIBRARY:
        assert (ROOT / pkg / "__init__.py").is_file()
    assert os.path.isdir(ROOT / "tests" / "reference")


# ---------------------------------------------------------------- import cycles inside the packages
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=1)
def _import_graph():
    files = [p for pkg in PACKAGES for p in _py_files(pkg)]
    names = {_module_name(p) for p in files}
    packages = {_module_name(p) for p in files if p.name == "__init__.py"}
    graph = {}
    for p in files:
        me = _module_name(p)
        edges = set()
        for m in _imported_modules(p):
            # the longest project module that m names (``from derive.x import y`` names derive.x)
            while m and m not in names:
                m = m.rpartition(".")[0]
            if not m or m == me:
                continue
            if m in packages and me.startswith(m + "."):
                continue  # a submodule importing its own package's __init__
            edges.add(m)
        graph[me] = edges
    return graph


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles_inside_the_packages():
    cycles = _cycles(_import_graph())
    assert not cycles, f"import cycles: {cycles}"


def test_cycle_detector_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_registry_and_reproduce_do_not_import_their_children():
    graph = _import_graph()
    assert not {m for m in graph["proofs_check.registry"] if m.startswith("proofs_check.claims_")}
    assert not {m for m in graph["proofs_check.reproduce"] if m.startswith("proofs_check.reproduce_")}


def test_bounded_cache_evicts_the_least_recently_used():
    """derive.bounded.Bounded: at most maxsize entries; a hit refreshes an entry (issue #24: caches bounded)."""
    from derive.bounded import Bounded
    calls = []
    c = Bounded(2)
    for key in ("a", "b", "a", "c", "a", "b"):
        c.memo(key, lambda key=key: calls.append(key) or key.upper())
    assert calls == ["a", "b", "c", "b"] and list(c) == ["a", "b"] and len(c) <= 2


def test_no_unbounded_module_level_cache():
    """A module-level ``NAME: dict = {}`` or ``NAME = {}`` used as a memo in derive/ or numeric/ must be a
    Bounded (or functools.lru_cache with a maxsize)."""
    import re
    root = Path(__file__).resolve().parent.parent
    bad = []
    for d in ("derive", "numeric"):
        for p in (root / d).rglob("*.py"):
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                if re.match(r"_?[A-Z_]*(CACHE|ROOTS|MEMO)[A-Z_]*\s*(:\s*dict)?\s*=\s*(\{\}|dict\(\))", line):
                    bad.append(f"{p.relative_to(root)}:{i}")
                if re.search(r"lru_cache\(\s*maxsize\s*=\s*None", line) or re.search(r"@(functools\.)?cache\b", line):
                    bad.append(f"{p.relative_to(root)}:{i}")
    assert bad == [], bad


def test_small_units():
    """Issue #24 item 4: no module over 800 lines (derive/, numeric/, proofs_check/) and no function over 80
    lines (derive/, numeric/)."""
    root = Path(__file__).resolve().parent.parent
    long_modules, long_functions = [], []
    for d in ("derive", "numeric", "proofs_check"):
        for p in (root / d).rglob("*.py"):
            src = p.read_text(encoding="utf-8")
            if src.count("\n") > 800:
                long_modules.append(f"{p.relative_to(root)}: {src.count(chr(10))} lines")
            if d == "proofs_check":
                continue
            for node in ast.walk(_tree(p)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = node.end_lineno - node.lineno + 1
                    if n > 80:
                        long_functions.append(f"{p.relative_to(root)}:{node.lineno} {node.name}: {n} lines")
    assert long_modules == [] and long_functions == [], (long_modules, long_functions)
