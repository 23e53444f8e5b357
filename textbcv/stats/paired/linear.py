"""Linearised (delta-method) cluster variances of two systems' metric and of their difference."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics import linear_weights, ratios

__all__ = ["PairedVariances", "paired_variances", "LAYOUTS", "MACRO_F1"]

#: column layouts of one system's counts in a fold's cluster vector: all three counts, or what F1 needs
LAYOUTS = {"tp,fp,fn": 3, "tp,fp+fn": 2}


@dataclass(frozen=True)
class PairedVariances:
    """Cluster (delta-method) variances of two systems' F1 and of their difference on the same folds.

    Attributes
    ----------
    fold_delta, fold_a, fold_b : ndarray of shape (2m,)
        Per fold, the variance over new clusters of ΔF1 (F1_B − F1_A), F1_A and F1_B, at the fold's counts.
    pooled_delta, pooled_a, pooled_b : float
        The same for the pooled estimate (F1 of the counts summed over the 2m folds).
    clusters : int
    fold_cov : ndarray of shape (2m, 2m)
        Covariance of the folds' ΔF1 over new clusters; its diagonal is ``fold_delta``.
    """

    fold_delta: np.ndarray
    fold_a: np.ndarray
    fold_b: np.ndarray
    pooled_delta: float
    pooled_a: float
    pooled_b: float
    clusters: int
    fold_cov: np.ndarray

    def to_dict(self) -> dict:
        """JSON-ready form, arrays as lists.

        Returns
        -------
        dict
        """
        return {"fold_delta": [float(x) for x in self.fold_delta], "fold_a": [float(x) for x in self.fold_a],
                "fold_b": [float(x) for x in self.fold_b], "pooled_delta": float(self.pooled_delta),
                "pooled_a": float(self.pooled_a), "pooled_b": float(self.pooled_b), "clusters": int(self.clusters),
                "fold_cov": self.fold_cov.tolist()}


#: The metric of a macro average: the mean F1 of the chunk types, each type's TP, FP, FN three columns in turn.
MACRO_F1 = "macro-f1"


def _columns(layout: str) -> int:
    """Columns of one system in a fold block: :data:`LAYOUTS`, or ``types:T`` (TP, FP, FN of T types)."""
    if layout.startswith("types:"):
        return 3 * int(layout.split(":", 1)[1])
    return LAYOUTS[layout]


def _value(counts: np.ndarray, metric: str) -> np.ndarray:
    """``metric`` of counts (..., K): a ratio of (TP, FP, FN), or :data:`MACRO_F1` of T types' columns."""
    c = np.asarray(counts, dtype=float)
    if metric == MACRO_F1:
        return ratios(c.reshape(*c.shape[:-1], -1, 3))["f1"].mean(axis=-1)
    return ratios(c)[metric]


def _weight(counts: np.ndarray, layout: str, metric: str = "f1") -> np.ndarray:
    """Weights w on one system's columns: w·x is the linearised change of ``metric`` at ``counts`` when x is added."""
    if metric == MACRO_F1:
        per = np.asarray(counts, dtype=float).reshape(-1, 3)
        return np.concatenate([linear_weights("f1", x) for x in per]) / len(per)
    w = linear_weights(metric, counts)
    if layout == "tp,fp,fn":
        return w
    if metric != "f1":
        raise ValueError(f"layout 'tp,fp+fn' holds what F1 needs, not {metric}")
    return w[:2]  # F1 weighs FP and FN alike, so FP + FN takes FP's weight


