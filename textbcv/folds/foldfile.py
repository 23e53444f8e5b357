"""The ``folds.jsonl`` format: one JSON fold record per line (docs/formats.md, "folds.jsonl").

A last line without its newline is a record torn by a killed process and is left out.

Examples
--------
>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "folds.jsonl")
>>> rec = {"system": "iob2", "split": 0, "direction": 1, "counts": {"overall": {"tp": 3, "fp": 1, "fn": 0}}}
>>> _ = open(p, "w").write(fold_line(rec) + "\\n" + '{"system": "io')
>>> read_fold_records(p)
[(1, {'system': 'iob2', 'split': 0, 'direction': 1, 'counts': {'overall': {'tp': 3, 'fp': 1, 'fn': 0}}})]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from textbcv._io import MAX_COUNT, _show, cut_torn, dumps_json, load_json_lines
from textbcv.errors import InputError
from textbcv.scoring import Tally
from textbcv.scoring.modes import ANATOMY, KINDS, MODES

__all__ = ["read_fold_records", "check_fold_record", "check_sentence_counts", "fold_line"]


def check_fold_record(obj: Any, file: str, line: int) -> dict:
    """Return ``obj`` unchanged if it is a valid fold record.

    Parameters
    ----------
    obj : Any
    file : str
    line : int
        1-based, for the error.

    Returns
    -------
    dict

    Raises
    ------
    InputError
        At ``file:line``, saying what is wrong.
    """
    if not isinstance(obj, dict):
        raise InputError("expected one JSON object per line", file, line)
    for key in ("system", "split", "direction", "counts"):
        if key not in obj:
            raise InputError(f'missing key "{key}"', file, line)
    system, split, direction = obj["system"], obj["split"], obj["direction"]
    if not isinstance(system, str):
        raise InputError(f'"system" must be a string, got {_show(system)}', file, line)
    if isinstance(split, bool) or not isinstance(split, int) or split < 0:
        raise InputError(f'"split" must be an integer >= 0, got {_show(split)}', file, line)
    if isinstance(direction, bool) or direction not in (0, 1):
        raise InputError(f'"direction" must be 0 or 1, got {_show(direction)}', file, line)
    counts = obj["counts"]
    if not isinstance(counts, dict):
        raise InputError('"counts" must be an object', file, line)
    if not isinstance(counts.get("overall"), dict):
        raise InputError('missing "counts.overall"', file, line)
    types = counts.get("types", {})
    if not isinstance(types, dict):
        raise InputError('"counts.types" must be an object TYPE -> counts', file, line)
    try:
        Tally.from_dict(counts["overall"], "counts.overall")
        for t, c in types.items():
            Tally.from_dict(c, f"counts.types.{t}")
    except InputError as e:
        raise InputError(e.message, file, line) from None
    if "sentence_counts" in obj:
        total = check_sentence_counts(obj, file, line)
        if "seed_sentence_counts" in obj:
            _check_seed_sentence_counts(obj, total, file, line)
    elif "seed_sentence_counts" in obj:
        raise InputError('"seed_sentence_counts" without "sentence_counts" (their sum)', file, line)
    if "modes" in obj:
        _check_modes(obj, file, line)
    if "type_sentence_counts" in obj:
        _check_type_sentence_counts(obj, file, line)
    return obj


def _check_type_sentence_counts(obj: dict, file: str, line: int) -> None:
    """Check a record's ``"type_sentence_counts"`` against its ``counts.types``."""
    per = obj["type_sentence_counts"]
    n = obj.get("sentences")
    what = '"type_sentence_counts" must map each chunk type to rows [sentence, tp, fp, fn]'
    if not isinstance(per, dict):
        raise InputError(what, file, line)
    types = (obj.get("counts") or {}).get("types") or {}
    for t, rows in per.items():
        if not isinstance(rows, list) or not all(
                isinstance(r, list) and len(r) == 4 and all(isinstance(v, int) and v >= 0 for v in r) for r in rows):
            raise InputError(f"{what} (type {t!r})", file, line)
        if n is not None and any(r[0] >= n for r in rows):
            raise InputError(f'"type_sentence_counts": type {t!r} names a sentence beyond the {n} tested', file, line)
        got = [sum(r[k] for r in rows) for k in (1, 2, 3)]
        want = types.get(t)
        if want is not None and got != [want.get("tp", 0), want.get("fp", 0), want.get("fn", 0)]:
            raise InputError(f'"type_sentence_counts" of type {t!r} add up to {got}, not counts.types\' '
                             f'{[want.get("tp", 0), want.get("fp", 0), want.get("fn", 0)]}', file, line)


