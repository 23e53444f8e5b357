"""The sections of ``report.md`` that give the answer, each a function ``report -> list of lines``."""

from __future__ import annotations

from textbcv.report.conclusion import conclusion
from textbcv.report.model import CompareReport
from textbcv.report.numbers import LABELS, METRICS, fmt_p, points, score_cell
from textbcv.report.ranking import identical_groups, p_row_better, ranking
from textbcv.report.sources import power_line, sources_line
from textbcv.report.verdicts import (
    caution_notes,
    difference_basis,
    difference_cell,
    interval_label,
    marked_verdict,
    rule,
)

__all__ = ["conclusion_markdown", "scores_markdown", "ranking_markdown", "pairwise_markdown", "bayes_markdown"]


def conclusion_markdown(report: CompareReport) -> list[str]:
    """``## Conclusion``: the report's stored plain-language answer, else one worded now.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    return ["", "## Conclusion", "", report.conclusion or conclusion(report)]


def scores_markdown(report: CompareReport) -> list[str]:
    """``## Pooled scores``: P / R / F1 of each system with intervals, and the baseline's F1 when there is one.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    level = f"{100 * (1 - report.alpha):g}%"
    out = ["", f"## Pooled scores with {level} credible intervals", "",
           "| system | precision | recall | F1 |", "|---|---|---|---|"]
    one_sided = False
    for n, s in report.systems.items():
        out.append(f"| {n} | " + " | ".join(score_cell(s[k]) for k in METRICS) + " |")
        one_sided |= any(s[k].interval == "one-sided" for k in METRICS)
    out += ["", "Percent. Estimates are the pooled micro-averaged scores over all folds; intervals are "
            f"{level} credible intervals of the correlation-corrected posteriors (variant {_variant(report)})."]
    if one_sided:
        out[-1] += (" † one-sided interval: at a score of 0 or 100% (or near) the equal-tailed interval would not "
                    "hold the estimate, so the interval of the same credibility on its side is shown.")
    if any(s[k].estimate is None for s in report.systems.values() for k in METRICS):
        out[-1] += (" — marks a score that does not exist: precision without predicted chunks, recall without gold "
                    "chunks.")
    return out + _baseline_lines(report)


def _baseline_lines(report: CompareReport) -> list[str]:
    """The baseline's F1 beside the systems, and a flag on every system below it; none without a baseline."""
    b = report.baseline
    if b is None:
        return []
    tag = "character" if b.scheme == "bmes" else "token"
    out = ["", f"Baseline: a most-frequent-tag memoriser (each {tag}'s most frequent {b.scheme.upper()} "
               f"tag in the training half) scores F1 {100 * b.f1:.2f} on the same folds."]
    below = [(n, s["f1"].estimate) for n, s in report.systems.items()
             if s["f1"].estimate is not None and s["f1"].estimate < b.f1]
    if below:
        shown = ", ".join(f"{n} ({100 * f:.2f})" for n, f in below)
        out[-1] += (f" **Below the baseline: {shown}**: {'it has' if len(below) == 1 else 'they have'} learned less "
                    "than a lookup table, so this comparison says little about real taggers (a richer feature "
                    "template or more training iterations usually helps).")
    return out


def _variant(report: CompareReport) -> str:
    o = report.options
    v = report.variant
    return f"`{v}`, ρ1 = {o.get('rho1')}, ρ2 = {o.get('rho2')}" if v == "rho" else f"`{v}`"


def ranking_markdown(report: CompareReport) -> list[str]:
    """``## Ranking on F1``: best first, with intervals and whom each is better than; empty below three systems.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    if len(report.systems) < 3:
        return []
    tau = report.threshold
    level = f"{100 * (1 - report.alpha):g}%"
    out = ["", "## Ranking on F1", "", f"| rank | system | F1 [{level} CI] | better than (P(better) ≥ {tau:g}) |",
           "|---|---|---|---|"]
    for x in ranking(report):
        entry = report.systems[x["name"]]["f1"]
        out.append(f"| {x['rank'] or '—'} | {x['name']} | {score_cell(entry)} | {', '.join(x['better_than']) or '—'} |")
    groups = identical_groups(report)
    out += ["", "Systems with equal F1 share a rank; a rank is an order of the estimates, not a decision: only the "
            "last column is." + (" Tied (the same counts in every fold): "
                                 + "; ".join(", ".join(g) for g in groups) + "." if groups else "")]
    return out


def pairwise_markdown(report: CompareReport) -> list[str]:
    """``## Pairwise``: the matrix of P(row better than column) on F1; empty below three systems.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    if len(report.systems) < 3:
        return []
    tau = report.threshold
    order = [x["name"] for x in ranking(report)]
    r = report.rope_points
    by = f" by more than {points(r)}" if r is not None else ""
    out = ["", f"## Pairwise P(row better than column{by}) on F1", "",
           "| | " + " | ".join(order) + " |", "|---" * (len(order) + 1) + "|"]
    for row in order:
        cells = []
        for col in order:
            if row == col:
                cells.append("·")
                continue
            p = p_row_better(report, row, col)
            cells.append(f"**{fmt_p(p)}**" if p is not None and p >= tau and p > (p_row_better(report, col, row) or 0)
                         else fmt_p(p))
        out.append(f"| {row} | " + " | ".join(cells) + " |")
    out += ["", f"Bold: P(better) ≥ {tau:g}, the row is called better than the column. Rows and columns by pooled F1."]
    return out


def bayes_markdown(report: CompareReport) -> list[str]:
    """``## Bayes test``: every pair's probabilities and decision on every metric, the rule and notes.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    r = report.rope_points
    by = f" by > {r:g}" if r is not None else ""
    head = f"| A | B | metric | Δ (B − A), {interval_label(report)} | P(B better{by}) | P(A better{by}) |" \
        + (" P(equivalent) |" if r is not None else "") + " decision |"
    out = ["", "## Bayes test", "", head, "|---" * (7 + (r is not None)) + "|"]
    for c in report.comparisons:
        eq = f" {fmt_p(c.p_equivalent, 4)} |" if r is not None else ""
        out.append(f"| {c.a} | {c.b} | {LABELS[c.metric]} | {difference_cell(c)} | {fmt_p(c.p_b_better, 4)} | "
                   f"{fmt_p(c.p_a_better, 4)} |{eq} {marked_verdict(c)} |")
    notes = caution_notes(report)
    if notes:  # the cautions marked in the decision column, in full
        out += [""] + [f"- {n}" for n in notes]
    out += ["", rule(report)]
    basis = difference_basis(report)
    if basis:
        out += ["", "Δ in points. " + basis]
    sources = sources_line(report)
    if sources:
        out += ["", sources]
    power = power_line(report)
    if power:
        out += ["", power]
    names = report.names
    if len(names) > 2:
        k = len(names) * (len(names) - 1) // 2
        alpha = report.alpha
        out += ["", f"{k} pairs are compared: to keep the family-wise error at α = {alpha:g}, give --threshold "
                f"{1 - alpha / k:.4f} (1 − α/k) before calling a difference."]
    return out

