"""``report.json`` as a typed value (:class:`CompareReport`), and reading it back from a run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from textbcv._io import loads_json, read_text
from textbcv.errors import InputError
from textbcv.folds.run_dir import RunDir
from textbcv.report.anatomy import Anatomy
from textbcv.report.blocks import Baseline, Macro, RunInfo, SplitInfo, Stopping
from textbcv.report.calibration import QuotedCalibration
from textbcv.report.one_split import OneSplit
from textbcv.report.sections import Section, sections_from_dict
from textbcv.stats.answer import BayesAnswer, Comparison, Posterior

__all__ = ["CompareReport", "CountsReport", "REPORT_FORMAT", "load_report"]

_S = TypeVar("_S", bound=Section)

#: The ``format`` of ``report.json``.
REPORT_FORMAT = "textbcv-report/2"


@dataclass(frozen=True)
class CompareReport:
    """What ``report.json`` holds: the Bayes answer, the per-fold scores, the analyses' sections, the setup.

    The answer's fields are read through as attributes (``report.systems``, ``report.m``, ...).

    Attributes
    ----------
    answer : BayesAnswer
    fold_counts : dict
        name → 2m ``{"tp", "fp", "fn"}`` in fold order.
    fold_f1 : dict
        name → 2m per-fold F1.
    per_type : dict
        name → chunk type → pooled counts and P / R / F1.
    design_effects, design_effect_folds : dict or None
        name → metric → the design effect measured on the folds, and its per-fold values.
    stopping : Stopping or None
        How m was reached.
    baseline : Baseline or None
        The most-frequent-tag memoriser on the same folds.
    macro : Macro or None
        Macro-F1 (NER, strict matching).
    run : RunInfo or None
        What the run cost.
    split : SplitInfo or None
        What the splits kept whole and balanced.
    one_split : OneSplit or None
        What a single train/test split would claim.
    anatomy : Anatomy or None
        The error anatomy (runs with per-sentence modes).
    split_quality, meta, heldout : dict or None
        The report's other blocks, as in ``report.json`` (docs/formats.md).
    conclusion : str or None
        The plain-language answer.
    calibration : QuotedCalibration or None
        The user's own calibration from the run's ``calibration/`` folder; None when the run has none.
    sections : tuple of Section
        The analyses of :data:`textbcv.report.sections.SECTIONS` the report holds, in that order.
    """

    answer: BayesAnswer
    fold_counts: dict = field(default_factory=dict)
    fold_f1: dict = field(default_factory=dict)
    per_type: dict = field(default_factory=dict)
    design_effects: dict | None = None
    design_effect_folds: dict | None = None
    stopping: Stopping | None = None
    split_quality: dict | None = None
    split: SplitInfo | None = None
    meta: dict = field(default_factory=dict)
    run: RunInfo | None = None
    heldout: dict | None = None
    one_split: OneSplit | None = None
    baseline: Baseline | None = None
    conclusion: str | None = None
    format: str = REPORT_FORMAT
    anatomy: Anatomy | None = None
    macro: Macro | None = None
    calibration: QuotedCalibration | None = None
    sections: tuple[Section, ...] = ()

    # --- the answer's fields, read through -------------------------------------------------------------
    @property
    def m(self) -> int:
        """The number of splits m (2m folds)."""
        return self.answer.m

    @property
    def alpha(self) -> float:
        """Credible intervals are equal-tailed 1 − alpha."""
        return self.answer.alpha

    @property
    def systems(self) -> dict[str, dict[str, Posterior]]:
        """name → metric → :class:`Posterior`, in input order."""
        return self.answer.systems

    @property
    def names(self) -> list[str]:
        """The systems, in input order."""
        return self.answer.names

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        """The Bayes test of every pair on every metric (a before b, input order)."""
        return self.answer.comparisons

    @property
    def threshold(self) -> float:
        """The decision rule's threshold on P(better)."""
        return self.answer.threshold

    @property
    def rope(self) -> float | None:
        """The region of practical equivalence as a fraction of the metric, or None."""
        return self.answer.rope

    @property
    def rope_points(self) -> float | None:
        """The rope in points, or None without one (0 is none)."""
        return self.answer.rope_points

    @property
    def variant(self) -> str:
        """The count-factor variant (``thesis``, ``independent``, ``clustered``, ...)."""
        return self.answer.variant

    @property
    def count_factor(self) -> dict:
        """name → the count factor (for ``adaptive`` and ``clustered``, metric → factor)."""
        return self.answer.count_factor

    @property
    def prior(self) -> float:
        """The prior count of the count posteriors."""
        return self.answer.prior

    @property
    def counts(self) -> dict:
        """name → pooled ``{"tp", "fp", "fn"}`` over the 2m folds."""
        return self.answer.counts

    def comparisons_of(self, metric: str = "f1") -> list[Comparison]:
        """The comparisons of ``metric`` (a before b, input order).

        Parameters
        ----------
        metric : {"f1", "precision", "recall"}

        Returns
        -------
        list of Comparison
        """
        return self.answer.comparisons_of(metric)

    def comparison(self, a: str, b: str, metric: str = "f1") -> Comparison:
        """The comparison of ``a`` and ``b`` (either order) on ``metric``.

        Parameters
        ----------
        a, b : str
        metric : {"f1", "precision", "recall"}

        Returns
        -------
        Comparison

        Raises
        ------
        KeyError
            If there is no such comparison.
        """
        return self.answer.comparison(a, b, metric)

    def section(self, kind: type[_S]) -> _S | None:
        """The report's section of class ``kind``; None when it has none.

        Parameters
        ----------
        kind : type of Section

        Returns
        -------
        Section or None
        """
        return next((s for s in self.sections if isinstance(s, kind)), None)

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
        """``meta.seed``: the comparison's seed (of the splits and of the resamplings); None when unknown."""
        return self.meta.get("seed")

    @property
    def version(self) -> str:
        """The textbcv version that made the report (``?`` when unknown)."""
        return self.meta.get("textbcv", "?")

    # --- JSON -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The ``report.json`` content, key for key.

        Returns
        -------
        dict
        """
        out: dict = {"format": self.format, **self.answer.to_dict()}
        if self.design_effects is not None:
            out["design_effects"] = self.design_effects
        if self.design_effect_folds is not None:
            out["design_effect_folds"] = self.design_effect_folds
        out.update(per_type=self.per_type, fold_f1=self.fold_f1, fold_counts=self.fold_counts)
        out.update((s.key, s.to_dict()) for s in self.sections)
        out.update(stopping=None if self.stopping is None else self.stopping.to_dict(),
                   split_quality=self.split_quality, split=None if self.split is None else self.split.to_dict(),
                   meta=self.meta,
                   run=None if self.run is None else self.run.to_dict())
        if self.heldout:
            out["heldout"] = self.heldout
        if self.one_split is not None:
            out["one_split"] = self.one_split.to_dict()
        if self.baseline is not None:
            out["baseline"] = self.baseline.to_dict()
        if self.macro is not None:
            out["macro"] = self.macro.to_dict()
        if self.anatomy is not None:
            out["anatomy"] = self.anatomy.to_dict()
        if self.calibration is not None:
            out["calibration"] = self.calibration.to_dict()
        out["conclusion"] = self.conclusion
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CompareReport:
        """A report from ``report.json``'s content; absent blocks take their defaults.

        Parameters
        ----------
        d : mapping
            Needs at least ``m`` and ``systems``.

        Returns
        -------
        CompareReport
        """
        return cls(
            answer=BayesAnswer.from_dict(d), fold_counts=d.get("fold_counts") or {}, fold_f1=d.get("fold_f1") or {},
            per_type=d.get("per_type") or {},
            design_effects=d.get("design_effects"), design_effect_folds=d.get("design_effect_folds"),
            stopping=Stopping.from_dict(d.get("stopping")), split_quality=d.get("split_quality"),
            split=SplitInfo.from_dict(d.get("split")),
            meta=d.get("meta") or {}, run=RunInfo.from_dict(d.get("run")), heldout=d.get("heldout"),
            one_split=OneSplit.from_dict(d.get("one_split")),
            baseline=Baseline.from_dict(d.get("baseline")),
            conclusion=d.get("conclusion"), format=d.get("format", REPORT_FORMAT),
            anatomy=Anatomy.from_dict(d.get("anatomy")),
            macro=Macro.from_dict(d.get("macro")), calibration=QuotedCalibration.from_dict(d.get("calibration")),
            sections=sections_from_dict(d))

@dataclass(frozen=True)
class CountsReport:
    """What ``textbcv test`` answers from given fold counts.

    Attributes
    ----------
    report : CompareReport
    per_type_tests : dict or None
        Chunk type → every pair's test on the type's F1; None when not asked for.
    classic : dict or None
        The textbook tests; None when not asked for.
    notes : tuple of str
        Lines on how the answer was built.
    """

    report: CompareReport
    per_type_tests: dict | None = None
    classic: dict | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The JSON of ``textbcv test --json``.

        Returns
        -------
        dict
        """
        out = self.report.answer.to_dict()
        out.update((s.key, s.to_dict()) for s in self.report.sections)
        if self.per_type_tests is not None:
            out["per_type"], out["per_type_comparisons"] = self.report.per_type, self.per_type_tests
        if self.classic is not None:
            out["classic"] = self.classic
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def load_report(run: RunDir) -> dict:
    """The run's ``report.json``, checked to be of this textbcv version.

    Parameters
    ----------
    run : RunDir

    Returns
    -------
    dict

    Raises
    ------
    InputError
        When ``report.json`` is missing, not JSON, or of another format.
    """
    run.require("report.json")
    path = run.report_json
    report = loads_json(read_text(path, hint="not a report written by textbcv"), str(path))
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT or "fold_counts" not in report:
        raise InputError(f"not a report of this textbcv version (format {REPORT_FORMAT} with fold_counts); the run's "
                         "own `textbcv compare ... --resume` (same command and --out) rewrites it from the saved folds "
                         "without training", str(path))
    return report
