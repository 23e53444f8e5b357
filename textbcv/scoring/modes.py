"""Matching modes of chunk scoring (SemEval-2013 task 9.1, as nervaluate computes them) and the error anatomy.

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
A half credit makes TP, FP and FN multiples of ½; the posteriors take them as they are (a Beta posterior
with fractional counts).

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
from itertools import chain

import numpy as np

from textbcv.defaults import MATCHING_MODES

__all__ = ["MODES", "KINDS", "ANATOMY", "sentence_modes", "mode_counts", "mode_tp_fp_fn", "sentence_anatomy",
           "anatomy_counts", "mode_record", "sentence_mode_counts", "sum_mode_records"]

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
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences and {len(pred)} predicted ones")
    if not len(gold):
        return np.zeros((0, len(MODES), len(KINDS)), dtype=np.int64)
    return np.array([_modes(g, p) for g, p in zip(gold, pred)], dtype=np.int64)


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
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences and {len(pred)} predicted ones")
    if not len(gold):
        return np.zeros((0, len(ANATOMY)), dtype=np.int64)
    return np.stack([sentence_anatomy(g, p) for g, p in zip(gold, pred)])


def _default_rows(strict: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mode rows and anatomy a sentence has when none of its chunks overlaps a chunk of the other side but
    its exact match: every mode is strict, ``[TP, 0, 0, FN, FP]``; the anatomy ``[TP, 0, 0, 0, FN, FP]``."""
    tp, fp, fn = (np.asarray(strict)[..., k] for k in range(3))
    zero = np.zeros_like(tp)
    row = np.stack([tp, zero, zero, fn, fp], axis=-1)
    return np.repeat(row[..., None, :], len(MODES), axis=-2), np.stack([tp, zero, zero, zero, fn, fp], axis=-1)


def mode_record(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]],
                strict: np.ndarray | None = None) -> dict:
    """What a fold record keeps of the matching modes and the anatomy (``folds.jsonl``'s ``modes``).

    Totals of every mode and of the anatomy, and the few sentences whose outcome is not what their conlleval
    counts imply (a predicted chunk overlapping a gold chunk it does not equal): the others are rebuilt from
    ``sentence_counts`` by :func:`sentence_mode_counts`. Only sentences whose chunks differ are matched chunk by
    chunk, so the modes cost a fraction of the strict scoring they add to (``scripts/bench_score.py``).

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of the fold's test sentences, in test order, as tags decode to: no two chunks of
        one side overlap (:func:`mode_counts` takes any chunk lists).
    strict : array of shape (n, 3), optional
        Their conlleval counts per sentence, when already computed (:func:`textbcv.scoring.sentence_counts`).

    Returns
    -------
    dict
        ``totals`` (mode → the five :data:`KINDS` counts), ``anatomy`` (the six :data:`ANATOMY` counts) and
        ``sentences`` (the position of each differing sentence, as a string → its 4 × 5 mode counts, row by
        row, then its 6 anatomy counts).

    Examples
    --------
    >>> r = mode_record([[(0, 2, "PER")], [(0, 1, "LOC")]], [[(0, 2, "PER")], [(0, 2, "LOC")]])
    >>> r["totals"]["strict"], r["totals"]["partial"], r["anatomy"], list(r["sentences"])
    ([1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 0, 1, 0, 0, 0], ['1'])
    """
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences and {len(pred)} predicted ones")
    if strict is None:
        strict = np.array([_strict(g, p) for g, p in zip(gold, pred)], dtype=np.int64).reshape(-1, 3)
    strict = np.asarray(strict, dtype=np.int64).reshape(-1, 3)
    rows_total, anatomy_total = (x.copy() for x in _default_rows(strict.sum(axis=0)))
    # a chunk can be matched otherwise than exactly only in a sentence with both a false positive and a false
    # negative (a predicted chunk that is not exact, and a gold one; chunks of one side do not overlap, as decoded
    # tags give): the others are strict in every mode
    cand = np.flatnonzero((strict[:, 1] > 0) & (strict[:, 2] > 0)).tolist()
    keys, found = _vectorised(gold, pred, strict, cand)
    sentences: dict[str, list[int]] = {}
    if keys:
        arr = np.asarray(found, dtype=np.int64)
        default_rows, default_anatomy = _default_rows(strict[keys])
        width = len(MODES) * len(KINDS)
        rows_total += (arr[:, :width].reshape(-1, len(MODES), len(KINDS)) - default_rows).sum(axis=0)
        anatomy_total += (arr[:, width:] - default_anatomy).sum(axis=0)
        sentences = {str(k): row for k, row in zip(keys, found)}
    return {"totals": {mode: rows_total[i].tolist() for i, mode in enumerate(MODES)},
            "anatomy": anatomy_total.tolist(), "sentences": sentences}


