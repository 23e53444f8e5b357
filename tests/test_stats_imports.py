"""textbcv.stats imports only numpy and scipy (and itself)."""

import ast
import subprocess
import sys
from pathlib import Path

import textbcv.stats


def test_stats_imports_only_numpy_scipy():
    root = Path(textbcv.stats.__file__).parent
    for path in root.rglob("*.py"):  # the paired/ package too
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
                               "functools", "typing", "importlib", "__future__"}, f"{path.name} imports {n}"


def test_scoring_loads_no_scipy_stats():
    """The package's names load on first use: ``textbcv score`` (which needs only the P/R/F1 of
    :mod:`textbcv.stats.metrics`) does not import scipy.stats, and every name of ``__all__`` is still there."""
    code = ("import sys, textbcv.stats.metrics, textbcv.scoring, textbcv.cli.score; "
            "heavy = ('scipy.stats', 'textbcv.stats.bayes', 'pandas', 'matplotlib'); "
            "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert all(getattr(textbcv.stats, name) is not None for name in textbcv.stats.__all__)
    assert set(textbcv.stats.__all__) <= set(dir(textbcv.stats))
