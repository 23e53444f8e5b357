"""The sections of ``report.md`` on how the comparison was made: setup, split, stopping, plots, run, methods."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from textbcv.report.command import reproduce_command
from textbcv.report.methods import (
    corpus_types,
    design_name,
    methods_paragraph,
    system_settings,
    template_text,
    variant_text,
)
from textbcv.report.model import CompareReport
from textbcv.report.numbers import points
from textbcv.report.plots import PLOT_CAPTIONS, PLOT_TITLES
from textbcv.report.verdicts import short_rule

__all__ = ["MODE_WORDS", "setup_markdown", "split_markdown", "stopping_markdown", "plots_markdown", "run_markdown",
           "methods_markdown"]

#: How the setup names a matching mode other than strict.
MODE_WORDS = {"exact": "exact (a predicted chunk is right when its boundaries are, whatever its type)",
              "partial": "partial (an overlap earns half a credit, an exact boundary match a whole one, whatever the "
                         "type; half credits counted as whole units of doubled counts)",
              "type": "type (a predicted chunk is right when its type is and it overlaps the gold chunk)"}


def setup_markdown(report: CompareReport) -> list[str]:
    """``## Setup``: corpus, split, systems, intervals, decision rule, version, the command that remakes the report.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
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
    sp = report.split
    q = report.split_quality or {}
    design = f"- Design: {design_name(report)}, seed {report.seed}, {2 * m} folds per system"
    if sp is not None:
        unit = {"document": "documents kept whole", "file": "files kept whole"}.get(str(sp.unit),
                                                                                   "sentences as units")
        group = f" (--group-by {sp.group_by})" if sp.group_by else ""
        design += f"; {unit}{group}; balanced: {', '.join(sp.balance or []) or 'nothing'}"
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
    r = report.rope_points
    rope = (f"; rope ±{points(r)} (--rope {r:g}: percentage points of the metric, F1 points for F1)"
            if r is not None else "; no rope (--rope, in points, adds one)")
    out.append(f"- Decision: {short_rule(report)} (--threshold {report.threshold:g}){rope}.")
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


def split_markdown(report: CompareReport) -> list[str]:
    """``## Split``: units, balance, overlap and χ²/J of the halves; empty without split blocks.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    sp = report.split
    q = report.split_quality or {}
    if not (sp or q):
        return []
    out = ["", "## Split", ""]
    if sp is not None:
        unit = ({"document": "documents, kept whole", "file": "files, kept whole"}.get(str(sp.unit))
                or "sentences" + (" (exact duplicates kept together)" if sp.duplicates_together else ""))
        out += [f"Units: {unit}" + (" (--group-by auto)" if sp.group_by == "auto" else "") + "; balanced: "
                + (", ".join(sp.balance or ()) or "nothing") + "."]
        out += [f"Note: {n}." for n in sp.notes]
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


def stopping_markdown(report: CompareReport) -> list[str]:
    """The ``Stopping:`` line (how m was reached); empty when the report gives no reason.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    stop = report.stopping
    if stop is None or not stop.reason:
        return []
    return ["", f"Stopping: {stop.reason} ({stop.folds_per_system} folds per system)."]


def plots_markdown(plots: Sequence[str]) -> list[str]:
    """``## Plots``: every PNG beside ``report.md``, linked relatively, with its caption; empty without plots.

    Parameters
    ----------
    plots : sequence of str
        File names relative to ``report.md``.

    Returns
    -------
    list of str
    """
    if not plots:
        return []
    out = ["", "## Plots"]
    for name in plots:
        out += ["", f"![{PLOT_TITLES.get(name, name)}]({name})", "", f"`{name}`: {PLOT_CAPTIONS.get(name, '')}"]
    return out


def run_markdown(report: CompareReport) -> list[str]:
    """The ``Run:`` line: wall time, folds trained, resumed or imported, version; empty without a ``run`` block.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    run = report.run
    version = report.meta.get("textbcv")
    if run is None:
        return []
    if run.imported:
        return ["", f"Run: {run.seconds} s, {run.folds_imported} folds imported; textbcv {version}."]
    return ["", f"Run: {run.seconds} s, {run.folds_trained} folds trained, {run.folds_resumed} resumed; "
            f"textbcv {version}."]


def methods_markdown(report: CompareReport) -> list[str]:
    """``## Methods``: the paragraph to paste into a paper.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    return ["", "## Methods (to paste)", "", methods_paragraph(report)]
