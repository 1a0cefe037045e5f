"""No hand-written root or extremum loop outside numeric/solvers.py (issue #24 item 3).

A source scan (ast, nothing is imported) over derive/, numeric/ and proofs_check/ flags a ``for`` or
``while`` loop that

* computes a midpoint of two names and reassigns both of them (bisection: ``m = (lo + hi) / 2``,
  ``x = lo + (hi - lo) / 2``, the geometric ``sqrt(lo * hi)``, ``ldexp(lo + hi, -1)``), or
* has a test ``hi - lo > ...`` (or ``hi > k * lo``) and reassigns both ``lo`` and ``hi``, or
* in one if/else assigns one name in a branch and another name in the other branch from the same
  value (the bracket update of bisection, regula falsi, golden section), or
* uses a golden-section constant (a name containing ``golden``, ``0.618...``, ``0.381966...``,
  ``sqrt(5)``), or
* takes a Newton step ``x = x - f / d`` (or ``x -= f / d``).

A loop that must stay where it is is named in ``ALLOWED`` ({path: {function: reason}}), kept minimal.
"""

from __future__ import annotations

import ast
import functools
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ("derive", "numeric", "proofs_check")
HOME = "numeric/solvers.py"

#: loops that stay outside numeric/solvers.py, with the reason; {path: {enclosing function: reason}}
ALLOWED: dict[str, dict[str, str]] = {
    "numeric/arb.py": {
        "approximate_log_phi_inverse": "certified code: Newton steps in arb ball arithmetic rounded to exact "
                                       "midpoints, a bit count doubling per step (no tolerance test); the point "
                                       "is then certified by certify_inverse, and moving it would put arb into "
                                       "numeric.solvers for one caller",
    },
}


