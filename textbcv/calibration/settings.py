"""What a calibration measures: :class:`CalibrationSettings`, recorded in ``settings.json`` of its folder.

A resumed calibration must have the same settings (``reps`` may grow). The close pair's settings (``pair``,
``truth_halvings``, ``pair_options``) are left out of the record when there is no pair, so a folder written
before close pairs existed holds exactly the settings of the same calibration now.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

__all__ = ["CalibrationSettings"]


@dataclass(frozen=True)
class CalibrationSettings:
    """What a calibration measures; a resumed calibration must have the same (``reps`` may grow).

    Attributes
    ----------
    corpus : str
        Digest of the corpus's sentences (:func:`textbcv.corpus.fingerprint.corpus_digest`).
    sentences : int
        Sentences in the corpus.
    systems : tuple of str
        The systems whose null pairs are run (names as ``compare`` takes them, without ``@SEED``).
    seeds : tuple of int
        The two training seeds of every null pair (A is trained with the first, B with the second).
    reps, size, m, seed : int
        Data sets, sentences per data set, splits, and the seed of the draws and splits.
    threshold : float
        The decision rule's threshold (a call is P(better) ≥ threshold).
    options : dict
        Training options the null pairs give ``compare`` (task, algorithm, ...).
    proxy : bool
        True when the systems train deterministically and ``options["algorithm"]`` is the stochastic proxy.
    pair : tuple of str, optional
        The close pair (A, B) whose truth is measured; None: null pairs only.
    truth_halvings : int, optional
        Halvings of each data set the close pair's truth is trained on (None without a pair).
    pair_options : dict, optional
        Training options the close pair gives ``compare``: the user's, never the null pairs' proxy (None without
        a pair).

    Examples
    --------
    >>> s = CalibrationSettings("ab12", 3000, ("iob2",), (1, 2), 200, 1000, 3, 0, 0.95)
    >>> "pair" in s.to_dict()  # no close pair: its settings are not recorded
    False
    >>> CalibrationSettings.from_dict(s.to_dict()) == s
    True
    """

    corpus: str
    sentences: int
    systems: tuple[str, ...]
    seeds: tuple[int, int]
    reps: int
    size: int
    m: int
    seed: int
    threshold: float
    options: dict = field(default_factory=dict)
    proxy: bool = False
    pair: tuple[str, str] | None = None
    truth_halvings: int | None = None
    pair_options: dict | None = None

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values.

        Returns
        -------
        dict
            Every attribute; tuples as lists; without ``pair``, ``truth_halvings`` and ``pair_options`` when
            there is no pair.
        """
        d = asdict(self)
        d["systems"], d["seeds"] = list(self.systems), list(self.seeds)
        if self.pair is None:
            for k in ("pair", "truth_halvings", "pair_options"):
                del d[k]
        else:
            d["pair"] = list(self.pair)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalibrationSettings:
        """Read :meth:`to_dict` back (a folder of any textbcv version: the pair's settings may be absent).

        Parameters
        ----------
        d : mapping
            The ``settings`` of a ``settings.json``.

        Returns
        -------
        CalibrationSettings
        """
        d = dict(d)
        pair = d.get("pair")
        return cls(**{**d, "systems": tuple(d["systems"]), "seeds": tuple(d["seeds"]),
                      "pair": None if pair is None else (str(pair[0]), str(pair[1]))})
