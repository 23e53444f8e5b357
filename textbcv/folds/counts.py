"""Per-fold counts read from a COUNTS.json, a ``folds.jsonl`` or a run directory (docs/formats.md).

Every error names the file and the line of the fold at fault.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textbcv._io import JSON_HINT, MAX_JSON_BYTES, _show, json_count, loads_json, read_text
from textbcv.errors import InputError
from textbcv.folds.foldfile import check_sentence_counts, read_fold_records
from textbcv.folds.run_dir import RunDir

__all__ = ["FoldCounts", "read_input", "read_counts_json", "read_folds_jsonl", "gold_differences", "check_same_gold",
           "check_report_counts"]


_DECODER = json.JSONDecoder()
_BLANK = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _key(text: str, name: str) -> re.Match[str] | None:
    """The first ``"name":`` of the JSON text (the key of a system in ``systems``)."""
    return re.search(r'"' + re.escape(json.dumps(name)[1:-1]) + r'"\s*:', text)


def _skip_blanks(text: str, i: int) -> int:
    m = _BLANK.match(text, i)
    return m.end() if m else i


def _element_positions(text: str, start: int) -> list[int]:
    """Start offsets of the elements of the JSON array at ``start``; [] when none. Only for parsed text."""
    i = _skip_blanks(text, start)
    if not text.startswith("[", i):
        return []
    out = []
    i = _skip_blanks(text, i + 1)
    while i < len(text) and text[i] != "]":
        out.append(i)
        i = _skip_blanks(text, _DECODER.raw_decode(text, i)[1])
        if text.startswith(",", i):
            i = _skip_blanks(text, i + 1)
    return out


Counts = dict[str, int]


@dataclass(frozen=True)
class FoldCounts:
    """The per-fold counts of one input file, read and checked.

    Attributes
    ----------
    path : str
    m : int
        Number of splits; every system has 2m folds.
    systems : dict
        name → 2m ``{"tp", "fp", "fn"}`` in fold order: overall, or those of ``chunk_type``.
    lines : dict
        name → the line of each fold in ``path`` (None where unknown).
    overall : dict
        name → 2m overall counts.
    types : dict or None
        name → 2m ``{TYPE: counts}`` (folds.jsonl, when asked for).
    specs : dict
        name → the recorded system spec (None for COUNTS.json).
    run_dir : Path or None
    chunk_type : str or None
    sentence_counts : dict or None
        COUNTS.json: name → 2m lists of per-sentence [tp, fp, fn].
    clusters : list or None
        COUNTS.json: the cluster of every test sentence of each fold.
    cluster_unit : str or None
        ``"documents"`` or ``"sentences"``.
    related : list or None
        Pairs of cluster ids whose errors may move together.
    mode : str
        The matching mode of ``systems``.
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
    sentence_counts: dict[str, list[list[list[int]]]] | None = None
    clusters: list[list[Any]] | None = None
    cluster_unit: str | None = None
    mode: str = "strict"
    related: list[list[Any]] | None = None


def _per_fold_ids(data: dict, key: str, n: list[int], file: str, text: str) -> list[list[Any]] | None:
    """COUNTS.json's ``key``: 2m lists of ids, one per test sentence; None when absent."""
    if key not in data:
        return None
    line = _line_of(text, text.find(f'"{key}"'))
    v = data[key]
    if not isinstance(v, list) or len(v) != len(n):
        raise InputError(f'"{key}" must be a list of 2m = {len(n)} lists, one per fold', file, line)
    for f, ids in enumerate(v):
        if not isinstance(ids, list) or len(ids) != n[f]:
            raise InputError(f'"{key}"[{f}] must list one id per test sentence of fold {f} ({n[f]}, as its '
                             '"sentence_counts")', file, line)
        if not all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in ids):
            raise InputError(f'"{key}"[{f}]: ids must be integers or strings', file, line)
        if key == "test_sentences" and len(set(ids)) != len(ids):
            raise InputError(f'"{key}"[{f}] names a sentence twice', file, line)
    return v