def paired_variances(S: np.ndarray, clusters: int, counts_a: np.ndarray, counts_b: np.ndarray,
                     layout: str = "tp,fp,fn", fold_clusters: Sequence[int] | None = None,
                     metric: str = "f1") -> PairedVariances:
    """Per-fold and pooled cluster variances of F1_A, F1_B and ΔF1 from :func:`cluster_cross_products`.

    Parameters
    ----------
    S : ndarray (F·2K, F·2K)
        Cross products of cluster vectors whose fold blocks hold A's K columns then B's.
    clusters : int
        Number of clusters behind ``S``.
    counts_a, counts_b : array (n_folds, 3)
        Fold totals (TP, FP, FN) of each system, for the first ``n_folds`` ≤ F folds of ``S``.
    layout : {"tp,fp,fn", "tp,fp+fn"}
        The K columns of one system in a fold block.
    fold_clusters : sequence of int, optional
        Clusters tested by each fold (for its k/(k − 1) factor); default ``clusters``.
    metric : {"f1", "precision", "recall"}
        Precision and recall need layout ``"tp,fp,fn"``.

    Returns
    -------
    PairedVariances

    Examples
    --------
    >>> from textbcv.stats.paired import cluster_cross_products
    >>> rng = np.random.default_rng(0)
    >>> c = [rng.integers(0, 4, size=(30, 3)) for _ in range(2)]
    >>> S, k = cluster_cross_products([np.hstack([x, x]) for x in c], [np.arange(30), np.arange(30, 60)])
    >>> paired_variances(S, k, np.array([x.sum(0) for x in c]), np.array([x.sum(0) for x in c])).pooled_delta
    0.0
    """
    K = _columns(layout)
    ca, cb = np.asarray(counts_a, dtype=float), np.asarray(counts_b, dtype=float)
    F = len(ca)
    n = len(S) // (2 * K)
    if len(cb) != F or F > n or len(S) != 2 * K * n:
        raise ValueError("counts must give the fold totals of the first folds of S for both systems")
    def var(w: np.ndarray, k: int = clusters) -> float:
        return float(k / (k - 1) * (w @ S @ w)) if k > 1 else float("nan")

    kf = [clusters] * F if fold_clusters is None else [int(x) for x in fold_clusters]

    fa, fb = np.zeros(F), np.zeros(F)
    wd = np.zeros((F, len(S)))
    pa, pb = np.zeros(len(S)), np.zeros(len(S))
    wa_pool, wb_pool = _weight(ca.sum(axis=0), layout, metric), _weight(cb.sum(axis=0), layout, metric)
    for f in range(F):
        wa, wb = np.zeros(len(S)), np.zeros(len(S))
        wa[f * 2 * K: f * 2 * K + K] = _weight(ca[f], layout, metric)
        wb[f * 2 * K + K: (f + 1) * 2 * K] = _weight(cb[f], layout, metric)
        fa[f], fb[f] = var(wa, kf[f]), var(wb, kf[f])
        wd[f] = wb - wa
        pa[f * 2 * K: f * 2 * K + K] = wa_pool
        pb[f * 2 * K + K: (f + 1) * 2 * K] = wb_pool
    scale = np.sqrt([k / (k - 1) if k > 1 else float("nan") for k in kf])
    cov = np.outer(scale, scale) * (wd @ S @ wd.T)
    return PairedVariances(np.diag(cov).copy(), fa, fb, var(pb - pa), var(pa), var(pb), clusters, cov)


#: A variance with the related clusters' covariance below this share of the clusters' own is rounding: the related
#: pairs took all of it (every cluster related to every other), and no correlation is left to measure.
_CANCELLED = 1e-9


def _correlation(v: PairedVariances, own: PairedVariances | None = None) -> float:
    """The two systems' error correlation over the clusters, in [-1, 1], or NaN where it is not measured.

    ``v`` may hold the related clusters' covariance (``own``: the same without it). A covariance matrix of the
    clusters' own errors bounds the correlation by ±1 (Cauchy–Schwarz), so a value past a bound is rounding, or the
    related pairs' part, which is added pair by pair and need not be a covariance matrix: it is clipped to the bound.
    NaN where a system's variance is not above 0, or is cancelled by the related part (below :data:`_CANCELLED` of
    its own).
    """
    prod = v.pooled_a * v.pooled_b  # (rounding can leave a zero variance a hair below 0: no correlation then)
    if not prod > 0:
        return float("nan")
    if own is not None and (v.pooled_a <= _CANCELLED * own.pooled_a or v.pooled_b <= _CANCELLED * own.pooled_b):
        return float("nan")
    r = (v.pooled_a + v.pooled_b - v.pooled_delta) / (2 * np.sqrt(prod))
    return float(min(1.0, max(-1.0, r)))
