"""Exact local search on the top-level blocks (:func:`polish`) and noising to leave its local optimum.

Neither changes a block's size or raises the objective; both are bounded by ``effort ·``
:data:`POLISH_BUDGET` and do nothing where that allows fewer than 8 rounds.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from textbcv.split.balance.descent import apply_swaps, best_prefixes
from textbcv.split.balance.stacking import StackedCounts, as_csr

__all__ = [
    "NOISE_CYCLES",
    "NOISE_EFFORT",
    "NOISE_FULL_NNZ",
    "NOISE_ROUNDS",
    "NOISE_SIGMA",
    "POLISH_BUDGET",
    "POLISH_K",
    "POLISH_L",
    "perturb",
    "polish",
]

#: Work of the exact local search on the top-level blocks, in touched non-zeros (iterations = budget / nnz).
POLISH_BUDGET = 4e7
#: Candidates per block and swaps per pair of blocks examined exactly in every local-search round.
POLISH_L, POLISH_K = 48, 8


def _round_robin(B: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """B − 1 perfect matchings of B blocks (circle method) covering every pair once, blocks relabelled at random."""
    lab = rng.permutation(B)
    out = []
    for r in range(B - 1):
        ring = np.r_[0, (np.arange(B - 1) + r) % (B - 1) + 1]
        out.append((lab[ring[: B // 2]], lab[ring[::-1][: B // 2]]))
    return out


def polish(X: StackedCounts | sp.csr_matrix, W: np.ndarray, weight: np.ndarray, out: np.ndarray, targets: np.ndarray,
           rng: np.random.Generator, effort: float = 1.0) -> int:
    """Exact best-swap local search on Σ_b Σ_c w_c D_bc² over B blocks of one parent; ``out`` is updated.

    Each round pairs the blocks (round-robin), scores every swap among the cheapest items of each pair
    exactly and applies the best disjoint ones up to the prefix that lowers the objective most.

    Parameters
    ----------
    X, W, weight, rng
        As in :func:`textbcv.split.balance.deal`; only items of equal weight are swapped.
    out : (n_items,) int array
        The block (0..B−1) of every item.
    targets : (B,) float array
        Target sentences of every block.
    effort : float
        Scales the number of rounds (default 1.0).

    Returns
    -------
    int
        The number of rounds done.

    Examples
    --------
    >>> X = sp.csr_matrix(np.eye(2).repeat(4, axis=0))       # 8 items, two categories
    >>> out = np.array([0, 0, 1, 1, 0, 0, 1, 1])               # block 0 has all of category 0
    >>> _ = polish(X, np.ones(2), np.ones(8, int), out, np.array([4.0, 4.0]), np.random.default_rng(0))
    >>> np.bincount(out, weights=X[:, 0].toarray().ravel()).tolist()
    [2.0, 2.0]
    """
    n, K = X.shape
    B = len(targets)
    rounds = int(effort * POLISH_BUDGET / max(X.nnz, 1))
    if rounds < 8 or B < 2 or K == 0:
        return 0
    X = as_csr(X)
    L = min(POLISH_L, n)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(X.indptr))
    cols = X.indices.astype(np.int64)
    Xw = sp.csr_matrix((X.data * W[cols], X.indices, X.indptr), shape=X.shape)
    q2 = 2.0 * np.bincount(rows, weights=X.data * Xw.data, minlength=n)
    C = np.bincount(cols, weights=X.data, minlength=K)
    D = np.bincount(out[rows] * K + cols, weights=X.data, minlength=B * K).reshape(B, K)
    D -= np.outer(targets / targets.sum(), C)
    _, wcl = np.unique(weight, return_inverse=True)
    wcl = wcl.ravel()
    sched: list = []
    stale = 0
    done = 0
    for done in range(1, rounds + 1):
        if not sched:
            sched = _round_robin(B, rng)
        A, Bb = sched.pop()
        P = len(A)
        partner = np.arange(B, dtype=np.int64)  # an odd B leaves one block unpaired this round
        partner[A], partner[Bb] = Bb, A
        Ddiff = D[partner] - D
        M = 2.0 * np.bincount(rows, weights=Xw.data * Ddiff.ravel()[out[rows] * K + cols], minlength=n) + q2
        o = np.lexsort((M, out))
        st = np.searchsorted(out[o], np.arange(B))
        cnt = np.diff(np.r_[st, n])
        top = np.where(np.arange(L)[None, :] < cnt[:, None], o[np.minimum(st[:, None] + np.arange(L)[None, :], n - 1)],
                       -1)
        U, V = top[A], top[Bb]
        Uc, Vc = np.maximum(U, 0), np.maximum(V, 0)
        prod = (Xw[Uc.ravel()] @ X[Vc.ravel()].T).toarray().reshape(P, L, P, L)
        cross = prod[np.arange(P), :, np.arange(P), :]
        delta = M[Uc][:, :, None] + M[Vc][:, None, :] - 4.0 * cross
        delta[(U < 0)[:, :, None] | (V < 0)[:, None, :] | (wcl[Uc][:, :, None] != wcl[Vc][:, None, :])] = np.inf
        su, sv, sp_ = [], [], []
        ar = np.arange(P)
        for _ in range(POLISH_K):
            flat = delta.reshape(P, -1).argmin(axis=1)
            i, j = flat // L, flat % L
            ok = delta[ar, i, j] < -1e-12
            if not ok.any():
                break
            r = ar[ok]
            su.append(U[r, i[ok]])
            sv.append(V[r, j[ok]])
            sp_.append(r)
            delta[r, i[ok], :] = np.inf
            delta[r, :, j[ok]] = np.inf
        if not su:
            stale += 1
            if stale >= B - 1:
                break
            continue
        stale = 0
        o = np.argsort(np.concatenate(sp_), kind="stable")
        u, v = best_prefixes(X, W, K, Ddiff, out, np.concatenate(su)[o], np.concatenate(sv)[o])
        au, av = out[u], out[v]
        apply_swaps(X, D, K, u, au, av)
        apply_swaps(X, D, K, v, av, au)
        out[u], out[v] = av, au
    return done


#: Noising cycles after the polish at full size (fewer below NOISE_FULL_NNZ non-zeros), the log-normal
#: spread of the perturbed column weights, and the polish effort of each half-cycle.
NOISE_CYCLES, NOISE_SIGMA, NOISE_EFFORT = 20, 0.7, 0.2
NOISE_FULL_NNZ = 1e5
#: At most this many polish rounds per half-cycle (small problems would otherwise get hundreds).
NOISE_ROUNDS = 48


def _value(X: sp.csr_matrix, W: np.ndarray, out: np.ndarray, targets: np.ndarray) -> float:
    """The objective Σ_b Σ_c w_c D_bc² of an assignment (D relative to the target shares of the blocks)."""
    n, K = X.shape
    B = len(targets)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(X.indptr))
    cnt = np.bincount(out[rows] * K + X.indices, weights=X.data, minlength=B * K).reshape(B, K)
    D = cnt - np.outer(targets / targets.sum(), cnt.sum(axis=0))
    return float((D * D * W).sum())


def perturb(X: StackedCounts | sp.csr_matrix, W: np.ndarray, weight: np.ndarray, out: np.ndarray, targets: np.ndarray,
            rng: np.random.Generator, effort: float = 1.0) -> int:
    """Leave the polish's local optimum by noising the weights; ``out`` is replaced only by a better assignment.

    Each cycle polishes a copy under log-normally perturbed column weights (σ = :data:`NOISE_SIGMA`),
    then under the true weights, and keeps it if the true objective is lower.

    Parameters
    ----------
    X, W, weight, out, targets, rng
        As in :func:`polish`.
    effort : float
        Scales the number of cycles (:data:`NOISE_CYCLES` at 1).

    Returns
    -------
    int
        The number of cycles run.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = sp.csr_matrix(rng.poisson(0.3, (400, 30)).astype(float))
    >>> out, t = np.repeat(np.arange(8), 50), np.full(8, 50.0)
    >>> _ = polish(X, np.ones(30), np.ones(400, int), out, t, rng)
    >>> polished = _value(X, np.ones(30), out, t)
    >>> perturb(X, np.ones(30), np.ones(400, int), out, t, rng) > 0
    True
    >>> bool(_value(X, np.ones(30), out, t) <= polished), np.bincount(out).tolist() == [50] * 8
    (True, True)
    """
    nnz = max(X.nnz, 1)
    if NOISE_EFFORT * POLISH_BUDGET / nnz < 8 or X.shape[1] == 0 or effort <= 0:
        return 0
    X = as_csr(X)
    cycles = int(round(effort * NOISE_CYCLES * min(1.0, nnz / NOISE_FULL_NNZ)))
    targets = np.asarray(targets, dtype=np.float64)
    best = _value(X, W, out, targets)
    half = min(NOISE_EFFORT, NOISE_ROUNDS * nnz / POLISH_BUDGET)  # polish effort giving ≤ NOISE_ROUNDS rounds
    for _ in range(cycles):
        cand = out.copy()
        # np.exp differs in the last bits between CPU instruction sets (numpy's AVX-512 code vs AVX2):
        # rounded to float32 the noised weights, and so the split, are the same on every machine
        noisy = (W * np.exp(NOISE_SIGMA * rng.standard_normal(len(W)))).astype(np.float32).astype(np.float64)
        polish(X, noisy, weight, cand, targets, rng, half)
        polish(X, W, weight, cand, targets, rng, half)
        value = _value(X, W, cand, targets)
        if value < best - 1e-12 * (1 + abs(best)):
            out[:] = cand
            best = value
    return cycles
