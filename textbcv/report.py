"""Reports of a comparison: ``report.md``, ``report.tex``, the conclusion and the PNG plots.

Everything here reads the ``report.json`` dictionary written by
:func:`textbcv.pipeline.compare` (or any dict of the same shape), so a report
can be re-rendered from a run directory alone (``textbcv report DIR``).

The decision of each pair was made once, by the rule of
:func:`textbcv.stats.bayes.decide`, and is recorded in ``report.json``;
the tables, conclusion, plot titles and LaTeX tables word it through
:mod:`textbcv.verdicts` and never decide again.

``report.md`` is the title, then the sections of :data:`MD_SECTIONS` in
order — each a function ``report -> list of lines`` that returns no lines
when it has nothing to say, so adding a section is adding one function to
that list — then the plots, the run line and the methods paragraph.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from textbcv.compare_report import CompareReport
from textbcv.stats.answer import Posterior
from textbcv.stats.compare import pooled_scores, system_posteriors, undefined_reason
from textbcv.verdicts import (Report, as_report, better_label, conclusion, corpus_types, design_name, fmt_p,
                              identical_groups, methods_paragraph, p_is, p_row_better, pct, points, ranking,
                              reproduce_command, rope_points, rule, sequential_words, short_rule, system_settings,
                              template_text, threshold_of, variant_text, verdict, verdict_line)

__all__ = ["render_markdown", "conclusion", "write_plots", "heldout_markdown", "PLOTS", "plot_names", "textbook_tests",
           "textbook_markdown", "format_statistic", "format_p", "write_cd_diagram", "DISAGREE", "MD_SECTIONS",
           "PLOT_CAPTIONS", "score_cell", "one_split_markdown"]

METRICS = ("precision", "recall", "f1")
LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}
#: The plots of every comparison; ``pairwise.png`` is added for three or more systems (:func:`plot_names`).
PLOTS = ("posteriors.png", "f1_difference.png", "fold_f1.png")
#: Short titles of the plots (the alternative text of their links in ``report.md``).
PLOT_TITLES = {"posteriors.png": "Posteriors of precision, recall and F1", "f1_difference.png": "Posterior of the F1 "
               "difference of each pair", "pairwise.png": "P(row better than column) on F1", "fold_f1.png": "Per-fold F1"}
#: What each plot shows (its caption in ``report.md``).
PLOT_CAPTIONS = {
    "posteriors.png": "Posterior densities of precision, recall and F1 of each system (percent), the credible "
                      "interval shaded.",
    "f1_difference.png": "Exact posterior density of F1(B) − F1(A) for each pair, in F1 points: the area right of 0 "
                         "(of the rope, with --rope) is P(B better), left of it P(A better), and the band of the rope "
                         "P(equivalent).",
    "pairwise.png": "P(row better than column) on F1 for every pair; bold cells reach the threshold.",
    "fold_f1.png": "Per-fold F1 of each system (dotted: pooled F1).",
}


def plot_names(report: Report) -> list[str]:
    """The PNG files :func:`write_plots` draws for ``report``, in the order ``report.md`` shows them."""
    names = ["posteriors.png", "f1_difference.png"]
    if len(as_report(report).systems) >= 3:
        names.append("pairwise.png")
    return names + ["fold_f1.png"]


def _ci(ci) -> str:
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def score_cell(entry: Posterior | dict) -> str:
    """``68.42 [63.25, 72.91]``; ``—, no predicted chunks`` where undefined; a one-sided interval marked †.

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
    """``## Conclusion``: the plain-language answer (:func:`textbcv.verdicts.conclusion`)."""
    report = as_report(report)
    return ["", "## Conclusion", "", report.conclusion or conclusion(report)]


def _fmt_count(n) -> str:
    return f"{n:,}" if isinstance(n, int) else str(n)


