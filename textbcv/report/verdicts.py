"""Each pair's recorded decision (made once by :func:`textbcv.stats.bayes.decide`) and the decision rule, in words.

Examples
--------
>>> from textbcv.stats.answer import BayesAnswer
>>> c = Comparison("A", "B", "f1", 0.7, 0.3, "no clear difference")
>>> report = CompareReport(BayesAnswer(3, 0.05, {}, (c,), "thesis", {}, "exact", 0.95, None, 1.0, {}))
>>> print(verdict_line(c, report))
no clear difference: P(B better) = 0.700 < 0.95
"""

from __future__ import annotations

from textbcv import defaults
from textbcv.report.blocks import Macro, MacroPair
from textbcv.report.calibration import QuotedCalibration
from textbcv.report.model import CompareReport
from textbcv.report.numbers import p_is, points
from textbcv.stats.answer import Comparison
from textbcv.stats.bayes import NO_CLEAR_DIFFERENCE

__all__ = ["UNMEASURED_SEEDS", "calibrated_design", "design_words",
           "rule", "short_rule", "better_label", "verdict", "verdict_line", "undecided",
           "difference_words", "decisive_words", "difference_basis", "rope_points", "interval_label", "shown_interval",
           "difference_cell", "marked_verdict", "caution_clause", "caution_notes", "macro_interval"]

#: The decision rule's note when the systems had several seeds and the seed null study has no figure for the posterior.
UNMEASURED_SEEDS = ("How often this rule calls identical systems trained with several seeds per fold different has not "
                    "been measured on real text for this posterior yet.")


def rope_points(report: CompareReport) -> float | None:
    """The report's rope in points, or None without one.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    float or None
    """
    return report.rope_points


def rule(report: CompareReport) -> str:
    """The decision rule in one sentence; with paired differences and no rope, the false-call rates measured for it.

    Parameters
    ----------
    report : CompareReport
        Its threshold, rope and comparisons are read.

    Returns
    -------
    str

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer
    >>> report = CompareReport(BayesAnswer(1, 0.05, {}, (), "thesis", {}, "exact", 0.95, None, 1.0, {}))
    >>> print(rule(report))  # doctest: +NORMALIZE_WHITESPACE
    Decision rule: a system is called better than another when the posterior probability that it is better,
    P(better), is at least 0.95 (--threshold); below that the answer is "no clear difference", with P.
    """
    tau, r = report.threshold, report.rope_points
    if r is None:
        diffs = [c.difference for c in report.comparisons if c.difference is not None]
        paired = {d.basis for d in diffs} == {"paired"}
        # several seeds on both sides make the seeds a part of the posterior: the seed null study measured that one
        seeded = paired and all(d.paired is not None and d.paired.seeds is not None and min(d.paired.seeds) >= 2
                                for d in diffs)
        measured = defaults.false_calls(tau, seeds=seeded) if paired else None
        if measured is None and seeded:
            measured = UNMEASURED_SEEDS
        own = _own_calibration(report, seeded) if paired else None
        if own is not None:
            measured = own
        floor = defaults.floor_calls(report.m, tau) if paired and not seeded and report.m < 7 else None
        if floor:  # the one target the rule misses: said where the rule is stated, and flagged where it bites
            measured = ((measured + " " if measured else "") + "A call made while the models' own noise measured "
                        f"0 on the folds is surer on paper than in fact: {floor}; such a call is flagged beside it.")
        return ("Decision rule: a system is called better than another when the posterior probability that it is "
                f"better, P(better), is at least {tau:g} (--threshold); below that the answer is \"no clear "
                "difference\", with P." + (f" {measured}" if measured else ""))
    return (f"Decision rule: a system is called better than another when the posterior probability that it is better "
            f"by more than the rope of {points(r)} (--rope), P(better), is at least {tau:g} (--threshold); below "
            f"that the answer is \"no clear difference\", with P. Two systems are called practically "
            f"equivalent when P(equivalent) — the probability that their scores differ by at most {points(r)} — is "
            f"at least {tau:g}.")


def design_words(design: str, m: int | None, m_max: int | None) -> str:
    """A design as the rule's sentence names it.

    Parameters
    ----------
    design : {"fixed", "measured"}
    m, m_max : int or None
        The fixed m, or the measured design's first and last m.

    Returns
    -------
    str

    Examples
    --------
    >>> design_words("fixed", 3, None), design_words("measured", 3, 7)
    ('m = 3', 'the measured design (m = 3, extended to 7)')
    """
    return f"the measured design (m = {m}, extended to {m_max})" if design == "measured" else f"m = {m}"


