"""Paired cluster moments of two systems tagged on the same test sentences.

Both taggers of a comparison fail on the same hard sentences and documents, so their errors are
correlated; the variance of the *difference* of their F1 is far smaller than the sum of their own
variances. What that variance needs from the test sentences is small: for every cluster g
(document, else sentence) and every fold f that tests it, the vector x_gf of both systems' chunk
counts summed over the cluster's sentences. Any linearised (delta-method) statistic of the folds is
z_g = Σ_f w_f · x_gf with weights w_f fixed by the folds' totals, so its cluster variance needs only
the cross-product matrix S = Σ_g X_g X_gᵀ (X_g the folds' vectors of cluster g side by side) and the
number of clusters. :func:`cluster_cross_products` computes S from per-sentence counts.

Imports only numpy and scipy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import stats as sst

from .metrics import linear_weights, ratios

__all__ = ["cluster_cross_products", "related_cross_products", "PairedVariances", "paired_variances", "LAYOUTS",
           "PairedDifference",
           "SeedMoments", "seed_moments", "ratio_posterior", "macro_difference", "MACRO_F1",
           "paired_difference", "paired_difference_from_moments", "paired_differences", "satterthwaite", "fold_noise",
           "seed_variance"]

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

    Two clusters are related when their errors may move together although they are different documents
    (they share a rare name: :func:`textbcv.corpus.related.related_clusters`). The variance of a sum over
    clusters then holds, besides every cluster's own square (``S``), the cross products of related
    clusters: ``Σ_(g,h) (X_g X_hᵀ + X_h X_gᵀ)`` over the related pairs. Pairs naming a cluster that no fold
    tests add nothing.

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
    fold_cov : ndarray of shape (2m, 2m)
        Covariance over new clusters of the folds' ΔF1 (folds of different splits test the same
        sentences); its diagonal is ``fold_delta``.
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
        """JSON-ready form.

        Returns
        -------
        dict
            Every field by name, arrays as (nested) lists of float.
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
    """Weights w on one system's columns with w·x the linearised change of ``metric`` when counts x are
    added, at ``counts`` (TP, FP, FN summed over the sentences the variance is of)."""
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
    metric : {"f1", "precision", "recall"}
        The metric whose variances these are (precision and recall need layout ``"tp,fp,fn"``).

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


