"""The fixed-split design: two systems, each trained with several seeds on one training set, tested on one test set.

The posterior of Δ = metric(B) − metric(A) holds two parts, each measured on the run: the test text's (the cluster
variance of the linearised Δ of the seed-summed counts, net of the seeds' sentence-level spread, which the seeds'
part holds) and the seeds' (each system's spread over its seeds). The choice of training set is not a part: one
training set measures nothing of it. See docs/method.md, "The fixed split".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sst

from ..metrics import ratios
from .clusters import cluster_cross_products, related_cross_products
from .difference import PairedDifference
from .linear import _correlation, paired_variances
from .noise import satterthwaite
from .seeds import seed_moments

__all__ = ["FIXED", "ScoreParts", "fixed_difference", "fixed_score"]

#: The ``design`` of a :class:`PairedDifference` of the fixed-split design.
FIXED = "fixed"


def _seeds(x: np.ndarray | Sequence, name: str, n: int | None = None) -> np.ndarray:
    """``x`` as an (S, n, 3) float array of counts; ValueError naming ``name`` otherwise."""
    a = np.asarray(x, dtype=float)
    if a.ndim != 3 or a.shape[2] != 3 or len(a) < 1 or (n is not None and a.shape[1] != n):
        want = "(S, n, 3)" if n is None else f"(S, {n}, 3)"
        raise ValueError(f"{name} must be every seed's TP, FP, FN per test sentence, shape {want}; got {a.shape}")
    return a


def _groups(clusters: Sequence[int] | np.ndarray, n: int) -> np.ndarray:
    g = np.asarray(clusters, dtype=np.int64).ravel()
    if len(g) != n:
        raise ValueError(f"clusters must give one cluster per test sentence ({n}), got {len(g)}")
    return g


@dataclass(frozen=True)
class ScoreParts:
    """One system's pooled score on the test set with its two parts of variance (fractions).

    Attributes
    ----------
    estimate : float
        The metric of the counts summed over seeds and sentences.
    var_test, var_seed : float
        The test text's part (net of the seeds' sentence-level spread) and the seeds'.
    df : float
        Satterthwaite's degrees of freedom of the sum.
    seeds, clusters : int
    """

    estimate: float
    var_test: float
    var_seed: float
    df: float
    seeds: int
    clusters: int

    @property
    def sd(self) -> float:
        """√(``var_test`` + ``var_seed``)."""
        return float(np.sqrt(self.var_test + self.var_seed))

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed 1 − alpha interval of the score (Student t), clipped to [0, 1].

        Parameters
        ----------
        alpha : float

        Returns
        -------
        (float, float)
        """
        q = float(sst.t.isf(alpha / 2, self.df)) if np.isfinite(self.df) else float(sst.norm.isf(alpha / 2))
        return max(0.0, self.estimate - q * self.sd), min(1.0, self.estimate + q * self.sd)

    def to_dict(self) -> dict:
        """JSON-ready form (``df`` None when infinite).

        Returns
        -------
        dict
        """
        return {"estimate": self.estimate, "sd": self.sd, "var_test": self.var_test, "var_seed": self.var_seed,
                "df": None if not np.isfinite(self.df) else self.df, "seeds": self.seeds, "clusters": self.clusters}


def fixed_score(seed_counts: np.ndarray | Sequence, clusters: Sequence[int] | np.ndarray,
                metric: str = "f1") -> ScoreParts:
    """One system's score on a fixed test set over its training seeds, with the test text's and the seeds' parts.

    Parameters
    ----------
    seed_counts : array (S, n, 3)
        Every seed's TP, FP, FN on each test sentence.
    clusters : int array of length n
        The cluster (document, else sentence) of every test sentence.
    metric : {"f1", "precision", "recall"}

    Returns
    -------
    ScoreParts

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.integers(0, 4, size=(3, 200, 3))
    >>> s = fixed_score(x, np.arange(200) // 4)
    >>> round(s.estimate, 4), s.seeds, s.clusters, s.var_seed > 0
    (0.4999, 3, 50, True)
    """
    x = _seeds(seed_counts, "seed_counts")
    g = _groups(clusters, x.shape[1])
    summed = x.sum(axis=0)
    zero = np.zeros_like(summed)  # a system with nothing: the pair's variances then hold this system's alone
    S, k = cluster_cross_products([np.hstack([summed, zero]).astype(np.int64)], [g])
    v = paired_variances(S, k, summed.sum(axis=0)[None], zero.sum(axis=0)[None], metric=metric)
    raw = max(0.0, float(v.pooled_a))
    est = float(ratios(summed.sum(axis=0))[metric])
    if len(x) < 2:
        return ScoreParts(est, raw, 0.0, float(k - 1), 1, k)
    sm = seed_moments([x], [x], [g], metric)  # the system against itself: each moment twice, A's and B's
    assert sm is not None
    var_seed = float(sm.pooled) / 2
    var_test = max(0.0, raw - float(sm.interaction) / 2)
    df = satterthwaite([(var_test, k - 1.0), (var_seed, len(x) - 1.0)], var_test + var_seed)
    return ScoreParts(est, var_test, var_seed, df, len(x), k)


