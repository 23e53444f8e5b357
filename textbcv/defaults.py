"""The defaults of textbcv's splits and intervals, in one place, with the evidence behind them.

``textbcv split``, ``textbcv compare``, :func:`textbcv.split.make_splits`, the
pipeline and :class:`textbcv.split.Mx2BCV` all take their defaults from here,
so one change moves every entry point at once.

* :data:`BALANCE` — the properties balanced between the halves of a split by
  default: none. Balancing lemmas spreads rare words over both halves, which
  makes every test half easier than new text: on the first 3,000 sentences of
  CoNLL-2003 eng.train the label + lemma + length default of earlier versions
  moved the mean F1 estimate by +0.44 points (13 standard errors) at m = 3
  against random m×2 CV on the same seeds, where unbalanced BCV stayed within
  1.3 standard errors (``docs/RESULTS.md``, variance study). The real-text
  study (``scripts/real_text_study.py``, 100 CoNLL-2003 and 100 SIGHAN MSR data
  sets) measures every option set against the F1 models reach on new
  documents, and its rule chose no balancing: label balancing moved F1 by
  +0.55 ± 0.18 points against random m×2 CV by document, and no balanced
  option set had a smaller squared error than unbalanced BCV; its figures are
  in :data:`EVIDENCE` and the user guide. Unbalanced BCV places documents
  into its blocks without regard to their size (dealing them by size, as
  versions before 2026-11-25 did, made test halves easier:
  ``scripts/block_stratification.py``).
* :data:`GROUP_BY` — ``"auto"``: documents are kept whole when the corpus
  marks them (``-DOCSTART-``, CoNLL-U ``# newdoc``), sentences otherwise.
  Names repeat within a news article: on CoNLL-2003 eng.train random halves
  by sentence leave 8.9% of test tokens unseen in training against 11.5% by
  document, and a tagger that memorises each word's most frequent tag scores
  79.4 token F1 on sentence halves against 72.5 on document halves
  (``scripts/unit_leakage.py``, 200 halvings each), so sentence-level splits
  answer an easier question than "how well on new documents": in the
  real-text study, random m×2 CV by sentence overstated a CRF's F1 on new
  CoNLL-2003 documents by 10.6 ± 0.2 points, by document by at most 0.3 ± 0.3.
* :data:`VARIANT` — ``"clustered"``: the counts of one average fold (the
  ``averaged-counts`` factor 1/(2m), ρ1 = ρ2 = 1) divided by the design effect of
  the folds' test halves, measured on their per-sentence counts with the
  corpus's documents (else its sentences) as clusters
  (:mod:`textbcv.stats.clustering`). Chunks of one sentence or document succeed
  or fail together, which the count posteriors ignore: measured on the BCV folds
  of a CRF in the real-text study, the F1 design effect is 3.8–5.4 on SIGHAN MSR
  (1,000 sentences) and 5–63 by document on CoNLL-2003 (about 2,500 sentences). In the real-text
  study ``clustered`` covers F1 on new text far more often than
  ``averaged-counts`` (:func:`real_text_coverage` gives the current figures,
  written by the study into ``textbcv/data/evidence.json``), and it is the shortest
  interval that covered ≥ 93% on both pools (the study's rule). Without per-sentence counts
  (a COUNTS.json) ``textbcv test`` falls back to ``adaptive`` and says so. In the
  thesis's Example 6.1 (independent examples, design effect ≈ 1) it equals
  ``averaged-counts``: F1 covered 95.5% / 99.8% (``docs/calibration.md``), 95.0%
  in an independent re-implementation.

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

#: The model of the paired ΔF1 posterior (:class:`textbcv.stats.paired.PairedDifference`): its studies' evidence
#: carries it, and a figure measured on another model is not quoted. 3 (from 2026-11-27): new text, with the
#: covariance of related clusters (documents, else sentences, that share a rare name: :mod:`textbcv.corpus.related`),
#: and the models' own noise from the folds' spread (2m − 1 degrees of freedom); 2 (2026-11-26) had no related
#: clusters; 1 (before 2026-11-26) also had a training-sets part.
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

    From ``textbcv/data/evidence.json`` (``real_text_pairs_null``, written by ``scripts/real_text_pairs.py``): the
    share of data sets in which the paired posterior of ΔF1 called B or A better at P ≥ 0.95 when both were the same
    tagger trained with another seed (m = 3), per pool, with the one-split paired bootstrap's share beside it. With
    ``seeds`` (both systems trained with several seeds per fold, the seeds a part of the posterior), the same from
    ``seed_null`` (``scripts/seed_null_study.py``: K seeds against K other seeds). The studies measured the rule at
    0.95 only: another ``threshold`` gives None, as does a study of another posterior model than
    :data:`PAIRED_POSTERIOR`.

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
    return line + "."


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
