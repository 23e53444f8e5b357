"""The answer has one home: the command line imports no statistics, and the Bayes answer is built in one place."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "textbcv"


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def test_the_command_line_imports_no_statistics():
    found = {str(p.relative_to(PACKAGE)): sorted(x for x in _imports(p) if x == "textbcv.stats"
                                                 or x.startswith("textbcv.stats.") or x == "textbcv.stats")
             for p in sorted((PACKAGE / "cli").rglob("*.py"))}
    assert {k: v for k, v in found.items() if v} == {}


def callers(name: str) -> list[str]:
    """``module:function`` of every call of ``name`` in the package (a bare or attribute call)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for n in ast.walk(f):
                    if isinstance(n, ast.Call) and name in (getattr(n.func, "id", None), getattr(n.func, "attr", None)):
                        out.append(f"{path.relative_to(PACKAGE)}:{f.name}")
    return out


def test_the_bayes_answer_has_one_caller():
    assert callers("bayes_answer") == ["comparison/from_folds.py:answer_from_folds"]


def test_no_paired_posterior_is_built_outside_its_homes():
    # the paired posterior of an answer comes from the folds' per-sentence counts (design_effects.py); the error
    # anatomy pairs its own error kinds
    outside = sorted({c for c in callers("paired_differences") if not c.startswith("stats/")})
    assert outside == ["comparison/anatomy.py:anatomy_section", "comparison/design_effects.py:sentence_statistics"]


def test_the_front_door_answers_what_the_command_prints(tmp_path, capsys):
    import json

    import textbcv
    from textbcv.cli import main

    path = tmp_path / "counts.json"
    a, b = [{"tp": 90, "fp": 10, "fn": 12}] * 6, [{"tp": 93, "fp": 9, "fn": 9}] * 6
    path.write_text(json.dumps({"m": 3, "systems": {"A": a, "B": b}}), encoding="utf-8")
    assert main(["test", str(path), "--json", "--rope", "0.5", "--variant", "thesis"]) == 0
    printed = json.loads(capsys.readouterr().out)
    answer = textbcv.test(path, rope=0.005, variant="thesis")
    assert json.loads(json.dumps(answer.to_dict())) == printed
    assert answer.report.answer.p_better("A", "B") == printed["comparisons"][2]["p_b_better"]


def test_compare_and_evaluate_go_through_their_front_doors():
    # the command line parses and prints; textbcv.compare and textbcv.evaluate check, run and build the answer
    for command, door in (("compare", "textbcv.api.compare"), ("evaluate", "textbcv.api.evaluate")):
        imports = _imports(PACKAGE / "cli" / f"{command}.py")
        assert door in imports
        assert not [x for x in imports if x.startswith("textbcv.comparison")], command
