"""The split designs: nested m×2 BCV (``bcv``, ``bcv-select``) and the designs it is compared with.

The comparison designs return boolean training-half masks over items; validation is the complement.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from textbcv.errors import InputError
from textbcv.split.balance import deal, objective
from textbcv.split.balance.stacking import StackedCounts
from textbcv.split.bcv import NestedBlocks, halves_from_blocks, max_m, n_blocks_for
from textbcv.split.manifest import SplitSet
from textbcv.split.nested import NestedSplits
from textbcv.split.oa import hadamard_matrix
from textbcv.split.profiles import Items
from textbcv.split.quality import max_chi2_per_df, split_quality

__all__ = ["METHODS", "build", "balanced_blocks", "select_blocks", "near_equal_blocks", "random_mx2", "brhs"]

#: The designs :func:`build` makes: nested BCV (balanced, or the thesis's selection) and the comparison designs.
METHODS = ("bcv", "bcv-select", "random", "brhs")


def build(items: Items, m: int, method: str = "bcv", seed: int = 0, *, weights: dict[str, float] | None = None,
          effort: float = 1.0, select: int = 100, options: dict | None = None) -> SplitSet:
    """The split set of one design over ``items``, balanced on ``items.counts``, quality over ``items.report``.

    Parameters
    ----------
    items : Items
        The items to place (:mod:`textbcv.split.profiles`); ``report`` None gives no quality block.
    m : int
        Number of splits (BRHS: J = 2m half-samples).
    method : str
        One of :data:`METHODS` (default ``"bcv"``).
    seed : int
        Seed of every random step (default 0).
    weights, effort, select, options
        As in :func:`textbcv.split.make.split_units`.

    Returns
    -------
    SplitSet
        A :class:`textbcv.split.nested.NestedSplits` for ``bcv`` and ``bcv-select``.

    Raises
    ------
    InputError
        For fewer than 4 items, an m the items cannot give, or an unknown method.

    Examples
    --------
    >>> from textbcv.split.profiles import items_of
    >>> [len(t) for t, v in build(items_of(10, report={}), 3, "random", seed=0).splits]
    [5, 5, 5]
    """
    n_items = items.n_items
    if n_items < 4:
        raise InputError(f"BCV needs at least 4 units (or groups) to form 4 blocks, got {n_items}")
    opts = dict(options or {})
    if method in ("bcv", "bcv-select"):
        if m > max_m(n_items):
            why = f" (m ≤ N − 1 for N = {max_m(n_items) + 1} blocks of ≥ 1 unit)" if method == "bcv" else ""
            raise InputError(f"m = {m} is impossible with {n_items} units: at most {max_m(n_items)}{why}")
        if method == "bcv":
            blocks = balanced_blocks(items, seed, weights, effort)
        else:
            blocks, r, score = select_blocks(items, m, select, seed)
            opts.update({"select": int(select), "selected_draw": int(r), "select_score": round(float(score), 6)})
        return NestedSplits.cut(blocks, items.item, m, method=method, seed=seed, options=opts, report=items.report)
    X, W = _objective(items, weights)
    rng = np.random.default_rng(seed)
    kw = {"X": X, "W": W, "effort": effort} if X.shape[1] else {}
    if method == "random":
        masks = random_mx2(items.weight, m, rng)
    elif method == "brhs":
        masks = brhs(items.weight, 2 * m, rng, **kw)
    else:
        raise InputError(f"unknown split method {method!r} (methods: {', '.join(METHODS)})")
    train = np.array(masks)[:, items.item]  # item masks → sentence masks
    splits = [(np.flatnonzero(t), np.flatnonzero(~t)) for t in train]
    quality = None if items.report is None else split_quality(train, items.report)
    return SplitSet(splits, items.n, method, m, seed, opts, quality)


def _objective(items: Items, weights: dict[str, float] | None) -> tuple[StackedCounts | sp.csr_matrix, np.ndarray]:
    """The balancing objective of the items' counts (no columns when there is nothing to balance)."""
    if items.counts:
        return objective(items.counts, weights)
    return sp.csr_matrix((items.n_items, 0)), np.zeros(0)


def balanced_blocks(items: Items, seed: int = 0, weights: dict[str, float] | None = None,
                    effort: float = 1.0) -> NestedBlocks:
    """Nested blocks balanced on the items' counts (size-blind without counts), leaves relabelled (``bcv``).

    Parameters
    ----------
    items : Items
    seed, weights, effort
        As in :func:`build`.

    Returns
    -------
    NestedBlocks
    """
    X, W = _objective(items, weights)
    blocks = NestedBlocks(items.weight, X, W, seed=seed, effort=effort, balance=bool(X.shape[1]))
    blocks.label_leaves(items.counts)
    return blocks