def _check_modes(obj: dict, file: str, line: int) -> None:
    """Check a record's ``"modes"``; strict's totals must add up to ``counts.overall``."""
    modes = obj["modes"]
    what = ('"modes" must hold "totals" (each of strict, exact, partial, type: five counts), "anatomy" (six) and '
            '"sentences"')

    def ints(x: object, n: int) -> bool:
        return isinstance(x, list) and len(x) == n and all(isinstance(v, int) and v >= 0 for v in x)

    if (not isinstance(modes, dict) or not isinstance(modes.get("totals"), dict)
            or not all(ints(modes["totals"].get(m), len(KINDS)) for m in MODES)
            or not ints(modes.get("anatomy"), len(ANATOMY)) or not isinstance(modes.get("sentences"), dict)
            or not all(ints(v, len(MODES) * len(KINDS) + len(ANATOMY)) for v in modes["sentences"].values())):
        raise InputError(what, file, line)
    cor, inc, _par, mis, spu = modes["totals"]["strict"]
    o = obj["counts"]["overall"]
    if (cor, cor + inc + spu, cor + inc + mis) != (o["tp"], o["tp"] + o["fp"], o["tp"] + o["fn"]):
        raise InputError('"modes": the strict totals do not add up to counts.overall', file, line)


def _check_seed_sentence_counts(obj: dict, total: np.ndarray, file: str, line: int) -> None:
    """Check each seed's per-sentence counts against its totals and their sum."""
    per = obj["seed_sentence_counts"]
    if not isinstance(per, dict) or len(per) < 2:
        raise InputError('"seed_sentence_counts" must map two seeds or more to their per-sentence counts', file, line)
    if set(per) != set(obj.get("seed_counts") or {}):
        raise InputError('"seed_sentence_counts" must hold the seeds of "seed_counts"', file, line)
    acc = np.zeros_like(total)
    for seed, rows in per.items():
        acc += check_sentence_counts({"counts": {"overall": obj["seed_counts"][seed]}, "sentences": len(total),
                                      "sentence_counts": rows}, file, line)
    if not np.array_equal(acc, total):
        raise InputError('"seed_sentence_counts" do not add up to "sentence_counts"', file, line)


def check_sentence_counts(obj: dict, file: str, line: int) -> np.ndarray:
    """A record's ``"sentence_counts"`` as an (n, 3) int64 array, checked against ``counts.overall``.

    Parameters
    ----------
    obj : dict
        A fold record (``"sentences"``, when present, is the expected row count).
    file : str
    line : int

    Returns
    -------
    numpy.ndarray of int64
        ``[tp, fp, fn]`` of every test sentence, in test order.

    Raises
    ------
    InputError
        For rows that are not three integers in [0, 10^15], or that do not add up.

    Examples
    --------
    >>> rec = {"counts": {"overall": {"tp": 3, "fp": 1, "fn": 0}}, "sentences": 2,
    ...        "sentence_counts": [[1, 1, 0], [1, 0, 0]]}
    >>> check_sentence_counts(rec, "folds.jsonl", 1)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: folds.jsonl:1: "sentence_counts" add up to tp 2, not counts.overall's 3
    """
    rows = obj["sentence_counts"]
    what = '"sentence_counts" must be a list of [tp, fp, fn], one per test sentence'
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 3 for r in rows):
        raise InputError(what, file, line)
    a = np.array(rows) if rows else np.zeros((0, 3), dtype=np.int64)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise InputError(f"sentence_counts[{i}][{j}] must be a non-negative integer, got {_show(rows[i][j])}",
                             file, line)
    elif a.dtype.kind != "i":
        raise InputError(what + " (integers)", file, line)
    bad = (a < 0) | (a > MAX_COUNT)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InputError(f"sentence_counts[{i}][{j}] must be an integer in [0, 10^15], got {_show(rows[i][j])}",
                         file, line)
    a = a.astype(np.int64)
    n = obj.get("sentences")
    if isinstance(n, int) and not isinstance(n, bool) and n != len(a):
        raise InputError(f'"sentence_counts" has {len(a)} sentences, "sentences" says {n}', file, line)
    overall = obj["counts"]["overall"]
    for k, name in enumerate(("tp", "fp", "fn")):
        total = int(a[:, k].sum())
        if total != int(overall[name]):
            raise InputError(f'"sentence_counts" add up to {name} {total}, not counts.overall\'s {int(overall[name])}',
                             file, line)
    return a


def read_fold_records(path: str | os.PathLike, torn: str = "ignore") -> list[tuple[int, dict]]:
    """``(line number, record)`` of every complete record of a ``folds.jsonl``, each checked.

    Parameters
    ----------
    path : str or path-like
    torn : {"ignore", "truncate"}
        Leave a torn last line out, or also cut it from the file.

    Returns
    -------
    list of tuple of (int, dict)

    Raises
    ------
    InputError
        At FILE:LINE for invalid UTF-8, JSON or record.
    """
    name = os.fspath(path)
    records = [(no, check_fold_record(obj, name, no)) for no, obj in load_json_lines(path)]
    if torn == "truncate":  # once every record has passed: a refused file is left as it was
        cut_torn(path)
    return records


def fold_line(record: dict) -> str:
    """One record as its compact JSON line (without the newline).

    Parameters
    ----------
    record : dict

    Returns
    -------
    str
    """
    return dumps_json(record, indent=None)
