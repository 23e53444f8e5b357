"""textbcv: is tagger B really better than tagger A on this corpus?

Block-regularized m×2 cross-validation for sequence taggers: balanced
splits of a corpus, taggers trained on every half (CRFs, or your own),
conlleval-exact chunk scoring, and Bayes tests on precision, recall and F1.

The whole workflow is here, without reaching into sub-packages:

- :func:`read_corpus` — CoNLL, CoNLL-U, segmented text or Hugging Face-style JSON lines into a :class:`Corpus`;
- :func:`make_splits` / :func:`load_splits` — balanced m×2 BCV splits
  (:class:`Mx2BCV` is the scikit-learn splitter);
- :class:`System` — a tagging scheme with a CRF, or any tagger with
  ``fit(sentences, tags)`` and ``predict(sentences)``;
- :func:`compare` — every system on every fold, the tests and the report
  (a :class:`CompareResult`); :func:`evaluate` — the same from predictions
  made elsewhere on exported folds (:func:`export_folds`);
- :func:`test` — the Bayes test of per-fold counts you already have (a COUNTS.json, a run);
- :func:`score` — chunk counts and P / R / F1 of seqeval-style tag lists;
- :func:`calibrate` — the decision rule's false calls on your own corpus (null pairs);
- :func:`run_components` — ρ1 and ρ2 of your own tagger from runs on
  independently drawn data sets (for the ``rho`` count factor).

Names are imported when first used, so ``import textbcv`` stays fast.

Examples
--------
>>> import textbcv
>>> textbcv.__version__
'0.1.0'
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
    "compare": "textbcv.api",
    "evaluate": "textbcv.api",
    "test": "textbcv.api",
    "score": "textbcv.api",
    "CompareResult": "textbcv.api",
    "export_folds": "textbcv.split.export",
    "run_components": "textbcv.comparison.components",
    "bundled_corpora": "textbcv.corpus.bundled",
    "plan": "textbcv.api",
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
