"""What a report section is: one analysis that computes itself, serialises its block and renders its lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from textbcv.stats.answer import BayesAnswer
from textbcv.stats.compare import fold_counts, fold_metrics

__all__ = ["Section", "SectionInput"]


@dataclass(frozen=True)
class SectionInput:
    """What every section computes from: the folds' counts and the options of the answer.

    Attributes
    ----------
    m : int
        Number of splits (2m folds per system).
    counts : mapping
        name → 2m ``{"tp", "fp", "fn"}`` in fold order, systems in input order.
    alpha : float
        Level of the tests (credible intervals are 1 − alpha).
    metric : {"precision", "recall", "f1"}
        The per-fold score the tests take.
    m_start : int
        The first m of the sequential t-test.
    m_max : int or None
        The largest m a sequential run plans for; None: ``m``.
    seed : int
        Seed of every resampling a section draws.

    Examples
    --------
    >>> s = SectionInput(1, {"A": [{"tp": 8, "fp": 2, "fn": 0}, {"tp": 1, "fp": 0, "fn": 1}]})
    >>> s.names, s.scores("precision")["A"].tolist()
    (['A'], [0.8, 1.0])
    """

    m: int
    counts: Mapping[str, Sequence[Mapping[str, int]]]
    alpha: float = 0.05
    metric: str = "f1"
    m_start: int = 3
    m_max: int | None = None
    seed: int = 0

    @property
    def names(self) -> list[str]:
        """The systems, in input order."""
        return list(self.counts)

    def scores(self, metric: str | None = None) -> dict[str, np.ndarray]:
        """name → the per-fold ``metric`` (default :attr:`metric`; 0 where undefined, as conlleval), in fold order.

        Parameters
        ----------
        metric : {"precision", "recall", "f1"} or None

        Returns
        -------
        dict of str to ndarray

        Examples
        --------
        >>> SectionInput(1, {"A": [{"tp": 1, "fp": 1, "fn": 0}] * 2}).scores()["A"].round(3).tolist()
        [0.667, 0.667]
        """
        return {n: fold_metrics(fold_counts(f))[metric or self.metric] for n, f in self.counts.items()}


class Section:
    """One analysis of a report: its ``report.json`` block (:attr:`key`) and its lines in every rendering.

    A subclass is a frozen dataclass that computes itself once, when the report is assembled
    (:meth:`from_folds`), and renders only what it holds: no renderer computes a statistic. Listed in
    :data:`textbcv.report.sections.SECTIONS`, it is written to and read from ``report.json``, and shown in
    ``report.md`` (so in the terminal's ``report``/``compare`` text), ``report.tex`` and ``textbcv test``'s text.

    Attributes
    ----------
    key : str
        The name of the section's block in ``report.json`` (a class attribute).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Folds(Section):
    ...     key = "n_folds"
    ...     n: int
    ...     @classmethod
    ...     def from_folds(cls, folds):
    ...         return cls(2 * folds.m)
    ...     def to_dict(self):
    ...         return self.n
    ...     @classmethod
    ...     def from_dict(cls, block):
    ...         return None if block is None else cls(block)
    ...     def markdown(self, answer):
    ...         return ["", f"{self.n} folds."]
    >>> s = Folds.from_folds(SectionInput(3, {}))
    >>> s.to_dict(), Folds.from_dict(s.to_dict()) == s, s.latex(None)
    (6, True, [])
    """

    #: The name of the section's block in ``report.json``.
    key: ClassVar[str] = ""

    @classmethod
    def from_folds(cls, folds: SectionInput) -> Section | None:
        """The section computed from ``folds``; None when it has nothing to say of them.

        Parameters
        ----------
        folds : SectionInput

        Returns
        -------
        Section or None
        """
        raise NotImplementedError

    def to_dict(self) -> Any:
        """The section's ``report.json`` block (JSON values only).

        Returns
        -------
        object
        """
        raise NotImplementedError

    @classmethod
    def from_dict(cls, block: Any) -> Section | None:
        """The section read back from its ``report.json`` block; ``block`` is None when the report has none.

        Parameters
        ----------
        block : object or None

        Returns
        -------
        Section or None
        """
        raise NotImplementedError

    def markdown(self, answer: BayesAnswer) -> list[str]:
        """The section's lines in ``report.md`` (a heading and its text); empty for none.

        Parameters
        ----------
        answer : BayesAnswer
            The report's Bayes answer (its level, names and comparisons), for the words around the section's numbers.

        Returns
        -------
        list of str
        """
        return []

    def latex(self, answer: BayesAnswer) -> list[str]:
        """The section's lines in ``report.tex`` (a table); empty for none.

        Parameters
        ----------
        answer : BayesAnswer

        Returns
        -------
        list of str
        """
        return []

    def terminal(self, answer: BayesAnswer) -> list[str]:
        """The section's lines in ``textbcv test``'s text; empty for none.

        Parameters
        ----------
        answer : BayesAnswer

        Returns
        -------
        list of str
        """
        return []
