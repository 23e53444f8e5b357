"""The Python front door of the fixed-split design: :func:`compare_fixed` and :func:`evaluate_fixed`.

One training set, one test set, several training seeds per system: what most tagging papers report. Both run the
same code as ``textbcv compare --train/--test`` and ``textbcv evaluate --test``, with the same checks (every option
before anything is read or trained).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from textbcv.api import _READ_OPTIONS, _split_options
from textbcv.comparison.fixed import prepare_fixed, run_fixed
from textbcv.comparison.fixed_import import import_fixed
from textbcv.comparison.options import CompareOptions
from textbcv.corpus.model import Corpus
from textbcv.errors import InputError
from textbcv.report.fixed import FixedReport
from textbcv.tagging.system import System

__all__ = ["compare_fixed", "evaluate_fixed"]

_RUN = ("resume", "progress", "save_predictions")


def _options(systems: Sequence[str], options: dict, extra: Sequence[str]) -> tuple[CompareOptions, dict]:
    for k in ("m", "seed", "splits", "sequential", "m_max", "m_start", "stop", "balance", "group_by", "split_method",
              "heldout", "variant", "difference", "rho1", "rho2"):
        if k in options:
            raise InputError(f"{k} belongs to the m×2 design; the fixed split has one training and one test set",
                             param=k)
    ours, rest = _split_options(options, tuple(extra))
    opts = CompareOptions(systems=tuple(systems), **{"task": "ner", **ours})
    opts.validate()
    return opts, rest


def compare_fixed(train, test, systems: Sequence[System | str], *, corpus: Corpus | None = None,
                  dev: str | os.PathLike | None = None, jobs: int = 1, out: str | os.PathLike | None = None,
                  on_note: Callable[[str], None] | None = None, **options) -> FixedReport:
    """Compare taggers on one training set and one test set over several training seeds (the fixed-split design).

    Every system is trained on ``train`` once per seed and tags ``test``; the answer is the paired posterior of
    ΔF1 over the test set's documents (else sentences) with the seeds as a part of their own, under the one decision
    rule, beside the field's tests on the same predictions.

    Parameters
    ----------
    train, test : path, or sequence of int with ``corpus``
        The training and test files (one format and scheme), e.g. CoNLL-2003's eng.train and eng.testb; with
        ``corpus``, the two parts' sentence indices in it.
    systems : sequence of System or str
        At least two: CRF systems (``"iob2"``; seeds need a stochastic ``algorithm``) or command systems.
    corpus : Corpus, optional
        A corpus already read, holding both parts.
    dev : path, optional
        A development file (the same format): given to command systems as ``{dev}`` (for early stopping or model
        choice), never trained on or scored; named in the report.
    jobs : int
        Worker processes.
    out : path, optional
        Run directory (``folds.jsonl``, ``fixed.json``, ``report.json``, ``report.md``); default none.
    on_note : callable, optional
        Called with each note for the user before training.
    **options
        ``task``, ``train_seeds`` (at least 2 unless every system is an lbfgs CRF), ``train_seed``, ``algorithm``,
        ``c1``, ``c2``, ``max_iterations``, ``threshold``, ``alpha``, ``rope``, ``chunk_types``, ``untyped``,
        ``format``, ``columns``, ``scheme``, ``encoding``, ``resume``, ``progress``, ``save_predictions``.

    Returns
    -------
    FixedReport

    Raises
    ------
    InputError
        For an impossible option, or a bad file or run directory, before any training.

    Examples
    --------
    >>> import textbcv
    >>> textbcv.compare_fixed("train.conll", "test.conll", ["iob2", "iobes"], m=3)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: m belongs to the m×2 design; the fixed split has one training and one test set
    """
    if isinstance(systems, (str, System)):
        raise InputError("systems: give a list of at least two systems")
    names = [s.name if isinstance(s, System) else str(s) for s in systems]
    opts, rest = _options(names, options, _READ_OPTIONS + _RUN)
    if jobs < 1:
        raise InputError(f"jobs must be at least 1, got {jobs}", param="jobs")
    if out is None and (rest.get("resume") or rest.get("save_predictions")):
        raise InputError("resume and save_predictions need a run directory: give out=", param="out")
    run_out = out if out is not None else tempfile.mkdtemp(prefix="textbcv-run-")
    try:
        parts = None if corpus is None else (np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
        plan = prepare_fixed("train" if parts is not None else train, "test" if parts is not None else test, run_out,
                             opts, list(systems), format=rest.get("format"), columns=rest.get("columns"),
                             scheme=rest.get("scheme"), encoding=rest.get("encoding", "utf-8"),
                             resume=rest.get("resume", False), corpus=corpus, parts=parts, dev=dev)
        for line in plan.notes:
            if on_note is not None:
                on_note(line)
        return run_fixed(plan, jobs=jobs, progress=rest.get("progress"),
                         save_predictions=rest.get("save_predictions", False))
    finally:
        if out is None:
            shutil.rmtree(run_out, ignore_errors=True)


def evaluate_fixed(test: str | os.PathLike, systems: Mapping[str, str | os.PathLike] | Sequence[str], *,
                   out: str | os.PathLike, train: str | os.PathLike | None = None,
                   dev: str | os.PathLike | None = None, pred_scheme: str | None = None,
                   on_note: Callable[[str], None] | None = None, **options) -> FixedReport:
    """Answer the fixed-split design from per-seed predictions of ``test`` made elsewhere.

    Parameters
    ----------
    test : path
        The test set with its gold tags.
    systems : mapping name → folder, or sequence of ``NAME=FOLDER``
        Each folder holds ``seed-S.txt``, one prediction file per training seed (at least two), the test set's
        sentences in order: ``token ... tag`` lines (``cws``: one segmented sentence per line).
    out : path
        Run directory to write.
    train : path, optional
        The training set used: named in the report with its size.
    dev : path, optional
        The development set used: named in the report with its size.
    pred_scheme : str, optional
        Scheme of the predicted tags (default: detected per system).
    on_note : callable, optional
    **options
        ``task``, ``threshold``, ``alpha``, ``rope``, ``chunk_types``, ``untyped``, ``format``, ``columns``,
        ``scheme``, ``encoding``.

    Returns
    -------
    FixedReport
        The same ``to_dict()`` as :func:`compare_fixed` for the same predictions.

    Examples
    --------
    >>> import textbcv
    >>> textbcv.evaluate_fixed("test.conll", {"A": "runs/a"}, out="run")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: systems: give at least two systems
    """
    given = ([f"{k}={v}" for k, v in systems.items()] if isinstance(systems, Mapping) else
             [systems] if isinstance(systems, str) else list(systems))
    if len(given) < 2:
        raise InputError("systems: give at least two systems", param="systems")
    names = [g.partition("=")[0].strip() for g in given]
    opts, rest = _options(names, options, _READ_OPTIONS)
    report, notes = import_fixed(test, given, out, opts, train=train, pred_scheme=pred_scheme,
                                 format=rest.get("format"), columns=rest.get("columns"), scheme=rest.get("scheme"),
                                 encoding=rest.get("encoding", "utf-8"), dev=dev)
    for line in notes:
        if on_note is not None:
            on_note(line)
    return report
