"""``report.md`` of a comparison: its sections, in order, from the report alone.

Everything here reads a :class:`~textbcv.report.model.CompareReport` (or
``report.json``'s dict, read first), so a report can be re-rendered from a
run directory alone (``textbcv report DIR``).

The decision of each pair was made once, by the rule of
:func:`textbcv.stats.bayes.decide`, and is recorded in ``report.json``;
the tables, conclusion, plot titles and LaTeX tables word it through
:mod:`textbcv.report.verdicts` and never decide again.

``report.md`` is the title, then the sections of :data:`MD_SECTIONS` in
order — each a function ``report -> list of lines`` that returns no lines
when it has nothing to say, so adding a section is adding one function to
that list — then the plots, the run line and the methods paragraph. The
plots are drawn by :mod:`textbcv.report.plots`, the textbook tests' section is
:mod:`textbcv.report.textbook`'s and the one-split section :mod:`textbcv.comparison.onesplit`'s;
their names are importable from here too. ``report.tex`` is
:mod:`textbcv.report.tex`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.report.methods import (
    corpus_types,
    methods_paragraph,
    reproduce_command,
    system_settings,
    template_text,
    variant_text,
)
from textbcv.report.model import CompareReport
from textbcv.report.plots import (
    PLOT_CAPTIONS,
    PLOT_TITLES,
    PLOTS,
    plot_names,
    write_cd_diagram,
    write_plots,
)
from textbcv.report.textbook import (
    DISAGREE,
    format_p,
    format_statistic,
    one_split_markdown,
    textbook_markdown,
    textbook_tests,
)
from textbcv.report.verdicts import (
    Report,
    as_report,
    conclusion,
    design_name,
    difference_basis,
    fmt_p,
    identical_groups,
    p_row_better,
    pct,
    points,
    power_line,
    ranking,
    rope_points,
    rule,
    sequential_words,
    short_rule,
    sources_line,
    threshold_of,
    verdict,
)
from textbcv.stats.answer import Posterior
from textbcv.stats.compare import pooled_scores, undefined_reason

__all__ = ["render_markdown", "conclusion", "write_plots", "heldout_markdown", "PLOTS", "plot_names", "textbook_tests",
           "textbook_markdown", "format_statistic", "format_p", "write_cd_diagram", "DISAGREE", "MD_SECTIONS",
           "PLOT_CAPTIONS", "score_cell", "one_split_markdown", "anatomy_markdown", "macro_markdown"]

METRICS = ("precision", "recall", "f1")
LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}
#: How the setup names a matching mode other than strict.
MODE_WORDS = {"exact": "exact (a predicted chunk is right when its boundaries are, whatever its type)",
              "partial": "partial (an overlap earns half a credit, an exact boundary match a whole one, whatever the "
                         "type; half credits counted as whole units of doubled counts)",
              "type": "type (a predicted chunk is right when its type is and it overlaps the gold chunk)"}
def _ci(ci) -> str:
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def score_cell(entry: Posterior | dict) -> str:
    """``68.42 [63.25, 72.91]``; ``—, no predicted chunks`` where undefined; a one-sided interval marked †.

    Parameters
    ----------
    entry : Posterior or dict
        One metric of one system (or its JSON: ``estimate``, ``ci``, ``interval``, ``undefined``), as fractions.

    Returns
    -------
    str
        Estimate and interval in percent with two decimals.

    Examples
    --------
    >>> score_cell({"estimate": 0.6842, "ci": [0.6325, 0.7291], "interval": "equal-tailed"})
    '68.42 [63.25, 72.91]'
    >>> score_cell({"estimate": None, "ci": None, "undefined": "no predicted chunks"})
    '—, no predicted chunks'
    >>> score_cell({"estimate": 0.0, "ci": [0.0, 0.0312], "interval": "one-sided"})
    '0.00 [0.00, 3.12]†'
    """
    if isinstance(entry, dict):
        entry = Posterior.from_dict(entry)
    if entry.estimate is None:
        return f"—, {entry.undefined or 'undefined'}"
    mark = "†" if entry.interval == "one-sided" else ""
    return f"{pct(entry.estimate)} {_ci(entry.ci)}{mark}"


def _counts_cell(c: dict) -> str:
    """``P / R / F1`` of counts in percent, ``—`` for each undefined one."""
    s = pooled_scores(c["tp"], c["fp"], c["fn"])
    return " / ".join(pct(s[k]) for k in METRICS)


# ----------------------------------------------------------------------------- sections of report.md


def conclusion_markdown(report: Report) -> list[str]:
    """``## Conclusion``: the plain-language answer (:func:`textbcv.report.verdicts.conclusion`).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines; the report's stored ``conclusion``, else one worded now.
    """
    report = as_report(report)
    return ["", "## Conclusion", "", report.conclusion or conclusion(report)]


def _fmt_count(n) -> str:
    return f"{n:,}" if isinstance(n, int) else str(n)


def setup_markdown(report: Report) -> list[str]:
    """``## Setup``: corpus, split, systems, intervals, decision rule, version, the command that remakes the report.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines.
    """
    report = as_report(report)
    meta = report.meta
    m = report.m
    out = ["", "## Setup", ""]
    corpus = report.corpus
    if corpus:
        files = ", ".join(f"`{f['path']}`" for f in corpus["files"])
        types = corpus_types(report)
        per_type = (": " + ", ".join(f"{t or '(untyped)'} {n:,}" for t, n in types.items())) if types else ""
        docs = corpus.get("documents")
        docs_text = f", {docs:,} documents" if docs and docs > 1 else ""
        out.append(f"- Corpus: {files} ({corpus['format']}; {corpus['sentences']:,} sentences, {corpus['tokens']:,} "
                   f"tokens{docs_text}; {corpus['gold_chunks']:,} gold chunks{per_type}). Task: {meta.get('task')}.")
    sp = report.split or {}
    q = report.split_quality or {}
    design = f"- Design: {design_name(report)}, seed {report.seed}, {2 * m} folds per system"
    if sp:
        unit = "documents kept whole" if sp.get("unit") == "document" else "sentences as units"
        group = f" (--group-by {sp.get('group_by')})" if sp.get("group_by") else ""
        design += f"; {unit}{group}; balanced: {', '.join(sp.get('balance') or []) or 'nothing'}"
    design += "."
    if q:
        chi = {k: float(np.mean(v)) for k, v in (q.get("chi2_per_df") or {}).items() if v}
        design += (f" Split quality: training halves overlap n/4 within {q.get('overlap_max_deviation')} sentences"
                   + ("; mean χ²/J " + ", ".join(f"{k} {v:.2f}" for k, v in chi.items())
                      + " (about 1 for a random halving; see Split)" if chi else "") + ".")
    out.append(design)
    specs = meta.get("systems") or []
    if specs:
        out += ["- Systems:", "", "| system | scheme | features | tagger and settings |", "|---|---|---|---|"]
        for s in specs:
            out.append(f"| {s.get('name')} | {(s.get('scheme') or '—').upper()} | {template_text(s)} | "
                       f"{system_settings(s)} |")
        out.append("")
    level = f"{100 * (1 - report.alpha):g}%"
    out.append(f"- Intervals: {level} credible intervals (--alpha {report.alpha:g}); count factor "
               f"{variant_text(report, how=True)}.")
    r = rope_points(report)
    rope = (f"; rope ±{points(r)} (--rope {r:g}: percentage points of the metric, F1 points for F1)"
            if r is not None else "; no rope (--rope, in points, adds one)")
    out.append(f"- Decision: {short_rule(report)} (--threshold {threshold_of(report):g}){rope}.")
    mode = (meta.get("options") or {}).get("mode", "strict")
    if mode != "strict":
        out.append(f"- Matching: {MODE_WORDS[mode]} (--mode {mode}), not conlleval's strict matching; per-type and "
                   "held-out scores, and each seed's own counts, are strict only and left out.")
    out.append(f"- textbcv {report.version}.")
    imported = meta.get("imported")
    if imported:
        parts = []
        for name, s in imported.get("systems", {}).items():
            how = "" if s.get("scheme") is None else \
                f" ({s['scheme'].upper()}, {'detected' if s.get('scheme_detected') else 'as given'})"
            parts.append(f"{name} from `{s['predictions']}`{how}")
        out += ["", f"Predictions imported with `textbcv evaluate`, not made by textbcv: {'; '.join(parts)}. "
                f"Splits: `{imported.get('splits', {}).get('path')}`. Each system's predictions are decoded into "
                "chunks "
                "and scored against the corpus's gold chunks."]
    cmd = reproduce_command(report)
    if cmd:
        out += ["", "To make this report again (into `./rerun`, from the directory the paths are relative to):", "",
                "```", cmd, "```"]
    elif meta:
        out += ["", "Made with the Python API and taggers of your own: rerun the script that made it "
                "(`meta.options` in report.json holds every setting)."]
    return out


def scores_markdown(report: Report) -> list[str]:
    """``## Pooled scores``: P / R / F1 of each system with intervals; undefined scores as ``—, reason``.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines, the baseline's (:func:`baseline_lines`) at the end.
    """
    report = as_report(report)
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
    return out + baseline_lines(report)


def baseline_lines(report: CompareReport) -> list[str]:
    """The baseline's F1 beside the systems, and a flag on every system below it (none in older reports).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report; its ``baseline`` block (F1 as a fraction) is read.

    Returns
    -------
    list of str
        Markdown lines; empty when the report has no baseline.
    """
    b = report.baseline
    if not b:
        return []
    tag = "character" if b.get("scheme") == "bmes" else "token"
    out = ["", f"Baseline: a most-frequent-tag memoriser (each {tag}'s most frequent {b.get('scheme', '').upper()} "
               f"tag in the training half) scores F1 {100 * b['f1']:.2f} on the same folds."]
    below = [(n, s["f1"].estimate) for n, s in report.systems.items()
             if s["f1"].estimate is not None and s["f1"].estimate < b["f1"]]
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


def ranking_markdown(report: Report) -> list[str]:
    """``## Ranking on F1`` (three or more systems): best first, with intervals and whom each is better than.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines; empty with fewer than three systems.
    """
    report = as_report(report)
    if len(report.systems) < 3:
        return []
    tau = threshold_of(report)
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


def pairwise_markdown(report: Report) -> list[str]:
    """``## Pairwise`` (three or more systems): the matrix of P(row better than column) on F1.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines; empty with fewer than three systems.
    """
    report = as_report(report)
    if len(report.systems) < 3:
        return []
    tau = threshold_of(report)
    order = [x["name"] for x in ranking(report)]
    r = rope_points(report)
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


def bayes_markdown(report: Report) -> list[str]:
    """``## Bayes test``: P(B better), P(A better) (and P(equivalent) with a rope) and the decision, for every pair
    and metric.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines: the table, the rule, and the notes on the differences.
    """
    report = as_report(report)
    r = rope_points(report)
    by = f" by > {r:g}" if r is not None else ""
    level = f"{100 * (1 - report.alpha):g}%"
    head = f"| A | B | metric | Δ (B − A), {level} interval | P(B better{by}) | P(A better{by}) |" \
        + (" P(equivalent) |" if r is not None else "") + " decision |"
    out = ["", "## Bayes test", "", head, "|---" * (7 + (r is not None)) + "|"]
    for c in report.comparisons:
        eq = f" {fmt_p(c.p_equivalent, 4)} |" if r is not None else ""
        decision = f"undefined: {c.undefined}" if c.undefined else verdict(c)
        d = c.difference
        delta = "—" if d is None else f"{100 * d.estimate:+.2f} [{100 * d.ci[0]:+.2f}, {100 * d.ci[1]:+.2f}]"
        out.append(f"| {c.a} | {c.b} | {LABELS[c.metric]} | {delta} | {fmt_p(c.p_b_better, 4)} | "
                   f"{fmt_p(c.p_a_better, 4)} |{eq} {decision} |")
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


def sequential_markdown(report: Report) -> list[str]:
    """``## Sequential t-test``: per pair, the mean per-fold F1 difference, its interval, and whether equality is
    rejected.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines (differences in points); empty without sequential tests.
    """
    report = as_report(report)
    if not report.sequential:
        return []
    level = f"{100 * (1 - report.alpha):g}%"
    out = ["", "## Sequential t-test (per-fold F1 differences, B − A, points)", "",
           f"| A | B | mean difference | {level} CI | t-test (α = {report.alpha:g}) |", "|---|---|---|---|---|"]
    for s in report.sequential:
        out.append(f"| {s.a} | {s.b} | {100 * s.estimate:+.2f} | "
                   f"[{100 * s.ci[0]:+.2f}, {100 * s.ci[1]:+.2f}] | {sequential_words(s)} |")
    return out


def stopping_markdown(report: Report) -> list[str]:
    """The ``Stopping:`` line of a run (how m was reached).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The line (after a blank one); empty when the report's ``stopping`` gives no reason.
    """
    stop = as_report(report).stopping or {}
    if not stop.get("reason"):
        return []
    return ["", f"Stopping: {stop['reason']} ({stop.get('folds_per_system')} folds per system)."]


def macro_markdown(report: Report) -> list[str]:
    """``## Macro-F1``: each system's mean F1 over the chunk types, with its interval, and each pair's paired
    difference decided by the report's rule; the types too rare to average named.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report; its ``macro`` block is read.

    Returns
    -------
    list of str
        The section's Markdown lines; empty for reports without it.
    """
    report = as_report(report)
    mac = report.macro
    if not mac:
        return []
    level = f"{100 * mac.get('level', 0.95):g}%"
    out = ["", f"## Macro-F1 (mean of the chunk types' F1, percent, {level} intervals)", "",
           "| system | macro-F1 | micro-F1 (the report's F1) |", "|---|---|---|"]
    for name, x in mac["systems"].items():
        micro = report.systems.get(name, {}).get("f1") if isinstance(report.systems, dict) else None
        micro_cell = "—" if micro is None else score_cell(micro)
        out.append(f"| {name} | {100 * x['estimate']:.2f} [{100 * x['ci'][0]:.2f}, {100 * x['ci'][1]:.2f}] | "
                   f"{micro_cell} |")
    for p in mac["pairs"]:
        out.append("")
        out.append(f"{p['b']} − {p['a']}: {100 * p['estimate']:+.2f} macro-F1 points "
                   f"[{100 * p['ci'][0]:+.2f}, {100 * p['ci'][1]:+.2f}]; P({p['b']} better) = "
                   f"{fmt_p(p['p_b_better'], 4)}: {p['decision']}.")
    rare = mac.get("rare") or {}
    note = (f" Left out, too rare to estimate (fewer than {mac.get('min_gold')} gold chunks in some fold): "
            + ", ".join(f"{t} ({n})" for t, n in rare.items()) + "." if rare else "")
    out += ["", f"Averaged over {', '.join(mac['types'])}: every type weighs the same, so a system that is better "
            "only on the frequent types can lose here. Paired on the same test sentences "
            f"({mac.get('cluster_unit')} as clusters), with the parts of the F1 difference's posterior." + note]
    return out


def anatomy_markdown(report: Report) -> list[str]:
    """``## Error anatomy``: how each system is wrong (shares with intervals), and which kinds of error the
    second system of each pair removes or adds (paired, decided by the report's rule).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report; its ``anatomy`` block is read.

    Returns
    -------
    list of str
        The section's Markdown lines; empty for reports without an anatomy (earlier versions, or folds without
        their test sentences).
    """
    report = as_report(report)
    a = report.anatomy
    if not a:
        return []
    kinds = list(next(iter(a["systems"].values()))["counts"])
    level = f"{100 * a.get('level', 0.95):g}%"
    out = ["", f"## Error anatomy (pooled over folds, percent, {level} intervals)", "",
           "| system | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for name, x in a["systems"].items():
        cells = [f"{100 * x['shares'][k]['share']:.2f} [{100 * x['shares'][k]['ci'][0]:.2f}, "
                 f"{100 * x['shares'][k]['ci'][1]:.2f}] ({x['counts'][k]:,})" for k in kinds]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    tau = report.threshold if report.threshold is not None else 0.95
    if a.get("pairs"):
        out += ["", f"| A | B | kind | B − A, points, {level} interval | P(B has more) | decision |",
                "|---|---|---|---|---|---|"]
        for p in a["pairs"]:
            decision = ("B has more" if p["p_b_more"] >= tau else "B has fewer" if 1 - p["p_b_more"] >= tau
                        else "no clear difference")
            out.append(f"| {p['a']} | {p['b']} | {p['kind']} | {100 * p['estimate']:+.2f} "
                       f"[{100 * p['ci'][0]:+.2f}, {100 * p['ci'][1]:+.2f}] | {fmt_p(p['p_b_more'], 4)} | "
                       f"{decision} |")
    out += ["", "Every gold chunk is correct, of the wrong type (same boundaries), of the wrong boundary (same type), "
            "wrong in both, or missed; every predicted chunk is correct, wrong in one of those ways, or spurious "
            "(matched as conlleval matches: one-to-one, each predicted chunk left to right taking its exact match, "
            "else the leftmost gold chunk it overlaps). Shares are of the gold chunks, the spurious ones of the "
            "predicted chunks; counts in brackets. The intervals, and the pairs' differences (paired on the same "
            f"test sentences, {a.get('cluster_unit', 'sentences')} as clusters), hold new text and the models' own "
            f"noise, as the F1 difference does; a kind is called more or fewer when P ≥ {tau:g}."]
    return out


def per_type_markdown(report: Report) -> list[str]:
    """``## Per-type scores``: pooled P / R / F1 of each chunk type and system (— where undefined).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines (the heading only when there are no per-type counts).
    """
    report = as_report(report)
    names = report.names
    out = ["", "## Per-type scores (pooled over folds, percent)", ""]
    pt = report.per_type
    types = sorted({t for n in names for t in pt.get(n, {})})
    if types:
        out += ["| type | " + " | ".join(f"{n} P / R / F1" for n in names) + " |", "|---" * (len(names) + 1) + "|"]
        for t in types:
            cells = []
            for n in names:
                c = pt[n].get(t)
                cells.append("–" if c is None else _counts_cell(c))
            out.append(f"| {t or '(untyped)'} | " + " | ".join(cells) + " |")
        if any(undefined_reason(k, c["tp"], c["fp"], c["fn"]) for n in names for c in pt[n].values()
               for k in METRICS):
            out += ["", "— : undefined (precision of a type never predicted, recall of a type with no gold chunk)."]
    return out


def split_markdown(report: Report) -> list[str]:
    """``## Split``: units, balance, notes, training-set overlap and χ²/J of the halves.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines; empty without ``split`` and ``split_quality`` blocks.
    """
    report = as_report(report)
    sp = report.split or {}
    q = report.split_quality or {}
    if not (sp or q):
        return []
    out = ["", "## Split", ""]
    if sp:
        unit = ("documents, kept whole" if sp["unit"] == "document"
                else "sentences" + (" (exact duplicates kept together)" if sp.get("duplicates_together") else ""))
        out += [f"Units: {unit}" + (" (--group-by auto)" if sp.get("group_by") == "auto" else "") + "; balanced: "
                + (", ".join(sp["balance"]) or "nothing") + "."]
        out += [f"Note: {n}." for n in sp.get("notes", [])]
    if q:
        out += ["",
                f"Largest deviation of a training-set overlap from n/4: {q.get('overlap_max_deviation')} "
                "sentences.", ""]
        chi = q.get("chi2_per_df") or {}
        if chi:
            out += ["| measure | mean χ²/J | max χ²/J |", "|---|---|---|"]
            for k, v in chi.items():
                if v:
                    out.append(f"| {k} | {np.mean(v):.4f} | {np.max(v):.4f} |")
            out += ["", "χ²/J compares the distribution of a property between the two halves of a split; random "
                    "halving gives about 1, smaller is better balanced."]
    return out


def per_fold_markdown(report: Report) -> list[str]:
    """``## Per-fold F1``: one row per fold (— where a fold has neither gold nor predicted chunks).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines (F1 in percent, folds as ``S1 →``, ``S1 ←``, ...); empty without ``fold_f1``.
    """
    report = as_report(report)
    ff = report.fold_f1
    if not ff:
        return []
    names = report.names
    fc = report.fold_counts

    def cell(n, i):
        c = fc.get(n, [None] * (i + 1))[i] if n in fc else None
        if c is not None and undefined_reason("f1", c["tp"], c["fp"], c["fn"]):
            return "—"
        return pct(ff[n][i])

    out = ["", "## Per-fold F1", "", "| fold | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for i in range(2 * report.m):
        out.append(f"| S{i // 2 + 1} {'→' if i % 2 == 0 else '←'} | " + " | ".join(cell(n, i) for n in names) + " |")
    return out


def plots_markdown(report: Report, plots: Sequence[str]) -> list[str]:
    """``## Plots``: every PNG written beside ``report.md``, embedded by a relative link, with its caption.

    Parameters
    ----------
    report : CompareReport
        The comparison's report (not read: the titles and captions are the plots' own).
    plots : sequence of str
        The PNG file names, relative to ``report.md``.

    Returns
    -------
    list of str
        The section's Markdown lines; empty without plots.
    """
    if not plots:
        return []
    out = ["", "## Plots"]
    for name in plots:
        out += ["", f"![{PLOT_TITLES.get(name, name)}]({name})", "", f"`{name}`: {PLOT_CAPTIONS.get(name, '')}"]
    return out


def run_markdown(report: Report) -> list[str]:
    """The ``Run:`` line: wall time, folds trained, resumed or imported, textbcv version.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The line (after a blank one); empty when the report has no ``run`` block.
    """
    report = as_report(report)
    run = report.run or {}
    version = report.meta.get("textbcv")
    if run and "folds_imported" in run:
        return ["", f"Run: {run.get('seconds')} s, {run.get('folds_imported')} folds imported; textbcv {version}."]
    if run:
        return ["", f"Run: {run.get('seconds')} s, {run.get('folds_trained')} folds trained, "
                f"{run.get('folds_resumed')} resumed; textbcv {version}."]
    return []


def methods_markdown(report: Report) -> list[str]:
    """``## Methods``: the paragraph to paste into a paper (:func:`textbcv.report.methods.methods_paragraph`).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines.
    """
    return ["", "## Methods (to paste)", "", methods_paragraph(report)]


def render_markdown(report: Report, plots: Sequence[str] = ()) -> str:
    """The ``report.md`` text of a comparison; ``plots``: the PNG files beside it, embedded by relative links.

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).
    plots : sequence of str
        The PNG file names beside ``report.md`` (:func:`plot_names`); default none.

    Returns
    -------
    str
        The whole Markdown text, ending in a newline.
    """
    report = as_report(report)
    out = ["# textbcv comparison"]
    for section in MD_SECTIONS:
        out += section(report)
    out += plots_markdown(report, plots)
    out += run_markdown(report)
    out += methods_markdown(report)
    return "\n".join(out) + "\n"


def heldout_markdown(report: Report) -> list[str]:
    """The "Held-out test sets" section of ``report.md`` (lines; none without held-out files).

    Parameters
    ----------
    report : CompareReport
        The comparison's typed report (TypeError for a ``report.json`` dict not read yet).

    Returns
    -------
    list of str
        The section's Markdown lines (scores in percent, gaps and differences in points); empty without a
        ``heldout`` block.
    """
    report = as_report(report)
    if not report.heldout:
        return []
    h = report.heldout
    level = f"{100 * (1 - report.alpha):g}%"
    m = report.m
    out = ["", "## Held-out test sets", "",
           f"Every one of the {2 * m} fold models of each system also tagged these files. Held-out scores pool the "
           f"{2 * m} models' predictions (P / R / F1 of their summed counts); beside them the mean ± SD of the "
           f"{2 * m} models' F1 and the m×2 cross-validation estimate of F1 with its {level} interval; the gap is the "
           "estimate minus the held-out F1."]
    notes = []
    for f, info in h["files"].items():
        dup = info["duplicates"]
        out += ["", f"### {f}", "",
                f"{info['sentences']:,} sentences, {info['gold_chunks']:,} gold chunks"
                + (f"; {dup:,} of the sentences also occur in the corpus." if dup else "."), ""]
        if dup:
            out += [f"Warning: {dup:,} of the {info['sentences']:,} sentences of `{f}` also occur in the corpus, so "
                    "half of the models were trained on each of them; F1 without them is shown beside.", ""]
        head = "| system | held-out P / R / F1 |" + (" F1 without repeated sentences |" if dup else "")
        out += [head + f" models' F1 mean ± SD | m×2 F1 [{level} CI] | gap |",
                "|---" * (6 if dup else 5) + "|"]
        for n, per in h["systems"].items():
            r = per[f]
            p = r["pooled"]
            row = f"| {n} | {_counts_cell(p)} |"
            if dup:
                row += f" {pct(r['pooled_without_duplicates']['f1'])} |"
            cv = r["cv_f1"]
            cv_text = "—" if cv["estimate"] is None else f"{pct(cv['estimate'])} {_ci(cv['ci'])}"
            gap = "—" if r["gap"] is None else f"{100 * r['gap']:+.2f}"
            row += f" {pct(r['models_f1']['mean'])} ± {pct(r['models_f1']['sd'])} | {cv_text} | {gap} |"
            out.append(row)
            if dup and "gap_without_duplicates" in r:  # lead with the gap to text the models never saw
                g, g_all = r["gap_without_duplicates"], r["gap"]
                if r["outside_interval_without_duplicates"] and g is not None:
                    notes.append(f"the cross-validation estimate for {n} is {abs(100 * g):.1f} points "
                                 f"{'above' if g > 0 else 'below'} what its models reach on {f} without its {dup:,} "
                                 f"repeated sentences ({abs(100 * g_all):.1f} {'above' if g_all > 0 else 'below'} "
                                 "with them)")
            elif r["outside_interval"]:
                notes.append(f"the cross-validation estimate for {n} is {abs(100 * r['gap']):.1f} points "
                             f"{'above' if r['gap'] > 0 else 'below'} what its models reach on {f}")
        pairs = [x for x in h["pairs"] if x["file"] == f]
        if pairs:
            b = h["bootstrap"]
            out += ["", f"| A | B | ΔF1 (B − A) | bootstrap {level} CI | resamples with B better |"
                    + (" ΔF1 without repeated sentences |" if dup else ""), "|---" * (6 if dup else 5) + "|"]
            for x in pairs:
                out.append(f"| {x['a']} | {x['b']} | {100 * x['delta_f1']:+.2f} | "
                           f"[{100 * x['ci'][0]:+.2f}, {100 * x['ci'][1]:+.2f}] | {x['p_b_better']:.3f} |"
                           + (f" {100 * x['delta_f1_without_duplicates']:+.2f} |" if dup else ""))
            out += ["", f"Paired bootstrap over the file's sentences ({b['resamples']:,} resamples, seed {b['seed']}): "
                    f"{b['what']}."]
    if notes:
        out += ["", "Gap larger than the interval: " + "; ".join(notes) + "."]
    return out




#: The sections of ``report.md`` after its title, in order (:func:`render_markdown`). Each takes the report (a
#: CompareReport, or report.json's dict) and returns its lines (none when it has nothing to say); a new section is
#: one function added here.
MD_SECTIONS = [conclusion_markdown, setup_markdown, scores_markdown, ranking_markdown, pairwise_markdown,
               bayes_markdown, sequential_markdown, textbook_markdown, one_split_markdown, stopping_markdown,
               heldout_markdown,
               macro_markdown, anatomy_markdown, per_type_markdown, split_markdown, per_fold_markdown]
