"""Many systems at once: tied systems, the ranking on a metric, and P(row better than column)."""

from __future__ import annotations

from textbcv.report.model import CompareReport

__all__ = ["identical_groups", "ranking", "p_row_better"]


def identical_groups(report: CompareReport) -> list[list[str]]:
    """Groups of two or more systems with the same counts in every fold, each in input order.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of list of str

    Examples
    --------
    >>> f = {"tp": 1, "fp": 0, "fn": 0}
    >>> s = {"f1": {"estimate": 1.0}}
    >>> identical_groups(CompareReport.from_dict({"m": 1, "systems": {"a": s, "b": s, "c": s},
    ...                   "fold_counts": {"a": [f], "b": [f], "c": [{**f, "tp": 2}]}}))
    [['a', 'b']]
    """
    source = report.fold_counts or report.counts
    groups: dict[str, list[str]] = {}
    for n in report.systems:
        if n in source:
            groups.setdefault(repr(source[n]), []).append(n)
    return [g for g in groups.values() if len(g) > 1]


def p_row_better(report: CompareReport, row: str, col: str, metric: str = "f1") -> float | None:
    """P(``row`` better than ``col``) on ``metric``; None where the comparison is undefined or absent.

    Parameters
    ----------
    report : CompareReport
    row, col : str
    metric : {"f1", "precision", "recall"}

    Returns
    -------
    float or None
    """
    for c in report.comparisons_of(metric):
        if (c.a, c.b) in ((col, row), (row, col)):
            return c.p_better(row)
    return None


def ranking(report: CompareReport, metric: str = "f1") -> list[dict]:
    """Systems by pooled ``metric``, best first; ties share a rank (1, 2, 2, 4), undefined ones come last unranked.

    Parameters
    ----------
    report : CompareReport
    metric : {"f1", "precision", "recall"}

    Returns
    -------
    list of dict
        ``{"rank", "name", "estimate", "ci", "better_than"}`` per system (fractions).

    Examples
    --------
    >>> s = {n: {"f1": {"estimate": e, "ci": [e - .01, e + .01]}} for n, e in (("a", .5), ("b", .6), ("c", .5))}
    >>> [(x["rank"], x["name"]) for x in ranking(CompareReport.from_dict({"m": 1, "systems": s, "comparisons": []}))]
    [(1, 'b'), (2, 'a'), (2, 'c')]
    """
    names = report.names
    est = {n: report.systems[n][metric].estimate for n in names}
    order = sorted(names, key=lambda n: (est[n] is None, -(est[n] or 0.0), names.index(n)))
    beats: dict[str, list[str]] = {n: [] for n in names}
    for c in report.comparisons_of(metric):
        if c.winner:
            beats[c.winner[0]].append(c.winner[1])
    out, rank = [], 0
    for i, n in enumerate(order):
        if est[n] is not None and (i == 0 or est[n] != est[order[i - 1]]):
            rank = i + 1
        ci = report.systems[n][metric].ci
        out.append({"rank": rank if est[n] is not None else None, "name": n, "estimate": est[n],
                    "ci": None if ci is None else list(ci), "better_than": sorted(beats[n], key=order.index)})
    return out
