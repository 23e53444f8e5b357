"""Reader for conlleval input: one token per line, gold and predicted tag in the last two columns.

Columns are separated by white space; every non-blank line must have the
same number of columns (at least 2). A blank line (empty or white space
only) ends a sentence; so does a line whose first field is ``-X-``
(conlleval.pl's boundary marker). A line whose first field is
``-DOCSTART-`` is, for conlleval.pl, an ordinary token (it is counted in
"processed N tokens"); with ``docstart="boundary"`` it ends the sentence
instead and is not a token (textbcv's units; docs/formats.md).

Examples
--------
>>> import tempfile, os
>>> d = tempfile.mkdtemp(); path = os.path.join(d, "out.txt")
>>> _ = open(path, "w").write("-DOCSTART- O O\\n\\nEU B-ORG B-ORG\\nrejects O O\\n\\n")
>>> f = read_conlleval(path)
>>> [(s.gold, s.pred, s.line) for s in f.sentences], f.final_boundary
([(('B-ORG', 'O'), ('B-ORG', 'O'), 3)], True)
>>> len(read_conlleval(path, docstart="token").sentences)
2
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from textbcv.corpus._text import read_lines
from textbcv.errors import InputError

__all__ = ["ConllevalSentence", "ConllevalFile", "read_conlleval"]

BOUNDARY = "-X-"
DOCSTART = "-DOCSTART-"


@dataclass(frozen=True)
class ConllevalSentence:
    """One sentence of conlleval input: first-column tokens, gold and predicted tags, first line."""

    tokens: tuple[str, ...]
    gold: tuple[str, ...]
    pred: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class ConllevalFile:
    """A conlleval input file.

    Attributes
    ----------
    sentences : list of ConllevalSentence
    final_boundary : bool
        Whether a boundary (blank or ``-X-`` line) follows the last token,
        which conlleval.pl's counting can depend on.
    columns : int
        Number of columns per line.
    path : str
    """

    sentences: list[ConllevalSentence]
    final_boundary: bool
    columns: int
    path: str

    @property
    def n_tokens(self) -> int:
        """Number of tokens over all sentences."""
        return sum(len(s.gold) for s in self.sentences)


def read_conlleval(path: str | os.PathLike, docstart: str = "boundary") -> ConllevalFile:
    """Read a conlleval input file.

    Parameters
    ----------
    path : str or path-like
    docstart : {"boundary", "token"}
        How a ``-DOCSTART-`` line counts: as a sentence boundary (default)
        or, as in conlleval.pl, as a token.

    Raises
    ------
    InputError
        ``FILE:LINE`` for invalid UTF-8, a line with fewer than 2 columns or a
        column count that differs from the first line's; ``FILE`` when the
        file holds no token.
    """
    if docstart not in ("boundary", "token"):
        raise ValueError(f"docstart must be 'boundary' or 'token', not {docstart!r}")
    name = os.fspath(path)
    lines = read_lines(path)
    sentences: list[ConllevalSentence] = []
    tokens: list[str] = []
    gold: list[str] = []
    pred: list[str] = []
    first_line = 0
    ncols = -1
    ncols_line = 0
    last_is_boundary = True
    docstart_is_boundary = docstart == "boundary"

    def flush() -> None:
        nonlocal tokens, gold, pred
        if gold:
            sentences.append(ConllevalSentence(tuple(tokens), tuple(gold), tuple(pred), first_line))
            tokens, gold, pred = [], [], []

    for lineno, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            flush()
            last_is_boundary = True
            continue
        n = len(fields)
        if n < 2:
            raise InputError(
                f"expected at least 2 columns (token ... gold predicted), found {n}: {line.strip()!r}",
                file=name,
                line=lineno,
            )
        if ncols < 0:
            ncols, ncols_line = n, lineno
        elif n != ncols:
            raise InputError(f"expected {ncols} columns as on line {ncols_line}, found {n}", file=name, line=lineno)
        first = fields[0]
        if first == BOUNDARY or (docstart_is_boundary and first == DOCSTART):
            flush()
            last_is_boundary = True
            continue
        if not gold:
            first_line = lineno
        tokens.append(first)
        gold.append(fields[-2])
        pred.append(fields[-1])
        last_is_boundary = False
    flush()
    if not sentences:
        raise InputError("no tokens: the file is empty or holds only blank and boundary lines", file=name)
    return ConllevalFile(sentences, last_is_boundary, ncols, name)
