"""What a comparison's per-sentence counts give: the test sentences' clusters, design effects, paired posteriors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from textbcv.corpus import Corpus
from textbcv.corpus.related import related_clusters
from textbcv.defaults import MIN_CLUSTERS
from textbcv.errors import InputError
from textbcv.split.profiles import file_ids
from textbcv.stats.clustering import design_effect, pooled_design_effect
from textbcv.stats.paired import PairedDifference, paired_differences

__all__ = ["check_units", "cluster_units", "fold_clusters", "sentence_statistics", "design_effects_of"]

#: what :func:`sentence_statistics` answers: the design effects (or None) and the paired posteriors (or None)
SentenceStatistics = tuple[dict | None, dict[tuple[str, str], dict[str, PairedDifference]] | None]


#: the splits' unit → the clusters' name in a report
_CLUSTER_NAMES = {"document": "documents", "file": "files"}


def cluster_units(splits, corpus: Corpus) -> tuple[str, np.ndarray | None, str | None]:
    """The posterior's clusters: the splits' units (documents, files or sentences), unless too few to measure over.

    Where the splits keep fewer than :data:`textbcv.defaults.MIN_CLUSTERS` documents (or files) whole, the clusters
    fall back to sentences; where the corpus has fewer sentences than that, there are none (no paired posterior).

    Parameters
    ----------
    splits : SplitSet
        The splits of the comparison (their ``group_by`` option is their unit).
    corpus : Corpus
        The corpus split.

    Returns
    -------
    tuple
        The clusters' name (``"documents"``, ``"files"`` or ``"sentences"``), every sentence's cluster (None: too
        few sentences) and the note that says a fallback (None without one).

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> from textbcv.split import split_units
    >>> c = Corpus([Sentence(("a",), document=i % 5) for i in range(40)], ["x"], "conll")
    >>> s = split_units(40, 3, groups=c.document_ids, options={"group_by": "document"})
    >>> name, ids, note = cluster_units(s, c)
    >>> name, len(ids), note.split(":")[0]
    ('sentences', 40, 'the splits keep 5 documents whole, fewer than the 15 clusters a variance is measured over')
    """
    unit = (splits.options or {}).get("group_by", "sentence")
    if unit in _CLUSTER_NAMES:
        name = _CLUSTER_NAMES[unit]
        ids = np.asarray(corpus.document_ids if unit == "document" else file_ids(corpus), dtype=np.int64)
        k = len(np.unique(ids))
        if k >= MIN_CLUSTERS:
            return name, ids, None
        fallback = (f"the splits keep {k} {name} whole, fewer than the {MIN_CLUSTERS} clusters a variance is measured "
                    f"over: the posterior's clusters are sentences, so its answer speaks for new sentences of these "
                    f"{name} and may be optimistic for new {name}")
    else:
        fallback = None
    if len(corpus) < MIN_CLUSTERS:
        return "sentences", None, (f"only {len(corpus)} sentences, fewer than the {MIN_CLUSTERS} clusters a variance "
                                   "is measured over: the differences are not paired")
    return "sentences", np.arange(len(corpus), dtype=np.int64), fallback


def check_units(group_by: str, corpus: Corpus) -> None:
    """Refuse documents or files asked for as units where the corpus has fewer than the variance needs.

    Parameters
    ----------
    group_by : str
        The units asked for (``"document"`` and ``"file"`` are checked).
    corpus : Corpus

    Raises
    ------
    InputError
        Naming ``group_by``, below :data:`textbcv.defaults.MIN_CLUSTERS` units.

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> c = Corpus([Sentence(("a",), source=f"f{i % 2}") for i in range(40)], ["f0", "f1"], "conll")
    >>> check_units("file", c)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: group_by='file': the corpus has 2 files, fewer than the 15 clusters ...
    """
    if group_by not in _CLUSTER_NAMES:
        return
    name = _CLUSTER_NAMES[group_by]
    k = corpus.n_documents if group_by == "document" else len(np.unique(file_ids(corpus)))
    if k < MIN_CLUSTERS:
        has = (f"the corpus has {k} {name}" if group_by == "file" or k > 1
               else "the corpus marks no documents (-DOCSTART-, # newdoc or document ids)")
        raise InputError(f"{{group_by}}={group_by!r}: {has}, fewer than the "
                         f"{MIN_CLUSTERS} clusters a variance is measured over (their sentences are kept whole and "
                         "the posterior's variance is over them; docs/method.md, \"Too few clusters\"): leave "
                         "{group_by} at auto or sentence, where sentences are the units", param="group_by")


def fold_clusters(splits, corpus: Corpus) -> dict:
    """The cluster of every test sentence of every fold, in test order: :func:`cluster_units`.

    Parameters
    ----------
    splits : SplitSet
        The splits of the comparison.
    corpus : Corpus
        The corpus split, with its document ids.

    Returns
    -------
    dict
        ``clusters`` (``"documents"``, ``"files"`` or ``"sentences"``), ``folds`` ((split, direction) → cluster ids
        of documents or files; empty with sentences), ``ids`` (every test sentence's cluster in one numbering for all
        folds; empty with too few sentences), ``related`` (pairs of clusters that share a rare name) and, after a
        fallback, ``note``.
    """
    name, ids, note = cluster_units(splits, corpus)
    tests = {(j, k): np.asarray(test, dtype=np.int64) for j, k, _tr, test in splits.folds()}
    extra = {} if note is None else {"note": note}
    if ids is None:
        return {"clusters": name, "folds": {}, "ids": {}, "related": None, **extra}
    folds = {key: ids[test] for key, test in tests.items()}
    return {"clusters": name, "folds": folds if name != "sentences" else {}, "ids": folds,
            "related": related_clusters(corpus, ids), **extra}


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


