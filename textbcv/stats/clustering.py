"""Design effect of sentence and document clustering on the precision, recall and F1 of one test half.

deff = Var_cluster / Var_counts: the linearised (delta-method) variance of the ratio with the units (documents,
else sentences) as independent clusters, over the count posterior's variance at c = 1. The ``clustered`` variant
of :func:`textbcv.stats.compare.system_posteriors` divides the averaged-counts factor 1/(2m) by it (floored at 1).
Derivation and measured values: docs/method.md §5, "Clustered errors: the design effect".

Imports only numpy (and this package).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .metrics import metric_parts
from .posterior import posteriors

__all__ = ["DesignEffect", "design_effect", "pooled_design_effect"]

METRICS = ("precision", "recall", "f1")


@dataclass(frozen=True)
class DesignEffect:
    """Design effect of one test half (or the mean over folds), per metric.

    Attributes
    ----------
    deff : dict
        ``{"precision": d, "recall": d, "f1": d}``: cluster variance over count-posterior variance
        (``nan`` where a metric is undefined or has no variance).
    clusters : int
        Number of clusters (units) the variance was computed over.
    """

    deff: dict
    clusters: int

    def to_dict(self) -> dict:
        """JSON-ready form.

        Returns
        -------
        dict
            ``{"deff": {metric: float or None}, "clusters": int}``, NaN and infinite design effects as None.
        """
        return {"deff": {k: (None if not np.isfinite(v) else float(v)) for k, v in self.deff.items()},
                "clusters": int(self.clusters)}


def _ratio_var(a: np.ndarray, b: np.ndarray, groups: np.ndarray) -> float:
    sa, sb = a.sum(), b.sum()
    if sb <= 0:
        return float("nan")
    r = sa / sb
    z = np.bincount(groups, weights=a - r * b)
    k = len(z)
    if k < 2:
        return float("nan")
    return float(k / (k - 1) * np.sum(z * z) / sb ** 2)


def design_effect(counts: np.ndarray, groups: Sequence[int] | np.ndarray | None = None,
                  prior: float = 1.0) -> DesignEffect:
    """Design effect of the units of one test half on its precision, recall and F1.

    Parameters
    ----------
    counts : array (n, 3)
        TP, FP, FN of every sentence of the test half.
    groups : array of n ints, optional
        Cluster of every sentence (e.g. its document); default: every sentence its own cluster.
    prior : float
        Prior count of the count posterior (as in :func:`textbcv.stats.posteriors`).

    Returns
    -------
    DesignEffect

    Examples
    --------
    Chunks that fail together: every sentence is all right or all wrong.

    >>> import numpy as np
    >>> ok = np.tile([[4, 0, 0], [0, 4, 4]], (50, 1))
    >>> d = design_effect(ok)
    >>> round(d.deff["f1"], 1), d.clusters
    (5.4, 100)

    Independent tokens (each right with probability 0.8, an error a false positive or a false
    negative at random) give design effects near 1:

    >>> rng = np.random.default_rng(0)
    >>> n = rng.integers(1, 30, size=2000)
    >>> tp = rng.binomial(n, 0.8)
    >>> fp = rng.binomial(n - tp, 0.5)
    >>> d = design_effect(np.stack([tp, fp, n - tp - fp], axis=1))
    >>> all(0.9 < d.deff[k] < 1.15 for k in ("precision", "recall", "f1"))
    True

    A wrongly typed chunk is one false positive *and* one false negative; the count posterior treats
    them as independent events, so the design effect of F1 is above 1 even for independent sentences.
    """
    c = np.asarray(counts, dtype=float)
    if c.ndim != 2 or c.shape[1] != 3:
        raise ValueError("counts must be an (n, 3) array of TP, FP, FN per sentence")
    if groups is None:
        g = np.arange(len(c))
    else:
        g = np.unique(np.asarray(groups), return_inverse=True)[1].ravel()
        if len(g) != len(c):
            raise ValueError("groups must give one cluster per sentence")
    tp, fp, fn = c[:, 0], c[:, 1], c[:, 2]
    tp_sum, fp_sum, fn_sum = c.sum(axis=0)
    post = posteriors(tp_sum, fp_sum, fn_sum, c=1.0, prior=prior)
    cluster = {k: _ratio_var(num, den, g) for k, (num, den) in metric_parts(tp, fp, fn).items()}
    deff = {}
    for k in METRICS:
        v = post[k].var()
        deff[k] = cluster[k] / v if v > 0 and np.isfinite(cluster[k]) else float("nan")
    return DesignEffect(deff=deff, clusters=int(g.max()) + 1 if len(g) else 0)


def pooled_design_effect(effects: Sequence[DesignEffect]) -> dict:
    """The design effect used for a system's pooled posterior: the mean over its folds, floored at 1.

    Parameters
    ----------
    effects : sequence of DesignEffect
        The design effects of the system's folds' test halves (:func:`design_effect`).

    Returns
    -------
    dict of str to float
        ``{"precision", "recall", "f1"}`` → the mean of the folds' finite design effects, at least 1; 1 where no
        fold has a finite one.

    Examples
    --------
    >>> pooled_design_effect([DesignEffect({"precision": 2.0, "recall": 0.5, "f1": 3.0}, 10),
    ...                       DesignEffect({"precision": 4.0, "recall": 0.7, "f1": float("nan")}, 10)])
    {'precision': 3.0, 'recall': 1.0, 'f1': 3.0}
    """
    out = {}
    for k in METRICS:
        vals = np.array([e.deff[k] for e in effects], dtype=float)
        vals = vals[np.isfinite(vals)]
        out[k] = float(max(1.0, vals.mean())) if len(vals) else 1.0
    return out
