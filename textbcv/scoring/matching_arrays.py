"""The assignment rule of :mod:`textbcv.scoring.matching` on many sentences at once, in array operations.

Examples
--------
>>> classify([[(0, 2, "PER")]], [[(0, 3, "PER")]], np.array([[0, 1, 1]]), [0])  # a wrong boundary
([0], [[0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np

from textbcv.scoring.matching import Chunk, match_sentence

__all__ = ["classify", "classify_rows"]


def classify(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]], strict: np.ndarray,
             cand: list[int]) -> tuple[list[int], list[list[int]]]:
    """The sentences of ``cand`` whose outcome their conlleval counts do not imply, and their counts.

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of every sentence, in the same order.
    strict : array of shape (n, 3)
        Every sentence's conlleval TP, FP, FN.
    cand : list of int
        The sentences to look at (those with both a false positive and a false negative).

    Returns
    -------
    keys : list of int
        The sentences found, in increasing order.
    found : list of list of int
        Each one's 26 counts: the 4 × 5 mode counts row by row, then the 6 anatomy counts.
    """
    types: dict[str, int] = {}
    return classify_rows(_rows(gold, cand, types), _rows(pred, cand, types), strict,
                         lambda k: match_sentence(sorted(gold[k]), sorted(pred[k])))


def classify_rows(G: np.ndarray, P: np.ndarray, strict: np.ndarray,
                  match: Callable[[int], tuple[list[list[int]], list[int]]]) -> tuple[list[int], list[list[int]]]:
    """:func:`classify` on the chunks of the sentences to look at, given as rows.

    Parameters
    ----------
    G, P : numpy.ndarray of int64, shape (n chunks, 4)
        Gold and predicted chunks (sentence, start, end, type id), sorted by sentence and start; type ids shared.
    strict : array of shape (n, 3)
        Every sentence's conlleval TP, FP, FN.
    match : callable
        ``match(k)``: :func:`~textbcv.scoring.matching.match_sentence` of sentence ``k``, asked only for a
        sentence where chunks of one side overlap.

    Returns
    -------
    keys, found
        As :func:`classify`.
    """
    if not len(G) or not len(P):
        return [], []
    # the chunks that are exact matches (the same sentence, span and type on both sides) are left out
    width = int(max(G[:, 2].max(), P[:, 2].max())) + 1
    n_types = int(max(G[:, 3].max(), P[:, 3].max())) + 1

    def code(X: np.ndarray) -> np.ndarray:
        return ((X[:, 0] * width + X[:, 1]) * width + X[:, 2]) * n_types + X[:, 3]

    g_code, p_code = code(G), code(P)
    G, P = G[~_within(g_code, p_code)], P[~_within(p_code, g_code)]
    if not len(G) or not len(P):
        return [], []
    big = int(max(G[:, 2].max(), P[:, 2].max())) + 1
    bad = np.zeros(len(strict), dtype=bool)
    tangled = np.zeros(len(strict), dtype=bool)
    for X in (G, P):  # sorted within each sentence, and no two chunks of a side overlapping
        same = X[1:, 0] == X[:-1, 0]
        tangled[X[1:, 0][same & (X[1:, 1] < X[:-1, 2])]] = True
    bad |= tangled
    g_start, g_end = G[:, 0] * big + G[:, 1], G[:, 0] * big + G[:, 2]
    lo = np.searchsorted(g_end, P[:, 0] * big + P[:, 1], side="right")
    hi = np.searchsorted(g_start, P[:, 0] * big + P[:, 2], side="left")
    n_hit = hi - lo
    bad[P[n_hit > 1, 0]] = True
    one = n_hit == 1
    hits = np.bincount(lo[one], minlength=len(G))
    bad[G[hits > 1, 0]] = True
    keys: list[int] = []
    found: list[list[int]] = []
    for k in np.unique(np.concatenate([G[tangled[G[:, 0]], 0], P[tangled[P[:, 0]], 0]])).tolist():
        rows, anatomy = match(k)
        keys.append(k)
        found.append([x for r in rows for x in r] + anatomy)
    chained = bad & ~tangled
    if chained.any():
        keys_c, found_c = _chains(G, P, lo, hi, strict, chained)
        keys += keys_c
        found += found_c
    ok = one & ~bad[P[:, 0]]
    if ok.any():
        sent = P[ok, 0]
        mate = G[lo[ok]]
        same_span = (mate[:, 1] == P[ok, 1]) & (mate[:, 2] == P[ok, 2])
        same_type = mate[:, 3] == P[ok, 3]
        ids, inv = _runs(sent)
        n = np.bincount(inv)
        span = np.bincount(inv, weights=same_span).astype(np.int64)
        typ = np.bincount(inv, weights=same_type).astype(np.int64)
        tp, fp, fn = strict[ids, 0], strict[ids, 1], strict[ids, 2]
        missed, lone = fn - n, fp - n
        zero = np.zeros_like(n)
        block = np.stack([tp, n, zero, missed, lone,
                          tp + span, n - span, zero, missed, lone,
                          tp + span, zero, n - span, missed, lone,
                          tp + typ, n - typ, zero, missed, lone,
                          tp, span, typ, n - span - typ, missed, lone], axis=1)
        keys += ids.tolist()
        found += block.tolist()
    order = np.argsort(keys, kind="stable")
    return [keys[i] for i in order], [found[i] for i in order]


def _within(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.isin(a, b)`` for codes; by binary search when ``b`` is strictly increasing (chunks in decoded order)."""
    if len(b) < 2 or not bool(np.all(b[1:] > b[:-1])):
        return np.isin(a, b)
    i = np.minimum(np.searchsorted(b, a), len(b) - 1)
    return b[i] == a


