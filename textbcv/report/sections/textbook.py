"""The textbook tests (:mod:`textbcv.stats.classic`) of every pair's per-fold F1, as a report section."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from textbcv.report.sections.base import Section, SectionInput
from textbcv.stats import classic
from textbcv.stats.answer import BayesAnswer

__all__ = ["TextbookSection", "DISAGREE", "DISAGREE_UNPAIRED", "disagree_note", "textbook_tests",
           "format_statistic", "format_p"]


#: Why the textbook tests and the Bayes test can disagree (one line, in the report and ``textbcv test --classic``).
DISAGREE = ("Why they may disagree with the Bayes test: both are paired, but these tests see only the spread of the "
            "per-fold differences, with few degrees of freedom, while the Bayes test measures from the per-sentence "
            "counts what new text adds to the pooled difference and takes from the folds' spread only what the "
            "models' own noise adds beyond it — with few splits a difference can be clear to one and not to the "
            "other.")
DISAGREE_UNPAIRED = ("Why they may disagree with the Bayes test: these tests judge the spread of the paired per-fold "
                     "differences with few degrees of freedom, while the Bayes test, without per-sentence counts, "
                     "compares each system's pooled chunk counts as if the two systems had been tested on different "
                     "sentences — a small but steady difference can be clear to one and not to the other.")


def disagree_note(paired: bool) -> str:
    """:data:`DISAGREE` or :data:`DISAGREE_UNPAIRED`, as the Bayes test's differences were paired or not.

    Parameters
    ----------
    paired : bool

    Returns
    -------
    str
    """
    return DISAGREE if paired else DISAGREE_UNPAIRED

_SYMBOL = {"paired_t_5x2cv": "t", "combined_t_5x2cv": "t", "blocked_t_3x2": "t", "corrected_resampled_t": "t",
           "paired_t": "t", "t": "t", "combined_f_5x2cv": "F", "iman_davenport": "F", "friedman_chi2": "χ²",
           "mcnemar_chi2": "χ²", "wilcoxon": "W", "mcnemar_exact": "min(b, c)", "binomial": "error rate"}


def format_statistic(r: dict) -> str:
    """``t(5) = 1.2345``-style text of a test result (a ``ClassicResult.to_dict()``); its reason if undefined.

    Parameters
    ----------
    r : dict

    Returns
    -------
    str

    Examples
    --------
    >>> format_statistic({"test": "combined_f_5x2cv", "statistic": 2.5556, "df": [10, 5], "undefined": None})
    'F(10, 5) = 2.556'
    >>> format_statistic({"test": "wilcoxon", "statistic": None, "df": None, "undefined": "identical systems"})
    'undefined: identical systems'
    """
    if r.get("undefined"):
        return f"undefined: {r['undefined']}"
    df = r.get("df")
    df_text = "" if df is None else f"({', '.join(str(x) for x in df)})" if isinstance(df, list) else f"({df})"
    return f"{_SYMBOL.get(r['test'], 'statistic')}{df_text} = {r['statistic']:.4g}"


def textbook_tests(fold_values: dict, m: int, alpha: float = 0.05) -> dict:
    """Every textbook test on per-fold values: each pair (B after A), and Friedman for ≥ 3 systems.

    Parameters
    ----------
    fold_values : dict
        System → its 2m per-fold values in fold order; pairs follow the dict's order.
    m : int
    alpha : float
        Level of the Friedman critical differences only.

    Returns
    -------
    dict
        ``{"m", "pairs": [{"a", "b", "tests", "not_applicable"}], "friedman"}``, JSON-ready; ``friedman`` is
        None for two systems.
    """
    names = list(fold_values)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pairs.append({"a": a, "b": b, **classic.mx2_tests(fold_values[a], fold_values[b]).to_dict()})
    friedman = None
    if len(names) >= 3:
        values = np.array([fold_values[n] for n in names], dtype=float).T
        friedman = classic.friedman(values, alpha=alpha).to_dict()
    return {"m": m, "pairs": pairs, "friedman": friedman}


def format_p(r: dict) -> str:
    """A p-value for a table: 4 decimals, tiny ones in e-notation (never 0), ``–`` if undefined.

    Parameters
    ----------
    r : dict
        A test's result with a ``p_value``.

    Returns
    -------
    str

    Examples
    --------
    >>> format_p({"p_value": 0.03125}), format_p({"p_value": 2.3e-11}), format_p({"p_value": None})
    ('0.0312', '2.3e-11', '–')
    """
    p = r.get("p_value")
    return "–" if p is None else f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


@dataclass(frozen=True)
class TextbookSection(Section):
    """Every textbook test of each pair's per-fold F1 (and Friedman's for three or more systems), run at assembly.

    Attributes
    ----------
    tests : dict
        :func:`textbook_tests`' answer on the per-fold F1: ``{"m", "pairs", "friedman"}``, JSON-ready.

    Examples
    --------
    >>> c = {"A": [{"tp": 80 + k, "fp": 20, "fn": 10} for k in range(6)],
    ...      "B": [{"tp": 90 + 2 * k, "fp": 10, "fn": 10} for k in range(6)]}
    >>> s = TextbookSection.from_folds(SectionInput(3, c))
    >>> [r["test"] for r in s.tests["pairs"][0]["tests"]][:2]
    ['blocked_t_3x2', 'corrected_resampled_t']
    >>> TextbookSection.from_dict(s.to_dict()) == s
    True
    """

    key = "textbook"
    tests: dict

    @classmethod
    def from_folds(cls, folds: SectionInput) -> TextbookSection | None:
        """The tests on the per-fold F1 of every pair; None with fewer than two systems."""
        if len(folds.names) < 2:
            return None
        return cls(textbook_tests({n: v.tolist() for n, v in folds.scores("f1").items()}, folds.m, folds.alpha))

    def to_dict(self) -> dict:
        """:attr:`tests`."""
        return self.tests

    @classmethod
    def from_dict(cls, block: Any) -> TextbookSection | None:
        """The section of ``block``; None without one."""
        return None if block is None else cls(block)

    def markdown(self, answer: BayesAnswer) -> list[str]:
        """``## Textbook tests``: each pair's tests with their statistics and p-values, and why they may disagree."""
        t, m = self.tests, self.tests["m"]
        out = ["", "## Textbook tests (per-fold F1 differences, B − A)", "",
               "| A | B | test | statistic | p-value |", "|---|---|---|---|---|"]
        for pair in t["pairs"]:
            for r in pair["tests"]:
                out.append(f"| {pair['a']} | {pair['b']} | {r['name']} | {format_statistic(r)} | {format_p(r)} |")
        fr = t["friedman"]
        if fr:
            for r in (fr["chi2"], fr["iman_davenport"]):
                out.append(f"| all {len(answer.names)} | | {r['name']} over the {2 * m} folds | "
                           f"{format_statistic(r)} | {format_p(r)} |")
        out.append("")
        skipped = t["pairs"][0]["not_applicable"]
        if skipped:
            out.append(f"Not run at m = {m}: "
                       + "; ".join(f"{s['test']} ({s['reason'].split(';')[0]})" for s in skipped) + ".")
            out.append("")
        out.append(disagree_note(any(c.difference is not None and c.difference.basis == "paired"
                                     for c in answer.comparisons)))
        return out