def fixed_difference(seeds_a: np.ndarray | Sequence, seeds_b: np.ndarray | Sequence,
                     clusters: Sequence[int] | np.ndarray, metric: str = "f1",
                     cluster_unit: str = "sentences", related: np.ndarray | None = None,
                     deterministic: bool = False) -> PairedDifference:
    """The posterior of Δ = metric(B) − metric(A) on one test set, over each system's training seeds.

    Parameters
    ----------
    seeds_a, seeds_b : array (S_A, n, 3) and (S_B, n, 3)
        Every seed's TP, FP, FN on each test sentence, the same sentences in the same order for both.
    clusters : int array of length n
        The cluster of every test sentence.
    metric : {"f1", "precision", "recall"}
    cluster_unit : {"documents", "sentences"}
    related : array of shape (L, 2), optional
        Related cluster pairs: their covariance joins the test part.
    deterministic : bool
        Both trainers draw no random numbers (one seed each is the whole of their seeds' spread, 0); without it a
        system with one seed leaves the seeds' part unmeasured, and the result says so (``seeds`` None).

    Returns
    -------
    PairedDifference
        ``design`` ``"fixed"``, ``m`` 1, ``var_model`` 0 (the choice of training set, not measured), ``var_seed``
        the seeds' part, ``df`` Satterthwaite's over the clusters and the seeds.

    Examples
    --------
    Five seeds each; B repairs some of A's errors.

    >>> rng = np.random.default_rng(3)
    >>> n = 400
    >>> hard = rng.random(n) < 0.3
    >>> base = np.stack([np.where(hard, 1, 3), np.where(hard, 2, 0), np.where(hard, 2, 0)], axis=1)
    >>> a = np.stack([base] * 5)
    >>> b = a.copy()
    >>> for s in range(5):
    ...     fix = hard & (rng.random(n) < 0.2)
    ...     b[s][fix] = [2, 1, 1]
    >>> p = fixed_difference(a, b, np.arange(n) // 4, cluster_unit="documents")
    >>> round(100 * p.estimate, 2), p.seeds, p.clusters, p.prob_better()["p_b_better"] > 0.99
    (2.28, (5, 5), 100, True)
    """
    xa = _seeds(seeds_a, "seeds_a")
    xb = _seeds(seeds_b, "seeds_b", xa.shape[1])
    g = _groups(clusters, xa.shape[1])
    if not np.array_equal(xa[:, :, [0, 2]].sum(axis=2)[0], xb[:, :, [0, 2]].sum(axis=2)[0]):
        raise ValueError("the two systems' gold chunks (tp + fn) differ: they were not scored on the same sentences")
    ta, tb = xa.sum(axis=0), xb.sum(axis=0)
    block = [np.hstack([ta, tb]).astype(np.int64)]
    S, k = cluster_cross_products(block, [g])
    ca, cb = ta.sum(axis=0)[None], tb.sum(axis=0)[None]
    v = paired_variances(S, k, ca, cb, metric=metric)
    raw, var_related, own = max(0.0, float(v.pooled_delta)), None, None
    if related is not None:
        with_related = paired_variances(S + related_cross_products(block, [g], related), k, ca, cb, metric=metric)
        var_related = max(0.0, float(with_related.pooled_delta) - raw)
        raw, own, v = raw + var_related, v, with_related
    est = float(ratios(cb[0])[metric] - ratios(ca[0])[metric])
    sm = seed_moments([xa], [xb], [g], metric) if len(xa) > 1 and len(xb) > 1 else None
    var_seed: float | None
    seeds: tuple[int, int] | None
    if sm is not None:
        var_test = max(0.0, raw - sm.interaction)
        var_seed, seeds, share = float(sm.pooled), sm.seeds, sm.share_a
        parts = [(var_test, k - 1.0), (var_seed * share, sm.seeds[0] - 1.0),
                 (var_seed * (1 - share), sm.seeds[1] - 1.0)]
    else:
        var_test, var_seed, share = raw, (0.0 if deterministic else None), 0.5
        seeds = (len(xa), len(xb)) if deterministic else None
        parts = [(var_test, k - 1.0)]
    total = var_test + (var_seed or 0.0)
    return PairedDifference(est, var_test, 0.0, satterthwaite(parts, total) if k > 1 else float("inf"), 1, k,
                            _correlation(v, own), metric, cluster_unit, 1.0, var_seed, seeds, share, var_related,
                            design=FIXED)
