"""A run whose folder holds the user's calibration of the same corpus quotes it in the decision rule; a calibration
of another corpus is refused with a warning and never quoted."""

from __future__ import annotations

import json
import shutil

import pytest

from textbcv.cli import main
from textbcv.comparison.calibration_quote import run_calibration

OPTS = ["--max-iterations", "2"]


def _compare(tmp_path, corpus, name="run"):
    out = tmp_path / name
    assert main(["compare", str(corpus), "--task", "ner", "--systems", "iob2,iobes", "--m", "3", *OPTS,
                 "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def ner_run(tmp_path_factory, ner_small):
    """``_compare`` on the bundled NER corpus's first documents, made once; each test writes into its own copy
    (``_copy``)."""
    return _compare(tmp_path_factory.mktemp("quote"), ner_small)


def _copy(run, tmp_path):
    return shutil.copytree(run, tmp_path / "run")


def _calibrate(corpus, out, *design: str):
    """A calibration of the run's design (fixed m = 3) unless ``design`` gives another."""
    assert main(["calibrate", str(corpus), "--systems", "iob2", "--reps", "2", "--size", "120", *OPTS,
                 *(design or ("--m", "3")), "--out", str(out)]) == 0


def test_a_calibration_of_another_design_is_not_quoted(tmp_path, capsys, ner_run, ner_small):
    """The measured design's calibration says nothing of a fixed m = 3 run's calls: the rule names both designs."""
    run = tmp_path / "run"
    shutil.copytree(ner_run, run)
    _calibrate(ner_small, run / "calibration", "--reps", "1")
    assert main(["report", str(run), "--redraw"]) == 0
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "Measured on this corpus by `textbcv calibrate`" not in md
    assert ("was measured with the measured design (m = 3, extended to 7) and P ≥ 0.95, not with this report's "
            "m = 3 and P ≥ 0.95, so it is not quoted") in md


def test_report_quotes_the_runs_own_calibration(tmp_path, capsys, ner_run, ner_small):
    run = _copy(ner_run, tmp_path)
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "Measured on this corpus by `textbcv calibrate`" not in md  # none yet: the project's evidence
    _calibrate(ner_small, run / "calibration")
    cal = json.loads((run / "calibration" / "calibration.json").read_text(encoding="utf-8"))
    capsys.readouterr()
    assert main(["report", str(run), "--redraw"]) == 0
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "Measured on this corpus by `textbcv calibrate` (the run's calibration/ folder): " + cal["sentence"] in md
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    assert report["calibration"]["nulls"][0]["calls"] == cal["nulls"][0]["calls"]
    assert report["calibration"]["m"] == 3 and report["calibration"]["threshold"] == 0.95
    # under another threshold it is not quoted, and the report says why
    assert main(["report", str(run), "--threshold", "0.9", "--no-plots"]) == 0
    what_if = next(p for p in run.iterdir() if p.name.startswith("what-if"))
    md = (what_if / "report.md").read_text(encoding="utf-8")
    assert "Measured on this corpus by `textbcv calibrate`" not in md
    assert "was measured with m = 3 and P ≥ 0.95, not with this report's m = 3 and P ≥ 0.9" in md


def test_a_calibration_of_another_corpus_is_refused(tmp_path, capsys, ner_run, ner_small):
    other = tmp_path / "other.conll"
    blocks = ner_small.read_text(encoding="utf-8").split("\n\n")
    other.write_text("\n\n".join(blocks[:3] + blocks[4:]), encoding="utf-8")  # one sentence fewer
    run = _copy(ner_run, tmp_path)
    _calibrate(other, run / "calibration")
    capsys.readouterr()
    assert main(["report", str(run), "--redraw"]) == 0
    err = capsys.readouterr().err
    assert "a calibration of another corpus" in err and "not quoted" in err
    assert "Measured on this corpus" not in (run / "report.md").read_text(encoding="utf-8")
    assert "calibration" not in json.loads((run / "report.json").read_text(encoding="utf-8"))


def test_no_folder_no_block_and_a_broken_summary_is_said(tmp_path):
    assert run_calibration(tmp_path, "f" * 16) == (None, None)
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "calibration.json").write_text("{not json", encoding="utf-8")
    block, warning = run_calibration(tmp_path, "f" * 16)
    assert block is None and warning.startswith("textbcv: warning: ") and "project's evidence" in warning
    shutil.rmtree(tmp_path / "calibration")


def test_a_several_seed_calibration_is_not_quoted_for_a_one_seed_run(tmp_path, ner_run, ner_small):
    run = _copy(ner_run, tmp_path)
    assert main(["calibrate", str(ner_small), "--systems", "iob2", "--reps", "1", "--size", "120", *OPTS,
                 "--train-seeds", "2", "--out", str(run / "calibration")]) == 0
    assert main(["report", str(run), "--redraw"]) == 0
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "Measured on this corpus by `textbcv calibrate`" not in md
    assert "trained 2 seeds per system, this run one, so it is not quoted" in md
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    assert report["calibration"]["train_seeds"] == 2
