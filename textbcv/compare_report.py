"""A comparison's report as a typed value (:class:`CompareReport`), built from its folds.

:func:`assemble_report` turns the fold records of a run (trained by
:func:`textbcv.pipeline.run_compare` or imported by ``textbcv evaluate``)
into a :class:`CompareReport`; its :meth:`~CompareReport.to_dict` is
``report.json``, and :meth:`~CompareReport.from_dict` reads that back, so the
renderers (:mod:`textbcv.report`, :mod:`textbcv.report_tex`,
:mod:`textbcv.verdicts`) read attributes, and ``textbcv report DIR`` redraws a
run from its ``report.json`` alone (:func:`rerender`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from textbcv import __version__
from textbcv.design_effects import design_effects_of
from textbcv.heldout import heldout_section
from textbcv.onesplit import one_split_section
from textbcv.scoring import ChunkCounts, Tally
from textbcv.stats.answer import BayesAnswer, Comparison, Posterior
from textbcv.stats.compare import bayes_answer, counts_scores
from textbcv.stats.sequential import SequentialPair, sequential_pairs

if TYPE_CHECKING:
    from textbcv.compare_options import CompareOptions
    from textbcv.tagging import FoldStore

__all__ = ["CompareReport", "FoldsAnswer", "REPORT_FORMAT", "assemble_report", "answer_for", "rerender"]

#: The ``format`` of ``report.json``.
REPORT_FORMAT = "textbcv-report/1"


@dataclass(frozen=True)
class CompareReport:
    """What ``report.json`` holds: the Bayes answer, the per-fold scores, the sequential t-test, the setup.

    Attributes
    ----------
    answer : BayesAnswer
        Posteriors and the Bayes test (:mod:`textbcv.stats.answer`); its
        fields are also attributes of the report (``report.systems``,
        ``report.comparisons``, ``report.m``, ...).
    fold_counts : dict
        name → 2m ``{"tp", "fp", "fn"}`` in fold order.
    fold_f1 : dict
        name → 2m per-fold F1.
    per_type : dict
        name → chunk type → pooled counts and P / R / F1.
    sequential : tuple of SequentialPair
        The sequential t-test of every pair on per-fold F1 differences.
    design_effects : dict or None
        name → metric → the design effect measured on the folds (whatever the
        variant), and ``design_effect_folds`` its per-fold values.
    stopping, split_quality, split, meta, run, heldout, one_split : dict or None
        The report's other blocks, as in ``report.json`` (docs/formats.md).
    conclusion : str or None
        The plain-language answer (:func:`textbcv.verdicts.conclusion`).
    """

    answer: BayesAnswer
    fold_counts: dict = field(default_factory=dict)
    fold_f1: dict = field(default_factory=dict)
    per_type: dict = field(default_factory=dict)
    sequential: tuple[SequentialPair, ...] = ()
    design_effects: dict | None = None
    design_effect_folds: dict | None = None
    stopping: dict | None = None
    split_quality: dict | None = None
    split: dict | None = None
    meta: dict = field(default_factory=dict)
    run: dict | None = None
    heldout: dict | None = None
    one_split: dict | None = None
    conclusion: str | None = None
    format: str = REPORT_FORMAT

    # --- the answer's fields, read through -------------------------------------------------------------
    @property
    def m(self) -> int:
        return self.answer.m

    @property
    def alpha(self) -> float:
        return self.answer.alpha

    @property
    def systems(self) -> dict[str, dict[str, Posterior]]:
        return self.answer.systems

    @property
    def names(self) -> list[str]:
        return self.answer.names

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        return self.answer.comparisons

    @property
    def threshold(self) -> float:
        return self.answer.threshold

    @property
    def rope(self) -> float | None:
        return self.answer.rope

    @property
    def rope_points(self) -> float | None:
        return self.answer.rope_points

    @property
    def variant(self) -> str:
        return self.answer.variant

    @property
    def count_factor(self) -> dict:
        return self.answer.count_factor

    @property
    def prior(self) -> float:
        return self.answer.prior

    @property
    def counts(self) -> dict:
        return self.answer.counts

    def comparisons_of(self, metric: str = "f1") -> list[Comparison]:
        return self.answer.comparisons_of(metric)

    def comparison(self, a: str, b: str, metric: str = "f1") -> Comparison:
        return self.answer.comparison(a, b, metric)

    def p_better(self, a: str, b: str, metric: str = "f1") -> float | None:
        """P(``b`` better than ``a``) on ``metric``."""
        return self.answer.p_better(a, b, metric)

    # --- the setup --------------------------------------------------------------------------------------
    @property
    def options(self) -> dict:
        """``meta.options``: every option of the comparison (empty when the report has no meta)."""
        return self.meta.get("options") or {}

    @property
    def corpus(self) -> dict:
        """``meta.corpus``: the corpus files, sizes and gold chunks (empty when unknown)."""
        return self.meta.get("corpus") or {}

    @property
    def seed(self) -> int | None:
        return self.meta.get("seed")

    @property
    def version(self) -> str:
        """The textbcv version that made the report (``?`` when unknown)."""
        return self.meta.get("textbcv", "?")

    # --- JSON -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The ``report.json`` content, key for key."""
        out: dict = {"format": self.format, **self.answer.to_dict()}
        if self.design_effects is not None:
            out["design_effects"] = self.design_effects
        if self.design_effect_folds is not None:
            out["design_effect_folds"] = self.design_effect_folds
        out.update(per_type=self.per_type, fold_f1=self.fold_f1, fold_counts=self.fold_counts,
                   sequential=[s.to_dict() for s in self.sequential], stopping=self.stopping,
                   split_quality=self.split_quality, split=self.split, meta=self.meta, run=self.run)
        if self.heldout:
            out["heldout"] = self.heldout
        if self.one_split is not None:
            out["one_split"] = self.one_split
        out["conclusion"] = self.conclusion
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CompareReport:
        """A report from ``report.json``'s content (or any dict with at least ``m`` and ``systems``)."""
        return cls(
            answer=BayesAnswer.from_dict(d), fold_counts=d.get("fold_counts") or {}, fold_f1=d.get("fold_f1") or {},
            per_type=d.get("per_type") or {},
            sequential=tuple(SequentialPair.from_dict(s) for s in d.get("sequential") or ()),
            design_effects=d.get("design_effects"), design_effect_folds=d.get("design_effect_folds"),
            stopping=d.get("stopping"), split_quality=d.get("split_quality"), split=d.get("split"),
            meta=d.get("meta") or {}, run=d.get("run"), heldout=d.get("heldout"), one_split=d.get("one_split"),
            conclusion=d.get("conclusion"), format=d.get("format", REPORT_FORMAT))

    @classmethod
    def coerce(cls, report: CompareReport | BayesAnswer | Mapping[str, Any]) -> CompareReport:
        """``report`` as a CompareReport: itself, a bare answer wrapped, or a ``report.json`` dict read."""
        if isinstance(report, CompareReport):
            return report
        if isinstance(report, BayesAnswer):
            return cls(report)
        return cls.from_dict(report)


