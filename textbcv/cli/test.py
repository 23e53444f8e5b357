"""``textbcv test COUNTS.json|folds.jsonl|RUN``: Bayes test of precision, recall and F1 from per-fold counts.

Reads a COUNTS.json (docs/formats.md: ``{"m": 3, "systems": {"A": [{"tp":
.., "fp": .., "fn": ..}, ... 2m folds], ...}}``), a ``folds.jsonl`` written
by ``textbcv compare`` (one fold per line), or a run directory (its
``folds.jsonl``). Prints the posteriors, the Bayes test and the sequential
t-test on per-fold differences; with ``--classic`` the textbook tests too
(and McNemar on one fold when the run saved its predictions); with
``--per-type`` per-type rows; with ``--plots DIR`` the report's plots. With
``--json`` the same as one JSON object (rates as fractions; the text output
prints P, R and F1 in percent).

Systems whose per-fold gold totals (TP + FN) differ were not scored on the
same gold: they are refused, naming the fold, unless ``--allow-different-gold``.

The input is read by :mod:`textbcv.folds.counts` and the text written by
:mod:`textbcv.cli.test_text` (their names are importable from here too).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textbcv import defaults
from textbcv._io import dumps_json
from textbcv.cli.common import (
    DIFFERENCE_HELP,
    ROPE_HELP,
    THRESHOLD_HELP,
    check_threshold,
    rope_fraction,
    rope_warning,
)
from textbcv.cli.test_text import format_table
from textbcv.errors import InputError
from textbcv.folds.counts import (
    FoldCounts,
    check_same_gold,
    read_counts_json,
    read_folds_jsonl,
    read_input,
)

# The choices of textbcv.stats.compare, repeated here so that `textbcv --help` and the other commands
# do not import scipy.stats (a second of start-up); tests/test_cli_basics.py checks they agree.
ALL_VARIANTS = ("thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered")
METHODS = ("exact", "monte-carlo", "both")
METRICS = ("precision", "recall", "f1")
DECISION_UNITS = ("chunk", "token")
VARIANT_HELP = (f"count factor of the posteriors (default {defaults.VARIANT}): clustered (the counts of one average "
                "fold divided by the design effect of sentences/documents, measured on the folds' per-sentence counts; "
                "covered F1 on new text in the real-text study), averaged-counts (ρ1 = ρ2 = 1, ignores clustered "
                "errors), "
                "adaptive (c_m, widened when the folds disagree more than c_m implies), thesis (c_m; under-covers), "
                "independent (ρ1 = ρ2 = 0), rho (give --rho1 and --rho2: measure your own with textbcv components; "
                "measured ρ for CRF taggers and other learners: docs/variance.md)")

__all__ = ["register", "run", "read_counts_json", "read_folds_jsonl", "read_input", "FoldCounts", "format_table",
           "VARIANT_HELP"]


def register(subparsers) -> None:
    """Add the ``test`` subcommand's parser to ``subparsers``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser (:func:`textbcv.cli.build_parser`).
    """
    p = subparsers.add_parser(
        "test", help="Bayes test (and textbook tests) of precision/recall/F1 from per-fold counts",
        description="Posteriors, credible intervals and P(B better) for precision, recall and F1 of every "
                    "pair of systems, and the sequential t-test on per-fold differences, from per-fold TP/FP/FN of "
                    "an m×2 BCV run (COUNTS.json, folds.jsonl, or a run directory).")
    p.add_argument("counts", metavar="COUNTS.json|folds.jsonl|RUN", nargs="+",
                   help="COUNTS.json (format in docs/formats.md), a folds.jsonl of `textbcv compare`, or its run "
                        "directory; several run directories (one per corpus, the same systems) answer across the "
                        "corpora with a hierarchical model")
    p.add_argument("--tau-scale", type=float, default=1.0, metavar="POINTS",
                   help="with several runs: the scale of the half-Cauchy prior on how much the difference varies "
                        "from corpus to corpus, in F1 points (default 1)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="1 − credibility of the intervals; level of the t-tests and the critical difference (default "
                        "0.05)")
    p.add_argument("--rope", type=float, default=None, metavar="POINTS", help=ROPE_HELP)
    p.add_argument("--threshold", type=float, default=0.95, help=THRESHOLD_HELP)
    p.add_argument("--variant", choices=ALL_VARIANTS, default=defaults.VARIANT, help=VARIANT_HELP)
    p.add_argument("--difference", default="paired", choices=("paired", "independent"), help=DIFFERENCE_HELP)
    p.add_argument("--rho1", type=float, default=None, help="ρ1 in [0, 1], for --variant rho (no default: needed with "
                                                            "it)")
    p.add_argument("--rho2", type=float, default=None, help="ρ2 in [0, 1], for --variant rho (no default: needed with "
                                                            "it)")
    p.add_argument("--method", choices=METHODS, default="exact", help="exact quadrature (default), monte-carlo, or "
                                                                      "both")
    p.add_argument("--draws", type=int, default=10**6, help="Monte Carlo draws L (default 1000000)")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    p.add_argument("--type", dest="chunk_type", default=None,
                   help="folds.jsonl only: test the counts of one chunk type (counts.types.TYPE) instead of overall "
                        "(default: overall)")
    p.add_argument("--per-type", action="store_true",
                   help="folds.jsonl only: also print P / R / F1 and P(B better) on F1 for every chunk type")
    p.add_argument("--allow-different-gold", action="store_true",
                   help="test systems even when their gold totals (TP + FN) differ in a fold")
    p.add_argument("--metric", choices=METRICS, default="f1",
                   help="per-fold score of the sequential t-test and the textbook tests (default f1)")
    p.add_argument("--classic", action="store_true",
                   help="also run the textbook tests: 5×2cv t, combined F and t (m = 5), blocked 3×2 t (m = 3), "
                        "Nadeau–Bengio corrected t, Wilcoxon; Friedman + Nemenyi for 3 or more systems; McNemar on "
                        "one fold when the run saved its predictions (compare --save-predictions)")
    p.add_argument("--fold", default=None, metavar="SPLIT-DIRECTION",
                   help="with --classic: the fold McNemar's test judges, e.g. 0-1 (default 0-0)")
    p.add_argument("--decisions", choices=DECISION_UNITS, default=None,
                   help="with --classic: McNemar's units — chunks (gold or predicted by either system; default) or "
                        "tokens")
    p.add_argument("--plots", metavar="DIR", default=None,
                   help="draw the report's plots (posteriors, F1 difference, per-fold F1; with --classic and 3 or "
                        "more systems the critical-difference diagram) into DIR (default: no plots)")
    p.add_argument("--mode", choices=defaults.MATCHING_MODES, default="strict",
                   help="matching mode of the counts: strict (default, conlleval's), exact, partial or type; other "
                        "modes need a run's folds.jsonl, whose folds record them (sentences as clusters)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


# --- options ---------------------------------------------------------------------------------


def _check_options(args) -> None:
    """Every option checked before any file is read."""
    if not 0 < args.alpha < 1:
        raise InputError(f"--alpha must lie in (0, 1), got {args.alpha}")
    rope_fraction(args.rope)
    check_threshold(args.threshold)
    if args.variant == "rho":
        if args.rho1 is None or args.rho2 is None:
            raise InputError("--variant rho needs --rho1 and --rho2")
        for k in ("rho1", "rho2"):
            v = getattr(args, k)
            if not 0 <= v <= 1:
                raise InputError(f"--{k} must lie in [0, 1], got {v}")
    if args.draws < 1:
        raise InputError(f"--draws must be at least 1, got {args.draws}")
    if args.mode != "strict":
        for opt, given in (("--type", args.chunk_type), ("--per-type", args.per_type), ("--classic", args.classic)):
            if given:
                raise InputError(f"{opt} reads per-type or token counts, which are strict only: it cannot go with "
                                 f"--mode {args.mode}")
        if args.mode == "partial" and args.variant != "clustered":
            raise InputError("--mode partial counts half credits as doubled counts, which only the clustered count "
                             f"factor measures for what they are: use --variant clustered, not {args.variant}")
    if not args.classic:
        for opt, value in (("--fold", args.fold), ("--decisions", args.decisions)):
            if value is not None:
                raise InputError(f"{opt} chooses what McNemar's test judges: it needs --classic")
    if args.fold is not None and not re.fullmatch(r"\d+-[01]", args.fold):
        raise InputError(f"--fold must be SPLIT-DIRECTION, e.g. 0-1 (direction 0 or 1), got {args.fold!r}")
    if args.plots is not None:
        from textbcv._io import check_writable

        check_writable(args.plots, directory=True)


# --- computing --------------------------------------------------------------------------------


def _per_fold(data: FoldCounts, metric: str) -> dict[str, list[float]]:
    from textbcv.stats.compare import fold_counts, fold_metrics

    return {n: fold_metrics(fold_counts(f))[metric].tolist() for n, f in data.systems.items()}


def _per_type(data: FoldCounts, args) -> tuple[dict, dict]:
    """Pooled P / R / F1 of every type per system (report.json's ``per_type``) and P(B better) on each type's F1."""
    from textbcv.scoring import Tally
    from textbcv.stats.compare import bayes_answer, counts_scores

    names = list(data.systems)
    by_type = data.types
    assert by_type is not None  # run() read the input with per_type=True
    types = sorted({t for tl in by_type.values() for f in tl for t in f})
    zero = {"tp": 0, "fp": 0, "fn": 0}
    per_type: dict[str, dict[str, dict]] = {n: {} for n in names}
    tests = {}
    for t in types:
        counts = {n: [f.get(t, zero) for f in by_type[n]] for n in names}
        for n in names:
            tot = Tally(*(sum(f[k] for f in counts[n]) for k in ("tp", "fp", "fn")))
            per_type[n][t] = counts_scores(tot.tp, tot.fp, tot.fn)
        r = bayes_answer(counts, data.m, alpha=args.alpha, rope=rope_fraction(args.rope),
                         variant="adaptive" if args.variant == "clustered" else args.variant, rho1=args.rho1,
                         rho2=args.rho2, threshold=args.threshold)  # per-type: no per-type sentence counts
        tests[t] = [{"a": c.a, "b": c.b, "p_b_better": c.p_b_better, "p_a_better": c.p_a_better,
                     "decision": c.decision} for c in r.comparisons_of("f1")]
    return per_type, tests


def _mcnemar(args, data: FoldCounts) -> tuple[dict | None, str | None]:
    """McNemar's test on one fold's decisions of every pair, from the run's saved predictions; or why it cannot run."""
    from textbcv.comparison.decisions import fold_decisions, read_fold_predictions
    from textbcv.folds.run_dir import RunDir
    from textbcv.scoring import count_chunks
    from textbcv.stats import classic

    split, direction = (0, 0) if args.fold is None else (int(x) for x in args.fold.split("-"))
    run = None if data.run_dir is None else RunDir(data.run_dir)
    if run is None or not run.predictions.is_dir():
        where = data.path if data.run_dir is None else str(data.run_dir)
        if args.fold is not None:
            raise InputError("--fold: McNemar's test needs the predictions of a run saved with `textbcv compare "
                             "--save-predictions`; there are none here", where)
        return None, "needs a run directory with saved predictions (textbcv compare --save-predictions)"
    if split >= data.m:
        raise InputError(f"--fold {args.fold}: this run has m = {data.m} splits (0..{data.m - 1})")
    fold = 2 * split + direction
    preds = {}
    for name in data.systems:
        path = run.prediction(name, split, direction)
        if not path.is_file():
            raise InputError(f"no predictions of system {name!r} for split {split} direction {direction} "
                             "(needed by McNemar's test; choose another --fold?)", str(path))
        scheme = (data.specs.get(name) or {}).get("scheme")
        p = read_fold_predictions(path, scheme)
        found = count_chunks(p.gold, p.pred).to_dict()["overall"]
        recorded = data.overall[name][fold]
        if found != recorded:
            line = data.lines[name][fold]
            raise InputError(f"these predictions give TP/FP/FN = {found['tp']}/{found['fp']}/{found['fn']}, but "
                             f"{data.path}{f':{line}' if line else ''} records {recorded['tp']}/{recorded['fp']}/"
                             f"{recorded['fn']} for system {name!r}, split {split} direction {direction}: they are not "
                             "this run's predictions", str(path))
        preds[name] = p
    unit = args.decisions or "chunk"
    names, pairs = list(preds), []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            right_a, right_b = fold_decisions(preds[a], preds[b], unit, data.chunk_type)
            table = classic.mcnemar_table(right_a, right_b)
            pairs.append({"a": a, "b": b, "table": table.tolist(),
                          "tests": [classic.mcnemar(table, exact=True).to_dict(), classic.mcnemar(table).to_dict()]})
    what = ("every chunk that is gold or predicted by either system; a system is right on one when it predicts it "
            "exactly when it is gold" if unit == "chunk" else
            "every token; a system is right on one when its chunks give it the gold role and type (both written in "
            "IOBES)")
    units = int(sum(pairs[0]["table"][0]) + sum(pairs[0]["table"][1]))
    return {"split": split, "direction": direction, "decisions": unit, "units": units,
            "unit_definition": what, "pairs": pairs}, None


def _classic(args, data: FoldCounts, values: dict[str, list[float]], paired: bool) -> dict:
    from textbcv.report.markdown import textbook_tests
    from textbcv.report.textbook import disagree_note

    t = textbook_tests(values, data.m, args.alpha)
    not_applicable: list[dict[str, str | None]] = []
    if t["friedman"] is None:
        not_applicable.append({"test": "Friedman + Nemenyi critical difference",
                               "reason": "needs 3 or more systems; this input has 2"})
    mc, why = _mcnemar(args, data)
    if mc is None:
        not_applicable.append({"test": "McNemar", "reason": why})
    return {"metric": args.metric, **t, "mcnemar": mc, "not_applicable": not_applicable,
            "note": disagree_note(paired)}


# --- the command ----------------------------------------------------------------------------------


def _design_effects(data: FoldCounts, records: Callable[[], dict | None]) -> tuple[dict | None, str]:
    """Each system's design effect for ``--variant clustered``, and where it came from; None when the input
    has no per-sentence counts.

    A run directory's ``report.json`` gives the effects ``compare`` measured with the corpus's documents
    as clusters; a ``folds.jsonl`` alone gives per-sentence counts, with sentences as clusters.
    """
    from textbcv._io import load_json
    from textbcv.comparison.design_effects import design_effects_of
    from textbcv.folds.run_dir import RunDir

    names = list(data.systems)
    run = None if data.run_dir is None else RunDir(data.run_dir)
    if run is not None and run.report_json.is_file() and data.mode == "strict":  # the report's are strict's
        rep = load_json(run.report_json)
        d = rep.get("design_effects") if isinstance(rep, dict) else None
        if rep.get("m") == data.m and isinstance(d, dict) and set(names) <= set(d):
            clusters = (rep.get("design_effect_folds") or {}).get("clusters", "sentences")
            return {n: d[n] for n in names}, f"measured by the run with {clusters} as clusters (report.json)"
    if data.sentence_counts is not None:  # a COUNTS.json with per-sentence counts
        recs = {(n, j, k): {"sentence_counts": data.sentence_counts[n][2 * j + k]} for n in names
                for j in range(data.m) for k in (0, 1)}
        unit = data.cluster_unit if data.cluster_unit == "documents" else "sentences"
        numbered = _cluster_ids(data)
        groups = ({(j, k): numbered[0][2 * j + k] for j in range(data.m) for k in (0, 1)}
                  if unit == "documents" and numbered is not None else {})
        pooled = design_effects_of(recs, names, data.m, {"clusters": unit, "folds": groups})["pooled"]
        return pooled, f"from the per-sentence counts with {unit} as clusters (COUNTS.json)"
    folds = records()
    if folds is None:
        return None, ""
    pooled = design_effects_of(folds, names, data.m, None)["pooled"]
    return pooled, "from the folds' per-sentence counts with sentences as clusters (documents are not known here)"


def _in_mode(data: FoldCounts, recs: dict | None, mode: str) -> tuple[FoldCounts, Callable[[], dict | None]]:
    """The input's counts in matching ``mode``, from a folds.jsonl's records (their ``modes``), and the records
    in that mode."""
    from dataclasses import replace

    from textbcv.folds.store import records_in_mode

    if recs is None:
        raise InputError(f"--mode {mode} needs a run's folds.jsonl whose folds hold per-sentence counts (a "
                         "COUNTS.json or report.json has strict counts only)", data.path)
    view = records_in_mode(recs, mode)
    counts = {n: [view[(n, j, k)]["counts"]["overall"] for j in range(data.m) for k in (0, 1)] for n in data.systems}
    return replace(data, systems=counts, overall=counts, mode=mode), lambda: view


def _sentence_records(data: FoldCounts) -> dict | None:
    """A folds.jsonl's records by (system, split, direction), read once for the design effects and the paired
    posteriors; None for other inputs, or when a fold lacks per-sentence counts."""
    from textbcv.folds.foldfile import read_fold_records

    if not str(data.path).endswith(".jsonl"):
        return None
    recs = {(r["system"], r["split"], r["direction"]): r for _, r in read_fold_records(data.path)}
    if not all("sentence_counts" in recs.get((n, j, k), {}) for n in data.systems for j in range(data.m)
               for k in (0, 1)):
        return None
    return recs


def _cluster_ids(data: FoldCounts) -> tuple[list, Any] | None:
    """A COUNTS.json's cluster of every test sentence per fold (its ids, strings or integers) as integers, and its
    ``related`` pairs in that numbering (None when not given)."""
    import numpy as np

    if data.clusters is None:
        return None
    numbering: dict = {}
    ids = [np.array([numbering.setdefault(x, len(numbering)) for x in fold], dtype=np.int64) for fold in data.clusters]
    related = (None if data.related is None
               else np.array([[numbering[a], numbering[b]] for a, b in data.related], dtype=np.int64).reshape(-1, 2))
    return ids, related


def _paired(data: FoldCounts, records: Callable[[], dict | None]) -> tuple[dict | None, str]:
    """The paired posteriors of the differences, and where they came from; None when the input has no
    per-sentence counts on known test sentences (then the two systems' posteriors are combined as if their
    errors were independent).

    A run directory's ``report.json`` gives the posteriors ``compare``/``evaluate`` built with the corpus's
    documents as clusters; a run's ``folds.jsonl`` with its ``splits.json`` gives per-sentence counts on known
    sentences, with sentences as clusters.
    """
    import numpy as np

    from textbcv._io import load_json
    from textbcv.comparison.assembly import stored_paired
    from textbcv.comparison.design_effects import paired_of
    from textbcv.folds.run_dir import RunDir
    from textbcv.split.manifest import load_splits

    names = list(data.systems)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    if data.sentence_counts is not None:  # a COUNTS.json with per-sentence counts
        if data.clusters is None:
            return None, ('the per-sentence counts name no "test_sentences" or "documents", so which sentences two '
                          "folds share is unknown: the differences are not paired")
        from textbcv.stats.paired import paired_differences

        numbered = _cluster_ids(data)
        assert numbered is not None
        cluster_ids, related = numbered
        rows = {n: [np.asarray(f, dtype=np.int64).reshape(-1, 3) for f in data.sentence_counts[n]] for n in names}
        return (paired_differences(rows, cluster_ids, data.m, cluster_unit=data.cluster_unit or "sentences",
                                   related=related),
                f"paired from the per-sentence counts with {data.cluster_unit} as clusters"
                + (f" and {len(related)} related pairs" if related is not None else "") + " (COUNTS.json)")
    run = None if data.run_dir is None else RunDir(data.run_dir)
    if run is not None and run.report_json.is_file() and data.mode == "strict":  # the report's are strict's
        rep = load_json(run.report_json)
        if isinstance(rep, dict) and rep.get("m") == data.m:
            stored = stored_paired(rep)
            if all(len(stored.get(p, {})) == 3 for p in pairs):
                clusters = (rep.get("design_effect_folds") or {}).get("clusters", "sentences")
                return ({p: stored[p] for p in pairs},
                        f"paired posteriors of the run with {clusters} as clusters (report.json)")
    if run is None or not run.splits.is_file():
        return None, ""
    recs = records()
    if recs is None:
        return None, ""
    splits = load_splits(run.splits)
    ids = {(j, k): np.asarray(test, dtype=np.int64) for j, k, _tr, test in splits.folds()}
    if any(len(recs[(n, j, k)]["sentence_counts"]) != len(ids.get((j, k), ())) for n in names
           for j in range(data.m) for k in (0, 1)):
        return None, ""
    return (paired_of(recs, names, data.m, {"clusters": "sentences", "ids": ids}),
            "paired from the folds' per-sentence counts with sentences as clusters (documents, and which sentences "
            "share a rare name, are not known here)")


def run(args) -> int:
    """Run ``textbcv test`` on its parsed command line.

    Read the per-fold counts, compute the Bayes answer (and the tests asked for) and print it (tables, or JSON with
    ``--json``).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of :func:`register`'s parser.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError` instead, which
        :func:`textbcv.cli.main` prints and ends with exit status 2.
    """
    _check_options(args)
    if len(args.counts) > 1:
        return _across(args)
    args.counts = args.counts[0]
    data = read_input(args.counts, args.chunk_type, args.per_type)
    notes = check_same_gold(data, args.allow_different_gold)
    records: Callable[[], dict | None] = functools.cache(lambda: _sentence_records(data))  # read at most once
    if args.mode != "strict":
        data, records = _in_mode(data, records(), args.mode)
    deff = None
    if args.variant == "clustered":
        deff, source = (None, "") if args.chunk_type else _design_effects(data, records)
        if deff is None:
            args.variant = "adaptive"
            lacks = ("per-type counts have none" if args.chunk_type
                     else "this input lacks them (COUNTS.json, or folds of an older textbcv)")
            notes = list(notes or []) + [f"--variant clustered needs per-sentence counts, and {lacks}: the adaptive "
                                         "variant was used"]
        else:
            notes = list(notes or []) + [f"design effects {source}"]
    paired, source = ((None, "") if args.chunk_type or args.difference == "independent"
                      else _paired(data, records))
    if source and not source.startswith("paired posteriors of the run"):
        notes = list(notes or []) + [source]
    try:
        from textbcv.stats.compare import bayes_answer
        from textbcv.stats.sequential import sequential_pairs

        answer = bayes_answer(data.systems, data.m, alpha=args.alpha, rope=rope_fraction(args.rope),
                              method=args.method, variant=args.variant, rho1=args.rho1, rho2=args.rho2,
                              threshold=args.threshold, draws=args.draws, seed=args.seed, design_effects=deff,
                              paired=paired)
        values = _per_fold(data, args.metric)
        # the sequential t-test as in a compare report of fixed m
        seq = sequential_pairs(values, data.m, alpha=args.alpha, metric=args.metric)
        result = {**answer.to_dict(), "sequential": [s.to_dict() for s in seq]}
        if args.per_type:
            result["per_type"], result["per_type_comparisons"] = _per_type(data, args)
        if args.classic:
            result["classic"] = _classic(args, data, values, paired is not None)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), data.path) from None
    if notes:
        result["notes"] = notes
    if args.plots is not None:
        _plots(args, data, result)
    print(dumps_json(result), end="") if args.json else print(format_table(result), end="")
    rope_note = rope_warning(args.rope)
    if rope_note:
        from textbcv.errors import warn

        warn(rope_note)
    return 0


