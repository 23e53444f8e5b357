"""The RESULTS.md section on almost stochastic order's null calls is what scripts/aso_null_rate.py computes.

Reruns the script's count on one committed calibration folder (200 null data sets, no training) and finds
its row in docs/RESULTS.md, so the committed figures are the report's ASO section on the committed units.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import aso_null_rate  # noqa: E402

from textbcv import defaults  # noqa: E402
from textbcv.calibration.summary import rate  # noqa: E402


def test_the_committed_row_is_the_rerun():
    c = aso_null_rate.calls(ROOT / "docs" / "calibrate" / "conll2003_en-seeds2" / "units.jsonl")
    n = c["n"]
    assert n == 200 and c["aso"]["A"] + c["aso"]["B"] <= n
    row = (f"| conll2003_en-seeds2 | {n} | {rate(c['aso']['B'], n).words()} | {rate(c['aso']['A'], n).words()} "
           f"| {rate(c['bayes']['B'], n).words()} | {rate(c['bayes']['A'], n).words()} |")
    assert row in (ROOT / "docs" / "RESULTS.md").read_text(encoding="utf-8").splitlines()
    quoted = defaults.evidence()["aso_null"]["conll2003_en-seeds2"]  # what the report's ASO section quotes
    assert (quoted["R"], quoted["calls_a"]["k"], quoted["calls_b"]["k"]) == (n, c["aso"]["A"], c["aso"]["B"])
