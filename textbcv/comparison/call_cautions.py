"""The cautions that stand beside a call, computed once when a report is assembled (docs/reading-the-report.md).

Two are made here: a call made while the models' own noise measured 0 on the folds, and a call
on a corpus whose own calibration (``RUN/calibration/``, quoted by :mod:`textbcv.comparison.calibration_quote`)
measured more false calls than the rule's rate. Each output only words what :func:`with_cautions` put on the
comparisons; none computes one.
"""

from __future__ import annotations

from dataclasses import replace

from textbcv import defaults
from textbcv.comparison.options import MEASURED_DESIGN
from textbcv.report.calibration import QuotedCalibration
from textbcv.report.model import CompareReport
from textbcv.report.verdicts import calibrated_design
from textbcv.stats.answer import Caution, Comparison

__all__ = ["with_cautions", "call_cautions"]

#: the splits of the measured design's last look: below them a floored part is "not measured", there "measured 0"
_MEASURED_M = int(MEASURED_DESIGN["m_max"])


def with_cautions(report: CompareReport) -> CompareReport:
    """``report`` with every comparison's cautions made afresh from its statistics and its calibration.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    CompareReport
        The same report; each comparison's ``cautions`` replaced (empty where none applies).

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer
    >>> c = Comparison("A", "B", "f1", 0.7, 0.3, "no clear difference")
    >>> r = CompareReport(BayesAnswer(3, 0.05, {}, (c,), "thesis", {}, "exact", 0.95, None, 1.0, {}))
    >>> with_cautions(r).comparisons[0].cautions
    ()
    """
    comps = tuple(replace(c, cautions=call_cautions(report, c)) for c in report.comparisons)
    return replace(report, answer=replace(report.answer, comparisons=comps))


def call_cautions(report: CompareReport, c: Comparison) -> tuple[Caution, ...]:
    """The cautions of one comparison's call: none unless it names a winner.

    Parameters
    ----------
    report : CompareReport
        Its m, threshold, corpus size and calibration are read.
    c : Comparison

    Returns
    -------
    tuple of Caution
    """
    if c.winner is None:
        return ()
    # the user's own measurement of this corpus first: it says how often such a call is wrong here
    return tuple(x for x in (_calibration_caution(report, c), _floor_caution(report, c)) if x is not None)


def _floor_caution(report: CompareReport, c: Comparison) -> Caution | None:
    """The caution on a call made while the models' own noise measured 0 on the folds, whatever m."""
    p = c.difference.paired if c.difference is not None else None
    if p is None or not p.floored:
        return None
    # the measured rates are of one seed per fold; with seeds of their own the floored part is the training halves'
    measured = defaults.floor_calls(min(p.m, _MEASURED_M), report.threshold) if p.seeds is None else None
    if p.m < _MEASURED_M:
        # one text whatever read the folds (`test` on an evaluate run's folds.jsonl must agree with its report):
        # imported predictions cannot be extended here, so the export that can is named beside --m 7
        remedy = ("`--m 7` measures that noise better (for predictions made elsewhere: `textbcv split --m 7 "
                  "--export` and predictions of its 14 halves)")
        text = (f"the models' own noise was too small to measure on these {2 * p.m} folds (their ΔF1 agree more "
                "closely than their test text alone predicts), so the interval holds new text's error alone"
                + (f"; {measured}" if measured else "") + f"; {remedy}")
        return Caution("model-noise", "model noise not measured", text)
    # at 7 splits the part rests on 13 degrees of freedom, yet null pairs floored there were still called more often
    # than the others on some corpora (docs/RESULTS.md): the call is quoted with that rate, not on its own
    text = (f"the models' own noise measured 0 on these {2 * p.m} folds (their ΔF1 agree more closely than their "
            "test text alone predicts), so the interval holds new text's error alone"
            + (f"; {measured}" if measured else "")
            + "; more text, or more splits (`--m 15`), measures that noise better")
    return Caution("model-noise", "model noise measured 0", text)


def _seeds_label(cal: QuotedCalibration, side: int) -> str:
    """One side's training seeds as the calibration names them (``seed 2``, ``seeds 4–6``)."""
    k = cal.seeds_per_side
    s = int(cal.seeds[side])
    return f"seed {s}" if k == 1 else f"seeds {s}–{s + k - 1}"


def _calibration_caution(report: CompareReport, c: Comparison) -> Caution | None:
    """The caution on an F1 call where the run's own calibration measured more false calls than the rule's rate."""
    cal = report.calibration
    p = c.difference.paired if c.difference is not None else None
    if cal is None or c.metric != "f1" or p is None or report.rope_points is not None:
        return None
    seeded = p.seeds is not None and min(p.seeds) >= 2
    if not calibrated_design(cal, report) or cal.threshold != report.threshold \
            or (cal.seeds_per_side > 1) != seeded:  # another design: the rule says why it is not quoted
        return None
    rate = 1 - report.threshold  # the rule's own false-call rate in each direction
    nulls = [x for x in cal.nulls if x.system in (c.a, c.b)] or list(cal.nulls)
    above, unsupported = [], False
    for x in nulls:
        for r, side in ((x.calls_b, 1), (x.calls_a, 0)):
            if r.rate is None or r.rate <= rate:
                continue
            unsupported = unsupported or (r.lo is not None and r.lo > rate)
            who = f"{x.system} against itself, " if len(nulls) > 1 else ""
            above.append(f"{who}{_seeds_label(cal, side)} called better in {100 * r.rate:.1f}% "
                         f"[{100 * (r.lo or 0.0):.1f}, {100 * (r.hi or 0.0):.1f}] of {r.n} data sets")
    if not above:
        return None
    sentences = report.corpus.get("sentences")
    size = (f"data sets of {int(cal.size or 0):,} sentences"
            + (f"; this run has {int(sentences):,}" if sentences else ""))
    text = (("not supported on this corpus: " if unsupported else "")
            + f"your calibration of this corpus: {'; '.join(above)}, above the rule's {100 * rate:g}% ({size})")
    mark = ("not supported on this corpus" if unsupported
            else f"calibration: false calls above {100 * rate:g}%")
    return Caution("calibration", mark, text, unsupported)