def _runs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(x, return_inverse=True)`` for a non-decreasing ``x`` (rows in sentence order)."""
    new = np.r_[True, x[1:] != x[:-1]]
    return x[new], np.cumsum(new) - 1


def _rows(chunks: Sequence[Sequence[Chunk]], cand: list[int], types: dict[str, int]) -> np.ndarray:
    """The chunks of sentences ``cand`` as rows (sentence, start, end, type code); ``types`` is shared by both sides."""
    sel = [chunks[k] for k in cand]
    lengths = np.fromiter(map(len, sel), dtype=np.int64, count=len(sel))
    n = int(lengths.sum())
    if not n:
        return np.zeros((0, 4), dtype=np.int64)
    starts, ends, names = zip(*chain.from_iterable(sel))
    for t in dict.fromkeys(names):  # in order of first appearance
        types.setdefault(t, len(types))
    out = np.empty((n, 4), dtype=np.int64)
    out[:, 0] = np.repeat(np.asarray(cand, dtype=np.int64), lengths)
    out[:, 1] = np.fromiter(starts, dtype=np.int64, count=n)
    out[:, 2] = np.fromiter(ends, dtype=np.int64, count=n)
    out[:, 3] = np.fromiter(map(types.__getitem__, names), dtype=np.int64, count=n)
    return out


def _chains(G: np.ndarray, P: np.ndarray, lo: np.ndarray, hi: np.ndarray, strict: np.ndarray,
            chained: np.ndarray) -> tuple[list[int], list[list[int]]]:
    """The chain rule for the sentences marked ``chained``, on the rows of their non-exact chunks.

    Chunks of a side do not overlap, so a predicted chunk's overlapping gold rows ``lo[j]:hi[j]`` form a run:
    strict, exact and partial take its first row not yet taken and differ only in how they count it.
    """
    rows_p = np.flatnonzero(chained[P[:, 0]])
    if not len(rows_p):
        return [], []
    sent = P[rows_p, 0]
    starts = np.flatnonzero(np.r_[True, sent[1:] != sent[:-1]])
    rank = np.arange(len(rows_p)) - np.repeat(starts, np.diff(np.r_[starts, len(rows_p)]))
    ids, inv = np.unique(sent, return_inverse=True)
    last = np.full(len(ids), -1, dtype=np.int64)      # strict, exact, partial: the last gold row taken
    taken_t = np.zeros(len(G), dtype=bool)            # in the type mode: the gold rows taken
    n = np.zeros(len(ids), dtype=np.int64)
    span = np.zeros(len(ids), dtype=np.int64)
    typ = np.zeros(len(ids), dtype=np.int64)
    t_cor = np.zeros(len(ids), dtype=np.int64)
    t_inc = np.zeros(len(ids), dtype=np.int64)
    for r in range(int(rank.max()) + 1):              # the r-th predicted chunk of every sentence at once
        sel = rank == r
        j, s_i = rows_p[sel], inv[sel]
        lo_j, hi_j = lo[j], hi[j]
        pick = np.maximum(lo_j, last[s_i] + 1)        # the first gold row of the run not yet taken
        ok = pick < hi_j
        if ok.any():
            jj, si, pk = j[ok], s_i[ok], pick[ok]
            last[si] = pk
            n[si] += 1
            span[si] += (G[pk, 1] == P[jj, 1]) & (G[pk, 2] == P[jj, 2])
            typ[si] += G[pk, 3] == P[jj, 3]
        counts = hi_j - lo_j
        has = counts > 0
        if not has.any():
            continue
        jh, sh, lh, ch = j[has], s_i[has], lo_j[has], counts[has]
        first = np.cumsum(ch) - ch
        g = np.repeat(lh, ch) + (np.arange(ch.sum()) - np.repeat(first, ch))
        owner = np.repeat(np.arange(len(jh)), ch)
        free = ~taken_t[g]
        same = free & (G[g, 3] == P[jh[owner], 3])
        big = np.int64(1) << 40
        dist = np.abs(G[g, 1] - P[jh[owner], 1]) + np.abs(G[g, 2] - P[jh[owner], 2])
        key_same = np.where(same, dist * (len(G) + 1) + g, big)
        key_other = np.where(free & ~same, g, big)
        best_same = np.minimum.reduceat(key_same, first)
        best_other = np.minimum.reduceat(key_other, first)
        won = best_same < big
        other = ~won & (best_other < big)
        taken_t[best_same[won] % (len(G) + 1)] = True
        taken_t[best_other[other]] = True
        np.add.at(t_cor, sh[won], 1)
        np.add.at(t_inc, sh[other], 1)
    tp, fp, fn = strict[ids, 0], strict[ids, 1], strict[ids, 2]
    missed, lone = fn - n, fp - n
    t_missed, t_spu = fn - t_cor - t_inc, fp - t_cor - t_inc
    zero = np.zeros_like(n)
    block = np.stack([tp, n, zero, missed, lone, tp + span, n - span, zero, missed, lone,
                      tp + span, zero, n - span, missed, lone, tp + t_cor, t_inc, zero, t_missed, t_spu,
                      tp, span, typ, n - span - typ, missed, lone], axis=1)
    return ids.tolist(), block.tolist()
