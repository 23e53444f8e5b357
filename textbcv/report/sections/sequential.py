"""The sequential t-test on the per-fold score differences of every pair (thesis chapter 5), as a report section."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textbcv.report.escape import tex_escape
from textbcv.report.sections.base import Section, SectionInput
from textbcv.stats.answer import BayesAnswer
from textbcv.stats.sequential import SequentialPair, sequential_pairs

__all__ = ["SequentialSection"]

_LABEL = {"f1": "F1", "precision": "precision", "recall": "recall"}


def _words(s: SequentialPair) -> str:
    """``rejects equality: X ahead`` or ``does not reject equality`` (the t-test's own rule, at α)."""
    ahead = s.ahead_name
    return "does not reject equality" if ahead is None else f"rejects equality: {ahead} ahead"


@dataclass(frozen=True)
class SequentialSection(Section):
    """The sequential t-test of every pair (a before b, input order), in both directions.

    Attributes
    ----------
    pairs : tuple of SequentialPair

    Examples
    --------
    >>> from textbcv.report.sections.base import SectionInput
    >>> c = {"A": [{"tp": 80, "fp": 20, "fn": 10}] * 6, "B": [{"tp": 90, "fp": 10, "fn": 10}] * 6}
    >>> s = SequentialSection.from_folds(SectionInput(3, c))
    >>> [(p.a, p.b, p.t_test) for p in s.pairs]
    [('A', 'B', 'rejects equality')]
    >>> SequentialSection.from_dict(s.to_dict()) == s
    True
    """

    key = "sequential"
    pairs: tuple[SequentialPair, ...] = ()

    @classmethod
    def from_folds(cls, folds: SectionInput) -> SequentialSection:
        """The t-test on ``folds.metric``'s per-fold differences, planned for ``folds.m_max`` (default m)."""
        values = {n: v.tolist() for n, v in folds.scores().items()}
        return cls(tuple(sequential_pairs(values, folds.m, alpha=folds.alpha, metric=folds.metric,
                                          m_start=folds.m_start, M=folds.m_max or folds.m)))

    def to_dict(self) -> list[dict]:
        """One dict per pair (:meth:`SequentialPair.to_dict`)."""
        return [s.to_dict() for s in self.pairs]

    @classmethod
    def from_dict(cls, block: Any) -> SequentialSection:
        """The pairs of ``block``; a report without the block has none."""
        return cls(tuple(SequentialPair.from_dict(s) for s in block or ()))

    def markdown(self, answer: BayesAnswer) -> list[str]:
        """``## Sequential t-test``: per pair, the mean per-fold F1 difference in points and its verdict."""
        if not self.pairs:
            return []
        level = f"{100 * (1 - answer.alpha):g}%"
        out = ["", "## Sequential t-test (per-fold F1 differences, B − A, points)", "",
               f"| A | B | mean difference | {level} CI | t-test (α = {answer.alpha:g}) |", "|---|---|---|---|---|"]
        for s in self.pairs:
            out.append(f"| {s.a} | {s.b} | {100 * s.estimate:+.2f} | "
                       f"[{100 * s.ci[0]:+.2f}, {100 * s.ci[1]:+.2f}] | {_words(s)} |")
        return out

    def latex(self, answer: BayesAnswer) -> list[str]:
        """A booktabs table, one row per pair (as report.md's section)."""
        if not self.pairs:
            return []
        level = f"{100 * (1 - answer.alpha):g}"
        lines = [r"\begin{table}[ht]", r"\centering", r"\small",
                 r"\caption{Sequential t-test on the per-fold F1 differences (B $-$ A, points): mean, " + level
                 + r"\% confidence interval with the variance correction of block-regularized cross-validation, and "
                 + r"whether equality is rejected at $\alpha = " + f"{answer.alpha:g}" + "$.}",
                 r"\label{tab:textbcv-ttest}", r"\begin{tabular}{llccl}", r"\toprule",
                 r"A & B & Mean difference & " + level + r"\% CI & t-test \\", r"\midrule"]
        for s in self.pairs:
            lines.append(f"{tex_escape(s.a)} & {tex_escape(s.b)} & ${100 * s.estimate:+.2f}$ & "
                         f"[${100 * s.ci[0]:+.2f}$, ${100 * s.ci[1]:+.2f}$] & {tex_escape(_words(s))} \\\\")
        return lines + [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]

    def terminal(self, answer: BayesAnswer) -> list[str]:
        """The pairs as an aligned table under a one-line title."""
        if not self.pairs:
            return []
        alpha = answer.alpha
        rows = [["A", "B", "mean difference", f"{100 * (1 - alpha):g}% CI", f"t-test (α = {alpha:g})"]]
        for sp in self.pairs:
            rows.append([sp.a, sp.b, f"{100 * sp.estimate:+.2f}",
                         f"[{100 * sp.ci[0]:+.2f}, {100 * sp.ci[1]:+.2f}]", _words(sp)])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        table = ["  ".join((c.rjust(w) if i == 2 else c.ljust(w)) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
                 for r in rows]
        return ["", f"Sequential t-test on per-fold {_LABEL[self.pairs[0].metric]} differences (B − A, points), "
                f"α = {alpha:g}:", *table]
