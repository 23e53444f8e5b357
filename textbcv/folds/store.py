"""The fold store: one JSON line per finished fold, appended atomically, resumable.

A killed process leaves at most a torn last line, dropped on opening. A completed run is rewritten in canonical
order, so a resumed run ends with the same file as an uninterrupted one, timings apart.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from textbcv._io import append_line, atomic_write
from textbcv.errors import InputError, warn
from textbcv.folds.foldfile import fold_line, read_fold_records
from textbcv.scoring.modes import sentence_mode_counts

__all__ = ["FoldStore", "fold_key", "records_in_mode", "any_fold_finished"]


def fold_key(record: dict) -> tuple[str, int, int]:
    """``(system, split, direction)`` of a fold record.

    Parameters
    ----------
    record : dict

    Returns
    -------
    tuple of (str, int, int)
    """
    return (record["system"], int(record["split"]), int(record["direction"]))


class FoldStore:
    """Finished folds of a run, kept in a JSON-lines file.

    Parameters
    ----------
    path : path
        The ``folds.jsonl`` file (created when missing).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "folds.jsonl")
    >>> st = FoldStore(p)
    >>> st.append({"system": "iob2", "split": 0, "direction": 1, "counts": {"overall": {"tp": 1, "fp": 0, "fn": 2}},
    ...            "run": {"seconds": 1.0}})
    >>> sorted(FoldStore(p).done)
    [('iob2', 0, 1)]
    """

    #: the matching mode the records score in: ``"strict"`` as stored, another for a view of :meth:`in_mode`
    mode: str = "strict"

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.records: dict[tuple[str, int, int], dict] = {}
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as f:
                torn = False
                if f.seek(0, os.SEEK_END) > 0:
                    f.seek(-1, os.SEEK_END)
                    torn = f.read(1) != b"\n"
        except OSError:
            torn = False
        try:
            records = read_fold_records(self.path, torn="truncate")  # a torn last line from a killed run: cut
        except InputError as e:
            raise InputError(f"not a fold record ({e.message}); delete the file or choose another {{out}}",
                             file=e.file, line=e.line, param="out") from None
        if torn:  # said once the rest has read (a file refused is left as it was)
            warn(f"{self.path}: its last line was cut short (a fold being written when the run stopped); it is "
                 "dropped and that fold is trained again")
        for _, rec in records:
            self.records[fold_key(rec)] = rec

    def in_mode(self, mode: str) -> FoldStore:
        """An in-memory view of the records as they score in matching ``mode`` (never written).

        Parameters
        ----------
        mode : {"strict", "exact", "partial", "type"}

        Returns
        -------
        FoldStore
            ``self`` for its own mode, else a new view.

        Raises
        ------
        ValueError
            When this store is already a view in another mode.
        """
        if mode == self.mode:
            return self
        if self.mode != "strict":
            raise ValueError(f"these folds are a view in mode {self.mode!r}; take the {mode!r} view of the stored "
                             "folds")
        view = FoldStore.__new__(FoldStore)
        view.path = self.path
        view.records = records_in_mode(self.records, mode)
        view.mode = mode
        return view

    @property
    def done(self) -> set[tuple[str, int, int]]:
        """Keys of the finished folds."""
        return set(self.records)

    def check_spec(self, system: str, spec: dict) -> None:
        """Refuse to mix folds made with other settings for the same system name.

        Parameters
        ----------
        system : str
        spec : dict

        Raises
        ------
        InputError
            When a stored fold of ``system`` has another spec.
        """
        spec = json.loads(json.dumps(spec))  # as it reads back from the file
        for (name, _, _), rec in self.records.items():
            if name == system and rec.get("spec") != spec:
                raise InputError(
                    f"folds of system {system!r} were made with other settings; "
                    "use another output directory or delete the file", file=str(self.path))

    def append(self, record: dict) -> None:
        """Add one finished fold (durable once this returns).

        Parameters
        ----------
        record : dict
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_line(self.path, fold_line(record))
        self.records[fold_key(record)] = record

    def ordered(self, systems: Sequence[str] | None = None) -> list[dict]:
        """Records sorted by system (as given, others after by name), split, direction.

        Parameters
        ----------
        systems : sequence of str, optional

        Returns
        -------
        list of dict
        """
        rank = {s: i for i, s in enumerate(systems)} if systems is not None else {}
        return sorted(self.records.values(),
                      key=lambda r: (rank.get(r["system"], len(rank)), r["system"], r["split"], r["direction"]))

    def finalize(self, systems: Sequence[str] | None = None) -> None:
        """Rewrite the file atomically in canonical order.

        Parameters
        ----------
        systems : sequence of str, optional
        """
        with atomic_write(self.path) as f:
            for rec in self.ordered(systems):
                f.write(fold_line(rec) + "\n")

    def counts(self, system: str, m: int) -> list[dict]:
        """The 2m overall counts of ``system`` in fold order.

        Parameters
        ----------
        system : str
        m : int

        Returns
        -------
        list of dict

        Raises
        ------
        KeyError
            When a fold of ``system`` is not in the store.
        """
        out = []
        for j in range(m):
            for k in (0, 1):
                rec = self.records.get((system, j, k))
                if rec is None:
                    raise KeyError(f"fold ({system}, split {j}, direction {k}) is not finished")
                out.append(rec["counts"]["overall"])
        return out


def records_in_mode(records: Mapping[tuple[str, int, int], dict], mode: str) -> dict[tuple[str, int, int], dict]:
    """Fold records as they score in matching ``mode`` (new records; ``strict`` returns them as they are).

    Outside strict, per-type, held-out and per-seed counts are left out, and ``partial`` counts are doubled.

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``.
    mode : {"strict", "exact", "partial", "type"}

    Returns
    -------
    dict

    Raises
    ------
    InputError
        When a record has no ``modes``.
    """
    if mode == "strict":
        return dict(records)
    scale = 2 if mode == "partial" else 1
    out = {}
    for key, rec in records.items():
        if "modes" not in rec or "sentence_counts" not in rec:
            raise InputError(f"fold {key}: no matching modes recorded (the record has no \"modes\"): only "
                             "the strict mode can be reported", param="mode")
        per = np.rint(scale * sentence_mode_counts(rec["sentence_counts"], rec["modes"], mode)).astype(np.int64)
        tp, fp, fn = (int(x) for x in per.sum(axis=0))
        new = {k: v for k, v in rec.items() if k not in ("seed_counts", "seed_sentence_counts", "heldout")}
        new["counts"] = {"overall": {"tp": tp, "fp": fp, "fn": fn}, "types": {}}
        new["sentence_counts"] = per.tolist()
        out[key] = new
    return out


def any_fold_finished(path: str | os.PathLike) -> bool:
    """Whether the fold store at ``path`` holds a finished fold; True when it cannot be read.

    Parameters
    ----------
    path : path

    Returns
    -------
    bool

    Examples
    --------
    >>> import tempfile
    >>> any_fold_finished(Path(tempfile.mkdtemp()) / "folds.jsonl")
    False
    """
    try:
        return bool(FoldStore(path).done)
    except Exception:
        return True
