"""CoNLL-U files (Universal Dependencies): ten TAB-separated fields per word line.

Multiword ranges (``1-2``) and empty nodes (``1.1``) are not tokens; FORM, LEMMA and UPOS are kept (XPOS
under ``columns["xpos"]``); ``# newdoc`` starts a document (where no file has one, the corpus marks no documents:
all its sentences are one document, whatever the files). Sentences carry no tags. Fields are separated by
TABs only, so spaces inside a FORM stay; otherwise the reading is that of ``conllu.parse``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from textbcv._io import atomic_write
from textbcv.corpus._text import load_lines, long_lived
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError

__all__ = ["read_conllu", "write_conllu"]

_ID = re.compile(r"[1-9][0-9]*(?:-[1-9][0-9]*|\.[1-9][0-9]*)?\Z")


def read_conllu(paths: str | os.PathLike | Iterable[str | os.PathLike], encoding: str = "utf-8") -> Corpus:
    """Read CoNLL-U files into a :class:`Corpus`, ``lemmas`` and ``pos`` (UPOS) set on every sentence.

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order (gzip decompressed).
    encoding : str

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        On a malformed line (field count, bad ID, IDs out of order), naming file and line.

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
    names: list[str] = [os.fspath(p) for p in paths]
    sentences: list[Sentence] = []
    document = -1
    marked = False  # a file starts a document only where the corpus marks documents (# newdoc)
    with long_lived():
        for path in names:
            _, lines = load_lines(path, encoding)
            new_document = True
            block: list[str] = []
            start = 0
            lines.append("")
            for lineno, line in enumerate(lines, 1):
                if line.strip(" \t"):
                    if not block:
                        start = lineno
                    block.append(line)
                    continue
                if not block:
                    continue
                tokens, lemmas, upos, xpos, newdoc = _parse_block(block, path, start)
                block = []
                if newdoc:
                    new_document = marked = True
                if not tokens:
                    raise InputError("sentence has no tokens (only comments or ranges)", file=path, line=start)
                if new_document:
                    document += 1
                    new_document = False
                sentences.append(Sentence._make(tokens, (), None, lemmas, upos, {"xpos": xpos}, document, path, start))
    if not marked and document > 0:  # files are not documents of their own
        sentences = [Sentence._make(s.tokens, s.tags, s.scheme, s.lemmas, s.pos, s.columns, 0, s.source, s.line)
                     for s in sentences]
    return Corpus(sentences, names, "conllu", None, encoding)


def _parse_block(block: list[str], path: str, start: int):
    expected = 1
    newdoc = False
    ranges: list[tuple[int, int, str]] = []
    forms: list[str] = []
    lemmas: list[str] = []
    upos: list[str] = []
    xpos: list[str | None] = []
    for offset, line in enumerate(block):
        if line[0] == "#":
            if line[1:].lstrip().startswith("newdoc"):
                newdoc = True
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise InputError(f"expected 10 TAB-separated fields, found {len(fields)}", file=path, line=start + offset)
        tid = fields[0]
        if tid.isdigit() and tid.isascii() and tid[0] != "0":
            if int(tid) != expected:
                raise InputError(f"word ID {tid} out of order: expected {expected}", file=path, line=start + offset)
            expected += 1
            form = fields[1]
            if not form:
                raise InputError("empty FORM", file=path, line=start + offset)
            head = fields[6]
            if head != "_" and not head.isdigit():
                raise InputError(f"bad HEAD {head!r}: expected a word ID, 0 or _", file=path, line=start + offset)
            forms.append(form)
            lemmas.append(fields[2])
            upos.append(fields[3])
            x = fields[4]
            xpos.append(None if x == "_" or not x else x)
            continue
        lineno = start + offset
        if not _ID.match(tid):
            raise InputError(f"bad ID {tid!r}: expected N, N-M or N.K with N ≥ 1", file=path, line=lineno)
        if "-" in tid:
            a, b = (int(x) for x in tid.split("-"))
            if a != expected or b <= a:
                raise InputError(f"bad range ID {tid!r}: expected a range {expected}-M with M > {expected}",
                                 file=path, line=lineno)
            ranges.append((b, lineno, tid))
        elif int(tid.split(".")[0]) != expected - 1:
            raise InputError(f"empty node {tid!r} out of order: expected {expected - 1}.K", file=path, line=lineno)
    for b, lineno, tid in ranges:
        if b > expected - 1:
            raise InputError(f"bad range ID {tid!r}: the sentence ends at word {expected - 1}", file=path, line=lineno)
    return tuple(forms), tuple(lemmas), tuple(upos), tuple(xpos), newdoc


def write_conllu(sentences: Iterable[Sentence], path: str | os.PathLike) -> None:
    """Write sentences as CoNLL-U (UTF-8, atomically): ID, FORM, LEMMA, UPOS, XPOS.

    A ``# newdoc`` comment opens every document; empty values and the other fields are ``_``.

    Parameters
    ----------
    sentences : iterable of Sentence
        ``lemmas``, ``pos`` and ``columns["xpos"]`` fill LEMMA, UPOS and XPOS when present.
    path : str or path-like

    Raises
    ------
    InputError
        For a value holding a TAB or a line end.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conllu")
    >>> write_conllu([Sentence(("do", "go"), lemmas=("do", "go"), pos=("AUX", "VERB"))], p)
    >>> print(open(p).read().replace("\\t", "|"), end="")
    # newdoc
    1|do|do|AUX|_|_|_|_|_|_
    2|go|go|VERB|_|_|_|_|_|_
    <BLANKLINE>
    """
    with atomic_write(path) as f:
        last_doc = None
        for s in sentences:
            if s.document != last_doc:
                f.write("# newdoc\n")
                last_doc = s.document
            n = len(s)
            cols = [s.tokens, s.lemmas or ("_",) * n, s.pos or ("_",) * n, s.columns.get("xpos") or ("_",) * n]
            for i, row in enumerate(zip(*cols), 1):
                values = [v if v else "_" for v in row]
                for v in values:
                    if any(c in v for c in "\t\n\r"):
                        raise InputError(f"cannot write {v!r} in CoNLL-U: holds a TAB or a line end",
                                         file=s.source or None, line=s.line or None)
                f.write(f"{i}\t" + "\t".join(values) + "\t_\t_\t_\t_\t_\n")
            f.write("\n")
