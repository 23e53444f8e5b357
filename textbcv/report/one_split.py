"""What one train/test split would claim, as a typed value: the ``one_split`` block of ``report.json``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["OneSplit", "OneSplitFold", "OneSplitPair"]


@dataclass(frozen=True)
class OneSplitFold:
    """A pair's two tests on one fold alone.

    Attributes
    ----------
    split, direction : int
    label : str
        ``S0 →`` (split 0, direction 0).
    sentences : int
        Test sentences of the fold.
    delta_f1 : float
        F1(B) − F1(A) on the fold.
    bootstrap_p, randomization_p : float or None
    """

    split: int
    direction: int
    label: str
    sentences: int
    delta_f1: float
    bootstrap_p: float | None
    randomization_p: float | None

    def to_dict(self) -> dict:
        """The fold's entry of a pair's ``folds``.

        Returns
        -------
        dict
        """
        return {"split": self.split, "direction": self.direction, "label": self.label, "sentences": self.sentences,
                "delta_f1": self.delta_f1, "bootstrap_p": self.bootstrap_p, "randomization_p": self.randomization_p}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OneSplitFold:
        """The entry read back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        OneSplitFold
        """
        return cls(d["split"], d["direction"], d["label"], d["sentences"], d["delta_f1"], d.get("bootstrap_p"),
                   d.get("randomization_p"))


@dataclass(frozen=True)
class OneSplitPair:
    """One pair's tests on the first fold, and on every fold alone.

    Attributes
    ----------
    a, b : str
    f1_a, f1_b, delta_f1 : float
        On the first fold (``delta_f1`` is B − A).
    bootstrap_p : float or None
        The paired bootstrap's p-value.
    bootstrap_ci : (float, float)
        Its interval of ΔF1.
    randomization_p : float or None
        Approximate randomization's p-value.
    folds : tuple of OneSplitFold
        In fold order.
    """

    a: str
    b: str
    f1_a: float
    f1_b: float
    delta_f1: float
    bootstrap_p: float | None
    bootstrap_ci: tuple[float, float]
    randomization_p: float | None
    folds: tuple[OneSplitFold, ...]

    def to_dict(self) -> dict:
        """The pair's entry of ``one_split.pairs``.

        Returns
        -------
        dict
        """
        return {"a": self.a, "b": self.b, "f1_a": self.f1_a, "f1_b": self.f1_b, "delta_f1": self.delta_f1,
                "bootstrap": {"p_value": self.bootstrap_p, "ci": list(self.bootstrap_ci)},
                "randomization": {"p_value": self.randomization_p}, "folds": [f.to_dict() for f in self.folds]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OneSplitPair:
        """The entry read back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        OneSplitPair
        """
        boot = d["bootstrap"]
        return cls(d["a"], d["b"], d["f1_a"], d["f1_b"], d["delta_f1"], boot.get("p_value"),
                   (boot["ci"][0], boot["ci"][1]),
                   (d.get("randomization") or {}).get("p_value"),
                   tuple(OneSplitFold.from_dict(f) for f in d.get("folds") or ()))


@dataclass(frozen=True)
class OneSplit:
    """What a single train/test split would claim: the paired tests of the first fold, and of every fold alone.

    Attributes
    ----------
    available : bool
        False when the folds cannot be tested alone (then only ``reason`` is set).
    reason : str or None
        Why not.
    fold : (int, int, str, str) or None
        The first fold: split, direction, label (``S0 →``) and id (``fold-0-0``).
    sentences, resamples, shuffles, seed : int or None
        The first fold's test sentences; the tests' resamples, shuffles and seed.
    alpha : float or None
        The level of the per-fold tests.
    pairs : tuple of OneSplitPair

    Examples
    --------
    >>> OneSplit.unavailable("no counts").to_dict()
    {'available': False, 'reason': 'no counts'}
    >>> f = OneSplitFold(0, 0, "S0 →", 40, 0.5, 0.001, 0.001)
    >>> o = OneSplit(True, None, (0, 0, "S0 →", "fold-0-0"), 40, 1000, 1000, 0, 0.05,
    ...              (OneSplitPair("A", "B", 0.5, 1.0, 0.5, 0.001, (0.3, 0.7), 0.001, (f,)),))
    >>> OneSplit.from_dict(o.to_dict()) == o, list(o.to_dict())[:3]
    (True, ['available', 'fold', 'sentences'])
    """

    available: bool
    reason: str | None = None
    fold: tuple[int, int, str, str] | None = None
    sentences: int | None = None
    resamples: int | None = None
    shuffles: int | None = None
    seed: int | None = None
    alpha: float | None = None
    pairs: tuple[OneSplitPair, ...] = ()

    @classmethod
    def unavailable(cls, reason: str) -> OneSplit:
        """The block of folds that cannot be tested alone.

        Parameters
        ----------
        reason : str

        Returns
        -------
        OneSplit
        """
        return cls(False, reason)

    def to_dict(self) -> dict:
        """The ``one_split`` block: ``{"available": False, "reason"}``, or the first fold's tests and every pair's.

        Returns
        -------
        dict
        """
        if not self.available:
            return {"available": False, "reason": self.reason}
        split, direction, label, fold_id = self.fold or (0, 0, "", "")
        return {"available": True, "fold": {"split": split, "direction": direction, "label": label, "id": fold_id},
                "sentences": self.sentences, "resamples": self.resamples, "shuffles": self.shuffles,
                "seed": self.seed, "alpha": self.alpha, "pairs": [p.to_dict() for p in self.pairs]}

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> OneSplit | None:
        """The block read back; None for none (reports written before it).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        OneSplit or None
        """
        if block is None:
            return None
        if not block.get("available"):
            return cls(False, block.get("reason"))
        f = block.get("fold") or {}
        return cls(True, None, (f.get("split", 0), f.get("direction", 0), f.get("label", ""), f.get("id", "")),
                   block.get("sentences"), block.get("resamples"), block.get("shuffles"), block.get("seed"),
                   block.get("alpha"), tuple(OneSplitPair.from_dict(p) for p in block.get("pairs") or ()))
