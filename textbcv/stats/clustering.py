"""Design effect of sentence and document clustering on the precision, recall and F1 of one test half.

See docs/method.md, "Clustered errors: the design effect".
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
        metric → cluster variance over count-posterior variance (NaN where undefined or without variance).
    clusters : int
        Clusters the variance was computed over.
    """

    deff: dict
    clusters: int

    def to_dict(self) -> dict:
        """JSON-ready form, NaN and infinite design effects as None.

        Returns
        -------
        dict
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
        TP, FP, FN of every sentence.
    groups : array of n ints, optional
        Cluster of every sentence (e.g. its document); default: each sentence its own.
    prior : float
        Prior count of the count posterior.

    Returns
    -------
    DesignEffect

    Examples
    --------
    Chunks that fail together: every sentence is all right or all wrong.

    >>> ok = np.tile([[4, 0, 0], [0, 4, 4]], (50, 1))
    >>> d = design_effect(ok)
    >>> round(d.deff["f1"], 1), d.clusters
    (5.4, 100)
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
    """A system's design effect: the mean of its folds' finite ones, floored at 1 (1 where none is finite).

    Parameters
    ----------
    effects : sequence of DesignEffect
        Of the system's folds.

    Returns
    -------
    dict of str to float

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