@dataclass(frozen=True)
class PairedDifference:
    """The posterior of Δ = metric(B) − metric(A) from both systems' counts on the same test sentences.

    What it is about: the difference on new text (new documents) of the two systems trained on this
    corpus, i.e. the mean over the corpus's halvings of models trained on half of it. The pooled estimate
    over 2m folds errs about that by two parts, each measured on its own:

    ``var_test``
        new text: the cluster (document, else sentence) variance of the pooled difference, both
        systems' counts on the same clusters, so their covariance is included. Every cluster is
        tested by m models, so the part of it that differs from model to model falls with m.
    ``var_model``
        the models' own noise: every fold's Δ also moves with the model behind it — the half of the
        corpus it was trained on, its training seed. With M that variance per fold, each split's
        half-difference of its two folds has variance M/2 beyond its test noise, and so has the spread
        of the m split means: their pooled mean square (2m − 1 degrees of freedom) beyond the test noise
        the clusters give is M/2 (:func:`fold_noise`), and the pooled estimate averages 2m folds, so
        this part is M/(2m).

    Clusters are not always independent: two documents that share a rare name (:mod:`textbcv.corpus.related`)
    are tagged better when either is in the training half, so their errors move together, and what a corpus
    holds of such pairs moves every fold alike. When the related clusters are known, ``var_test`` holds their
    covariance too (``var_related``), and the folds' covariance that ``var_model`` is taken net of holds it.

    Both are moments (``var_model`` floored at 0), so the posterior is a Student t with 2m − 1 degrees
    of freedom, those of the folds' spread, its least measured part: few splits make it wider, many
    make it Normal. With independent errors of A and B, ``var_test`` is the sum of the systems' own
    test variances. On real text (docs/RESULTS.md) this posterior's scale matched the estimate's
    actual error on pairs 0–2 points apart, and at P ≥ 0.95 it called identical systems different in
    about 5% of data sets in each direction, as a calibrated posterior does.

    What other corpora of the same size would change (the training text's own luck) is not in it: a
    comparison on one corpus speaks for that corpus; several corpora answer together in
    :mod:`textbcv.stats.hierarchical`.

    Attributes
    ----------
    estimate : float
        Δ of the pooled counts (the metric of B's summed counts minus A's).
    var_test, var_model : float
        The two parts of the variance (as fractions squared).
    df : float
        Degrees of freedom of the Student t: 2m − 1 (``inf`` for a variance taken as exact).
    m : int
        Number of splits (2m folds).
    clusters : int
        Clusters behind ``var_test``.
    correlation : float
        Correlation of the two systems' linearised errors over the clusters (pooled).
    metric : str
        The metric of Δ: ``"f1"``, ``"precision"`` or ``"recall"``.
    cluster_unit : {"documents", "sentences"}
        What the clusters are.
    var_seed : float or None
        With several training seeds per fold: the seeds' whole effect on the pooled Δ, measured on its
        own from the spread of each fold's seeds (same training half, same test sentences, so nothing but
        the seed differs). When ``seeds`` is set (both systems had at least two seeds on every fold, with
        per-sentence counts for each seed: :func:`seed_moments`) it is the third part of the posterior,
        and ``var_test`` and ``var_model`` are net of it, so the three parts — test sample, training half,
        seed — are each measured on their own with nothing left as a remainder (``var_model`` is then what
        the training halves alone change). Otherwise (fold totals per seed only, or one system with one
        seed; :func:`seed_variance`) it is a diagnostic, not added to the posterior: the part of it that
        moves a whole fold is in ``var_model``, the sentence-level part in ``var_test``
        (tests/test_stats_paired.py shows both in a simulation).
    test_shared : float
        The share of ``var_test`` that more splits would not remove (the sentences' own difficulty for
        both systems, common to the m models that test them; from the covariance of folds of different
        splits); the rest falls as 1/m. Used by :meth:`at_m`.
    seeds : tuple of int or None
        (S_A, S_B), each system's training seeds per fold, when ``var_seed`` is a part of the posterior;
        None otherwise.
    seed_share_a : float
        The share of ``var_seed`` that system A's seeds bring (for :meth:`at_seeds`).
    var_related : float or None
        The part of ``var_test`` that is the covariance of related clusters (clusters sharing a rare name),
        floored at 0; None when which clusters are related was not known (then ``var_test`` is the clusters'
        own variance only).

    Examples
    --------
    >>> p = PairedDifference(0.004, 0.002 ** 2, 0.001 ** 2, 40.0, 3, 900, 0.8)
    >>> round(p.sd, 5), round(p.prob_better()["p_b_better"], 3)
    (0.00224, 0.959)
    >>> [round(x, 4) for x in p.interval()]
    [-0.0005, 0.0085]
    >>> PairedDifference.from_dict(p.to_dict()) == p
    True
    """

    estimate: float
    var_test: float
    var_model: float
    df: float
    m: int
    clusters: int
    correlation: float
    metric: str = "f1"
    cluster_unit: str = "sentences"
    test_shared: float = 1.0
    var_seed: float | None = None
    seeds: tuple[int, int] | None = None
    seed_share_a: float = 0.5
    var_related: float | None = None

    @property
    def var_seed_part(self) -> float:
        """The seeds' part of ``var``: ``var_seed`` when it is a part of the posterior (``seeds`` set), else 0."""
        return float(self.var_seed) if self.seeds is not None and self.var_seed is not None else 0.0

    @property
    def var(self) -> float:
        """The posterior variance of Δ: ``var_test + var_model`` plus, when the seeds were measured as a part of
        their own, ``var_seed`` (a fraction squared)."""
        return self.var_test + self.var_model + self.var_seed_part

    @property
    def sd(self) -> float:
        """The posterior scale of Δ, √``var`` (a fraction)."""
        return float(np.sqrt(self.var))

    def _dist(self) -> Any:
        """The frozen scipy distribution of Δ."""
        if not np.isfinite(self.df):
            return sst.norm(loc=self.estimate, scale=self.sd)
        return sst.t(self.df, loc=self.estimate, scale=self.sd)

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed 1 − alpha credible interval of Δ.

        Parameters
        ----------
        alpha : float
            The interval holds 1 − alpha of the posterior (default 0.05).

        Returns
        -------
        (float, float)
            Lower and upper end, as fractions (both ``estimate`` when sd = 0; not clipped to [−1, 1]).
        """
        if self.sd == 0:
            return self.estimate, self.estimate
        d = self._dist()
        return float(d.ppf(alpha / 2)), float(d.isf(alpha / 2))

    def prob_better(self, rope: float = 0.0) -> dict[str, float]:
        """P(Δ > rope), P(Δ < −rope) and, with a rope, P(equivalent) — closed form, no sampling.

        Parameters
        ----------
        rope : float
            Region of practical equivalence, as a fraction of the metric (default 0: none).

        Returns
        -------
        dict of str to float
            ``p_b_better``, ``p_a_better`` (1 − ``p_b_better`` without a rope) and, with a rope > 0,
            ``p_equivalent``; with sd = 0 the probabilities are 0 or 1 (½ each for Δ = 0 without a rope).
        """
        if self.sd == 0:
            p_b, p_a = float(self.estimate > rope), float(self.estimate < -rope)
            if rope == 0 and self.estimate == 0:
                p_b = p_a = 0.5
        else:
            d = self._dist()
            p_b, p_a = float(d.sf(rope)), float(d.cdf(-rope))
        out = {"p_b_better": p_b, "p_a_better": p_a if rope > 0 else 1.0 - p_b}
        if rope > 0:
            out["p_equivalent"] = max(0.0, 1.0 - p_a - p_b)
        return out

    def at_m(self, m: int) -> PairedDifference:
        """The posterior this comparison would have with ``m`` splits on the same sentences (same estimate):
        the test part's unshared share, the model noise and the seeds' part fall as 1/m, the test part's
        shared share (the sentences' own difficulty for both systems) stays; the degrees of freedom become
        2m − 1.

        Parameters
        ----------
        m : int
            The number of splits to project to.

        Returns
        -------
        PairedDifference
            A copy with ``var_test``, ``var_model``, ``df`` and ``m`` for ``m`` splits.
        """
        r = self.m / m
        keep = self.test_shared + (1 - self.test_shared) * r
        var_model = self.var_model * r
        var_seed = None if self.var_seed is None else self.var_seed * r  # every fold has its own seeds
        var_related = None if self.var_related is None else self.var_related * keep
        df = 2.0 * m - 1.0 if np.isfinite(self.df) else self.df
        return replace(self, var_test=self.var_test * keep, var_model=var_model, var_seed=var_seed, m=m, df=df,
                       var_related=var_related)

    def at_seeds(self, seeds: int) -> PairedDifference:
        """The posterior this comparison would have with ``seeds`` training seeds per fold for both systems (same
        splits, same sentences, same estimate): the seeds' part falls as 1/S; the others and the degrees of
        freedom stay.

        Parameters
        ----------
        seeds : int
            Training seeds per fold of each system.

        Returns
        -------
        PairedDifference
            A copy with ``var_seed`` and ``seeds`` for ``seeds`` seeds; this posterior itself when its
            seeds were not measured as a part of their own (``seeds`` None).

        Examples
        --------
        >>> p = PairedDifference(0.01, 1e-5, 1e-5, 5.0, 3, 500, 0.8, var_seed=2e-5, seeds=(2, 2))
        >>> round(1e5 * p.var, 3), round(1e5 * p.at_seeds(8).var, 3)
        (4.0, 2.5)
        """
        if self.seeds is None or self.var_seed is None:
            return self
        sa, sb = self.seeds
        share = self.seed_share_a
        var_seed = self.var_seed * (share * sa / seeds + (1 - share) * sb / seeds)
        new_share = share * sa / (share * sa + (1 - share) * sb) if share * sa + (1 - share) * sb > 0 else 0.5
        return replace(self, var_seed=var_seed, seeds=(seeds, seeds), seed_share_a=new_share)

    def detectable(self, power: float = 0.8, threshold: float = 0.95) -> float:
        """The smallest true Δ > 0 this design calls (P(B better) ≥ ``threshold``) with probability ``power``.

        B is called better when Δ̂ ≥ q·sd, q the ``threshold`` quantile of the posterior's t; if Δ̂ errs
        about a true Δ with this posterior's sd, that happens with probability Φ((Δ − q·sd)/sd), so
        the gain is (q + z_power)·sd.

        Parameters
        ----------
        power : float
            Probability of calling B better, in (0, 1) (default 0.8).
        threshold : float
            The decision rule's threshold on P(B better) (default 0.95).

        Returns
        -------
        float
            The smallest true Δ, as a fraction (× 100 for points).

        Examples
        --------
        >>> p = PairedDifference(0.0, 0.002 ** 2, 0.0, float("inf"), 3, 500, 0.8)
        >>> round(100 * p.detectable(0.5), 3), round(100 * p.detectable(0.8), 3)  # 1.645 sd and 2.486 sd
        (0.329, 0.497)
        """
        q = float(sst.t.ppf(threshold, self.df)) if np.isfinite(self.df) else float(sst.norm.ppf(threshold))
        return (q + float(sst.norm.ppf(power))) * self.sd

    def power(self, delta: float, threshold: float = 0.95) -> float:
        """The probability that this design calls B better (P ≥ ``threshold``) when the true Δ is ``delta``
        (the inverse of :meth:`detectable`).

        Parameters
        ----------
        delta : float
            The true Δ, as a fraction.
        threshold : float
            The decision rule's threshold on P(B better) (default 0.95).

        Returns
        -------
        float
            The probability (0 or 1 when sd = 0).
        """
        if self.sd == 0:
            return float(delta > 0)
        q = float(sst.t.ppf(threshold, self.df)) if np.isfinite(self.df) else float(sst.norm.ppf(threshold))
        return float(sst.norm.cdf(delta / self.sd - q))

    def density(self, d: Any) -> np.ndarray:
        """The posterior density of Δ at ``d`` (a fraction).

        Parameters
        ----------
        d : float or array_like
            Values of Δ, as fractions.

        Returns
        -------
        ndarray
            The Student t (Normal for infinite ``df``) density at every ``d``.
        """
        d = np.asarray(d, dtype=float)
        if self.sd == 0:  # a point mass: no density anywhere but at the estimate
            return np.where(d == self.estimate, np.inf, 0.0)
        return self._dist().pdf(d)

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
            ``metric``, ``estimate``, ``sd``, the variance parts ``var_test`` and ``var_model``, ``df`` (None
            when infinite), ``m``, ``clusters``, ``correlation`` (None when NaN), ``cluster_unit``,
            ``test_shared``, and ``var_seed`` and ``var_related`` when set.
        """
        return {"metric": self.metric, "estimate": self.estimate, "sd": self.sd, "var_test": self.var_test,
                "var_model": self.var_model,
                "df": None if not np.isfinite(self.df) else self.df, "m": self.m, "clusters": self.clusters,
                "correlation": None if not np.isfinite(self.correlation) else self.correlation,
                "cluster_unit": self.cluster_unit, "test_shared": self.test_shared,
                **({} if self.var_seed is None else {"var_seed": self.var_seed}),
                **({} if self.var_related is None else {"var_related": self.var_related}),
                **({} if self.seeds is None else {"seeds": list(self.seeds), "seed_share_a": self.seed_share_a})}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PairedDifference:
        """Read :meth:`to_dict` back (``sd`` is derived, so not read).

        Parameters
        ----------
        d : mapping
            A dict of :meth:`to_dict`; ``estimate``, the variance parts, ``m`` and ``clusters`` are required.

        Returns
        -------
        PairedDifference
            ``df`` None read as infinite, ``correlation`` None as NaN.
        """
        df = d.get("df")
        corr = d.get("correlation")
        return cls(float(d["estimate"]), float(d["var_test"]), float(d["var_model"]),
                   float("inf") if df is None else float(df), int(d["m"]), int(d["clusters"]),
                   float("nan") if corr is None else float(corr), d.get("metric", "f1"),
                   d.get("cluster_unit", "sentences"), float(d.get("test_shared", 1.0)),
                   None if d.get("var_seed") is None else float(d["var_seed"]),
                   None if d.get("seeds") is None else (int(d["seeds"][0]), int(d["seeds"][1])),
                   float(d.get("seed_share_a", 0.5)),
                   None if d.get("var_related") is None else float(d["var_related"]))


def seed_variance(seeds_a: Sequence[np.ndarray] | np.ndarray, seeds_b: Sequence[np.ndarray] | np.ndarray,
                  metric: str = "f1") -> float | None:
    """The variance of the pooled Δ over 2m folds that the training seeds alone bring.

    ``seeds_a``, ``seeds_b``: per fold, an (S, 3) array of each seed's TP, FP, FN on that fold (S may differ
    between systems and be 1). Within a fold the seeds share the training half and the test sentences, so the
    sample variance of their scores is seed noise only; the fold's Δ averages S seeds of each system, so its
    seed variance is v_A/S_A + v_B/S_B, and the mean of 2m folds has the mean of those over 2m. None when
    neither system has two seeds on a fold.

    Parameters
    ----------
    seeds_a, seeds_b : sequence of ndarray of shape (S, 3)
        Per fold (2m of them, in the same order for both), each seed's fold totals TP, FP, FN.
    metric : {"f1", "precision", "recall"}
        The metric of Δ (default ``"f1"``).

    Returns
    -------
    float or None
        The seed variance of the pooled Δ (a fraction squared), or None.

    Examples
    --------
    >>> a = [np.array([[8, 2, 2], [9, 1, 1], [7, 3, 3]])] * 2     # three seeds, two folds (m = 1)
    >>> b = [np.array([[8, 2, 2]])] * 2                           # one seed: no seed spread to measure
    >>> round(seed_variance(a, b), 6)
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


def satterthwaite(parts: Sequence[tuple[float, float]], total: float) -> float:
    """Degrees of freedom of a variance estimate ``total`` built from mean squares ``(value, its df)``
    (Satterthwaite, 1946).

    Parameters
    ----------
    parts : sequence of (float, float)
        Each part's value and its degrees of freedom; parts at or below 0, or with infinite df, add nothing.
    total : float
        The variance estimate (usually the sum of the parts).

    Returns
    -------
    float
        total² / Σ value²/df; ``inf`` when no part is uncertain.

    Examples
    --------
    >>> satterthwaite([(1.0, 10.0), (1.0, 10.0)], 2.0)
    20.0
    >>> satterthwaite([(1.0, float("inf"))], 1.0)
    inf
    """
    denom = sum(v * v / df for v, df in parts if v > 0 and np.isfinite(df))
    return float(total * total / denom) if denom > 0 else float("inf")


def paired_difference_from_moments(S: np.ndarray, clusters: int, counts_a: np.ndarray, counts_b: np.ndarray,
                                   m: int, layout: str = "tp,fp,fn",
                                   fold_clusters: Sequence[int] | None = None,
                                   metric: str = "f1", seeds: SeedMoments | None = None,
                                   related: np.ndarray | None = None) -> PairedDifference:
    """:class:`PairedDifference` from cluster cross-products (:func:`cluster_cross_products`) and the first 2m
    folds' totals of each system, folds in split order (split 0's two directions, then split 1's, ...);
    see :func:`paired_variances` for the arguments.

    Parameters
    ----------
    S : ndarray (F·2K, F·2K)
        Cross products of cluster vectors, each fold block holding system A's K columns then B's.
    clusters : int
        Number of clusters behind ``S``.
    counts_a, counts_b : array (n_folds, 3)
        Fold totals (TP, FP, FN) of each system; the first 2m rows are used.
    m : int
        Number of splits, ≥ 1.
    layout : {"tp,fp,fn", "tp,fp+fn"}
        The K columns of one system in a fold block.
    fold_clusters : sequence of int, optional
        Clusters tested by each fold (the first 2m are used); default ``clusters`` for every fold.
    metric : {"f1", "precision", "recall"}
        The metric of Δ (precision and recall need layout ``"tp,fp,fn"``).
    seeds : SeedMoments, optional
        What the training seeds add (:func:`seed_moments`, same folds, same metric), when both systems had
        several seeds with per-sentence counts each: the seeds become a part of their own and the test and
        training parts are taken net of them; ``S`` and the totals are then of the counts summed over seeds.
    related : ndarray like ``S``, optional
        The cross products of related clusters (:func:`related_cross_products`): their covariance joins the
        test part (``var_related``, floored at 0) and the folds' covariance the model noise is taken net of.

    Returns
    -------
    PairedDifference
        With ``cluster_unit`` ``"sentences"`` (set it with :func:`dataclasses.replace`); ``var_seed`` only with
        ``seeds``.
    """
    ca = np.asarray(counts_a, dtype=float)[: 2 * m]
    cb = np.asarray(counts_b, dtype=float)[: 2 * m]
    if m < 1 or len(ca) != 2 * m or len(cb) != 2 * m:
        raise ValueError(f"need 2m = {2 * m} folds of each system")
    kf = None if fold_clusters is None else list(fold_clusters)[: 2 * m]
    v = paired_variances(S, clusters, ca, cb, layout=layout, fold_clusters=kf, metric=metric)
    var_test = max(0.0, float(v.pooled_delta))  # not below 0 by rounding (identical systems)
    var_related = None
    if related is not None:  # the related clusters' covariance joins the clusters' own, and the folds'
        with_related = paired_variances(S + related, clusters, ca, cb, layout=layout, fold_clusters=kf, metric=metric)
        var_related = max(0.0, float(with_related.pooled_delta - v.pooled_delta))
        var_test += var_related
        v = with_related
    d = _value(cb, metric) - _value(ca, metric)
    C = v.fold_cov
    if seeds is not None:
        return replace(_seeded(v, d, seeds, m, clusters, metric, ca, cb, var_test), var_related=var_related)
    var_model = max(0.0, fold_noise(d, C, m)) / (2 * m)
    est = float(_value(cb.sum(axis=0), metric) - _value(ca.sum(axis=0), metric))
    return PairedDifference(est, var_test, var_model, 2.0 * m - 1.0, m, clusters, _correlation(v), metric,
                            test_shared=_test_shared(C, m), var_related=var_related)


def fold_noise(d: np.ndarray, C: np.ndarray, m: int) -> float:
    """The moment estimate of M, the variance every fold's Δ has beyond ``C`` (the model noise: which half a
    model was trained on, its training seed), from 2m − 1 degrees of freedom; not floored.

    Each split's half-difference of its two folds, (d₁ − d₂)/2, has variance M/2 plus its share of ``C``
    (m degrees of freedom); the m split means, (d₁ + d₂)/2, spread about their mean with M/2 plus theirs
    (m − 1). Their pooled mean square beyond ``C`` is M/2.

    Parameters
    ----------
    d : ndarray of shape (2m,)
        Every fold's Δ, in split order (split 0's two directions, then split 1's, ...).
    C : ndarray of shape (2m, 2m)
        The covariance of the folds' Δ that is not model noise (the test sentences', from the clusters).
    m : int
        Number of splits.

    Returns
    -------
    float
        The unbiased moment of M (a fraction squared; below 0 when the folds agree better than ``C`` says).

    Examples
    --------
    Two splits and no test noise: the first split's folds differ by 2 points, the split means agree, so the
    pooled mean square is (0.01² + 0 + 0) / 3 = M/2:

    >>> d = np.array([0.01, 0.03, 0.02, 0.02])
    >>> round(1e5 * fold_noise(d, np.zeros((4, 4)), 2), 3)
    6.667
    """
    half = (d[0::2] - d[1::2]) / 2
    half_noise = (np.diag(C)[0::2] + np.diag(C)[1::2] - 2 * np.diag(C, 1)[0::2]) / 4
    total = float(np.sum(half ** 2) - np.sum(half_noise))  # expectation m · M/2
    if m > 1:
        A = np.kron(np.eye(m), [0.5, 0.5])
        P = np.eye(m) - 1.0 / m
        means = A @ d
        total += float(np.sum((means - means.mean()) ** 2) - np.trace(P @ A @ C @ A.T @ P))  # (m − 1) · M/2
    return 2 * total / (2 * m - 1)


def _test_shared(C: np.ndarray, m: int) -> float:
    """Which share of the test part more splits would keep: the mean fold Δ's test variance is
    (a + (m − 1)·b) / (4m), a a split's own 2×2 block sum and b a block sum across two splits."""
    blocks = C.reshape(m, 2, m, 2).sum(axis=(1, 3))
    a_own = float(np.mean(np.diag(blocks)))
    b_cross = float((blocks.sum() - np.trace(blocks)) / (m * (m - 1))) if m > 1 else 0.0
    total = a_own + (m - 1) * b_cross
    return min(1.0, max(0.0, m * b_cross / total)) if total > 0 and m > 1 else 1.0


