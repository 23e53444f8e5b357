"""Per-unit category counts ("profiles") of the balancing measures, and the items a split places whole.

``label`` counts chunk types (untyped chunks: the gold tags; no tags: the POS column), ``lemma`` the
LEMMA column (else the words of segmented text, else lower-cased tokens), ``length`` exact lengths.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from textbcv.errors import InputError

__all__ = ["MEASURES", "LENGTH_EDGES", "LENGTH_RESOLUTIONS", "length_bins", "length_profile", "length_measures",
           "count_matrix", "codes_matrix", "group_rows", "corpus_profiles", "Items", "items_of", "corpus_items",
           "duplicate_groups", "file_ids"]

MEASURES = ("label", "lemma", "length")

#: Left edges of the sentence-length bins (tokens): 1, 2, 3, 4, 5–6, 7–8, 9–11, ..., 101+.
LENGTH_EDGES = np.array([1, 2, 3, 4, 5, 7, 9, 12, 16, 21, 26, 31, 41, 51, 71, 101])


def length_bins(lengths: Sequence[int]) -> tuple[sp.csr_matrix, list[str]]:
    """One-hot matrix of the length bin (:data:`LENGTH_EDGES`) of every unit, and the bin names.

    Parameters
    ----------
    lengths : sequence of int
        Length of every unit in tokens (below 1 counts as 1).

    Returns
    -------
    M : scipy.sparse.csr_matrix, shape (n_units, 16)
    names : list of str

    Examples
    --------
    >>> M, names = length_bins([1, 6, 200])
    >>> M.nonzero()[1].tolist(), names[5], names[-1]
    ([0, 4, 15], '7-8', '101+')
    """
    L = np.asarray(lengths, dtype=np.int64)
    b = np.clip(np.searchsorted(LENGTH_EDGES, np.maximum(L, 1), side="right") - 1, 0, len(LENGTH_EDGES) - 1)
    names = [f"{lo}-{hi - 1}" if hi - 1 > lo else str(lo) for lo, hi in zip(LENGTH_EDGES[:-1], LENGTH_EDGES[1:])]
    names.append(f"{LENGTH_EDGES[-1]}+")
    M = sp.csr_matrix((np.ones(len(L)), (np.arange(len(L)), b)), shape=(len(L), len(LENGTH_EDGES)))
    return M, names


#: Quantile resolutions (number of bins) balanced beside the exact lengths.
LENGTH_RESOLUTIONS = (2, 4, 8, 16, 32, 64, 128, 256)

#: Quantile above which every distinct length is a threshold of the cumulative tail columns.
TAIL = 0.9


def _onehot(codes: np.ndarray, J: int) -> sp.csr_matrix:
    n = len(codes)
    return sp.csr_matrix((np.ones(n), codes, np.arange(n + 1)), shape=(n, J))


def length_profile(lengths: Sequence[int] | np.ndarray) -> tuple[sp.csr_matrix, list[str]]:
    """One-hot matrix of every unit's exact length, and the distinct lengths (ascending) as names.

    Parameters
    ----------
    lengths : sequence of int or numpy.ndarray
        Length of every unit in tokens.

    Returns
    -------
    M : scipy.sparse.csr_matrix, shape (n_units, n_lengths)
    names : list of str

    Examples
    --------
    >>> length_profile([3, 1, 3, 12])[1]
    ['1', '3', '12']
    """
    L = np.asarray(lengths, dtype=np.int64)
    values, codes = np.unique(L, return_inverse=True)
    return _onehot(codes.ravel(), len(values)), [str(v) for v in values]


def length_measures(lengths: Sequence[int] | np.ndarray,
                    resolutions: Sequence[int] = LENGTH_RESOLUTIONS) -> dict[str, sp.csr_matrix]:
    """The balancing columns of the length measure, which keep the whole length distribution even.

    ``length`` holds the exact lengths, ``length:qK`` the bins cut at the K-quantiles (ties merge bins),
    ``length:tail`` one column "length ≥ t" per distinct length t above the :data:`TAIL` quantile.

    Parameters
    ----------
    lengths : sequence of int or numpy.ndarray
        Length of every unit in tokens.
    resolutions : sequence of int
        The numbers of quantile bins K (default :data:`LENGTH_RESOLUTIONS`).

    Returns
    -------
    dict of str to scipy.sparse.csr_matrix

    Examples
    --------
    >>> sorted(length_measures(range(1, 11), resolutions=(2, 4)))
    ['length', 'length:q2', 'length:q4', 'length:tail']
    """
    L = np.asarray(lengths, dtype=np.int64)
    out = {"length": length_profile(L)[0]}
    if not len(L):
        return out
    for k in resolutions:
        edges = np.unique(np.quantile(L, np.arange(1, k) / k, method="inverted_cdf"))
        codes = np.searchsorted(edges, L, side="left")  # bins (e_{k-1}, e_k]
        out[f"length:q{k}"] = _onehot(codes, len(edges) + 1)
    # the tail, where exact lengths are too rare to be kept and quantile bins too wide: one column
    # "length ≥ t" per distinct length t above the TAIL quantile, so any cut in the tail is balanced
    t0 = np.quantile(L, TAIL, method="inverted_cdf")
    ts = np.unique(L[L > t0])
    if len(ts):
        reached = np.searchsorted(ts, L, side="right")  # thresholds each unit reaches
        rows = np.repeat(np.arange(len(L)), reached)
        cols = np.arange(reached.sum()) - np.repeat(np.cumsum(reached) - reached, reached)
        out["length:tail"] = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(L), len(ts)))
    return out


def codes_matrix(rows: np.ndarray, codes: np.ndarray, n: int, J: int) -> sp.csr_matrix:
    """Count matrix (float64) from (unit, category code) occurrence pairs.

    Parameters
    ----------
    rows, codes : numpy.ndarray of int
        The unit and the category code of every occurrence.
    n, J : int
        Number of units and of categories.

    Returns
    -------
    scipy.sparse.csr_matrix, shape (n, J)

    Examples
    --------
    >>> codes_matrix(np.array([0, 0, 1]), np.array([1, 1, 0]), 2, 2).toarray().tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    M = sp.csr_matrix((np.ones(len(rows)), (rows, codes)), shape=(n, J))
    M.sum_duplicates()
    return M


