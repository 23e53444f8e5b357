"""A comparison's report built from its folds (:func:`assemble_report`), or redrawn (:func:`rerender`).

:func:`assemble_report` turns the fold records of a run (trained by
:func:`textbcv.comparison.pipeline.run_compare` or imported by ``textbcv evaluate``)
into a :class:`~textbcv.report.model.CompareReport` with its conclusion
(:func:`textbcv.report.conclusion.conclusion`); ``textbcv report DIR`` redraws a run
from its ``report.json`` alone (:func:`rerender`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from textbcv import __version__
from textbcv.comparison.anatomy import anatomy_section
from textbcv.comparison.design_effects import sentence_statistics
from textbcv.comparison.heldout import heldout_gaps, heldout_section
from textbcv.comparison.macro import macro_section
from textbcv.comparison.onesplit import one_split_section
from textbcv.report.conclusion import conclusion
from textbcv.report.model import CompareReport
from textbcv.scoring import ChunkCounts, Tally
from textbcv.stats.answer import BayesAnswer
from textbcv.stats.compare import bayes_answer, counts_scores
from textbcv.stats.paired import PairedDifference
from textbcv.stats.sequential import SequentialPair, sequential_pairs

if TYPE_CHECKING:
    from textbcv.comparison.options import CompareOptions
    from textbcv.tagging import FoldStore

__all__ = ["FoldsAnswer", "assemble_report", "answer_for", "stored_paired", "rerender"]

@dataclass(frozen=True)
class FoldsAnswer:
    """The statistics of the first m splits of a run's folds (:func:`answer_for`).

    Attributes
    ----------
    fold_counts : dict
        name → 2m ``{"tp", "fp", "fn"}``.
    answer : BayesAnswer
        The posteriors and the Bayes test of every pair.
    sequential : tuple of SequentialPair
        The sequential t-test of every pair on per-fold F1 differences.
    fold_f1 : dict
        name → F1 of each of its 2m folds, in fold order (what the sequential t-test took).
    design_effects, design_effect_folds : dict or None
        Measured whenever every fold has per-sentence counts.
    """

    fold_counts: dict
    answer: BayesAnswer
    sequential: tuple[SequentialPair, ...]
    fold_f1: dict
    design_effects: dict | None = None
    design_effect_folds: dict | None = None


def _per_type(store: FoldStore, name: str, m: int) -> dict:
    """Pooled counts and P / R / F1 of every chunk type over the 2m folds of ``name``."""
    total = sum((ChunkCounts.from_dict(store.records[(name, j, k)]["counts"]) for j in range(m) for k in (0, 1)),
                ChunkCounts())
    return {t: counts_scores(c.tp, c.fp, c.fn) for t, c in total.types.items()}


def _fold_f1(store: FoldStore, name: str, m: int) -> list[float]:
    """F1 of each of the 2m folds of ``name``, in fold order."""
    return [Tally(c["tp"], c["fp"], c["fn"]).f1 for c in store.counts(name, m)]


def answer_for(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions,
               clusters: dict | None = None) -> FoldsAnswer:
    """Counts, Bayes answer and sequential t-tests of the first ``m`` splits of the folds in ``store``.

    ``clusters`` (:func:`textbcv.comparison.design_effects.fold_clusters`) groups the test sentences for the
    ``clustered`` variant (default: every sentence its own cluster). The counts are those of ``options.mode``
    (:meth:`textbcv.folds.store.FoldStore.in_mode`).

    Parameters
    ----------
    store : FoldStore
        The run's fold records (``records``, ``counts``).
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits used (the first m).
    options : CompareOptions
        ``alpha``, ``rope`` (a fraction), ``variant``, ``rho1``, ``rho2``, ``threshold``, ``difference``,
        ``m_start``, ``m_max`` and ``sequential``.
    clusters : dict or None
        As above; default None.

    Returns
    -------
    FoldsAnswer
        The design effects are set whenever every fold has per-sentence counts (or the variant is ``clustered``).
    """
    store = store.in_mode(getattr(options, "mode", "strict"))
    counts = {n: store.counts(n, m) for n in names}
    fold_f1 = {n: _fold_f1(store, n, m) for n in names}
    have = all("sentence_counts" in store.records[(n, j, k)] for n in names for j in range(m) for k in (0, 1))
    # the design effects are measured whenever the folds allow (the report shows them, `textbcv test RUN` reuses
    # them) and needed by "clustered"; the paired posteriors need the per-sentence counts too
    measure = have or options.variant == "clustered"
    deff, paired = sentence_statistics(store.records, names, m, clusters, design_effects=measure,
                                       paired=have and options.difference == "paired") if measure else (None, None)
    answer = bayes_answer(counts, m, alpha=options.alpha, rope=options.rope, variant=options.variant,
                          rho1=options.rho1, rho2=options.rho2, threshold=options.threshold,
                          design_effects=None if deff is None else deff["pooled"], paired=paired)
    seq = sequential_pairs(fold_f1, m, alpha=options.alpha,
                           m_start=options.m_start, M=options.m_max if options.sequential else m)
    if deff is None:
        return FoldsAnswer(counts, answer, tuple(seq), fold_f1)
    folds = {"clusters": deff["clusters"], "folds": deff["folds"]}
    return FoldsAnswer(counts, answer, tuple(seq), fold_f1, deff["pooled"], folds)


def assemble_report(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions, split_quality: dict | None,
                    corpus: dict, systems: Sequence[dict], stopping: dict, run: dict, imported: dict | None = None,
                    answer: FoldsAnswer | None = None, heldout: Sequence | None = None, split: dict | None = None,
                    splits_path: str | None = None, clusters: dict | None = None,
                    baseline: dict | None = None) -> CompareReport:
    """The report of a comparison whose 2m folds per system are in ``store``.

    One function for every way folds come about — trained here (``compare``)
    or predicted elsewhere and imported (``evaluate``) — so both give the
    same report from the same counts. ``splits_path``: the manifest given
    with ``--splits`` (recorded so that the report's command reuses it);
    ``baseline``: :func:`textbcv.comparison.baseline.baseline_section` of the same folds.

    Parameters
    ----------
    store : FoldStore
        The run's fold records, with at least the first m splits of every system.
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits in the report.
    options : CompareOptions
        The comparison's options (saved as ``meta.options``; ``seed`` also seeds the resampling sections).
    split_quality : dict or None
        The splits' quality block (χ²/J, overlaps), or None.
    corpus : dict
        The ``meta.corpus`` block (:func:`textbcv.comparison.pipeline.corpus_meta`).
    systems : sequence of dict
        Each system's spec (``meta.systems``).
    stopping : dict
        How m was reached (the ``stopping`` block).
    run : dict
        Wall time and fold counts of the run (the ``run`` block).
    imported : dict or None
        ``meta.imported`` of a ``textbcv evaluate`` run (prediction folders, schemes); None for ``compare``.
    answer : FoldsAnswer or None
        The statistics if already computed (:func:`answer_for`); None computes them.
    heldout : sequence of HeldoutSet or None
        The held-out files whose counts the fold records hold; None or empty for none.
    split : dict or None
        The ``split`` block (unit, balance, notes).
    splits_path : str or None
        As above.
    clusters : dict or None
        :func:`textbcv.comparison.design_effects.fold_clusters`' answer, for the design effects and paired
        posteriors (when ``answer`` is None) and the error anatomy.
    baseline : dict or None
        As above.

    Returns
    -------
    CompareReport
        With its conclusion (:func:`textbcv.report.conclusion.conclusion`).
    """
    # the measurements first, then the statistics of the folds, then what the report concludes from them
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
    a = answer if answer is not None else answer_for(store, names, m, options, clusters)
    report = CompareReport(
        answer=a.answer, fold_counts=a.fold_counts, fold_f1=a.fold_f1, per_type=per_type, sequential=a.sequential,
        design_effects=a.design_effects, design_effect_folds=a.design_effect_folds, stopping=stopping,
        split_quality=split_quality, split=split, meta=meta, run=run, heldout=held, one_split=one_split,
        baseline=baseline, anatomy=anatomy, macro=macro)
    return _judged(report)


def _judged(report: CompareReport) -> CompareReport:
    """``report`` with what follows from its measurements and statistics: the held-out files set beside the
    cross-validation posteriors (:func:`textbcv.comparison.heldout.heldout_gaps`), then the conclusion."""
    if report.heldout:
        report = replace(report, heldout=heldout_gaps(report.heldout, report.answer))
    return replace(report, conclusion=conclusion(report))


def stored_paired(report: Mapping) -> dict[tuple[str, str], dict[str, PairedDifference]]:
    """The paired posteriors a report (``report.json``'s content) holds in its comparisons' ``difference``.

    Parameters
    ----------
    report : mapping
        ``report.json``'s content.

    Returns
    -------
    dict
        ``(a, b)`` → metric → :class:`~textbcv.stats.paired.PairedDifference`, for the comparisons whose
        ``difference`` has basis ``paired``; empty when there are none.
    """
    out: dict[tuple[str, str], dict[str, PairedDifference]] = {}
    for c in report.get("comparisons") or ():
        d = c.get("difference") or {}
        if d.get("basis") == "paired":
            out.setdefault((c["a"], c["b"]), {})[c["metric"]] = PairedDifference.from_dict({**d, "metric": c["metric"]})
    return out


def rerender(report: dict, threshold: float | None = None, rope: float | None = None) -> dict:
    """``report`` (``report.json``'s content) with its Bayes answer recomputed from its saved fold counts under
    another ``threshold`` and/or ``rope`` (a fraction; 0 removes the rope; None keeps the report's own); nothing
    is retrained.

    The folds, the splits and the sequential t-test are those of the run; with
    ``--sequential --stop bayes``, m stays what the run's own threshold gave.
    Every other key of ``report`` is kept as it is, in its place.

    Parameters
    ----------
    report : dict
        ``report.json``'s content (with ``meta.options``, ``fold_counts``, ``m`` and ``alpha``).
    threshold : float or None
        The new decision threshold on P(better); None keeps the report's.
    rope : float or None
        The new rope as a fraction of the metric (0.005 is half a point); 0 removes it, None keeps the report's.

    Returns
    -------
    dict
        A new dict: the answer's keys, ``meta.options`` (with the new threshold and rope) and ``conclusion``
        replaced; ``report`` itself is not changed.
    """
    o = dict(report["meta"]["options"])
    if threshold is not None:
        o["threshold"] = threshold
    if rope is not None:
        o["rope"] = rope or None
    answer = bayes_answer(report["fold_counts"], report["m"], alpha=report["alpha"], rope=o.get("rope"),
                          variant=o.get("variant") or report.get("variant") or "thesis", rho1=o.get("rho1"),
                          rho2=o.get("rho2"),
                          threshold=o.get("threshold"), prior=report.get("prior") or 1.0,
                          design_effects=report.get("design_effects"),
                          paired=stored_paired(report) if o.get("difference", "paired") == "paired" else None)
    new = {**report, **answer.to_dict(), "meta": {**report["meta"], "options": o}}
    new["conclusion"] = conclusion(CompareReport.from_dict(new))
    return new