def setup_markdown(report: Report) -> list[str]:
    """``## Setup``: corpus, split, systems, intervals, decision rule, version and the command that remakes the report."""
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
    out.append(f"- textbcv {report.version}.")
    imported = meta.get("imported")
    if imported:
        parts = []
        for name, s in imported.get("systems", {}).items():
            how = "" if s.get("scheme") is None else \
                f" ({s['scheme'].upper()}, {'detected' if s.get('scheme_detected') else 'as given'})"
            parts.append(f"{name} from `{s['predictions']}`{how}")
        out += ["", f"Predictions imported with `textbcv evaluate`, not made by textbcv: {'; '.join(parts)}. "
                f"Splits: `{imported.get('splits', {}).get('path')}`. Each system's predictions are decoded into chunks "
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
    """``## Pooled scores``: P / R / F1 of each system with intervals; undefined scores as ``—, reason``."""
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
    return out


def _variant(report: CompareReport) -> str:
    o = report.options
    v = report.variant
    return f"`{v}`, ρ1 = {o.get('rho1')}, ρ2 = {o.get('rho2')}" if v == "rho" else f"`{v}`"


def ranking_markdown(report: Report) -> list[str]:
    """``## Ranking on F1`` (three or more systems): best first, with intervals and whom each is better than."""
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
    """``## Pairwise`` (three or more systems): the matrix of P(row better than column) on F1."""
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
    """``## Bayes test``: P(B better), P(A better) (and P(equivalent) with a rope) and the decision, for every pair and metric."""
    report = as_report(report)
    r = rope_points(report)
    by = f" by > {r:g}" if r is not None else ""
    head = f"| A | B | metric | P(B better{by}) | P(A better{by}) |" + (" P(equivalent) |" if r is not None else "") \
        + " decision |"
    out = ["", "## Bayes test", "", head, "|---" * (6 + (r is not None)) + "|"]
    for c in report.comparisons:
        eq = f" {fmt_p(c.p_equivalent, 4)} |" if r is not None else ""
        decision = f"undefined: {c.undefined}" if c.undefined else verdict(c)
        out.append(f"| {c.a} | {c.b} | {LABELS[c.metric]} | {fmt_p(c.p_b_better, 4)} | "
                   f"{fmt_p(c.p_a_better, 4)} |{eq} {decision} |")
    out += ["", rule(report)]
    names = report.names
    if len(names) > 2:
        k = len(names) * (len(names) - 1) // 2
        alpha = report.alpha
        out += ["", f"{k} pairs are compared: to keep the family-wise error at α = {alpha:g}, give --threshold "
                f"{1 - alpha / k:.4f} (1 − α/k) before calling a difference."]
    return out


def sequential_markdown(report: Report) -> list[str]:
    """``## Sequential t-test``: per pair, the mean per-fold F1 difference, its interval, and whether equality is rejected."""
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
    """The ``Stopping:`` line of a run (how m was reached)."""
    stop = as_report(report).stopping or {}
    if not stop.get("reason"):
        return []
    return ["", f"Stopping: {stop['reason']} ({stop.get('folds_per_system')} folds per system)."]


def per_type_markdown(report: Report) -> list[str]:
    """``## Per-type scores``: pooled P / R / F1 of each chunk type and system (— where undefined)."""
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
    """``## Split``: units, balance, notes, training-set overlap and χ²/J of the halves."""
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
                f"Largest deviation of a training-set overlap from n/4: {q.get('overlap_max_deviation')} sentences.", ""]
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
    """``## Per-fold F1``: one row per fold (— where a fold has neither gold nor predicted chunks)."""
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
    """``## Plots``: every PNG written beside ``report.md``, embedded by a relative link, with its caption."""
    if not plots:
        return []
    out = ["", "## Plots"]
    for name in plots:
        out += ["", f"![{PLOT_TITLES.get(name, name)}]({name})", "", f"`{name}`: {PLOT_CAPTIONS.get(name, '')}"]
    return out


def run_markdown(report: Report) -> list[str]:
    """The ``Run:`` line: wall time, folds trained, resumed or imported, textbcv version."""
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
    """``## Methods``: the paragraph to paste into a paper (:func:`textbcv.verdicts.methods_paragraph`)."""
    return ["", "## Methods (to paste)", "", methods_paragraph(report)]


def render_markdown(report: Report, plots: Sequence[str] = ()) -> str:
    """The ``report.md`` text of a comparison; ``plots``: the PNG files beside it, embedded by relative links."""
    report = as_report(report)
    out = ["# textbcv comparison"]
    for section in MD_SECTIONS:
        out += section(report)
    out += plots_markdown(report, plots)
    out += run_markdown(report)
    out += methods_markdown(report)
    return "\n".join(out) + "\n"