def select_blocks(items: Items, m: int, R: int, seed: int) -> tuple[NestedBlocks, int, float]:
    """The thesis's selection: of R random nested block sets, the one with the smallest largest χ²/J.

    Parameters
    ----------
    items : Items
        The items; their ``counts`` score each draw (none: the first draw wins).
    m : int
        Number of splits scored.
    R : int
        Number of draws (≥ 1).
    seed : int
        Draw r is seeded from ``(seed, r)``.

    Returns
    -------
    blocks : NestedBlocks
    r : int
        The chosen draw.
    score : float
        Its largest χ²/J over halves and measures.

    Examples
    --------
    >>> from textbcv.split.profiles import items_of
    >>> lab = sp.csr_matrix((np.ones(64), (np.arange(64), np.random.default_rng(0).integers(0, 3, 64))))
    >>> select_blocks(items_of(64, measures={"label": lab}), 3, 20, 0)[2] < 1
    True
    """
    n_items = items.n_items
    best = None
    for r in range(R):
        s = int(np.random.default_rng([seed, r]).integers(2**31))
        nb = NestedBlocks(items.weight, sp.csr_matrix((n_items, 0)), np.zeros(0), seed=s, balance=False)
        masks = halves_from_blocks(nb.blocks(n_blocks_for(m)), m)
        score = max_chi2_per_df(masks, items.counts) if items.counts else 0.0
        if best is None or score < best[2]:
            best = (nb, r, score)
    assert best is not None  # R ≥ 1
    return best


def near_equal_blocks(weight: np.ndarray, B: int, rng: np.random.Generator,
                      X: StackedCounts | sp.csr_matrix | None = None, W: np.ndarray | None = None,
                      effort: float = 1.0) -> np.ndarray:
    """Place items into B blocks of near-equal size in sentences, balanced on X when given.

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item.
    B : int
        Number of blocks.
    rng : numpy.random.Generator
    X, W, effort : optional
        Counts to balance, their column weights (required with X) and the search effort.

    Returns
    -------
    (n_items,) int64 array
        The block of every item.

    Raises
    ------
    InputError
        When B exceeds the number of items.

    Examples
    --------
    >>> np.bincount(near_equal_blocks(np.ones(10, int), 3, np.random.default_rng(0))).tolist()
    [4, 3, 3]
    """
    weight = np.asarray(weight, dtype=np.int64)
    n = len(weight)
    if B > n:
        raise InputError(f"{B} blocks need at least {B} units, got {n}")
    total = int(weight.sum())
    targets = np.full(B, total // B)
    targets[: total % B] += 1
    if X is None or X.shape[1] == 0:
        perm = rng.permutation(n)
        inv = np.empty(n, dtype=np.int64)
        inv[perm] = np.arange(n)
        return deal(sp.csr_matrix((n, 0)), np.zeros(0), weight[perm], np.zeros(n, dtype=np.int64),
                    np.arange(B)[None, :], targets, rng, effort=0)[inv]
    if W is None:
        raise ValueError("X needs its column weights W (textbcv.split.balance.objective gives both)")
    return deal(X, W, weight, np.zeros(n, dtype=np.int64), np.arange(B)[None, :], targets, rng, effort=effort)


def random_mx2(weight: np.ndarray, m: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Dietterich's m×2 CV: m training-half masks over the items, each a random half of the sentences (± 1 item).

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item.
    m : int
        Number of halvings.
    rng : numpy.random.Generator

    Returns
    -------
    list of numpy.ndarray of bool

    Examples
    --------
    >>> [int(h.sum()) for h in random_mx2(np.ones(10, int), 3, np.random.default_rng(0))]
    [5, 5, 5]
    """
    weight = np.asarray(weight, dtype=np.int64)
    out = []
    for _ in range(m):
        perm = rng.permutation(len(weight))
        cum = np.cumsum(weight[perm])
        k = int(np.searchsorted(cum, cum[-1] / 2.0)) + 1 if len(cum) else 0
        mask = np.zeros(len(weight), dtype=bool)
        mask[perm[:k]] = True
        out.append(mask)
    return out


def brhs(weight: np.ndarray, J: int, rng: np.random.Generator, **kw) -> list[np.ndarray]:
    """Regularized balanced repeated half-sampling (Algorithm 2.1, n1 = n/2): J training masks from 2J − 2 blocks.

    Parameters
    ----------
    weight : (n_items,) int array
        Sentences per item.
    J : int
        Number of half-samples (even, ≥ 2).
    rng : numpy.random.Generator
    **kw
        ``X``, ``W``, ``effort`` of :func:`near_equal_blocks`.

    Returns
    -------
    list of numpy.ndarray of bool

    Raises
    ------
    InputError
        For an odd J or J < 2.

    Examples
    --------
    >>> h = brhs(np.ones(12, int), 4, np.random.default_rng(0))   # OA(8): 6 blocks of 2
    >>> len(h), {int(x.sum()) for x in h}
    (4, {6})
    """
    if J < 2 or J % 2:
        raise InputError(f"BRHS needs an even number of splits J ≥ 2, got {J}")
    A = hadamard_matrix(2 * J)[1:, 1:]  # drop the constant row and column
    first = A[0]
    keep = first == -1  # J columns: the level occurring J times in the first row
    A = A[1:, keep]  # 2J − 2 blocks × J splits
    blocks = near_equal_blocks(weight, 2 * J - 2, rng, **kw)
    return [A[blocks, i] == 1 for i in range(J)]
