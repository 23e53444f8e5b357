"""What one split would claim (``one_split_markdown``); the textbook tests' words, for their other readers.

The textbook tests of a report are its section :mod:`textbcv.report.sections.textbook`.
"""

from __future__ import annotations

from textbcv.report.model import CompareReport
from textbcv.report.sections.textbook import (
    DISAGREE,
    DISAGREE_UNPAIRED,
    disagree_note,
    format_p,
    format_statistic,
    textbook_tests,
)

__all__ = ["DISAGREE", "DISAGREE_UNPAIRED", "disagree_note", "textbook_tests", "format_statistic", "format_p",
           "one_split_markdown"]


def one_split_markdown(report: CompareReport) -> list[str]:
    """The "What one split would claim" section of ``report.md``, from the report's ``one_split`` block.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str

    Examples
    --------
    >>> one_split_markdown(CompareReport.from_dict({"one_split": {"available": False, "reason": "no counts"}}))[-1]
    'Not available for this run: no counts.'
    """
    out = ["", "## What one split would claim", ""]
    o = report.one_split
    if o is None:
        return out + ["Not computed: this report was written by an earlier textbcv version. `textbcv report DIR "
                      "--redraw` computes it from `folds.jsonl` without training, when the folds hold per-sentence "
                      "counts."]
    if not o.available:
        return out + [f"Not available for this run: {o.reason}."]
    split, _direction, label, fold_id = o.fold or (0, 0, "", "")
    alpha = o.alpha if o.alpha is not None else report.alpha
    p_better = {(c.a, c.b): c.p_b_better for c in report.comparisons_of("f1")}
    out += [f"Papers usually compare two taggers on one train/test split, with a paired test over its test sentences. "
            f"On this run's first fold alone — {label}: split {split} trained on its first half "
            f"and tested on the {o.sentences:,} sentences of the second (`{fold_id}`) — those tests would claim:",
            "", "| A | B | ΔF1 (B − A) | paired bootstrap p | approximate randomization p | m×2: P(B better) |",
            "|---|---|---|---|---|---|"]
    for x in o.pairs:
        pb = p_better.get((x.a, x.b))
        out.append(f"| {x.a} | {x.b} | {100 * x.delta_f1:+.2f} | {format_p({'p_value': x.bootstrap_p})} | "
                   f"{format_p({'p_value': x.randomization_p})} | {'–' if pb is None else f'{pb:.4f}'} |")
    k = len(o.pairs[0].folds) if o.pairs else 0
    out += ["", f"The same tests on each of the {k} folds alone:", "",
            f"| A | B | B ahead | bootstrap p < {alpha:g} | randomization p < {alpha:g} |", "|---|---|---|---|---|"]
    opposite = []
    for x in o.pairs:
        cells = []
        for ps in ([r.bootstrap_p for r in x.folds], [r.randomization_p for r in x.folds]):
            wins_a = sum(p is not None and p < alpha and r.delta_f1 < 0 for p, r in zip(ps, x.folds))
            wins_b = sum(p is not None and p < alpha and r.delta_f1 > 0 for p, r in zip(ps, x.folds))
            cells.append(f"{wins_a + wins_b} of {k}: {x.a} {wins_a}, {x.b} {wins_b}")
            if wins_a and wins_b and (x.a, x.b) not in opposite:
                opposite.append((x.a, x.b))
        out.append(f"| {x.a} | {x.b} | {sum(r.delta_f1 > 0 for r in x.folds)} of {k} | " + " | ".join(cells) + " |")
    for a, b in opposite:
        out += ["", f"Tested on one split, {a} would have been found significantly better on some folds and {b} on "
                "others: opposite conclusions from the same corpus and the same two systems."]
    out += ["", f"Paired bootstrap: {o.resamples:,} resamples of the fold's test sentences, p-value as sacrebleu's "
            f"paired bootstrap computes it; approximate randomization: {o.shuffles:,} shuffles, each swapping the "
            "two systems' output of every sentence with probability ½, p = (c + 1)/(R + 1) (Riezler & Maxwell 2005); "
            f"seed {o.seed}; chunk F1 recomputed from the sentences' counts. Both tests keep the trained models "
            "fixed and resample only the test sentences: they ignore the variance that comes from the choice of "
            "training set, which the m×2 design measures. This is what one split would claim, not this report's "
            "answer, which is the Bayes test above."]
    return out