def _across(args) -> int:
    """``textbcv test RUN1 RUN2 ...``: the hierarchical answer across the runs' corpora."""
    from textbcv.comparison.corpora import across_corpora

    given = [opt for opt, v in (("--type", args.chunk_type), ("--per-type", args.per_type),
                                ("--classic", args.classic), ("--mode", args.mode != "strict"),
                                ("--difference independent", args.difference != "paired"),
                                ("--metric", args.metric != "f1")) if v]
    if given:
        raise InputError(f"{given[0]} applies to one run; several runs are answered on their paired ΔF1 posteriors")
    if not 0 < args.tau_scale < 100:
        raise InputError(f"--tau-scale must lie in (0, 100) F1 points, got {args.tau_scale:g}")
    answer = across_corpora(args.counts, rope=rope_fraction(args.rope) or 0.0, alpha=args.alpha,
                            threshold=args.threshold, tau_scale=args.tau_scale / 100)
    if args.plots is not None:
        from textbcv.report.plots import write_corpora_plot

        Path(args.plots).mkdir(parents=True, exist_ok=True)
        write_corpora_plot(answer, Path(args.plots) / "across_corpora.png")
    print(dumps_json(answer), end="") if args.json else print(format_corpora(answer), end="")
    return 0


def format_corpora(answer: dict) -> str:
    """The text of an answer across corpora (:func:`textbcv.comparison.corpora.across_corpora`).

    Parameters
    ----------
    answer : dict
        The answer (fractions).

    Returns
    -------
    str
        A table per pair (each corpus shrunken, the overall difference, a new corpus), the decision, the
        assumptions; ending in a newline.
    """
    lines = [f"Across {len(answer['corpora'])} corpora (hierarchical model over the runs' paired ΔF1 posteriors; "
             f"a system is called better when P ≥ {answer['threshold']:g}):", ""]
    for p in answer["pairs"]:
        level = f"{100 * (1 - p['alpha']):g}%"
        by = f" by > {100 * p['rope']:g}" if p.get("rope") else ""
        rows = [["A", "B", "corpus", "ΔF1 (B − A)", f"{level} interval", f"P(B better{by})"]]
        for k, c in enumerate(p["per_corpus"]):
            rows.append([p["a"], p["b"], c["name"], f"{100 * c['mean']:+.2f}",
                         f"[{100 * c['interval'][0]:+.2f}, {100 * c['interval'][1]:+.2f}]", f"{c['p_b_better']:.4f}"])
        rows.append([p["a"], p["b"], "overall", f"{100 * p['mu']:+.2f}",
                     f"[{100 * p['mu_interval'][0]:+.2f}, {100 * p['mu_interval'][1]:+.2f}]", f"{p['p_b_better']:.4f}"])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines += ["  ".join(x.rjust(w) if i >= 3 else x.ljust(w) for i, (x, w) in enumerate(zip(r, widths))).rstrip()
                  for r in rows]
        eq = f", P(equivalent) = {p['p_equivalent']:.4f}" if p.get("p_equivalent") is not None else ""
        lines += [f"decision: {p['decision']} (P({p['b']} better) = {p['p_b_better']:.4f}, P({p['a']} better) = "
                  f"{p['p_a_better']:.4f}{eq}); on a new corpus of this kind P({p['b']} better) = "
                  f"{p['p_new_b_better']:.4f}; the corpora's spread τ: median {100 * p['tau_median']:.2f} points"]
        reach = p.get("equivalence_reach")
        if reach:
            lines += [f"to show practical equivalence (P(equivalent) ≥ {answer['threshold']:g} within the rope of "
                      f"{100 * p['rope']:g} points) the overall ΔF1 would need a posterior SD of at most "
                      f"{100 * reach['sd_needed']:.2f} points even at an estimate of 0; it is about "
                      f"{100 * reach['sd_now']:.2f} now"
                      + (f": about {reach['data_factor']:.{1 if reach['data_factor'] < 10 else 0}f}× the test text "
                         "per corpus (if the corpora agree)"
                         if reach["data_factor"] > 1 else "")]
        lines += [""]
    lines += ["Per corpus: each run's difference pulled towards the overall one as much as the corpora agree. "
              "Assumptions: " + answer["assumptions"] + "."]
    return "\n".join(lines) + "\n"


def _plots(args, data: FoldCounts, result: dict) -> None:
    """The compare report's plots of this input (and the critical-difference diagram) in ``--plots``."""
    from textbcv.report.markdown import write_cd_diagram, write_plots
    from textbcv.report.model import CompareReport

    report = {**result, "fold_counts": data.systems, "fold_f1": _per_fold(data, "f1"),
              "meta": {"options": {"variant": args.variant, "rho1": args.rho1, "rho2": args.rho2}, "seed": args.seed}}
    write_plots(CompareReport.coerce(report), args.plots)
    fr = (result.get("classic") or {}).get("friedman")
    if fr and fr["chi2"]["undefined"] is None:
        write_cd_diagram(list(result["systems"]), fr["average_ranks"], fr["nemenyi_cd"],
                         Path(args.plots) / "cd_diagram.png",
                         title=f"Nemenyi critical difference over {fr['n']} folds (α = {fr['alpha']:g})")
