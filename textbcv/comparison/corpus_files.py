"""Reading a command's corpus files once: the format given or detected, and the line that says which."""

from __future__ import annotations

import os
from collections.abc import Sequence

from textbcv._io import check_encoding, loads_json, read_text
from textbcv.corpus import Corpus, read_corpus
from textbcv.corpus._text import split_lines
from textbcv.corpus.jsonl import check_label_names
from textbcv.corpus.sniff import FormatGuess, check_format
from textbcv.errors import InputError

__all__ = ["read_files", "read_label_names"]


def read_files(files: Sequence[str], format: str | None = None, columns: str | None = None,
               scheme: str | None = None, encoding: str = "utf-8",
               label_names: Sequence[str] | str | os.PathLike | None = None) -> tuple[Corpus, str | None]:
    """Read the corpus ``files``, in ``format`` or the one their content (and extension) tells.

    Parameters
    ----------
    files : sequence of str
        The corpus files, read in order.
    format : str or None
        The format (:data:`textbcv.corpus.sniff.FORMATS`); None detects it.
    columns : str or None
        Column roles of a ``conll`` file; without ``format`` they make the files read as ``conll``.
    scheme : str or None
        Scheme of the gold tag column.
    encoding : str
        Text encoding of the files; default ``"utf-8"``.
    label_names : sequence of str, path, or None
        The tag of each integer id of a jsonl or arrow corpus, or a file of them (:func:`read_label_names`).

    Returns
    -------
    corpus : Corpus
        The corpus as read.
    note : str or None
        The line for stderr saying which format was detected and why; None when ``format`` was given.

    Raises
    ------
    InputError
        When the encoding or format is refused or a file cannot be read.
    """
    if isinstance(label_names, (str, os.PathLike)):
        label_names = read_label_names(label_names)
    check_encoding(encoding)
    guess = check_format(files, format, encoding)
    if format is None and not guess.decisive and guess.format != "conll" and (
            columns is not None or (scheme or "bmes").lower() != "bmes"):
        # column roles, or a scheme other than bmes, only apply to column files: the content did not say otherwise
        guess = FormatGuess("conll", f"{'--columns' if columns is not None else '--scheme'} given", False)
    if format is not None:
        guess = FormatGuess(format, "", True)
    try:
        corpus = read_corpus(files, format=guess.format, columns=columns, scheme=scheme, encoding=encoding,
                             label_names=None if label_names is None else list(label_names))
    except InputError as e:
        if guess.reason and not guess.decisive and e.file is not None:
            raise InputError(f"{e.message} (read as {guess.format}: {guess.reason}; --format sets the format)",
                             file=e.file, line=e.line) from None
        raise
    note = (f"textbcv: {', '.join(str(f) for f in files)}: read as {guess.format} ({guess.reason}); --format sets it"
            if guess.reason else None)
    return corpus, note


def read_label_names(path: str | os.PathLike) -> list[str]:
    """The label names in a file: a JSON list of strings, or one name per line (the tag of id i on line i + 1).

    Parameters
    ----------
    path : str or path-like
        The file (``--label-names FILE``).

    Returns
    -------
    list of str
        The tag of each id, in id order.

    Raises
    ------
    InputError
        ``FILE:LINE`` for a file that cannot be read, an empty name, a name given twice, or a JSON value that is not
        a list of strings.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "names.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("O\\nB-PER\\nI-PER\\n")
    >>> read_label_names(p)
    ['O', 'B-PER', 'I-PER']
    """
    path = os.fspath(path)
    text = read_text(path)
    if text.lstrip().startswith("["):
        names = loads_json(text, path)
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise InputError("label_names: expected a JSON list of non-empty tag names", file=path, line=1,
                             param="label_names")
        names = [n.strip() for n in names]
        check_label_names(names, path, text, text.index("["), param="label_names")
        return names
    out = []
    for no, line in enumerate(split_lines(text), 1):
        if not line.strip():
            raise InputError("label_names: an empty line (one tag name per line, the tag of id i on line i + 1)",
                             file=path, line=no, param="label_names")
        out.append(line.strip())
    if not out:
        raise InputError("label_names: no tag names", file=path, param="label_names")
    check_label_names(out, path, text, param="label_names")
    return out
