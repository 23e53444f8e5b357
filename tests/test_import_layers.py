"""No import inside a function dodges a circle: hoisting any of them to its module's top would close none.

Imports inside functions remain where they keep ``textbcv --help`` and ``import textbcv`` fast (the CLI's
commands load their stage when run) or load an optional dependency when asked for (``datasets``, ``spacy``,
scikit-learn's splitter through ``textbcv.split.__getattr__``); none of them is there because the module
it names imports, at its top, the module that needs it. The check builds the graph of top-level imports
(a submodule's import also imports its parent packages) and, for every import inside a function, asks
whether the imported module reaches the importing one; a module-level ``__getattr__`` (lazy attributes of
a package) is exempt.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "textbcv"


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in root.rglob("*.py"):
        rel = p.relative_to(root.parent).with_suffix("")
        out[".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)] = p
    return out


def _targets(mods: dict[str, Path], cur: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    pkg = cur if mods[cur].name == "__init__.py" else cur.rsplit(".", 1)[0]
    base = node.module or ""
    if node.level:
        parts = pkg.split(".")
        base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]


def circle_dodgers(root: Path = PACKAGE) -> list[str]:
    """``module:line -> imported`` for every import inside a function that, hoisted, would close a circle."""
    mods = _modules(root)
    top: dict[str, set[str]] = {m: set() for m in mods}
    inner: list[tuple[str, str, int]] = []
    for m, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nested: set[int] = set()
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lazy_attr = f.name == "__getattr__" and f in tree.body
                for n in ast.walk(f):
                    if isinstance(n, (ast.Import, ast.ImportFrom)):
                        nested.add(id(n))
                        if not lazy_attr:
                            inner += [(m, x, n.lineno) for x in _targets(mods, m, n) if x.startswith("textbcv")]
        for n in ast.walk(tree):
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in nested:
                for x in _targets(mods, m, n):
                    parts = x.split(".")
                    top[m] |= {q for q in (".".join(parts[:k]) for k in range(1, len(parts) + 1))
                               if q in mods and q != m}

    def reaches(a: str, b: str) -> bool:
        seen, stack = set(), [a]
        while stack:
            for y in top.get(stack.pop(), ()):
                if y == b:
                    return True
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        return False

    return [f"{m}:{line} -> {x}" for m, x, line in inner if x in mods and reaches(x, m)]


def test_no_import_inside_a_function_dodges_a_circle():
    assert circle_dodgers() == []


def test_the_check_sees_a_dodged_circle(tmp_path):
    pkg = tmp_path / "textbcv"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from textbcv import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("def f():\n    from textbcv import a\n    return a\n", encoding="utf-8")
    assert circle_dodgers(pkg) == ["textbcv.b:2 -> textbcv.a"]
