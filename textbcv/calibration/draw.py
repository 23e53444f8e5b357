"""The data sets a calibration draws from a corpus: whole documents, else sentences.

Each data set is drawn on its own from the whole corpus (data sets may share sentences), from a
generator seeded by the calibration's seed and the data set's number, so data set ``r`` is the same
whatever ``--jobs`` is, and a resumed calibration draws exactly the data sets it would have drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["draw_data_set", "split_seed"]


def draw_data_set(r: int, size: int, n_sentences: int, documents: list[list[int]] | None = None,
                  seed: int | Sequence[int] = 0) -> np.ndarray:
    """Sentence indices (sorted) of data set ``r``.

    Parameters
    ----------
    r : int
        The data set's number (0, 1, ...).
    size : int
        Sentences wanted. With documents, whole documents in a random order are taken until at least
        ``size`` sentences are in, so a data set may hold a few more (never a part of a document).
    n_sentences : int
        Sentences in the corpus.
    documents : list of list of int, optional
        The corpus's documents as sentence indices; None (or a single document) draws sentences.
    seed : int or sequence of int
        The calibration's seed (the generator is seeded with the seed's numbers, then ``r``).

    Returns
    -------
    numpy.ndarray
        Sorted int64 sentence indices, no repeats.

    Examples
    --------
    >>> draw_data_set(0, 3, 10, seed=1).tolist() == draw_data_set(0, 3, 10, seed=1).tolist()
    True
    >>> len(draw_data_set(0, 3, 10))
    3
    >>> sorted(set(draw_data_set(1, 3, 6, documents=[[0, 1], [2, 3], [4, 5]]).tolist()) & {0, 1}) in ([], [0, 1])
    True
    """
    if not 1 <= size <= n_sentences:
        raise ValueError(f"size must be between 1 and the corpus's {n_sentences} sentences, got {size}")
    rng = np.random.default_rng([seed, r] if isinstance(seed, int) else [*seed, r])
    if documents is not None and len(documents) > 1:
        out: list[int] = []
        for d in rng.permutation(len(documents)):
            out.extend(documents[d])
            if len(out) >= size:
                break
        return np.array(sorted(out), dtype=np.int64)
    return np.sort(rng.choice(n_sentences, size=size, replace=False)).astype(np.int64)


def split_seed(seed: int, r: int) -> int:
    """The seed of data set ``r``'s splits: every pair compared on the data set (its null pairs, its close pair) is
    compared on the same folds.

    Parameters
    ----------
    seed : int
        The calibration's seed.
    r : int
        The data set's number.

    Returns
    -------
    int
        A seed below 2³¹, drawn from a generator seeded by ``(seed, r, 1)``.

    Examples
    --------
    >>> split_seed(0, 3) == split_seed(0, 3) != split_seed(0, 4)
    True
    """
    return int(np.random.default_rng([seed, r, 1]).integers(2 ** 31))
