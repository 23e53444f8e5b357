"""`textbcv score` and the conlleval input reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from textbcv.cli import main
from textbcv.corpus.conlleval import read_conlleval

DATA = Path(__file__).parent / "data"


def run(capsys, *argv):
    status = main(["score", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "infile,options,expected",
    [
        # expected files were computed by hand (see the comments in test_golden_numbers_by_hand)
        ("score_iob2.txt", [], "score_iob2.expected"),
        ("score_iobes.txt", [], "score_iobes.conlleval.expected"),
        ("score_iobes.txt", ["--scheme", "conlleval"], "score_iobes.conlleval.expected"),
        ("score_iobes.txt", ["--scheme", "iobes"], "score_iobes.iobes.expected"),
        ("score_iobes.txt", ["--scheme", "BIOES"], "score_iobes.iobes.expected"),
    ],
)
def test_conlleval_report_equals_golden_file(capsys, infile, options, expected):
    status, out, err = run(capsys, DATA / infile, *options)
    # score_iob2.txt's predictions open two chunks with I- (I-ORG after B-MISC, I-LOC after O): one warning
    warning = "2 chunks start with I- (0 gold, 2 predicted)" if infile == "score_iob2.txt" else None
    assert status == 0 and (warning in err and len(err.splitlines()) == 1 if warning else err == "")
    assert out.encode() == (DATA / expected).read_bytes()


def test_golden_numbers_by_hand():
    # score_iob2.txt: 15 tokens counting the -DOCSTART- line, as conlleval.pl does; 9 tags right.
    # gold: PER John Smith, LOC New York, ORG U.N., ORG EU, LOC Paris, PER Hilton (6)
    # pred: PER John Smith, ORG New York, ORG U.N., MISC and, ORG EU (I-ORG after B-MISC opens a
    #       chunk), LOC Paris (I-LOC after O opens a chunk), LOC Hilton (7)
    # correct: John Smith, U.N., EU, Paris (4): P = 4/7, R = 4/6, F = 16/26
    text = (DATA / "score_iob2.expected").read_text()
    assert "processed 15 tokens with 6 phrases; found: 7 phrases; correct: 4." in text
    assert (f"accuracy: {100 * 9 / 15:6.2f}%; precision: {400 / 7:6.2f}%; recall: {400 / 6:6.2f}%; "
            f"FB1: {1600 / 26:6.2f}") in text
    assert f"ORG: precision: {200 / 3:6.2f}%; recall: 100.00%; FB1: {80:6.2f}  3" in text


def test_json_output(capsys):
    status, out, _ = run(capsys, DATA / "score_iob2.txt", "--json")
    d = json.loads(out)
    # -DOCSTART- is a document boundary, not a token, in textbcv's units
    assert d["tokens"] == 14 and d["accuracy"] == 8 / 14
    assert d["overall"] == {"tp": 4, "fp": 3, "fn": 2, "precision": 4 / 7, "recall": 4 / 6, "f1": 8 / 13}
    assert list(d["types"]) == ["LOC", "MISC", "ORG", "PER"]
    assert d["types"]["ORG"] == {"tp": 2, "fp": 1, "fn": 0, "precision": 2 / 3, "recall": 1.0, "f1": 0.8}
    assert d["types"]["MISC"] == {"tp": 0, "fp": 1, "fn": 0, "precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_reader_units(tmp_path):
    p = tmp_path / "x.txt"
    p.write_text("-DOCSTART- O O\n\na B-X B-X\n-X- O O\nb I-Y O\n\n\n   \nc O O\n")
    f = read_conlleval(p)
    assert [(s.gold, s.line) for s in f.sentences] == [(("B-X",), 3), (("I-Y",), 5), (("O",), 9)]
    assert f.final_boundary is False and f.columns == 3
    assert [len(s.gold) for s in read_conlleval(p, docstart="token").sentences] == [1, 1, 1, 1]
    p.write_text("a\tB-X B-X\r\n\r\n")  # tabs and CRLF are white space
    f = read_conlleval(p)
    assert f.sentences[0].pred == ("B-X",) and f.final_boundary is True


@pytest.mark.parametrize(
    "content,message",
    [
        (b"a B-X B-X\nb O\n", r":2: expected 3 columns as on line 1, found 2$"),
        (b"a B-X B-X\n\nb\n", r":3: expected at least 2 columns"),
        (b"a O O\nb \xff O\n", r":2: invalid UTF-8"),
        (b"", r"x\.txt:1: file is empty"),
        (b"\n\n  \n", r"x\.txt:1: file is empty"),
        (b"a O O\nb O Q-X\n", r":2: predicted tag 'Q-X' is not a tag of IOBES"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, content, message):
    p = tmp_path / "x.txt"
    p.write_bytes(content)
    status, out, err = run(capsys, p, "--scheme", "iobes")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"textbcv: error: {p}")
    import re

    assert re.search(message, err.strip())


def test_unknown_scheme_and_missing_file(tmp_path, capsys):
    status, _, err = run(capsys, DATA / "score_iob2.txt", "--scheme", "iob3")
    assert status == 2 and "unknown tagging scheme 'iob3'" in err
    status, _, err = run(capsys, tmp_path / "nope.txt")
    assert status == 2 and "nope.txt: no such file" in err


def test_subprocess_no_traceback(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("a O\nb O O\n")
    r = subprocess.run([sys.executable, "-m", "textbcv", "score", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.shared
def test_eng_train_against_itself(shared, tmp_path, capsys):
    src = shared("conll2003_en", "eng.train")
    out = tmp_path / "self.txt"
    with open(src, encoding="utf-8") as fi, open(out, "w", encoding="utf-8") as fo:
        for line in fi:
            f = line.split()
            fo.write(" ".join(f + f[-1:]) + "\n" if f else "\n")
    status, text, _ = run(capsys, out)
    assert status == 0
    # conlleval counts the 946 -DOCSTART- lines as tokens: 203,621 + 946
    assert text.splitlines()[:2] == [
        "processed 204567 tokens with 23499 phrases; found: 23499 phrases; correct: 23499.",
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00",
    ]
    assert text.splitlines()[2:] == [
        f"{t:>17}: precision: 100.00%; recall: 100.00%; FB1: 100.00  {n}"
        for t, n in [("LOC", 7140), ("MISC", 3438), ("ORG", 6321), ("PER", 6600)]
    ]
    status, text, _ = run(capsys, out, "--json", "--scheme", "iob1")
    d = json.loads(text)
    assert d["tokens"] == 203621
    assert d["overall"] == {"tp": 23499, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0, "f1": 1.0}
