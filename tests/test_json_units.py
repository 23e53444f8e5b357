"""Machine-readable outputs hold one unit: every precision, recall, F1, share and probability a fraction in [0, 1]."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textbcv.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCORES = ("precision", "recall", "f1", "accuracy", "share", "p_b_better", "p_a_better", "p_equivalent", "rate")
#: blocks whose metric-named numbers are not scores: ratios of variances, count factors
NOT_SCORES = ("design_effects", "design_effect_folds", "count_factor")


def _fractions(value, path="") -> list[str]:
    """The paths of score-like numbers outside [0, 1]."""
    bad = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in NOT_SCORES:
                continue
            if k in SCORES and isinstance(v, (int, float)) and not isinstance(v, bool) and not 0 <= v <= 1:
                bad.append(f"{path}.{k} = {v}")
            bad += _fractions(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            bad += _fractions(v, f"{path}[{i}]")
    return bad


def _json(capsys, *argv) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_score_modes_are_fractions_unrounded(capsys):
    out = _json(capsys, "score", str(ROOT / "tests" / "data" / "score_iob2.txt"), "--modes", "--json")
    assert not _fractions(out)
    for mode in out["modes"].values():
        tp = mode["correct"] + 0.5 * mode["partial"]
        fp = mode["incorrect"] + 0.5 * mode["partial"] + mode["spurious"]
        fn = mode["incorrect"] + 0.5 * mode["partial"] + mode["missed"]
        assert mode["precision"] == pytest.approx(tp / (tp + fp), abs=0) or mode["precision"] == tp / (tp + fp)
        assert mode["recall"] == tp / (tp + fn)
    assert out["modes"]["strict"]["precision"] == out["overall"]["precision"]


def test_test_json_is_in_fractions(capsys):
    assert not _fractions(_json(capsys, "test", str(ROOT / "docs" / "example-counts.json"), "--json"))


def test_report_json_and_calibration_json_are_in_fractions(tmp_path, capsys, ner_small):
    ner = str(ner_small)
    assert main(["compare", ner, "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "5",
                 "--quiet", "--out", str(tmp_path / "run")]) == 0
    assert not _fractions(json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8")))
    assert not _fractions(_json(capsys, "plan", str(tmp_path / "run"), "--json"))
    cal = _json(capsys, "calibrate", ner, "--systems", "iob2", "--reps", "1", "--size", "120", "--max-iterations",
                "2", "--out", str(tmp_path / "cal"), "--json")
    assert not _fractions(cal)
