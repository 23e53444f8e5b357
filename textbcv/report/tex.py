"""``report.tex``: a complete LaTeX document (booktabs) of the comparison's tables and methods paragraph.

It compiles with ``pdflatex`` as it is; a paper that copies its tables needs ``\\usepackage{booktabs}``.
"""

from __future__ import annotations

from pathlib import Path

from textbcv._io import dumps_json
from textbcv.report.escape import tex_escape, unset_characters
from textbcv.report.methods import design_name, methods_paragraph, variant_text
from textbcv.report.model import CompareReport
from textbcv.report.numbers import METRICS, fmt_p, pct, points
from textbcv.report.verdicts import (
    caution_notes,
    difference_basis,
    difference_cell,
    interval_label,
    macro_interval,
    marked_verdict,
)
from textbcv.stats.answer import Comparison, Posterior

__all__ = ["render_tex", "tex_escape", "unset_characters"]


def _cell(entry: Posterior) -> str:
    if entry.estimate is None:
        return f"--- ({tex_escape(entry.undefined or 'undefined')})"
    assert entry.ci is not None  # defined with its estimate
    lo, hi = entry.ci
    mark = r"$^\dagger$" if entry.interval == "one-sided" else ""
    return f"{pct(entry.estimate)} [{pct(lo)}, {pct(hi)}]{mark}"


def _p(p) -> str:
    return tex_escape(fmt_p(p))


