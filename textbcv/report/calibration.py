"""The user's own calibration a report quotes, as a typed value: the ``calibration`` block of ``report.json``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["CalledRate", "NullCalls", "QuotedCalibration"]


@dataclass(frozen=True)
class CalledRate:
    """``k`` calls of ``n`` data sets, with the rate's Wilson 95% interval.

    Attributes
    ----------
    k, n : int
    rate, lo, hi : float or None
        ``k / n`` and its interval; None when ``n`` is 0.
    """

    k: int
    n: int
    rate: float | None
    lo: float | None
    hi: float | None

    def to_dict(self) -> dict:
        """``{"k", "n", "rate", "lo", "hi"}``.

        Returns
        -------
        dict
        """
        return {"k": self.k, "n": self.n, "rate": self.rate, "lo": self.lo, "hi": self.hi}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalledRate:
        """The rate read back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        CalledRate
        """
        return cls(d.get("k", 0), d.get("n", 0), d.get("rate"), d.get("lo"), d.get("hi"))


@dataclass(frozen=True)
class NullCalls:
    """One system's null pair (the system against itself): how often either side, or each, was called better.

    Attributes
    ----------
    system : str
    calls, calls_b, calls_a : CalledRate
        Either side, the second side, the first side.
    """

    system: str
    calls: CalledRate
    calls_b: CalledRate
    calls_a: CalledRate

    def to_dict(self) -> dict:
        """The entry of ``calibration.nulls``.

        Returns
        -------
        dict
        """
        return {"system": self.system, "calls": self.calls.to_dict(), "calls_b": self.calls_b.to_dict(),
                "calls_a": self.calls_a.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> NullCalls:
        """The entry read back.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        NullCalls
        """
        return cls(d["system"], *(CalledRate.from_dict(d.get(k) or {}) for k in ("calls", "calls_b", "calls_a")))


@dataclass(frozen=True)
class QuotedCalibration:
    """The run's own ``textbcv calibrate`` of the same corpus, as its report quotes it.

    Attributes
    ----------
    folder : str
        The calibration's folder in the run (``calibration``).
    corpus_name : str
    m : int
        The first (measured design) or only (fixed design) m of the calibration.
    design : str or None
        ``measured``, or None for a fixed m.
    m_max : int or None
        The measured design's last m.
    threshold : float or None
        The calibration's threshold on P(better); None when the block does not say.
    size : int or None
        Sentences per data set; None when the block does not say.
    seeds : tuple of int
        The two sides' first training seeds.
    train_seeds : int or None
        Training seeds per side; None in blocks written before it (one).
    proxy : bool
    algorithm : str or None
    nulls : tuple of NullCalls
    sentence : str
        The sentence the decision rule quotes.

    Examples
    --------
    >>> r = {"k": 1, "n": 20, "rate": 0.05, "lo": 0.01, "hi": 0.24}
    >>> d = {"folder": "calibration", "corpus_name": "c", "m": 3, "design": "measured", "m_max": 7,
    ...      "threshold": 0.95, "size": 200, "seeds": [0, 1], "train_seeds": 1, "proxy": False,
    ...      "algorithm": None, "nulls": [{"system": "A", "calls": r, "calls_b": r, "calls_a": r}], "sentence": "s"}
    >>> QuotedCalibration.from_dict(d).to_dict() == d
    True
    """

    folder: str
    corpus_name: str
    m: int
    threshold: float | None
    size: int | None
    seeds: tuple[int, ...]
    train_seeds: int | None
    proxy: bool
    algorithm: str | None
    nulls: tuple[NullCalls, ...]
    sentence: str
    design: str | None = None
    m_max: int | None = None

    @property
    def seeds_per_side(self) -> int:
        """Training seeds per side (one when the block does not say)."""
        return 1 if self.train_seeds is None else int(self.train_seeds)

    def to_dict(self) -> dict:
        """The ``calibration`` block, in its keys' order (``design`` and ``m_max`` only for the measured design).

        Returns
        -------
        dict
        """
        out: dict = {"folder": self.folder, "corpus_name": self.corpus_name, "m": self.m}
        if self.design is not None:
            out.update(design=self.design, m_max=self.m_max)
        out.update(threshold=self.threshold, size=self.size, seeds=list(self.seeds))
        if self.train_seeds is not None:
            out["train_seeds"] = self.train_seeds
        out.update(proxy=self.proxy, algorithm=self.algorithm, nulls=[x.to_dict() for x in self.nulls],
                   sentence=self.sentence)
        return out

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> QuotedCalibration | None:
        """The block read back; None for none (the run's folder holds no calibration of its corpus).

        Parameters
        ----------
        block : mapping or None
            Needs ``m`` when not None or empty.

        Returns
        -------
        QuotedCalibration or None
        """
        if not block:
            return None
        return cls(block.get("folder", "calibration"), block.get("corpus_name", ""), block["m"],
                   block.get("threshold"), block.get("size"), tuple(block.get("seeds") or ()),
                   block.get("train_seeds"), bool(block.get("proxy")), block.get("algorithm"),
                   tuple(NullCalls.from_dict(x) for x in block.get("nulls") or ()), str(block.get("sentence", "")),
                   block.get("design"), block.get("m_max"))