def calibrated_design(cal: QuotedCalibration, report: CompareReport) -> bool:
    """Whether a calibration (``report.calibration``) measured the design this report's run used.

    Parameters
    ----------
    cal : QuotedCalibration
        The quoted calibration: its ``m``, and ``design``/``m_max`` where it ran the measured design.
    report : CompareReport

    Returns
    -------
    bool
        A measured calibration matches a run by the measured rule with the same first and last m (whichever m the
        run stopped at); a fixed one a fixed run at its m.

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer
    >>> r = CompareReport(BayesAnswer(3, 0.05, {}, (), "thesis", {}, "exact", 0.95, None, 1.0, {}))
    >>> fixed = QuotedCalibration.from_dict({"m": 3})
    >>> measured = QuotedCalibration.from_dict({"m": 3, "design": "measured", "m_max": 7})
    >>> calibrated_design(fixed, r), calibrated_design(measured, r)
    (True, False)
    """
    if cal.design == "fixed-split":  # one training and test split per data set: not an m×2 run's design
        return False
    stopping = report.stopping
    rule = None if stopping is None else stopping.rule
    if cal.design == "measured":
        return (rule == "measured" and stopping is not None and stopping.m_max == cal.m_max
                and (cal.m if stopping.m_start is None else stopping.m_start) == cal.m)
    return not rule and cal.m == report.m


def _own_calibration(report: CompareReport, seeded: bool) -> str | None:
    """The user's own calibration sentence for the rule, why it is not quoted, or None without one."""
    cal = report.calibration
    if cal is None:
        return None
    where = f"the run's {cal.folder}/ folder"
    k = cal.seeds_per_side
    if (k > 1) != seeded:  # one seed per fold and several seeds are different posteriors
        measured = defaults.false_calls(report.threshold, seeds=seeded) or (UNMEASURED_SEEDS if seeded else "")
        return (f"{measured} Your calibration of this corpus ({where}) trained "
                + (f"{k} seeds per system" if k > 1 else "one seed per system")
                + ", this run " + ("several" if seeded else "one") + ", so it is not quoted.").strip()
    if not calibrated_design(cal, report) or cal.threshold != report.threshold:
        measured = defaults.false_calls(report.threshold) or ""
        stopping = report.stopping
        rule = None if stopping is None else stopping.rule
        run = (design_words("measured", 3 if stopping.m_start is None else stopping.m_start, stopping.m_max)
               if stopping is not None and rule == "measured" else f"m = {report.m}"
               + (f" ({rule} stopping)" if rule else ""))
        theirs = design_words(cal.design or "fixed", cal.m, cal.m_max)
        return (f"{measured} Your calibration of this corpus ({where}) was measured with {theirs} and P ≥ "
                f"{cal.threshold:g}, not with this report's {run} and P ≥ {report.threshold:g}, so it "
                "is not quoted.").strip()
    return f"Measured on this corpus by `textbcv calibrate` ({where}): {cal.sentence}"


