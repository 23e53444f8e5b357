"""The defaults of textbcv's splits and intervals, in one place, and the lines that quote their evidence.

``textbcv split``, ``textbcv compare``, :func:`textbcv.split.make_splits`, the pipeline and
:class:`textbcv.split.Mx2BCV` take their defaults from here, so one change moves every entry point at once.
When another option is used, :func:`option_notes` gives its measured bias (:data:`EVIDENCE`; the study figures
come from ``textbcv/data/evidence.json``, which the studies write).

* :data:`BALANCE` — the properties balanced between the halves of a split: none (balancing makes test halves
  easier than new text).
* :data:`GROUP_BY` — ``"auto"``: documents are kept whole when the corpus marks them (``-DOCSTART-``, CoNLL-U
  ``# newdoc``), sentences otherwise.
* :data:`VARIANT` — ``"clustered"``: the counts of one average fold divided by the design effect of the folds'
  test halves (:mod:`textbcv.stats.clustering`). Without per-sentence counts (a COUNTS.json) ``textbcv test``
  falls back to ``adaptive`` and says so.

Why these, with the measured figures: docs/method.md §12, "The defaults and the evidence behind them".

Examples
--------
>>> BALANCE, GROUP_BY, VARIANT
((), 'auto', 'clustered')
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

__all__ = ["BALANCE", "GROUP_BY", "VARIANT", "GROUP_BY_CHOICES", "CRF_ALGORITHMS", "MATCHING_MODES", "unit_note",
           "option_notes", "EVIDENCE", "PAIRED_POSTERIOR"]

#: The matching modes of chunk scoring (:mod:`textbcv.scoring.modes`), conlleval's strict first.
MATCHING_MODES = ("strict", "exact", "partial", "type")
#: crfsuite's training algorithms (lbfgs, the default, draws no random numbers; the others shuffle the training
#: sequences and take a training seed).
CRF_ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")

#: The model of the paired ΔF1 posterior (:class:`textbcv.stats.paired.PairedDifference`) that the studies'
#: figures must name to be quoted, since a figure measured on another model does not describe this one: new text,
#: with the covariance of related clusters (:mod:`textbcv.corpus.related`), and the models' own noise from the
#: folds' spread (docs/method.md §7).
PAIRED_POSTERIOR = "paired/3"

BALANCE: tuple[str, ...] = ()
GROUP_BY = "auto"
VARIANT = "clustered"
GROUP_BY_CHOICES = ("auto", "sentence", "document")

_POOL_NAMES = {"conll": "CoNLL-2003 by document", "msr": "SIGHAN 2005 MSR"}


@functools.cache
def evidence() -> dict:
    """The real-text study's figures that the option notes quote: ``textbcv/data/evidence.json`` (package data,
    written by ``scripts/real_text_study.py``, keys ``real_text`` and ``real_text_balance``, and by
    ``scripts/real_text_pairs.py``, key ``real_text_pairs_null``).

    Returns
    -------
    dict
        The parsed JSON (read once, then cached).
    """
    return json.loads(resources.files("textbcv").joinpath("data/evidence.json").read_text(encoding="utf-8"))


def real_text_coverage(variant: str) -> str | None:
    """How often the variant's 95% F1 interval held F1 on new text in the real-text study, or None.

    The figures come from ``textbcv/data/evidence.json``, which ``scripts/real_text_study.py``
    writes with its summary (BCV without balancing, m = 3; two taggers per data set).

    Parameters
    ----------
    variant : str
        A count-factor variant, e.g. ``"clustered"``.

    Returns
    -------
    str or None
        A clause with the coverage per pool; None when the study has no figures for ``variant``.
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
    """The real-text study's measured shift of balancing ``measure`` alone, when its rule rejected it; else None.

    From ``textbcv/data/evidence.json`` (``real_text_balance``): the row (pool, m, metric) shifted furthest beyond
    the family-wise bound, in F1 points against random m×2 CV on the same data sets.

    Parameters
    ----------
    measure : str
        A balance measure, e.g. ``"label"`` or ``"length"``.

    Returns
    -------
    str or None
        One sentence with the shift, its standard error and where it was measured.
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
    """What the decision rule called on null pairs of real text, as the report's decision rule quotes it; or None.

    Read from ``textbcv/data/evidence.json``: ``real_text_pairs_null`` (``scripts/real_text_pairs.py``), or with
    ``seeds`` ``seed_null`` (``scripts/seed_null_study.py``). Only figures measured at ``threshold`` on the posterior
    model :data:`PAIRED_POSTERIOR` are quoted.

    Parameters
    ----------
    threshold : float
        The report's decision threshold on P(better).
    seeds : bool
        Quote the several-seed study; default False.

    Returns
    -------
    str or None
        One sentence with the measured rates, or None when the study has no figure for this threshold.

    Examples
    --------
    >>> line = false_calls(0.95, seeds=True)
    >>> line is None or line.startswith("Measured on real text")
    True
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
    more = [] if seeds else [r for r in evidence().get("calibration_corpora", {}).values()
                             if r.get("threshold") == threshold and r.get("m") == 3 and r.get("R")]
    if more:
        rates = [r[side]["rate"] for r in more for side in ("calls_b", "calls_a")]
        line += (f". Through `textbcv calibrate` on {len(more)} corpora ("
                 + "; ".join(f"{r['label']}, {r['R']} data sets" for r in more)
                 + f"), it called one seed of a CRF better than the other in {100 * min(rates):.1f}% to "
                 f"{100 * max(rates):.1f}% of the data sets, each way")
        # the target: at most 5% each way, with the 95% interval's upper end at most 7.5% (at R = 200)
        over = [f"{r['label']}: {pct(r[side])} (interval up to {100 * r[side]['hi']:.1f}%) called "
                f"{'B' if side == 'calls_b' else 'A'} better"
                for r in more for side in ("calls_b", "calls_a")
                if r[side]["rate"] > 0.05 or (r["R"] >= 200 and r[side]["hi"] > 0.075)]
        if over:
            line += ("; short of the target (at most 5% each way, the interval's upper end at most 7.5%) on "
                     + "; ".join(over))
    return line + "."


