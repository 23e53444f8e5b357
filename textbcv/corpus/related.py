"""Which clusters of a corpus are related: documents (else sentences) that share a rare gold chunk.

A tagger learns the names it is trained on. When two documents of a corpus share a name that is rare in
it (a person, a club, a word seen in a few documents only), a model trained on a half that holds one of
them tags the other better, and the two documents' errors move together: over the folds of m×2
cross-validation they are on opposite sides of some splits and on the same side of others, and what the
corpus happens to hold of such pairs moves every fold's score alike. New text has its own such names,
which no training half holds. The paired ΔF1 posterior (:mod:`textbcv.stats.paired`) therefore counts
the covariance of related clusters, as a cluster variance counts the covariance of a document's
sentences.

A chunk's *name* is its type and its tokens. Two clusters are related when they share a name found in
at least two and at most :data:`RELATED_MOST` clusters of the corpus. The rarer a name, the more whether
a model saw it depends on the split: a name in two clusters is in the training half of one of them half
the time, a name in many is in nearly every training half. The bound 3 was chosen on the real-text study
of differences (docs/RESULTS.md): 2 left the study's 18-point CoNLL-2003 pair's interval short of its
error, and 4 made the intervals of SIGHAN MSR's pairs (sentences as clusters, every word a chunk) wider
than theirs.
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
        The corpus whose sentences the clusters group (its gold chunks are read).
    cluster_ids : sequence of int
        The cluster of every sentence of ``corpus``, in corpus order (document ids, or the sentences' own
        indices when every sentence is its own cluster).
    most : int
        A name links clusters when it is found in 2 … ``most`` clusters (default :data:`RELATED_MOST`);
        ``most`` < 2 links none.

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
    Three documents; "Oslo" is in the first and the third, "Europe" in all three (with ``most=2`` too
    common to link):

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
