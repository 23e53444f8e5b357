"""``read_corpus``: a corpus in any supported format, the format told from the content or given."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from textbcv.corpus.conll import read_conll
from textbcv.corpus.conllu import read_conllu
from textbcv.corpus.docbin import read_docbin
from textbcv.corpus.jsonl import read_arrow, read_jsonl
from textbcv.corpus.model import Corpus
from textbcv.corpus.segmented import read_segmented
from textbcv.corpus.sniff import FORMATS, check_format
from textbcv.errors import InputError

__all__ = ["read_corpus"]


def read_corpus(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    format: str | None = None,
    columns: str | Sequence[str] | None = None,
    scheme: str | None = None,
    encoding: str = "utf-8",
    label_names: Sequence[str] | None = None,
) -> Corpus:
    """Read a corpus in any supported format.

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order; one format for all.
    format : {"conll", "conllu", "segmented", "jsonl", "arrow", "docbin"}, optional
        Detected when omitted; one that contradicts the content is refused.
    columns, scheme : str, optional
        Column roles and tag scheme, ``conll`` only.
    encoding : str
    label_names : sequence of str, optional
        The tag of each integer id (``jsonl``, ``arrow``).

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        ``FILE:LINE: what is wrong``, or a missing optional library (``datasets``, ``spacy``).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("中国  人民\\n")
    >>> c = read_corpus([p], format="segmented")
    >>> len(c), c.n_tokens, c[0].words
    (1, 4, ('中国', '人民'))
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if format is not None and format not in FORMATS:
        raise InputError(f"unknown format {format!r} (formats: {', '.join(FORMATS)})")
    format = check_format(paths, format, encoding).format
    if format == "conll":
        return read_conll(paths, columns=columns, scheme=scheme, encoding=encoding)
    if format in ("jsonl", "arrow"):
        if columns is not None:
            raise InputError(f'{{columns}} applies to {{format}}="conll" only, not {format}',
                             param=("columns", "format"))
        if format == "arrow":
            return read_arrow(paths, label_names=label_names, scheme=scheme)
        return read_jsonl(paths, label_names=label_names, scheme=scheme, encoding=encoding)
    if label_names is not None:
        raise InputError(f"{{label_names}} applies to jsonl and arrow corpora (integer tag ids), not {format}",
                         param=("label_names", "format"))
    if columns is not None:
        raise InputError(f'{{columns}} applies to {{format}}="conll" only, not {format}', param=("columns", "format"))
    if scheme is not None and not (format == "segmented" and scheme.lower() == "bmes"):
        raise InputError(f'{{scheme}} applies to {{format}}="conll" only ({format} files have no tag column to read)',
                         param=("scheme", "format"))
    if format == "conllu":
        return read_conllu(paths, encoding=encoding)
    if format == "docbin":
        return read_docbin(paths)
    return read_segmented(paths, encoding=encoding)
