"""m×2 block-regularized cross-validation: nested blocks and the splits read from them.

Level N (a power of two ≥ 4) has N blocks; block j of level N splits into blocks j and j + N at
level 2N. Split i is column i + 1 of Sylvester's Hadamard matrix H_N, its "+" blocks the training
half, so the splits of m = 3 are the first 3 of m = 7, 15, ... See docs/method.md, "Nested splits".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.linalg import hadamard

from textbcv.errors import InputError
from textbcv.split.balance import StackedCounts, deal, rarity_order
from textbcv.split.labels import affordable_starts, best_labels

__all__ = ["n_blocks_for", "max_m", "block_targets", "bit_reversed", "blind_cuts", "NestedBlocks",
           "halves_from_blocks"]


def n_blocks_for(m: int) -> int:
    """Smallest power of two N ≥ 4 with N − 1 ≥ m: the number of blocks m splits need.

    Parameters
    ----------
    m : int

    Returns
    -------
    int

    Examples
    --------
    >>> [n_blocks_for(m) for m in (1, 3, 4, 7, 8, 15)]
    [4, 4, 8, 8, 16, 16]
    """
    N = 4
    while N - 1 < m:
        N *= 2
    return N


def max_m(n_items: int) -> int:
    """Largest m the blocks allow for ``n_items`` indivisible items: 2^⌊log2 n_items⌋ − 1, 0 below 4 items.

    Parameters
    ----------
    n_items : int

    Returns
    -------
    int

    Examples
    --------
    >>> max_m(4), max_m(7), max_m(16), max_m(2000)
    (3, 3, 15, 1023)
    """
    if n_items < 4:
        return 0
    return 2 ** int(np.floor(np.log2(n_items))) - 1


def _split_sizes(sizes: np.ndarray) -> np.ndarray:
    """Sizes of level 2L from level L: block j → j and j + L, the odd unit placed to balance the new splits."""
    L = len(sizes)
    lo = sizes // 2
    odd = np.flatnonzero(sizes % 2)
    extra_first = np.zeros(L, dtype=np.int64)  # 1 = block j gets the odd unit, 0 = block j + L
    if len(odd):
        if L <= 1024:
            H = hadamard(L) if L > 1 else np.ones((1, 1), dtype=np.int64)
            v = np.zeros(L, dtype=np.int64)
            for j in odd:
                a, b = v + H[j], v - H[j]
                if (np.abs(a).max(), (a * a).sum()) <= (np.abs(b).max(), (b * b).sum()):
                    v, extra_first[j] = a, 1
                else:
                    v = b
        else:
            extra_first[odd[::2]] = 1
    first = lo + (sizes % 2) * extra_first
    return np.concatenate([first, sizes - first])


def block_targets(total: int, N: int) -> np.ndarray:
    """Near-equal block sizes (differing by ≤ 1) at level N, nested: blocks j and j + N/2 halve block j of N/2.

    Parameters
    ----------
    total : int
        Number of sentences to share out.
    N : int
        The level: a power of two ≥ 1.

    Returns
    -------
    (N,) int64 array

    Examples
    --------
    >>> block_targets(10, 4).tolist(), block_targets(10, 8).tolist()
    ([3, 3, 2, 2], [2, 2, 1, 1, 1, 1, 1, 1])
    """
    sizes = np.array([total], dtype=np.int64)
    while len(sizes) < N:
        sizes = _split_sizes(sizes)
    return sizes


def bit_reversed(p: np.ndarray, N: int) -> np.ndarray:
    """Block id of the run at position ``p`` of level N: ``p``'s log2(N) bits reversed.

    Parameters
    ----------
    p : array_like of int
        Run positions, 0 ≤ p < N.
    N : int
        The level (a power of two).

    Returns
    -------
    int64 array

    Examples
    --------
    >>> bit_reversed(np.arange(8), 8).tolist()
    [0, 4, 2, 6, 1, 5, 3, 7]
    """
    p = np.asarray(p, dtype=np.int64)
    out = np.zeros_like(p)
    bits = int(N).bit_length() - 1
    for b in range(bits):
        out |= ((p >> b) & 1) << (bits - 1 - b)
    return out


def blind_cuts(cum: np.ndarray, parent: np.ndarray, N: int, need: int) -> np.ndarray:
    """Cut every run of level N // 2 in two at the unit boundary nearest its target: the runs of level N.

    Parameters
    ----------
    cum : (n + 1,) int array
        Sentences in the first i units of the random order.
    parent : (N // 2 + 1,) int array
        Run boundaries of level N // 2.
    N : int
        The level to cut (a power of two ≥ 2).
    need : int
        Units every run of level N must keep (≥ 1).

    Returns
    -------
    (N + 1,) int array
        Run p of level N holds the units at positions ``cuts[p]:cuts[p + 1]``.

    Examples
    --------
    >>> cum = np.concatenate([[0], np.cumsum([5, 1, 1, 1, 4, 4])])
    >>> blind_cuts(cum, np.array([0, 6]), 2, 1).tolist()   # 16 sentences: the boundary nearest 8
    [0, 4, 6]
    """
    total = int(cum[-1])
    grid = np.concatenate([[0], np.cumsum(block_targets(total, N)[bit_reversed(np.arange(N), N)])])
    g = grid[1::2]
    c = np.searchsorted(cum, g)  # first boundary at or after the target
    c = np.minimum(c, len(cum) - 1)
    before = np.maximum(c - 1, 0)
    c = np.where((c > 0) & (g - cum[before] <= cum[c] - g), before, c)
    a, b = parent[:-1], parent[1:]
    c = np.minimum(np.maximum(c, a + need), b - need)
    cuts = np.empty(N + 1, dtype=np.int64)
    cuts[0::2] = parent
    cuts[1::2] = c
    return cuts


def halves_from_blocks(blocks: np.ndarray, m: int) -> np.ndarray:
    """Boolean (m, n) matrix: True where the unit's block has +1 in column i + 1 of H_N (training half of split i).

    Parameters
    ----------
    blocks : array_like of int
        Block id of every unit at level ``n_blocks_for(m)`` or a finer power of two (reduced mod N).
    m : int
        Number of splits (1 ≤ m ≤ N − 1).

    Returns
    -------
    numpy.ndarray of bool

    Examples
    --------
    >>> halves_from_blocks(np.arange(8), 3).astype(int)
    array([[1, 0, 1, 0, 1, 0, 1, 0],
           [1, 1, 0, 0, 1, 1, 0, 0],
           [1, 0, 0, 1, 1, 0, 0, 1]])
    """
    N = n_blocks_for(m)
    plus = hadamard(N)[:, 1 : m + 1] == 1
    return plus[np.asarray(blocks) % N].T


@dataclass
class NestedBlocks:
    """Items (units or groups of units) placed into nested blocks, each level built lazily and cached.

    Balanced blocks come from recursive bisection by :func:`textbcv.split.balance.deal`. Without
    balancing, items of unequal sizes are cut as runs of one seeded random order (:func:`blind_cuts`),
    so an item's block does not depend on its size.

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item.
    X, W : StackedCounts or sparse (n_items, K), and (K,)
        Balancing objective (:func:`textbcv.split.balance.objective`); K may be 0.
    seed : int
        Seed of every random step (default 0).
    effort : float
        Scales the refinement (0: dealing only).
    balance : bool
        False places items size-blind at random.
    n_leaves : int
        Blocks dealt at once (default 16); deeper levels are bisected from them.

    Examples
    --------
    >>> nb = NestedBlocks(np.ones(10, int), sp.csr_matrix((10, 0)), np.zeros(0), seed=0)
    >>> np.bincount(nb.blocks(4)).tolist()
    [3, 3, 2, 2]
    """

    weight: np.ndarray
    X: StackedCounts | sp.csr_matrix
    W: np.ndarray
    seed: int = 0
    effort: float = 1.0
    balance: bool = True
    n_leaves: int = 16
    _levels: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.weight = np.asarray(self.weight, dtype=np.int64)
        n = len(self.weight)
        if n < 4:
            raise InputError(f"BCV needs at least 4 units to place into 4 blocks, got {n}")
        self.total = int(self.weight.sum())
        rng = np.random.default_rng([self.seed, 0])
        self._top = 2 ** int(np.floor(np.log2(n)))  # the most blocks these items allow
        unbalanced = not self.balance or self.X.shape[1] == 0
        # items of unequal sizes are cut from a random order, since dealing them by size would stratify the
        # blocks by size; items all of one size are dealt in a random order, which meets the targets exactly
        self._blind = unbalanced and bool(self.weight.min() != self.weight.max())
        if unbalanced:
            self.X, self.W = sp.csr_matrix((n, 0)), np.zeros(0)
        if self._blind:
            self._perm = rng.permutation(n)
            self._cum = np.concatenate([[0], np.cumsum(self.weight[self._perm])])
            self._cuts = {1: np.array([0, n], dtype=np.int64)}
        elif unbalanced:
            self._order = np.argsort(rng.permutation(n))  # a random order
        else:
            self._order = rarity_order(self.X, self.weight, rng)
        self.leaves = min(self.n_leaves, self._top)

    @property
    def n_items(self) -> int:
        """Number of items placed (the length of ``weight``)."""
        return len(self.weight)

    def max_m(self) -> int:
        """Largest m these items allow.

        Returns
        -------
        int
        """
        return max_m(self.n_items)

    def need(self, N: int) -> int:
        """Items every size-blind block of level N keeps, so that every level up to ``n_leaves`` blocks is full.

        Parameters
        ----------
        N : int

        Returns
        -------
        int
        """
        return max(1, min(self._top, self.n_leaves) // N)

    def _blind_level(self, N: int) -> np.ndarray:
        """Size-blind blocks of level N: runs of the random order (:func:`blind_cuts`)."""
        levels = [N]
        while levels[-1] // 2 not in self._cuts:
            levels.append(levels[-1] // 2)
        for L in reversed(levels):
            cuts = blind_cuts(self._cum, self._cuts[L // 2], L, self.need(L))
            if (np.diff(cuts) == 0).any():
                raise InputError(f"{L} blocks are impossible with these units: some are larger than a block of "
                                 f"about {self.total / L:.0f} sentences, so a block would stay empty; use m < {L // 2}")
            self._cuts[L] = cuts
        run = np.searchsorted(self._cuts[N], np.arange(self.n_items), side="right") - 1
        out = np.empty(self.n_items, dtype=np.int64)
        out[self._perm] = bit_reversed(run, N)
        return out

    def _level(self, N: int) -> np.ndarray:
        if self._blind:
            if N not in self._levels:
                self._levels[N] = self._blind_level(N)
            return self._levels[N]
        if N <= self.leaves:
            if self.leaves not in self._levels:
                rng = np.random.default_rng([self.seed, self.leaves])
                n = self.n_items
                self._levels[self.leaves] = deal(self.X, self.W, self.weight, np.zeros(n, dtype=np.int64),
                                                 np.arange(self.leaves)[None, :],
                                                 block_targets(self.total, self.leaves), rng, effort=self.effort,
                                                 order=self._order)
            return self._levels[self.leaves] % N
        if N not in self._levels:
            L = N // 2
            parent = self._level(L)
            sizes = np.bincount(parent, weights=self.weight, minlength=L).astype(np.int64)
            targets = _split_sizes(sizes)
            children = np.stack([np.arange(L), np.arange(L) + L], axis=1)
            rng = np.random.default_rng([self.seed, N])
            self._levels[N] = deal(self.X, self.W, self.weight, parent, children, targets, rng,
                                   effort=self.effort, order=self._order)
        return self._levels[N]

    def label_leaves(self, counts: dict[str, sp.csr_matrix]) -> None:
        """Rename the leaf blocks so that the halves are even on ``counts``, when the search is affordable.

        Parameters
        ----------
        counts : dict of str to scipy.sparse.csr_matrix
            Per measure, the (n_items, categories) counts.
        """
        K = self.X.shape[1]
        if K == 0 or self.effort <= 0 or not affordable_starts(self.leaves, K):
            return
        leaves = self.blocks(self.leaves)
        onehot = sp.csr_matrix((np.ones(self.n_items), (leaves, np.arange(self.n_items))),
                               shape=(self.leaves, self.n_items))
        leaf_counts = {k: np.asarray((onehot @ M).todense()) for k, M in counts.items()}
        self.relabel(best_labels(leaf_counts, np.random.default_rng([self.seed, 1])))

    def relabel(self, perm: np.ndarray) -> None:
        """Rename leaf block b to ``perm[b]``; deeper levels are rebuilt from the renamed leaves.

        Parameters
        ----------
        perm : numpy.ndarray of int
            A permutation of ``range(leaves)``.

        Raises
        ------
        ValueError
            For size-blind blocks, which have no labels.

        Examples
        --------
        >>> from textbcv.split.balance import objective
        >>> X, W = objective({"label": sp.csr_matrix(np.eye(2)[np.arange(80) % 2])})
        >>> nb = NestedBlocks(np.ones(80, int), X, W, seed=0, n_leaves=4)
        >>> before = nb.blocks(4)
        >>> nb.relabel(np.array([1, 0, 2, 3]))
        >>> bool((nb.blocks(4) == np.array([1, 0, 2, 3])[before]).all())
        True
        """
        if self._blind:
            raise ValueError("size-blind blocks are runs of a random order: they have no labels to rename")
        leaves = self._level(self.leaves)
        self._levels = {self.leaves: np.asarray(perm)[leaves]}

    def blocks(self, N: int) -> np.ndarray:
        """Block id (0..N−1) of every item at level N.

        Parameters
        ----------
        N : int
            A power of two, 4 ≤ N ≤ 2^⌊log2 n_items⌋.

        Returns
        -------
        (n_items,) int64 array

        Raises
        ------
        InputError
            For any other N, or when size-blind blocks of level N would be empty.
        """
        if N < 4 or N & (N - 1):
            raise InputError(f"the number of blocks must be a power of two ≥ 4, got {N}")
        if N > 2 ** int(np.floor(np.log2(self.n_items))):
            raise InputError(f"{N} blocks need at least {N} items, got {self.n_items}")
        return self._level(N)
