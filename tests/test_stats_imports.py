"""textbcv.stats imports only numpy and scipy (and itself)."""

import ast
from pathlib import Path

import textbcv.stats


def test_stats_imports_only_numpy_scipy():
    root = Path(textbcv.stats.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level > 0:
                    continue
                names = [node.module]
            else:
                continue
            for n in names:
                top = n.split(".")[0]
                assert top in {"numpy", "scipy", "math", "warnings", "itertools", "collections", "dataclasses",
                               "functools", "typing", "__future__"}, f"{path.name} imports {n}"
