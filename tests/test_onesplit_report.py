"""The report's "What one split would claim" section: saved per-sentence counts, report.json, report.md, redraw.

* every fold record of ``compare`` holds each test sentence's [tp, fp, fn], in the order of the fold's
  test half in splits.json: the gold count of each (tp + fn) is recounted from the corpus itself;
* ``one_split`` in report.json is the stats module's answer on those counts, for S0 → and every fold;
* ``textbcv report DIR --redraw`` recomputes it from folds.jsonl with training made impossible, and
  gives the same bytes; a run whose folds have no per-sentence counts (an earlier version) gets a
  section saying so, and ``textbcv test`` still reads it;
* per-sentence counts that do not fit their fold are refused at FILE:LINE.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.report.markdown import render_markdown
from textbcv.report.model import CompareReport
from textbcv.stats.onesplit import one_split_tests


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("onesplit")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:400], corpus)
    out = d / "run"
    assert main(["compare", str(corpus), "--task", "ner", "--systems", "iob2,iobes", "--m", "2",
                 "--max-iterations", "4", "--quiet", "--no-plots", "--out", str(out)]) == 0
    return corpus, out


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "folds.jsonl").read_text(encoding="utf-8").splitlines()]


def test_folds_keep_every_test_sentences_counts_in_test_order(run):
    corpus, out = run
    sentences = read_corpus([corpus]).sentences
    splits = json.loads((out / "splits.json").read_text())["splits"]
    for r in _records(out):
        halves = splits[r["split"]]
        test = halves["valid"] if r["direction"] == 0 else halves["train"]
        rows = np.array(r["sentence_counts"])
        assert rows.shape == (r["sentences"], 3) == (len(test), 3)
        assert rows.sum(axis=0).tolist() == [r["counts"]["overall"][k] for k in ("tp", "fp", "fn")]
        gold = [len(set(sentences[i].chunks)) for i in test]
        assert (rows[:, 0] + rows[:, 2]).tolist() == gold


def test_report_json_holds_the_tests_of_the_stats_module(run):
    _, out = run
    report = json.loads((out / "report.json").read_text())
    o = report["one_split"]
    assert o["available"] and o["fold"] == {"split": 0, "direction": 0, "label": "S0 →", "id": "fold-0-0"}
    assert (o["resamples"], o["shuffles"], o["seed"], o["alpha"]) == (1000, 10000, 0, 0.05)
    recs = {(r["system"], r["split"], r["direction"]): r for r in _records(out)}
    (pair,) = o["pairs"]
    assert (pair["a"], pair["b"]) == ("iob2", "iobes")
    assert [(f["split"], f["direction"]) for f in pair["folds"]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for f in pair["folds"]:
        r = one_split_tests(recs[("iob2", f["split"], f["direction"])]["sentence_counts"],
                            recs[("iobes", f["split"], f["direction"])]["sentence_counts"], seed=0)
        assert (f["delta_f1"], f["bootstrap_p"], f["randomization_p"]) == \
            (r.delta, r.bootstrap.p_value, r.randomization.p_value)
        assert f["delta_f1"] == pytest.approx(report["fold_f1"]["iobes"][2 * f["split"] + f["direction"]]
                                              - report["fold_f1"]["iob2"][2 * f["split"] + f["direction"]], abs=1e-12)
    first = pair["folds"][0]
    assert (pair["delta_f1"], pair["bootstrap"]["p_value"], pair["randomization"]["p_value"]) == \
        (first["delta_f1"], first["bootstrap_p"], first["randomization_p"])
    assert o["sentences"] == first["sentences"]


def test_report_md_section(run):
    _, out = run
    report = json.loads((out / "report.json").read_text())
    md = (out / "report.md").read_text()
    assert md == render_markdown(CompareReport.from_dict(report))
    section = md[md.index("## What one split would claim"):]
    pair = report["one_split"]["pairs"][0]
    assert f"| iob2 | iobes | {100 * pair['delta_f1']:+.2f} |" in section
    f1 = next(c for c in report["comparisons"] if c["metric"] == "f1")
    assert f"| {f1['p_b_better']:.4f} |" in section.splitlines()[6]
    assert "ignore the variance that comes from the choice of training set" in section
    assert "not this report's answer" in section


def _copy(run_dir: Path, dest: Path) -> Path:
    shutil.copytree(run_dir, dest)
    return dest


def _no_training(monkeypatch):
    from textbcv.tagging import crf, runner

    def refuse(*a, **k):
        raise AssertionError("a model was trained")

    monkeypatch.setattr(crf.CRFTagger, "fit_features", refuse)
    monkeypatch.setattr(runner, "run_fold", refuse)


def test_redraw_from_saved_folds_gives_the_same_bytes(run, tmp_path, monkeypatch, capsys):
    _, out = run
    _no_training(monkeypatch)
    same = _copy(out, tmp_path / "same")
    assert main(["report", str(same), "--redraw"]) == 0
    for name in ("report.json", "report.md", "folds.jsonl"):
        assert (same / name).read_bytes() == (out / name).read_bytes(), name

    d = _copy(out, tmp_path / "before")  # a report.json written before the section existed
    report = json.loads((d / "report.json").read_text())
    del report["one_split"]
    (d / "report.json").write_text(json.dumps(report), encoding="utf-8")
    md = render_markdown(CompareReport.from_dict(report))
    assert "Not computed: this report was written by an earlier textbcv version" in md
    capsys.readouterr()
    assert main(["report", str(d), "--redraw", "--full"]) == 0
    assert "What one split would claim" in capsys.readouterr().out
    # the edited report.json is not textbcv's as written: it stays, and the redrawn report goes beside it
    assert "one_split" not in json.loads((d / "report.json").read_text())
    again = json.loads((d / "redrawn" / "report.json").read_text())
    assert again["one_split"] == json.loads((out / "report.json").read_text())["one_split"]


def test_old_run_without_sentence_counts(run, tmp_path, monkeypatch, capsys):
    _, out = run
    d = _copy(out, tmp_path / "old")
    lines = []
    for r in _records(d):
        r.pop("sentence_counts")
        lines.append(json.dumps(r, ensure_ascii=False))
    (d / "folds.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _no_training(monkeypatch)
    capsys.readouterr()
    assert main(["report", str(d), "--redraw", "--full"]) == 0
    printed = capsys.readouterr().out
    o = json.loads((d / "report.json").read_text())["one_split"]
    assert o == {"available": False, "reason": o["reason"]} and "without per-sentence counts" in o["reason"]
    md = (d / "report.md").read_text()
    assert f"Not available for this run: {o['reason']}." in md
    assert "without per-sentence counts" in printed
    assert main(["test", str(d), "--json"]) == 0  # the old folds are still read


def test_redraw_needs_a_run_directory(tmp_path, capsys):
    (tmp_path / "report.md").write_text("# x\n")
    assert main(["report", str(tmp_path), "--redraw"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("textbcv: error: ") and "no report.json here" in err and err.count("\n") == 1


@pytest.mark.parametrize("change,message", [
    (lambda r: r["sentence_counts"].pop(), '"sentence_counts" has'),
    (lambda r: r["sentence_counts"][0].__setitem__(1, r["sentence_counts"][0][1] + 1),
     '"sentence_counts" add up to fp'),
    (lambda r: r["sentence_counts"][0].__setitem__(0, -1), "sentence_counts[0][0] must be an integer in [0, 10^15]"),
    (lambda r: r["sentence_counts"][0].__setitem__(2, 0.5), "sentence_counts[0][2] must be a non-negative integer"),
    (lambda r: r["sentence_counts"].__setitem__(0, [1, 2]), '"sentence_counts" must be a list of [tp, fp, fn]'),
])
def test_bad_sentence_counts_are_refused_at_their_line(run, tmp_path, capsys, change, message):
    _, out = run
    records = _records(out)
    change(records[2])
    path = tmp_path / "folds.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    capsys.readouterr()
    assert main(["test", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"textbcv: error: {path}:3: ") and message in err, err
