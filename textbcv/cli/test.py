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
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textbcv import defaults
from textbcv._io import JSON_HINT, _show, dumps_json, json_count, loads_json, read_text
from textbcv.cli.common import ROPE_HELP, THRESHOLD_HELP, check_threshold, rope_fraction, rope_warning
from textbcv.errors import InputError

# The choices of textbcv.stats.compare, repeated here so that `textbcv --help` and the other commands
# do not import scipy.stats (a second of start-up); tests/test_cli_basics.py checks they agree.
ALL_VARIANTS = ("thesis", "independent", "averaged-counts", "rho", "adaptive", "clustered")
METHODS = ("exact", "monte-carlo", "both")
METRICS = ("precision", "recall", "f1")
DECISION_UNITS = ("chunk", "token")
VARIANT_HELP = (f"count factor of the posteriors (default {defaults.VARIANT}): clustered (the counts of one average "
                "fold divided by the design effect of sentences/documents, measured on the folds' per-sentence counts; "
                "covered F1 on new text in the real-text study), averaged-counts (ρ1 = ρ2 = 1, ignores clustered errors), "
                "adaptive (c_m, widened when the folds disagree more than c_m implies), thesis (c_m; under-covers), "
                "independent (ρ1 = ρ2 = 0), rho (give --rho1 and --rho2; measured ρ for CRF taggers and other learners: "
                "docs/variance.md)")

