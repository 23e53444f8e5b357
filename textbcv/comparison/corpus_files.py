"""Reading a command's corpus files once: the format given or detected, and the line that says which."""

from __future__ import annotations

from collections.abc import Sequence

from textbcv._io import check_encoding
from textbcv.corpus import Corpus, read_corpus
from textbcv.corpus.sniff import FormatGuess, check_format
from textbcv.errors import InputError

__all__ = ["read_files"]


def read_files(files: Sequence[str], format: str | None = None, columns: str | None = None,
               scheme: str | None = None, encoding: str = "utf-8",
               label_names: Sequence[str] | None = None) -> tuple[Corpus, str | None]:
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
        Text encoding of the files.
    label_names : sequence of str or None
        The tag of each integer id of a jsonl or arrow corpus.

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
