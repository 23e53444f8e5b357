"""Dealing: items placed into the children of their parent block, size targets met exactly."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from textbcv.split.balance.descent import refine
from textbcv.split.balance.search import perturb, polish
from textbcv.split.balance.stacking import StackedCounts

__all__ = ["GREEDY_BUDGET", "MAX_BATCHES", "deal", "rarity_order"]

#: Greedy re-dealing work, in non-zeros: beyond it the remaining (most frequent-only) rounds keep the dealt order.
GREEDY_BUDGET = 6e6
#: The greedy re-dealing takes the rounds in at most this many strided batches.
MAX_BATCHES = 256


def deal(X: StackedCounts | sp.csr_matrix, W: np.ndarray, weight: np.ndarray, parent: np.ndarray,
         children: np.ndarray, targets: np.ndarray, rng: np.random.Generator, effort: float = 1.0,
         order: np.ndarray | None = None) -> np.ndarray:
    """Assign every item to one child of its parent block, meeting the children's size targets.

    Items are dealt in rounds (heavy and rare first, ties at random), re-dealt greedily, then improved by
    :func:`~textbcv.split.balance.descent.refine` and, on the top level, :mod:`~textbcv.split.balance.search`.

    Parameters
    ----------
    X, W : StackedCounts or sparse (n_items, K), and (K,)
        Counts per item and column weights (:func:`textbcv.split.balance.objective`); K may be 0.
    weight : (n_items,) int array
        Sentences per item.
    parent : (n_items,) int array
        Parent block of every item, 0..P−1.
    children : (P, F) int array
        Child block ids of every parent (0..P·F−1).
    targets : (P*F,) array
        Target sentences of every child.
    rng : numpy Generator
        For the random order of ties and children.
    effort : float
        Scales the refinement (0: dealing only).
    order : (n_items,) int array, optional
        Item priority, heavy items first (default :func:`rarity_order`).

    Returns
    -------
    (n_items,) int array
        The child block of every item.

    Examples
    --------
    >>> X = sp.csr_matrix(np.eye(4).repeat(4, axis=0))   # 16 items, 4 categories
    >>> child = deal(X, np.ones(4), np.ones(16, int), np.zeros(16, int), np.arange(4)[None, :],
    ...              np.full(4, 4), np.random.default_rng(0))
    >>> np.bincount(child).tolist(), bool((X.T @ np.eye(4)[child] == 1).all())   # every category once per block
    ([4, 4, 4, 4], True)
    """
    K = X.shape[1]
    weight = np.asarray(weight, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    if order is None:
        order = rarity_order(X, weight, rng)
    P = children.shape[0]
    pk = parent[order].astype(np.int16 if P < 2**15 else np.int64)
    order = order[np.argsort(pk, kind="stable")]
    out, rnd = _schedule(parent, weight, order, children, targets, rng)
    if K and children.shape[1] > 1 and effort > 0:
        _greedy(X, W, out, rnd, children)
        refine(X, W, weight, out, children, targets, rng, effort)
        if P == 1:
            polish(X, W, weight, out, np.asarray(targets, dtype=np.float64), rng, effort)
            perturb(X, W, weight, out, targets, rng, effort)
    return out


def _argsort_int(key: np.ndarray) -> np.ndarray:
    """``np.argsort(key, kind="stable")`` for integer keys, by 16-bit radix passes when they fit in [0, 2³²)."""
    key = np.asarray(key)
    if key.size == 0 or key.min() < 0 or key.max() >= 2**32:
        return np.argsort(key, kind="stable")
    if key.max() < 2**16:
        return np.argsort(key.astype(np.uint16), kind="stable")
    o = np.argsort((key & 0xFFFF).astype(np.uint16), kind="stable")
    return o[np.argsort((key[o] >> 16).astype(np.uint16), kind="stable")]


def _lexsort_random(r: np.ndarray, key: np.ndarray) -> np.ndarray:
    """``np.lexsort((r, key))`` for integer keys and r in [0, 1), by one stable sort of a composite key if possible."""
    r, key = np.asarray(r), np.asarray(key)
    if len(r) and key.min() >= 0 and r.min() >= 0.0 and r.max() < 1.0:
        b = min(53, 64 - int(key.max()).bit_length())
        if b >= 24:
            c = (key.astype(np.uint64) << np.uint64(b)) | (r * 2.0**b).astype(np.uint64)
            o = np.argsort(c, kind="stable")
            sc = c[o]
            if not (sc[1:] == sc[:-1]).any():
                return o
    o = np.argsort(r, kind="stable")
    return o[_argsort_int(key[o])]


def rarity_order(X: StackedCounts | sp.csr_matrix, weight: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Items heavy first, then by their rarest category (smallest column total), ties in seeded random order.

    Parameters
    ----------
    X : StackedCounts or scipy.sparse matrix, shape (n_items, K)
        Category counts of every item.
    weight : (n_items,) int array
        Sentences per item.
    rng : numpy.random.Generator
        Orders the ties.

    Returns
    -------
    (n_items,) int array
        Item indices in dealing order.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[5, 0], [1, 1], [1, 0], [0, 1]]))   # column totals 7, 2
    >>> sorted(rarity_order(X, np.ones(4, int), np.random.default_rng(0)).tolist()[:2])   # column-1 rows first
    [1, 3]
    """
    n, K = X.shape
    key = np.full(n, K, dtype=np.int64)
    if X.nnz:
        if isinstance(X, StackedCounts):  # per measure, without stacking
            crank = _column_rank(X.column_totals())
            has, low = X.row_min(crank)
            key[has] = low
        else:
            X = sp.csr_matrix(X)
            crank = _column_rank(np.asarray(X.sum(axis=0)).ravel())
            has = np.diff(X.indptr) > 0
            key[has] = np.minimum.reduceat(crank[X.indices], X.indptr[:-1][has])
    o = _lexsort_random(rng.random(n), key)  # = np.lexsort((rng.random(n), key, -weight))
    weight = np.asarray(weight)
    if n and weight.min() != weight.max():
        _, wrank = np.unique(-weight, return_inverse=True)
        o = o[_argsort_int(wrank.ravel()[o])]
    return o


