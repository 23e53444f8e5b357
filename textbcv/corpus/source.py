"""The source text of every sentence, re-read from its file by its recorded line.

Readers keep each sentence's ``source`` file and first ``line``; that is all
it takes to find the sentence again, so the readers need to keep nothing
else. A sentence's text is the maximal run of non-blank lines starting at its
line (CoNLL, CoNLL-U: its token lines, and for CoNLL-U its comment lines), or
that one line (segmented text). Line ends are written as ``\\n``; the lines
themselves are returned as they are in the file.

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
    """The source text of every sentence of ``corpus`` (lines ending in ``\\n``), in corpus order.

    ``corpus`` must be as a reader returned it (not transformed, e.g. by
    :func:`textbcv.corpus.transform.words_to_characters`). Each text is
    checked against the sentence's tokens.

    Parameters
    ----------
    corpus : Corpus
        A corpus as read (format ``"conll"``, ``"conllu"``, ``"segmented"`` or ``"jsonl"``), every sentence
        with its ``source`` file and first ``line``.

    Returns
    -------
    list of str
        One text per sentence: its lines, each ending in ``\\n``.

    Raises
    ------
    InputError
        When a sentence's file cannot be read or no longer holds the
        sentence at its line.
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
    """The ``-DOCSTART-`` line of every document of a CoNLL corpus that has one (document index → line).

    A document's mark is the ``-DOCSTART-`` line before its first sentence
    (blank lines may lie between them). Other formats have no such lines
    (a CoNLL-U ``# newdoc`` comment is part of the sentence's text).

    Parameters
    ----------
    corpus : Corpus
        A corpus as read; only format ``"conll"`` has marks (any other gives ``{}``).

    Returns
    -------
    dict of int to str
        Document index to its ``-DOCSTART-`` line, as in the file (no line end); documents without one
        are left out.
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
