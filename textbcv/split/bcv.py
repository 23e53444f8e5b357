"""m×2 block-regularized cross-validation: nested blocks and splits (docs/method.md §3).

Units (sentences, or groups of them) are placed into blocks. Level N (a power
of two ≥ 4) has N blocks; block j of level N splits into blocks j and j + N at
level 2N, so a block of level N is the union of the level-L blocks ≡ j (mod N)
for any L ≥ N. Split i (0-based) is column i + 1 of Sylvester's Hadamard
matrix H_N: the "+" blocks form its training half. Because Sylvester's column
order is nested, the splits of m = 3 are the first 3 splits of m = 7, 15, 31.

Blocks are built by recursive bisection (level 1 → 2 → 4 → ...), every
bisection balanced for every measure by :func:`textbcv.split.balance.deal`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.linalg import hadamard

from textbcv.errors import InputError
from textbcv.split.balance import StackedCounts, deal, rarity_order
from textbcv.split.labels import affordable_starts, best_labels

__all__ = ["n_blocks_for", "max_m", "block_targets", "NestedBlocks", "halves_from_blocks"]


def n_blocks_for(m: int) -> int:
    """Smallest power of two N ≥ 4 with N − 1 ≥ m.

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
    """Largest m the blocks allow for ``n_items`` indivisible items (every block non-empty).

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
    """Near-equal block sizes (differ by ≤ 1) at level N, built top-down as the blocks nest.

    Examples
    --------
    >>> block_targets(10, 4).tolist()
    [3, 3, 2, 2]
    >>> block_targets(10, 8).tolist()  # block j of level 4 = blocks j and j + 4 here
    [2, 2, 1, 1, 1, 1, 1, 1]
    """
    sizes = np.array([total], dtype=np.int64)
    while len(sizes) < N:
        sizes = _split_sizes(sizes)
    return sizes


def halves_from_blocks(blocks: np.ndarray, m: int) -> np.ndarray:
    """Boolean (m, n) matrix: True where a unit is in the training half of split i.

    ``blocks`` are block ids at level N = :func:`n_blocks_for` (m) (or any
    finer power-of-two level; they are reduced mod N).

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
    """Items (units or groups of units) placed into nested, balanced blocks by recursive bisection.

    Level 1 is one block; level 2L splits block j of level L into blocks j and
    j + L (:func:`textbcv.split.balance.deal` with two children per parent,
    sizes from :func:`block_targets`). Every bisection is balanced for every
    category (rarest-category dealing, then swap descent), so every block of
    level N holds about ⌊C/N⌋ or ⌈C/N⌉ of every category with C ≥ N·(a few)
    occurrences — the optimum of Σ over the N − 1 halves of the χ² numerators
    (see :mod:`textbcv.split.balance`). Levels are built lazily and cached, so
    the blocks of level N never depend on whether a deeper level was asked for.

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item (1 for plain sentences).
    X, W : StackedCounts or sparse (n_items, K), and (K,)
        Balancing objective (:func:`textbcv.split.balance.objective`); K may be 0.
    seed : int
    effort : float
        Scales the refinement budget of every bisection (0: dealing only).
    balance : bool
        False places items at random (sizes still near-equal).

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
        if not self.balance or self.X.shape[1] == 0:
            self.X, self.W = sp.csr_matrix((n, 0)), np.zeros(0)
            self._order = np.lexsort((rng.permutation(n), -self.weight))
        else:
            self._order = rarity_order(self.X, self.weight, rng)
        self.leaves = min(self.n_leaves, 2 ** int(np.floor(np.log2(n))))

    @property
    def n_items(self) -> int:
        return len(self.weight)

    def max_m(self) -> int:
        """Largest m these items allow."""
        return max_m(self.n_items)

    def _level(self, N: int) -> np.ndarray:
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
        """Rename the leaf blocks so that the halves are even on ``counts`` (per item, per measure).

        The labels are :func:`textbcv.split.labels.best_labels` of the leaves'
        counts; the search runs only when these blocks balance (``effort`` > 0,
        categories to balance) and :func:`textbcv.split.labels.affordable_starts`
        allows it, else the labels stay as dealt.
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
        """Rename leaf block b to ``perm[b]`` (deeper levels are rebuilt from the renamed leaves).

        Examples
        --------
        >>> nb = NestedBlocks(np.ones(8, int), sp.csr_matrix((8, 0)), np.zeros(0), seed=0, n_leaves=4)
        >>> before = nb.blocks(4)
        >>> nb.relabel(np.array([1, 0, 2, 3]))
        >>> bool((nb.blocks(4) == np.array([1, 0, 2, 3])[before]).all())
        True
        """
        leaves = self._level(self.leaves)
        self._levels = {self.leaves: np.asarray(perm)[leaves]}

    def blocks(self, N: int) -> np.ndarray:
        """Block id (0..N-1) of every item at level N (a power of two ≥ 4)."""
        if N < 4 or N & (N - 1):
            raise InputError(f"the number of blocks must be a power of two ≥ 4, got {N}")
        if N > 2 ** int(np.floor(np.log2(self.n_items))):
            raise InputError(f"{N} blocks need at least {N} items, got {self.n_items}")
        return self._level(N)
