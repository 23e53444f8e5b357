"""Per-unit right/wrong decisions of two systems on one test half, for McNemar's test.

Reads ``--save-predictions`` files (token, gold tag, predicted tag). Units are ``chunk`` (every chunk gold or
predicted by either system; right when predicted exactly when gold) or ``token`` (right when the chunks give the
token its gold IOBES tag, so systems in different schemes are judged alike).

Examples
--------
>>> gold = [[(0, 2, "PER")], []]
>>> a = [[(0, 2, "PER")], [(1, 2, "LOC")]]
>>> b = [[(0, 1, "PER")], []]
>>> chunk_decisions(gold, a, b)
([(0, 0, 1, 'PER'), (0, 0, 2, 'PER'), (1, 1, 2, 'LOC')], [True, True, False], [False, False, True])
>>> token_decisions(gold, a, b, [3, 2])
([True, True, True, True, False], [False, False, True, True, True])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from textbcv.corpus.conlleval import read_conlleval
from textbcv.errors import InputError
from textbcv.schemes import decode, detect, encode

__all__ = ["FoldPredictions", "read_fold_predictions", "chunk_decisions", "token_decisions",
           "fold_decisions", "UNITS"]

UNITS = ("chunk", "token")

Chunk = tuple[int, int, str]


@dataclass(frozen=True)
class FoldPredictions:
    """One system's predictions of one fold, decoded to chunks.

    Attributes
    ----------
    path : str
        The prediction file read.
    scheme : str
        The tagging scheme both tag columns were decoded with.
    tokens : list of tuple of str
        The tokens of every sentence.
    lines : list of int
        First line of each sentence in ``path``.
    gold, pred : list of list of (start, end, type)
        The gold and predicted chunks of every sentence.
    """

    path: str
    scheme: str
    tokens: list[tuple[str, ...]]
    lines: list[int]
    gold: list[list[Chunk]]
    pred: list[list[Chunk]]


def read_fold_predictions(path: str | os.PathLike, scheme: str | None = None) -> FoldPredictions:
    """Read a conlleval-format prediction file and decode both tag columns leniently with ``scheme``.

    Parameters
    ----------
    path : str or path-like
        Token, gold tag, predicted tag per line; sentences separated by blank lines.
    scheme : str or None
        The system's tagging scheme; None detects it.

    Returns
    -------
    FoldPredictions
    """
    f = read_conlleval(path)
    if scheme is None:
        scheme = detect([s.gold for s in f.sentences] + [s.pred for s in f.sentences])
    return FoldPredictions(str(path), scheme, [s.tokens for s in f.sentences], [s.line for s in f.sentences],
                           [decode(s.gold, scheme) for s in f.sentences], [decode(s.pred, scheme) for s in f.sentences])


def chunk_decisions(gold: Sequence[Sequence[Chunk]], pred_a: Sequence[Sequence[Chunk]],
                    pred_b: Sequence[Sequence[Chunk]]) -> tuple[list[tuple], list[bool], list[bool]]:
    """Units (sentence, start, end, type) gold or predicted by A or B, and whether A and B are right on each.

    Parameters
    ----------
    gold, pred_a, pred_b : sequence of sequence of (start, end, type)
        Per sentence, the gold chunks and those of systems A and B.

    Returns
    -------
    units : list of tuple
        ``(sentence, start, end, type)``, sorted within each sentence.
    right_a, right_b : list of bool
        Per unit, whether A (B) predicts it exactly when it is gold.
    """
    units, right_a, right_b = [], [], []
    for k, (g, a, b) in enumerate(zip(gold, pred_a, pred_b, strict=True)):
        g_set, a_set, b_set = set(g), set(a), set(b)
        for c in sorted(g_set | a_set | b_set):
            units.append((k, *c))
            right_a.append((c in a_set) == (c in g_set))
            right_b.append((c in b_set) == (c in g_set))
    return units, right_a, right_b


def token_decisions(gold: Sequence[Sequence[Chunk]], pred_a: Sequence[Sequence[Chunk]],
                    pred_b: Sequence[Sequence[Chunk]], lengths: Sequence[int]) -> tuple[list[bool], list[bool]]:
    """Whether A and B give each token its gold IOBES tag.

    Parameters
    ----------
    gold, pred_a, pred_b : sequence of sequence of (start, end, type)
        Per sentence, the gold chunks and those of systems A and B.
    lengths : sequence of int
        The number of tokens of every sentence.

    Returns
    -------
    right_a, right_b : list of bool
        Per token of every sentence in turn.
    """
    right_a, right_b = [], []
    for g, a, b, n in zip(gold, pred_a, pred_b, lengths, strict=True):
        tg, ta, tb = encode(g, n, "iobes"), encode(a, n, "iobes"), encode(b, n, "iobes")
        right_a += [x == y for x, y in zip(ta, tg)]
        right_b += [x == y for x, y in zip(tb, tg)]
    return right_a, right_b


def _keep(chunks: list[list[Chunk]], chunk_type: str | None) -> list[list[Chunk]]:
    return chunks if chunk_type is None else [[c for c in s if c[2] == chunk_type] for s in chunks]


def check_same_test_half(a: FoldPredictions, b: FoldPredictions) -> None:
    """Check that ``a`` and ``b`` hold the same sentences and gold chunks.

    Parameters
    ----------
    a, b : FoldPredictions
        Two systems' predictions of the same fold.

    Raises
    ------
    InputError
        Naming ``b``'s file and line, when the sentences, a sentence's tokens or its gold chunks differ.
    """
    if len(a.tokens) != len(b.tokens):
        raise InputError(f"{len(b.tokens)} sentences, but {a.path} has {len(a.tokens)}: the two systems' predictions "
                         "are not of the same test half", b.path)
    for k, (ta, tb) in enumerate(zip(a.tokens, b.tokens)):
        if ta != tb:
            raise InputError(f"sentence {k + 1} differs from the one at {a.path}:{a.lines[k]}: the two systems' "
                             "predictions are not of the same test half", b.path, b.lines[k])
        if a.gold[k] != b.gold[k]:
            raise InputError(f"the gold chunks of sentence {k + 1} differ from those at {a.path}:{a.lines[k]}: "
                             "the systems were scored on different gold", b.path, b.lines[k])


def fold_decisions(a: FoldPredictions, b: FoldPredictions, unit: str = "chunk",
                   chunk_type: str | None = None) -> tuple[list[bool], list[bool]]:
    """Right/wrong decisions of A and B on the units of one fold, optionally of one chunk type only.

    Parameters
    ----------
    a, b : FoldPredictions
        The two systems' predictions of the same fold.
    unit : {"chunk", "token"}
        What is judged.
    chunk_type : str or None
        Keep only the chunks of this type; None keeps all.

    Returns
    -------
    right_a, right_b : list of bool
        Per unit, whether A and B are right on it.

    Raises
    ------
    ValueError
        For another ``unit``.
    InputError
        When the two files are not of the same test half.
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
    check_same_test_half(a, b)
    gold, pa, pb = _keep(a.gold, chunk_type), _keep(a.pred, chunk_type), _keep(b.pred, chunk_type)
    if unit == "chunk":
        _, right_a, right_b = chunk_decisions(gold, pa, pb)
        return right_a, right_b
    return token_decisions(gold, pa, pb, [len(t) for t in a.tokens])