def _vectorised(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]], strict: np.ndarray,
                cand: list[int]) -> tuple[list[int], list[list[int]]]:
    """The sentences (of ``cand``) whose outcome their conlleval counts do not imply, and their 26 counts.

    Sentences whose chunks are sorted, do not overlap within a side, and pair one to one where they overlap are
    classified in array operations (the common case); the others go through :func:`_general`."""
    types: dict[str, int] = {}
    G = _rows(gold, cand, types)
    P = _rows(pred, cand, types)
    if not len(G) or not len(P):
        return [], []
    # the chunks that are exact matches (the same sentence, span and type on both sides) are left out
    width = int(max(G[:, 2].max(), P[:, 2].max())) + 1
    n_types = len(types) + 1

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
        rows, anatomy = _general(sorted(gold[k]), sorted(pred[k]))
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
    """The chunks of the sentences ``cand`` as rows (sentence, start, end, type code); ``types`` numbers the types
    as they come (shared between both sides)."""
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
    """The chain rule for every sentence marked ``chained`` (sorted chunks that do not overlap within a side: a
    predicted chunk's overlapping gold chunks are then a run, an exact match is alone in its run, so strict, exact
    and partial take the same gold chunk — the first one not yet taken — and differ only in how they count it; type
    looks again), on the arrays of its chunks that are not exact matches
    (rows of ``G`` and ``P``: sentence, start, end, type code; a predicted chunk's overlapping gold rows are
    ``lo[j]:hi[j]``)."""
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


def _general(g: Sequence[Chunk], p: Sequence[Chunk]) -> tuple[list[list[int]], list[int]]:
    """Every mode's row and the anatomy of one sentence (chunks sorted) by the assignment rule, the overlaps found
    once for all modes (:func:`_assign` and :func:`_anatomy` one mode at a time give the same)."""
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


def _strict(gold: Sequence[Chunk], pred: Sequence[Chunk]) -> list[int]:
    """conlleval's TP, FP, FN of one sentence (duplicate chunks count once, as :func:`sentence_counts` counts)."""
    g, p = set(gold), set(pred)
    tp = len(g & p)
    return [tp, len(p) - tp, len(g) - tp]


def sentence_mode_counts(sentence_counts: np.ndarray, record: dict, mode: str) -> np.ndarray:
    """Per-sentence TP, FP, FN of ``mode``, rebuilt from a fold's conlleval counts and its :func:`mode_record`.

    Parameters
    ----------
    sentence_counts : array of shape (n, 3)
        The fold's per-sentence TP, FP, FN (strict, as conlleval counts them).
    record : dict
        The fold's :func:`mode_record`.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode.

    Returns
    -------
    ndarray of shape (n, 3), float
        TP, FP, FN of every sentence in ``mode`` (multiples of ½ in ``partial``); they add up to the mode's totals.
    """
    strict = np.asarray(sentence_counts, dtype=np.int64).reshape(-1, 3)
    rows, _ = _default_rows(strict)
    rows = rows.copy()
    width = len(MODES) * len(KINDS)
    for k, values in record.get("sentences", {}).items():
        rows[int(k)] = np.asarray(values[:width], dtype=np.int64).reshape(len(MODES), len(KINDS))
    return mode_tp_fp_fn(rows, mode)


def sum_mode_records(records: Sequence[dict], sentence_counts: Sequence[np.ndarray]) -> dict:
    """The :func:`mode_record` of several models on the same test sentences, their counts summed sentence by
    sentence (a system's training seeds counted together).

    Parameters
    ----------
    records : sequence of dict
        Each model's :func:`mode_record`.
    sentence_counts : sequence of arrays of shape (n, 3)
        Each model's per-sentence conlleval counts, in the same order.

    Returns
    -------
    dict
        The summed record, in :func:`mode_record`'s form.
    """
    if len(records) != len(sentence_counts) or not records:
        raise ValueError("one record and one array of sentence counts per model")
    width = len(MODES) * len(KINDS)
    rows, anatomy = None, None
    for rec, sc in zip(records, sentence_counts):
        r, a = _default_rows(np.asarray(sc, dtype=np.int64).reshape(-1, 3))
        r, a = r.copy(), a.copy()
        for k, values in rec.get("sentences", {}).items():
            r[int(k)] = np.asarray(values[:width], dtype=np.int64).reshape(len(MODES), len(KINDS))
            a[int(k)] = np.asarray(values[width:], dtype=np.int64)
        rows, anatomy = (r, a) if rows is None else (rows + r, anatomy + a)
    assert rows is not None and anatomy is not None
    total = np.sum([np.asarray(sc, dtype=np.int64).reshape(-1, 3) for sc in sentence_counts], axis=0)
    default_rows, default_anatomy = _default_rows(total)
    differ = np.flatnonzero((rows != default_rows).any(axis=(1, 2)) | (anatomy != default_anatomy).any(axis=1))
    return {"totals": {mode: rows[:, i].sum(axis=0).tolist() for i, mode in enumerate(MODES)},
            "anatomy": anatomy.sum(axis=0).tolist(),
            "sentences": {str(int(k)): rows[k].ravel().tolist() + anatomy[k].tolist() for k in differ}}
