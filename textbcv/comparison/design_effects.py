"""Design effects of a comparison's folds: which test sentences cluster together, and by how much.

Glue between the fold records (per-sentence counts) and
:mod:`textbcv.stats.clustering`: :func:`fold_clusters` says which cluster
(document, else sentence) every test sentence of every fold belongs to, and
:func:`design_effects_of` measures each system's design effect from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.corpus import Corpus
from textbcv.errors import InputError

__all__ = ["fold_clusters", "design_effects_of"]


def fold_clusters(splits, corpus: Corpus) -> dict:
    """The cluster of every test sentence of every fold, in test order (the order of ``sentence_counts``).

    Documents where the corpus marks at least two (new text comes as new documents: the design
    effect is measured over them whatever unit the splits kept whole), else sentences. Returns
    ``{"clusters": "documents" | "sentences", "folds": {(split, direction): array}, "ids": {...}}``:
    ``folds`` holds the document ids (empty with sentences as clusters: each its own), ``ids`` the
    cluster of every test sentence in one numbering for all folds (document ids, else the sentences'
    indices in the corpus), which the paired posterior needs (a sentence is tested once per split).

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
        return {"clusters": "documents", "folds": folds, "ids": folds}
    return {"clusters": "sentences", "folds": {}, "ids": tests}


def design_effects_of(records: Mapping, names: Sequence[str], m: int, clusters: dict | None) -> dict:
    """Each system's design effect (:mod:`textbcv.stats.clustering`) from its folds' per-sentence counts.

    ``records``: fold records by ``(system, split, direction)`` (a FoldStore's ``records``).

    Returns ``{"clusters", "folds": {name: [[deff P, R, F1] per fold]}, "pooled": {name: {metric: deff}}}``;
    an InputError when a fold has no per-sentence counts (runs of textbcv before 0.1 saved none).

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
        As above: per fold, the ratio of the clustered to the count-based variance (None where not finite);
        pooled, their mean over the folds, floored at 1.
    """
    from textbcv.stats.clustering import design_effect, pooled_design_effect

    clusters = clusters or {"clusters": "sentences", "folds": {}}
    out: dict = {"clusters": clusters["clusters"], "folds": {}, "pooled": {}}
    for n in names:
        effects = []
        for j in range(m):
            for k in (0, 1):
                rec = records[(n, j, k)]
                if "sentence_counts" not in rec:
                    raise InputError(f'{{variant}}="clustered" needs the per-sentence counts of every fold, and fold '
                                     f"{j},{k} of {n!r} has none (a run of an older textbcv): choose another "
                                     f"{{variant}}, "
                                     f"e.g. adaptive", param="variant")
                groups = clusters["folds"].get((j, k))
                effects.append(design_effect(np.asarray(rec["sentence_counts"], dtype=float).reshape(-1, 3), groups))
        out["folds"][n] = [[e.to_dict()["deff"][x] for x in ("precision", "recall", "f1")] for e in effects]
        out["pooled"][n] = pooled_design_effect(effects)
    return out
