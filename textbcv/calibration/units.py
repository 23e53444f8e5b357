"""One line of a calibration's ``units.jsonl``: a data set's null pair of one system, or its close pair.

Each is answered as :func:`textbcv.compare` answers a pair and keeps the ``moments`` of its posterior.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from textbcv.api import CompareResult, compare
from textbcv.calibration.draw import split_seed
from textbcv.calibration.moments import pair_moments
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.truth import pair_options, pair_systems, pair_truth
from textbcv.corpus import Corpus
from textbcv.corpus.transform import prepare_corpus
from textbcv.tagging import System

__all__ = ["null_unit", "close_unit"]


def _answer(data: Corpus, r: int, a: str | System, b: str | System, settings: CalibrationSettings, options: dict,
            jobs: int = 1, out: Path | None = None,
            runner: dict[str, Any] | None = None) -> tuple[dict[str, Any], CompareResult, Corpus, str]:
    """The f1 comparison of ``a`` and ``b`` on ``data``: unit fields, result, prepared data set and task.

    ``out``: the comparison's run folder (a command system's work, resumed when it is there), removed once
    answered; None: a temporary one. ``runner``: where its folds run (``backend``, ``scheduler``)."""
    na, nb = (x.name if isinstance(x, System) else x for x in (a, b))
    run: dict[str, Any] = {**(runner or {}), **({} if out is None else {"resume": out.exists(), "plots": False})}
    res = compare(data, [a, b], m=settings.m, seed=split_seed(settings.seed, r), progress=False, jobs=jobs,
                  threshold=settings.threshold, out=out, **run, **options)
    if out is not None:
        shutil.rmtree(out)
    report = res.to_dict()
    c = next(x for x in report["comparisons"] if x["metric"] == "f1" and x["a"] == na and x["b"] == nb)
    d = c["difference"]
    prepared = prepare_corpus(data, report["meta"]["task"])
    moments = pair_moments(res.folds, res.splits, prepared, na, nb, settings.m)
    return ({"r": r, "sentences": len(data), "estimate": d["estimate"], "sd": d["sd"], "df": d.get("df"),
             "var_test": d.get("var_test"), "var_model": d.get("var_model"), "var_related": d.get("var_related"),
             "p_b_better": c["p_b_better"], "decision": c["decision"], "moments": moments}, res, prepared,
            report["meta"]["task"])


def null_unit(corpus: Corpus, r: int, system: str | System, settings: CalibrationSettings, jobs: int = 1,
              out: Path | None = None, runner: dict[str, Any] | None = None) -> dict:
    """One data set's null pair of ``system`` (seed A against seed B), as ``compare`` answers it.

    Parameters
    ----------
    corpus : Corpus
        The drawn data set.
    r : int
    system : str or System
        A CRF system's name, or a command system (trained with each seed in turn, ``{seed}`` and
        ``TEXTBCV_SEED``).
    settings : CalibrationSettings
    jobs : int
        Worker processes of the comparison (a command system's folds and seeds, spread over its devices).
    out : path, optional
        The comparison's run folder (resumed when it is there, removed once answered); default a temporary one.
    runner : dict, optional
        Where the comparison's folds run: ``backend`` and ``scheduler`` as for ``compare``.

    Returns
    -------
    dict
        ``kind``, ``system``, ``r``, ``sentences``, the ΔF1 (B − A) posterior's fields (fractions), ``p_b_better``,
        ``decision`` and ``moments``.
    """
    if isinstance(system, System):
        k = settings.options.get("train_seeds") or 1
        sa, sb = (replace(system, name=f"{system.name}@{s}", seed=s, train_seeds=k) for s in settings.seeds)
        options = {key: v for key, v in settings.options.items() if key == "task"}  # the CRF options are not its
        fields, _, _, _ = _answer(corpus, r, sa, sb, settings, options, jobs, out, runner)
        return {"kind": "null", "system": system.name, **fields}
    a, b = (f"{system}@{s}" for s in settings.seeds)
    fields, _, _, _ = _answer(corpus, r, a, b, settings, settings.options, jobs, out, runner)
    return {"kind": "null", "system": system, **fields}


def close_unit(corpus: Corpus, D: np.ndarray, r: int, settings: CalibrationSettings) -> dict:
    """One data set's close pair (A against B, as ``compare`` answers it) and the pair's truth beside it.

    Parameters
    ----------
    corpus : Corpus
        The whole corpus (the truth's models tag the sentences outside the data set).
    D : ndarray of int
        The data set's sorted sentence indices.
    r : int
    settings : CalibrationSettings
        With ``pair``, ``truth_halvings`` and ``pair_options``.

    Returns
    -------
    dict
        A null unit's fields plus ``kind``, ``pair`` and :func:`textbcv.calibration.truth.pair_truth`'s.
    """
    assert settings.pair is not None and settings.truth_halvings is not None  # calibrate runs no close unit without
    a, b = settings.pair
    options = dict(settings.pair_options or {})
    fields, res, prepared, task = _answer(corpus.subset(D.tolist()), r, a, b, settings, options)
    opts = pair_options(options, (a, b), settings.m, split_seed(settings.seed, r), task)
    systems = pair_systems(opts, prepared, res.folds)
    truth = pair_truth(corpus, D, systems, opts, settings.truth_halvings, settings.seed, r)
    return {"kind": "close", "pair": [a, b], **fields, **truth}