@dataclass(frozen=True)
class FoldsAnswer:
    """The statistics of the first m splits of a run's folds (:func:`answer_for`).

    Attributes
    ----------
    fold_counts : dict
        name → 2m ``{"tp", "fp", "fn"}``.
    answer : BayesAnswer
    sequential : tuple of SequentialPair
    design_effects, design_effect_folds : dict or None
        Measured whenever every fold has per-sentence counts.
    """

    fold_counts: dict
    answer: BayesAnswer
    sequential: tuple[SequentialPair, ...]
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

    ``clusters`` (:func:`textbcv.design_effects.fold_clusters`) groups the test sentences for the
    ``clustered`` variant (default: every sentence its own cluster).
    """
    counts = {n: store.counts(n, m) for n in names}
    have = all("sentence_counts" in store.records[(n, j, k)] for n in names for j in range(m) for k in (0, 1))
    # measured whenever the folds allow (the report shows it, `textbcv test RUN` reuses it); needed by "clustered"
    deff = design_effects_of(store.records, names, m, clusters) if have or options.variant == "clustered" else None
    answer = bayes_answer(counts, m, alpha=options.alpha, rope=options.rope, variant=options.variant,
                          rho1=options.rho1, rho2=options.rho2, threshold=options.threshold,
                          design_effects=None if deff is None else deff["pooled"])
    seq = sequential_pairs({n: _fold_f1(store, n, m) for n in names}, m, alpha=options.alpha,
                           m_start=options.m_start, M=options.m_max if options.sequential else m)
    if deff is None:
        return FoldsAnswer(counts, answer, tuple(seq))
    folds = {"clusters": deff["clusters"], "folds": deff["folds"]}
    return FoldsAnswer(counts, answer, tuple(seq), deff["pooled"], folds)


def assemble_report(store: FoldStore, names: Sequence[str], m: int, options: CompareOptions, split_quality: dict | None,
                    corpus: dict, systems: Sequence[dict], stopping: dict, run: dict, imported: dict | None = None,
                    answer: FoldsAnswer | None = None, heldout: Sequence | None = None, split: dict | None = None,
                    splits_path: str | None = None, clusters: dict | None = None) -> CompareReport:
    """The report of a comparison whose 2m folds per system are in ``store``.

    One function for every way folds come about — trained here (``compare``)
    or predicted elsewhere and imported (``evaluate``) — so both give the
    same report from the same counts. ``splits_path``: the manifest given
    with ``--splits`` (recorded so that the report's command reuses it).
    """
    a = answer if answer is not None else answer_for(store, names, m, options, clusters)
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
    if heldout:
        sets = {h.name: {**h.info(), "duplicate": np.flatnonzero(h.duplicate).tolist()} for h in heldout}
        held = heldout_section(store.records, names, m, sets, a.answer, seed=options.seed, alpha=options.alpha)
    report = CompareReport(
        answer=a.answer, fold_counts=a.fold_counts, fold_f1={n: _fold_f1(store, n, m) for n in names},
        per_type={n: _per_type(store, n, m) for n in names}, sequential=a.sequential,
        design_effects=a.design_effects, design_effect_folds=a.design_effect_folds, stopping=stopping,
        split_quality=split_quality, split=split, meta=meta, run=run, heldout=held,
        one_split=one_split_section(store.records, names, m, seed=options.seed, alpha=options.alpha))
    return _with_conclusion(report)


def _with_conclusion(report: CompareReport) -> CompareReport:
    from dataclasses import replace

    from textbcv.verdicts import conclusion

    return replace(report, conclusion=conclusion(report))


def rerender(report: dict, threshold: float | None = None, rope: float | None = None) -> dict:
    """``report`` (``report.json``'s content) with its Bayes answer recomputed from its saved fold counts under
    another ``threshold`` and/or ``rope`` (a fraction; 0 removes the rope; None keeps the report's own); nothing
    is retrained.

    The folds, the splits and the sequential t-test are those of the run; with
    ``--sequential --stop bayes``, m stays what the run's own threshold gave.
    Every other key of ``report`` is kept as it is, in its place.
    """
    from textbcv.verdicts import conclusion

    o = dict(report["meta"]["options"])
    if threshold is not None:
        o["threshold"] = threshold
    if rope is not None:
        o["rope"] = rope or None
    answer = bayes_answer(report["fold_counts"], report["m"], alpha=report["alpha"], rope=o.get("rope"),
                          variant=o.get("variant") or report.get("variant") or "thesis", rho1=o.get("rho1"),
                          rho2=o.get("rho2"),
                          threshold=o.get("threshold"), prior=report.get("prior") or 1.0,
                          design_effects=report.get("design_effects"))
    new = {**report, **answer.to_dict(), "meta": {**report["meta"], "options": o}}
    new["conclusion"] = conclusion(CompareReport.from_dict(new))
    return new
