"""The textbook tests (:mod:`textbcv.stats.classic`) of a comparison's per-fold scores, run on each pair and worded."""

from __future__ import annotations

import numpy as np

from textbcv.report.model import CompareReport
from textbcv.stats import classic

__all__ = ["DISAGREE", "DISAGREE_UNPAIRED", "disagree_note", "textbook_tests", "format_statistic", "format_p",
           "textbook_markdown", "one_split_markdown"]


#: Why the textbook tests and the Bayes test can disagree (one line, in the report and ``textbcv test --classic``).
DISAGREE = ("Why they may disagree with the Bayes test: both are paired, but these tests see only the spread of the "
            "per-fold differences, with few degrees of freedom, while the Bayes test measures from the per-sentence "
            "counts what new text adds to the pooled difference and takes from the folds' spread only what the "
            "models' own noise adds beyond it — with few splits a difference can be clear to one and not to the "
            "other.")
DISAGREE_UNPAIRED = ("Why they may disagree with the Bayes test: these tests judge the spread of the paired per-fold "
                     "differences with few degrees of freedom, while the Bayes test, without per-sentence counts, "
                     "compares each system's pooled chunk counts as if the two systems had been tested on different "
                     "sentences — a small but steady difference can be clear to one and not to the other.")


def disagree_note(paired: bool) -> str:
    """:data:`DISAGREE` or :data:`DISAGREE_UNPAIRED`, as the Bayes test's differences were paired or not.

    Parameters
    ----------
    paired : bool

    Returns
    -------
    str
    """
    return DISAGREE if paired else DISAGREE_UNPAIRED

_SYMBOL = {"paired_t_5x2cv": "t", "combined_t_5x2cv": "t", "blocked_t_3x2": "t", "corrected_resampled_t": "t",
           "paired_t": "t", "t": "t", "combined_f_5x2cv": "F", "iman_davenport": "F", "friedman_chi2": "χ²",
           "mcnemar_chi2": "χ²", "wilcoxon": "W", "mcnemar_exact": "min(b, c)", "binomial": "error rate"}


def format_statistic(r: dict) -> str:
    """``t(5) = 1.2345``-style text of a test result (a ``ClassicResult.to_dict()``); its reason if undefined.

    Parameters
    ----------
    r : dict

    Returns
    -------
    str

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
    """Every textbook test on per-fold values: each pair (B after A), and Friedman for ≥ 3 systems.

    Parameters
    ----------
    fold_values : dict
        System → its 2m per-fold values in fold order; pairs follow the dict's order.
    m : int
    alpha : float
        Level of the Friedman critical differences only.

    Returns
    -------
    dict
        ``{"m", "pairs": [{"a", "b", "tests", "not_applicable"}], "friedman"}``, JSON-ready; ``friedman`` is
        None for two systems.
    """
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
    """A p-value for a table: 4 decimals, tiny ones in e-notation (never 0), ``–`` if undefined.

    Parameters
    ----------
    r : dict
        A test's result with a ``p_value``.

    Returns
    -------
    str

    Examples
    --------
    >>> format_p({"p_value": 0.03125}), format_p({"p_value": 2.3e-11}), format_p({"p_value": None})
    ('0.0312', '2.3e-11', '–')
    """
    p = r.get("p_value")
    return "–" if p is None else f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def textbook_markdown(report: CompareReport) -> list[str]:
    """The "Textbook tests" section of ``report.md`` from ``fold_f1``; empty with fewer than two systems.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    list of str
    """
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
    out.append(disagree_note(any(c.difference is not None and c.difference.basis == "paired"
                                 for c in report.comparisons)))
    return out


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
    if not o.get("available"):
        return out + [f"Not available for this run: {o['reason']}."]
    fold, alpha = o["fold"], o["alpha"]
    p_better = {(c.a, c.b): c.p_b_better for c in report.comparisons_of("f1")}
    out += [f"Papers usually compare two taggers on one train/test split, with a paired test over its test sentences. "
            f"On this run's first fold alone — {fold['label']}: split {fold['split']} trained on its first half "
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