__all__ = ["register", "run", "read_counts_json", "read_folds_jsonl", "read_input", "FoldCounts", "format_table",
           "VARIANT_HELP"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "test", help="Bayes test (and textbook tests) of precision/recall/F1 from per-fold counts",
        description="Posteriors, credible intervals and P(B better) for precision, recall and F1 of every "
                    "pair of systems, and the sequential t-test on per-fold differences, from per-fold TP/FP/FN of "
                    "an m×2 BCV run (COUNTS.json, folds.jsonl, or a run directory).")
    p.add_argument("counts", metavar="COUNTS.json|folds.jsonl|RUN",
                   help="COUNTS.json (format in docs/formats.md), a folds.jsonl of `textbcv compare`, or its run directory")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="1 − credibility of the intervals; level of the t-tests and the critical difference (default 0.05)")
    p.add_argument("--rope", type=float, default=None, metavar="POINTS", help=ROPE_HELP)
    p.add_argument("--threshold", type=float, default=0.95, help=THRESHOLD_HELP)
    p.add_argument("--variant", choices=ALL_VARIANTS, default=defaults.VARIANT, help=VARIANT_HELP)
    p.add_argument("--rho1", type=float, default=None, help="ρ1 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--rho2", type=float, default=None, help="ρ2 in [0, 1], for --variant rho (no default: needed with it)")
    p.add_argument("--method", choices=METHODS, default="exact", help="exact quadrature (default), monte-carlo, or both")
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
                   help="with --classic: McNemar's units — chunks (gold or predicted by either system; default) or tokens")
    p.add_argument("--plots", metavar="DIR", default=None,
                   help="draw the report's plots (posteriors, F1 difference, per-fold F1; with --classic and 3 or "
                        "more systems the critical-difference diagram) into DIR (default: no plots)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


# --- locating things in a JSON text, for error messages ---------------------------------
def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip_string(text: str, i: int) -> int:
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return i


def _element_positions(text: str, start: int) -> list[int]:
    """Start offsets of the elements of the JSON array whose '[' is at or after ``start``."""
    i = text.find("[", start)
    if i < 0:
        return []
    out, depth, i = [], 0, i + 1
    expect = True
    while i < len(text):
        ch = text[i]
        if ch == '"':
            if depth == 0 and expect:
                out.append(i)
                expect = False
            i = _skip_string(text, i)
            continue
        if ch in " \t\r\n":
            i += 1
            continue
        if depth == 0 and ch == "]":
            break
        if depth == 0 and ch == ",":
            expect = True
        elif depth == 0 and expect:
            out.append(i)
            expect = False
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        i += 1
    return out


def _system_line(text: str, name: str, fold: int | None = None) -> int | None:
    m = re.search(r'"' + re.escape(json.dumps(name)[1:-1]) + r'"\s*:', text)
    if not m:
        return None
    if fold is None:
        return _line_of(text, m.start())
    pos = _element_positions(text, m.end())
    return _line_of(text, pos[fold]) if fold < len(pos) else _line_of(text, m.start())


def _check_count(v: Any, what: str, file: str, line: int | None) -> int:
    return json_count(v, what, file, line)


def _read_text(path: str) -> str:
    """The UTF-8 text of ``path`` (one loader for every file textbcv reads: textbcv._io)."""
    return read_text(path, hint=JSON_HINT)


def _loads(text: str, file: str, line: int | None = None) -> Any:
    return loads_json(text, file, line)


Counts = dict[str, int]


@dataclass(frozen=True)
class FoldCounts:
    """The per-fold counts of one input file, read and checked.

    Attributes
    ----------
    path : str
        The file read (``RUN/folds.jsonl`` for a run directory).
    m : int
    systems : dict
        name → 2m ``{"tp", "fp", "fn"}`` in fold order (split 0 direction 0,
        split 0 direction 1, ...): the overall counts, or those of ``chunk_type``.
    lines : dict
        name → the line of each fold in ``path`` (None where unknown), for errors.
    overall : dict
        name → 2m overall counts (equal to ``systems`` without ``chunk_type``).
    types : dict or None
        name → 2m ``{TYPE: counts}`` (folds.jsonl, when per-type counts were asked for).
    specs : dict
        name → the system spec recorded in folds.jsonl (None for COUNTS.json).
    run_dir : Path or None
        The run directory of a folds.jsonl.
    chunk_type : str or None
    """

    path: str
    m: int
    systems: dict[str, list[Counts]]
    lines: dict[str, list[int | None]]
    overall: dict[str, list[Counts]]
    types: dict[str, list[dict[str, Counts]]] | None
    specs: dict[str, dict | None]
    run_dir: Path | None
    chunk_type: str | None = None


def _counts_json(path: str) -> FoldCounts:
    file = str(path)
    text = _read_text(path)
    data = _loads(text, file)
    if not isinstance(data, dict):
        raise InputError('expected a JSON object {"m": M, "systems": {...}}', file, 1)
    for key in ("m", "systems"):
        if key not in data:
            raise InputError(f'missing key "{key}"', file, 1)
    m = data["m"]
    mline = _line_of(text, text.find('"m"')) if '"m"' in text else 1
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise InputError(f'"m" must be an integer >= 1, got {_show(m)}', file, mline)
    systems = data["systems"]
    sline = _line_of(text, text.find('"systems"'))
    if not isinstance(systems, dict):
        raise InputError('"systems" must be an object {NAME: [folds...]}', file, sline)
    if len(systems) < 2:
        raise InputError(f"need at least 2 systems to compare, got {len(systems)}", file, sline)
    out, lines = {}, {}
    for name, folds in systems.items():
        line = _system_line(text, name)
        if not isinstance(folds, list):
            raise InputError(f"system {name!r}: expected a list of 2m = {2 * m} folds", file, line)
        if len(folds) != 2 * m:
            raise InputError(f"system {name!r}: expected 2m = {2 * m} folds for m = {m}, got {len(folds)}", file, line)
        key = re.search(r'"' + re.escape(json.dumps(name)[1:-1]) + r'"\s*:', text)
        pos = _element_positions(text, key.end()) if key else []
        flines = [_line_of(text, pos[i]) if i < len(pos) else line for i in range(2 * m)]
        rows = []
        for i, f in enumerate(folds):
            fline = flines[i]
            if not isinstance(f, dict):
                raise InputError(f'system {name!r}, fold {i}: expected {{"tp": .., "fp": .., "fn": ..}}', file, fline)
            missing = [k for k in ("tp", "fp", "fn") if k not in f]
            if missing:
                raise InputError(f"system {name!r}, fold {i}: missing key(s) {', '.join(missing)}", file, fline)
            rows.append({k: _check_count(f[k], f"system {name!r}, fold {i}: {k}", file, fline) for k in ("tp", "fp", "fn")})
        out[name], lines[name] = rows, flines
    return FoldCounts(file, m, out, lines, out, None, {n: None for n in out}, None)


def read_counts_json(path: str) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read and validate COUNTS.json; return (m, {system: [{"tp", "fp", "fn"}, ...]})."""
    c = _counts_json(path)
    return c.m, c.systems


def _tally(c: Any, where: str, file: str, no: int) -> Counts:
    if not isinstance(c, dict):
        raise InputError(f'missing "{where}"', file, no)
    missing = [k for k in ("tp", "fp", "fn") if k not in c]
    if missing:
        raise InputError(f"{where}: missing key(s) {', '.join(missing)}", file, no)
    return {k: _check_count(c[k], f"{where}.{k}", file, no) for k in ("tp", "fp", "fn")}


def _folds_jsonl(path: str, chunk_type: str | None = None, per_type: bool = False) -> FoldCounts:
    file = str(path)
    want_types = per_type or chunk_type is not None
    found: dict[str, dict[tuple[int, int], tuple]] = {}
    from textbcv.foldfile import read_fold_records

    for no, obj in read_fold_records(path):  # the one parser of the format (a torn last line is left out)
        system, split, direction = obj["system"], obj["split"], obj["direction"]
        counts = obj["counts"]
        if not isinstance(counts, dict):
            raise InputError('"counts" must be an object', file, no)
        overall = _tally(counts.get("overall"), "counts.overall", file, no)
        types = None
        if want_types:
            raw_types = counts.get("types")
            if not isinstance(raw_types, dict):
                raise InputError('missing "counts.types"', file, no)
            types = {t: _tally(c, f"counts.types.{t}", file, no) for t, c in raw_types.items()}
        spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else None
        prev = found.setdefault(system, {}).get((split, direction))
        if prev is not None and (prev[0] != overall or prev[1] != types):
            raise InputError(f"system {system!r}, split {split}, direction {direction} recorded twice with different "
                             f"counts (first on line {prev[2]})", file, no)
        found[system][(split, direction)] = (overall, types, no, spec)
    if len(found) < 2:
        raise InputError(f"need at least 2 systems to compare, got {len(found)}", file)
    m = max(s for folds in found.values() for s, _d in folds) + 1
    out, flines, overall, types, specs = {}, {}, {}, ({} if want_types else None), {}
    for system, folds in found.items():
        n_missing = 2 * m - len(folds)
        if n_missing:
            # (lazily: a corrupt "split" can make m huge)
            missing = [f"split {s} direction {d}" for s, d in
                       itertools.islice(((s, d) for s in range(m) for d in (0, 1) if (s, d) not in folds), 5)]
            raise InputError(f"system {system!r}: {n_missing} of 2m = {2 * m} folds missing "
                             f"({', '.join(missing[:4])}{', ...' if n_missing > 4 else ''})", file)
        ordered = [folds[(s, d)] for s in range(m) for d in (0, 1)]
        overall[system] = [f[0] for f in ordered]
        flines[system] = [f[2] for f in ordered]
        specs[system] = ordered[0][3]
        if want_types:
            types[system] = [f[1] for f in ordered]
    if chunk_type is not None:
        present = sorted({t for tl in types.values() for f in tl for t in f})
        if chunk_type not in present:
            raise InputError(f"--type {chunk_type}: no chunk of type {chunk_type!r} in any fold "
                             f"(types: {', '.join(present) or 'none'})", file)
        zero = {"tp": 0, "fp": 0, "fn": 0}
        out = {n: [f.get(chunk_type, zero) for f in tl] for n, tl in types.items()}
    else:
        out = overall
    run_dir = Path(file).parent
    return FoldCounts(file, m, out, flines, overall, types, specs, run_dir, chunk_type)


def read_folds_jsonl(path: str, chunk_type: str | None = None) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read a folds.jsonl of ``textbcv compare``; return (m, {system: 2m folds in fold order (docs/formats.md)}).

    A last line without a trailing newline (a fold being written when a run
    was killed) is ignored. A fold recorded twice must have equal counts.
    ``chunk_type``: the counts of that type (InputError if no fold has it).
    """
    c = _folds_jsonl(path, chunk_type)
    return c.m, c.systems


def read_input(path: str, chunk_type: str | None = None, per_type: bool = False) -> FoldCounts:
    """Read COUNTS.json, a folds.jsonl or a run directory (its folds.jsonl); InputError naming file and line."""
    p = Path(path)
    if p.is_dir():
        from textbcv.run_dir import RunDir

        run = RunDir(p)
        run.require("folds.jsonl", what="a `textbcv compare` run directory")
        return _folds_jsonl(str(run.folds), chunk_type, per_type)
    if str(path).endswith(".jsonl"):
        return _folds_jsonl(str(path), chunk_type, per_type)
    if chunk_type is not None:
        raise InputError("--type applies to a folds.jsonl only", str(path))
    if per_type:
        raise InputError("--per-type applies to a folds.jsonl only (COUNTS.json has no per-type counts)", str(path))
    return _counts_json(str(path))


def gold_differences(data: FoldCounts) -> list[tuple[str, int, str, int, str, int]]:
    """Folds where a system's gold total TP + FN differs from the first system's, overall and (when read) per type.

    Each item: (what, fold, first system, its gold, other system, its gold);
    ``what`` is ``""`` for the overall counts or ``" of type T"``.
    """
    names = list(data.systems)
    checks = [("", data.overall)]
    if data.types is not None:
        types = sorted({t for tl in data.types.values() for f in tl for t in f})
        zero = {"tp": 0, "fp": 0, "fn": 0}
        checks += [(f" of type {t}", {n: [f.get(t, zero) for f in data.types[n]] for n in names}) for t in types]
    out = []
    for what, counts in checks:
        for i in range(2 * data.m):
            first = names[0]
            g0 = counts[first][i]["tp"] + counts[first][i]["fn"]
            for name in names[1:]:
                g = counts[name][i]["tp"] + counts[name][i]["fn"]
                if g != g0:
                    out.append((what, i, first, g0, name, g))
    return out


def check_same_gold(data: FoldCounts, allow: bool = False) -> list[str]:
    """InputError naming the first fold (and its line) where two systems' gold totals differ; with ``allow``, a note."""
    diff = gold_differences(data)
    if not diff:
        return []
    what, i, first, g0, name, g = diff[0]
    where = f"split {i // 2} direction {i % 2}"
    if not allow:
        raise InputError(f"{where}: systems {first!r} and {name!r} were scored on different gold: {g0} against {g} "
                         f"gold chunks{what} (TP + FN); add --allow-different-gold to test them anyway",
                         data.path, data.lines[name][i])
    return [f"the systems were scored on different gold in {len(diff)} comparison(s) of a fold (first: {where}, "
            f"{first!r} {g0} against {name!r} {g} gold chunks{what}); tested anyway (--allow-different-gold)"]


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
    types = sorted({t for tl in data.types.values() for f in tl for t in f})
    zero = {"tp": 0, "fp": 0, "fn": 0}
    per_type = {n: {} for n in names}
    tests = {}
    for t in types:
        counts = {n: [f.get(t, zero) for f in data.types[n]] for n in names}
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
    """McNemar's test on one fold's decisions of every pair, from the run's saved predictions; or the reason it cannot run."""
    from textbcv.decisions import fold_decisions, read_fold_predictions
    from textbcv.run_dir import RunDir
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
            "every token; a system is right on one when its chunks give it the gold role and type (both written in IOBES)")
    return {"split": split, "direction": direction, "decisions": unit, "units": int(sum(pairs[0]["table"][0]) + sum(pairs[0]["table"][1])),
            "unit_definition": what, "pairs": pairs}, None


