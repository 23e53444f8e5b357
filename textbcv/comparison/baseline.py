"""A most-frequent-tag baseline on the same folds as the compared systems.

Each token gets the tag it had most often in the fold's training half (IOB2 for NER, BMES for word
segmentation; unseen tokens the most frequent tag). A system below it has learned less than a lookup table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.corpus.model import Sentence
from textbcv.report.blocks import Baseline
from textbcv.schemes import decode, encode
from textbcv.scoring import count_chunks
from textbcv.stats.onesplit import chunk_f1
from textbcv.tagging.baseline import LexiconTagger

__all__ = ["baseline_section", "BASELINE_NAME"]

#: How the report names the baseline.
BASELINE_NAME = "most frequent tag"


def baseline_section(sentences: Sequence[Sentence], gold: Sequence[Sequence[tuple]], folds, task: str) -> Baseline:
    """The ``baseline`` block of ``report.json``: the memoriser's counts on every fold and its pooled F1.

    Parameters
    ----------
    sentences : sequence of Sentence
        The corpus as the task sees it.
    gold : sequence of chunk lists
        Gold chunks of every sentence, after the report's chunk filters.
    folds : iterable of (split, direction, train indices, test indices)
        The 2m folds, in fold order.
    task : {"ner", "cws"}
        The task.

    Returns
    -------
    Baseline
        Its ``to_dict()`` is ``{"name", "scheme", "fold_counts", "f1"}``.

    Examples
    --------
    >>> from textbcv.corpus.model import Sentence
    >>> s = [Sentence(("Paris", "is", "big")), Sentence(("Rome", "is", "old")), Sentence(("Paris", "is", "old"))]
    >>> g = [[(0, 1, "LOC")], [(0, 1, "LOC")], [(0, 1, "LOC")]]
    >>> b = baseline_section(s, g, [(0, 0, [0, 1], [2]), (0, 1, [2], [0, 1])], "ner")
    >>> b.fold_counts, round(b.f1, 4)
    (((1, 0, 0), (1, 0, 1)), 0.8)
    """
    scheme = "iob2" if task == "ner" else "bmes"
    tags = [encode(g, len(s), scheme) for s, g in zip(sentences, gold)]
    counts = []
    for _split, _direction, train, test in folds:
        train, test = [int(i) for i in train], [int(i) for i in test]
        tagger = LexiconTagger().fit([sentences[i] for i in train], [tags[i] for i in train])
        pred = [decode(p, scheme) for p in tagger.predict([sentences[i] for i in test])]
        c = count_chunks([gold[i] for i in test], pred).to_dict()["overall"]
        counts.append((int(c["tp"]), int(c["fp"]), int(c["fn"])))
    tot = np.array(counts).sum(axis=0) if counts else np.zeros(3)
    return Baseline(BASELINE_NAME, scheme, tuple(counts), float(chunk_f1(tot)))
