"""One home for an idea: the F1 formula is written in one function of the package, and nowhere else."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _terms(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _terms(node.left) + _terms(node.right)
    return [node]


def _twice(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and any(
        isinstance(x, ast.Constant) and x.value in (2, 2.0) for x in (node.left, node.right))


def f1_denominators(path: Path) -> list[str]:
    """Functions of ``path`` holding an F1 denominator: a sum of three or more terms, one of them twice a value
    (2·TP + FP + FN, in any spelling)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{where}.{child.name}" if where else child.name
            if isinstance(child, ast.BinOp) and isinstance(child.op, ast.Add):
                terms = _terms(child)
                if len(terms) >= 3 and any(_twice(t) for t in terms):
                    found.append(name or "<module>")
                    continue
            visit(child, name)

    visit(tree, "")
    return found


#: Sums of the same shape that are not the F1 ratio: the F1 posterior's Beta parameter FP + FN + 2λ (λ the prior
#: pseudo-count; thesis §6.2), a distribution's parameter rather than a score.
NOT_THE_RATIO = {"textbcv/stats/posterior.py:posteriors"}


def test_the_f1_formula_has_one_home():
    homes = {}
    for path in sorted((ROOT / "textbcv").rglob("*.py")):
        for where in f1_denominators(path):
            key = f"{path.relative_to(ROOT)}:{where}"
            homes[key] = homes.get(key, 0) + 1
    assert [k for k in homes if k not in NOT_THE_RATIO] == ["textbcv/stats/metrics.py:metric_parts"], homes
    assert homes["textbcv/stats/metrics.py:metric_parts"] == 1


def test_the_detector_finds_the_usual_spellings(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("def a(tp, fp, fn):\n    return 2 * tp / (2 * tp + fp + fn)\n"
                 "def b(c):\n    return c[0] * 2 / (c[1] + c[2] + 2 * c[0])\n"
                 "def c(t):\n    return t.tp + t.fp\n")
    assert f1_denominators(p) == ["a", "b"]
