"""Corpus readers and writers (one module per format), format detection, and the :class:`Corpus` model.

Every reader takes an ``encoding``, decompresses gzip, reads a pipe once, and keeps every byte of a token. The
names below load their module on first use (PEP 562), so that what needs one reader (``textbcv score`` needs
:mod:`textbcv.corpus.conlleval`) does not import them all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for type checkers; at run time each loads on first use
    from textbcv.corpus.conll import read_conll, write_conll
    from textbcv.corpus.conlleval import format_conlleval, read_conlleval, write_conlleval
    from textbcv.corpus.conllu import read_conllu, write_conllu
    from textbcv.corpus.docbin import read_docbin
    from textbcv.corpus.jsonl import read_arrow, read_jsonl
    from textbcv.corpus.model import Chunk, Corpus, Sentence
    from textbcv.corpus.read import read_corpus
    from textbcv.corpus.segmented import read_segmented, write_segmented
    from textbcv.corpus.sniff import FORMATS, check_format, sniff_format

#: where each name of :data:`__all__` lives
_HOME = {
    "Chunk": "model", "Corpus": "model", "Sentence": "model", "read_corpus": "read",
    "read_conll": "conll", "write_conll": "conll", "read_conllu": "conllu", "write_conllu": "conllu",
    "read_segmented": "segmented", "write_segmented": "segmented", "read_jsonl": "jsonl", "read_arrow": "jsonl",
    "read_docbin": "docbin", "read_conlleval": "conlleval", "write_conlleval": "conlleval",
    "format_conlleval": "conlleval", "FORMATS": "sniff", "check_format": "sniff", "sniff_format": "sniff",
}

__all__ = [
    "Chunk", "Corpus", "Sentence", "read_corpus", "read_conll", "read_conllu", "read_segmented", "read_jsonl",
    "read_arrow", "read_docbin",
    "read_conlleval",
    "write_conll", "write_conllu", "write_segmented", "write_conlleval", "format_conlleval", "FORMATS",
    "check_format", "sniff_format",
]


def __getattr__(name: str) -> Any:
    """``textbcv.corpus.NAME``: the name from its module, loaded on first use."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
