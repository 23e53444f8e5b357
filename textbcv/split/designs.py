"""The split designs: m×2 BCV and the designs it is compared with (docs/method.md §3).

:func:`build` makes the split set of a design (:data:`METHODS`) over the items
of :mod:`textbcv.split.profiles`: the balancing objective
(:func:`textbcv.split.balance.objective`), the design's blocks or halves, the
sentences of every half and the quality block. Nested BCV (``bcv``,
``bcv-select``) gives a :class:`textbcv.split.nested.NestedSplits`, which can
later give more or fewer splits from the same blocks; the others give a
:class:`textbcv.split.manifest.SplitSet`.

- :func:`balanced_blocks` — nested blocks balanced by dealing, leaf labels evening out the halves (``bcv``).
- :func:`select_blocks` — the thesis's best of R random nested block sets (``bcv-select``).

The other designs return a list of boolean training-half masks over *items*
(units or groups); validation = the complement.

- :func:`random_mx2` — Dietterich's m×2 CV: m independent random halvings.
- :func:`brhs` — regularized balanced repeated half-sampling (Algorithm 2.1), J even.
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
    """The split set of one design over ``items``: balanced on ``items.counts``, quality over ``items.report``.

    ``m`` and the options are those of :func:`textbcv.split.make.split_units`,
    which checks them.

    Parameters
    ----------
    items : Items
        The items to place (:func:`textbcv.split.profiles.corpus_items` or ``items_of``), with the counts to
        balance (``counts``) and to report (``report``; None for no quality block).
    m : int
        Number of splits (BRHS: J = 2m half-samples).
    method : str
        One of :data:`METHODS`: ``"bcv"`` (default), ``"bcv-select"``, ``"random"``, ``"brhs"``.
    seed : int
        Seed of every random step (default 0).
    weights : dict of str to float, optional
        Weight of every measure in the balancing objective (default
        :data:`textbcv.split.balance.DEFAULT_WEIGHTS`).
    effort : float
        Scales the balancing search (default 1.0; 0: dealing only).
    select : int
        Random block sets drawn by ``bcv-select`` (default 100).
    options : dict, optional
        Recorded in the manifest's ``options`` (``bcv-select`` adds its draw and score).

    Returns
    -------
    SplitSet
        A :class:`textbcv.split.nested.NestedSplits` for ``bcv`` and ``bcv-select``; sentence indices
        in both halves of every split.

    Raises
    ------
    InputError
        For fewer than 4 items, an m the items cannot give, or an unknown method.

    Examples
    --------
    >>> from textbcv.split.profiles import items_of
    >>> s = build(items_of(10, report={}), 3, "random", seed=0)
    >>> type(s).__name__, [len(t) for t, v in s.splits]
    ('SplitSet', [5, 5, 5])
    >>> type(build(items_of(10), 3)).__name__
    'NestedSplits'
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
    """Nested blocks balanced on the items' counts, leaves labelled to even out the halves (``bcv``).

    See :class:`textbcv.split.bcv.NestedBlocks` and its ``label_leaves``.

    Parameters
    ----------
    items : Items
        The items and their per-item ``counts`` to balance.
    seed : int
        Seed of the blocks (default 0).
    weights : dict of str to float, optional
        Weight of every measure in the objective (default :data:`textbcv.split.balance.DEFAULT_WEIGHTS`).
    effort : float
        Scales the refinement of every bisection (default 1.0; 0: dealing only).

    Returns
    -------
    NestedBlocks
        Balanced when there are counts to balance, else size-blind at random.
    """
    X, W = _objective(items, weights)
    blocks = NestedBlocks(items.weight, X, W, seed=seed, effort=effort, balance=bool(X.shape[1]))
    blocks.label_leaves(items.counts)
    return blocks


def select_blocks(items: Items, m: int, R: int, seed: int) -> tuple[NestedBlocks, int, float]:
    """The thesis's selection: R random nested block sets, the best by its largest χ²/J (over halves, measures).

    Returns the chosen blocks, the index of the chosen draw and its score.

    Parameters
    ----------
    items : Items
        The items; their ``counts`` score each draw (no counts: every score is 0 and the first draw wins).
    m : int
        Number of splits the halves are scored for.
    R : int
        Number of random (unbalanced) block sets drawn; at least 1.
    seed : int
        Seed of the draws: draw r uses a seed derived from ``(seed, r)``.

    Returns
    -------
    blocks : NestedBlocks
        The chosen draw's blocks.
    r : int
        Its index (0 ≤ r < R).
    score : float
        Its largest χ²/J over the m halves and the measures (:func:`textbcv.split.quality.max_chi2_per_df`).

    Examples
    --------
    >>> from textbcv.split.profiles import items_of
    >>> rng = np.random.default_rng(0)
    >>> lab = sp.csr_matrix((np.ones(64), (np.arange(64), rng.integers(0, 3, 64))))
    >>> nb, r, score = select_blocks(items_of(64, measures={"label": lab}), 3, 20, 0)
    >>> 0 <= r < 20, score < 1
    (True, True)
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
    """Place items into B blocks of near-equal size (in sentences), balanced on X when given.

    Parameters
    ----------
    weight : numpy.ndarray of int, shape (n_items,)
        Sentences per item.
    B : int
        Number of blocks (at most the number of items).
    rng : numpy.random.Generator
        Source of the random placement.
    X : StackedCounts or scipy.sparse.csr_matrix, optional
        Per-item counts to balance (:func:`textbcv.split.balance.objective`); None or no columns: random placement.
    W : numpy.ndarray, optional
        Column weights of ``X``; required with ``X``.
    effort : float
        Scales the balancing search (default 1.0).

    Returns
    -------
    numpy.ndarray of int64, shape (n_items,)
        The block (0..B-1) of every item; block sizes in sentences differ by at most one when the weights allow.

    Raises
    ------
    InputError
        When B exceeds the number of items.
    ValueError
        When ``X`` has columns but ``W`` is None.

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
    """m independent random halvings (sizes within one item of half the sentences).

    Parameters
    ----------
    weight : numpy.ndarray of int, shape (n_items,)
        Sentences per item.
    m : int
        Number of halvings.
    rng : numpy.random.Generator
        Source of the random orders.

    Returns
    -------
    list of numpy.ndarray of bool
        m training-half masks over the items: a random prefix of items reaching half of the sentences.

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
    """Regularized balanced repeated half-sampling, Algorithm 2.1 (n1 = n/2, J even): 2J − 2 blocks, J halves.

    Parameters
    ----------
    weight : numpy.ndarray of int, shape (n_items,)
        Sentences per item.
    J : int
        Number of half-samples (even, ≥ 2).
    rng : numpy.random.Generator
        Source of the random placement.
    **kw
        ``X``, ``W``, ``effort``: balance the blocks as :func:`near_equal_blocks` does.

    Returns
    -------
    list of numpy.ndarray of bool
        J training masks over the items.

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
