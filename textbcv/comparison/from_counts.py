"""The answer of ``textbcv test`` for given fold counts (a COUNTS.json, a run's folds.jsonl or its directory)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from textbcv._io import load_json
from textbcv.comparison.decisions import fold_decisions, read_fold_predictions
from textbcv.comparison.from_folds import Folds, answer_from_folds, per_fold, report_from_folds, stored_paired
from textbcv.comparison.options import AnswerOptions, TestOptions
from textbcv.defaults import MIN_CLUSTERS
from textbcv.errors import InputError
from textbcv.folds.counts import FoldCounts, check_same_gold, read_input
from textbcv.folds.foldfile import read_fold_records
from textbcv.folds.run_dir import RunDir
from textbcv.folds.store import records_in_mode
from textbcv.report.model import CountsReport
from textbcv.report.textbook import disagree_note, textbook_tests
from textbcv.scoring import Tally, count_chunks
from textbcv.split.manifest import load_splits
from textbcv.stats import classic as textbook
from textbcv.stats.compare import counts_scores

__all__ = ["answer_counts"]


def answer_counts(path: str, options: TestOptions) -> CountsReport:
    """The ``textbcv test`` answer of the fold counts in ``path``.

    Parameters
    ----------
    path : str
        A COUNTS.json (docs/formats.md), a ``folds.jsonl``, or its run directory.
    options : TestOptions
        Validated options.

    Returns
    -------
    CountsReport

    Raises
    ------
    InputError
        For a bad input file (naming file and line), systems scored on different gold, or counts the statistics
        refuse.
    """
    data = read_input(path, options.chunk_type, options.per_type)
    notes = list(check_same_gold(data, options.allow_different_gold) or ())
    records = _sentence_records(data)
    if options.mode != "strict":
        data, records = _in_mode(data, records, options.mode)
    folds, found = _evidence(data, records, options)
    answer = options.answer()
    if options.variant == "clustered":
        if folds.design_effects is None and not folds.has_sentence_counts:
            answer = replace(answer, variant="adaptive")
            lacks = ("per-type counts have none" if options.chunk_type
                     else "this input lacks them (COUNTS.json, or folds of an older textbcv)")
            notes.append(f"--variant clustered needs per-sentence counts, and {lacks}: the adaptive variant was used")
        else:
            notes.append(f"design effects {found['deff']}")
    if found.get("paired") and options.difference == "paired":
        notes.append(found["paired"])
    try:
        report = report_from_folds(folds, answer)
        per_type = None
        if options.per_type:
            scores, per_type = _per_type(data, replace(answer, variant="adaptive" if answer.variant == "clustered"
                                                       else answer.variant, method="exact", draws=10**6, seed=0))
            report = replace(report, per_type=scores)
        paired = any(c.difference is not None and c.difference.basis == "paired" for c in report.comparisons)
        classic = _classic(options, data, report.fold_counts, paired) if options.classic else None
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), data.path) from None
    return CountsReport(report, per_type, classic, tuple(notes))


def _evidence(data: FoldCounts, records: dict | None, options: TestOptions) -> tuple[Folds, dict[str, str]]:
    """The folds of ``data`` with their per-sentence evidence, and where it comes from (the notes' words)."""
    names = list(data.systems)
    plain = Folds(data.m, data.systems)
    if data.chunk_type:
        return plain, {}
    if data.sentence_counts is not None:  # a COUNTS.json with per-sentence counts
        recs = {(n, j, k): {"sentence_counts": data.sentence_counts[n][2 * j + k]} for n in names
                for j in range(data.m) for k in (0, 1)}
        unit = data.cluster_unit if data.cluster_unit == "documents" else "sentences"
        clusters: dict = {"clusters": unit, "folds": {}}
        paired = ('the per-sentence counts name no "test_sentences" or "documents", so which sentences two folds '
                  "share is unknown: the differences are not paired")
        few = None if data.clusters is None else len({x for fold in data.clusters for x in fold})
        if few is not None and few < MIN_CLUSTERS:  # a variance over so few clusters is not measured
            unit = "sentences"
            clusters["clusters"] = unit
            paired = (f'the per-sentence counts name {few} {data.cluster_unit}, fewer than the {MIN_CLUSTERS} '
                      "clusters a variance is measured over: the differences are not paired")
        elif data.clusters is not None:
            numbered, related = _cluster_ids(data)
            by_fold = {(j, k): numbered[2 * j + k] for j in range(data.m) for k in (0, 1)}
            clusters.update(ids=by_fold, related=related, folds=by_fold if unit == "documents" else {})
            paired = (f"paired from the per-sentence counts with {data.cluster_unit} as clusters"
                      + (f" and {len(related)} related pairs" if related is not None else "") + " (COUNTS.json)")
        return (replace(plain, records=recs, clusters=clusters),
                {"deff": f"from the per-sentence counts with {unit} as clusters (COUNTS.json)", "paired": paired})
    run = None if data.run_dir is None else RunDir(data.run_dir)
    found: dict[str, str] = {}
    if run is not None and run.report_json.is_file() and data.mode == "strict":  # the report's are strict's
        rep = load_json(run.report_json)
        if isinstance(rep, dict) and rep.get("m") == data.m:
            deff = rep.get("design_effects")
            if isinstance(deff, dict) and set(names) <= set(deff):
                clusters_of = (rep.get("design_effect_folds") or {}).get("clusters", "sentences")
                plain = replace(plain, design_effects={n: deff[n] for n in names})
                found["deff"] = f"measured by the run with {clusters_of} as clusters (report.json)"
            stored = stored_paired(rep)
            pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
            if all(len(stored.get(p, {})) == 3 for p in pairs):
                plain = replace(plain, paired={p: stored[p] for p in pairs})
    if records is None:
        return plain, found
    ids: dict | None = None
    if run is not None and run.splits.is_file():
        ids = {(j, k): np.asarray(test, dtype=np.int64) for j, k, _tr, test in load_splits(run.splits).folds()}
        if any(len(records[(n, j, k)]["sentence_counts"]) != len(ids.get((j, k), ())) for n in names
               for j in range(data.m) for k in (0, 1)):
            ids = None
    found.setdefault("deff", "from the folds' per-sentence counts with sentences as clusters (documents are not "
                             "known here)")
    if ids is not None and plain.paired is None:
        found["paired"] = ("paired from the folds' per-sentence counts with sentences as clusters (documents, and "
                           "which sentences share a rare name, are not known here)")
    clusters = {"clusters": "sentences", "folds": {}, **({"ids": ids} if ids is not None else {})}
    return replace(plain, records=records, clusters=clusters), found


def _sentence_records(data: FoldCounts) -> dict | None:
    """A folds.jsonl's records by (system, split, direction); None for other inputs or without per-sentence counts."""
    if not str(data.path).endswith(".jsonl"):
        return None
    recs = {(r["system"], r["split"], r["direction"]): r for _, r in read_fold_records(data.path)}
    if not all("sentence_counts" in recs.get((n, j, k), {}) for n in data.systems for j in range(data.m)
               for k in (0, 1)):
        return None
    return recs


def _in_mode(data: FoldCounts, recs: dict | None, mode: str) -> tuple[FoldCounts, dict]:
    """The input's counts and records in matching ``mode``, from a folds.jsonl's ``modes``."""
    if recs is None:
        raise InputError(f"--mode {mode} needs a run's folds.jsonl whose folds hold per-sentence counts (a "
                         "COUNTS.json or report.json has strict counts only)", data.path)
    view = records_in_mode(recs, mode)
    counts = {n: [view[(n, j, k)]["counts"]["overall"] for j in range(data.m) for k in (0, 1)] for n in data.systems}
    return replace(data, systems=counts, overall=counts, mode=mode), view


def _cluster_ids(data: FoldCounts) -> tuple[list, np.ndarray | None]:
    """A COUNTS.json's cluster ids per fold as integers, and its ``related`` pairs in that numbering (or None)."""
    assert data.clusters is not None
    numbering: dict = {}
    ids = [np.array([numbering.setdefault(x, len(numbering)) for x in fold], dtype=np.int64) for fold in data.clusters]
    related = (None if data.related is None
               else np.array([[numbering[a], numbering[b]] for a, b in data.related], dtype=np.int64).reshape(-1, 2))
    return ids, related


def _per_type(data: FoldCounts, options: AnswerOptions) -> tuple[dict, dict]:
    """Pooled P / R / F1 of every type per system, and P(B better) on each type's F1 (independent posteriors)."""
    names = list(data.systems)
    by_type = data.types
    assert by_type is not None  # read with per_type=True
    types = sorted({t for tl in by_type.values() for f in tl for t in f})
    zero = {"tp": 0, "fp": 0, "fn": 0}
    scores: dict[str, dict[str, dict]] = {n: {} for n in names}
    tests = {}
    for t in types:
        counts = {n: [f.get(t, zero) for f in by_type[n]] for n in names}
        for n in names:
            tot = Tally(*(sum(f[k] for f in counts[n]) for k in ("tp", "fp", "fn")))
            scores[n][t] = counts_scores(tot.tp, tot.fp, tot.fn)
        r = answer_from_folds(Folds(data.m, counts), options)
        tests[t] = [{"a": c.a, "b": c.b, "p_b_better": c.p_b_better, "p_a_better": c.p_a_better,
                     "decision": c.decision} for c in r.comparisons_of("f1")]
    return scores, tests


def _classic(options: TestOptions, data: FoldCounts, counts: dict, paired: bool) -> dict:
    """The textbook tests on the per-fold ``options.metric`` (and McNemar's on one fold, where it can run)."""
    t = textbook_tests(per_fold(counts, options.metric), data.m, options.alpha)
    not_applicable: list[dict[str, str | None]] = []
    if t["friedman"] is None:
        not_applicable.append({"test": "Friedman + Nemenyi critical difference",
                               "reason": "needs 3 or more systems; this input has 2"})
    mc, why = _mcnemar(options, data)
    if mc is None:
        not_applicable.append({"test": "McNemar", "reason": why})
    return {"metric": options.metric, **t, "mcnemar": mc, "not_applicable": not_applicable,
            "note": disagree_note(paired)}


def _mcnemar(options: TestOptions, data: FoldCounts) -> tuple[dict | None, str | None]:
    """McNemar's test on one fold's decisions of every pair, from saved predictions; or why it cannot run."""
    split, direction = (0, 0) if options.fold is None else (int(x) for x in options.fold.split("-"))
    run = None if data.run_dir is None else RunDir(data.run_dir)
    if run is None or not run.predictions.is_dir():
        where = data.path if data.run_dir is None else str(data.run_dir)
        if options.fold is not None:
            raise InputError("{fold}: McNemar's test needs the predictions of a run saved with `textbcv compare "
                             "--save-predictions`; there are none here", where, param="fold")
        return None, "needs a run directory with saved predictions (textbcv compare --save-predictions)"
    if split >= data.m:
        raise InputError(f"{{fold}}={options.fold}: this run has m = {data.m} splits (0..{data.m - 1})", param="fold")
    fold = 2 * split + direction
    preds = {}
    for name in data.systems:
        path = run.prediction(name, split, direction)
        if not path.is_file():
            raise InputError(f"no predictions of system {name!r} for split {split} direction {direction} "
                             "(needed by McNemar's test; choose another --fold?)", str(path))
        p = read_fold_predictions(path, (data.specs.get(name) or {}).get("scheme"))
        found = count_chunks(p.gold, p.pred).to_dict()["overall"]
        recorded = data.overall[name][fold]
        if found != recorded:
            line = data.lines[name][fold]
            raise InputError(f"these predictions give TP/FP/FN = {found['tp']}/{found['fp']}/{found['fn']}, but "
                             f"{data.path}{f':{line}' if line else ''} records {recorded['tp']}/{recorded['fp']}/"
                             f"{recorded['fn']} for system {name!r}, split {split} direction {direction}: they are not "
                             "this run's predictions", str(path))
        preds[name] = p
    unit = options.decisions or "chunk"
    names, pairs = list(preds), []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            right_a, right_b = fold_decisions(preds[a], preds[b], unit, data.chunk_type)
            table = textbook.mcnemar_table(right_a, right_b)
            pairs.append({"a": a, "b": b, "table": table.tolist(),
                          "tests": [textbook.mcnemar(table, exact=True).to_dict(), textbook.mcnemar(table).to_dict()]})
    what = ("every chunk that is gold or predicted by either system; a system is right on one when it predicts it "
            "exactly when it is gold" if unit == "chunk" else
            "every token; a system is right on one when its chunks give it the gold role and type (both written in "
            "IOBES)")
    units = int(sum(pairs[0]["table"][0]) + sum(pairs[0]["table"][1]))
    return {"split": split, "direction": direction, "decisions": unit, "units": units,
            "unit_definition": what, "pairs": pairs}, None
