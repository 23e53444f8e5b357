"""Calibration on the user's own corpus: the decision rule's false calls measured on null pairs.

:func:`calibrate` (also ``textbcv calibrate``) draws data sets from a corpus and answers every
system's null pair — the system against itself with another training seed — exactly as
:func:`textbcv.compare` would; :class:`Calibration` holds the calls each way with Wilson intervals,
the posterior's SD against the null estimates' spread, and one sentence a paper can quote.
"""

from textbcv.calibration.study import Calibration, CalibrationSettings, calibrate
from textbcv.calibration.summary import NullSummary, Rate

__all__ = ["calibrate", "Calibration", "CalibrationSettings", "NullSummary", "Rate"]
