"""CoNLL-U files, parsed with the ``conllu`` package.

Multiword-token ranges (``1-2``) and empty nodes (``1.1``) are not tokens;
FORM, LEMMA and UPOS are kept (XPOS under ``columns["xpos"]``); ``# newdoc``
starts a document. CoNLL-U has no chunk column, so sentences carry no tags.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

import conllu
from conllu.exceptions import ParseException

from textbcv.corpus._text import read_lines
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError

__all__ = ["read_conllu"]

_ID = re.compile(r"[1-9][0-9]*(?:-[1-9][0-9]*|\.[1-9][0-9]*)?\Z")
_FIELDS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
# Keep the fields we do not use as raw strings: faster, and nothing of theirs can fail.
_RAW = {f: (lambda line, i: line[i]) for f in ("feats", "head", "deprel", "deps", "misc")}


def read_conllu(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Corpus:
    """Read CoNLL-U files into a :class:`Corpus`.

    Parameters
    ----------
    paths : path or iterable of paths
        Files read in the order given.

    Returns
    -------
    Corpus
        ``lemmas`` and ``pos`` (UPOS) are set on every sentence.

    Raises
    ------
    InputError
        On a malformed line (wrong field count, bad ID, IDs out of order),
        naming file and line.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conllu")
    >>> rows = ["# newdoc id = d1", "1-2\\tdon't\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\t_",
    ...         "1\\tdo\\tdo\\tAUX\\tVBP\\t_\\t3\\taux\\t_\\t_", "2\\tn't\\tnot\\tPART\\tRB\\t_\\t3\\tadvmod\\t_\\t_",
    ...         "3\\tgo\\tgo\\tVERB\\tVB\\t_\\t0\\troot\\t_\\t_", "", ""]
    >>> _ = open(p, "w").write("\\n".join(rows))
    >>> s = read_conllu(p)[0]
    >>> s.tokens, s.lemmas, s.pos
    (('do', "n't", 'go'), ('do', 'not', 'go'), ('AUX', 'PART', 'VERB'))
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    sentences: list[Sentence] = []
    document = -1
    for path in paths:
        lines = read_lines(path)
        new_document = True
        block: list[str] = []
        start = 0
        for lineno, line in enumerate(lines + [""], 1):
            if line.strip():
                if not block:
                    start = lineno
                block.append(line)
                continue
            if not block:
                continue
            tokens, lemmas, upos, xpos, newdoc = _parse_block(block, path, start)
            block = []
            if newdoc:
                new_document = True
            if not tokens:
                raise InputError("sentence has no tokens (only comments or ranges)", file=path, line=start)
            if new_document:
                document += 1
                new_document = False
            sentences.append(Sentence(tokens, (), None, lemmas, upos, {"xpos": xpos}, document, path, start))
    return Corpus(sentences, paths, "conllu", None)


def _parse_block(block: list[str], path: str, start: int):
    expected = 1
    newdoc = False
    ranges: list[tuple[int, int, str]] = []
    for offset, line in enumerate(block):
        lineno = start + offset
        if line.startswith("#"):
            if line[1:].lstrip().startswith("newdoc"):
                newdoc = True
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise InputError(f"expected 10 TAB-separated fields, found {len(fields)}", file=path, line=lineno)
        tid = fields[0]
        if not _ID.match(tid):
            raise InputError(f"bad ID {tid!r}: expected N, N-M or N.K with N ≥ 1", file=path, line=lineno)
        if "-" in tid:
            a, b = (int(x) for x in tid.split("-"))
            if a != expected or b <= a:
                raise InputError(f"bad range ID {tid!r}: expected a range {expected}-M with M > {expected}", file=path, line=lineno)
            ranges.append((b, lineno, tid))
        elif "." in tid:
            if int(tid.split(".")[0]) != expected - 1:
                raise InputError(f"empty node {tid!r} out of order: expected {expected - 1}.K", file=path, line=lineno)
        else:
            if int(tid) != expected:
                raise InputError(f"word ID {tid} out of order: expected {expected}", file=path, line=lineno)
            expected += 1
            if not fields[1]:
                raise InputError("empty FORM", file=path, line=lineno)
            head = fields[6]
            if head != "_" and not head.isdigit():
                raise InputError(f"bad HEAD {head!r}: expected a word ID, 0 or _", file=path, line=lineno)
    for b, lineno, tid in ranges:
        if b > expected - 1:
            raise InputError(f"bad range ID {tid!r}: the sentence ends at word {expected - 1}", file=path, line=lineno)
    try:
        tl = conllu.parse_token_and_metadata("\n".join(block), fields=_FIELDS, field_parsers=_RAW)
    except ParseException as e:
        raise InputError(f"CoNLL-U: {e}", file=path, line=start) from None
    words = [t for t in tl if isinstance(t["id"], int)]
    return (
        tuple(t["form"] for t in words),
        tuple(t["lemma"] for t in words),
        tuple(t["upos"] for t in words),
        tuple(t["xpos"] for t in words),
        newdoc or any(k.startswith("newdoc") for k in tl.metadata),
    )
