"""What a calibration measures (:class:`CalibrationSettings`), recorded in ``settings.json`` of its folder."""

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
        Digest of the corpus's sentences.
    sentences : int
    systems : tuple of str
        The systems whose null pairs are run (without ``@SEED``).
    seeds : tuple of int
        The training seeds of A and B in every null pair.
    reps, size, m, seed : int
        Data sets, sentences per data set, splits (with ``design="measured"``, the first m), and the seed of the
        draws and splits.
    threshold : float
        A call is P(better) ≥ threshold.
    options : dict
        Training options the null pairs give ``compare``.
    proxy : bool
        True when ``options["algorithm"]`` is a stochastic proxy for deterministic systems.
    pair : tuple of str, optional
        The close pair (A, B) whose truth is measured; None: null pairs only.
    truth_halvings : int, optional
        Halvings of each data set the close pair's truth is trained on.
    pair_options : dict, optional
        The close pair's training options (the user's, never the proxy).
    own_systems : dict, optional
        The systems among ``systems`` given as values (command systems, tagger factories): name → the system's spec
        (a command's line, fold-file format and scheme; a tagger's class or function); None: CRF systems only.
    design : {"fixed", "measured", "fixed-split"}
        ``"fixed"``: every comparison at ``m``; ``"measured"``: as ``compare`` runs without ``m``, from ``m`` on,
        extended (nested) to ``m_max`` where a pair's models' noise is floored or its P(better) lies in
        ``stats.sequential.MEASURED_BAND``. Settings without it (made before) are the fixed design at their ``m``.
        ``"fixed-split"``: each data set cut once into a training and a test set (``test_share`` of its
        sentences, whole documents), answered as ``compare --train/--test`` answers (``m`` 1).
    m_max : int, optional
        The measured design's last m; None with the fixed design.
    unit : {"documents", "files", "sentences"}, optional
        What the data sets were drawn and split on, as the code decided it; None: not recorded (made before).
    draw : int, optional
        The version of how the code decides ``unit`` (bumped when that changes); None: not recorded.
    test_share : float, optional
        The fixed-split design's share of test sentences; None for the m×2 designs.

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
    own_systems: dict | None = None
    design: str = "fixed"
    m_max: int | None = None
    unit: str | None = None
    draw: int | None = None
    test_share: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values (the pair's three settings only with a pair; ``m_max``, ``unit`` and
        ``draw`` only where set).

        Returns
        -------
        dict
        """
        d = asdict(self)
        d["systems"], d["seeds"] = list(self.systems), list(self.seeds)
        # the same options in any order write the same bytes
        d["options"] = dict(sorted(self.options.items()))
        if self.pair_options is not None:
            d["pair_options"] = dict(sorted(self.pair_options.items()))
        if self.pair is None:
            for k in ("pair", "truth_halvings", "pair_options"):
                del d[k]
        else:
            d["pair"] = list(self.pair)
        if self.own_systems is None:  # CRF systems only: as the settings of calibrations made before own systems
            del d["own_systems"]
        for k in ("m_max", "unit", "draw", "test_share"):  # not set: as the settings made before them
            if d[k] is None:
                del d[k]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CalibrationSettings:
        """Read :meth:`to_dict` back (the pair's settings may be absent).

        Parameters
        ----------
        d : mapping

        Returns
        -------
        CalibrationSettings
        """
        d = dict(d)
        pair = d.get("pair")
        return cls(**{**d, "systems": tuple(d["systems"]), "seeds": tuple(d["seeds"]),
                      "pair": None if pair is None else (str(pair[0]), str(pair[1]))})
