"""The sections of ``report.md`` that break the answer down: per type, per fold, macro-F1, error anatomy, held-out."""

from __future__ import annotations

from textbcv.report.model import CompareReport
from textbcv.report.numbers import METRICS, counts_cell, fmt_p, interval_cell, pct, score_cell
from textbcv.report.verdicts import macro_interval
from textbcv.stats.compare import undefined_reason

#: a held-out gap (F1 fraction) from which the report says what such a gap usually means
LARGE_GAP = 0.05

__all__ = ["per_type_markdown", "per_fold_markdown", "macro_markdown", "anatomy_markdown", "heldout_markdown"]


def per_type_markdown(report: CompareReport) -> list[str]:
    """``## Per-type scores``: pooled P / R / F1 of each chunk type and system (— where undefined).

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
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
                cells.append("–" if c is None else counts_cell(c))
            out.append(f"| {t or '(untyped)'} | " + " | ".join(cells) + " |")
        if any(undefined_reason(k, c["tp"], c["fp"], c["fn"]) for n in names for c in pt[n].values()
               for k in METRICS):
            out += ["", "— : undefined (precision of a type never predicted, recall of a type with no gold chunk)."]
    return out


def per_fold_markdown(report: CompareReport) -> list[str]:
    """``## Per-fold F1``: one row per fold, F1 in percent; empty without ``fold_f1``.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
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
        out.append(f"| S{i // 2} {'→' if i % 2 == 0 else '←'} | " + " | ".join(cell(n, i) for n in names) + " |")
    return out


def macro_markdown(report: CompareReport) -> list[str]:
    """``## Macro-F1``: each system's mean F1 over the types and each pair's paired difference; empty without it.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
    mac = report.macro
    if mac is None:
        return []
    level = f"{100 * (0.95 if mac.level is None else mac.level):g}%"
    out = ["", f"## Macro-F1 (mean of the chunk types' F1, percent, {level} intervals of the scores)", "",
           "| system | macro-F1 | micro-F1 (the report's F1) |", "|---|---|---|"]
    for x in mac.systems:
        micro = report.systems.get(x.name, {}).get("f1")
        micro_cell = "—" if micro is None else score_cell(micro)
        out.append(f"| {x.name} | {100 * x.estimate:.2f} [{100 * x.ci[0]:.2f}, {100 * x.ci[1]:.2f}] | "
                   f"{micro_cell} |")
    for p in mac.pairs:
        out.append("")
        lo, hi, label = macro_interval(p, mac)
        out.append(f"{p.b} − {p.a}: {100 * p.estimate:+.2f} macro-F1 points, {label} "
                   f"[{100 * lo:+.2f}, {100 * hi:+.2f}]; P({p.b} better) = "
                   f"{fmt_p(p.p_b_better, 4)}: {p.decision}.")
    note = (f" Left out, too rare to estimate (fewer than {mac.min_gold} gold chunks in some fold): "
            + ", ".join(f"{t} ({n})" for t, n in mac.rare) + "." if mac.rare else "")
    out += ["", f"Averaged over {', '.join(mac.types)}: every type weighs the same, so a system that is better "
            "only on the frequent types can lose here. Paired on the same test sentences "
            f"({mac.cluster_unit} as clusters), with the parts of the F1 difference's posterior." + note]
    return out


def anatomy_markdown(report: CompareReport) -> list[str]:
    """``## Error anatomy``: each system's error kinds and what each pair's second system removes or adds.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
        Empty for reports without an anatomy.
    """
    a = report.anatomy
    if a is None or not a.systems:
        return []
    kinds = a.kinds
    level = f"{100 * (0.95 if a.level is None else a.level):g}%"
    out = ["", f"## Error anatomy (pooled over folds, percent, {level} intervals)", "",
           "| system | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for x in a.systems:
        by_kind = {k.kind: k for k in x.kinds}
        cells = [f"{100 * by_kind[k].share:.2f} [{100 * by_kind[k].ci[0]:.2f}, "
                 f"{100 * by_kind[k].ci[1]:.2f}] ({by_kind[k].count:,})" for k in kinds]
        out.append(f"| {x.name} | " + " | ".join(cells) + " |")
    tau = report.threshold
    if a.pairs:
        out += ["", f"| A | B | kind | B − A, points, {level} interval | P(B has more) | decision |",
                "|---|---|---|---|---|---|"]
        for p in a.pairs:
            decision = ("B has more" if p.p_b_more >= tau else "B has fewer" if 1 - p.p_b_more >= tau
                        else "no clear difference")
            out.append(f"| {p.a} | {p.b} | {p.kind} | {100 * p.estimate:+.2f} "
                       f"[{100 * p.ci[0]:+.2f}, {100 * p.ci[1]:+.2f}] | {fmt_p(p.p_b_more, 4)} | "
                       f"{decision} |")
    out += ["", "Every gold chunk is correct, of the wrong type (same boundaries), of the wrong boundary (same type), "
            "wrong in both, or missed; every predicted chunk is correct, wrong in one of those ways, or spurious "
            "(matched as conlleval matches: one-to-one, each predicted chunk left to right taking its exact match, "
            "else the leftmost gold chunk it overlaps). Shares are of the gold chunks, the spurious ones of the "
            "predicted chunks; counts in brackets. The intervals, and the pairs' differences (paired on the same "
            f"test sentences, {a.cluster_unit or 'sentences'} as clusters), hold new text and the models' own "
            f"noise, as the F1 difference does; a kind is called more or fewer when P ≥ {tau:g}."]
    return out


def heldout_markdown(report: CompareReport) -> list[str]:
    """The "Held-out test sets" section (scores in percent, gaps in points); empty without a ``heldout`` block.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
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
            row = f"| {n} | {counts_cell(p)} |"
            if dup:
                row += f" {pct(r['pooled_without_duplicates']['f1'])} |"
            cv = r["cv_f1"]
            cv_text = "—" if cv["estimate"] is None else f"{pct(cv['estimate'])} {interval_cell(cv['ci'])}"
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
            out += ["", f"| A | B | ΔF1 (B − A) | bootstrap {level} CI | share of resamples with B better |"
                    + (" ΔF1 without repeated sentences |" if dup else ""), "|---" * (6 if dup else 5) + "|"]
            for x in pairs:
                out.append(f"| {x['a']} | {x['b']} | {100 * x['delta_f1']:+.2f} | "
                           f"[{100 * x['ci'][0]:+.2f}, {100 * x['ci'][1]:+.2f}] | {x['p_b_better']:.3f} |"
                           + (f" {100 * x['delta_f1_without_duplicates']:+.2f} |" if dup else ""))
            out += ["", f"Paired bootstrap over the file's sentences ({b['resamples']:,} resamples, seed {b['seed']}): "
                    f"{b['what']}."]
    if notes:
        out += ["", "Gap larger than the interval: " + "; ".join(notes) + "."]
        if any(per[f]["gap"] is not None and abs(per[f]["gap"]) >= LARGE_GAP for f in h["files"]
               for per in h["systems"].values()):
            out[-1] += (f" A gap of {100 * LARGE_GAP:g} points or more usually means the held-out file is other text "
                        "than the corpus (other sources, names or years): the cross-validation estimate answers for "
                        "new text like the corpus, the held-out score for text like that file; neither is wrong.")
    return out
