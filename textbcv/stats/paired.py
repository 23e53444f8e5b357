"""Paired cluster moments of two systems tagged on the same test sentences.

Both taggers of a comparison fail on the same hard sentences and documents, so their errors are
correlated; the variance of the *difference* of their F1 is far smaller than the sum of their own
variances. What that variance needs from the test sentences is small: for every cluster g
(document, else sentence) and every fold f that tests it, the vector x_gf of both systems' chunk
counts summed over the cluster's sentences. Any linearised (delta-method) statistic of the folds is
z_g = Σ_f w_f · x_gf with weights w_f fixed by the folds' totals, so its cluster variance needs only
the cross-product matrix S = Σ_g X_g X_gᵀ (X_g the folds' vectors of cluster g side by side) and the
number of clusters. :func:`cluster_cross_products` computes S from per-sentence counts.

Imports only numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .metrics import linear_weights
from .onesplit import chunk_f1

__all__ = ["cluster_cross_products", "PairedVariances", "paired_variances", "LAYOUTS", "PairedDifference",
           "paired_difference", "paired_difference_from_moments"]

#: column layouts of one system's counts in a fold's cluster vector: all three counts, or what F1 needs
LAYOUTS = {"tp,fp,fn": 3, "tp,fp+fn": 2}


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
    return X.T @ X, len(ids)


@dataclass(frozen=True)
class PairedVariances:
    """Cluster (delta-method) variances of two systems' F1 and of their difference on the same folds.

    Attributes
    ----------
    fold_delta, fold_a, fold_b : ndarray of shape (2m,)
        Per fold: the variance over new clusters of the fold's ΔF1 (F1_B − F1_A), F1_A and F1_B,
        each linearised at the fold's own counts.
    pooled_delta, pooled_a, pooled_b : float
        The same for the pooled estimate over all 2m folds (F1 of the summed counts): every cluster
        contributes its sum over the folds that test it, so what a cluster's repeated testing by
        other models averages out is not counted again.
    clusters : int
        Number of clusters.
    """

    fold_delta: np.ndarray
    fold_a: np.ndarray
    fold_b: np.ndarray
    pooled_delta: float
    pooled_a: float
    pooled_b: float
    clusters: int

    def to_dict(self) -> dict:
        return {"fold_delta": [float(x) for x in self.fold_delta], "fold_a": [float(x) for x in self.fold_a],
                "fold_b": [float(x) for x in self.fold_b], "pooled_delta": float(self.pooled_delta),
                "pooled_a": float(self.pooled_a), "pooled_b": float(self.pooled_b), "clusters": int(self.clusters)}


def _f1_weight(counts: np.ndarray, layout: str) -> np.ndarray:
    """Weights w on one system's columns with w·x = (a − F·b)/Σb, a = 2TP, b = 2TP + FP + FN, at ``counts``
    (TP, FP, FN summed over the sentences the variance is of)."""
    w = linear_weights("f1", counts)
    return w if layout == "tp,fp,fn" else w[:2]  # F1 weighs FP and FN alike, so FP + FN takes FP's weight


def paired_variances(S: np.ndarray, clusters: int, counts_a: np.ndarray, counts_b: np.ndarray,
                     layout: str = "tp,fp,fn", fold_clusters: Sequence[int] | None = None) -> PairedVariances:
    """Per-fold and pooled cluster variances of F1_A, F1_B and ΔF1 from :func:`cluster_cross_products`.

    Parameters
    ----------
    S : ndarray (F·2K, F·2K)
        Cross products of cluster vectors whose fold blocks hold system A's K columns then B's.
    clusters : int
        Number of clusters behind ``S``.
    counts_a, counts_b : array (n_folds, 3)
        Fold totals (TP, FP, FN) of each system, for the first ``n_folds`` ≤ F folds of ``S`` (a
        nested design's first 2m folds).
    layout : {"tp,fp,fn", "tp,fp+fn"}
        The K columns of one system in a fold block.
    fold_clusters : sequence of int, optional
        Clusters tested by each fold (for the k/(k − 1) factor of its variance); default ``clusters``.

    Returns
    -------
    PairedVariances

    Examples
    --------
    Two identical systems: the difference has no variance.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> c = [rng.integers(0, 4, size=(30, 3)) for _ in range(2)]
    >>> S, k = cluster_cross_products([np.hstack([x, x]) for x in c], [np.arange(30), np.arange(30, 60)])
    >>> v = paired_variances(S, k, np.array([x.sum(0) for x in c]), np.array([x.sum(0) for x in c]))
    >>> v.pooled_delta, bool(np.isclose(v.pooled_a, v.pooled_b)), v.pooled_a > 0
    (0.0, True, True)
    """
    K = LAYOUTS[layout]
    ca, cb = np.asarray(counts_a, dtype=float), np.asarray(counts_b, dtype=float)
    F = len(ca)
    n = len(S) // (2 * K)
    if len(cb) != F or F > n or len(S) != 2 * K * n:
        raise ValueError("counts must give the fold totals of the first folds of S for both systems")
    def var(w: np.ndarray, k: int = clusters) -> float:
        return float(k / (k - 1) * (w @ S @ w)) if k > 1 else float("nan")

    kf = [clusters] * F if fold_clusters is None else [int(x) for x in fold_clusters]

    fa, fb, fd = np.zeros(F), np.zeros(F), np.zeros(F)
    pa, pb = np.zeros(len(S)), np.zeros(len(S))
    wa_pool, wb_pool = _f1_weight(ca.sum(axis=0), layout), _f1_weight(cb.sum(axis=0), layout)
    for f in range(F):
        wa, wb = np.zeros(len(S)), np.zeros(len(S))
        wa[f * 2 * K: f * 2 * K + K] = _f1_weight(ca[f], layout)
        wb[f * 2 * K + K: (f + 1) * 2 * K] = _f1_weight(cb[f], layout)
        fa[f], fb[f], fd[f] = var(wa, kf[f]), var(wb, kf[f]), var(wb - wa, kf[f])
        pa[f * 2 * K: f * 2 * K + K] = wa_pool
        pb[f * 2 * K + K: (f + 1) * 2 * K] = wb_pool
    return PairedVariances(fd, fa, fb, var(pb - pa), var(pa), var(pb), clusters)


@dataclass(frozen=True)
class PairedDifference:
    """A Normal posterior of ΔF1 = F1_B − F1_A from both systems' counts on the same test sentences.

    Its variance is what the pooled estimate over 2m folds actually varies by: the cluster variance
    of the pooled ΔF1 over new text (covariance of the systems included), plus the spread of the
    per-fold ΔF1 beyond its own test noise divided by m (what other training sets would add; one
    value per split, whose two training halves are complementary). So it narrows with m where the
    estimate's error does, and with independent errors it is the sum of the two systems' variances
    computed the same way.

    Attributes
    ----------
    estimate : float
        ΔF1 of the pooled counts (F1 of B's summed counts minus A's).
    var_test, var_split : float
        The two parts of the variance (``var_split`` already divided by m).
    m : int
    clusters : int
    correlation : float
        Correlation of the two systems' linearised errors over the clusters (pooled).
    """

    estimate: float
    var_test: float
    var_split: float
    m: int
    clusters: int
    correlation: float

    @property
    def var(self) -> float:
        return self.var_test + self.var_split

    @property
    def sd(self) -> float:
        return float(np.sqrt(self.var))

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed 1 − alpha credible interval of ΔF1."""
        from scipy.stats import norm

        z = float(norm.isf(alpha / 2))
        return self.estimate - z * self.sd, self.estimate + z * self.sd

    def prob_better(self, rope: float = 0.0) -> dict[str, float]:
        """P(ΔF1 > rope), P(ΔF1 < −rope) and, with a rope, P(equivalent) — closed form, no sampling."""
        from scipy.stats import norm

        if self.sd == 0:
            p_b, p_a = float(self.estimate > rope), float(self.estimate < -rope)
        else:
            p_b = float(norm.sf((rope - self.estimate) / self.sd))
            p_a = float(norm.cdf((-rope - self.estimate) / self.sd))
        out = {"p_b_better": p_b, "p_a_better": p_a if rope > 0 else 1.0 - p_b}
        if rope > 0:
            out["p_equivalent"] = max(0.0, 1.0 - p_a - p_b)
        return out

    def to_dict(self) -> dict:
        return {"estimate": self.estimate, "sd": self.sd, "var_test": self.var_test, "var_split": self.var_split,
                "m": self.m, "clusters": self.clusters, "correlation": self.correlation}


def paired_difference_from_moments(S: np.ndarray, clusters: int, counts_a: np.ndarray, counts_b: np.ndarray,
                                   m: int, layout: str = "tp,fp,fn",
                                   fold_clusters: Sequence[int] | None = None) -> PairedDifference:
    """:class:`PairedDifference` from cluster cross-products (:func:`cluster_cross_products`) and the first 2m
    folds' totals of each system (see :func:`paired_variances` for the arguments)."""
    ca = np.asarray(counts_a, dtype=float)[: 2 * m]
    cb = np.asarray(counts_b, dtype=float)[: 2 * m]
    if len(ca) != 2 * m or len(cb) != 2 * m:
        raise ValueError(f"need 2m = {2 * m} folds of each system")
    v = paired_variances(S, clusters, ca, cb, layout=layout,
                         fold_clusters=None if fold_clusters is None else list(fold_clusters)[: 2 * m])
    fa, fb = chunk_f1(ca), chunk_f1(cb)
    d = fb - fa
    spread = float(np.var(d, ddof=1)) if len(d) > 1 else 0.0
    var_split = max(0.0, spread - float(np.mean(v.fold_delta))) / m
    denom = np.sqrt(v.pooled_a * v.pooled_b)
    corr = float((v.pooled_a + v.pooled_b - v.pooled_delta) / (2 * denom)) if denom > 0 else float("nan")
    est = float(chunk_f1(cb.sum(axis=0)) - chunk_f1(ca.sum(axis=0)))
    return PairedDifference(est, float(v.pooled_delta), var_split, m, clusters, corr)


def paired_difference(fold_counts_a: Sequence[np.ndarray], fold_counts_b: Sequence[np.ndarray],
                      fold_clusters: Sequence[np.ndarray], m: int) -> PairedDifference:
    """The posterior of ΔF1 from per-sentence counts of both systems on the first 2m folds.

    Parameters
    ----------
    fold_counts_a, fold_counts_b : sequence of (n_f, 3) arrays
        TP, FP, FN of every test sentence of fold f, for system A and B, in the same sentence order.
    fold_clusters : sequence of int arrays
        The cluster (document, else sentence) of every test sentence of fold f, numbered for the
        whole corpus.
    m : int
        Number of splits (2m folds are used).

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
    S, k = cluster_cross_products([np.hstack([x, y]) for x, y in zip(ca, cb)], groups)
    return paired_difference_from_moments(S, k, np.array([x.sum(axis=0) for x in ca]),
                                          np.array([y.sum(axis=0) for y in cb]), m,
                                          fold_clusters=[len(np.unique(g)) for g in groups])

