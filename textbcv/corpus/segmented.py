"""Segmented text (SIGHAN style): one sentence per line, words separated by spaces.

Words are separated by runs of ASCII spaces, TABs and U+3000; any other space is a character of its word.
Tokens are characters; the words are the gold chunks, as untyped BMES tags.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from itertools import chain

from textbcv._io import atomic_write
from textbcv.corpus._text import WORD_SEPARATORS, has_other_spaces, load_lines, long_lived, split_fields
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError

__all__ = ["read_segmented", "write_segmented", "bmes_tags", "WORD_SEPARATORS"]

_BMES = [(), ("S",)] + [("B",) + ("M",) * (n - 2) + ("E",) for n in range(2, 64)]


def _bmes(n: int) -> tuple[str, ...]:
    return _BMES[n] if n < len(_BMES) else ("B",) + ("M",) * (n - 2) + ("E",)


def bmes_tags(words: Sequence[str]) -> tuple[str, ...]:
    """Untyped BMES tags of the characters of ``words``: ``S`` for a one-character word, else ``B``, ``M`` ..., ``E``.

    Parameters
    ----------
    words : sequence of str

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> bmes_tags(["中国", "人", "民主化"])
    ('B', 'E', 'S', 'B', 'M', 'E')
    """
    lengths = list(map(len, words))
    tags = _BMES.__getitem__ if not lengths or max(lengths) < len(_BMES) else _bmes
    return tuple(chain.from_iterable(map(tags, lengths)))


def read_segmented(paths: str | os.PathLike | Iterable[str | os.PathLike], encoding: str = "utf-8") -> Corpus:
    """Read segmented text files into a :class:`Corpus` of characters (format ``"segmented"``, scheme ``"bmes"``).

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order (gzip decompressed), each line with a word a sentence. Segmented text marks no documents:
        all sentences are document 0, whatever the files (``group_by="file"`` makes the files the units).
    encoding : str

    Returns
    -------
    Corpus

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("迈向  充满\\u3000希望  的  新  世纪\\n\\n")
    >>> s = read_segmented(p)[0]
    >>> s.words
    ('迈向', '充满', '希望', '的', '新', '世纪')
    >>> s.tokens[:3], s.tags[:3]
    (('迈', '向', '充'), ('B', 'E', 'B'))
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names: list[str] = [os.fspath(p) for p in paths]
    sentences: list[Sentence] = []
    append = sentences.append
    make = Sentence._make
    with long_lived():
        for path in names:
            text, lines = load_lines(path, encoding, blank="".join(WORD_SEPARATORS))
            if "\u3000" in text:
                text = text.replace("\u3000", " ")
                lines = [line.replace("\u3000", " ") for line in lines]
            split = split_fields if has_other_spaces(text) else str.split
            del text
            for lineno, words in enumerate(map(split, lines), 1):
                if words:
                    append(make(tuple("".join(words)), bmes_tags(words), "bmes", None, None, {}, 0, path, lineno))
    return Corpus(sentences, names, "segmented", "bmes", encoding)


def write_segmented(sentences: Iterable[Sentence], path: str | os.PathLike, separator: str = "  ") -> None:
    """Write sentences as segmented text (UTF-8, atomically): their words (else tokens) joined by ``separator``.

    Parameters
    ----------
    sentences : iterable of Sentence
    path : str or path-like
    separator : str

    Raises
    ------
    InputError
        For a word that holds a word separator or a line end.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> write_segmented([Sentence(tuple("中国人"), ("B", "E", "S"), "bmes")], p)
    >>> open(p, encoding="utf-8").read()
    '中国  人\\n'
    """
    with atomic_write(path) as f:
        for s in sentences:
            words = s.words if s.tags else s.tokens
            for w in words:
                if not w or any(c in w for c in (*WORD_SEPARATORS, "\n", "\r")):
                    raise InputError(f"cannot write the word {w!r} in segmented text: empty or holds a separator",
                                     file=s.source or None, line=s.line or None)
            f.write(separator.join(words) + "\n")