def group_rows(M, groups: np.ndarray, n_groups: int | None = None) -> sp.csr_matrix:
    """Counts per group: the rows of units with the same group id (0..G−1) summed.

    Parameters
    ----------
    M : sparse or dense matrix, shape (n_units, J)
        Counts per unit.
    groups : (n_units,) int array
        The group id of every unit.
    n_groups : int, optional
        G (default ``groups.max() + 1``).

    Returns
    -------
    scipy.sparse.csr_matrix, shape (G, J)

    Examples
    --------
    >>> group_rows(sp.csr_matrix(np.array([[1, 0], [0, 2], [3, 0]])), np.array([0, 1, 0])).toarray().tolist()
    [[4.0, 0.0], [0.0, 2.0]]
    """
    g = np.asarray(groups)
    n = len(g)
    G = sp.csr_matrix((np.ones(n), (g, np.arange(n))), shape=(int(g.max()) + 1 if n_groups is None else n_groups, n))
    return (G @ sp.csr_matrix(M)).tocsr()


def count_matrix(items: Iterable[Iterable[str]], n: int | None = None) -> tuple[sp.csr_matrix, list[str]]:
    """Count matrix (float64) of string categories per unit, and the categories in order of first appearance.

    Parameters
    ----------
    items : iterable of iterables of str
        The categories of every unit (repeats count).
    n : int, optional
        Number of rows (default the number of iterables).

    Returns
    -------
    M : scipy.sparse.csr_matrix, shape (n, J)
    names : list of str

    Examples
    --------
    >>> M, names = count_matrix([["a", "b", "a"], ["b"]])
    >>> M.toarray().tolist(), names
    ([[2.0, 1.0], [0.0, 1.0]], ['a', 'b'])
    """
    vocab = _Codes()
    code = vocab.__getitem__
    # codes in a machine-integer array and a length per unit, not two Python lists of every item
    codes = array("q")
    lengths = array("q")
    for seq in items:
        before = len(codes)
        codes.extend(map(code, seq))
        lengths.append(len(codes) - before)
    n = len(lengths) if n is None else n
    rows = np.repeat(np.arange(len(lengths), dtype=np.int64), np.frombuffer(lengths, dtype=np.int64))
    return codes_matrix(rows, np.frombuffer(codes, dtype=np.int64), n, len(vocab)), list(vocab)


class _Codes(dict):
    """Category -> code in order of first appearance (a new category gets the next code)."""

    def __missing__(self, key: str) -> int:
        code = self[key] = len(self)
        return code


def corpus_profiles(corpus, measures: Sequence[str] = MEASURES) -> dict[str, sp.csr_matrix]:
    """Per measure, the (n_sentences, J) counts of every sentence of ``corpus``.

    Parameters
    ----------
    corpus : Corpus
    measures : sequence of str
        Names among :data:`MEASURES` (default all).

    Returns
    -------
    dict of str to scipy.sparse.csr_matrix

    Raises
    ------
    InputError
        For an unknown measure name.

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> c = Corpus([Sentence(("EU", "rejects"), ("I-ORG", "O"), "iob1")], ["x"], "conll", "iob1")
    >>> corpus_profiles(c)["lemma"].toarray().tolist()
    [[1.0, 1.0]]
    """
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise InputError(f"unknown balance measure {unknown[0]!r} (measures: {', '.join(MEASURES)}, or none)")
    sents = corpus.sentences
    n = len(sents)
    out: dict[str, sp.csr_matrix] = {}
    if "label" in measures:
        chunks = [s.chunks for s in sents]
        if any(t for ch in chunks for _, _, t in ch):
            out["label"] = count_matrix(([t for _, _, t in ch] for ch in chunks), n)[0]
        elif any(s.tags for s in sents):
            out["label"] = count_matrix((s.tags for s in sents), n)[0]
        else:
            out["label"] = count_matrix((s.pos or () for s in sents), n)[0]
    if "lemma" in measures:
        has_lemma = any(s.lemmas and any(x not in ("_", "") for x in s.lemmas) for s in sents)
        if has_lemma:
            out["lemma"] = count_matrix((s.lemmas or () for s in sents), n)[0]
        elif corpus.format == "segmented":
            out["lemma"] = count_matrix((s.words for s in sents), n)[0]
        else:
            out["lemma"] = count_matrix(((t.lower() for t in s.tokens) for s in sents), n)[0]
    if "length" in measures:
        out["length"] = length_profile([len(s) for s in sents])[0]
    return out


