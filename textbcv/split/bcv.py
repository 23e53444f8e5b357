"""m×2 block-regularized cross-validation: nested blocks and splits (docs/method.md §3).

Units (sentences, or groups of them) are placed into blocks. Level N (a power
of two ≥ 4) has N blocks; block j of level N splits into blocks j and j + N at
level 2N, so a block of level N is the union of the level-L blocks ≡ j (mod N)
for any L ≥ N. Split i (0-based) is column i + 1 of Sylvester's Hadamard
matrix H_N: the "+" blocks form its training half. Because Sylvester's column
order is nested, the splits of m = 3 are the first 3 splits of m = 7, 15, 31.

Balanced blocks are built by recursive bisection (level 1 → 2 → 4 → ...),
every bisection balanced for every measure by :func:`textbcv.split.balance.deal`.
Unbalanced blocks never look at a unit's size: units of unequal sizes
(documents, groups of duplicate sentences) are laid out in one random order and
every level's blocks are runs of that order, cut at the unit boundaries nearest
to near-equal sentence targets (:func:`blind_cuts`); units all of one size are
dealt in a random order, which meets the targets exactly. Dealing units of
unequal sizes by size instead spreads every size class evenly over the blocks; with
documents as units that stratifies the halves by document size, and so by
genre (long CoNLL documents are sports tables), which makes every test half
easier than new text (docs/method.md §3).
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
    """Smallest power of two N ≥ 4 with N − 1 ≥ m.

    Parameters
    ----------
    m : int
        Number of splits (replications) wanted.

    Returns
    -------
    int
        The number of blocks N; its Hadamard matrix has the N − 1 ≥ m columns the splits use.

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

    Parameters
    ----------
    n_items : int
        Number of indivisible items (units) to place.

    Returns
    -------
    int
        2^⌊log2 n_items⌋ − 1, the m of the most blocks that each get an item; 0 for fewer than 4 items.

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

    Parameters
    ----------
    total : int
        Number of sentences to share out.
    N : int
        The level: a power of two ≥ 1.

    Returns
    -------
    numpy.ndarray of int64
        Shape (N,): the target size of every block of level N, adding up to ``total``; blocks j and j + N/2
        are the two halves of block j of level N/2.

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


def bit_reversed(p: np.ndarray, N: int) -> np.ndarray:
    """The run at position p of level N (a power of two) is block ``bit_reversed(p, N)``.

    Run p of level N splits into runs 2p and 2p + 1 of level 2N, which are
    blocks j and j + N for j = ``bit_reversed(p, N)``: the nesting of
    :class:`NestedBlocks`.

    Parameters
    ----------
    p : array_like of int
        Run positions, 0 ≤ p < N.
    N : int
        The level (a power of two).

    Returns
    -------
    numpy.ndarray of int64
        For every ``p``, its log2(N)-bit binary digits reversed: the block id of run ``p``.

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
    """Cut every run of level N // 2 in two: the run boundaries of level N (positions in the random order).

    Parameters
    ----------
    cum : (n + 1,) int array
        Sentences in the first i units of the order (``cum[0] = 0``).
    parent : (N // 2 + 1,) int array
        Run boundaries of level N // 2 (``parent[0] = 0``, ``parent[-1] = n``).
    N : int
        The level to cut (a power of two ≥ 2).
    need : int
        Units every run of level N must keep (≥ 1), so that deeper levels stay possible.

    Returns
    -------
    (N + 1,) int array
        Boundaries: run p of level N holds the units at positions
        ``cuts[p]:cuts[p + 1]`` of the order. Every new cut is the unit boundary
        nearest to where the near-equal targets (:func:`block_targets`, in run
        order) put it, moved only as far as ``need`` requires; the targets are
        global, so errors do not add up from level to level.

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
    """Boolean (m, n) matrix: True where a unit is in the training half of split i.

    ``blocks`` are block ids at level N = :func:`n_blocks_for` (m) (or any
    finer power-of-two level; they are reduced mod N).

    Parameters
    ----------
    blocks : array_like of int
        The block id of every unit at level ``n_blocks_for(m)`` or a finer power-of-two level.
    m : int
        Number of splits (1 ≤ m ≤ N − 1).

    Returns
    -------
    numpy.ndarray of bool
        Shape (m, n_units); row i is True where the unit's block has a +1 in column i + 1 of Sylvester's
        Hadamard matrix H_N (the training half of split i).

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

    With nothing to balance and items of unequal sizes, the items are laid out
    in one seeded random order and the blocks of every level are runs of it (:func:`blind_cuts`, run p is
    block :func:`bit_reversed` (p)), so an item's block is independent of its
    size and content, as in random m×2 CV, while block sizes stay within about
    half an item of their targets at every boundary.

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item (1 for plain sentences).
    X, W : StackedCounts or sparse (n_items, K), and (K,)
        Balancing objective (:func:`textbcv.split.balance.objective`); K may be 0.
    seed : int
        Seed of every random step (default 0); each level draws from its own stream.
    effort : float
        Scales the refinement budget of every bisection (0: dealing only).
    balance : bool
        False places items size-blind at random (sizes still near-equal).
    n_leaves : int
        Blocks dealt at once (default 16, at most the largest power of two ≤ n_items); levels up to it are
        these leaves mod N, deeper levels are bisected from them.

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
            :func:`max_m` of :attr:`n_items`.
        """
        return max_m(self.n_items)

    def need(self, N: int) -> int:
        """Items every size-blind block of level N keeps, so that every level up to ``n_leaves`` blocks is full.

        Parameters
        ----------
        N : int
            A level (a power of two).

        Returns
        -------
        int
            max(1, min(largest possible level, ``n_leaves``) // N).
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
        """Rename the leaf blocks so that the halves are even on ``counts`` (per item, per measure).

        The labels are :func:`textbcv.split.labels.best_labels` of the leaves'
        counts; the search runs only when these blocks balance (``effort`` > 0,
        categories to balance) and :func:`textbcv.split.labels.affordable_starts`
        allows it, else the labels stay as dealt.

        Parameters
        ----------
        counts : dict of str to scipy.sparse.csr_matrix
            Per measure (e.g. ``"label"``, ``"lemma"``), the (n_items, categories) counts of every item.
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

        Parameters
        ----------
        perm : numpy.ndarray of int
            A permutation of ``range(leaves)``: the new id of every leaf block.

        Raises
        ------
        ValueError
            For size-blind blocks (items of unequal sizes placed without balancing), which cannot be renamed.

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
        """Block id (0..N-1) of every item at level N (a power of two ≥ 4).

        Parameters
        ----------
        N : int
            Number of blocks: a power of two, 4 ≤ N ≤ 2^⌊log2 n_items⌋.

        Returns
        -------
        numpy.ndarray of int64
            Shape (n_items,): the block of every item (cached per level).

        Raises
        ------
        InputError
            For an N that is not such a power of two, or when size-blind blocks of level N would be empty.
        """
        if N < 4 or N & (N - 1):
            raise InputError(f"the number of blocks must be a power of two ≥ 4, got {N}")
        if N > 2 ** int(np.floor(np.log2(self.n_items))):
            raise InputError(f"{N} blocks need at least {N} items, got {self.n_items}")
        return self._level(N)
