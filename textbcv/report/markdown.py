"""``report.md`` of a comparison: its title, the sections of :data:`MD_SECTIONS` in order, then the plots,
the run line and the methods paragraph — all from the report alone, so ``textbcv report DIR`` redraws it.

Each section is a function ``report -> list of lines`` that returns no lines when it has nothing to say:
adding a section is adding one function to :data:`MD_SECTIONS`. The sections live by what they show:
:mod:`textbcv.report.md_answer` (the answer), :mod:`textbcv.report.md_setup` (how it was made),
:mod:`textbcv.report.md_breakdown` (the answer broken down) and :mod:`textbcv.report.textbook`
(the textbook tests and what one split would claim).
"""

from __future__ import annotations

from collections.abc import Sequence

from textbcv.report.md_answer import (
    bayes_markdown,
    conclusion_markdown,
    pairwise_markdown,
    ranking_markdown,
    scores_markdown,
    sequential_markdown,
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
from textbcv.report.textbook import one_split_markdown, textbook_markdown

__all__ = ["render_markdown", "MD_SECTIONS"]

#: The sections of ``report.md`` after its title, in order (:func:`render_markdown`).
MD_SECTIONS = [conclusion_markdown, setup_markdown, scores_markdown, ranking_markdown, pairwise_markdown,
               bayes_markdown, sequential_markdown, textbook_markdown, one_split_markdown, stopping_markdown,
               heldout_markdown, macro_markdown, anatomy_markdown, per_type_markdown, split_markdown,
               per_fold_markdown]


def render_markdown(report: CompareReport, plots: Sequence[str] = ()) -> str:
    """The ``report.md`` text of a comparison.

    Parameters
    ----------
    report : CompareReport
        The comparison's report (``CompareReport.from_dict`` reads ``report.json``).
    plots : sequence of str
        The PNG files beside ``report.md`` (:func:`textbcv.report.plots.plot_names`), embedded by relative
        links; default none.

    Returns
    -------
    str
        The whole Markdown text, ending in a newline.

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
