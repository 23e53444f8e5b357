"""scripts/calibration_corpora.py: the project's null pairs on every corpus go through ``textbcv calibrate``."""

from __future__ import annotations

import json

from conftest import script


def test_smoke_runs_resumes_and_summarizes(tmp_path):
    cc = script("calibration_corpora")
    assert cc.main(["--smoke", "--out", str(tmp_path)]) == 0
    units = tmp_path / "calibrate" / "bundled_ner" / "units.jsonl"
    before = units.read_bytes()
    assert [json.loads(x)["r"] for x in before.decode().splitlines()] == [0, 1]
    assert cc.main(["--smoke", "--out", str(tmp_path)]) == 0  # resumed: nothing trained again
    assert units.read_bytes() == before
    summary = json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8"))
    assert [r["corpus"] for r in summary["rows"]] == ["bundled_ner", "bundled_cws"]
    for r in summary["rows"]:
        s = r["summary"]
        assert s["calls"]["n"] == 2 and s["calls"]["k"] == s["calls_a"]["k"] + s["calls_b"]["k"]
    section = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert "| bundled English NER | iob2 (ap, 2 iterations) | 120 | 2 |" in section
    assert cc.main(["--smoke", "--out", str(tmp_path), "--summarize-only"]) == 0
    assert json.loads((tmp_path / "calibration_corpora.json").read_text(encoding="utf-8")) == summary
