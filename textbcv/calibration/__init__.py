"""Calibration on the user's own corpus: false calls on null pairs, and a close pair against its truth.

See docs/calibrate.md.
"""

from textbcv.calibration.study import Calibration, CalibrationSettings, calibrate
from textbcv.calibration.summary import CloseSummary, NullSummary, Rate

__all__ = ["calibrate", "Calibration", "CalibrationSettings", "NullSummary", "CloseSummary", "Rate"]
