"""``textbcv split`` end to end: manifest format (CONTRACT.md), determinism, --report, bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textbcv.cli import main

NER = Path(__file__).resolve().parents[1] / "corpora" / "ner_en.conll"


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_manifest_format_and_determinism(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for p in (a, b):
        code, _, err = _run(capsys, "split", str(NER), "--format", "conll", "--m", "7", "--seed", "3", "--group-by",
                            "sentence", "--out", str(p))
        assert code == 0, err
    assert a.read_bytes() == b.read_bytes()
    d = json.loads(a.read_text())
    assert d["format"] == "textbcv-splits/1" and d["method"] == "bcv" and d["m"] == 7 and d["seed"] == 3
    n = d["n_sentences"]
    assert len(d["splits"]) == 7
    for s in d["splits"]:
        t, v = s["train"], s["valid"]
        assert t == sorted(t) and v == sorted(v) and sorted(t + v) == list(range(n))
    q = d["quality"]
    assert set(q["chi2_per_df"]) == {"label", "lemma", "length"}
    assert all(len(x) == 7 for x in q["chi2_per_df"].values())
    assert q["overlap_max_deviation"] <= q["overlap"]["bound"] == 2.0
    # nested: the 3 splits of m = 3 are the first 3 of m = 7
    c = tmp_path / "c.json"
    assert _run(capsys, "split", str(NER), "--format", "conll", "--m", "3", "--seed", "3", "--group-by", "sentence",
                "--out", str(c))[0] == 0
    assert json.loads(c.read_text())["splits"] == d["splits"][:3]


def test_default_unit_is_the_document_when_the_corpus_marks_documents(tmp_path, capsys):
    from textbcv.corpus import read_corpus

    p = tmp_path / "s.json"
    assert _run(capsys, "split", str(NER), "--format", "conll", "--m", "7", "--out", str(p))[0] == 0
    d = json.loads(p.read_text())
    assert d["options"]["group_by"] == "document" and d["options"]["group_by_requested"] == "auto"
    assert d["options"]["duplicates_together"] is False  # only documents are kept whole, and it says so
    assert d["options"]["balance"] == []
    doc = [s.document for s in read_corpus([str(NER)], format="conll")]
    for sp in d["splits"]:  # no document on both sides
        assert not {doc[i] for i in sp["train"]} & {doc[i] for i in sp["valid"]}
    assert "bound" not in d["quality"]["overlap"] and d["quality"]["overlap"]["unit"] == "document"


@pytest.mark.slow  # seconds of balancing: CI runs it (.ci/run); the fast suite keeps this file's quicker tests
def test_report_compares_bcv_select_and_random(tmp_path, capsys):
    p = tmp_path / "s.json"
    code, out, err = _run(capsys, "split", str(NER), "--format", "conll", "--m", "3", "--select", "5", "--report",
                          "--group-by", "sentence", "--balance", "label,lemma,length", "--out", str(p))
    assert code == 0, err
    lines = out.splitlines()
    assert "bcv χ²/J" in lines[0] and "bcv-select χ²/J" in lines[0] and "random χ²/J" in lines[0]
    assert sum(1 for x in lines if x.split()[:2] == ["mean", "lemma"]) == 1
    assert any(x.startswith("max |φ − n/4| bcv:") and "bound N/4 = 1" in x for x in lines)
    d = json.loads(p.read_text())
    assert d["method"] == "bcv"


def test_bcv_select_manifest(tmp_path, capsys):
    p = tmp_path / "s.json"
    code, _, err = _run(capsys, "split", str(NER), "--format", "conll", "--m", "3", "--method", "bcv-select",
                        "--select", "4", "--balance", "label,lemma,length", "--out", str(p))
    assert code == 0, err
    d = json.loads(p.read_text())
    assert d["method"] == "bcv-select" and d["options"]["select"] == 4 and 0 <= d["options"]["selected_draw"] < 4
    worst = max(max(v) for v in d["quality"]["chi2_per_df"].values())
    assert worst == pytest.approx(d["options"]["select_score"], abs=1e-5)


@pytest.mark.parametrize("argv, message", [
    (["--m", "0"], "--m must be at least 1"),
    (["--m", "100000"], "impossible"),
    (["--select", "0", "--method", "bcv-select"], "--select must be at least 1"),
    (["--balance", "lemma,colour"], "unknown balance measure 'colour'"),
    (["--method", "bcv-select"], "give at least one"),
    (["--method", "magic"], "invalid choice"),
])
def test_bad_options_one_line_exit_2_no_file(tmp_path, capsys, argv, message):
    p = tmp_path / "s.json"
    code, out, err = _run(capsys, "split", str(NER), "--format", "conll", *argv, "--out", str(p))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("textbcv: error: ") and message in err
    assert "Traceback" not in err
    assert not p.exists() and list(tmp_path.iterdir()) == []
