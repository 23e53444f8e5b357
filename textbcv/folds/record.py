"""The fold record: what one system scored on one fold, as a typed value.

Examples
--------
>>> r = FoldRecord("iob2", 0, 1, {"overall": {"tp": 3, "fp": 1, "fn": 0}, "types": {}}, tokens=9, sentences=2,
...                sentence_counts=[[1, 1, 0], [2, 0, 0]], spec={"name": "iob2"}, run={"seconds": 0.1})
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
    """One system on one fold: its chunk counts on the test half and how they came about.

    Attributes
    ----------
    system : str
    split, direction : int
    counts : dict
        ``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``.
    tokens, sentences : int
        Size of the test half.
    sentence_counts : list or None
        ``[tp, fp, fn]`` of every test sentence, in test order.
    spec : dict
    seed_counts : dict or None
        Each training seed's overall counts (``counts`` are their sums).
    heldout : dict or None
        Per held-out file, the fold model's counts.
    run : dict
        Execution details only (timings, worker).
    seed_sentence_counts : dict or None
        Each seed's per-sentence counts.
    modes : dict or None
        Matching modes and error anatomy (:func:`textbcv.scoring.modes.mode_record`).
    type_sentence_counts : dict or None
        Per chunk type, ``[sentence index, tp, fp, fn]`` rows.
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
        """The ``folds.jsonl`` line, keys in a fixed order (optional keys only when present).

        Returns
        -------
        dict
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
        """Read a checked ``folds.jsonl`` line.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        FoldRecord
        """
        return cls(d["system"], int(d["split"]), int(d["direction"]), d["counts"], int(d.get("tokens", 0)),
                   int(d.get("sentences", 0)), d.get("sentence_counts"), d.get("spec") or {}, d.get("seed_counts"),
                   d.get("heldout"), d.get("run") or {}, d.get("seed_sentence_counts"), d.get("modes"),
                   d.get("type_sentence_counts"))
