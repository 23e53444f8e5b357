"""Matching modes of chunk scoring (SemEval-2013 task 9.1, as nervaluate computes them) and the error anatomy,
one sentence at a time: the assignment rule.

conlleval counts a predicted chunk right only when its boundaries and its type both match a gold chunk
(``strict``, textbcv's default). Three looser modes say *how* a tagger is wrong:

``strict``   boundaries and type match;
``exact``    boundaries match, whatever the type (``--untyped``);
``partial``  boundaries overlap, whatever the type; an overlap that is not an exact match is a *partial*
             and earns half a credit;
``type``     the types match and the spans overlap.

Every mode sorts each chunk into correct (COR), incorrect (INC), partial (PAR, ``partial`` only), missed
(MIS, gold only) or spurious (SPU, predicted only), one-to-one:

**Assignment rule.** Predicted chunks are taken left to right; each takes, among the gold chunks not yet
taken, an exact match if there is one (for ``strict`` the same boundaries and type, for ``exact`` and
``partial`` the same boundaries), else the leftmost gold chunk it overlaps (for ``type``: among the
overlapping gold chunks of its own type, the one whose boundaries are closest — the smallest sum of the
start and end offsets, the leftmost on a tie — else the leftmost overlapping one of another type, an
incorrect); a predicted chunk that overlaps none left is spurious, and a gold chunk no prediction took is
missed. This is nervaluate 1.x's rule (its tests are the oracle of tests/test_scoring_modes.py).

As counts: TP = COR + ½·PAR, FP = COR + INC + PAR + SPU − TP, FN = COR + INC + PAR + MIS − TP, so that
precision TP/(TP + FP) and recall TP/(TP + FN) are nervaluate's; ``strict``'s TP, FP, FN are conlleval's.

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
    """:func:`sentence_modes` of every sentence, in one pass.

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of the same sentences, in the same order.

    Returns
    -------
    ndarray of shape (n, 4, 5), int64
        Per sentence, rows :data:`MODES`, columns :data:`KINDS`.

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
    """TP, FP and FN of ``mode`` from outcome counts (module docstring): half credits for partials.

    Parameters
    ----------
    counts : array of shape (..., 4, 5)
        :func:`sentence_modes` or :func:`mode_counts` output (summed over sentences or not).
    mode : {"strict", "exact", "partial", "type"}
        The matching mode.

    Returns
    -------
    ndarray of shape (..., 3), float
        TP, FP, FN (multiples of ½ in ``partial`` mode).
    """
    if mode not in MODES:
        raise ValueError(f"unknown matching mode {mode!r} (modes: {', '.join(MODES)})")
    c = np.asarray(counts, dtype=float)[..., MODES.index(mode), :]
    cor, inc, par, mis, spu = (c[..., k] for k in range(len(KINDS)))
    tp = cor + 0.5 * par
    return np.stack([tp, cor + inc + par + spu - tp, cor + inc + par + mis - tp], axis=-1)


def sentence_anatomy(gold: Sequence[Chunk], pred: Sequence[Chunk]) -> np.ndarray:
    """The error anatomy of one sentence: every gold and every predicted chunk counted once.

    A predicted chunk is matched as ``strict`` matches it (the same assignment rule); an incorrect one is a
    *wrong type* when its boundaries are the gold chunk's, a *wrong boundary* when its type is, *wrong both*
    otherwise. So correct + wrong type + wrong boundary + wrong both + spurious is the number of predicted
    chunks, and correct + the three wrong kinds + missed the number of gold chunks.

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
    """The ``type`` mode's row by the assignment rule, from each predicted chunk's overlapping gold chunks."""
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
    """Every mode's outcome counts and the anatomy of one sentence in one pass (the overlaps found once).

    Equal to :func:`sentence_modes` and :func:`sentence_anatomy`, which apply the rule one mode at a time.

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
