"""Which block gets which Hadamard row: the relabelling of the blocks that evens out the halves.

Renaming the N blocks leaves the mean χ² numerator over the N − 1 halves unchanged but moves it
between halves; :func:`best_labels` picks the labels whose worst half is smallest.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.linalg import hadamard

__all__ = ["LIMITS", "half_ratios", "best_labels", "affordable_starts"]

#: χ²/J a half should stay below, per measure (issue targets); other measures use 1.
LIMITS = {"label": 0.05, "length": 0.15, "lemma": 0.3}

#: Work of the search, in half × category evaluations (beyond one start's worth, blocks keep their labels).
LABEL_BUDGET = 1e8


def half_ratios(perm: np.ndarray, block_counts: dict[str, np.ndarray], limits: dict[str, float] | None = None,
                min_expected: float = 5.0) -> np.ndarray:
    """χ²/J of every half over its measure's limit (the largest over measures), for block labels ``perm``.

    Categories expected fewer than ``min_expected`` times in a half are pooled (without the merge rule of
    :func:`textbcv.split.quality.chi2_per_df`).

    Parameters
    ----------
    perm : (N,) int array
        Block b becomes block ``perm[b]``.
    block_counts : dict of str to numpy.ndarray
        Per measure, the (N, J) category counts of every block.
    limits : dict of str to float, optional
        χ²/J limit per measure, overriding :data:`LIMITS` (others: 1).
    min_expected : float
        Pooling threshold (default 5.0).

    Returns
    -------
    (N − 1,) float array

    Examples
    --------
    >>> cnt = {"x": np.array([[4, 0], [0, 4], [4, 0], [0, 4]]) * 5}
    >>> half_ratios(np.arange(4), cnt, {"x": 1.0}).round(2).tolist()   # blocks 0, 2 (all x0) are half 0
    [40.0, 0.0, 0.0]
    """
    return _half_ratios_many(np.asarray(perm)[None, :], block_counts, limits, min_expected)[0]


@lru_cache(maxsize=None)
def _plus(N: int) -> np.ndarray:
    """(N, N − 1) float array: 1 where block b is in half i."""
    plus = (hadamard(N)[:, 1:] > 0).astype(np.float64)
    plus.flags.writeable = False
    return plus


def _half_ratios_many(perms: np.ndarray, block_counts: dict[str, np.ndarray], limits: dict[str, float] | None = None,
                      min_expected: float = 5.0) -> np.ndarray:
    """:func:`half_ratios` of every row of ``perms`` (P, N) at once, each row exactly as alone: (P, N − 1)."""
    limits = {**LIMITS, **(limits or {})}
    P, N = perms.shape
    plus = _plus(N)[perms]  # (P, blocks, halves)
    worst = np.zeros((P, N - 1))
    for name, cnt in block_counts.items():
        cnt = np.asarray(cnt, dtype=np.float64)
        C = cnt.sum(axis=0)
        total = C.sum()
        if total <= 0:
            continue
        T = np.matmul(plus.transpose(0, 2, 1), cnt)  # (P, halves, categories)
        ft = T.sum(axis=2, keepdims=True) / total
        fv = 1.0 - ft
        keep = np.minimum(C * ft, C * fv) >= min_expected
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(keep, (T - C * ft) ** 2 / (C * ft * fv), 0.0)
            Tp = np.where(keep, 0.0, T).sum(axis=2)
            Cp = np.where(keep, 0.0, C).sum(axis=2)
            pool = np.where(Cp > 0, (Tp - Cp * ft[..., 0]) ** 2 / (Cp * ft[..., 0] * fv[..., 0]), 0.0)
        J = keep.sum(axis=2) + (Cp > 0)
        chi = np.where(J >= 2, (term.sum(axis=2) + pool) / np.maximum(J, 1), 0.0)
        worst = np.maximum(worst, np.nan_to_num(chi) / limits.get(name, 1.0))
    return worst


def affordable_starts(N: int, K: int) -> int:
    """Random starts of :func:`best_labels` that :data:`LABEL_BUDGET` allows for N blocks, K categories (0 to 12).

    Parameters
    ----------
    N, K : int

    Returns
    -------
    int

    Examples
    --------
    >>> affordable_starts(16, 2_000), affordable_starts(16, 50_000)
    (9, 0)
    """
    per_start = 3 * N * (N - 1) / 2 * (N - 1) * max(K, 1)
    return int(np.clip(LABEL_BUDGET // per_start, 0, 12))


def _pool(cnt: np.ndarray, always: float = 10.0) -> np.ndarray:
    """Categories pooled in every half (total below 2 × 5) summed into one column in advance."""
    C = cnt.sum(axis=0)
    small = C < always
    if small.sum() < 2:
        return cnt
    return np.c_[cnt[:, ~small], cnt[:, small].sum(axis=1)]


def best_labels(block_counts: dict[str, np.ndarray], rng: np.random.Generator, limits: dict[str, float] | None = None,
                restarts: int | None = None) -> np.ndarray:
    """The block relabelling ``perm`` with the smallest worst half (ties: best first 3, then first 7 halves).

    Parameters
    ----------
    block_counts : dict of (N, J) arrays
        Category counts of every block, per measure.
    rng : numpy Generator
        For the random starts.
    limits : dict of str to float, optional
        As in :func:`half_ratios`.
    restarts : int, optional
        Starts of the exchange search, the identity first (default :func:`affordable_starts`).

    Returns
    -------
    (N,) int array

    Examples
    --------
    >>> cnt = {"x": np.random.default_rng(1).poisson(30, (8, 5))}      # 8 blocks, 5 categories
    >>> worst = lambda p: half_ratios(p, cnt, {"x": 1.0}).max()
    >>> bool(worst(best_labels(cnt, np.random.default_rng(0), {"x": 1.0})) < worst(np.arange(8)))
    True
    """
    N = next(iter(block_counts.values())).shape[0]
    if N < 4:
        return np.arange(N)
    block_counts = {k: _pool(np.asarray(c, dtype=np.float64)) for k, c in block_counts.items()}
    K = sum(c.shape[1] for c in block_counts.values())
    if restarts is None:
        restarts = affordable_starts(N, K)
    if restarts == 0:
        return np.arange(N)

    pairs = np.array([(a, b) for a in range(N) for b in range(a + 1, N)])
    # the largest batch of candidates: bounds the (batch, halves, categories) arrays to ~2 million values
    cap = int(np.clip(2_000_000 // ((N - 1) * max(K, 1)), 1, len(pairs)))

    def keys(perms):
        r = _half_ratios_many(perms, block_counts, limits)
        return [(round(float(a), 12), round(float(b), 12), round(float(c), 12))
                for a, b, c in zip(r.max(axis=1), r[:, :3].max(axis=1), r[:, :7].max(axis=1))]

    def first_better(perm, cur, start):
        """The first exchange from ``pairs[start]`` on that lowers the key: (index, perm, key), or None."""
        lo, size = start, 1
        while lo < len(pairs):
            a, b = pairs[lo:lo + size].T
            cand = np.repeat(perm[None, :], len(a), axis=0)
            rows = np.arange(len(a))
            cand[rows, a], cand[rows, b] = perm[b], perm[a]
            for i, k2 in enumerate(keys(cand)):
                if k2 < cur:
                    return lo + i, cand[i], k2
            lo, size = lo + len(a), min(2 * size, cap)
        return None

    best = None
    for s in range(restarts):
        perm = np.arange(N) if s == 0 else rng.permutation(N)
        cur = keys(perm[None, :])[0]
        improved = True
        while improved:  # passes of first-improvement exchanges over all pairs (a, b), a < b, in order
            improved, start = False, 0
            while (found := first_better(perm, cur, start)) is not None:
                i, perm, cur = found
                improved, start = True, i + 1
        if best is None or cur < best[0]:
            best = (cur, perm)
    assert best is not None  # restarts ≥ 1
    return best[1]
