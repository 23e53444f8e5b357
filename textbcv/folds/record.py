"""The fold record: what one system scored on one fold, as a typed value (:class:`FoldRecord`).

The tagging runner (textbcv's own taggers) and the import of predictions made elsewhere both build a
:class:`FoldRecord`; :meth:`FoldRecord.to_dict` is the line of ``folds.jsonl`` (``docs/formats.md``), key
for key in one order, and :meth:`FoldRecord.from_dict` reads it back.

Examples
--------
>>> r = FoldRecord("iob2", 0, 1, {"overall": {"tp": 3, "fp": 1, "fn": 0}, "types": {}}, tokens=9, sentences=2,
...                sentence_counts=[[1, 1, 0], [2, 0, 0]], spec={"name": "iob2"}, run={"seconds": 0.1})
>>> list(r.to_dict())
['system', 'split', 'direction', 'counts', 'tokens', 'sentences', 'sentence_counts', 'spec', 'run']
>>> FoldRecord.from_dict(r.to_dict()) == r
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FoldRecord"]


@dataclass(frozen=True)
class FoldRecord:
    """One system on one fold (split, direction): its chunk counts on the test half and how they came about.

    Attributes
    ----------
    system : str
        The system's name.
    split, direction : int
        0-based split index, and 0 or 1 for which half is the test half.
    counts : dict
        ``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``.
    tokens, sentences : int
        Size of the test half.
    sentence_counts : list or None
        ``[tp, fp, fn]`` of every test sentence, in test order (None for records of old runs).
    spec : dict
        The system's settings.
    seed_counts : dict or None
        Several training seeds: each seed's overall counts (``counts`` are their sums).
    heldout : dict or None
        Per held-out file, the fold model's counts and per-sentence counts.
    run : dict
        What depends on the execution only (timings, worker, the files read).
    seed_sentence_counts : dict or None
        Several training seeds: each seed's ``[tp, fp, fn]`` per test sentence (``sentence_counts`` are their
        sums), from which the seeds' part of a difference is measured on its own.
    modes : dict or None
        The matching modes and the error anatomy of the fold (:func:`textbcv.scoring.modes.mode_record`):
        totals, and the sentences whose outcome their conlleval counts do not imply (None for old runs).
    type_sentence_counts : dict or None
        Per chunk type, ``[sentence index, tp, fp, fn]`` of the test sentences where it has a chunk
        (:func:`textbcv.scoring.type_sentence_counts`), for macro-F1's paired posterior (None for old runs).
    """

    system: str
    split: int
    direction: int
    counts: dict
    tokens: int
    sentences: int
    sentence_counts: list | None = None
    spec: dict = field(default_factory=dict)
    seed_counts: dict | None = None
    heldout: dict | None = None
    run: dict = field(default_factory=dict)
    seed_sentence_counts: dict | None = None
    modes: dict | None = None
    type_sentence_counts: dict | None = None

    def to_dict(self) -> dict:
        """The ``folds.jsonl`` line (optional keys only when present).

        Returns
        -------
        dict
            Keys in the order ``system, split, direction, counts, tokens, sentences, [sentence_counts], spec,
            [seed_counts], [seed_sentence_counts], [modes], [heldout], run``; integers as Python ints.
        """
        out: dict[str, Any] = {"system": self.system, "split": int(self.split), "direction": int(self.direction),
                               "counts": self.counts, "tokens": int(self.tokens), "sentences": int(self.sentences)}
        if self.sentence_counts is not None:
            out["sentence_counts"] = self.sentence_counts
        out["spec"] = self.spec
        if self.seed_counts is not None:
            out["seed_counts"] = self.seed_counts
        if self.seed_sentence_counts is not None:
            out["seed_sentence_counts"] = self.seed_sentence_counts
        if self.modes is not None:
            out["modes"] = self.modes
        if self.type_sentence_counts is not None:
            out["type_sentence_counts"] = self.type_sentence_counts
        if self.heldout is not None:
            out["heldout"] = self.heldout
        out["run"] = self.run
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FoldRecord:
        """Read a ``folds.jsonl`` line (as :func:`textbcv.folds.foldfile.check_fold_record` checked it).

        Parameters
        ----------
        d : mapping
            A fold record; ``tokens`` and ``sentences`` default to 0, ``spec`` and ``run`` to ``{}``,
            the other optional keys to None.

        Returns
        -------
        FoldRecord
        """
        return cls(d["system"], int(d["split"]), int(d["direction"]), d["counts"], int(d.get("tokens", 0)),
                   int(d.get("sentences", 0)), d.get("sentence_counts"), d.get("spec") or {}, d.get("seed_counts"),
                   d.get("heldout"), d.get("run") or {}, d.get("seed_sentence_counts"), d.get("modes"),
                   d.get("type_sentence_counts"))
