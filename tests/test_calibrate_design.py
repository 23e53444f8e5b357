"""``textbcv calibrate`` measures the design the user runs (measured by default, fixed with ``m``), and a resumed
folder never mixes units drawn another way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import textbcv
import textbcv.comparison.pipeline as pipeline
from textbcv.calibration._design import DRAW
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.study import load_calibration
from textbcv.errors import InputError

CORPORA = textbcv.bundled_corpora()
TINY = {"reps": 1, "size": 120, "max_iterations": 2, "progress": False, "plot": False}
ROOT = Path(__file__).resolve().parent.parent


def _settings(out: Path) -> dict:
    return json.loads((out / "settings.json").read_text(encoding="utf-8"))


def _units(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "units.jsonl").read_text(encoding="utf-8").splitlines()]


def test_no_m_runs_the_measured_design_and_records_it(tmp_path):
    out = tmp_path / "cal"
    cal = textbcv.calibrate(CORPORA["ner"], ["iob2"], out=out, **TINY)
    s = _settings(out)["settings"]
    assert (s["design"], s["m"], s["m_max"], s["unit"], s["draw"]) == ("measured", 3, 7, "documents", DRAW)
    (u,) = _units(out)
    assert u["m"] in (3, 7) and u["folds_per_system"] == 2 * u["m"] == len(u["moments"]["fold_clusters"])
    design = json.loads((out / "calibration.json").read_text(encoding="utf-8"))["design"]
    assert design == {"design": "measured", "m": 3, "m_max": 7, "mean_folds_per_system": 2.0 * u["m"],
                      "ms": {str(u["m"]): 1}}
    assert "measured design" in cal.sentence() and "design: measured m = 3→7" in cal.text()


def test_an_extended_unit_is_answered_at_m_7(tmp_path, monkeypatch):
    # the measured rule goes on at m = 3 (as where the models' noise is floored): the unit is m = 7's, 14 folds each
    monkeypatch.setattr(pipeline, "stop_reason", lambda *a, **k: None)
    cal = textbcv.calibrate(CORPORA["ner"], ["iob2"], out=tmp_path / "cal", **TINY)
    (u,) = _units(tmp_path / "cal")
    assert (u["m"], u["folds_per_system"], len(u["moments"]["counts_a"])) == (7, 14, 14)
    assert cal.nulls[0].ms == {"7": 1} and "m = 7 on 1 of 1 data sets, 14.00 folds per system" in cal.sentence()


def test_an_explicit_m_is_a_fixed_design_and_resume_refuses_the_other(tmp_path):
    out = tmp_path / "cal"
    cal = textbcv.calibrate(CORPORA["ner"], ["iob2"], m=2, out=out, **TINY)
    s = _settings(out)["settings"]
    assert (s["design"], s["m"], "m_max" in s) == ("fixed", 2, False)
    assert [u["m"] for u in _units(out)] == [2] and "at m = 2 (4 folds per system)" in cal.sentence()
    with pytest.raises(InputError, match="other settings \\(design: 'fixed' there, 'measured' now"):
        textbcv.calibrate(CORPORA["ner"], ["iob2"], out=out, resume=True, **TINY)


def test_the_size_needs_eight_sentences_per_split_of_the_largest_m(tmp_path):
    with pytest.raises(InputError, match="between 56 \\(8 sentences per split of m = 7\\)"):
        textbcv.calibrate(CORPORA["ner"], ["iob2"], **{**TINY, "size": 40})
    with pytest.raises(InputError, match="between 24 "):
        textbcv.calibrate(CORPORA["ner"], ["iob2"], m=3, **{**TINY, "size": 20})


def _legacy(out: Path) -> None:
    """Make ``out``'s settings.json as a folder made before design, unit and draw were recorded."""
    held = _settings(out)
    for k in ("design", "m_max", "unit", "draw"):
        held["settings"].pop(k, None)
    (out / "settings.json").write_text(json.dumps(held), encoding="utf-8")


@pytest.fixture(scope="module")
def two_files(tmp_path_factory):
    # segmented text marks no documents: before draw 2 each file was a document, data sets drawn of whole files
    lines = CORPORA["cws"].read_text(encoding="utf-8").splitlines(keepends=True)
    d = tmp_path_factory.mktemp("two")
    (d / "a.txt").write_text("".join(lines[:150]), encoding="utf-8")
    (d / "b.txt").write_text("".join(lines[150:300]), encoding="utf-8")
    return [d / "a.txt", d / "b.txt"]


def test_a_legacy_folder_of_an_unmarked_two_file_corpus_is_refused(tmp_path, two_files):
    out = tmp_path / "cal"
    textbcv.calibrate(two_files, ["bmes"], m=3, out=out, **TINY)
    assert _settings(out)["settings"]["unit"] == "sentences"
    _legacy(out)
    before = (out / "units.jsonl").read_bytes()
    with pytest.raises(InputError, match="drawn when each file was taken as a document.*start a new folder") as e:
        textbcv.calibrate(two_files, ["bmes"], m=3, out=out, resume=True, **{**TINY, "reps": 2})
    assert e.value.file == str(out / "settings.json") and (out / "units.jsonl").read_bytes() == before


def test_a_legacy_folder_of_one_file_is_resumed_as_the_fixed_design_it_was(tmp_path):
    out = tmp_path / "cal"
    one = CORPORA["cws"]
    textbcv.calibrate(one, ["bmes"], m=3, out=out, **TINY)
    _legacy(out)
    assert CalibrationSettings.from_dict(_settings(out)["settings"]).design == "fixed"
    cal = textbcv.calibrate(one, ["bmes"], m=3, out=out, resume=True, **{**TINY, "reps": 2})
    assert cal.nulls[0].calls.n == 2
    s = _settings(out)["settings"]  # resumed: what it is drawn on is recorded from now on
    assert (s["design"], s["unit"], s["draw"]) == ("fixed", "sentences", DRAW)


@pytest.mark.parametrize("field, value", [("draw", 1), ("unit", "files")])
def test_a_folder_drawn_another_way_is_refused(tmp_path, field, value):
    out = tmp_path / "cal"
    textbcv.calibrate(CORPORA["cws"], ["bmes"], m=3, out=out, **TINY)
    held = _settings(out)
    held["settings"][field] = value
    (out / "settings.json").write_text(json.dumps(held), encoding="utf-8")
    with pytest.raises(InputError, match="units of another draw would be mixed") as e:
        textbcv.calibrate(CORPORA["cws"], ["bmes"], m=3, out=out, resume=True, **TINY)
    assert e.value.file == str(out / "settings.json")


def test_committed_calibrations_load_as_the_fixed_design_they_were():
    for name in ("sighan2005_msr", "conll2003_en-m7"):
        folder = ROOT / "docs" / "calibrate" / name
        if not folder.is_dir():
            pytest.skip(f"{folder} not in this checkout")
        cal, units = load_calibration(folder)
        m = 7 if name.endswith("-m7") else 3
        assert (cal.settings.design, cal.settings.m) == ("fixed", m)
        assert cal.design()["mean_folds_per_system"] == 2 * m and f"at m = {m} ({2 * m} folds" in cal.sentence()
