"""What a user must hear before reading a report: a split that bends the estimate, a silent system, a tiny corpus."""

from __future__ import annotations

from textbcv.report.model import CompareReport

__all__ = ["WIDE_INTERVAL", "run_warnings"]

#: F1 intervals wider than this (a fraction) for every system: the corpus is too small to say much.
WIDE_INTERVAL = 0.20


def run_warnings(report: CompareReport) -> list[str]:
    """The warnings the command line prints before the report, one sentence each without a final period.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str

    Examples
    --------
    >>> run_warnings(CompareReport.from_dict({"m": 1, "systems": {"a": {"f1": {"estimate": 0.5, "ci": [0.2, 0.8]}},
    ...                                    "b": {"f1": {"estimate": 0.0, "ci": [0.0, 0.1]}}},
    ...               "counts": {"a": {"tp": 3, "fp": 3, "fn": 3}, "b": {"tp": 0, "fp": 0, "fn": 6}},
    ...               "comparisons": []}))  # doctest: +NORMALIZE_WHITESPACE
    ['b predicted no chunk on any fold: its precision is undefined and its recall 0 (check how it was trained)']
    """
    # the choices known to bend the estimate (no documents, ...)
    out = list(report.split.notes if report.split is not None else ())
    for name, c in report.counts.items():
        if int(c.get("tp", 0)) + int(c.get("fp", 0)) == 0:
            out.append(f"{name} predicted no chunk on any fold: its precision is undefined and its recall 0 "
                       "(check how it was trained)")
    widths = [s["f1"].ci[1] - s["f1"].ci[0] for s in report.systems.values() if s["f1"].ci is not None]
    if widths and min(widths) > WIDE_INTERVAL:
        out.append(f"every system's {100 * (1 - report.alpha):g}% F1 interval is wider than "
                   f"{100 * WIDE_INTERVAL:.0f} points (narrowest {100 * min(widths):.0f}): the corpus is too small for "
                   "this comparison to say much; more text, or more documents, narrows them")
    return out
