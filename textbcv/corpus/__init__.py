"""Corpus readers and writers, and the :class:`Sentence` / :class:`Corpus` model.

Examples
--------
>>> from textbcv.corpus import read_corpus
>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "x.txt")
>>> _ = open(p, "w", encoding="utf-8").write("中国  人民\\n")
>>> c = read_corpus([p], format="segmented")
>>> len(c), c.n_tokens, c[0].words
(1, 4, ('中国', '人民'))
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from textbcv.corpus.conll import read_conll
from textbcv.corpus.conllu import read_conllu
from textbcv.corpus.model import Chunk, Corpus, Sentence
from textbcv.corpus.segmented import read_segmented
from textbcv.corpus.writers import format_conlleval, write_conll, write_conlleval
from textbcv.errors import InputError

__all__ = [
    "Chunk", "Corpus", "Sentence", "read_corpus", "read_conll", "read_conllu", "read_segmented",
    "write_conll", "write_conlleval", "format_conlleval", "FORMATS",
]

FORMATS = ("conll", "conllu", "segmented")


def read_corpus(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    format: str = "conll",
    columns: str | Sequence[str] | None = None,
    scheme: str | None = None,
) -> Corpus:
    """Read a corpus in any supported format.

    Parameters
    ----------
    paths : path or iterable of paths
    format : {"conll", "conllu", "segmented"}
    columns : str or sequence of str, optional
        Column roles, for ``conll`` only.
    scheme : str, optional
        Scheme of the tag column, for ``conll`` only (detected when omitted).
    """
    if format == "conll":
        return read_conll(paths, columns=columns, scheme=scheme)
    if columns is not None:
        raise InputError(f"--columns applies to --format conll only, not {format}")
    if scheme is not None and not (format == "segmented" and scheme.lower() == "bmes"):
        raise InputError(f"--scheme applies to --format conll only ({format} files have no tag column to read)")
    if format == "conllu":
        return read_conllu(paths)
    if format == "segmented":
        return read_segmented(paths)
    raise InputError(f"unknown format {format!r} (formats: {', '.join(FORMATS)})")
