"""What a fold record keeps of the matching modes and the error anatomy, and what is rebuilt from it.

A record keeps the totals and only the sentences whose outcome their conlleval counts do not imply.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.scoring.counts import sentence_counts
from textbcv.scoring.matching import (
    ANATOMY,
    KINDS,
    MODES,
    Chunk,
    anatomy_counts,
    match_sentence,
    mode_counts,
    mode_tp_fp_fn,
    sentence_anatomy,
    sentence_modes,
)
from textbcv.scoring.matching_arrays import classify, classify_rows
from textbcv.stats.metrics import METRICS, ratios

__all__ = ["MODES", "KINDS", "ANATOMY", "sentence_modes", "mode_counts", "mode_tp_fp_fn", "mode_scores",
           "sentence_anatomy", "anatomy_counts", "mode_record", "row_modes", "sentence_mode_counts", "sum_mode_records"]


def _default_rows(strict: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mode rows and anatomy of a sentence whose chunks match only exactly: every mode strict."""
    tp, fp, fn = (np.asarray(strict)[..., k] for k in range(3))
    zero = np.zeros_like(tp)
    row = np.stack([tp, zero, zero, fn, fp], axis=-1)
    return np.repeat(row[..., None, :], len(MODES), axis=-2), np.stack([tp, zero, zero, zero, fn, fp], axis=-1)


def mode_record(gold: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]],
                strict: np.ndarray | None = None) -> dict:
    """The matching modes and anatomy of a fold's test sentences (``folds.jsonl``'s ``modes``).

    Parameters
    ----------
    gold, pred : sequence of sequences of (start, end, type)
        Gold and predicted chunks of the test sentences, in order; no two chunks of one side overlap.
    strict : array of shape (n, 3), optional
        Their conlleval counts per sentence, when already computed.

    Returns
    -------
    dict
        ``totals`` (mode → the five :data:`KINDS` counts), ``anatomy`` (the six :data:`ANATOMY` counts) and
        ``sentences`` (index as a string → 4 × 5 mode counts, then 6 anatomy counts) for the sentences that
        differ from what their conlleval counts imply.

    Examples
    --------
    >>> r = mode_record([[(0, 2, "PER")], [(0, 1, "LOC")]], [[(0, 2, "PER")], [(0, 2, "LOC")]])
    >>> r["totals"]["partial"], r["anatomy"], list(r["sentences"])
    ([1, 0, 1, 0, 0], [1, 0, 1, 0, 0, 0], ['1'])
    >>> sentence_mode_counts([[1, 0, 0], [0, 1, 1]], r, "partial").tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.5]]
    """
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences and {len(pred)} predicted ones")
    if strict is None:
        strict = sentence_counts(gold, pred)
    strict = np.asarray(strict, dtype=np.int64).reshape(-1, 3)
    keys, found = classify(gold, pred, strict, _candidates(strict).tolist())
    rows_total, anatomy_total = _totals(strict, keys, found)
    return {"totals": {mode: rows_total[i].tolist() for i, mode in enumerate(MODES)},
            "anatomy": anatomy_total.tolist(), "sentences": {str(k): row for k, row in zip(keys, found)}}


def _candidates(strict: np.ndarray) -> np.ndarray:
    """The sentences whose chunks may match otherwise than exactly: those with a false positive and a false negative.

    (A predicted chunk that is not exact, and a gold one; chunks of one side do not overlap, as decoded tags give.)
    The others are strict in every mode.
    """
    return np.flatnonzero((strict[:, 1] > 0) & (strict[:, 2] > 0))


