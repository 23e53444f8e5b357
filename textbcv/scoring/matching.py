"""Matching modes of chunk scoring (SemEval-2013 task 9.1, as nervaluate computes them) and the error anatomy.

``strict`` (default, conlleval's): boundaries and type match; ``exact``: boundaries match; ``partial``:
boundaries overlap, a non-exact overlap earning half a credit; ``type``: types match and spans overlap. Every
chunk is sorted one-to-one into correct, incorrect, partial, missed or spurious by nervaluate 1.x's assignment
rule (see docs/formats.md, "Matching modes"); TP = COR + ½·PAR, FP = predicted − TP, FN = gold − TP.

Examples
--------
>>> gold = [(0, 2, "PER"), (4, 5, "LOC")]
>>> pred = [(0, 2, "ORG"), (3, 5, "LOC")]
>>> m = sentence_modes(gold, pred)
>>> {mode: dict(zip(KINDS, m[i].tolist())) for i, mode in enumerate(MODES)}["partial"]
{'correct': 1, 'incorrect': 0, 'partial': 1, 'missed': 0, 'spurious': 0}
>>> mode_tp_fp_fn(m, "partial").tolist()
[1.5, 0.5, 0.5]
>>> dict(zip(ANATOMY, sentence_anatomy(gold, pred).tolist()))
{'correct': 0, 'wrong type': 1, 'wrong boundary': 1, 'wrong both': 0, 'missed': 0, 'spurious': 0}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.defaults import MATCHING_MODES

__all__ = ["MODES", "KINDS", "ANATOMY", "Chunk", "sentence_modes", "mode_counts", "mode_tp_fp_fn", "sentence_anatomy",
           "anatomy_counts", "match_sentence"]


#: The matching modes, in the order of :func:`sentence_modes`' rows.
MODES = MATCHING_MODES
#: The kinds of outcome, in the order of its columns.
KINDS = ("correct", "incorrect", "partial", "missed", "spurious")
#: The error anatomy's kinds, in the order of :func:`sentence_anatomy`.
ANATOMY = ("correct", "wrong type", "wrong boundary", "wrong both", "missed", "spurious")

Chunk = tuple[int, int, str]


def _overlap(a: Chunk, b: Chunk) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _assign(gold: Sequence[Chunk], pred: Sequence[Chunk], mode: str) -> list[int]:
    """Per kind, the count of one mode on one sentence (chunks sorted by start)."""
    cor = inc = par = spu = 0
    taken = [False] * len(gold)
    for p in pred:
        exact = close = other = -1
        best = None
        for g_i, g in enumerate(gold):
            if taken[g_i] or not _overlap(p, g):
                continue
            same_span = g[0] == p[0] and g[1] == p[1]
            if mode == "type":
                if g[2] == p[2]:
                    dist = abs(g[0] - p[0]) + abs(g[1] - p[1])
                    if best is None or dist < best:
                        best, close = dist, g_i
                elif other < 0:
                    other = g_i
                continue
            if same_span and (mode != "strict" or g[2] == p[2]):
                exact = g_i
                break
            if close < 0:
                close = g_i
        if mode == "type":
            if close >= 0:
                cor += 1
                taken[close] = True
            elif other >= 0:
                inc += 1
                taken[other] = True
            else:
                spu += 1
            continue
        if exact >= 0:
            cor += 1
            taken[exact] = True
        elif close >= 0:
            if mode == "partial":
                par += 1
            else:
                inc += 1
            taken[close] = True
        else:
            spu += 1
    return [cor, inc, par, taken.count(False), spu]


def sentence_modes(gold: Sequence[Chunk], pred: Sequence[Chunk]) -> np.ndarray:
    """The outcome counts of every matching mode on one sentence.

    Parameters
    ----------
    gold, pred : sequence of (start, end, type)
        The sentence's gold and predicted chunks (``end`` exclusive), in any order.

    Returns
    -------
    ndarray of shape (4, 5), int64
        Rows :data:`MODES`, columns :data:`KINDS`.
    """
    return np.array(_modes(gold, pred), dtype=np.int64)


def _modes(gold: Sequence[Chunk], pred: Sequence[Chunk]) -> list[list[int]]:
    g, p = sorted(gold), sorted(pred)
    if g == p:  # every chunk right in every mode
        return [[len(g), 0, 0, 0, 0]] * len(MODES)
    return [_assign(g, p, mode) for mode in MODES]


def mode_counts(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]]) -> np.ndarray:
    """:func:`sentence_modes` of every sentence.

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of the same sentences, in the same order.

    Returns
    -------
    ndarray of shape (n, 4, 5), int64

    Raises
    ------
    ValueError
        When gold and predictions have different numbers of sentences.
    """
    return _each_sentence(gold, pred, _modes, (len(MODES), len(KINDS)))


def _each_sentence(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]], one, shape: tuple) -> np.ndarray:
    """``one(gold chunks, predicted chunks)`` of every sentence, stacked (``shape`` each)."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences and {len(pred)} predicted ones")
    return np.array([one(g, p) for g, p in zip(gold, pred)], dtype=np.int64).reshape(len(gold), *shape)