def _column_rank(tot: np.ndarray) -> np.ndarray:
    """Rank of every column by its total (rarest first, ties by column)."""
    K = len(tot)
    crank = np.empty(K, dtype=np.int32 if K < 2**31 else np.int64)
    crank[np.lexsort((np.arange(K), tot))] = np.arange(K)
    return crank


def _schedule(parent: np.ndarray, weight: np.ndarray, order: np.ndarray, children: np.ndarray, targets: np.ndarray,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Deal the items in ``order`` to children in rounds, with per-parent quotas meeting the targets: (child, round)."""
    F = children.shape[1]
    n = len(order)
    out = np.full(len(parent), -1, dtype=np.int64)
    rnd = np.full(len(parent), -1, dtype=np.int64)
    r0 = 0
    remaining = targets.astype(np.float64).copy()
    op, ow = parent[order], weight[order]
    bounds = np.flatnonzero((np.diff(op) != 0) | (np.diff(ow) != 0)) + 1
    starts, ends = np.r_[0, bounds], np.r_[bounds, n]
    last_of_parent = np.r_[op[starts[1:]] != op[starts[:-1]], True] if n else np.zeros(0, bool)
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
        # slot t of child j exists for t < q_j; rounds t in turn, children shuffled within a round
        slot_child = np.repeat(np.arange(F), q)
        slot_t = np.arange(k) - np.repeat(np.cumsum(q) - q, q)
        o = _lexsort_random(rng.random(k), slot_t)  # = np.lexsort((rng.random(k), slot_t))
        out[order[s:e]] = ch[slot_child[o]]
        rnd[order[s:e]] = r0 + slot_t[o]
        r0 += int(q.max()) if k else 0
    return out, rnd


def _greedy(X: StackedCounts | sp.csr_matrix, W: np.ndarray, out: np.ndarray, rnd: np.ndarray,
            children: np.ndarray) -> None:
    """Reassign the children within every round greedily against the counts dealt so far (``out`` updated)."""
    n, K = X.shape
    P, F = children.shape
    B = P * F
    n_rounds = int(rnd.max()) + 1 if n else 0
    if n_rounds == 0:
        return
    ro = _argsort_int(rnd)
    rstart = np.searchsorted(rnd[ro], np.arange(n_rounds + 1))
    if X.nnz > GREEDY_BUDGET:  # only the first (rarest) rounds, up to the budget in non-zeros
        rowlen = np.diff(X.indptr)[ro]
        work = np.cumsum(rowlen)[np.maximum(rstart[1:] - 1, 0)]
        n_rounds = max(1, int(np.searchsorted(work, GREEDY_BUDGET)))
    nb = min(n_rounds, MAX_BATCHES)
    top = P == 1
    G = np.zeros((K, B)) if top else None  # G[c, j] = w_c · count of c in child j
    cntw = None if top else np.zeros(B * K)
    # a StackedCounts stacks only the rows of the rounds re-dealt, batch by batch
    if not isinstance(X, StackedCounts):
        X = sp.csr_matrix(X)
    for b in range(nb):
        rs = np.arange(b, n_rounds, nb)
        sizes = rstart[rs + 1] - rstart[rs]
        rs, sizes = rs[sizes > 0], sizes[sizes > 0]
        if len(rs) == 0:
            continue
        R = len(rs)
        pos = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        ridx = np.repeat(np.arange(R), sizes)
        items = ro[np.repeat(rstart[rs], sizes) + pos]
        sub = X.rows(items) if isinstance(X, StackedCounts) else X[items]
        slotch = np.full((R, F), -1, dtype=np.int64)
        slotch[ridx, pos] = out[items]
        if G is not None:  # top
            full = np.asarray(sub @ G)  # (items, B)
            cost = np.full((R, F, F), np.inf)
            valid = slotch >= 0
            ci = np.where(valid, slotch, 0)
            cost[ridx, pos, :] = np.where(valid[ridx], full[np.arange(len(items))[:, None], ci[ridx]], np.inf)
        else:
            assert cntw is not None  # not top: made above
            r = np.repeat(np.arange(len(items)), np.diff(sub.indptr))
            cost = np.full((R, F, F), np.inf)
            valid = slotch >= 0
            ci = np.where(valid, slotch, 0)
            for j in range(F):
                cj = np.bincount(r, weights=sub.data * cntw[ci[ridx, j][r] * K + sub.indices], minlength=len(items))
                cost[ridx, pos, j] = np.where(valid[ridx, j], cj, np.inf)
        assign = np.full((R, F), -1, dtype=np.int64)
        if F == 2:
            swap = cost[:, 0, 1] + cost[:, 1, 0] < cost[:, 0, 0] + cost[:, 1, 1]
            assign[:, 0] = np.where(swap, 1, 0)
            assign[:, 1] = np.where(swap, 0, 1)
        else:
            # regret greedy: the item losing most if it missed its best free child goes first
            c = cost.copy()
            ar = np.arange(R)
            for _ in range(F):
                two = np.partition(c, 1, axis=2)[:, :, :2]
                with np.errstate(invalid="ignore"):
                    regret = np.where(np.isfinite(two[:, :, 0]),
                                      np.where(np.isfinite(two[:, :, 1]), two[:, :, 1] - two[:, :, 0], 1e300), -1.0)
                i = regret.argmax(axis=1)
                ok = regret[ar, i] >= 0
                if not ok.any():
                    break
                rr = ar[ok]
                j = c[rr, i[ok]].argmin(axis=1)
                assign[rr, i[ok]] = j
                c[rr, i[ok], :] = np.inf
                c[rr, :, j] = np.inf
        newch = slotch[ridx, assign[ridx, pos]]
        out[items] = newch
        rr = np.repeat(np.arange(len(items)), np.diff(sub.indptr))
        if G is not None:  # top; bincount is several times faster than np.add.at
            G += np.bincount(sub.indices.astype(np.int64) * B + newch[rr], weights=sub.data * W[sub.indices],
                             minlength=K * B).reshape(K, B)
        else:
            assert cntw is not None  # not top: made above
            np.add.at(cntw, newch[rr] * K + sub.indices, sub.data * W[sub.indices])