@dataclass(frozen=True)
class Items:
    """The items a split places whole (sentences, duplicate groups or documents) and their counts.

    Attributes
    ----------
    item : (n,) int array
        Item of every sentence, items numbered in order of their first sentence.
    weight : (n_items,) int array
        Sentences per item.
    measures, counts : dict of sparse (n, J) and (n_items, J)
        The counts to balance, per sentence and per item.
    report : dict of sparse (n, J), or None
        Counts per sentence for the quality block (None: no quality block).
    """

    item: np.ndarray
    weight: np.ndarray
    measures: dict[str, sp.csr_matrix]
    counts: dict[str, sp.csr_matrix]
    report: dict[str, sp.csr_matrix] | None

    @property
    def n(self) -> int:
        """Number of sentences."""
        return len(self.item)

    @property
    def n_items(self) -> int:
        """Number of items (the length of ``weight``)."""
        return len(self.weight)


def items_of(n: int, groups=None, measures: dict | None = None, report: dict | None = None) -> Items:
    """The items of n sentences: one per sentence, or one per group id.

    Parameters
    ----------
    n : int
        Number of sentences.
    groups : array_like, optional
        A sortable group id per sentence.
    measures, report : dict of str to scipy.sparse matrix, optional
        Per-sentence counts to balance, and for the quality block.

    Returns
    -------
    Items

    Raises
    ------
    InputError
        When ``groups`` does not have n entries.

    Examples
    --------
    >>> it = items_of(4, groups=["b", "a", "b", "c"])
    >>> it.item.tolist(), it.weight.tolist()
    ([0, 1, 0, 2], [2, 1, 1])
    """
    measures = dict(measures or {})
    if groups is None:
        item, weight = np.arange(n), np.ones(n, dtype=np.int64)
        counts = {k: sp.csr_matrix(v) for k, v in measures.items()}
    else:
        g = np.asarray(groups)
        if len(g) != n:
            raise InputError(f"groups has {len(g)} entries for {n} units", param="groups")
        _, first, inv = np.unique(g, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))
        item = rank[inv.ravel()]
        weight = np.bincount(item).astype(np.int64)
        counts = {k: group_rows(v, item, len(weight)) for k, v in measures.items()}
    return Items(item, weight, measures, counts, report)


def file_ids(corpus) -> np.ndarray:
    """The file of every sentence (its ``source``), numbered in order of first occurrence.

    Parameters
    ----------
    corpus : Corpus

    Returns
    -------
    (n_sentences,) int64 array

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> file_ids(Corpus([Sentence(("a",), source=f) for f in "xxyx"], ["x", "y"], "conll")).tolist()
    [0, 0, 1, 0]
    """
    ids: dict = {}
    return np.array([ids.setdefault(s.source, len(ids)) for s in corpus.sentences], dtype=np.int64)


def duplicate_groups(corpus) -> np.ndarray:
    """Group id of every sentence, equal for exact duplicates, in order of first occurrence.

    Parameters
    ----------
    corpus : Corpus

    Returns
    -------
    (n_sentences,) int64 array
    """
    ids: dict = {}
    return np.array([ids.setdefault(s.key(), len(ids)) for s in corpus.sentences], dtype=np.int64)


def corpus_items(corpus, balance: Sequence[str], unit: str, duplicates_together: bool) -> Items:
    """The items of a corpus: all of :data:`MEASURES` reported, those in ``balance`` balanced.

    Parameters
    ----------
    corpus : Corpus
    balance : sequence of str
        Measures to balance (``length`` as :func:`length_measures`).
    unit : {"document", "file", "sentence"}
        What is kept whole.
    duplicates_together : bool
        With sentences as units, exact duplicates form one item.

    Returns
    -------
    Items

    Examples
    --------
    >>> from textbcv.corpus.model import Corpus, Sentence
    >>> c = Corpus([Sentence((w,), ("O",), "iob2") for w in "abab"], ["x"], "conll", "iob2")
    >>> corpus_items(c, ("label",), "sentence", duplicates_together=True).item.tolist()
    [0, 1, 0, 1]
    """
    report = corpus_profiles(corpus)
    measures = {k: v for k, v in report.items() if k in balance}
    if "length" in balance:  # the length distribution itself: exact lengths plus quantile bins
        measures.update(length_measures([len(x) for x in corpus.sentences]))
    if unit == "document":
        groups = np.asarray(corpus.document_ids)
    elif unit == "file":
        groups = np.asarray(file_ids(corpus))
    elif duplicates_together:
        groups = duplicate_groups(corpus)
    else:
        groups = None
    return items_of(len(corpus), groups, measures, report)
