"""The truth of a close pair: its ΔF1 on new text, measured beside each data set, and that truth's noise.

See docs/calibrate.md, "Close pairs with a truth".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from textbcv.comparison.design_effects import check_units
from textbcv.comparison.options import CompareOptions
from textbcv.comparison.pipeline import gold_chunks
from textbcv.corpus import Corpus
from textbcv.corpus.transform import prepare_corpus
from textbcv.errors import InputError
from textbcv.stats.metrics import linear_weights, ratios
from textbcv.tagging import System, make_payload
from textbcv.tagging.features import feature_columns
from textbcv.tagging.runner import run_fold

__all__ = ["check_pair", "check_systems", "pair_options", "pair_systems", "halvings", "outside", "pair_truth",
           "TRUTH_STREAM"]

#: the third number of the halvings' generator, (seed, r, 2): the split seed's is 1 (draw.split_seed)
TRUTH_STREAM = 2


def pair_options(options: Mapping[str, Any], pair: Sequence[str], m: int, seed: int, task: str) -> CompareOptions:
    """The close pair's comparison options, as ``compare`` makes them from the same keywords.

    Parameters
    ----------
    options : mapping
        Training options (``task`` is replaced; lists become tuples).
    pair : sequence of str
    m, seed : int
    task : {"ner", "cws"}

    Returns
    -------
    CompareOptions

    Raises
    ------
    InputError
        For an impossible option.
    """
    given: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()
                             if k != "task" and v is not None}
    opts = CompareOptions(systems=tuple(pair), m=m, seed=seed, task=task, **given)
    opts.validate()
    return opts


def check_pair(pair: Sequence[str] | None, truth_halvings: int, options: Mapping[str, Any], corpus: Corpus,
               m: int) -> tuple[tuple[str, str], str] | None:
    """Refuse an impossible close pair before any training.

    Parameters
    ----------
    pair : sequence of str or None
        None: no close pair.
    truth_halvings : int
        Checked (at least 1) even without a pair.
    options : mapping
    corpus : Corpus
    m : int

    Returns
    -------
    ((str, str), str) or None
        The pair (names stripped) and its task; None without a pair.

    Raises
    ------
    InputError
        For a pair that is not two different valid systems for the corpus, or ``truth_halvings`` below 1.

    Examples
    --------
    >>> import textbcv
    >>> from textbcv.corpus import read_corpus
    >>> c = read_corpus(str(textbcv.bundled_corpora()["ner"]))
    >>> check_pair(["iob2", "iobes"], 4, {}, c, 3)
    (('iob2', 'iobes'), 'ner')
    """
    if not isinstance(truth_halvings, int) or truth_halvings < 1:  # checked with a pair or without: never ignored
        raise InputError(f"truth_halvings must be at least 1, got {truth_halvings}", param="truth_halvings")
    if pair is None:
        return None
    if isinstance(pair, str) or len(pair) != 2 or not all(isinstance(x, str) and x.strip() for x in pair):
        raise InputError(f"pair must be two systems, A,B, got {pair if isinstance(pair, str) else list(pair)!r}",
                         param="pair")
    a, b = (x.strip() for x in pair)
    if a == b:
        raise InputError(f"pair must be two different systems, got {a!r} twice", param="pair")
    task = options.get("task") or ("cws" if corpus.format == "segmented" else "ner")
    opts = pair_options(options, (a, b), m, 0, task)
    columns = feature_columns(prepare_corpus(corpus, task).sentences)
    if opts.make_system(a, columns).to_dict() | {"name": b} == opts.make_system(b, columns).to_dict():
        raise InputError(f"pair must be two different systems: {a!r} and {b!r} are the same one", param="pair")
    return (a, b), task


def check_systems(systems: Sequence[str], seeds: Sequence[int], options: Mapping[str, Any], corpus: Corpus,
                  m: int, own: bool = False) -> None:
    """Refuse null pairs that ``compare`` would refuse on every data set, before anything is written.

    The task must find its columns in the corpus (NER needs a tag column) and every system its features.

    Parameters
    ----------
    systems : sequence of str
        The null pairs' systems (each trained with both ``seeds``).
    seeds : sequence of int
    options : mapping
        The training options the null pairs give ``compare``.
    corpus : Corpus
    m : int
    own : bool
        Whether systems of the user's own run too (the corpus must then hold the task's columns, even with no CRF
        system).

    Raises
    ------
    InputError
        As ``compare`` would, naming the corpus's file and line.

    Examples
    --------
    >>> import textbcv
    >>> from textbcv.corpus import read_corpus
    >>> c = read_corpus(str(textbcv.bundled_corpora()["ner"]))
    >>> check_systems(["iob2"], (1, 2), {"algorithm": "ap"}, c, 3)
    >>> check_systems(["iob2"], (1, 2), {"algorithm": "ap", "task": "cws"}, c, 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: ...ner_en.conll:3: task="cws" segments text into words, but this corpus's tags ...
    """
    check_units(options.get("group_by", "auto"), corpus)  # units asked for must be enough for a variance
    if not systems and not own:
        return
    task = options.get("task") or ("cws" if corpus.format == "segmented" else "ner")
    columns = feature_columns(prepare_corpus(corpus, task).sentences)
    for name in systems:
        opts = pair_options(options, (f"{name}@{seeds[0]}", f"{name}@{seeds[1]}"), m, 0, task)
        for x in opts.systems:
            opts.make_system(x, columns)


def pair_systems(opts: CompareOptions, data: Corpus, records: Sequence[dict]) -> tuple[System, System]:
    """A and B as ``compare`` trained them on ``data`` (checked against its fold records' specs).

    Parameters
    ----------
    opts : CompareOptions
    data : Corpus
        The data set, prepared for the task.
    records : sequence of dict

    Returns
    -------
    (System, System)
    """
    columns = feature_columns(data.sentences)
    out = tuple(opts.make_system(name, columns) for name in opts.systems)
    for s in out:
        spec = next(r["spec"] for r in records if r["system"] == s.name)
        if spec != s.to_dict():  # the truth must train what the comparison trained
            raise RuntimeError(f"{s.name}: the truth's system {s.to_dict()} is not compare's {spec}")
    a, b = out
    return a, b


def halvings(rng: np.random.Generator, D: np.ndarray, units: np.ndarray | None, h: int) -> list[np.ndarray]:
    """``h`` random halvings of ``D``, each a boolean mask over D (True: the first half).

    Parameters
    ----------
    rng : numpy.random.Generator
    D : ndarray of int
    units : ndarray of int or None
        The document of every sentence of D (kept whole); None halves by sentence.
    h : int

    Returns
    -------
    list of ndarray of bool

    Examples
    --------
    >>> m = halvings(np.random.default_rng(0), np.arange(6), np.array([0, 0, 1, 1, 2, 3]), 2)
    >>> [x.tolist() for x in m]  # two of the four documents in each first half, documents whole
    [[True, True, False, False, True, False], [False, False, False, False, True, True]]
    """
    out = []
    for _ in range(h):
        if units is not None:
            ud = np.unique(units)
            out.append(np.isin(units, ud[rng.permutation(len(ud))[: len(ud) // 2]]))
        else:
            mask = np.zeros(len(D), dtype=bool)
            mask[rng.permutation(len(D))[: len(D) // 2]] = True
            out.append(mask)
    return out


def outside(prepared: Corpus, D: np.ndarray) -> np.ndarray:
    """Sorted indices of the sentences outside ``D`` whose tokens do not occur in D.

    Parameters
    ----------
    prepared : Corpus
        The whole corpus, prepared for the task.
    D : ndarray of int

    Returns
    -------
    ndarray of int

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> c = Corpus([Sentence(("a",)), Sentence(("b",)), Sentence(("a",)), Sentence(("c",))], [], "conll")
    >>> outside(c, np.array([0])).tolist()
    [1, 3]
    """
    inside = np.zeros(len(prepared), dtype=bool)
    inside[D] = True
    seen = {prepared[i].tokens for i in D.tolist()}
    return np.array([i for i in np.flatnonzero(~inside).tolist() if prepared[i].tokens not in seen], dtype=np.int64)


def _cluster_var(z: np.ndarray) -> float:
    """k/(k − 1)·Σ z_g² of k per-cluster linearised values (0 with one cluster)."""
    k = len(z)
    return float(k / (k - 1) * np.sum(z * z)) if k > 1 else 0.0


def pair_truth(corpus: Corpus, D: np.ndarray, systems: tuple[System, System], opts: CompareOptions, h: int,
               seed: int, r: int) -> dict[str, Any]:
    """The close pair's truth on ``D``: its 2h models' mean ΔF1 (B − A) outside D, and its noise.

    Parameters
    ----------
    corpus : Corpus
    D : ndarray of int
        The data set's sorted sentence indices.
    systems : (System, System)
        A and B (:func:`pair_systems`).
    opts : CompareOptions
    h : int
        Halvings.
    seed, r : int
        Seed the halvings' generator with ``(seed, r, TRUTH_STREAM)``.

    Returns
    -------
    dict
        ``truth``, ``truth_noise`` (a variance, fractions²), ``truth_var_test``, ``truth_var_halvings``,
        ``truth_models``, ``outside_sentences``, ``outside_clusters``, ``truth_cluster_unit``.

    Raises
    ------
    InputError
        When no sentence is outside the data set.
    """
    prepared = prepare_corpus(corpus, opts.task)
    docs = np.asarray(corpus.document_ids, dtype=np.int64) if corpus.n_documents > 1 else None
    test = outside(prepared, D)
    if not len(test):
        raise InputError("the close pair's truth needs sentences outside each data set: choose a smaller size",
                         param="size")
    # halves keep documents whole (a data set of one document is halved by sentence: it has no other way)
    units = docs[D] if docs is not None and len(np.unique(docs[D])) > 1 else None
    masks = halvings(np.random.default_rng([seed, r, TRUTH_STREAM]), D, units, h)
    # one payload over the whole prepared corpus: halves train and the outside text is tagged by index, as folds are
    payload = make_payload(prepared.sentences, gold_chunks(prepared, opts), list(systems))
    models: list[dict[str, Any]] = []
    lin: dict[str, list[np.ndarray]] = {s.name: [] for s in systems}
    clusters = docs[test] if docs is not None else test
    groups = np.unique(clusters, return_inverse=True)[1].ravel()
    k = int(groups.max()) + 1
    for j, mask in enumerate(masks):
        for d, half in enumerate((D[mask], D[~mask])):
            model: dict[str, Any] = {"halving": j, "half": d, "train_sentences": int(len(half))}
            for s, key in zip(systems, ("counts_a", "counts_b")):
                c = np.asarray(run_fold(payload, s, j, d, half, test)["sentence_counts"], dtype=np.int64).reshape(-1, 3)
                pooled = c.sum(axis=0)
                model[key] = [int(x) for x in pooled]
                # each sentence's linearised (delta-method) F1 contribution at the model's pooled counts, per cluster
                lin[s.name].append(np.bincount(groups, weights=c @ linear_weights("f1", pooled), minlength=k))
            models.append(model)
    f1 = {key: ratios(np.array([x[key] for x in models]))["f1"] for key in ("counts_a", "counts_b")}
    delta = f1["counts_b"] - f1["counts_a"]
    a, b = (s.name for s in systems)
    var_test = _cluster_var(np.mean(lin[b], axis=0) - np.mean(lin[a], axis=0))
    means = delta.reshape(h, 2).mean(axis=1)  # each halving's two halves averaged
    var_halvings = float(np.var(means, ddof=1) / h) if h > 1 else 0.0
    return {"truth": float(delta.mean()), "truth_noise": var_test + var_halvings, "truth_var_test": var_test,
            "truth_var_halvings": var_halvings, "truth_models": models, "outside_sentences": int(len(test)),
            "outside_clusters": k, "truth_cluster_unit": "documents" if docs is not None else "sentences"}
