"""--heldout on a real corpus textbcv's other tests never use: UD Chinese-GSD (dev as the corpus, its
test file held out), word segmentation.

The held-out counts of every fold model are checked against words counted here with the `conllu`
library (not textbcv's reader), an interrupted run resumes without retraining finished folds, and
the resumed report equals an uninterrupted one.
"""

from __future__ import annotations

import json

import conllu
import pytest
from conftest import shared_path

from textbcv.cli import main

pytestmark = pytest.mark.slow


def word_spans(words: list[str]) -> set[tuple[int, int]]:
    spans, i = set(), 0
    for w in words:
        spans.add((i, i + len(w)))
        i += len(w)
    return spans


def tag_spans(tags: list[str]) -> set[tuple[int, int]]:
    """Words of a BMES/BB2B3MES tag sequence: a word starts at B* or S and ends at E or S."""
    spans, start = set(), 0
    for i, t in enumerate(tags):
        if t == "S" or t.startswith("B"):
            start = i
        if t in ("E", "S"):
            spans.add((start, i + 1))
    return spans


@pytest.fixture(scope="module")
def gsd(tmp_path_factory):
    dev = shared_path("ud_chinese_gsd", "zh_gsd-ud-dev.conllu")
    test = shared_path("ud_chinese_gsd", "zh_gsd-ud-test.conllu")
    return dev, test, tmp_path_factory.mktemp("gsd")


def args(dev, test, out, *extra):
    return ["compare", str(dev), "--heldout", str(test), "--task", "cws", "--systems", "bmes,bb2b3mes",
            "--m", "3", "--max-iterations", "30", "--quiet", "--no-plots", "--save-predictions",
            "--out", str(out), *extra]


@pytest.fixture(scope="module")
def full(gsd):
    dev, test, d = gsd
    assert main(args(dev, test, d / "full")) == 0
    return d / "full"


def test_heldout_counts_on_an_unseen_corpus_equal_an_independent_word_count(gsd, full):
    _, test, _ = gsd
    gold = [word_spans([t["form"] for t in s if isinstance(t["id"], int)])
            for s in conllu.parse(test.read_text(encoding="utf-8"))]
    assert len(gold) == 500
    recs = [json.loads(line) for line in (full / "folds.jsonl").read_text().splitlines()]
    assert len(recs) == 12
    for r in recs:
        name = f"{r['system']}-split{r['split']}-dir{r['direction']}.txt"
        f = full / "predictions" / "heldout" / "zh_gsd-ud-test" / name
        blocks = [b for b in f.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        assert len(blocks) == len(gold)
        tp = fp = fn = 0
        per_sentence = []
        for block, g in zip(blocks, gold):
            rows = [line.split() for line in block.splitlines()]
            assert tag_spans([x[1] for x in rows]) == g
            p = tag_spans([x[2] for x in rows])
            tp += len(p & g)
            fp += len(p - g)
            fn += len(g - p)
            per_sentence.append((len(p & g), len(p), len(g)))
        part = r["heldout"][str(test)]
        assert part["counts"]["overall"] == {"tp": tp, "fp": fp, "fn": fn}
        assert 0.6 < tp / (tp + 0.5 * (fp + fn)) < 0.95  # a trained segmenter, not an empty one


def test_heldout_report_on_an_unseen_corpus(gsd, full):
    _, test, _ = gsd
    rep = json.loads((full / "report.json").read_text())
    h = rep["heldout"]
    assert h["files"] == {str(test): {"sentences": 500, "tokens": 19206, "gold_chunks": 12010, "duplicates": 0}}
    for name in ("bmes", "bb2b3mes"):
        row = h["systems"][name][str(test)]
        assert 0.6 < row["pooled"]["f1"] < 0.95
    md = (full / "report.md").read_text(encoding="utf-8")
    assert "## Held-out test sets" in md and "zh_gsd-ud-test.conllu" in md


def test_interrupted_heldout_run_resumes_without_retraining(gsd, full):
    dev, test, d = gsd
    part = d / "part"
    assert main(args(dev, test, part)) == 0
    lines = (part / "folds.jsonl").read_text().splitlines()
    (part / "folds.jsonl").write_text("\n".join(lines[:5]) + "\n")  # as if stopped after five folds
    assert main(args(dev, test, part, "--resume")) == 0
    rep = json.loads((part / "report.json").read_text())
    assert (rep["run"]["folds_trained"], rep["run"]["folds_resumed"]) == (7, 5)
    old = [json.loads(x) for x in lines]
    new = [json.loads(x) for x in (part / "folds.jsonl").read_text().splitlines()]

    def key(r):
        return r["system"], r["split"], r["direction"]

    assert sorted((key(r), r["heldout"]) for r in new) == sorted((key(r), r["heldout"]) for r in old)

    def strip(t):
        return [x for x in t.splitlines() if not x.startswith("Run:")]

    assert strip((part / "report.md").read_text()) == strip((full / "report.md").read_text())
