"""Which clusters of a corpus are related: documents (else sentences) that share a rare gold chunk.

See docs/method.md, "The difference, paired".
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from textbcv.corpus.model import Corpus

__all__ = ["RELATED_MOST", "related_clusters"]

#: A name links the clusters that hold it when it is found in at least 2 and at most this many clusters.
RELATED_MOST = 3


def related_clusters(corpus: Corpus, cluster_ids: Sequence[int] | np.ndarray,
                     most: int = RELATED_MOST) -> np.ndarray:
    """Pairs of clusters that share a rare name (a gold chunk's type and tokens).

    Parameters
    ----------
    corpus : Corpus
    cluster_ids : sequence of int
        The cluster of every sentence, in corpus order.
    most : int
        A name links clusters when found in 2 … ``most`` clusters; ``most`` < 2 links none.

    Returns
    -------
    ndarray of shape (L, 2), int64
        Each related pair once, as (smaller id, larger id), sorted.

    Raises
    ------
    ValueError
        When ``cluster_ids`` does not give one cluster per sentence.

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> s = [Sentence(("Oslo", "wins"), ("B-LOC", "O"), "iob2"),
    ...      Sentence(("Europe", "votes"), ("B-LOC", "O"), "iob2"),
    ...      Sentence(("Europe", "and", "Oslo"), ("B-LOC", "O", "B-LOC"), "iob2"),
    ...      Sentence(("Europe",), ("B-LOC",), "iob2")]
    >>> related_clusters(Corpus(s, [], "conll"), [0, 0, 1, 2], most=2).tolist()
    [[0, 1]]
    """
    ids = np.asarray(cluster_ids, dtype=np.int64).ravel()
    if len(ids) != len(corpus):
        raise ValueError(f"one cluster per sentence is needed ({len(corpus)} sentences, {len(ids)} clusters)")
    holders: dict[tuple, set[int]] = {}
    for g, sent in zip(ids.tolist(), corpus.sentences):
        toks = sent.tokens
        for start, end, kind in sent.chunks:
            holders.setdefault((kind, toks[start:end]), set()).add(g)
    pairs: set[tuple[int, int]] = set()
    for held in holders.values():
        if 2 <= len(held) <= most:
            pairs.update(combinations(sorted(held), 2))
    return np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
