"""The report's setup blocks as typed values: each writes its ``report.json`` block key for key and reads it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Stopping"]


@dataclass(frozen=True)
class Stopping:
    """How the report's m was reached: the ``stopping`` block of ``report.json``.

    Attributes
    ----------
    rule : str or None
        The stopping rule (``t-test``, ``bayes``, ``measured``); None for a fixed m.
    m_max : int or None
        The largest m a sequential run plans for; None for a fixed m.
    reason : str or None
        Why the run stopped at its m (``fixed m = 3``, ``stopped at m = 4: ...``); None when unknown.
    m_used : int or None
        The m of the report; None when unknown.
    folds_per_system : int or None
        2 · ``m_used``; None when unknown.
    m_start : int or None
        The m a sequential run started at; None for a fixed m and in reports written before it was recorded
        (written to ``report.json`` only when known, so fixed-m reports keep their block).

    Examples
    --------
    >>> s = Stopping.fixed(3)
    >>> s.to_dict()
    {'rule': None, 'm_max': None, 'reason': 'fixed m = 3', 'm_used': 3, 'folds_per_system': 6}
    >>> Stopping.from_dict(s.to_dict()) == s
    True
    >>> Stopping("measured", 7, "extended to m = M = 7", 7, 14, m_start=3).to_dict()["m_start"]
    3
    """

    rule: str | None
    m_max: int | None
    reason: str | None
    m_used: int | None
    folds_per_system: int | None
    m_start: int | None = None

    @classmethod
    def fixed(cls, m: int) -> Stopping:
        """The block of a run at a fixed ``m``.

        Parameters
        ----------
        m : int

        Returns
        -------
        Stopping

        Examples
        --------
        >>> Stopping.fixed(2).folds_per_system
        4
        """
        return cls(None, None, f"fixed m = {m}", m, 2 * m)

    def to_dict(self) -> dict:
        """The ``stopping`` block, in its keys' order (``m_start`` after ``m_max``, only when known).

        Returns
        -------
        dict
        """
        out: dict = {"rule": self.rule, "m_max": self.m_max}
        if self.m_start is not None:
            out["m_start"] = self.m_start
        out.update(reason=self.reason, m_used=self.m_used, folds_per_system=self.folds_per_system)
        return out

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> Stopping | None:
        """The block read back; None for none (an empty block is none too).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        Stopping or None

        Examples
        --------
        >>> Stopping.from_dict(None), Stopping.from_dict({"m_used": 2}).reason
        (None, None)
        """
        if not block:
            return None
        return cls(rule=block.get("rule"), m_max=block.get("m_max"), reason=block.get("reason"),
                   m_used=block.get("m_used"), folds_per_system=block.get("folds_per_system"),
                   m_start=block.get("m_start"))