def mode_tp_fp_fn(counts: np.ndarray, mode: str) -> np.ndarray:
    """TP, FP and FN of ``mode`` from outcome counts, half a credit per partial.

    Parameters
    ----------
    counts : array of shape (..., 4, 5)
        :func:`sentence_modes` or :func:`mode_counts` output, summed over sentences or not.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode.

    Returns
    -------
    ndarray of shape (..., 3), float
    """
    if mode not in MODES:
        raise ValueError(f"unknown matching mode {mode!r} (modes: {', '.join(MODES)})")
    c = np.asarray(counts, dtype=float)[..., MODES.index(mode), :]
    cor, inc, par, mis, spu = (c[..., k] for k in range(len(KINDS)))
    tp = cor + 0.5 * par
    return np.stack([tp, cor + inc + par + spu - tp, cor + inc + par + mis - tp], axis=-1)


def sentence_anatomy(gold: Sequence[Chunk], pred: Sequence[Chunk]) -> np.ndarray:
    """The error anatomy of one sentence: the strict matches, each wrong one a wrong type, boundary, or both.

    Parameters
    ----------
    gold, pred : sequence of (start, end, type)
        The sentence's gold and predicted chunks.

    Returns
    -------
    ndarray of shape (6,), int64
        Counts of :data:`ANATOMY`.
    """
    return np.array(_anatomy(sorted(gold), sorted(pred)), dtype=np.int64)


def _anatomy(g: Sequence[Chunk], p: Sequence[Chunk]) -> list[int]:
    """:func:`sentence_anatomy` of sorted chunks, as a list."""
    out = [0] * len(ANATOMY)
    taken = [False] * len(g)
    for c in p:
        exact = close = -1
        for g_i, x in enumerate(g):
            if taken[g_i] or not _overlap(c, x):
                continue
            if x == c:
                exact = g_i
                break
            if close < 0:
                close = g_i
        if exact >= 0:
            out[0] += 1
            taken[exact] = True
        elif close >= 0:
            x = g[close]
            same_span, same_type = (x[0], x[1]) == (c[0], c[1]), x[2] == c[2]
            out[1 if same_span else 2 if same_type else 3] += 1
            taken[close] = True
        else:
            out[5] += 1
    out[4] = taken.count(False)
    return out


def anatomy_counts(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]]) -> np.ndarray:
    """:func:`sentence_anatomy` of every sentence.

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of the same sentences, in the same order.

    Returns
    -------
    ndarray of shape (n, 6), int64
    """
    return _each_sentence(gold, pred, lambda g, p: _anatomy(sorted(g), sorted(p)), (len(ANATOMY),))


def _general_type(g: Sequence[Chunk], p: Sequence[Chunk], ov: list[list[int]]) -> list[int]:
    """The ``type`` mode's row, from each predicted chunk's overlapping gold chunks."""
    cor = inc = spu = 0
    taken = [False] * len(g)
    for j, c in enumerate(p):
        close = other = -1
        best = None
        for i in ov[j]:
            if taken[i]:
                continue
            x = g[i]
            if x[2] == c[2]:
                dist = abs(x[0] - c[0]) + abs(x[1] - c[1])
                if best is None or dist < best:
                    best, close = dist, i
            elif other < 0:
                other = i
        if close >= 0:
            cor += 1
            taken[close] = True
        elif other >= 0:
            inc += 1
            taken[other] = True
        else:
            spu += 1
    return [cor, inc, 0, taken.count(False), spu]


def match_sentence(g: Sequence[Chunk], p: Sequence[Chunk]) -> tuple[list[list[int]], list[int]]:
    """Every mode's outcome counts and the anatomy of one sentence in one pass; equal to :func:`sentence_modes` and
    :func:`sentence_anatomy`.

    Parameters
    ----------
    g, p : sequence of (start, end, type)
        The sentence's gold and predicted chunks, each sorted.

    Returns
    -------
    rows : list of list of int
        Per mode of :data:`MODES`, the counts of :data:`KINDS`.
    anatomy : list of int
        The counts of :data:`ANATOMY`.

    Examples
    --------
    >>> match_sentence([(0, 2, "PER")], [(0, 2, "ORG")])
    ([[0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 1, 0, 0, 0]], [0, 1, 0, 0, 0, 0])
    """
    ov = [[i for i, x in enumerate(g) if c[0] < x[1] and x[0] < c[1]] for c in p]
    rows = []
    anatomy = [0] * len(ANATOMY)
    for mode in ("strict", "exact", "partial"):
        cor = inc = par = spu = 0
        taken = [False] * len(g)
        for j, c in enumerate(p):
            exact = close = -1
            for i in ov[j]:
                if taken[i]:
                    continue
                x = g[i]
                if x[0] == c[0] and x[1] == c[1] and (mode != "strict" or x[2] == c[2]):
                    exact = i
                    break
                if close < 0:
                    close = i
            if exact >= 0:
                cor += 1
                taken[exact] = True
            elif close >= 0:
                if mode == "partial":
                    par += 1
                else:
                    inc += 1
                taken[close] = True
                if mode == "strict":
                    x = g[close]
                    anatomy[1 if (x[0], x[1]) == (c[0], c[1]) else 2 if x[2] == c[2] else 3] += 1
            else:
                spu += 1
        missed = taken.count(False)
        rows.append([cor, inc, par, missed, spu])
        if mode == "strict":
            anatomy[0], anatomy[4], anatomy[5] = cor, missed, spu
    rows.append(_general_type(g, p, ov))
    return rows, anatomy
