"""Segmented text (SIGHAN style): one sentence per line, words separated by white space.

Any run of white space separates words, including the ideographic space
U+3000. Tokens are characters; the gold chunks are the words, stored as
untyped BMES tags (``B``, ``M``, ``E``, ``S``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from textbcv.corpus._text import read_lines
from textbcv.corpus.model import Corpus, Sentence

__all__ = ["read_segmented", "bmes_tags"]


def bmes_tags(words: Sequence[str]) -> tuple[str, ...]:
    """Untyped BMES tags of the characters of ``words``.

    Examples
    --------
    >>> bmes_tags(["中国", "人", "民主化"])
    ('B', 'E', 'S', 'B', 'M', 'E')
    """
    tags: list[str] = []
    for w in words:
        if len(w) == 1:
            tags.append("S")
        else:
            tags.append("B")
            tags.extend("M" * (len(w) - 2))
            tags.append("E")
    return tuple(tags)


def read_segmented(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Corpus:
    """Read segmented text files into a :class:`Corpus` of characters.

    Each file is one document; each non-blank line is a sentence.

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
    paths = [os.fspath(p) for p in paths]
    sentences = []
    for document, path in enumerate(paths):
        for lineno, line in enumerate(read_lines(path), 1):
            words = line.split()
            if not words:
                continue
            tokens = tuple("".join(words))
            sentences.append(Sentence(tokens, bmes_tags(words), "bmes", None, None, {}, document, path, lineno))
    return Corpus(sentences, paths, "segmented", "bmes")
