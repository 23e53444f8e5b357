"""Cluster cross-products of per-sentence counts: what a linearised statistic's cluster variance needs.

See docs/method.md §7 (the paired posterior). Imports only numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["cluster_cross_products", "related_cross_products"]


def cluster_cross_products(fold_counts: Sequence[np.ndarray],
                           fold_clusters: Sequence[np.ndarray]) -> tuple[np.ndarray, int]:
    """Cross-product matrix of per-cluster count vectors over folds, and the number of clusters.

    Parameters
    ----------
    fold_counts : sequence of F arrays of shape (n_f, K)
        Per-sentence counts of fold f's test half (K columns, e.g. TP, FP, FN of system A then B).
    fold_clusters : sequence of F integer arrays of length n_f
        The cluster of every test sentence (a document id, or a sentence id), in one numbering for
        all folds: a cluster tested by several folds has one id.

    Returns
    -------
    S : ndarray of shape (F·K, F·K), int64
        ``Σ_g X_g X_gᵀ``, X_g the (F·K) vector of cluster g's count sums in each fold (zeros for the
        folds that do not test it).
    clusters : int
        Number of distinct clusters over all folds.

    Examples
    --------
    Two folds, one count column; clusters 0 and 1 in fold 0, cluster 1 in fold 1:

    >>> S, k = cluster_cross_products([np.array([[1], [2], [3]]), np.array([[4]])],
    ...                               [np.array([0, 1, 1]), np.array([1])])
    >>> S.tolist(), k
    ([[26, 20], [20, 16]], 2)
    """
    ids, X = _cluster_vectors(fold_counts, fold_clusters)
    return X.T @ X, len(ids)


def _cluster_vectors(fold_counts: Sequence[np.ndarray],
                     fold_clusters: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The sorted cluster ids and every cluster's vector X_g of count sums per fold (one row per id)."""
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
    """Cross products of the count vectors of related clusters: what their covariance adds to ``S``.

    ``Σ_(g,h) (X_g X_hᵀ + X_h X_gᵀ)`` over the related pairs (g, h) (clusters sharing a rare name:
    :func:`textbcv.corpus.related.related_clusters`; docs/method.md §7, "Related documents"). Pairs naming a
    cluster that no fold tests add nothing.

    Parameters
    ----------
    fold_counts, fold_clusters
        As for :func:`cluster_cross_products`.
    related : array of shape (L, 2)
        Related pairs of cluster ids (the numbering of ``fold_clusters``), each pair once.

    Returns
    -------
    ndarray of shape (F·K, F·K), int64
        Symmetric; add it to ``S`` for the variances with related clusters' covariances.

    Examples
    --------
    Clusters 0 and 1 related; cluster 2 alone:

    >>> c = [np.array([[1], [2], [3]])]
    >>> related_cross_products(c, [np.array([0, 1, 2])], [[0, 1]]).tolist()
    [[4]]
    """
    ids, X = _cluster_vectors(fold_counts, fold_clusters)
    pairs = np.asarray(related, dtype=np.int64).reshape(-1, 2)
    pos = np.searchsorted(ids, pairs)
    found = np.all((pos < len(ids)) & (ids[np.minimum(pos, len(ids) - 1)] == pairs), axis=1)
    g, h = pos[found, 0], pos[found, 1]
    half = X[g].T @ X[h]
    return half + half.T
