"""The one terminal renderer: what ``test``, ``compare``, ``evaluate`` and ``report`` print."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from textbcv.report.conclusion import conclusion
from textbcv.report.markdown import render_markdown
from textbcv.report.md_answer import scores_markdown
from textbcv.report.model import CompareReport, CountsReport
from textbcv.report.numbers import fmt_p, score_cell
from textbcv.report.sources import power_line
from textbcv.report.textbook import format_p, format_statistic
from textbcv.report.verdicts import (
    caution_notes,
    difference_basis,
    difference_cell,
    interval_label,
    marked_verdict,
    rope_points,
    rule,
)

__all__ = ["report_text", "answer_text", "render_terminal", "counts_text", "corpora_text"]

#: columns the short answer's sentences are wrapped to
WIDTH = 100

METRICS = ("precision", "recall", "f1")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.2f}"


def _table(rows: list[list[str]], right: set[int] | frozenset[int] = frozenset()) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join((c.rjust(w) if i in right else c.ljust(w)) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


def report_text(report: CompareReport, plots: Sequence[str] = (), color: bool = False) -> str:
    """A comparison's report as the terminal shows it: its Markdown rendered by :func:`render_terminal`.

    Parameters
    ----------
    report : CompareReport
    plots : sequence of str
        Plot files drawn beside it, shown as ``[plot: FILE]``.
    color : bool
        ANSI bold and underline.

    Returns
    -------
    str
        Ending in a newline.
    """
    return render_terminal(render_markdown(report, list(plots)), color)


def answer_text(report: CompareReport, where: str | None = None, color: bool = False) -> str:
    """The short answer a command prints: conclusion, pooled scores, what the design can detect, where the report is.

    Parameters
    ----------
    report : CompareReport
    where : str, optional
        The run directory, named in the last line.
    color : bool
        ANSI bold headings.

    Returns
    -------
    str
        Ending in a newline.
    """
    concl = report.conclusion or conclusion(report)
    lines = textwrap.wrap(concl, WIDTH) + [""]
    table = render_terminal("\n".join(scores_markdown(report)[3:5 + len(report.systems)]), color).strip("\n")
    lines += [f"Pooled precision, recall and F1 (%) with {100 * (1 - report.alpha):g}% credible intervals:"]
    lines += table.splitlines()
    power = power_line(report).replace("`", "")
    if power:
        lines += [""] + textwrap.wrap(power, WIDTH)
    full = f"textbcv report {where} --full" if where else "--full"
    lines += ["", f"The whole report: {where}/report.md (or {full})." if where else
              f"The whole report: {full}."]
    return "\n".join(lines) + "\n"


def render_terminal(markdown: str, color: bool) -> str:
    """Markdown for a terminal: aligned tables, bold headings, code indented, plots as ``[plot: FILE]``.

    Parameters
    ----------
    markdown : str
    color : bool
        ANSI bold and underline; False gives plain text, top-level headings in capitals.

    Returns
    -------
    str
        Ending in a newline.
    """
    out: list[str] = []
    table: list[str] = []

    def flush():
        if not table:
            return
        rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in table
                if not re.fullmatch(r"\|?[-|\s]+\|?", r.strip())]
        if not rows:  # separator lines only
            table.clear()
            return
        widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(len(r) for r in rows))]
        for k, r in enumerate(rows):
            line = "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
            out.append(("\033[1m" + line + "\033[0m") if color and k == 0 else line)
        table.clear()

    code = False
    for line in markdown.splitlines():
        if line.startswith("```"):  # a command: shown indented
            flush()
            code = not code
            continue
        if code:
            out.append("    " + line)
            continue
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        image = re.fullmatch(r"!\[(.*)\]\((.*)\)", line.strip())
        if image:  # an embedded plot: its file
            out.append(f"[plot: {image.group(2)}]")
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            plain = title.upper() if line.startswith("# ") else title
            out.append(("\033[1;4m" + title + "\033[0m") if color else plain)
        else:
            out.append(line.replace("`", ""))
    flush()
    return "\n".join(out) + "\n"



def counts_text(result: CountsReport) -> str:
    """The readable form of a ``test`` answer: P, R and F1 in percent, probabilities as fractions.

    Parameters
    ----------
    result : CountsReport

    Returns
    -------
    str
        Ending in a newline.
    """
    answer = result.report
    alpha = answer.alpha
    lines = [f"m = {answer.m}, {100 * (1 - alpha):g}% credible intervals, "
             f"count factor: {answer.variant} (P, R, F1 in %)", ""]
    rows = [["system", "metric", "estimate", "interval"]]
    for name, per in answer.systems.items():
        for metric, v in per.items():
            if v.estimate is None:
                rows.append([name, metric, "—", f"undefined: {v.undefined}"])
            else:
                est, _, ci = score_cell(v).partition(" ")
                rows.append([name, metric, est, ci])
    lines += _table(rows, {2}) + [""]
    if any(v.interval == "one-sided" for per in answer.systems.values() for v in per.values()):
        lines += ["† one-sided interval: a score at or near 0 or 100%, where the equal-tailed one would not hold "
                  "it", ""]
    rope = rope_points(answer)
    by = f" by > {rope:g}" if rope is not None else ""
    head = ["A", "B", "metric", "Δ (B − A)", interval_label(answer), f"P(B better{by})",
            f"P(A better{by})"] + (["P(equiv.)"] if rope is not None else []) + ["decision"]
    rows = [head]
    for c in answer.comparisons:
        d = c.difference
        delta = ["—", "—"] if d is None else difference_cell(c).split(" ", 1)
        rows.append([c.a, c.b, c.metric, *delta, fmt_p(c.p_b_better, 4), fmt_p(c.p_a_better, 4)]
                    + ([fmt_p(c.p_equivalent, 4)] if rope is not None else []) + [marked_verdict(c)])
    lines += _table(rows, {3, 5, 6, 7} if rope is not None else {3, 5, 6})
    notes = caution_notes(answer)
    if notes:  # the cautions marked in the decision column, in full
        lines += [""] + [line for n in notes for line in textwrap.wrap(n, WIDTH)]
    lines += ["", rule(answer)]
    basis = difference_basis(answer)
    if basis:
        lines += ["", "Δ in points. " + basis]
    if answer.answer.family_wise is not None:
        lines += ["", "note: " + answer.answer.family_wise["note"]]
    lines += [line for s in answer.sections for line in s.terminal(answer.answer)]
    if result.per_type_tests is not None:
        lines += ["", *_per_type_text(answer.per_type, result.per_type_tests)]
    if result.classic is not None:
        lines += ["", *_classic_text(result.classic, answer.names)]
    for note in result.notes:
        lines += ["", "note: " + note]
    return "\n".join(lines) + "\n"


def _label(metric: str) -> str:
    return {"f1": "F1", "precision": "precision", "recall": "recall"}[metric]


def _per_type_text(pt: dict, tests: dict) -> list[str]:
    names = list(pt)
    pairs = [(c["a"], c["b"]) for c in next(iter(tests.values()), [])]
    head = ["type"] + [f"{n} P / R / F1" for n in names] + [f"P({b} better) F1 vs {a}" for a, b in pairs]
    rows = [head]
    for t in sorted(tests):
        row = [t or "(untyped)"]
        for n in names:
            c = pt[n][t]
            row.append(" / ".join(_pct(c[k]) for k in METRICS))
        row += [fmt_p(c["p_b_better"], 4) for c in tests[t]]
        rows.append(row)
    return ["Per-type scores (pooled over folds, %) and the Bayes test on each type's F1:",
            *_table(rows, set(range(1 + len(names), len(head))))]


def _classic_text(c: dict, names: list[str]) -> list[str]:
    p = format_p
    m = c["m"]
    out = [f"Textbook tests on per-fold {_label(c['metric'])} differences (B − A; m = {m}, {2 * m} folds):"]
    rows = [["A", "B", "test", "statistic", "p-value"]]
    seen: dict[str, tuple[str, str]] = {}
    for pair in c["pairs"]:
        for r in pair["tests"]:
            rows.append([pair["a"], pair["b"], r["name"], format_statistic(r), p(r)])
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
    out += _table(rows, {4})
    fr = c["friedman"]
    if fr:
        out += ["", f"Friedman test over the {fr['n']} folds (blocks) × {fr['k']} systems, rank 1 = best "
                    f"{_label(c['metric'])}:",
                "  average ranks: " + ", ".join(f"{n} {r:.2f}" for n, r in zip(names, fr["average_ranks"]))]
        for r in (fr["chi2"], fr["iman_davenport"]):
            out.append(f"  {r['name']}: "
                       "" + (format_statistic(r) if r["undefined"] else f"{format_statistic(r)}, p = {p(r)}"))
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
        differ = [f"{names[i]}–{names[j]}" for i, j in fr["nemenyi_differing_pairs"]]
        out.append(f"  Nemenyi critical difference (α = {fr['alpha']:g}): {fr['nemenyi_cd']:.3f}; pairs whose average "
                   f"ranks differ by more: {', '.join(differ) or 'none'}")
    mc = c["mcnemar"]
    if mc:
        out += ["", f"McNemar on split {mc['split']} direction {mc['direction']}, {mc['units']} {mc['decisions']} "
                    f"units — {mc['unit_definition']}:"]
        rows = [["A", "B", "b (A right, B wrong)", "c (A wrong, B right)", "test", "statistic", "p-value"]]
        for pair in mc["pairs"]:
            for r in pair["tests"]:
                rows.append([pair["a"], pair["b"], str(r["b"]), str(r["c"]), r["name"], format_statistic(r), p(r)])
                seen.setdefault(r["name"], (r["form"], r["assumption"]))
        out += _table(rows, {2, 3, 6})
    skipped = [(s["test"], s["reason"]) for s in c["pairs"][0]["not_applicable"]] + \
              [(s["test"], s["reason"]) for s in c["not_applicable"]]
    if skipped:
        out += ["", "Not run:"] + [f"  {name}: {why}" for name, why in skipped]
    out += ["", "Forms and assumptions:"]
    for name, (form, assumption) in seen.items():
        out += [f"  {name}: {form}.", f"    assumes {assumption}."]
    out += ["", c["note"]]
    return out


def corpora_text(answer: dict) -> str:
    """The text of an answer across corpora (:func:`textbcv.comparison.corpora.across_corpora`).

    Parameters
    ----------
    answer : dict

    Returns
    -------
    str
        Ending in a newline.
    """
    lines = [f"Across {len(answer['corpora'])} corpora (hierarchical model over the runs' paired ΔF1 posteriors; "
             f"a system is called better when P ≥ {answer['threshold']:g}):", ""]
    for p in answer["pairs"]:
        level = f"{100 * (1 - p['alpha']):g}%"
        by = f" by > {100 * p['rope']:g}" if p.get("rope") else ""
        rows = [["A", "B", "corpus", "ΔF1 (B − A)", f"{level} interval", f"P(B better{by})"]]
        for k, c in enumerate(p["per_corpus"]):
            rows.append([p["a"], p["b"], c["name"], f"{100 * c['mean']:+.2f}",
                         f"[{100 * c['interval'][0]:+.2f}, {100 * c['interval'][1]:+.2f}]", f"{c['p_b_better']:.4f}"])
        rows.append([p["a"], p["b"], "overall", f"{100 * p['mu']:+.2f}",
                     f"[{100 * p['mu_interval'][0]:+.2f}, {100 * p['mu_interval'][1]:+.2f}]", f"{p['p_b_better']:.4f}"])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines += ["  ".join(x.rjust(w) if i >= 3 else x.ljust(w) for i, (x, w) in enumerate(zip(r, widths))).rstrip()
                  for r in rows]
        eq = f", P(equivalent) = {p['p_equivalent']:.4f}" if p.get("p_equivalent") is not None else ""
        lines += [f"decision: {p['decision']} (P({p['b']} better) = {p['p_b_better']:.4f}, P({p['a']} better) = "
                  f"{p['p_a_better']:.4f}{eq}); on a new corpus of this kind P({p['b']} better) = "
                  f"{p['p_new_b_better']:.4f}; the corpora's spread τ: median {100 * p['tau_median']:.2f} points"]
        reach = p.get("equivalence_reach")
        if reach:
            lines += [f"to show practical equivalence (P(equivalent) ≥ {answer['threshold']:g} within the rope of "
                      f"{100 * p['rope']:g} points) the overall ΔF1 would need a posterior SD of at most "
                      f"{100 * reach['sd_needed']:.2f} points even at an estimate of 0; it is about "
                      f"{100 * reach['sd_now']:.2f} now"
                      + (f": about {reach['data_factor']:.{1 if reach['data_factor'] < 10 else 0}f}× the test text "
                         "per corpus (if the corpora agree)"
                         if reach["data_factor"] > 1 else "")]
        lines += [""]
    lines += ["Per corpus: each run's difference pulled towards the overall one as much as the corpora agree. "
              "Assumptions: " + answer["assumptions"] + "."]
    return "\n".join(lines) + "\n"
