"""The fold store: one JSON line per finished fold, appended atomically, resumable.

Each line is ``{"system", "split", "direction", "counts", "tokens",
"sentences", "spec", "run"}``; everything that depends on the run (timings,
worker) is under ``"run"``. A line is appended with one ``write`` on an
``O_APPEND`` descriptor and synced; a process killed mid-write can leave at
most a last line without its newline, which :class:`FoldStore` drops when it
opens the file. When a run completes, the store is rewritten in canonical
order (system, split, direction), so an interrupted and resumed run ends with
the same file as an uninterrupted one, timings apart.
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
        A fold record with ``system``, ``split`` and ``direction``.

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
        if torn:
            warn(f"{self.path}: its last line was cut short (a fold being written when the run stopped); it is "
                 "dropped and that fold is trained again")
        try:
            records = read_fold_records(self.path, torn="truncate")  # a torn last line from a killed run: cut
        except InputError as e:
            raise InputError(f"not a fold record ({e.message}); delete the file or choose another {{out}}",
                             file=e.file, line=e.line, param="out") from None
        for _, rec in records:
            self.records[fold_key(rec)] = rec

    def in_mode(self, mode: str) -> FoldStore:
        """This store's records as they score in matching ``mode`` (:func:`records_in_mode`), in memory: a view for
        the report, never written.

        Parameters
        ----------
        mode : {"strict", "exact", "partial", "type"}
            The matching mode.

        Returns
        -------
        FoldStore
            This store itself for its own mode (``"strict"`` as stored), else a new one with the same path.

        Raises
        ------
        ValueError
            When this store is already a view in another mode (its records were re-scored; re-scoring them again
            would count the mode twice).
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
            The system's name.
        spec : dict
            Its settings (JSON-serialisable), compared as they read back from JSON with each stored fold's ``spec``.

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
            A fold record (``system``, ``split``, ``direction``, ``counts``, ...); it replaces a stored record
            of the same fold in memory, while the file keeps both lines.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_line(self.path, fold_line(record))
        self.records[fold_key(record)] = record

    def ordered(self, systems: Sequence[str] | None = None) -> list[dict]:
        """Records in canonical order: systems as given (else by name), then split, direction.

        Parameters
        ----------
        systems : sequence of str, optional
            System names in the wanted order; systems not listed come after them, by name.

        Returns
        -------
        list of dict
            The stored records sorted by system, split, direction.
        """
        rank = {s: i for i, s in enumerate(systems)} if systems is not None else {}
        return sorted(self.records.values(),
                      key=lambda r: (rank.get(r["system"], len(rank)), r["system"], r["split"], r["direction"]))

    def finalize(self, systems: Sequence[str] | None = None) -> None:
        """Rewrite the file in canonical order (atomically).

        Parameters
        ----------
        systems : sequence of str, optional
            System order, as in :meth:`ordered`.
        """
        with atomic_write(self.path) as f:
            for rec in self.ordered(systems):
                f.write(fold_line(rec) + "\n")

    def counts(self, system: str, m: int) -> list[dict]:
        """The 2m overall counts of ``system`` in fold order, for :mod:`textbcv.stats`.

        Parameters
        ----------
        system : str
            The system's name.
        m : int
            Number of splits.

        Returns
        -------
        list of dict
            2m ``counts["overall"]`` dicts (``{"tp", "fp", "fn"}``), split 0 direction 0, split 0 direction 1, ...

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
    """Fold records as they score in matching ``mode`` (:mod:`textbcv.scoring.modes`): overall and per-sentence
    counts of the mode, from each record's ``modes``.

    ``strict`` returns the records as they are. In another mode the per-type counts, the held-out files' counts
    and the seeds' own counts (kept in strict only) are left out, and ``partial``'s half credits are counted as
    whole units of doubled counts (every ratio is unchanged; the clustered count factor, which measures the
    counts' own variance, too).

    Parameters
    ----------
    records : mapping
        Fold records by ``(system, split, direction)``, with ``sentence_counts`` and ``modes``.
    mode : {"strict", "exact", "partial", "type"}
        The matching mode.

    Returns
    -------
    dict
        New records (the originals are not changed).

    Raises
    ------
    InputError
        When a record has no ``modes`` (an optional key of a fold record: docs/formats.md).
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
    """Whether the fold store at ``path`` holds a finished fold; True when it cannot be read (then it is kept as it
    is, for the user to look at).

    Parameters
    ----------
    path : path
        The run's ``folds.jsonl``.

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
