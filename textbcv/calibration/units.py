"""One line of a calibration's ``units.jsonl``: a data set's null pair of one system, or its close pair with a truth.

Both are answered exactly as :func:`textbcv.compare` answers a pair, on the data set's splits
(:func:`textbcv.calibration.draw.split_seed`: every pair of a data set is compared on the same folds), and keep
the ``moments`` the posterior is made from, so a later posterior model answers them again without training.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from textbcv.api import CompareResult, compare
from textbcv.calibration.draw import split_seed
from textbcv.calibration.moments import pair_moments
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.truth import pair_options, pair_systems, pair_truth
from textbcv.corpus import Corpus
from textbcv.corpus.transform import prepare_corpus

__all__ = ["null_unit", "close_unit"]


def _answer(data: Corpus, r: int, a: str, b: str, settings: CalibrationSettings,
            options: dict) -> tuple[dict[str, Any], CompareResult, Corpus, str]:
    """The f1 comparison of ``a`` and ``b`` on data set ``data`` as ``compare`` answers it: the unit's fields
    (posterior, decision, moments), the result, the data set as the task saw it, and the task."""
    res = compare(data, [a, b], m=settings.m, seed=split_seed(settings.seed, r), progress=False,
                  threshold=settings.threshold, **options)
    report = res.to_dict()
    c = next(x for x in report["comparisons"] if x["metric"] == "f1" and x["a"] == a and x["b"] == b)
    d = c["difference"]
    prepared = prepare_corpus(data, report["meta"]["task"])
    moments = pair_moments(res.folds, res.splits, prepared, a, b, settings.m)
    return ({"r": r, "sentences": len(data), "estimate": d["estimate"], "sd": d["sd"], "df": d.get("df"),
             "var_test": d.get("var_test"), "var_model": d.get("var_model"), "var_related": d.get("var_related"),
             "p_b_better": c["p_b_better"], "decision": c["decision"], "moments": moments}, res, prepared,
            report["meta"]["task"])


def null_unit(corpus: Corpus, r: int, system: str, settings: CalibrationSettings) -> dict:
    """One data set's null pair of ``system``: the f1 comparison of its two seeds, as ``compare`` answers it.

    Parameters
    ----------
    corpus : Corpus
        The data set (already drawn).
    r : int
        The data set's number.
    system : str
        The system, trained as ``system@seeds[0]`` (A) and ``system@seeds[1]`` (B).
    settings : CalibrationSettings
        m, the seed, the threshold and the training options.

    Returns
    -------
    dict
        ``kind`` (``"null"``), ``system``, ``r``, ``sentences``, the ΔF1 (B − A) posterior's ``estimate``, ``sd``,
        ``df``, ``var_test``, ``var_model``, ``var_related``, ``p_b_better`` and the rule's ``decision``
        (fractions), and the ``moments`` the posterior is made from
        (:func:`textbcv.calibration.moments.pair_moments`), so that a later posterior model answers the unit
        again without training.
    """
    a, b = (f"{system}@{s}" for s in settings.seeds)
    fields, _, _, _ = _answer(corpus, r, a, b, settings, settings.options)
    return {"kind": "null", "system": system, **fields}


def close_unit(corpus: Corpus, D: np.ndarray, r: int, settings: CalibrationSettings) -> dict:
    """One data set's close pair: A against B as ``compare`` answers it, and the pair's truth beside it.

    Parameters
    ----------
    corpus : Corpus
        The whole corpus (the truth's models tag the sentences outside the data set).
    D : ndarray of int
        The data set's sentence indices (sorted).
    r : int
        The data set's number.
    settings : CalibrationSettings
        With ``pair``, ``truth_halvings`` and ``pair_options`` (the user's training options: a close pair is
        trained as the user trains it, never with the null pairs' stochastic proxy).

    Returns
    -------
    dict
        ``kind`` (``"close"``), ``pair`` ([A, B]), the fields of a null unit (ΔF1 = B − A), and the truth
        (:func:`textbcv.calibration.truth.pair_truth`): ``truth``, ``truth_noise`` and its parts,
        ``truth_models``, ``outside_sentences``, ``outside_clusters``, ``truth_cluster_unit``.

    Examples
    --------
    >>> import textbcv
    >>> from textbcv.calibration.draw import draw_data_set
    >>> from textbcv.corpus import read_corpus
    >>> c = read_corpus(str(textbcv.bundled_corpora()["ner"]))
    >>> s = CalibrationSettings("x", len(c), (), (1, 2), 1, 120, 3, 0, 0.95, pair=("iob2", "iobes"),
    ...                         truth_halvings=2, pair_options={"max_iterations": 2})
    >>> u = close_unit(c, draw_data_set(0, 120, len(c), c.documents), 0, s)  # doctest: +SKIP
    >>> len(u["truth_models"]), u["truth_noise"] > 0  # doctest: +SKIP
    (4, True)
    """
    assert settings.pair is not None and settings.truth_halvings is not None  # calibrate runs no close unit without
    a, b = settings.pair
    options = dict(settings.pair_options or {})
    fields, res, prepared, task = _answer(corpus.subset(D.tolist()), r, a, b, settings, options)
    opts = pair_options(options, (a, b), settings.m, split_seed(settings.seed, r), task)
    systems = pair_systems(opts, prepared, res.folds)
    truth = pair_truth(corpus, D, systems, opts, settings.truth_halvings, settings.seed, r)
    return {"kind": "close", "pair": [a, b], **fields, **truth}

