"""Swap descent: the refinement of every bisection, within every parent block at once.

Each iteration pairs the children of every parent at random and swaps items of equal weight between
paired blocks, keeping per pair the prefix of swaps that lowers the objective most. Block sizes never
change, the objective never rises, and the work is bounded by ``effort ·`` :data:`WORK_BUDGET`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from textbcv.split.balance.stacking import StackedCounts, as_csr

__all__ = ["MAX_ITER", "MAX_TABLE", "WORK_BUDGET", "refine"]

#: Refinement work per level, in touched non-zeros (iterations = budget / nnz, at most MAX_ITER; none at ~10^6
#: sentences).
WORK_BUDGET = 1.5e7
MAX_ITER = 400
#: Dense (blocks × categories) deviation tables are kept below this many entries (most frequent columns kept).
MAX_TABLE = 2e7


def refine(X: StackedCounts | sp.csr_matrix, W: np.ndarray, weight: np.ndarray, out: np.ndarray,
           children: np.ndarray, targets: np.ndarray, rng: np.random.Generator, effort: float = 1.0) -> int:
    """Swap descent on Σ_b Σ_c w_c D_bc² within every parent; ``out`` is updated in place.

    Parameters
    ----------
    X, W, weight, children, targets, rng
        As in :func:`textbcv.split.balance.deal`; only items of equal weight are swapped.
    out : (n_items,) int array
        The child block of every item.
    effort : float
        Scales the work budget (default 1.0; 0 does nothing).

    Returns
    -------
    int
        The number of iterations done.
    """
    n, K = X.shape
    iters = int(min(effort * WORK_BUDGET / max(X.nnz, 1), MAX_ITER))
    if iters == 0:
        return 0
    X = as_csr(X)
    P, F = children.shape
    B = P * F
    if B * K > MAX_TABLE:  # keep the most frequent columns
        keep = np.sort(np.argsort(-np.asarray(X.sum(axis=0)).ravel(), kind="stable")[: int(MAX_TABLE // B)])
        X, W, K = X[:, keep], W[keep], len(keep)
    weight = np.asarray(weight)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(X.indptr))
    cols = X.indices.astype(np.int64)
    xw = X.data * W[cols]
    selfterm = 2.0 * np.bincount(rows, weights=X.data * xw, minlength=n)
    parent_of_child = np.empty(B, dtype=np.int64)
    parent_of_child[children.ravel()] = np.repeat(np.arange(P), F)
    ptarget = np.bincount(parent_of_child, weights=targets, minlength=P)
    share = np.where(ptarget[parent_of_child] > 0, targets / np.maximum(ptarget[parent_of_child], 1e-300), 1.0 / F)
    cnt = np.bincount(out[rows] * K + cols, weights=X.data, minlength=B * K).reshape(B, K)
    ptot = cnt[children].sum(axis=1)
    D = cnt - share[:, None] * ptot[parent_of_child]
    del cnt, ptot
    _, wclass = np.unique(weight, return_inverse=True)
    wclass = wclass.ravel()
    nw = int(wclass.max()) + 1 if n else 1
    stale = 0
    it = -1
    for it in range(iters):
        # a random pairing of the children of every parent
        perm = np.take_along_axis(children, np.argsort(rng.random((P, F)), axis=1), axis=1)
        partner = np.full(B, -1, dtype=np.int64)
        for k in range(0, F - 1, 2):
            partner[perm[:, k]], partner[perm[:, k + 1]] = perm[:, k + 1], perm[:, k]
        Ddiff = np.where(partner[:, None] >= 0, D[np.maximum(partner, 0)] - D, 0.0)
        u, v = _candidates(X, W, out, partner, Ddiff, rows, cols, xw, selfterm, wclass, nw)
        if len(u):
            u, v = best_prefixes(X, W, K, Ddiff, out, u, v)
        if len(u) == 0:
            stale += 1
            if stale >= (1 if F == 2 else 3):
                break
            continue
        stale = 0
        au, av = out[u], out[v]
        apply_swaps(X, D, K, u, au, av)
        apply_swaps(X, D, K, v, av, au)
        out[u], out[v] = av, au
    return it + 1


def _candidates(X, W, out, partner, Ddiff, rows, cols, xw, selfterm, wclass, nw, L: int = 32):
    """Swap candidates (u, v) between paired blocks, best estimated gain first within every pair."""
    n = len(out)
    K = Ddiff.shape[1]
    a = out
    b = partner[a]
    M = 2.0 * np.bincount(rows, weights=xw * Ddiff.ravel()[a[rows] * K + cols], minlength=n) + selfterm
    cand = np.flatnonzero(b >= 0)
    pid = np.minimum(a, b)[cand]
    side = (a[cand] > b[cand]).astype(np.int64)
    group = pid * nw + wclass[cand]
    o = np.lexsort((M[cand], side, group))
    cand, side, group, pid = cand[o], side[o], group[o], pid[o]
    run = np.flatnonzero(np.r_[True, (group[1:] != group[:-1]) | (side[1:] != side[:-1])])
    run_len = np.diff(np.r_[run, len(cand)])
    rank = np.arange(len(cand)) - np.repeat(run, run_len)
    s1_idx = np.flatnonzero(side[run] == 1)
    s1, len1_all, g1 = run[s1_idx], run_len[s1_idx], group[run[s1_idx]]
    i0 = np.flatnonzero(side == 0)
    if len(g1) == 0 or len(i0) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    pos = np.minimum(np.searchsorted(g1, group[i0]), len(g1) - 1)
    ok = (g1[pos] == group[i0]) & (rank[i0] < len1_all[pos])
    i0, pos = i0[ok], pos[ok]
    u, v = cand[i0], cand[s1[pos] + rank[i0]]
    est = M[u] + M[v]
    ok = est < -1e-12
    u, v, est, pp = u[ok], v[ok], est[ok], pid[i0][ok]
    npairs = int((partner >= 0).sum()) // 2
    if npairs * L <= 1024:
        u2, v2, est2, pp2 = _exact_candidates(X, W, M, cand, side, pid, rank, wclass, L)
        u, v, est, pp = np.r_[u, u2], np.r_[v, v2], np.r_[est, est2], np.r_[pp, pp2]
        # every item in at most one swap: keep the better-estimated one
        o = np.argsort(est, kind="stable")
        seen = np.zeros(len(out), dtype=bool)
        keep = np.zeros(len(u), dtype=bool)
        for k in o:  # bounded: ≤ 2·L candidates per pair
            if not seen[u[k]] and not seen[v[k]]:
                keep[k] = True
                seen[u[k]] = seen[v[k]] = True
        u, v, est, pp = u[keep], v[keep], est[keep], pp[keep]
    o = np.lexsort((est, pp))
    return u[o], v[o]


def _exact_candidates(X, W, M, cand, side, pid, rank, wclass, L):
    """Best disjoint swaps among the L cheapest items of each side of every pair, with the exact cross term."""
    top = rank < L
    c0 = top & (side == 0)
    c1 = top & (side == 1)
    pairs = np.unique(pid[c0])
    pairs = pairs[np.isin(pairs, pid[c1])]
    z = np.zeros(0, dtype=np.int64)
    if len(pairs) == 0:
        return z, z, np.zeros(0), z
    npairs = len(pairs)
    U = np.full((npairs, L), -1, dtype=np.int64)
    V = np.full((npairs, L), -1, dtype=np.int64)
    # several weight classes per pair: keep the L cheapest per side overall
    for arr, sel in ((U, c0), (V, c1)):
        it = cand[sel]
        pp = np.searchsorted(pairs, pid[sel])
        ok = (pp < npairs) & (pairs[np.minimum(pp, npairs - 1)] == pid[sel])
        it, pp = it[ok], pp[ok]
        o = np.lexsort((M[it], pp))
        it, pp = it[o], pp[o]
        st = np.flatnonzero(np.r_[True, pp[1:] != pp[:-1]])
        rk = np.arange(len(it)) - np.repeat(st, np.diff(np.r_[st, len(it)]))
        ok = rk < L
        arr[pp[ok], rk[ok]] = it[ok]
    uu, vv = U.ravel(), V.ravel()
    XU = X[np.maximum(uu, 0)].multiply(W[None, :]).tocsr()
    XV = X[np.maximum(vv, 0)].tocsr()
    cross = np.zeros((npairs, L, L))
    prod = (XU @ XV.T).tocoo()
    pu, pv = prod.row // L, prod.col // L
    same = pu == pv
    cross[pu[same], prod.row[same] % L, prod.col[same] % L] = prod.data[same]
    delta = M[np.maximum(U, 0)][:, :, None] + M[np.maximum(V, 0)][:, None, :] - 4.0 * cross
    bad = ((U < 0)[:, :, None] | (V < 0)[:, None, :]
           | (wclass[np.maximum(U, 0)][:, :, None] != wclass[np.maximum(V, 0)][:, None, :]))
    delta[bad] = np.inf
    out_u, out_v, out_e, out_p = [], [], [], []
    ar = np.arange(npairs)
    for _ in range(L):
        flat = delta.reshape(npairs, -1).argmin(axis=1)
        i, j = flat // L, flat % L
        val = delta[ar, i, j]
        ok = val < -1e-12
        if not ok.any():
            break
        r = ar[ok]
        out_u.append(U[r, i[ok]])
        out_v.append(V[r, j[ok]])
        out_e.append(val[ok])
        out_p.append(pairs[r])
        delta[r, i[ok], :] = np.inf
        delta[r, :, j[ok]] = np.inf
    if not out_u:
        return z, z, np.zeros(0), z
    return np.concatenate(out_u), np.concatenate(out_v), np.concatenate(out_e), np.concatenate(out_p)


def best_prefixes(X, W, K, Ddiff, out, u, v):
    """Per pair of blocks, the candidate swaps up to the prefix that lowers the objective most (exactly).

    Parameters
    ----------
    X, W, K
        Counts per item (CSR), column weights, and their number of columns.
    Ddiff : (B, K) array
        Per block, its partner's deviations minus its own (0 if unpaired).
    out : (n_items,) int array
        The current block of every item.
    u, v : numpy.ndarray of int
        Candidate swaps ``u[i]`` ↔ ``v[i]``, grouped by pair and in order of preference.

    Returns
    -------
    u, v : numpy.ndarray of int
        The kept swaps.
    """
    pair = np.minimum(out[u], out[v]) if len(u) else np.zeros(0, dtype=np.int64)
    Y = (X[u] - X[v]).tocsr()
    Y.sum_duplicates()
    yr = np.repeat(np.arange(len(u)), np.diff(Y.indptr))
    yc, yd = Y.indices.astype(np.int64), Y.data
    dd = Ddiff.ravel()[out[u][yr] * K + yc]
    step = 2.0 * np.bincount(yr, weights=W[yc] * yd * (dd + yd), minlength=len(u))
    key = pair[yr] * K + yc
    o = np.lexsort((yr, key))
    ko, yo = key[o], yd[o]
    cs = np.cumsum(yo)
    gstart = np.flatnonzero(np.r_[True, ko[1:] != ko[:-1]])
    before = cs - yo - np.repeat(np.r_[0.0, cs][gstart], np.diff(np.r_[gstart, len(ko)]))
    step += 4.0 * np.bincount(yr[o], weights=W[yc[o]] * yo * before, minlength=len(u))
    # cumulative change within every pair (rows are grouped by pair) and its minimum
    cum = np.cumsum(step)
    pstart = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
    plen = np.diff(np.r_[pstart, len(u)])
    base = np.repeat(np.r_[0.0, cum][pstart], plen)
    cum = cum - base
    idx = np.arange(len(u))
    # best prefix end per pair: argmin of cum within the pair, if negative
    o = np.lexsort((idx, cum, np.repeat(np.arange(len(pstart)), plen)))
    best = o[pstart]  # first of every pair after sorting by cum
    bestval = cum[best]
    end = np.where(bestval < -1e-12, best + 1, pstart)
    keep = idx < np.repeat(end, plen)
    return u[keep], v[keep]


def apply_swaps(X: sp.csr_matrix, D: np.ndarray, K: int, items: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
    """Move the rows ``items`` from blocks ``src`` to blocks ``dst`` in the deviation table D, in place.

    Parameters
    ----------
    X, D, K
        Counts per item (CSR), the (B, K) deviation table, and its number of columns.
    items, src, dst : numpy.ndarray of int
        The items that move, and the block each leaves and joins.
    """
    if len(items) == 0:
        return
    sub = X[items]
    r = np.repeat(np.arange(len(items)), np.diff(sub.indptr))
    flat = D.reshape(-1)
    np.add.at(flat, src[r] * K + sub.indices, -sub.data)
    np.add.at(flat, dst[r] * K + sub.indices, sub.data)
