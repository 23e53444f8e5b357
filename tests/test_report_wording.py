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


def test_hf_export_names_documents_only_where_the_corpus_marks_them(tmp_path):
    import textbcv

    sents = "".join(f"w{i} O\nx{i} B-PER\n\n" for i in range(12))
    docs = "".join(f"-DOCSTART- O\n\nw{i} O\nx{i} B-PER\n\ny{i} O\n\n" for i in range(8))
    for name, text, has in (("nodocs.conll", sents, False), ("docs.conll", docs, True)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        corpus = textbcv.read_corpus(str(tmp_path / name))
        out = textbcv.export_folds(corpus, textbcv.make_splits(corpus, m=1), tmp_path / f"f-{name}", to="hf")
        rows = [json.loads(x) for x in (out / "fold-0-0" / "train.jsonl").read_text(encoding="utf-8").splitlines()]
        assert all(("document_id" in r) == has for r in rows)


def test_compare_says_a_corpus_marks_no_documents_as_split_does(tmp_path, capsys):
    from textbcv.cli import main

    text = "".join(f"w{i} O\nx{i} B-PER\n\n" for i in range(40))
    (tmp_path / "c.conll").write_text(text, encoding="utf-8")
    assert main(["compare", str(tmp_path / "c.conll"), "--task", "ner", "--systems", "iob2,iobes", "--m", "1",
                 "--max-iterations", "2", "--out", str(tmp_path / "run")]) == 0
    assert "this corpus marks no documents" in capsys.readouterr().err
