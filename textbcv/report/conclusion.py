"""The conclusion: a short plain-language paragraph on F1, worded from the recorded decisions.

Examples
--------
>>> r = CompareReport.from_dict({"m": 3, "alpha": 0.05, "threshold": 0.95, "rope": None,
...      "systems": {"A": {"f1": {"estimate": .80, "ci": [.78, .82]}},
...                  "B": {"f1": {"estimate": .81, "ci": [.79, .83]}}},
...      "comparisons": [{"a": "A", "b": "B", "metric": "f1", "p_b_better": .7, "p_a_better": .3,
...                       "decision": "no clear difference"}], "sequential": []})
>>> print(conclusion(r))  # doctest: +NORMALIZE_WHITESPACE
On 3×2 block-regularized cross-validation (6 folds per system), a system is called better when P(better) ≥ 0.95.
No clear difference on F1 between B (81.00%) and A (80.00%): P(B better) = 0.700, below 0.95.
"""

from __future__ import annotations

import math

from textbcv.report.methods import and_list, design_name
from textbcv.report.model import CompareReport
from textbcv.report.numbers import fmt_p, p_is, pct, points
from textbcv.report.ranking import identical_groups, ranking
from textbcv.report.sections.sequential import SequentialSection
from textbcv.report.verdicts import (
    better_label,
    caution_clause,
    decisive_words,
    difference_words,
    short_rule,
    undecided,
)
from textbcv.stats.answer import Comparison

__all__ = ["conclusion"]


def conclusion(report: CompareReport) -> str:
    """The report's conclusion on F1, opening with the design and rule; below the threshold no winner is named.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    m, tau = report.m, report.threshold
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
        parts.append(f"{win} is better than {lose} on F1{caution_clause(c)} "
                     f"({better_label(c, side, report.rope_points)} {p_is(c.p_side(side))}).")
    for c in pairs:
        if c.equivalent and not c.winner and not same(c):
            parts.append(f"{c.a} and {c.b} are practically equivalent on F1 (P(equivalent) {p_is(c.p_equivalent)}).")
    for g in groups:
        f1 = report.systems[g[0]]["f1"].estimate
        parts.append(f"{and_list(g)} are tied: the same chunk counts in every fold (F1 {pct(f1)}% each).")
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
    t_test = report.section(SequentialSection)
    if t_test is not None and t_test.pairs:
        k = sum(s.ahead in ("A", "B") for s in t_test.pairs)
        parts.append(f"The sequential t-test on per-fold F1 differences rejects equality for {k} of the "
                     f"{len(t_test.pairs)} pairs at α = {report.alpha:g}.")
    return " ".join(parts)


def _pair_sentence(report: CompareReport, c: Comparison, identical: bool) -> str:
    """The conclusion's sentence on one pair's F1."""
    tau, r = report.threshold, report.rope_points
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
        gap = decisive_words(c, r) or (f"{b} − {a}: " + (difference_words(c, report.alpha, first=b)
                                                          or f"{100 * (fb - fa):+.2f} points"))
        return (f"{win} is better than {lose} on F1{caution_clause(c)}: {pct(fw)}% against {pct(fl)}% ({gap}); "
                f"{better_label(c, side, r)} {p_is(c.p_side(side))} ≥ {tau:g}{eq}.")
    if c.equivalent and r is not None:
        return (f"{a} and {b} are practically equivalent on F1 ({pct(fa)}% and {pct(fb)}%): P(equivalent: within "
                f"±{points(r)}) {p_is(c.p_equivalent)} ≥ {tau:g}.")
    if fa == fb:
        scores = f"{a} and {b} have the same F1 ({pct(fa)}%)"
    elif pct(fa) == pct(fb):
        scores = f"{a} and {b} have the same F1 to two decimals ({pct(fa)}%)"
    else:
        hi, lo = (b, a) if fb > fa else (a, b)
        fh, fl = max(fa, fb), min(fa, fb)
        scores = f"{hi} ({pct(fh)}%) and {lo} ({pct(fl)}%)"
    gap = decisive_words(c, r)
    if not gap:
        gap = difference_words(c, report.alpha, first=b)
        gap = f"{b} − {a}: {gap}" if gap else ""
    gap = f"; {gap}" if gap else ""
    return f"No clear difference on F1 between {scores}: {undecided(c, r, tau, 'below')}{eq}{gap}."


def _seq_sentence(report: CompareReport, c: Comparison) -> str | None:
    """The sentence on the pair's sequential t-test, and why it may differ from the Bayes test."""
    t_test = report.section(SequentialSection)
    seq = next((s for s in (t_test.pairs if t_test else ()) if (s.a, s.b) == (c.a, c.b)), None)
    if seq is None:
        return None
    alpha = report.alpha
    d = c.difference
    if seq.ahead_name is None:
        text = (f"The sequential t-test on the per-fold F1 differences does not reject equality at α = {alpha:g} "
                f"(mean difference {100 * seq.estimate:+.2f} points, {c.b} − {c.a})")
        if c.winner is None or d is None or d.paired is None:
            return text + "."
        p = d.paired
        return (text + f"; the Bayes test calls {c.winner[0]} better because it measures the difference's error "
                f"on the per-sentence counts of {p.clusters:,} {p.cluster_unit} (SD {100 * p.sd:.2f} points), where "
                f"the t-test's interval comes from the spread of {2 * p.m} fold differences (half-width "
                f"{100 * (seq.ci[1] - seq.ci[0]) / 2:.2f} points). On real text the paired posterior's SD was close to "
                "its actual error while the sequential t-test rarely rejected differences of this size "
                "(docs/RESULTS.md, \"Real-text study of differences\").")
    ahead = seq.ahead_name
    text = (f"The sequential t-test on the per-fold F1 differences rejects equality at α = {alpha:g}: mean difference "
            f"{100 * seq.estimate:+.2f} points ({c.b} − {c.a}), {ahead} ahead")
    if c.winner and c.winner[0] == ahead:
        return text + ", as the Bayes test finds."
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
