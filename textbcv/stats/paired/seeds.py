"""The training seeds' part of a paired difference."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics import linear_weights, ratios

__all__ = ["SeedMoments", "seed_moments", "seed_variance"]


def seed_variance(seeds_a: Sequence[np.ndarray] | np.ndarray, seeds_b: Sequence[np.ndarray] | np.ndarray,
                  metric: str = "f1") -> float | None:
    """The variance of the pooled Δ over 2m folds that the training seeds alone bring, from each seed's fold totals.

    Parameters
    ----------
    seeds_a, seeds_b : sequence of ndarray of shape (S, 3)
        Per fold (2m, same order for both), each seed's fold totals TP, FP, FN.
    metric : {"f1", "precision", "recall"}

    Returns
    -------
    float or None
        A fraction squared; None when no system has two seeds on a fold.

    Examples
    --------
    >>> a = [np.array([[8, 2, 2], [9, 1, 1], [7, 3, 3]])] * 2     # three seeds, two folds (m = 1)
    >>> round(seed_variance(a, [np.array([[8, 2, 2]])] * 2), 6)
    0.001667
    """
    parts, any_spread = [], False
    for xa, xb in zip(seeds_a, seeds_b):
        v = 0.0
        for x in (np.asarray(xa, dtype=float), np.asarray(xb, dtype=float)):
            if len(x) > 1:
                any_spread = True
                v += float(np.var(ratios(x)[metric], ddof=1)) / len(x)
        parts.append(v)
    if not any_spread:
        return None
    return float(np.mean(parts)) / len(parts)


@dataclass(frozen=True)
class SeedMoments:
    """What the training seeds add to a pair's Δ, from each seed's per-sentence counts (A's and B's independent).

    Attributes
    ----------
    seeds : tuple of int
        (S_A, S_B), seeds per fold (the fewest over the folds).
    pooled : float
        The seeds' variance of the pooled Δ, linearised at the pooled totals.
    share_a : float
        The share of ``pooled`` that A's seeds bring.
    interaction : float
        The part of ``pooled`` that is sentence-level randomness (each cluster's own seed spread), which the
        cluster variance also holds.
    fold, fold_interaction : ndarray of shape (2m,)
        The same per fold, linearised at the fold's totals.

    Examples
    --------
    >>> a = [np.array([[[2, 0, 0], [1, 1, 1]], [[1, 1, 1], [2, 0, 0]]])] * 2   # 2 seeds × 2 sentences, 2 folds
    >>> s = seed_moments(a, a, [np.array([0, 1]), np.array([2, 3])])
    >>> s.seeds, round(s.pooled, 6), round(s.interaction, 6)
    ((2, 2), 0.0, 0.03125)
    """

    seeds: tuple[int, int]
    pooled: float
    share_a: float
    interaction: float
    fold: np.ndarray
    fold_interaction: np.ndarray


def seed_moments(seeds_a: Sequence[np.ndarray], seeds_b: Sequence[np.ndarray], fold_clusters: Sequence[np.ndarray],
                 metric: str = "f1") -> SeedMoments | None:
    """The seeds' part of a pair's Δ (:class:`SeedMoments`) from every seed's per-sentence counts.

    See docs/method.md, "The difference, paired".

    Parameters
    ----------
    seeds_a, seeds_b : sequence of 2m arrays of shape (S, n_f, 3)
        Per fold, every seed's TP, FP, FN on each test sentence (same sentences and order for both systems).
    fold_clusters : sequence of 2m int arrays of length n_f
        The cluster of every test sentence of each fold.
    metric : {"f1", "precision", "recall"}

    Returns
    -------
    SeedMoments or None
        None when a system has fewer than two seeds on some fold.
    """
    F = len(fold_clusters)
    if len(seeds_a) < F or len(seeds_b) < F:
        raise ValueError(f"need every seed's counts on all {F} folds for both systems")
    xs = {"a": [np.asarray(x, dtype=float) for x in seeds_a[:F]],
          "b": [np.asarray(x, dtype=float) for x in seeds_b[:F]]}
    for side, arrs in xs.items():
        for f, x in enumerate(arrs):
            if x.ndim != 3 or x.shape[2] != 3 or x.shape[1] != len(fold_clusters[f]):
                raise ValueError(f"fold {f}: system {side.upper()}'s seeds need (S, n, 3) counts of its "
                                 f"{len(fold_clusters[f])} test sentences")
        if min(len(x) for x in arrs) < 2:
            return None
    inverse = [np.unique(np.asarray(g, dtype=np.int64), return_inverse=True)[1] for g in fold_clusters]
    pooled = {"a": 0.0, "b": 0.0}
    inter = 0.0
    fold, fold_inter = np.zeros(F), np.zeros(F)
    for side, arrs in xs.items():
        w_pool = linear_weights(metric, sum(x.sum(axis=(0, 1)) for x in arrs))
        for f, x in enumerate(arrs):
            S = len(x)
            w_fold = linear_weights(metric, x.sum(axis=(0, 1)))
            totals = x.sum(axis=1)  # (S, 3)
            k = int(inverse[f].max()) + 1 if len(inverse[f]) else 0
            clus = np.zeros((S, k, 3))
            for j in range(3):
                for s_ in range(S):
                    clus[s_, :, j] = np.bincount(inverse[f], weights=x[s_, :, j], minlength=k)
            pooled[side] += S * float(np.var(totals @ w_pool, ddof=1))
            inter += S * float(np.var(clus @ w_pool, axis=0, ddof=1).sum())
            fold[f] += S * float(np.var(totals @ w_fold, ddof=1))
            fold_inter[f] += S * float(np.var(clus @ w_fold, axis=0, ddof=1).sum())
    total = pooled["a"] + pooled["b"]
    return SeedMoments((min(len(x) for x in xs["a"]), min(len(x) for x in xs["b"])), total,
                       pooled["a"] / total if total > 0 else 0.5, inter, fold, fold_inter)
