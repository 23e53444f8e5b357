"""compare, evaluate and report print a short answer (at most 25 lines for two systems); --full prints everything."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from textbcv.cli import main


@pytest.fixture(scope="module")
def printed_run(tmp_path_factory, ner_small):
    """One compare (not --quiet: what it prints is kept) for the whole module, which only reads its folder."""
    out = tmp_path_factory.mktemp("short") / "run"
    printed, notes = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(notes):
        assert main(["compare", str(ner_small), "--task", "ner", "--systems", "iob2,iobes", "--max-iterations", "10",
                     "--out", str(out)]) == 0, notes.getvalue()
    return out, printed.getvalue()


@pytest.fixture()
def run(printed_run):
    return printed_run[0]


def test_compare_prints_the_answer_in_at_most_25_lines(printed_run):
    out, text = printed_run
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    lines = text.splitlines()
    assert len(lines) <= 25, text
    assert " ".join(text.split()).startswith(" ".join(report["conclusion"].split()))  # the answer first, whole
    assert "the rule's 90% interval" in text and "Pooled precision, recall and F1" in text
    assert lines[-1] == f"The whole report: {out}/report.md (or textbcv report {out} --full)."


def test_full_prints_the_whole_report(run, capsys):
    assert main(["report", str(run)]) == 0
    short = capsys.readouterr().out
    assert main(["report", str(run), "--full"]) == 0
    full = capsys.readouterr().out
    assert len(short.splitlines()) <= 25 < len(full.splitlines())
    for section in ("Bayes test", "Setup", "Per-fold"):
        assert section in full and section not in short
