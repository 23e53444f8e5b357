"""What a comparison's per-sentence counts give: which test sentences cluster together, each system's design
effect, and the paired posteriors of the systems' differences.

Glue between the fold records (per-sentence counts) and :mod:`textbcv.stats`:
:func:`fold_clusters` says which cluster (document, else sentence) every test
sentence of every fold belongs to; :func:`sentence_statistics` reads the folds'
per-sentence counts once and measures from them each system's design effect
(:mod:`textbcv.stats.clustering`) and the paired posterior of every pair's
differences (:mod:`textbcv.stats.paired`); :func:`design_effects_of` and
:func:`paired_of` give one of the two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.corpus import Corpus
from textbcv.corpus.related import related_clusters
from textbcv.errors import InputError
from textbcv.stats.clustering import design_effect, pooled_design_effect
from textbcv.stats.paired import PairedDifference, paired_differences

__all__ = ["fold_clusters", "sentence_statistics", "design_effects_of", "paired_of"]

#: what :func:`sentence_statistics` answers: the design effects (or None) and the paired posteriors (or None)
SentenceStatistics = tuple[dict | None, dict[tuple[str, str], dict[str, PairedDifference]] | None]


def fold_clusters(splits, corpus: Corpus) -> dict:
    """The cluster of every test sentence of every fold, in test order (the order of ``sentence_counts``).

    Documents where the corpus marks at least two (new text comes as new documents: the design
    effect is measured over them whatever unit the splits kept whole), else sentences. Returns
    ``{"clusters": "documents" | "sentences", "folds": {(split, direction): array}, "ids": {...},
    "related": array}``: ``folds`` holds the document ids (empty with sentences as clusters: each its
    own), ``ids`` the cluster of every test sentence in one numbering for all folds (document ids, else
    the sentences' indices in the corpus), which the paired posterior needs (a sentence is tested once
    per split), and ``related`` the pairs of clusters that share a rare name
    (:func:`textbcv.corpus.related.related_clusters`), whose covariance the paired posterior counts.

    Parameters
    ----------
    splits : SplitSet
        The splits of the comparison (:class:`textbcv.split.SplitSet`); its ``folds()`` give the test halves.
    corpus : Corpus
        The corpus split, with its document ids.
    """
    tests = {(j, k): np.asarray(test, dtype=np.int64) for j, k, _tr, test in splits.folds()}
    if corpus.n_documents > 1:
        doc = np.asarray(corpus.document_ids)
        folds = {key: doc[test] for key, test in tests.items()}
        return {"clusters": "documents", "folds": folds, "ids": folds, "related": related_clusters(corpus, doc)}
    return {"clusters": "sentences", "folds": {}, "ids": tests,
            "related": related_clusters(corpus, np.arange(len(corpus)))}


def sentence_statistics(records: Mapping, names: Sequence[str], m: int, clusters: dict | None,
                        design_effects: bool = True, paired: bool = True) -> SentenceStatistics:
    """The design effects of every system and the paired posteriors of every pair, from the per-sentence counts of
    the first m splits' folds (read once, both measured from the same arrays).

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)`` (a FoldStore's ``records``), each with ``sentence_counts``
        (and ``seed_counts`` / ``seed_sentence_counts`` for a system trained with several seeds).
    names : sequence of str
        The systems, in input order; every pair (a before b) is built.
    m : int
        Number of splits: the first ``m`` splits' 2m folds are used.
    clusters : dict or None
        :func:`fold_clusters`' answer; None takes every sentence as its own cluster (and gives no paired posterior:
        that needs the test sentences' ids).
    design_effects, paired : bool
        Which of the two to measure (default both).

    Returns
    -------
    tuple
        ``(design_effects, paired)``. ``design_effects``: ``{"clusters", "folds": {name: [[deff P, R, F1] per
        fold]}, "pooled": {name: {metric: deff}}}`` (per fold, the ratio of the clustered to the count-based
        variance, None where not finite; pooled, their mean over the folds, floored at 1), or None when not asked.
        ``paired``: ``(a, b)`` → metric → :class:`~textbcv.stats.paired.PairedDifference`, or None when not asked
        or when ``clusters`` gives no ids for some fold (the answer then falls back to independent posteriors).

    Raises
    ------
    InputError
        When a fold has no per-sentence counts (runs of textbcv before 0.1 saved none).
    """
    clusters = clusters or {"clusters": "sentences", "folds": {}}
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    per_sentence: dict[str, list[np.ndarray]] = {}
    for n in names:
        per_sentence[n] = []
        for j, k in folds:
            rec = records[(n, j, k)]
            if "sentence_counts" not in rec:
                raise InputError(f'{{variant}}="clustered" needs the per-sentence counts of every fold, and fold '
                                 f"{j},{k} of {n!r} has none (a run of an older textbcv): choose another "
                                 f"{{variant}}, "
                                 f"e.g. adaptive", param="variant")
            per_sentence[n].append(np.asarray(rec["sentence_counts"], dtype=np.int64).reshape(-1, 3))
    ids: dict = clusters.get("ids") or {}
    paired = paired and all(f in ids for f in folds)
    seeds = {n: [np.array([[c["tp"], c["fp"], c["fn"]] for c in records[(n, j, k)]["seed_counts"].values()])
                 for j, k in folds]
             for n in names if paired and all("seed_counts" in records[(n, j, k)] for j, k in folds)}
    seed_sentences = {n: [np.array(list(records[(n, j, k)]["seed_sentence_counts"].values()), dtype=np.int64)
                          .reshape(len(records[(n, j, k)]["seed_sentence_counts"]), -1, 3) for j, k in folds]
                      for n in names
                      if paired and all("seed_sentence_counts" in records[(n, j, k)] for j, k in folds)}
    # the statistics, from the arrays above
    deff = None
    if design_effects:
        effects = {n: [design_effect(x.astype(float), clusters["folds"].get(f)) for x, f in zip(per_sentence[n], folds)]
                   for n in names}
        deff = {"clusters": clusters["clusters"],
                "folds": {n: [[e.to_dict()["deff"][x] for x in ("precision", "recall", "f1")] for e in effects[n]]
                          for n in names},
                "pooled": {n: pooled_design_effect(effects[n]) for n in names}}
    pd = (paired_differences(per_sentence, [ids[f] for f in folds], m, cluster_unit=clusters["clusters"],
                             seed_counts=seeds or None, seed_sentence_counts=seed_sentences or None,
                             related=clusters.get("related"))
          if paired else None)
    return deff, pd


def design_effects_of(records: Mapping, names: Sequence[str], m: int, clusters: dict | None) -> dict:
    """Each system's design effect (:mod:`textbcv.stats.clustering`) from its folds' per-sentence counts: the first
    part of :func:`sentence_statistics`.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, each with ``sentence_counts``.
    names : sequence of str
        The systems.
    m : int
        Number of splits: the first ``m`` splits' 2m folds are measured.
    clusters : dict or None
        :func:`fold_clusters`' answer; None takes every sentence as its own cluster.

    Returns
    -------
    dict
        ``{"clusters", "folds": {name: [[deff P, R, F1] per fold]}, "pooled": {name: {metric: deff}}}``: per fold,
        the ratio of the clustered to the count-based variance (None where not finite); pooled, their mean over the
        folds, floored at 1.

    Raises
    ------
    InputError
        When a fold has no per-sentence counts (runs of textbcv before 0.1 saved none).
    """
    deff, _ = sentence_statistics(records, names, m, clusters, paired=False)
    assert deff is not None
    return deff


def paired_of(records: Mapping, names: Sequence[str], m: int,
              clusters: dict | None) -> dict[tuple[str, str], dict[str, PairedDifference]] | None:
    """The paired posteriors of every pair's differences (:func:`textbcv.stats.paired.paired_differences`) from the
    folds' per-sentence counts: the second part of :func:`sentence_statistics`.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, each with ``sentence_counts`` (and ``seed_counts`` for a
        system trained with several seeds).
    names : sequence of str
        The systems, in input order; every pair (a before b) is built.
    m : int
        Number of splits: the first m splits' 2m folds are used.
    clusters : dict or None
        :func:`fold_clusters`' answer (its ``ids`` and ``clusters``).

    Returns
    -------
    dict or None
        ``(a, b)`` → metric → :class:`~textbcv.stats.paired.PairedDifference`; None when ``clusters`` gives no ids
        for some fold.
    """
    return sentence_statistics(records, names, m, clusters, design_effects=False)[1]
