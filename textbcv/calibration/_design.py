"""A calibration's design (the m of its comparisons, fixed or measured) and what its data sets are drawn on.

A calibration measures the design the user runs: ``compare`` without ``m`` runs the measured design (m = 3,
extended to m = 7 where a pair's models' noise is floored or its P(better) lies in MEASURED_BAND), with ``m`` the
fixed one. What the data sets are drawn and split on is recorded too, so a resumed folder never mixes units of
another draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textbcv.calibration.settings import CalibrationSettings
from textbcv.comparison.options import MEASURED_DESIGN
from textbcv.corpus import Corpus
from textbcv.errors import InputError
from textbcv.stats.sequential import MEASURED_BAND

#: the measured design's first and last m (those of ``compare`` without ``m``)
MEASURED_M_START = int(MEASURED_DESIGN["m_start"])
MEASURED_M_MAX = int(MEASURED_DESIGN["m_max"])
#: how the code decides what a data set is drawn and split on; bumped when that changes. 1 (never recorded):
#: before commit 8f6d238, each file of a corpus without document marks was a document of its own; 2: files are
#: documents only where the corpus marks documents (or with group_by="file")
DRAW = 2
#: the fixed-split design's draw: 3, every data set's null pair trains seeds of its own (:func:`data_set_seeds`)
DRAW_FIXED_SPLIT = 3


def data_set_seeds(settings: CalibrationSettings, r: int) -> tuple[int, int]:
    """The first seeds of A and B on data set ``r``: the settings' on every data set of an m×2 design; on the fixed
    split moved by 2K on each data set (K seeds a side), so that no seed set's luck is shared by all the data sets
    of a design whose only repetitions are its seeds."""
    if settings.design != "fixed-split":
        return settings.seeds
    k = int(settings.options.get("train_seeds") or 1)
    return settings.seeds[0] + 2 * k * r, settings.seeds[1] + 2 * k * r


def _design_options(settings: CalibrationSettings) -> dict[str, Any]:
    """The keywords ``compare`` answers a unit with: ``m`` (fixed), or the measured design's sequential run."""
    if settings.design == "measured":
        assert settings.m_max is not None  # calibrate records m_max with the measured design
        return {**MEASURED_DESIGN, "m_start": settings.m, "m_max": settings.m_max}
    return {"m": settings.m}


def _drawn_on(corpus: Corpus, group_by: str | None) -> str:
    """What the code draws data sets of: ``"files"``, ``"documents"`` or ``"sentences"`` (as draw.drawn_units)."""
    if group_by == "file":
        return "files"
    return "documents" if corpus.n_documents > 1 else "sentences"


def _legacy_agrees(corpus: Corpus, group_by: str | None) -> bool:
    """Whether a folder made before ``unit`` was recorded drew as the code does now (draw 1 and 2 agree)."""
    # draw 1 took each file of an unmarked corpus as a document; one file, marked documents or files asked for
    # (group_by="file", new with draw 2) draw alike
    return group_by == "file" or len(corpus.files) <= 1 or corpus.n_documents > 1


def _check_draw(theirs: dict, settings: CalibrationSettings, corpus: Corpus, path: Path) -> None:
    """Refuse a folder (its ``settings.json`` at ``path``) whose data sets were drawn on another unit or draw."""
    unit, draw = theirs.get("unit"), theirs.get("draw")
    if unit is None and draw is None:
        if not _legacy_agrees(corpus, settings.options.get("group_by")):
            raise InputError("its data sets were drawn when each file was taken as a document (the corpus marks "
                             f"no documents; the code now draws {settings.unit}): units of another draw would be "
                             "mixed; start a new folder", str(path))
        return
    if (unit, draw) != (settings.unit, settings.draw):
        raise InputError(f"its data sets were drawn on {unit} (draw {draw}), the code now draws them on "
                         f"{settings.unit} (draw {settings.draw}): units of another draw would be mixed; start a "
                         "new folder", str(path))


def _design_words(settings: CalibrationSettings, ms: dict[str, int] | None) -> str:
    """The design as the sentence to quote says it, from the data sets per m reached (``ms``, a summary's):
    ``at m = 3 (6 folds per system)``, or the measured design's reach and mean folds per system."""
    if settings.design == "fixed-split":
        k = int(settings.options.get("train_seeds") or 1)
        return (f"through one fixed split of each data set ({100 * (settings.test_share or 0):g}% of it as the test "
                f"set, {k} training seeds per side)")
    if settings.design != "measured":
        return f"at m = {settings.m} ({2 * settings.m} folds per system)"
    n = sum((ms or {}).values())
    extended = sum(k for m, k in (ms or {}).items() if int(m) > settings.m)
    mean = f", {_mean_folds(ms):.2f} folds per system on average" if n else ""
    lo, hi = MEASURED_BAND
    return (f"with textbcv's measured design (m = {settings.m}, or m = {settings.m_max} where the models' noise was "
            f"floored or P(better) lay in [{lo:.2f}, {hi:.2f}): m = {settings.m_max} on {extended} of {n} data "
            f"sets{mean})")


def _mean_folds(ms: dict[str, int] | None) -> float | None:
    """Mean folds trained per system (2m) over data sets counted per m reached; None without any."""
    n = sum((ms or {}).values())
    return sum(2 * int(m) * k for m, k in (ms or {}).items()) / n if n else None
