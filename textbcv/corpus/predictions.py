"""Prediction files of a tagger run outside textbcv, read against the sentences they must predict.

NER: ``token ... tag`` lines, a blank line after each sentence (``-DOCSTART-`` skipped). CWS: one line per
sentence, words separated by ASCII spaces, TABs or U+3000. The tokens must be the expected sentences'; the
first difference is an :class:`InputError` naming the file, line and corpus sentence.

Examples
--------
>>> import tempfile, os
>>> from textbcv.corpus import Sentence
>>> sents = [Sentence(("EU", "rejects"), source="c.conll", line=3), Sentence(("Peter",), source="c.conll", line=6)]
>>> p = os.path.join(tempfile.mkdtemp(), "fold-0-0.txt")
>>> _ = open(p, "w").write("EU B-ORG\\nrejects O\\n\\nPeter B-PER\\n")
>>> read_tag_predictions(p, sents).tags
[('B-ORG', 'O'), ('B-PER',)]
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from textbcv.corpus._text import has_other_spaces, load_lines, split_fields, split_words
from textbcv.corpus.conll import lower_case_tag
from textbcv.corpus.model import Chunk, Sentence
from textbcv.errors import InputError
from textbcv.schemes import OUTSIDE, decode, get_scheme

__all__ = ["TagPredictions", "read_tag_predictions", "read_segmented_predictions", "check_predicted_tags",
           "decode_predictions"]


def _where(s: Sentence) -> str:
    return f"{s.source}:{s.line}" if s.source else "the corpus"


@dataclass(frozen=True)
class TagPredictions:
    """Predicted tags of every sentence of a prediction file, and the line of each sentence's first token.

    Parameters
    ----------
    path : str
    tags : list of tuple of str
        Per sentence, in file order.
    lines : list of int
        1-based.
    """

    path: str
    tags: list[tuple[str, ...]]
    lines: list[int]

    def line_of(self, sentence: int, token: int) -> int:
        """The 1-based line of a token in :attr:`path`.

        Parameters
        ----------
        sentence, token : int
            0-based indices.

        Returns
        -------
        int
        """
        return self.lines[sentence] + token


def read_tag_predictions(path: str | os.PathLike, sentences: Sequence[Sentence]) -> TagPredictions:
    """Read a NER prediction file whose sentences must be ``sentences``, token by token.

    Parameters
    ----------
    path : str or path-like
    sentences : sequence of Sentence
        A fold's test half, in file order.

    Returns
    -------
    TagPredictions

    Raises
    ------
    InputError
        ``FILE:LINE`` at the first line that does not fit (or a missing file, or a file that ends early).
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
    """Read a CWS prediction file; its characters (white space removed) must be the sentences' tokens.

    Parameters
    ----------
    path : str or path-like
    sentences : sequence of Sentence
        Character tokens, in file order.

    Returns
    -------
    list of tuple of Chunk
        Per sentence, the predicted words as untyped chunks ``(start, end, "")``.

    Raises
    ------
    InputError
        ``FILE:LINE`` at the first line that does not fit (or a missing file, or a file that ends early).

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


def check_predicted_tags(preds: TagPredictions, scheme: str, types: Collection[str] | None = None) -> None:
    """Refuse the first predicted tag that is not of ``scheme``, or names a type not in ``types``.

    ``textbcv evaluate`` and command systems check their prediction files with this one rule.

    Parameters
    ----------
    preds : TagPredictions
    scheme : str
    types : collection of str, optional
        The corpus's chunk types (:func:`textbcv.corpus.transform.prediction_types`); None accepts any type.

    Raises
    ------
    InputError
        ``FILE:LINE`` of the first tag not of ``scheme`` or of a type not in ``types``.

    Examples
    --------
    >>> check_predicted_tags(TagPredictions("p.txt", [("O", "B-PER")], [4]), "iob2", {"PER"})
    >>> check_predicted_tags(TagPredictions("p.txt", [("O", "B-X")], [4]), "iob2", {"PER"})
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: p.txt:5: predicted tag 'B-X': type 'X' is not a chunk type of the corpus (types: PER)
    """
    sch = get_scheme(scheme)
    ok = {OUTSIDE}
    for k, seq in enumerate(preds.tags):
        for j, tag in enumerate(seq):
            if tag in ok:
                continue
            try:
                _, typ = sch.kind(tag)
            except InputError as e:
                lower = lower_case_tag(tag)
                raise InputError(f"predicted {lower}" if lower else
                                 f"predicted {e.message}: are the predictions in another scheme?",
                                 file=preds.path, line=preds.line_of(k, j)) from None
            if types is not None and typ not in types:
                known = ", ".join(sorted(t or "(untyped)" for t in types)) or "none"
                raise InputError(f"predicted tag {tag!r}: type {typ or '(untyped)'!r} is not a chunk type of the "
                                 f"corpus (types: {known})", file=preds.path, line=preds.line_of(k, j))
            ok.add(tag)


def decode_predictions(preds: Sequence[TagPredictions], scheme: str, types: Collection[str] | None = None
                       ) -> list[list[tuple[Chunk, ...]]]:
    """Chunks of every sentence of every prediction file, decoded with ``scheme`` (leniently, as conlleval).

    Parameters
    ----------
    preds : sequence of TagPredictions
    scheme : str
    types : collection of str, optional
        The corpus's chunk types; a predicted tag of another type is refused.

    Returns
    -------
    list of list of tuple of Chunk

    Raises
    ------
    InputError
        As :func:`check_predicted_tags`.
    """
    sch = get_scheme(scheme)
    out = []
    for p in preds:
        check_predicted_tags(p, scheme, types)
        out.append([tuple(decode(seq, sch)) for seq in p.tags])
    return out