def heldout_markdown(report: Report) -> list[str]:
    """The "Held-out test sets" section of ``report.md`` (lines; none without held-out files)."""
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
            if r["outside_interval"]:
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




def _posteriors(report: CompareReport) -> dict:
    """The posterior distribution of every metric of every system (those the answer holds, else recomputed
    from the fold counts, as the answer computed them)."""
    opts = report.options
    out = {}
    for n, folds in report.fold_counts.items():
        held = {k: p.distribution for k, p in report.systems.get(n, {}).items()}
        if len(held) == len(METRICS) and all(d is not None for d in held.values()):
            out[n] = held
            continue
        counts = np.array([[f["tp"], f["fp"], f["fn"]] for f in folds], dtype=float)
        out[n], _ = system_posteriors(counts, report.m, variant=report.variant, rho1=opts.get("rho1"),
                                      rho2=opts.get("rho2"), alpha=report.alpha, prior=report.prior or 1.0,
                                      deff=(report.design_effects or {}).get(n))
    return out


def _grid(n: int, width: float, height: float, max_cols: int = 3):
    """Figure and axes of ``n`` panels in rows of at most ``max_cols``."""
    import matplotlib.pyplot as plt

    cols = min(n, max_cols)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    return fig, axes.ravel()[:n]


def write_plots(report: Report, out: str | os.PathLike) -> list[Path]:
    """Write the PNG plots of a comparison (:func:`plot_names`) into ``out``; return their paths.

    ``posteriors.png``: posterior densities of precision, recall and F1 per
    system with their credible intervals; ``f1_difference.png``: for each
    pair the exact posterior density of F1(B) − F1(A) in points
    (:func:`textbcv.stats.bayes.difference_density`), P(B better) and
    P(A better) shaded — and the rope's band, P(equivalent), with a rope —
    titled with the recorded decision; ``pairwise.png`` (three or more
    systems): P(row better than column) on F1; ``fold_f1.png``: per-fold F1
    of every system.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from textbcv._io import atomic_write
    from textbcv.stats.bayes import difference_density

    report = as_report(report)
    out = Path(out)
    posts = _posteriors(report)
    names = report.names
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    color = {n: colors[i % len(colors)] for i, n in enumerate(names)}
    many = len(names) >= 3
    tau, rope = threshold_of(report), rope_points(report)
    # a system with the same counts in every fold as an earlier one is drawn dashed over it, and says so
    label, style = {n: n for n in names}, {n: "-" for n in names}
    for group in identical_groups(report):
        for n in group[1:]:
            label[n], style[n] = f"{n} (= {group[0]})", (0, (4, 3))
    paths = []

    def save(fig, name):
        with atomic_write(out / name, mode="wb", encoding=None) as f:
            fig.savefig(f, format="png", dpi=110, metadata={"Software": None})
        plt.close(fig)
        paths.append(out / name)

    # --- posteriors.png
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2 if many else 3.8))
    for ax, metric in zip(axes, METRICS):
        shown = [n for n in names if report.systems[n][metric].estimate is not None]
        if not shown:
            ax.text(0.5, 0.5, f"{LABELS[metric]} undefined for every system", ha="center", va="center",
                    transform=ax.transAxes)
            ax.set_title(LABELS[metric])
            continue
        lo = min(posts[n][metric].ppf(1e-4) for n in shown)
        hi = max(posts[n][metric].ppf(1 - 1e-4) for n in shown)
        if metric == "f1" and report.heldout:  # the held-out F1 lines must be in view
            vals = [r["pooled"]["f1"] for per in report.heldout["systems"].values() for r in per.values()
                    if r["pooled"]["f1"] is not None]
            lo, hi = min(lo, *vals), max(hi, *vals)
        pad = 0.1 * (hi - lo)
        x = np.linspace(max(0.0, lo - pad), min(1.0, hi + pad), 600)
        for n in shown:
            p = posts[n][metric]
            ax.plot(100 * x, p.pdf(x) / 100, color=color[n], label=label[n], ls=style[n])
            a, b = report.systems[n][metric].ci
            xs = x[(x >= a) & (x <= b)]
            ax.fill_between(100 * xs, p.pdf(xs) / 100, color=color[n], alpha=0.15)
        if metric == "f1" and report.heldout:
            styles = ("--", ":", "-.")
            for k, f in enumerate(report.heldout["files"]):
                for n in names:
                    v = report.heldout["systems"][n][f]["pooled"]["f1"]
                    if v is not None:
                        ax.axvline(100 * v, color=color[n], ls=styles[k % len(styles)], lw=1,
                                   label=f"{n} on {Path(f).name}")
        missing = [n for n in names if n not in shown]
        if missing:
            ax.text(0.02, 0.97, "undefined: " + "; ".join(
                f"{n} ({report.systems[n][metric].undefined})" for n in missing),
                transform=ax.transAxes, va="top", fontsize=7)
        ax.set_xlabel(f"{LABELS[metric]} (%)")
        ax.set_ylabel("posterior density (per point)")
        ax.set_title(LABELS[metric])
        if not many:
            ax.legend(frameon=False, fontsize=8)
    if many:
        handles = [plt.Line2D([], [], color=color[n], label=label[n], ls=style[n]) for n in names]
        fig.legend(handles=handles, loc="lower center", ncol=min(len(names), 6), frameon=False)
    fig.suptitle(f"Posteriors of precision, recall and F1 ({report.m}×2 BCV; shaded: "
                 f"{100 * (1 - report.alpha):g}% credible intervals)")
    fig.tight_layout(rect=(0, 0.08 if many else 0, 1, 1))
    save(fig, "posteriors.png")

    # --- f1_difference.png: the exact density of ν_B − ν_A
    pairs = report.comparisons_of("f1")
    fig, axes = _grid(len(pairs), 5.2, 3.9)
    r = 0.0 if rope is None else rope / 100
    for ax, c in zip(axes, pairs):
        a, b = c.a, c.b
        title = f"F1: {b} vs {a}"
        if c.undefined:
            ax.text(0.5, 0.5, c.undefined, ha="center", va="center", transform=ax.transAxes, wrap=True)
            ax.set_title(title, fontsize=10)
            ax.set_xticks([]), ax.set_yticks([])
            continue
        pa, pb = posts[a]["f1"], posts[b]["f1"]
        mean, sd = pb.mean() - pa.mean(), float(np.sqrt(pa.var() + pb.var()))
        lo, hi = max(mean - 4.5 * sd, -1.0), min(mean + 4.5 * sd, 1.0)
        lo, hi = min(lo, -r), max(hi, r)  # 0 and the rope always in view
        pad = 0.04 * (hi - lo)
        x = np.union1d(np.linspace(lo - pad, hi + pad, 1201), [-r, 0.0, r])
        y = difference_density(pa, pb, x) / 100  # per F1 point
        px = 100 * x
        ax.plot(px, y, color="black", lw=1)
        right, left = x >= r, x <= -r
        ax.fill_between(px[right], y[right], color=color[b], alpha=0.45,
                        label=f"{better_label(c, 'b', rope)} {p_is(c.p_b_better)}")
        ax.fill_between(px[left], y[left], color=color[a], alpha=0.45,
                        label=f"{better_label(c, 'a', rope)} {p_is(c.p_a_better)}")
        if rope is not None:
            band = (x >= -r) & (x <= r)
            ax.fill_between(px[band], y[band], color="grey", alpha=0.35,
                            label=f"P(equivalent, ±{rope:g}) {p_is(c.p_equivalent)}")
            ax.axvspan(-rope, rope, color="grey", alpha=0.08, lw=0)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(f"F1({b}) − F1({a}) (points)")
        ax.set_ylabel("posterior density (per point)")
        ax.set_title(title + "\n" + textwrap.fill(verdict_line(c, report), 62), fontsize=9)
        ax.legend(frameon=False, fontsize=7.5)
    fig.tight_layout()
    save(fig, "f1_difference.png")

    # --- pairwise.png
    if many:
        order = [x["name"] for x in ranking(report)]
        k = len(order)
        mat = np.full((k, k), np.nan)
        for i, row in enumerate(order):
            for j, col in enumerate(order):
                if i != j:
                    p = p_row_better(report, row, col)
                    mat[i, j] = np.nan if p is None else p
        fig, ax = plt.subplots(figsize=(1.3 * k + 2.6, 1.0 * k + 1.6))
        im = ax.imshow(mat, cmap="RdBu", vmin=0, vmax=1)
        for i in range(k):
            for j in range(k):
                if i == j:
                    continue
                p = mat[i, j]
                clear = not np.isnan(p) and p >= tau and p > mat[j, i]
                ax.text(j, i, "—" if np.isnan(p) else fmt_p(float(p)), ha="center", va="center", fontsize=9,
                        fontweight="bold" if clear else "normal",
                        color="white" if not np.isnan(p) and abs(p - 0.5) > 0.35 else "black")
        ax.set_xticks(range(k), order, rotation=30, ha="right")
        ax.set_yticks(range(k), order)
        ax.set_xlabel("column")
        ax.set_ylabel("row")
        by = f" by > {points(rope)}" if rope is not None else ""
        ax.set_title(f"P(row better than column{by}) on F1\nbold: ≥ {tau:g}, called better", fontsize=10)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        fig.tight_layout()
        save(fig, "pairwise.png")

    # --- fold_f1.png
    ff = report.fold_f1
    fig, ax = plt.subplots(figsize=(8.5 if many else 7, 3.8))
    m = report.m
    x = np.arange(2 * m)
    for i, n in enumerate(names):
        # with many systems, a small sideways offset keeps equal values apart
        shift = (i - (len(names) - 1) / 2) * 0.06 if many else 0.0
        ax.plot(x + shift, 100 * np.array(ff[n]), marker="o", ms=4, color=color[n], label=label[n], ls=style[n])
        est = report.systems[n]["f1"].estimate
        if est is not None:
            ax.axhline(100 * est, color=color[n], ls=":", lw=0.8)
    ax.set_xticks(x, [f"S{j // 2 + 1}{'→' if j % 2 == 0 else '←'}" for j in x])
    ax.set_xlabel("fold (split, direction)")
    ax.set_ylabel("F1 (%)")
    ax.set_title("Per-fold F1 (dotted: pooled F1)")
    if many:
        ax.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    else:
        ax.legend(frameon=False)
    fig.tight_layout()
    save(fig, "fold_f1.png")
    return paths


# ----------------------------------------------------------------------------- textbook tests

#: Why the textbook tests and the Bayes test can disagree (one line, in the report and ``textbcv test --classic``).
DISAGREE = ("Why they may disagree with the Bayes test: these tests judge the spread of the paired per-fold "
            "differences with few degrees of freedom, while the Bayes test compares each system's pooled chunk "
            "counts as if the two systems had been tested on different sentences — a small but steady difference "
            "can be clear to one and not to the other.")

_SYMBOL = {"paired_t_5x2cv": "t", "combined_t_5x2cv": "t", "blocked_t_3x2": "t", "corrected_resampled_t": "t",
           "paired_t": "t", "t": "t", "combined_f_5x2cv": "F", "iman_davenport": "F", "friedman_chi2": "χ²",
           "mcnemar_chi2": "χ²", "wilcoxon": "W", "mcnemar_exact": "min(b, c)", "binomial": "error rate"}


def format_statistic(r: dict) -> str:
    """``t(5) = 1.2345``-style text of a textbook test result (a ``ClassicResult.to_dict()``); its reason if undefined.

    Examples
    --------
    >>> format_statistic({"test": "combined_f_5x2cv", "statistic": 2.5556, "df": [10, 5], "undefined": None})
    'F(10, 5) = 2.556'
    >>> format_statistic({"test": "wilcoxon", "statistic": None, "df": None, "undefined": "identical systems"})
    'undefined: identical systems'
    """
    if r.get("undefined"):
        return f"undefined: {r['undefined']}"
    df = r.get("df")
    df_text = "" if df is None else f"({', '.join(str(x) for x in df)})" if isinstance(df, list) else f"({df})"
    return f"{_SYMBOL.get(r['test'], 'statistic')}{df_text} = {r['statistic']:.4g}"


def textbook_tests(fold_values: dict, m: int, alpha: float = 0.05) -> dict:
    """Every textbook test on per-fold values ``{system: 2m values}``: each pair (B after A), Friedman for ≥ 3 systems.

    Returns ``{"m", "pairs": [{"a", "b", "tests", "not_applicable"}], "friedman"}`` (``friedman`` None
    for two systems), JSON-ready.
    """
    from textbcv.stats import classic

    names = list(fold_values)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pairs.append({"a": a, "b": b, **classic.mx2_tests(fold_values[a], fold_values[b]).to_dict()})
    friedman = None
    if len(names) >= 3:
        values = np.array([fold_values[n] for n in names], dtype=float).T
        friedman = classic.friedman(values, alpha=alpha).to_dict()
    return {"m": m, "pairs": pairs, "friedman": friedman}


def format_p(r: dict) -> str:
    """A textbook test's p-value for a table: 4 decimals, tiny ones in e-notation (never printed as 0), – if undefined.

    Examples
    --------
    >>> format_p({"p_value": 0.03125}), format_p({"p_value": 2.3e-11}), format_p({"p_value": None})
    ('0.0312', '2.3e-11', '–')
    """
    p = r.get("p_value")
    return "–" if p is None else f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def textbook_markdown(report: Report) -> list[str]:
    """The short "Textbook tests" section of ``report.md`` (from ``fold_f1``; empty without it)."""
    report = as_report(report)
    ff = report.fold_f1
    if len(ff) < 2:
        return []
    t = textbook_tests(ff, report.m, report.alpha)
    out = ["", "## Textbook tests (per-fold F1 differences, B − A)", "",
           "| A | B | test | statistic | p-value |", "|---|---|---|---|---|"]
    for pair in t["pairs"]:
        for r in pair["tests"]:
            out.append(f"| {pair['a']} | {pair['b']} | {r['name']} | {format_statistic(r)} | {format_p(r)} |")
    fr = t["friedman"]
    if fr:
        names = list(ff)
        for r in (fr["chi2"], fr["iman_davenport"]):
            out.append(f"| all {len(names)} | | {r['name']} over the {2 * report.m} folds | {format_statistic(r)} | "
                       f"{format_p(r)} |")
    out.append("")
    skipped = t["pairs"][0]["not_applicable"]
    if skipped:
        out.append(f"Not run at m = {report.m}: "
                   + "; ".join(f"{s['test']} ({s['reason'].split(';')[0]})" for s in skipped) + ".")
        out.append("")
    out.append(DISAGREE)
    return out


def one_split_markdown(report: Report) -> list[str]:
    """The "What one split would claim" section of ``report.md`` (lines), from ``report["one_split"]``.

    Examples
    --------
    >>> one_split_markdown({"one_split": {"available": False, "reason": "no counts"}})[-1]
    'Not available for this run: no counts.'
    """
    report = as_report(report)
    out = ["", "## What one split would claim", ""]
    o = report.one_split
    if o is None:
        return out + ["Not computed: this report was written by an earlier textbcv version. `textbcv report DIR "
                      "--redraw` computes it from `folds.jsonl` without training, when the folds hold per-sentence "
                      "counts."]
    if not o.get("available"):
        return out + [f"Not available for this run: {o['reason']}."]
    fold, alpha = o["fold"], o["alpha"]
    p_better = {(c.a, c.b): c.p_b_better for c in report.comparisons_of("f1")}
    out += [f"Papers usually compare two taggers on one train/test split, with a paired test over its test sentences. "
            f"On this run's first fold alone — {fold['label']}: split {fold['split'] + 1} trained on its first half "
            f"and tested on the {o['sentences']:,} sentences of the second (`{fold['id']}`) — those tests would claim:",
            "", "| A | B | ΔF1 (B − A) | paired bootstrap p | approximate randomization p | m×2: P(B better) |",
            "|---|---|---|---|---|---|"]
    for x in o["pairs"]:
        pb = p_better.get((x["a"], x["b"]))
        out.append(f"| {x['a']} | {x['b']} | {100 * x['delta_f1']:+.2f} | {format_p(x['bootstrap'])} | "
                   f"{format_p(x['randomization'])} | {'–' if pb is None else f'{pb:.4f}'} |")
    k = len(o["pairs"][0]["folds"]) if o["pairs"] else 0
    out += ["", f"The same tests on each of the {k} folds alone:", "",
            f"| A | B | B ahead | bootstrap p < {alpha:g} | randomization p < {alpha:g} |", "|---|---|---|---|---|"]
    opposite = []
    for x in o["pairs"]:
        f, cells = x["folds"], []
        for key in ("bootstrap_p", "randomization_p"):
            wins_a = sum(r[key] < alpha and r["delta_f1"] < 0 for r in f)
            wins_b = sum(r[key] < alpha and r["delta_f1"] > 0 for r in f)
            cells.append(f"{wins_a + wins_b} of {k}: {x['a']} {wins_a}, {x['b']} {wins_b}")
            if wins_a and wins_b and (x["a"], x["b"]) not in opposite:
                opposite.append((x["a"], x["b"]))
        out.append(f"| {x['a']} | {x['b']} | {sum(r['delta_f1'] > 0 for r in f)} of {k} | " + " | ".join(cells) + " |")
    for a, b in opposite:
        out += ["", f"Tested on one split, {a} would have been found significantly better on some folds and {b} on "
                "others: opposite conclusions from the same corpus and the same two systems."]
    out += ["", f"Paired bootstrap: {o['resamples']:,} resamples of the fold's test sentences, p-value as sacrebleu's "
            f"paired bootstrap computes it; approximate randomization: {o['shuffles']:,} shuffles, each swapping the "
            "two systems' output of every sentence with probability ½, p = (c + 1)/(R + 1) (Riezler & Maxwell 2005); "
            f"seed {o['seed']}; chunk F1 recomputed from the sentences' counts. Both tests keep the trained models "
            "fixed and resample only the test sentences: they ignore the variance that comes from the choice of "
            "training set, which the m×2 design measures. This is what one split would claim, not this report's "
            "answer, which is the Bayes test above."]
    return out


def write_cd_diagram(names: list[str], average_ranks: list[float], cd: float, path: str | os.PathLike,
                     title: str | None = None) -> Path:
    """Demšar's critical-difference diagram: average ranks on an axis, the Nemenyi CD as a bar, and a thick
    line under each group of systems whose ranks differ by less than the CD. Returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from textbcv._io import atomic_write

    k = len(names)
    order = sorted(range(k), key=lambda i: (average_ranks[i], names[i]))
    ranks = [average_ranks[i] for i in order]
    groups, last = [], -1
    for i in range(k):
        j = max(j for j in range(i, k) if ranks[j] - ranks[i] <= cd + 1e-12)
        if j > i and j > last:
            groups.append((i, j))
            last = j
    half = (k + 1) // 2
    height = 1.2 + 0.3 * max(half, k - half) + 0.15 * len(groups)
    fig, ax = plt.subplots(figsize=(7, height))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-(0.35 * max(half, k - half) + 0.2 * len(groups) + 0.3), 1.0)
    ax.axis("off")
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for x in range(1, k + 1):
        ax.plot([x, x], [0, 0.08], color="black", lw=1)
        ax.text(x, 0.14, str(x), ha="center", va="bottom", fontsize=9)
    ax.text((1 + k) / 2, 0.42, "average rank (1 = best)", ha="center", fontsize=9)
    ax.plot([1, 1 + cd], [0.75, 0.75], color="black", lw=2)
    ax.text(1 + cd / 2, 0.8, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=9)
    for pos, (i, r) in enumerate(zip(order, ranks)):
        left = pos < half
        depth = -0.35 * ((pos if left else k - 1 - pos) + 1) - 0.2 * len(groups)
        xend = 0.6 if left else k + 0.4
        ax.plot([r, r, xend], [0, depth, depth], color="black", lw=0.8)
        ax.text(xend + (-0.02 if left else 0.02), depth, f"{names[i]} ({r:.2f})", ha="right" if left else "left",
                va="center", fontsize=9)
    for g, (i, j) in enumerate(groups):
        y = -0.12 - 0.18 * g
        ax.plot([ranks[i] - 0.03, ranks[j] + 0.03], [y, y], color="black", lw=3, solid_capstyle="round")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    path = Path(path)
    with atomic_write(path, mode="wb", encoding=None) as f:
        fig.savefig(f, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


#: The sections of ``report.md`` after its title, in order (:func:`render_markdown`). Each takes the report
#: dictionary and returns its lines (none when it has nothing to say); a new section is one function added here.
MD_SECTIONS = [conclusion_markdown, setup_markdown, scores_markdown, ranking_markdown, pairwise_markdown,
               bayes_markdown, sequential_markdown, textbook_markdown, one_split_markdown, stopping_markdown, heldout_markdown,
               per_type_markdown, split_markdown, per_fold_markdown]