def _check_design(tests: list[list[Any]] | None, docs: list[list[Any]] | None, file: str, text: str) -> None:
    """Check that the ids have the shape an m×2 design makes."""
    for key, v in (("test_sentences", tests), ("documents", docs)):
        if v is not None and len({type(x) for ids in v for x in ids}) > 1:
            raise InputError(f'"{key}" mixes integer and string ids: use one kind for every fold', file,
                             _line_of(text, text.find(f'"{key}"')))
    if tests is None:
        return
    line = _line_of(text, text.find('"test_sentences"'))
    union = None
    for j in range(len(tests) // 2):
        a, b = set(tests[2 * j]), set(tests[2 * j + 1])
        both = a & b
        if both:
            raise InputError(f'"test_sentences": folds {2 * j} and {2 * j + 1} (split {j}) both test sentence '
                             f"{_show(sorted(both, key=str)[0])}; the two halves of a split are disjoint", file, line)
        if union is None:
            union = a | b
        elif a | b != union:
            raise InputError(f'"test_sentences": split {j} tests other sentences than split 0 (every split divides '
                             "the same sentences into two halves)", file, line)
    if docs is not None:
        doc_of: dict[Any, Any] = {}
        for f, (ids, ds) in enumerate(zip(tests, docs)):
            for s, d in zip(ids, ds):
                if doc_of.setdefault(s, d) != d:
                    raise InputError(f'"documents"[{f}]: sentence {_show(s)} is in document {_show(d)} here and in '
                                     f"{_show(doc_of[s])} in another fold", file,
                                     _line_of(text, text.find('"documents"')))


def _sentence_parts(data: dict, systems: dict, raw: dict, lines: dict, file: str, text: str) -> dict:
    """The optional per-sentence parts of a COUNTS.json, checked."""
    with_rows = {n for n, folds in raw.items() if any("sentence_counts" in f for f in folds)}
    if not with_rows:
        if "test_sentences" in data or "documents" in data or "related" in data:
            raise InputError('"test_sentences", "documents" and "related" need every fold\'s "sentence_counts"',
                             file, 1)
        return {}
    sc: dict[str, list[list[list[int]]]] = {}
    for name, folds in raw.items():
        rows = []
        for i, f in enumerate(folds):
            if "sentence_counts" not in f:
                raise InputError(f'system {name!r}, fold {i}: no "sentence_counts" (some folds have them: give them '
                                 "for every fold of every system, or for none)", file, lines[name][i])
            rec = {"counts": {"overall": systems[name][i]}, "sentence_counts": f["sentence_counts"]}
            rows.append(check_sentence_counts(rec, file, lines[name][i] or 1).tolist())
        sc[name] = rows
    first = next(iter(sc))
    n = [len(x) for x in sc[first]]
    for name, rows in sc.items():
        for i, r in enumerate(rows):
            if len(r) != n[i]:
                raise InputError(f"system {name!r}, fold {i}: {len(r)} sentences, {first!r} has {n[i]} (the systems "
                                 "must be scored on the same test sentences)", file, lines[name][i])
    tests = _per_fold_ids(data, "test_sentences", n, file, text)
    docs = _per_fold_ids(data, "documents", n, file, text)
    _check_design(tests, docs, file, text)
    clusters, unit = (docs, "documents") if docs is not None else (tests, "sentences")
    if clusters is None:
        if "related" in data:
            raise InputError('"related" names clusters: it needs "documents" or "test_sentences"', file,
                             _line_of(text, text.find('"related"')))
        return {"sentence_counts": sc}
    return {"sentence_counts": sc, "clusters": clusters, "cluster_unit": unit,
            "related": _related(data, clusters, unit, file, text)}


def _related(data: dict, clusters: list[list[Any]], unit: str, file: str, text: str) -> list[list[Any]] | None:
    """COUNTS.json's optional ``related`` pairs of cluster ids, checked; None when absent."""
    if "related" not in data:
        return None
    line = _line_of(text, text.find('"related"'))
    v = data["related"]
    known = {x for fold in clusters for x in fold}
    what = "documents" if unit == "documents" else "test_sentences"
    if not isinstance(v, list):
        raise InputError('"related" must be a list of pairs [id, id]', file, line)
    for i, pair in enumerate(v):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in pair)):
            raise InputError(f'"related"[{i}] must be a pair [id, id] of {what} ids, got {_show(pair)}', file, line)
        if pair[0] == pair[1]:
            raise InputError(f'"related"[{i}] pairs {_show(pair[0])} with itself', file, line)
        missing = [x for x in pair if x not in known]
        if missing:
            raise InputError(f'"related"[{i}]: {_show(missing[0])} is in no fold\'s "{what}"', file, line)
    return v


