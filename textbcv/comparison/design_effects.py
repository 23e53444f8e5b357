"""What a comparison's per-sentence counts give: the test sentences' clusters, design effects, paired posteriors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.corpus import Corpus
from textbcv.corpus.related import related_clusters
from textbcv.errors import InputError
from textbcv.stats.clustering import design_effect, pooled_design_effect
from textbcv.stats.paired import PairedDifference, paired_differences

__all__ = ["fold_clusters", "sentence_statistics", "design_effects_of"]

#: what :func:`sentence_statistics` answers: the design effects (or None) and the paired posteriors (or None)
SentenceStatistics = tuple[dict | None, dict[tuple[str, str], dict[str, PairedDifference]] | None]


def fold_clusters(splits, corpus: Corpus) -> dict:
    """The cluster of every test sentence of every fold, in test order.

    Clusters are documents where the corpus marks at least two, else sentences.

    Parameters
    ----------
    splits : SplitSet
        The splits of the comparison.
    corpus : Corpus
        The corpus split, with its document ids.

    Returns
    -------
    dict
        ``clusters`` (``"documents"`` or ``"sentences"``), ``folds`` ((split, direction) → document ids; empty with
        sentences), ``ids`` (every test sentence's cluster in one numbering for all folds) and ``related`` (pairs of
        clusters that share a rare name).
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
    """The design effects of every system and the paired posteriors of every pair, from the first m splits' folds.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, each with ``sentence_counts`` (and the seed counts of a
        system trained with several seeds).
    names : sequence of str
        The systems, in input order; every pair (a before b) is built.
    m : int
        Number of splits used.
    clusters : dict or None
        :func:`fold_clusters`' answer; None makes every sentence its own cluster, with no paired posterior.
    design_effects, paired : bool
        Which of the two to measure.

    Returns
    -------
    tuple
        ``(design_effects, paired)``, each None when not asked; ``paired`` is also None when ``clusters`` gives no
        ids for some fold. ``design_effects``: ``{"clusters", "folds": {name: [[deff P, R, F1] per fold]},
        "pooled": {name: {metric: deff}}}``; per fold the clustered over the count-based variance (None where not
        finite), pooled the folds' mean floored at 1.

    Raises
    ------
    InputError
        When a fold has no per-sentence counts.
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
    """Each system's design effect from its folds' per-sentence counts (the first part of :func:`sentence_statistics`).

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, each with ``sentence_counts``.
    names : sequence of str
        The systems.
    m : int
        Number of splits used.
    clusters : dict or None
        :func:`fold_clusters`' answer; None makes every sentence its own cluster.

    Returns
    -------
    dict
        As :func:`sentence_statistics`' ``design_effects``.

    Raises
    ------
    InputError
        When a fold has no per-sentence counts.
    """
    deff, _ = sentence_statistics(records, names, m, clusters, paired=False)
    assert deff is not None
    return deff


