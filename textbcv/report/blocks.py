"""The report's setup blocks as typed values: each writes its ``report.json`` block key for key and reads it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Baseline", "Macro", "MacroPair", "MacroScore", "RunInfo", "SplitInfo", "Stopping"]


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
    >>> Stopping("measured", 7, "m = 3 could not decide: extended to m = 7", 7, 14, m_start=3).to_dict()["m_start"]
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


@dataclass(frozen=True)
class Baseline:
    """The most-frequent-tag memoriser on the report's folds: the ``baseline`` block of ``report.json``.

    Attributes
    ----------
    name : str
        How the report names it (``most frequent tag``).
    scheme : str
        The scheme it tags in (``iob2`` for NER, ``bmes`` for word segmentation).
    fold_counts : tuple of (int, int, int)
        Its ``(tp, fp, fn)`` on every fold, in fold order.
    f1 : float
        Its F1 of the counts pooled over the folds.

    Examples
    --------
    >>> b = Baseline("most frequent tag", "iob2", ((1, 0, 0), (1, 0, 1)), 0.8)
    >>> b.to_dict()["fold_counts"]
    [{'tp': 1, 'fp': 0, 'fn': 0}, {'tp': 1, 'fp': 0, 'fn': 1}]
    >>> Baseline.from_dict(b.to_dict()) == b
    True
    """

    name: str
    scheme: str
    fold_counts: tuple[tuple[int, int, int], ...]
    f1: float

    def to_dict(self) -> dict:
        """The ``baseline`` block: ``{"name", "scheme", "fold_counts", "f1"}``.

        Returns
        -------
        dict
        """
        return {"name": self.name, "scheme": self.scheme,
                "fold_counts": [{"tp": tp, "fp": fp, "fn": fn} for tp, fp, fn in self.fold_counts], "f1": self.f1}

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> Baseline | None:
        """The block read back; None for none (reports written before the baseline have none).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        Baseline or None

        Examples
        --------
        >>> Baseline.from_dict(None), Baseline.from_dict({})
        (None, None)
        """
        if not block:
            return None
        return cls(block.get("name", ""), block.get("scheme", ""),
                   tuple((c["tp"], c["fp"], c["fn"]) for c in block.get("fold_counts") or ()), block["f1"])


@dataclass(frozen=True)
class MacroScore:
    """One system's macro-F1 and its credible interval.

    Attributes
    ----------
    name : str
    estimate : float
    ci : (float, float)
    """

    name: str
    estimate: float
    ci: tuple[float, float]


@dataclass(frozen=True)
class MacroPair:
    """One pair's paired macro-F1 difference (B − A) and its decision.

    Attributes
    ----------
    a, b : str
    estimate : float
        B − A.
    ci : (float, float)
        At the block's level (secondary when the pair has a decisive interval).
    p_b_better : float
    decision : str
    decisive : (float, (float, float)) or None
        The level and interval the decision is made by (the one printed); None for a threshold of 0.5 or below.
    """

    a: str
    b: str
    estimate: float
    ci: tuple[float, float]
    p_b_better: float
    decision: str
    decisive: tuple[float, tuple[float, float]] | None = None

    def to_dict(self) -> dict:
        """The pair's entry of ``macro.pairs``: ``a``, ``b``, ``estimate``, ``decisive`` (when set), ``ci``, ...

        Returns
        -------
        dict
        """
        out: dict = {"a": self.a, "b": self.b, "estimate": self.estimate}
        if self.decisive is not None:
            out["decisive"] = {"level": self.decisive[0], "interval": list(self.decisive[1])}
        out.update(ci=list(self.ci), p_b_better=self.p_b_better, decision=self.decision)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MacroPair:
        """The pair read back from its entry.

        Parameters
        ----------
        d : mapping

        Returns
        -------
        MacroPair
        """
        dec = d.get("decisive")
        return cls(d["a"], d["b"], d["estimate"], (d["ci"][0], d["ci"][1]), d["p_b_better"], d["decision"],
                   None if dec is None else (dec["level"], (dec["interval"][0], dec["interval"][1])))


@dataclass(frozen=True)
class Macro:
    """Macro-F1 (NER): each system's mean F1 over the chunk types, each pair's paired difference.

    The ``macro`` block of ``report.json``.

    Attributes
    ----------
    types : tuple of str
        The types averaged.
    rare : tuple of (str, int)
        The types left out, with their fewest gold chunks in a fold.
    systems : tuple of MacroScore
        In input order.
    pairs : tuple of MacroPair
        A before b, input order.
    cluster_unit : str or None
        The clusters the pairing resamples; None when the block does not say.
    min_gold : int or None
        Gold chunks a type needs in every fold; None when the block does not say.
    level : float or None
        Of the systems' intervals and of the pairs' ``ci``; None when the block does not say (0.95).

    Examples
    --------
    >>> d = {"types": ["LOC", "PER"], "rare": {"MISC": 3}, "systems": {"A": {"estimate": 0.8, "ci": [0.7, 0.9]}},
    ...      "pairs": [{"a": "A", "b": "B", "estimate": 0.01, "decisive": {"level": 0.9, "interval": [0.0, 0.02]},
    ...                 "ci": [-0.01, 0.03], "p_b_better": 0.9, "decision": "no clear difference"}],
    ...      "cluster_unit": "sentences", "min_gold": 10, "level": 0.95}
    >>> Macro.from_dict(d).to_dict() == d
    True
    """

    types: tuple[str, ...]
    rare: tuple[tuple[str, int], ...]
    systems: tuple[MacroScore, ...]
    pairs: tuple[MacroPair, ...]
    cluster_unit: str | None = None
    min_gold: int | None = None
    level: float | None = None

    def to_dict(self) -> dict:
        """The ``macro`` block, in its keys' order (those the block does not say left out).

        Returns
        -------
        dict
        """
        out: dict = {"types": list(self.types), "rare": dict(self.rare),
                     "systems": {s.name: {"estimate": s.estimate, "ci": list(s.ci)} for s in self.systems},
                     "pairs": [p.to_dict() for p in self.pairs]}
        for key in ("cluster_unit", "min_gold", "level"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> Macro | None:
        """The block read back; None for none (strict-only older reports, other matching modes, word segmentation).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        Macro or None
        """
        if not block:
            return None
        return cls(tuple(block.get("types") or ()), tuple((block.get("rare") or {}).items()),
                   tuple(MacroScore(n, x["estimate"], (x["ci"][0], x["ci"][1]))
                         for n, x in (block.get("systems") or {}).items()),
                   tuple(MacroPair.from_dict(p) for p in block.get("pairs") or ()),
                   block.get("cluster_unit"), block.get("min_gold"), block.get("level"))


#: The keys of a ``run`` block of ``compare`` (trained here) and of ``evaluate`` (imported), in their order.
_RUN_KEYS = ("started", "seconds", "read_seconds", "split_seconds", "feature_seconds", "folds_trained",
             "folds_resumed", "jobs", "backend")
_IMPORTED_KEYS = ("started", "seconds", "read_seconds", "folds_imported")


@dataclass(frozen=True)
class RunInfo:
    """What the run cost: the ``run`` block of ``report.json``.

    A ``compare`` run trained its folds (``folds_trained``, ``folds_resumed``, ``jobs``, ``backend``, the split and
    feature times); an ``evaluate`` run imported them (``folds_imported``) and has only those four keys.

    Attributes
    ----------
    started : str
        Local start time, ``%Y-%m-%dT%H:%M:%S%z``.
    seconds, read_seconds : float
        Wall time of the run and of reading the corpus.
    split_seconds, feature_seconds : float or None
        Of splitting and of the features (``compare``).
    folds_trained, folds_resumed : int or None
        Folds of the report trained by this run and found finished in ``folds.jsonl`` (``compare``).
    jobs : int or None
    backend : str or None
    folds_imported : int or None
        Folds scored from outside predictions (``evaluate``); None for ``compare``.

    Examples
    --------
    >>> r = RunInfo("2026-01-01T00:00:00+0000", 2.5, 0.1, folds_imported=4)
    >>> r.to_dict()
    {'started': '2026-01-01T00:00:00+0000', 'seconds': 2.5, 'read_seconds': 0.1, 'folds_imported': 4}
    >>> RunInfo.from_dict(r.to_dict()) == r
    True
    """

    started: str | None
    seconds: float | None
    read_seconds: float | None
    split_seconds: float | None = None
    feature_seconds: float | None = None
    folds_trained: int | None = None
    folds_resumed: int | None = None
    jobs: int | None = None
    backend: str | None = None
    folds_imported: int | None = None

    @property
    def imported(self) -> bool:
        """Whether the folds were imported (``evaluate``) rather than trained."""
        return self.folds_imported is not None

    def to_dict(self) -> dict:
        """The ``run`` block: ``compare``'s nine keys, or ``evaluate``'s four.

        Returns
        -------
        dict
        """
        return {k: getattr(self, k) for k in (_IMPORTED_KEYS if self.imported else _RUN_KEYS)}

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> RunInfo | None:
        """The block read back; None for none (an empty block is none too).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        RunInfo or None

        Examples
        --------
        >>> RunInfo.from_dict({}), RunInfo.from_dict({"seconds": 1.0}).folds_trained
        (None, None)
        """
        if not block:
            return None
        return cls(**{k: block.get(k) for k in (*_RUN_KEYS, "folds_imported")})


@dataclass(frozen=True)
class SplitInfo:
    """What the splits kept whole and balanced: the ``split`` block of ``report.json``.

    Attributes
    ----------
    unit : str or None
        What a split's halves are made of (``sentence``, ``document``, ``file``).
    group_by : str or None
        The ``--group-by`` asked for (``auto`` chooses the unit).
    documents : int or None
        Documents of the corpus.
    balance : tuple of str or None
        The properties the halves balance; None when the block does not say (the options do).
    duplicates_together : bool or None
        Whether exact duplicate sentences share a half.
    notes : tuple of str
        One line per choice known to bend the estimate.

    Examples
    --------
    >>> s = SplitInfo("document", "auto", 12, ("label",), None, ("a note",))
    >>> s.to_dict()["balance"], SplitInfo.from_dict(s.to_dict()) == s
    (['label'], True)
    """

    unit: str | None
    group_by: str | None
    documents: int | None
    balance: tuple[str, ...] | None
    duplicates_together: bool | None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The ``split`` block: ``unit``, ``group_by``, ``documents``, ``balance``, ``duplicates_together``, ``notes``.

        Returns
        -------
        dict
        """
        return {"unit": self.unit, "group_by": self.group_by, "documents": self.documents,
                "balance": None if self.balance is None else list(self.balance),
                "duplicates_together": self.duplicates_together, "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, block: Mapping[str, Any] | None) -> SplitInfo | None:
        """The block read back; None for none (an empty block is none too).

        Parameters
        ----------
        block : mapping or None

        Returns
        -------
        SplitInfo or None

        Examples
        --------
        >>> SplitInfo.from_dict(None), SplitInfo.from_dict({"unit": "sentence"}).balance
        (None, None)
        """
        if not block:
            return None
        balance = block.get("balance")
        return cls(block.get("unit"), block.get("group_by"), block.get("documents"),
                   None if balance is None else tuple(balance), block.get("duplicates_together"),
                   tuple(block.get("notes") or ()))