def _counts_json(path: str) -> FoldCounts:
    file = str(path)
    text = read_text(path, hint=JSON_HINT, limit=MAX_JSON_BYTES)
    data = loads_json(text, file)
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
    out, lines, raw = {}, {}, {}
    for name, folds in systems.items():
        at = _key(text, name)
        line = _line_of(text, at.start()) if at else None
        if not isinstance(folds, list):
            raise InputError(f"system {name!r}: expected a list of 2m = {2 * m} folds", file, line)
        if len(folds) != 2 * m:
            raise InputError(f"system {name!r}: expected 2m = {2 * m} folds for m = {m}, got {len(folds)}", file, line)
        pos = _element_positions(text, at.end()) if at else []
        flines = [_line_of(text, pos[i]) if i < len(pos) else line for i in range(2 * m)]
        rows = []
        for i, f in enumerate(folds):
            fline = flines[i]
            if not isinstance(f, dict):
                raise InputError(f'system {name!r}, fold {i}: expected {{"tp": .., "fp": .., "fn": ..}}', file, fline)
            missing = [k for k in ("tp", "fp", "fn") if k not in f]
            if missing:
                raise InputError(f"system {name!r}, fold {i}: missing key(s) {', '.join(missing)}", file, fline)
            rows.append({k: json_count(f[k], f"system {name!r}, fold {i}: "
                                               f"{k}", file, fline) for k in ("tp", "fp", "fn")})
        out[name], lines[name], raw[name] = rows, flines, folds
    extra = _sentence_parts(data, out, raw, lines, file, text)
    return FoldCounts(file, m, out, lines, out, None, {n: None for n in out}, None, **extra)


def read_counts_json(path: str) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read and validate COUNTS.json.

    Parameters
    ----------
    path : str

    Returns
    -------
    m : int
    systems : dict of str to list of dict
        System name to its 2m ``{"tp", "fp", "fn"}`` in fold order.

    Raises
    ------
    InputError
        ``FILE:LINE`` of the first problem.
    """
    c = _counts_json(path)
    return c.m, c.systems


def _tally(c: Any, where: str, file: str, no: int) -> Counts:
    if not isinstance(c, dict):
        raise InputError(f'missing "{where}"', file, no)
    missing = [k for k in ("tp", "fp", "fn") if k not in c]
    if missing:
        raise InputError(f"{where}: missing key(s) {', '.join(missing)}", file, no)
    return {k: json_count(c[k], f"{where}.{k}", file, no) for k in ("tp", "fp", "fn")}


def _folds_jsonl(path: str, chunk_type: str | None = None, per_type: bool = False) -> FoldCounts:
    file = str(path)
    want_types = per_type or chunk_type is not None
    found: dict[str, dict[tuple[int, int], tuple]] = {}
    for no, obj in read_fold_records(path):  # the one parser of the format (a torn last line is left out)
        system, split, direction = obj["system"], obj["split"], obj["direction"]
        counts = obj["counts"]
        if not isinstance(counts, dict):
            raise InputError('"counts" must be an object', file, no)
        overall = _tally(counts.get("overall"), "counts.overall", file, no)
        fold_types = None
        if want_types:
            raw_types = counts.get("types")
            if not isinstance(raw_types, dict):
                raise InputError('missing "counts.types"', file, no)
            fold_types = {t: _tally(c, f"counts.types.{t}", file, no) for t, c in raw_types.items()}
        spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else None
        prev = found.setdefault(system, {}).get((split, direction))
        if prev is not None and (prev[0] != overall or prev[1] != fold_types):
            raise InputError(f"system {system!r}, split {split}, direction {direction} recorded twice with different "
                             f"counts (first on line {prev[2]})", file, no)
        found[system][(split, direction)] = (overall, fold_types, no, spec)
    if len(found) < 2:
        have = sum(len(v) for v in found.values())
        raise InputError(f"need at least 2 systems to compare, got {len(found)}"
                         + (f" ({', '.join(found)}, {have} finished fold{'s' if have != 1 else ''}): is the run "
                            "unfinished? `textbcv compare ... --resume` finishes it" if found else ""), file)
    m = max(s for folds in found.values() for s, _d in folds) + 1
    flines: dict[str, list[int | None]] = {}
    overall_of: dict[str, list[Counts]] = {}
    types: dict[str, list[dict[str, Counts]]] | None = {} if want_types else None
    specs: dict[str, dict | None] = {}
    for system, folds in found.items():
        n_missing = 2 * m - len(folds)
        if n_missing:
            # (lazily: a corrupt "split" can make m huge)
            missing = [f"split {s} direction {d}" for s, d in
                       itertools.islice(((s, d) for s in range(m) for d in (0, 1) if (s, d) not in folds), 5)]
            raise InputError(f"system {system!r}: {n_missing} of 2m = {2 * m} folds missing "
                             f"({', '.join(missing[:4])}{', ...' if n_missing > 4 else ''})", file)
        ordered = [folds[(s, d)] for s in range(m) for d in (0, 1)]
        overall_of[system] = [f[0] for f in ordered]
        flines[system] = [f[2] for f in ordered]
        specs[system] = ordered[0][3]
        if types is not None:  # want_types
            types[system] = [f[1] for f in ordered]
    out: dict[str, list[Counts]]
    if chunk_type is not None:
        assert types is not None  # want_types: a chunk type was asked for
        present = sorted({t for tl in types.values() for f in tl for t in f})
        if chunk_type not in present:
            raise InputError(f"--type {chunk_type}: no chunk of type {chunk_type!r} in any fold "
                             f"(types: {', '.join(present) or 'none'})", file)
        zero = {"tp": 0, "fp": 0, "fn": 0}
        out = {n: [f.get(chunk_type, zero) for f in tl] for n, tl in types.items()}
    else:
        out = overall_of
    run_dir = Path(file).parent
    return FoldCounts(file, m, out, flines, overall_of, types, specs, run_dir, chunk_type)


def read_folds_jsonl(path: str, chunk_type: str | None = None) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read a folds.jsonl of ``textbcv compare`` (a torn last line is ignored).

    Parameters
    ----------
    path : str
    chunk_type : str, optional
        Return this chunk type's counts instead of the overall ones.

    Returns
    -------
    m : int
    systems : dict of str to list of dict
        System name to its 2m ``{"tp", "fp", "fn"}`` in fold order.

    Raises
    ------
    InputError
        For an invalid record, fewer than 2 systems or a missing fold.
    """
    c = _folds_jsonl(path, chunk_type)
    return c.m, c.systems