def render_tex(report: CompareReport) -> str:
    """The text of ``report.tex`` (scores in percent, differences in points), ending in a newline.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str

    Examples
    --------
    >>> f1 = {"estimate": .8, "ci": [.78, .82], "interval": "equal-tailed"}
    >>> r = CompareReport.from_dict({"m": 3, "systems": {n: {k: f1 for k in ("precision", "recall", "f1")}
    ...                                                  for n in ("A", "B")}, "comparisons": []})
    >>> print(render_tex(r).splitlines()[17])
    A & 80.00 [78.00, 82.00] & 80.00 [78.00, 82.00] & 80.00 [78.00, 82.00] \\\\
    """
    m, alpha = report.m, report.alpha
    level = f"{100 * (1 - alpha):g}"
    tau, rope = report.threshold, report.rope_points
    names = report.names
    one_sided = any(report.systems[n][k].interval == "one-sided" for n in names for k in METRICS)
    lines = [
        f"% report.tex written by textbcv {report.version} from the values of report.json.",
        "% It compiles with pdflatex as it is; to use the tables in a paper, add \\usepackage{booktabs}.",
        r"\documentclass{article}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage[utf8]{inputenc}",
        r"\usepackage{booktabs}",
        r"\begin{document}",
        "",
        r"\begin{table}[ht]",
        r"\centering",
        r"\small",
        (r"\caption{Pooled precision, recall and F1 (\%) with " + f"{level}" + r"\% credible intervals: "
         + tex_escape(f"{design_name(report)}, {2 * m} test folds per system; count factor: {variant_text(report)}.")
         + (r" $^\dagger$One-sided interval (a score at or near 0 or 100\%)." if one_sided else "") + "}"),
        r"\label{tab:textbcv-scores}",
        r"\begin{tabular}{lccc}",
        r"\toprule",
        r"System & Precision & Recall & F1 \\",
        r"\midrule",
    ]
    for n in names:
        s = report.systems[n]
        lines.append(f"{tex_escape(n)} & " + " & ".join(_cell(s[k]) for k in METRICS) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]

    pairs: dict[tuple[str, str], dict[str, Comparison]] = {}
    for c in report.comparisons:
        pairs.setdefault((c.a, c.b), {})[c.metric] = c
    by = f" by more than {points(rope)}" if rope is not None else ""
    eq_col = rope is not None
    cols = "ll" + "c" + "ccc" + ("c" if eq_col else "") + "l"
    caption = (r"Bayes test: posterior probability that B is better than A" + tex_escape(by) + r" on each metric"
               + (r", and that their F1 differ by at most " + f"{rope:g}" + " points (equiv.)" if eq_col else "")
               + r". Decision on F1: a system is called better when this probability is at least "
               + f"{tau:g}" + r"; below, ``no clear difference''. $\Delta$F1: B $-$ A in points with its "
               + tex_escape(interval_label(report)) + r" (credible). " + tex_escape(difference_basis(report))
               + "".join(" " + tex_escape(n) for n in caution_notes(report)))
    lines += [r"\begin{table}[ht]", r"\centering", r"\small", r"\caption{" + caption + "}",
              r"\label{tab:textbcv-bayes}", r"\begin{tabular}{" + cols + "}", r"\toprule",
              r" & & & \multicolumn{3}{c}{P(B better" + tex_escape(by.replace(" by more than", " by >")) + ")}"
              + (" & " if eq_col else "") + r" & \\",
              r"\cmidrule(lr){4-6}",
              r"A & B & $\Delta$F1 & Precision & Recall & F1" + (r" & Equiv.\ (F1)" if eq_col else "")
              + r" & Decision (F1) \\",
              r"\midrule"]
    for (a, b), per in pairs.items():
        f1 = per.get("f1")
        delta = "---" if f1 is None else difference_cell(f1, tex=True)
        row = [tex_escape(a), tex_escape(b), delta] + [_p(per[k].p_b_better if k in per else None)
                                                       for k in METRICS]
        if eq_col:
            row.append(_p(None if f1 is None else f1.p_equivalent))
        row.append(tex_escape(("undefined" if f1.undefined else marked_verdict(f1)) if f1 else "---"))
        lines.append(" & ".join(row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    lines += [line for s in report.sections for line in s.latex(report.answer)]
    lines += _macro_table(report) + _heldout_tables(report)
    lines += [r"\paragraph{Methods.} " + tex_escape(methods_paragraph(report)), "", r"\end{document}", ""]
    unset = unset_characters(dumps_json(report.to_dict()))
    if unset:  # never silently: the names that lost characters are the user's, and the remedy is theirs
        lines.insert(2, f"% pdflatex cannot set {', '.join(unset)} (in the report's values); each is written as ?: "
                        "set the names in Latin letters, or compile a copy with xelatex and a font that has them.")
    return "\n".join(lines)


def _macro_table(report: CompareReport) -> list[str]:
    """Macro-F1 beside micro-F1 per system, and each pair's macro difference (as report.md's section)."""
    mac = report.macro
    if mac is None:
        return []
    level = f"{100 * (0.95 if mac.level is None else mac.level):g}"
    left = (" Left out, too rare to estimate: " + ", ".join(f"{t} ({n})" for t, n in mac.rare) + ".") if mac.rare \
        else ""
    lines = [r"\begin{table}[ht]", r"\centering", r"\small",
             r"\caption{Macro-F1 (\%, the mean of the chunk types' F1: " + tex_escape(", ".join(mac.types))
             + r") with " + level + r"\% credible intervals, beside micro-F1; B $-$ A in points with the interval the "
             + r"rule decides by, paired on the same "
             + r"test sentences." + tex_escape(left) + "}",
             r"\label{tab:textbcv-macro}", r"\begin{tabular}{lcc}", r"\toprule",
             r"System & Macro-F1 & Micro-F1 \\", r"\midrule"]
    for x in mac.systems:
        micro = report.systems.get(x.name, {}).get("f1")
        lines.append(f"{tex_escape(x.name)} & {100 * x.estimate:.2f} [{100 * x.ci[0]:.2f}, "
                     f"{100 * x.ci[1]:.2f}] & " + ("---" if micro is None else _cell(micro)) + r" \\")
    for p in mac.pairs:
        lines.append(r"\midrule")
        lo, hi, label = macro_interval(p, mac)
        lines.append(f"{tex_escape(p.b)} $-$ {tex_escape(p.a)} & ${100 * p.estimate:+.2f}$ "
                     f"[${100 * lo:+.2f}$, ${100 * hi:+.2f}$] ({tex_escape(label)}) & "
                     f"P = {_p(p.p_b_better)}: {tex_escape(p.decision)} \\\\")
    return lines + [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]


def _heldout_tables(report: CompareReport) -> list[str]:
    """One table per held-out file: pooled scores of the 2m models, their F1 mean and SD, and the gap."""
    h = report.heldout
    if not h:
        return []
    level = f"{100 * (1 - report.alpha):g}"
    lines: list[str] = []
    for f, info in h["files"].items():
        dup = info["duplicates"]
        caption = (f"Held-out file {Path(f).name}: {info['sentences']:,} sentences, {info['gold_chunks']:,} gold "
                   "chunks; the "
                   f"{2 * report.m} fold models' predictions pooled, their F1 mean and SD, the m×2 estimate of F1 "
                   f"with its {level}% interval, and the gap (estimate minus held-out F1)"
                   + (f". {dup:,} of its sentences also occur in the corpus: F1 without them in the last column."
                      if dup else "."))
        lines += [r"\begin{table}[ht]", r"\centering", r"\small", r"\caption{" + tex_escape(caption) + "}",
                  r"\begin{tabular}{l" + "c" * (7 if dup else 6) + "}", r"\toprule",
                  r"System & P & R & F1 & Models' F1 & m$\times$2 F1 & Gap" + (r" & F1 w/o rep." if dup else "")
                  + r" \\", r"\midrule"]
        for n, per in h["systems"].items():
            r = per[f]
            p = r["pooled"]
            cv = r["cv_f1"]
            cv_text = ("---" if cv["estimate"] is None
                       else f"{pct(cv['estimate'])} [{pct(cv['ci'][0])}, {pct(cv['ci'][1])}]")
            gap = "---" if r["gap"] is None else f"${100 * r['gap']:+.2f}$"
            row = (f"{tex_escape(n)} & {pct(p['precision'])} & {pct(p['recall'])} & {pct(p['f1'])} & "
                   f"{pct(r['models_f1']['mean'])} $\\pm$ {pct(r['models_f1']['sd'])} & {cv_text} & {gap}")
            if dup:
                row += f" & {pct(r['pooled_without_duplicates']['f1'])}"
            lines.append(row + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return lines
