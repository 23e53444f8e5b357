"""Posteriors built on the paired difference: one system's ratio, and the difference of macro-F1."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .build import paired_difference_from_moments, paired_differences
from .clusters import cluster_cross_products
from .difference import PairedDifference
from .linear import MACRO_F1

__all__ = ["ratio_posterior", "macro_difference"]


def ratio_posterior(fold_counts: Sequence[np.ndarray], fold_clusters: Sequence[np.ndarray], m: int,
                    metric: str = "recall", cluster_unit: str = "sentences") -> PairedDifference:
    """The posterior of one system's pooled ratio over 2m folds, with the parts of a paired difference.

    It is the difference against a system with no counts, e.g. an error kind's share per gold chunk
    (``metric="recall"`` on ``[kind, 0, rest]`` counts).

    Parameters
    ----------
    fold_counts : sequence of 2m (n_f, 3) arrays
        TP, FP, FN of every test sentence of each fold, in split order.
    fold_clusters : sequence of 2m int arrays
        The cluster of every test sentence, one numbering for all folds.
    m : int
    metric : {"precision", "recall", "f1"}
    cluster_unit : {"documents", "sentences"}

    Returns
    -------
    PairedDifference
        Its ``estimate`` is the pooled ratio.

    Examples
    --------
    >>> c = [np.array([[1, 0, 1], [0, 0, 2], [2, 0, 0]])] * 2     # 3 of 6 gold chunks of a kind, per fold
    >>> p = ratio_posterior(c, [np.arange(3), np.arange(3, 6)], m=1)
    >>> round(p.estimate, 3), p.sd > 0
    (0.5, True)
    """
    counts = [np.asarray(x, dtype=np.int64).reshape(-1, 3) for x in fold_counts[: 2 * m]]
    zero = [np.zeros_like(x) for x in counts]
    return paired_differences({"": zero, "x": counts}, fold_clusters, m, metrics=(metric,),
                              cluster_unit=cluster_unit)[("", "x")][metric]


def macro_difference(fold_counts_a: Sequence[np.ndarray], fold_counts_b: Sequence[np.ndarray],
                     fold_clusters: Sequence[np.ndarray], m: int, cluster_unit: str = "sentences") -> PairedDifference:
    """The paired posterior of the difference of macro-F1 (mean of the chunk types' F1), B − A.

    Linearised like micro-F1, each type weighted by its own F1's weights over the number of types. With an
    all-zero ``fold_counts_a`` it is the posterior of B's macro-F1.

    Parameters
    ----------
    fold_counts_a, fold_counts_b : sequence of 2m arrays of shape (n_f, 3T)
        Per test sentence, TP, FP, FN of each of the T types in turn (same types and order for both).
    fold_clusters : sequence of 2m int arrays of length n_f
        The cluster of every test sentence, one numbering for all folds.
    m : int
    cluster_unit : {"documents", "sentences"}

    Returns
    -------
    PairedDifference
        With metric ``"macro-f1"``.

    Examples
    --------
    >>> a = [np.array([[2, 0, 0, 1, 0, 1], [1, 1, 0, 0, 0, 1]])] * 2
    >>> b = [np.array([[2, 0, 0, 2, 0, 0], [1, 1, 0, 1, 0, 0]])] * 2
    >>> d = macro_difference(a, b, [np.arange(2), np.arange(2, 4)], m=1)
    >>> round(d.estimate, 4), d.metric
    (0.25, 'macro-f1')
    """
    F = 2 * m
    ca = [np.asarray(x, dtype=np.int64) for x in fold_counts_a[:F]]
    cb = [np.asarray(x, dtype=np.int64) for x in fold_counts_b[:F]]
    groups = [np.asarray(g, dtype=np.int64) for g in fold_clusters[:F]]
    if len(ca) != F or len(cb) != F or len(groups) != F:
        raise ValueError(f"need 2m = {F} folds of counts and clusters for both systems")
    K = ca[0].shape[1]
    if K % 3 or any(x.shape != y.shape or x.shape[1] != K or len(x) != len(g) for x, y, g in zip(ca, cb, groups)):
        raise ValueError("both systems need (n_f, 3T) counts of the same test sentences in every fold")
    S, k = cluster_cross_products([np.hstack([x, y]) for x, y in zip(ca, cb)], groups)
    p = paired_difference_from_moments(S, k, np.array([x.sum(axis=0) for x in ca]),
                                       np.array([y.sum(axis=0) for y in cb]), m, layout=f"types:{K // 3}",
                                       fold_clusters=[len(np.unique(g)) for g in groups], metric=MACRO_F1)
    return replace(p, cluster_unit=cluster_unit)