def _totals(strict: np.ndarray, keys: list[int], found: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Mode rows (4 × 5) and anatomy (6) of all sentences: what their conlleval counts imply, corrected by ``found``."""
    rows_total, anatomy_total = (x.copy() for x in _default_rows(strict.sum(axis=0)))
    if keys:
        arr = np.asarray(found, dtype=np.int64)
        default_rows, default_anatomy = _default_rows(strict[keys])
        width = len(MODES) * len(KINDS)
        rows_total += (arr[:, :width].reshape(-1, len(MODES), len(KINDS)) - default_rows).sum(axis=0)
        anatomy_total += (arr[:, width:] - default_anatomy).sum(axis=0)
    return rows_total, anatomy_total


def row_modes(gold: np.ndarray, pred: np.ndarray, n_sentences: int) -> tuple[np.ndarray, np.ndarray]:
    """The matching modes and the anatomy of chunks given as rows (e.g. :func:`textbcv.scoring.tags.chunk_rows`).

    Parameters
    ----------
    gold, pred : numpy.ndarray of int64, shape (n chunks, 4)
        Rows (sentence, start, end, type id), sorted by sentence and start; no two chunks of one side overlap.
    n_sentences : int

    Returns
    -------
    rows : ndarray of shape (4, 5)
        Per mode of :data:`MODES`, the counts of :data:`KINDS`, over all sentences.
    anatomy : ndarray of shape (6,)
        The counts of :data:`ANATOMY`.

    Examples
    --------
    >>> G = np.array([[0, 0, 2, 1], [1, 0, 1, 2]])
    >>> P = np.array([[0, 0, 2, 1], [1, 0, 2, 2]])
    >>> rows, anatomy = row_modes(G, P, 2)
    >>> rows[MODES.index("partial")].tolist(), anatomy.tolist()
    ([1, 0, 1, 0, 0], [1, 0, 1, 0, 0, 0])
    """
    G = np.asarray(gold, dtype=np.int64).reshape(-1, 4)
    P = np.asarray(pred, dtype=np.int64).reshape(-1, 4)
    # a chunk is an exact match when the other side has the same row: rows of one side increase strictly
    width = int(max(G[:, 2].max(initial=0), P[:, 2].max(initial=0))) + 1
    n_types = int(max(G[:, 3].max(initial=0), P[:, 3].max(initial=0))) + 1

    def code(X: np.ndarray) -> np.ndarray:
        return ((X[:, 0] * width + X[:, 1]) * width + X[:, 2]) * n_types + X[:, 3]

    g_code, p_code = code(G), code(P)
    hit = np.isin(g_code, p_code, assume_unique=True)
    tp = np.bincount(G[hit, 0], minlength=n_sentences)
    strict = np.stack([tp, np.bincount(P[:, 0], minlength=n_sentences) - tp,
                       np.bincount(G[:, 0], minlength=n_sentences) - tp], axis=1).astype(np.int64)
    look = np.zeros(n_sentences, dtype=bool)
    look[_candidates(strict)] = True
    G_c, P_c = G[look[G[:, 0]]], P[look[P[:, 0]]]

    def match(k: int) -> tuple[list[list[int]], list[int]]:
        def side(X: np.ndarray) -> list[Chunk]:  # types compared for equality only: their ids as names
            return sorted((a, b, str(t)) for _, a, b, t in X[X[:, 0] == k].tolist())

        return match_sentence(side(G_c), side(P_c))

    keys, found = classify_rows(G_c, P_c, strict, match)
    return _totals(strict, keys, found)


def sentence_mode_counts(sentence_counts: np.ndarray, record: dict, mode: str) -> np.ndarray:
    """Per-sentence TP, FP, FN of ``mode``, rebuilt from a fold's conlleval counts and its :func:`mode_record`.

    Parameters
    ----------
    sentence_counts : array of shape (n, 3)
        The fold's per-sentence conlleval TP, FP, FN.
    record : dict
        The fold's :func:`mode_record`.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode.

    Returns
    -------
    ndarray of shape (n, 3), float
        Multiples of ½ in ``partial``; the rows add up to the mode's totals.
    """
    strict = np.asarray(sentence_counts, dtype=np.int64).reshape(-1, 3)
    rows, _ = _default_rows(strict)
    rows = rows.copy()
    width = len(MODES) * len(KINDS)
    for k, values in record.get("sentences", {}).items():
        rows[int(k)] = np.asarray(values[:width], dtype=np.int64).reshape(len(MODES), len(KINDS))
    return mode_tp_fp_fn(rows, mode)


def sum_mode_records(records: Sequence[dict], sentence_counts: Sequence[np.ndarray]) -> dict:
    """Several models' :func:`mode_record` of the same sentences (e.g. a system's seeds), summed.

    Parameters
    ----------
    records : sequence of dict
        Each model's :func:`mode_record`.
    sentence_counts : sequence of arrays of shape (n, 3)
        Each model's per-sentence conlleval counts, in the same order.

    Returns
    -------
    dict
        In :func:`mode_record`'s form.
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


def mode_scores(rows: np.ndarray) -> dict[str, dict[str, float]]:
    """Each mode's outcome counts and its precision, recall and F1 (fractions, the one formula of
    :func:`textbcv.stats.metrics.ratios`), from :func:`row_modes`' rows.

    Parameters
    ----------
    rows : numpy.ndarray of shape (4, 5)
        Per mode of :data:`MODES`, the counts of :data:`KINDS`.

    Returns
    -------
    dict
        Mode → the five counts and ``precision``, ``recall``, ``f1``.

    Examples
    --------
    >>> G = np.array([[0, 0, 2, 1], [1, 0, 1, 2]])
    >>> P = np.array([[0, 0, 2, 1], [1, 0, 2, 2]])
    >>> mode_scores(row_modes(G, P, 2)[0])["strict"]["f1"]
    0.5
    """
    scores = ratios(np.stack([mode_tp_fp_fn(rows, mode) for mode in MODES]))
    return {mode: {**dict(zip(KINDS, (int(x) for x in rows[i]))), **{m: float(scores[m][i]) for m in METRICS}}
            for i, mode in enumerate(MODES)}
