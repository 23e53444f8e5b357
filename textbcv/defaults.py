"""The defaults of textbcv's splits and intervals, in one place, and the lines that quote their evidence.

Every entry point takes its defaults from here. Why these: docs/method.md, "12. The defaults and the evidence
behind them".
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

__all__ = ["BALANCE", "GROUP_BY", "VARIANT", "GROUP_BY_CHOICES", "MIN_CLUSTERS", "CRF_ALGORITHMS", "MATCHING_MODES",
           "unit_note",
           "option_notes", "EVIDENCE", "PAIRED_POSTERIOR"]

#: The matching modes of chunk scoring (:mod:`textbcv.scoring.modes`), conlleval's strict first.
MATCHING_MODES = ("strict", "exact", "partial", "type")
#: crfsuite's training algorithms (lbfgs, the default, draws no random numbers; the others shuffle the training
#: sequences and take a training seed).
CRF_ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")

#: The paired ΔF1 posterior model (:class:`textbcv.stats.paired.PairedDifference`) a study figure must name to be
#: quoted: a figure measured on another model does not describe this one.
PAIRED_POSTERIOR = "paired/3"

BALANCE: tuple[str, ...] = ()
GROUP_BY = "auto"
VARIANT = "clustered"
#: The fewest clusters a cluster variance (the design effects, the paired posterior) is measured over: null pairs on
#: corpora cut into k documents kept the rule's false calls within 5% each way from k = 15 on (4.2% / 4.0%), and
#: called 5.0–8.8% each way at k = 5–10, 17–18% at k = 2 (docs/method.md, "Too few clusters"; docs/RESULTS.md,
#: "Too few clusters"). Below it the splits and the variance fall back to sentences (``--group-by auto``), or the
#: run is refused (units asked for).
MIN_CLUSTERS = 15
#: ``file``: every file is a unit (its sentences kept whole), asked for; files are never documents of their own
GROUP_BY_CHOICES = ("auto", "sentence", "document", "file")

_POOL_NAMES = {"conll": "CoNLL-2003 by document", "msr": "SIGHAN 2005 MSR"}


@functools.cache
def evidence() -> dict:
    """The study figures the option notes quote (``textbcv/data/evidence.json``, read once).

    Returns
    -------
    dict
    """
    return json.loads(resources.files("textbcv").joinpath("data/evidence.json").read_text(encoding="utf-8"))


def fixed_training_part(task: str) -> Mapping[str, Any] | None:
    """The project's measure of the part a fixed split leaves out for ``task`` (``evidence.json``'s
    ``fixed_training_part``, written by ``scripts/fixed_study.py --close``), or None where none was measured.

    Parameters
    ----------
    task : str

    Returns
    -------
    mapping or None
        ``sd`` and ``seed_sd`` (fractions of F1) and ``where`` (the corpus, pair, size and data sets, in words).

    Examples
    --------
    >>> fixed_training_part("no such task") is None
    True
    """
    rows: Mapping[str, Mapping[str, Any]] = evidence().get("fixed_training_part") or {}
    return rows.get(task)


def real_text_coverage(variant: str) -> str | None:
    """A clause on how often ``variant``'s 95% F1 interval held F1 on new text, or None without figures.

    Parameters
    ----------
    variant : str

    Returns
    -------
    str or None
    """
    rows: Mapping[str, Mapping[str, Any]] | None = evidence()["real_text"].get(variant)  # pool → figures
    if not rows:
        return None
    parts = [f"{100 * r['coverage_f1']:.0f}% ({_POOL_NAMES.get(p, p)}, {r['R']} data sets)" for p, r in rows.items()]
    return "in the real-text study its 95% F1 interval held F1 on new text in " + " and ".join(parts) + " of the cases"


def _with_real_text(text: str, variant: str) -> str:
    extra = real_text_coverage(variant)
    return f"{text}; {extra} (docs/RESULTS.md)" if extra else text


def real_text_shift(measure: str) -> str | None:
    """A sentence on the measured shift of balancing ``measure`` alone, when the study rejected it; else None.

    Parameters
    ----------
    measure : str

    Returns
    -------
    str or None
    """
    r = evidence()["real_text_balance"].get(measure)
    if not r or r["ok"] or not r["worst"]:
        return None
    w = r["worst"]
    what = f"the F1 of tagger {w['system']}" if w["metric"] == "f1" else "ΔF1"
    effect = ("its test halves are easier than new text" if w["metric"] == "f1" and w["shift"] > 0
              else "the estimate moves away from what new text gives")
    shift = f"{w['shift']:+.2f}".replace("-", "−")
    return (f"{measure} balancing moved {what} by {shift} ± {w['se']:.2f} points against random m×2 CV "
            f"({_POOL_NAMES.get(w['pool'], w['pool'])}, m = {w['m']}, {w['R']} data sets; beyond the study's "
            f"family-wise bound of {r['z_star']:.2f} SE): {effect} (docs/RESULTS.md, real-text study)")


def false_calls(threshold: float = 0.95, seeds: bool = False) -> str | None:
    """The sentence on the decision rule's false calls on real null pairs, or None without figures.

    Only figures measured at ``threshold`` on the posterior model :data:`PAIRED_POSTERIOR` are quoted.

    Parameters
    ----------
    threshold : float
    seeds : bool
        Quote the several-seed study.

    Returns
    -------
    str or None

    Examples
    --------
    >>> false_calls(0.9) is None
    True
    """
    rows: Mapping[str, Mapping[str, Any]] = evidence().get("seed_null" if seeds else "real_text_pairs_null", {})
    rows = {p: r for p, r in rows.items()
            if r.get("threshold") == threshold and "m3" in r and r.get("posterior") == PAIRED_POSTERIOR}
    if not rows:
        return None

    def pct(x: Mapping[str, Any]) -> str:
        return f"{100 * x['rate']:.1f}%"

    parts, boot = [], []
    for r in rows.values():
        m3 = r["m3"]
        parts.append(f"{pct(m3['calls_b'])} / {pct(m3['calls_a'])} of {m3['R']} {r['corpus']} data sets "
                     f"(by {r['unit']})")
        if "onesplit_bootstrap" in r:
            b = r["onesplit_bootstrap"]
            boot.append(f"{pct(b['b_better'])} / {pct(b['a_better'])}")
    worst = max((r["m3"][side] for r in rows.values() for side in ("calls_b", "calls_a")), key=lambda x: x["rate"])
    k = max((int(r.get("seeds", 1)) for r in rows.values()), default=1)
    who = (f"a CRF with {k} training seeds per fold against itself with {k} other seeds" if seeds
           else "a CRF against itself with another training seed")
    line = (f"Measured on real text (textbcv's study, m = 3: {who}, so "
            f"neither is better), this rule called B / A better in {' and in '.join(parts)}: the largest, "
            f"{pct(worst)} (95% interval {100 * worst['lo']:.1f}–{100 * worst['hi']:.1f}%), against a target of at "
            "most 5% each way (10% in all)")
    if boot:
        line += (f"; a single split's paired bootstrap{' with one seed' if seeds else ''} called "
                 f"{' and '.join(boot)} on the same data sets")
    more = [r for r in evidence().get("calibration_corpora_seeds" if seeds else "calibration_corpora", {}).values()
            if r.get("threshold") == threshold and r.get("m") == 3 and r.get("R")]
    if more:
        rates = [r[side]["rate"] for r in more for side in ("calls_b", "calls_a")]
        ks = "/".join(str(k) for k in sorted({int(r.get("train_seeds", 1)) for r in more}))
        line += (f". Through `textbcv calibrate{f' --train-seeds {ks}' if seeds else ''}` on {len(more)} corpora ("
                 + "; ".join(f"{r['label']}, {r['R']} data sets" for r in more)
                 + f"), it called {'one set of seeds' if seeds else 'one seed'} of a CRF better than the other in "
                 f"{100 * min(rates):.1f}% to {100 * max(rates):.1f}% of the data sets, each way")
        # the target: at most 5% each way, with the 95% interval's upper end at most 7.5% (at R = 200)
        over = [f"{r['label']}: {pct(r[side])} (interval up to {100 * r[side]['hi']:.1f}%) called "
                f"{'B' if side == 'calls_b' else 'A'} better"
                for r in more for side in ("calls_b", "calls_a")
                if r[side]["rate"] > 0.05 or (r["R"] >= 200 and r[side]["hi"] > 0.075)]
        if over:
            line += ("; short of the target (at most 5% each way, the interval's upper end at most 7.5%) on "
                     + "; ".join(over))
    close = [] if seeds else [r for r in evidence().get("calibration_corpora_close", {}).values()
                              if r.get("threshold") == threshold and r.get("m") == 3 and r.get("R", 0) >= 100]
    if close:
        line += (". On close pairs with a truth measured beside each data set (two schemes of one CRF), its 95% "
                 "interval of the difference held the truth in "
                 + " and ".join(f"{100 * r['coverage']['rate']:.1f}% ({r['label']}, {r['R']} data sets)"
                                for r in close))
        ratios = [r["sd_over_rmse_net"] for r in close if r.get("sd_over_rmse_net") is not None]
        if all(r["coverage"]["lo"] > 0.95 for r in close) and ratios:
            line += (f": wider than its 95% says, from the Student t's tails on 2m − 1 = 5 degrees of freedom, "
                     f"while its SD matched the errors' spread ({min(ratios):.2f}–{max(ratios):.2f} of it)")
        elif any(r["coverage"]["hi"] < 0.95 for r in close):
            line += ": narrower than its 95% says on " + "; ".join(
                r["label"] for r in close if r["coverage"]["hi"] < 0.95)
    return line + "."


def floor_calls(m: int, threshold: float = 0.95) -> str | None:
    """The clause on null-pair calls in runs whose model noise was estimated at 0, or None without figures.

    Parameters
    ----------
    m : int
    threshold : float

    Returns
    -------
    str or None

    Examples
    --------
    >>> floor_calls(3, 0.9) is None
    True
    """
    ev = evidence().get("model_noise_floor", {})
    if ev.get("threshold") != threshold or ev.get("posterior") != PAIRED_POSTERIOR:
        return None
    rows = [(r, r[f"m{m}"]) for r in ev.get("corpora", {}).values() if f"m{m}" in r]
    rows = [(r, x) for r, x in rows if x["calls_floored"]["n"] >= 20]
    if not rows:
        return None
    corpus, worst = max(rows, key=lambda rx: rx[1]["calls_floored"]["lo"])

    def pct(x: Mapping[str, Any]) -> str:
        return f"{100 * x['rate']:.1f}%"

    f, o = worst["calls_floored"], worst["calls_other"]
    line = (f"on real text, identical systems (a CRF against itself with another seed) were called different in "
            f"{pct(f)} of such runs (95% interval {100 * f['lo']:.1f}–{100 * f['hi']:.1f}%; {f['n']} of {worst['R']} "
            f"data sets of {corpus['label']} at m = {m}) against {pct(o)} of the others")
    m7 = corpus.get("m7")
    if m < 7 and m7 and m7["calls_floored"]["n"]:
        line += (f", and at m = 7, where the folds measure that noise on 13 degrees of freedom, in "
                 f"{pct(m7['calls_floored'])} against {pct(m7['calls_other'])}")
    return line


def balance_help() -> str:
    """The measured bias of balancing, as ``--balance`` help quotes it.

    Returns
    -------
    str
    """
    parts = ["lemma balancing made test halves easier than new text, +0.44 F1 points at m = 3 on CoNLL-2003"]
    for measure, r in sorted(evidence()["real_text_balance"].items()):
        if "+" not in measure and not r["ok"] and r["worst"]:
            w = r["worst"]
            shift = f"{w['shift']:+.2f}".replace("-", "−")
            parts.append(f"{measure} balancing moved F1 {shift} points at m = {w['m']} on "
                         f"{_POOL_NAMES.get(w['pool'], w['pool'])}")
    return "; ".join(parts)


#: Measured effects of non-default options, one line each, printed when such an option is used.
EVIDENCE: dict[str, str] = {
    "lemma": ("lemma balancing makes test halves easier than new text: +0.44 F1 points (13 SE) against random "
              "m×2 CV at m = 3 on CoNLL-2003 (variance study, docs/RESULTS.md)"),
    "sentence": ("sentence-level halves leak documents: on CoNLL-2003 they leave 8.9% of test tokens unseen against "
                 "11.5% by document, and a memorising tagger scores 79.4 against 72.5 token F1 (docs/RESULTS.md, unit "
                 "leakage); the estimate may be optimistic for new documents"),
    "thesis": _with_real_text("the thesis's count factor under-covers: its 95% F1 interval held the true F1 in 82.1% "
                              "of the thesis's Example 6.1 data sets (recall 71.8%; docs/calibration.md)", "thesis"),
    "independent": _with_real_text("treating the 2m folds as independent under-covers: 59.0% for F1 in the thesis's "
                                   "Example 6.1 (docs/calibration.md)", "independent"),
    "averaged-counts": _with_real_text("the counts of one average fold ignore how errors cluster in sentences and "
                                       "documents", "averaged-counts"),
    "adaptive": _with_real_text("the adaptive factor covered F1 94.9% in the thesis's Example 6.1 "
                                "(docs/calibration.md) but 91.8% in an independent re-implementation: borderline",
                                "adaptive"),
}
for _measure in ("label", "length"):  # the measures the real-text study balanced alone
    _line = real_text_shift(_measure)
    if _line:
        EVIDENCE[_measure] = _line


def unit_note(group_by: str, unit: str, n_documents: int, n_files: int = 1) -> str | None:
    """One line on the unit when it may bend the estimate, else None.

    Parameters
    ----------
    group_by : {"auto", "sentence", "document", "file"}
    unit : {"sentence", "document", "file"}
    n_documents : int
        Documents the corpus marks (1 when it marks none).
    n_files : int
        Files the corpus was read from.

    Returns
    -------
    str or None

    Examples
    --------
    >>> print(unit_note("auto", "sentence", 1, n_files=2))  # doctest: +NORMALIZE_WHITESPACE
    this corpus marks no documents (-DOCSTART-, # newdoc): sentences are the units (its 2 files are not taken as
    documents: --group-by file makes them the units), so a document's sentences may sit on both sides and the
    estimate may be optimistic for new documents
    """
    if unit in ("document", "file"):
        return None
    files = (f" (its {n_files} files are not taken as documents: --group-by file makes them the units)"
             if n_files > 1 else "")
    if group_by == "auto" and n_documents <= 1:
        return (f"this corpus marks no documents (-DOCSTART-, # newdoc): sentences are the units{files}, so a "
                "document's sentences may sit on both sides and the estimate may be optimistic for new documents")
    if group_by == "auto":
        return (f"the corpus marks only {n_documents} documents, too few for these splits and for a variance over "
                f"documents (at least {MIN_CLUSTERS}): sentences are the units of the splits and the clusters of the "
                "variance, so the estimate may be optimistic for new documents")
    if n_documents > 1:
        return f"--group-by sentence on a corpus with {n_documents} documents: " + EVIDENCE["sentence"]
    return None


def option_notes(balance=(), variant: str | None = None) -> list[str]:
    """The measured-bias line of every non-default option used.

    Parameters
    ----------
    balance : iterable of str
    variant : str or None

    Returns
    -------
    list of str
    """
    out = [f"--balance {b}: {EVIDENCE[b]}" for b in balance if b in EVIDENCE]
    if variant is not None and variant in EVIDENCE:
        out.append(f"--variant {variant}: {EVIDENCE[variant]}")
    return out