def short_rule(report: CompareReport) -> str:
    """The decision rule in a clause: ``a system is called better when P(better) ≥ 0.95``.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    r = report.rope_points
    by = f" by more than {points(r)}" if r is not None else ""
    return f"a system is called better when P(better{by}) ≥ {report.threshold:g}"


def better_label(c: Comparison, side: str, rope: float | None = None) -> str:
    """The label of one side's probability: ``P(iobes better)``, with a rope ``P(iobes better by > r)``.

    Parameters
    ----------
    c : Comparison
    side : {"a", "b"}
    rope : float or None
        The rope in points (not a fraction); None for no rope.

    Returns
    -------
    str

    Examples
    --------
    >>> better_label(Comparison("A", "B", "f1", 0.7, 0.3, "no clear difference"), "a", 0.5)
    'P(A better by > 0.5)'
    """
    by = f" by > {rope:g}" if rope is not None else ""
    return f"P({c.name(side)} better{by})"


def verdict(c: Comparison) -> str:
    """A comparison's recorded decision in words (worded, not remade).

    Parameters
    ----------
    c : Comparison

    Returns
    -------
    str
        ``"iobes better"``, ``"no clear difference"``, ``"practically equivalent"`` or ``"undefined"``.

    Examples
    --------
    >>> verdict(Comparison("iob2", "iobes", "f1", 0.97, 0.03, "B better"))
    'iobes better'
    """
    if c.undefined:
        return "undefined"
    if c.winner:
        return f"{c.winner[0]} better"
    return "practically equivalent" if c.equivalent else NO_CLEAR_DIFFERENCE


def undecided(c: Comparison, rope: float | None, threshold: float, below: str) -> str:
    """The probability behind "no clear difference": the larger side's P and the threshold it misses.

    Parameters
    ----------
    c : Comparison
        Not undefined.
    rope : float or None
        In points.
    threshold : float
    below : str
        ``"<"`` (after a space) or ``"below"`` (after a comma).

    Returns
    -------
    str

    Examples
    --------
    >>> undecided(Comparison("A", "B", "f1", 0.7, 0.3, "no clear difference"), None, 0.95, "below")
    'P(B better) = 0.700, below 0.95'
    """
    p_b, p_a = c.p_b_better, c.p_a_better
    assert p_b is not None and p_a is not None, c
    if p_b == p_a:
        return f"{better_label(c, 'a', rope)} = {better_label(c, 'b', rope)} {p_is(p_b)}, a tie"
    side = "b" if p_b > p_a else "a"
    sep = " " if below == "<" else ", "
    return f"{better_label(c, side, rope)} {p_is(c.p_side(side))}{sep}{below} {threshold:g}"


def verdict_line(c: Comparison, report: CompareReport) -> str:
    """The verdict with the probability that decided it (or why it is undefined), for a title or terminal line.

    Parameters
    ----------
    c : Comparison
    report : CompareReport
        Only its threshold and rope are read.

    Returns
    -------
    str
    """
    tau, r = report.threshold, report.rope_points
    if c.undefined:
        return c.undefined
    if c.winner:
        side = "b" if c.decision == "B better" else "a"
        return f"{verdict(c)}: {better_label(c, side, r)} {p_is(c.p_side(side))} ≥ {tau:g}"
    text = f"{NO_CLEAR_DIFFERENCE}: {undecided(c, r, tau, '<')}"
    if r is not None:
        text += f"; P(equivalent) {p_is(c.p_equivalent)}" + (f" ≥ {tau:g}: practically equivalent"
                                                               if c.equivalent else "")
    return text


def difference_words(c: Comparison, alpha: float, first: str | None = None) -> str:
    """Δ in points with its credible interval, as ``first`` minus the other; "" without a difference posterior.

    Parameters
    ----------
    c : Comparison
    alpha : float
        The interval is the 1 − alpha credible interval.
    first : str or None
        The system whose score comes first; None (or ``c.b``) gives B − A.

    Returns
    -------
    str
        E.g. ``"+0.52 points, 95% interval [+0.21, +0.83]"``.
    """
    d = c.difference
    if d is None:
        return ""
    sign = -1.0 if first == c.a else 1.0
    lo, hi = sorted((sign * d.ci[0], sign * d.ci[1]))
    return (f"{100 * sign * d.estimate:+.2f} points, {100 * (1 - alpha):g}% interval "
            f"[{100 * lo:+.2f}, {100 * hi:+.2f}]")


def decisive_words(c: Comparison, rope: float | None = None) -> str:
    """Δ (B − A) with the interval the rule decides by (2·threshold − 1) and where it lies; "" without one.

    Parameters
    ----------
    c : Comparison
    rope : float or None
        In points.

    Returns
    -------
    str

    Examples
    --------
    >>> from textbcv.stats.answer import Difference
    >>> d = Difference(-0.0091, (-0.0198, 0.0015), "independent", None, (-0.0178, -0.0004), 0.9)
    >>> decisive_words(Comparison("iob2", "iobes", "f1", 0.04, 0.96, "A better", difference=d))
    "iobes − iob2 = -0.91 points; the rule's 90% interval [-1.78, -0.04] lies below 0"
    """
    d = c.difference
    if d is None or d.decisive is None or d.level is None:
        return ""
    lo, hi = d.decisive
    bound = 0.0 if rope is None else rope / 100
    mark = f"{points(rope)}" if rope else "0"
    if lo > bound:
        where = f"lies above {'+' if rope else ''}{mark}"
    elif hi < -bound:
        where = f"lies below {'−' if rope else ''}{mark}"
    else:
        where = f"does not lie beyond {'±' if rope else ''}{mark} on either side"
    return (f"{c.b} − {c.a} = {100 * d.estimate:+.2f} points; the rule's {100 * d.level:g}% interval "
            f"[{100 * lo:+.2f}, {100 * hi:+.2f}] {where}")


def difference_basis(report: CompareReport) -> str:
    """How the difference posteriors were built (paired or not), for under the tables; "" without any.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    bases = {c.difference.basis for c in report.comparisons if c.difference is not None}
    if not bases:
        return ""
    tau = report.threshold
    one_sided = (f" A side is called better exactly when the {100 * (2 * tau - 1):g}% interval of Δ lies on its side "
                 f"of 0 (P ≥ {tau:g} is one-sided): that interval, the rule's, is the one shown beside every "
                 "difference." if tau > 0.5 and report.rope_points is None else "")
    return _basis_words(report, bases) + one_sided