def floor_calls(m: int, threshold: float = 0.95) -> str | None:
    """How often null pairs were called in runs whose model noise was estimated at 0, as the report quotes it beside
    a call made in such a run; or None when no study measured it for this ``m``, threshold and posterior.

    Read from ``textbcv/data/evidence.json`` (``model_noise_floor``, ``scripts/model_noise_study.py``): the corpus
    whose rate in those runs is highest (by its Wilson lower bound, so a handful of runs does not decide), beside
    its rate in the other runs, and its rate at m = 7 when measured.

    Parameters
    ----------
    m : int
        The report's number of splits.
    threshold : float
        The report's decision threshold on P(better).

    Returns
    -------
    str or None
        A clause: ``on real text, identical systems … were called different in …``.

    Examples
    --------
    >>> line = floor_calls(3)
    >>> line is None or line.startswith("on real text")
    True
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
    """The measured bias of balancing, as ``--balance`` help quotes it (lemma: variance study; others: real text).

    Returns
    -------
    str
        Clauses joined by ``; ``: lemma's bias, then each measure the real-text study rejected.
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


def unit_note(group_by: str, unit: str, n_documents: int) -> str | None:
    """One line on the unit when it may bend the estimate, else None.

    Parameters
    ----------
    group_by : {"auto", "sentence", "document"}
        The ``--group-by`` asked for.
    unit : {"sentence", "document"}
        The unit the splits used.
    n_documents : int
        Documents the corpus marks.

    Returns
    -------
    str or None
        None when documents are the units, or ``group_by`` is not ``auto`` and the corpus marks at most one
        document.
    """
    if unit == "document":
        return None
    if group_by == "auto" and n_documents <= 1:
        return ("this corpus marks no documents (-DOCSTART-, # newdoc): sentences are the units, so a document's "
                "sentences may sit on both sides and the estimate may be optimistic for new documents")
    if group_by == "auto":
        return (f"the corpus marks only {n_documents} documents, too few for these splits: sentences are the units, "
                "so the estimate may be optimistic for new documents")
    if n_documents > 1:
        return f"--group-by sentence on a corpus with {n_documents} documents: " + EVIDENCE["sentence"]
    return None


def option_notes(balance=(), variant: str | None = None) -> list[str]:
    """The measured-bias line of every non-default option used (balance measures, interval variant).

    Parameters
    ----------
    balance : iterable of str
        The balance measures used; default none.
    variant : str or None
        The count-factor variant used; None (default) adds no variant line.

    Returns
    -------
    list of str
        ``--balance B: ...`` and ``--variant V: ...`` lines, for the options with a line in :data:`EVIDENCE`.
    """
    out = [f"--balance {b}: {EVIDENCE[b]}" for b in balance if b in EVIDENCE]
    if variant is not None and variant in EVIDENCE:
        out.append(f"--variant {variant}: {EVIDENCE[variant]}")
    return out
