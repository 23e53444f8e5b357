"""textbcv: is tagger B really better than tagger A on this corpus?

Block-regularized m×2 cross-validation for sequence taggers: balanced splits, taggers trained on every half,
conlleval-exact chunk scoring, and Bayes tests on precision, recall and F1. The main entry points are
:func:`read_corpus`, :func:`make_splits`, :class:`System`, :func:`compare`, :func:`evaluate`, :func:`test`,
:func:`score` and :func:`calibrate`, and for one training set and one test set over seeds :func:`compare_fixed` and
:func:`evaluate_fixed`; names are imported when first used.

Examples
--------
>>> import textbcv
>>> textbcv.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]]).f1
1.0
"""

from textbcv.errors import InputError

__version__ = "0.1.0"

#: Public name -> module that defines it (imported on first use).
_LAZY = {
    "read_corpus": "textbcv.corpus",
    "Corpus": "textbcv.corpus",
    "Sentence": "textbcv.corpus",
    "make_splits": "textbcv.split",
    "load_splits": "textbcv.split",
    "SplitSet": "textbcv.split",
    "Mx2BCV": "textbcv.split.sklearn",
    "System": "textbcv.tagging",
    "parse_system": "textbcv.tagging",
    "CommandSpec": "textbcv.tagging.command",
    "compare": "textbcv.api",
    "evaluate": "textbcv.api",
    "test": "textbcv.api",
    "score": "textbcv.api",
    "CompareResult": "textbcv.api",
    "export_folds": "textbcv.split.export",
    "run_components": "textbcv.comparison.components",
    "bundled_corpora": "textbcv.corpus.bundled",
    "plan": "textbcv.api",
    "compare_fixed": "textbcv.api_fixed",
    "evaluate_fixed": "textbcv.api_fixed",
    "calibrate": "textbcv.calibration",
    "Calibration": "textbcv.calibration",
}

__all__ = ["InputError", "__version__", *_LAZY]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'textbcv' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
