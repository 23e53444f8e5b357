"""The error anatomy as a typed value: the ``anatomy`` block of ``report.json``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Anatomy", "AnatomyPair", "AnatomyShare", "AnatomySystem"]


@dataclass(frozen=True)
class AnatomyShare:
    """One error kind of a system: its count over the 2m folds, its share and the share's credible interval.

    Attributes
    ----------
    kind : str
        ``correct``, ``wrong type``, ``wrong boundary``, ``wrong both``, ``missed`` or ``spurious``.
    count : int
    share : float
        Of the gold chunks (``spurious``: of the predicted ones).
    ci : (float, float)
    """

    kind: str
    count: int
    share: float
    ci: tuple[float, float]


@dataclass(frozen=True)
class AnatomySystem:
    """One system's error anatomy.

    Attributes
    ----------
    name : str
    gold, predicted : int
        Gold and predicted chunks over the 2m folds.
    kinds : tuple of AnatomyShare
        In the order of :data:`textbcv.scoring.modes.ANATOMY`.
    """

    name: str
    gold: int
    predicted: int
    kinds: tuple[AnatomyShare, ...]

    def to_dict(self) -> dict:
        """The system's entry of ``anatomy.systems``: ``gold``, ``predicted``, ``counts``, ``shares``.

        Returns
        -------
        dict
        """
        return {"gold": self.gold, "predicted": self.predicted, "counts": {k.kind: k.count for k in self.kinds},
                "shares": {k.kind: {"share": k.share, "ci": list(k.ci)} for k in self.kinds}}

    @classmethod
    def from_dict(cls, name: str, d: Mapping[str, Any]) -> AnatomySystem:
        """The entry of ``name`` read back.

        Parameters
        ----------
        name : str
        d : mapping

        Returns
        -------
        AnatomySystem
        """
        shares = d.get("shares") or {}
        return cls(name, d["gold"], d["predicted"],
                   tuple(AnatomyShare(k, n, shares[k]["share"], (shares[k]["ci"][0], shares[k]["ci"][1]))
                         for k, n in (d.get("counts") or {}).items()))


@dataclass(frozen=True)
class AnatomyPair:
    """One pair's difference in one error kind's share (B − A), paired on the same test sentences.

    Attributes
    ----------
    a, b, kind : str
    estimate : float
    ci : (float, float)
    p_b_more : float
        P(B has the larger share).
    """

    a: str
    b: str
    kind: str
    estimate: float
    ci: tuple[float, float]
    p_b_more: float

    def to_dict(self) -> dict:
        """The pair's entry of ``anatomy.pairs``.

        Returns
        -------
        dict
        """
        return {"a": self.a, "b": self.b, "kind": self.kind, "estimate": self.estimate, "ci": list(self.ci),
                "p_b_more": self.p_b_more}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AnatomyPair:
        """The entry read back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        AnatomyPair
        """
        return cls(d["a"], d["b"], d["kind"], d["estimate"], (d["ci"][0], d["ci"][1]), d["p_b_more"])


@dataclass(frozen=True)
class Anatomy:
    """Every system's error kinds and every pair's differences in them (``anatomy`` in ``report.json``).

    Attributes
    ----------
    systems : tuple of AnatomySystem
        In input order.
    pairs : tuple of AnatomyPair
        Per pair (a before b) and kind.
    cluster_unit : str or None
        The clusters the intervals resample; None when the block does not say (sentences).
    level : float or None
        Of the intervals; None when the block does not say (0.95).

    Examples
    --------
    >>> d = {"systems": {"A": {"gold": 10, "predicted": 9, "counts": {"correct": 8, "missed": 2},
    ...                        "shares": {"correct": {"share": 0.8, "ci": [0.5, 0.9]},
    ...                                   "missed": {"share": 0.2, "ci": [0.1, 0.5]}}}},
    ...      "pairs": [], "cluster_unit": "sentences", "level": 0.95}
    >>> a = Anatomy.from_dict(d)
    >>> a.to_dict() == d, a.kinds
    (True, ['correct', 'missed'])
    """

    systems: tuple[AnatomySystem, ...]
    pairs: tuple[AnatomyPair, ...] = ()
    cluster_unit: str | None = None
    level: float | None = None

    @property
    def kinds(self) -> list[str]:
        """The error kinds, in the block's order (the first system's)."""
        return [k.kind for k in self.systems[0].kinds] if self.systems else []

    def to_dict(self) -> dict:
        """The ``anatomy`` block: ``systems``, ``pairs``, ``cluster_unit``, ``level`` (those it says).

        Returns
        -------
        dict
        """
        out: dict = {"systems": {s.name: s.to_dict() for s in self.systems}, "pairs": [p.to_dict() for p in self.pairs]}
        if self.cluster_unit is not None:
            out["cluster_unit"] = self.cluster_unit
        if self.level is not None:
            out["level"] = self.level
        return out

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> Anatomy | None:
        """The block read back; None for none (runs without per-sentence modes).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        Anatomy or None
        """
        if not block:
            return None
        return cls(tuple(AnatomySystem.from_dict(n, x) for n, x in (block.get("systems") or {}).items()),
                   tuple(AnatomyPair.from_dict(p) for p in block.get("pairs") or ()),
                   block.get("cluster_unit"), block.get("level"))
