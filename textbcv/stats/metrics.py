"""The one place the formulas of precision, recall and F1 are written (``tests/test_one_home.py`` checks it).

Each metric is a ratio of linear functions of the counts; the functions take numbers or numpy arrays alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["METRICS", "metric_parts", "ratios", "linear_weights"]

#: The metrics, in report order.
METRICS = ("precision", "recall", "f1")


def metric_parts(tp: Any, fp: Any, fn: Any) -> dict[str, tuple[Any, Any]]:
    """``{metric: (numerator, denominator)}`` of precision, recall and F1.

    Parameters
    ----------
    tp, fp, fn : number or ndarray
        Chunk counts; arrays broadcast together.

    Returns
    -------
    dict

    Examples
    --------
    >>> metric_parts(8, 2, 0)
    {'precision': (8, 10), 'recall': (8, 8), 'f1': (16, 18)}
    """
    return {"precision": (tp, tp + fp), "recall": (tp, tp + fn), "f1": (2 * tp, 2 * tp + fp + fn)}


def ratios(counts: Any) -> dict[str, np.ndarray]:
    """Precision, recall and F1 (fractions) of counts (TP, FP, FN) along the last axis; 0 where a denominator is 0.

    Parameters
    ----------
    counts : array_like, shape (..., 3)

    Returns
    -------
    dict of str to ndarray
        Arrays of shape ``counts.shape[:-1]``.

    Examples
    --------
    >>> {k: v.tolist() for k, v in ratios([[8, 2, 0], [0, 0, 0]]).items()}
    {'precision': [0.8, 0.0], 'recall': [1.0, 0.0], 'f1': [0.8888888888888888, 0.0]}
    """
    c = np.asarray(counts, dtype=np.float64)
    parts = metric_parts(c[..., 0], c[..., 1], c[..., 2])
    return {k: np.divide(num, den, out=np.zeros(np.shape(den)), where=den > 0) for k, (num, den) in parts.items()}


def linear_weights(metric: str, counts: Any) -> np.ndarray:
    """Delta-method weights w on (TP, FP, FN): w · x is the first-order change of ``metric`` at ``counts`` by x.

    w · x = (num(x) − r · den(x)) / den(counts), r the metric at ``counts``; zeros when the denominator is 0.

    Parameters
    ----------
    metric : {"precision", "recall", "f1"}
    counts : sequence of 3 numbers
        The (TP, FP, FN) to linearise at.

    Returns
    -------
    ndarray of shape (3,)

    Examples
    --------
    >>> linear_weights("f1", [8, 2, 0]).round(4).tolist()  # F1 = 16/18
    [0.0123, -0.0494, -0.0494]
    """
    tp, fp, fn = (float(x) for x in counts)
    num, den = metric_parts(tp, fp, fn)[metric]
    if den <= 0:
        return np.zeros(3)
    r = num / den
    unit = [metric_parts(*e)[metric] for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))]
    return np.array([(n - r * d) / den for n, d in unit])
