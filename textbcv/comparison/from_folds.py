"""The answer of a comparison's folds: the Bayes answer, the design effects and the report's sections.

Every source (a run's fold store, the counts given to ``textbcv test``, a finished report) gives a
:class:`Folds`; :func:`report_from_folds` is the one place that builds the answer from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from textbcv.comparison.call_cautions import with_cautions
from textbcv.comparison.design_effects import sentence_statistics
from textbcv.comparison.options import AnswerOptions
from textbcv.report.model import CompareReport
from textbcv.report.sections import SectionInput, sections_from_folds
from textbcv.stats.answer import BayesAnswer
from textbcv.stats.compare import bayes_answer, fold_counts, fold_metrics
from textbcv.stats.paired import PairedDifference

if TYPE_CHECKING:
    from textbcv.folds.store import FoldStore

__all__ = ["Folds", "report_from_folds", "answer_from_folds", "measured", "folds_of_store", "folds_of_report",
           "stored_paired", "per_fold"]

#: ``(a, b)`` → metric → the paired posterior of the pair's difference.
Paired = dict[tuple[str, str], dict[str, PairedDifference]]


@dataclass(frozen=True)
class Folds:
    """The fold records an answer is built from, whatever their source.

    Attributes
    ----------
    m : int
        Number of splits (2m folds per system).
    counts : dict
        name → 2m ``{"tp", "fp", "fn"}`` in fold order (split 0 direction 0, split 0 direction 1, ...).
    records : mapping or None
        Fold records by ``(name, split, direction)`` with their ``sentence_counts``; None when the source has none.
    clusters : dict or None
        The cluster of every test sentence; None makes each sentence its own cluster, with no paired posterior.
    design_effects : dict or None
        name → metric → design effect measured before; used when ``records`` is None.
    design_effect_folds : dict or None
        Their per-fold values (``{"clusters", "folds"}``), measured before.
    paired : dict or None
        ``(a, b)`` → metric → :class:`~textbcv.stats.paired.PairedDifference` measured before.
    """

    m: int
    counts: dict
    records: Mapping | None = None
    clusters: dict | None = None
    design_effects: dict | None = None
    design_effect_folds: dict | None = None
    paired: Paired | None = None

    @property
    def names(self) -> list[str]:
        """The systems, in input order."""
        return list(self.counts)

    @property
    def has_sentence_counts(self) -> bool:
        """Whether every fold of every system has per-sentence counts in :attr:`records`."""
        return self.records is not None and all(
            "sentence_counts" in self.records.get((n, j, k), {}) for n in self.counts for j in range(self.m)
            for k in (0, 1))


def per_fold(counts: Mapping[str, Sequence], metric: str = "f1") -> dict[str, list[float]]:
    """Each system's per-fold ``metric`` (0 where undefined, as conlleval), in fold order.

    Parameters
    ----------
    counts : mapping
        name → the folds' ``{"tp", "fp", "fn"}``.
    metric : {"precision", "recall", "f1"}
        The score.

    Returns
    -------
    dict
        name → one float per fold.

    Examples
    --------
    >>> per_fold({"A": [{"tp": 8, "fp": 2, "fn": 0}, {"tp": 0, "fp": 0, "fn": 0}]}, "precision")
    {'A': [0.8, 0.0]}
    """
    return {n: fold_metrics(fold_counts(f))[metric].tolist() for n, f in counts.items()}


def measured(folds: Folds, options: AnswerOptions) -> Folds:
    """``folds`` with the design effects and paired posteriors its per-sentence counts give, where not given.

    Design effects are measured when every fold has per-sentence counts or the variant is ``clustered``; paired
    posteriors when the counts are there and ``options.difference`` is ``"paired"``.

    Parameters
    ----------
    folds : Folds
        The counts and the per-sentence evidence.
    options : AnswerOptions
        Its ``variant`` and ``difference`` say what is needed.

    Returns
    -------
    Folds
        Without ``records``.

    Raises
    ------
    InputError
        When ``variant`` is ``clustered`` and a fold has no per-sentence counts.
    """
    deff, deff_folds, paired = folds.design_effects, folds.design_effect_folds, folds.paired
    if folds.records is not None:
        have = folds.has_sentence_counts
        want_deff = deff is None and (have or options.variant == "clustered")
        want_paired = paired is None and have and options.difference == "paired"
        if want_deff or want_paired:
            found, pd = sentence_statistics(folds.records, folds.names, folds.m, folds.clusters,
                                            design_effects=want_deff, paired=want_paired)
            if found is not None:
                deff, deff_folds = found["pooled"], {"clusters": found["clusters"], "folds": found["folds"]}
            paired = pd if want_paired else paired
    return replace(folds, records=None, design_effects=deff, design_effect_folds=deff_folds, paired=paired)


def answer_from_folds(folds: Folds, options: AnswerOptions) -> BayesAnswer:
    """The Bayes answer of ``folds`` under ``options``.

    Parameters
    ----------
    folds : Folds
        The counts and the per-sentence evidence.
    options : AnswerOptions
        The answer's options.

    Returns
    -------
    BayesAnswer

    Raises
    ------
    ValueError
        For counts the statistics refuse.
    """
    f = measured(folds, options)
    return bayes_answer(f.counts, f.m, alpha=options.alpha, rope=options.rope, method=options.method,
                        variant=options.variant, rho1=options.rho1, rho2=options.rho2, threshold=options.threshold,
                        prior=options.prior, draws=options.draws, seed=options.seed, design_effects=f.design_effects,
                        paired=f.paired if options.difference == "paired" else None)


def report_from_folds(folds: Folds, options: AnswerOptions) -> CompareReport:
    """The statistics of ``folds`` under ``options``: the Bayes answer, the design effects and the sections.

    Parameters
    ----------
    folds : Folds
        The counts and the per-sentence evidence.
    options : AnswerOptions
        The answer's options.

    Returns
    -------
    CompareReport
        ``answer``, ``fold_counts``, ``fold_f1``, ``sections`` (:data:`textbcv.report.sections.SECTIONS`),
        ``design_effects`` and ``design_effect_folds`` set; the other blocks empty.

    Raises
    ------
    InputError
        When ``variant`` is ``clustered`` and a fold has no per-sentence counts.
    ValueError
        For counts the statistics refuse.

    Examples
    --------
    >>> folds = Folds(1, {"A": [{"tp": 8, "fp": 2, "fn": 1}] * 2, "B": [{"tp": 9, "fp": 1, "fn": 1}] * 2})
    >>> r = report_from_folds(folds, AnswerOptions(variant="thesis"))
    >>> r.m, r.names, r.comparison("A", "B").difference.basis
    (1, ['A', 'B'], 'independent')
    """
    f = measured(folds, options)
    answer = answer_from_folds(f, options)
    return with_cautions(CompareReport(answer=answer, fold_counts={n: list(c) for n, c in f.counts.items()},
                                       fold_f1=per_fold(f.counts), design_effects=f.design_effects,
                                       design_effect_folds=f.design_effect_folds,
                                       sections=sections_from_folds(_section_input(f, options))))


def _section_input(folds: Folds, options: AnswerOptions) -> SectionInput:
    """What the report's sections compute from: ``folds``' counts and the answer's options."""
    return SectionInput(folds.m, {n: list(c) for n, c in folds.counts.items()}, alpha=options.alpha,
                        metric=options.metric, m_start=options.m_start, m_max=options.m_max, seed=options.seed)


