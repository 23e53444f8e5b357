"""The words of a comparison's answer: the decision rule, each pair's verdict, the conclusion, the ranking.

The decision of every pair is made once, by :func:`textbcv.stats.bayes.decide`
(a system is better when its P(better) is at least the threshold, default
0.95), when the answer is computed; its result is each comparison's
``decision`` in ``report.json``. This module only *words* that recorded
decision — for the report's tables, its conclusion, its plot titles, the
LaTeX tables and the terminal — so that no two places can disagree, and none
names a winner the rule did not name.

Everything here reads one typed :class:`~textbcv.report.model.CompareReport`
(``report.json`` or a ``textbcv test`` answer is read into it once, by its
caller, with ``CompareReport.from_dict`` or ``CompareReport.coerce``) and a
pair's :class:`~textbcv.stats.answer.Comparison`. Scores in text are percent
and differences points; the report keeps fractions. The setup's words (the
methods paragraph, the command that remakes a report) are
:mod:`textbcv.report.methods`'s.

Examples
--------
>>> r = CompareReport.from_dict({"m": 3, "alpha": 0.05, "threshold": 0.95, "rope": None,
...      "systems": {"A": {"f1": {"estimate": .80, "ci": [.78, .82]}},
...                  "B": {"f1": {"estimate": .81, "ci": [.79, .83]}}},
...      "comparisons": [{"a": "A", "b": "B", "metric": "f1", "p_b_better": .7, "p_a_better": .3,
...                       "decision": "no clear difference"}], "sequential": []})
>>> verdict(r.comparisons[0])
'no clear difference'
>>> print(conclusion(r))  # doctest: +NORMALIZE_WHITESPACE
On 3×2 block-regularized cross-validation (6 folds per system), a system is called better when P(better) ≥ 0.95.
No clear difference on F1 between B (81.00%) and A (80.00%): P(B better) = 0.700, below 0.95.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from textbcv import defaults
from textbcv.report.model import CompareReport
from textbcv.stats.answer import Comparison
from textbcv.stats.bayes import NO_CLEAR_DIFFERENCE, THRESHOLD
from textbcv.stats.sequential import SequentialPair

__all__ = ["run_warnings", "WIDE_INTERVAL",
           "THRESHOLD", "NO_CLEAR_DIFFERENCE", "Report", "as_report", "as_comparison", "threshold_of", "rope_points",
           "points", "pct", "fmt_p", "p_is", "rule", "short_rule", "better_label", "verdict", "verdict_line",
           "sequential_words", "comparisons_of", "identical_groups", "ranking", "p_row_better", "conclusion",
           "design_name", "difference_words", "difference_basis", "power_line", "sources_line"]

LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}

#: What the functions here read: one typed report (callers read ``report.json`` or a ``textbcv test`` answer into
#: it once, with :meth:`CompareReport.from_dict` or :meth:`CompareReport.coerce`).
Report = CompareReport


def as_report(report: Report) -> CompareReport:
    """``report``, checked to be the typed report every renderer takes (read ``report.json`` once, with
    :meth:`CompareReport.from_dict`, before rendering).

    Parameters
    ----------
    report : CompareReport
        The value to check.

    Returns
    -------
    CompareReport
        ``report`` itself.

    Raises
    ------
    TypeError
        When ``report`` is not a CompareReport (e.g. a ``report.json`` dict not read yet).
    """
    if not isinstance(report, CompareReport):
        raise TypeError(f"the renderers take a CompareReport (CompareReport.from_dict(...) reads report.json), "
                        f"got {type(report).__name__}")
    return report


def as_comparison(c: Comparison | Mapping[str, Any]) -> Comparison:
    """``c`` as a :class:`~textbcv.stats.answer.Comparison` (a ``comparisons`` entry of the JSON is read).

    Parameters
    ----------
    c : Comparison or mapping
        A comparison, or one entry of the JSON's ``comparisons``.

    Returns
    -------
    Comparison
        ``c`` itself when it is one already.
    """
    return c if isinstance(c, Comparison) else Comparison.from_dict(c)


def as_sequential(s: SequentialPair | Mapping[str, Any]) -> SequentialPair | Mapping[str, Any]:
    """``s`` as a :class:`~textbcv.stats.sequential.SequentialPair` when it is a whole entry of ``sequential``.

    Parameters
    ----------
    s : SequentialPair or mapping
        A sequential t-test, or an entry of the JSON's ``sequential`` (whole when it has ``b_better``).

    Returns
    -------
    SequentialPair or mapping
        The typed pair for a whole entry; ``s`` unchanged otherwise (a pair already, or a partial entry).
    """
    return SequentialPair.from_dict(s) if isinstance(s, Mapping) and "b_better" in s else s


# ----------------------------------------------------------------------------- numbers


def threshold_of(report: Report) -> float:
    """The threshold the report's decisions were made with (0.95 when the report does not say).

    Parameters
    ----------
    report : CompareReport or mapping
        The typed report, or a mapping with its keys (``report.json``'s content).

    Returns
    -------
    float
        The threshold on P(better) of the decision rule.
    """
    t = report.get("threshold") if isinstance(report, Mapping) else report.threshold
    return THRESHOLD if t is None else float(t)


def points(x: float) -> str:
    """``1 point``, ``0.5 points``.

    Parameters
    ----------
    x : float
        A number of points (percentage points of a metric).

    Returns
    -------
    str
        ``x`` in ``%g`` format with ``point`` or ``points``.

    Examples
    --------
    >>> points(1), points(0.5)
    ('1 point', '0.5 points')
    """
    return f"{x:g} point" + ("" if x == 1 else "s")


def rope_points(report: Report) -> float | None:
    """The rope in points (``report.rope`` is a fraction), or None without one.

    Parameters
    ----------
    report : CompareReport or mapping
        The typed report, or a mapping with its keys (``report.json``'s content).

    Returns
    -------
    float or None
        ``100 × rope`` (rounded to 10 decimals); None when the rope is None or 0.

    Examples
    --------
    >>> rope_points({"rope": 0.005}), rope_points({"rope": None}), rope_points({"rope": 0.0})
    (0.5, None, None)
    """
    r = report.get("rope") if isinstance(report, Mapping) else report.rope
    return None if not r else round(100 * r, 10)


def pct(x: float | None, undefined: str = "—") -> str:
    """A rate in percent with two decimals (``undefined`` for None).

    Parameters
    ----------
    x : float or None
        A rate as a fraction (0.6842 for 68.42%).
    undefined : str
        What to show for None; default ``"—"``.

    Returns
    -------
    str
        ``100 × x`` with two decimals, without the ``%`` sign.

    Examples
    --------
    >>> pct(0.68421), pct(None)
    ('68.42', '—')
    """
    return undefined if x is None else f"{100 * x:.2f}"


def fmt_p(p: float | None, digits: int = 3) -> str:
    """A probability for a table: never rounded to a certainty it is not.

    Parameters
    ----------
    p : float or None
        A probability; None shows as ``—``.
    digits : int
        Decimals shown; default 3.

    Returns
    -------
    str
        ``p`` to ``digits`` decimals, or ``> 0.999`` / ``< 0.001`` where rounding would show 1 or 0.

    Examples
    --------
    >>> fmt_p(0.69), fmt_p(0.99996), fmt_p(1.0), fmt_p(2e-5), fmt_p(None)
    ('0.690', '> 0.999', '> 0.999', '< 0.001', '—')

    A posterior probability that one score exceeds another is never 0 or 1
    (the posteriors have the whole of [0, 1] as support): 1 − 10⁻¹⁷ is held
    as 1.0 in floating point, and shown as ``> 0.999``.
    """
    if p is None:
        return "—"
    s = f"{p:.{digits}f}"
    if float(s) >= 1:
        return f"> {1 - 10 ** -digits:.{digits}f}"
    if float(s) <= 0:
        return f"< {10 ** -digits:.{digits}f}"
    return s


def p_is(p: float | None, digits: int = 3) -> str:
    """``= 0.690``, ``> 0.999`` or ``< 0.001``: a probability after its label in a sentence.

    Parameters
    ----------
    p : float or None
        A probability; None gives ``—``.
    digits : int
        Decimals shown; default 3.

    Returns
    -------
    str
        :func:`fmt_p` of ``p``, with ``= `` before an exact value.
    """
    s = fmt_p(p, digits)
    return s if s[0] in "<>—" else f"= {s}"


# ----------------------------------------------------------------------------- the rule and each verdict


def rule(report: Report) -> str:
    """The decision rule in one sentence (the report states it once, under the Bayes test); with paired differences
    and no rope, followed by the false-call rates the real-text study measured for it (:func:`defaults.false_calls`;
    the several-seed study's when both systems of every pair had several training seeds).

    Parameters
    ----------
    report : CompareReport or mapping
        The typed report, or a mapping with its keys (``report.json``'s content).

    Returns
    -------
    str
        The rule with the report's threshold, and its rope (in points) and the equivalence rule when it has one.

    Examples
    --------
    >>> print(rule({"threshold": 0.95, "rope": None}))  # doctest: +NORMALIZE_WHITESPACE
    Decision rule: a system is called better than another when the posterior probability that it is better,
    P(better), is at least 0.95 (--threshold); below that the answer is "no clear difference", with P.
    """
    tau, r = threshold_of(report), rope_points(report)
    if r is None:
        comparisons = () if isinstance(report, Mapping) else report.comparisons
        diffs = [c.difference for c in comparisons if c.difference is not None]
        paired = {d.basis for d in diffs} == {"paired"}
        # several seeds on both sides make the seeds a part of the posterior: the seed null study measured that one
        seeded = paired and all(d.paired is not None and d.paired.seeds is not None and min(d.paired.seeds) >= 2
                                for d in diffs)
        measured = defaults.false_calls(tau, seeds=seeded) if paired else None
        if measured is None and seeded:
            measured = UNMEASURED_SEEDS
        return ("Decision rule: a system is called better than another when the posterior probability that it is "
                f"better, P(better), is at least {tau:g} (--threshold); below that the answer is \"no clear "
                "difference\", with P." + (f" {measured}" if measured else ""))
    return (f"Decision rule: a system is called better than another when the posterior probability that it is better "
            f"by more than the rope of {points(r)} (--rope), P(better), is at least {tau:g} (--threshold); below "
            f"that the answer is \"no clear difference\", with P. Two systems are called practically "
            f"equivalent when P(equivalent) — the probability that their scores differ by at most {points(r)} — is "
            f"at least {tau:g}.")


#: The decision rule's note when the systems had several seeds and the seed null study has no figure for the posterior.
UNMEASURED_SEEDS = ("How often this rule calls identical systems trained with several seeds per fold different has not "
                    "been measured on real text for this posterior yet.")


def short_rule(report: Report) -> str:
    """The rule in a clause: ``a system is called better when P(better) ≥ 0.95``.

    Parameters
    ----------
    report : CompareReport or mapping
        The typed report, or a mapping with its keys (``report.json``'s content).

    Returns
    -------
    str
        The clause, with ``by more than r points`` inside P(...) when the report has a rope.
    """
    tau, r = threshold_of(report), rope_points(report)
    by = f" by more than {points(r)}" if r is not None else ""
    return f"a system is called better when P(better{by}) ≥ {tau:g}"


def better_label(c: Comparison | Mapping, side: str, rope: float | None = None) -> str:
    """``P(iobes better)``, or with a rope of r points ``P(iobes better by > r)``, for side ``"a"`` or ``"b"``.

    Parameters
    ----------
    c : Comparison or mapping
        The comparison (or its JSON entry).
    side : {"a", "b"}
        Whose probability the label names.
    rope : float or None
        The rope in points (not a fraction); None for no rope.

    Returns
    -------
    str
    """
    by = f" by > {rope:g}" if rope is not None else ""
    return f"P({as_comparison(c).name(side)} better{by})"


def verdict(c: Comparison | Mapping) -> str:
    """A comparison's recorded decision in words: ``"iobes better"``, ``"no clear difference"``,
    ``"practically equivalent"`` (with a rope) or ``"undefined"``.

    Parameters
    ----------
    c : Comparison or mapping
        The comparison (or its JSON entry); its recorded ``decision`` is worded, not remade.

    Returns
    -------
    str

    Examples
    --------
    >>> verdict(Comparison("iob2", "iobes", "f1", 0.97, 0.03, "B better"))
    'iobes better'
    >>> verdict({"a": "x", "b": "y", "metric": "f1", "decision": "no clear difference"})
    'no clear difference'
    """
    c = as_comparison(c)
    if c.undefined:
        return "undefined"
    if c.winner:
        return f"{c.winner[0]} better"
    return "practically equivalent" if c.equivalent else NO_CLEAR_DIFFERENCE


def verdict_line(c: Comparison | Mapping, report: Report) -> str:
    """The verdict with the probability that decided it, for a plot title or a terminal line.

    Parameters
    ----------
    c : Comparison or mapping
        The comparison (or its JSON entry).
    report : CompareReport or mapping
        The typed report, or a mapping with its keys (``report.json``'s content).
        Only its threshold and rope are read.

    Returns
    -------
    str
        The verdict, the deciding P(better) against the threshold (with a rope also P(equivalent)), or the reason
        the comparison is undefined.

    Examples
    --------
    >>> r = {"threshold": 0.95, "rope": None}
    >>> verdict_line(Comparison("A", "B", "f1", 0.69, 0.31, "no clear difference"), r)
    'no clear difference: P(B better) = 0.690 < 0.95'
    >>> verdict_line(Comparison("A", "B", "f1", 0.991, 0.009, "B better"), r)
    'B better: P(B better) = 0.991 ≥ 0.95'
    """
    c = as_comparison(c)
    tau, r = threshold_of(report), rope_points(report)
    if c.undefined:
        return c.undefined
    if c.winner:
        side = "b" if c.decision == "B better" else "a"
        return f"{verdict(c)}: {better_label(c, side, r)} {p_is(c.p_side(side))} ≥ {tau:g}"
    text = f"{NO_CLEAR_DIFFERENCE}: {_undecided(c, r, tau, '<')}"
    if r is not None:
        text += f"; P(equivalent) {p_is(c.p_equivalent)}" + (f" ≥ {tau:g}: practically equivalent"
                                                               if c.equivalent else "")
    return text


# ----------------------------------------------------------------------------- many systems


def comparisons_of(report: Report, metric: str = "f1") -> list[Comparison]:
    """The comparisons of ``metric``, in the report's order.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).
    metric : {"f1", "precision", "recall"}
        The metric; default ``"f1"``.

    Returns
    -------
    list of Comparison
    """
    return as_report(report).comparisons_of(metric)


def identical_groups(report: Report) -> list[list[str]]:
    """Groups of two or more systems with the same counts in every fold (from ``fold_counts``, else pooled ``counts``).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    list of list of str
        Each group's systems in input order; empty when no two systems have the same counts.

    Examples
    --------
    >>> f = {"tp": 1, "fp": 0, "fn": 0}
    >>> s = {"f1": {"estimate": 1.0}}
    >>> identical_groups(CompareReport.from_dict({"m": 1, "systems": {"a": s, "b": s, "c": s},
    ...                   "fold_counts": {"a": [f], "b": [f], "c": [{**f, "tp": 2}]}}))
    [['a', 'b']]
    """
    report = as_report(report)
    source = report.fold_counts or report.counts or {}
    groups: dict[str, list[str]] = {}
    for n in report.systems:
        if n in source:
            groups.setdefault(repr(source[n]), []).append(n)
    return [g for g in groups.values() if len(g) > 1]


def p_row_better(report: Report, row: str, col: str, metric: str = "f1") -> float | None:
    """P(``row`` better than ``col``) on ``metric`` (None if undefined or absent).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).
    row, col : str
        The two systems; the probability is that of ``row``.
    metric : {"f1", "precision", "recall"}
        The metric; default ``"f1"``.

    Returns
    -------
    float or None
    """
    for c in comparisons_of(report, metric):
        if (c.a, c.b) in ((col, row), (row, col)):
            return c.p_better(row)
    return None


def ranking(report: Report, metric: str = "f1") -> list[dict]:
    """Systems by pooled ``metric``, best first: ``{"rank", "name", "estimate", "ci", "better_than"}``.

    Equal estimates share a rank (1, 2, 2, 4); systems whose metric is
    undefined come last, unranked (rank None). ``better_than`` lists the
    systems the decision rule found this one better than.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).
    metric : {"f1", "precision", "recall"}
        The metric ranked on; default ``"f1"``.

    Returns
    -------
    list of dict
        One entry per system, best first; ``estimate`` and ``ci`` are fractions.

    Examples
    --------
    >>> s = {n: {"f1": {"estimate": e, "ci": [e - .01, e + .01]}} for n, e in (("a", .5), ("b", .6), ("c", .5))}
    >>> [(x["rank"], x["name"]) for x in ranking(CompareReport.from_dict({"m": 1, "systems": s, "comparisons": []}))]
    [(1, 'b'), (2, 'a'), (2, 'c')]
    """
    report = as_report(report)
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


# ----------------------------------------------------------------------------- the conclusion


def design_name(report: Report) -> str:
    """``3×2 block-regularized cross-validation`` (or the design of given random splits).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    str
        Named from ``m`` and the ``split_method`` option (``bcv`` when absent).
    """
    report = as_report(report)
    method = report.options.get("split_method", "bcv")
    return f"{report.m}×2 block-regularized cross-validation" if method in ("bcv", "bcv-select") else \
        f"{report.m}×2 cross-validation with {method} splits"


def _same_display(x: float, y: float) -> bool:
    return pct(x) == pct(y)


def sequential_words(s: SequentialPair | Mapping) -> str:
    """A sequential t-test's result in words (its own rule, at α): ``rejects equality: X ahead`` or
    ``does not reject equality``.

    Parameters
    ----------
    s : SequentialPair or mapping
        The pair's sequential t-test, or its JSON entry (at least ``a``, ``b`` and ``ahead``: ``"A"``, ``"B"`` or None).

    Returns
    -------
    str

    Examples
    --------
    >>> sequential_words({"a": "A", "b": "B", "t_test": "rejects equality", "ahead": "B"})
    'rejects equality: B ahead'
    >>> sequential_words({"a": "A", "b": "B", "t_test": "does not reject equality", "ahead": None})
    'does not reject equality'
    """
    s = as_sequential(s)
    if isinstance(s, Mapping):  # a partial entry: the names and the side
        ahead = {"A": s["a"], "B": s["b"]}.get(s.get("ahead") or "")
    else:
        ahead = s.ahead_name
    return "does not reject equality" if ahead is None else f"rejects equality: {ahead} ahead"


def _seq_sentence(report: CompareReport, c: Comparison) -> str | None:
    seq = next((s for s in report.sequential if (s.a, s.b) == (c.a, c.b)), None)
    if seq is None:
        return None
    alpha = report.alpha
    if seq.ahead_name is None:
        text = (f"The sequential t-test on the per-fold F1 differences does not reject equality at α = {alpha:g} "
                f"(mean difference {100 * seq.estimate:+.2f} points, {c.b} − {c.a})")
        d = c.difference
        if c.winner is None or d is None or d.paired is None:
            return text + "."
        p = d.paired
        n_folds = 2 * p.m
        return (text + f"; the Bayes test calls {c.winner[0]} better because it measures the difference's error "
                f"on the per-sentence counts of {p.clusters:,} {p.cluster_unit} (SD {100 * p.sd:.2f} points), where "
                f"the t-test's interval comes from the spread of {n_folds} fold differences (half-width "
                f"{100 * (seq.ci[1] - seq.ci[0]) / 2:.2f} points). On real text the paired posterior's SD was close to "
                "its actual error while the sequential t-test rarely rejected differences of this size "
                "(docs/RESULTS.md, \"Real-text study of differences\").")
    ahead = seq.ahead_name
    text = (f"The sequential t-test on the per-fold F1 differences rejects equality at α = {alpha:g}: mean difference "
            f"{100 * seq.estimate:+.2f} points ({c.b} − {c.a}), {ahead} ahead")
    if c.winner and c.winner[0] == ahead:
        return text + ", as the Bayes test finds."
    d = c.difference
    why = ""
    if d is not None and d.paired is not None and d.paired.var > 0:
        p = d.paired
        why = (f" (its ΔF1 posterior has {p.df:.0f} degrees of freedom, and the models' own noise, measured from "
               f"the folds' spread, makes {100 * (p.var_model + p.var_seed_part) / p.var:.0f}% of its variance; "
               "new text's part comes from the sentences, which the t-test's interval over the folds' spread "
               "counts differently)" if math.isfinite(p.df) else "")
    return text + (f"; the Bayes test does not call a winner at this threshold{why} — the two tests weigh the "
                   "evidence differently (see the note under the textbook tests).")


def _probabilities(c: Comparison) -> tuple[float, float]:
    """(P(B better), P(A better)) of a comparison that is not undefined."""
    assert c.p_b_better is not None and c.p_a_better is not None, c
    return c.p_b_better, c.p_a_better


def _estimate(report: CompareReport, name: str) -> float:
    """The F1 estimate of a system whose F1 is defined."""
    f1 = report.systems[name]["f1"].estimate
    assert f1 is not None, name
    return f1


def _undecided(c: Comparison, r: float | None, tau: float, below: str) -> str:
    """The probability behind "no clear difference": the larger side's P and the threshold it misses, or a tie."""
    p_b, p_a = _probabilities(c)
    if p_b == p_a:
        return f"{better_label(c, 'a', r)} = {better_label(c, 'b', r)} {p_is(c.p_b_better)}, a tie"
    side = "b" if p_b > p_a else "a"
    sep = " " if below == "<" else ", "
    return f"{better_label(c, side, r)} {p_is(c.p_side(side))}{sep}{below} {tau:g}"


def difference_words(c: Comparison, alpha: float, first: str | None = None) -> str:
    """Δ of a comparison in points with its credible interval, as ``first`` minus the other (default B − A):
    ``"+0.52 points, 95% interval [+0.21, +0.83]"``; "" without a difference posterior.

    Parameters
    ----------
    c : Comparison
        The comparison; its ``difference`` posterior (fractions) is read.
    alpha : float
        The interval is the 1 − alpha credible interval.
    first : str or None
        The system whose score comes first in the difference; None (or ``c.b``) gives B − A.

    Returns
    -------
    str
    """
    d = c.difference
    if d is None:
        return ""
    sign = -1.0 if first == c.a else 1.0
    lo, hi = sorted((sign * d.ci[0], sign * d.ci[1]))
    return (f"{100 * sign * d.estimate:+.2f} points, {100 * (1 - alpha):g}% interval "
            f"[{100 * lo:+.2f}, {100 * hi:+.2f}]")


def difference_basis(report: Report) -> str:
    """Sentences on how the posteriors of the differences were built (paired or not), for under the tables.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    str
        Paired or independent, and (without a rope, threshold above 0.5) how the decision relates to the
        interval; "" when no comparison has a difference posterior.
    """
    report = as_report(report)
    bases = {c.difference.basis for c in report.comparisons if c.difference is not None}
    if not bases:
        return ""
    tau = threshold_of(report)
    one_sided = (f" A side is called better exactly when the {100 * (2 * tau - 1):g}% interval of Δ lies on its side "
                 f"of 0 (P ≥ {tau:g} is one-sided), so a {100 * (1 - report.alpha):g}% interval that touches 0 can go "
                 "with a decision." if tau > 0.5 and rope_points(report) is None else "")
    return _basis_words(report, bases) + one_sided


def sources_line(report: Report) -> str:
    """Where the error of each pair's ΔF1 comes from: new text and the models' own noise (split into the training
    halves and the seeds when the systems had several seeds, measured on their own), as SDs in points, the largest
    named, and what more splits, seeds or text would shrink.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    str
        One line over the F1 pairs with a paired posterior; "" when there is none.
    """
    report = as_report(report)
    parts = []
    for c in report.comparisons_of("f1"):
        p = c.difference.paired if c.difference is not None else None
        if p is None or p.var == 0:
            continue
        who = f"{c.a} vs {c.b}: " if len(report.names) > 2 else ""
        if p.seeds is not None:  # three parts, each measured on its own
            src = {"new text": p.var_test, "the training halves": p.var_model, "the training seeds": p.var_seed_part}
            largest = max(src, key=lambda k: src[k])
            sd = ", ".join(f"{k} {100 * v ** 0.5:.2f}" for k, v in src.items())
            sa, sb = p.seeds
            seeds_now = f"{sa} seeds" if sa == sb else f"{sa} and {sb} seeds"
            more_seeds = p.at_seeds(2 * max(sa, sb))
            buys = (f"with {2 * max(sa, sb)} seeds per fold the ΔF1 SD would be about {100 * more_seeds.sd:.2f} "
                    f"(now {100 * p.sd:.2f} with {seeds_now})")
            if p.m < 7:
                buys += f", with m = 7 splits about {100 * p.at_m(7).sd:.2f}"
            parts.append(f"{who}{sd}; the largest: {largest}; {buys}")
            continue
        src = {"new text": p.var_test, "the models' own noise": p.var_model}
        largest = max(src, key=lambda k: src[k])
        sd_ = {k: f"{100 * v ** 0.5:.2f}" for k, v in src.items()}
        if p.var_related:
            sd_["new text"] += f" (its part from {_related_words(p.cluster_unit)}: {100 * p.var_related ** 0.5:.2f})"
        seeds = ("" if p.var_seed is None
                 else f" (the seeds' whole effect, measured from each fold's seeds: {100 * p.var_seed ** 0.5:.2f}, "
                      "held within new text and the models' own noise)")
        parts.append(f"{who}" + ", ".join(f"{k} {v}" for k, v in sd_.items()) + f"{seeds}; the largest: {largest}")
    if not parts:
        return ""
    seeded = any(c.difference is not None and c.difference.paired is not None and c.difference.paired.seeds
                 for c in report.comparisons_of("f1"))
    noise = "training halves' and the seeds' parts (every fold has its own)" if seeded else "models' own noise"
    return ("Where the ΔF1 error comes from (SD in points): " + "; ".join(parts) + f". More splits shrink the {noise} "
            "and the part of the new-text error that differs from model to model; more seeds shrink the seeds' part; "
            "only more text shrinks the part of the new-text error that is the sentences' own difficulty.")


def _related_words(unit: str) -> str:
    """What the related part of the new-text error is, for the clusters' unit."""
    return f"{'documents' if unit == 'documents' else 'sentences'} that share a rare name"


def power_line(report: Report, power: float = 0.8) -> str:
    """The report's line on what this comparison can detect: the F1 gain called better with ``power`` (and with
    50%) at the report's threshold, per pair with a paired posterior, and at m = 7 when the run has fewer.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).
    power : float
        The probability of calling the gain better (0.8 is 80%); default 0.8.

    Returns
    -------
    str
        The detectable gains in F1 points; "" when no F1 pair has a paired posterior with a non-zero SD.
    """
    report = as_report(report)
    tau = threshold_of(report)
    parts = []
    for c in report.comparisons_of("f1"):
        p = c.difference.paired if c.difference is not None else None
        if p is None or p.sd == 0:
            continue
        more = f"; with m = 7 about {100 * p.at_m(7).detectable(power, tau):.2f}" if p.m < 7 else ""
        who = f" ({c.a} vs {c.b})" if len(report.names) > 2 else ""
        parts.append(f"about {100 * p.detectable(power, tau):.2f} F1 points with {100 * power:g}% power "
                     f"({100 * p.detectable(0.5, tau):.2f} with 50%){more}{who}")
    if not parts:
        return ""
    return (f"Power: at P ≥ {tau:g} this comparison detects true gains of " + "; ".join(parts)
            + " (`textbcv plan RUN --target-delta D` for a gain of your own).")


def _basis_words(report: CompareReport, bases: set) -> str:
    if bases == {"paired"}:
        clusters = next(c.difference.paired.cluster_unit for c in report.comparisons
                        if c.difference is not None and c.difference.paired is not None)
        seeded = all(c.difference.paired.seeds for c in report.comparisons
                     if c.difference is not None and c.difference.paired is not None)
        if any(c.difference is not None and c.difference.paired is not None
               and c.difference.paired.var_related is not None for c in report.comparisons):
            clusters += f" as clusters, with the covariance of {clusters} that share a rare name"
        else:
            clusters += " as clusters"
        if seeded:
            return ("Differences are paired: their posterior comes from both systems' counts on the same test "
                    f"sentences ({clusters}), so what both get wrong together cancels, net of the seeds' "
                    "sentence-level randomness; it adds what the training seeds change (from the spread of each fold's "
                    "seeds, same training half, same test sentences) and what the training halves change (from the "
                    "folds' spread beyond both): three parts, each measured on its own, as a Student t with 2m − 1 "
                    "degrees of freedom.")
        return ("Differences are paired: their posterior comes from both systems' counts on the same test "
                f"sentences ({clusters}), so what both get wrong together cancels; it adds the models' own "
                "noise (the training half, the seed: from the folds' spread beyond their test sentences), as a "
                "Student t with 2m − 1 degrees of freedom. It speaks for models trained on this corpus.")
    return ("Differences are not paired (the folds have no per-sentence counts): the two systems' posteriors are "
            "combined as if their errors were independent, which is wider than the paired answer wherever both "
            "systems fail on the same sentences (on real text about twice too wide), so real gains are called less "
            "often.")


def _pair_sentence(report: CompareReport, c: Comparison, identical: bool) -> str:
    """The conclusion's sentence on one pair's F1."""
    tau, r = threshold_of(report), rope_points(report)
    a, b = c.a, c.b
    if c.undefined:
        return f"F1 cannot be compared for {a} and {b}: {c.undefined}."
    fa, fb = _estimate(report, a), _estimate(report, b)
    if identical:
        return f"{a} and {b} are tied: the same chunk counts in every fold (F1 {pct(fa)}% each)."
    eq = ""
    if r is not None and c.p_equivalent is not None:
        eq = f"; P(equivalent: within ±{points(r)}) {p_is(c.p_equivalent)}"
    if c.winner:
        win, lose = c.winner
        fw, fl = (fb, fa) if win == b else (fa, fb)
        side = "b" if win == b else "a"
        gap = difference_words(c, report.alpha, first=win) or f"{100 * (fw - fl):+.2f} points"
        return (f"{win} is better than {lose} on F1: {pct(fw)}% against {pct(fl)}% ({gap}); "
                f"{better_label(c, side, r)} {p_is(c.p_side(side))} ≥ {tau:g}{eq}.")
    if c.equivalent and r is not None:
        return (f"{a} and {b} are practically equivalent on F1 ({pct(fa)}% and {pct(fb)}%): P(equivalent: within "
                f"±{points(r)}) {p_is(c.p_equivalent)} ≥ {tau:g}.")
    if fa == fb:
        scores = f"{a} and {b} have the same F1 ({pct(fa)}%)"
    elif _same_display(fa, fb):
        scores = f"{a} and {b} have the same F1 to two decimals ({pct(fa)}%)"
    else:
        hi, lo = (b, a) if fb > fa else (a, b)
        fh, fl = max(fa, fb), min(fa, fb)
        scores = f"{hi} ({pct(fh)}%) and {lo} ({pct(fl)}%)"
    gap = difference_words(c, report.alpha, first=b)
    gap = f"; {b} − {a}: {gap}" if gap else ""
    return f"No clear difference on F1 between {scores}: {_undecided(c, r, tau, 'below')}{eq}{gap}."


def conclusion(report: Report) -> str:
    """A short paragraph in plain language on F1: which system the decision rule calls better, how sure, how large.

    Two systems: one sentence on the pair and one on the sequential t-test.
    Three or more: one sentence per clear difference (and per practically
    equivalent pair), one per group of tied systems, one for the rest.
    Below the threshold no winner is named.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    str
    """
    report = as_report(report)
    m, tau = report.m, threshold_of(report)
    names = report.names
    pairs = report.comparisons_of("f1")
    groups = identical_groups(report)
    group_of = {n: i for i, g in enumerate(groups) for n in g}

    def same(c):
        return c.a in group_of and group_of.get(c.a) == group_of.get(c.b)

    intro = (f"On {design_name(report)} ({2 * m} folds per system), {short_rule(report)}.")
    if len(names) == 2 and len(pairs) == 1:
        c = pairs[0]
        parts = [intro, _pair_sentence(report, c, same(c))]
        seq = _seq_sentence(report, c)
        if seq and not same(c):
            parts.append(seq)
        return " ".join(parts)
    order = [x["name"] for x in ranking(report)]
    parts = [intro]
    winners = {c: c.winner for c in pairs if c.winner}
    clear = sorted(winners, key=lambda c: (order.index(winners[c][0]), order.index(winners[c][1])))
    for c in clear:
        win, lose = winners[c]
        side = "b" if win == c.b else "a"
        parts.append(f"{win} is better than {lose} on F1 ({better_label(c, side, rope_points(report))} "
                     f"{p_is(c.p_side(side))}).")
    for c in pairs:
        if c.equivalent and not c.winner and not same(c):
            parts.append(f"{c.a} and {c.b} are practically equivalent on F1 (P(equivalent) {p_is(c.p_equivalent)}).")
    for g in groups:
        f1 = report.systems[g[0]]["f1"].estimate
        parts.append(f"{_and(g)} are tied: the same chunk counts in every fold (F1 {pct(f1)}% each).")
    for c in pairs:
        if c.undefined:
            parts.append(f"F1 cannot be compared for {c.a} and {c.b}: {c.undefined}.")
    rest = [c for c in pairs if not c.winner and not c.equivalent and not same(c) and not c.undefined]
    if rest and not clear:
        best = max(rest, key=lambda c: max(_probabilities(c)))
        p_b, p_a = _probabilities(best)
        side = "b" if p_b >= p_a else "a"
        other = "a" if side == "b" else "b"
        parts.append(f"No{' other' if groups else ''} pair differs clearly on F1: the largest P(better) is "
                     f"{fmt_p(best.p_side(side))} ({best.name(side)} over {best.name(other)}), below {tau:g}.")
    elif rest:
        n = len(rest)
        parts.append(f"The other {n} pair{'s show' if n > 1 else ' shows'} no clear difference (P(better) below "
                     f"{tau:g}; see the pairwise table).")
    if report.sequential:
        k = sum(s.ahead in ("A", "B") for s in report.sequential)
        parts.append(f"The sequential t-test on per-fold F1 differences rejects equality for {k} of the "
                     f"{len(report.sequential)} pairs at α = {report.alpha:g}.")
    return " ".join(parts)


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]



#: F1 intervals wider than this (a fraction) for every system: the corpus is too small to say much.
WIDE_INTERVAL = 0.20


def run_warnings(report: Report) -> list[str]:
    """What a user must hear before reading the report: a system that predicted no chunk, a corpus too small.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for anything else).

    Returns
    -------
    list of str
        The warnings, one sentence each without a final period; empty when there is nothing to warn about.

    Examples
    --------
    >>> run_warnings(CompareReport.from_dict({"m": 1, "systems": {"a": {"f1": {"estimate": 0.5, "ci": [0.2, 0.8]}},
    ...                                    "b": {"f1": {"estimate": 0.0, "ci": [0.0, 0.1]}}},
    ...               "counts": {"a": {"tp": 3, "fp": 3, "fn": 3}, "b": {"tp": 0, "fp": 0, "fn": 6}},
    ...               "comparisons": []}))  # doctest: +NORMALIZE_WHITESPACE
    ['b predicted no chunk on any fold: its precision is undefined and its recall 0 (check how it was trained)']
    """
    report = as_report(report)
    out = []
    for name, c in (report.counts or {}).items():
        if int(c.get("tp", 0)) + int(c.get("fp", 0)) == 0:
            out.append(f"{name} predicted no chunk on any fold: its precision is undefined and its recall 0 "
                       "(check how it was trained)")
    widths = [s["f1"].ci[1] - s["f1"].ci[0] for s in report.systems.values() if s["f1"].ci is not None]
    if widths and min(widths) > WIDE_INTERVAL:
        out.append(f"every system's {100 * (1 - report.alpha):g}% F1 interval is wider than "
                   f"{100 * WIDE_INTERVAL:.0f} points (narrowest {100 * min(widths):.0f}): the corpus is too small for "
                   "this comparison to say much; more text, or more documents, narrows them")
    return out
