"""The error anatomy of a report: every gold and predicted chunk of every fold counted once, the share of correct
chunks the pooled recall, each pair's difference paired like the Bayes test's (the correct share's difference
is the recall difference), in report.md, report.json and read back."""

from __future__ import annotations

import json

import pytest

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.report.model import load_report
from textbcv.scoring.modes import ANATOMY


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("anatomy")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:800], corpus)
    assert main(["compare", str(corpus), "--task", "ner", "--systems", "iob2,iobes", "--m", "2",
                 "--max-iterations", "10", "--quiet", "--no-plots", "--out", str(d / "run")]) == 0
    return d / "run"


def test_anatomy_accounts_for_every_chunk_and_matches_the_recall(run):
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    a = report["anatomy"]
    for name, x in a["systems"].items():
        folds = report["fold_counts"][name]
        tp, fp, fn = (sum(c[k] for c in folds) for k in ("tp", "fp", "fn"))
        c = x["counts"]
        wrong = c["wrong type"] + c["wrong boundary"] + c["wrong both"]
        assert (c["correct"], c["correct"] + wrong + c["missed"], c["correct"] + wrong + c["spurious"]) == (
            tp, tp + fn, tp + fp)
        assert (x["gold"], x["predicted"]) == (tp + fn, tp + fp)
        assert x["shares"]["correct"]["share"] == pytest.approx(tp / (tp + fn))
        for kind in ANATOMY:
            s = x["shares"][kind]
            assert s["ci"][0] <= s["share"] <= s["ci"][1]
    recall = next(c for c in report["comparisons"] if c["metric"] == "recall")
    correct = next(p for p in a["pairs"] if p["kind"] == "correct")
    assert correct["estimate"] == pytest.approx(recall["difference"]["estimate"])
    assert correct["ci"] == pytest.approx(recall["difference"]["ci"])
    assert {p["kind"] for p in a["pairs"]} == set(ANATOMY)


def test_anatomy_in_the_markdown_and_read_back(run):
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "## Error anatomy" in md and "| iob2 | iobes | wrong type |" in md
    from textbcv.folds.run_dir import RunDir
    from textbcv.report.model import CompareReport

    d = load_report(RunDir(run))
    assert CompareReport.from_dict(d).anatomy.to_dict() == d["anatomy"] and CompareReport.from_dict(d).to_dict() == d


def test_macro_f1_in_the_report(run):
    """Macro-F1 beside micro-F1: each system's is the mean of its pooled per-type F1 over the estimable types, the
    rare ones named; the pair's paired difference decided by the rule."""
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    mac = report["macro"]
    for name, x in mac["systems"].items():
        per = report["per_type"][name]
        f1 = [2 * per[t]["tp"] / (2 * per[t]["tp"] + per[t]["fp"] + per[t]["fn"]) for t in mac["types"]]
        assert x["estimate"] == pytest.approx(sum(f1) / len(f1))
        assert x["ci"][0] <= x["estimate"] <= x["ci"][1]
    (pair,) = mac["pairs"]
    assert pair["estimate"] == pytest.approx(mac["systems"]["iobes"]["estimate"] - mac["systems"]["iob2"]["estimate"])
    assert set(mac["types"]) | set(mac["rare"]) == set(report["per_type"]["iob2"]) | set(report["per_type"]["iobes"])
    md = (run / "report.md").read_text(encoding="utf-8")
    assert "## Macro-F1" in md and "iobes − iob2:" in md
