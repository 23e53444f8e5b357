"""The data sets a calibration draws from a corpus: whole files (asked for), whole documents, else sentences.

Data set ``r`` depends only on the seed and ``r``, so it is the same whatever ``--jobs`` is, and on resume.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.split.profiles import file_ids

__all__ = ["fixed_parts", "draw_data_set", "drawn_units", "split_seed"]


def drawn_units(corpus, group_by: str | None = None) -> list[list[int]] | None:
    """What a data set is drawn of: whole files with ``group_by="file"``, else whole documents where the corpus marks
    them, else sentences (None).

    Parameters
    ----------
    corpus : Corpus
    group_by : str or None
        The comparisons' units (``compare``'s ``group_by``).

    Returns
    -------
    list of list of int, or None
        The sentence indices of every unit, in corpus order.

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> c = Corpus([Sentence(("a",), document=i // 2, source=f"f{i % 2}") for i in range(4)], ["f0", "f1"], "conll")
    >>> drawn_units(c), drawn_units(c, "file")
    ([[0, 1], [2, 3]], [[0, 2], [1, 3]])
    """
    if group_by == "file":
        fid = file_ids(corpus)
        return [np.flatnonzero(fid == i).tolist() for i in range(int(fid.max()) + 1)]
    return corpus.documents if corpus.n_documents > 1 else None


def draw_data_set(r: int, size: int, n_sentences: int, documents: list[list[int]] | None = None,
                  seed: int | Sequence[int] = 0) -> np.ndarray:
    """Sorted, distinct sentence indices of data set ``r``.

    Parameters
    ----------
    r : int
    size : int
        Sentences wanted; with documents, whole documents until at least ``size``.
    n_sentences : int
    documents : list of list of int, optional
        Sentence indices per document; None (or one document) draws sentences.
    seed : int or sequence of int

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> len(draw_data_set(0, 3, 10))
    3
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
    """The seed of data set ``r``'s splits, shared by every pair compared on it.

    Parameters
    ----------
    seed : int
    r : int

    Returns
    -------
    int

    Examples
    --------
    >>> split_seed(0, 3) == split_seed(0, 3) != split_seed(0, 4)
    True
    """
    return int(np.random.default_rng([seed, r, 1]).integers(2 ** 31))


def fixed_parts(data, r: int, test_share: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Data set ``r`` cut once into a training and a test set: whole documents (else sentences) drawn into the test
    set until it holds ``test_share`` of the sentences; the rest trains.

    Parameters
    ----------
    data : Corpus
        The drawn data set.
    r : int
    test_share : float
        In (0, 1).
    seed : int

    Returns
    -------
    (ndarray, ndarray)
        The training and the test sentences' indices in ``data``, sorted.

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> c = Corpus([Sentence(("a",), document=i // 2) for i in range(20)], [], "conll")
    >>> train, test = fixed_parts(c, 0, 0.2)
    >>> len(train), len(test), sorted({i // 2 for i in test.tolist()}) == sorted({i // 2 for i in test.tolist()})
    (16, 4, True)
    """
    units = drawn_units(data) or [[i] for i in range(len(data))]
    rng = np.random.default_rng([seed, r, 1])
    test: list[int] = []
    for u in rng.permutation(len(units)):
        if len(test) >= test_share * len(data):
            break
        test.extend(units[u])
    chosen = np.zeros(len(data), dtype=bool)
    chosen[test] = True
    return np.flatnonzero(~chosen).astype(np.int64), np.flatnonzero(chosen).astype(np.int64)