def _names(node):
    """Dotted names (``x``, ``self.lo``) read anywhere in ``node``."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.Attribute)):
            try:
                out.add(ast.unparse(n))
            except Exception:  # pragma: no cover
                pass
    return out


def _targets(stmt):
    """Dotted names assigned by one statement (tuple targets unpacked)."""
    if isinstance(stmt, ast.Assign):
        tg = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        tg = [stmt.target]
    else:
        return set()
    out = set()
    for t in tg:
        for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
            if isinstance(e, (ast.Name, ast.Attribute)):
                out.add(ast.unparse(e))
    return out


def _assignments(loop):
    """(target, value) for every assignment inside ``loop`` (tuple = tuple elementwise)."""
    out = []
    for n in ast.walk(loop):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                if isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple) and len(t.elts) == len(n.value.elts):
                    out += [(e, v) for e, v in zip(t.elts, n.value.elts)]
                else:
                    out += [(e, n.value) for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
    return [(ast.unparse(t), v) for t, v in out if isinstance(t, (ast.Name, ast.Attribute))]


def _assigned(stmts):
    out = set()
    for s in stmts:
        for n in ast.walk(s):
            out |= _targets(n)
    return out


def _is_two(node):
    return isinstance(node, ast.Constant) and node.value in (2, 2.0)


def _midpoint_ends(node):
    """The two end names if ``node`` is a midpoint of them, else None."""
    if isinstance(node, ast.BinOp):
        # (a + b) / 2, (a + b) * 0.5
        if ((isinstance(node.op, ast.Div) and _is_two(node.right))
                or (isinstance(node.op, ast.Mult) and isinstance(node.right, ast.Constant)
                    and node.right.value == 0.5)):
            inner = node.left
            if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Add):
                return _pair(inner.left, inner.right)
        # a + (b - a) / 2
        if isinstance(node.op, ast.Add) and isinstance(node.right, ast.BinOp) \
                and isinstance(node.right.op, ast.Div) and _is_two(node.right.right) \
                and isinstance(node.right.left, ast.BinOp) and isinstance(node.right.left.op, ast.Sub):
            return _pair(node.right.left.left, node.right.left.right)
    if isinstance(node, ast.Call):
        fn = ast.unparse(node.func).rsplit(".", 1)[-1]
        # sqrt(a * b): the geometric midpoint
        if fn == "sqrt" and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) \
                and isinstance(node.args[0].op, ast.Mult):
            return _pair(node.args[0].left, node.args[0].right)
        # ldexp(a + b, -1)
        if fn == "ldexp" and len(node.args) == 2 and isinstance(node.args[0], ast.BinOp) \
                and isinstance(node.args[0].op, ast.Add):
            return _pair(node.args[0].left, node.args[0].right)
    return None


def _pair(x, y):
    if isinstance(x, (ast.Name, ast.Attribute)) and isinstance(y, (ast.Name, ast.Attribute)):
        a, b = ast.unparse(x), ast.unparse(y)
        if a != b:
            return a, b
    return None


def _width_test(test):
    """(lo, hi) if a while-test compares ``hi - lo`` (or ``hi`` with ``k * lo``) with something."""
    if not isinstance(test, ast.Compare):
        return None
    for side in [test.left, *test.comparators]:
        if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Sub):
            p = _pair(side.left, side.right)
            if p:
                return p
    if isinstance(test.left, (ast.Name, ast.Attribute)) and len(test.comparators) == 1:
        r = test.comparators[0]
        if isinstance(r, ast.BinOp) and isinstance(r.op, ast.Mult) and isinstance(r.right, (ast.Name, ast.Attribute)):
            return _pair(test.left, r.right)
    return None


def _value_key(stmt):
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        t, v = stmt.targets[0], stmt.value
        if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts):
            return [(ast.unparse(a), ast.unparse(b)) for a, b in zip(t.elts, v.elts)
                    if isinstance(a, (ast.Name, ast.Attribute))]
        if isinstance(t, (ast.Name, ast.Attribute)):
            return [(ast.unparse(t), ast.unparse(v))]
    return []


def _branch_pairs(stmts):
    out = set()
    for s in stmts:
        out.update(_value_key(s))
    return out


def _bracket_update(loop):
    """An if/else inside the loop whose branches assign different names from the same value."""
    for n in ast.walk(loop):
        if isinstance(n, ast.If) and n.orelse:
            left, right = _branch_pairs(n.body), _branch_pairs(n.orelse)
            for tl, vl in left:
                for tr, vr in right:
                    if vl == vr and tl != tr and tl not in vl and tr not in vr and not vl.startswith(("None", "True", "False")) \
                            and not vl.replace(".", "").replace("-", "").isdigit():
                        return f"bracket update {tl} / {tr} := {vl}"
    return None


_GOLDEN_NUMBERS = (0.618, 0.381966, 1.618)


def _golden(loop):
    called = {id(n.func) for n in ast.walk(loop) if isinstance(n, ast.Call)}
    for n in ast.walk(loop):
        if isinstance(n, ast.Name) and "golden" in n.id.lower() and id(n) not in called:
            return f"golden-section constant {n.id}"
        if isinstance(n, ast.Constant) and isinstance(n.value, float) \
                and any(abs(n.value - g) < 1e-3 for g in _GOLDEN_NUMBERS):
            return f"golden-section constant {n.value}"
    return None


def _newton(loop):
    # x -= s (or x += s), s computed from x in the loop, with a convergence test on abs(s): a Newton
    # (or fixed-point) update; a series sum (total += term, term not computed from total) is not one
    tested = {ast.unparse(n.args[0]) for n in ast.walk(loop) if isinstance(n, ast.Call)
              and ast.unparse(n.func) == "abs" and len(n.args) == 1}
    pairs = _assignments(loop)
    for n in ast.walk(loop):
        if isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Add, ast.Sub)) \
                and isinstance(n.value, ast.Name) and n.value.id in tested:
            x = ast.unparse(n.target)
            if any(t == n.value.id and x in _names(v) for t, v in pairs):
                return f"Newton step {ast.unparse(n)} tested on abs({n.value.id})"
    # x = g(x - s) (e.g. a rounded iterate (x - step).mid()), s computed from x in the loop (a lambda's
    # own names, e.g. a stopping rule handed to numeric.solvers, are not the loop's)
    in_lambda = {id(m) for lam in ast.walk(loop) if isinstance(lam, ast.Lambda) for m in ast.walk(lam.body)}
    for t, v in pairs:
        for m in ast.walk(v):
            if id(m) not in in_lambda and isinstance(m, ast.BinOp) and isinstance(m.op, ast.Sub) and ast.unparse(m.left) == t \
                    and isinstance(m.right, ast.Name) and m.right.id != t \
                    and any(t2 == m.right.id and t in _names(v2) for t2, v2 in pairs):
                return f"Newton step {t} = {ast.unparse(v)}"
    for n in ast.walk(loop):
        if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Sub) and isinstance(n.value, ast.BinOp) \
                and isinstance(n.value.op, ast.Div):
            return f"Newton step {ast.unparse(n)}"
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            v = n.value
            if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Sub) and isinstance(v.left, ast.Name) \
                    and v.left.id == n.targets[0].id and isinstance(v.right, ast.BinOp) \
                    and isinstance(v.right.op, ast.Div):
                return f"Newton step {ast.unparse(n)}"
    return None


def _secant(loop):
    """A secant (regula falsi, Illinois) point ``b - fb (b - a) / (fb - fa)`` of two reassigned ends."""
    assigned = _assigned(loop.body + loop.orelse)
    for n in ast.walk(loop):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and isinstance(n.right, ast.BinOp) \
                and isinstance(n.right.op, ast.Sub):
            den = _pair(n.right.left, n.right.right)
            if not den or not set(den) <= assigned:
                continue
            for m in ast.walk(n.left):
                if isinstance(m, ast.BinOp) and isinstance(m.op, ast.Sub):
                    ends = _pair(m.left, m.right)
                    if ends and set(ends) <= assigned and set(ends) != set(den):
                        return f"secant point {ast.unparse(n)} of reassigned ends"
    return None


def loop_findings(loop):
    """Why ``loop`` looks like a hand-written root or extremum search (a list, empty if it does not)."""
    body = loop.body + loop.orelse
    assigned = _assigned(body)
    out = []
    pairs = _assignments(loop)
    for n in ast.walk(loop):
        ends = _midpoint_ends(n)
        if not ends:
            continue
        # the names holding the midpoint (or a value built from it), and the ends moved to one of them
        holders = {t for t, v in pairs if any(x is n for x in ast.walk(v))} | {ast.unparse(n)}
        moved = {t for t, v in pairs if _names(v) & holders or ast.unparse(v) in holders}
        if set(ends) <= moved:
            out.append(f"midpoint of {ends[0]}, {ends[1]} with both ends moved to it")
            break
    if isinstance(loop, ast.While):
        ends = _width_test(loop.test)
        if ends and set(ends) <= assigned:
            out.append(f"while-test on the width of {ends[0]}, {ends[1]}")
    for check in (_bracket_update, _secant, _golden, _newton):
        why = check(loop)
        if why:
            out.append(why)
    return out


class _Finder(ast.NodeVisitor):
    def __init__(self):
        self.stack, self.found = [], []

    def visit_FunctionDef(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        why = loop_findings(node)
        if why:
            self.found.append((node.lineno, ".".join(self.stack) or "<module>", why))
            return                  # the outermost flagged loop is the finding
        self.generic_visit(node)

    visit_For = visit_While = _loop


def scan_source(text: str, filename: str = "<src>"):
    """[(line, enclosing function, [reasons])] for every flagged loop in ``text``."""
    f = _Finder()
    f.visit(ast.parse(text, filename=filename))
    return f.found


def scan(root: Path = ROOT, packages=LIBRARY):
    """{relative path: [(line, function, reasons)]} over the library, numeric/solvers.py excluded."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel == HOME:
                continue
            found = scan_source(path.read_text(encoding="utf-8"), rel)
            if found:
                out[rel] = found
    return out


