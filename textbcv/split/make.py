"""Making split sets: a corpus (:func:`make_splits`) or n units (:func:`split_units`) → a manifest.

Both check the options, profile the items, build the design (:mod:`textbcv.split.designs`) and
return a :class:`textbcv.split.manifest.SplitSet`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from textbcv import defaults
from textbcv.corpus.fingerprint import corpus_fingerprints
from textbcv.defaults import GROUP_BY_CHOICES, MIN_CLUSTERS
from textbcv.errors import InputError
from textbcv.split import designs
from textbcv.split.bcv import max_m
from textbcv.split.designs import METHODS
from textbcv.split.manifest import SplitSet
from textbcv.split.profiles import MEASURES, corpus_items, items_of

__all__ = ["make_splits", "split_units", "check_options", "resolve_unit"]


def check_options(m: int, method: str = "bcv", seed: int = 0, *, balance: Sequence[str] | str | None = None,
                  effort: float = 1.0, select: int = 100) -> tuple[str, ...]:
    """Refuse impossible split options, naming the Python parameter; return the balance measures.

    Parameters
    ----------
    m : int
        ≥ 1.
    method : str
        One of :data:`textbcv.split.designs.METHODS`.
    seed : int
        ≥ 0.
    balance : sequence of str or str or None
        Measure names, comma-separated names or ``"none"``; None: nothing to check.
    effort : float
        Non-negative and finite.
    select : int
        ≥ 1.

    Returns
    -------
    tuple of str

    Raises
    ------
    InputError
        Naming the parameter at fault; ``bcv-select`` needs at least one measure.

    Examples
    --------
    >>> check_options(3, balance="label,length")
    ('label', 'length')
    """
    if method not in METHODS:
        raise InputError(f"unknown split method {method!r} (methods: {', '.join(METHODS)})")
    _at_least("m", m, 1)
    _at_least("seed", seed, 0)
    if not (isinstance(effort, (int, float)) and np.isfinite(effort) and effort >= 0):
        raise InputError(f"effort must be a non-negative number, got {effort!r}", param="effort")
    _at_least("select", select, 1)
    if balance is None:
        return ()
    if isinstance(balance, str):
        balance = () if balance == "none" else tuple(x for x in balance.split(",") if x)
    balance = tuple(balance)
    bad = [b for b in balance if b not in MEASURES]
    if bad:
        raise InputError(f"unknown balance measure {bad[0]!r} (measures: {', '.join(MEASURES)}, or none)")
    if method == "bcv-select" and not balance:
        raise InputError("balance: give at least one measure (e.g. label): bcv-select keeps the split set whose halves "
                         "are closest on them", param="balance")
    return balance


def _at_least(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} must be an integer, got {value!r}", param=name)
    if value < low:
        raise InputError(f"{name} must be {'a non-negative integer' if low == 0 else f'at least {low}'}, got {value}",
                         param=name)


def split_units(n: int, m: int = 3, *, method: str = "bcv", measures: dict[str, sp.csr_matrix] | None = None,
                groups=None, seed: int = 0, weights: dict[str, float] | None = None, effort: float = 1.0,
                select: int = 100, quality: bool = True, options: dict | None = None) -> SplitSet:
    """Split n units into m splits (no corpus needed).

    Parameters
    ----------
    n : int
        Number of units.
    m : int
        Number of splits (default 3).
    method : {"bcv", "bcv-select", "random", "brhs"}
        The design; ``brhs`` gives 2m one-way half-samples.
    measures : dict of sparse (n, J), optional
        Category counts per unit to balance.
    groups : array, optional
        Units with equal group ids always share a block.
    seed : int
        Seed of every random step (default 0).
    weights : dict, optional
        Weight of every measure (default :data:`textbcv.split.balance.DEFAULT_WEIGHTS`).
    effort : float
        Balancing effort (0: dealing only).
    select : int
        Block sets drawn by ``bcv-select`` (the best kept).
    quality : bool
        Compute the ``quality`` block.
    options : dict, optional
        Recorded in the manifest.

    Returns
    -------
    SplitSet
        A :class:`textbcv.split.nested.NestedSplits` for ``bcv`` and ``bcv-select``.

    Examples
    --------
    >>> split_units(1003, m=7, seed=1).quality["overlap_max_deviation"] <= 8 / 4
    True
    """
    check_options(m, method, seed, effort=effort, select=select)
    items = items_of(n, groups, measures, report=dict(measures or {}) if quality else None)
    return designs.build(items, m, method, seed, weights=weights, effort=effort, select=select, options=options)


def make_splits(corpus, m: int = 3, method: str = "bcv", balance: Sequence[str] | str | None = defaults.BALANCE,
                group_by: str = defaults.GROUP_BY, seed: int = 0, duplicates_together: bool = True, *,
                weights: dict[str, float] | None = None, effort: float = 1.0, select: int = 100) -> SplitSet:
    """Split a :class:`textbcv.corpus.model.Corpus` into m splits.

    Parameters
    ----------
    corpus : Corpus
    m, method, seed, weights, effort, select
        As in :func:`split_units`.
    balance : sequence of {"label", "lemma", "length"}, or None / "none"
        Measures to balance (default :data:`textbcv.defaults.BALANCE`: none).
    group_by : {"auto", "sentence", "document", "file"}
        The unit kept whole (:func:`resolve_unit`).
    duplicates_together : bool
        With sentences as units, exact duplicates share a block.

    Returns
    -------
    SplitSet

    Raises
    ------
    InputError
        For bad options, or fewer than 4 units.

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> c = Corpus([Sentence((w,), ("O",), "iob2") for w in "abcdefgh"], ["x"], "conll", "iob2")
    >>> s = make_splits(c, m=3, seed=0)
    >>> s.n, len(s.splits), s.quality["overlap_max_deviation"]
    (8, 3, 0.0)
    """
    balance = check_options(m, method, seed, balance=balance or (), effort=effort, select=select)
    unit = resolve_unit(group_by, corpus, m)
    items = corpus_items(corpus, balance, unit, duplicates_together)
    if items.n_items < 4 <= len(corpus) and unit == "sentence" and duplicates_together:
        n = items.n_items
        raise InputError(f"BCV needs at least 4 units to form 4 blocks, got {n}: the corpus's {len(corpus)} "
                         f"sentences are only {n} distinct one{'s' if n != 1 else ''}, and exact duplicates are "
                         "merged into one unit (so that no sentence is trained and tested on in one fold); to split "
                         "them apart anyway, make the splits with textbcv split --keep-duplicates-apart (in Python "
                         "duplicates_together=False) and give them to compare with --splits")
    options = {"balance": list(balance), "group_by": unit,
               "duplicates_together": bool(duplicates_together) and unit == "sentence"}
    if group_by != unit:
        options["group_by_requested"] = group_by
    if effort != 1.0:
        options["effort"] = effort
    s = designs.build(items, m, method, seed, weights=weights, effort=effort, select=select, options=options)
    s.fingerprints = corpus_fingerprints(corpus)
    return s


def resolve_unit(group_by: str, corpus, m: int = 3) -> str:
    """The unit a split keeps whole: ``"auto"`` means documents when the corpus marks enough of them.

    Enough: as many as m splits need, and at least :data:`textbcv.defaults.MIN_CLUSTERS`, the fewest a variance over
    documents stands on (the paired posterior's clusters are the splits' units). Files are units only when asked.

    Parameters
    ----------
    group_by : {"auto", "sentence", "document", "file"}
    corpus : Corpus
    m : int
        Number of splits (default 3).

    Returns
    -------
    str
        ``"document"``, ``"file"`` or ``"sentence"``.

    Raises
    ------
    InputError
        For any other ``group_by``.

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> c = Corpus([Sentence((w,), document=i // 2) for i, w in enumerate("abcdefghij" * 4)], ["x"], "conll")
    >>> resolve_unit("auto", c, m=3), resolve_unit("auto", c, m=31), resolve_unit("auto", c[:20], m=3)
    ('document', 'sentence', 'sentence')
    """
    if group_by not in GROUP_BY_CHOICES:
        raise InputError(f"group_by must be one of {', '.join(GROUP_BY_CHOICES)}, got {group_by!r}", param="group_by")
    if group_by != "auto":
        return group_by
    n_docs = corpus.n_documents
    return "document" if n_docs >= MIN_CLUSTERS and max_m(n_docs) >= m else "sentence"
