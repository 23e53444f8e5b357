"""spaCy ``DocBin`` files (``.spacy``): each ``Doc`` a document, its sentences and its entities as IOB2 chunks.

A ``Doc`` without sentence boundaries is one sentence. Needs ``pip install textbcv[spacy]``; no model is loaded.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable

from textbcv._inputs import read_bytes
from textbcv.corpus._text import token_problem
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError
from textbcv.schemes import encode

__all__ = ["read_docbin"]


def read_docbin(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Corpus:
    """Read spaCy ``DocBin`` files into a :class:`Corpus` of format ``"docbin"``, scheme ``"iob2"``.

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order; documents are numbered across them.

    Returns
    -------
    Corpus
        A sentence's ``line`` is its document's 1-based number in its file.

    Raises
    ------
    InputError
        Without ``spacy``; ``FILE:N`` for an unreadable file, an entity across a sentence boundary, or no documents.
    """
    try:
        import spacy  # optional extra: imported only when a DocBin is read
        from spacy.tokens import DocBin
    except ImportError:
        raise InputError("reading a spaCy DocBin (.spacy) needs the spacy library: pip install 'textbcv[spacy]'") \
            from None
    files = [str(os.fspath(p)) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    vocab = spacy.blank("xx").vocab
    sentences: list[Sentence] = []
    document = -1
    for path in files:
        data = read_bytes(path, line_limit=None)  # once, whatever the input (a pipe too)
        try:
            docs = list(DocBin().from_bytes(data).get_docs(vocab))
        except (OSError, ValueError, KeyError, TypeError, zlib.error) as e:
            raise InputError(f"not a spaCy DocBin file ({type(e).__name__}: {e})", file=path) from None
        for no, doc in enumerate(docs, 1):
            document += 1
            spans = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
            ents = sorted((e.start, e.end, e.label_) for e in doc.ents)
            for span in spans:
                tokens = tuple(t.text for t in span if token_problem(t.text) is None)
                if len(tokens) != len(span):
                    bad = next(t.text for t in span if token_problem(t.text) is not None)
                    raise InputError(f"document {no}: the token {bad!r} {token_problem(bad)} (textbcv's tokens have "
                                     "no spaces, TABs or line ends); remove or split such tokens before saving the "
                                     "DocBin", file=path, line=no)
                if not tokens:
                    continue
                chunks = []
                for s, end, label in ents:
                    if s < span.end and end > span.start:
                        if s < span.start or end > span.end:
                            raise InputError(f"document {no}: the entity {doc[s:end].text!r} ({label}) crosses a "
                                             "sentence boundary", file=path, line=no)
                        chunks.append((s - span.start, end - span.start, label))
                tags = tuple(encode(chunks, len(tokens), "iob2"))
                sentences.append(Sentence._make(tokens, tags, "iob2", None, None, {}, document, path, no))
    if not sentences:
        raise InputError("no sentences (no document with tokens)", file=files[0] if files else None)
    return Corpus(sentences, files, "docbin", "iob2", "utf-8")
