"""A comparison's report built from its folds (:func:`assemble_report`), or redrawn (:func:`rerender`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import TYPE_CHECKING

import numpy as np

from textbcv import __version__, defaults
from textbcv._io import file_sha256
from textbcv.comparison.anatomy import anatomy_section
from textbcv.comparison.call_cautions import with_cautions
from textbcv.comparison.design_effects import cluster_units
from textbcv.comparison.from_folds import answer_from_folds, folds_of_report, folds_of_store, report_from_folds
from textbcv.comparison.heldout import heldout_gaps, heldout_section
from textbcv.comparison.macro import macro_section
from textbcv.comparison.onesplit import one_split_section
from textbcv.comparison.options import AnswerOptions
from textbcv.corpus import Corpus
from textbcv.corpus.fingerprint import corpus_digest, corpus_fingerprints
from textbcv.report.blocks import Baseline, RunInfo, SplitInfo, Stopping
from textbcv.report.calibration import QuotedCalibration
from textbcv.report.conclusion import conclusion
from textbcv.report.model import CompareReport
from textbcv.scoring import ChunkCounts
from textbcv.stats.compare import counts_scores

if TYPE_CHECKING:
    from textbcv.comparison.options import CompareOptions
    from textbcv.tagging import FoldStore

__all__ = ["assemble_report", "rerender", "judged_again", "corpus_meta", "split_info"]


def _per_type(store: FoldStore, name: str, m: int) -> dict:
    """Pooled counts and P / R / F1 of every chunk type over the 2m folds of ``name``."""
    total = sum((ChunkCounts.from_dict(store.records[(name, j, k)]["counts"]) for j in range(m) for k in (0, 1)),
                ChunkCounts())
    return {t: counts_scores(c.tp, c.fp, c.fn) for t, c in total.types.items()}


def split_info(splits, options: CompareOptions, corpus: Corpus) -> SplitInfo:
    """The ``split`` block: what the splits kept whole and balanced, with a note on each choice that bends the estimate.

    Parameters
    ----------
    splits : SplitSet
        The splits used.
    options : CompareOptions
        The comparison's options (``balance`` when the splits do not say, ``variant``).
    corpus : Corpus
        The corpus split.

    Returns
    -------
    SplitInfo
        Its ``to_dict()`` is ``unit``, ``group_by``, ``documents``, ``balance``, ``duplicates_together`` and ``notes``.
    """
    unit = splits.options.get("group_by", "sentence")
    asked = splits.options.get("group_by_requested", unit)
    balance = list(splits.options.get("balance", options.balance))
    notes = []
    note = defaults.unit_note(asked, unit, corpus.n_documents, len(corpus.files))
    if note:
        notes.append(note)
    fallback = cluster_units(splits, corpus)[2]
    if fallback:
        notes.append(fallback)
    notes += defaults.option_notes(balance, options.variant)
    return SplitInfo(unit, asked, corpus.n_documents, tuple(balance), splits.options.get("duplicates_together"),
                     tuple(notes))


def corpus_meta(raw: Corpus, corpus: Corpus, gold: Sequence, format: str, read: dict | None = None) -> dict:
    """The ``meta.corpus`` block of ``report.json``: files (size and SHA-256), sizes, gold chunks per type, fingerprint.

    Parameters
    ----------
    raw : Corpus
        The corpus as read.
    corpus : Corpus
        The corpus prepared for the task.
    gold : sequence
        Gold chunks of every sentence after the ``--chunk-types`` / ``--untyped`` filters.
    format : str
        The corpus format read.
    read : dict or None
        ``columns``, ``scheme`` and ``encoding`` as given; missing keys are None (the default).

    Returns
    -------
    dict
    """
    files = []
    for p in raw.files:
        entry: dict = {"path": str(p)}
        if os.path.isfile(p):
            entry.update(bytes=os.path.getsize(p), sha256=file_sha256(p))
        files.append(entry)
    types: dict[str, int] = {}
    for g in gold:
        for c in g:
            types[c[2]] = types.get(c[2], 0) + 1
    return {"format": format, "files": files, "sentences": len(corpus), "tokens": corpus.n_tokens,
            "documents": corpus.n_documents, "gold_chunks": int(sum(len(g) for g in gold)),
            "chunks_per_type": dict(sorted(types.items())),
            "read": {"columns": None, "scheme": None, "encoding": None, **(read or {})},
            "fingerprint": corpus_digest(corpus_fingerprints(raw))}


def assemble_report(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions, split_quality: dict | None,
                    corpus: dict, systems: Sequence[dict], stopping: Stopping | None, run: RunInfo | None,
                    imported: dict | None = None, answer: CompareReport | None = None,
                    heldout: Sequence | None = None, split: SplitInfo | None = None,
                    splits_path: str | None = None, clusters: dict | None = None,
                    baseline: Baseline | None = None, calibration: QuotedCalibration | None = None) -> CompareReport:
    """The report of a comparison whose 2m folds per system are in ``store``, trained here or imported.

    Parameters
    ----------
    store : FoldStore
        The run's fold records, with at least the first m splits of every system.
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits in the report.
    options : CompareOptions
        The comparison's options (``seed`` also seeds the resampling sections).
    split_quality : dict or None
        The splits' quality block.
    corpus : dict
        The ``meta.corpus`` block (:func:`corpus_meta`).
    systems : sequence of dict
        Each system's spec.
    stopping : Stopping or None
        How m was reached.
    run : RunInfo or None
        Wall time and fold counts of the run.
    imported : dict or None
        ``meta.imported`` of a ``textbcv evaluate`` run; None for ``compare``.
    answer : CompareReport or None
        The statistics if already computed; None computes them.
    heldout : sequence of HeldoutSet or None
        The held-out files whose counts the fold records hold.
    split : SplitInfo or None
        The ``split`` block (:func:`split_info`).
    splits_path : str or None
        The manifest given with ``--splits``, recorded so the report's command reuses it.
    clusters : dict or None
        :func:`textbcv.comparison.design_effects.fold_clusters`' answer.
    baseline : Baseline or None
        :func:`textbcv.comparison.baseline.baseline_section` of the same folds.
    calibration : QuotedCalibration or None
        The user's calibration the report quotes.

    Returns
    -------
    CompareReport
        With its conclusion.
    """
    strict, store = store, store.in_mode(options.mode)  # the report's counts are its mode's; the anatomy is strict's
    meta = {
        "textbcv": __version__,
        "task": options.task,
        "corpus": corpus,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(options).items()},
        "seed": options.seed,
        "systems": list(systems),
    }
    if splits_path is not None:
        meta["splits"] = splits_path
    if imported is not None:
        meta["imported"] = imported
    held = None
    if heldout and options.mode == "strict":  # held-out files are scored in strict only
        sets = {h.name: {**h.info(), "duplicate": np.flatnonzero(h.duplicate).tolist()} for h in heldout}
        held = heldout_section(store.records, names, m, sets, seed=options.seed, alpha=options.alpha)
    per_type = {n: _per_type(store, n, m) for n in names}
    one_split = one_split_section(store.records, names, m, seed=options.seed, alpha=options.alpha)
    anatomy = anatomy_section(strict.records, names, m, clusters, alpha=options.alpha)
    macro = (macro_section(strict.records, names, m, clusters, alpha=options.alpha, threshold=options.threshold)
             if options.mode == "strict" and options.task == "ner" else None)
    if answer is None:
        answer = report_from_folds(folds_of_store(strict, names, m, options.mode, clusters), options.answer())
    report = replace(answer, per_type=per_type, stopping=stopping, split_quality=split_quality, split=split,
                     meta=meta, run=run, heldout=held, one_split=one_split, baseline=baseline, anatomy=anatomy,
                     macro=macro, calibration=calibration)
    return _judged(report)


def _judged(report: CompareReport) -> CompareReport:
    """``report`` with the held-out gaps and the conclusion that follow from its statistics."""
    if report.heldout:
        report = replace(report, heldout=heldout_gaps(report.heldout, report.answer))
    report = with_cautions(report)
    return replace(report, conclusion=conclusion(report))


def rerender(report: dict, threshold: float | None = None, rope: float | None = None) -> dict:
    """``report`` with its Bayes answer recomputed from its fold counts under another ``threshold`` and/or ``rope``.

    The folds, splits and sequential t-test stay the run's; every other key is kept in its place.

    Parameters
    ----------
    report : dict
        ``report.json``'s content.
    threshold : float or None
        The new decision threshold on P(better); None keeps the report's.
    rope : float or None
        The new rope as a fraction of the metric (0.005 is half a point); 0 removes it, None keeps the report's.

    Returns
    -------
    dict
        A new dict with the answer, ``meta.options`` and ``conclusion`` replaced.
    """
    o = dict(report["meta"]["options"])
    if threshold is not None:
        o["threshold"] = threshold
    if rope is not None:
        o["rope"] = rope or None
    options = AnswerOptions(alpha=report["alpha"], rope=o.get("rope"), threshold=o["threshold"],
                            variant=o.get("variant") or report["variant"], difference=o.get("difference", "paired"),
                            rho1=o.get("rho1"), rho2=o.get("rho2"), prior=report.get("prior", 1.0))
    answer = answer_from_folds(folds_of_report(report), options)
    new = {**report, **answer.to_dict(), "meta": {**report["meta"], "options": o}}
    return judged_again(new)


def judged_again(report: dict) -> dict:
    """``report.json``'s content with its cautions and conclusion made again from its statistics and calibration.

    Parameters
    ----------
    report : dict

    Returns
    -------
    dict
        A new dict; ``comparisons`` and ``conclusion`` replaced, every other key kept in its place.
    """
    judged = with_cautions(CompareReport.from_dict(report))
    return {**report, "comparisons": [c.to_dict() for c in judged.comparisons], "conclusion": conclusion(judged)}