def read_input(path: str, chunk_type: str | None = None, per_type: bool = False) -> FoldCounts:
    """Read COUNTS.json, a folds.jsonl or a run directory.

    Parameters
    ----------
    path : str
    chunk_type : str, optional
        Use this chunk type's counts (fold files only).
    per_type : bool
        Also read per-type counts into ``types`` (fold files only).

    Returns
    -------
    FoldCounts

    Raises
    ------
    InputError
        Naming the file and line at fault.
    """
    p = Path(path)
    if p.is_dir():
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
    """Folds where a system's gold total TP + FN differs from the first system's.

    Parameters
    ----------
    data : FoldCounts

    Returns
    -------
    list of tuple
        ``(what, fold, first system, its gold, other system, its gold)``; ``what`` is ``""`` or ``" of type T"``.
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
    """Refuse systems scored on different gold, or with ``allow`` return a note.

    Parameters
    ----------
    data : FoldCounts
    allow : bool

    Returns
    -------
    list of str

    Raises
    ------
    InputError
        Without ``allow``, at the first fold whose gold totals differ.
    """
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


def check_report_counts(run: RunDir, report: dict) -> None:
    """Raise InputError unless ``report``'s fold counts equal those of the run's ``folds.jsonl``.

    Parameters
    ----------
    run : RunDir
    report : dict
        The parsed ``report.json``.
    """
    where = str(run.report_json)
    counts = report.get("fold_counts")
    if not isinstance(counts, dict) or not counts:
        raise InputError("no fold counts: not a report of this textbcv version", where)
    for name, folds in counts.items():
        if not isinstance(folds, list):
            raise InputError(f"fold_counts.{name} must be a list of folds", where)
        for i, f in enumerate(folds):
            if not isinstance(f, dict):
                raise InputError(f"fold_counts.{name}[{i}] must hold tp, fp and fn", where)
            for k in ("tp", "fp", "fn"):
                json_count(f.get(k), f"fold_counts.{name}[{i}].{k}", where)
    if not run.folds.is_file():
        return
    _, systems = read_folds_jsonl(str(run.folds))
    for name, folds in counts.items():
        have = [{k: int(f[k]) for k in ("tp", "fp", "fn")} for f in systems.get(name, [])[: len(folds)]]
        want = [{k: int(f[k]) for k in ("tp", "fp", "fn")} for f in folds]
        if have != want:
            raise InputError(f"its fold counts of {name!r} differ from folds.jsonl's (was report.json edited?); "
                             "the report is redrawn only from the run's own fold records", where)
