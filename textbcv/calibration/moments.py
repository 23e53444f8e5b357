"""A null pair's posterior ingredients, kept in its unit so a later posterior model can re-summarise it."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from textbcv.comparison.design_effects import fold_clusters
from textbcv.corpus import Corpus
from textbcv.stats.paired import (
    PairedDifference,
    cluster_cross_products,
    paired_difference_from_moments,
    related_cross_products,
)

__all__ = ["pair_moments", "posterior_from_moments", "upper_triangle", "full_matrix"]

LAYOUT = "tp,fp+fn"


def upper_triangle(S: np.ndarray) -> list[int]:
    """The upper triangle of a symmetric integer matrix, row by row.

    Parameters
    ----------
    S : ndarray of shape (k, k)

    Returns
    -------
    list of int

    Examples
    --------
    >>> upper_triangle(np.array([[1, 2], [2, 3]]))
    [1, 2, 3]
    """
    return [int(x) for x in S[np.triu_indices(len(S))]]


def full_matrix(upper: Sequence[int]) -> np.ndarray:
    """The symmetric matrix with upper triangle ``upper`` (inverse of :func:`upper_triangle`).

    Parameters
    ----------
    upper : sequence of int

    Returns
    -------
    ndarray of shape (k, k)

    Examples
    --------
    >>> full_matrix([1, 2, 3]).tolist()
    [[1.0, 2.0], [2.0, 3.0]]
    """
    k = (math.isqrt(8 * len(upper) + 1) - 1) // 2
    S = np.zeros((k, k))
    S[np.triu_indices(k)] = upper
    return S + np.triu(S, 1).T


def pair_moments(records: Sequence[dict], splits, prepared: Corpus, a: str, b: str, m: int) -> dict[str, Any]:
    """The moments of pair (``a``, ``b``) from a comparison's fold records.

    Parameters
    ----------
    records : sequence of dict
        Fold records with ``sentence_counts``.
    splits : SplitSet
    prepared : Corpus
        The corpus as the comparison's task saw it (documents are the clusters).
    a, b : str
        ΔF1 is b − a.
    m : int
        Splits used (the first 2m folds).

    Returns
    -------
    dict
        ``xprod``, ``related``, ``clusters``, ``fold_clusters``, ``counts_a``, ``counts_b``, ``cluster_unit``.
    """
    by = {(r["system"], int(r["split"]), int(r["direction"])): r for r in records}
    cl = fold_clusters(splits, prepared)
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    per = {n: [np.asarray(by[(n, j, k)]["sentence_counts"], dtype=np.int64).reshape(-1, 3) for j, k in folds]
           for n in (a, b)}
    vectors = [np.hstack([np.stack([x[:, 0], x[:, 1] + x[:, 2]], axis=1),
                          np.stack([y[:, 0], y[:, 1] + y[:, 2]], axis=1)]) for x, y in zip(per[a], per[b])]
    ids = [np.asarray(cl["ids"][f]) for f in folds]
    S, n_clusters = cluster_cross_products(vectors, ids)
    R = related_cross_products(vectors, ids, cl["related"])
    return {"xprod": upper_triangle(S), "related": upper_triangle(R), "clusters": int(n_clusters),
            "fold_clusters": [int(len(np.unique(i))) for i in ids], "cluster_unit": cl["clusters"],
            "counts_a": [[int(v) for v in x.sum(axis=0)] for x in per[a]],
            "counts_b": [[int(v) for v in y.sum(axis=0)] for y in per[b]]}


def posterior_from_moments(moments: dict[str, Any], m: int) -> PairedDifference:
    """The paired posterior of ΔF1 (b − a) from a unit's moments, by the present model.

    Parameters
    ----------
    moments : dict
        As :func:`pair_moments` gives them.
    m : int

    Returns
    -------
    PairedDifference

    Examples
    --------
    >>> import numpy as np
    >>> from textbcv.stats.paired import cluster_cross_products
    >>> rng = np.random.default_rng(0)
    >>> v = [rng.integers(0, 5, size=(40, 4)) for _ in range(2)]
    >>> ids = [np.arange(40), np.arange(40, 80)]
    >>> S, k = cluster_cross_products(v, ids)
    >>> mo = {"xprod": upper_triangle(S), "related": upper_triangle(np.zeros_like(S)), "clusters": k,
    ...       "fold_clusters": [40, 40],
    ...       "counts_a": [[x[:, 0].sum(), x[:, 1].sum(), 0] for x in v],
    ...       "counts_b": [[x[:, 2].sum(), x[:, 3].sum(), 0] for x in v]}
    >>> round(posterior_from_moments(mo, 1).sd, 4) > 0
    True
    """
    ca, cb = np.array(moments["counts_a"], dtype=float), np.array(moments["counts_b"], dtype=float)
    return paired_difference_from_moments(full_matrix(moments["xprod"]), moments["clusters"], ca, cb, m,
                                          layout=LAYOUT, fold_clusters=moments["fold_clusters"],
                                          related=full_matrix(moments["related"]))
