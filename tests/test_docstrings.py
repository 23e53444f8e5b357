"""Every public name of the package documents its parameters and what it returns (numpydoc sections).

Walks the syntax trees of ``textbcv/`` (modules and names not starting with ``_``): a function or method with
parameters besides ``self``/``cls`` needs a ``Parameters`` section, one that returns a value a ``Returns`` (or
``Yields``) section — properties are exempt, their summary is what they return, and so are a report section's
overrides of the methods :class:`textbcv.report.sections.Section` documents — and a class a ``Parameters`` or
``Attributes`` section. A new public name without them fails here with its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "textbcv"
#: The methods of a report section whose contract the ``Section`` base documents.
SECTION_METHODS = frozenset({"from_folds", "to_dict", "from_dict", "markdown", "latex", "terminal"})


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return [n for n in names if n not in ("self", "cls")]


def _returns_value(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if node.returns is not None:
        return not (isinstance(node.returns, ast.Constant) and node.returns.value is None)
    return any(isinstance(sub, ast.Return) and sub.value is not None for sub in ast.walk(node))


def _is_property(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any((isinstance(d, ast.Name) and d.id in ("property", "cached_property"))
               or (isinstance(d, ast.Attribute) and d.attr in ("setter", "cached_property"))
               for d in node.decorator_list)


def missing_sections(root: Path = PACKAGE) -> list[str]:
    """``FILE:LINE: name: what is missing`` for every public name of the package under ``root``."""
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent)
        if any(part.startswith("_") and part != "__init__.py" for part in rel.parts):
            continue

        def visit(body: list[ast.stmt], prefix: str, rel: Path = rel, inherited: frozenset = frozenset()) -> None:
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                    doc = ast.get_docstring(node) or ""
                    need = []
                    if node.name in inherited:
                        need = [] if doc else ["a docstring"]
                    elif not doc:
                        need = ["a docstring"]
                    elif not _is_property(node):
                        if _params(node) and "Parameters\n" not in doc:
                            need.append("Parameters")
                        if _returns_value(node) and "Returns\n" not in doc and "Yields\n" not in doc:
                            need.append("Returns")
                    if need:
                        out.append(f"{rel}:{node.lineno}: {prefix}{node.name}: no {' or '.join(need)}")
                elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    doc = ast.get_docstring(node) or ""
                    if "Parameters\n" not in doc and "Attributes\n" not in doc:
                        out.append(f"{rel}:{node.lineno}: {node.name}: no Parameters or Attributes")
                    section = any(isinstance(b, ast.Name) and b.id == "Section" for b in node.bases)
                    visit(node.body, f"{prefix}{node.name}.", inherited=SECTION_METHODS if section else frozenset())

        visit(ast.parse(path.read_text(encoding="utf-8")).body, "")
    return out


def test_every_public_name_has_numpydoc_sections():
    missing = missing_sections()
    assert not missing, f"{len(missing)} public names lack numpydoc sections:\n" + "\n".join(missing[:40])


def test_the_check_sees_a_missing_section(tmp_path):
    pkg = tmp_path / "textbcv"
    pkg.mkdir()
    (pkg / "mod.py").write_text('def f(x):\n    """Summary only."""\n    return x\n\n\n'
                                'def _private(x):\n    return x\n\n\n'
                                'class C:\n    """No sections."""\n\n'
                                '    @property\n    def p(self):\n        """A property: its summary says it."""\n'
                                '        return 1\n', encoding="utf-8")
    assert missing_sections(pkg) == ["textbcv/mod.py:1: f: no Parameters or Returns",
                                     "textbcv/mod.py:10: C: no Parameters or Attributes"]
