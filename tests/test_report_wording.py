"""Words a reader could misread: a large held-out gap is explained, and the held-out table's shares are shares."""

from __future__ import annotations

import json
from pathlib import Path

from textbcv.report.md_breakdown import heldout_markdown
from textbcv.report.model import CompareReport

GOLDEN = Path(__file__).resolve().parent / "data" / "golden" / "heldout" / "report.json.golden"


def test_a_large_held_out_gap_says_what_it_usually_means():
    report = json.loads(GOLDEN.read_text(encoding="utf-8"))
    name = next(iter(report["heldout"]["systems"]))
    per = report["heldout"]["systems"][name]
    f = next(iter(per))
    per[f].update(gap=0.2, outside_interval=True, outside_interval_without_duplicates=True,
                  gap_without_duplicates=0.19)
    text = "\n".join(heldout_markdown(CompareReport.from_dict(report)))
    assert "usually means the held-out file is other text than the corpus" in text
    assert "share of resamples with B better" in text
