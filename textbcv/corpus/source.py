"""The source text of every sentence, re-read from its file by its recorded ``source`` and ``line``.

A sentence's text is the run of non-blank lines from its line (CoNLL, CoNLL-U, with comments), or that one
line (segmented text); lines are returned as in the file, each ending in ``\\n``.

Examples
--------
>>> import tempfile, os
>>> from textbcv.corpus.conll import read_conll
>>> p = os.path.join(tempfile.mkdtemp(), "x.conll")
>>> _ = open(p, "w").write("-DOCSTART- -X- -X- O\\n\\nEU  NNP B-NP I-ORG\\nrejects VBZ B-VP O\\n\\n")
>>> c = read_conll(p)
>>> sentence_texts(c)
['EU  NNP B-NP I-ORG\\nrejects VBZ B-VP O\\n']
>>> document_marks(c)
{0: '-DOCSTART- -X- -X- O'}
"""

from __future__ import annotations

from textbcv.corpus._text import is_blank, read_lines, split_fields, split_words
from textbcv.corpus.model import Corpus
from textbcv.errors import InputError

__all__ = ["sentence_texts", "document_marks"]


def _lines_of(corpus: Corpus) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for s in corpus:
        if s.source not in out:
            out[s.source] = read_lines(s.source, getattr(corpus, "encoding", "utf-8"))
    return out


def _changed(s, why: str) -> InputError:
    return InputError(f"the file no longer holds the sentence read from it ({why}); was it changed since?",
                      file=s.source, line=s.line)


def sentence_texts(corpus: Corpus) -> list[str]:
    """The source text of every sentence, in corpus order, each checked against the sentence's tokens.

    Parameters
    ----------
    corpus : Corpus
        As a reader returned it (not transformed).

    Returns
    -------
    list of str

    Raises
    ------
    InputError
        When a sentence's file cannot be read or no longer holds the sentence at its line.
    """
    files = _lines_of(corpus)
    out = []
    fmt = corpus.format
    for s in corpus:
        lines = files[s.source]
        start = s.line - 1
        if not 0 <= start < len(lines):
            raise _changed(s, "the line is past the end of the file")
        if fmt == "jsonl":  # one JSON object per line: its own line
            block = [lines[start]]
        elif fmt == "segmented":
            block = [lines[start]]
            if tuple("".join(split_words(lines[start]))) != s.tokens:  # the segmented reader's words
                raise _changed(s, "other characters on this line")
        else:
            end = start
            while end < len(lines) and not is_blank(lines[end]):
                end += 1
            block = lines[start:end]
            if fmt == "conll":
                if len(block) != len(s.tokens) or any(t not in split_fields(line) for t, line in zip(s.tokens, block)):
                    raise _changed(s, "other tokens from this line on")
            elif fmt == "conllu":
                words = [f[1] for f in (line.split("\t") for line in block if not line.startswith("#"))
                         if len(f) > 1 and f[0].isdigit()]
                if tuple(words) != s.tokens:
                    raise _changed(s, "other words in this block")
        out.append("".join(line + "\n" for line in block))
    return out


def document_marks(corpus: Corpus) -> dict[int, str]:
    """The ``-DOCSTART-`` line (as in the file) of every document of a CoNLL corpus that has one.

    Parameters
    ----------
    corpus : Corpus
        As read; formats other than ``"conll"`` give ``{}``.

    Returns
    -------
    dict of int to str
        Document index → its line; documents without one are left out.
    """
    if corpus.format != "conll":
        return {}
    files = _lines_of(corpus)
    marks: dict[int, str] = {}
    seen: set[int] = set()
    for s in corpus:
        if s.document in seen:
            continue
        seen.add(s.document)
        lines = files[s.source]
        k = s.line - 2
        while k >= 0 and is_blank(lines[k]):
            k -= 1
        if k >= 0:
            fields = split_fields(lines[k])
            if fields and fields[0] == "-DOCSTART-":
                marks[s.document] = lines[k]
    return marks
