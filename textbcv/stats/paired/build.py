"""The paired posterior from counts: the parts put together for one pair or every pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from .clusters import cluster_cross_products, related_cross_products
from .difference import PairedDifference
from .linear import PairedVariances, _correlation, _value, paired_variances
from .noise import _test_shared, fold_noise
from .seeds import SeedMoments, seed_moments, seed_variance

__all__ = ["paired_difference", "paired_difference_from_moments", "paired_differences"]


def paired_difference_from_moments(S: np.ndarray, clusters: int, counts_a: np.ndarray, counts_b: np.ndarray,
                                   m: int, layout: str = "tp,fp,fn",
                                   fold_clusters: Sequence[int] | None = None,
                                   metric: str = "f1", seeds: SeedMoments | None = None,
                                   related: np.ndarray | None = None) -> PairedDifference:
    """:class:`PairedDifference` from cluster cross-products and the first 2m folds' totals of each system.

    Parameters
    ----------
    S : ndarray (F·2K, F·2K)
        :func:`cluster_cross_products` of blocks holding A's K columns then B's.
    clusters : int
        Number of clusters behind ``S``.
    counts_a, counts_b : array (n_folds, 3)
        Fold totals (TP, FP, FN) in split order; the first 2m rows are used.
    m : int
        Number of splits, ≥ 1.
    layout : {"tp,fp,fn", "tp,fp+fn"}
        The K columns of one system in a fold block.
    fold_clusters : sequence of int, optional
        Clusters tested by each fold; default ``clusters``.
    metric : {"f1", "precision", "recall"}
        Precision and recall need layout ``"tp,fp,fn"``.
    seeds : SeedMoments, optional
        :func:`seed_moments` on the same folds: the seeds become a part of their own and the test and training
        parts are net of them; ``S`` and the totals are then summed over seeds.
    related : ndarray like ``S``, optional
        :func:`related_cross_products`: their covariance joins the test part (``var_related``, floored at 0).

    Returns
    -------
    PairedDifference
        With ``cluster_unit`` ``"sentences"``; ``var_seed`` only with ``seeds``.
    """
    ca = np.asarray(counts_a, dtype=float)[: 2 * m]
    cb = np.asarray(counts_b, dtype=float)[: 2 * m]
    if m < 1 or len(ca) != 2 * m or len(cb) != 2 * m:
        raise ValueError(f"need 2m = {2 * m} folds of each system")
    kf = None if fold_clusters is None else list(fold_clusters)[: 2 * m]
    v = paired_variances(S, clusters, ca, cb, layout=layout, fold_clusters=kf, metric=metric)
    var_test = max(0.0, float(v.pooled_delta))  # not below 0 by rounding (identical systems)
    var_related = None
    own = None
    if related is not None:  # the related clusters' covariance joins the clusters' own, and the folds'
        with_related = paired_variances(S + related, clusters, ca, cb, layout=layout, fold_clusters=kf, metric=metric)
        var_related = max(0.0, float(with_related.pooled_delta - v.pooled_delta))
        var_test += var_related
        own, v = v, with_related
    d = _value(cb, metric) - _value(ca, metric)
    C = v.fold_cov
    if seeds is not None:
        return replace(_seeded(v, d, seeds, m, clusters, metric, ca, cb, var_test),
                       correlation=_correlation(v, own), var_related=var_related)
    var_model = max(0.0, fold_noise(d, C, m)) / (2 * m)
    est = float(_value(cb.sum(axis=0), metric) - _value(ca.sum(axis=0), metric))
    return PairedDifference(est, var_test, var_model, 2.0 * m - 1.0, m, clusters, _correlation(v, own), metric,
                            test_shared=_test_shared(C, m), var_related=var_related)


def _seeded(v: PairedVariances, d: np.ndarray, seeds: SeedMoments, m: int, clusters: int, metric: str,
            ca: np.ndarray, cb: np.ndarray, raw: float) -> PairedDifference:
    """The seed, test-sample and training-half parts, each measured on its own, when both systems had several seeds."""
    F = 2 * m
    if len(seeds.fold) < F:
        raise ValueError(f"the seeds' moments have {len(seeds.fold)} folds; {F} are needed")
    fold, inter = seeds.fold[:F], seeds.fold_interaction[:F]
    # a fold's Δ errs by its test sample (the clusters' covariance, whose diagonal holds the seeds' sentence-level
    # randomness), by its seeds (their whole effect on the fold, measured from the seeds) and by its training half
    noise = v.fold_cov - np.diag(inter) + np.diag(fold)
    var_model = max(0.0, fold_noise(d, noise, m)) / (2 * m)
    var_test = max(0.0, raw - seeds.interaction)  # raw: the pooled test variance, related clusters' included
    # the shared share is of the clusters' covariance across splits, which the seeds do not reach
    shared = min(1.0, _test_shared(v.fold_cov, m) * raw / var_test) if var_test > 0 else 1.0
    est = float(_value(cb.sum(axis=0), metric) - _value(ca.sum(axis=0), metric))
    return PairedDifference(est, var_test, var_model, 2.0 * m - 1.0, m, clusters, _correlation(v), metric,
                            test_shared=shared, var_seed=seeds.pooled, seeds=seeds.seeds, seed_share_a=seeds.share_a)


def paired_difference(fold_counts_a: Sequence[np.ndarray], fold_counts_b: Sequence[np.ndarray],
                      fold_clusters: Sequence[np.ndarray], m: int, metric: str = "f1",
                      related: np.ndarray | None = None) -> PairedDifference:
    """The posterior of Δ (default ΔF1) from per-sentence counts of both systems on the first 2m folds.

    Parameters
    ----------
    fold_counts_a, fold_counts_b : sequence of (n_f, 3) arrays
        TP, FP, FN of every test sentence of each fold, in split order, same sentence order for A and B.
    fold_clusters : sequence of int arrays
        The cluster (document, else sentence) of every test sentence, numbered for the whole corpus.
    m : int
    metric : {"f1", "precision", "recall"}
    related : array of shape (L, 2), optional
        Related cluster pairs (:func:`textbcv.corpus.related.related_clusters`): their covariance joins the test part.

    Returns
    -------
    PairedDifference

    Examples
    --------
    B repairs some of A's errors and fails where A fails: the difference is far surer than either.

    >>> rng = np.random.default_rng(1)
    >>> folds_a, folds_b, groups = [], [], []
    >>> for f in range(6):
    ...     n = 300
    ...     hard = rng.random(n) < 0.3
    ...     a = np.stack([np.where(hard, 1, 3), np.where(hard, 2, 0), np.where(hard, 2, 0)], axis=1)
    ...     b = a.copy()
    ...     fix = hard & (rng.random(n) < 0.1)
    ...     b[fix] = [2, 1, 1]
    ...     folds_a.append(a); folds_b.append(b); groups.append(np.arange(f * n, (f + 1) * n) // 3)
    >>> p = paired_difference(folds_a, folds_b, groups, m=3)
    >>> round(100 * p.estimate, 2), round(100 * p.sd, 2), p.prob_better()["p_b_better"] > 0.99
    (0.94, 0.13, True)
    """
    if not (len(fold_counts_a) == len(fold_counts_b) == len(fold_clusters)) or len(fold_counts_a) < 2 * m:
        raise ValueError(f"need 2m = {2 * m} folds of counts and clusters for both systems")
    F = 2 * m
    ca = [np.asarray(x, dtype=np.int64) for x in fold_counts_a[:F]]
    cb = [np.asarray(x, dtype=np.int64) for x in fold_counts_b[:F]]
    for f, (x, y) in enumerate(zip(ca, cb)):
        if x.shape != y.shape or x.ndim != 2 or x.shape[1] != 3:
            raise ValueError(f"fold {f}: both systems need (n, 3) counts of the same sentences")
    groups = [np.asarray(g, dtype=np.int64) for g in fold_clusters[:F]]
    blocks = [np.hstack([x, y]) for x, y in zip(ca, cb)]
    S, k = cluster_cross_products(blocks, groups)
    return paired_difference_from_moments(S, k, np.array([x.sum(axis=0) for x in ca]),
                                          np.array([y.sum(axis=0) for y in cb]), m,
                                          fold_clusters=[len(np.unique(g)) for g in groups], metric=metric,
                                          related=None if related is None
                                          else related_cross_products(blocks, groups, related))



def paired_differences(sentence_counts: Mapping[str, Sequence[np.ndarray]], fold_clusters: Sequence[np.ndarray],
                       m: int, metrics: Sequence[str] = ("precision", "recall", "f1"), cluster_unit: str = "sentences",
                       seed_counts: Mapping[str, Sequence[np.ndarray]] | None = None,
                       seed_sentence_counts: Mapping[str, Sequence[np.ndarray]] | None = None,
                       related: np.ndarray | None = None,
                       ) -> dict[tuple[str, str], dict[str, PairedDifference]]:
    """:class:`PairedDifference` of every pair of systems (a before b, input order) on every metric.

    Parameters
    ----------
    sentence_counts : mapping name → sequence of 2m (n_f, 3) arrays
        Every system's TP, FP, FN per test sentence of each fold, one sentence order for all.
    fold_clusters : sequence of 2m int arrays
        The cluster of every test sentence, one numbering for all folds.
    m : int
    metrics : sequence of {"precision", "recall", "f1"}
    cluster_unit : {"documents", "sentences"}
        What the clusters are (recorded in each result).
    seed_counts : mapping name → sequence of 2m (S, 3) arrays, optional
        Each seed's fold totals, for systems trained with several seeds.
    seed_sentence_counts : mapping name → sequence of 2m (S, n_f, 3) arrays, optional
        Every seed's per-sentence counts: a pair whose systems both have two seeds or more on every fold gets the
        seeds as a part of its own; ``sentence_counts`` are then summed over seeds.
    related : array of shape (L, 2), optional
        Related cluster pairs: their covariance joins every pair's test part.

    Returns
    -------
    dict
        ``(a, b)`` → metric → :class:`PairedDifference`.

    Examples
    --------
    >>> a = [np.random.default_rng(0).integers(0, 3, size=(50, 3)) for _ in range(2)]
    >>> out = paired_differences({"A": a, "B": a}, [np.arange(50), np.arange(50, 100)], m=1)
    >>> list(out), out[("A", "B")]["f1"].estimate
    ([('A', 'B')], 0.0)
    """
    names = list(sentence_counts)
    F = 2 * m
    groups = [np.asarray(g, dtype=np.int64) for g in fold_clusters[:F]]
    if len(groups) != F:
        raise ValueError(f"need the clusters of 2m = {F} folds")
    counts = {n: [np.asarray(x, dtype=np.int64) for x in sentence_counts[n][:F]] for n in names}
    kf = [len(np.unique(g)) for g in groups]
    out: dict[tuple[str, str], dict[str, PairedDifference]] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for f in range(F):
                if counts[a][f].shape != counts[b][f].shape or counts[a][f].shape != (len(groups[f]), 3):
                    raise ValueError(f"fold {f}: {a!r} and {b!r} need (n, 3) counts of the same test sentences")
            blocks = [np.hstack([x, y]) for x, y in zip(counts[a], counts[b])]
            S, k = cluster_cross_products(blocks, groups)
            R = None if related is None else related_cross_products(blocks, groups, related)
            ta = np.array([x.sum(axis=0) for x in counts[a]])
            tb = np.array([y.sum(axis=0) for y in counts[b]])
            seeds = seed_counts or {}
            sa, sb = seeds.get(a, ta[:, None, :]), seeds.get(b, tb[:, None, :])  # one seed: its fold totals
            per_sentence = seed_sentence_counts or {}
            out[(a, b)] = {}
            for metric in metrics:
                sm = (seed_moments(per_sentence[a], per_sentence[b], groups, metric)
                      if a in per_sentence and b in per_sentence else None)
                p = paired_difference_from_moments(S, k, ta, tb, m, fold_clusters=kf, metric=metric, seeds=sm,
                                                   related=R)
                if sm is None:
                    p = replace(p, var_seed=seed_variance(sa, sb, metric) if seeds else None)
                out[(a, b)][metric] = replace(p, cluster_unit=cluster_unit)
    return out
