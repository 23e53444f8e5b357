"""``report.md``: its title, the sections of :data:`MD_SECTIONS` in order, plots, run line and methods paragraph.

Each section is a function ``report -> list of lines`` (none when it has nothing to say), so adding a section
is adding one function to :data:`MD_SECTIONS`.
"""

from __future__ import annotations

from collections.abc import Sequence

from textbcv.report.md_answer import (
    bayes_markdown,
    conclusion_markdown,
    pairwise_markdown,
    ranking_markdown,
    scores_markdown,
)
from textbcv.report.md_breakdown import (
    anatomy_markdown,
    heldout_markdown,
    macro_markdown,
    per_fold_markdown,
    per_type_markdown,
)
from textbcv.report.md_setup import (
    methods_markdown,
    plots_markdown,
    run_markdown,
    setup_markdown,
    split_markdown,
    stopping_markdown,
)
from textbcv.report.model import CompareReport
from textbcv.report.textbook import one_split_markdown

__all__ = ["render_markdown", "MD_SECTIONS"]


def _sections_markdown(report: CompareReport) -> list[str]:
    """The lines of the report's sections, in the order of :data:`textbcv.report.sections.SECTIONS`."""
    return [line for s in report.sections for line in s.markdown(report.answer)]


#: The sections of ``report.md`` after its title, in order (:func:`render_markdown`).
MD_SECTIONS = [conclusion_markdown, setup_markdown, scores_markdown, ranking_markdown, pairwise_markdown,
               bayes_markdown, _sections_markdown, one_split_markdown,
               stopping_markdown, heldout_markdown, macro_markdown, anatomy_markdown, per_type_markdown, split_markdown,
               per_fold_markdown]


def render_markdown(report: CompareReport, plots: Sequence[str] = ()) -> str:
    """The ``report.md`` text of a comparison, ending in a newline.

    Parameters
    ----------
    report : CompareReport
    plots : sequence of str
        PNG files beside ``report.md``, embedded by relative links.

    Returns
    -------
    str

    Examples
    --------
    >>> f1 = {"estimate": .8, "ci": [.78, .82], "interval": "equal-tailed"}
    >>> r = CompareReport.from_dict({"m": 3, "systems": {n: {k: f1 for k in ("precision", "recall", "f1")}
    ...                                                  for n in ("A", "B")}, "comparisons": []})
    >>> [line for line in render_markdown(r).splitlines() if line.startswith("#")][:4]
    ['# textbcv comparison', '## Conclusion', '## Setup', '## Pooled scores with 95% credible intervals']
    """
    out = ["# textbcv comparison"]
    for section in MD_SECTIONS:
        out += section(report)
    out += plots_markdown(plots)
    out += run_markdown(report)
    out += methods_markdown(report)
    return "\n".join(out) + "\n"
