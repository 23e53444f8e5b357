"""Calibration on the user's own corpus: the decision rule's false calls on null pairs, and a close pair's truth.

:func:`calibrate` (also ``textbcv calibrate``) draws data sets from a corpus and answers every
system's null pair — the system against itself with another training seed — exactly as
:func:`textbcv.compare` would, and optionally a close pair of the user's two systems against its truth
measured on the corpus outside each data set; :class:`Calibration` holds the calls each way with Wilson
intervals, the posterior's SD against the estimates' error, the close pair's coverage, and one sentence
per pair a paper can quote.
"""

from textbcv.calibration.study import Calibration, CalibrationSettings, calibrate
from textbcv.calibration.summary import CloseSummary, NullSummary, Rate

__all__ = ["calibrate", "Calibration", "CalibrationSettings", "NullSummary", "CloseSummary", "Rate"]
