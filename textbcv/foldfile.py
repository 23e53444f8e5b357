"""The ``folds.jsonl`` format: one JSON fold record per line (reader and writer).

A record is an object with at least ``"system"`` (a string), ``"split"``
(an integer >= 0), ``"direction"`` (0 or 1) and ``"counts"``
(``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``, counts being
integers in [0, 10^15], ``3.0`` read as 3); :class:`textbcv.tagging.FoldStore`
adds the run's details. A
last line without its newline is a record torn by a killed process: it is
left out. ``textbcv compare`` writes the file and ``textbcv test`` reads
it; both read it here.

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

from textbcv._io import _show, dumps_json, load_json_lines
from textbcv.errors import InputError

__all__ = ["read_fold_records", "check_fold_record", "fold_line"]


def check_fold_record(obj: Any, file: str, line: int) -> dict:
    """``obj`` if it is a valid fold record; InputError at ``file:line`` saying what is wrong otherwise."""
    from textbcv.scoring import Tally

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
    return obj


def read_fold_records(path: str | os.PathLike, torn: str = "ignore") -> list[tuple[int, dict]]:
    """``(line number, record)`` of every fold record of a ``folds.jsonl`` file, each checked.

    Parameters
    ----------
    torn : {"ignore", "truncate"}
        What to do with a torn last line: leave it out, or also cut it from
        the file (a run that resumes writes after it).

    Raises
    ------
    InputError
        At FILE:LINE for invalid UTF-8, invalid JSON or an invalid record.
    """
    name = os.fspath(path)
    return [(no, check_fold_record(obj, name, no)) for no, obj in load_json_lines(path, torn=torn)]


def fold_line(record: dict) -> str:
    """One record as its line of ``folds.jsonl`` (without the newline)."""
    return dumps_json(record, indent=None)