def _classic(args, data: FoldCounts, values: dict[str, list[float]]) -> dict:
    from textbcv.report import DISAGREE, textbook_tests

    t = textbook_tests(values, data.m, args.alpha)
    not_applicable = []
    if t["friedman"] is None:
        not_applicable.append({"test": "Friedman + Nemenyi critical difference",
                               "reason": "needs 3 or more systems; this input has 2"})
    mc, why = _mcnemar(args, data)
    if mc is None:
        not_applicable.append({"test": "McNemar", "reason": why})
    return {"metric": args.metric, **t, "mcnemar": mc, "not_applicable": not_applicable, "note": DISAGREE}


# --- text ---------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.2f}"


def _table(rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join((c.rjust(w) if i in right else c.ljust(w)) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


def format_table(result: dict) -> str:
    """The readable form of a ``test`` answer: P, R and F1 in percent, probabilities as fractions, decisions
    worded by :mod:`textbcv.verdicts` (the report's words)."""
    from textbcv.report import score_cell
    from textbcv.verdicts import as_report, fmt_p, rope_points, rule, sequential_words, verdict

    answer = as_report(result)
    alpha = answer.alpha
    lines = [f"m = {answer.m}, {100 * (1 - alpha):g}% credible intervals, "
             f"count factor: {answer.variant} (P, R, F1 in %)", ""]
    rows = [["system", "metric", "estimate", "interval"]]
    for name, per in answer.systems.items():
        for metric, v in per.items():
            if v.estimate is None:
                rows.append([name, metric, "—", f"undefined: {v.undefined}"])
            else:
                est, _, ci = score_cell(v).partition(" ")
                rows.append([name, metric, est, ci])
    lines += _table(rows, {2}) + [""]
    if any(v.interval == "one-sided" for per in answer.systems.values() for v in per.values()):
        lines += ["† one-sided interval: a score at or near 0 or 100%, where the equal-tailed one would not hold it", ""]
    rope = rope_points(answer)
    by = f" by > {rope:g}" if rope is not None else ""
    head = ["A", "B", "metric", f"P(B better{by})", f"P(A better{by})"] + (["P(equiv.)"] if rope is not None else []) \
        + ["decision"]
    rows = [head]
    for c in answer.comparisons:
        rows.append([c.a, c.b, c.metric, fmt_p(c.p_b_better, 4), fmt_p(c.p_a_better, 4)]
                    + ([fmt_p(c.p_equivalent, 4)] if rope is not None else [])
                    + [f"undefined: {c.undefined}" if c.undefined else verdict(c)])
    lines += _table(rows, {3, 4, 5} if rope is not None else {3, 4})
    lines += ["", rule(answer)]
    if answer.answer.family_wise is not None:
        lines += ["", "note: " + answer.answer.family_wise["note"]]
    if answer.sequential:
        metric = answer.sequential[0].metric
        lines += ["", f"Sequential t-test on per-fold {_label(metric)} differences (B − A, points), α = {alpha:g}:"]
        rows = [["A", "B", "mean difference", f"{100 * (1 - alpha):g}% CI", f"t-test (α = {alpha:g})"]]
        for sp in answer.sequential:
            rows.append([sp.a, sp.b, f"{100 * sp.estimate:+.2f}",
                         f"[{100 * sp.ci[0]:+.2f}, {100 * sp.ci[1]:+.2f}]", sequential_words(sp)])
        lines += _table(rows, {2})
    if "per_type" in result:
        lines += ["", *_per_type_text(result)]
    if "classic" in result:
        lines += ["", *_classic_text(result["classic"], result)]
    for note in result.get("notes", []):
        lines += ["", "note: " + note]
    return "\n".join(lines) + "\n"


def _label(metric: str) -> str:
    return {"f1": "F1", "precision": "precision", "recall": "recall"}[metric]


def _per_type_text(result: dict) -> list[str]:
    from textbcv.verdicts import fmt_p

    pt, tests = result["per_type"], result["per_type_comparisons"]
    names = list(pt)
    pairs = [(c["a"], c["b"]) for c in next(iter(tests.values()), [])]
    head = ["type"] + [f"{n} P / R / F1" for n in names] + [f"P({b} better) F1 vs {a}" for a, b in pairs]
    rows = [head]
    for t in sorted(tests):
        row = [t or "(untyped)"]
        for n in names:
            c = pt[n][t]
            row.append(" / ".join(_pct(c[k]) for k in METRICS))
        row += [fmt_p(c["p_b_better"], 4) for c in tests[t]]
        rows.append(row)
    return ["Per-type scores (pooled over folds, %) and the Bayes test on each type's F1:",
            *_table(rows, set(range(1 + len(names), len(head))))]


def _classic_text(c: dict, result: dict) -> list[str]:
    from textbcv.report import format_p as p
    from textbcv.report import format_statistic

    m = c["m"]
    out = [f"Textbook tests on per-fold {_label(c['metric'])} differences (B − A; m = {m}, {2 * m} folds):"]
    rows = [["A", "B", "test", "statistic", "p-value"]]
    seen: dict[str, tuple[str, str]] = {}
    for pair in c["pairs"]:
        for r in pair["tests"]:
            rows.append([pair["a"], pair["b"], r["name"], format_statistic(r), p(r)])
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
    out += _table(rows, {4})
    fr = c["friedman"]
    if fr:
        names = list(result["systems"])
        out += ["", f"Friedman test over the {fr['n']} folds (blocks) × {fr['k']} systems, rank 1 = best "
                    f"{_label(c['metric'])}:",
                "  average ranks: " + ", ".join(f"{n} {r:.2f}" for n, r in zip(names, fr["average_ranks"]))]
        for r in (fr["chi2"], fr["iman_davenport"]):
            out.append(f"  {r['name']}: " + (format_statistic(r) if r["undefined"] else f"{format_statistic(r)}, p = {p(r)}"))
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
        differ = [f"{names[i]}–{names[j]}" for i, j in fr["nemenyi_differing_pairs"]]
        out.append(f"  Nemenyi critical difference (α = {fr['alpha']:g}): {fr['nemenyi_cd']:.3f}; pairs whose average "
                   f"ranks differ by more: {', '.join(differ) or 'none'}")
    mc = c["mcnemar"]
    if mc:
        out += ["", f"McNemar on split {mc['split']} direction {mc['direction']}, {mc['units']} {mc['decisions']} "
                    f"units — {mc['unit_definition']}:"]
        rows = [["A", "B", "b (A right, B wrong)", "c (A wrong, B right)", "test", "statistic", "p-value"]]
        for pair in mc["pairs"]:
            for r in pair["tests"]:
                rows.append([pair["a"], pair["b"], str(r["b"]), str(r["c"]), r["name"], format_statistic(r), p(r)])
                seen.setdefault(r["name"], (r["form"], r["assumption"]))
        out += _table(rows, {2, 3, 6})
    skipped = [(s["test"], s["reason"]) for s in c["pairs"][0]["not_applicable"]] + \
              [(s["test"], s["reason"]) for s in c["not_applicable"]]
    if skipped:
        out += ["", "Not run:"] + [f"  {name}: {why}" for name, why in skipped]
    out += ["", "Forms and assumptions:"]
    for name, (form, assumption) in seen.items():
        out += [f"  {name}: {form}.", f"    assumes {assumption}."]
    out += ["", c["note"]]
    return out


# --- the command ----------------------------------------------------------------------------------


def _design_effects(data: FoldCounts) -> tuple[dict | None, str]:
    """Each system's design effect for ``--variant clustered``, and where it came from; None when the input
    has no per-sentence counts.

    A run directory's ``report.json`` gives the effects ``compare`` measured with the corpus's documents
    as clusters; a ``folds.jsonl`` alone gives per-sentence counts, with sentences as clusters.
    """
    from textbcv._io import load_json
    from textbcv.design_effects import design_effects_of
    from textbcv.foldfile import read_fold_records
    from textbcv.run_dir import RunDir

    names = list(data.systems)
    run = None if data.run_dir is None else RunDir(data.run_dir)
    if run is not None and run.report_json.is_file():
        rep = load_json(run.report_json)
        d = rep.get("design_effects") if isinstance(rep, dict) else None
        if rep.get("m") == data.m and isinstance(d, dict) and set(names) <= set(d):
            clusters = (rep.get("design_effect_folds") or {}).get("clusters", "sentences")
            return {n: d[n] for n in names}, f"measured by the run with {clusters} as clusters (report.json)"
    if not str(data.path).endswith(".jsonl"):
        return None, ""
    recs = {(r["system"], r["split"], r["direction"]): r for _, r in read_fold_records(data.path)}
    if not all("sentence_counts" in recs.get((n, j, k), {}) for n in names for j in range(data.m) for k in (0, 1)):
        return None, ""
    pooled = design_effects_of(recs, names, data.m, None)["pooled"]
    return pooled, "from the folds' per-sentence counts with sentences as clusters (documents are not known here)"


def run(args) -> int:
    _check_options(args)
    data = read_input(args.counts, args.chunk_type, args.per_type)
    notes = check_same_gold(data, args.allow_different_gold)
    deff = None
    if args.variant == "clustered":
        deff, source = (None, "") if args.chunk_type else _design_effects(data)
        if deff is None:
            args.variant = "adaptive"
            lacks = ("per-type counts have none" if args.chunk_type
                     else "this input lacks them (COUNTS.json, or folds of an older textbcv)")
            notes = list(notes or []) + [f"--variant clustered needs per-sentence counts, and {lacks}: the adaptive "
                                         "variant was used"]
        else:
            notes = list(notes or []) + [f"design effects {source}"]
    try:
        from textbcv.stats.compare import bayes_answer
        from textbcv.stats.sequential import sequential_pairs

        answer = bayes_answer(data.systems, data.m, alpha=args.alpha, rope=rope_fraction(args.rope),
                              method=args.method, variant=args.variant, rho1=args.rho1, rho2=args.rho2,
                              threshold=args.threshold, draws=args.draws, seed=args.seed, design_effects=deff)
        values = _per_fold(data, args.metric)
        # the sequential t-test as in a compare report of fixed m
        seq = sequential_pairs(values, data.m, alpha=args.alpha, metric=args.metric)
        result = {**answer.to_dict(), "sequential": [s.to_dict() for s in seq]}
        if args.per_type:
            result["per_type"], result["per_type_comparisons"] = _per_type(data, args)
        if args.classic:
            result["classic"] = _classic(args, data, values)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), data.path) from None
    if notes:
        result["notes"] = notes
    if args.plots is not None:
        _plots(args, data, result)
    print(dumps_json(result), end="") if args.json else print(format_table(result), end="")
    if rope_warning(args.rope):
        from textbcv.errors import warn

        warn(rope_warning(args.rope))
    return 0


def _plots(args, data: FoldCounts, result: dict) -> None:
    """The compare report's plots of this input (and the critical-difference diagram) in ``--plots``."""
    from textbcv.report import write_cd_diagram, write_plots

    report = {**result, "fold_counts": data.systems, "fold_f1": _per_fold(data, "f1"),
              "meta": {"options": {"variant": args.variant, "rho1": args.rho1, "rho2": args.rho2}, "seed": args.seed}}
    write_plots(report, args.plots)
    fr = (result.get("classic") or {}).get("friedman")
    if fr and fr["chi2"]["undefined"] is None:
        write_cd_diagram(list(result["systems"]), fr["average_ranks"], fr["nemenyi_cd"],
                         Path(args.plots) / "cd_diagram.png",
                         title=f"Nemenyi critical difference over {fr['n']} folds (α = {fr['alpha']:g})")
