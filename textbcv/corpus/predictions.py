"""Prediction files of a tagger run outside textbcv, read against the sentences they must predict.

Two formats, chosen by the task (whatever the corpus format):

* NER: one token per line, the token first and the predicted tag last (so
  conlleval's ``token gold pred`` and two-column ``token pred`` both work),
  a blank line after each sentence; ``-DOCSTART-`` lines are skipped.
* CWS: one line per sentence, its words separated by ASCII spaces, TABs or
  U+3000 (blank lines are skipped).

Lines and fields are those of the corpus readers (:mod:`textbcv.corpus._text`):
a token holding a no-break space is one token in both, so a test half
exported by ``textbcv split --export`` reads back as its own predictions.

The tokens (characters, for CWS) must be those of the expected sentences,
in order. The first difference — another token, a sentence that ends early
or late, a missing or extra sentence — is an :class:`InputError` naming the
prediction file and line, and the corpus sentence it should have been.

Examples
--------
>>> import tempfile, os
>>> from textbcv.corpus import Sentence
>>> sents = [Sentence(("EU", "rejects"), source="c.conll", line=3), Sentence(("Peter",), source="c.conll", line=6)]
>>> p = os.path.join(tempfile.mkdtemp(), "fold-0-0.txt")
>>> _ = open(p, "w").write("EU B-ORG\\nrejects O\\n\\nPeter B-PER\\n")
>>> read_tag_predictions(p, sents).tags
[('B-ORG', 'O'), ('B-PER',)]
>>> _ = open(p, "w").write("EU B-ORG\\nrejected O\\n\\nPeter B-PER\\n")
>>> read_tag_predictions(p, sents)
Traceback (most recent call last):
...
textbcv.errors.InputError: ...fold-0-0.txt:2: token 'rejected', but test sentence 1 has 'rejects' here (token 2 of
c.conll:3)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from textbcv.corpus._text import has_other_spaces, load_lines, split_fields, split_words
from textbcv.corpus.conll import lower_case_tag
from textbcv.corpus.model import Chunk, Sentence
from textbcv.errors import InputError
from textbcv.schemes import OUTSIDE, decode, get_scheme

__all__ = ["TagPredictions", "read_tag_predictions", "read_segmented_predictions", "decode_predictions"]


def _where(s: Sentence) -> str:
    return f"{s.source}:{s.line}" if s.source else "the corpus"


@dataclass(frozen=True)
class TagPredictions:
    """Predicted tags of every sentence of a prediction file, and the line of each sentence's first token.

    Parameters
    ----------
    path : str
        The prediction file read.
    tags : list of tuple of str
        The predicted tags (last field of each token line) of every sentence, in file order.
    lines : list of int
        1-based line number of every sentence's first token.
    """

    path: str
    tags: list[tuple[str, ...]]
    lines: list[int]

    def line_of(self, sentence: int, token: int) -> int:
        """The line of a token (a sentence's tokens are on consecutive lines).

        Parameters
        ----------
        sentence : int
            0-based index of the sentence in the file.
        token : int
            0-based index of the token in that sentence.

        Returns
        -------
        int
            The token's 1-based line number in :attr:`path`.
        """
        return self.lines[sentence] + token


def read_tag_predictions(path: str | os.PathLike, sentences: Sequence[Sentence]) -> TagPredictions:
    """Read a NER prediction file whose sentences must be ``sentences`` (token by token).

    Parameters
    ----------
    path : str or path-like
        The prediction file: ``token ... tag`` lines, a blank line after each sentence.
    sentences : sequence of Sentence
        The sentences it must predict (a fold's test half), in file order; their tokens are matched
        against the first field of every line.

    Returns
    -------
    TagPredictions
        The predicted tags and first line of every sentence.

    Raises
    ------
    InputError
        ``FILE:LINE`` at the first line that does not fit: a missing file,
        a line with one field, another token, a sentence too short or too
        long, an extra sentence, or a file that ends before the last sentence.
    """
    name = os.fspath(path)
    if not os.path.exists(name):
        raise InputError("prediction file missing", file=name)
    text, lines = load_lines(name, empty=True)
    split = split_fields if has_other_spaces(text) else str.split  # the same fields; str.split is 5x faster
    del text
    n = len(sentences)
    tags: list[tuple[str, ...]] = []
    firsts: list[int] = []
    cur: list[str] = []
    k = 0  # sentence being read
    first = 0

    def close(lineno: int) -> None:
        nonlocal cur, k
        s = sentences[k]
        if len(cur) < len(s):
            raise InputError(f"test sentence {k + 1} ends after {len(cur)} tokens, but it has {len(s)} "
                             f"({_where(s)}; the next token is {s.tokens[len(cur)]!r})", file=name, line=lineno)
        tags.append(tuple(cur))
        firsts.append(first)
        cur = []
        k += 1

    for lineno, line in enumerate(lines, 1):
        fields = split(line)
        if not fields:
            if cur:
                close(lineno)
            continue
        if fields[0] == "-DOCSTART-":
            if cur:
                raise InputError("-DOCSTART- inside a sentence: a blank line must end the sentence first",
                                 file=name, line=lineno)
            continue
        if len(fields) < 2:
            raise InputError(f"expected the token and its predicted tag, found one field {fields[0]!r}",
                             file=name, line=lineno)
        if k >= n:
            raise InputError(f"extra sentence: the test half has only {n} sentences", file=name, line=lineno)
        s = sentences[k]
        j = len(cur)
        if j >= len(s):
            raise InputError(f"token {fields[0]!r} after the end of test sentence {k + 1} ({len(s)} tokens, "
                             f"{_where(s)}): is a blank line missing?", file=name, line=lineno)
        if fields[0] != s.tokens[j]:
            raise InputError(f"token {fields[0]!r}, but test sentence {k + 1} has {s.tokens[j]!r} here "
                             f"(token {j + 1} of {_where(s)})", file=name, line=lineno)
        if not cur:
            first = lineno
        cur.append(fields[-1])
    if cur:
        close(len(lines))
    if k < n:
        raise InputError(f"the file ends after {k} of the {n} sentences of the test half (truncated?); "
                         f"test sentence {k + 1} is {_where(sentences[k])}", file=name, line=max(len(lines), 1))
    return TagPredictions(name, tags, firsts)


def read_segmented_predictions(path: str | os.PathLike, sentences: Sequence[Sentence]) -> list[tuple[Chunk, ...]]:
    """Read a CWS prediction file (one segmented line per sentence); return the predicted words as chunks.

    The characters of each line (white space removed) must be the tokens
    of the corresponding sentence.

    Parameters
    ----------
    path : str or path-like
        The prediction file: one segmented sentence per line, words separated by white space.
    sentences : sequence of Sentence
        The sentences it must predict, whose tokens are characters, in file order.

    Returns
    -------
    list of tuple of Chunk
        The predicted words of every sentence as untyped chunks ``(start, end, "")`` of character offsets.

    Raises
    ------
    InputError
        ``FILE:LINE`` for a missing file, other characters than the sentence's, an extra sentence, or a
        file that ends before the last sentence.

    Examples
    --------
    >>> import tempfile, os
    >>> from textbcv.corpus import Sentence
    >>> p = os.path.join(tempfile.mkdtemp(), "fold-0-0.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("中国 人民\\n")
    >>> read_segmented_predictions(p, [Sentence(tuple("中国人民"), source="c.txt", line=1)])
    [((0, 2, ''), (2, 4, ''))]
    """
    name = os.fspath(path)
    if not os.path.exists(name):
        raise InputError("prediction file missing", file=name)
    text, lines = load_lines(name, empty=True)
    split = split_words if has_other_spaces(text) else str.split  # the same words; str.split is 5x faster
    del text
    n = len(sentences)
    out: list[tuple[Chunk, ...]] = []
    for lineno, line in enumerate(lines, 1):
        words = split(line)
        if not words:
            continue
        k = len(out)
        if k >= n:
            raise InputError(f"extra sentence: the test half has only {n} sentences", file=name, line=lineno)
        s = sentences[k]
        text = "".join(words)
        expected = "".join(s.tokens)
        if text != expected:
            j = next((i for i, (a, b) in enumerate(zip(text, expected)) if a != b), min(len(text), len(expected)))
            if j < min(len(text), len(expected)):
                what = f"character {text[j]!r}, but test sentence {k + 1} has {expected[j]!r} here"
            elif len(text) < len(expected):
                what = f"the line ends after {len(text)} characters, but test sentence {k + 1} has {len(expected)}"
            else:
                what = f"the line has {len(text)} characters, but test sentence {k + 1} has {len(expected)}"
            raise InputError(f"{what} (character {j + 1} of {_where(s)})", file=name, line=lineno)
        chunks = []
        start = 0
        for w in words:
            chunks.append((start, start + len(w), ""))
            start += len(w)
        out.append(tuple(chunks))
    if len(out) < n:
        raise InputError(f"the file ends after {len(out)} of the {n} sentences of the test half (truncated?); "
                         f"test sentence {len(out) + 1} is {_where(sentences[len(out)])}", file=name,
                         line=max(len(lines), 1))
    return out


def decode_predictions(preds: Sequence[TagPredictions], scheme: str, types: set[str] | None = None
                       ) -> list[list[tuple[Chunk, ...]]]:
    """Chunks of every sentence of every prediction file, decoded with ``scheme`` (leniently, as conlleval).

    Parameters
    ----------
    preds : sequence of TagPredictions
        Prediction files as read by :func:`read_tag_predictions`.
    scheme : str
        A tagging scheme (:func:`textbcv.schemes.scheme_names`).
    types : set of str, optional
        The chunk types the corpus has; a predicted tag of another type is
        refused (labels that do not belong to the corpus would all count as
        false positives).

    Returns
    -------
    list of list of tuple of Chunk
        For every prediction file, the predicted chunks of each of its sentences.

    Raises
    ------
    InputError
        ``FILE:LINE`` of the first tag that is not a tag of ``scheme`` or has a type not in ``types``.
    """
    sch = get_scheme(scheme)
    ok = {OUTSIDE}
    out = []
    for p in preds:
        for k, seq in enumerate(p.tags):
            for j, tag in enumerate(seq):
                if tag in ok:
                    continue
                try:
                    _, typ = sch.kind(tag)
                except InputError as e:
                    lower = lower_case_tag(tag)
                    raise InputError(f"predicted {lower}" if lower else
                                     f"predicted {e.message}: are the predictions in another scheme?",
                                     file=p.path, line=p.line_of(k, j)) from None
                if types is not None and typ not in types:
                    known = ", ".join(sorted(t or "(untyped)" for t in types)) or "none"
                    raise InputError(f"predicted tag {tag!r}: type {typ or '(untyped)'!r} is not a chunk type of the "
                                     f"corpus (types: {known})", file=p.path, line=p.line_of(k, j))
                ok.add(tag)
        out.append([tuple(decode(seq, sch)) for seq in p.tags])
    return out
