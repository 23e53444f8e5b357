"""Writers: CoNLL column files and the conlleval 3-column prediction format."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from textbcv._io import atomic_write
from textbcv.corpus.model import Sentence
from textbcv.errors import InputError

__all__ = ["write_conll", "write_conlleval", "format_conlleval"]


def write_conll(
    sentences: Iterable[Sentence],
    path: str | os.PathLike,
    columns: Sequence[str] = ("token", "pos", "chunk", "ner"),
    docstart: bool = True,
) -> None:
    """Write sentences as a CoNLL column file (atomically).

    Parameters
    ----------
    sentences : iterable of Sentence
    path : path
    columns : sequence of str
        Roles to write, in order (``token``, ``lemma``, ``pos``, ``chunk``, ``ner``
        or any key of ``Sentence.columns``); a missing column is written as ``_``
        (``O`` for ``ner``).
    docstart : bool
        Write a ``-DOCSTART-`` line (and a blank line) where a new document starts.

    Examples
    --------
    >>> import tempfile, os
    >>> from textbcv.corpus.conll import read_conll
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conll")
    >>> write_conll([Sentence(("EU", "rejects"), ("I-ORG", "O"), "iob1", pos=("NNP", "VBZ"))], p, ("token", "pos", "ner"))
    >>> print(open(p).read(), end="")
    -DOCSTART- -X- O
    <BLANKLINE>
    EU NNP I-ORG
    rejects VBZ O
    <BLANKLINE>
    >>> read_conll(p, columns="token,pos,ner")[0].chunks
    ((0, 1, 'ORG'),)
    """
    with atomic_write(path) as f:
        last_doc = None
        for s in sentences:
            if docstart and s.document != last_doc:
                f.write(" ".join(["-DOCSTART-"] + ["-X-"] * (len(columns) - 2) + ["O"]) + "\n\n")
                last_doc = s.document
            cols = []
            for role in columns:
                if role == "token":
                    col = s.tokens
                elif role == "ner":
                    col = s.tags or ("O",) * len(s)
                elif role == "lemma":
                    col = s.lemmas
                elif role == "pos":
                    col = s.pos
                else:
                    col = s.columns.get(role)
                cols.append(col if col is not None else ("_",) * len(s))
            for row in zip(*cols):
                for v in row:
                    if not v or any(c.isspace() for c in v):
                        raise InputError(f"cannot write {v!r} in a column file: empty or contains white space", file=s.source, line=s.line)
                f.write(" ".join(row) + "\n")
            f.write("\n")


def format_conlleval(tokens: Sequence[str], gold: Sequence[str], pred: Sequence[str]) -> str:
    """One sentence in conlleval's input format: ``token gold pred`` lines and a blank line.

    Examples
    --------
    >>> print(format_conlleval(["EU", "rejects"], ["B-ORG", "O"], ["B-ORG", "B-MISC"]), end="")
    EU B-ORG B-ORG
    rejects O B-MISC
    <BLANKLINE>
    """
    if not (len(tokens) == len(gold) == len(pred)):
        raise ValueError(f"lengths differ: {len(tokens)} tokens, {len(gold)} gold tags, {len(pred)} predicted tags")
    return "".join(f"{t} {g} {p}\n" for t, g, p in zip(tokens, gold, pred)) + "\n"


def write_conlleval(
    path: str | os.PathLike,
    tokens: Iterable[Sequence[str]],
    gold: Iterable[Sequence[str]],
    pred: Iterable[Sequence[str]],
) -> None:
    """Write predictions in conlleval's 3-column format (atomically).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "pred.txt")
    >>> write_conlleval(p, [["a", "b"]], [["B-X", "O"]], [["B-X", "O"]])
    >>> open(p).read()
    'a B-X B-X\\nb O O\\n\\n'
    """
    with atomic_write(path) as f:
        for t, g, p in zip(tokens, gold, pred, strict=True):
            f.write(format_conlleval(t, g, p))