@functools.lru_cache(maxsize=1)
def _library_scan():
    """scan() of the library, once per run: both tests below read it (the scan takes several seconds)."""
    return scan()


def test_no_hand_written_root_loop_outside_numeric_solvers():
    bad = []
    for rel, found in _library_scan().items():
        for line, func, why in found:
            if func.split(".")[-1] in ALLOWED.get(rel, {}) or func in ALLOWED.get(rel, {}):
                continue
            bad.append(f"{rel}:{line} ({func}): {'; '.join(why)}")
    assert not bad, "hand-written root/extremum loops (use numeric.solvers):\n" + "\n".join(bad)


def test_the_allow_list_is_not_stale():
    """Every allow-listed function still holds a flagged loop (a migrated one leaves the list)."""
    found = _library_scan()
    for rel, funcs in ALLOWED.items():
        flagged = {f for _, f, _ in found.get(rel, [])} | {f.split(".")[-1] for _, f, _ in found.get(rel, [])}
        for func, reason in funcs.items():
            assert reason.strip(), f"{rel}:{func} needs a reason"
            assert func in flagged, f"{rel}:{func} is allow-listed but has no flagged loop any more"


_SNIPPETS = {
    "bisection": """
        def root(f, lo, hi):
            for _ in range(60):
                mid = (lo + hi) / 2
                if f(mid) > 0:
                    lo = mid
                else:
                    hi = mid
            return lo
    """,
    "while-width": """
        def root(f, lo, hi, tol):
            while hi - lo > tol:
                m = lo + (hi - lo) / 2
                lo, hi = (m, hi) if f(m) > 0 else (lo, m)
            return lo
    """,
    "geometric": """
        import math
        def root(f, lo, hi):
            while hi > 2 * lo:
                g = math.sqrt(lo * hi)
                lo, hi = (g, hi) if f(g) else (lo, g)
    """,
    "golden": """
        GOLDEN = 0.6180339887
        def gmax(h, a, b):
            for _ in range(80):
                c = b - GOLDEN * (b - a)
                if h(c) > h(a):
                    a = c
    """,
    "illinois": """
        def rf(f, a, b, fa, fb):
            for _ in range(50):
                x = b - fb * (b - a) / (fb - fa)
                fx = f(x)
                if fx * fb < 0:
                    a, fa = b, fb
                else:
                    fa = fa / 2
                b, fb = x, fx
    """,
    "newton": """
        def newton(f, d, x):
            for _ in range(20):
                x = x - f(x) / d(x)
            return x
    """,
    "newton-rounded": """
        def newton(f, d, x, n):
            for _ in range(n):
                step = f(x) / d(x)
                x = round(x - step, 10)
            return x
    """,
    "newton-step": """
        def newton(f, d, x, tol):
            while True:
                step = f(x) / d(x)
                x -= step
                if abs(step) < tol:
                    return x
    """,
}


def test_the_scan_flags_hand_written_loops(tmp_path):
    """Each kind of loop, written to a file of a scratch package, is flagged; a plain loop is not."""
    pkg = tmp_path / "numeric"
    pkg.mkdir()
    for name, src in _SNIPPETS.items():
        (pkg / f"{name}.py").write_text(textwrap.dedent(src))
    (pkg / "plain.py").write_text(textwrap.dedent("""
        def total(xs):
            s, lo, hi = 0, 0, 0
            for x in xs:
                s = s + x
                lo, hi = min(lo, x), max(hi, x)
            return s / 2
    """))
    (pkg / "solvers.py").write_text(textwrap.dedent(_SNIPPETS["bisection"]))   # the home is exempt
    found = scan(tmp_path, ("numeric",))
    assert set(found) == {f"numeric/{name}.py" for name in _SNIPPETS}, found
