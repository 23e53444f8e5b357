"""The folds' part of the paired posterior: model noise beyond the test sentences, and what more splits keep."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["fold_noise", "satterthwaite"]


def satterthwaite(parts: Sequence[tuple[float, float]], total: float) -> float:
    """Satterthwaite (1946) degrees of freedom, total² / Σ value²/df, of a variance built from mean squares.

    Parameters
    ----------
    parts : sequence of (float, float)
        Each part's value and df; parts ≤ 0 or with infinite df add nothing.
    total : float
        The variance estimate (usually the parts' sum).

    Returns
    -------
    float
        ``inf`` when no part is uncertain.

    Examples
    --------
    >>> satterthwaite([(1.0, 10.0), (1.0, 10.0)], 2.0)
    20.0
    """
    denom = sum(v * v / df for v, df in parts if v > 0 and np.isfinite(df))
    return float(total * total / denom) if denom > 0 else float("inf")


def fold_noise(d: np.ndarray, C: np.ndarray, m: int) -> float:
    """Moment estimate of M, the variance of each fold's Δ beyond ``C`` (model noise), on 2m − 1 df; not floored.

    Parameters
    ----------
    d : ndarray of shape (2m,)
        Every fold's Δ, in split order.
    C : ndarray of shape (2m, 2m)
        The folds' covariance that is not model noise (the test sentences').
    m : int

    Returns
    -------
    float
        A fraction squared; below 0 when the folds agree better than ``C`` says.

    Examples
    --------
    >>> round(1e5 * fold_noise(np.array([0.01, 0.03, 0.02, 0.02]), np.zeros((4, 4)), 2), 3)
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
    """The share of the test part that more splits keep: cross-split block sums over own-split ones."""
    blocks = C.reshape(m, 2, m, 2).sum(axis=(1, 3))
    a_own = float(np.mean(np.diag(blocks)))
    b_cross = float((blocks.sum() - np.trace(blocks)) / (m * (m - 1))) if m > 1 else 0.0
    total = a_own + (m - 1) * b_cross
    return min(1.0, max(0.0, m * b_cross / total)) if total > 0 and m > 1 else 1.0
