"""The folds' part of the paired posterior: model noise beyond the test sentences, and what more splits keep."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["fold_noise", "satterthwaite"]


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


def fold_noise(d: np.ndarray, C: np.ndarray, m: int) -> float:
    """The moment estimate of M, the variance every fold's Δ has beyond ``C`` (the model noise: which half a
    model was trained on, its training seed), from 2m − 1 degrees of freedom; not floored.

    The pooled mean square of the m splits' half-differences and of the m split means, beyond ``C``, is M/2
    (docs/method.md §7, "The difference, paired").

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