def _basis_words(report: CompareReport, bases: set) -> str:
    paired = [c.difference.paired for c in report.comparisons
              if c.difference is not None and c.difference.paired is not None]
    if bases == {"paired"}:
        clusters = paired[0].cluster_unit
        if any(p.var_related is not None for p in paired):
            clusters += f" as clusters, with the covariance of {clusters} that share a rare name"
        else:
            clusters += " as clusters"
        if all(p.seeds for p in paired):
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


def interval_label(report: CompareReport) -> str:
    """The level of the interval shown beside a difference: ``90% interval, the rule's`` (2·threshold − 1).

    Parameters
    ----------
    report : CompareReport
        Its threshold (and alpha, where the threshold is 0.5 or below and no interval decides) are read.

    Returns
    -------
    str

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer
    >>> interval_label(CompareReport(BayesAnswer(3, 0.05, {}, (), "thesis", {}, "exact", 0.95, None, 1.0, {})))
    "90% interval, the rule's"
    """
    tau = report.threshold
    if tau > 0.5:
        return f"{100 * (2 * tau - 1):g}% interval, the rule's"
    return f"{100 * (1 - report.alpha):g}% interval"


def shown_interval(c: Comparison) -> tuple[float, float] | None:
    """The interval of Δ (B − A, fractions) shown beside the difference: the rule's where it has one, else ``ci``.

    Parameters
    ----------
    c : Comparison

    Returns
    -------
    (float, float) or None
        None without a difference posterior.
    """
    d = c.difference
    if d is None:
        return None
    return d.decisive if d.decisive is not None else d.ci


def difference_cell(c: Comparison, tex: bool = False) -> str:
    """Δ (B − A) in points with the shown interval, for a table cell: ``-0.91 [-1.78, -0.04]``; a dash without one.

    Parameters
    ----------
    c : Comparison
    tex : bool
        Numbers in LaTeX math.

    Returns
    -------
    str
    """
    d, ci = c.difference, shown_interval(c)
    if d is None or ci is None:
        return "---" if tex else "—"
    nums = [f"{100 * x:+.2f}" for x in (d.estimate, ci[0], ci[1])]
    if tex:
        nums = [f"${x}$" for x in nums]
    return f"{nums[0]} [{nums[1]}, {nums[2]}]"


def marked_verdict(c: Comparison) -> str:
    """The verdict with its cautions' short forms, for a table cell or a plot title: ``iob2 better (model noise not
    measured)``.

    Parameters
    ----------
    c : Comparison

    Returns
    -------
    str

    Examples
    --------
    >>> from textbcv.stats.answer import Caution
    >>> marked_verdict(Comparison("A", "B", "f1", .97, .03, "B better", cautions=(Caution("k", "mark", "text"),)))
    'B better (mark)'
    """
    text = f"undefined: {c.undefined}" if c.undefined else verdict(c)
    return text + (f" ({'; '.join(x.mark for x in c.cautions)})" if c.cautions else "")


def caution_clause(c: Comparison) -> str:
    """The cautions in full, as a clause said at the call: `` (caution: ...; caution: ...)``; "" without any.

    Parameters
    ----------
    c : Comparison

    Returns
    -------
    str
        With a leading space.
    """
    return f" (caution: {'; caution: '.join(x.text for x in c.cautions)})" if c.cautions else ""


def caution_notes(report: CompareReport) -> list[str]:
    """One line per caution of the report's calls, for under a table: ``Caution, iob2 vs iobes, F1 — mark: text.``

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    return [f"Caution, {c.a} vs {c.b}, {_METRIC_NAMES.get(c.metric, c.metric)} ({x.mark}): {x.text}."
            for c in report.comparisons for x in c.cautions]


def macro_interval(pair: MacroPair, macro: Macro) -> tuple[float, float, str]:
    """A macro-F1 pair's shown interval (the rule's where the block has one) and its label.

    Parameters
    ----------
    pair : MacroPair
        One of the block's pairs.
    macro : Macro
        The block (its ``level`` labels ``ci``).

    Returns
    -------
    (float, float, str)

    Examples
    --------
    >>> p = MacroPair("A", "B", 0.02, (0.0, 0.04), 0.97, "B better", decisive=(0.9, (0.01, 0.03)))
    >>> macro_interval(p, Macro(("LOC", "PER"), (), (), (p,), level=0.95))
    (0.01, 0.03, "90% interval, the rule's")
    """
    if pair.decisive is not None:
        level, (lo, hi) = pair.decisive
        return lo, hi, f"{100 * level:g}% interval, the rule's"
    return pair.ci[0], pair.ci[1], f"{100 * (0.95 if macro.level is None else macro.level):g}% interval"


_METRIC_NAMES = {"f1": "F1", "precision": "precision", "recall": "recall"}
