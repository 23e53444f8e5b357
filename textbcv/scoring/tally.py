"""Chunk counts as values: :class:`Tally`, :class:`ChunkCounts` (per type and overall) and :class:`TagScore`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from textbcv._io import json_count
from textbcv.errors import InputError
from textbcv.stats.metrics import metric_parts

__all__ = ["Tally", "ChunkCounts", "TagScore"]


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


@dataclass(frozen=True)
class Tally:
    """True positives, false positives and false negatives of one chunk type (or all).

    Parameters
    ----------
    tp, fp, fn : int
        True positives, false positives, false negatives (default 0).

    Examples
    --------
    >>> t = Tally(3, 1, 2) + Tally(1, 0, 0)
    >>> t, t.precision, round(t.f1, 4)
    (Tally(tp=4, fp=1, fn=2), 0.8, 0.7273)
    """

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def n_gold(self) -> int:
        """Gold chunks (tp + fn)."""
        return self.tp + self.fn

    @property
    def n_pred(self) -> int:
        """Predicted chunks (tp + fp)."""
        return self.tp + self.fp

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 0 when nothing was predicted."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["precision"])

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 0 when there is no gold chunk."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["recall"])

    @property
    def f1(self) -> float:
        """2 tp / (2 tp + fp + fn); 0 when undefined."""
        return _ratio(*metric_parts(self.tp, self.fp, self.fn)["f1"])

    def to_dict(self) -> dict[str, int]:
        """``{"tp": .., "fp": .., "fn": ..}``.

        Returns
        -------
        dict of str to int
        """
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn}

    def to_score_dict(self) -> dict[str, float]:
        """Counts plus precision, recall and f1 (fractions in [0, 1]).

        Returns
        -------
        dict
        """
        return {**self.to_dict(), "precision": self.precision, "recall": self.recall, "f1": self.f1}

    @classmethod
    def from_dict(cls, d: Mapping, where: str = "counts") -> "Tally":
        """Read ``{"tp": .., "fp": .., "fn": ..}``: integers in [0, 10^15] (``3.0`` is read as 3); other keys ignored.

        Parameters
        ----------
        d : mapping
            An object with the keys ``tp``, ``fp`` and ``fn``.
        where : str
            Where ``d`` sits in its file, for error messages.

        Returns
        -------
        Tally

        Raises
        ------
        InputError
            When ``d`` is not a mapping, a key is missing, or a count is not an integer in [0, 10^15].

        Examples
        --------
        >>> Tally.from_dict({"tp": 3.0, "fp": 1, "fn": 0})
        Tally(tp=3, fp=1, fn=0)
        """
        if not isinstance(d, Mapping):
            raise InputError(f"{where}: expected an object with tp, fp, fn")
        missing = [k for k in ("tp", "fp", "fn") if k not in d]
        if missing:
            raise InputError(f"{where}: missing key(s) {', '.join(missing)}")
        return cls(*(json_count(d[k], f"{where}.{k}") for k in ("tp", "fp", "fn")))


class ChunkCounts:
    """Per-type and overall chunk counts; ``+`` pools them (e.g. over folds).

    Parameters
    ----------
    types : mapping of str to Tally or (tp, fp, fn), optional
        Counts per chunk type (``""`` for untyped chunks); stored in ASCII order of type.
    overall : Tally, optional
        Defaults to the sum over ``types``.

    Examples
    --------
    >>> c = ChunkCounts({"PER": (2, 1, 0)}) + ChunkCounts({"LOC": (1, 0, 1), "PER": (1, 0, 0)})
    >>> c.overall, round(c.f1, 4), round(c.macro_f1, 4)
    (Tally(tp=4, fp=1, fn=1), 0.8, 0.7619)
    """

    __slots__ = ("types", "overall")

    def __init__(self, types: Mapping[str, Tally | tuple[int, int, int]] | None = None, overall: Tally | None = None):
        t = {k: (v if isinstance(v, Tally) else Tally(*v)) for k, v in sorted((types or {}).items())}
        self.types: dict[str, Tally] = t
        if overall is None:
            overall = sum(t.values(), Tally())
        self.overall: Tally = overall

    def __add__(self, other: "ChunkCounts") -> "ChunkCounts":
        if not isinstance(other, ChunkCounts):
            return NotImplemented
        types = dict(self.types)
        for k, v in other.types.items():
            types[k] = types.get(k, Tally()) + v
        return ChunkCounts(types, self.overall + other.overall)

    def __radd__(self, other):  # sum() starts from 0
        if other == 0:
            return self
        return NotImplemented

    def __eq__(self, other) -> bool:
        return isinstance(other, ChunkCounts) and self.types == other.types and self.overall == other.overall

    def __repr__(self) -> str:
        return f"ChunkCounts({self.to_dict()!r})"

    @property
    def precision(self) -> float:
        """Micro-averaged (overall) precision."""
        return self.overall.precision

    @property
    def recall(self) -> float:
        """Micro-averaged (overall) recall."""
        return self.overall.recall

    @property
    def f1(self) -> float:
        """Micro-averaged (overall) F1."""
        return self.overall.f1

    def _macro(self, attr: str) -> float:
        if not self.types:
            return 0.0
        return float(np.mean([getattr(v, attr) for v in self.types.values()]))

    @property
    def macro_precision(self) -> float:
        """Unweighted mean of the per-type precisions."""
        return self._macro("precision")

    @property
    def macro_recall(self) -> float:
        """Unweighted mean of the per-type recalls."""
        return self._macro("recall")

    @property
    def macro_f1(self) -> float:
        """Unweighted mean of the per-type F1 scores (as seqeval's macro avg)."""
        return self._macro("f1")

    def to_dict(self) -> dict:
        """``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``, types in ASCII order.

        Returns
        -------
        dict
        """
        return {"overall": self.overall.to_dict(), "types": {k: v.to_dict() for k, v in self.types.items()}}

    @classmethod
    def from_dict(cls, d: Mapping) -> "ChunkCounts":
        """Inverse of :meth:`to_dict`; ``types`` may be missing or empty.

        Parameters
        ----------
        d : mapping
            ``{"overall": {"tp", "fp", "fn"}, "types": {TYPE: {...}}}``.

        Returns
        -------
        ChunkCounts

        Raises
        ------
        InputError
            When ``overall`` is missing, a count is malformed, or non-empty ``types`` do not add up to ``overall``.
        """
        if not isinstance(d, Mapping) or "overall" not in d:
            raise InputError("counts: expected an object with 'overall' (and 'types')")
        overall = Tally.from_dict(d["overall"], "counts.overall")
        raw = d.get("types", {}) or {}
        if not isinstance(raw, Mapping):
            raise InputError("counts.types: expected an object TYPE -> counts")
        types = {str(k): Tally.from_dict(v, f"counts.types.{k}") for k, v in raw.items()}
        if types and sum(types.values(), Tally()) != overall:
            raise InputError("counts: 'overall' is not the sum of 'types'")
        return cls(types, overall)


@dataclass(frozen=True)
class TagScore:
    """Chunk counts plus token accuracy of one comparison of tag sequences.

    Parameters
    ----------
    counts : ChunkCounts
        Chunk counts, per type and overall.
    tokens : int
        Tokens scored (boundary lines excluded).
    correct_tags : int
        Tokens whose predicted tag equals the gold tag.

    Examples
    --------
    >>> from textbcv.scoring import score_tags
    >>> s = score_tags([["B-X", "O"]], [["B-X", "B-X"]])
    >>> s.tokens, s.correct_tags, s.accuracy
    (2, 1, 0.5)
    """

    counts: ChunkCounts
    tokens: int
    correct_tags: int

    @property
    def accuracy(self) -> float:
        """Fraction of tokens whose predicted tag equals the gold tag."""
        return _ratio(self.correct_tags, self.tokens)

    @property
    def precision(self) -> float:
        """Micro-averaged (overall) chunk precision."""
        return self.counts.precision

    @property
    def recall(self) -> float:
        """Micro-averaged (overall) chunk recall."""
        return self.counts.recall

    @property
    def f1(self) -> float:
        """Micro-averaged (overall) chunk F1."""
        return self.counts.f1

    def __add__(self, other: "TagScore") -> "TagScore":
        return TagScore(self.counts + other.counts, self.tokens + other.tokens, self.correct_tags + other.correct_tags)

    def to_dict(self) -> dict:
        """The ``textbcv score --json`` object (docs/formats.md); rates are fractions in [0, 1].

        Returns
        -------
        dict
            ``tokens``, ``accuracy``, ``overall``, per-type ``types`` and ``macro``.
        """
        c = self.counts
        return {
            "tokens": self.tokens,
            "accuracy": self.accuracy,
            "overall": c.overall.to_score_dict(),
            "types": {k: v.to_score_dict() for k, v in c.types.items()},
            "macro": {"precision": c.macro_precision, "recall": c.macro_recall, "f1": c.macro_f1},
        }