def folds_of_store(store: FoldStore, names: Sequence[str], m: int, mode: str = "strict",
                   clusters: dict | None = None) -> Folds:
    """The first ``m`` splits' folds of ``names`` in a run's fold store, scored in matching ``mode``.

    Parameters
    ----------
    store : FoldStore
        The run's fold records.
    names : sequence of str
        The systems, in input order.
    m : int
        Number of splits used.
    mode : str
        The matching mode.
    clusters : dict or None
        :func:`textbcv.comparison.design_effects.fold_clusters`' answer; None: every sentence its own cluster.

    Returns
    -------
    Folds
    """
    store = store.in_mode(mode)
    return Folds(m, {n: store.counts(n, m) for n in names}, store.records, clusters)


def stored_paired(report: Mapping) -> Paired:
    """The paired posteriors held in a report's comparisons.

    Parameters
    ----------
    report : mapping
        ``report.json``'s content.

    Returns
    -------
    dict
        ``(a, b)`` → metric → :class:`~textbcv.stats.paired.PairedDifference`; empty when there are none.
    """
    out: Paired = {}
    for c in report.get("comparisons") or ():
        d = c.get("difference") or {}
        if d.get("basis") == "paired":
            out.setdefault((c["a"], c["b"]), {})[c["metric"]] = PairedDifference.from_dict({**d, "metric": c["metric"]})
    return out


def folds_of_report(report: Mapping, names: Sequence[str] | None = None) -> Folds:
    """The folds a finished report holds, with the design effects and paired posteriors it measured.

    Parameters
    ----------
    report : mapping
        ``report.json``'s content.
    names : sequence of str or None
        The systems to take, in this order; None: all.

    Returns
    -------
    Folds
    """
    names = list(report["fold_counts"]) if names is None else list(names)
    deff = report.get("design_effects")
    paired = {p: d for p, d in stored_paired(report).items() if p[0] in names and p[1] in names}
    return Folds(report["m"], {n: report["fold_counts"][n] for n in names},
                 design_effects=None if deff is None else {n: deff[n] for n in names if n in deff},
                 design_effect_folds=report.get("design_effect_folds"), paired=paired)
