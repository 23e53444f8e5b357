"""Cluster cross-products of per-sentence counts: what a linearised statistic's cluster variance needs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["cluster_cross_products", "related_cross_products"]


def cluster_cross_products(fold_counts: Sequence[np.ndarray],
                           fold_clusters: Sequence[np.ndarray]) -> tuple[np.ndarray, int]:
    """Cross-product matrix ``Σ_g X_g X_gᵀ`` of per-cluster count sums over folds, and the number of clusters.

    Parameters
    ----------
    fold_counts : sequence of F arrays of shape (n_f, K)
        Per-sentence counts of each fold's test half (e.g. TP, FP, FN of A then B).
    fold_clusters : sequence of F int arrays of length n_f
        The cluster of every test sentence, one numbering for all folds.

    Returns
    -------
    S : ndarray of shape (F·K, F·K), int64
        X_g is cluster g's count sums in each fold (zeros where a fold does not test it).
    clusters : int
        Distinct clusters over all folds.

    Examples
    --------
    >>> S, k = cluster_cross_products([np.array([[1], [2], [3]]), np.array([[4]])],
    ...                               [np.array([0, 1, 1]), np.array([1])])
    >>> S.tolist(), k
    ([[26, 20], [20, 16]], 2)
    """
    ids, X = _cluster_vectors(fold_counts, fold_clusters)
    return X.T @ X, len(ids)


def _cluster_vectors(fold_counts: Sequence[np.ndarray],
                     fold_clusters: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The sorted cluster ids and each cluster's vector of count sums per fold."""
    if len(fold_counts) != len(fold_clusters):
        raise ValueError("one cluster array per fold is needed")
    if not len(fold_counts):
        raise ValueError("no folds")
    K = np.asarray(fold_counts[0]).shape[1]
    ids = np.unique(np.concatenate([np.asarray(c, dtype=np.int64).ravel() for c in fold_clusters]))
    X = np.zeros((len(ids), K * len(fold_counts)), dtype=np.int64)
    for f, (c, g) in enumerate(zip(fold_counts, fold_clusters)):
        c = np.asarray(c, dtype=np.int64)
        g = np.searchsorted(ids, np.asarray(g, dtype=np.int64))
        if c.ndim != 2 or c.shape[1] != K or len(g) != len(c):
            raise ValueError(f"fold {f}: counts must be (n, {K}) with one cluster per sentence")
        for j in range(K):
            X[:, f * K + j] = np.bincount(g, weights=c[:, j], minlength=len(ids)).astype(np.int64)
    return ids, X


def related_cross_products(fold_counts: Sequence[np.ndarray], fold_clusters: Sequence[np.ndarray],
                           related: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    """``Σ_(g,h) (X_g X_hᵀ + X_h X_gᵀ)`` over related cluster pairs: what their covariance adds to ``S``.

    Pairs naming a cluster that no fold tests add nothing.

    Parameters
    ----------
    fold_counts, fold_clusters
        As for :func:`cluster_cross_products`.
    related : array of shape (L, 2)
        Related pairs of cluster ids (:func:`textbcv.corpus.related.related_clusters`), each pair once.

    Returns
    -------
    ndarray of shape (F·K, F·K), int64
        Symmetric.

    Examples
    --------
    >>> related_cross_products([np.array([[1], [2], [3]])], [np.array([0, 1, 2])], [[0, 1]]).tolist()
    [[4]]
    """
    ids, X = _cluster_vectors(fold_counts, fold_clusters)
    pairs = np.asarray(related, dtype=np.int64).reshape(-1, 2)
    pos = np.searchsorted(ids, pairs)
    found = np.all((pos < len(ids)) & (ids[np.minimum(pos, len(ids) - 1)] == pairs), axis=1)
    g, h = pos[found, 0], pos[found, 1]
    half = X[g].T @ X[h]
    return half + half.T
