"""Simulation engine for the calibration study (thesis Example 6.1; numpy/scipy only), used by ``calibrate.py``.

Study code, not part of textbcv (it lived in ``textbcv.stats.simulate`` before):
the scripts import it as ``_simulate`` from this directory.

Data model of Example 6.1: Z = (X, Y), P(Y = 1) = ½, X | Y = y ~ N(μ_y, I₂),
μ₀ = (0, 0), μ₁ = (½, ½), n = 600. Two designs: ``iid`` labels, or
``balanced`` (exactly n/2 per class). The learner is a callable
``fit(X, y) -> (w, b)`` returning a linear rule 1[x·w + b > 0] (the script
supplies scikit-learn's LogisticRegression), so the population TP/FP/FN
rates of every fitted model are exact: P(x·w + b > 0 | y) =
Φ((μ_y·w + b)/‖w‖).

Splits: m×2 BCV from an orthogonal array (columns 1..m of a Sylvester
Hadamard matrix of order N, 2^p = N ≥ m + 1, over N near-equal random blocks),
a local construction for this study only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy import linalg, stats

__all__ = ["MU0", "MU1", "gaussian_data", "bcv_splits", "fit_fold_counts", "population_rates"]

MU0 = np.array([0.0, 0.0])
MU1 = np.array([0.5, 0.5])

Learner = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, float]]


def gaussian_data(n: int, rng: np.random.Generator, design: str = "iid") -> tuple[np.ndarray, np.ndarray]:
    """One data set of Example 6.1.

    Examples
    --------
    >>> X, y = gaussian_data(600, np.random.default_rng(0), "balanced")
    >>> X.shape, int(y.sum())
    ((600, 2), 300)
    """
    if design == "iid":
        y = (rng.random(n) < 0.5).astype(np.int64)
    elif design == "balanced":
        y = np.zeros(n, dtype=np.int64)
        y[: n // 2] = 1
        rng.shuffle(y)
    else:
        raise ValueError(f"design must be 'iid' or 'balanced', got {design!r}")
    X = rng.standard_normal((n, 2)) + np.where(y[:, None] == 1, MU1, MU0)
    return X, y


def bcv_splits(n: int, m: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """m splits (train, valid) of m×2 BCV: OA columns 1..m over N near-equal random blocks.

    Examples
    --------
    >>> s = bcv_splits(600, 3, np.random.default_rng(0))
    >>> [len(t) for t, v in s], len(np.intersect1d(s[0][0], s[1][0]))
    ([300, 300, 300], 150)
    """
    N = 4
    while N - 1 < m:
        N *= 2
    H = linalg.hadamard(N)
    blocks = np.array_split(rng.permutation(n), N)
    splits = []
    for j in range(1, m + 1):
        train = np.sort(np.concatenate([blocks[r] for r in range(N) if H[r, j] > 0]))
        valid = np.sort(np.concatenate([blocks[r] for r in range(N) if H[r, j] < 0]))
        splits.append((train, valid))
    return splits


def population_rates(w: np.ndarray, b: float, features: Sequence[int] | None = None) -> np.ndarray:
    """Exact (π_TP, π_FP, π_FN) of the rule 1[x·w + b > 0] under the Example 6.1 population.

    ``features`` names the columns of X the rule uses (default: all).

    Examples
    --------
    >>> np.round(population_rates(np.array([1.0, 1.0]), -0.5), 4)
    array([0.3191, 0.1809, 0.1809])
    """
    w = np.asarray(w, dtype=float)
    idx = list(range(len(MU0))) if features is None else list(features)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        pos = 1.0 if b > 0 else 0.0
        p1 = p0 = pos
    else:
        p1 = float(stats.norm.cdf((MU1[idx] @ w + b) / norm))
        p0 = float(stats.norm.cdf((MU0[idx] @ w + b) / norm))
    return np.array([0.5 * p1, 0.5 * p0, 0.5 * (1 - p1)])


def fit_fold_counts(X: np.ndarray, y: np.ndarray, splits: Sequence[tuple[np.ndarray, np.ndarray]], fit: Learner,
                    features: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Fold counts (2m, 3) of TP/FP/FN on the validation halves and the fitted rules' population rates (2m, 3).

    Folds are in fold order (docs/formats.md): split j train→valid, then valid→train.
    """
    Xs = X if features is None else X[:, list(features)]
    counts, rates = [], []
    for train, valid in splits:
        for tr, va in ((train, valid), (valid, train)):
            w, b = fit(Xs[tr], y[tr])
            pred = (Xs[va] @ np.asarray(w) + b) > 0
            yv = y[va] == 1
            counts.append([int(np.sum(pred & yv)), int(np.sum(pred & ~yv)), int(np.sum(~pred & yv))])
            rates.append(population_rates(w, b, features))
    return np.array(counts, dtype=float), np.array(rates)