def _correlation(v: PairedVariances) -> float:
    prod = v.pooled_a * v.pooled_b  # (rounding can leave a zero variance a hair below 0: no correlation then)
    if not prod > 0:
        return float("nan")
    return float((v.pooled_a + v.pooled_b - v.pooled_delta) / (2 * np.sqrt(prod)))


def _seeded(v: PairedVariances, d: np.ndarray, seeds: SeedMoments, m: int, clusters: int, metric: str,
            ca: np.ndarray, cb: np.ndarray, raw: float) -> PairedDifference:
    """The three parts measured each on its own when both systems had several seeds: the seeds' from each fold's
    seeds; the test sample's from the clusters, less the seeds' sentence-level randomness the clusters also
    carry; the training halves' from the folds' spread beyond both."""
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


@dataclass(frozen=True)
class SeedMoments:
    """What the training seeds add to a pair's Δ, measured from each seed's per-sentence counts on every fold.

    Within a fold the seeds of a system share the training half and the test sentences, so the spread of their
    counts is the seed's effect and nothing else. Seeds of A and of B are independent.

    Attributes
    ----------
    seeds : tuple of int
        (S_A, S_B), each system's training seeds per fold (the smallest over the folds).
    pooled : float
        The seeds' variance of the pooled Δ (counts summed over seeds and folds), linearised at the pooled totals.
    share_a : float
        The share of ``pooled`` that A's seeds bring.
    interaction : float
        The part of ``pooled`` that is sentence-level randomness (each cluster's own seed spread, summed over
        clusters): the cluster variance of the pooled Δ holds it too, and loses it to be net of the seeds.
    fold, fold_interaction : ndarray of shape (2m,)
        The same per fold, for each fold's Δ linearised at the fold's totals.

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

    Parameters
    ----------
    seeds_a, seeds_b : sequence of 2m arrays of shape (S, n_f, 3)
        Per fold, every training seed's TP, FP, FN on each test sentence of the fold (the same sentences, in the
        same order, for both systems); S may differ between the systems.
    fold_clusters : sequence of 2m int arrays of length n_f
        The cluster (document, else sentence) of every test sentence of fold f.
    metric : {"f1", "precision", "recall"}
        The metric of Δ.

    Returns
    -------
    SeedMoments or None
        None when a system has fewer than two seeds on some fold (its seeds' spread cannot be measured).

    Notes
    -----
    For system X with S seeds on fold f, linear weights w (delta method, at the totals summed over seeds), seed
    s's counts x_gfs on cluster g and its fold totals X_fs: the fold's Δ moves with the seeds by
    S·Var_s(w·X_fs) (the seeds' sum enters the counts), of which Σ_g S·Var_s(w·x_gfs) is sentence-level; the
    pooled Δ sums these over folds with the weights of the pooled totals. Sample variances (ddof 1), so each is
    unbiased for its part.
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


def paired_difference(fold_counts_a: Sequence[np.ndarray], fold_counts_b: Sequence[np.ndarray],
                      fold_clusters: Sequence[np.ndarray], m: int, metric: str = "f1",
                      related: np.ndarray | None = None) -> PairedDifference:
    """The posterior of Δ (default ΔF1) from per-sentence counts of both systems on the first 2m folds.

    Parameters
    ----------
    fold_counts_a, fold_counts_b : sequence of (n_f, 3) arrays
        TP, FP, FN of every test sentence of fold f, for system A and B, in the same sentence order.
    fold_clusters : sequence of int arrays
        The cluster (document, else sentence) of every test sentence of fold f, numbered for the
        whole corpus.
    m : int
        Number of splits (2m folds are used, in split order: split 0's two directions, then split 1's).
    metric : {"f1", "precision", "recall"}
        The metric of Δ (default ``"f1"``).
    related : array of shape (L, 2), optional
        Pairs of related clusters (:func:`textbcv.corpus.related.related_clusters`), in the numbering of
        ``fold_clusters``: their covariance joins the test part (``var_related``).

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
        Every system's TP, FP, FN per test sentence of each fold, the sentences in one order for all.
    fold_clusters : sequence of 2m int arrays
        The cluster of every test sentence of fold f (a document id, else the sentence's index in
        the corpus), one numbering for all folds.
    m : int
        Number of splits (the first 2m folds are used).
    metrics : sequence of str
        The metrics of Δ, among ``"precision"``, ``"recall"``, ``"f1"`` (default all three).
    cluster_unit : {"documents", "sentences"}
        What the clusters are (recorded in each result).
    seed_counts : mapping name → sequence of 2m (S, 3) arrays, optional
        Each seed's fold totals, for systems trained with several seeds (:func:`seed_variance`).
    seed_sentence_counts : mapping name → sequence of 2m (S, n_f, 3) arrays, optional
        Every seed's per-sentence counts, for systems trained with several seeds. A pair whose two systems both
        have them (two seeds or more on every fold) gets the seeds as a part of its own (:func:`seed_moments`):
        test sample, training set and seed, each measured on its own. ``sentence_counts`` are then each
        system's counts summed over its seeds, as for any several-seed run.
    related : array of shape (L, 2), optional
        Pairs of related clusters (:func:`textbcv.corpus.related.related_clusters`), in the numbering of
        ``fold_clusters``: their covariance joins every pair's test part (``var_related``).

    Returns
    -------
    dict
        ``(a, b)`` → metric → :class:`PairedDifference`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = [rng.integers(0, 3, size=(50, 3)) for _ in range(2)]
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


