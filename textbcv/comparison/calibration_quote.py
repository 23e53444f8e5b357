"""The user's own calibration (``RUN/calibration/``, by ``textbcv calibrate``), as a run's report quotes it.

Only a calibration of the same corpus is quoted; see docs/calibrate.md, "Your report quotes it".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from textbcv._io import load_json
from textbcv.errors import InputError
from textbcv.report.calibration import QuotedCalibration

__all__ = ["CALIBRATION_FOLDER", "run_calibration", "quoted_calibration"]

#: the folder of a run folder that holds the user's calibration
CALIBRATION_FOLDER = "calibration"
#: the summary file ``textbcv calibrate`` writes, and its format tag
_SUMMARY = "calibration.json"
_FORMAT = "textbcv-calibration/1"


def run_calibration(run: str | os.PathLike, fingerprint: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The calibration a run's report quotes, from ``RUN/calibration/calibration.json``.

    Parameters
    ----------
    run : path
        The run folder.
    fingerprint : str or None
        The run's corpus fingerprint; None quotes no calibration.

    Returns
    -------
    (dict or None, str or None)
        The report's ``calibration`` block (rates as fractions), or None; and a warning when a calibration is there
        but not quoted.

    Examples
    --------
    >>> import tempfile
    >>> run_calibration(tempfile.mkdtemp(), "0" * 16)
    (None, None)
    """
    folder = Path(run) / CALIBRATION_FOLDER
    path = folder / _SUMMARY
    if not path.is_file():
        return None, None
    try:
        held = load_json(path)
    except InputError as e:
        return None, f"textbcv: warning: {path}: not read ({e.message}); the report quotes the project's evidence"
    if not isinstance(held, dict) or held.get("format") != _FORMAT or not isinstance(held.get("settings"), dict):
        return None, f"textbcv: warning: {path}: not a textbcv calibration; the report quotes the project's evidence"
    s = held["settings"]
    if fingerprint is None or s.get("corpus") != fingerprint:
        return None, (f"textbcv: warning: {folder}: a calibration of another corpus (fingerprint "
                      f"{s.get('corpus')}, the run's {fingerprint}); not quoted: the report quotes the project's "
                      "evidence")
    if s.get("design") == "fixed-split":  # measured one fixed split per data set, not the m×2 run this report is
        return None, (f"textbcv: warning: {folder}: a calibration of the fixed-split design (--design fixed), not of "
                      "this m×2 run's; not quoted: the report quotes the project's evidence")
    nulls = [{"system": x["system"], **{k: x[k] for k in ("calls", "calls_b", "calls_a")}}
             for x in held.get("nulls", []) if isinstance(x, dict) and x.get("calls", {}).get("n")]
    if not nulls:
        if not held.get("nulls") and held.get("close"):  # a close pair alone measures no false-call rate to quote
            return None, (f"textbcv: warning: {folder}: a calibration of a close pair only, without null pairs; the "
                          "report quotes the project's evidence")
        return None, f"textbcv: warning: {folder}: no finished data set yet; the report quotes the project's evidence"
    block = {"folder": CALIBRATION_FOLDER, "corpus_name": held.get("corpus_name", ""), "m": int(s["m"]),
             **({"design": "measured", "m_max": int(s["m_max"])} if s.get("design") == "measured" else {}),
             "threshold": float(s["threshold"]), "size": int(s["size"]), "seeds": list(s["seeds"]),
             "train_seeds": int((s.get("options") or {}).get("train_seeds") or 1),
             "proxy": bool(s.get("proxy")), "algorithm": (s.get("options") or {}).get("algorithm"),
             "nulls": nulls, "sentence": str(held.get("sentence", ""))}
    return block, None


def quoted_calibration(run: str | os.PathLike, fingerprint: str | None) -> QuotedCalibration | None:
    """:func:`run_calibration`'s block, its warning said on stderr.

    Parameters
    ----------
    run : path
        The run folder.
    fingerprint : str or None
        The run's corpus fingerprint.

    Returns
    -------
    QuotedCalibration or None
    """
    block, warning = run_calibration(run, fingerprint)
    if warning:
        print(warning, file=sys.stderr)
    return QuotedCalibration.from_dict(block)
