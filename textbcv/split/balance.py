"""Balanced assignment of units to blocks (chapter 4, done constructively).

Every half of every m×2 BCV split is a union of blocks, so making the blocks
themselves alike in their category counts balances all halves of all splits at
once. :func:`deal` places items (sentences, duplicate clusters or documents)
into the children of their parent block so that every child gets its target
number of sentences and, as far as possible, its proportional share of every
category of every measure.

The items are ordered rarest-category first (units sharing a rare lemma come
together) and dealt in *rounds*: a round hands one item to each of up to F
children of one parent, and which item goes to which child is an assignment
problem solved exactly (:func:`scipy.optimize.linear_sum_assignment`) on the
cost ``x_u · W · dev_child`` — the increase of the χ² objective
Σ_child Σ_c w_c dev_c² caused by adding item u to the child. Sizes are met by
construction (each round gives every child in it exactly one item). Rounds
are processed in *batches* of rounds taken with a stride through the order,
which keeps the cost computation vectorised at 10^6 units while rounds that
share rare categories (neighbours in the order) stay in different batches.
Further passes take every round out again and re-solve it against everything
else (coordinate descent); they never change sizes.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment

__all__ = ["objective", "deal", "DEFAULT_WEIGHTS"]

#: Relative weight of each measure in the objective (each column also gets 1/(count·√J)).
DEFAULT_WEIGHTS = {"label": 1.0, "lemma": 1.0, "length": 1.0}


def objective(measures: dict[str, sp.csr_matrix], weights: dict[str, float] | None = None,
              min_count: int = 10) -> tuple[sp.csr_matrix, np.ndarray]:
    """Stack the measures into one count matrix and its column weights.

    Categories with fewer than ``min_count`` occurrences (expected count below
    5 in a half) are pooled into one "rare" column per measure, as the
    quality measure pools them. Column c of measure m gets weight
    ``weights[m] / (C_c · √J_m)``: the sum over columns of w_c·dev_c² is then
    Σ_m χ²_m / √J_m, the χ² statistics on the scale of their null spread.

    Examples
    --------
    >>> M = sp.csr_matrix(np.array([[12, 1], [0, 1]]))
    >>> X, W = objective({"lemma": M})
    >>> X.toarray().tolist(), W.round(4).tolist()
    ([[12.0, 1.0], [0.0, 1.0]], [0.0589, 0.3536])
    """
    weights = {**DEFAULT_WEIGHTS, **(weights or {})}
    cols, ws = [], []
    for name, M in measures.items():
        M = sp.csr_matrix(M, dtype=np.float64)
        if M.shape[1] == 0:
            continue
        tot = np.asarray(M.sum(axis=0)).ravel()
        keep = tot >= min_count
        parts = [M[:, keep]]
        totals = [tot[keep]]
        if (~keep).any() and tot[~keep].sum() > 0:
            parts.append(sp.csr_matrix(np.asarray(M[:, ~keep].sum(axis=1))))
            totals.append(np.array([tot[~keep].sum()]))
        C = np.concatenate(totals)
        J = len(C)
        if J < 2:  # one category: nothing to balance
            continue
        cols.append(sp.hstack(parts, format="csr"))
        ws.append(weights.get(name, 1.0) / (np.maximum(C, 1) * np.sqrt(J)))
    n = next(iter(measures.values())).shape[0] if measures else 0
    if not cols:
        return sp.csr_matrix((n, 0)), np.zeros(0)
    X = sp.hstack(cols, format="csr")
    X.sum_duplicates()
    return X, np.concatenate(ws)


def _rarity_key(X: sp.csr_matrix, W: np.ndarray) -> np.ndarray:
    """Index of the highest-weight (rarest) column of every row; K for an empty row."""
    n, K = X.shape
    key = np.full(n, K, dtype=np.int64)
    if X.nnz == 0:
        return key
    rows = np.repeat(np.arange(n), np.diff(X.indptr))
    o = np.lexsort((-W[X.indices], rows))
    starts = X.indptr[:-1]
    has = np.diff(X.indptr) > 0
    key[has] = X.indices[o[starts[has]]]
    return key


def _schedule(parent, weight, order, children, targets):
    """Rounds of (item, child) slots: per parent and weight class, quotas meeting the targets."""
    P, F = children.shape
    items_out, child_out, round_out = [], [], []
    remaining = targets.astype(np.float64).copy()
    rid = 0
    op = parent[order]
    ow = weight[order]
    # order is sorted by parent, then weight descending
    bounds = np.flatnonzero((np.diff(op) != 0) | (np.diff(ow) != 0)) + 1
    starts = np.r_[0, bounds]
    ends = np.r_[bounds, len(order)]
    last_of_parent = np.r_[op[starts[1:]] != op[starts[:-1]], True]
    for s, e, last in zip(starts, ends, last_of_parent):
        p, w, k = op[s], float(ow[s]), e - s
        ch = children[p]
        r = remaining[ch]
        if last:
            q = np.maximum(np.floor(r / w + 1e-9), 0).astype(np.int64)
            diff = k - q.sum()
            while diff > 0:  # more items than room: spread the overflow
                add = np.argsort(-(r - q * w), kind="stable")[: min(diff, F)]
                q[add] += 1
                diff -= len(add)
            while diff < 0:  # fewer items than room
                sub = np.argsort(q * w - r, kind="stable")
                sub = sub[q[sub] > 0][: min(-diff, F)]
                q[sub] -= 1
                diff += len(sub)
        else:
            base = k // F
            q = np.full(F, base, dtype=np.int64)
            extra = k - base * F
            if extra:
                q[np.argsort(-(r - base * w), kind="stable")[:extra]] += 1
        remaining[ch] -= q * w
        its = order[s:e]
        t = 0
        pos = 0
        while pos < k:
            sel = np.flatnonzero(q > t)
            cnt = len(sel)
            items_out.append(its[pos : pos + cnt])
            child_out.append(ch[sel])
            round_out.append(np.full(cnt, rid))
            rid += 1
            pos += cnt
            t += 1
    if not items_out:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, 0
    return np.concatenate(items_out), np.concatenate(child_out), np.concatenate(round_out), rid


def deal(X: sp.csr_matrix, W: np.ndarray, weight: np.ndarray, parent: np.ndarray, children: np.ndarray,
         targets: np.ndarray, rng: np.random.Generator, passes: int = 2, max_batches: int = 4096) -> np.ndarray:
    """Assign every item to one child of its parent block.

    Parameters
    ----------
    X : sparse (n_items, K)
        Category counts of every item (see :func:`objective`); may have K = 0.
    W : (K,) array
        Column weights.
    weight : (n_items,) int array
        Sentences per item.
    parent : (n_items,) int array
        Parent block of every item, 0..P-1.
    children : (P, F) int array
        Child block ids of every parent (global ids, 0..P*F-1).
    targets : (P*F,) array
        Target number of sentences of every child block.
    rng : numpy Generator
        For the random tie-breaks of the order.
    passes : int
        1 = one dealing pass; every further pass re-solves every round.
    max_batches : int
        Rounds are processed in at most this many strided batches per pass.

    Returns
    -------
    (n_items,) int array
        The child block of every item.

    Examples
    --------
    >>> X = sp.csr_matrix(np.eye(4).repeat(4, axis=0))   # 16 items, 4 categories
    >>> child = deal(X, np.ones(4), np.ones(16, int), np.zeros(16, int), np.arange(4)[None, :],
    ...              np.full(4, 4), np.random.default_rng(0))
    >>> np.bincount(child).tolist()   # sizes met
    [4, 4, 4, 4]
    >>> (X.T @ np.eye(4)[child]).tolist()  # every category once per block
    [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    """
    n, K = X.shape
    P, F = children.shape
    weight = np.asarray(weight, dtype=np.int64)
    key = _rarity_key(X, W)
    krank = np.where(key < K, -W[np.minimum(key, max(K - 1, 0))] if K else 0.0, 1.0)
    order = np.lexsort((rng.random(n), key, krank, -weight, parent))
    items, slot_child, slot_round, n_rounds = _schedule(parent, weight, order, children, targets)
    out = np.full(n, -1, dtype=np.int64)
    if K == 0 or F == 1:
        out[items] = slot_child
        return out
    # share of every child within its parent
    parent_of_child = np.empty(P * F, dtype=np.int64)
    parent_of_child[children.ravel()] = np.repeat(np.arange(P), F)
    ptarget = np.zeros(P)
    np.add.at(ptarget, parent_of_child, targets)
    share = np.where(ptarget[parent_of_child] > 0, targets / np.maximum(ptarget[parent_of_child], 1e-300), 1.0 / F)
    child_slot = np.empty(P * F, dtype=np.int64)  # position of a child among its parent's children
    child_slot[children.ravel()] = np.tile(np.arange(F), P)

    X = X.tocsr()
    cnt = np.zeros(P * F * K)
    # slots grouped into batches of rounds taken with a stride
    nb = int(min(max_batches, n_rounds))
    batch_of_slot = slot_round % nb
    o = np.argsort(batch_of_slot, kind="stable")
    items_b, child_b, round_b = items[o], slot_child[o], slot_round[o]
    bstart = np.searchsorted(batch_of_slot[o], np.arange(nb + 1))

    def rows_of(us):
        sub = X[us]
        r = np.repeat(np.arange(len(us)), np.diff(sub.indptr))
        return sub, r

    def scatter(us, ch, sign):
        sub, r = rows_of(us)
        np.add.at(cnt, ch[r] * K + sub.indices, sign * sub.data)

    for ps in range(max(1, passes)):
        for b in range(nb):
            sl = slice(bstart[b], bstart[b + 1])
            us, ch_slot, rd = items_b[sl], child_b[sl], round_b[sl]
            if len(us) == 0:
                continue
            if ps > 0:
                scatter(us, out[us], -1.0)
            sub, r = rows_of(us)
            p = parent_of_child[ch_slot]  # parent of every slot item
            allch = children[p]  # (len(us), F)
            idx = allch[r] * K + sub.indices[:, None]  # (nnz, F)
            G = cnt[idx]
            seen = G.sum(axis=1, keepdims=True)
            dev = G - share[allch[r]] * seen
            contrib = (sub.data * W[sub.indices])[:, None] * dev
            cost = np.zeros((len(us), F))
            np.add.at(cost, r, contrib)
            # solve every round of the batch
            rb = np.flatnonzero(np.r_[True, rd[1:] != rd[:-1]])
            re = np.r_[rb[1:], len(us)]
            assigned = np.empty(len(us), dtype=np.int64)
            for s, e in zip(rb, re):
                cols = child_slot[ch_slot[s:e]]
                if e - s == 1:
                    assigned[s] = ch_slot[s]
                    continue
                Cm = cost[s:e][:, cols]
                ri, ci = linear_sum_assignment(Cm)
                assigned[s + ri] = ch_slot[s:e][ci]
            out[us] = assigned
            scatter(us, assigned, 1.0)
    return out