def ratio_posterior(fold_counts: Sequence[np.ndarray], fold_clusters: Sequence[np.ndarray], m: int,
                    metric: str = "recall", cluster_unit: str = "sentences") -> PairedDifference:
    """The posterior of one system's pooled ratio over 2m folds, with the parts of a difference's posterior.

    The ratio's error has the same parts as a difference's — new text (the clusters) and the models' own noise
    (the folds' spread beyond it) — so it is the difference against a system with no counts, whose ratio is 0
    and which adds nothing. Used for shares such as an error kind's per gold chunk (``metric="recall"`` on
    ``[kind, 0, rest]`` counts).

    Parameters
    ----------
    fold_counts : sequence of 2m (n_f, 3) arrays
        TP, FP, FN of every test sentence of each fold, in split order.
    fold_clusters : sequence of 2m int arrays
        The cluster of every test sentence of each fold, one numbering for all folds.
    m : int
        Number of splits.
    metric : {"precision", "recall", "f1"}
        The ratio.
    cluster_unit : {"documents", "sentences"}
        What the clusters are.

    Returns
    -------
    PairedDifference
        Its ``estimate`` is the pooled ratio; ``interval`` and ``sd`` as for a difference.

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
    """The paired posterior of the difference of macro-F1 (the mean of the chunk types' F1), B − A.

    The same parts as :class:`PairedDifference` for micro-F1, on the linearised macro average: every
    sentence's per-type counts, each type weighted by its own F1's weights over the number of types. With an
    all-zero ``fold_counts_a`` it is the posterior of B's macro-F1 itself (as :func:`ratio_posterior`).

    Parameters
    ----------
    fold_counts_a, fold_counts_b : sequence of 2m arrays of shape (n_f, 3T)
        Per test sentence of fold f, the TP, FP, FN of each of the T types in turn (the same types, in the same
        order, for both systems).
    fold_clusters : sequence of 2m int arrays of length n_f
        The cluster of every test sentence, one numbering for all folds.
    m : int
        Number of splits.
    cluster_unit : {"documents", "sentences"}
        What the clusters are.

    Returns
    -------
    PairedDifference
        With metric ``"macro-f1"``.

    Examples
    --------
    Two types; B doubles A's true positives of the second:

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
